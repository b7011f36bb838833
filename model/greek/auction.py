"""The Greek Prefa auction: the calls and a small state machine (greek-prefa.md 4.1-4.3).

Calls (case does not matter):

- a bid ``6S`` ... ``10H`` (``10NT`` only with ``ten_nt``), on the ladder of 4.1;
- ``pass``: out of the auction for this deal (4.2);
- ``hold`` (Greek "έχω", "I have"): take over the current bid at the same level (4.2, 16 G2);
- ``take``: the preliminary bid "I'll take" (4.2, option ``preliminary_bid``).

Sequence (4.2, from the prefadoros.net state machine, 16 G1): first hand speaks first, then the
turn passes round the players still in the auction. The opening bid is 6S and every bid is the
next step of the ladder (any higher bid with ``jump_bids``). A bid that has been made (not a hold)
may be held by a player who has not made it: after every bidder has spoken once
(``hold_rule = after_first_round``) or, with ``seat_priority``, by a player sitting before the
bidder (nearer first hand) at any time; the next raise is again the next step. "take" is possible
once per deal while nobody has bid 6S; the first bid then knocks the taker out. The auction ends
when one player is left holding the high bid (or the preliminary bid), when everybody passed, or at
once on the top bid of the ladder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from model.base import CALLS_KEPT
from model.greek.contracts import (
    NT,
    ContractError,
    allowed,
    format_contract,
    ladder_index,
    parse_contract,
)
from model.greek.params import GreekRules

PASS, HOLD, TAKE = "pass", "hold", "take"


class CallError(ValueError):
    """A call the grammar does not know, or one the auction does not allow; quotes the call."""


def ladder_bid(index: int) -> str:
    """The bid at ladder position ``index`` (0 = 6S)."""
    return format_contract(6 + index // 5, index % 5)


_CALLS: dict[str, str | int] = {w: w for w in (PASS, HOLD, TAKE)}
_CALLS |= {format_contract(6 + i // 5, i % 5): i for i in range(25)}


def parse_call(text: str) -> str | int:
    """``"pass"``, ``"hold"``, ``"take"``, or the ladder index of a bid (``"6C"`` -> 1)."""
    known = _CALLS.get(text)
    if known is not None:
        return known
    word = text.strip().lower()
    if word in (PASS, HOLD, TAKE):
        return word
    try:
        level, denom = parse_contract(word.upper())
    except ContractError as exc:
        raise CallError(
            f"not a call: {text!r} (write a bid 6S ... 10H, or pass, hold, take)"
        ) from exc
    return ladder_index(level, denom)


@lru_cache(maxsize=CALLS_KEPT)
def spelled_call(text: str) -> str:
    """A call as records.md 1.2 writes it: ``pass``, ``hold``, ``take`` in small letters, a bid
    as its contract (``6s``, `` 10nt `` -> ``6S``, ``10NT``); its letters ASCII (``ſ`` is no
    ``s``); any other text as given, for the check to quote."""
    if not text.isascii():
        return text
    try:
        call = parse_call(text)
    except CallError:
        return text
    return call if isinstance(call, str) else ladder_bid(call)


@dataclass(frozen=True, slots=True)
class AuctionResult:
    """Who won the talon and with what. ``winner`` is ``None`` when everybody passed;
    ``bid`` is the ladder index of the winning bid, ``None`` for the preliminary bid."""

    winner: str | None
    bid: int | None
    preliminary: bool = False

    @property
    def bid_name(self) -> str:
        if self.winner is None:
            return "all pass"
        return "the preliminary bid (take)" if self.bid is None else ladder_bid(self.bid)


class Auction:
    """One auction in progress. ``bidders`` are the active players in calling order, first hand
    first. Feed calls with :meth:`call`; :meth:`legal_calls` lists what the next player may say."""

    def __init__(self, bidders: Sequence[str], rules: GreekRules) -> None:
        self.bidders = tuple(bidders)
        self.rules = rules
        self.top = ladder_index(10, NT) if rules.ten_nt != "forbidden" else ladder_index(10, 3)
        self.out: set[str] = set()
        self.spoken: set[str] = set()
        self.high = -1
        self.high_by: str | None = None
        self.high_is_hold = False
        self.taker: str | None = None
        self.take_used = False
        self.turn = 0
        self.result: AuctionResult | None = None

    @property
    def to_speak(self) -> str | None:
        return None if self.result is not None else self.bidders[self.turn]

    def legal_calls(self) -> list[str]:
        """Every call the next player may make (empty when the auction is over)."""
        if self.result is not None:
            return []
        calls = [PASS]
        if self._may_take():
            calls.append(TAKE)
        if self._may_hold(self.bidders[self.turn]):
            calls.append(HOLD)
        lowest = self.high + 1
        highest = self.top if self.rules.jump_bids else min(lowest, self.top)
        calls += [ladder_bid(i) for i in range(lowest, highest + 1)]
        return calls

    def call(self, player: str, text: str) -> None:
        """Apply one call; raises ``CallError`` (quoting player and call) when it is not legal."""
        if self.result is not None:
            raise CallError(f"{player} calls {text!r} after the auction ended")
        expected = self.bidders[self.turn]
        if player != expected:
            if player not in self.bidders:
                why = "is not in this auction"
            elif player in self.out:
                why = "has passed and is out of the auction, yet calls"
            else:
                why = "speaks out of turn"
            raise CallError(f"{player} {why} with {text!r}: it is {expected}'s turn")
        what = parse_call(text)
        if what == PASS:
            self.out.add(player)
        elif what == TAKE:
            if not self._may_take():
                raise CallError(f"{player} says {text!r}: {self._why_no_take()}")
            self.taker = player
            self.take_used = True
        elif what == HOLD:
            if not self._may_hold(player):
                raise CallError(f"{player} says {text!r}: {self._why_no_hold(player)}")
            self.high_by, self.high_is_hold = player, True
        else:
            assert isinstance(what, int)
            self._bid(player, text, what)
        self.spoken.add(player)
        self._advance()

    def _bid(self, player: str, text: str, index: int) -> None:
        level, denom = 6 + index // 5, index % 5
        if not allowed(level, denom, self.rules):
            raise CallError(f"{player} bids {text!r}: 10NT needs the ten_nt option")
        if index <= self.high:
            raise CallError(
                f"{player} bids {text!r}: not above the current {ladder_bid(self.high)}"
            )
        if not self.rules.jump_bids and index != self.high + 1:
            raise CallError(
                f"{player} bids {text!r}: the next bid must be {ladder_bid(self.high + 1)}"
                " (bids go up one step at a time; jump_bids is off)"
            )
        if self.taker is not None:
            self.out.add(self.taker)  # the preliminary bid now counts as a pass (4.2)
            self.taker = None
        self.high, self.high_by, self.high_is_hold = index, player, False

    def _may_take(self) -> bool:
        return self.rules.preliminary_bid and not self.take_used and self.high < 0

    def _why_no_take(self) -> str:
        if not self.rules.preliminary_bid:
            return "the preliminary bid is not played here (preliminary_bid is off)"
        if self.take_used:
            return "only one preliminary bid per deal"
        return f"too late, {ladder_bid(self.high)} has been bid"

    def _may_hold(self, player: str) -> bool:
        if self.high < 0 or self.high_is_hold or self.high_by == player:
            return False
        if self.rules.hold_rule == "seat_priority":
            assert self.high_by is not None
            return self.bidders.index(player) < self.bidders.index(self.high_by)
        return len(self.spoken) == len(self.bidders)

    def _why_no_hold(self, player: str) -> str:
        if self.high < 0:
            return "there is no bid to hold"
        if self.high_by == player:
            return f"{player} already has the {ladder_bid(self.high)}"
        if self.high_is_hold:
            return f"{self.high_by} already holds {ladder_bid(self.high)}: raise or pass"
        if self.rules.hold_rule == "seat_priority":
            return f"only a player before {self.high_by} may hold (hold_rule = seat_priority)"
        return "a hold is allowed only after everybody has spoken once"

    def _advance(self) -> None:
        if self.high == self.top and not self.high_is_hold:
            self.result = AuctionResult(self.high_by, self.high)
            return
        left = [p for p in self.bidders if p not in self.out]
        if not left:
            self.result = AuctionResult(None, None)
            return
        if len(left) == 1:
            (last,) = left
            if last == self.high_by:
                self.result = AuctionResult(last, self.high)
                return
            if last == self.taker:
                self.result = AuctionResult(last, None, preliminary=True)
                return
        n = len(self.bidders)
        for step in range(1, n + 1):
            nxt = (self.turn + step) % n
            if self.bidders[nxt] not in self.out:
                self.turn = nxt
                return


def run_auction(
    bidders: Sequence[str], calls: Sequence[tuple[str, str]], rules: GreekRules
) -> AuctionResult | str:
    """Play ``calls`` (player, call) through an :class:`Auction`; the result, or a message naming
    the first bad call (1-based) or saying who still had to speak."""
    auction = Auction(bidders, rules)
    for i, (player, text) in enumerate(calls, start=1):
        try:
            auction.call(player, text)
        except CallError as exc:
            return f"call {i}: {exc}"
    if auction.result is None:
        return f"the auction stops before it is over: {auction.to_speak} still has to speak"
    return auction.result
