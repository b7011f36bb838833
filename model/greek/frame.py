"""Greek Prefa deals as one polars frame: the input of the settlement kernel.

One row per deal, seats as indices into the game's ``players`` (turn order). The schema is explicit
(STYLE.md practice 7): ingest writes it to the ``deals_greek`` table, scoring reads it back.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import polars as pl

from model.card_batch import items
from model.greek.contracts import parse_contract
from model.greek.records import GreekDeal, GreekGame
from model.schema import Table

MODES = ("none", "pass", "both", "invite", "alone", "concede")
"""How a deal was played out: ``none`` nobody declared (all pass, redeal); ``pass`` both defenders
passed (contract deemed made, 6.1 step 2); ``both`` / ``invite`` / ``alone`` (6.1); ``concede`` the
declarer refused to play after taking the talon (section 5)."""

Mode = pl.Enum(list(MODES))

SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "deal_no": pl.Int32(),
    "dealer": pl.Int8(),
    "declarer": pl.Int8(),
    "level": pl.Int8(),
    "denom": pl.Int8(),
    "mode": Mode,
    "whister": pl.Int8(),
    "tricks_0": pl.Int8(),
    "tricks_1": pl.Int8(),
    "tricks_2": pl.Int8(),
    "tricks_3": pl.Int8(),
    "four_aces": pl.Boolean(),
    "preliminary": pl.Boolean(),
}
"""``declarer``, ``level``, ``denom``, ``whister`` and ``tricks_i`` are null where they do not
apply: no declarer; no contract (preliminary concession); not a one-defender mode; seat ``i`` took
no part in the play (or does not exist)."""

TABLE = Table(
    "deals_greek", SCHEMA,
    required=("game_id", "deal_no", "dealer", "mode", "four_aces", "preliminary"),
)
"""The ``deals_greek`` table (model/schema.py), the settlement kernel's input."""


def mode_of(deal: GreekDeal) -> str:
    if deal.declarer is None:
        return "none"
    if deal.conceded:
        return "concede"
    decisions = set((deal.defence or {}).values())
    if decisions == {"pass"}:
        return "pass"
    if "invite" in decisions:
        return "invite"
    if "alone" in decisions:
        return "alone"
    return "both"


def deal_row(game: GreekGame, deal: GreekDeal) -> dict[str, object]:
    """The frame row of one valid deal (names already checked against the game's players)."""
    seat = {name: i for i, name in enumerate(game.players)}
    mode = mode_of(deal)
    level = denom = whister = None
    if deal.contract is not None:
        level, denom = parse_contract(deal.contract)
    if mode in ("invite", "alone"):
        whister = next(seat[p] for p, d in (deal.defence or {}).items() if d in ("invite", "alone"))
    tricks = {seat[p]: t for p, t in (deal.tricks or {}).items()}
    return {
        "game_id": deal.game_id,
        "deal_no": deal.deal_no,
        "dealer": seat[deal.dealer],
        "declarer": None if deal.declarer is None else seat[deal.declarer],
        "level": level,
        "denom": denom,
        "mode": mode,
        "whister": whister,
        **{f"tricks_{i}": tricks.get(i) for i in range(4)},
        "four_aces": deal.four_aces,
        "preliminary": deal.preliminary,
    }


def row_key(game: GreekGame, deal: GreekDeal) -> Hashable:
    """What :func:`deal_row` reads but the deal's ``game_id`` and ``deal_no``."""
    return (game.players, deal.dealer, deal.declarer, deal.contract, deal.conceded,
            items(deal.defence), items(deal.tricks), deal.four_aces, deal.preliminary)


def deals_frame(rows: Iterable[dict[str, object]]) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema=SCHEMA, orient="row")
