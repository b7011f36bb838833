"""Russian JSON Lines records ingest, settle and pass the data checks (records.md 1-2).

The file mixes a game of three with one of four (the dealer sits out), a raspasy, a misère, a
half-whist, a full deal with cards, and bad records that go to quarantine without stopping the
file; ingesting it again changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb

from ingest.pipeline import ingest_paths
from scoring.checks import run_checks
from scoring.store import rescore, score_pending
from tests.model.russian.test_check import kovalevskaya

G3 = {"record": "game", "game_id": "club/1", "variant": "russian",
      "players": ["EAST", "SOUTH", "WEST"], "rules": {"pool_target": 10}}
G4 = {"record": "game", "game_id": "club/2", "variant": "russian",
      "players": ["Anna", "Boris", "Chris", "Dasha"], "rules": {"convention": "leningrad"}}


def deal(game: str, no: int, **fields: Any) -> dict[str, Any]:
    return {"record": "deal", "game_id": game, "deal_no": no, **fields}


RECORDS: list[dict[str, Any]] = [
    G3,
    deal("club/1", 1, dealer="WEST", declarer="EAST", contract="6S",
         defence={"SOUTH": "whist", "WEST": "whist"}, tricks={"EAST": 6, "SOUTH": 3, "WEST": 1}),
    deal("club/1", 2, dealer="EAST", tricks={"EAST": 2, "SOUTH": 5, "WEST": 3}),
    deal("club/1", 3, **kovalevskaya()),
    deal("club/1", 4, dealer="SOUTH", declarer="WEST", contract="7H",
         defence={"EAST": "pass", "SOUTH": "half"}),
    G4,
    deal("club/2", 1, dealer="Dasha", declarer="Boris", contract="8NT",
         defence={"Chris": "whist", "Anna": "pass"}, tricks={"Anna": 1, "Boris": 7, "Chris": 2}),
    deal("club/2", 2, dealer="Anna", declarer="Chris", contract="misere",
         tricks={"Boris": 6, "Chris": 0, "Dasha": 4}),
    # bad: Dasha deals deal 3 and sits out, so she cannot defend (russian.md 1)
    deal("club/2", 3, dealer="Dasha", declarer="Anna", contract="6S",
         defence={"Boris": "whist", "Dasha": "pass"}, tricks={"Anna": 6, "Boris": 4}),
    # bad: half-whist on 8 (russian.md 3)
    deal("club/2", 3, dealer="Boris", declarer="Anna", contract="8S",
         defence={"Chris": "pass", "Dasha": "half"}),
]


def test_russian_records_ingest_settle_and_check(tmp_path: Path):
    src = tmp_path / "russian.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in RECORDS) + "\n", encoding="utf-8")
    db = tmp_path / "t.duckdb"
    [report] = ingest_paths([src], db, score=score_pending)
    assert (report.stored, report.quarantined) == (len(RECORDS) - 2, 2)
    con = duckdb.connect(str(db), read_only=True)
    try:
        codes = [r[0] for r in con.execute("SELECT code FROM quarantine ORDER BY line").fetchall()]
        assert codes == ["unknown-player", "illegal-defence"]
        assert [str(f) for f in run_checks(con) if not f.finding] == []
        rows = con.execute(
            "SELECT player, pool_after, hill_after, cash FROM settlements "
            "WHERE game_id = 'club/1' AND deal_no = 3 ORDER BY seat").fetchall()
        # deal 1: EAST +2 pool; deal 2 raspasy: SOUTH 3, WEST 1 on the hill; deal 3: SOUTH's
        # misère caught for one trick, 10 on his hill (6.1)
        assert [(p, pool, hill) for p, pool, hill, _ in rows] == [
            ("EAST", 2, 0), ("SOUTH", 0, 13), ("WEST", 0, 1)]
        total = con.execute("SELECT sum(cash) FROM standings WHERE game_id = 'club/1'").fetchone()
        assert total is not None and abs(total[0]) < 1e-9
        modes = con.execute("SELECT defence_mode FROM deal_outcomes WHERE variant = 'russian' "
                            "ORDER BY game_id, deal_no").fetchall()
        assert [m[0] for m in modes] == ["both", "none", "misere", "half", "whist", "misere"]
        # records.md 2 ``whists``: deal 1, both whisted a made 6S; each writes c = 2 a trick of
        # his own (russian.md 6.1): SOUTH 3 tricks -> 6 against EAST, WEST 1 -> 2
        whists = con.execute("SELECT writer, against, amount FROM whists "
                             "WHERE game_id = 'club/1' AND deal_no = 1 ORDER BY ALL").fetchall()
        assert whists == [("SOUTH", "EAST", 6), ("WEST", "EAST", 2)]
        stored = con.execute("SELECT count(*) FROM whists").fetchone()
    finally:
        con.close()
    [again] = ingest_paths([src], db, score=score_pending)
    assert again.skipped == "unchanged"
    con = duckdb.connect(str(db))
    try:
        rescore(con)  # every game again: its whists rows are replaced, not added
        assert con.execute("SELECT count(*) FROM whists").fetchone() == stored
    finally:
        con.close()


def test_a_deal_after_every_pool_closed_is_stored_not_settled(tmp_path: Path):
    """8: the game ends when every pool reached T. With T = 2 three passed sixes close it; a
    fourth deal is stored, not settled, and the data checks report it as a finding."""
    game = {"record": "game", "game_id": "short", "variant": "russian",
            "players": ["A", "B", "C"], "rules": {"pool_target": 2}}
    sixes = [deal("short", k, dealer=dealer, declarer=decl, contract="6S",
                  defence={o: "pass" for o in "ABC" if o != decl})
             for k, (dealer, decl) in enumerate([("C", "A"), ("A", "B"), ("B", "C"),
                                                 ("C", "A")], 1)]
    src = tmp_path / "short.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in [game, *sixes]) + "\n", encoding="utf-8")
    db = tmp_path / "t.duckdb"
    [report] = ingest_paths([src], db, score=score_pending)
    assert (report.stored, report.quarantined) == (5, 0)
    con = duckdb.connect(str(db), read_only=True)
    try:
        settled = con.execute("SELECT DISTINCT deal_no FROM settlements ORDER BY 1").fetchall()
        assert settled == [(1,), (2,), (3,)]
        standings = con.execute("SELECT bool_and(finished), max(deals_played) FROM standings"
                                ).fetchone()
        assert standings == (True, 3)
        failures = run_checks(con)
        assert [(f.check, f.count) for f in failures] == [("deals_after_game_end", 1)]
        assert failures[0].finding
    finally:
        con.close()
