"""Greek Prefa as a registered variant (``model/variant.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

from model.cards import DECK_32
from model.greek.check import check_batch, check_deal
from model.greek.contracts import DENOMS, NT, ContractError, parse_contract
from model.greek.frame import TABLE, deal_row, row_key
from model.greek.params import GreekRules
from model.greek.records import GreekDeal, GreekGame
from model.greek.words import call_words, no_declarer, no_play
from model.variant import Variant, lone_defence_sits_out

# Per deal (``model/views.py``): the frame's ``mode`` as the defence mode (6.1; ``concede``
# section 5); made with at least ``level`` tricks (9.2, 9.3), by both defenders passing (6.1 step
# 2, no play), never after a concession or a preliminary concession (5, 14).
OUTCOME_SQL = f"""
            SELECT game_id, deal_no, 'greek-prefa' AS variant, mode AS defence_mode,
                   taken AS declarer_tricks,
                   CASE WHEN declarer IS NULL THEN NULL
                        WHEN mode = 'pass' THEN TRUE
                        WHEN mode = 'concede' OR level IS NULL THEN FALSE
                        ELSE taken >= level END AS made,
                   NULL AS called
            FROM (SELECT *, [tricks_0, tricks_1, tricks_2, tricks_3][declarer + 1] AS taken
                  FROM {TABLE.name})"""



def declarer_made(rec: Mapping[str, Any], tricks: int) -> bool:
    """The declarer makes his contract with at least the tricks bid (greek-prefa.md 5, 9.2)."""
    return tricks >= parse_contract(str(rec["contract"]).strip().upper())[0]


def trump(contract: str) -> int | None:
    """The trump suit of ``<level><S|C|D|H|NT>`` (4.1): the denomination's index is its suit."""
    try:
        _, denom = parse_contract(contract)
    except ContractError:
        return None
    return denom if denom < NT else None


def reads_deal_no(game: GreekGame) -> bool:
    """The first deal is bid from the holder of 7D under ``first_bidder_by_7d`` (14)."""
    return game.rules.first_bidder_by_7d


VARIANT = Variant(
    name="greek-prefa",
    aliases=("greek", "prefa"),
    deck=DECK_32,
    game_model=GreekGame,
    deal_model=GreekDeal,
    rules_model=GreekRules,
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
    cash_unit="chips",
    # greek-prefa.md 9.3: a made contract pays v per defender's trick and takes v off the kassa
    cash_note=("A deal's cash is the chips it moves: a declarer who makes his contract pays "
               "the defenders for their tricks, and the contract's value comes off his kassa, "
               "which the score sheet shows."),
    sheet="kassa",
    dealer_sits_out_at=4,  # greek-prefa.md 2, 14 four_players: the dealer sits out
    by_defenders=("defence",),
    entry_fields=("dealer", "declarer", "contract", "defence", "tricks", "preliminary",
                  "conceded", "four_aces", "hands", "talon", "auction", "discard", "play"),
    contract_code=(  # a conceded contract too (its defence mode says the concession)
        pl.col("level").cast(pl.String)
        + pl.col("denom").replace_strict(list(range(5)), list(DENOMS), return_dtype=pl.String)
    ),
    contract_level=pl.col("level"),
    denominations=DENOMS,
    declarer_made=declarer_made,
    call_words=call_words,
    no_play=no_play,
    no_declarer=no_declarer,
    sits_out=lone_defence_sits_out,
)
