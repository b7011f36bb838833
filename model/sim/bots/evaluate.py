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
    hs = [(hand >> (16 * s + SEVEN)) & 0xFF for s in range(4)]
    if trump is None:
        v = sum(NOTRUMP[h] for h in hs)
        return v - 0.5 * sum(not STOPPER[h] for h in hs)
    trumps = hs[trump]
    v = TRUMP[trumps]
    ruffs = 0.0
    for s in range(4):
        if s != trump:
            v += SIDE[hs[s]]
            ruffs += RUFF[LENGTH[hs[s]]]
    spare = LENGTH[trumps] - 3
    if spare > 0:
        v += min(ruffs, spare * 0.8)
    return v


def denomination_tricks(hand: CardSet) -> tuple[float, float, float, float, float]:
    """``declarer_tricks`` for S, C, D, H and no-trump at once (the holdings read once)."""
    hs = [(hand >> (16 * s + SEVEN)) & 0xFF for s in range(4)]
    side = [SIDE[h] for h in hs]
    ruff = [RUFF[LENGTH[h]] for h in hs]
    side_all, ruff_all = sum(side), sum(ruff)
    out = []
    for t in range(4):
        h = hs[t]
        v = TRUMP[h] + side_all - side[t]
        spare = LENGTH[h] - 3
        if spare > 0:
            v += min(ruff_all - ruff[t], spare * 0.8)
        out.append(v)
    nt = sum(NOTRUMP[h] for h in hs) - 0.5 * sum(not STOPPER[h] for h in hs)
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
    return sum(MISERE_RISK[(hand >> (16 * s + SEVEN)) & 0xFF] for s in range(4))


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
