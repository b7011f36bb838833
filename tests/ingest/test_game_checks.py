"""The game-level check at ingest (``Variant.check_game``, ``_FileLoad.check_games``): Russian
preferans's raspasy exit (russian.md 7: after raspasy the next contract must reach the exit level;
Leningrad's hard exit, flag ``raspasy_exit = 7-7-7``) needs a game's earlier deals, so it runs once
a file's deals are all in; an offending deal of the file is quarantined with the check's message
and the rest of the game is stored and settled."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from ingest.pipeline import StrictError, ingest_paths
from model.problems import Code
from scoring.store import score_pending

GAME = "club/exit"
RASPASY = {"dealer": "C", "tricks": {"A": 3, "B": 3, "C": 4}}


def game(exit_: str) -> dict[str, Any]:
    return {"record": "game", "game_id": GAME, "variant": "russian", "players": ["A", "B", "C"],
            "rules": {"raspasy_exit": exit_}}


def deal(no: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"record": "deal", "game_id": GAME, "deal_no": no, **body}


def contract(c: str) -> dict[str, Any]:
    """A whisted contract of A's, made exactly (russian.md 3, 6.2)."""
    level = int(c[:-1])
    return {"dealer": "A", "declarer": "A", "contract": c,
            "defence": {"B": "whist", "C": "pass"},
            "tricks": {"A": level, "B": 10 - level, "C": 0}}


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def stored(db: Path) -> dict[str, Any]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {
            "deals": [r[0] for r in con.execute(
                "SELECT deal_no FROM deals ORDER BY deal_no").fetchall()],
            "flat": [r[0] for r in con.execute(
                "SELECT deal_no FROM deals_russian ORDER BY deal_no").fetchall()],
            "quarantine": con.execute(
                "SELECT source, line, record_key, code, message FROM quarantine "
                "ORDER BY source, line").fetchall(),
            "settled": [r[0] for r in con.execute(
                "SELECT DISTINCT deal_no FROM settlements ORDER BY deal_no").fetchall()],
        }
    finally:
        con.close()


def test_contract_below_the_hard_exit_is_quarantined(tmp_path: Path) -> None:
    # russian.md 7 (Leningrad, hard exit): 6S right after a raspasy is below the exit 7
    path = write(tmp_path / "exit.jsonl", [game("7-7-7"), deal(1, RASPASY),
                                           deal(2, contract("6S")), deal(3, contract("7S"))])
    [report] = ingest_paths([path], tmp_path / "t.duckdb", score=score_pending)
    assert (report.records, report.stored, report.quarantined) == (4, 3, 1)
    assert report.score_error is None
    got = stored(tmp_path / "t.duckdb")
    assert got["deals"] == got["flat"] == got["settled"] == [1, 3]
    [(source, line, key, code, message)] = got["quarantine"]
    assert (source, line, key, code) == (str(path), 3, f"{GAME}#2", str(Code.ILLEGAL_CONTRACT))
    assert "6S after 1 raspasy in a row" in message and "7-7-7" in message
    [again] = ingest_paths([path], tmp_path / "t.duckdb", score=score_pending)
    assert again.skipped == "unchanged" and stored(tmp_path / "t.duckdb") == got


def test_free_exit_stores_every_deal(tmp_path: Path) -> None:
    # russian.md 7, Sochi: the exit is free, 6S after raspasy is a contract like any other
    path = write(tmp_path / "free.jsonl", [game("free"), deal(1, RASPASY),
                                           deal(2, contract("6S"))])
    [report] = ingest_paths([path], tmp_path / "t.duckdb", score=score_pending)
    assert (report.stored, report.quarantined) == (3, 0)
    assert stored(tmp_path / "t.duckdb")["deals"] == [1, 2]


def test_the_check_sees_the_deals_of_earlier_files(tmp_path: Path) -> None:
    # the raspasy is stored from one file, the contract below the exit comes in the next
    db = tmp_path / "t.duckdb"
    first = write(tmp_path / "a.jsonl", [game("6-7-7"), deal(1, RASPASY), deal(2, RASPASY)])
    second = write(tmp_path / "b.jsonl", [deal(3, contract("6H")), deal(4, contract("7H"))])
    reports = ingest_paths([first, second], db, score=score_pending)
    assert [(r.stored, r.quarantined) for r in reports] == [(3, 0), (1, 1)]
    got = stored(db)
    assert got["deals"] == [1, 2, 4]
    [(source, line, key, _, message)] = got["quarantine"]
    assert (source, line, key) == (str(second), 1, f"{GAME}#3")
    assert "after 2 raspasy in a row: the exit is 7" in message


def test_strict_mode_stops_at_the_exit(tmp_path: Path) -> None:
    path = write(tmp_path / "exit.jsonl", [game("7-7-7"), deal(1, RASPASY),
                                           deal(2, contract("6S"))])
    with pytest.raises(StrictError) as info:
        ingest_paths([path], tmp_path / "t.duckdb", strict=True)
    assert info.value.issue.line == 3 and info.value.issue.code == Code.ILLEGAL_CONTRACT
    assert stored(tmp_path / "t.duckdb")["deals"] == []  # the file is rolled back


@pytest.mark.parametrize("exit_", ["6-7-7", "7-7-7"])
def test_a_misere_or_played_contract_ends_the_run(tmp_path: Path, exit_: str) -> None:
    # russian.md 7: a played contract resets the run, so 6S after it is free again
    path = write(tmp_path / "run.jsonl", [game(exit_), deal(1, RASPASY),
                                          deal(2, contract("7D")), deal(3, contract("6D"))])
    [report] = ingest_paths([path], tmp_path / "t.duckdb", score=score_pending)
    assert (report.stored, report.quarantined) == (4, 0)


def test_only_games_whose_exit_binds_are_read_again(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A game with the free exit cannot break the rule (russian.md 7: every exit is 6), so its
    stored deals are not read for it (``Variant.checks_game``); a hard exit's game is."""
    from ingest import store

    asked: list[str] = []
    game_deals = store.game_deals

    def counted(conn: duckdb.DuckDBPyConnection, game_ids: Any) -> Any:
        asked.extend(game_ids)
        return game_deals(conn, game_ids)

    monkeypatch.setattr(store, "game_deals", counted)
    hard = {**game("7-7-7"), "game_id": "club/hard"}
    path = write(tmp_path / "two.jsonl", [
        game("free"), deal(1, RASPASY), deal(2, contract("6S")),
        hard, {**deal(1, RASPASY), "game_id": "club/hard"},
        {**deal(2, contract("6S")), "game_id": "club/hard"}])
    [report] = ingest_paths([path], tmp_path / "t.duckdb", score=score_pending)
    assert (report.stored, report.quarantined) == (5, 1)
    assert asked == ["club/hard"]
