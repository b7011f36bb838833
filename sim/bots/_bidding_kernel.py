"""The bridge bidding bot of ``sim/bots/bidding.py`` in the subset of Python that numba
compiles (``_kernel.jit``): the same calls, call for call (a test compares them on many deals,
``tests/sim/test_kernel.py``). ``bidding.bot_auction`` uses it when numba is importable and
``TRICKBOOK_SIM`` is not ``python``, else the interpreted ``Bidder``.

Ints throughout: card suits ``s`` (S 0, C 1, D 2, H 3) as in ``model/cards.py``, bridge
denominations ``d`` (C 0, D 1, H 2, S 3, NT 4; ``model/bridge/contracts.py``), calls as codes
(``PASS`` 0, ``DOUBLE`` 1, a bid ``2 + bid_rank(level, d)``). The constants are those of
``bidding.py`` (points for partscore, three level, game, minor game, slams; ``RANGE``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.bots._kernel import jit, popcount, suit_mask

PASS, DOUBLE = 0, 1
NT = 4
MAX_CALLS = 320
"""Room for the longest auction the bots can make (every bid is a raise, at most 35 bids each
followed by a double and passes)."""
OUT = 8
"""``bridge_auction`` returns its result in ``out[:OUT]``, the calls from ``out[OUT]`` on."""
K_THREE_LEVEL, K_GAME, K_MINOR_GAME, K_SLAM, K_GRAND, K_RANGE = 23, 25, 29, 33, 37, 1


@jit
def trump_suit(d: int) -> int:
    """The card suit of a suit denomination (C 1, D 2, H 3, S 0)."""
    return (d + 1) & 3


@jit
def denom_of_suit(s: int) -> int:
    return (s + 3) & 3


@jit
def hcp(hand: int) -> int:
    n = 0
    for s in range(4):
        base = 16 * s
        n += 4 * (hand >> (base + 12) & 1) + 3 * (hand >> (base + 11) & 1)
        n += 2 * (hand >> (base + 10) & 1) + (hand >> (base + 9) & 1)
    return n


@jit
def balanced(ls: Any) -> bool:
    twos = 0
    for s in range(4):
        if ls[s] < 2:
            return False
        if ls[s] == 2:
            twos += 1
    return twos <= 1


@jit
def defensive_tricks(hand: int, trump: int) -> float:
    v = 0.0
    for s in range(4):
        n = popcount(hand & suit_mask(s))
        v += hand >> (16 * s + 12) & 1
        if n >= 2:
            v += 0.5 * (hand >> (16 * s + 11) & 1)
        if s == trump:
            v += 0.5 * (hand >> (16 * s + 10) & 1) + max(0, n - 3)
    return v


@jit
def level_for(points: int, d: int) -> int:
    if points >= K_GRAND:
        return 7
    if points >= K_SLAM:
        return 6
    if d == NT:
        return 3 if points >= K_GAME else 2 if points >= K_THREE_LEVEL else 1
    if d >= 2:
        return 4 if points >= K_GAME else 3 if points >= K_THREE_LEVEL else 2
    return 5 if points >= K_MINOR_GAME else 3 if points >= K_THREE_LEVEL else 2


@jit
def threshold(level: int, d: int) -> int:
    if level >= 7:
        return K_GRAND
    if level == 6:
        return K_SLAM
    if d == NT:
        return K_GAME if level >= 3 else K_THREE_LEVEL if level == 2 else 0
    if level >= 5 and d < 2:
        return K_MINOR_GAME
    if level >= 4:
        return K_GAME
    return K_THREE_LEVEL if level == 3 else 0


@jit
def rank(level: int, d: int) -> int:
    return 5 * (level - 1) + d


@jit
def bridge_auction(hands: Any, dealer: int) -> Any:
    """The bots' auction: ``out[0]`` the number of calls, ``out[1:5]`` level (0: passed out),
    denomination, doubled and declarer, ``out[5]`` the suits (bit per card suit) the opening
    leader's partner showed four of; the call codes from ``out[OUT]``."""
    out = np.zeros(OUT + MAX_CALLS, np.int64)
    points = np.zeros(4, np.int64)
    ls = np.zeros((4, 4), np.int64)
    sh_points = np.zeros(4, np.int64)
    sh_len = np.zeros((4, 4), np.int64)
    sh_bid = np.zeros(4, np.bool_)
    first_by = np.full((2, 5), -1, np.int64)
    for seat in range(4):
        points[seat] = hcp(hands[seat])
        for s in range(4):
            ls[seat, s] = popcount(hands[seat] & suit_mask(s))
    last_level, last_d, last_by, doubled = 0, 0, -1, 0
    n = 0
    passes = 0
    seat = dealer
    while True:
        h = points[seat]
        my = ls[seat]
        p = (seat + 2) & 3
        # the decision: a bid (level, d, points shown, length shown, compete) or pass / double
        b_level, b_d, b_points, b_len, compete = 0, 0, 0, 0, False
        want_double = False
        if last_level == 0:  # opening
            bal = balanced(my)
            if bal and 15 <= h <= 17:
                b_level, b_d, b_points = 1, NT, 15
            elif bal and 20 <= h <= 21:
                b_level, b_d, b_points = 2, NT, 20
            elif h >= 12:
                s = -1
                if my[0] >= 5 and my[0] >= my[3]:
                    s = 0
                elif my[3] >= 5 and my[3] >= my[0]:
                    s = 3
                if s < 0:
                    s = 2 if my[2] >= my[1] and my[2] >= 4 else 1
                b_level, b_d, b_points = 1, denom_of_suit(s), 12
                b_len = 5 if s == 0 or s == 3 else 3
            else:
                s = 0
                for x in range(1, 4):
                    if my[x] >= my[s]:
                        s = x
                if 5 <= h <= 10 and my[s] >= 7:
                    b_level, b_d, b_points, b_len = 3, denom_of_suit(s), 5, 7
        else:
            ours = last_by % 2 == seat % 2
            if not sh_bid[p]:
                if not ours and not sh_bid[seat]:  # overcall
                    used = 0
                    for _ in range(4):
                        s = -1
                        for x in range(3, -1, -1):
                            if not used >> x & 1 and (s < 0 or my[x] > my[s]):
                                s = x
                        used |= 1 << s
                        if my[s] < 5:
                            break
                        d = denom_of_suit(s)
                        level = cheapest(last_level, last_d, d)
                        if (level == 1 and h >= 8) or (level == 2 and h >= 11):
                            b_level, b_d, b_len = level, d, 5
                            b_points = 8 if level == 1 else 11
                            break
                    if b_level == 0 and 15 <= h <= 18 and balanced(my) and cheapest(
                            last_level, last_d, NT) == 1:
                        b_level, b_d, b_points = 1, NT, 15
                want_double = b_level == 0 and not ours
            else:
                combined = h + sh_points[p] + K_RANGE
                level, d, length = target(my, sh_len[seat], sh_len[p], combined,
                                          last_level, last_d)
                least = h + sh_points[p]
                if (level == 6 and least < K_SLAM) or (level == 7 and least < K_GRAND):
                    level = 5 if d < 2 else 4 if d < NT else 3
                if level < 8 and rank(level, d) > rank(last_level, last_d):
                    b_level, b_d, b_points, b_len = level, d, 6, length
                elif not ours:
                    low = cheapest(last_level, last_d, d)
                    if low <= level_for(combined, d):
                        b_level, b_d, b_points, b_len, compete = low, d, 6, length, True
                want_double = b_level == 0 and not ours
        if b_level:
            sh_points[seat] = max(sh_points[seat], b_points)
            if not compete:
                sh_points[seat] = max(sh_points[seat],
                                      threshold(b_level, b_d) - sh_points[p] - K_RANGE)
            if b_d != NT:
                s = trump_suit(b_d)
                sh_len[seat, s] = max(sh_len[seat, s], b_len)
            sh_bid[seat] = True
            if first_by[seat % 2, b_d] < 0:
                first_by[seat % 2, b_d] = seat
            last_level, last_d, last_by, doubled = b_level, b_d, seat, 0
            call = 2 + rank(b_level, b_d)
        elif (want_double and not doubled and last_level >= 3 and defensive_tricks(
                hands[seat], trump_suit(last_d) if last_d != NT else -1) >= 9 - last_level):
            doubled = 1
            call = DOUBLE
        else:
            call = PASS
        out[OUT + n] = call
        n += 1
        if call == PASS:
            passes += 1
            if (passes == 3 and last_level) or passes == 4:
                break
        else:
            passes = 0
        seat = (seat + 1) & 3
    out[0] = n
    if last_level:
        declarer = first_by[last_by % 2, last_d]
        out[1], out[2], out[3], out[4] = last_level, last_d, doubled, declarer
        partner = (declarer + 3) & 3
        mask = 0
        for s in range(4):
            if sh_len[partner, s] >= 4:
                mask |= 1 << s
        out[5] = mask
    return out


