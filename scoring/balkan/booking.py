"""Balkan settlement, vectorised: every deal of every game of one rule set at once (numpy).

The same rules as ``reference.py`` (balkan.md 7.3-7.5), in two steps:

1. per deal, independent of the running state: what the outcome writes (made or not, soup
   tricks and penalties of each defender) comes from a table enumerating the finite domain of
   outcomes once per rule set (``outcome_table``); values and kontra factors then give the
   entries of a deal played without refa (every entry scales with the refa factor r, 7.2);
2. across deals, in chunks of whole games that stay in cache: which deals write a refa and
   which declarer uses one (a per-seat counter floored at zero, in closed form: open refe =
   running sum minus its running minimum, the minimum taken over the stretches between
   written refe only); entries into seat rows; the running bula and the end of the game with
   one restarted ``cumsum`` each; under ``double_fall`` a short scan over the few lost
   contracts that could exceed the bula left (one per game per step). With
   ``refe_blocked_below_zero`` the running bula decides the refe, and a scan walks all games
   at once, one deal index per step (STYLE.md practice 4).

The chunked path is int32 on (seats, deals) rows; no Python loop runs over deals.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from model.balkan.frame import MODES
from model.balkan.params import BalkanRules

Ints = npt.NDArray[np.signedinteger[Any]]
"""Integer arrays (int32 inputs, int64 entries)."""
B = npt.NDArray[np.bool_]

M_NONE, M_PASS, M_NOKONTRA, M_BOTH, M_INVITE, M_ALONE = range(len(MODES))
SEATS = 4


@dataclass(frozen=True, slots=True)
class Deals:
    """Flat arrays of one rule set's deals, sorted by game then deal number."""

    game: Ints
    """Game index 0..G-1, non-decreasing."""
    n_players: Ints
    dealer: Ints
    declarer: Ints
    """-1 when nobody declared."""
    number: Ints
    igra: B
    mode: Ints
    """Index into ``MODES``."""
    lead: Ints
    """Inviter / lone defender seat, -1 otherwise."""
    kontra: Ints
    """(N, 4) chain lengths."""
    tricks: Ints
    """(N, 4), -1 where the seat took no part in the play."""
    repealed: B

    def rows(self, lo: int, hi: int) -> Deals:
        return Deals(*(getattr(self, f)[lo:hi] for f in self.__slots__))  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Booked:
    """What every deal books. Seat arrays are (N, seats): ``seats`` is 4 from the reference and
    the most players at a table (3 or 4) from the kernel."""

    refa: Ints
    """r per deal (1 or 2; 1 where nobody used a refa)."""
    bula_delta: Ints
    """(N, seats)."""
    soups: Ints
    """(N, seats): written by each seat against the declarer this deal."""
    bula_after: Ints
    """(N, seats), 0 for seats beyond the game's players."""
    finished: B


@dataclass(frozen=True, slots=True)
class Base:
    """One deal's entries (at r = 1 or scaled, see ``_base``), by role: declarer ``d`` and the
    defenders ``a`` (the one on the declarer's left in turn order, who speaks first) and
    ``b``."""

    d: Ints
    a: Ints
    b: Ints
    bula_d: Ints
    bula_a: Ints
    bula_b: Ints
    soup_a: Ints
    soup_b: Ints
    lost: Ints
    """The declarer's entry when he lost a played contract, else 0 (for the double fall; only
    filled under ``double_fall`` or ``refe_blocked_below_zero``, else the plain entry)."""


def _next_active(seat: Ints, dealer: Ints, n_players: Ints) -> Ints:
    nxt = seat + 1
    nxt = np.where(nxt >= n_players, 0, nxt)
    skip = (n_players == 4) & (nxt == dealer)
    return np.where(skip, np.where(nxt + 1 >= n_players, 0, nxt + 1), nxt)


