"""Random ``deals_balkan`` frames that respect the score-sheet rules (for properties and bench).

Every row is a deal a score sheet could hold under ``rules`` (balkan.md 5-6): trick counts in the
domain of the early end, Bettel defended by both, kontra only by a playing defender (the inviter
when one plays), chain lengths within ``kontra_max_level``, one kontra player unless
``kontra_scope`` is ``pairwise``. Cards are not generated: the settlement does not read them.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from model.balkan.frame import SCHEMA
from model.balkan.params import BalkanRules


def random_deals(rng: np.random.Generator, n_games: int, deals_per_game: int,
                 rules: BalkanRules) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``(games, deals)`` frames: ``n_games`` three-player games of ``deals_per_game`` deals."""
    n = n_games * deals_per_game
    game = np.repeat(np.arange(n_games), deals_per_game)
    deal_no = np.tile(np.arange(1, deals_per_game + 1), n_games)
    dealer = (deal_no - 1) % 3
    dec = rng.integers(0, 3, n)
    top = 8 if rules.preferans_bid else 7
    number = rng.integers(2, top + 1, n)
    igra = rng.random(n) < 0.2
    u = rng.random(n)
    mode = np.select([u < 0.12, u < 0.2, u < 0.25, u < 0.75, u < 0.87], [0, 1, 2, 3, 4], 5)
    mode = np.where((mode == 2) & ((number != 2) | igra), 3, mode)
    mode = np.where(number == 6, np.where(mode == 0, 0, 3), mode)  # Bettel: both defend
    if not rules.pik_needs_kontra:
        mode = np.where(mode == 2, 3, mode)
    a, b = (dec + 1) % 3, (dec + 2) % 3
    lead = np.where(rng.random(n) < 0.5, a, b)
    made = rng.random(n) < 0.7
    # declarer's and defence tricks (6: early end)
    t_d = np.where(made, rng.integers(6, 11, n), rng.integers(0, 6, n))
    x = np.where(made, 10 - t_d, 5)
    betl, pref = number == 6, number == 8
    t_d = np.where(betl, np.where(made, 0, 1), t_d)
    x = np.where(betl, np.where(made, 10, rng.integers(0, 10, n)), x)
    t_d = np.where(pref, np.where(made, 10, rng.integers(0, 10, n)), t_d)
    x = np.where(pref, np.where(made, 0, 1), x)
    share = rng.integers(0, 11, n)
    t_a = np.minimum(share, x)
    t_b = x - t_a
    t_lead = np.where(lead == a, t_a, t_b)
    t_other = x - t_lead
    played = mode >= 3
    tricks = np.full((n, 4), -1)
    rows = np.arange(n)
    tricks[rows, dec] = np.where(played, t_d, -1)
    alone = mode == 5
    other = np.where(lead == a, b, a)
    tricks[rows, lead] = np.where(played, t_lead, -1)
    tricks[rows, other] = np.where(played & ~alone, t_other, -1)
    tricks[rows, dec] = np.where(played & alone, t_d, tricks[rows, dec])
    tricks[rows, lead] = np.where(played & alone, x, tricks[rows, lead])
    cap = rules.kontra_max_level or 6
    kontra = np.zeros((n, 4), np.int64)
    k1 = np.where(played & ~alone & (rng.random(n) < 0.3), rng.integers(1, cap + 1, n), 0)
    kontra[rows, lead] = k1
    if rules.kontra_scope == "pairwise":
        k2 = np.where((mode == 3) & (rng.random(n) < 0.1), rng.integers(1, cap + 1, n), 0)
        kontra[rows, other] = k2
    declared = mode > 0
    deals = pl.DataFrame({
        "game_id": [f"g{g}" for g in game],
        "deal_no": deal_no,
        "dealer": dealer,
        "declarer": np.where(declared, dec, -1),
        "number": np.where(declared, number, -1),
        "igra": igra & declared & (mode != 2),
        "mode": np.array(["none", "pass", "nokontra", "both", "invite", "alone"])[mode],
        "lead_defender": np.where((mode == 4) | alone, lead, -1),
        **{f"kontra_{i}": kontra[:, i] for i in range(4)},
        **{f"tricks_{i}": tricks[:, i] for i in range(4)},
        "repealed": rng.random(n) < 0.02,
    })
    deals = deals.with_columns(
        [pl.when(pl.col(c) < 0).then(None).otherwise(pl.col(c)).alias(c)
         for c in ("declarer", "number", "lead_defender", "tricks_0", "tricks_1", "tricks_2",
                   "tricks_3")]).cast(SCHEMA)  # type: ignore[arg-type]
    games = pl.DataFrame({
        "game_id": [f"g{g}" for g in range(n_games)],
        "players": [["A", "B", "C"]] * n_games,
        "rules": [rules.model_dump_json()] * n_games,
    })
    return games, deals
