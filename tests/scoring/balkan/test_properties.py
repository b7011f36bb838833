"""Properties of the Balkan settlement (balkan.md 7): the kernel equals the reference on random
legal games of the variant's generator (``sim/random_play/balkan.py``) under random flags, and the
sheet's invariants."""

from __future__ import annotations

import random

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from model.balkan.params import BalkanRules
from scoring.balkan import SETTLEMENT, settle_reference
from sim.drivers import simulator
from sim.random_play.frames import settlement_frames

rules_st = st.builds(
    BalkanRules,
    direction=st.sampled_from(["clockwise", "counterclockwise"]),
    start_bula=st.sampled_from([4, 10, 30, 60]),
    value_scale=st.sampled_from([1, 2]),
    igra_increment=st.sampled_from([0, 1, 2]),
    preferans_bid=st.booleans(),
    max_refe=st.sampled_from([None, 0, 1, 3]),
    kontra_max_level=st.sampled_from([None, 2, 4]),
    pik_needs_kontra=st.booleans(),
    pik_without_kontra=st.sampled_from(["declarer_scores", "refa_then_declarer_scores"]),
    kontra_scope=st.sampled_from(["pairwise", "whole_hand", "kontra_player_takes_all"]),
    invited_soups=st.sampled_from(["to_inviter", "own"]),
    defender_fail=st.sampled_from(["team_rule", "individual_two"]),
    refe_blocked_below_zero=st.booleans(),
    bettel_fail_soup=st.sampled_from(["five_tricks", "tricks_taken", "none"]),
    double_fall=st.booleans(),
    end_condition=st.sampled_from(["bula_sum_le_zero", "all_bulas_le_zero"]),
    repeal_revalues=st.booleans(),
)

EXAMPLES = 20
DEALS_PER_EXAMPLE = 200  # 20 x 200 = 4,000 random legal deals per run


def random_league(rules: BalkanRules, seed: int, n_games: int, per_game: int
                  ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``n_games`` random legal games of ``per_game`` deals under ``rules``."""
    driver = simulator("balkan", rules.model_dump())
    rng = random.Random(seed)
    return settlement_frames(driver.random_game(rng, f"g{k}", per_game) for k in range(n_games))


@settings(deadline=None, max_examples=EXAMPLES, derandomize=False)
@given(rules_st, st.integers(0, 2**32 - 1), st.sampled_from([(10, 20), (4, 50), (20, 10)]))
def test_kernel_equals_reference(rules: BalkanRules, seed: int, shape: tuple[int, int]) -> None:
    n_games, per_game = shape
    assert n_games * per_game == DEALS_PER_EXAMPLE
    games, deals = random_league(rules, seed, n_games, per_game)
    a = SETTLEMENT.settle(games, deals)
    b = settle_reference(games, deals)
    assert_frame_equal(a.settlements, b.settlements)
    assert_frame_equal(a.transfers, b.transfers)
    assert_frame_equal(a.standings, b.standings)
    _invariants(rules, a.settlements, a.transfers, a.standings)


def _invariants(rules: BalkanRules, s: pl.DataFrame, t: pl.DataFrame,
                standings: pl.DataFrame) -> None:
    # zero-sum per deal and per game (7.5, records.md 2)
    per_deal = s.group_by("game_id", "deal_no").agg(pl.col("cash").sum())
    assert per_deal["cash"].abs().max() < 1e-6  # type: ignore[operator]
    assert standings.group_by("game_id").agg(pl.col("cash").sum())["cash"].abs().max() < 1e-6  # type: ignore[operator]
    # bula_after is the running sum of bula_delta from start_bula (7.1)
    run = s.sort("game_id", "deal_no").with_columns(
        (pl.col("bula_delta").cum_sum().over("game_id", "player") + rules.start_bula)
        .alias("run"))
    assert (run["run"] == run["bula_after"]).all()
    # soups are never negative; each is paid by the deal's declarer (7.3)
    assert (s["soups_left"] >= 0).all() and (s["soups_right"] >= 0).all()
    assert (t["amount"] > 0).all()
    written = s.group_by("game_id", "deal_no").agg(
        (pl.col("soups_left") + pl.col("soups_right")).sum().alias("w"))
    paid = t.group_by("game_id", "deal_no").agg(pl.col("amount").sum().alias("w"))
    joined = written.join(paid, on=["game_id", "deal_no"], how="left").fill_null(0)
    assert (joined["w"] == joined["w_right"]).all()
    # at most one refa used per deal, and only by a player whose bula moved
    used = s.filter(pl.col("refa_used"))
    assert used.group_by("game_id", "deal_no").len()["len"].max() in (None, 1)


def test_cash_is_change_of_final_score() -> None:  # balkan.md 7.5
    """Summing a game's cash gives S_i - mean(S) of its final sheet."""
    rules = BalkanRules.preset("serbian-club")
    games, deals = random_league(rules, 11, 5, 60)
    s = SETTLEMENT.settle(games, deals).settlements
    for gid in s["game_id"].unique().to_list():
        g = s.filter(pl.col("game_id") == gid)
        final = g.group_by("player").agg(
            (pl.col("soups_left").sum() + pl.col("soups_right").sum()).alias("w"),
            pl.col("bula_delta").sum().alias("b"), pl.col("cash").sum().alias("cash"))
        t = SETTLEMENT.settle(games, deals).transfers.filter(pl.col("game_id") == gid)
        against = t.group_by("payer").agg(pl.col("amount").sum())
        a = dict(zip(against["payer"], against["amount"], strict=True))
        score = {p: w - a.get(p, 0) - 10 * (b + rules.start_bula)
                 for p, w, b in zip(final["player"], final["w"], final["b"], strict=True)}
        mean = sum(score.values()) / 3
        cash = dict(zip(final["player"], final["cash"], strict=True))
        assert cash == pytest.approx({p: v - mean for p, v in score.items()})
