"""The review's invariant (docs/review.md): for a deal played to its end, the open-hand value
before the first card, minus the declaring side's costs, plus the defence's, is the recorded
result (misère and Bettel the other way round). Held on about a hundred simulated deals of
every variant (``make test-long``: thousands, ``tests/sim/review/invariant.py``), each run also
showing that a wrong cost breaks it, and by the data check ``review_invariant``
(scoring/checks.py); a bot playing open-hand (``--play dd``) reviews at 0 cost on every card;
on the DDS golden deals the value before the first card is the DD table's tricks for the
declarer and denomination."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.checks import CHECKS, run_checks
from sim.review.rows import DealReview
from sim.review.run import review_database
from sim.review.store import review_task
from sim.run import Plan, simulate
from tests.conftest import DATA
from tests.sim.review.invariant import LONG_OUT, Held, failures, hold, record, with_wrong_cost
from tests.sim.review.test_cards import SEATS, TRUMPS, golden_deals

INVARIANT = tuple(c for c in CHECKS if c.name == "review_invariant")

RUNS: list[tuple[str, dict[str, Any], int, int, int]] = [
    ("greek-prefa", {}, 50, 5, 100),
    ("greek-prefa", {"must_overtrump_when_void": True}, 30, 5, 50),
    ("balkan", {}, 70, 5, 100),
    ("swabian", {}, 50, 5, 90),
    ("bridge-rubber", {}, 1, 16, 14),
]
"""``make test``: (variant, rules, games, deals a game, at least this many deals played to their
end): a few hundred deals per Preference variant, 16 bridge deals (Russian:
tests/sim/review/test_russian.py)."""

LONG: list[tuple[str, dict[str, Any], int, int, int]] = [
    *[("greek-prefa", {}, 225, 5, 400)] * 4,
    ("greek-prefa", {"must_overtrump_when_void": True}, 225, 5, 400),
    *[("balkan", {}, 340, 5, 400)] * 4,
    *[("swabian", {}, 250, 5, 400)] * 4,
    *[("bridge-rubber", {}, 13, 20, 220)] * 8,
]
"""``make test-long`` (the ``long`` mark): thousands of deals per variant, in runs of a few
hundred (one seed each) that the test workers share out."""


def _hold(tmp_path: Path, variant: str, rules: dict[str, Any], games: int, deals: int,
          least: int, seed: int) -> Held:
    if variant.startswith("bridge"):
        pytest.importorskip("endplay")
    held, reviews = hold(tmp_path / "sim.duckdb", variant, games, deals, seed, rules)
    assert held.ended >= least
    assert held.costly_cards  # the heuristic bots make mistakes
    assert held.failed == []
    # and a deliberately wrong cost breaks it, on any deal
    for r, rec in reviews[:: max(1, len(reviews) // 20)]:
        assert failures([(with_wrong_cost(r), rec)]) != [], (r.game_id, r.deal_no)
    return held


@pytest.mark.parametrize(("variant", "rules", "games", "deals", "least"), RUNS)
def test_invariant_on_simulated_deals(
    tmp_path: Path, variant: str, rules: dict[str, Any], games: int, deals: int, least: int
) -> None:
    _hold(tmp_path, variant, rules, games, deals, least, seed=23)


@pytest.mark.long
@pytest.mark.parametrize(("run", "variant", "rules", "games", "deals", "least"),
                         [(i, *r) for i, r in enumerate(LONG)])
def test_invariant_on_thousands_of_simulated_deals(
    tmp_path: Path, run: int, variant: str, rules: dict[str, Any], games: int, deals: int,
    least: int,
) -> None:
    record(_hold(tmp_path, variant, rules, games, deals, least, seed=1000 + run), LONG_OUT)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(["greek-prefa", "balkan", "swabian"]))
def test_invariant_on_any_seed(tmp_path: Path, seed: int, variant: str) -> None:
    db = tmp_path / f"{variant}-{seed}.duckdb"
    db.unlink(missing_ok=True)
    held, _ = hold(db, variant, 4, 5, seed)
    assert held.failed == []  # a seed whose deals were all passed has nothing to hold


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


@pytest.mark.parametrize("name", ["list10.txt",  # make test-long: list100.txt too
                                  pytest.param("list100.txt", marks=pytest.mark.long)])
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
