"""The Swabian auction (swabian.md 3.2, 11 S1-S2): calls and a small state machine.

Calls (case does not matter):

- a bid ``2`` ... ``7`` (3.1): any higher bid (``jump_bids``), else one step at a time from 2;
- ``pass``: out of the auction for this deal;
- ``hold``: "Das kann ich", repeat the standing bid without raising it; only Vorhand may
  (``hold_only_vorhand``; otherwise a player may hold the bid of any player who bids after him);
- ``hand2`` ... ``hand7``: aus den Händen, only as a player's first call (11 S2). It outranks every
  ordinary bid and is beaten only by a higher aus-den-Händen declaration; it cannot be held.

Vorhand (the dealer's left, the next in turn order) speaks first; he may pass unless
``vorhand_must_bid`` (11 S1). The turn goes round the players still in. The auction ends when all
but one have passed and he holds the standing bid, or when all three have passed (``all_pass``:
redeal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from model.base import CALLS_KEPT
from model.swabian.params import SwabianRules

PASS, HOLD, HAND = "pass", "hold", "hand"


class CallError(ValueError):
    """A call the grammar does not know, or one the auction does not allow; quotes the call."""


@dataclass(frozen=True, slots=True)
class Won:
    """The end of an auction: the declarer's seat and his winning bid, or ``declarer=None``."""

    declarer: int | None
    game: int | None = None
    hand: bool = False


def parse_call(text: str) -> str | tuple[int, bool]:
    """``"pass"``, ``"hold"``, or ``(game, hand)`` for ``"4"`` / ``"hand5"``."""
    word = text.strip().lower().replace(" ", "")
    if word in (PASS, HOLD):
        return word
    hand = word.startswith(HAND)
    digits = word.removeprefix(HAND)
    if len(digits) == 1 and digits in "234567":
        return int(digits), hand
    raise CallError(f"not a Swabian call: {text!r} (write 2 ... 7, hand2 ... hand7, hold, pass)")


def format_call(call: str | tuple[int, bool]) -> str:
    if isinstance(call, str):
        return call
    game, hand = call
    return f"{HAND}{game}" if hand else str(game)


@lru_cache(maxsize=CALLS_KEPT)
def spelled_call(text: str) -> str:
    """A call as swabian.md 3.2 writes it: ``pass``, ``hold``, ``2`` ... ``7``, ``hand2`` ...
    ``hand7`` in small letters (``Pass``, ``Hand 5`` -> ``pass``, ``hand5``); any other text
    as given, for the check to quote."""
    if not text.isascii():
        return text
    try:
        return format_call(parse_call(text))
    except CallError:
        return text


class Auction:
    """The state of one auction among three seats; ``vorhand`` speaks first, seats in turn order."""

    def __init__(self, vorhand: int, rules: SwabianRules, names: Sequence[str] = ()) -> None:
        self.rules = rules
        self.vorhand = vorhand
        self.names = list(names) or [f"seat {s}" for s in range(3)]
        self.turn = vorhand
        self.passed: set[int] = set()
        self.called: set[int] = set()
        self.high: tuple[int, bool] | None = None
        self.high_seat: int | None = None
        self.over = False

    def _priority(self, seat: int) -> int:
        return (seat - self.vorhand) % 3

    def legal(self, seat: int) -> list[str | tuple[int, bool]]:
        """Every call ``seat`` may make now (empty when it is not his turn)."""
        out: list[str | tuple[int, bool]] = []
        every: list[str | tuple[int, bool]] = [PASS, HOLD]
        every += [(g, h) for h in (False, True) for g in range(2, 8)]
        for c in every:
            if self._fault(seat, c) is None:
                out.append(c)
        return out

    def _fault(self, seat: int, call: str | tuple[int, bool]) -> str | None:
        who = self.names[seat]
        text = format_call(call)
        if self.over:
            return f"{who} calls {text!r} after the auction ended"
        if seat != self.turn:
            return f"{who} calls {text!r} out of turn: {self.names[self.turn]} is to speak"
        first = seat not in self.called
        if call == PASS:
            if first and seat == self.vorhand and self.rules.vorhand_must_bid:
                return (f"Vorhand {who} may not pass his first call (vorhand_must_bid, "
                        "swabian.md 11 S1)")
            return None
        if call == HOLD:
            if self.high is None or self.high_seat == seat:
                return f"{who} says 'Das kann ich' ({text!r}) with no bid of another to hold"
            if self.high[1]:
                return f"{who} cannot hold an aus-den-Händen declaration ({text!r}, swabian.md 3.2)"
            assert self.high_seat is not None
            if self.rules.hold_only_vorhand and seat != self.vorhand:
                return f"only Vorhand may say 'Das kann ich'; {who} said {text!r} (swabian.md 3.2)"
            if self._priority(seat) > self._priority(self.high_seat):
                return f"{who} may not hold the bid of {self.names[self.high_seat]} ({text!r})"
            return None
        assert isinstance(call, tuple)
        game, hand = call
        if hand:
            if not first:
                return (f"{who} declares {text!r} after his first call (aus den Händen, "
                        "swabian.md 11 S2)")
            if self.high is not None and self.high[1] and game <= self.high[0]:
                return (f"{who} declares {text!r}: not higher than hand{self.high[0]} "
                        "(swabian.md 3.2)")
            return None
        if self.high is not None and self.high[1]:
            return f"{who} bids {text!r} against an aus-den-Händen declaration (swabian.md 3.2)"
        floor = 1 if self.high is None else self.high[0]
        if game <= floor:
            return f"{who} bids {text!r}, not higher than {floor} (swabian.md 3.2)"
        if not self.rules.jump_bids and game != floor + 1 and not (self.high is None and game == 2):
            return f"{who} jumps to {text!r}; without jump_bids the next bid is {max(2, floor + 1)}"
        return None

    def call(self, seat: int, call: str | tuple[int, bool]) -> None:
        """Apply one call; raises ``CallError`` quoting it when the auction does not allow it."""
        fault = self._fault(seat, call)
        if fault is not None:
            raise CallError(fault)
        self.called.add(seat)
        if call == PASS:
            self.passed.add(seat)
        elif call == HOLD:
            self.high_seat = seat
        else:
            assert isinstance(call, tuple)
            self.high, self.high_seat = call, seat
        if len(self.passed) == 3:
            self.over = True
            return
        if (
            len(self.passed) == 2
            and self.high_seat is not None
            and self.high_seat not in self.passed
        ):
            self.over = True
            return
        nxt = (seat + 1) % 3
        while nxt in self.passed:
            nxt = (nxt + 1) % 3
        self.turn = nxt

    def result(self) -> Won:
        """The winner; raises ``CallError`` when the auction has not ended."""
        if not self.over:
            raise CallError(f"the auction has not ended: {self.names[self.turn]} is to speak")
        if len(self.passed) == 3 or self.high is None:
            return Won(None)
        return Won(self.high_seat, self.high[0], self.high[1])


def run(
    calls: Sequence[tuple[int, str]], vorhand: int, rules: SwabianRules, names: Sequence[str] = ()
) -> Won:
    """Replay ``(seat, call text)`` pairs; raises ``CallError`` on the first fault."""
    auction = Auction(vorhand, rules, names)
    for seat, text in calls:
        auction.call(seat, parse_call(text))
    return auction.result()
