"""A simulated game ends where its rules end it: no deal is dealt after the end (greek-prefa.md 11:
the game ends when every kassa is empty; the settlement marks it ``finished``)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from sim.run import Plan, end_games, run_part, simulate
from tests.sim.helpers import simulate_lines

LONG = 400
"""Deals asked per game: more than a Greek game of the default rules lasts with the bots."""


def test_deals_after_the_end_are_not_dealt() -> None:
    raw = simulate_lines("greek-prefa", 6, LONG, seed=3)
    ended = end_games("greek-prefa", raw)
    assert raw.n_deals == 6 * LONG
    assert 0 < ended.n_deals < raw.n_deals  # some games ended early, and only those were cut
    kept = list(zip(ended.deals["game_id"], ended.deals["deal_no"], strict=True))
    assert kept == [k for k in zip(raw.deals["game_id"], raw.deals["deal_no"], strict=True)
                    if k in set(kept)]
    # every game keeps a prefix of its deals, numbered from 1 without a gap
    per_game: dict[str, list[int]] = {}
    for gid, no in kept:
        per_game.setdefault(gid, []).append(no)
    assert all(nos == list(range(1, len(nos) + 1)) for nos in per_game.values())
    # the JSONL lines follow the columns: each game line, then exactly its kept deals
    deal_lines = [json.loads(x) for x in ended.lines if x.startswith('{"record":"deal"')]
    assert [(d["game_id"], d["deal_no"]) for d in deal_lines] == kept
    assert sum(x.startswith('{"record":"game"') for x in ended.lines) == 6
    assert list(ended.flat["deal_no"]) == [no for _, no in kept]


def test_a_game_that_has_not_ended_keeps_every_deal() -> None:
    batch = run_part(Plan("swabian", 2, 30, 4), 0, 2, keep_lines=False)
    assert batch.n_deals == 60  # Swabian settles deal by deal; no end before the last deal


def test_stored_simulation_has_no_deal_after_the_end(tmp_path: Path) -> None:
    db = tmp_path / "sim.duckdb"
    simulate(Plan("greek-prefa", 4, LONG, 3), db=db, workers=1)
    con = duckdb.connect(str(db), read_only=True)
    try:
        unsettled = con.execute(
            "SELECT count(*) FROM deals d WHERE NOT EXISTS (SELECT 1 FROM settlements s "
            "WHERE s.game_id = d.game_id AND s.deal_no = d.deal_no)").fetchone()
        finished = con.execute("SELECT count(DISTINCT game_id) FROM standings "
                               "WHERE finished").fetchone()
    finally:
        con.close()
    assert unsettled == (0,)
    assert finished is not None and finished[0] > 0
