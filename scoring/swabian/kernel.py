"""The Swabian settlement, vectorised: every deal of every game at once (swabian.md 7-8).

The stake of a deal depends only on (game, aus den Händen, declarer's tricks): a finite domain of
7 x 2 x 11 cells, so it is enumerated once from the reference (``reference.stake``) into a signed
table and every deal looks its cell up (STYLE.md practice 4, "settle by join"). The rest is per-seat
arithmetic on numpy columns: contra factors pairwise (5), Kunstwerk declarer -> dealer (4).
Nothing is carried across deals but the running balance, which is a sum (7).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import polars as pl

from model.swabian.frame import TABLE
from model.swabian.games import GAMES
from scoring.frames import each_rules
from scoring.settlement import Settled, Settlement
from scoring.swabian import frames, reference
from scoring.swabian.frames import read_rules
from scoring.swabian.reference import stake

I16 = npt.NDArray[np.int16]


def _signed_stakes() -> I16:
    """``table[game * 22 + hand * 11 + tricks]``: +stake when the declarer wins, -stake when he
    loses; 0 for game 0 (nobody declared) and game 1 (none)."""
    table = np.zeros(8 * 22, dtype=np.int16)
    for game in GAMES:
        for hand in (0, 1):
            for tricks in range(11):
                won, units = stake(game, bool(hand), tricks)
                table[game * 22 + hand * 11 + tricks] = units if won else -units
    return table


SIGNED_STAKE = _signed_stakes()


@dataclass(frozen=True, slots=True)
class Columns:
    """The kernel's input, one entry per deal (``deals_swabian`` with nulls filled): ``declarer``
    -1 and ``game`` 0 when nobody declared; ``tricks`` the declarer's tricks (0 when none);
    ``contra_i`` 1, 2 or 4; ``kunstwerk_units`` of the deal's game (rules)."""

    dealer: I16
    declarer: I16
    game: I16
    hand: I16
    tricks: I16
    contra_0: I16
    contra_1: I16
    contra_2: I16
    kunstwerk: I16
    kunstwerk_units: I16


@dataclass(frozen=True, slots=True)
class Paid:
    """Per seat and deal: ``cash`` (the change of the balance) and ``owes`` (what the seat pays
    the declarer, net of Kunstwerk; negative when the declarer pays it; 0 for the declarer)."""

    cash: tuple[I16, I16, I16]
    owes: tuple[I16, I16, I16]


def pay(c: Columns) -> Paid:
    """Every deal's payments between the declarer and each opponent, and the Kunstwerk.

    With s the signed stake, k_i the contra factor and d_i "seat i declares":
    opponent i owes the declarer k_i * s, less the Kunstwerk when he is the dealer (owes_i);
    his cash is -owes_i, the declarer's is the sum of what the others owe him.
    """
    signed = SIGNED_STAKE[(c.game * 2 + c.hand) * 11 + c.tricks]
    kw = c.kunstwerk * c.kunstwerk_units * (c.dealer != c.declarer) * (c.declarer >= 0)
    contra = (c.contra_0, c.contra_1, c.contra_2)
    owes = [contra[i] * signed * (c.declarer != i) - kw * (c.dealer == i) for i in range(3)]
    total = owes[0] + owes[1] + owes[2]
    cash = [total * (c.declarer == i) - owes[i] for i in range(3)]
    return Paid(cash=(cash[0], cash[1], cash[2]), owes=(owes[0], owes[1], owes[2]))


# --- frames in, frames out ---------------------------------------------------------------------


def columns(deals: pl.DataFrame, units: np.ndarray) -> Columns:
    """The kernel's columns from a ``deals_swabian`` frame (``units`` per deal)."""

    def col(name: str, fill: int) -> np.ndarray:
        return deals[name].fill_null(fill).to_numpy().astype(np.int16)

    declarer = col("declarer", -1)
    t = [col(f"tricks_{i}", 0) for i in range(3)]
    tricks = np.where(declarer == 0, t[0], np.where(declarer == 1, t[1], t[2]))
    return Columns(
        dealer=col("dealer", 0),
        declarer=declarer,
        game=np.where(declarer >= 0, col("game", 0), 0).astype(np.int16),
        hand=col("hand", 0),
        tricks=np.where(declarer >= 0, tricks, 0).astype(np.int16),
        contra_0=col("contra_0", 1),
        contra_1=col("contra_1", 1),
        contra_2=col("contra_2", 1),
        kunstwerk=col("kunstwerk", 0),
        kunstwerk_units=units.astype(np.int16),
    )