def _outcome(rules: BalkanRules, cls: Ints, mode: Ints, t_d: Ints, t_a: Ints, t_b: Ints,
             lead_a: B, kp_a: B, kp_b: B) -> tuple[B, Ints, Ints, B, B]:
    """What a deal's outcome writes, before values and factors (7.3, 5.2): whether the declarer
    made it, the tricks each defender role writes soup for, and whether it is penalised.
    ``cls`` 0 a trick game, 1 Bettel, 2 Preferans; ``t_a``/``t_b`` -1 for a role out of play."""
    played = mode >= M_BOTH
    betl, pref = cls == 1, cls == 2
    on_a, on_b = played & (t_a >= 0), played & (t_b >= 0)
    ta, tb = np.where(on_a, t_a, 0), np.where(on_b, t_b, 0)
    kp_a, kp_b = kp_a & on_a, kp_b & on_b
    defence = ta + tb
    made = np.where(betl, t_d == 0, np.where(pref, t_d == 10, t_d >= 6)) | ~played
    lost = ~made
    invite, alone = mode == M_INVITE, mode == M_ALONE
    takes_all = (rules.kontra_scope == "kontra_player_takes_all") & (kp_a | kp_b)
    out = []
    for t, on, kp, is_lead, first in ((ta, on_a, kp_a, lead_a, True),
                                      (tb, on_b, kp_b, ~lead_a, False)):
        w = np.where(invite, is_lead * defence, t) if rules.invited_soups == "to_inviter" else t
        if rules.bettel_fail_soup == "five_tricks":
            betl_w = 5 * (on & lost)
        elif rules.bettel_fail_soup == "tricks_taken":
            betl_w = t * (on & lost)
        else:
            betl_w = np.zeros_like(t)
        w = np.where(betl, betl_w, w)
        if rules.bettel_fail_soup == "tricks_taken":
            total = np.where(betl, defence * lost, defence)
        else:
            five = 5 if rules.bettel_fail_soup == "five_tricks" else 0
            total = np.where(betl, five * lost * (on_a.astype(np.int64) + on_b), defence)
        mine = kp if first else kp & ~kp_a
        w = np.where(takes_all, total * mine, w) * on
        ordinary = t < 2 if rules.defender_fail == "individual_two" else (defence < 4) & (t < 2)
        ordinary = np.where(alone, t < 2, ordinary)
        ordinary = np.where(invite, is_lead & (defence < 4), ordinary)
        ordinary &= ~(betl | pref)
        fails = on & made & np.where(kp, True, ordinary & ~takes_all)
        out.append((w, fails))
    return made, out[0][0], out[1][0], out[0][1], out[1][1]


_SPAN = (3, len(MODES), 2, 12, 12, 2, 2, 2)
"""Key domain: game class, mode, the declarer took his contract's tricks, tricks of a and b
(+1), a leads, a and b kontra'd."""

_TAKEN = ((6, 0), (0, 1), (10, 0))
"""A declarer's trick count that does / does not reach the contract, by game class (7.3):
six or more, none in Bettel, all ten in Preferans."""


def _key(cls: Ints, mode: Ints, won: Ints, t_a: Ints, t_b: Ints, lead_a: Ints | B,
         kp_a: Ints | B, kp_b: Ints | B) -> Ints:
    k = cls
    for x, n in zip((mode, won, t_a + 1, t_b + 1, lead_a, kp_a, kp_b), _SPAN[1:], strict=True):
        k = k * n + x
    return k


@functools.lru_cache(maxsize=64)
def outcome_table(rules: BalkanRules) -> npt.NDArray[np.int32]:
    """Every outcome of the finite key domain, evaluated once per rule set and packed:
    bit 0 made, bits 1-5 / 6-10 soup tricks of a / b, bit 11 / 12 a / b penalised, bits 13-14
    the sign of the declarer's bula entry plus one (0 for an all-pass deal)
    (STYLE.md practice 4: enumerate the finite domain, settle by lookup). Small enough
    (166 KB) to stay in cache."""
    grids = np.meshgrid(*(np.arange(n) for n in _SPAN), indexing="ij")
    cls, mode, won, t_a, t_b, lead_a, kp_a, kp_b = (g.ravel() for g in grids)
    t_d = np.array(_TAKEN)[cls, 1 - won]
    made, wa, wb, fa, fb = _outcome(rules, cls, mode, t_d, t_a - 1, t_b - 1, lead_a == 1,
                                    kp_a == 1, kp_b == 1)
    sign = np.where(mode == M_NONE, 0, np.where(made, -1, 1))
    packed = made.astype(np.int32) | (wa << 1) | (wb << 6) | (fa.astype(np.int32) << 11) | (
        fb.astype(np.int32) << 12) | ((sign + 1) << 13)
    table = np.empty(packed.size, np.int32)
    table[_key(cls, mode, won, t_a - 1, t_b - 1, lead_a, kp_a, kp_b)] = packed
    return table


