"""Columnar fast path for Greek Prefa deals with hands in JSON Lines (``docs/ingest.md``).

The card fast path of ``ingest/fastpath_cards.py`` checks one parsed line at a time. This path
checks a whole batch of lines in one compiled pass per line (``kernel.py``, numba, without the
GIL, parts of a batch side by side in threads), without parsing any line into Python objects;
like every fast path it only *accepts*: a line it does not take goes on to the per-line card
path and then to the pydantic reference, so issues and their messages stay the reference's.

A line is taken when

1. its text has one of two exact layouts (``layout.SHAPE``): the key order of records.md 1.2 as
   the samples write it (``record, game_id, deal_no, dealer, hands[, talon][, auction]
   [, declarer[, discard], contract, defence][, play][, tricks]``) or the canonical order
   (``record`` first, the other keys sorted, as the simulator writes); ``", "``/``","`` and
   ``": "``/``":"`` as separators; three hands of ten cards, cards spelt ``7S`` ... ``AH``, calls
   from the Greek vocabulary, decisions ``play|pass|invite|alone``, tricks 0-10, no nulls, flags
   only ``false``, names and ids without quotes, backslashes or control characters;
2. its game is a known Greek Prefa game the per-line path takes too (``fastpath_cards.game_view``)
   visible at the line (after its game line; ``games.py``);
3. it passes every check ``fastpath_cards.check`` makes (``model/greek/check.py``): dealer, hands
   of exactly the three players dealt in (3, 14 ``four_players``), deck partition (3), declarer,
   contract (5.1, 14 ``ten_nt``), defence (6.1), discard (5), tricks (7) and the replay of the
   play (7, as ``fastpath_cards.replay_arrays``), all in the kernel; and the auction, run by
   ``model/greek/auction.py`` once per distinct sequence of calls (4.2, ``games.py``).

The kernel writes each taken line's canonical JSON (records.md: defaults left out, keys sorted,
no spaces) from the line's own tokens: the calls' keys put in order, the entries of ``hands``,
``defence`` and ``tricks`` sorted by name. The deal key is its sha256 (``record.py``).
``tests/ingest/test_fastpath_columns.py`` holds, by hypothesis, that a line this path takes is
accepted by the reference with the same canonical JSON, deal key, ``deals`` columns and
``deals_greek`` row, that it takes the lines the per-line path takes in these layouts, and that
the kernel reads exactly the lines ``layout.SHAPE`` matches.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import polars as pl

from ingest import fastpath_cards as per_line
from ingest.fastpath_columns import kernel
from ingest.fastpath_columns.games import Games, auction_verdicts
from ingest.fastpath_columns.record import Checked, Records, taken_rows

OUTPUT_SCHEMA = per_line.OUTPUT_SCHEMA
WORKERS = min(4, os.cpu_count() or 1)
"""Threads checking the parts of a large batch side by side."""
PART = 2000
"""Lines per part: a larger batch is checked in parts of this size, side by side."""


def accept(lines: Sequence[str], candidates: Sequence[int],
           games: Mapping[str, tuple[per_line.GameView, int]],
           cache: dict[tuple[str, bytes], tuple[int, int]] | None = None,
           spans: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> pl.DataFrame:
    """The candidate lines (positions in ``lines``) this path takes, as a frame of
    ``OUTPUT_SCHEMA``. ``games`` maps a game id to its per-line view and the position of its
    game line in ``lines`` (-1: known before); a deal sees a game only after that line. ``cache``
    keeps auction verdicts between batches. ``spans``: the bytes of ``lines`` as read and where
    each line starts and ends in them (``ingest.lines.PlainLines.spans``: ASCII lines), when
    the caller has them; else the candidates are encoded here.

    The kernel (``kernel.check_lines``) runs without the GIL: a large batch is cut into parts of
    :data:`PART` lines, checked side by side by :data:`WORKERS` threads."""
    if not candidates or not games:
        return pl.DataFrame(schema=OUTPUT_SCHEMA)
    table = Games.of(games)
    idx = np.asarray(candidates, dtype=np.int64)
    if spans is None:
        data, starts, ends = encoded([lines[i] for i in candidates])
    else:
        data, starts, ends = spans[0], spans[1][idx], spans[2][idx]
    c, records = check_batch(data, starts, ends, idx, table)
    ok = c.status == kernel.TAKEN
    _judge_auctions(table, c, ok, {} if cache is None else cache)
    return taken_rows(table, c, records.where(ok))


def lines_holding(spans: tuple[np.ndarray, np.ndarray, np.ndarray], needle: bytes
                  ) -> np.ndarray:
    """Whether each line holds ``needle``, for lines given by their bytes and where each starts
    and ends (``ingest.lines.PlainLines.spans``)."""
    return kernel.lines_holding(*spans, np.frombuffer(needle, dtype=np.uint8))


def encoded(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``texts`` as UTF-8 bytes, each ended by ``"\\n"``, and where each starts and ends."""
    n = len(texts)
    blob = ("\n".join(texts) + "\n").encode()
    data = np.frombuffer(blob, dtype=np.uint8)
    chars = np.fromiter(map(len, texts), dtype=np.int64, count=n)
    if len(blob) == n + int(chars.sum()):  # all ASCII: the line ends from the lengths
        ends = np.cumsum(chars + 1) - 1
    else:
        ends = np.flatnonzero(data == ord("\n"))
        if len(ends) != n:  # a line with a line feed of its own (never from a file's lines)
            ends = np.cumsum([len(t.encode()) + 1 for t in texts]) - 1
    starts = np.concatenate([[0], ends[:-1] + 1]).astype(np.int64)
    return data, starts, ends


