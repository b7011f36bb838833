"""A simple natural bidding bot for contract bridge (bridge.md 2; ``docs/simulation.md``).

The bot reads its hand as high-card points (A 4, K 3, Q 2, J 1), suit lengths and shape, and
the auction as what each player has shown (a least number of points and least suit lengths).
Its decisions:

- **opening** (nobody has bid): 1NT with 15-17 balanced, 2NT with 20-21 balanced, one of a suit
  with 12 points or more (a five-card major first, spades before hearts; else the longer minor,
  diamonds with 4-4), a three-level pre-empt with 5-10 points and a seven-card suit; else pass;
- **overcall** (the opponents have bid, partner has not): a five-card suit at the one level with
  8 points, at the two level with 11; 1NT with 15-18 balanced; else pass;
- **partner has bid**: the partnership's points (his + partner's least) set the level: partscore
  below 23, three-level (2NT) from 23, game from 25 (3NT, four of a major; five of a minor from
  29), small slam from 33, grand slam from 37, counting ``RANGE`` points over partner's least
  except for slams; the denomination is an eight-card major fit,
  else no-trump with game values and a balanced hand, else a minor fit, else a new five-card
  suit of his own (at the cheapest level, at most the three level), else no-trump. A bid at or
  below the current contract of his own side is a pass; over the opponents he bids his
  denomination at the cheapest level when that is within his level;
- **penalty double**: of an opponents' contract at the three level or higher when his own
  defensive tricks (aces, guarded kings, trump honours and length in their suit) reach
  ``9 - level``; the bots never redouble.

The simulator calls :func:`bot_auction`, which runs the same decisions compiled by numba
(``_bidding_kernel.py``, calls as int codes) when numba is importable and :class:`Bidder`
otherwise; a test compares the two call for call (``tests/sim/test_kernel.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from model.bridge.contracts import DENOMS, NOTRUMP, TRUMP_SUIT, bid_rank
from model.cards import ACE, JACK, KING, QUEEN, SUIT_MASK, CardSet
from sim.bots import _bidding_kernel, _kernel
from sim.bots._bidding_kernel import OUT

HCP = {ACE: 4, KING: 3, QUEEN: 2, JACK: 1}
DENOM_OF_SUIT = {s: d for d, s in enumerate(TRUMP_SUIT) if s is not None}
"""Card suit (S 0, C 1, D 2, H 3) -> bridge denomination (C 0, D 1, H 2, S 3)."""
MAJORS = (3, 0)
"""Hearts and spades as card suits."""
PARTSCORE, THREE_LEVEL, GAME, MINOR_GAME, SLAM, GRAND = 0, 23, 25, 29, 33, 37
RANGE = 1
"""Points a player counts on over what his partner has shown at least (the middle of a bid's
range) when he picks the level; slams need the points shown at least."""


_HOLDING_HCP = tuple(sum(v * (h >> r & 1) for r, v in HCP.items()) for h in range(1 << 13))
"""High-card points of every 13-bit suit holding."""


def hcp(hand: CardSet) -> int:
    return (_HOLDING_HCP[hand & 0x1FFF] + _HOLDING_HCP[(hand >> 16) & 0x1FFF]
            + _HOLDING_HCP[(hand >> 32) & 0x1FFF] + _HOLDING_HCP[(hand >> 48) & 0x1FFF])


def lengths(hand: CardSet) -> list[int]:
    return [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]


def balanced(ls: list[int]) -> bool:
    """No void or singleton and at most one doubleton (4333, 4432, 5332)."""
    return min(ls) >= 2 and sorted(ls)[:2] != [2, 2]


def defensive_tricks(hand: CardSet, trump: int | None) -> float:
    """Tricks the hand expects to take against a contract: aces, guarded kings, and in the trump
    suit its honours and every trump from the fourth."""
    v = 0.0
    for s in range(4):
        n = (hand & SUIT_MASK[s]).bit_count()
        ace = hand >> (16 * s + ACE) & 1
        king = hand >> (16 * s + KING) & 1
        v += ace + (0.5 * king if n >= 2 else 0.0)
        if s == trump:
            v += 0.5 * (hand >> (16 * s + QUEEN) & 1) + max(0, n - 3)
    return v


@dataclass
class Shown:
    """What a player has shown in the auction: least points and least length of each suit."""

    points: int = 0
    length: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    bid: bool = False


def _level_for(points: int, denom: int) -> int:
    """The level a partnership with ``points`` bids to in ``denom`` (bridge denomination)."""
    if points >= GRAND:
        return 7
    if points >= SLAM:
        return 6
    if denom == NOTRUMP:
        return 3 if points >= GAME else 2 if points >= THREE_LEVEL else 1
    if denom >= 2:  # a major
        return 4 if points >= GAME else 3 if points >= THREE_LEVEL else 2
    return 5 if points >= MINOR_GAME else 3 if points >= THREE_LEVEL else 2


def _threshold(level: int, denom: int) -> int:
    """The least partnership points a bid at ``level`` of ``denom`` aims at (inverse of
    :func:`_level_for`)."""
    if level >= 7:
        return GRAND
    if level == 6:
        return SLAM
    if denom == NOTRUMP:
        return GAME if level >= 3 else THREE_LEVEL if level == 2 else PARTSCORE
    if level >= 5 and denom < 2:
        return MINOR_GAME
    if level >= 4:
        return GAME
    return THREE_LEVEL if level == 3 else PARTSCORE


class Bidder:
    """The bots' auction of one deal: four hands by seat (N E S W), the dealer first."""

    def __init__(self, hands: list[CardSet], dealer: int) -> None:
        self.hands = hands
        self.points = [hcp(h) for h in hands]
        self.lengths = [lengths(h) for h in hands]
        self.shown = [Shown() for _ in range(4)]
        self.dealer = dealer
        self.last: tuple[int, int] | None = None
        self.last_by = -1
        self.doubled = 0
        self.first_by = [[-1] * 5, [-1] * 5]
        """Per side (N-S 0, E-W 1) and denomination, the seat that named it first."""

    def contract(self) -> tuple[int, int, int, int] | None:
        """After :meth:`run`: ``(level, denom, doubled, declarer)``, or None when passed out.
        The declarer is the player of the winning side who first named the final denomination
        (bridge.md 2.3), as the rules module's ``run_auction`` finds it."""
        if self.last is None:
            return None
        level, denom = self.last
        return level, denom, self.doubled, self.first_by[self.last_by % 2][denom]

    def run(self) -> list[str]:
        """The calls, dealer first, until three passes after a bid or four passes."""
        calls: list[str] = []
        passes = 0
        seat = self.dealer
        while True:
            call = self.call(seat)
            calls.append(call)
            if call == "pass":
                passes += 1
                if (passes == 3 and self.last is not None) or passes == 4:
                    return calls
            else:
                passes = 0
            seat = (seat + 1) % 4

    def _apply_bid(
        self, seat: int, level: int, denom: int, points: int, suit_len: int,
        compete: bool = False,
    ) -> str:
        """Make a bid and record what it shows: ``points`` at least, and, unless it only
        competes over the opponents, the points the level aims at (:func:`_threshold`)."""
        sh = self.shown[seat]
        partner = self.shown[(seat + 2) % 4]
        sh.points = max(sh.points, points)
        if not compete:
            sh.points = max(sh.points, _threshold(level, denom) - partner.points - RANGE)
        if denom != NOTRUMP:
            s = TRUMP_SUIT[denom]
            assert s is not None
            sh.length[s] = max(sh.length[s], suit_len)
        sh.bid = True
        if self.first_by[seat % 2][denom] < 0:
            self.first_by[seat % 2][denom] = seat
        self.last, self.last_by, self.doubled = (level, denom), seat, 0
        return f"{level}{DENOMS[denom]}"

    def _cheapest(self, denom: int) -> int:
        """The lowest level at which ``denom`` outranks the current bid (8: none)."""
        if self.last is None:
            return 1
        for level in range(self.last[0], 8):
            if bid_rank(level, denom) > bid_rank(*self.last):
                return level
        return 8

    def call(self, seat: int) -> str:
        """The bot's call for ``seat`` now."""
        h, ls = self.points[seat], self.lengths[seat]
        partner = self.shown[(seat + 2) % 4]
        if self.last is None:
            return self._open(seat, h, ls)
        ours = self.last_by % 2 == seat % 2
        if not partner.bid:
            if not ours and not self.shown[seat].bid:
                return self._overcall(seat, h, ls)
            return self._double_or_pass(seat, ours)
        combined = h + partner.points + RANGE
        level, denom, length = self._target(seat, ls, partner, combined)
        least = h + partner.points
        if (level == 6 and least < SLAM) or (level == 7 and least < GRAND):
            level = 5 if denom < 2 else 4 if denom < NOTRUMP else 3
        if level < 8 and (self.last is None or bid_rank(level, denom) > bid_rank(*self.last)):
            return self._apply_bid(seat, level, denom, 6, length)
        if not ours:
            cheapest = self._cheapest(denom)
            if cheapest <= _level_for(combined, denom):
                return self._apply_bid(seat, cheapest, denom, 6, length, compete=True)
        return self._double_or_pass(seat, ours)

    def _open(self, seat: int, h: int, ls: list[int]) -> str:
        bal = balanced(ls)
        if bal and 15 <= h <= 17:
            return self._apply_bid(seat, 1, NOTRUMP, 15, 0)
        if bal and 20 <= h <= 21:
            return self._apply_bid(seat, 2, NOTRUMP, 20, 0)
        if h >= 12:
            s = next((m for m in (0, 3) if ls[m] >= 5 and ls[m] >= ls[3 - m]), -1)
            if s < 0:
                s = 2 if ls[2] >= ls[1] and ls[2] >= 4 else 1
            return self._apply_bid(seat, 1, DENOM_OF_SUIT[s], 12, 5 if s in MAJORS else 3)
        s = max(range(4), key=lambda x: (ls[x], x))
        if 5 <= h <= 10 and ls[s] >= 7:
            return self._apply_bid(seat, 3, DENOM_OF_SUIT[s], 5, 7)
        return "pass"

    def _overcall(self, seat: int, h: int, ls: list[int]) -> str:
        assert self.last is not None
        for s in sorted(range(4), key=lambda x: (-ls[x], -x)):
            if ls[s] < 5:
                break
            d = DENOM_OF_SUIT[s]
            level = self._cheapest(d)
            if (level == 1 and h >= 8) or (level == 2 and h >= 11):
                return self._apply_bid(seat, level, d, 8 if level == 1 else 11, 5)
        if 15 <= h <= 18 and balanced(ls) and self._cheapest(NOTRUMP) == 1:
            return self._apply_bid(seat, 1, NOTRUMP, 15, 0)
        return self._double_or_pass(seat, False)

    def _target(
        self, seat: int, ls: list[int], partner: Shown, combined: int
    ) -> tuple[int, int, int]:
        """``(level, denomination, length shown)`` the partnership should play, from the
        seat's view; level 8 when there is nothing to bid."""
        fits = [s for s in range(4) if ls[s] + partner.length[s] >= 8]
        major = [s for s in MAJORS if s in fits]
        if major:
            s = max(major, key=lambda x: (ls[x] + partner.length[x], x))
            d = DENOM_OF_SUIT[s]
            return _level_for(combined, d), d, max(ls[s], 8 - partner.length[s])
        if combined >= GAME and balanced(ls):
            return _level_for(combined, NOTRUMP), NOTRUMP, 0
        if fits:
            s = max(fits, key=lambda x: (ls[x] + partner.length[x], x))
            d = DENOM_OF_SUIT[s]
            level = _level_for(combined, d)
            if level == 3 and combined >= GAME:
                return 3, NOTRUMP, 0  # game values but no five-level minor: 3NT
            return level, d, max(ls[s], 8 - partner.length[s])
        own = [s for s in range(4) if ls[s] >= 5 and self.shown[seat].length[s] < 5
               and partner.length[s] == 0]
        if own:
            s = max(own, key=lambda x: (ls[x], x))
            d = DENOM_OF_SUIT[s]
            level = self._cheapest(d)
            if level <= 3:
                return level, d, 5
        return _level_for(combined, NOTRUMP), NOTRUMP, 0

    def _double_or_pass(self, seat: int, ours: bool) -> str:
        if ours or self.last is None or self.doubled or self.last[0] < 3:
            return "pass"
        level, denom = self.last
        if defensive_tricks(self.hands[seat], TRUMP_SUIT[denom]) >= 9 - level:
            self.doubled = 1
            return "X"
        return "pass"


