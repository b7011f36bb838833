"""Hand evaluation for the 32-card Preference games: expected tricks as a declarer in each
denomination, as a defender against a contract, stoppers, and Bettel / misère safety.

A suit holding is read as eight bits (bit 7 = ace ... bit 0 = seven) and every measure is a table
lookup over the 256 holdings, built once at import, so an evaluation costs a few additions. The
numbers are club-player rules of thumb (top honours, guarded kings, trump length, ruffs), not
exact probabilities; ``docs/simulation.md`` lists them.
"""

from __future__ import annotations

from model.cards import SEVEN, CardSet

A, K, Q, J = 0x80, 0x40, 0x20, 0x10


def holding(hand: CardSet, suit: int) -> int:
    """The eight-bit holding of ``suit`` (bit 0 = seven ... bit 7 = ace)."""
    return (hand >> (16 * suit + SEVEN)) & 0xFF


def _top(h: int) -> int:
    n, b = 0, A
    while b and h & b:
        n += 1
        b >>= 1
    return n


def _trump(h: int) -> float:
    """Tricks of a trump holding: honours, then length (8 trumps in the deck: from the fourth on
    each trump is nearly a trick)."""
    n = h.bit_count()
    top = _top(h)
    v = float(min(top, n))
    if top == 0:
        v += (0.75 if n >= 2 else 0.2) * bool(h & K)
    if top <= 1:
        v += (0.5 if n >= 3 else 0.1) * bool(h & Q)
    if top <= 2:
        v += (0.3 if n >= 4 else 0.0) * bool(h & J)
    v += max(0, n - 3) * 0.9
    return min(v, float(n))


def _side(h: int) -> float:
    """Tricks of a side suit in a trump contract: at most three rounds before it is ruffed."""
    n = h.bit_count()
    top = min(_top(h), n, 3)
    v = float(top)
    if top == 0 and h & K:
        v += 0.7 if n >= 2 else 0.1
    if top <= 1 and h & Q and n >= 3:
        v += 0.4 if top == 1 else 0.15
    return min(v, float(n), 3.0)


def _notrump(h: int) -> float:
    """Tricks of a suit in no-trump: top cards, the rest of a long suit headed by them."""
    n = h.bit_count()
    top = min(_top(h), n)
    v = float(top)
    if top >= 3:
        v += max(0, n - top - 1) * 0.8
    if top == 0 and h & K:
        v += 0.5 if n >= 2 else 0.0
    if top <= 1 and h & Q and n >= 3:
        v += 0.2
    return min(v, float(n))


def _stopper(h: int) -> bool:
    n = h.bit_count()
    return bool(h & A or (h & K and n >= 2) or (h & Q and n >= 3) or (h & J and n >= 4))


def _defend_side(h: int) -> float:
    """A defender's tricks in a side suit: aces and guarded kings, less with length (ruffed)."""
    n = h.bit_count()
    v = 0.0
    if h & A:
        v += 0.9 if n <= 4 else 0.6
    if h & K and n >= 2:
        v += (0.8 if h & A else 0.55) if n <= 5 else 0.2
    if h & Q and 3 <= n <= 4:
        v += 0.25
    return v


def _defend_trump(h: int) -> float:
    """A defender's tricks in the declarer's trump suit."""
    n = h.bit_count()
    v = float(bool(h & A))
    v += 0.8 * bool(h & K and n >= 2)
    v += 0.5 * bool(h & Q and n >= 3)
    v += 0.3 * bool(h & J and n >= 4)
    if n >= 4:
        v += 0.5
    return v


def _misere_risk(h: int) -> int:
    """Bettel / misère risk of a holding: its i-th lowest card (from 0) is safe when its rank
    (0 = seven) is at most 2i, i.e. there are enough lower cards out to duck under; the risk is
    the sum of the excesses. A void is safe."""
    risk, i = 0, 0
    for r in range(8):
        if h >> r & 1:
            risk += max(0, r - 2 * i)
            i += 1
    return risk


TRUMP = tuple(_trump(h) for h in range(256))
SIDE = tuple(_side(h) for h in range(256))
NOTRUMP = tuple(_notrump(h) for h in range(256))
STOPPER = tuple(_stopper(h) for h in range(256))
DEFEND_SIDE = tuple(_defend_side(h) for h in range(256))
DEFEND_TRUMP = tuple(_defend_trump(h) for h in range(256))
MISERE_RISK = tuple(_misere_risk(h) for h in range(256))
LENGTH = tuple(h.bit_count() for h in range(256))
RUFF = (1.0, 0.6, 0.2) + (0.0,) * 6
"""Ruffing value of a short side suit (void, singleton, doubleton) with four trumps or more."""