def _roles() -> npt.NDArray[np.int32]:
    """Seats of the defenders ``a`` and ``b`` by ``declarer + 4 * dealer + 16 * [four players]``
    (2, 1: the dealer sits out at four), packed ``a | b << 2``."""
    out = np.zeros(32, np.int32)
    for four in (0, 1):
        n = 3 + four
        for dealer in range(4):
            for dec in range(4):
                a = _next_active(np.array([dec]), np.array([dealer]), np.array([n]))
                b = _next_active(a, np.array([dealer]), np.array([n]))
                out[dec + 4 * dealer + 16 * four] = int(a[0]) | int(b[0]) << 2
    return out


ROLES = _roles()
"""See :func:`_roles`."""


@functools.lru_cache(maxsize=64)
def contract_table(rules: BalkanRules) -> npt.NDArray[np.int32]:
    """By ``256 * number + 32 * mode + 16 * igra + declarer's tricks + 1``: the outcome key's
    first digits ``2 * (6 * class + mode) + [the contract's tricks taken]`` (class 0 a trick
    game, 1 Bettel, 2 Preferans; 7.3) in bits 0-7 and the value v = s * (n + igra) (7.2)
    above them."""
    number, mode, igra, t_d = np.meshgrid(np.arange(16), np.arange(8), np.arange(2),
                                          np.arange(-1, 15), indexing="ij")
    cls = (number == 6) + 2 * (number == 8)
    won = np.where(cls == 1, t_d == 0, np.where(cls == 2, t_d == 10, t_d >= 6))
    v = rules.value_scale * (number + rules.igra_increment * igra) * (number > 0)
    out = (2 * (len(MODES) * cls + mode) + won) | v << 8
    return out.ravel().astype(np.int32)


_STRIDES = tuple(int(np.prod(_SPAN[i + 1:])) for i in range(len(_SPAN)))
"""Place value of each digit of the outcome key."""


def _base(rules: BalkanRules, d: Deals, rs: Ints | None = None) -> Base:
    """Entries of every deal (7.2-7.3, 5.2) at r = 1, or scaled by ``rs`` (r, 0 where the deal
    does not score), by role: the outcome by table lookup, then values and kontra factors.
    Role values are gathered from the flat (N, 4) rows (one ``take`` each); everything stays
    int32 and most steps work in place."""
    n = len(d.game)
    dec = np.maximum(d.declarer, 0)
    at = d.dealer << 2
    at += dec
    if int(d.n_players.max()) == 4:
        at += (d.n_players - 3) << 4
    roles = ROLES.take(at)
    a = roles & 3
    b = roles >> 2
    row = np.arange(0, 4 * n, 4, dtype=np.int32)
    tricks = np.ascontiguousarray(d.tricks, dtype=np.int32).ravel()
    kontra = np.ascontiguousarray(d.kontra, dtype=np.int32).ravel()
    at_d, at_a, at_b = row + dec, row + a, row + b
    t_a = tricks.take(at_a)
    t_b = tricks.take(at_b)
    k_a = kontra.take(at_a)
    k_a *= t_a >= 0
    k_b = kontra.take(at_b)
    k_b *= t_b >= 0
    at = tricks.take(at_d)
    at += 1
    at += d.number << 8
    at += d.mode << 5
    at += d.igra * np.int32(16)
    cv = contract_table(rules).take(at)
    v = cv >> 8  # deals without a declarer never score (r * score is 0 there)
    if rs is not None:
        v *= rs
    s = _STRIDES
    key = (cv & 255) * s[2]
    key += t_a * s[3]
    key += t_b * s[4]
    key += (d.lead == a) * np.int32(s[5])
    key += (k_a > 0) * np.int32(s[6])
    key += k_b > 0
    key += s[3] + s[4]  # tricks -1 (out of play) are digit 0
    packed = outcome_table(rules).take(key)
    top = np.maximum(k_a, k_b)
    entry = v << top
    if rules.kontra_scope == "pairwise":
        f_a, f_b = v << k_a, v << k_b
    else:
        f_a = f_b = entry
    sign = (packed >> 13) & 3
    sign -= 1
    bula_d = entry * sign
    soup_a = f_a * ((packed >> 1) & 31)
    soup_b = f_b * ((packed >> 6) & 31)
    bula_a = f_a * ((packed >> 11) & 1)
    bula_b = f_b * ((packed >> 12) & 1)
    lost = entry * ((packed & 1) ^ 1) if rules.double_fall or rules.refe_blocked_below_zero \
        else entry
    return Base(dec, a, b, bula_d, bula_a, bula_b, soup_a, soup_b, lost)


