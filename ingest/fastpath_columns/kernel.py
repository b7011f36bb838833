"""One compiled pass per line: the layout read, every check made, the play replayed and the
canonical JSON written (numba; ``docs/ingest.md`` "The columnar card path").

:func:`check_lines` reads each line byte by byte in one of the two layouts of ``layout.SHAPE``
(records.md 1.2), then checks it as ``model/greek/check.py`` does (greek-prefa.md 3-7, 14) and
replays its play as ``fastpath_cards.replay_arrays`` does (7), and writes its canonical JSON
(records.md 1: defaults left out, keys sorted, no spaces) in place of the line. Only the auction
is left to the caller, who runs ``model/greek/auction.py`` once per distinct sequence of calls
(4.2): this pass gives each line's calls as codes.

Cards are ints ``16 * suit + rank`` and sets of cards int64 masks (``model/cards.py``); seats
are indices into the game's players, ``-1`` for none. Everything runs without the GIL, so parts
of a batch are checked side by side in threads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from ingest.fastpath_columns.layout import CALLS, CARD_CODE, CONTRACTS, DECISIONS, KEYS
from model.cards import DECK_32
from model.greek.contracts import NT, ladder_index

# what became of a line (``status``)
TAKEN, SHAPE, GAME, RULES = range(4)
"""Taken (pending its auction's verdict), not of the layout, game unknown or not yet visible (or
a first deal the rules deal by the seven of diamonds), a rule broken."""

MAX_CALLS = 32
"""Longest auction this path runs; longer ones go per line."""
NO_CALL = 255
"""Padding of ``calls`` after a line's last call."""
TEN_NT = ladder_index(10, NT)


def _words(words: tuple[str, ...] | list[str]) -> tuple[np.ndarray, np.ndarray]:
    """A vocabulary as one byte array and the offsets of its words."""
    raw = [w.encode() for w in words]
    offsets = np.zeros(len(raw) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(b) for b in raw])
    return np.frombuffer(b"".join(raw), dtype=np.uint8).copy(), offsets


KEY_BYTES, KEY_OFF = _words(KEYS)
CALL_BYTES, CALL_OFF = _words(CALLS)
CONTRACT_BYTES, CONTRACT_OFF = _words(CONTRACTS)
DECISION_BYTES, DECISION_OFF = _words(DECISIONS)
(RECORD, GAME_ID, DEAL_NO, DEALER, HANDS, TALON, AUCTION, DECLARER, DISCARD, CONTRACT, DEFENCE,
 PLAY, TRICKS, FOUR_ACES, PRELIMINARY, CONCEDED) = range(len(KEYS))
RECORDS_RANK = np.array([KEYS.index(k) for k in KEYS], dtype=np.int64)
"""Rank of each key in the order of records.md 1.2 (``KEYS`` is in that order)."""
SORTED_RANK = np.array([-1 if k == "record" else sorted(KEYS[1:]).index(k) for k in KEYS],
                       dtype=np.int64)
"""Rank of each key in the canonical order (``record`` first, the rest sorted)."""
CARDS = CARD_CODE[: 1 << 16].copy()
"""Card code of a two-letter name by its two bytes (first byte low), -1 for none."""
SUIT_MASK = np.array([0x1FFF << (16 * s) for s in range(4)] + [0], dtype=np.int64)
DECK = np.int64(DECK_32)


def _literal(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), dtype=np.uint8).copy()


# the fixed pieces of a line and of the canonical JSON
L_RECORD_DEAL = _literal('"deal"')
L_FALSE = _literal("false")
L_PLAYER = _literal('"player"')
L_CALL = _literal('"call"')
C_AUCTION = _literal('"auction":[')
C_CALL = _literal('{"call":')
C_PLAYER = _literal(',"player":')
C_CONTRACT = _literal('"contract":')
C_DEAL_NO = _literal('"deal_no":')
C_DEALER = _literal(',"dealer":')
C_DECLARER = _literal(',"declarer":')
C_DEFENCE = _literal(',"defence":{')
C_DISCARD = _literal(',"discard":')
C_GAME_ID = _literal(',"game_id":')
C_HANDS = _literal(',"hands":{')
C_PLAY = _literal(',"play":')
C_TALON = _literal(',"talon":')
C_TRICKS = _literal(',"tricks":{')

F = TypeVar("F", bound=Callable[..., Any])


