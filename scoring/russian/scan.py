"""The Russian settlement as one numba scan over every deal of every game (russian.md 5-8).

The pulya is a running state (pools, hills, the raspasy run) that the overflow (8) and the raspasy
progression (7) read back, so the deals are walked in order, game after game, in one compiled loop
(STYLE.md practice 4: "where state runs across deals, scan"). Each game's rules are one row of
small integer codes (:class:`Rules`). The loop gathers one deal's entries in a few scratch cells
(the deal's pool and hill per seat, its 4 x 4 whists), passes them through the overflow, and
writes per deal and seat the pool and hill changes, the values after, the whists and, while the
deal is in cache, its pairwise gains (times D, in integers; 8); cash and transfers are their
quotients by D (``kernel.py``).
The reference (``reference.py``) is the rulebook reading it is held equal to.

Speed (``bench/bench_russian.py``): the helpers the loop calls take and return numbers only (an
array handed to a compiled helper is reference-counted, two atomic operations a deal and array);
the game's rules are a tuple read once per game; pool entries that fit below T are added at once,
and only an entry past T walks the overflow (:func:`_overflow`); the inputs are 8-bit
(:class:`Columns`) and the per-deal outputs as narrow as the rules' bounds allow (:class:`Scan`),
the whists without the diagonal and the gains once per pair, in one allocation (:func:`_outputs`);
nothing is allocated per deal;
``parallel=False`` (one core, and the games are one sequential scan).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numba
import numpy as np
import numpy.typing as npt

from model.russian.params import RussianRules

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
I16 = npt.NDArray[np.int16]
I8 = npt.NDArray[np.int8]


class Rules(NamedTuple):
    """One game's rules as the scan reads them (``RussianRules`` in integer codes)."""

    target: int
    consolation: int
    """``CONSOLATION``: 0 both opponents, 1 whisters only, 2 none."""
    consolation_factor: int
    kw: int
    krem: int
    kmis: int
    gentleman: int
    half_resp: int
    q1: int
    """``Q1``: 0 second whister, 1 second whister personal, 2 both."""
    half_play: int
    raspasy_value: int
    amnesty: int
    progression: int
    """``PROGRESSION``: a row of ``STEPS``."""
    zero_bonus: int
    raspasy_whists: int
    reset_any: int
    below_zero: int
    owner_shares: int
    to_hill: int


N_RULES = len(Rules._fields)
CONSOLATION = {"both_opponents": 0, "whisters_only": 1, "none": 2}
Q1 = {"second_whister": 0, "second_whister_personal": 1, "both": 2}
PROGRESSION = {"1,2,3cap": 0, "1,2,4": 1, "none": 2}
STEPS = np.array([[1, 2, 3], [1, 2, 4], [1, 1, 1]], dtype=np.int64)
VALUE = np.array([0, 0, 0, 0, 0, 0, 2, 4, 6, 8, 10], dtype=np.int64)
QUOTA = np.array([0, 0, 0, 0, 0, 0, 4, 2, 1, 1, 1], dtype=np.int64)
WHIST, HALF = 1, 2
ORDERED = [(i, j) for i in range(4) for j in range(4) if i != j]
UNORDERED = [(i, j) for i in range(4) for j in range(i + 1, 4)]
WRITER = np.array([i for i, _ in ORDERED], dtype=np.int64)
AGAINST = np.array([j for _, j in ORDERED], dtype=np.int64)
"""The columns of ``Scan.whists`` (and of :func:`gains`): the ordered pairs of seats, writer
(or payee) first, row by row of the 4 x 4 table without its diagonal."""
LOW = np.array([i for i, _ in UNORDERED], dtype=np.int64)
HIGH = np.array([j for _, j in UNORDERED], dtype=np.int64)
"""The columns of ``Scan.gain``: the unordered pairs of seats, lower seat first."""
PAIR = np.array([UNORDERED.index((min(i, j), max(i, j))) for i, j in ORDERED], dtype=np.int64)
SIGN = np.where(WRITER < AGAINST, 1, -1).astype(np.int16)
"""Column k of the ordered pairs is column ``PAIR[k]`` of the unordered ones, times ``SIGN[k]``."""
INCIDENCE = np.array([[(s == i) - (s == j) for s in range(4)] for i, j in UNORDERED],
                     dtype=np.float64)