def _firsts(game: Ints) -> npt.NDArray[np.intp]:
    """Row index of each game's first deal."""
    first = np.empty(len(game), bool)
    first[0] = True
    np.not_equal(game[1:], game[:-1], out=first[1:])
    return np.flatnonzero(first)


def _restarted_cumsum(x: Ints, firsts: npt.NDArray[np.intp], out: Ints | None = None) -> Ints:
    """Running sum (inclusive, int32) along the last axis, restarted at each game's first row:
    each game's first value is lowered by the previous game's total, so one plain ``cumsum``
    does it in place (no per-row gather)."""
    if out is None:
        y = x.astype(np.int32)
    else:
        y = out
        np.copyto(y, x)
    if len(firsts) > 1:
        totals = np.add.reduceat(x, firsts, axis=-1, dtype=np.int32)
        y[..., firsts[1:]] -= totals[..., :-1]
    return np.cumsum(y, axis=-1, out=y)


CHUNK = 1 << 16
"""Deals per kernel pass (whole games): the working set stays in cache."""


def book(rules: BalkanRules, d: Deals) -> Booked:
    """Settle every deal of ``d`` under ``rules`` (balkan.md 7)."""
    n = len(d.game)
    if n and rules.refe_blocked_below_zero:
        return _scan(rules, d, _base(rules, d))
    # seat-major buffers (contiguous per seat), returned as (N, seats) views
    seats = int(d.n_players.max()) if n else SEATS
    delta, soups, after = (np.zeros((seats, n), np.int32).T for _ in range(3))
    out = Booked(np.ones(n, np.int8), delta, soups, after, np.zeros(n, bool))
    lo = 0
    while lo < n:
        hi = min(lo + CHUNK, n)
        if hi < n:  # end the chunk at a game boundary
            hi = int(np.searchsorted(d.game, d.game[hi - 1], side="left"))
            if hi <= lo:
                hi = int(np.searchsorted(d.game, d.game[lo], side="right"))
        _book_chunk(rules, d.rows(lo, hi), out, lo)
        lo = hi
    return out


def _book_chunk(rules: BalkanRules, d: Deals, out: Booked, lo: int) -> None:
    """Whole games without ``refe_blocked_below_zero``: the refe do not depend on the bula, so
    open refe per seat are a running sum floored at zero, O = X - min(0, running min of X)
    (7.4); the double fall (7.5) is then a short scan over the few lost contracts that could
    exceed the bula left, one per game per step. Seats are rows of (seats, deals) arrays."""
    n = len(d.game)
    hi = lo + n
    firsts = _firsts(d.game)
    width = int(d.n_players.max())
    mixed = int(d.n_players.min()) != width
    seat = np.arange(width, dtype=np.int32)[:, None]
    candidate = d.mode == M_NONE
    if rules.pik_without_kontra == "refa_then_declarer_scores":
        candidate |= d.mode == M_NOKONTRA
    candidate &= ~d.repealed
    if rules.max_refe is not None:
        c = candidate.astype(np.int32)
        candidate &= _restarted_cumsum(c, firsts) - c < rules.max_refe
    scoring = (d.declarer >= 0) & ~d.repealed & ~candidate
    rs = scoring.astype(np.int32)
    dec = np.maximum(d.declarer, 0)
    is_d = seat == dec
    if candidate.any():
        claims = scoring | _held(rules, d)
        used = _refe_used(d, dec, is_d & claims, candidate, firsts) & claims
        rs <<= used
        out.refa[lo:hi] += used
    base = _base(rules, d, rs)
    bd, ba, bb = base.bula_d, base.bula_a, base.bula_b
    if rules.double_fall:
        moved = bd + ba
        moved += bb
        before = _restarted_cumsum(moved, firsts)
        before -= moved
        before += rules.start_bula * d.n_players  # the sum of the bulas before each deal
        extra = _double_fall(d, base.lost, before, firsts)
        if extra is not None:
            bd += extra
    is_a, is_b = seat == base.a, seat == base.b
    delta = out.bula_delta.T[:width, lo:hi]
    np.multiply(is_d, bd, out=delta)
    delta += is_a * ba
    delta += is_b * bb
    soups = out.soups.T[:width, lo:hi]
    np.multiply(is_a, base.soup_a, out=soups)
    soups += is_b * base.soup_b
    after = out.bula_after.T[:width, lo:hi]
    _restarted_cumsum(delta, firsts, out=after)
    after += rules.start_bula
    if mixed:
        after *= seat < d.n_players
    if rules.end_condition == "all_bulas_le_zero":
        top = np.where(seat < d.n_players, after, -1) if mixed else after
        over = top.max(axis=0) <= 0
    else:
        left = after[0] + after[1]  # the sum of the bulas after each deal
        for s in range(2, width):
            left += after[s]
        over = left <= 0
    out.finished[lo:hi] = _restarted_cumsum(over.view(np.int8), firsts) > 0


