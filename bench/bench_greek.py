"""Greek Prefa settlement: the vectorised kernel against the per-deal reference, in the same run.

A synthetic league of 1,000,000 deals (every option of greek-prefa.md 14 mixed across games, 3
and 4 players, all defence modes, concessions, all-pass deals) is settled by
``kernel.settle_arrays`` (the numpy core) and by ``SETTLEMENT.settle`` (frames in, frames out); a
sample of whole games is settled by ``reference.settle_game`` and checked equal to the kernel's
rows. Printed: deals/s of each and the kernel / reference ratio (targets: >= 20 million deals/s for
the core, >= 100x the reference). Times are CPU times of this process on one core.
"""

from __future__ import annotations

import os

os.environ.setdefault("POLARS_MAX_THREADS", "1")  # one core (numpy is single-threaded here)

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl

from model.greek.contracts import DENOMS, format_contract
from model.greek.frame import MODES, SCHEMA
from model.greek.params import GreekRules
from model.greek.records import GreekDeal, GreekGame
from scoring.greek import SETTLEMENT, deal_arrays, game_arrays
from scoring.greek.arrays import settle_arrays
from scoring.greek.frames import settled_from_rows
from scoring.greek.reference import settle_game

DEALS = 1_000_000
PER_GAME = 50
SAMPLE_GAMES = 200


def random_rules(rng: np.random.Generator, four: bool) -> GreekRules:
    return GreekRules(
        initial_kassa=int(rng.choice([31, 50, 100])),
        ten_nt=str(rng.choice(["forbidden", "value_11", "value_10"])),  # type: ignore[arg-type]
        ten_as_nine=bool(rng.random() < 0.3),
        four_aces=str(rng.choice(["none", "raise_value", "fixed_chips"])),  # type: ignore[arg-type]
        end_at_two_empty=bool(rng.random() < 0.3),
        four_players=four,
        all_pass=str(rng.choice(["redeal", "play_low"])),  # type: ignore[arg-type]
        concede_any_contract=bool(rng.random() < 0.5),
        chip_rounding=str(rng.choice(["exact_rational", "round_half_up"])),  # type: ignore[arg-type]
    )


def league(seed: int = 1) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The synthetic league as the ``games`` and ``deals_greek`` frames, built without a loop
    over deals."""
    rng = np.random.default_rng(seed)
    n_games = DEALS // PER_GAME
    n = np.where(rng.random(n_games) < 0.4, 4, 3)
    rules = [random_rules(rng, bool(x == 4)).model_dump_json() for x in n]
    ids = [f"g{i:06d}" for i in range(n_games)]
    players = [["A", "B", "C", "D"][:x] for x in n]
    games = pl.DataFrame({"game_id": ids, "players": players, "rules": rules})

    game = np.repeat(np.arange(n_games), PER_GAME)
    deal_no = np.tile(np.arange(1, PER_GAME + 1), n_games)
    nd = n[game]
    count = len(game)
    dealer = (deal_no - 1) % nd
    kind = rng.choice(7, count, p=[0.04, 0.03, 0.03, 0.15, 0.45, 0.15, 0.15])
    # 0 all pass, 1 preliminary concession, 2 conceded contract, 3 pass, 4 both, 5 invite, 6 alone
    declarer = (dealer + 1 + rng.integers(0, 3, count)) % nd
    declarer = np.where((nd == 4) & (declarer == dealer), (declarer + 1) % nd, declarer)
    # contract levels and four-aces announcements at plausible table rates
    level = rng.choice([6, 7, 8, 9, 10], count, p=[0.5, 0.25, 0.13, 0.08, 0.04])
    denom = rng.integers(0, 4, count) + (rng.random(count) < 0.2) * (level < 10)
    t_d = np.clip(level + rng.choice([-3, -2, -1, 0, 0, 0, 1, 1, 2, 3], count), 0, 10)
    t_r = rng.integers(0, 11, count) % (10 - t_d + 1)
    t_l = 10 - t_d - t_r
    right = (declarer + 1) % nd
    right = np.where((nd == 4) & (right == dealer), (right + 1) % nd, right)
    left = np.where(nd == 4, 6 - declarer - right - dealer, 3 - declarer - right)
    w_right = rng.random(count) < 0.5
    whister = np.where(w_right, right, left)
    passer = np.where(w_right, left, right)
    mode_of_kind = np.array([MODES.index(m) for m in
                             ("none", "concede", "concede", "pass", "both", "invite", "alone")])
    mode = mode_of_kind[kind]
    has_decl = kind != 0
    tricks = np.full((count, 4), -1)
    rows = np.arange(count)
    played = kind >= 4
    tricks[rows[played], declarer[played]] = t_d[played]
    both_inv = (kind == 4) | (kind == 5)
    tricks[rows[both_inv], right[both_inv]] = t_r[both_inv]
    tricks[rows[both_inv], left[both_inv]] = t_l[both_inv]
    alone = kind == 6
    tricks[rows[alone], whister[alone]] = 10 - t_d[alone]
    low = (kind == 0) & (rng.random(count) < 0.7)
    first = (dealer + 1) % nd
    tricks[rows[low], first[low]] = t_d[low]
    tricks[rows[low], right[low]] = t_r[low]
    tricks[rows[low], left[low]] = t_l[low]
    del passer
    with_contract = has_decl & (kind != 1)

    def nullable(values: np.ndarray, mask: np.ndarray, name: str) -> pl.Series:
        return pl.Series(name, values).cast(SCHEMA[name]).set(pl.Series(~mask), None)

    deals = pl.DataFrame({
        "game_id": pl.Series(ids).gather(game),
        "deal_no": deal_no,
        "dealer": dealer,
        "mode": pl.Series(list(MODES), dtype=SCHEMA["mode"]).gather(mode),
        "four_aces": with_contract & (rng.random(count) < 0.02),
        "preliminary": kind == 1,
    }).with_columns(
        nullable(declarer, has_decl, "declarer"),
        nullable(level, with_contract, "level"),
        nullable(denom, with_contract, "denom"),
        nullable(whister, (kind == 5) | (kind == 6), "whister"),
        *[nullable(tricks[:, i], tricks[:, i] >= 0, f"tricks_{i}") for i in range(4)],
    ).select(list(SCHEMA)).cast(pl.Schema(SCHEMA))
    return games, deals


def records(games: pl.DataFrame, deals: pl.DataFrame) -> list[tuple[GreekGame, list[GreekDeal]]]:
    """Frame rows back to records, for the reference on a sample."""
    out = []
    for g in games.iter_rows(named=True):
        game = GreekGame(game_id=g["game_id"], variant="greek-prefa", players=tuple(g["players"]),
                         rules=GreekRules.model_validate_json(g["rules"]))
        p = game.players
        recs = []
        for d in deals.filter(pl.col("game_id") == g["game_id"]).iter_rows(named=True):
            recs.append(record(game, p, d))
        out.append((game, recs))
    return out


def record(game: GreekGame, p: tuple[str, ...], d: dict[str, Any]) -> GreekDeal:
    tricks = {p[i]: d[f"tricks_{i}"] for i in range(4) if d[f"tricks_{i}"] is not None}
    base: dict[str, Any] = {"game_id": game.game_id, "deal_no": d["deal_no"],
                            "dealer": p[d["dealer"]], "four_aces": d["four_aces"]}
    mode = d["mode"]
    if mode == "none":
        return GreekDeal(**base, tricks=tricks or None)
    declarer = p[d["declarer"]]
    if mode == "concede":
        contract = None if d["level"] is None else format_contract(d["level"], d["denom"])
        return GreekDeal(**base, declarer=declarer, contract=contract, conceded=True,
                         preliminary=d["preliminary"])
    contract = format_contract(d["level"], d["denom"])
    others = [x for i, x in enumerate(p)
              if x != declarer and not (len(p) == 4 and i == d["dealer"])]
    if mode == "pass":
        defence = {x: "pass" for x in others}
    elif mode == "both":
        defence = {x: "play" for x in others}
    else:
        w = p[d["whister"]]
        defence = {x: (mode if x == w else "pass") for x in others}
    return GreekDeal(**base, declarer=declarer, contract=contract, defence=defence,
                     tricks=tricks or None)


def best(f: Callable[[], object], repeat: int = 5) -> float:
    """Best CPU time of this process (one core: numpy and polars run single-threaded here), so
    other work on the machine does not count."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        f()
        times.append(time.process_time() - t)
    return min(times)


