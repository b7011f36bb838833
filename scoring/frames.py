"""Polars schemas of the frames every settlement takes and returns (``model/tables.py`` declares
the tables once; these are their schemas).

``games`` in: game_id, players (turn order), rules (JSON). Out: ``settlements`` (every column of
the table; the ones a variant does not use are null), ``transfers`` and ``standings``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import polars as pl

from model import tables as T
from model.tables import TABLES

GAMES: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "players": pl.List(pl.String()),
    "rules": pl.String(),
}

SETTLEMENTS = TABLES[T.SETTLEMENTS].schema
TRANSFERS = TABLES[T.TRANSFERS].schema
STANDINGS = TABLES[T.STANDINGS].schema

RulesT = TypeVar("RulesT")


def each_rules(games: pl.DataFrame, read: Callable[[str | None], RulesT]) -> list[RulesT]:
    """Each game's ``rules`` as ``read`` reads them, each distinct text read once (the games
    of a score sheet share theirs)."""
    texts = games["rules"].to_list()
    once = {text: read(text) for text in dict.fromkeys(texts)}
    return [once[text] for text in texts]


def with_null_columns(frame: pl.DataFrame) -> pl.DataFrame:
    """The settlements columns a variant does not fill, added as nulls, in table order."""
    missing = [
        pl.lit(None, dtype=t).alias(c) for c, t in SETTLEMENTS.items() if c not in frame.columns
    ]
    return frame.with_columns(missing).select(list(SETTLEMENTS)).cast(pl.Schema(SETTLEMENTS))


def runs(sizes: Sequence[int], most: int) -> list[range]:
    """Consecutive runs of items, as ranges of their places, whose ``sizes`` add up to at most
    ``most`` (an item larger is a run alone): what a settlement reads and writes a part at a
    time, so that its frames do not grow with the database."""
    found: list[range] = []
    start = total = 0
    for at, size in enumerate(sizes):
        if at > start and total + size > most:
            found.append(range(start, at))
            start, total = at, 0
        total += size
    if sizes:
        found.append(range(start, len(sizes)))
    return found
