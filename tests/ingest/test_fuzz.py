"""A short, deterministic run of the mutation fuzzer (tests/ingest/fuzz.py; ``make fuzz`` runs
a long one): mutants of real files of every format, ingested a batch at a time, keep the
invariants (no exception, no failed file, read = stored + duplicates + quarantined, the data
checks hold)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.ingest import fuzz


def test_corpus_holds_every_format() -> None:
    suffixes = {p.suffix.lower() for p in fuzz.corpus()}
    assert suffixes >= {".jsonl", ".csv", ".pbn", ".lin", ".ppn", ".txt"}


def test_mutants_are_deterministic(tmp_path: Path) -> None:
    files = fuzz.corpus()
    a = fuzz.make_mutants(random.Random(7), files, 5, tmp_path / "a")
    b = fuzz.make_mutants(random.Random(7), files, 5, tmp_path / "b")
    assert [m.mutations for m in a] == [m.mutations for m in b]
    assert [m.path.read_bytes() for m in a] == [m.path.read_bytes() for m in b]


def test_check_batch_can_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The invariants are checked: a pipeline that loses a record is caught."""
    from ingest.pipeline import FileReport

    def losing(paths: list[Path], db: Path, **_: object) -> list[FileReport]:
        return [FileReport(str(p), records=3, stored=1) for p in paths]

    monkeypatch.setattr(fuzz, "ingest_paths", losing)
    (m,) = fuzz.make_mutants(random.Random(1), fuzz.corpus(), 1, tmp_path)
    (failure,) = [f for f in fuzz.check_batch([m], tmp_path / "x.duckdb") if "read but" in f]
    assert "3 read but 1 stored" in failure


@pytest.mark.parametrize("seed", [11, 12])
def test_short_fuzz_run_keeps_the_invariants(tmp_path: Path, seed: int) -> None:
    outcome = fuzz.fuzz(seed, fuzz.BATCH, tmp_path)
    assert len(outcome.mutants) == fuzz.BATCH
    assert outcome.failures == []


@pytest.mark.parametrize("name", ["league.jsonl", "00001.lin", "example2.pbn"])
def test_untouched_records_of_an_unmutated_file_are_all_its_records(name: str) -> None:
    from ingest.formats import reader_for

    path = {p.name: p for p in fuzz.corpus()}.get(name) or (
        fuzz.SHARED / "endplay-fixtures" / "pbn" / name)
    data = path.read_bytes()
    floor = fuzz.untouched(path.suffix.lower(), data, data)
    reader = reader_for(path)
    assert reader is not None
    items = list(reader.read(path))
    if path.suffix != ".jsonl":  # a PBN or LIN game line comes with its first deal
        items = [i for i in items if getattr(i, "data", {}).get("record") != "game"]
    assert 0 < floor <= len(items)
    assert fuzz.untouched(path.suffix.lower(), data, data[: len(data) // 2]) < floor


def test_a_record_silently_lost_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    from ingest.pipeline import FileReport

    (m,) = [m for m in fuzz.make_mutants(random.Random(3), fuzz.corpus(), 40, tmp_path)
            if m.origin.suffix == ".jsonl" and m.floor > 1][:1]

    def one_short(paths: list[Path], db: Path, **_: object) -> list[FileReport]:
        return [FileReport(str(p), records=m.floor - 1, quarantined=m.floor - 1) for p in paths]

    monkeypatch.setattr(fuzz, "ingest_paths", one_short)
    failures = fuzz.check_batch([m], tmp_path / "x.duckdb")
    assert any("stand unchanged" in f for f in failures)
