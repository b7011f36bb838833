"""The heuristic play of ``sim/bots/play.py`` in the subset of Python that numba compiles.

The same decisions card for card (a test plays thousands of deals both ways and compares the
moves); ``play.play_heuristic`` uses this kernel when numba is importable (a runtime dependency)
and ``TRICKBOOK_SIM`` is not ``python``, else its own interpreted version. Cards are ints
``16 * suit + rank`` and hands int64 masks (``model/cards.py``); ``trump`` is ``-1`` in no-trump.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

COMPILED = False
_numba: Any = None
if os.environ.get("TRICKBOOK_SIM", "").lower() != "python":
    try:
        import numba as _numba_module
    except ImportError:  # the interpreted path
        pass
    else:
        _numba = _numba_module
        COMPILED = True


def jit(fn: F) -> F:
    """``numba.njit`` (cached on disk) when numba is there, else ``fn`` itself."""
    if _numba is None:
        return fn
    compiled: F = _numba.njit(cache=True, nogil=True)(fn)
    return compiled


S0, S1, S2, S3 = 0x1FFF, 0x1FFF << 16, 0x1FFF << 32, 0x1FFF << 48


@jit
def suit_mask(s: int) -> int:
    if s == 0:
        return S0
    if s == 1:
        return S1
    if s == 2:
        return S2
    return S3


@jit
def high(x: int) -> int:
    """Index of the highest set bit of ``x > 0``."""
    n = 0
    if x >> 32:
        x >>= 32
        n += 32
    if x >> 16:
        x >>= 16
        n += 16
    if x >> 8:
        x >>= 8
        n += 8
    if x >> 4:
        x >>= 4
        n += 4
    if x >> 2:
        x >>= 2
        n += 2
    if x >> 1:
        n += 1
    return n


@jit
def low(x: int) -> int:
    return high(x & -x)


@jit
def popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@jit
def is_master(c: int, unseen: int) -> bool:
    return ((unseen & suit_mask(c >> 4)) >> (c + 1)) == 0


@jit
def winners(legal: int, best: int, trump: int) -> int:
    s = best >> 4
    out = legal & suit_mask(s) & ~((2 << best) - 1)
    if trump >= 0 and s != trump:
        out |= legal & suit_mask(trump)
    return out


@jit
def discard(legal: int, trump: int, unseen: int) -> int:
    pool = legal
    if trump >= 0 and legal & ~suit_mask(trump):
        pool = legal & ~suit_mask(trump)
    best, best_rank, spare, spare_rank = -1, 99, -1, 99
    for s in range(4):
        part = pool & suit_mask(s)
        if part:
            lowbit = part & -part
            c = high(lowbit)
            r = c & 15
            if part == lowbit and is_master(c, unseen):
                if r < spare_rank:
                    spare, spare_rank = c, r
            elif r < best_rank:
                best, best_rank = c, r
    return best if best >= 0 else spare


@jit
def lead_most(hand: int, unseen: int, trump: int, declaring: bool) -> int:
    if trump >= 0 and declaring:
        mine = hand & suit_mask(trump)
        theirs = unseen & suit_mask(trump)
        if mine and theirs:
            top = high(mine)
            return top if is_master(top, unseen) else low(mine)
    side = hand & ~suit_mask(trump) if trump >= 0 and not declaring else hand
    if not side:
        side = hand
    for s in range(4):
        part = side & suit_mask(s)
        if part and is_master(high(part), unseen) and (declaring or s != trump):
            return high(part)
    longest, best_len = 0, -1
    for s in range(4):
        part = side & suit_mask(s)
        n = popcount(part)
        if part and (n > best_len or (n == best_len and s != trump)):
            longest, best_len = part, n
    return low(longest)


@jit
def follow_most(
    legal: int, best: int, ours: bool, last: bool, led: int, trump: int, unseen: int
) -> int:
    if ours and (last or is_master(best, unseen) or best >> 4 == trump):
        return discard(legal, trump, unseen)
    wins = winners(legal, best, trump)
    if wins:
        same = wins & suit_mask(best >> 4)
        if last:
            return low(same) if same else low(wins)
        if same:
            top = high(same)
            if is_master(top, unseen):
                return top
            if ours:
                return discard(legal, trump, unseen)
            if legal & suit_mask(best >> 4):
                return low(legal)
            return discard(legal, trump, unseen)
        if not ours:
            return low(wins)
    if legal & suit_mask(led):
        return low(legal)
    return discard(legal, trump, unseen)


@jit
def lowest_rank(cards: int) -> int:
    """The card of lowest rank (lowest index on ties)."""
    best, best_rank = -1, 99
    while cards:
        lowbit = cards & -cards
        c = high(lowbit)
        cards ^= lowbit
        if (c & 15) < best_rank:
            best, best_rank = c, c & 15
    return best


@jit
def highest_rank(cards: int) -> int:
    """The card of highest rank (highest index on ties)."""
    best, best_rank = -1, -1
    while cards:
        lowbit = cards & -cards
        c = high(lowbit)
        cards ^= lowbit
        if (c & 15) >= best_rank:
            best, best_rank = c, c & 15
    return best


@jit
def fewest_card(
    legal: int, n_trick: int, led: int, best: int, unseen: int, trump: int, k: int
) -> int:
    if n_trick == 0:
        pick, key_a, key_b = -1, 99, 99
        cards = legal
        while cards:
            lowbit = cards & -cards
            c = high(lowbit)
            cards ^= lowbit
            suit = unseen & suit_mask(c >> 4)
            higher = popcount(suit >> (c + 1))
            lower = popcount(suit & ((1 << c) - 1))
            a, b = lower - higher, c & 15
            if higher and (a < key_a or (a == key_a and b < key_b)):
                pick, key_a, key_b = c, a, b
        return pick if pick >= 0 else low(legal)
    follow = legal & suit_mask(led)
    if follow:
        under = follow & ((1 << best) - 1) if best >> 4 == led else follow
        if best >> 4 == trump and led != trump:
            under = follow
        if under:
            return high(under)
        return high(follow) if n_trick == k - 1 else low(follow)
    return highest_rank(legal)


@jit
def against_fewest_card(
    legal: int, n_trick: int, led: int, best: int, best_seat: int, declarer: int,
    declarer_played: bool,
) -> int:
    if n_trick == 0:
        return lowest_rank(legal)
    follow = legal & suit_mask(led)
    if not follow:
        return highest_rank(legal)
    if declarer_played:
        if best_seat == declarer:
            under = follow & ((1 << best) - 1)
            if under:
                return high(under)
        return high(follow)
    return low(follow)


@jit
def play(
    hands: Any, k: int, leader: int, declarer: int, trump: int, fewest: bool,
    must_overtrump: bool, stop_declarer: int, stop_defence: int, deck: int,
) -> tuple[Any, int, Any]:
    """Play out; returns ``(moves, n, taken)``: ``moves[i] = 64 * seat + card``."""
    left = hands.copy()
    moves = np.zeros(40, np.int64)
    taken = np.zeros(3, np.int64)
    n = 0
    played = 0
    tmask = suit_mask(trump) if trump >= 0 else 0
    d_tricks = 0
    f_tricks = 0
    while d_tricks < stop_declarer and f_tricks < stop_defence:
        anyleft = 0
        for i in range(k):
            anyleft |= left[i]
        if not anyleft:
            break
        seat = leader
        best = -1
        best_seat = -1
        led = -1
        top_trump = -1
        declarer_played = False
        for j in range(k):
            hand = left[seat]
            unseen = deck & ~played & ~hand
            if j == 0:
                legal = hand
            else:
                legal = hand & suit_mask(led)
                if not legal:
                    legal = hand & tmask
                    if not legal:
                        legal = hand
                    elif must_overtrump and top_trump >= 0:
                        higher = legal & ~((2 << top_trump) - 1)
                        if higher:
                            legal = higher
            if not fewest:
                if j > 0:
                    ours = (best_seat == declarer) == (seat == declarer)
                    c = follow_most(legal, best, ours, j == k - 1, led, trump, unseen)
                else:
                    c = lead_most(legal, unseen, trump, seat == declarer)
            elif declarer < 0 or seat == declarer:
                c = fewest_card(legal, j, led, best, unseen, trump, k)
            else:
                c = against_fewest_card(legal, j, led, best, best_seat, declarer,
                                        declarer_played)
            left[seat] = hand & ~(1 << c)
            if j == 0:
                best, best_seat, led = c, seat, c >> 4
            elif c >> 4 == best >> 4:
                if c > best:
                    best, best_seat = c, seat
            elif c >> 4 == trump:
                best, best_seat = c, seat
            if c >> 4 == trump and c > top_trump:
                top_trump = c
            if seat == declarer:
                declarer_played = True
            moves[n] = 64 * seat + c
            n += 1
            played |= 1 << c
            seat = seat + 1 if seat + 1 < k else 0
        leader = best_seat
        taken[leader] += 1
        if leader == declarer:
            d_tricks += 1
        else:
            f_tricks += 1
    return moves, n, taken


# --- contract bridge (sim/bots/bridge_play.py; the Preference games do not use these) ---


@jit
def nth_highest(part: int, n: int) -> int:
    """The ``n``-th highest card (from 0) of a non-empty set, its lowest if it has fewer."""
    c = high(part)
    while n > 0 and part & ((1 << c) - 1):
        part &= (1 << c) - 1
        c = high(part)
        n -= 1
    return c


@jit
def has_ranks(part: int, base: int, r0: int, r1: int, r2: int) -> bool:
    """Whether the suit at bit ``base`` holds the ranks ``r0``, ``r1`` (and ``r2`` unless -1)."""
    if not (part >> (base + r0) & 1 and part >> (base + r1) & 1):
        return False
    return r2 < 0 or part >> (base + r2) & 1 == 1


@jit
def bridge_opening_lead(hand: int, trump: int, partner_suits: int) -> int:
    """``bridge_play.opening_lead`` (``partner_suits``: a mask of card suits, bit ``s``)."""
    if trump < 0:
        s, best_n = -1, -1
        for x in range(4):
            n = popcount(hand & suit_mask(x))
            if n and n >= best_n:  # ties: the higher holding, i.e. the higher suit
                s, best_n = x, n
        part = hand & suit_mask(s)
        base = 16 * s
        for top in range(12, 8, -1):
            if has_ranks(part, base, top, top - 1, top - 2):
                return high(part)
        if best_n >= 4:
            return nth_highest(part, 3)
        return high(part) if best_n == 2 else low(part)
    side = 0
    for x in range(4):
        if x != trump and hand & suit_mask(x):
            side |= 1 << x
    if not side:
        for x in range(4):
            if hand & suit_mask(x):
                side |= 1 << x
    for x in range(4):
        if partner_suits >> x & 1 and side >> x & 1:
            part = hand & suit_mask(x)
            if hand >> (16 * x + 12) & 1 or popcount(part) == 2:
                return high(part)
            return low(part)
    for x in range(4):
        if side >> x & 1:
            part = hand & suit_mask(x)
            for top in range(12, 9, -1):
                if has_ranks(part, 16 * x, top, top - 1, -1):
                    return high(part)
    if hand & suit_mask(trump):
        for x in range(4):
            if side >> x & 1:
                part = hand & suit_mask(x)
                if popcount(part) == 1:
                    return high(part)
    s, best_n = -1, -1
    for x in range(4):
        if side >> x & 1:
            n = popcount(hand & suit_mask(x))
            if n >= best_n:
                s, best_n = x, n
    part = hand & suit_mask(s)
    return nth_highest(part, 3) if best_n >= 4 else low(part)


@jit
def bridge_play(
    hands: Any, declarer: int, trump: int, partner_suits: int, deck: int
) -> tuple[Any, int]:
    """``bridge_play.play_bridge_interpreted`` compiled: ``(codes, won)`` with
    ``codes[i] = 64 * seat + card`` and the declaring side's tricks."""
    left = hands.copy()
    codes = np.zeros(52, np.int64)
    dummy = (declarer + 2) % 4
    side = declarer % 2
    played = 0
    won = 0
    n = 0
    leader = (declarer + 1) % 4
    for trick_no in range(13):
        seat = leader
        best = -1
        best_seat = -1
        led = -1
        for j in range(4):
            hand = left[seat]
            seen = hand
            if trick_no or j:
                seen |= left[dummy]
            if seat == dummy:
                seen |= left[declarer]
            unseen = deck & ~played & ~seen
            if j == 0:
                if trick_no == 0:
                    c = bridge_opening_lead(hand, trump, partner_suits)
                else:
                    c = lead_most(hand, unseen, trump, seat % 2 == side)
            else:
                legal = hand & suit_mask(led)
                if not legal:
                    legal = hand
                ours = best_seat % 2 == seat % 2
                if legal & (legal - 1):
                    c = follow_most(legal, best, ours, j == 3, led, trump, unseen)
                else:
                    c = high(legal)
                if c < 0:
                    c = discard(legal, trump, unseen)
            left[seat] = hand & ~(1 << c)
            if j == 0:
                best, best_seat, led = c, seat, c >> 4
            elif c >> 4 == best >> 4:
                if c > best:
                    best, best_seat = c, seat
            elif c >> 4 == trump:
                best, best_seat = c, seat
            codes[n] = 64 * seat + c
            n += 1
            played |= 1 << c
            seat = seat + 1 if seat < 3 else 0
        leader = best_seat
        if best_seat % 2 == side:
            won += 1
    return codes, won
