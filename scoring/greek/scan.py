"""The kassa across deals, vectorised over games (``../shared/spec/greek-prefa.md`` 10, 11).

Deals are laid out step-major: deal 1 of every game, then deal 2 of every game, ...; games are
ranked longest first so that the games still running at step k are a prefix of the state array
(games x 4 seats). One step per deal index applies every running game's kassa change at once;
the floor and overflow (10) and the end-of-game payment (11) touch only the few rows that need
them. Their chips are the only fractional ones and are kept in sixths of a chip.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
B = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.signedinteger[Any]]

SIXTHS = 6
CHIPS_PER_POINT = 10
SEATS = np.arange(4)[None, :]


@dataclass
class Sparse:
    """Overflow and end-of-game payments: (deal, payer seat, payee seat, chips in sixths)."""

    deal: list[Ints] = field(default_factory=list)
    payer: list[Ints] = field(default_factory=list)
    payee: list[Ints] = field(default_factory=list)
    amount: list[Ints] = field(default_factory=list)

    def add(self, deal: Ints, payer: Ints, payee: Ints, amount: Ints) -> None:
        """Recorded as given; payments of 0 are dropped once, in ``arrays``."""
        self.deal.append(deal)
        self.payer.append(payer)
        self.payee.append(payee)
        self.amount.append(amount)

    def arrays(self) -> tuple[I64, I64, I64, I64]:
        if not self.deal:
            e = np.zeros(0, np.int64)
            return e, e, e, e
        d, a, b, x = (np.concatenate(c).astype(np.int64)
                      for c in (self.deal, self.payer, self.payee, self.amount))
        keep = x > 0
        return d[keep], a[keep], b[keep], x[keep]


def split(whole: Ints, parts: Ints, half_up: B) -> I64:
    """``whole / parts`` chips in sixths: exact, or rounded half up to a whole chip
    (14 ``chip_rounding``)."""
    w = whole.astype(np.int64)
    exact = w * SIXTHS // parts
    rounded = (2 * w + parts) // (2 * parts) * SIXTHS
    return np.where(half_up, rounded, exact)


def overflow(kassa: I32, n: Ints, p: Ints, rest: Ints, half_up: B, deals: Ints,
             sparse: Sparse) -> None:
    """Section 10 on the rows whose declarer's kassa went below 0 (``kassa`` is those rows, edited
    in place; the declarer's entry is already 0, ``rest`` the points still to write off). Largest
    other kassa first, ties to the nearest after the declarer in turn order (his right), 10 chips a
    point; each kassa is emptied before the next is touched, so the kassas are taken in one sorted
    pass. What no kassa can take is paid by all the other players equally (r*10/2 or r*10/3)."""
    m = len(p)
    dist = (SEATS - p[:, None]) % n[:, None]
    valid = (n[:, None] > SEATS) & (dist > 0)
    others = np.where(valid, kassa, 0).astype(np.int64)
    # ascending: larger kassa first, then nearer after the declarer; the seats that cannot pay last
    order = np.argsort(np.where(valid, dist - others * 8, 1 << 40), axis=1, kind="stable")
    index = (order + np.arange(0, 4 * m, 4)[:, None]).ravel()  # row-major flat index
    ordered = others.ravel()[index].reshape(m, 4)
    rest = rest.astype(np.int64)
    take = np.minimum(ordered, np.maximum(rest[:, None] - (ordered.cumsum(axis=1) - ordered), 0))
    kassa.ravel()[index] -= take.ravel().astype(kassa.dtype)
    row = index // 4
    sparse.add(deals[row], order.ravel(), p[row], take.ravel() * CHIPS_PER_POINT * SIXTHS)
    rest = rest - take.sum(axis=1)
    left = np.flatnonzero(rest > 0)
    if len(left):
        each = split(CHIPS_PER_POINT * rest[left], n[left] - 1, half_up[left])
        pays = valid[left].ravel()
        row = np.repeat(left, 4)[pays]
        sparse.add(deals[row], np.flatnonzero(pays) % 4, p[row], np.repeat(each, 4)[pays])


def end_payment(kassa: I32, n: Ints, half_up: B, deals: Ints, sparse: Sparse) -> None:
    """11 ``end_at_two_empty``: the one player with a kassa pays 10*K/n chips to each other player
    (10*K/3 with three, 10*K/4 with four) and his kassa goes to 0."""
    m = len(n)
    owner = kassa.argmax(axis=1)
    flat = kassa.ravel()
    index = np.arange(0, 4 * m, 4) + owner
    each = split(flat[index].astype(np.int64) * CHIPS_PER_POINT, n, half_up)
    gets = ((n[:, None] > SEATS) & (owner[:, None] != SEATS)).ravel()
    row = np.repeat(np.arange(m), 4)[gets]
    sparse.add(deals[row], owner[row], np.flatnonzero(gets) % 4, each[row])
    flat[index] = 0


@dataclass(frozen=True, slots=True)
class Scanned:
    where: Ints
    """Deal (input order) -> its row in the step-major arrays below."""
    kassa_after: Ints
    """(deals, 4) the kassa of each seat after the deal, step-major rows (int16 or int32)."""
    kassa_delta: Ints
    """(deals, 4) its change in the deal, step-major rows."""
    settled: B
    """Step-major."""
    finished: B
    """Per game: the game ended by the rules (11)."""


def _steps(game: I64, n_games: int) -> tuple[I64, I64, I64, I64, I64]:
    """The layout of :func:`scan`: each game's first input row (``start``), the games longest
    first (``order``) and each game's place in it (``rank``), the games still dealing at each
    step (``running``, a prefix of that order) and each step's first output row (``offset``)."""
    length = np.bincount(game, minlength=n_games)
    start = np.zeros(n_games, np.int64)
    np.cumsum(length[:-1], out=start[1:])
    order = np.argsort(-length, kind="stable")
    rank = np.empty(n_games, np.int64)
    rank[order] = np.arange(n_games)
    running = np.searchsorted(-length[order], -np.arange(int(length.max(initial=0))),
                              side="left")
    offset = np.zeros(len(running) + 1, np.int64)
    np.cumsum(running, out=offset[1:])
    return start, order, rank, running, offset


