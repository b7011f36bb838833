"""The Russian auction (russian.md 2): calls and a small state machine.

Calls: ``pass``, a bid ``6S`` ... ``10NT``, ``misere``. First hand speaks first and the turn goes
round the players still in; a player who passed is out. Every bid outranks the current one (jumps
allowed); misère ranks between 8NT and 9S and may only be a player's first call
(``misere_first_call_only``). With ``elder_hold`` first hand may repeat the current bid and take it
over (U). The auction ends when one bidder is left, or when all three pass (raspasy, 7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from model.base import CALLS_KEPT
from model.russian.contracts import MISERE_CONTRACT, Contract, ContractError, parse_contract
from model.russian.params import RussianRules

PASS = "pass"


class CallError(ValueError):
    """A call the grammar does not know, or one the auction does not allow; quotes the call."""


@dataclass(frozen=True, slots=True)
class Won:
    """The end of an auction: the winner and his bid, or ``None`` for raspasy."""

    declarer: int | None
    bid: Contract | None


def parse_call(text: str) -> Contract | None:
    """``None`` for a pass, else the bid."""
    if text.strip().lower() == PASS:
        return None
    try:
        return parse_contract(text)
    except ContractError as exc:
        raise CallError(f"not a call: {text!r} (pass, 6S ... 10NT, misere)") from exc


@lru_cache(maxsize=CALLS_KEPT)
def spelled_call(text: str) -> str:
    """A call as records.md 1.2 and russian.md 2 write it: ``pass``, a bid as its contract
    (``6s`` -> ``6S``), misère in any case, with its accent or without, as ``misere``; its
    letters ASCII otherwise (``ſ`` is no ``s``); any other text as given, for the check to
    quote."""
    if not text.isascii() and text.strip().lower() != "misère":
        return text
    try:
        call = parse_call(text)
    except CallError:
        return text
    return PASS if call is None else str(call)


def run(
    calls: Sequence[tuple[int, str]],
    seats: Sequence[int],
    rules: RussianRules,
    names: Sequence[str],
) -> Won:
    """Play ``calls`` (seat, text) through the auction of the three ``seats`` (from first hand)."""
    live = list(seats)
    spoke: set[int] = set()
    best: Contract | None = None
    holder: int | None = None
    turn = 0  # index into live
    for i, (seat, text) in enumerate(calls):
        if (len(live) == 1 and best is not None) or not live:
            raise CallError(f"call {i + 1} ({names[seat]} {text!r}) after the auction ended")
        if seat != live[turn]:
            raise CallError(
                f"call {i + 1}: {names[seat]} speaks out of turn ({names[live[turn]]} is to call)"
            )
        bid = parse_call(text)
        if bid is None:
            live.pop(turn)
        else:
            _check_bid(bid, best, seat, seat in spoke, seat == seats[0], rules, names)
            best, holder = bid, seat
            turn += 1
        spoke.add(seat)
        if live:
            turn %= len(live)
    done = (len(live) == 1 and best is not None and holder == live[0]) or not live
    if not done:
        raise CallError("the auction stops before one bidder is left or all have passed "
                        "(russian.md 2)")
    return Won(holder, best)


def _check_bid(
    bid: Contract,
    best: Contract | None,
    seat: int,
    spoke: bool,
    elder: bool,
    rules: RussianRules,
    names: Sequence[str],
) -> None:
    if bid.misere and spoke and rules.misere_first_call_only:
        raise CallError(f"{names[seat]} bids misère after his first call (russian.md 2)")
    if best is None or bid.rank > best.rank:
        return
    if rules.elder_hold and elder and bid == best and bid != MISERE_CONTRACT:
        return
    raise CallError(f"{names[seat]} bids {bid} over {best}: every bid must outrank the last "
                    "(russian.md 2)")
