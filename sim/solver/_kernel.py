"""The search kernel: alpha-beta over single card plays, written once for numba and for CPython.

The kernel sees a *relabelled* deal (``sim.solver.engine``): inside each suit the cards in play
are renumbered 0, 1, 2, ... from the lowest, so a card is ``16 * suit + rank`` with ``rank <
slen[suit]``. Only the order of the cards inside a suit matters to the play (greek-prefa.md 7:
follow suit, trump if void, highest trump or highest card of the suit led wins), so the value of a
position does not change.

State passed down the recursion (all plain integers, so the same source runs compiled by numba or
interpreted by CPython, where the tables may be plain lists):

- ``hands``: three masks, the cards each seat still holds (mutated in place and restored);
- ``nxt``: the next seat in turn for each seat (a seat sitting out is skipped: two-handed play);
- ``seat``: the seat to play; ``pos``: cards already on the table in this trick;
- ``led``, ``win_card``, ``win_seat``, ``table``: the suit led, the card and seat winning the
  trick so far, and the mask of the cards on the table;
- ``dt``, ``ft``: tricks the declarer and the defence have taken;
- ``cap_d``, ``cap_f``: play ends when the declarer has ``cap_d`` or the defence ``cap_f`` tricks
  (balkan.md "Early end"; swabian.md Bettel and Durchmarsch); 11 means no stop;
- ``decl_max``: 1 if the declarer maximises his tricks, 0 for misère / Bettel.

The value of a position is the declarer's trick count when play ends. The transposition table
holds, at the start of a trick, lower and upper bounds on the tricks still to come, keyed on the
remaining cards *by relative rank and owner* (two words: suits S, C in ``k1``; suits D, H, the
leader and the two remaining stop margins in ``k2``), so positions that differ only in which of
two equivalent cards was played share an entry. Within a hand, cards adjacent in rank among the
cards of their suit not yet played (the table counts as not played) are equivalent and only the
highest of each run is searched.
"""

from __future__ import annotations

from typing import Any

from sim.solver._jit import jit, jit_signed

_ARRAYS = ("int64[:, ::1], int64[:, ::1], int64[::1], int64[::1], int8[::1], int8[::1], int8[::1], "
           "int32[::1], int64, int64, int64[::1]")
"""moves, scores, the transposition table (k1, k2, lower, upper, move, stamp), stamp, mask and
stats, as ``engine.Table`` holds them."""
_SEATS = "int64[::1], int64[::1], int64[::1]"
"""hands, nxt, slen."""


def _signature(integers: int, extra: str = "") -> str:
    """``int64(hands, nxt, slen, <integers> int64, [extra,] the table)``: the one signature of a
    searching kernel (``jit_signed``: numba's disk cache reloads a recursive function only when
    it has a single one)."""
    return f"int64({_SEATS}, {', '.join(['int64'] * integers)}, {extra}{_ARRAYS})"


SEARCH = _signature(21)
"""``search``: 21 integers (trump ... tl_seat, alpha, beta, depth)."""
MTD = _signature(21)
"""``mtd``: 21 integers (trump ... tl_seat, lo, hi, g)."""
SOLVE_POSITION = _signature(20)
"""``solve_position``: 20 integers (trump ... tl_seat, floor, ceiling)."""
CARD_VALUES = _signature(19, "int64[::1], ")
"""``card_values``: 19 integers (trump ... tl_seat, value) and ``out``."""

HASH_A = 0x9E3779B97F4A7C15 - (1 << 64)
HASH_B = 0xC2B2AE3D27D4EB4F - (1 << 64)
INF = 99


