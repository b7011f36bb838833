"""The records of every reader but the JSON Lines fast path go to the columnar path in batches
(``ingest/records.py``), with the outcome of the reference one by one (records.md 2: every record
stored, a duplicate or quarantined; the earlier of two records with one number kept).

Held on the samples of every format, the bridge files of ``../shared/data`` (PBN, LIN, DDS) and
the PPN files of ``../shared/data/prefko-ppn``, and, for every variant, on a file of simulated
deals broken, repeated and conflicting, read record by record (a JSON Lines file below
``pipeline.FAST_FROM``): the same tables and counts with the columnar path and without.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ingest import columnar, pipeline, records
from ingest.pipeline import FileReport, ingest_paths
from ingest.records import Records
from ingest.source import Raw, Repair
from ingest.validate import Accepted, Validator
from sim.drivers import SIMULATED
from tests.ingest.conftest import ROOT, SAMPLES
from tests.ingest.conftest import snapshot as snapshot_of
from tests.ingest.taken import counted
from tests.ingest.test_columnar import _across_paths, _mutate, _written, simulated

SHARED = ROOT.parent / "shared" / "data"


def _files() -> list[Path]:
    own = [p for p in sorted(SAMPLES.rglob("*")) if p.is_file()
           and p.suffix.lower() in (".csv", ".pbn", ".lin", ".ppn", ".dds", ".txt")
           and not p.name.endswith(".game.json")]
    shared = [*sorted((SHARED / "endplay-fixtures" / "pbn").glob("*.pbn")),
              *sorted((SHARED / "bbo-vugraph-lin").glob("*.lin"))[:6],
              *sorted((SHARED / "dds-hands").glob("*"))[:3],
              *sorted((SHARED / "prefko-ppn").rglob("*.ppn"))[:6]]
    return own + [p for p in shared if p.is_file()]


def _report(r: FileReport) -> tuple[object, ...]:
    """A file's counts and issues (in line order: a conflict the columnar path's deal meets is
    said at the batch's end, with those of the JSON Lines fast paths)."""
    return (r.source, r.records, r.stored, r.duplicates, r.quarantined, r.repaired,
            sorted(r.issues, key=lambda i: (i.line, i.record_key or "", i.message)))


def _same_with_and_without(paths: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           **kwargs: Any) -> list[int]:
    """Ingest ``paths`` with the columnar path (every batch of a deal or more) and without
    (``fast=False``): equal reports and tables. Returns what the columnar path took."""
    monkeypatch.setattr(records, "COLUMNAR_FROM", 1)
    used = counted(monkeypatch, columnar, "judge")
    on = ingest_paths(paths, tmp_path / "on.duckdb", **kwargs)
    off = ingest_paths(paths, tmp_path / "off.duckdb", fast=False, **kwargs)
    assert [_report(r) for r in on] == [_report(r) for r in off]
    assert snapshot_of(tmp_path / "on.duckdb") == snapshot_of(tmp_path / "off.duckdb")
    return used


