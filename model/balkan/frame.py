"""Balkan deals as one polars frame: the input of the settlement kernel (``deals_balkan``).

One row per deal, seats as indices into the game's ``players`` (turn order). ``kontra_i`` is the
length of the doubling chain with seat ``i`` (0 none); ``tricks_i`` is null for a seat that took
no part in the play.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import polars as pl

from model.balkan.check import mode_of
from model.balkan.contracts import parse_contract
from model.balkan.records import BalkanDeal, BalkanGame
from model.card_batch import items
from model.schema import Table

MODES = ("none", "pass", "nokontra", "both", "invite", "alone")
"""See :func:`model.balkan.check.mode_of`."""

Mode = pl.Enum(list(MODES))

SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "deal_no": pl.Int32(),
    "dealer": pl.Int8(),
    "declarer": pl.Int8(),
    "number": pl.Int8(),
    "igra": pl.Boolean(),
    "mode": Mode,
    "lead_defender": pl.Int8(),
    "kontra_0": pl.Int8(),
    "kontra_1": pl.Int8(),
    "kontra_2": pl.Int8(),
    "kontra_3": pl.Int8(),
    "tricks_0": pl.Int8(),
    "tricks_1": pl.Int8(),
    "tricks_2": pl.Int8(),
    "tricks_3": pl.Int8(),
    "repealed": pl.Boolean(),
}
"""``lead_defender``: the inviter or the lone defender (``invite`` / ``alone``), else null."""

TABLE = Table(
    "deals_balkan", SCHEMA,
    required=("dealer", "igra", "mode", "kontra_0", "kontra_1", "kontra_2", "kontra_3",
              "repealed"),
    key=("game_id", "deal_no"),
)
"""The ``deals_balkan`` table (model/schema.py), the settlement kernel's input."""


def deal_row(game: BalkanGame, deal: BalkanDeal) -> dict[str, object]:
    """The frame row of one valid deal (names already checked against the game's players)."""
    seat = {name: i for i, name in enumerate(game.players)}
    mode = mode_of(deal)
    number = igra = None
    if deal.contract is not None:
        c = parse_contract(deal.contract)
        number, igra = c.number, c.igra
    lead = None
    if mode in ("invite", "alone"):
        lead = next(seat[p] for p, d in (deal.defence or {}).items() if d in ("invite", "alone"))
    kontra = {seat[p]: k for p, k in (deal.kontra or {}).items()}
    tricks = {seat[p]: t for p, t in (deal.tricks or {}).items()}
    return {
        "game_id": deal.game_id,
        "deal_no": deal.deal_no,
        "dealer": seat[deal.dealer],
        "declarer": None if deal.declarer is None else seat[deal.declarer],
        "number": number,
        "igra": bool(igra),
        "mode": mode,
        "lead_defender": lead,
        **{f"kontra_{i}": kontra.get(i, 0) for i in range(4)},
        **{f"tricks_{i}": tricks.get(i) for i in range(4)},
        "repealed": deal.repealed,
    }


def row_key(game: BalkanGame, deal: BalkanDeal) -> Hashable:
    """What :func:`deal_row` reads but the deal's ``game_id`` and ``deal_no``."""
    return (game.players, deal.dealer, deal.declarer, deal.contract, items(deal.defence),
            items(deal.kontra), items(deal.tricks), deal.repealed)


def deals_frame(rows: Iterable[dict[str, object]]) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema=SCHEMA, orient="row")
