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
   from the Greek vocabulary, decisions ``play|pass|invite|alone``, tricks 0-10, no nulls, no
   flags, names and ids without quotes, backslashes or control characters;
2. its game is a known Greek Prefa game the per-line path takes too (``fastpath_cards.game_view``)
   with names of at most :data:`NAME_BYTES` bytes, visible at the line (after its game line);
3. it passes, column by column, every check ``fastpath_cards.check`` makes (``model/greek/
   check.py``): dealer, hands of exactly the three players dealt in (3, 14 ``four_players``),
   deck partition (3), the auction run by ``model/greek/auction.py`` on each distinct sequence of
   calls (4.2), declarer, contract (5.1, 14 ``ten_nt``), defence (6.1), discard (5), tricks (7)
   and the replay of the play (7, ``fastpath_cards.replay_arrays``).

The canonical JSON (records.md: defaults left out, keys sorted, no spaces) is assembled from the
line's own bytes: the spaces between tokens dropped, the calls' keys put in order, the top-level
sections and the entries of ``hands``, ``defence`` and ``tricks`` sorted. Only the sha256 of each
deal is taken per line. ``tests/ingest/test_fastpath_columns.py`` holds, by hypothesis, that a line
this path takes is accepted by the reference with the same canonical JSON, deal key, ``deals``
columns and ``deals_greek`` row, and that it takes the lines the per-line path takes in these
layouts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from ingest import fastpath_cards as per_line
from model.cards import DECK_32
from model.greek.auction import run_auction
from model.greek.contracts import NT, format_contract, ladder_index
from model.greek.params import GreekRules

OUTPUT_SCHEMA = per_line.OUTPUT_SCHEMA
NAME_BYTES = 24
"""Longest player name (UTF-8 bytes) this path compares; games with longer names go per line."""
MAX_CALLS = 32
"""Longest auction this path runs; longer ones go per line."""

# -- the layouts -------------------------------------------------------------------------------
_S, _C = r", ?", r": ?"
_NAME = r'"[^"\\\x00-\x1f]+"'
_CARD = r'"[789TJQKA][SCDH]"'
_BID = r"(?:[6-9]|10)(?:S|C|D|H|NT)"
_CALL = r'"(?:pass|hold|take|' + _BID + r')"'
_T = r"(?:10|[0-9])"


def _key(name: str, value: str) -> str:
    return '"' + name + '"' + _C + value


def _cards(n: int) -> str:
    return r"\[" + _S.join([_CARD] * n) + r"\]"


_HANDS = r"\{" + _S.join([_NAME + _C + _cards(10)] * 3) + r"\}"
_CALL_OBJ = (r"\{(?:" + _key("player", _NAME) + _S + _key("call", _CALL) + "|"
             + _key("call", _CALL) + _S + _key("player", _NAME) + r")\}")
_AUCTION = r"\[" + _CALL_OBJ + r"(?:" + _S + _CALL_OBJ + r")*\]"
_DEC = r'"(?:play|pass|invite|alone)"'
_DEFENCE = r"\{" + _NAME + _C + _DEC + _S + _NAME + _C + _DEC + r"\}"
_MOVE = r"\[" + _NAME + _S + _CARD + r"\]"
_PLAY = r"\[" + _MOVE + r"(?:" + _S + _MOVE + r")*\]"
_TRICKS = r"\{(?:" + _NAME + _C + _T + r"(?:" + _S + _NAME + _C + _T + r"){1,2})?\}"
_DEAL_NO = r"[1-9][0-9]{0,8}"


def _opt(name: str, value: str) -> str:
    return r"(?:" + _S + _key(name, value) + r")?"


_RECORDS_ORDER = (
    _key("game_id", _NAME) + _S + _key("deal_no", _DEAL_NO) + _S + _key("dealer", _NAME) + _S
    + _key("hands", _HANDS) + _opt("talon", _cards(2)) + _opt("auction", _AUCTION)
    + r"(?:" + _S + _key("declarer", _NAME) + _opt("discard", _cards(2)) + _S
    + _key("contract", '"' + _BID + '"') + _S + _key("defence", _DEFENCE) + r")?"
    + _opt("play", _PLAY) + _opt("tricks", _TRICKS) + _opt("four_aces", "false")
    + _opt("preliminary", "false") + _opt("conceded", "false")
)
_SORTED_ORDER = (
    r"(?:" + _key("auction", _AUCTION) + _S + r")?" + r"(?:" + _key("conceded", "false") + _S
    + r")?" + r"(?:" + _key("contract", '"' + _BID + '"') + _S + r")?" + _key("deal_no", _DEAL_NO)
    + _S + _key("dealer", _NAME) + _opt("declarer", _NAME) + _opt("defence", _DEFENCE)
    + _opt("discard", _cards(2)) + _opt("four_aces", "false") + _S + _key("game_id", _NAME)
    + _S + _key("hands", _HANDS) + _opt("play", _PLAY) + _opt("preliminary", "false")
    + _opt("talon", _cards(2)) + _opt("tricks", _TRICKS)
)
SHAPE = (r"^\{" + _key("record", '"deal"') + _S + r"(?:" + _RECORDS_ORDER + "|" + _SORTED_ORDER
         + r")\}$")
