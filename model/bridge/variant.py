"""Bridge as two registered variants (``model/variant.py``): ``bridge-rubber`` (with Chicago as
``rules.mode``) and ``bridge-duplicate``; one record model, one ``deals_bridge`` table."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import polars as pl

from model.bridge.check import check_batch, check_deal
from model.bridge.contracts import (
    DENOMS,
    DOUBLINGS,
    HAND_SUITS,
    TRUMP_SUIT,
    ContractError,
    parse_contract,
)
from model.bridge.frame import TABLE, deal_row
from model.bridge.params import BridgeRules
from model.bridge.records import BridgeDeal, BridgeGame
from model.bridge.words import deal_named, game_named
from model.cards import DECK_52
from model.tables import GAMES
from model.variant import SheetStyle, Variant, why_no_play


def outcome_sql(name: str) -> str:
    """Per deal of this variant's games (the table is shared, ``model/views.py``): the defence mode
    is the contract's doubling (``undoubled`` / ``doubled`` / ``redoubled``, bridge.md 3); made
    with at least level + 6 tricks for the declarer's side (Law 77)."""
    return f"""
            SELECT b.game_id, b.deal_no, g.variant,
                   CASE WHEN b.declarer IS NULL THEN 'none'
                        ELSE ['undoubled', 'doubled', 'redoubled'][b.doubled + 1] END
                        AS defence_mode,
                   b.tricks AS declarer_tricks,
                   CASE WHEN b.declarer IS NULL THEN NULL
                        ELSE b.tricks >= b.level + 6 END AS made,
                   NULL AS called
            FROM {TABLE.name} b JOIN {GAMES} g ON g.game_id = b.game_id
            WHERE g.variant = '{name}'"""


def trump(contract: str) -> int | None:
    """The trump suit of ``<level><C|D|H|S|NT>[X|XX]`` (Law 77); None in no-trump."""
    try:
        return TRUMP_SUIT[parse_contract(contract).denom]
    except ContractError:
        return None


NOT_PLAYED = "not played (a dealt or solved deal, its hands only), so nobody scores"
"""What a deal record marked ``unplayed`` is (``BridgeDeal.unplayed``: a deal of a DDS hand file),
in the players' words: nobody bid or played it, so it is no passed-out board."""

UNPLAYED_SQL = ("CASE WHEN d.declarer IS NULL "
                "THEN coalesce(json_extract_string(d.record, '$.unplayed') = 'true', FALSE) "
                "ELSE FALSE END")
"""``Variant.unplayed_sql``: a ``deals`` row whose record is marked ``unplayed`` (nobody
declared it: the record's JSON is read only for those)."""


def passed_out_rubber(record: Mapping[str, Any]) -> str:
    """Four passes: nobody scores (2.3, [bk]); the next dealer deals again, or, with
    ``passed_out = zero``, the deal counts as played (10): a record does not say which. A deal
    nobody played is :data:`NOT_PLAYED`."""
    if record.get("unplayed"):
        return NOT_PLAYED
    return "passed out (four passes), so nobody scores"


def passed_out_duplicate(record: Mapping[str, Any]) -> str:
    """Four passes: both sides score 0 (2.3, Law 77). A deal nobody played is
    :data:`NOT_PLAYED`."""
    if record.get("unplayed"):
        return NOT_PLAYED
    return "passed out (four passes), so both sides score 0"


def no_play(record: Mapping[str, Any]) -> str:
    """Why a deal recorded with its hands has no play: nobody played it (``unplayed``, a solved
    deal), else as every variant says it (``model.variant.why_no_play``: all passed, or the
    play was not recorded)."""
    if record.get("unplayed"):
        return "nobody bid or played it"
    return why_no_play(record)


def _bridge(name: str, aliases: tuple[str, ...], sheet: SheetStyle,
            entry_fields: tuple[str, ...], passed_out: Callable[[Mapping[str, Any]], str],
            standings_note: str = "") -> Variant:
    return Variant(
        name=name,
        aliases=aliases,
        deck=DECK_52,
        game_model=BridgeGame,
        deal_model=BridgeDeal,
        rules_model=BridgeRules,
        table=TABLE,
        outcome_sql=outcome_sql(name),
        check=check_deal,
        check_batch=check_batch,
        reads_deal_no=lambda _game: False,  # boards are numbered by ``board``
        row=deal_row,
        trump=trump,
        zero_sum_per_deal=True,
        settles_by_payments=True,
        cash_unit="points",
        standings_note=standings_note,
        partnerships=True,
        sheet=sheet,
        entry_fields=entry_fields,
        contract_code=(
            pl.col("level").cast(pl.String)
            + pl.col("denom").replace_strict(list(range(5)), list(DENOMS), return_dtype=pl.String)
            + pl.col("doubled").replace_strict([0, 1, 2], list(DOUBLINGS), return_dtype=pl.String)
        ),
        contract_level=pl.col("level") * 5 + pl.col("denom"),
        denominations=DENOMS,
        export_format="pbn",
        hand_suits=HAND_SUITS,
        mode_endings=DOUBLINGS[1:],
        no_declarer=passed_out,
        game_named=game_named,
        deal_named=deal_named,
        no_play=no_play,
        unplayed_sql=UNPLAYED_SQL,
    )


VARIANT = _bridge("bridge-rubber", ("rubber", "bridge", "chicago"), sheet="we-they",
                  entry_fields=("dealer", "declarer", "contract", "tricks", "honours", "hands",
                                "auction", "play"),
                  passed_out=passed_out_rubber)
DUPLICATE = _bridge("bridge-duplicate", ("duplicate",), sheet="traveller",
                    entry_fields=("board", "vulnerable", "dealer", "declarer", "contract",
                                  "tricks", "hands", "auction", "play"),
                    passed_out=passed_out_duplicate,
                    standings_note=(
                        "These are table scores added up, seat by seat: at duplicate a pair is "
                        "ranked against the others who played the same boards, by matchpoints "
                        "or IMPs, on the Club results page."))
VARIANTS = (VARIANT, DUPLICATE)
