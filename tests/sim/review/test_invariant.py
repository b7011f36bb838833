"""The review's invariant (docs/review.md): for a deal played to its end, the open-hand value
before the first card, minus the declaring side's costs, plus the defence's, is the recorded
result (misère and Bettel the other way round). Held on simulated deals of every variant, with
the Python sum and with the data check ``review_invariant`` (scoring/checks.py); a bot playing
open-hand (``--play dd``) reviews at 0 cost on every card; on the DDS golden deals the value
before the first card is the DD table's tricks for the declarer and denomination."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.checks import CHECKS, run_checks
from sim.review.rows import DealReview, invariant_result
from sim.review.run import review_database
from sim.review.store import pending, review_task
from sim.run import Plan, simulate
from tests.conftest import DATA
from tests.sim.review.test_cards import SEATS, TRUMPS, golden_deals

INVARIANT = tuple(c for c in CHECKS if c.name == "review_invariant")

PREFERENCE_RUNS: list[tuple[str, dict[str, Any], int]] = [
    ("greek-prefa", {}, 60),
    ("greek-prefa", {"must_overtrump_when_void": True}, 30),
    ("balkan", {}, 60),
    ("swabian", {}, 60),
]
"""(variant, rules, games of 5 deals): about 200 played deals per variant in all."""


def _reviews(db: Path) -> list[DealReview]:
    conn = duckdb.connect(str(db))
    try:
        out = [review_task(t) for t in pending(conn)]
    finally:
        conn.close()
    return [r for r in out if isinstance(r, DealReview)]


def _check(reviews: list[DealReview]) -> None:
    ended = [r for r in reviews if not r.claimed]
    assert ended
    bad = [(r.game_id, r.deal_no, r.value_start, invariant_result(r), r.result)
           for r in ended if invariant_result(r) != r.result]
    assert bad == []


@pytest.mark.parametrize(("variant", "rules", "games"), PREFERENCE_RUNS)
def test_invariant_on_simulated_preference_deals(
    tmp_path: Path, variant: str, rules: dict[str, Any], games: int
) -> None:
    db = tmp_path / "sim.duckdb"
    simulate(Plan(variant, games, 5, seed=23, rules=rules), db=db, workers=1)
    reviews = _reviews(db)
    assert len(reviews) >= games  # about one deal in two has a declarer and play
    assert any(c.cost for r in reviews for c in r.cards)  # the heuristic bots make mistakes
    _check(reviews)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(["greek-prefa", "balkan", "swabian"]))
def test_invariant_on_any_seed(tmp_path: Path, seed: int, variant: str) -> None:
    db = tmp_path / f"{variant}-{seed}.duckdb"
    db.unlink(missing_ok=True)
    simulate(Plan(variant, 4, 5, seed=seed), db=db, workers=1)
    reviews = _reviews(db)
    if reviews:  # a seed whose deals were all passed has nothing to hold
        _check(reviews)


def test_invariant_on_simulated_bridge_deals(tmp_path: Path) -> None:
    pytest.importorskip("endplay")
    db = tmp_path / "bridge.duckdb"
    simulate(Plan("bridge-rubber", 4, 10, seed=3), db=db, workers=1)
    reviews = _reviews(db)
    assert len(reviews) >= 30
    _check(reviews)


def test_the_data_check_holds_and_catches_a_broken_row(
    reviewed: tuple[Path, Any], tmp_path: Path
) -> None:
    db, _ = reviewed
    copy = tmp_path / "copy.duckdb"
    copy.write_bytes(db.read_bytes())
    conn = duckdb.connect(str(copy))
    try:
        assert run_checks(conn, INVARIANT) == []
        conn.execute("""UPDATE card_review SET cost = cost + 1
                        WHERE (game_id, deal_no, card_no) IN
                              (SELECT (game_id, deal_no, 3) FROM deal_review
                               WHERE skipped IS NULL LIMIT 1)""")
        failed = run_checks(conn, INVARIANT)
    finally:
        conn.close()
    assert len(failed) == 1 and failed[0].count == 1


def test_the_data_check_waits_for_the_review_tables() -> None:
    conn = duckdb.connect()
    try:
        assert run_checks(conn, INVARIANT) == []
    finally:
        conn.close()


@pytest.mark.parametrize("variant", ["greek-prefa", "balkan", "swabian"])
def test_open_hand_bots_play_at_zero_cost(tmp_path: Path, variant: str) -> None:
    db = tmp_path / "dd.duckdb"
    simulate(Plan(variant, 4, 5, seed=5, play="dd"), db=db, workers=1)
    conn = duckdb.connect(str(db))
    try:
        report = review_database(conn, workers=1)
        costs = conn.execute("SELECT count(*), sum(cost) FROM card_review").fetchone()
    finally:
        conn.close()
    assert report.reviewed >= 5
    assert costs is not None and costs[0] >= 100 and costs[1] == 0


@pytest.mark.parametrize("name", ["list10.txt", "list100.txt"])
def test_start_value_is_the_dd_table_for_declarer_and_denomination(name: str) -> None:
    """dds-hands TABLE: tricks for declarer, strains S, H, D, C, NT, each for N, E, S, W."""
    pytest.importorskip("endplay")
    tables = [[int(x) for x in line.split()[1:]]
              for line in (DATA / "dds-hands" / name).read_text().splitlines()
              if line.startswith("TABLE ")]
    deals = golden_deals(name)[:25]
    for n, ((rec, _), table) in enumerate(zip(deals, tables, strict=False), start=1):
        got = review_task(("dds", n, "bridge-duplicate", list(SEATS), "{}", json.dumps(rec)))
        assert isinstance(got, DealReview)
        strain = TRUMPS.index(str(rec["contract"])[1:])
        assert got.value_start == table[4 * strain + SEATS.index(str(rec["declarer"]))]


@pytest.mark.parametrize("name", ["$x", 'O"Brien', "a.b", "back\\slash"])
def test_the_data_check_reads_any_declarer_name(name: str) -> None:
    """The recorded tricks are looked up by the declarer's name as a quoted JSON key."""
    from model.tables import CARD_REVIEW, DDL, DEAL_REVIEW, DEALS

    conn = duckdb.connect()
    try:
        for table in (DEALS, DEAL_REVIEW, CARD_REVIEW):
            conn.execute(DDL[table])
        record = json.dumps({"tricks": {name: 6, "B": 4}})
        conn.execute("INSERT INTO deals VALUES ('g', 1, 'k', 'greek-prefa', 'B', ?, '6S', true, "
                     "'t', 1, ?)", [name, record])
        conn.execute("INSERT INTO deal_review VALUES ('g', 1, 'greek-prefa', ?, '6S', false, 6, "
                     "7, 6, false, 2, NULL)", [name])
        conn.execute("INSERT INTO card_review VALUES ('g', 1, 1, ?, 'declarer', 'AS', 7, 6, 1, "
                     "['KS']), ('g', 1, 2, 'B', 'defence', 'KS', 6, 6, 0, ['KS'])", [name])
        assert run_checks(conn, INVARIANT) == []
        conn.execute("UPDATE card_review SET cost = 0 WHERE card_no = 1")
        assert len(run_checks(conn, INVARIANT)) == 1
    finally:
        conn.close()