def run() -> None:
    assert DENOMS  # the ladder names used by format_contract
    games, deals = league()
    g_sorted, g = game_arrays(games)
    _, d = deal_arrays(g_sorted, deals)
    core = best(lambda: settle_arrays(g, d), repeat=7)
    full = best(lambda: SETTLEMENT.settle(games, deals), repeat=2)
    result = settle_arrays(g, d)
    settled = int(result.settled.sum())

    sample_ids = games["game_id"][:SAMPLE_GAMES]
    s_games = games.filter(pl.col("game_id").is_in(sample_ids.implode()))
    s_deals = deals.filter(pl.col("game_id").is_in(sample_ids.implode()))
    recs = records(s_games, s_deals)
    sample = sum(len(r) for _, r in recs)
    parts: list[Any] = []
    t = time.process_time()
    for game, rs in recs:
        parts.append(settle_game(game, rs))
    ref = time.process_time() - t
    ref_frames = settled_from_rows(
        [row for p in parts for row in p.settlements],
        [row for p in parts for row in p.transfers],
        [row for p in parts for row in p.standings],
    )
    ker_frames = SETTLEMENT.settle(s_games, s_deals)
    agree = ker_frames.settlements.sort("game_id", "deal_no", "seat").equals(
        ref_frames.settlements.sort("game_id", "deal_no", "seat"))

    core_rate = DEALS / core
    full_rate = DEALS / full
    ref_rate = sample / ref
    print(f"league: {DEALS:,} deals in {len(games):,} games, {settled:,} settled "
          f"(the rest come after their game ended)")
    print(f"kernel core (settle_arrays):     {core * 1e3:8.1f} ms  {core_rate / 1e6:7.2f} M deals/s"
          f"  (target >= 20)")
    print(f"settle() frames in/out:          {full * 1e3:8.1f} ms  "
          f"{full_rate / 1e6:7.2f} M deals/s")
    print(f"reference (settle_game), sample: {ref * 1e3:8.1f} ms  {ref_rate / 1e3:7.1f} k deals/s"
          f"  on {sample:,} deals; rows equal to the kernel's: {agree}")
    print(f"ratio kernel core / reference:   {core_rate / ref_rate:8.0f}x  (target >= 100x)")
    print(f"ratio settle() / reference:      {full_rate / ref_rate:8.0f}x")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"(CPU times on one core; machine load average {load} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    run()
