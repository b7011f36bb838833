"""The Russian settlement as one numba scan over every deal of every game (russian.md 5-8).

The pulya is a running state (pools, hills, the raspasy run) that the overflow (8) and the raspasy
progression (7) read back, so the deals are walked in order, game after game, in one compiled loop
(STYLE.md practice 4: "where state runs across deals, scan"). Each game's rules are one row of
small integer codes (``RULE_*``). The loop writes per deal and seat the pool and hill changes, the
values after and the 4 x 4 whists, and as it closes a deal its pairwise gains (times D, in
integers; ``_gain``), while the deal's entries are still in cache; cash and transfers are their
quotients by D (``kernel.py``).
The reference (``reference.py``) is the rulebook reading it is held equal to.

Speed (``bench/bench_russian.py``): the helpers are inlined into the loop (``inline="always"``:
a call that passes arrays costs more than most deals' arithmetic), the per-deal outputs are 16-bit
(:class:`Scan`), and nothing is allocated per deal; ``parallel=False`` (one core, and the games
are one sequential scan).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt

from model.russian.params import RussianRules

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
I16 = npt.NDArray[np.int16]
I8 = npt.NDArray[np.int8]

N_RULES = 19
(RULE_TARGET, RULE_CONSOLATION, RULE_CONSOLATION_FACTOR, RULE_KW, RULE_KREM, RULE_KMIS,
 RULE_GENTLEMAN, RULE_HALF_RESP, RULE_Q1, RULE_HALF_PLAY, RULE_RASPASY_VALUE, RULE_AMNESTY,
 RULE_PROGRESSION, RULE_ZERO_BONUS, RULE_RASPASY_WHISTS, RULE_RESET_ANY,
 RULE_BELOW_ZERO, RULE_OWNER_SHARES, RULE_TO_HILL) = range(N_RULES)

CONSOLATION = {"both_opponents": 0, "whisters_only": 1, "none": 2}
Q1 = {"second_whister": 0, "second_whister_personal": 1, "both": 2}
PROGRESSION = {"1,2,3cap": 0, "1,2,4": 1, "none": 2}
STEPS = np.array([[1, 2, 3], [1, 2, 4], [1, 1, 1]], dtype=np.int64)
VALUE = np.array([0, 0, 0, 0, 0, 0, 2, 4, 6, 8, 10], dtype=np.int64)
QUOTA = np.array([0, 0, 0, 0, 0, 0, 4, 2, 1, 1, 1], dtype=np.int64)
WHIST, HALF = 1, 2


def rule_row(r: RussianRules) -> I64:
    """One game's rules as the kernel's integer codes."""
    row = np.zeros(N_RULES, dtype=np.int64)
    row[RULE_TARGET] = r.pool_target
    row[RULE_CONSOLATION] = CONSOLATION[r.consolation]
    row[RULE_CONSOLATION_FACTOR] = r.consolation_factor
    row[RULE_KW] = r.whist_trick_factor
    row[RULE_KREM] = r.remise_factor
    row[RULE_KMIS] = r.misere_trick_penalty
    row[RULE_GENTLEMAN] = r.whist_style == "gentleman"
    row[RULE_HALF_RESP] = r.whist_responsibility == "half"
    row[RULE_Q1] = Q1[r.two_whister_q1_responsible]
    row[RULE_HALF_PLAY] = r.half_whist_play
    row[RULE_RASPASY_VALUE] = r.raspasy_trick_value
    row[RULE_AMNESTY] = r.raspasy_amnesty
    row[RULE_PROGRESSION] = PROGRESSION[r.raspasy_progression]
    row[RULE_ZERO_BONUS] = r.raspasy_zero_bonus
    row[RULE_RASPASY_WHISTS] = r.raspasy_payment == "whists"
    row[RULE_RESET_ANY] = r.raspasy_reset == "any_contract"
    row[RULE_BELOW_ZERO] = r.overflow_hill_below_zero
    row[RULE_OWNER_SHARES] = r.hill_split == "all_participants"
    row[RULE_TO_HILL] = r.unfinished_pool == "to_hill"
    return row


@dataclass(frozen=True, slots=True)
class Columns:
    """The kernel's input, one entry per deal, sorted by game then deal number: ``game`` indexes
    ``rules`` and ``players``; -1 stands for null (no declarer, level, defence or tricks)."""

    game: I64
    dealer: I64
    declarer: I64
    level: I64
    misere: I64
    defender_1: I64
    defender_2: I64
    defence_1: I64
    defence_2: I64
    tricks: I64
    """deals x 4."""
    rules: I64
    """games x ``N_RULES``."""
    players: I64
    """Players per game (3 or 4)."""


@dataclass(frozen=True, slots=True)
class Scan:
    """Per deal and seat (deals x 4): pool and hill changes and values after; whists
    (deals x 4 x 4, [i, j] written by i on j); per game whether every pool reached T.

    What one deal writes is small by the rules' own bounds (c <= 10, factors <= 2, the misère
    penalty <= 20, raspasy <= 10 x 4 a trick, 10 whists a pool point of at most 10 points a deal):
    under 1,000 whists or hill points, and D times the whists plus 10 times the hills under
    10,000; so the per-deal arrays are 16-bit (half the memory the scan must write), the running
    values after the deal 32-bit."""

    pool: I16
    pool_after: I32
    hill: I16
    hill_after: I32
    whists: I16
    finished: npt.NDArray[np.bool_]
    after_end: npt.NDArray[np.bool_]
    """Per deal: recorded after every pool reached T (8), so not settled."""
    gain: I16
    """Per deal, D times what i gains from j (deals x 4 x 4, :func:`gains`)."""
    divisor: I8
    """Per deal, D (8: N, or N - 1 with ``hill_split = opponents_only``)."""


@numba.njit(cache=True, inline="always")
def _seat(k: int, n: int) -> int:
    """``k % n`` for ``0 <= k < 2 n`` (a seat counted on from another): no division."""
    return k - n if k >= n else k


@numba.njit(cache=True, inline="always")
def _short(rules: I64, c: int) -> int:
    per = rules[RULE_KW] * c
    return per // 2 if rules[RULE_HALF_RESP] else per


@numba.njit(cache=True, inline="always")
def _contract(rules: I64, decl: int, lv: int, d1: int, d2: int, s1: int, s2: int, t: I64,
              i: int, pool: I64, hill: I16, w: I16) -> None:
    """One contract deal's entries (6.2): ``pool`` is this deal's entry; ``t``, ``hill`` and
    ``w`` hold every deal (row ``i`` is this one: no view per deal)."""
    c = VALUE[lv]
    q = QUOTA[lv]
    kw = rules[RULE_KW] * c
    if s1 != WHIST and s2 != WHIST and not (s2 == HALF and rules[RULE_HALF_PLAY]):
        pool[decl] += c
        if s2 == HALF:
            w[i, d2, decl] += kw * q // 2
        return
    taken = t[i, decl]
    u = max(0, lv - taken)
    if u == 0:
        pool[decl] += c
    else:
        hill[i, decl] += rules[RULE_KREM] * c * u
    defence = 10 - taken
    if s1 != WHIST and s2 != WHIST:  # half-whist played for half the quota
        half = q // 2
        w[i, d2, decl] += kw * min(defence, half)
        hill[i, d2] += _short(rules, c) * max(0, half - defence)
        return
    con = rules[RULE_CONSOLATION_FACTOR] * c * u
    if rules[RULE_CONSOLATION] == 0 or (rules[RULE_CONSOLATION] == 1 and s1 == WHIST):
        w[i, d1, decl] += con
    if rules[RULE_CONSOLATION] == 0 or (rules[RULE_CONSOLATION] == 1 and s2 == WHIST):
        w[i, d2, decl] += con
    s = _short(rules, c)
    if s1 == WHIST and s2 == WHIST:
        w[i, d1, decl] += kw * t[i, d1]
        w[i, d2, decl] += kw * t[i, d2]
        both = t[i, d1] + t[i, d2]
        if q == 1:
            if rules[RULE_Q1] == 1:
                hill[i, d2] += s * (t[i, d2] < 1)
            elif both < 1:
                hill[i, d2] += s
                hill[i, d1] += s * (rules[RULE_Q1] == 2)
        elif both < q:
            half = q // 2
            if t[i, d1] < half and t[i, d2] < half:
                hill[i, d1] += s * (half - t[i, d1])
                hill[i, d2] += s * (half - t[i, d2])
            elif t[i, d1] < half:
                hill[i, d1] += s * (q - both)
            else:
                hill[i, d2] += s * (q - both)
        return
    wh, ps = (d1, d2) if s1 == WHIST else (d2, d1)
    w[i, wh, decl] += kw * defence
    hill[i, wh] += s * max(0, q - defence)
    if u and rules[RULE_GENTLEMAN]:
        total = w[i, wh, decl] + w[i, ps, decl]
        w[i, wh, decl] = total // 2
        w[i, ps, decl] = total // 2


@numba.njit(cache=True, inline="always")
def _raspasy(rules: I64, n: int, dealer: int, level: int, t: I64, i: int, pool: I64,
             hill: I16, w: I16) -> None:
    """All pass (7): level cost per trick above the fewest, zero bonus; hill or whists."""
    low = 10
    for k in range(1, 4):
        low = min(low, t[i, _seat(dealer + k, n)])
    if not rules[RULE_AMNESTY]:
        low = 0
    for k in range(1, 4):
        s = _seat(dealer + k, n)
        if t[i, s] == 0:
            pool[s] += rules[RULE_ZERO_BONUS]
            continue
        cost = rules[RULE_RASPASY_VALUE] * level * (t[i, s] - low)
        if rules[RULE_RASPASY_WHISTS]:
            for kk in range(1, 4):
                o = _seat(dealer + kk, n)
                if o != s:
                    w[i, o, s] += cost
        else:
            hill[i, s] += cost


@numba.njit(cache=True, inline="always")
def _write_pool(rules: I64, n: int, donor: int, points: int, pool: I64, hill: I64,
                dhill: I16, w: I16, i: int) -> None:
    """Pool points through the overflow (8); ``pool``/``hill`` are the game's running values."""
    target = rules[RULE_TARGET]
    own = min(points, max(0, target - pool[donor]))
    pool[donor] += own
    rest = points - own
    while rest > 0:
        to = -1
        for k in range(1, n):
            s = _seat(donor + k, n)
            if pool[s] < target and (to < 0 or pool[s] > pool[to]):
                to = s
        if to < 0:
            cut = rest if rules[RULE_BELOW_ZERO] else min(rest, max(0, hill[donor]))
            hill[donor] -= cut
            dhill[i, donor] -= cut
            return
        give = min(rest, target - pool[to])
        pool[to] += give
        w[i, donor, to] += 10 * give
        rest -= give