def _held(rules: BalkanRules, d: Deals) -> B:
    """Repealed contracts that still use their declarer's refa (``repeal_revalues = false``, the
    club's scorer fixes a hand's value when it is played): declared, not a Pik without kontra
    that writes a refa."""
    held = (d.declarer >= 0) & d.repealed & (d.mode != M_NONE)
    if rules.repeal_revalues:
        held[:] = False
    elif rules.pik_without_kontra == "refa_then_declarer_scores":
        held &= d.mode != M_NOKONTRA
    return held


def _refe_used(d: Deals, dec: Ints, claim: B, write: B,
               firsts: npt.NDArray[np.intp]) -> B:
    """Which deals would use a refa of their declarer (7.4; only the scoring ones do), in
    closed form.

    Per seat, X = refe written minus contracts declared before the deal; the open refe are
    O = X - min(0, running min of X) and a declared contract uses one when O > 0. Between two
    writes X only falls, so the running min at a deal is the smaller of X there and the least
    X at the ends of the game's earlier stretches: the running min only needs the stretch
    ends (one per written refa), a few times fewer values than deals. (A seat beyond a
    game's players never declares, so it needs no mask.)"""
    n = len(d.game)
    step = write.astype(np.int32) - claim
    x = _restarted_cumsum(step, firsts)
    x -= step  # X before each deal
    opens = np.zeros(n, bool)
    opens[firsts] = True
    opens[1:] |= write[:-1]
    starts = np.flatnonzero(opens)
    ends = np.append(starts[1:] - 1, n - 1)
    stretch = np.cumsum(opens, dtype=np.int32)
    stretch -= 1
    at_end = x.take(ends, axis=1)
    game = d.game[starts]
    span = 2 * int(np.diff(np.append(firsts, n)).max()) + 2
    off = (game - game[0]) * np.int32(span)
    low = np.minimum.accumulate(at_end - off, axis=1)
    low += off
    floor = np.empty_like(low)  # least X at the ends of the earlier stretches of the game
    floor[:, 1:] = low[:, :-1]
    floor[:, np.searchsorted(starts, firsts)] = span  # a game's first stretch: none earlier
    at = dec * np.int32(n)
    at += np.arange(n, dtype=np.int32)
    mine = x.ravel().take(at)
    at = dec * np.int32(len(starts))
    at += stretch
    return mine > floor.ravel().take(at)


def _double_fall(d: Deals, fall: Ints, left: Ints, firsts: npt.NDArray[np.intp]) -> Ints | None:
    """The declarer's extra entry under ``double_fall`` (7.5): a lost contract whose entry
    exceeds the sum of the bulas before the deal is booked twice. Extras only raise that sum,
    so only deals that exceed it without any extra can fall twice; those are walked in order,
    one per game per step (the k-th such deal of every game at once). ``left``: the sum of
    the bulas before each deal; ``None`` when no deal falls twice."""
    maybe = np.flatnonzero(fall > np.maximum(left, 0))
    if maybe.size == 0:
        return None
    extra = np.zeros(len(d.game), np.int32)
    g = d.game[maybe] - d.game[0]
    first = np.ones(maybe.size, bool)
    first[1:] = g[1:] != g[:-1]
    heads = np.flatnonzero(first)
    rank = np.arange(maybe.size) - np.repeat(heads, np.diff(np.append(heads, maybe.size)))
    order = np.argsort(rank, kind="stable")
    bounds = np.append(0, np.cumsum(np.bincount(rank)))
    acc = np.zeros(int(g[-1]) + 1, np.int32)
    for k in range(len(bounds) - 1):
        at = order[bounds[k]:bounds[k + 1]]
        rows, games = maybe[at], g[at]
        f = fall[rows]
        twice = f > left[rows] + acc[games]
        add = f * twice
        extra[rows] = add
        acc[games] += add
    return extra


