"""Bridge deals as one polars frame, the ``deals_bridge`` table: the input of the scoring kernel.

One row per deal, seats as indices into the game's ``players`` (N E S W). Contract columns are null
for a passed-out deal; ``vul_ns`` / ``vul_ew`` are the board's vulnerability (duplicate: stated or
by board number, bridge.md 6) and null in rubber games, where vulnerability is the rubber state.
"""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

from model.bridge.check import honours_held, seat_hands
from model.bridge.contracts import parse_contract
from model.bridge.records import BridgeDeal, BridgeGame
from model.bridge.seats import EW, NS, board_vulnerable, is_vulnerable, side_of
from model.schema import Table

SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "deal_no": pl.Int32(),
    "event": pl.String(),
    "match": pl.String(),
    "room": pl.String(),
    "ns_team": pl.String(),
    "ew_team": pl.String(),
    "board": pl.Int32(),
    "ns_pair": pl.String(),
    "ew_pair": pl.String(),
    "dealer": pl.Int8(),
    "declarer": pl.Int8(),
    "level": pl.Int8(),
    "denom": pl.Int8(),
    "doubled": pl.Int8(),
    "tricks": pl.Int8(),
    "vul_ns": pl.Boolean(),
    "vul_ew": pl.Boolean(),
    "honours_ns": pl.Int16(),
    "honours_ew": pl.Int16(),
    "stated_score_ns": pl.Int32(),
}

TABLE = Table(
    "deals_bridge", SCHEMA,
    required=("dealer", "honours_ns", "honours_ew"),
    key=("game_id", "deal_no"),
)
"""The ``deals_bridge`` table (model/schema.py), the settlement kernel's input."""


def deal_row(game: BridgeGame, deal: BridgeDeal) -> dict[str, object]:
    """The frame row of one valid deal (names already checked against the game's players)."""
    seat = {name: i for i, name in enumerate(game.players)}
    level = denom = doubled = declarer = None
    honours = [0, 0]
    if deal.contract is not None and deal.declarer is not None:
        c = parse_contract(deal.contract)
        level, denom, doubled = c.level, c.denom, c.doubled
        declarer = seat[deal.declarer]
        hands = seat_hands(game, deal)
        held = (
            honours_held(hands, c) if hands is not None
            else {seat[p]: v for p, v in (deal.honours or {}).items()}
        )
        for s, v in held.items():
            honours[side_of(s)] += v
    vul_ns = vul_ew = None
    if game.variant == "bridge-duplicate":
        vul = deal.vulnerable or board_vulnerable(deal.board or 1)
        vul_ns, vul_ew = is_vulnerable(vul, NS), is_vulnerable(vul, EW)
    return {
        "game_id": deal.game_id,
        "deal_no": deal.deal_no,
        "event": game.event,
        "match": deal.match,
        "room": deal.room,
        "ns_team": deal.ns_team,
        "ew_team": deal.ew_team,
        "board": deal.board,
        "ns_pair": deal.ns_pair,
        "ew_pair": deal.ew_pair,
        "dealer": seat[deal.dealer],
        "declarer": declarer,
        "level": level,
        "denom": denom,
        "doubled": doubled,
        "tricks": deal.tricks,
        "vul_ns": vul_ns,
        "vul_ew": vul_ew,
        "honours_ns": honours[NS],
        "honours_ew": honours[EW],
        "stated_score_ns": deal.score_ns,
    }


def deals_frame(rows: Iterable[dict[str, object]]) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema=SCHEMA, orient="row")
