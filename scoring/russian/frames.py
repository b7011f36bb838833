"""Frames of the Russian settlement: schemas, the rules cell, and the shared output layout.

``settlements`` carries every column of the shared table (``scoring/frames.py``; the ones Russian
preferans does not use are null) and the Russian ones of records.md 2: ``pool_delta``,
``pool_after``, ``hill_delta``, ``hill_after``, ``whists_delta`` (whists the player wrote this deal
against all others). ``whists`` is the pulya's pairwise columns: per deal, writer and opponent.
``cash`` is in whists (8).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from model.russian.params import RussianRules
from model.schema import Table
from scoring import frames
from scoring.settlement import Settled

VARIANT = "russian"
SEATS = 4

RUSSIAN_COLUMNS = ("pool_delta", "pool_after", "hill_delta", "hill_after", "whists_delta")
"""The ``settlements`` columns only Russian preferans fills (``model/tables.py``)."""
SETTLEMENTS = frames.SETTLEMENTS
WHISTS_COLUMNS: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "deal_no": pl.Int32(),
    "writer": pl.String(),
    "against": pl.String(),
    "amount": pl.Int32(),
}


WHISTS_TABLE = Table("whists", WHISTS_COLUMNS, required=("amount",),
                     key=("game_id", "deal_no", "writer", "against"), indexed=False)
"""The pulya's pairwise whist columns (records.md 2): whists the writer wrote this deal against
that player."""
WHISTS = WHISTS_TABLE.schema


@dataclass(frozen=True, slots=True)
class RussianSettled(Settled):
    """``Settled`` plus the ``whists`` table (records.md 2)."""

    whists: pl.DataFrame


class RulesError(ValueError):
    """A game's ``rules`` that are not Russian rules; quotes them."""


def read_rules(rules: object) -> RussianRules:
    """The ``rules`` cell of a ``games`` row (JSON text, a mapping, or null) as ``RussianRules``."""
    try:
        if rules is None or rules == "":
            return RussianRules()
        if isinstance(rules, str):
            return RussianRules.model_validate(json.loads(rules))
        if isinstance(rules, Mapping):
            return RussianRules.model_validate(dict(rules))
    except ValueError as exc:
        raise RulesError(f"not Russian rules: {rules!r}") from exc
    raise RulesError(f"not Russian rules: {rules!r}")


def settlements_frame(rows: dict[str, list[object]]) -> pl.DataFrame:
    """The ``settlements`` frame from its filled columns (the unused ones become null)."""
    frame = pl.DataFrame(rows, schema={c: SETTLEMENTS[c] for c in rows})
    return frame.with_columns(
        pl.lit(None, dtype=SETTLEMENTS[c]).alias(c) for c in SETTLEMENTS if c not in rows
    ).select(list(SETTLEMENTS))
