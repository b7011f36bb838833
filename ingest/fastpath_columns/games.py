"""The games of a batch as the arrays the columnar card path's kernel reads, and the verdict of
each distinct auction (greek-prefa.md 4.2: ``model/greek/auction.py`` runs every auction).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ingest import fastpath_cards as per_line
from ingest.fastpath_columns.kernel import NO_CALL
from ingest.fastpath_columns.layout import CALLS
from model.greek.auction import run_auction
from model.greek.params import GreekRules
from model.identity import key_prefix


@dataclass
class Games:
    """The games of a batch (index ``g``): their ids sorted by bytes for the kernel's binary
    search, the players' names as bytes, their sort ranks, the rules this path reads, and when
    each game is visible."""

    ids: list[str]
    id_bytes: np.ndarray
    id_off: np.ndarray
    id_game: np.ndarray
    """The game index of each id in sorted order."""
    names: list[tuple[str, ...]]
    name_bytes: np.ndarray
    name_off: np.ndarray  # (g, 5): seat s is name_bytes[name_off[g, s]:name_off[g, s + 1]]
    rank: np.ndarray  # (g, 4): position of the player's name in sorted order
    n: np.ndarray
    ten_nt: np.ndarray
    overtrump: np.ndarray
    first_by_7d: np.ndarray
    since: np.ndarray
    spaced: np.ndarray
    """A player's name has a space (the kernel then writes the play move by move)."""
    rules_class: np.ndarray
    rules: list[GreekRules]
    rules_text: list[str]
    prefix: list[Any]
    """The sha256 of each game id and a NUL, to be copied and completed per deal."""

    @classmethod
    def of(cls, games: Mapping[str, tuple[per_line.GameView, int]]) -> Games:
        kept = list(games.items())
        g = len(kept)
        ids = [gid for gid, _ in kept]
        by_bytes = sorted(range(g), key=lambda i: ids[i].encode())
        id_raw = [ids[i].encode() for i in by_bytes]
        id_off = np.zeros(g + 1, dtype=np.int64)
        id_off[1:] = np.cumsum([len(b) for b in id_raw])
        name_raw: list[bytes] = []
        name_off = np.zeros((g, 5), dtype=np.int64)
        rank = np.zeros((g, 4), dtype=np.int64)
        size = 0
        classes: dict[str, int] = {}
        rules: list[GreekRules] = []
        rules_class = np.zeros(g, dtype=np.int64)
        for i, (_, (view, _)) in enumerate(kept):
            players = view.game.players
            for s in range(5):
                name_off[i, s] = size
                if s < len(players):
                    b = players[s].encode()
                    name_raw.append(b)
                    size += len(b)
                    rank[i, s] = sorted(players).index(players[s])
            text = view.game.rules.model_dump_json()
            if text not in classes:
                classes[text] = len(rules)
                rules.append(view.game.rules)
            rules_class[i] = classes[text]
        views = [view for _, (view, _) in kept]
        return cls(
            ids=ids, id_bytes=_bytes(b"".join(id_raw)), id_off=id_off,
            id_game=np.array(by_bytes, dtype=np.int64),
            names=[v.game.players for v in views], name_bytes=_bytes(b"".join(name_raw)),
            name_off=name_off, rank=rank,
            n=np.array([len(v.game.players) for v in views], dtype=np.int64),
            ten_nt=np.array([v.ten_nt for v in views], dtype=np.bool_),
            overtrump=np.array([v.overtrump for v in views], dtype=np.bool_),
            first_by_7d=np.array([v.first_by_7d for v in views], dtype=np.bool_),
            since=np.array([s for _, (_, s) in kept], dtype=np.int64),
            spaced=np.array([any(" " in p for p in v.game.players) for v in views],
                            dtype=np.bool_),
            rules_class=rules_class, rules=rules, rules_text=list(classes),
            prefix=[key_prefix(gid) for gid in ids])


def _bytes(raw: bytes) -> np.ndarray:
    return np.frombuffer(raw + b"\0", dtype=np.uint8)  # never empty


def auction_verdicts(games: Games, g: np.ndarray, calls: np.ndarray,
                     cache: dict[tuple[str, bytes], tuple[int, int]]
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Winner (position among the bidders, -1: all pass) and bid (ladder index) of each line's
    auction (``calls``: position * 32 + call code per call, then ``NO_CALL``); winner -2 for an
    auction the reference turns down (or one won by the preliminary bid, which this path leaves
    to it). ``run_auction`` runs once per distinct sequence of calls under the same rules."""
    n = len(g)
    cls = games.rules_class[g]
    keys = np.concatenate([(cls & 255).astype(np.uint8)[:, None],
                           (cls >> 8).astype(np.uint8)[:, None], calls], axis=1)
    packed = np.ascontiguousarray(keys).view(np.dtype((np.void, keys.shape[1]))).ravel()
    uniq, inverse = np.unique(packed, return_inverse=True)
    winner = np.empty(len(uniq), dtype=np.int64)
    bid = np.empty(len(uniq), dtype=np.int64)
    bidders = ("0", "1", "2")
    for u, packed_key in enumerate(uniq.tolist()):
        row = np.frombuffer(packed_key, dtype=np.uint8)
        rules = int(row[0]) | int(row[1]) << 8
        key = (games.rules_text[rules], packed_key[2:].rstrip(bytes([NO_CALL])))
        if key not in cache:
            moves = [(str(c // 32), CALLS[c % 32]) for c in row[2:].tolist() if c != NO_CALL]
            out = run_auction(bidders, moves, games.rules[rules])
            if isinstance(out, str) or out.preliminary:
                cache[key] = (-2, -1)
            elif out.winner is None:
                cache[key] = (-1, -1)
            else:
                cache[key] = (int(out.winner), -1 if out.bid is None else out.bid)
        winner[u], bid[u] = cache[key]
    return winner[inverse.reshape(n)], bid[inverse.reshape(n)]