def jit(fn: F) -> F:
    """Compiled by numba, without the GIL, cached on disk (next to this file)."""
    compiled: Any = numba.njit(cache=True, nogil=True)(fn)
    return cast(F, compiled)


# --- reading ----------------------------------------------------------------------------------

@jit
def _then_space(d: np.ndarray, p: int, hi: int, b: int) -> int:
    """The byte ``b`` at ``p`` and an optional space: the position after them, -1 if no ``b``
    there."""
    if p < 0 or p >= hi or d[p] != b:
        return -1
    p += 1
    if p < hi and d[p] == 32:
        p += 1
    return p


@jit
def _sep(d: np.ndarray, p: int, hi: int) -> int:
    """``, ?`` at ``p``."""
    return _then_space(d, p, hi, 44)


@jit
def _colon(d: np.ndarray, p: int, hi: int) -> int:
    """``: ?`` at ``p``."""
    return _then_space(d, p, hi, 58)


@jit
def _byte(d: np.ndarray, p: int, hi: int, b: int) -> int:
    if p < 0 or p >= hi or d[p] != b:
        return -1
    return p + 1


@jit
def _string(d: np.ndarray, p: int, hi: int) -> int:
    """A non-empty string without quotes, backslashes or control characters inside (the layout's
    names and words): the position after its closing quote, -1 if none. Its content is
    ``p + 1 .. end - 1``."""
    if p < 0 or p >= hi or d[p] != 34:
        return -1
    q = p + 1
    while q < hi:
        c = d[q]
        if c == 34:
            break
        if c == 92 or c < 32:
            return -1
        q += 1
    if q >= hi or q == p + 1:
        return -1
    return q + 1


@jit
def _same(d: np.ndarray, s: int, e: int, w: np.ndarray, ws: int, we: int) -> bool:
    if e - s != we - ws:
        return False
    for i in range(e - s):
        if d[s + i] != w[ws + i]:
            return False
    return True


@jit
def _is(d: np.ndarray, p: int, hi: int, w: np.ndarray) -> int:
    """The literal ``w`` at ``p``: the position after it, -1 if not there."""
    if p < 0 or p + len(w) > hi:
        return -1
    for i in range(len(w)):
        if d[p + i] != w[i]:
            return -1
    return p + len(w)


@jit
def _code(d: np.ndarray, s: int, e: int, words: np.ndarray, off: np.ndarray) -> int:
    """Index of the word ``d[s:e]`` in a vocabulary (``_words``), -1 if none."""
    for i in range(len(off) - 1):
        if _same(d, s, e, words, off[i], off[i + 1]):
            return i
    return -1


@jit
def _card(d: np.ndarray, p: int, hi: int, cards: np.ndarray) -> int:
    """The code of the card ``"XY"`` at ``p`` (its end is ``p + 4``), -1 if none."""
    if p < 0 or p + 4 > hi or d[p] != 34 or d[p + 3] != 34:
        return -1
    return cards[np.int64(d[p + 1]) | np.int64(d[p + 2]) << 8]


@jit
def _cards(d: np.ndarray, p: int, hi: int, cards: np.ndarray, n: int, at: np.ndarray,
           code: np.ndarray) -> int:
    """``[card, ...]`` of exactly ``n`` cards: their positions and codes; the end, or -1."""
    p = _byte(d, p, hi, 91)
    for i in range(n):
        if i:
            p = _sep(d, p, hi)
        c = _card(d, p, hi, cards)
        if c < 0:
            return -1
        at[i] = p
        code[i] = c
        p += 4
    return _byte(d, p, hi, 93)


# --- looking up -------------------------------------------------------------------------------

@jit
def _game(d: np.ndarray, s: int, e: int, ids: np.ndarray, id_off: np.ndarray) -> int:
    """Index of the game id ``d[s:e]`` among the sorted ``ids``, -1 if none."""
    lo, hi = 0, len(id_off) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        a, b = id_off[mid], id_off[mid + 1]
        cmp = 0
        for i in range(min(e - s, b - a)):
            if d[s + i] != ids[a + i]:
                cmp = -1 if d[s + i] < ids[a + i] else 1
                break
        if cmp == 0:
            cmp = -1 if e - s < b - a else (1 if e - s > b - a else 0)
        if cmp == 0:
            return mid
        if cmp < 0:
            hi = mid
        else:
            lo = mid + 1
    return -1


