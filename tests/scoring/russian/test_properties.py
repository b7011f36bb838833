"""Properties of the Russian settlement on random legal games (russian.md 5-8, records.md 2).

- the kernel equals the per-deal reference (STYLE.md practice 4) on every frame;
- money is zero-sum deal by deal and over the game (records.md 2; 8: the hill split and the
  whists both net to zero);
- each deal's transfers net to its cash; the cash of a game sums to the final settlement of its
  totals (8);
- no pool is ever above the target, and a game is finished exactly when every pool reached it;
  the deals recorded after that are not settled (8).
"""

from __future__ import annotations

import random

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from model.russian.frame import deal_row, deals_frame
from model.russian.params import preset
from model.russian.records import RussianGame
from scoring.russian.frames import RussianSettled, read_rules
from scoring.russian.reference import result
from sim.random_play.russian import random_game, random_league_game
from tests.scoring.russian.helpers import both


def league(seed: int, n_games: int, deals: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    rng = random.Random(seed)
    games, rows = [], []
    for k in range(n_games):
        g, ds = random_league_game(rng, f"g{k}", rng.randint(1, deals))
        games.append({"game_id": g.game_id, "players": list(g.players),
                      "rules": g.rules.model_dump_json()})
        rows += [deal_row(g, d) for d in ds]
    rng.shuffle(rows)  # the settlement sorts by game and deal itself
    return pl.DataFrame(games), deals_frame(rows)


@settings(deadline=None, max_examples=60)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_kernel_equals_reference_and_the_books_balance(seed: int, n_games: int):
    games, deals = league(seed, n_games, 80)
    s = both(games, deals)
    per_deal = s.settlements.group_by("game_id", "deal_no").agg(pl.col("cash").sum())
    assert per_deal["cash"].abs().max() < 1e-9  # type: ignore[operator]
    paid = s.transfers.group_by("game_id", "deal_no", pl.col("payer").alias("player")).agg(
        out=pl.col("amount").sum())
    got = s.transfers.group_by("game_id", "deal_no", pl.col("payee").alias("player")).agg(
        inn=pl.col("amount").sum())
    net = (s.settlements.select("game_id", "deal_no", "player", "cash")
           .join(paid, on=["game_id", "deal_no", "player"], how="left")
           .join(got, on=["game_id", "deal_no", "player"], how="left").fill_null(0.0))
    assert ((net["inn"] - net["out"] - net["cash"]).abs() < 1e-9).all()
    for g in games.iter_rows(named=True):
        rules = read_rules(g["rules"])
        mine = s.settlements.filter(game_id=g["game_id"]).sort("deal_no", "seat")
        if mine.height == 0:
            continue
        assert mine["pool_after"].max() <= rules.pool_target  # type: ignore[operator]
        n = len(g["players"])
        last = mine.tail(n)
        w = [[0] * n for _ in range(n)]
        for r in s.whists.filter(game_id=g["game_id"]).iter_rows(named=True):
            w[g["players"].index(r["writer"])][g["players"].index(r["against"])] += r["amount"]
        final = result(rules, n, last["pool_after"].to_list(), last["hill_after"].to_list(), w)
        cash = mine.group_by("seat").agg(pl.col("cash").sum()).sort("seat")["cash"].to_list()
        assert cash == pytest.approx(final, abs=1e-6)
        done = s.standings.filter(game_id=g["game_id"])["finished"].to_list()
        assert done == [min(last["pool_after"].to_list()) >= rules.pool_target] * n
        # the game ends at the first deal that closes every pool; later deals are not settled
        lows = mine.group_by("deal_no", maintain_order=True).agg(pl.col("pool_after").min())
        assert all(low < rules.pool_target for low in lows["pool_after"].to_list()[:-1])
        recorded = deals.filter(game_id=g["game_id"]).height
        assert lows.height == recorded or done[0]


def test_kernel_equals_reference_on_a_big_league():
    """A bulk check beside the drawn leagues: 40 games, up to 400 deals each."""
    both(*league(20261201, 40, 400))


def test_no_deals_settle_to_empty_frames():
    """Games without deals yet, and no games at all: every frame empty, as the reference's."""
    games, deals = league(1, 2, 1)
    for g, d in ((games, deals.clear()), (games.clear(), deals.clear())):
        s = both(g, d)
        assert s.settlements.height == s.transfers.height == s.whists.height == 0
        assert s.standings.height == 0



def widest(seed: int, convention: str, n: int, target: int, deals: int) -> RussianSettled:
    """A game with every flag at its largest value (russian.md 5-8, ``RussianRules`` bounds:
    raspasy 10 a trick, levels 1, 2, 4, no amnesty, the zero bonus 10, factors 2, the misère
    penalty 20), settled by the kernel and the reference (asserted equal)."""
    rules = preset(convention, pool_target=target, raspasy_trick_value=10,  # type: ignore[arg-type]
                   raspasy_zero_bonus=10, raspasy_progression="1,2,4", raspasy_amnesty=False,
                   consolation_factor=2, whist_trick_factor=2, remise_factor=2,
                   misere_trick_penalty=20)
    g = RussianGame(variant="russian", game_id="g", players=[f"p{i}" for i in range(n)],
                    rules=rules)
    games = pl.DataFrame({"game_id": ["g"], "players": [list(g.players)],
                          "rules": [rules.model_dump_json()]})
    ds = random_game(random.Random(seed), g, deals)
    return both(games, deals_frame(deal_row(g, d) for d in ds))


@settings(deadline=None, max_examples=12)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["sochi", "leningrad", "rostov"]),
       st.sampled_from([3, 4]), st.sampled_from([10, 50, 10_000]))
def test_the_largest_entries_the_rules_allow(seed: int, convention: str, n: int, target: int):
    """The kernel's narrow per-deal columns (``scan.Scan``) hold what the reference computes
    with every flag at its largest, the overflow of small targets included."""
    widest(seed, convention, n, target, 200)


def test_the_largest_entries_reach_the_widths():
    """The game above reaches entries past 8 bits (a deal's hill and whists) and a pool past
    8 bits, so the equality is a check of the widths."""
    s = widest(5, "leningrad", 3, 10_000, 1_500)
    assert s.settlements["hill_delta"].max() >= 300  # type: ignore[operator]
    assert s.whists["amount"].max() >= 200  # type: ignore[operator]
    assert s.settlements["pool_after"].max() >= 256  # type: ignore[operator]
