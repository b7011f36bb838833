"""Properties of the Swabian settlement (swabian.md 7-8, records.md 2 invariants).

- the vectorised kernel equals the per-deal reference (STYLE.md practice 4), on at least 10,000
  drawn rows per run (100 examples of at least 100 deals) and on random legal games of the
  variant's generator (``sim/random_play/swabian.py``);
- zero-sum per deal (swabian.md 7 [derived]: "Sum of all results = 0");
- the pairwise transfers of a deal net to its settlements (records.md 2).
"""

from __future__ import annotations

import random
from typing import Any

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from model.swabian.frame import SCHEMA
from model.swabian.games import required
from model.swabian.params import SwabianRules
from scoring.swabian import SETTLEMENT
from scoring.swabian.reference import stake
from sim.drivers import simulator
from sim.random_play.frames import settlement_frames
from tests.scoring.swabian.helpers import PLAYERS


@st.composite
def deal_rows(draw: st.DrawFn, game_id: str, deal_no: int) -> dict[str, Any]:
    dealer = draw(st.integers(0, 2))
    row: dict[str, Any] = {
        "game_id": game_id,
        "deal_no": deal_no,
        "dealer": dealer,
        "declarer": None,
        "game": None,
        "hand": False,
        "kunstwerk": False,
        **{f"tricks_{i}": None for i in range(3)},
        **{f"contra_{i}": 1 for i in range(3)},
    }
    if draw(st.integers(0, 9)) == 0:
        return row  # all pass (3.2)
    declarer = draw(st.integers(0, 2))
    number = draw(st.integers(2, 7))
    hand = draw(st.booleans())
    if number == 6:
        t = draw(st.integers(0, 1))
        total = 10 if t == 0 else draw(st.integers(1, 10))
    elif number == 7:
        total = draw(st.integers(1, 10))
        t = draw(st.sampled_from([total, total - 1]))
    else:
        total, t = 10, draw(st.integers(0, 10))
    first = draw(st.integers(0, total - t))
    opps = [(declarer + 1) % 3, (declarer + 2) % 3]
    tricks = {declarer: t, opps[0]: first, opps[1]: total - t - first}
    row.update(
        declarer=declarer, game=number, hand=hand, kunstwerk=draw(st.booleans()) and not hand
    )
    for i in range(3):
        row[f"tricks_{i}"] = tricks[i]
        row[f"contra_{i}"] = 1 if i == declarer else draw(st.sampled_from([1, 1, 2, 4]))
    return row


@st.composite
def leagues(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame]:
    n_games = draw(st.integers(1, 3))
    games: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    for g in range(n_games):
        gid = f"g{g}"
        rules = SwabianRules(kunstwerk_units=draw(st.integers(0, 4)))
        games.append(
            {
                "game_id": gid,
                "players": [f"{p}{g}" for p in PLAYERS],
                "rules": rules.model_dump_json(),
            }
        )
        size = draw(st.integers(100 // n_games + 1, 150 // n_games + 1))
        rows += [draw(deal_rows(gid, k + 1)) for k in range(size)]
    return pl.DataFrame(games), pl.DataFrame(rows, schema=SCHEMA)


KEYS = ("game_id", "deal_no", "payer", "payee")


@settings(deadline=None, max_examples=100)
@given(leagues())
def test_kernel_equals_reference_and_is_zero_sum(league: tuple[pl.DataFrame, pl.DataFrame]):
    games, deals = league
    assert deals.height >= 100
    fast = SETTLEMENT.settle(games, deals)
    slow = SETTLEMENT.settle_reference(games, deals)
    assert_frame_equal(fast.settlements, slow.settlements)
    assert_frame_equal(fast.transfers.sort(KEYS), slow.transfers.sort(KEYS))
    assert_frame_equal(fast.standings, slow.standings)

    per_deal = fast.settlements.group_by("game_id", "deal_no").agg(pl.col("cash").sum())
    assert (per_deal["cash"] == 0).all()
    assert fast.standings["cash"].sum() == 0

    paid = fast.transfers.group_by("game_id", "deal_no", pl.col("payer").alias("player")).agg(
        out=pl.col("amount").sum()
    )
    got = fast.transfers.group_by("game_id", "deal_no", pl.col("payee").alias("player")).agg(
        inn=pl.col("amount").sum()
    )
    net = (
        fast.settlements.select("game_id", "deal_no", "player", "cash")
        .join(paid, on=["game_id", "deal_no", "player"], how="left")
        .join(got, on=["game_id", "deal_no", "player"], how="left")
        .fill_null(0.0)
    )
    assert (net["inn"] - net["out"] == net["cash"]).all()
    assert (fast.transfers["amount"] > 0).all()


@settings(deadline=None, max_examples=3)
@given(st.integers(0, 2**32 - 1), st.integers(0, 5))
def test_kernel_equals_reference_on_random_legal_games(seed: int, units: int):
    """Beside the drawn rows: 1,500 random legal deals (cards, auction, play) of 5 games."""
    driver = simulator("swabian", {"kunstwerk_units": units})
    rng = random.Random(seed)
    games, deals = settlement_frames(driver.random_game(rng, f"g{k}", 300) for k in range(5))
    fast = SETTLEMENT.settle(games, deals)
    slow = SETTLEMENT.settle_reference(games, deals.sort("game_id", "deal_no"))
    keys = ["game_id", "deal_no", "seat"]
    assert_frame_equal(fast.settlements.sort(keys), slow.settlements.sort(keys))
    assert_frame_equal(fast.transfers.sort(KEYS), slow.transfers.sort(KEYS))
    assert_frame_equal(fast.standings, slow.standings)


@given(st.sampled_from([2, 3, 4, 5]), st.booleans())
def test_each_more_trick_is_worth_one_unit_in_suit_games(number: int, hand: bool):
    """swabian.md 7: in games 2-5 every trick above the requirement adds one unit and every missing
    trick costs one; the step from req - 1 to req swings from -(g + 1) to +g."""
    req = required(number, hand)
    signed = [(1 if w else -1) * u for w, u in (stake(number, hand, t) for t in range(11))]
    for t in range(10):
        step = signed[t + 1] - signed[t]
        assert step == (2 * number + 1 if t + 1 == req else 1)