@jit
def legal_reps(
    hand: int, allrem: int, led: int, trump: int, slen: Any, win_card: int, overtrump: int
) -> int:
    """The cards a seat may play (follow suit, else trump, else anything; greek-prefa.md 7),
    keeping only the highest card of each run of equivalent cards. With ``overtrump`` (Greek
    ``must_overtrump_when_void``, greek-prefa.md 14) a seat that trumps a trick already trumped
    must play a higher trump when it holds one."""
    cand = hand
    if led >= 0:
        follow = hand & (0xFFFF << (16 * led))
        if follow != 0:
            cand = follow
        elif trump >= 0:
            ruff = hand & (0xFFFF << (16 * trump))
            if ruff != 0:
                cand = ruff
                if overtrump == 1 and (win_card >> 4) == trump and led != trump:
                    over = ruff & ~((2 << win_card) - 1)
                    if over != 0:
                        cand = over
    reps = 0
    for s in range(4):
        n = slen[s]
        base = 16 * s
        if n == 0 or (cand >> base) & 0xFFFF == 0:
            continue
        prev_in = False
        # walk the suit downwards from its top: a card is the top of its run when the next
        # higher remaining card is not in the hand
        for r in range(n - 1, -1, -1):
            b = 1 << (base + r)
            if allrem & b:
                if hand & b:
                    if cand & b and not prev_in:
                        reps |= b
                    prev_in = True
                else:
                    prev_in = False
    return reps


@jit
def card_of(single: int) -> int:
    """The card of a one-card mask."""
    c = 0
    while single > 1:
        single >>= 1
        c += 1
    return c


@jit
def popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@jit
def quick_tricks(hands: Any, seat: int, nxt: Any, trump: int, slen: Any) -> int:
    """Tricks the seat on lead can cash at once: in each suit its cards on top of the remaining
    ones, all winners in no trump; in a side suit of a trump game only as many rounds as every
    other seat holding trumps can follow (a void seat must trump, greek-prefa.md 7). Side suits
    are cashed first, then the top trumps."""
    h = hands[seat]
    total = hands[0] | hands[1] | hands[2]
    tmask = 0xFFFF << (16 * trump) if trump >= 0 else 0
    q = 0
    for s in range(4):
        k = 0
        base = 16 * s
        for r in range(slen[s] - 1, -1, -1):
            b = 1 << (base + r)
            if total & b:
                if h & b:
                    k += 1
                else:
                    break
        if k == 0:
            continue
        if trump >= 0 and s != trump:
            smask = 0xFFFF << base
            o = nxt[seat]
            while o != seat:
                if hands[o] & tmask:
                    n = popcount(hands[o] & smask)
                    if n < k:
                        k = n
                o = nxt[o]
        q += k
    return q


@jit
def forced_wins(hands: Any, seat: int, declarer: int, nxt: Any, rem: int) -> int:
    """Misère / Bettel: tricks the defence can force on the declarer at once (no trumps).

    Declarer on lead with every card above all the defenders' cards of its suit: he wins every
    remaining trick. A defender on lead holding a suit in which the declarer's lowest card is
    above every defender's card: the declarer wins that trick.
    """
    hd = hands[declarer]
    if seat == declarer:
        for s in range(4):
            smask = 0xFFFF << (16 * s)
            d = hd & smask
            if d == 0:
                continue
            low = d & -d
            o = nxt[seat]
            while o != seat:
                if (hands[o] & smask) > low:
                    return 0
                o = nxt[o]
        return rem
    for s in range(4):
        smask = 0xFFFF << (16 * s)
        d = hd & smask
        if d == 0 or hands[seat] & smask == 0:
            continue
        low = d & -d
        ok = True
        o = nxt[declarer]
        while o != declarer:
            if (hands[o] & smask) > low:
                ok = False
            o = nxt[o]
        if ok:
            return 1
    return 0


@jit
def key_words(hands: Any, total: int, slen: Any, seat: int, rd: int, rf: int) -> tuple[int, int]:
    """Canonical transposition key at a trick start (see the module docstring)."""
    k1 = 0
    k2 = 0
    h0 = hands[0]
    h1 = hands[1]
    for s in range(4):
        acc = 0
        shift = 0
        base = 16 * s
        for r in range(slen[s]):
            b = 1 << (base + r)
            if total & b:
                code = 1 if h0 & b else (2 if h1 & b else 3)
                acc |= code << shift
                shift += 2
        if s < 2:
            k1 |= acc << (26 * s)
        else:
            k2 |= acc << (26 * (s - 2))
    k2 |= (seat << 52) | (rd << 54) | (rf << 58)
    return k1, k2


