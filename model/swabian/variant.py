"""Swabian Preferanz as a registered variant (``model/variant.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

from model.cards import DECK_32
from model.swabian.auction import HAND
from model.swabian.check import check_batch, check_deal
from model.swabian.frame import TABLE, deal_row, row_key
from model.swabian.games import TRUMP, GameError, parse_game, won
from model.swabian.params import SwabianRules
from model.swabian.records import SwabianDeal, SwabianGame
from model.swabian.words import call_words, contract_call, no_declarer
from model.variant import Variant

# Per deal (``model/views.py``): the defence mode is the highest announcement of the defenders,
# ``play`` / ``contra`` / ``recontra`` (5: stake factor 1, 2, 4); made by the tricks required
# (3.1, ``model/swabian/games.py``): 7 in game 2, 6 in games 3-5, one more aus den Händen (3.2),
# none in Bettel, all ten in Durchmarsch. A game declared aus den Händen is called ``hand<game>``
# (``words.contract_call``): its own contract, with its own trick to make.
OUTCOME_SQL = f"""
            SELECT game_id, deal_no, 'swabian' AS variant,
                   CASE WHEN declarer IS NULL THEN 'none'
                        WHEN greatest(contra_0, contra_1, contra_2) >= 4 THEN 'recontra'
                        WHEN greatest(contra_0, contra_1, contra_2) = 2 THEN 'contra'
                        ELSE 'play' END AS defence_mode,
                   taken AS declarer_tricks,
                   CASE WHEN declarer IS NULL THEN NULL
                        WHEN game = 6 THEN taken = 0
                        WHEN game = 7 THEN taken = 10
                        ELSE taken >= CASE WHEN game = 2 THEN 7 ELSE 6 END
                                      + CASE WHEN hand THEN 1 ELSE 0 END END AS made,
                   CASE WHEN hand THEN '{HAND}' || game END AS called
            FROM (SELECT *, [tricks_0, tricks_1, tricks_2][declarer + 1] AS taken
                  FROM {TABLE.name})"""

def declarer_made(rec: Mapping[str, Any], tricks: int) -> bool:
    """The declarer makes his game with these tricks, one more aus den Händen (3.1, 3.2)."""
    return won(parse_game(str(rec["contract"])), bool(rec.get("hand")), tricks)


def trump(contract: str) -> int | None:
    """The trump suit of a game number (3.1): 2 Laub, 3 Schellen, 4 Herz, 5 Eichel."""
    try:
        return TRUMP.get(parse_game(contract))
    except GameError:
        return None


def reads_deal_no(game: SwabianGame) -> bool:
    """A session of ``session_deals`` deals ends after its last one (7)."""
    return game.rules.session_deals is not None


VARIANT = Variant(
    name="swabian",
    aliases=("swabian-preferanz", "preferanz", "donauschwaben"),
    deck=DECK_32,
    game_model=SwabianGame,
    deal_model=SwabianDeal,
    rules_model=SwabianRules,
    table=TABLE,
    outcome_sql=OUTCOME_SQL,
    check=check_deal,
    check_batch=check_batch,
    reads_deal_no=reads_deal_no,
    row=deal_row,
    row_key=row_key,
    trump=trump,
    zero_sum_per_deal=True,
    settles_by_payments=True,
    cash_unit="units",
    german_cards=True,
    contract_code=(  # the call of contract_call: its number, hand<n> aus den Händen (3.2)
        pl.when(pl.col("hand")).then(pl.lit(HAND)).otherwise(pl.lit(""))
        + pl.col("game").cast(pl.String)
    ),
    contract_level=pl.col("game"),
    declarer_made=declarer_made,
    call_words=call_words,
    contract_call=contract_call,
    no_declarer=no_declarer,
    entry_fields=("dealer", "declarer", "contract", "hand", "contra", "kunstwerk", "tricks",
                  "hands", "talon", "auction", "discard", "play"),
)
