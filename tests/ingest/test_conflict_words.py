"""A conflict names a game and a deal in the words its players know (``Variant.game_named``,
``Variant.deal_named``): a bridge board read from a traveller by its event, board and pairs,
not by its game's hash alone (``traveller/1008a52a13d529d0``), which still follows, since it is
what makes the name unique (docs/ingest.md "Versions of a source", ``model/bridge/words.py``).
A game whose id is a name (a score sheet's) is named by it, as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest.pipeline import FileReport, ingest_paths
from model.problems import Code
from tests.ingest.conftest import SAMPLES

TRAVELLERS = SAMPLES / "bridge" / "club-pairs-travellers.csv"
EVENT = "Riverside BC Tuesday pairs 2026-11-24"
FIRST_ROW = f"{EVENT},1,1,1,4S,N,AH,10,420"
BOARD_1 = f"board 1 of {EVENT}, NS pair 1 against EW pair 1 (deal 1 of game 'traveller/"
BOARD_2 = f"board 2 of {EVENT}, NS pair 1 against EW pair 1 (deal 2 of game 'traveller/"


def ingest(db: Path, path: Path, *, fast: bool = True, replace: bool = False) -> FileReport:
    (report,) = ingest_paths([path], db, fast=fast, replace=replace)
    assert report.failed is None, report.failed
    return report


def conflicts(report: FileReport, code: Code = Code.DEAL_CONFLICT) -> list[str]:
    return [i.message for i in report.issues if i.code == code]


@pytest.mark.parametrize("fast", [True, False], ids=["fast paths", "per record"])
def test_a_changed_board_is_named_by_event_board_and_pairs(tmp_path: Path, fast: bool) -> None:
    text = TRAVELLERS.read_text(encoding="utf-8")
    assert FIRST_ROW in text
    changed = tmp_path / "corrected.csv"
    changed.write_text(text.replace(FIRST_ROW, f"{EVENT},1,1,1,4S,N,AH,9,-50"), "utf-8")
    db = tmp_path / "t.duckdb"
    ingest(db, TRAVELLERS, fast=fast)
    (said,) = conflicts(ingest(db, changed, fast=fast))
    assert said.startswith(BOARD_1), said
    assert " has other content than the one stored from " in said


@pytest.mark.parametrize("fast", [True, False], ids=["fast paths", "per record"])
def test_a_board_a_version_dropped_is_named_so(tmp_path: Path, fast: bool) -> None:
    """Both messages of a dropped deal: the version without it, and (after it was dropped with
    ``replace``) the earlier version read again."""
    lines = TRAVELLERS.read_text(encoding="utf-8").splitlines(keepends=True)
    second = next(i for i, t in enumerate(lines) if t.startswith(f"{EVENT},2,1,1,"))
    path, db = tmp_path / "pairs.csv", tmp_path / "t.duckdb"
    path.write_text("".join(lines), "utf-8")
    ingest(db, path, fast=fast)
    path.write_text("".join(lines[:second] + lines[second + 1:]), "utf-8")
    (said,) = conflicts(ingest(db, path, fast=fast))
    assert said.startswith(BOARD_2) and " stored from " in said, said
    ingest(db, path, fast=fast, replace=True)
    path.write_text("".join(lines), "utf-8")
    (said,) = conflicts(ingest(db, path, fast=fast))
    assert said.startswith(BOARD_2) and " was dropped from " in said, said


def _game(**fields: object) -> str:
    return json.dumps({"record": "game", "game_id": "riverside/pairs-1",
                       "variant": "bridge-duplicate", "players": ["Ann", "Bob", "Sue", "Tom"],
                       **fields})


def test_a_changed_bridge_game_is_named_by_its_event_and_sides(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(_game(event="Club pairs") + "\n", "utf-8")
    second.write_text(_game(event="Club pairs", league="Riverside") + "\n", "utf-8")
    ingest(db, first)
    (said,) = conflicts(ingest(db, second), Code.GAME_CONFLICT)
    assert said.startswith("the game of Club pairs, Ann and Sue against Bob and Tom "
                           "(game 'riverside/pairs-1') is already known with other content"), said


def test_a_game_named_by_its_id_is_still_named_so(tmp_path: Path) -> None:
    """A game without an event (the rubber sample's) and its deals keep their ids' names."""
    rubber = (SAMPLES / "bridge" / "rubber-session.jsonl").read_text(encoding="utf-8")
    game = json.loads(rubber.splitlines()[0])
    changed = tmp_path / "b.jsonl"
    changed.write_text(rubber.replace('"tricks": 10}', '"tricks": 9}', 1), "utf-8")
    db = tmp_path / "t.duckdb"
    ingest(db, SAMPLES / "bridge" / "rubber-session.jsonl")
    (said,) = conflicts(ingest(db, changed))
    assert said.startswith(f"deal 1 of game {game['game_id']!r} has other content"), said