@numba.njit(cache=True, inline="always")
def _gain(i: int, n: int, d: int, to_hill: int, dpool: I16, dhill: I16, w: I16,
          gain: I16) -> None:
    """Deal ``i``'s ``D (W_ij - W_ji) + 10 (H_j - H_i)`` (8, ``reference.received``), with H
    the hill (less the pool with ``to_hill``): what the scan just wrote, still in cache. The
    three pairs of the first three seats are written out (a loop over pairs costs more than
    the arithmetic), then the fourth seat's pairs."""
    h0 = dhill[i, 0] - dpool[i, 0] * to_hill
    h1 = dhill[i, 1] - dpool[i, 1] * to_hill
    h2 = dhill[i, 2] - dpool[i, 2] * to_hill
    x = d * (w[i, 0, 1] - w[i, 1, 0]) + 10 * (h1 - h0)
    gain[i, 0, 1] = x
    gain[i, 1, 0] = -x
    x = d * (w[i, 0, 2] - w[i, 2, 0]) + 10 * (h2 - h0)
    gain[i, 0, 2] = x
    gain[i, 2, 0] = -x
    x = d * (w[i, 1, 2] - w[i, 2, 1]) + 10 * (h2 - h1)
    gain[i, 1, 2] = x
    gain[i, 2, 1] = -x
    if n == 4:
        h3 = dhill[i, 3] - dpool[i, 3] * to_hill
        for a in range(3):
            ha = dhill[i, a] - dpool[i, a] * to_hill
            x = d * (w[i, a, 3] - w[i, 3, a]) + 10 * (h3 - ha)
            gain[i, a, 3] = x
            gain[i, 3, a] = -x