"""Pairs x seats: +1 for the lower seat of the pair, -1 for the higher (a seat's sum of gains)."""


def rule_row(r: RussianRules) -> I64:
    """One game's rules as the kernel's integer codes (a row of ``Columns.rules``)."""
    return np.array(Rules(
        target=r.pool_target, consolation=CONSOLATION[r.consolation],
        consolation_factor=r.consolation_factor, kw=r.whist_trick_factor, krem=r.remise_factor,
        kmis=r.misere_trick_penalty, gentleman=r.whist_style == "gentleman",
        half_resp=r.whist_responsibility == "half", q1=Q1[r.two_whister_q1_responsible],
        half_play=r.half_whist_play, raspasy_value=r.raspasy_trick_value,
        amnesty=r.raspasy_amnesty, progression=PROGRESSION[r.raspasy_progression],
        zero_bonus=r.raspasy_zero_bonus, raspasy_whists=r.raspasy_payment == "whists",
        reset_any=r.raspasy_reset == "any_contract", below_zero=r.overflow_hill_below_zero,
        owner_shares=r.hill_split == "all_participants", to_hill=r.unfinished_pool == "to_hill",
    ), dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Columns:
    """The kernel's input, one entry per deal, sorted by game then deal number: ``game`` indexes
    ``rules`` and ``players``; -1 stands for null (no declarer, level, defence or tricks). Seats,
    levels, codes and tricks are 8-bit (the frame's own widths, ``model/russian/frame.py``)."""

    game: I32
    dealer: I8
    declarer: I8
    level: I8
    misere: I8
    defender_1: I8
    defender_2: I8
    defence_1: I8
    defence_2: I8
    tricks: I8
    """deals x 4."""
    rules: I64
    """games x ``N_RULES``."""
    players: I64
    """Players per game (3 or 4)."""


@dataclass(frozen=True, slots=True)
class Scan:
    """Per deal and seat (deals x 4): pool and hill changes and values after; whists (deals x
    12, the pairs of ``WRITER`` and ``AGAINST``); gains (deals x 6, the pairs of ``LOW`` and
    ``HIGH``); per game whether every pool reached T, and D.

    The widths are the rules' bounds (russian.md 5-8, ``RussianRules``): a deal's pool entries
    are at most 10 a player (c <= 10, misère 10, the raspasy bonus <= 10), and with the overflow
    of the two others under 40 (8 bits); pools never pass T <= 10,000 (16 bits); what one deal
    writes (c <= 10, factors <= 2, the misère penalty <= 20, raspasy <= 10 x 4 a trick, 10
    whists a pool point) is under 1,000 whists or hill points, and D times the whists plus 10
    times the hills under 10,000 (16 bits); only the hill after a deal runs without a bound
    (32 bits)."""

    pool: I8
    pool_after: I16
    hill: I16
    hill_after: I32
    whists: I16
    """Whists written this deal by ``WRITER[k]`` against ``AGAINST[k]`` (column k)."""
    gain: I16
    """D times what ``LOW[k]`` gains from ``HIGH[k]`` this deal (column k; 8, :func:`gains`)."""
    finished: npt.NDArray[np.bool_]
    after_end: npt.NDArray[np.bool_]
    """Per deal: recorded after every pool reached T (8), so not settled."""
    divisor: I8
    """Per game, D (8: N, or N - 1 with ``hill_split = opponents_only``)."""


@numba.njit(cache=True, inline="always")
def _seat(k: int, n: int) -> int:
    """``k % n`` for ``0 <= k < 2 n`` (a seat counted on from another): no division."""
    return k - n if k >= n else k


@numba.njit(cache=True)
def _rules(rules: I64, g: int) -> Rules:
    """Game ``g``'s row of ``rules`` as a tuple (held in registers, not reference-counted)."""
    row = rules[g]
    return Rules(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9],
                 row[10], row[11], row[12], row[13], row[14], row[15], row[16], row[17], row[18])


