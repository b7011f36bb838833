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
from model.variants import variant as lookup
from scoring.checks import run_checks
from scoring.store import score_pending
from sim.drivers import SIMULATED, simulator
from sim.run import Plan, simulate

GAMES, DEALS = 6, 12
TABLES = [(v, {}) for v in SIMULATED] + [("russian", {"players": 4})]
"""Every simulated variant, and the simulator options that change the table (russian.md 1: four
players, the dealer sitting out)."""


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


@pytest.mark.parametrize(("variant", "options"), TABLES)
def test_every_simulated_deal_ingests_settles_and_checks(variant: str, options: dict[str, int],
                                                         tmp_path: Path) -> None:
    plan = Plan(variant, GAMES, DEALS, seed=21, options=options)
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


def _flipped(variant: str) -> list[dict[str, bool]]:
    """The variant's house rules with one yes/no flag turned from its default, each in turn."""
    fields = lookup(variant).rules_model.model_fields
    return [{name: not f.default} for name, f in fields.items() if isinstance(f.default, bool)]


@pytest.mark.parametrize("variant", SIMULATED)
def test_random_legal_deals_pass_the_check_under_every_flag(variant: str) -> None:
    """The generator follows the house rules that change what is legal: with each yes/no flag of
    the variant turned from its default, every deal it makes passes the variant's check."""
    v = lookup(variant)
    for rules in _flipped(variant):
        rng = random.Random(4)
        for k in range(4):
            game, deals = simulator(variant, rules).random_game(rng, f"random-{k}", 5)
            assert [(d.deal_no, v.check_deal(game, d)) for d in deals
                    if v.check_deal(game, d)] == [], rules