@jit
def cheapest(last_level: int, last_d: int, d: int) -> int:
    """The lowest level at which ``d`` outranks the current bid (8: none)."""
    if last_level == 0:
        return 1
    for level in range(last_level, 8):
        if rank(level, d) > rank(last_level, last_d):
            return level
    return 8


@jit
def target(
    my: Any, mine_shown: Any, partner: Any, combined: int, last_level: int, last_d: int
) -> tuple[int, int, int]:
    """``Bidder._target``: ``(level, d, length shown)``, level 8 when nothing to bid."""
    best_major, best_fit = -1, -1
    for s in (3, 0):  # the majors; on equal fits the higher index (hearts)
        fit = my[s] + partner[s]
        if fit >= 8 and (best_major < 0 or fit > my[best_major] + partner[best_major]
                         or (fit == my[best_major] + partner[best_major] and s > best_major)):
            best_major = s
    if best_major >= 0:
        s = best_major
        d = denom_of_suit(s)
        return level_for(combined, d), d, max(my[s], 8 - partner[s])
    if combined >= K_GAME and balanced(my):
        return level_for(combined, NT), NT, 0
    for s in range(4):
        if my[s] + partner[s] >= 8 and (
                best_fit < 0 or my[s] + partner[s] >= my[best_fit] + partner[best_fit]):
            best_fit = s
    if best_fit >= 0:
        s = best_fit
        d = denom_of_suit(s)
        level = level_for(combined, d)
        if level == 3 and combined >= K_GAME:
            return 3, NT, 0
        return level, d, max(my[s], 8 - partner[s])
    own = -1
    for s in range(4):
        if my[s] >= 5 and mine_shown[s] < 5 and partner[s] == 0 and (
                own < 0 or my[s] >= my[own]):
            own = s
    if own >= 0:
        d = denom_of_suit(own)
        level = cheapest(last_level, last_d, d)
        if level <= 3:
            return level, d, 5
    return level_for(combined, NT), NT, 0