"""The two layouts a line may have (the order of records.md 1.2 as the samples write it, and
the canonical order)."""
_CALL_KEYS = (r'\{"player"' + _C + r'("[^"\\\x00-\x1f]+")' + _S + r'"call"' + _C
              + r'("[A-Za-z0-9]+")\}')
"""A call written player first: rewritten ``{"call":...,"player":...}`` (same object)."""

# -- vocabularies, packed as up to eight bytes in a little-endian uint64 ---------------------------
KEYS = ("record", "game_id", "deal_no", "dealer", "hands", "talon", "auction", "declarer",
        "discard", "contract", "defence", "play", "tricks", "four_aces", "preliminary",
        "conceded")
"""The fields of ``GreekDeal`` (records.md 1.2); the flags are only ever ``false`` here."""
(RECORD, GAME_ID, DEAL_NO, DEALER, HANDS, TALON, AUCTION, DECLARER, DISCARD, CONTRACT, DEFENCE,
 PLAY, TRICKS, FOUR_ACES, PRELIMINARY, CONCEDED) = range(len(KEYS))
CONTRACTS = tuple(format_contract(6 + i // 5, i % 5) for i in range(25))
"""Contract names by ladder index (4.1)."""
CALLS = ("pass", "hold", "take", *CONTRACTS)
DECISIONS = ("play", "pass", "invite", "alone")
PLAY_, PASS_, INVITE_, ALONE_ = range(4)
MODES = ("none", "pass", "invite", "alone", "both")


def _packed(word: bytes) -> int:
    return int.from_bytes(word.ljust(8, b"\0"), "little")


@dataclass(frozen=True)
class _Vocab:
    """Tokens of at most sixteen bytes whose first eight bytes differ, looked up by their packed
    bytes (two little-endian uint64 words) and length."""

    first: np.ndarray
    second: np.ndarray
    lengths: np.ndarray
    codes: np.ndarray

    @classmethod
    def of(cls, tokens: Sequence[str]) -> _Vocab:
        raw = [t.encode() for t in tokens]
        assert all(len(b) <= 16 for b in raw) and len({b[:8] for b in raw}) == len(raw)
        first = np.array([_packed(b[:8]) for b in raw], dtype=np.uint64)
        order = np.argsort(first)
        second = np.array([_packed(b[8:]) for b in raw], dtype=np.uint64)
        lengths = np.array([len(b) for b in raw], dtype=np.int64)
        return cls(first[order], second[order], lengths[order], order.astype(np.int64))

    def code(self, text: _Text, start: np.ndarray, length: np.ndarray) -> np.ndarray:
        """The index in the vocabulary of each string (``start``, ``length``), -1 if none."""
        w0 = text.word(start, length)
        at = np.minimum(np.searchsorted(self.first, w0), len(self.first) - 1)
        same = (self.first[at] == w0) & (self.lengths[at] == length)
        if (self.second != 0).any():
            same &= self.second[at] == text.word(start, length, 1)
        return np.where(same, self.codes[at], -1)


_KEY_VOCAB = _Vocab.of(KEYS)
_CONTRACT_VOCAB = _Vocab.of(CONTRACTS)
_CALL_VOCAB = _Vocab.of(CALLS)
_DECISION_VOCAB = _Vocab.of(DECISIONS)
_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [2**64 - 1], dtype=np.uint64)
"""The mask of the first ``k`` bytes of a uint64 (k = 0..8)."""
_CARD_CODE = np.full(1 << 16, -1, dtype=np.int64)
"""Card code (``model/cards.py``) of a two-letter card name, by its two bytes (first byte low)."""
for _name, _bit in per_line._BIT_32.items():
    if len(_name) == 2:
        _CARD_CODE[_name.encode()[0] | _name.encode()[1] << 8] = _bit.bit_length() - 1
_LEVEL = np.array([6 + i // 5 for i in range(25)], dtype=np.int8)
_DENOM = np.array([i % 5 for i in range(25)], dtype=np.int8)


# -- the batch's games --------------------------------------------------------------------------
@dataclass
class _Games:
    """The games of a batch as arrays (index ``g``): players' names packed in three uint64 words,
    their lengths and sort ranks, the rules this path reads, and when each game is visible."""

    index: dict[bytes, int]
    names: list[tuple[str, ...]]
    words: np.ndarray  # (g, 4, 3) uint64
    lengths: np.ndarray  # (g, 4), -1 for no player
    rank: np.ndarray  # (g, 4): position of the player's name in sorted order
    n: np.ndarray
    ten_nt: np.ndarray
    overtrump: np.ndarray
    first_by_7d: np.ndarray
    since: np.ndarray
    rules_class: np.ndarray
    rules: list[GreekRules]
    rules_text: list[str]
    n_words: int
    """Words of eight bytes a name needs at most in these games."""
    ids: list[str]
    prefix: list[object]
    """The sha256 of each game id and a NUL, to be copied and completed per deal."""

    @classmethod
    def of(cls, games: Mapping[str, tuple[per_line.GameView, int]]) -> _Games:
        kept = [(gid, view, since) for gid, (view, since) in games.items()
                if all(len(p.encode()) <= NAME_BYTES and p not in KEYS
                       for p in view.game.players)]
        g = len(kept)
        words = np.zeros((g, 4, 3), dtype=np.uint64)
        lengths = np.full((g, 4), -1, dtype=np.int64)
        rank = np.zeros((g, 4), dtype=np.int64)
        classes: dict[str, int] = {}
        rules: list[GreekRules] = []
        rules_class = np.zeros(g, dtype=np.int64)
        for i, (_, view, _) in enumerate(kept):
            players = view.game.players
            for s, p in enumerate(players):
                b = p.encode().ljust(NAME_BYTES, b"\0")
                words[i, s] = [int.from_bytes(b[k:k + 8], "little") for k in (0, 8, 16)]
                lengths[i, s] = len(p.encode())
                rank[i, s] = sorted(players).index(p)
            text = view.game.rules.model_dump_json()
            if text not in classes:
                classes[text] = len(rules)
                rules.append(view.game.rules)
            rules_class[i] = classes[text]
        return cls(
            index={gid.encode(): i for i, (gid, _, _) in enumerate(kept)},
            names=[v.game.players for _, v, _ in kept], words=words, lengths=lengths, rank=rank,
            n=np.array([len(v.game.players) for _, v, _ in kept], dtype=np.int64),
            ten_nt=np.array([v.ten_nt for _, v, _ in kept], dtype=bool),
            overtrump=np.array([v.overtrump for _, v, _ in kept], dtype=bool),
            first_by_7d=np.array([v.first_by_7d for _, v, _ in kept], dtype=bool),
            since=np.array([s for _, _, s in kept], dtype=np.int64),
            rules_class=rules_class, rules=rules, rules_text=list(classes),
            n_words=max(1, -(-int(lengths.max(initial=1)) // 8)),
            ids=[gid for gid, _, _ in kept],
            prefix=[hashlib.sha256(gid.encode() + b"\0") for gid, _, _ in kept])


# -- the batch's bytes ----------------------------------------------------------------------------
@dataclass
class _Text:
    """The lines' bytes without the spaces between tokens, and their strings: ``start`` and
    ``length`` of each string's content, ``first`` string and number of strings of each line."""

    data: np.ndarray
    u64: np.ndarray
    line_start: np.ndarray
    line_end: np.ndarray
    open: np.ndarray
    close: np.ndarray
    first: np.ndarray
    count: np.ndarray
    intact: np.ndarray
    """Lines whose strings kept every byte when the spaces were dropped."""

    @classmethod
    def of(cls, lines: pl.Series) -> _Text:
        raw = np.frombuffer(("\n".join(lines.to_list()) + "\n").encode(), dtype=np.uint8)
        # the shape allows one space after a comma or colon between tokens; one inside a
        # string shortens that string, and :meth:`intact` turns its line down
        sep = (raw[:-1] == ord(",")) | (raw[:-1] == ord(":"))
        drop = np.zeros(len(raw), dtype=bool)
        drop[1:] = sep & (raw[1:] == ord(" "))
        data = np.concatenate([raw[~drop], np.zeros(24, dtype=np.uint8)])
        ends = np.flatnonzero(data[:-24] == ord("\n"))
        starts = np.concatenate([[0], ends[:-1] + 1])
        q = np.flatnonzero(data == ord('"'))
        opened, closed = q[0::2], q[1::2]
        first = np.searchsorted(opened, starts)
        count = np.searchsorted(opened, ends) - first
        u64 = np.ndarray(shape=(len(data) - 7,), dtype="<u8", buffer=data.data, strides=(1,))
        text = cls(data, u64, starts, ends, opened, closed, first, count,
                   np.ones(len(starts), dtype=bool))
        raw_q = np.flatnonzero(raw == ord('"'))
        if len(raw_q) != len(q):  # cannot happen: only spaces were dropped
            text.intact[:] = False
            return text
        shorter = (raw_q[1::2] - raw_q[0::2]) != (closed - opened)
        bad_lines = np.searchsorted(starts, opened[shorter], side="right") - 1
        text.intact[bad_lines] = False
        return text

    def strings(self, j: np.ndarray, rows: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
        """``(start, length)`` of the contents of each line's ``j``-th string (``j`` has the
        lines along its first axis; out-of-range ``j`` gives the line's first string)."""
        first = self.first if rows is None else self.first[rows]
        count = self.count if rows is None else self.count[rows]
        shape = (-1,) + (1,) * (j.ndim - 1)
        jj = np.where((j >= 0) & (j < count.reshape(shape)), j, 0)
        s = first.reshape(shape) + jj
        s = np.minimum(s, len(self.open) - 1)
        return self.open[s] + 1, self.close[s] - self.open[s] - 1

    def word(self, start: np.ndarray, length: np.ndarray, k: int = 0) -> np.ndarray:
        """Bytes ``8k .. 8k+7`` of a string, zero beyond its end, as a uint64."""
        rest = np.clip(length - 8 * k, 0, 8)
        return self.u64[start + 8 * k] & _LOW_BYTES[rest]


def _seat(text: _Text, games: _Games, g: np.ndarray, start: np.ndarray, length: np.ndarray
          ) -> np.ndarray:
    """The seat of the player a name string names in game ``g`` (broadcast), -1 if none."""
    w = [text.word(start, length, k) for k in range(games.n_words)]
    seat = np.full(start.shape, -1, dtype=np.int64)
    shape = g.shape + (1,) * (start.ndim - g.ndim)
    for s in range(4):
        same = length == games.lengths[g, s].reshape(shape)
        for k in range(games.n_words):
            same &= w[k] == games.words[g, s, k].reshape(shape)
        seat = np.where(same, s, seat)
    return seat


def _card(text: _Text, start: np.ndarray) -> np.ndarray:
    """The code of a two-letter card name (the shape guarantees two letters)."""
    d = text.data
    return _CARD_CODE[d[start].astype(np.int64) | d[start + 1].astype(np.int64) << 8]


def _mask(codes: np.ndarray) -> np.ndarray:
    """The set (int64 mask) of the cards along the last axis."""
    return np.bitwise_or.reduce(np.int64(1) << codes, axis=-1)


def _count(mask: np.ndarray) -> np.ndarray:
    return np.bitwise_count(mask.astype(np.uint64)).astype(np.int64)


def _auctions(games: _Games, g: np.ndarray, rel: np.ndarray, call: np.ndarray,
              n_calls: np.ndarray, cache: dict[tuple[str, bytes], tuple[int, int]]
              ) -> tuple[np.ndarray, np.ndarray]:
    """Winner (position among the bidders, -1: all pass) and bid (ladder index) of each line's
    auction; winner -2 for an auction the reference turns down (or one won by the preliminary
    bid, which this path leaves to it). ``run_auction`` runs once per distinct sequence of
    calls by position under the same rules."""
    n = len(g)
    width = rel.shape[1]
    code = np.where(np.arange(width) < n_calls[:, None], rel * 32 + call, 255).astype(np.uint8)
    cls = games.rules_class[g]
    keys = np.concatenate([(cls & 255).astype(np.uint8)[:, None],
                           (cls >> 8).astype(np.uint8)[:, None], code], axis=1)
    packed = np.ascontiguousarray(keys).view(np.dtype((np.void, keys.shape[1]))).ravel()
    uniq, inverse = np.unique(packed, return_inverse=True)
    winner = np.empty(len(uniq), dtype=np.int64)
    bid = np.empty(len(uniq), dtype=np.int64)
    bidders = ("0", "1", "2")
    for u, packed_key in enumerate(uniq.tolist()):
        row = np.frombuffer(packed_key, dtype=np.uint8)
        rules = int(row[0]) | int(row[1]) << 8
        key = (games.rules_text[rules], packed_key[2:])
        if key not in cache:
            calls = [(str(c // 32), CALLS[c % 32]) for c in row[2:].tolist() if c != 255]
            out = run_auction(bidders, calls, games.rules[rules])
            if isinstance(out, str) or out.preliminary:
                cache[key] = (-2, -1)
            elif out.winner is None:
                cache[key] = (-1, -1)
            else:
                cache[key] = (int(out.winner), -1 if out.bid is None else out.bid)
        winner[u], bid[u] = cache[key]
    return winner[inverse.reshape(n)], bid[inverse.reshape(n)]


def _segments(src: np.ndarray, start: np.ndarray, length: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """Each row's pieces ``src[start:start+length]`` joined: the bytes and the rows' offsets."""
    length = np.where(length > 0, length, 0)
    row_len = length.sum(axis=1)
    offsets = np.concatenate([[0], np.cumsum(row_len)])
    flat_len = length.ravel()
    flat_start = start.ravel()
    piece_at = np.cumsum(flat_len) - flat_len
    total = int(offsets[-1])
    idx = np.repeat(flat_start - piece_at, flat_len) + np.arange(total, dtype=np.int64)
    return src[idx], offsets


class _Literals:
    """Fixed pieces of the canonical JSON, appended after the batch's bytes."""

    def __init__(self, base: int) -> None:
        self.base = base
        self.parts: list[bytes] = []
        self.at: dict[bytes, int] = {}
        self.size = 0

    def __call__(self, piece: str) -> tuple[int, int]:
        b = piece.encode()
        if b not in self.at:
            self.at[b] = self.base + self.size
            self.parts.append(b)
            self.size += len(b)
        return self.at[b], len(b)

    def bytes(self) -> np.ndarray:
        return np.frombuffer(b"".join(self.parts), dtype=np.uint8)


def accept(lines: Sequence[str], candidates: Sequence[int],
           games: Mapping[str, tuple[per_line.GameView, int]],
           cache: dict[tuple[str, bytes], tuple[int, int]] | None = None) -> pl.DataFrame:
    """The candidate lines (positions in ``lines``) this path takes, as a frame of
    ``OUTPUT_SCHEMA``. ``games`` maps a game id to its per-line view and the position of its
    game line in ``lines`` (-1: known before); a deal sees a game only after that line. ``cache``
    keeps auction verdicts between batches."""
    empty = pl.DataFrame(schema=OUTPUT_SCHEMA)
    if not candidates or not games:
        return empty
    table = _Games.of(games)
    if not table.index:
        return empty
    frame = pl.DataFrame({"idx": pl.Series(candidates, dtype=pl.Int32),
                          "text": pl.Series([lines[i] for i in candidates], dtype=pl.String)})
    frame = frame.filter(pl.col("text").str.contains(SHAPE))
    if frame.height == 0:
        return empty
    calls_sorted = frame["text"].str.replace_all(_CALL_KEYS, '{"call":$2,"player":$1}')
    try:
        text = _Text.of(calls_sorted)
    except UnicodeEncodeError:  # a lone surrogate: the per-line path decides
        return empty
    return _check(frame, text, table, {} if cache is None else cache)


def _check(frame: pl.DataFrame, text: _Text, games: _Games,
           cache: dict[tuple[str, bytes], tuple[int, int]]) -> pl.DataFrame:
    n = frame.height
    rows = np.arange(n)
    # the keys of the record: strings followed by a colon with a key's name (the other
    # strings followed by a colon are the calls' keys and players' names, and a game whose
    # players are named like a key is not taken: ``_Games.of``); each at most once
    d = text.data
    ok = text.intact.copy()
    s_key = np.flatnonzero(d[text.close + 1] == ord(":"))
    start, length = text.open[s_key] + 1, text.close[s_key] - text.open[s_key] - 1
    key = _KEY_VOCAB.code(text, start, length)
    s_key, key = s_key[key >= 0], key[key >= 0]
    line_of = np.searchsorted(text.first, s_key, side="right") - 1
    at = np.full((n, len(KEYS)), -1, dtype=np.int64)
    at[line_of, key] = s_key - text.first[line_of]
    ok &= np.bincount(line_of, minlength=n) == (at >= 0).sum(axis=1)
    # where each section's strings end: at the next key, or the line's end
    big = np.where(at < 0, 1 << 40, at)
    later = np.where(big[:, None, :] > big[:, :, None], big[:, None, :], 1 << 40).min(axis=2)
    upto = np.minimum(later, text.count[:, None])
    has = at >= 0

    def s(k: int, off: int | np.ndarray = 1) -> tuple[np.ndarray, np.ndarray]:
        j = at[:, k].reshape((-1,) + (1,) * np.ndim(off))
        return text.strings(j + off)

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
    dealer = _seat(text, games, g, *s(DEALER))
    ok &= dealer >= 0
    active = (dealer[:, None] + 1 + np.arange(3)) % n_players[:, None]
    # hands: three entries of a name and ten cards, of exactly the players dealt in (3)
    hs, hl = s(HANDS, 1 + 11 * np.arange(3))
    hand_seat = _seat(text, games, g, hs, hl)
    cs, _ = s(HANDS, (2 + 11 * np.arange(3))[:, None] + np.arange(10))
    hand_cards = _card(text, cs.reshape(n, 3, 10))
    ok &= (np.sort(hand_seat, axis=1) == np.sort(active, axis=1)).all(axis=1)
    hand_mask = _mask(hand_cards)
    ok &= (_count(hand_mask) == 10).all(axis=1)
    seen = np.bitwise_or.reduce(hand_mask, axis=1)
    ok &= _count(seen) == 30
    deck = np.int64(DECK_32)
    seat_mask = np.zeros((n, 4), dtype=np.int64)
    seat_mask[rows[:, None], np.where(hand_seat >= 0, hand_seat, 0)] = hand_mask
    # talon (3): two cards, the rest of the deck
    ts, _ = s(TALON, np.arange(1, 3))
    given_talon = _mask(_card(text, ts))
    has_talon = has[:, TALON]
    ok &= ~has_talon | ((_count(given_talon) == 2) & (given_talon | seen == deck)
                        & (given_talon & seen == 0))
    talon = np.where(has_talon, given_talon, deck & ~seen)
    # auction (4.2): each call's player by position among the bidders (3: the dealer sitting out)
    n_calls = np.where(has[:, AUCTION], (upto[:, AUCTION] - at[:, AUCTION] - 1) // 4, 0)
    ok &= n_calls <= MAX_CALLS
    width = max(1, int(min(n_calls.max(initial=0), MAX_CALLS)))
    base = 1 + 4 * np.arange(width)
    call_s, call_l = s(AUCTION, base + 1)
    who_s, who_l = s(AUCTION, base + 3)
    who = _seat(text, games, g, who_s, who_l)
    rel = (who - dealer[:, None] - 1) % n_players[:, None]
    rel = np.where(who < 0, 3, np.minimum(rel, 3))
    call = _CALL_VOCAB.code(text, call_s, call_l)
    ok &= ~((np.arange(width) < n_calls[:, None]) & (who < 0)).any(axis=1)
    winner, bid = _auctions(games, g, rel, np.where(call < 0, 0, call), n_calls, cache)
    winner = np.where(has[:, AUCTION], winner, -1)
    ok &= winner != -2
    # declarer, contract (5.1, 14 ten_nt) and defence (6.1)
    has_declarer = has[:, DECLARER]
    ok &= has[:, CONTRACT] == has_declarer
    ok &= has[:, DEFENCE] == has_declarer
    n_tricks = np.where(has[:, TRICKS], upto[:, TRICKS] - at[:, TRICKS] - 1, 0)
    ok &= has_declarer | ~(has[:, DISCARD] | has[:, PLAY] | (n_tricks > 0))
    ok &= has_declarer | ~has[:, AUCTION] | (winner == -1)
    declarer = _seat(text, games, g, *s(DECLARER))
    k = np.argmax(active == declarer[:, None], axis=1)
    ok &= ~has_declarer | (active == declarer[:, None]).any(axis=1)
    ok &= ~has_declarer | ~has[:, AUCTION] | (winner == k)
    k_s, k_l = s(CONTRACT)
    contract = _CONTRACT_VOCAB.code(text, k_s, k_l)
    contract = np.where(has_declarer, contract, -1)
    ok &= ~has_declarer | (contract >= 0)
    ok &= (contract != ladder_index(10, NT)) | games.ten_nt[g]
    ok &= ~has_declarer | ~has[:, AUCTION] | (bid <= contract)
    fs, fl = s(DEFENCE, np.array([1, 3]))
    vs, vl = s(DEFENCE, np.array([2, 4]))
    def_seat = _seat(text, games, g, fs, fl)
    decision = _DECISION_VOCAB.code(text, vs, vl)
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
    discard = _mask(_card(text, ds2))
    has_discard = has[:, DISCARD]
    ok &= ~has_discard | ((_count(discard) == 2) & (discard & ~full == 0))
    # who plays (7): all three, the declarer and the one defender, or nobody
    in_order = np.where(mode[:, None] == 3, (active == declarer[:, None])
                        | (active == whister[:, None]), mode[:, None] >= 2)
    n_order = in_order.sum(axis=1)
    # tricks (7): of exactly the players in the play, summing to ten
    ok &= (n_tricks == n_order) & ((n_order > 0) | ~has[:, PLAY])
    tn_s, tn_l = s(TRICKS, 1 + np.arange(3))
    t_seat = _seat(text, games, g, tn_s, tn_l)
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
    return _output(frame, text, games, ok, g, at, has, deal_no, dealer, declarer, contract,
                   mode, whister, tricks_at, hand_seat, def_seat, t_seat, n_tricks, upto)


def _replay(text: _Text, games: _Games, g: np.ndarray, s: object, todo: np.ndarray,
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
        get = s  # (key, offsets) -> strings of every line
        ms, ml = get(PLAY, 1 + 2 * np.arange(10 * k))  # type: ignore[operator]
        cs, _ = get(PLAY, 2 + 2 * np.arange(10 * k))  # type: ignore[operator]
        seat = _seat(text, games, g[sel], ms[sel], ml[sel])
        pos = np.full(seat.shape, -1, dtype=np.int64)
        for p in range(k):
            pos = np.where(seat == order[:, p:p + 1], p, pos)
        cards = _card(text, cs[sel])
        hands = seat_mask[sel[:, None], order]
        decl = declarer[sel]
        is_decl = order == decl[:, None]
        played = np.bitwise_or.reduce(np.where(pos == np.argmax(is_decl, axis=1)[:, None],
                                               np.int64(1) << cards, 0), axis=1)
        start = np.where(has_discard[sel], full[sel] & ~discard[sel], full[sel] & played)
        hands = np.where(is_decl, start[:, None], hands)
        denom = np.where(contract[sel] >= 0, _DENOM[np.maximum(contract[sel], 0)], NT)
        trump = np.where(denom == NT, -1, denom).astype(np.int64)
        want = tricks_at[sel[:, None], order]
        good = (pos >= 0).all(axis=1)
        verdict[sel] = good & per_line.replay_arrays(
            hands, np.where(pos >= 0, pos, 0), cards, trump, games.overtrump[g[sel]], want)
    return verdict


def _output(frame: pl.DataFrame, text: _Text, games: _Games, ok: np.ndarray, g: np.ndarray,
            at: np.ndarray, has: np.ndarray, deal_no: np.ndarray, dealer: np.ndarray,
            declarer: np.ndarray, contract: np.ndarray, mode: np.ndarray, whister: np.ndarray,
            tricks_at: np.ndarray, hand_seat: np.ndarray, def_seat: np.ndarray,
            t_seat: np.ndarray, n_tricks: np.ndarray, upto: np.ndarray) -> pl.DataFrame:
    """The taken lines' rows: columns, canonical JSON and deal key."""
    take = np.flatnonzero(ok)
    if not len(take):
        return pl.DataFrame(schema=OUTPUT_SCHEMA)
    record, keys = _canonical(text, games, take, g, at, has, hand_seat, def_seat, t_seat,
                              n_tricks, upto)
    gt = g[take]
    names = [games.names[i] for i in gt.tolist()]

    def name(seats: np.ndarray) -> list[str | None]:
        return [p[s] if s >= 0 else None for p, s in zip(names, seats.tolist(), strict=True)]

    decl = np.where(has[take, DECLARER], declarer[take], -1)
    c = contract[take]
    tricks = tricks_at[take]
    out = frame[take].with_columns(
        pl.Series("game_id", [games.ids[i] for i in gt.tolist()], dtype=pl.String),
        pl.Series("deal_no", deal_no[take], dtype=pl.Int32),
        pl.Series("dealer", name(dealer[take]), dtype=pl.String),
        pl.Series("declarer", name(decl), dtype=pl.String),
        pl.Series("contract", [CONTRACTS[i] if i >= 0 else None for i in c.tolist()],
                  dtype=pl.String),
        record,
        pl.Series("deal_key", keys, dtype=pl.String),
        pl.Series("g_dealer", dealer[take], dtype=pl.Int8),
        pl.Series("g_declarer", np.where(decl >= 0, decl, 0), dtype=pl.Int8),
        pl.Series("g_level", _LEVEL[np.maximum(c, 0)], dtype=pl.Int8),
        pl.Series("g_denom", _DENOM[np.maximum(c, 0)], dtype=pl.Int32),
        pl.Series("g_mode", [MODES[m] for m in mode[take].tolist()], dtype=pl.String),
        pl.Series("g_whister", np.maximum(whister[take], 0), dtype=pl.Int8),
        *(pl.Series(f"g_tricks_{i}", np.maximum(tricks[:, i], 0), dtype=pl.Int8)
          for i in range(4)),
        has_cards=pl.lit(True),
    ).with_columns(
        g_declarer=pl.when(pl.col("declarer").is_not_null()).then(pl.col("g_declarer")),
        g_level=pl.when(pl.col("contract").is_not_null()).then(pl.col("g_level")),
        g_denom=pl.when(pl.col("contract").is_not_null()).then(pl.col("g_denom")),
        g_whister=pl.when(pl.Series(whister[take] >= 0)).then(pl.col("g_whister")),
        **{f"g_tricks_{i}": pl.when(pl.Series(tricks[:, i] >= 0)).then(pl.col(f"g_tricks_{i}"))
           for i in range(4)},
    )
    return out.select(list(OUTPUT_SCHEMA)).cast(pl.Schema(OUTPUT_SCHEMA))


def _canonical(text: _Text, games: _Games, take: np.ndarray, g: np.ndarray, at: np.ndarray,
               has: np.ndarray, hand_seat: np.ndarray, def_seat: np.ndarray,
               t_seat: np.ndarray, n_tricks: np.ndarray, upto: np.ndarray
               ) -> tuple[pl.Series, list[str]]:
    """records.md canonical JSON of the taken lines, and their deal keys (``ingest.validate``
    ``deal_key``: the sha256 of the game id, a NUL and the canonical JSON)."""
    d = text.data
    lit = _Literals(len(d))
    n = len(take)
    first = text.first[take]
    at = at[take]
    has = has[take]
    upto = upto[take]
    g = g[take]
    pieces: list[tuple[np.ndarray, np.ndarray]] = []

    def piece(start: np.ndarray | int, length: np.ndarray | int,
              when: np.ndarray | bool = True) -> None:
        st = np.broadcast_to(np.asarray(start, dtype=np.int64), (n,))
        ln = np.broadcast_to(np.asarray(length, dtype=np.int64), (n,))
        pieces.append((st, np.where(when, ln, 0)))

    def literal(text_: str, when: np.ndarray | bool = True) -> None:
        piece(*lit(text_), when)

    def open_of(j: np.ndarray) -> np.ndarray:
        return text.open[first.reshape((-1,) + (1,) * (j.ndim - 1)) + j]

    def section(k: int) -> tuple[np.ndarray, np.ndarray]:
        """The key and its value as the line has them (spaces dropped): up to the comma or
        brace before the next key, or the line's closing brace."""
        j = np.where(has[:, k], at[:, k], 0)
        s = open_of(j)
        nxt = np.where(upto[:, k] < text.count[take], open_of(np.minimum(
            upto[:, k], text.count[take] - 1)) - 1, text.line_end[take] - 1)
        return s, nxt - s

    def whole(k: int, comma_before: bool) -> None:
        s, ln = section(k)
        if comma_before:
            literal(",", has[:, k])
        piece(s, ln, has[:, k])
        if not comma_before:
            literal(",", has[:, k])

    def entries(k: int, seats: np.ndarray, size: int, per: int, count: np.ndarray,
                end: np.ndarray) -> None:
        """The ``size`` entries of a ``{name: value}`` object sorted by name; entry ``e`` starts
        at string ``at + 1 + per*e`` and ends where the next starts (``end`` for the last)."""
        rank = np.where(seats >= 0, games.rank[g[:, None], np.maximum(seats, 0)], 9)
        j0 = at[:, k][:, None] + 1 + per * np.arange(size)
        starts = open_of(np.minimum(j0, text.count[take][:, None] - 1))
        ends = np.concatenate([starts[:, 1:] - 1, end[:, None]], axis=1)
        ends = np.where(np.arange(size) == count[:, None] - 1, end[:, None], ends)
        order = np.argsort(np.where(np.arange(size) < count[:, None], rank, 99), axis=1)
        for e in range(size):
            pick = order[:, e]
            s = starts[np.arange(n), pick]
            ln = ends[np.arange(n), pick] - s
            if e:
                literal(",", (e < count) & has[:, k])
            piece(s, ln, (e < count) & has[:, k])

    literal("{")
    whole(AUCTION, False)
    whole(CONTRACT, False)
    whole(DEAL_NO, False)
    s, ln = section(DEALER)
    piece(s, ln)
    whole(DECLARER, True)
    literal(',"defence":{', has[:, DEFENCE])
    _, def_end = section(DEFENCE)
    def_end = def_end + open_of(np.where(has[:, DEFENCE], at[:, DEFENCE], 0)) - 1
    entries(DEFENCE, def_seat[take], 2, 2, np.full(n, 2), def_end)
    literal("}", has[:, DEFENCE])
    whole(DISCARD, True)
    literal(",")
    s, ln = section(GAME_ID)
    piece(s, ln)
    literal(',"hands":{')
    _, hand_end = section(HANDS)
    hand_end = hand_end + open_of(at[:, HANDS]) - 1
    entries(HANDS, hand_seat[take], 3, 11, np.full(n, 3), hand_end)
    literal("}")
    whole(PLAY, True)
    whole(TALON, True)
    literal(',"tricks":{', has[:, TRICKS])
    _, t_end = section(TRICKS)
    t_end = t_end + open_of(np.where(has[:, TRICKS], at[:, TRICKS], 0)) - 1
    entries(TRICKS, t_seat[take], 3, 1, n_tricks[take], t_end)
    literal("}", has[:, TRICKS])
    literal("}")
    src = np.concatenate([d, lit.bytes()])
    starts = np.stack([p[0] for p in pieces], axis=1)
    lengths = np.stack([p[1] for p in pieces], axis=1)
    body, offsets = _segments(src, starts, lengths)
    blob = body.tobytes()
    records = pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets.astype(np.int64)),
                                               pa.py_buffer(blob))
    return pl.Series("record", records), _keys(games, g, blob, offsets)


def _keys(games: _Games, g: np.ndarray, blob: bytes, offsets: np.ndarray) -> list[str]:
    """``ingest.validate.deal_key`` of each record: the sha256 of its game id, a NUL and the
    record (the first two hashed once per game)."""
    view = memoryview(blob)
    out = []
    for game, lo, hi in zip(g.tolist(), offsets[:-1].tolist(), offsets[1:].tolist(),
                            strict=True):
        h = games.prefix[game].copy()
        h.update(view[lo:hi])
        out.append(h.hexdigest()[:32])
    return out