@numba.njit(cache=True)
def _scan(game: I64, dealer: I64, declarer: I64, level: I64, misere: I64, d1: I64, d2: I64,
          s1: I64, s2: I64, tricks: I64, rules: I64, players: I64,
          dpool: I16, pool_after: I32, dhill: I16, hill_after: I32, w: I16,
          finished: npt.NDArray[np.bool_], after_end: npt.NDArray[np.bool_],
          gain: I16, divisor: I8) -> None:
    pool = np.zeros(4, dtype=np.int64)
    hill = np.zeros(4, dtype=np.int64)
    entry = np.zeros(4, dtype=np.int64)
    before = np.zeros(4, dtype=np.int64)
    r = np.zeros(rules.shape[1], dtype=np.int64)  # the game's rules, copied once per game
    run = 0
    ended = False
    d = 3
    for i in range(len(game)):
        g = game[i]
        n = players[g]
        if i == 0 or game[i - 1] != g:
            for k in range(r.size):
                r[k] = rules[g, k]
            for s in range(4):
                pool[s] = 0
                hill[s] = 0
            run = 0
            ended = False
            d = n if r[RULE_OWNER_SHARES] else n - 1
        divisor[i] = d
        if ended:
            after_end[i] = True
            continue
        for s in range(4):
            entry[s] = 0
        decl = declarer[i]
        if decl < 0:
            level_now = STEPS[r[RULE_PROGRESSION], min(run, 2)]
            _raspasy(r, n, dealer[i], level_now, tricks, i, entry, dhill, w)
            run += 1
        elif misere[i]:
            taken = tricks[i, decl]
            if taken == 0:
                entry[decl] += 10
            else:
                dhill[i, decl] += r[RULE_KMIS] * taken
            run = 0
        else:
            _contract(r, decl, level[i], d1[i], d2[i], s1[i], s2[i], tricks, i, entry, dhill, w)
            is_played = s1[i] == WHIST or s2[i] == WHIST or (s2[i] == HALF and r[RULE_HALF_PLAY])
            if is_played or r[RULE_RESET_ANY]:
                run = 0
        for s in range(n):
            hill[s] += dhill[i, s]
            before[s] = pool[s]
        for k in range(1, n + 1):
            s = _seat(dealer[i] + k, n)
            if entry[s]:
                _write_pool(r, n, s, entry[s], pool, hill, dhill, w, i)
        done = True
        for s in range(n):  # element by element: no temporary array per deal
            dpool[i, s] = pool[s] - before[s]
            pool_after[i, s] = pool[s]
            hill_after[i, s] = hill[s]
            done = done and pool[s] >= r[RULE_TARGET]
        finished[g] = done
        ended = done
        _gain(i, n, d, r[RULE_TO_HILL], dpool, dhill, w, gain)


