"""Russian preferans as a registered variant (``model/variant.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

from model.cards import DECK_32
from model.russian.check import check_batch, check_deal
from model.russian.contracts import STRAINS, ContractError, parse_contract
from model.russian.frame import TABLE, deal_row, row_key
from model.russian.params import RussianRules
from model.russian.raspasy import RaspasyDeal, check_game, exit_binds
from model.russian.records import RussianDeal, RussianGame
from model.russian.words import call_words, no_declarer, no_play
from model.variant import Variant

# Per deal (``model/views.py``): the defence mode is ``none`` in raspasy (all pass, 7), ``misere``
# (not whisted, 3), else ``pass`` (both passed, no play), ``half`` (half-whist), ``whist`` (one
# whister) or ``both`` (two whisters); made = the declarer took at least the contract's tricks, no
# trick in a misère; a contract nobody whisted is written to the pool as made (3).
OUTCOME_SQL = f"""
            SELECT game_id, deal_no, 'russian' AS variant,
                   CASE WHEN declarer IS NULL THEN 'none'
                        WHEN misere THEN 'misere'
                        WHEN defence_1 = 1 AND defence_2 = 1 THEN 'both'
                        WHEN defence_1 = 1 OR defence_2 = 1 THEN 'whist'
                        WHEN defence_2 = 2 THEN 'half'
                        ELSE 'pass' END AS defence_mode,
                   taken AS declarer_tricks,
                   CASE WHEN declarer IS NULL THEN NULL
                        WHEN misere THEN taken = 0
                        WHEN taken IS NULL THEN TRUE
                        ELSE taken >= level END AS made,
                   NULL AS called
            FROM (SELECT *, [tricks_0, tricks_1, tricks_2, tricks_3][declarer + 1] AS taken
                  FROM {TABLE.name})"""

def declarer_made(rec: Mapping[str, Any], tricks: int) -> bool:
    """The declarer makes his contract with its tricks, a misère with none (russian.md 6.2)."""
    contract = parse_contract(str(rec["contract"]))
    return tricks == 0 if contract.misere else tricks >= contract.level


def trump(contract: str) -> int | None:
    """The trump suit of ``<tricks><S|C|D|H|NT>`` (1); none in no-trump and misère."""
    try:
        return parse_contract(contract).trump
    except ContractError:
        return None


VARIANT = Variant(
    name="russian",
    aliases=("russian-preferans", "preferans", "sochi", "pulya"),
    deck=DECK_32,
    game_model=RussianGame,
    deal_model=RussianDeal,
    rules_model=RussianRules,
    table=TABLE,
    outcome_sql=OUTCOME_SQL,
    check=check_deal,
    check_batch=check_batch,
    reads_deal_no=lambda _game: False,  # no rule reads the deal number
    row=deal_row,
    row_key=row_key,
    trump=trump,
    zero_sum_per_deal=True,
    settles_by_payments=True,
    mode_words={"misere": "misère"},
    cash_unit="whists",
    sheet="pulya",
    dealer_sits_out_at=4,  # russian.md 1: with 4 the dealer sits out the deal
    by_defenders=("defence",),
    entry_fields=("dealer", "declarer", "contract", "defence", "open", "tricks", "hands",
                  "talon", "auction", "discard", "play"),
    contract_code=(
        pl.when(pl.col("misere")).then(pl.lit("misere"))
        .otherwise(pl.col("level").cast(pl.String)
                   + pl.col("strain").replace_strict(list(range(5)), list(STRAINS),
                                                     return_dtype=pl.String))
    ),
    contract_level=pl.when(pl.col("misere")).then(pl.lit(8)).otherwise(pl.col("level")),
    check_game=check_game,
    checks_game=exit_binds,
    check_game_reads=RaspasyDeal,
    denominations=STRAINS,
    all_pass_play=True,
    talon_lead_flag="raspasy_talon_lead",
    declarer_made=declarer_made,
    call_words=call_words,
    no_play=no_play,
    no_declarer=no_declarer,
)