def _emptied(kassa: Ints, emptied: Ints, val: Ints, slot: Ints, gn: I64, half: B,
             threshold: Ints, start_r: I64, k: int, sparse: Sparse) -> Ints:
    """The games of a step whose declarer's kassa a deduction emptied (``emptied``, ranks):
    a deduction beyond the kassa overflows to the others (10); the game ends when ``threshold``
    kassas are empty (11), the end payment made when three are (11). Returns the games that
    end; ``kassa`` is updated in place. Deal ``k`` of the game of rank j is input row
    ``start_r[j] + k``."""
    neg = emptied[val[emptied] < 0]
    if len(neg):
        part = kassa[neg]
        overflow(part, gn[neg], slot[neg] & 3, -val[neg], half[neg], start_r[neg] + k, sparse)
        kassa[neg] = part
    zeros = np.count_nonzero(kassa[emptied] == 0, axis=1)
    done = zeros >= threshold[emptied]
    ended = emptied[done]
    owners = ended[zeros[done] == 3]
    if len(owners):
        part = kassa[owners]
        end_payment(part, gn[owners], half[owners], start_r[owners] + k, sparse)
        kassa[owners] = part
    return ended


def scan(game: I64, n: I32, initial: I32, half_up: B, end_two: B, p: Ints, change: I32,
         low: Low, sparse: Sparse, largest: int | None = None) -> Scanned:
    """Sections 10-11 over every game at once. Per game: ``n``, ``initial``, ``half_up``,
    ``end_two``; per deal (grouped by game, in deal order): the declarer's seat ``p`` and his kassa
    ``change`` (negative: deduct); ``low``: the all-pass increases of the other two players;
    ``largest``: a bound on ``abs(change)`` if known (else it is measured).

    Step k takes deal k of every game that has one. Games are ranked longest first, so the games
    of step k are a prefix of the state array (games x 4 seats) and their rows of the output are
    contiguous; deal k of the game of rank j is input row ``start[j] + k``. A game can only end
    (11) in a deal that emptied the declarer's kassa by a deduction (kassas start full, only
    deductions empty them, the end is checked after every deal), so the end test runs on those
    rows only."""
    n_games, count = len(n), len(p)
    start, order, rank, running, offset = _steps(game, n_games)
    start_r = start[order]
    small = 4 * n_games < 1 << 20 and count < 1 << 31
    idx: type[np.signedinteger[Any]] = np.int32 if small else np.int64
    rank_of_deal: Ints = np.take(rank.astype(idx), game)
    pos: Ints = np.arange(count, dtype=idx) - np.take(start.astype(idx), game)
    where: Ints = np.take(offset.astype(idx), pos) + rank_of_deal

    gn = n[order].astype(np.int64)
    half, threshold = half_up[order], np.where(end_two[order], 3, 4)
    # kassas in int16 when no game can reach 2**15 points (start + each deal's largest rise)
    biggest = int(np.abs(change).max(initial=0)) if largest is None else largest
    steps = len(running)
    high = int(initial.max(initial=0)) + steps * (biggest + 10)
    wide: type[np.signedinteger[Any]] = np.int16 if high < 1 << 15 else np.int32
    start_kassa: Ints = first_kassa(gn, initial[order]).astype(wide)
    kassa: Ints = start_kassa.copy()
    flat: Ints = kassa.ravel()
    # per deal: the flat index of the declarer's kassa in the state (low bits), his change (high
    # bits); in int32 when both fit (20 bits of index, a change below 2**10 points)
    shift = 20 if small and biggest < 1 << 10 else 32
    if shift == 32:
        rank_of_deal = rank_of_deal.astype(np.int64)
        change = change.astype(np.int64)
    packed = (change << shift) | (rank_of_deal * 4 + p)
    mask = (1 << shift) - 1
    increases = _by_step(low, start, rank, game)
    alive = np.ones(n_games, np.bool_)
    finished = np.zeros(n_games, np.bool_)
    after: Ints = np.empty((count, 4), kassa.dtype)
    delta: Ints = np.empty((count, 4), kassa.dtype)
    settled = np.empty(count, np.bool_)
    for k, size in enumerate(running.tolist()):
        lo, hi = int(offset[k]), int(offset[k + 1])
        pk = np.take(packed, start_r[:size] + k)
        slot = pk & mask
        chg = pk >> shift
        val = np.take(flat, slot) + chg
        flat[slot] = np.maximum(val, 0)
        if k in increases:
            for s_slot, s_inc in increases[k]:
                flat[s_slot] += s_inc
        live = alive[:size]
        settled[lo:hi] = live
        emptied = np.flatnonzero(val <= 0)
        if len(emptied):
            emptied = emptied[live[emptied] & (chg[emptied] < 0)]
            ended = _emptied(kassa, emptied, val, slot, gn, half, threshold, start_r, k, sparse)
            finished[ended] = True
            alive[ended] = False
        after[lo:hi] = kassa[:size]
        if k:
            prev = int(offset[k - 1])
            np.subtract(after[lo:hi], after[prev:prev + size], out=delta[lo:hi])
        else:
            np.subtract(after[lo:hi], start_kassa[:size], out=delta[lo:hi])
    out = np.empty(n_games, np.bool_)
    out[order] = finished
    return Scanned(where, after, delta, settled, out)