def check_batch(data: np.ndarray, starts: np.ndarray, ends: np.ndarray, idx: np.ndarray,
                table: Games) -> tuple[Checked, Records]:
    """The kernel's findings on each line ``data[starts[i]:ends[i]]`` (at position ``idx[i]``
    in the batch), and the canonical JSON and deal keys of the lines it took, before their
    auctions are judged."""
    n = len(starts)
    c = Checked.empty(idx, len(data))

    def part(at: int) -> Records:
        s = slice(at, min(at + PART, n))
        kernel.check_lines(
            data, starts[s], ends[s], idx[s], table.id_bytes, table.id_off, table.id_game,
            table.name_bytes, table.name_off, table.rank, table.n, table.ten_nt,
            table.overtrump, table.first_by_7d, table.since, table.spaced, c.canonical,
            c.length[s], c.status[s], c.g[s], c.deal_no[s], c.dealer[s], c.declarer[s],
            c.contract[s], c.mode[s], c.whister[s], c.tricks[s], c.bidder[s], c.calls[s])
        return Records.of(c, table, s, int(starts[at]))

    if n <= PART:
        return c, part(0)
    # a part's keys are hashed (with the GIL) while the next part is checked (without)
    with ThreadPoolExecutor(WORKERS) as pool:
        return c, Records.join(list(pool.map(part, range(0, n, PART))))


def _judge_auctions(games: Games, c: Checked, ok: np.ndarray,
                    cache: dict[tuple[str, bytes], tuple[int, int]]) -> None:
    """Turn down (in ``ok``) the lines whose auction the reference machine turns down, or whose
    winner, bid or absence of one does not fit the declarer and contract (4.2, 5.1)."""
    with_auction = np.flatnonzero(ok & (c.calls[:, 0] != kernel.NO_CALL))
    if not len(with_auction):
        return
    winner, bid = auction_verdicts(games, c.g[with_auction], c.calls[with_auction], cache)
    declared = c.declarer[with_auction] >= 0
    ok[with_auction] = (winner != -2) & np.where(
        declared, (winner == c.bidder[with_auction]) & (bid <= c.contract[with_auction]),
        winner == -1)
