"""Balkan settlement, vectorised: every deal of every game of one rule set at once (numpy).

The same rules as ``reference.py`` (balkan.md 7.3-7.5), in two steps:

1. per deal, independent of the running state: what the outcome writes (made or not, soup
   tricks and penalties of each defender) comes from a table enumerating the finite domain of
   outcomes once per rule set (``outcome_table``); values and kontra factors then give the
   entries of a deal played without refa (every entry scales with the refa factor r, 7.2);
2. across deals: which deals write a refa and which declarer uses one. Without
   ``double_fall`` and ``refe_blocked_below_zero`` the state is a per-game counter with a floor
   at zero, solved in closed form (open refe = running sum minus its running minimum, per game),
   in chunks of whole games that stay in cache; with either flag the running bula matters, and a
   scan walks all games at once, one deal index per step (STYLE.md practice 4).
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
    refa: Ints
    """r per deal (1 or 2; 1 where nobody used a refa)."""
    bula_delta: Ints
    """(N, 4)."""
    soups: Ints
    """(N, 4): written by each seat against the declarer this deal."""
    bula_after: Ints
    """(N, 4), 0 for seats beyond the game's players."""
    finished: B


@dataclass(frozen=True, slots=True)
class Base:
    """One deal's entries at r = 1, by role: declarer ``d`` and the defenders ``a`` (the one
    on the declarer's left in turn order, who speaks first) and ``b``."""

    d: Ints
    a: Ints
    b: Ints
    bula_d: Ints
    bula_a: Ints
    bula_b: Ints
    soup_a: Ints
    soup_b: Ints
    lost: Ints
    """The declarer's entry when he lost a played contract (for the double fall), else 0."""


def _pick(cols: Ints, seat: Ints, width: int) -> Ints:
    """``cols[seat[i], i]`` for seat-major ``cols`` (4, N), by masks (no 2-D fancy gather)."""
    out = cols[0].copy()
    for s in range(1, width):
        out = np.where(seat == s, cols[s], out)
    return out


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


_SPAN = (3, len(MODES), 11, 12, 12, 2, 2, 2)
"""Key domain: game class, mode, declarer's tricks, tricks of a and b (+1), a leads, a and b
kontra'd."""


def _key(cls: Ints, mode: Ints, t_d: Ints, t_a: Ints, t_b: Ints, lead_a: Ints | B,
         kp_a: Ints | B, kp_b: Ints | B) -> Ints:
    k = cls
    for x, n in zip((mode, t_d, t_a + 1, t_b + 1, lead_a, kp_a, kp_b), _SPAN[1:], strict=True):
        k = k * n + x
    return k


@functools.lru_cache(maxsize=64)
def outcome_table(rules: BalkanRules) -> npt.NDArray[np.int32]:
    """Every outcome of the finite key domain, evaluated once per rule set and packed:
    bit 0 made, bits 1-5 / 6-10 soup tricks of a / b, bit 11 / 12 a / b penalised
    (STYLE.md practice 4: enumerate the finite domain, settle by lookup)."""
    grids = np.meshgrid(*(np.arange(n) for n in _SPAN), indexing="ij")
    cls, mode, t_d, t_a, t_b, lead_a, kp_a, kp_b = (g.ravel() for g in grids)
    made, wa, wb, fa, fb = _outcome(rules, cls, mode, t_d, t_a - 1, t_b - 1, lead_a == 1,
                                    kp_a == 1, kp_b == 1)
    packed = made.astype(np.int32) | (wa << 1) | (wb << 6) | (fa.astype(np.int32) << 11) | (
        fb.astype(np.int32) << 12)
    table = np.empty(packed.size, np.int32)
    table[_key(cls, mode, t_d, t_a - 1, t_b - 1, lead_a, kp_a, kp_b)] = packed
    return table


def _base(rules: BalkanRules, d: Deals) -> Base:
    """Entries at r = 1 of every deal (7.2-7.3, 5.2), by role: the outcome by table lookup,
    then values and kontra factors."""
    width = int(d.n_players.max())
    has_dec = d.declarer >= 0
    dec = np.where(has_dec, d.declarer, 0)
    a = _next_active(dec, d.dealer, d.n_players)
    b = _next_active(a, d.dealer, d.n_players)
    v = rules.value_scale * (d.number + rules.igra_increment * d.igra) * has_dec
    tricks, kontra = d.tricks.T, d.kontra.T
    t_d = np.maximum(_pick(tricks, dec, width), 0)
    t_a = np.maximum(_pick(tricks, a, width), -1)
    t_b = np.maximum(_pick(tricks, b, width), -1)
    k_a = np.where(t_a >= 0, _pick(kontra, a, width), 0)
    k_b = np.where(t_b >= 0, _pick(kontra, b, width), 0)
    cls = (d.number == 6) + 2 * (d.number == 8)
    key = _key(cls, d.mode, t_d, t_a, t_b, d.lead == a, k_a > 0, k_b > 0)
    packed = outcome_table(rules)[key]
    made = (packed & 1).astype(bool)
    m_a = np.left_shift(np.int64(1), k_a)
    m_b = np.left_shift(np.int64(1), k_b)
    big = np.maximum(m_a, m_b)
    if rules.kontra_scope == "pairwise":
        f_a, f_b = v * m_a, v * m_b
    else:
        f_a = f_b = v * big
    entry = v * big
    active = has_dec & (d.mode != M_NONE)
    bula_d = np.where(made, -entry, entry) * active
    soup_a = f_a * ((packed >> 1) & 31)
    soup_b = f_b * ((packed >> 6) & 31)
    bula_a = f_a * ((packed >> 11) & 1)
    bula_b = f_b * ((packed >> 12) & 1)
    lost = np.where(made, 0, entry)
    return Base(dec, a, b, bula_d, bula_a, bula_b, soup_a, soup_b, lost)