CALL_NAMES: tuple[str, ...] = (
    "pass", "X", *(f"{level}{DENOMS[d]}" for level in range(1, 8) for d in range(5))
)
"""Calls by the code of the compiled bidder (``_bidding_kernel``: pass 0, X 1, bids from 2)."""


def bot_auction(
    hands: list[CardSet], dealer: int
) -> tuple[list[str], tuple[int, int, int, int] | None, list[int]]:
    """The bots' auction of a deal: the calls (dealer first), ``(level, denom, doubled,
    declarer)`` or None when passed out, and the suits the opening leader's partner showed four
    of (card suits, for the opening lead). Runs the compiled bidder when numba is importable,
    else :class:`Bidder`: the same calls."""
    if _kernel.COMPILED:
        out = _bidding_kernel.bridge_auction(np.array(hands, dtype=np.int64), dealer).tolist()
        n = out[0]
        calls = [CALL_NAMES[x] for x in out[OUT:OUT + n]]
        if not out[1]:
            return calls, None, []
        mask = out[5]
        return calls, (out[1], out[2], out[3], out[4]), [s for s in range(4) if mask >> s & 1]
    bidder = Bidder(hands, dealer)
    calls = bidder.run()
    found = bidder.contract()
    if found is None:
        return calls, None, []
    shown = bidder.shown[(found[3] + 3) % 4].length
    return calls, found, [s for s in range(4) if shown[s] >= 4]