@jit
def _seat(d: np.ndarray, s: int, e: int, g: int, names: np.ndarray, name_off: np.ndarray,
          n: int) -> int:
    """The seat of the player named ``d[s:e]`` in game ``g``, -1 if none."""
    for seat in range(n):
        if _same(d, s, e, names, name_off[g, seat], name_off[g, seat + 1]):
            return seat
    return -1


@jit
def _popcount(x: int | np.int64) -> int:
    """Cards in a set (a non-negative mask: the 32-card deck's codes are below 63)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return int((x * 0x0101010101010101) >> 56) & 0xFF


# --- writing ----------------------------------------------------------------------------------

@jit
def _put(out: np.ndarray, o: int, d: np.ndarray, s: int, e: int) -> int:
    for i in range(e - s):
        out[o + i] = d[s + i]
    return o + e - s


@jit
def _put_literal(out: np.ndarray, o: int, w: np.ndarray) -> int:
    for i in range(len(w)):
        out[o + i] = w[i]
    return o + len(w)


@jit
def _put_tight(out: np.ndarray, o: int, d: np.ndarray, s: int, e: int) -> int:
    """``d[s:e]`` without the space after each comma or colon, for a span whose strings hold
    no space (a list of cards, or a play in a game whose names have none): the canonical
    spacing."""
    prev = 0
    for i in range(s, e):
        c = d[i]
        if c != 32 or (prev != 44 and prev != 58):
            out[o] = c
            o += 1
        prev = c
    return o


@jit
def _by_rank(rank: np.ndarray, n: int, order: np.ndarray) -> None:
    """``order[:n]``: the entries ``0..n-1`` sorted by ``rank`` (distinct ranks)."""
    for i in range(n):
        at = 0
        for j in range(n):
            if rank[j] < rank[i]:
                at += 1
        order[at] = i


@jit
def _put_entries(out: np.ndarray, o: int, d: np.ndarray, name_s: np.ndarray,
                 name_e: np.ndarray, value_s: np.ndarray, value_e: np.ndarray,
                 rank: np.ndarray, n: int, order: np.ndarray) -> int:
    """The ``n`` entries ``"name":value`` of an object, sorted by the names' ``rank``, and its
    closing brace (the opening one written by the caller)."""
    _by_rank(rank, n, order)
    for j in range(n):
        i = order[j]
        if j:
            out[o] = 44
            o += 1
        o = _put(out, o, d, name_s[i] - 1, name_e[i] + 1)
        out[o] = 58
        o = _put(out, o + 1, d, value_s[i], value_e[i])
    out[o] = 125
    return o + 1


# --- the play ---------------------------------------------------------------------------------

@jit
def _replay(k: int, hands: np.ndarray, pos: np.ndarray, cards: np.ndarray, trump: int,
            overtrump: bool, want: np.ndarray) -> bool:
    """One play of ``k`` players replayed (``fastpath_cards.replay_arrays``; greek-prefa.md 7):
    every move the turn's, the card held, suit followed if able, else trumped if able, a trump
    in the trick overtrumped when the option asks and the hand can; the highest trump, else the
    highest card of the suit led, wins and leads next. True when the tricks are ``want``."""
    trump_mask = SUIT_MASK[4] if trump < 0 else SUIT_MASK[trump]
    taken = np.zeros(3, dtype=np.int64)
    turn = 0
    led = np.int64(0)
    best = 0
    best_seat = 0
    for i in range(10 * k):
        seat = pos[i]
        c = cards[i]
        b = np.int64(1) << c
        h = hands[seat]
        if seat != turn or h & b == 0:
            return False
        suit = c >> 4
        if i % k == 0:
            led = SUIT_MASK[suit]
            best = c
            best_seat = seat
        else:
            void = b & led == 0
            if void and h & led != 0:
                return False
            trumps = h & trump_mask
            must = void and h & led == 0 and trumps != 0
            if must and b & trump_mask == 0:
                return False
            higher = trumps & ~((np.int64(2) << best) - 1)
            if must and overtrump and best >> 4 == trump and c < best and higher != 0:
                return False
            wins = c > best if suit == best >> 4 else suit == trump
            if wins:
                best = c
                best_seat = seat
        hands[seat] = h ^ b
        if i % k == k - 1:
            taken[best_seat] += 1
            turn = best_seat
        else:
            turn = (turn + 1) % k
    for j in range(k):
        if taken[j] != want[j]:
            return False
    return True


# --- the pass ---------------------------------------------------------------------------------

@jit
def check_lines(
    d: np.ndarray, starts: np.ndarray, ends: np.ndarray, idx: np.ndarray,
    ids: np.ndarray, id_off: np.ndarray, id_game: np.ndarray,
    names: np.ndarray, name_off: np.ndarray, rank: np.ndarray, n_players: np.ndarray,
    ten_nt: np.ndarray, overtrump: np.ndarray, first_by_7d: np.ndarray, since: np.ndarray,
    spaced: np.ndarray, out: np.ndarray, length: np.ndarray, status: np.ndarray, game: np.ndarray,
    deal_no: np.ndarray, dealer: np.ndarray, declarer: np.ndarray, contract: np.ndarray,
    mode: np.ndarray, whister: np.ndarray, tricks: np.ndarray, bidder: np.ndarray,
    calls: np.ndarray,
) -> None:
    """Check the lines ``d[starts[i]:ends[i]]`` (at position ``idx[i]`` in the batch) and write
    the taken lines' canonical JSON one after the other into ``out`` from ``starts[0]`` on
    (``length[i]`` bytes each, 0 for a line not taken; never longer than the line, so the lines
    of one call stay within their own bytes).

    The games: ``ids`` their ids sorted by bytes, with ``id_game`` the index of each in the
    game arrays; ``names``/``name_off`` (games, 5) the players' names; ``rank`` the place of
    each name in sorted order; the rules this path reads; ``since`` the position of the game's
    line in the batch; ``spaced`` whether a player's name has a space. Per line: ``status``,
    its game, deal number, dealer, declarer, contract (ladder index, 4.1), defence mode (index
    of ``layout.MODES``), whister, tricks by seat (-1: not in the play), the declarer's
    position among the bidders (``bidder``) and its calls (``calls``: position * 32 + call
    code, then ``NO_CALL``; none when the line has no auction, and ``bidder`` -1)."""
    cards = CARDS
    # the parts of a line, reused from line to line
    hand_s = np.zeros(3, dtype=np.int64)
    hand_e = np.zeros(3, dtype=np.int64)
    hand_at = np.zeros((3, 10), dtype=np.int64)
    hand_card = np.zeros((3, 10), dtype=np.int64)
    talon_at = np.zeros(2, dtype=np.int64)
    talon_card = np.zeros(2, dtype=np.int64)
    discard_at = np.zeros(2, dtype=np.int64)
    discard_card = np.zeros(2, dtype=np.int64)
    call_ps = np.zeros(MAX_CALLS, dtype=np.int64)
    call_pe = np.zeros(MAX_CALLS, dtype=np.int64)
    call_s = np.zeros(MAX_CALLS, dtype=np.int64)
    call_e = np.zeros(MAX_CALLS, dtype=np.int64)
    call_code = np.zeros(MAX_CALLS, dtype=np.int64)
    def_s = np.zeros(2, dtype=np.int64)
    def_e = np.zeros(2, dtype=np.int64)
    def_vs = np.zeros(2, dtype=np.int64)
    def_ve = np.zeros(2, dtype=np.int64)
    def_v = np.zeros(2, dtype=np.int64)
    move_s = np.zeros(30, dtype=np.int64)
    move_e = np.zeros(30, dtype=np.int64)
    move_at = np.zeros(30, dtype=np.int64)
    move_card = np.zeros(30, dtype=np.int64)
    trick_s = np.zeros(3, dtype=np.int64)
    trick_e = np.zeros(3, dtype=np.int64)
    trick_vs = np.zeros(3, dtype=np.int64)
    trick_ve = np.zeros(3, dtype=np.int64)
    trick_n = np.zeros(3, dtype=np.int64)
    has = np.zeros(len(KEY_OFF) - 1, dtype=np.bool_)
    seat_mask = np.zeros(4, dtype=np.int64)
    active = np.zeros(3, dtype=np.int64)
    in_play = np.zeros(4, dtype=np.bool_)
    order = np.zeros(3, dtype=np.int64)
    ranks = np.zeros(3, dtype=np.int64)
    sorted_ = np.zeros(3, dtype=np.int64)
    hands = np.zeros(3, dtype=np.int64)
    pos = np.zeros(30, dtype=np.int64)
    want = np.zeros(3, dtype=np.int64)
    seats = np.zeros(3, dtype=np.int64)

    o = starts[0] if len(starts) else 0  # where the next taken line's canonical JSON goes
    for li in range(len(starts)):
        lo, hi = starts[li], ends[li]
        status[li] = SHAPE
        length[li] = 0
        for r in range(4):
            tricks[li, r] = -1
        for c in range(MAX_CALLS):
            calls[li, c] = NO_CALL
        bidder[li] = -1
        has[:] = False
        # ---- the layout (records.md 1.2): ``{"record":"deal"`` then the keys in one order
        p = _byte(d, lo, hi, 123)
        e = _string(d, p, hi)
        if e < 0 or _code(d, p + 1, e - 1, KEY_BYTES, KEY_OFF) != RECORD:
            continue
        p = _is(d, _colon(d, e, hi), hi, L_RECORD_DEAL)
        prev_records, prev_sorted = -1, -1
        records_order, sorted_order = True, True
        n_calls = n_moves = n_tricks = 0
        gid_s = gid_e = no_s = no_e = dealer_s = dealer_e = decl_s = decl_e = 0
        contract_s = contract_e = play_s = play_e = 0
        contract_code = -1
        shaped = p >= 0
        while shaped:
            if p < hi and d[p] == 125:
                p += 1
                break
            p = _sep(d, p, hi)
            e = _string(d, p, hi)
            k = -1 if e < 0 else _code(d, p + 1, e - 1, KEY_BYTES, KEY_OFF)
            if k <= 0:
                shaped = False
                break
            records_order = records_order and RECORDS_RANK[k] > prev_records
            sorted_order = sorted_order and SORTED_RANK[k] > prev_sorted
            prev_records, prev_sorted = RECORDS_RANK[k], SORTED_RANK[k]
            has[k] = True
            p = _colon(d, e, hi)
            if k == GAME_ID or k == DEALER or k == DECLARER:
                e = _string(d, p, hi)
                if k == GAME_ID:
                    gid_s, gid_e = p + 1, e - 1
                elif k == DEALER:
                    dealer_s, dealer_e = p + 1, e - 1
                else:
                    decl_s, decl_e = p + 1, e - 1
                p = e
            elif k == DEAL_NO:
                no_s = p
                if p < 0 or p >= hi or d[p] < 49 or d[p] > 57:
                    shaped = False
                    break
                p += 1
                while p < hi and p - no_s < 9 and d[p] >= 48 and d[p] <= 57:
                    p += 1
                no_e = p
            elif k == HANDS:
                p = _byte(d, p, hi, 123)
                for h in range(3):
                    if h:
                        p = _sep(d, p, hi)
                    e = _string(d, p, hi)
                    hand_s[h], hand_e[h] = p + 1, e - 1
                    p = _cards(d, _colon(d, e, hi), hi, cards, 10, hand_at[h], hand_card[h])
                p = _byte(d, p, hi, 125)
            elif k == TALON:
                p = _cards(d, p, hi, cards, 2, talon_at, talon_card)
            elif k == DISCARD:
                p = _cards(d, p, hi, cards, 2, discard_at, discard_card)
            elif k == AUCTION:
                p = _byte(d, p, hi, 91)
                while p >= 0:
                    if n_calls:
                        if p < hi and d[p] == 93:
                            break
                        p = _sep(d, p, hi)
                    p = _byte(d, p, hi, 123)
                    player_first = _is(d, p, hi, L_PLAYER) > 0
                    ps = pe = cs = ce = 0
                    for part in range(2):
                        if part:
                            p = _sep(d, p, hi)
                        is_player = player_first == (part == 0)
                        p = _is(d, p, hi, L_PLAYER if is_player else L_CALL)
                        p = _colon(d, p, hi)
                        e = _string(d, p, hi)
                        if is_player:
                            ps, pe = p + 1, e - 1
                        else:
                            cs, ce = p + 1, e - 1
                        p = e
                    p = _byte(d, p, hi, 125)
                    code = -1 if p < 0 else _code(d, cs, ce, CALL_BYTES, CALL_OFF)
                    if code < 0:
                        p = -1
                        break
                    if n_calls < MAX_CALLS:
                        call_ps[n_calls], call_pe[n_calls] = ps, pe
                        call_s[n_calls], call_e[n_calls] = cs, ce
                        call_code[n_calls] = code
                    n_calls += 1
                p = _byte(d, p, hi, 93)
            elif k == CONTRACT:
                e = _string(d, p, hi)
                contract_s, contract_e = p + 1, e - 1
                contract_code = -1 if e < 0 else _code(d, p + 1, e - 1, CONTRACT_BYTES,
                                                       CONTRACT_OFF)
                p = -1 if contract_code < 0 else e
            elif k == DEFENCE:
                p = _byte(d, p, hi, 123)
                for i in range(2):
                    if i:
                        p = _sep(d, p, hi)
                    e = _string(d, p, hi)
                    def_s[i], def_e[i] = p + 1, e - 1
                    p = _colon(d, e, hi)
                    e = _string(d, p, hi)
                    v = -1 if e < 0 else _code(d, p + 1, e - 1, DECISION_BYTES, DECISION_OFF)
                    def_v[i], def_vs[i], def_ve[i] = v, p, e
                    p = -1 if v < 0 else e
                p = _byte(d, p, hi, 125)
            elif k == PLAY:
                play_s = p
                p = _byte(d, p, hi, 91)
                while p >= 0:
                    if n_moves:
                        if p < hi and d[p] == 93:
                            break
                        p = _sep(d, p, hi)
                    p = _byte(d, p, hi, 91)
                    e = _string(d, p, hi)
                    s_ = p + 1
                    p = _sep(d, e, hi)
                    c = _card(d, p, hi, cards)
                    if c < 0:
                        p = -1
                        break
                    if n_moves < 30:
                        move_s[n_moves], move_e[n_moves] = s_, e - 1
                        move_at[n_moves], move_card[n_moves] = p, c
                    n_moves += 1
                    p = _byte(d, p + 4, hi, 93)
                p = _byte(d, p, hi, 93)
                play_e = p
            elif k == TRICKS:
                p = _byte(d, p, hi, 123)
                while p >= 0 and not (p < hi and d[p] == 125):
                    if n_tricks:
                        p = _sep(d, p, hi)
                    if n_tricks == 3:
                        p = -1
                        break
                    e = _string(d, p, hi)
                    trick_s[n_tricks], trick_e[n_tricks] = p + 1, e - 1
                    p = _colon(d, e, hi)
                    if p < 0 or p >= hi or d[p] < 48 or d[p] > 57:
                        p = -1
                        break
                    trick_vs[n_tricks] = p
                    if d[p] == 49 and p + 1 < hi and d[p + 1] == 48:
                        trick_n[n_tricks] = 10
                        p += 2
                    else:
                        trick_n[n_tricks] = d[p] - 48
                        p += 1
                    trick_ve[n_tricks] = p
                    n_tricks += 1
                if n_tricks == 1:
                    p = -1
                p = _byte(d, p, hi, 125)
            else:  # the flags: only their default here
                p = _is(d, p, hi, L_FALSE)
            if p < 0:
                shaped = False
        if not shaped or p != hi:
            continue
        if not (has[GAME_ID] and has[DEAL_NO] and has[DEALER] and has[HANDS]):
            continue
        agree = has[DECLARER] == has[CONTRACT] and has[DECLARER] == has[DEFENCE]
        grouped = agree and (has[DECLARER] or not has[DISCARD])
        if not ((records_order and grouped) or sorted_order):
            continue
        # ---- the game, as of this line
        status[li] = GAME
        at = _game(d, gid_s, gid_e, ids, id_off)
        if at < 0:
            continue
        g = id_game[at]
        if idx[li] <= since[g]:
            continue
        number = 0
        for q in range(no_s, no_e):
            number = number * 10 + (d[q] - 48)
        if first_by_7d[g] and number == 1:
            continue
        status[li] = RULES
        if not agree:  # declarer, contract and defence come together (5.1, 6.1)
            continue
        n = n_players[g]
        # dealer and the three dealt in, first hand first (3, 14 four_players)
        dl = _seat(d, dealer_s, dealer_e, g, names, name_off, n)
        if dl < 0:
            continue
        for i in range(3):
            active[i] = (dl + 1 + i) % n
        # hands: of exactly the players dealt in, ten cards each, thirty in all (3)
        seat_mask[:] = 0
        seen = np.int64(0)
        good = True
        for h in range(3):
            seat = _seat(d, hand_s[h], hand_e[h], g, names, name_off, n)
            mask = np.int64(0)
            for c in range(10):
                mask |= np.int64(1) << hand_card[h, c]
            if seat < 0 or seat_mask[seat] != 0 or _popcount(mask) != 10:
                good = False
                break
            if not (seat == active[0] or seat == active[1] or seat == active[2]):
                good = False
                break
            seat_mask[seat] = mask
            seats[h] = seat
            seen |= mask
        if not good or _popcount(seen) != 30:
            continue
        # talon (3): two cards, the rest of the deck
        talon = DECK & ~seen
        if has[TALON]:
            given = (np.int64(1) << talon_card[0]) | (np.int64(1) << talon_card[1])
            if given != talon:
                continue
        # auction (4.2): each call's player by position among the bidders
        if n_calls > MAX_CALLS:
            continue
        for c in range(n_calls):
            who = _seat(d, call_ps[c], call_pe[c], g, names, name_off, n)
            if who < 0:
                good = False
                break
            calls[li, c] = min((who - dl - 1) % n, 3) * 32 + call_code[c]
        if not good:
            continue
        # declarer, contract (5.1, 14 ten_nt) and defence (6.1)
        decl = -1
        if has[DECLARER]:
            decl = _seat(d, decl_s, decl_e, g, names, name_off, n)
            k = -1
            for i in range(3):
                if active[i] == decl:
                    k = i
            if decl < 0 or k < 0:
                continue
            if contract_code == TEN_NT and not ten_nt[g]:
                continue
            if has[AUCTION]:
                bidder[li] = k
            right, left = active[(k + 1) % 3], active[(k + 2) % 3]
            first = _seat(d, def_s[0], def_e[0], g, names, name_off, n)
            second = _seat(d, def_s[1], def_e[1], g, names, name_off, n)
            if first == right and second == left:
                v_right, v_left = def_v[0], def_v[1]
            elif first == left and second == right:
                v_right, v_left = def_v[1], def_v[0]
            else:
                continue
            PLAY_, PASS_, INVITE_ = 0, 1, 2
            both = v_right == PLAY_ and v_left == PLAY_
            if not both and (v_right == PLAY_ or v_left == PLAY_
                             or (v_right != PASS_ and v_left != PASS_)):
                continue
            m = 4 if both else (1 if v_right == PASS_ and v_left == PASS_ else (
                2 if v_right == INVITE_ or v_left == INVITE_ else 3))
            wh = (right if v_right != PASS_ else left) if m == 2 or m == 3 else -1
        else:
            if has[DISCARD] or has[PLAY] or n_tricks > 0:
                continue
            m, wh = 0, -1
        # discard (5): two of the declarer's twelve cards
        full = (seat_mask[decl] if decl >= 0 else seat_mask[0]) | talon
        discard = (np.int64(1) << discard_card[0]) | (np.int64(1) << discard_card[1])
        if has[DISCARD] and (_popcount(discard) != 2 or discard & ~full != 0):
            continue
        # who plays (7): all three, the declarer and the one defender, or nobody
        n_order = 0
        for i in range(3):
            seat = active[i]
            in_play[i] = (seat == decl or seat == wh) if m == 3 else m >= 2
            if in_play[i]:
                order[n_order] = seat
                n_order += 1
        # tricks (7): of exactly the players in the play, summing to ten
        if n_tricks != n_order or (n_order == 0 and has[PLAY]):
            continue
        total = 0
        for t in range(n_tricks):
            seat = _seat(d, trick_s[t], trick_e[t], g, names, name_off, n)
            wanted = False
            for i in range(3):
                if in_play[i] and active[i] == seat:
                    wanted = True
            if seat < 0 or not wanted or tricks[li, seat] >= 0:
                good = False
                break
            tricks[li, seat] = trick_n[t]
            total += trick_n[t]
        if not good or (n_tricks > 0 and total != 10):
            continue
        # play (7): replayed to exactly the recorded tricks
        if has[PLAY]:
            if n_moves != 10 * n_order:
                continue
            played = np.int64(0)
            for i in range(n_moves):
                seat = _seat(d, move_s[i], move_e[i], g, names, name_off, n)
                pos[i] = -1
                for j in range(n_order):
                    if order[j] == seat:
                        pos[i] = j
                if pos[i] < 0:
                    good = False
                    break
                if seat == decl:
                    played |= np.int64(1) << move_card[i]
            if not good:
                continue
            start = full & ~discard if has[DISCARD] else full & played
            for j in range(n_order):
                hands[j] = start if order[j] == decl else seat_mask[order[j]]
                want[j] = tricks[li, order[j]]
            denom = contract_code % 5
            trump = -1 if denom == NT else denom
            if not _replay(n_order, hands, pos, move_card, trump, overtrump[g], want):
                continue
        # ---- taken: the canonical JSON, written over the line's own bytes (never longer)
        status[li] = TAKEN
        game[li], deal_no[li], dealer[li], declarer[li] = g, number, dl, decl
        contract[li] = contract_code if has[DECLARER] else -1
        mode[li], whister[li] = m, wh
        begin = o
        out[o] = 123
        o += 1
        if has[AUCTION]:
            o = _put_literal(out, o, C_AUCTION)
            for c in range(n_calls):
                if c:
                    out[o] = 44
                    o += 1
                o = _put_literal(out, o, C_CALL)
                o = _put(out, o, d, call_s[c] - 1, call_e[c] + 1)
                o = _put_literal(out, o, C_PLAYER)
                o = _put(out, o, d, call_ps[c] - 1, call_pe[c] + 1)
                out[o] = 125
                o += 1
            out[o] = 93
            out[o + 1] = 44
            o += 2
        if has[CONTRACT]:
            o = _put_literal(out, o, C_CONTRACT)
            o = _put(out, o, d, contract_s - 1, contract_e + 1)
            out[o] = 44
            o += 1
        o = _put_literal(out, o, C_DEAL_NO)
        o = _put(out, o, d, no_s, no_e)
        o = _put_literal(out, o, C_DEALER)
        o = _put(out, o, d, dealer_s - 1, dealer_e + 1)
        if has[DECLARER]:
            o = _put_literal(out, o, C_DECLARER)
            o = _put(out, o, d, decl_s - 1, decl_e + 1)
            o = _put_literal(out, o, C_DEFENCE)
            for i in range(2):
                ranks[i] = rank[g, _seat(d, def_s[i], def_e[i], g, names, name_off, n)]
            o = _put_entries(out, o, d, def_s, def_e, def_vs, def_ve, ranks, 2, sorted_)
        if has[DISCARD]:
            o = _put_literal(out, o, C_DISCARD)
            o = _put_tight(out, o, d, discard_at[0] - 1, discard_at[1] + 5)
        o = _put_literal(out, o, C_GAME_ID)
        o = _put(out, o, d, gid_s - 1, gid_e + 1)
        o = _put_literal(out, o, C_HANDS)
        for h in range(3):
            ranks[h] = rank[g, seats[h]]
        _by_rank(ranks, 3, sorted_)
        for j in range(3):
            h = sorted_[j]
            if j:
                out[o] = 44
                o += 1
            o = _put(out, o, d, hand_s[h] - 1, hand_e[h] + 1)
            out[o] = 58
            o = _put_tight(out, o + 1, d, hand_at[h, 0] - 1, hand_at[h, 9] + 5)
        out[o] = 125
        o += 1
        if has[PLAY]:
            o = _put_literal(out, o, C_PLAY)
            if not spaced[g]:  # the whole play at once
                o = _put_tight(out, o, d, play_s, play_e)
            else:  # move by move: a name's own spaces stay
                out[o] = 91
                o += 1
                for i in range(n_moves):
                    if i:
                        out[o] = 44
                        o += 1
                    out[o] = 91
                    o = _put(out, o + 1, d, move_s[i] - 1, move_e[i] + 1)
                    out[o] = 44
                    o = _put(out, o + 1, d, move_at[i], move_at[i] + 4)
                    out[o] = 93
                    o += 1
                out[o] = 93
                o += 1
        if has[TALON]:
            o = _put_literal(out, o, C_TALON)
            o = _put_tight(out, o, d, talon_at[0] - 1, talon_at[1] + 5)
        if has[TRICKS]:
            o = _put_literal(out, o, C_TRICKS)
            for t in range(n_tricks):
                ranks[t] = rank[g, _seat(d, trick_s[t], trick_e[t], g, names, name_off, n)]
            o = _put_entries(out, o, d, trick_s, trick_e, trick_vs, trick_ve, ranks, n_tricks,
                             sorted_)
        out[o] = 125
        o += 1
        length[li] = o - begin


# --- finding lines ----------------------------------------------------------------------------

@jit
def lines_holding(d: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                  needle: np.ndarray) -> np.ndarray:
    """Whether each line ``d[starts[i]:ends[i]]`` holds the bytes ``needle`` (its second byte is
    looked for first: the first is often a quote, which is everywhere in JSON)."""
    m = len(needle)
    out = np.full(len(starts), m == 0, dtype=np.bool_)
    k = min(1, m - 1)  # the byte looked for first
    for i in range(len(starts) if m else 0):
        for p in range(starts[i], ends[i] - m + 1):
            if d[p + k] != needle[k]:
                continue
            j = 0
            while j < m and d[p + j] == needle[j]:
                j += 1
            if j == m:
                out[i] = True
                break
    return out