def _scan(rules: BalkanRules, d: Deals, base: Base) -> Booked:
    """The general case: one deal index per step across all games (the running bula decides
    double falls and blocked refe). Inputs are laid out step-major once, so every step works
    on contiguous rows of all games."""
    n = len(d.game)
    n_games = int(d.game[-1]) + 1
    start = np.searchsorted(d.game, np.arange(n_games))
    pos = np.arange(n) - start[d.game]
    width = int(pos.max()) + 1
    order = np.full((width, n_games), -1, np.int64)
    order[pos, d.game] = np.arange(n)
    valid = order >= 0
    at = np.where(valid, order, 0)
    players = np.zeros(n_games, np.int64)
    players[d.game] = d.n_players
    in_game = np.arange(SEATS)[None, :] < players[:, None]
    bula_base, soup_base = _by_seat(base, n)
    candidate = d.mode == M_NONE
    if rules.pik_without_kontra == "refa_then_declarer_scores":
        candidate |= d.mode == M_NOKONTRA
    candidate = (candidate & ~d.repealed)[at] & valid
    declared = ((d.declarer >= 0) & ~d.repealed)[at] & valid
    held = _held(rules, d)[at] & valid
    dec_s = base.d[at]
    base_s = bula_base[at]
    lost_s = base.lost[at]
    bula = np.where(in_game, rules.start_bula, 0).astype(np.int64)
    open_refe = np.zeros((n_games, SEATS), np.int64)
    written = np.zeros(n_games, np.int64)
    fin = np.zeros(n_games, bool)
    r_s = np.ones((width, n_games), np.int64)
    score_s = np.zeros((width, n_games), bool)
    delta_s = np.zeros((width, n_games, SEATS), np.int64)
    after_s = np.zeros((width, n_games, SEATS), np.int64)
    fin_s = np.zeros((width, n_games), bool)
    g = np.arange(n_games)
    big = np.iinfo(np.int64).max
    for k in range(width):
        allowed = valid[k].copy()
        if rules.max_refe is not None:
            allowed &= written < rules.max_refe
        if rules.refe_blocked_below_zero:
            allowed &= np.where(in_game, bula, big).min(axis=1) >= 0
        write = candidate[k] & allowed
        open_refe += write[:, None] & in_game
        written += write
        score = declared[k] & ~write
        ds = dec_s[k]
        has = (score | held[k]) & (open_refe[g, ds] > 0)
        open_refe[g, ds] -= has
        r = 1 + has
        delta = base_s[k] * (r * score)[:, None]
        if rules.double_fall:
            fall = lost_s[k] * r
            twice = score & (fall > 0) & (fall > bula.sum(axis=1))
            delta[g, ds] += fall * twice
        bula += delta
        r_s[k] = r
        score_s[k] = score
        delta_s[k] = delta
        after_s[k] = bula
        if rules.end_condition == "all_bulas_le_zero":
            fin |= valid[k] & (np.where(in_game, bula, -1).max(axis=1) <= 0)
        else:
            fin |= valid[k] & (bula.sum(axis=1) <= 0)
        fin_s[k] = fin
    idx = order[valid]
    r_out, scoring, delta_out, after_out, fin_out = (
        _deal_major(idx, step[valid], n, fill)
        for step, fill in ((r_s, 1), (score_s, False), (delta_s, 0), (after_s, 0), (fin_s, False)))
    soups = soup_base * (r_out * scoring)[:, None]
    return Booked(r_out, delta_out, soups, after_out, fin_out)


def _by_seat(base: Base, n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each deal's bula change and soups before the refe factor, as (deals, seats) arrays: the
    declarer's and both defenders' bula entries, the defenders' soups."""
    rows = np.arange(n)
    bula_base = np.zeros((n, SEATS), np.int64)
    bula_base[rows, base.d] = base.bula_d
    bula_base[rows, base.a] += base.bula_a
    bula_base[rows, base.b] += base.bula_b
    soup_base = np.zeros((n, SEATS), np.int64)
    soup_base[rows, base.a] = base.soup_a
    soup_base[rows, base.b] += base.soup_b
    return bula_base, soup_base


def _deal_major(idx: npt.NDArray[np.int64], values: npt.NDArray[Any], n: int,
                fill: int | bool) -> npt.NDArray[Any]:
    """Step-major ``values`` (those of the deals at input rows ``idx``) back in input order,
    ``fill`` where no deal."""
    out = np.full((n, *values.shape[1:]), fill, values.dtype)
    out[idx] = values
    return out
