"""The columnar path: the deal lines of a JSON Lines batch, for every registered variant.

A deal line is taken here only when its bytes are the canonical JSON of the record it holds
(``model/identity.py``: ``record`` first, the other keys sorted, no spaces, text unescaped,
defaults left out), which is how the simulator and the exporters write. For such a line the
work per record is:

1. the variant's ``deal_model`` parses and reads the line in one pass in pydantic-core
   (``model_validate_json``; the game is found by the line's ``game_id``, which the record must
   then carry), and the record's canonical JSON (``identity.canonical_json_of``) must be the
   line itself (so nothing was normalised: names with spaces, ``false`` flags written out,
   numbers as text, keys in another order, a key twice);
2. the variant's rules for the whole batch (``Variant.valid_deals``: its compiled
   ``check_batch`` where it has one, else ``check_deal`` deal by deal) and ``deal_row``;
3. the integer range checks of ``deals_<variant>`` (``validate.too_wide``) over the batch's rows
   as one frame.

Every other line (another key order, spaces, escapes, an unknown game, a record the model or the
rules turn down, a row that does not fit) goes to the per-record reference path
(``ingest/validate.py``), which alone writes messages. ``tests/ingest/test_columnar.py`` holds, by
hypothesis for every registered variant, that this path accepts exactly what the reference
accepts, with the same canonical JSON, deal key and rows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from ingest.source import Raw
from ingest.validate import MAX_DEAL_NO, Accepted, Validator, int_range, too_wide
from model.base import DealBase, GameBase
from model.identity import canonical_json_of
from model.variant import Variant

PREFIX = '{"record":"deal",'
"""How a canonical deal line starts (``record`` is the first key, records.md 1.2)."""
_GAME_ID = re.compile(r'"game_id":"([^"\\]+)"')
"""A canonical line's ``game_id`` where it is plain text (a guess: the record read from the
line must carry the same id)."""


@dataclass(frozen=True, slots=True)
class _Read:
    """A canonical deal line read by its variant's model, not yet checked by the rules."""

    k: int
    raw: Raw
    record: DealBase
    game: GameBase
    canonical: str


def accept(source: str, texts: Sequence[tuple[int, str]], candidates: Sequence[int],
           validator: Validator) -> dict[int, Accepted]:
    """The candidate lines (positions in ``texts``: line number and text) this path takes, as
    the reference would accept them. A line sees the games the reference would see at its
    position (``Validator.position``)."""
    by_variant: dict[str, tuple[Variant, list[_Read]]] = {}
    for k in candidates:
        line, text = texts[k]
        validator.position = k
        found = _record(validator, text)
        if found is not None:
            v, deal, game, canonical = found
            raw = Raw(source, line, {"record": "deal", "game_id": deal.game_id,
                                     "deal_no": deal.deal_no}, text)
            by_variant.setdefault(v.name, (v, []))[1].append(
                _Read(k, raw, deal, game, canonical))
    taken: dict[int, Accepted] = {}
    for v, reads in by_variant.values():
        taken.update(_fitting(v, _checked(v, reads)))
    return dict(sorted(taken.items()))


def _record(validator: Validator, line: str,
            ) -> tuple[Variant, DealBase, GameBase, str] | None:
    """The deal record of a canonical ``line`` with its variant, game and canonical JSON: the
    line is parsed by the variant's model itself (``model_validate_json``, one pass in
    pydantic-core), and the record's canonical JSON must be the line (the rules are asked in
    :func:`_checked`)."""
    if not line.startswith(PREFIX):
        return None
    found = _GAME_ID.search(line)
    if found is None:
        return None
    known = validator.known_game(found.group(1))
    if known is None:
        return None
    game, v, _ = known
    try:
        deal = v.deal_model.model_validate_json(line)
        canonical = canonical_json_of(deal)
    except Exception:  # the reference says why (a model that fails is its issue)
        return None
    if (deal.game_id != found.group(1) or deal.deal_no > MAX_DEAL_NO
            or len(line) != len(canonical) + len(PREFIX) - 1
            or not line.endswith(canonical[1:])):
        return None
    return v, deal, game, canonical


def _checked(v: Variant, reads: list[_Read]) -> list[_Read]:
    """The deals of ``reads`` their variant's rules accept, asked once for the whole batch
    (``Variant.valid_deals``)."""
    try:
        ok = v.valid_deals([(r.game, r.record) for r in reads])
    except Exception:  # a check that fails is the reference's issue, deal by deal
        return []
    return [r for r, good in zip(reads, ok, strict=True) if good]


def _fitting(v: Variant, reads: list[_Read]) -> dict[int, Accepted]:
    """The accepted deals of ``reads`` with their ``deals_<variant>`` rows, without the deals
    whose row does not fit its integer columns (those go to the reference, which names the
    column)."""
    rows: list[dict[str, object] | None] = []
    for r in reads:
        try:
            rows.append(v.deal_row(r.game, r.record))
        except Exception:
            rows.append(None)
    ok = fits(rows, v.frame_schema)
    return {r.k: Accepted(r.raw, r.record, r.game, v, r.canonical, row=row)
            for r, row, good in zip(reads, rows, ok.tolist(), strict=True)
            if good and row is not None}


def fits(rows: Sequence[dict[str, object] | None], schema: dict[str, Any]) -> np.ndarray:
    """Whether each row fits the integer columns of ``schema`` (``validate.too_wide``, column
    by column); a missing row does not fit."""
    ok = np.array([r is not None for r in rows], dtype=bool)
    bounded = {name: bounds for name, dtype in schema.items()
               if (bounds := int_range(dtype)) is not None}
    if not bounded:
        return ok
    present = [r if r is not None else {} for r in rows]
    try:  # every integer column read at once, as 64-bit integers
        frame = pl.DataFrame(present, schema=dict.fromkeys(bounded, pl.Int64), orient="row",
                             strict=True)
    except Exception:  # beyond 64 bits, or not all integers: column by column
        return ok & _fits_one_by_one(present, schema, bounded)
    for name, (low, high) in bounded.items():
        column = frame[name]
        ok &= ~((column < low) | (column > high)).fill_null(False).to_numpy()
    return ok


def _fits_one_by_one(rows: list[dict[str, object]], schema: dict[str, Any],
                     bounded: dict[str, tuple[int, int]]) -> np.ndarray:
    ok = np.ones(len(rows), dtype=bool)
    for name, (low, high) in bounded.items():
        values = [r.get(name) for r in rows]
        try:
            column = pl.Series(values, dtype=pl.Int64, strict=True)
        except Exception:
            ok &= np.array([too_wide({name: x}, {name: schema[name]}) is None for x in values])
            continue
        ok &= ~((column < low) | (column > high)).fill_null(False).to_numpy()
    return ok
