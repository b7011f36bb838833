"""Swabian deals as one polars frame: the input of the settlement kernel (``deals_swabian``).

One row per deal, seats as indices into the game's ``players`` (turn order). The schema is explicit
(STYLE.md practice 7): ingest writes it to the ``deals_swabian`` table, scoring reads it back.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import polars as pl

from model.card_batch import items
from model.schema import Table
from model.swabian.records import CONTRA_FACTOR, SwabianDeal, SwabianGame

SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "deal_no": pl.Int32(),
    "dealer": pl.Int8(),
    "declarer": pl.Int8(),
    "game": pl.Int8(),
    "hand": pl.Boolean(),
    "tricks_0": pl.Int8(),
    "tricks_1": pl.Int8(),
    "tricks_2": pl.Int8(),
    "contra_0": pl.Int8(),
    "contra_1": pl.Int8(),
    "contra_2": pl.Int8(),
    "kunstwerk": pl.Boolean(),
}
"""``declarer``, ``game`` and ``tricks_i`` are null when nobody declared (all pass, redeal).
``contra_i`` is the stake factor k between seat ``i`` and the declarer (swabian.md 5: 1, 2 or 4;
1 for the declarer himself)."""

TABLE = Table(
    "deals_swabian", SCHEMA,
    required=("dealer", "hand", "contra_0", "contra_1", "contra_2", "kunstwerk"),
    key=("game_id", "deal_no"),
)
"""The ``deals_swabian`` table (model/schema.py), the settlement kernel's input."""


def deal_row(game: SwabianGame, deal: SwabianDeal) -> dict[str, object]:
    """The frame row of one valid deal (names already checked against the game's players)."""
    seat = {name: i for i, name in enumerate(game.players)}
    tricks = {seat[p]: t for p, t in (deal.tricks or {}).items()}
    contra = {seat[p]: CONTRA_FACTOR[c] for p, c in (deal.contra or {}).items()}
    return {
        "game_id": deal.game_id,
        "deal_no": deal.deal_no,
        "dealer": seat[deal.dealer],
        "declarer": None if deal.declarer is None else seat[deal.declarer],
        "game": None if deal.contract is None else int(deal.contract),
        "hand": deal.hand,
        **{f"tricks_{i}": tricks.get(i) for i in range(3)},
        **{f"contra_{i}": contra.get(i, 1) for i in range(3)},
        "kunstwerk": deal.kunstwerk,
    }


def row_key(game: SwabianGame, deal: SwabianDeal) -> Hashable:
    """What :func:`deal_row` reads but the deal's ``game_id`` and ``deal_no``."""
    return (game.players, deal.dealer, deal.declarer, deal.contract, deal.hand,
            items(deal.tricks), items(deal.contra), deal.kunstwerk)


def deals_frame(rows: Iterable[dict[str, object]]) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema=SCHEMA, orient="row")