@numba.njit(cache=True, inline="always")
def _short(r: Rules, c: int) -> int:
    """Hill per missing defence trick (6.1): k_w c, or half of it."""
    per = r.kw * c
    return per // 2 if r.half_resp else per


@numba.njit(cache=True, inline="always")
def _played(r: Rules, s1: int, s2: int) -> bool:
    """The contract is played (3): a whist, or a half-whist played (``half_whist_play``)."""
    return s1 == WHIST or s2 == WHIST or (s2 == HALF and r.half_play == 1)


@numba.njit(cache=True, inline="always")
def _two_whisters(r: Rules, q: int, s: int, t1: int, t2: int) -> tuple[int, int]:
    """The whisters' shortfall to the hill when both whist (6.2): (first, second)."""
    both = t1 + t2
    if q == 1:
        if r.q1 == 1:
            return 0, s * (t2 < 1)
        if both < 1:
            return s * (r.q1 == 2), s
        return 0, 0
    if both >= q:
        return 0, 0
    half = q // 2
    if t1 < half and t2 < half:
        return s * (half - t1), s * (half - t2)
    if t1 < half:
        return s * (q - both), 0
    return 0, s * (q - both)


@numba.njit(cache=True, inline="always")
def _contract(r: Rules, lv: int, s1: int, s2: int, taken: int, t1: int, t2: int
              ) -> tuple[int, int, int, int, int, int]:
    """One contract deal's entries (6.2): the declarer's pool and hill, the defenders' hills
    and the whists each defender writes on the declarer,
    ``(pool, hill, hill_1, hill_2, whists_1, whists_2)``."""
    c = VALUE[lv]
    q = QUOTA[lv]
    kw = r.kw * c
    if not _played(r, s1, s2):
        return c, 0, 0, 0, 0, (kw * q // 2 if s2 == HALF else 0)
    u = max(0, lv - taken)
    pool = c if u == 0 else 0
    hill = r.krem * c * u
    defence = 10 - taken
    s = _short(r, c)
    if s1 != WHIST and s2 != WHIST:  # half-whist played for half the quota
        half = q // 2
        return pool, hill, 0, s * max(0, half - defence), 0, kw * min(defence, half)
    con = r.consolation_factor * c * u
    w1 = con if r.consolation == 0 or (r.consolation == 1 and s1 == WHIST) else 0
    w2 = con if r.consolation == 0 or (r.consolation == 1 and s2 == WHIST) else 0
    if s1 == WHIST and s2 == WHIST:
        h1, h2 = _two_whisters(r, q, s, t1, t2)
        return pool, hill, h1, h2, w1 + kw * t1, w2 + kw * t2
    short = s * max(0, q - defence)
    if s1 == WHIST:
        w1 += kw * defence
    else:
        w2 += kw * defence
    if u and r.gentleman:
        w1 = w2 = (w1 + w2) // 2
    return pool, hill, short * (s1 == WHIST), short * (s1 != WHIST), w1, w2


@numba.njit(cache=True, inline="always")
def _raspasy_cost(r: Rules, level: int, taken: int, low: int) -> tuple[int, int]:
    """One raspasy player's (pool bonus, cost) (7): the bonus for no trick, else the level
    cost per trick above the fewest (amnesty)."""
    if taken == 0:
        return r.zero_bonus, 0
    return 0, r.raspasy_value * level * (taken - (low if r.amnesty else 0))


@numba.njit(cache=True, inline="always")
def _gain(d: int, w_ab: int, w_ba: int, h_a: int, h_b: int) -> int:
    """D times what a gains from b (8, ``reference.received``): D (W_ab - W_ba) + 10 (H_b - H_a)."""
    return d * (w_ab - w_ba) + 10 * (h_b - h_a)


@numba.njit(cache=True)
def _overflow(r: Rules, n: int, dealer: int, entry: I64, pool: I64, hill: I64, dh: I64, dp: I64,
              w: I64) -> None:
    """The deal's pool entries in turn from the dealer's left, beyond T to the highest pool below
    T, ties clockwise, and when every pool is closed off the donor's hill (8). ``pool`` and
    ``hill`` are the game's running values, ``dh``, ``dp`` and ``w`` the deal's changes. Called
    only when an entry passes T (its arrays cost two atomic operations each)."""
    for k in range(1, n + 1):  # the pool entries in turn from the dealer's left (8)
        s = _seat(dealer + k, n)
        room = r.target - pool[s]
        own = min(entry[s], room)
        pool[s] += own
        dp[s] += own
        rest = entry[s] - own
        while rest > 0:  # the overflow: the highest pool below T, ties clockwise (8)
            to = -1
            for kk in range(1, n):
                o = _seat(s + kk, n)
                if pool[o] < r.target and (to < 0 or pool[o] > pool[to]):
                    to = o
            if to < 0:  # every pool closed: off the donor's hill
                cut = rest if r.below_zero else min(rest, max(0, hill[s]))
                hill[s] -= cut
                dh[s] -= cut
                break
            give = min(rest, r.target - pool[to])
            pool[to] += give
            dp[to] += give
            w[s, to] += 10 * give
            rest -= give


@numba.njit(cache=True)
def _scan(game: I32, dealer: I8, declarer: I8, level: I8, misere: I8, d1: I8, d2: I8,
          s1: I8, s2: I8, tricks: I8, rules: I64, players: I64,
          dpool: I8, pool_after: I16, dhill: I16, hill_after: I32, whists: I16, gain: I16,
          finished: npt.NDArray[np.bool_], after_end: npt.NDArray[np.bool_],
          divisor: I8) -> None:
    pool = np.zeros(4, dtype=np.int64)  # the game's running pools and hills
    hill = np.zeros(4, dtype=np.int64)
    entry = np.zeros(4, dtype=np.int64)  # this deal's pool entries, hills, pool changes
    dh = np.zeros(4, dtype=np.int64)
    dp = np.zeros(4, dtype=np.int64)
    w = np.zeros((4, 4), dtype=np.int64)  # this deal's whists
    if len(game) == 0:
        return
    r = _rules(rules, game[0])
    run = 0
    ended = False
    n = d = 3
    for i in range(len(game)):
        g = game[i]
        if i == 0 or game[i - 1] != g:
            r = _rules(rules, g)
            n = players[g]
            d = n if r.owner_shares else n - 1
            divisor[g] = d
            pool[:] = 0
            hill[:] = 0
            run = 0
            ended = False
        if ended:
            after_end[i] = True
            continue
        entry[:] = 0
        dh[:] = 0
        w[:] = 0
        decl = declarer[i]
        if decl < 0:  # raspasy (7): the three players from the dealer's left
            level_now = STEPS[r.progression, min(run, 2)]
            a, b, c = _seat(dealer[i] + 1, n), _seat(dealer[i] + 2, n), _seat(dealer[i] + 3, n)
            low = min(tricks[i, a], tricks[i, b], tricks[i, c])
            for s in (a, b, c):
                entry[s], cost = _raspasy_cost(r, level_now, tricks[i, s], low)
                if r.raspasy_whists:
                    for o in (a, b, c):
                        w[o, s] += cost * (o != s)
                else:
                    dh[s] += cost
            run += 1
        elif misere[i]:
            taken = tricks[i, decl]
            entry[decl] = 10 if taken == 0 else 0
            dh[decl] = r.kmis * taken
            run = 0
        else:
            p1, p2 = d1[i], d2[i]
            entry[decl], dh[decl], dh[p1], dh[p2], w[p1, decl], w[p2, decl] = _contract(
                r, level[i], s1[i], s2[i], tricks[i, decl], tricks[i, p1], tricks[i, p2])
            if _played(r, s1[i], s2[i]) or r.reset_any:
                run = 0
        for s in range(4):
            hill[s] += dh[s]
        fits = True  # no entry passes T: no overflow, the order does not matter
        for s in range(4):
            fits = fits and entry[s] <= r.target - pool[s]
        if fits:
            for s in range(4):
                pool[s] += entry[s]
                dp[s] = entry[s]
        else:
            dp[:] = 0
            _overflow(r, n, dealer[i], entry, pool, hill, dh, dp, w)
        k = 0
        for a in range(4):  # constant bounds: unrolled, no test on n
            dpool[i, a] = dp[a]
            pool_after[i, a] = pool[a]
            dhill[i, a] = dh[a]
            hill_after[i, a] = hill[a]
            for b in range(4):
                if a != b:
                    whists[i, k] = w[a, b]
                    k += 1
        for a in range(4):  # 8: H is the hill less the pool with to_hill
            dh[a] -= r.to_hill * dp[a]
        gain[i, 0] = _gain(d, w[0, 1], w[1, 0], dh[0], dh[1])
        gain[i, 1] = _gain(d, w[0, 2], w[2, 0], dh[0], dh[2])
        gain[i, 3] = _gain(d, w[1, 2], w[2, 1], dh[1], dh[2])
        if n == 4:  # (the pairs of the fourth seat stay 0 in a game of three)
            gain[i, 2] = _gain(d, w[0, 3], w[3, 0], dh[0], dh[3])
            gain[i, 4] = _gain(d, w[1, 3], w[3, 1], dh[1], dh[3])
            gain[i, 5] = _gain(d, w[2, 3], w[3, 2], dh[2], dh[3])
        done = pool[0] >= r.target and pool[1] >= r.target and pool[2] >= r.target
        ended = done and (n == 3 or pool[3] >= r.target)
        finished[g] = ended


OUTPUTS: tuple[tuple[str, type, tuple[int, ...]], ...] = (
    ("hill_after", np.int32, (4,)), ("pool_after", np.int16, (4,)), ("hill", np.int16, (4,)),
    ("whists", np.int16, (12,)), ("gain", np.int16, (6,)), ("pool", np.int8, (4,)),
    ("after_end", np.bool_, ()),
)
"""The per-deal columns of :class:`Scan`: name, type and shape a deal, widest type first."""


def _outputs(m: int) -> dict[str, Any]:
    """The per-deal columns of ``m`` deals, zero, as blocks of one allocation (widest first, so
    each block is aligned): one large allocation is mapped in large pages, where a column each
    costs a page fault every few kilobytes."""
    sizes = [m * np.dtype(t).itemsize * int(np.prod(shape)) for _, t, shape in OUTPUTS]
    memory = np.zeros(sum(sizes), np.uint8)
    out: dict[str, Any] = {}
    at = 0
    for (name, t, shape), size in zip(OUTPUTS, sizes, strict=True):
        out[name] = memory[at:at + size].view(t).reshape((m, *shape))
        at += size
    return out


def scan(c: Columns) -> Scan:
    """Every deal's pool, hill and whists (the running state across each game)."""
    out = Scan(**_outputs(len(c.game)), finished=np.zeros(len(c.players), np.bool_),
               divisor=np.ones(len(c.players), np.int8))
    _scan(c.game, c.dealer, c.declarer, c.level, c.misere, c.defender_1, c.defender_2,
          c.defence_1, c.defence_2, c.tricks, c.rules, c.players,
          out.pool, out.pool_after, out.hill, out.hill_after, out.whists, out.gain,
          out.finished, out.after_end, out.divisor)
    return out


def gains(c: Columns, s: Scan) -> tuple[I16, I8]:
    """Per deal, D times what i gains from j, ``D (W_ij - W_ji) + 10 (H_j - H_i)`` with H the
    hill (less the pool with ``to_hill``; 8, ``reference.received``), once per pair of seats
    (the columns of ``LOW`` (i) and ``HIGH`` (j); j gains the negation from i), and D per game.
    The scan writes them as it closes each deal, while its entries are in cache."""
    return s.gain, s.divisor
