"""Russian deals as one polars frame: the input of the settlement kernel (``deals_russian``).

One row per deal, seats as indices into the game's ``players`` (turn order). ``defender_1`` and
``defender_2`` are the declarer's opponents in the order they speak (3), ``defence_1`` and
``defence_2`` their words as codes (``PASS``, ``WHIST``, ``HALF``). ``tricks_i`` is null for a
seat that did not play (the dealer sitting out, or no play at all).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import polars as pl

from model.card_batch import items
from model.russian.contracts import parse_contract
from model.russian.records import RussianDeal, RussianGame
from model.russian.seats import defenders
from model.schema import Table

PASS, WHIST, HALF = 0, 1, 2
DEFENCE_CODE = {"pass": PASS, "whist": WHIST, "half": HALF}

SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "deal_no": pl.Int32(),
    "dealer": pl.Int8(),
    "declarer": pl.Int8(),
    "level": pl.Int8(),
    "strain": pl.Int8(),
    "misere": pl.Boolean(),
    "defender_1": pl.Int8(),
    "defender_2": pl.Int8(),
    "defence_1": pl.Int8(),
    "defence_2": pl.Int8(),
    "open": pl.Boolean(),
    "tricks_0": pl.Int8(),
    "tricks_1": pl.Int8(),
    "tricks_2": pl.Int8(),
    "tricks_3": pl.Int8(),
}
"""``declarer``, ``level``, ``strain`` and the defence columns are null in raspasy; ``level`` and
``strain`` are null in a misère, and so are ``defence_i`` (misère is not whisted)."""

TABLE = Table("deals_russian", SCHEMA, required=("dealer", "misere", "open"),
              key=("game_id", "deal_no"))
"""The ``deals_russian`` table (model/schema.py), the settlement kernel's input."""


def deal_row(game: RussianGame, deal: RussianDeal) -> dict[str, object]:
    """The frame row of one valid deal (names already checked against the game's players)."""
    seat = {name: i for i, name in enumerate(game.players)}
    tricks = {seat[p]: t for p, t in (deal.tricks or {}).items()}
    row: dict[str, object] = {
        "game_id": deal.game_id,
        "deal_no": deal.deal_no,
        "dealer": seat[deal.dealer],
        "declarer": None,
        "level": None,
        "strain": None,
        "misere": False,
        "defender_1": None,
        "defender_2": None,
        "defence_1": None,
        "defence_2": None,
        "open": deal.open,
        **{f"tricks_{i}": tricks.get(i) for i in range(4)},
    }
    if deal.declarer is None:
        return row
    d = seat[deal.declarer]
    first, second = defenders(len(game.players), seat[deal.dealer], d)
    contract = parse_contract(deal.contract or "")
    row.update(declarer=d, defender_1=first, defender_2=second, misere=contract.misere)
    if not contract.misere:
        said = deal.defence or {}
        row.update(
            level=contract.level,
            strain=contract.strain,
            defence_1=DEFENCE_CODE[said[game.players[first]]],
            defence_2=DEFENCE_CODE[said[game.players[second]]],
        )
    return row


def row_key(game: RussianGame, deal: RussianDeal) -> Hashable:
    """What :func:`deal_row` reads but the deal's ``game_id`` and ``deal_no``."""
    return (game.players, deal.dealer, deal.declarer, deal.contract, deal.open,
            items(deal.defence), items(deal.tricks))


def deals_frame(rows: Iterable[dict[str, object]]) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema=SCHEMA, orient="row")