def declarer_tricks(hand: CardSet, trump: int | None) -> float:
    """Expected tricks of ``hand`` as declarer with ``trump`` (``None``: no-trump). In no-trump
    every suit without a stopper costs half a trick (the defence runs it)."""
    hs = ((hand >> 5) & 0xFF, (hand >> 21) & 0xFF, (hand >> 37) & 0xFF, (hand >> 53) & 0xFF)
    if trump is None:
        v = NOTRUMP[hs[0]] + NOTRUMP[hs[1]] + NOTRUMP[hs[2]] + NOTRUMP[hs[3]]
        return v - 0.5 * (4 - STOPPER[hs[0]] - STOPPER[hs[1]] - STOPPER[hs[2]] - STOPPER[hs[3]])
    trumps = hs[trump]
    v = TRUMP[trumps]
    ruffs = 0.0
    for s in range(4):
        if s != trump:
            h = hs[s]
            v += SIDE[h]
            ruffs += RUFF[LENGTH[h]]
    spare = LENGTH[trumps] - 3
    if spare > 0:
        v += min(ruffs, spare * 0.8)
    return v


_DENOM: tuple[tuple[float, float, float, int, float, int], ...] = tuple(
    (TRUMP[h], SIDE[h], RUFF[LENGTH[h]], LENGTH[h] - 3, NOTRUMP[h], int(not STOPPER[h]))
    for h in range(256)
)
"""Per holding, what :func:`denomination_tricks` reads: trump value, side value, ruff value,
spare trumps (length - 3), no-trump value, 1 without a stopper."""


def suit_tricks(hand: CardSet) -> tuple[float, float, float, float, float]:
    """:func:`declarer_tricks` with each suit (0-3) as trump and in no-trump (4), read once for
    the several decisions of a deal: the same sums in the same order, so the same floats."""
    a = _DENOM[(hand >> 5) & 0xFF]
    b = _DENOM[(hand >> 21) & 0xFF]
    c = _DENOM[(hand >> 37) & 0xFF]
    d = _DENOM[(hand >> 53) & 0xFF]
    s0 = a[0] + b[1] + c[1] + d[1]
    if a[3] > 0:
        s0 += min(b[2] + c[2] + d[2], a[3] * 0.8)
    s1 = b[0] + a[1] + c[1] + d[1]
    if b[3] > 0:
        s1 += min(a[2] + c[2] + d[2], b[3] * 0.8)
    s2 = c[0] + a[1] + b[1] + d[1]
    if c[3] > 0:
        s2 += min(a[2] + b[2] + d[2], c[3] * 0.8)
    s3 = d[0] + a[1] + b[1] + c[1]
    if d[3] > 0:
        s3 += min(a[2] + b[2] + c[2], d[3] * 0.8)
    nt = a[4] + b[4] + c[4] + d[4] - 0.5 * (a[5] + b[5] + c[5] + d[5])
    return s0, s1, s2, s3, nt


def denomination_tricks(hand: CardSet) -> tuple[float, float, float, float, float]:
    """``declarer_tricks`` for S, C, D, H and no-trump at once (the holdings read once; the
    same sums in the same order, so the same floats)."""
    a = _DENOM[(hand >> 5) & 0xFF]
    b = _DENOM[(hand >> 21) & 0xFF]
    c = _DENOM[(hand >> 37) & 0xFF]
    d = _DENOM[(hand >> 53) & 0xFF]
    side_all = a[1] + b[1] + c[1] + d[1]
    ruff_all = a[2] + b[2] + c[2] + d[2]
    out = []
    for x in (a, b, c, d):
        v = x[0] + side_all - x[1]
        if x[3] > 0:
            v += min(ruff_all - x[2], x[3] * 0.8)
        out.append(v)
    nt = a[4] + b[4] + c[4] + d[4] - 0.5 * (a[5] + b[5] + c[5] + d[5])
    return out[0], out[1], out[2], out[3], nt


def defender_tricks(hand: CardSet, trump: int | None) -> float:
    """Expected tricks of ``hand`` as a defender against a contract in ``trump``."""
    v = 0.0
    for s in range(4):
        h = (hand >> (16 * s + SEVEN)) & 0xFF
        v += DEFEND_TRUMP[h] if s == trump else DEFEND_SIDE[h]
    return v


def misere_risk(hand: CardSet) -> int:
    """Bettel / misère risk of a whole hand (0: every suit is safe)."""
    return (MISERE_RISK[(hand >> 5) & 0xFF] + MISERE_RISK[(hand >> 21) & 0xFF]
            + MISERE_RISK[(hand >> 37) & 0xFF] + MISERE_RISK[(hand >> 53) & 0xFF])


def best_denomination(hand: CardSet) -> tuple[int | None, float]:
    """The denomination with the most expected tricks and that number (suits 0..3, ``None`` for
    no-trump); ties go to no-trump, then the higher suit."""
    best: tuple[int | None, float] = (None, declarer_tricks(hand, None))
    for s in (3, 2, 1, 0):
        v = declarer_tricks(hand, s)
        if v > best[1] + 1e-9:
            best = (s, v)
    return best


def all_tricks_safe(hand: CardSet, leads: bool) -> bool:
    """Can ``hand`` hope to take every trick (Durchmarsch, Balkan Preferans)? Only if it leads
    the first trick or holds the ace of every suit: otherwise the opening lead of a suit it does
    not control loses at once."""
    return leads or all((hand >> (16 * s + 12)) & 1 for s in range(4))
