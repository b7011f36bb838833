"""Card play for the bridge bots: the opening lead and heuristic play (bridge.md 3).

Seats are 0..3 (N E S W); the declarer plays his own and dummy's cards; follow suit, else any
card (no obligation to trump). The opening lead (left of declarer):

- against no-trump: the longest suit (the stronger on ties), its top card from a three-card
  sequence headed by an honour (AKQ, KQJ, QJT, JT9), else the fourth highest of four or more,
  else the top of a doubleton, else the lowest;
- against a suit: partner's suit if he bid one (the ace if held, the top of a doubleton, else
  the lowest), else the top of a side suit headed by AK, KQ or QJ, else a side singleton when
  holding trumps, else the fourth highest (or lowest) of the longest side suit.

After the lead the Preference heuristics of ``sim/bots/play.py`` play every card with the
partnership as the side (cash masters, draw trumps as declarer, win cheaply, do not overtake a
partner who is winning); dummy's hand is seen by everybody once the lead is made.
"""

from __future__ import annotations

import numpy as np

from model.cards import ACE, SUIT_MASK, CardSet
from sim.bots import _kernel
from sim.bots.play import _discard, _follow_most, _lead_most

SEQUENCES = ((ACE, ACE - 1, ACE - 2), (ACE - 1, ACE - 2, ACE - 3), (ACE - 2, ACE - 3, ACE - 4),
             (ACE - 3, ACE - 4, ACE - 5))


def _cards(part: CardSet) -> list[int]:
    """The cards of a set, highest first."""
    out = []
    while part:
        c = part.bit_length() - 1
        out.append(c)
        part ^= 1 << c
    return out


def _has(part: CardSet, s: int, ranks: tuple[int, ...]) -> bool:
    return all(part >> (16 * s + r) & 1 for r in ranks)


def opening_lead(hand: CardSet, trump: int | None, partner_suits: list[int]) -> int:
    """The opening leader's card (see the module docstring)."""
    suits = [s for s in range(4) if hand & SUIT_MASK[s]]
    if trump is None:
        s = max(suits, key=lambda x: ((hand & SUIT_MASK[x]).bit_count(), hand & SUIT_MASK[x]))
        cards = _cards(hand & SUIT_MASK[s])
        if any(_has(hand, s, seq) for seq in SEQUENCES):
            return cards[0]
        if len(cards) >= 4:
            return cards[3]
        return cards[0] if len(cards) == 2 else cards[-1]
    side = [s for s in suits if s != trump] or suits
    for s in partner_suits:
        if s in side:
            cards = _cards(hand & SUIT_MASK[s])
            if hand >> (16 * s + ACE) & 1 or len(cards) == 2:
                return cards[0]
            return cards[-1]
    for s in side:
        part = hand & SUIT_MASK[s]
        if any(_has(hand, s, seq[:2]) for seq in SEQUENCES[:3]):
            return _cards(part)[0]
    if hand & SUIT_MASK[trump]:
        for s in side:
            part = hand & SUIT_MASK[s]
            if part.bit_count() == 1:
                return part.bit_length() - 1
    s = max(side, key=lambda x: ((hand & SUIT_MASK[x]).bit_count(), x))
    cards = _cards(hand & SUIT_MASK[s])
    return cards[3] if len(cards) >= 4 else cards[-1]


def play_bridge(
    hands: list[CardSet], declarer: int, trump: int | None, partner_suits: list[int],
    deck: CardSet,
) -> tuple[list[int], int]:
    """Play a deal out: the moves as ``64 * seat + card`` codes and the declaring side's tricks.
    ``partner_suits``: the suits the opening leader's partner bid (card suits). Runs the compiled
    kernel (``_kernel.bridge_play``) when numba is importable, else
    :func:`play_bridge_interpreted`: the same decisions card for card."""
    if _kernel.COMPILED:
        mask = 0
        for s in partner_suits:
            mask |= 1 << s
        codes, won = _kernel.bridge_play(np.array(hands, dtype=np.int64), declarer,
                                         -1 if trump is None else int(trump), mask, deck)
        return codes.tolist(), int(won)
    return play_bridge_interpreted(hands, declarer, trump, partner_suits, deck)


def play_bridge_interpreted(
    hands: list[CardSet], declarer: int, trump: int | None, partner_suits: list[int],
    deck: CardSet,
) -> tuple[list[int], int]:
    """:func:`play_bridge` in plain Python (the reference of the compiled kernel)."""
    left = list(hands)
    t = -1 if trump is None else trump
    dummy = (declarer + 2) % 4
    side = declarer % 2
    played = 0
    codes: list[int] = []
    won = 0
    leader = (declarer + 1) % 4
    for trick_no in range(13):
        seat = leader
        best = best_seat = led = -1
        for j in range(4):
            hand = left[seat]
            seen = hand | (left[dummy] if trick_no or j else 0)
            if seat == dummy:
                seen |= left[declarer]
            unseen = deck & ~played & ~seen
            if j == 0:
                if trick_no == 0:
                    c = opening_lead(hand, trump, partner_suits)
                else:
                    c = _lead_most(hand, unseen, t, seat % 2 == side)
            else:
                legal = hand & SUIT_MASK[led] or hand
                ours = best_seat % 2 == seat % 2
                if legal & (legal - 1):
                    c = _follow_most(legal, best, ours, j == 3, led, t, unseen)
                else:
                    c = legal.bit_length() - 1
                if c < 0:
                    c = _discard(legal, t, unseen)
            left[seat] = hand & ~(1 << c)
            if j == 0:
                best, best_seat, led = c, seat, c >> 4
            elif (c > best) if c >> 4 == best >> 4 else c >> 4 == t:
                best, best_seat = c, seat
            codes.append(64 * seat + c)
            played |= 1 << c
            seat = (seat + 1) % 4
        leader = best_seat
        won += best_seat % 2 == side
    return codes, won
