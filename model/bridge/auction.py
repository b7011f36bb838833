"""Auction legality and its outcome (``../shared/spec/bridge.md`` 2.2-2.3).

Calls are given by seat (0..3, turn order N E S W) starting with the dealer. ``run_auction``
reports every problem it can see and, when the auction is complete, the final contract and
declarer: the player of the contracting side who first named the final denomination.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from model.base import CALLS_KEPT
from model.bridge.contracts import (
    DOUBLE,
    PASS,
    REDOUBLE,
    Contract,
    ContractError,
    bid_rank,
    normalise_call,
    parse_bid,
)
from model.bridge.seats import SEATS, side_of


@dataclass(frozen=True, slots=True)
class AuctionResult:
    complete: bool
    contract: Contract | None
    """``None`` when passed out or incomplete."""
    declarer: int | None
    problems: tuple[str, ...]


@lru_cache(maxsize=CALLS_KEPT)
def spelled_call(text: str) -> str:
    """A call as records.md 1.2 and bridge.md 2 write it, one spelling per call
    (``normalise_call``): ``pass``, ``X``, ``XX`` or a bid ``1C`` ... ``7NT`` (``p``, ``Dbl``,
    ``1n`` -> ``pass``, ``X``, ``1NT``); its letters ASCII (``ſ`` is no ``s``); any other text
    as given, for the check to quote."""
    if not text.isascii():
        return text
    try:
        return normalise_call(text)
    except ContractError:
        return text


def run_auction(dealer: int, calls: list[str]) -> AuctionResult:
    """Check the calls (dealer first, then clockwise) and find the contract and declarer."""
    problems: list[str] = []
    last_bid: tuple[int, int] | None = None
    last_bidder = -1
    doubled = 0
    last_active = -1
    """Seat of the last bid, double or redouble."""
    passes = 0
    first_namer: dict[tuple[int, int], int] = {}
    """(side, denomination) -> seat that first named that denomination for that side."""
    complete = False
    for i, raw in enumerate(calls):
        seat = (dealer + i) % 4
        where = f"call {i + 1} ({SEATS[seat]} {raw!r})"
        if complete:
            problems.append(f"{where} comes after the auction ended")
            break
        try:
            call = normalise_call(raw)
        except ContractError as exc:
            problems.append(f"{where}: {exc}")
            break
        if call == PASS:
            passes += 1
        elif call == DOUBLE:
            if last_bid is None or doubled != 0 or side_of(last_bidder) == side_of(seat):
                problems.append(f"{where}: a double needs an undoubled bid by an opponent "
                                "(bridge.md 2.2)")
                break
            doubled, last_active, passes = 1, seat, 0
        elif call == REDOUBLE:
            if doubled != 1 or side_of(last_bidder) != side_of(seat):
                problems.append(f"{where}: a redouble needs an opponent's double of our bid "
                                "(bridge.md 2.2)")
                break
            doubled, last_active, passes = 2, seat, 0
        else:
            bid = parse_bid(call)
            assert bid is not None
            if last_bid is not None and bid_rank(*bid) <= bid_rank(*last_bid):
                problems.append(f"{where} does not outrank the last bid (bridge.md 2.1)")
                break
            last_bid, last_bidder, doubled, last_active, passes = bid, seat, 0, seat, 0
            first_namer.setdefault((side_of(seat), bid[1]), seat)
        if (last_active >= 0 and passes == 3) or (last_active < 0 and passes == 4):
            complete = True
    if problems or not complete:
        if not problems:
            problems.append(
                f"the auction is incomplete after {len(calls)} calls "
                "(it ends with three passes after a bid, or four passes)"
            )
        return AuctionResult(False, None, None, tuple(problems))
    if last_bid is None:
        return AuctionResult(True, None, None, ())
    declarer = first_namer[(side_of(last_bidder), last_bid[1])]
    return AuctionResult(True, Contract(last_bid[0], last_bid[1], doubled), declarer, ())
