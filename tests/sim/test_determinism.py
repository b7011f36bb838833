"""The same seed gives the same records, however the games are split among workers."""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st

from model.cards import DECK_32, DECK_52
from sim.run import Plan, simulate
from sim.seeds import Dealer
from tests.sim.helpers import simulate_lines


def test_same_seed_same_records() -> None:
    a = simulate_lines("greek-prefa", 20, 10, seed=5)
    b = simulate_lines("greek-prefa", 20, 10, seed=5)
    c = simulate_lines("greek-prefa", 20, 10, seed=6)
    assert a.lines == b.lines
    assert a.lines != c.lines


def test_a_game_does_not_depend_on_its_partition() -> None:
    whole = simulate_lines("swabian", 6, 5, seed=9)
    tail = simulate_lines("swabian", 3, 5, seed=9, first=3)
    assert whole.lines[-len(tail.lines):] == tail.lines


def test_same_deals_under_other_rules() -> None:
    # the basis of paired studies: only the shuffle draws from the generator
    a = simulate_lines("greek-prefa", 5, 4, seed=2)
    b = simulate_lines("greek-prefa", 5, 4, seed=2, rules={"four_aces": "fixed_chips"})
    hands = [r.split('"hands":')[1].split("}")[0] for r in a.deals["record"]]
    assert hands == [r.split('"hands":')[1].split("}")[0] for r in b.deals["record"]]


def test_workers_and_partitions_give_identical_files(tmp_path: Path) -> None:
    plan = Plan("greek-prefa", 12, 6, seed=4)
    one = simulate(plan, out=tmp_path / "one.jsonl", workers=1)
    two = simulate(plan, out=tmp_path / "two.jsonl", workers=2, games_per_part=5)
    assert one.deals == two.deals == 72
    assert (tmp_path / "one.jsonl").read_text() == (tmp_path / "two.jsonl").read_text()


def test_bridge_runs_do_not_depend_on_workers(tmp_path: Path) -> None:
    # docs/simulation.md "Seeds": bridge games draw from their own stream, one generator per game
    plan = Plan("bridge-rubber", 6, 4, seed=3)
    simulate(plan, out=tmp_path / "one.jsonl", workers=1)
    simulate(plan, out=tmp_path / "two.jsonl", workers=2, games_per_part=2)
    assert (tmp_path / "one.jsonl").read_text() == (tmp_path / "two.jsonl").read_text()


def test_database_rows_and_rerun(tmp_path: Path) -> None:
    db = tmp_path / "sim.duckdb"
    plan = Plan("greek-prefa", 8, 5, seed=4)
    simulate(plan, db=db, workers=1, games_per_part=3)
    simulate(plan, db=db, workers=1)  # the same seed again replaces, never duplicates
    conn = duckdb.connect(str(db), read_only=True)
    try:
        counts = [conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]  # type: ignore[index]
                  for t in ("games", "deals", "deals_greek", "settlements")]
        lines = [r[0] for r in conn.execute(
            "SELECT record::VARCHAR FROM deals ORDER BY game_id, deal_no").fetchall()]
    finally:
        conn.close()
    assert counts == [8, 40, 40, 120]
    jsonl = simulate_lines("greek-prefa", 8, 5, seed=4)
    assert lines == jsonl.deals["record"]


def test_ctrl_c_keeps_finished_partitions(tmp_path: Path) -> None:
    db = tmp_path / "stop.duckdb"
    calls = []

    def progress(games: int, deals: int) -> None:
        calls.append(deals)
        if len(calls) == 2:
            raise KeyboardInterrupt

    report = simulate(Plan("swabian", 20, 4, seed=1), db=db, workers=1, games_per_part=4,
                      on_progress=progress)
    assert report.interrupted
    conn = duckdb.connect(str(db), read_only=True)
    try:
        stored = conn.execute("SELECT count(*) FROM deals").fetchone()[0]  # type: ignore[index]
    finally:
        conn.close()
    assert stored == 32  # two partitions of four games of four deals, nothing half-written


@settings(deadline=None, max_examples=25)
@given(seed=st.integers(0, 2**64 - 1), deals=st.integers(0, 12), bridge=st.booleans())
def test_prepared_deals_are_the_one_by_one_deals(seed: int, deals: int, bridge: bool) -> None:
    # sim/seeds.py: shuffling a game's deals at once (numpy) gives the cards of shuffling
    # them one by one, and a deal past the prepared ones (a redeal) continues the same stream
    deck, players, size = (DECK_52, 4, 13) if bridge else (DECK_32, 3, 10)
    one = Dealer(random.Random(seed), deck)
    many = Dealer(random.Random(seed), deck)
    many.prepare(deals, players, size)
    for _ in range(deals + 2):
        assert many.deal(players, size) == one.deal(players, size)
