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