def scan(c: Columns) -> Scan:
    """Every deal's pool, hill and whists (the running state across each game)."""
    m = len(c.game)
    out = Scan(
        pool=np.zeros((m, 4), np.int16), pool_after=np.zeros((m, 4), np.int32),
        hill=np.zeros((m, 4), np.int16), hill_after=np.zeros((m, 4), np.int32),
        whists=np.zeros((m, 4, 4), np.int16), finished=np.zeros(len(c.players), np.bool_),
        after_end=np.zeros(m, np.bool_), gain=np.zeros((m, 4, 4), np.int16),
        divisor=np.ones(m, np.int8),
    )
    _scan(c.game, c.dealer, c.declarer, c.level, c.misere, c.defender_1, c.defender_2,
          c.defence_1, c.defence_2, c.tricks, c.rules, c.players,
          out.pool, out.pool_after, out.hill, out.hill_after, out.whists, out.finished,
          out.after_end, out.gain, out.divisor)
    return out


def gains(c: Columns, s: Scan) -> tuple[I16, I8]:
    """Per deal, D times what i gains from j, ``D (W_ij - W_ji) + 10 (H_j - H_i)`` with H the
    hill (less the pool with ``to_hill``; 8, ``reference.received``), and D (deals x 4 x 4 and
    deals). Nothing in them runs across deals; the scan writes them as it closes each deal,
    while its entries are in cache (:func:`_gain`)."""
    return s.gain, s.divisor