def first_kassa(n: Ints, initial: I32) -> I32:
    """Every kassa starts at ``initial_kassa`` (8); the fourth slot is unused with three players."""
    out = np.zeros((len(n), 4), np.int32)
    out[:, :3] = initial[:, None]
    out[:, 3] = np.where(n == 4, initial, 0)
    return out


@dataclass(frozen=True, slots=True)
class Low:
    """14 ``all_pass = play_low``: the deals concerned and the increases of the two players other
    than the first hand (whose increase is in the deal's ``change``)."""

    deals: I64
    seat_r: Ints
    inc_r: I32
    seat_l: Ints
    inc_l: I32


def _by_step(low: Low, start: I64, rank: I64, game: I64) -> dict[int, list[tuple[I64, I32]]]:
    """The increases by step, as (flat state index, increase)."""
    out: dict[int, list[tuple[I64, I32]]] = {}
    if not len(low.deals):
        return out
    g = game[low.deals]
    step = low.deals - start[g]
    order = np.argsort(step, kind="stable")
    step, base = step[order], rank[g[order]] * 4
    keys, first = np.unique(step, return_index=True)
    bounds = [*first.tolist(), len(step)]
    for i, k in enumerate(keys.tolist()):
        part = order[bounds[i]:bounds[i + 1]]
        here = base[bounds[i]:bounds[i + 1]]
        out[k] = [(here + low.seat_r[part], low.inc_r[part]),
                  (here + low.seat_l[part], low.inc_l[part])]
    return out
