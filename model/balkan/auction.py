"""The Balkan auction: calls and a small state machine (balkan.md 3).

Calls (case does not matter):

- ``2`` ... ``7`` (``8`` with ``preferans_bid``): a bid with the talon (3.1);
- ``here`` (Serbian "moje", seed "Здесь"): take over the current bid at the same number, by a
  player the ``here_rule`` allows (3.1, 3.2 rule 2, K4);
- ``igra``, ``betl``, ``sans`` (``preferans``): hand games, only as a player's first call; igra
  Sanac > igra Bettel > plain igra (3.1, 3.2 rule 3);
- ``G2`` ... ``G5``: naming a game when several players called plain igra (3.2 rule 4);
- ``pass``.

A player who has made a talon bid is out once any igra is called (seed example 4, "–"). The
auction ends when one player is left, or at once when the top bid is held.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from model.balkan.params import BalkanRules
from model.base import CALLS_KEPT

PASS, HERE = "pass", "here"
HAND_GAMES = {"igra": 0, "betl": 1, "sans": 2, "preferans": 3}
"""Hand-game calls by rank (3.1): plain igra < Bettel < Sanac (< Preferans)."""
HAND_CONTRACT = {1: "G6", 2: "G7", 3: "G8"}


class CallError(ValueError):
    """A call the grammar does not know or the auction does not allow; quotes the call."""


@lru_cache(maxsize=CALLS_KEPT)
def spelled_call(text: str) -> str:
    """A call as records.md 1.2 and balkan.md 3 write it: ``pass``, ``here`` and the hand games
    (``igra``, ``betl``, ``sans``, ``preferans``) in small letters, a bid ``2`` ... ``8``, a
    named game ``G2`` ... ``G8`` in capitals (``g3`` -> ``G3``); any other text as given, for
    the check to quote."""
    word = text.strip().lower()
    if not word.isascii():
        return text
    if word in (PASS, HERE, *HAND_GAMES) or (len(word) == 1 and word in "2345678"):
        return word
    if len(word) == 2 and word[0] == "g" and word[1] in "2345678":
        return word.upper()
    return text


@dataclass(frozen=True, slots=True)
class AuctionResult:
    """``winner`` ``None`` when all passed. ``allowed`` lists the contract codes he may play."""

    winner: str | None
    talon: bool
    bid: int | None
    allowed: frozenset[str]


class Auction:
    """One auction. ``bidders``: the active players, first hand first (turn order)."""

    def __init__(self, bidders: Sequence[str], rules: BalkanRules) -> None:
        self.rules = rules
        self.bidders = list(bidders)
        self.top = 8 if rules.preferans_bid else 7
        self.high: int | None = None
        self.holder: str | None = None
        self.held = False  # the current high bid was taken by "here"
        self.out: set[str] = set()
        self.called: set[str] = set()
        self.talon_bidders: set[str] = set()
        self.hand: dict[str, int] = {}  # hand-game callers -> rank
        self.named: dict[str, int] = {}
        self.naming = False
        self.last_named: int | None = None
        self.privileged: str | None = self.bidders[0]
        self.last_bid_by: str | None = None
        self.turn = 0
        self.done = False
        self.closed_on_top = False

    # -- whose turn -------------------------------------------------------------------------
    def _active(self) -> list[str]:
        if self.naming:
            return [p for p in self.bidders if p in self.hand and p not in self.out]
        if self.hand:
            return [p for p in self.bidders if p not in self.out and p not in self.talon_bidders]
        return [p for p in self.bidders if p not in self.out]

    def to_act(self) -> str | None:
        if self.done:
            return None
        active = self._active()
        n = len(self.bidders)
        for k in range(n):
            p = self.bidders[(self.turn + k) % n]
            if p in active and self._may_act(p):
                return p
        return None

    def _may_act(self, p: str) -> bool:
        if self.naming:
            return True
        if self.hand:
            return p not in self.called
        return True

    # -- legality ---------------------------------------------------------------------------
    def _may_here(self, p: str) -> bool:
        if self.high is None or self.holder is None or p == self.holder:
            return False
        seat = self.bidders.index
        if self.rules.here_rule == "seat_priority":
            return seat(p) < seat(self.holder)
        if self.rules.here_rule == "first_bidder_privilege":
            return p == self.privileged
        # alternating: after a bid >= 3 the next player may only hold or pass
        return not self.held and self.high >= 3

    def legal_calls(self) -> list[str]:
        p = self.to_act()
        if p is None:
            return []
        calls = [PASS]
        if self.naming:
            low = 2 if self.last_named is None else self.last_named + 1
            return calls + [f"G{n}" for n in range(low, 6)]
        first = p not in self.called
        if not self.hand:
            must_hold = self.rules.here_rule == "alternating" and not self.held and (
                self.high is not None and self.high >= 3 and self.holder != p
            )
            if self.high is None:
                bids = range(2, self.top + 1) if self.rules.jump_bids else range(2, 3)
            elif must_hold:
                bids = range(0)
            elif self.rules.jump_bids:
                bids = range(self.high + 1, self.top + 1)
            else:
                bids = range(self.high + 1, min(self.high + 1, self.top) + 1)
            calls += [str(b) for b in bids]
            if self._may_here(p):
                calls.append(HERE)
        if first:
            best = max(self.hand.values(), default=-1)
            for name, rank in HAND_GAMES.items():
                if name == "preferans" and not self.rules.preferans_bid:
                    continue
                if rank > best or (rank == best == 0):
                    calls.append(name)
        return calls

    # -- feeding calls ----------------------------------------------------------------------
    def call(self, player: str, text: str) -> None:
        p = self.to_act()
        if p is None:
            raise CallError(f"{player!r} calls {text!r} after the auction ended")
        if player != p:
            raise CallError(f"{player!r} calls {text!r} but it is {p!r}'s turn")
        legal = self.legal_calls()
        key = spelled_call(text)
        if key not in legal:
            raise CallError(f"{player!r} may not call {text!r} here; legal: {', '.join(legal)}")
        self.called.add(p)
        if key == PASS:
            self.out.add(p)
            if p == self.privileged:
                self._pass_privilege()
        elif key == HERE:
            self.holder, self.held = p, True
            if self.high == self.top:
                self.done = self.closed_on_top = True
        elif key in HAND_GAMES:
            rank = HAND_GAMES[key]
            for q, r in list(self.hand.items()):
                if r < rank:
                    self.out.add(q)
            self.hand[p] = rank
        elif key.startswith("G"):
            self.last_named = int(key[1:])
            self.named[p] = self.last_named
        else:
            self.high, self.holder, self.held = int(key), p, False
            self.talon_bidders.add(p)
        self.turn = (self.bidders.index(p) + 1) % len(self.bidders)
        self._settle()

    def _pass_privilege(self) -> None:
        i = self.bidders.index(self.privileged or self.bidders[0])
        for k in range(1, len(self.bidders)):
            q = self.bidders[(i + k) % len(self.bidders)]
            if q not in self.out:
                self.privileged = q
                return
        self.privileged = None

    def _settle(self) -> None:
        if self.done:
            return
        if self.naming:
            if len([p for p in self.hand if p not in self.out]) == 1:
                self.done = True
            return
        if self.hand:
            pending = [p for p in self.bidders if p not in self.called and p not in self.out]
            if pending:
                return
            plain = [p for p in self.bidders if self.hand.get(p) == 0 and p not in self.out]
            if len(plain) >= 2:
                self.naming = True
                self.turn = self.bidders.index(plain[0])
                return
            self.done = True
            return
        active = [p for p in self.bidders if p not in self.out]
        if not active or (len(active) == 1 and self.holder is not None):
            self.done = True

    def result(self) -> AuctionResult:
        """The outcome; raises ``CallError`` while the auction is still open."""
        if not self.done:
            raise CallError(f"the auction is not finished: {self.to_act()!r} to call")
        if self.hand:
            winners = [p for p in self.hand if p not in self.out]
            w = winners[0]
            rank = self.hand[w]
            if rank > 0:
                return AuctionResult(w, False, None, frozenset({HAND_CONTRACT[rank]}))
            if w in self.named:
                return AuctionResult(w, False, None, frozenset({f"G{self.named[w]}"}))
            return AuctionResult(
                w, False, None, frozenset(f"G{n}" for n in range(2, self.top + 1))
            )
        if self.holder is None or self.high is None:
            return AuctionResult(None, False, None, frozenset())
        return AuctionResult(
            self.holder, True, self.high, frozenset(str(n) for n in range(self.high, self.top + 1))
        )


def run_auction(
    bidders: Sequence[str], calls: Sequence[tuple[str, str]], rules: BalkanRules
) -> AuctionResult:
    """Feed every ``(player, call)``; raises ``CallError`` at the first illegal or extra call,
    or when the calls stop before the auction is over."""
    a = Auction(bidders, rules)
    for player, text in calls:
        a.call(player, text)
    return a.result()
