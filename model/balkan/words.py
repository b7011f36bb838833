"""Balkan calls and contracts as the players say them (balkan.md 1, 3.1, 5.3), for the Hand
replayer.

Bids are numbers, each a game (1: 2 Pik, 3 Karo, 4 Herc, 5 Tref, 6 Betl, 7 Sans, 8 Preferans);
a person reads the number with its game's name, as the contract is named elsewhere. The calls of
the hand games (3.1: ``igra``, ``betl``, ``sans``, ``preferans``) are games without the talon, a
``G`` code (``G5``) an igra naming its game; ``here`` ("moje") and ``pass`` stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from model.balkan.auction import HAND_CONTRACT, HAND_GAMES
from model.balkan.contracts import GAME_NAMES, PIK, ContractError, parse_contract
from model.variant import why_no_play


def call_words(call: str) -> str:
    """``4`` -> ``4 Herc``, ``G5`` -> ``igra 5 Tref``, ``sans`` -> ``igra 7 Sans``; ``igra``,
    ``here`` and ``pass`` as they are."""
    rank = HAND_GAMES.get(call.strip().lower())
    if rank:  # a hand game that names its game: igra Betl, Sans, Preferans (3.1)
        call = HAND_CONTRACT[rank]
    try:
        contract = parse_contract(call)
    except ContractError:
        return call
    return ("igra " if contract.igra else "") + f"{contract.number} {GAME_NAMES[contract.number]}"


def no_play(record: Mapping[str, Any]) -> str:
    """A plain Pik nobody said kontra on is not played (5.3: it counts as made, or a refa is
    written); else as every variant says it."""
    plain_pik = record.get("declarer") and str(record.get("contract")) == str(PIK)
    if plain_pik and not record.get("kontra") and not record.get("tricks"):
        defence = record.get("defence")
        if not (isinstance(defence, Mapping) and set(defence.values()) == {"pass"}):
            return "nobody said kontra on Pik, so the deal was not played"
    return why_no_play(record)


def no_declarer(record: Mapping[str, Any]) -> str:
    """All passed: the deal is not played, and each player gets a refa while refe may still be
    written (7.4: none beyond ``max_refe``, none while a bula is below zero)."""
    return "all passed, so the deal was not played: a refa for everybody while refe may be written"