def test_the_files_of_every_reader_give_the_tables_of_the_reference(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files()
    assert {p.suffix.lower() for p in files} >= {".csv", ".pbn", ".lin", ".ppn"}
    used = _same_with_and_without(files, tmp_path, monkeypatch, batch=500)
    assert sum(used) > 1000  # the path took deals of these files


@pytest.mark.parametrize("variant", SIMULATED)
def test_records_broken_repeated_and_conflicting_give_the_tables_of_the_reference(
        variant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file read record by record (``FAST_FROM`` above its size): legal deals, broken ones,
    repeats (duplicates and conflicts, in one batch and across batches), numbers taken by the
    reference and the columnar path, and a game line written again in the middle of its deals
    (other content: a game conflict), in small batches and in one."""
    monkeypatch.setattr(pipeline, "FAST_FROM", 1 << 40)
    games, deals = simulated(variant)
    rng = random.Random(3)
    lines = _across_paths(rng, games, deals)
    for i, t in enumerate(deals):
        if i % 3 == 1:
            d = json.loads(t)
            del d["record"]
            _mutate(rng, rng.randrange(24), d, games)
            lines.append(_written(rng, rng.choice([0, 0, 1, 2, 3]), d))
    changed = json.loads(games[0])
    changed["players"] = list(reversed(changed["players"]))
    lines.insert(len(lines) // 2, json.dumps(changed))
    src = tmp_path / "mixed.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for batch in (23, 100_000):
        folder = tmp_path / str(batch)
        folder.mkdir()
        used = _same_with_and_without([src], folder, monkeypatch, batch=batch)
        assert sum(used) > 0


def test_a_game_record_after_its_deals_replaces_their_game_only_after_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``--replace``, a changed game line supersedes the stored game: the deals before it
    in the file are judged against the stored game, those after it against the new one, as
    one by one; so is a deal before it that the reference judges (its number twice: both go
    to the reference, and are duplicates of the stored deal)."""
    monkeypatch.setattr(pipeline, "FAST_FROM", 1 << 40)
    games, deals = simulated("greek-prefa")
    gid = json.loads(games[0])["game_id"]
    own = [t for t in deals if json.loads(t)["game_id"] == gid]
    first = tmp_path / "week.jsonl"
    first.write_text("\n".join([games[0], *own]) + "\n", encoding="utf-8")
    changed = json.loads(games[0])
    changed["players"] = ["Zed", *changed["players"][1:]]
    half = len(own) // 2
    for name in ("on", "off"):
        (tmp_path / name).mkdir()
        ingest_paths([first], tmp_path / name / "db.duckdb")
    first.write_text("\n".join([games[0], *own[:half], own[0], json.dumps(changed),
                                *own[half:]]) + "\n", encoding="utf-8")
    monkeypatch.setattr(records, "COLUMNAR_FROM", 1)
    (on,) = ingest_paths([first], tmp_path / "on" / "db.duckdb", replace=True)
    (off,) = ingest_paths([first], tmp_path / "off" / "db.duckdb", replace=True, fast=False)
    assert _report(on) == _report(off)
    assert off.quarantined > 0  # the deals after it name players the new game does not have
    assert snapshot_of(tmp_path / "on" / "db.duckdb") == snapshot_of(tmp_path / "off" / "db.duckdb")


def _raw(k: int, text: str, repairs: tuple[Repair, ...] = ()) -> Raw:
    return Raw("t.pbn", k + 1, json.loads(text), text, repairs)


def test_a_number_a_later_repaired_deal_holds_is_judged_by_the_reference(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal the columnar path reads, and later in the batch a deal with its game and number
    that the reader repaired: both are the reference's, in record order (records.md 2: the
    earlier one is kept, the later is a duplicate or a conflict at the flush). Other deals stay
    with the columnar path."""
    monkeypatch.setattr(records, "COLUMNAR_FROM", 1)
    games, deals = simulated("greek-prefa")
    validator = Validator()
    held = Records(validator)
    held.add(_raw(0, games[0]))
    gid = json.loads(games[0])["game_id"]
    own = [t for t in deals if json.loads(t)["game_id"] == gid]
    for k, text in enumerate(own, start=1):
        held.add(_raw(k, text))
    held.add(_raw(len(own) + 1, own[0], (Repair("opening-passes", "put back"),)))
    verdicts, taken, _ = held.outcome()
    assert isinstance(verdicts[1], Accepted) and isinstance(verdicts[-1], Accepted)
    assert verdicts[2:-1] == [None] * (len(own) - 1)
    assert sorted(taken.deals["idx"].to_list()) == list(range(2, len(own) + 1))


def test_deals_a_reader_repaired_go_the_columnar_path_with_their_repairs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """endplay's example3.pbn (../shared/data/endplay-fixtures): about three boards in four need
    a repair as they are read (opening passes put back, a play dropped: docs/bridge.md). The
    columnar path takes them, and records their repairs as the reference does: the same reports
    (with the deals repaired) and tables, stored and then again as duplicates."""
    path = SHARED / "endplay-fixtures" / "pbn" / "example3.pbn"
    again = tmp_path / "again.pbn"  # another file with the same boards: duplicates
    again.write_bytes(path.read_bytes() + b"\n")
    used = counted(monkeypatch, columnar, "judge")
    runs = {}
    for name, fast in (("on", True), ("off", False)):
        runs[name] = [ingest_paths([p], tmp_path / f"{name}.duckdb", fast=fast)[0]
                      for p in (path, again)]
        if fast:
            assert sum(used) > 7000  # nearly all of its 7,632 boards, the repaired ones too
    first, second = runs["on"]
    assert first.repaired > 5000 and second.duplicates > 7000 and second.stored == 0
    assert second.repaired == first.repaired
    assert [_report(r) for r in runs["on"]] == [_report(r) for r in runs["off"]]
    assert snapshot_of(tmp_path / "on.duckdb") == snapshot_of(tmp_path / "off.duckdb")
