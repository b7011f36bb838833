"""Greek Prefa calls as the players say them (greek-prefa.md 4.1, 4.2), for the Hand replayer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from model.cards import bid_with_symbol
from model.greek.auction import TAKE
from model.variant import why_no_play

PRELIMINARY = "I'll take"
"""The preliminary bid (4.2, Greek "άμα μείνουν"), recorded as ``take``."""


def call_words(call: str) -> str:
    """``6S`` -> ``6♠`` (4.1), ``take`` -> ``I'll take`` (4.2); ``hold`` ("έχω") and ``pass``
    as they are."""
    return PRELIMINARY if call.strip().lower() == TAKE else bid_with_symbol(call)


def no_play(record: Mapping[str, Any]) -> str:
    """A conceded deal is not played (5: the preliminary bid's concession, or the "solo" of
    ``concede_any_contract``); an all-pass deal with its tricks was played (14 ``all_pass =
    play_low``), so its play is not in the record; else as every variant says it."""
    if record.get("conceded"):
        return "the declarer conceded, so the deal was not played"
    if not record.get("declarer") and record.get("tricks"):
        return "the record has no play"
    return why_no_play(record)


def no_declarer(record: Mapping[str, Any]) -> str:
    """All passed (4.2): the cards are thrown in and redealt (14 ``all_pass = redeal``), or,
    where the record has each player's tricks, the deal was played without trumps for the
    fewest tricks (14 ``all_pass = play_low``)."""
    if record.get("tricks"):
        return "all passed, so the deal was played without trumps, each for the fewest tricks"
    return "all passed, so the cards were thrown in and redealt"
