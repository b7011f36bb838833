"""Russian preferans calls as the players say them (russian.md 2, 3), for the Hand replayer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from model.cards import bid_with_symbol
from model.russian.contracts import ContractError, parse_contract
from model.variant import why_no_play


def call_words(call: str) -> str:
    """``6S`` -> ``6♠``, ``misere`` -> ``misère`` (2); ``pass`` as it is."""
    try:
        if parse_contract(call).misere:
            return "misère"
    except ContractError:
        return call
    return bid_with_symbol(call)


def no_play(record: Mapping[str, Any]) -> str:
    """A half-whist is not played (3: the second defender takes half the quota); raspasy is
    played (7), so its play is not in the record; else as every variant says it."""
    defence = record.get("defence")
    if isinstance(defence, Mapping) and "half" in defence.values():
        return "the second defender said half-whist, so the deal was not played"
    if not record.get("declarer"):
        return "the record has no play"
    return why_no_play(record)


def no_declarer(record: Mapping[str, Any]) -> str:
    """All passed: raspasy, played without trumps, each player for the fewest tricks (2, 4, 7)."""
    return ("raspasy: all passed, so the deal was played without trumps, each for the fewest "
            "tricks")