def _starts(game: Ints) -> Ints:
    """Row index of the first deal of each row's game."""
    first = np.ones(len(game), bool)
    first[1:] = game[1:] != game[:-1]
    idx = np.nonzero(first)[0]
    return np.repeat(idx, np.diff(np.append(idx, len(game))))


def _exclusive_cumsum(x: Ints, start: Ints) -> Ints:
    """Running sum of the rows before each row within its game."""
    c = np.cumsum(x) - x
    return c - c[start]


def _group_cummin(x: Ints, game: Ints, span: int) -> Ints:
    """Running minimum restarted per game: offsets make each game's values lower than every
    earlier game's, so a global running minimum never reaches back across games."""
    off = (game - game[0]) * span
    return np.minimum.accumulate(x - off) + off


CHUNK = 1 << 15
"""Deals per kernel pass (whole games): the working set stays in cache."""


def book(rules: BalkanRules, d: Deals) -> Booked:
    """Settle every deal of ``d`` under ``rules`` (balkan.md 7)."""
    n = len(d.game)
    if n == 0 or not (rules.double_fall or rules.refe_blocked_below_zero):
        # seat-major buffers (contiguous per seat), returned as (N, 4) views
        # int32 like the table columns; seat-major buffers returned as (N, 4) views
        delta, soups, after = (np.zeros((SEATS, n), np.int32).T for _ in range(3))
        out = Booked(np.ones(n, np.int8), delta, soups, after, np.zeros(n, bool))
    if n == 0:
        return out
    if rules.double_fall or rules.refe_blocked_below_zero:
        return _scan(rules, d, _base(rules, d))
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
    """The closed form (no double fall, no blocked refe): open refe per seat are a running
    sum floored at zero, O = X - min(0, running min of X)."""
    n = len(d.game)
    hi = lo + n
    base = _base(rules, d)
    start = _starts(d.game)
    width = int(d.n_players.max())
    mixed = int(d.n_players.min()) != width
    span = 2 * int(np.bincount(d.game - d.game[0]).max()) + 2
    candidate = d.mode == M_NONE
    if rules.pik_without_kontra == "refa_then_declarer_scores":
        candidate |= d.mode == M_NOKONTRA
    candidate &= ~d.repealed
    if rules.max_refe is not None:
        cand = candidate.astype(np.int32)
        candidate &= _exclusive_cumsum(cand, start) < rules.max_refe
    write = candidate
    scoring = (d.declarer >= 0) & ~d.repealed & ~write
    used = np.zeros(n, bool)
    if write.any():
        w = write.astype(np.int32)
        for s in range(width):
            claim = scoring & (base.d == s)
            step = (w * (s < d.n_players) if mixed else w) - claim
            prev = _exclusive_cumsum(step, start)
            used |= claim & (prev > _group_cummin(prev, d.game, span))
    r = 1 + used
    out.refa[lo:hi] = r
    rs = r * scoring
    bd, ba, bb = base.bula_d * rs, base.bula_a * rs, base.bula_b * rs
    sa, sb = base.soup_a * rs, base.soup_b * rs
    delta_t, soups_t, after_t = out.bula_delta.T, out.soups.T, out.bula_after.T
    total = np.zeros(n, np.int64)
    top = np.full(n, -1, np.int64)
    for s in range(width):
        is_a, is_b = base.a == s, base.b == s
        col = delta_t[s, lo:hi]
        np.copyto(col, np.where(base.d == s, bd, 0) + np.where(is_a, ba, 0)
                  + np.where(is_b, bb, 0))
        soups_t[s, lo:hi] = np.where(is_a, sa, 0) + np.where(is_b, sb, 0)
        c = np.cumsum(col)
        run = c - (c - col)[start] + rules.start_bula
        if mixed:
            in_game = s < d.n_players
            run *= in_game
            top = np.maximum(top, np.where(in_game, run, -1))
        else:
            top = np.maximum(top, run)
        after_t[s, lo:hi] = run
        total += run
    over = (top <= 0) if rules.end_condition == "all_bulas_le_zero" else (total <= 0)
    ov = over.astype(np.int32)
    out.finished[lo:hi] = (_exclusive_cumsum(ov, start) + ov) > 0


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
    rows = np.arange(n)
    bula_base = np.zeros((n, SEATS), np.int64)
    bula_base[rows, base.d] = base.bula_d
    bula_base[rows, base.a] += base.bula_a
    bula_base[rows, base.b] += base.bula_b
    soup_base = np.zeros((n, SEATS), np.int64)
    soup_base[rows, base.a] = base.soup_a
    soup_base[rows, base.b] += base.soup_b
    candidate = d.mode == M_NONE
    if rules.pik_without_kontra == "refa_then_declarer_scores":
        candidate |= d.mode == M_NOKONTRA
    candidate = (candidate & ~d.repealed)[at] & valid
    declared = ((d.declarer >= 0) & ~d.repealed)[at] & valid
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
        has = score & (open_refe[g, ds] > 0)
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
    r_out = np.ones(n, np.int64)
    r_out[idx] = r_s[valid]
    scoring = np.zeros(n, bool)
    scoring[idx] = score_s[valid]
    delta_out = np.zeros((n, SEATS), np.int64)
    delta_out[idx] = delta_s[valid]
    after_out = np.zeros((n, SEATS), np.int64)
    after_out[idx] = after_s[valid]
    fin_out = np.zeros(n, bool)
    fin_out[idx] = fin_s[valid]
    soups = soup_base * (r_out * scoring)[:, None]
    return Booked(r_out, delta_out, soups, after_out, fin_out)