@jit
def order_moves(
    reps: int, seat: int, pos: int, win_card: int, win_seat: int, trump: int, declarer: int,
    decl_max: int, allrem: int, out: Any, scores: Any, hands: Any, hint: int, nxt: Any,
    nactive: int,
) -> int:
    """Write the moves of ``reps`` into ``out`` best first (a guess); return their number.

    The table's move for this position comes first. Suit and no-trump games: the side on lead
    cashes its top cards, then leads its higher cards first; a follower whose side is not
    winning tries its lowest winning card, else plays low. Misère / Bettel: the declarer leads a
    card below every defender's card of that suit, ducks with his highest losing card and,
    forced to win, wins high; the defence leads under the declarer's lowest card and, once the
    declarer is winning the trick, follows with its highest card that does not overtake him.
    """
    n = 0
    mine_decl = seat == declarer
    decl_played = (not mine_decl) and (
        pos == nactive - 1 or (pos == 1 and nxt[declarer] == seat)
    )
    for s in range(4):
        sbits = (reps >> (16 * s)) & 0xFFFF
        if sbits == 0:
            continue
        smask = 0xFFFF << (16 * s)
        for r in range(16):
            if (sbits >> r) == 0:
                break
            if not (sbits >> r) & 1:
                continue
            c = 16 * s + r
            b = 1 << c
            score = 0
            if pos == 0:
                if decl_max == 1:
                    is_top = ((allrem & smask) >> (c + 1)) == 0
                    score = 200 + r if is_top else 100 + r
                elif mine_decl:
                    safe = False
                    o = nxt[seat]
                    while o != seat:
                        d = hands[o] & smask
                        if d != 0:
                            if b < (d & -d):
                                safe = True
                            else:
                                safe = False
                                break
                        o = nxt[o]
                    score = (300 - r) if safe else (100 - r)
                else:
                    dh = hands[declarer] & smask
                    if dh == 0:
                        score = 100 - r
                    elif b < (dh & -dh):
                        score = 300 - r
                    else:
                        score = 150 - r
            else:
                beats = False
                ws = win_card >> 4
                if s == ws:
                    beats = c > win_card
                elif s == trump:
                    beats = True
                winner_is_decl = win_seat == declarer
                if decl_max == 1:
                    if winner_is_decl == mine_decl:
                        score = 100 - r
                    elif beats:
                        score = 200 - r
                    else:
                        score = 100 - r
                elif mine_decl:
                    score = (200 + r) if not beats else (100 + r)
                elif decl_played and winner_is_decl:
                    score = (200 + r) if not beats else (50 - r)
                elif decl_played:
                    score = 100 + r
                else:
                    score = 100 - r
            if c == hint:
                score += 1000
            # insertion, best score first
            i = n
            while i > 0 and scores[i - 1] < score:
                out[i] = out[i - 1]
                scores[i] = scores[i - 1]
                i -= 1
            out[i] = c
            scores[i] = score
            n += 1
    return n


@jit
def talon_suit(tlead: int, rem: int) -> int:
    """The suit the trick starting with ``rem`` tricks to play must be led in, or -1: raspasy's
    talon leads (russian.md 4), ``tlead`` holding ``suit + 1`` in 3 bits at ``3 * rem``."""
    if tlead == 0:
        return -1
    return ((tlead >> (3 * rem)) & 7) - 1


