"""Columnar fast path for Greek Prefa deals with hands in JSON Lines (``docs/ingest.md``).

The card fast path of ``ingest/fastpath_cards.py`` checks one parsed line at a time. This path
checks a whole batch of lines at once, in polars and numpy, without parsing any line into Python
objects; like every fast path it only *accepts*: a line it does not take goes on to the per-line
card path and then to the pydantic reference, so issues and their messages stay the reference's.

A line is taken when

1. its text has one of two exact layouts (one regular expression, :data:`SHAPE`): the key order of
   records.md 1.2 as the samples write it (``record, game_id, deal_no, dealer, hands[, talon]
   [, auction][, declarer[, discard], contract, defence][, play][, tricks]``) or the canonical
   order (``record`` first, the other keys sorted, as the simulator writes); ``", "``/``","`` and
   ``": "``/``":"`` as separators; three hands of ten cards, cards spelt ``7S`` ... ``AH``, calls
   from the Greek vocabulary, decisions ``play|pass|invite|alone``, tricks 0-10, no nulls, flags
   only ``false``, names and ids without quotes, backslashes or control characters
   (``layout.py``);
2. its game is a known Greek Prefa game the per-line path takes too (``fastpath_cards.game_view``)
   with names of at most ``games.NAME_BYTES`` bytes, none named like a key, visible at the line
   (after its game line; ``games.py``);
3. it passes, column by column, every check ``fastpath_cards.check`` makes (``model/greek/
   check.py``): dealer, hands of exactly the three players dealt in (3, 14 ``four_players``),
   deck partition (3), the auction run by ``model/greek/auction.py`` on each distinct sequence of
   calls (4.2), declarer, contract (5.1, 14 ``ten_nt``), defence (6.1), discard (5), tricks (7)
   and the replay of the play (7, ``fastpath_cards.replay_arrays``).

The canonical JSON (records.md: defaults left out, keys sorted, no spaces) is assembled from the
line's own bytes: the spaces between tokens dropped, the calls' keys put in order, the top-level
sections and the entries of ``hands``, ``defence`` and ``tricks`` sorted (``record.py``, with the
byte-level helpers of ``text.py``). Only the sha256 of each deal is taken per line.
``tests/ingest/test_fastpath_columns.py`` holds, by hypothesis, that a line this path takes is
accepted by the reference with the same canonical JSON, deal key, ``deals`` columns and
``deals_greek`` row, and that it takes the lines the per-line path takes in these layouts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

import numpy as np
import polars as pl

from ingest import fastpath_cards as per_line
from ingest.fastpath_columns.games import (
    Games,
    auction_verdicts,
    card_at,
    card_set,
    popcount,
    seat_of,
)
from ingest.fastpath_columns.layout import (
    ALONE_,
    AUCTION,
    CALL_KEYS,
    CALL_VOCAB,
    CONTRACT,
    CONTRACT_VOCAB,
    DEAL_NO,
    DEALER,
    DECISION_VOCAB,
    DECLARER,
    DEFENCE,
    DENOM,
    DISCARD,
    GAME_ID,
    HANDS,
    INVITE_,
    KEY_VOCAB,
    KEYS,
    PASS_,
    PLAY,
    PLAY_,
    SHAPE,
    TALON,
    TRICKS,
)
from ingest.fastpath_columns.record import Checked, taken_rows
from ingest.fastpath_columns.text import Text
from model.cards import DECK_32
from model.greek.contracts import NT, ladder_index

OUTPUT_SCHEMA = per_line.OUTPUT_SCHEMA
MAX_CALLS = 32
"""Longest auction this path runs; longer ones go per line."""
WORKERS = min(4, os.cpu_count() or 1)
"""Threads checking the parts of a large batch side by side."""
PART = 2_000
"""Lines per part: a larger batch is checked in parts of this size, side by side (small parts
also keep the arrays small: their memory is reused instead of mapped afresh)."""

def accept(lines: Sequence[str], candidates: Sequence[int],
           games: Mapping[str, tuple[per_line.GameView, int]],
           cache: dict[tuple[str, bytes], tuple[int, int]] | None = None) -> pl.DataFrame:
    """The candidate lines (positions in ``lines``) this path takes, as a frame of
    ``OUTPUT_SCHEMA``. ``games`` maps a game id to its per-line view and the position of its
    game line in ``lines`` (-1: known before); a deal sees a game only after that line. ``cache``
    keeps auction verdicts between batches.

    The shape is checked in polars; the rest runs in numpy, which releases the GIL in its loops:
    a large batch is cut into parts of :data:`PART` lines, checked side by side by
    :data:`WORKERS` threads."""
    if not candidates or not games:
        return pl.DataFrame(schema=OUTPUT_SCHEMA)
    table = Games.of(games)
    if not table.index:
        return pl.DataFrame(schema=OUTPUT_SCHEMA)
    frame = pl.DataFrame({"idx": pl.Series(candidates, dtype=pl.Int32),
                          "text": pl.Series([lines[i] for i in candidates], dtype=pl.String)})
    frame = frame.filter(pl.col("text").str.contains(SHAPE))
    cache = {} if cache is None else cache
    if frame.height <= PART:
        return _accept_shaped(frame, table, cache)
    with ThreadPoolExecutor(WORKERS) as pool:
        done = list(pool.map(lambda at: _accept_shaped(frame.slice(at, PART), table, cache),
                             range(0, frame.height, PART)))
    return pl.concat(done)


def _accept_shaped(frame: pl.DataFrame, table: Games,
                   cache: dict[tuple[str, bytes], tuple[int, int]]) -> pl.DataFrame:
    """The lines of ``frame`` (``idx``, ``text``), all of the shape, this path takes."""
    if frame.height == 0:
        return pl.DataFrame(schema=OUTPUT_SCHEMA)
    calls_sorted = frame["text"].str.replace_all(CALL_KEYS, '{"call":$2,"player":$1}')
    return _check(frame, Text.of(calls_sorted, table.punctuated), table, cache)


class _Strings(Protocol):
    def __call__(self, k: int, off: int | np.ndarray = 1, rows: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray]: ...


def _check(frame: pl.DataFrame, text: Text, games: Games,
           cache: dict[tuple[str, bytes], tuple[int, int]]) -> pl.DataFrame:
    n = frame.height
    rows = np.arange(n)
    # the keys of the record: strings followed by a colon with a key's name (the other
    # strings followed by a colon are the calls' keys and players' names, and a game whose
    # players are named like a key is not taken: ``Games.of``); each at most once
    d = text.data
    ok = text.intact.copy()
    s_key = np.flatnonzero(d[text.close + 1] == ord(":"))
    start, length = text.open[s_key] + 1, text.close[s_key] - text.open[s_key] - 1
    key = KEY_VOCAB.code(text, start, length)
    s_key, key = s_key[key >= 0], key[key >= 0]
    line_of = np.searchsorted(text.first, s_key, side="right") - 1
    at = np.full((n, len(KEYS)), -1, dtype=np.int64)
    at[line_of, key] = s_key - text.first[line_of]
    ok &= np.bincount(line_of, minlength=n) == (at >= 0).sum(axis=1)
    # where each section's strings end: at the next key, or the line's end
    big = np.where(at < 0, 1 << 40, at)
    by_place = np.argsort(big, axis=1)
    following = np.take_along_axis(big, by_place, axis=1)
    following = np.concatenate([following[:, 1:], np.full((n, 1), 1 << 40)], axis=1)
    upto = np.empty_like(at)
    np.put_along_axis(upto, by_place, np.minimum(following, text.count[:, None]), axis=1)
    has = at >= 0

    def s(k: int, off: int | np.ndarray = 1, rows: np.ndarray | None = None
          ) -> tuple[np.ndarray, np.ndarray]:
        """The strings ``off`` after key ``k`` of every line (or of ``rows``)."""
        j = (at[:, k] if rows is None else at[rows, k]).reshape((-1,) + (1,) * np.ndim(off))
        return text.strings(j + off, rows)

    # the game, as of this line
    gs, gl = s(GAME_ID)
    ids = [d[a:a + b].tobytes() for a, b in zip(gs.tolist(), gl.tolist(), strict=True)]
    g = np.array([games.index.get(i, -1) for i in ids], dtype=np.int64)
    ok &= g >= 0
    g = np.where(ok, g, 0)
    ok &= frame["idx"].to_numpy() > games.since[g]
    n_players = games.n[g]
    # deal number: the digits after the key's colon
    ds = text.close[text.first + at[:, DEAL_NO]] + 2
    digits = d[ds[:, None] + np.arange(10)].astype(np.int64) - ord("0")
    is_digit = (digits >= 0) & (digits <= 9)
    n_digits = np.cumprod(is_digit, axis=1).sum(axis=1)
    powers = 10 ** np.maximum(n_digits[:, None] - 1 - np.arange(10), 0)
    deal_no = np.where(np.arange(10) < n_digits[:, None], digits * powers, 0).sum(axis=1)
    ok &= ~(games.first_by_7d[g] & (deal_no == 1))
    # dealer and the three dealt in, first hand first (3, 14 four_players)
    dealer = seat_of(text, games, g, *s(DEALER))
    ok &= dealer >= 0
    active = (dealer[:, None] + 1 + np.arange(3)) % n_players[:, None]
    # hands: three entries of a name and ten cards, of exactly the players dealt in (3)
    hs, hl = s(HANDS, 1 + 11 * np.arange(3))
    hand_seat = seat_of(text, games, g, hs, hl)
    cs, _ = s(HANDS, (2 + 11 * np.arange(3))[:, None] + np.arange(10))
    hand_cards = card_at(text, cs.reshape(n, 3, 10))
    ok &= (np.sort(hand_seat, axis=1) == np.sort(active, axis=1)).all(axis=1)
    hand_mask = card_set(hand_cards)
    ok &= (popcount(hand_mask) == 10).all(axis=1)
    seen = np.bitwise_or.reduce(hand_mask, axis=1)
    ok &= popcount(seen) == 30
    deck = np.int64(DECK_32)
    seat_mask = np.zeros((n, 4), dtype=np.int64)
    seat_mask[rows[:, None], np.where(hand_seat >= 0, hand_seat, 0)] = hand_mask
    # talon (3): two cards, the rest of the deck
    ts, _ = s(TALON, np.arange(1, 3))
    given_talon = card_set(card_at(text, ts))
    has_talon = has[:, TALON]
    ok &= ~has_talon | ((popcount(given_talon) == 2) & (given_talon | seen == deck)
                        & (given_talon & seen == 0))
    talon = np.where(has_talon, given_talon, deck & ~seen)
    # auction (4.2): each call's player by position among the bidders (3: the dealer sitting out)
    n_calls = np.where(has[:, AUCTION], (upto[:, AUCTION] - at[:, AUCTION] - 1) // 4, 0)
    ok &= n_calls <= MAX_CALLS
    width = max(1, int(min(n_calls.max(initial=0), MAX_CALLS)))
    base = 1 + 4 * np.arange(width)
    call_s, call_l = s(AUCTION, base + 1)
    who_s, who_l = s(AUCTION, base + 3)
    who = seat_of(text, games, g, who_s, who_l)
    rel = (who - dealer[:, None] - 1) % n_players[:, None]
    rel = np.where(who < 0, 3, np.minimum(rel, 3))
    call = CALL_VOCAB.code(text, call_s, call_l)
    ok &= ~((np.arange(width) < n_calls[:, None]) & (who < 0)).any(axis=1)
    winner, bid = auction_verdicts(games, g, rel, np.where(call < 0, 0, call), n_calls, cache)
    winner = np.where(has[:, AUCTION], winner, -1)
    ok &= winner != -2
    # declarer, contract (5.1, 14 ten_nt) and defence (6.1)
    has_declarer = has[:, DECLARER]
    ok &= has[:, CONTRACT] == has_declarer
    ok &= has[:, DEFENCE] == has_declarer
    n_tricks = np.where(has[:, TRICKS], upto[:, TRICKS] - at[:, TRICKS] - 1, 0)
    ok &= has_declarer | ~(has[:, DISCARD] | has[:, PLAY] | (n_tricks > 0))
    ok &= has_declarer | ~has[:, AUCTION] | (winner == -1)
    declarer = seat_of(text, games, g, *s(DECLARER))
    k = np.argmax(active == declarer[:, None], axis=1)
    ok &= ~has_declarer | (active == declarer[:, None]).any(axis=1)
    ok &= ~has_declarer | ~has[:, AUCTION] | (winner == k)
    k_s, k_l = s(CONTRACT)
    contract = CONTRACT_VOCAB.code(text, k_s, k_l)
    contract = np.where(has_declarer, contract, -1)
    ok &= ~has_declarer | (contract >= 0)
    ok &= (contract != ladder_index(10, NT)) | games.ten_nt[g]
    ok &= ~has_declarer | ~has[:, AUCTION] | (bid <= contract)
    fs, fl = s(DEFENCE, np.array([1, 3]))
    vs, vl = s(DEFENCE, np.array([2, 4]))
    def_seat = seat_of(text, games, g, fs, fl)
    decision = DECISION_VOCAB.code(text, vs, vl)
    right = active[rows, (k + 1) % 3]
    left = active[rows, (k + 2) % 3]
    first_is_right = def_seat[:, 0] == right
    ok &= ~has_declarer | ((first_is_right & (def_seat[:, 1] == left))
                           | ((def_seat[:, 0] == left) & (def_seat[:, 1] == right)))
    v_right = np.where(first_is_right, decision[:, 0], decision[:, 1])
    v_left = np.where(first_is_right, decision[:, 1], decision[:, 0])
    lo, hi = np.minimum(v_right, v_left), np.maximum(v_right, v_left)
    both = (v_right == PLAY_) & (v_left == PLAY_)
    single = (lo == PASS_) & ((hi == PASS_) | (hi == INVITE_) | (hi == ALONE_))
    ok &= ~has_declarer | both | single
    mode = np.where(~has_declarer, 0, np.where(both, 4, np.where(
        (v_right == PASS_) & (v_left == PASS_), 1,
        np.where((v_right == INVITE_) | (v_left == INVITE_), 2, 3))))
    whister = np.where(v_right != PASS_, right, left)
    whister = np.where((mode == 2) | (mode == 3), whister, -1)
    # discard (5): two of the declarer's twelve cards
    decl_seat = np.where(has_declarer & (declarer >= 0), declarer, 0)
    full = seat_mask[rows, decl_seat] | talon
    ds2, _ = s(DISCARD, np.arange(1, 3))
    discard = card_set(card_at(text, ds2))
    has_discard = has[:, DISCARD]
    ok &= ~has_discard | ((popcount(discard) == 2) & (discard & ~full == 0))
    # who plays (7): all three, the declarer and the one defender, or nobody
    in_order = np.where(mode[:, None] == 3, (active == declarer[:, None])
                        | (active == whister[:, None]), mode[:, None] >= 2)
    n_order = in_order.sum(axis=1)
    # tricks (7): of exactly the players in the play, summing to ten
    ok &= (n_tricks == n_order) & ((n_order > 0) | ~has[:, PLAY])
    tn_s, tn_l = s(TRICKS, 1 + np.arange(3))
    t_seat = seat_of(text, games, g, tn_s, tn_l)
    t_seat = np.where(np.arange(3) < n_tricks[:, None], t_seat, -1)
    after = text.close[np.minimum(text.first[:, None] + at[:, TRICKS][:, None] + 1
                                  + np.arange(3), len(text.close) - 1)] + 2
    t0 = d[after].astype(np.int64) - ord("0")
    t1 = d[after + 1].astype(np.int64)
    taken = np.where((t1 >= ord("0")) & (t1 <= ord("9")), 10, t0)
    taken = np.where(np.arange(3) < n_tricks[:, None], taken, 0)
    ok &= (n_tricks == 0) | (taken.sum(axis=1) == 10)
    wanted = np.where(in_order, active, -1)  # the seats in the play
    tricks_at = np.full((n, 4), -1, dtype=np.int64)
    for i in range(3):
        named = t_seat[:, i] >= 0
        ok &= (i >= n_tricks) | (named & (wanted == t_seat[:, i:i + 1]).any(axis=1))
        tricks_at[rows[named], t_seat[named, i]] = taken[named, i]
    ok &= ~((t_seat[:, :, None] == t_seat[:, None, :]) & (t_seat[:, :, None] >= 0)
            & ~np.eye(3, dtype=bool)).any(axis=(1, 2))
    # play (7): replayed in numpy to exactly the recorded tricks
    has_play = has[:, PLAY]
    n_moves = np.where(has_play, (upto[:, PLAY] - at[:, PLAY] - 1) // 2, 0)
    ok &= ~has_play | (n_moves == 10 * n_order)
    replayed = _replay(text, games, g, s, ok & has_play, in_order, active, seat_mask, full,
                       discard, has_discard, declarer, contract, tricks_at)
    ok &= ~has_play | replayed
    return taken_rows(frame, text, games, Checked(
        ok=ok, g=g, at=at, upto=upto, deal_no=deal_no, dealer=dealer, declarer=declarer,
        contract=contract, mode=mode, whister=whister, tricks=tricks_at, hand_seat=hand_seat,
        defence_seat=def_seat, tricks_seat=t_seat, n_tricks=n_tricks))


def _replay(text: Text, games: Games, g: np.ndarray, s: _Strings, todo: np.ndarray,
            in_order: np.ndarray, active: np.ndarray, seat_mask: np.ndarray, full: np.ndarray,
            discard: np.ndarray, has_discard: np.ndarray, declarer: np.ndarray,
            contract: np.ndarray, tricks_at: np.ndarray) -> np.ndarray:
    """The verdict of the replay of each line's play (``fastpath_cards.replay_arrays``), for
    the lines in ``todo``; the players in turn order are the seats of ``active`` in the play."""
    n = len(g)
    verdict = np.zeros(n, dtype=bool)
    for k in (2, 3):
        sel = np.flatnonzero(todo & (in_order.sum(axis=1) == k))
        if not len(sel):
            continue
        first_two = np.argsort(~in_order[sel], axis=1, kind="stable")[:, :k]
        order = np.take_along_axis(active[sel], first_two, axis=1)
        ms, ml = s(PLAY, 1 + 2 * np.arange(10 * k), sel)
        cs, _ = s(PLAY, 2 + 2 * np.arange(10 * k), sel)
        seat = seat_of(text, games, g[sel], ms, ml)
        pos = np.full(seat.shape, -1, dtype=np.int64)
        for p in range(k):
            pos = np.where(seat == order[:, p:p + 1], p, pos)
        cards = card_at(text, cs)
        hands = seat_mask[sel[:, None], order]
        decl = declarer[sel]
        is_decl = order == decl[:, None]
        played = np.bitwise_or.reduce(np.where(pos == np.argmax(is_decl, axis=1)[:, None],
                                               np.int64(1) << cards, 0), axis=1)
        start = np.where(has_discard[sel], full[sel] & ~discard[sel], full[sel] & played)
        hands = np.where(is_decl, start[:, None], hands)
        denom = np.where(contract[sel] >= 0, DENOM[np.maximum(contract[sel], 0)], NT)
        trump = np.where(denom == NT, -1, denom).astype(np.int64)
        want = tricks_at[sel[:, None], order]
        good = (pos >= 0).all(axis=1)
        verdict[sel] = good & per_line.replay_arrays(
            hands, np.where(pos >= 0, pos, 0), cards, trump, games.overtrump[g[sel]], want)
    return verdict

