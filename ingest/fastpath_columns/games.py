"""The games of a batch as arrays, and the look-ups the columnar card path makes in them: the
seat a name names, the cards a string spells, the verdict of each distinct auction (greek-prefa.md
3, 4.2; ``model/greek/auction.py`` runs every auction).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ingest import fastpath_cards as per_line
from ingest.fastpath_columns.layout import CALLS, CARD_CODE, KEYS
from ingest.fastpath_columns.text import Text
from model.greek.auction import run_auction
from model.greek.params import GreekRules

NAME_BYTES = 24
"""Longest player name (UTF-8 bytes) this path compares; games with longer names go per line."""


@dataclass
class Games:
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
    punctuated: bool
    """Some player or game id has a comma or a colon."""
    prefix: list[Any]
    """The sha256 of each game id and a NUL, to be copied and completed per deal."""

    @classmethod
    def of(cls, games: Mapping[str, tuple[per_line.GameView, int]]) -> Games:
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
            punctuated=any("," in t or ":" in t for gid, v, _ in kept
                           for t in (gid, *v.game.players)),
            prefix=[hashlib.sha256(gid.encode() + b"\0") for gid, _, _ in kept])


def seat_of(text: Text, games: Games, g: np.ndarray, start: np.ndarray, length: np.ndarray
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


def card_at(text: Text, start: np.ndarray) -> np.ndarray:
    """The code of a two-letter card name (the shape guarantees two letters)."""
    d = text.data
    return CARD_CODE[d[start].astype(np.int64) | d[start + 1].astype(np.int64) << 8]


def card_set(codes: np.ndarray) -> np.ndarray:
    """The set (int64 mask) of the cards along the last axis."""
    return np.bitwise_or.reduce(np.int64(1) << codes, axis=-1)


def popcount(mask: np.ndarray) -> np.ndarray:
    return np.bitwise_count(mask.astype(np.uint64)).astype(np.int64)


def auction_verdicts(games: Games, g: np.ndarray, rel: np.ndarray, call: np.ndarray,
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

