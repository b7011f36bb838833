"""The random-play test every game must survive (as OpenSpiel's): a variant's simulator plays whole
games, and everything it writes goes through ingest as a user's file would, is stored, settles,
and passes the data checks; simulated straight into the database, the same games give the same
tables. The same for the games of each variant's random legal-deal generator. Every simulated
variant takes part by its registration in ``sim/drivers.py``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import duckdb
import pytest

from ingest.pipeline import ingest_paths
from scoring.checks import run_checks
from scoring.store import score_pending
from sim.drivers import SIMULATED, simulator
from sim.run import Plan, simulate

GAMES, DEALS = 6, 12


def _tables(db: Path) -> dict[str, list[tuple[object, ...]]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {
            "deals": con.execute("SELECT game_id, deal_no, deal_key, record::VARCHAR FROM deals "
                                 "ORDER BY ALL").fetchall(),
            "settlements": con.execute("SELECT game_id, deal_no, player, cash FROM settlements "
                                       "ORDER BY ALL").fetchall(),
            "standings": con.execute("SELECT game_id, player, cash, deals_played, finished "
                                     "FROM standings ORDER BY ALL").fetchall(),
        }
    finally:
        con.close()


@pytest.mark.parametrize("variant", SIMULATED)
def test_every_simulated_deal_ingests_settles_and_checks(variant: str, tmp_path: Path) -> None:
    plan = Plan(variant, GAMES, DEALS, seed=21)
    jsonl = tmp_path / f"{variant}.jsonl"
    simulate(plan, out=jsonl, workers=1)
    lines = jsonl.read_text(encoding="utf-8").splitlines()
    db = tmp_path / "ingested.duckdb"
    [report] = ingest_paths([jsonl], db, score=score_pending)
    assert report.records == len(lines) > GAMES
    assert (report.stored, report.duplicates, report.quarantined) == (len(lines), 0, 0)
    assert report.score_error is None
    con = duckdb.connect(str(db))
    try:
        failures = [f for f in run_checks(con) if not f.finding]
    finally:
        con.close()
    assert failures == []

    direct = tmp_path / "simulated.duckdb"
    simulate(plan, db=direct, workers=1)
    assert _tables(direct) == _tables(db)


@pytest.mark.parametrize("variant", SIMULATED)
def test_every_random_legal_deal_ingests_settles_and_checks(variant: str, tmp_path: Path) -> None:
    """The variant's random legal-deal generator (``sim/random_play/``): random calls and cards
    among the legal ones, not the bots' choices. Every deal is stored, none quarantined, the games
    settle and the data checks pass."""
    driver = simulator(variant)
    rng = random.Random(5)
    games = [driver.random_game(rng, f"random-{k}", DEALS) for k in range(GAMES)]
    jsonl = tmp_path / f"{variant}.jsonl"
    lines = [json.dumps(r.model_dump(mode="json", exclude_none=True))
             for game, deals in games for r in (game, *deals)]
    jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "random.duckdb"
    [report] = ingest_paths([jsonl], db, score=score_pending)
    assert (report.records, report.stored, report.quarantined) == (len(lines), len(lines), 0)
    assert report.score_error is None
    con = duckdb.connect(str(db))
    try:
        assert [f for f in run_checks(con) if not f.finding] == []
        settled = con.execute("SELECT count(DISTINCT game_id) FROM settlements").fetchone()
    finally:
        con.close()
    assert settled == (GAMES,)
