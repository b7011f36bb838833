"""A deal nobody played (``BridgeDeal.unplayed``: a solved deal of a DDS hand file, its hands
only) is stored and shown, but not settled (``Variant.unplayed_sql``, ``scoring/store.py``): it
was counted as a passed-out board every player of its table played, in the standings, the
Player page and ``trickbook players list``, and the Hand replayer said it was passed out."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from dashboards.replay import no_declarer, why_no_play
from ingest.pipeline import ingest_paths
from ingest.players import people
from model.tables import DEALS, SETTLEMENTS, STANDINGS
from model.variants import registered
from scoring.bridge.event import TABLE as EVENT_RESULTS
from scoring.checks import run_checks
from scoring.store import score_pending
from tests.conftest import DATA

PLAYERS = ["Anna", "Boris", "Chris", "Dora"]
HANDS = {"Anna": "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
         "Boris": "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
         "Chris": "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
         "Dora": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"}


def _club(path: Path) -> Path:
    """A duplicate game of two deals: board 1 played (4S by Anna, 10 tricks), board 2 dealt
    and not played."""
    hands = {p: h.split() for p, h in HANDS.items()}
    lines = [
        {"record": "game", "game_id": "club/1", "variant": "bridge-duplicate",
         "players": PLAYERS, "event": "Club", "started_at": "2026-11-24T19:00:00Z"},
        {"record": "deal", "game_id": "club/1", "deal_no": 1, "board": 1, "dealer": "Anna",
         "contract": "4S", "declarer": "Anna", "tricks": 10},
        {"record": "deal", "game_id": "club/1", "deal_no": 2, "board": 2, "dealer": "Boris",
         "unplayed": True, "hands": hands},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_a_deal_nobody_played_is_stored_not_settled(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    ingest_paths([_club(tmp_path / "club.jsonl"), DATA / "dds-hands" / "list10.txt"], db,
                 score=score_pending)
    conn = duckdb.connect(str(db))
    try:
        stored = conn.execute(f"SELECT game_id, count(*) FROM {DEALS} GROUP BY ALL "
                              "ORDER BY ALL").fetchall()
        assert [n for _, n in stored] == [2, 10]
        settled = conn.execute(f"SELECT DISTINCT game_id, deal_no FROM {SETTLEMENTS}"
                               ).fetchall()
        assert settled == [("club/1", 1)]
        standings = conn.execute(f"SELECT player, cash, deals_played FROM {STANDINGS} "
                                 "ORDER BY player").fetchall()
        assert standings == [("Anna", 420.0, 1), ("Boris", -420.0, 1), ("Chris", 420.0, 1),
                             ("Dora", -420.0, 1)]
        assert conn.execute(f"SELECT count(*) FROM {EVENT_RESULTS} WHERE game_id LIKE 'dds%'"
                            ).fetchone() == (0,)
        assert [f.check for f in run_checks(conn)] == []
        deals = dict(zip(*people(conn).select("person", "deals"), strict=True))
        assert deals["Anna"] == 1
        assert {n for p, n in deals.items() if "(unnamed " in p} == {0}
    finally:
        conn.close()


def test_the_replayer_says_a_deal_nobody_played_was_not_played() -> None:
    """"No declarer: passed out (four passes)" and "no play: nobody declared (all passed)" of a
    solved deal whose auction is not recorded: each bridge variant says it was not played."""
    for v in registered():
        if v.unplayed_sql is None:
            continue
        said, why = no_declarer({"unplayed": True}, v.name), why_no_play({"unplayed": True},
                                                                         v.name)
        assert "not played" in said and "passed" not in said, (v.name, said)
        assert "nobody bid or played" in why and "passed" not in why, (v.name, why)
        assert "passed out" in no_declarer({}, v.name)