@jit
def next_leader(winner: int, left: int, nactive: int, tlead: int, tl_seat: int) -> int:
    """Who leads the next trick (``left`` cards still held): its winner, or the seat of the
    talon leads while they last (russian.md 4)."""
    if tlead != 0 and left > 0 and talon_suit(tlead, left // nactive) >= 0:
        return tl_seat
    return winner


@jit
def seat_reps(
    hands: Any, seat: int, allrem: int, pos: int, left: int, nactive: int, led: int, trump: int,
    slen: Any, win_card: int, overtrump: int, tlead: int,
) -> int:
    """The seat's legal cards, one per run of equivalent cards (``legal_reps``); a talon lead
    is a lead in the turned card's suit when the seat holds it, else any card (russian.md 4)."""
    if pos == 0 and tlead != 0:
        forced = talon_suit(tlead, left // nactive)
        if forced >= 0:
            return legal_reps(hands[seat], allrem, forced, -1, slen, win_card, 0)
    return legal_reps(hands[seat], allrem, led, trump, slen, win_card, overtrump)


@jit_signed(SEARCH)
def search(
    hands: Any, nxt: Any, slen: Any, trump: int, overtrump: int, declarer: int, decl_max: int,
    cap_d: int, cap_f: int, nactive: int, left: int, seat: int, pos: int, led: int, win_card: int,
    win_seat: int, table: int, dt: int, ft: int, tlead: int, tl_seat: int, alpha: int,
    beta: int, depth: int, moves: Any, scores: Any, tt_k1: Any, tt_k2: Any, tt_lb: Any,
    tt_ub: Any, tt_mv: Any, tt_stamp: Any, stamp: int, tt_mask: int, stats: Any,
) -> int:
    """Fail-soft alpha-beta: the declarer's final trick count (exact inside ``(alpha, beta)``).

    ``left`` counts the cards still held by all seats together; ``tlead``, ``tl_seat``: the
    talon leads (``talon_suit``).
    """
    stats[0] += 1
    zero = depth - depth  # 0 as an int64, not a literal: every recursive call has the one
    # compiled signature (a literal argument would make numba compile another, ``jit_signed``)
    idx = 0
    k1 = 0
    k2 = 0
    use_tt = False
    hint = -1
    if pos == 0:
        if left == 0 or dt >= cap_d or ft >= cap_f:
            return dt
        rem = left // nactive
        hi = dt + rem
        if hi > cap_d:
            hi = cap_d
        if dt >= beta:
            return dt
        if hi <= alpha:
            return hi
        if rem == 1:
            # the last trick plays itself: one card each
            wc = card_of(hands[seat])
            wseat = seat
            o = nxt[seat]
            while o != seat:
                c = card_of(hands[o])
                if ((c >> 4) == (wc >> 4) and c > wc) or ((c >> 4) == trump and (wc >> 4) != trump):
                    wc = c
                    wseat = o
                o = nxt[o]
            return dt + 1 if wseat == declarer else dt
        rd = cap_d - dt
        if rd > rem + 1:
            rd = rem + 1
        rf = cap_f - ft
        if rf > rem + 1:
            rf = rem + 1
        if tlead & ((8 << (3 * rem)) - 1) != 0:
            pass  # talon leads to come: the quick-trick bounds assume the winner leads on
        elif decl_max == 1:
            q = quick_tricks(hands, seat, nxt, trump, slen)
            if q > 0:
                if seat == declarer:
                    lbq = dt + q
                    if lbq > cap_d:
                        lbq = cap_d
                    if lbq >= beta:
                        return lbq
                else:
                    if ft + q >= cap_f:
                        return dt
                    ubq = dt + rem - q
                    if ubq > cap_d:
                        ubq = cap_d
                    if ubq <= alpha:
                        return ubq
        else:
            q = forced_wins(hands, seat, declarer, nxt, rem)
            if q > 0:
                lbq = dt + q
                if lbq > cap_d:
                    lbq = cap_d
                if lbq >= beta:
                    return lbq
        total = hands[0] | hands[1] | hands[2]
        k1, k2 = key_words(hands, total, slen, seat, rd, rf)
        idx = ((k1 * HASH_A + k2 * HASH_B) >> 24) & tt_mask
        use_tt = True
        if tt_stamp[idx] == stamp and tt_k1[idx] == k1 and tt_k2[idx] == k2:
            lb = tt_lb[idx] + dt
            ub = tt_ub[idx] + dt
            if lb >= beta:
                return lb
            if ub <= alpha:
                return ub
            if lb > alpha:
                alpha = lb
            if ub < beta:
                beta = ub
            hint = tt_mv[idx]
        else:
            tt_stamp[idx] = stamp
            tt_k1[idx] = k1
            tt_k2[idx] = k2
            tt_lb[idx] = 0
            tt_ub[idx] = hi - dt
            tt_mv[idx] = -1
    allrem = hands[0] | hands[1] | hands[2] | table
    reps = seat_reps(hands, seat, allrem, pos, left, nactive, led, trump, slen, win_card,
                     overtrump, tlead)
    n = order_moves(
        reps, seat, pos, win_card, win_seat, trump, declarer, decl_max, allrem,
        moves[depth], scores[depth], hands, hint, nxt, nactive,
    )
    is_max = (seat == declarer) == (decl_max == 1)
    best = -INF if is_max else INF
    best_move = -1
    a = alpha
    b = beta
    for i in range(n):
        c = moves[depth][i]
        bc = 1 << c
        hands[seat] ^= bc
        if pos == 0:
            nled = c >> 4
            nwc = c
            nws = seat
        else:
            nled = led
            nwc = win_card
            nws = win_seat
            cs = c >> 4
            ws = win_card >> 4
            if (cs == ws and c > win_card) or (cs == trump and ws != trump):
                nwc = c
                nws = seat
        if pos + 1 == nactive:
            ndt = dt + 1 if nws == declarer else dt
            nft = ft if nws == declarer else ft + 1
            v = search(
                hands, nxt, slen, trump, overtrump, declarer, decl_max, cap_d, cap_f, nactive,
                left - 1, next_leader(nws, left - 1, nactive, tlead, tl_seat), zero, zero - 1,
                zero, zero, zero, ndt, nft, tlead, tl_seat, a, b, depth + 1, moves, scores, tt_k1,
                tt_k2, tt_lb, tt_ub, tt_mv, tt_stamp, stamp, tt_mask, stats,
            )
        else:
            v = search(
                hands, nxt, slen, trump, overtrump, declarer, decl_max, cap_d, cap_f, nactive,
                left - 1, nxt[seat], pos + 1, nled, nwc, nws, table | bc, dt, ft, tlead, tl_seat,
                a, b, depth + 1, moves, scores, tt_k1, tt_k2, tt_lb, tt_ub, tt_mv, tt_stamp,
                stamp, tt_mask, stats,
            )
        hands[seat] ^= bc
        if is_max:
            if v > best:
                best = v
                best_move = c
            if best > a:
                a = best
        else:
            if v < best:
                best = v
                best_move = c
            if best < b:
                b = best
        if a >= b:
            break
    if use_tt and tt_stamp[idx] == stamp and tt_k1[idx] == k1 and tt_k2[idx] == k2:
        f = best - dt
        tt_mv[idx] = best_move
        if best <= alpha:
            if f < tt_ub[idx]:
                tt_ub[idx] = f
        elif best >= beta:
            if f > tt_lb[idx]:
                tt_lb[idx] = f
        else:
            tt_lb[idx] = f
            tt_ub[idx] = f
    return best


@jit_signed(MTD)
def mtd(
    hands: Any, nxt: Any, slen: Any, trump: int, overtrump: int, declarer: int, decl_max: int,
    cap_d: int, cap_f: int, nactive: int, left: int, seat: int, pos: int, led: int, win_card: int,
    win_seat: int, table: int, dt: int, ft: int, tlead: int, tl_seat: int, lo: int, hi: int,
    g: int, moves: Any, scores: Any, tt_k1: Any, tt_k2: Any, tt_lb: Any, tt_ub: Any, tt_mv: Any,
    tt_stamp: Any, stamp: int, tt_mask: int, stats: Any,
) -> int:
    """The value by null-window searches (MTD(f)) sharing the table, the first at the guess
    ``g``: exact when it lies in ``[lo, hi]``; ``lo`` when it is lower, at least ``hi`` when
    higher."""
    while lo < hi:
        beta = g if g > lo else lo + 1
        v = search(
            hands, nxt, slen, trump, overtrump, declarer, decl_max, cap_d, cap_f, nactive, left,
            seat, pos, led, win_card, win_seat, table, dt, ft, tlead, tl_seat, beta - 1, beta,
            lo - lo, moves, scores, tt_k1, tt_k2, tt_lb, tt_ub, tt_mv, tt_stamp, stamp, tt_mask,
            stats,
        )
        if v < beta:
            hi = v
        else:
            lo = v
        g = (lo + hi + 1) // 2
    return lo


@jit_signed(SOLVE_POSITION)
def solve_position(
    hands: Any, nxt: Any, slen: Any, trump: int, overtrump: int, declarer: int, decl_max: int,
    cap_d: int, cap_f: int, nactive: int, left: int, seat: int, pos: int, led: int, win_card: int,
    win_seat: int, table: int, dt: int, ft: int, tlead: int, tl_seat: int, floor: int,
    ceiling: int, moves: Any, scores: Any, tt_k1: Any, tt_k2: Any, tt_lb: Any, tt_ub: Any,
    tt_mv: Any, tt_stamp: Any, stamp: int, tt_mask: int, stats: Any,
) -> int:
    """Exact value of a position clamped to ``[floor, ceiling]`` (-1: no bound): a bound
    tested first costs one null-window search when the value passes it."""
    rem = (left + pos) // nactive
    lo = dt
    hi = dt + rem
    if hi > cap_d:
        hi = cap_d
    if lo > hi:
        return lo
    g = (lo + hi + 1) // 2
    if floor >= 0 and floor >= hi:
        return floor
    if ceiling >= 0 and ceiling <= lo:
        return ceiling
    if ceiling >= 0 and ceiling < hi:
        hi = ceiling
        g = hi
    if floor >= 0 and floor > lo:
        lo = floor
        g = lo + 1
    if lo >= hi:
        return lo
    v = mtd(
        hands, nxt, slen, trump, overtrump, declarer, decl_max, cap_d, cap_f, nactive, left,
        seat, pos, led, win_card, win_seat, table, dt, ft, tlead, tl_seat, lo, hi, g,
        moves, scores, tt_k1, tt_k2, tt_lb, tt_ub, tt_mv, tt_stamp, stamp, tt_mask, stats,
    )
    return hi if v > hi else v


@jit_signed(CARD_VALUES)
def card_values(
    hands: Any, nxt: Any, slen: Any, trump: int, overtrump: int, declarer: int, decl_max: int,
    cap_d: int, cap_f: int, nactive: int, left: int, seat: int, pos: int, led: int, win_card: int,
    win_seat: int, table: int, dt: int, ft: int, tlead: int, tl_seat: int, value: int,
    out: Any, moves: Any, scores: Any, tt_k1: Any, tt_k2: Any, tt_lb: Any, tt_ub: Any,
    tt_mv: Any, tt_stamp: Any, stamp: int, tt_mask: int, stats: Any,
) -> int:
    """The exact value after each legal card of the seat to play, one per run of equivalent
    cards, written to ``out[card]``; returns the cards searched as a mask. ``value``: the
    position's value when known (else -1): no card of the side to play is worth more to it, so
    it bounds each search and is its first guess (an optimal card costs one null-window
    search)."""
    allrem = hands[0] | hands[1] | hands[2] | table
    reps = seat_reps(hands, seat, allrem, pos, left, nactive, led, trump, slen, win_card,
                     overtrump, tlead)
    is_max = (seat == declarer) == (decl_max == 1)
    best = value
    todo = reps
    while todo:
        bc = todo & -todo
        todo ^= bc
        c = card_of(bc)
        hands[seat] ^= bc
        nled = led
        nwc = win_card
        nws = win_seat
        if pos == 0:
            nled = c >> 4
            nwc = c
            nws = seat
        elif ((c >> 4) == (win_card >> 4) and c > win_card) or (
                (c >> 4) == trump and (win_card >> 4) != trump):
            nwc = c
            nws = seat
        ndt = dt
        nft = ft
        nseat = nxt[seat]
        npos = pos + 1
        ntable = table | bc
        if pos + 1 == nactive:
            if nws == declarer:
                ndt += 1
            else:
                nft += 1
            nseat = next_leader(nws, left - 1, nactive, tlead, tl_seat)
            npos = 0
            nled = -1
            nwc = 0
            nws = 0
            ntable = 0
        rem = (left - 1 + npos) // nactive
        lo = ndt
        hi = ndt + rem
        if hi > cap_d:
            hi = cap_d
        if npos == 0 and (left == 1 or ndt >= cap_d or nft >= cap_f):
            v = ndt
        else:
            g = (lo + hi + 1) // 2
            if best >= 0:
                g = best
                if is_max and value >= 0 and value < hi:
                    hi = value
                if not is_max and value >= 0 and value > lo:
                    lo = value
            if g < lo:
                g = lo
            if g > hi:
                g = hi
            v = mtd(
                hands, nxt, slen, trump, overtrump, declarer, decl_max, cap_d, cap_f, nactive,
                left - 1, nseat, npos, nled, nwc, nws, ntable, ndt, nft, tlead, tl_seat, lo, hi,
                g, moves, scores, tt_k1, tt_k2, tt_lb, tt_ub, tt_mv, tt_stamp, stamp, tt_mask,
                stats,
            )
        hands[seat] ^= bc
        out[c] = v
        if best < 0 or (v > best if is_max else v < best):
            best = v
    return reps
