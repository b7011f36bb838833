"""Balkan preferans as a registered variant (``model/variant.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

from model.balkan import contracts
from model.balkan.check import check_batch, check_deal
from model.balkan.contracts import ContractError, parse_contract
from model.balkan.frame import TABLE, deal_row, row_key
from model.balkan.params import PRESET_WORDS, BalkanRules
from model.balkan.records import BalkanDeal, BalkanGame
from model.balkan.words import call_words, no_declarer, no_play
from model.cards import DECK_32
from model.variant import Variant, lone_defence_sits_out

# Per deal (``model/views.py``): the frame's ``mode`` as the defence mode (5.1; ``nokontra`` a
# plain Pik nobody doubled); made (4, 6; ``declarer_made``) with six tricks, none in Betl (6), all
# ten in Preferans (8); with no play when both defenders passed or the Pik went without kontra. A
# repealed deal is not counted (null).
OUTCOME_SQL = f"""
            SELECT game_id, deal_no, 'balkan' AS variant, mode AS defence_mode,
                   taken AS declarer_tricks,
                   CASE WHEN declarer IS NULL OR repealed THEN NULL
                        WHEN mode IN ('pass', 'nokontra') THEN TRUE
                        WHEN number = 6 THEN taken = 0
                        WHEN number = 8 THEN taken = 10
                        ELSE taken >= 6 END AS made,
                   NULL AS called
            FROM (SELECT *, [tricks_0, tricks_1, tricks_2, tricks_3][declarer + 1] AS taken
                  FROM {TABLE.name})"""

def declarer_made(rec: Mapping[str, Any], tricks: int) -> bool:
    """The declarer makes his game with these tricks (balkan.md 4, 6)."""
    return contracts.declarer_made(parse_contract(str(rec["contract"])).number, tricks)


def trump(contract: str) -> int | None:
    """The trump suit of a game number (balkan.md 1): 2 spades, 3 diamonds, 4 hearts, 5 clubs."""
    try:
        return parse_contract(contract).trump
    except ContractError:
        return None


VARIANT = Variant(
    name="balkan",
    aliases=("balkan-preferans", "serbian", "croatian", "ppn"),
    deck=DECK_32,
    game_model=BalkanGame,
    deal_model=BalkanDeal,
    rules_model=BalkanRules,
    table=TABLE,
    outcome_sql=OUTCOME_SQL,
    check=check_deal,
    check_batch=check_batch,
    reads_deal_no=lambda _game: False,  # no rule reads the deal number
    row=deal_row,
    row_key=row_key,
    trump=trump,
    zero_sum_per_deal=False,
    settles_by_payments=False,
    mode_words={"nokontra": "no kontra"},
    cash_unit="soup points",
    sheet="bula",
    dealer_sits_out_at=4,  # balkan.md 1: with 4 the dealer sits out the deal
    by_defenders=("defence",),
    entry_fields=("dealer", "declarer", "contract", "defence", "kontra", "tricks", "repealed",
                  "hands", "talon", "auction", "discard", "play"),
    presets=PRESET_WORDS,
    contract_code=(  # the PPN contract code (records.md 1.2): G before it for igra
        pl.when(pl.col("igra")).then(pl.lit("G")).otherwise(pl.lit(""))
        + pl.col("number").cast(pl.String)
    ),
    contract_level=pl.col("number"),
    export_format="ppn",
    transcribed=("refa", "value"),
    declarer_made=declarer_made,
    call_words=call_words,
    no_play=no_play,
    no_declarer=no_declarer,
    sits_out=lone_defence_sits_out,
)
