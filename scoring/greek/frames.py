"""Frames in and out of the Greek Prefa settlement (``model/tables.py``, ``registry.py``).

Input: ``games`` (game_id, players in turn order, rules as JSON) and the ``deals_greek`` frame
(``model/greek/frame.py``). Output: ``settlements``, ``transfers`` and ``standings`` with the
columns of the stable tables; the columns other variants use are null.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import polars as pl

from model.greek.frame import deal_row, deals_frame
from model.greek.records import GreekDeal, GreekGame
from scoring import frames
from scoring.settlement import Settled

GAMES_SCHEMA = frames.GAMES
SETTLEMENTS_SCHEMA = frames.SETTLEMENTS
TRANSFERS_SCHEMA = frames.TRANSFERS
STANDINGS_SCHEMA = frames.STANDINGS
with_null_columns = frames.with_null_columns
GREEK_COLUMNS = ("game_id", "deal_no", "player", "seat", "variant", "cash", "chips",
                 "kassa_delta", "kassa_after")


def settled_from_rows(
    settlements: Sequence[dict[str, object]],
    transfers: Sequence[dict[str, object]],
    standings: Sequence[dict[str, object]],
) -> Settled:
    """Rows (as the reference builds them) to the three frames, sorted like the kernel's."""
    greek = {c: SETTLEMENTS_SCHEMA[c] for c in GREEK_COLUMNS}
    s = with_null_columns(pl.DataFrame(list(settlements), schema=greek, orient="row"))
    t = pl.DataFrame(list(transfers), schema=TRANSFERS_SCHEMA, orient="row")
    st = pl.DataFrame(list(standings), schema=STANDINGS_SCHEMA, orient="row")
    return Settled(
        s.sort("game_id", "deal_no", "seat"),
        t.sort("game_id", "deal_no", "payer", "payee"),
        st.sort("game_id", "player"),
    )


def games_frame(games: Iterable[GreekGame]) -> pl.DataFrame:
    """The ``games`` input of ``settle`` built from records (what ingest stores)."""
    rows = [
        {"game_id": g.game_id, "players": list(g.players), "rules": g.rules.model_dump_json()}
        for g in games
    ]
    return pl.DataFrame(rows, schema=GAMES_SCHEMA, orient="row")


def deals_greek_frame(games: Iterable[GreekGame], deals: Iterable[GreekDeal]) -> pl.DataFrame:
    """The ``deals_greek`` frame of the records (``model.greek.frame.deal_row``), sorted by
    game_id, deal_no as ``settle`` expects."""
    by_id = {g.game_id: g for g in games}
    frame = deals_frame(deal_row(by_id[d.game_id], d) for d in deals if d.game_id in by_id)
    return frame.sort("game_id", "deal_no")