def settle(games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
    """The vectorised settlement of every game at once (``Settlement.settle``)."""
    ids = games["game_id"].to_list()
    rules = each_rules(games, read_rules)
    names = [list(p) for p in games["players"].to_list()]
    index = pl.DataFrame(
        {"game_id": ids, "_g": np.arange(len(ids), dtype=np.int32)},
        schema={"game_id": pl.String(), "_g": pl.Int32()},
    )
    # Deals of games missing from ``games`` are not settled (no rows), as in every variant.
    deals = deals.join(index, on="game_id", how="inner", maintain_order="left")
    g = deals["_g"].to_numpy()
    unit_of = np.array([r.kunstwerk_units for r in rules] or [0], dtype=np.int32)
    paid = pay(columns(deals, unit_of[g]))
    n = deals.height
    row = np.repeat(np.arange(n), 3)
    seat = np.tile(np.arange(3, dtype=np.int8), n)
    flat_names = pl.Series([p for ps in names for p in ps], dtype=pl.String())
    cash = np.stack(paid.cash, axis=1).ravel().astype(np.float64)
    keys = deals.select("game_id", "deal_no")[row]
    settlements = keys.with_columns(
        player=flat_names.gather(g[row] * 3 + seat),
        seat=pl.Series(seat, dtype=pl.Int8()),
        variant=pl.lit(frames.VARIANT),
        cash=pl.Series(cash),
        **{c: pl.lit(None, dtype=frames.SETTLEMENTS[c]) for c in frames.UNUSED},
    ).select(list(frames.SETTLEMENTS))

    owes = np.stack(paid.owes, axis=1).ravel()
    declarer = np.repeat(deals["declarer"].fill_null(-1).to_numpy().astype(np.int64), 3)
    hit = np.flatnonzero(owes)
    payer = np.where(owes[hit] > 0, seat[hit], declarer[hit])
    payee = np.where(owes[hit] > 0, declarer[hit], seat[hit])
    base = g[row[hit]] * 3
    transfers = deals.select("game_id", "deal_no")[row[hit]].with_columns(
        payer=flat_names.gather(base + payer),
        payee=flat_names.gather(base + payee),
        amount=pl.Series(np.abs(owes[hit]).astype(np.float64)),
    )

    slot = g[row] * 3 + seat
    totals = np.bincount(slot, weights=cash, minlength=3 * len(ids))
    played = np.bincount(g, minlength=len(ids))
    has = np.flatnonzero(played)
    standings = pl.DataFrame(
        {
            "game_id": [ids[i] for i in has for _ in range(3)],
            "player": [p for i in has for p in names[i]],
            "variant": frames.VARIANT,
            "cash": [float(totals[3 * i + s]) for i in has for s in range(3)],
            "deals_played": [int(played[i]) for i in has for _ in range(3)],
            "finished": [frames.finished(rules[i], int(played[i])) for i in has for _ in range(3)],
        },
        schema=frames.STANDINGS,
    )
    return Settled(
        settlements=settlements,
        transfers=transfers.select(list(frames.TRANSFERS)).cast(frames.TRANSFERS),  # type: ignore[arg-type]
        standings=standings,
    )


class SwabianSettlement(Settlement):
    """The ``Settlement`` of the registry for Swabian Preferanz."""

    variant = "swabian"
    deals_table = TABLE.name

    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        """Vectorised settlement (:func:`settle`)."""
        return settle(games, deals)

    def settle_reference(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        """The per-deal reference (``reference.settle``), for tests and benchmarks."""
        return reference.settle(games, deals)


SETTLEMENT = SwabianSettlement()
