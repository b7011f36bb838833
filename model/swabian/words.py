"""Swabian calls and games as the players say them (swabian.md 3.1, 3.2), for the Hand replayer.

A call is recorded as a code (``2``, ``hand6``, ``hold``, ``pass``; docs/swabian.md); a person
reads the game's number with its name, as the contract is named elsewhere (``2 Laub``), and aus den
Händen in the spec's English, "from the hands" (3.2). The game names are the German ones the cards
are shown with (Laub, Schellen, Herz, Eichel, Bettel, Durchmarsch).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from model.swabian.auction import CallError, format_call, parse_call
from model.swabian.games import NAME, GameError, parse_game

FROM_THE_HANDS = "from the hands"
"""Aus den Händen ("from the hands", 3.2): declared before the auction, the talon set aside."""


def call_words(call: str) -> str:
    """``2`` -> ``2 Laub``, ``hand6`` -> ``6 Bettel from the hands``; ``hold`` ("Das kann ich",
    3.2) and ``pass`` as they are, and text that is no call unchanged."""
    try:
        parsed = parse_call(call)
    except CallError:
        return call
    if isinstance(parsed, str):
        return parsed
    game, hand = parsed
    return f"{game} {NAME[game]}" + (f" {FROM_THE_HANDS}" if hand else "")


def contract_call(record: Mapping[str, Any]) -> str | None:
    """The call that names a deal's game: its ``contract`` number, ``hand<n>`` when the record
    says ``hand: true`` (aus den Händen, records.md 1.2); None without a game."""
    contract = record.get("contract")
    if contract in (None, ""):
        return None
    try:
        return format_call((parse_game(contract), bool(record.get("hand"))))
    except GameError:
        return str(contract)


def no_declarer(record: Mapping[str, Any]) -> str:
    """All passed: the cards are thrown in and dealt again by the next dealer (3.2, ``all_pass =
    redeal``)."""
    return "all passed, so the cards were thrown in and redealt"
