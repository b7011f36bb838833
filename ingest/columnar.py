"""The columnar path: the deal lines of a JSON Lines batch, for every registered variant.

A deal line is taken here only when its bytes are the canonical JSON of the record it holds
(``model/identity.py``: ``record`` first, the other keys sorted, no spaces, text unescaped,
defaults left out), which is how the simulator and the exporters write. For such a line the
work per record is:

1. the line is parsed once (``json.loads``; no nesting check: a record the model reads is at
   most four deep);
2. the variant's ``deal_model`` reads it, and its canonical JSON must be the line itself (so
   nothing was normalised: names with spaces, ``false`` flags written out, numbers as text);
3. the variant's rules for the whole batch (``Variant.valid_deals``: its compiled
   ``check_batch`` where it has one, else ``check_deal`` deal by deal) and ``deal_row``;
4. the integer range checks of ``deals_<variant>`` (``validate.too_wide``) column by column over
   the batch.

Every other line (another key order, spaces, escapes, an unknown game, a record the model or the
rules turn down, a row that does not fit) goes to the per-record reference path
(``ingest/validate.py``), which alone writes messages. ``tests/ingest/test_columnar.py`` holds, by
hypothesis for every registered variant, that this path accepts exactly what the reference
accepts, with the same canonical JSON, deal key and rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from ingest.source import Raw
from ingest.validate import MAX_DEAL_NO, Accepted, Validator, int_range, too_wide
from model.identity import canonical_json
from model.variant import Variant

PREFIX = '{"record":"deal",'
"""How a canonical deal line starts (``record`` is the first key, records.md 1.2)."""


def fields_of(line: str) -> dict[str, Any] | None:
    """The fields of a deal line that starts as a canonical one, or ``None``."""
    if not line.startswith(PREFIX):
        return None
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return data if type(data) is dict else None


def accept(source: str, texts: Sequence[tuple[int, str]], candidates: Sequence[int],
           validator: Validator) -> dict[int, Accepted]:
    """The candidate lines (positions in ``texts``: line number and text) this path takes, as
    the reference would accept them. A line sees the games the reference would see at its
    position (``Validator.position``)."""
    found: dict[int, tuple[Raw, Any, Any, Variant, str]] = {}
    for k in candidates:
        line, text = texts[k]
        fields = fields_of(text)
        if fields is None:
            continue
        validator.position = k
        read = _record(validator, fields, text)
        if read is not None:
            record, game, v = read
            found[k] = (Raw(source, line, fields, text), record, game, v,
                        "{" + text[len(PREFIX):])
    return _fitting(_checked(found))


def _record(validator: Validator, fields: dict[str, Any], line: str,
            ) -> tuple[Any, Any, Variant] | None:
    """The deal record of ``fields`` with its game and variant, when its model reads it and its
    canonical JSON is the ``line`` it was read from (the rules are asked in :func:`_checked`)."""
    gid = fields.get("game_id")
    if type(gid) is not str or not gid:
        return None
    known = validator.known_game(gid)
    if known is None:
        return None
    game, v, _ = known
    try:
        deal = v.deal_model.model_validate(fields)
        if PREFIX + canonical_json(deal)[1:] != line or deal.deal_no > MAX_DEAL_NO:
            return None
    except Exception:  # the reference says why (a model that fails is its issue)
        return None
    return deal, game, v


def _checked(found: dict[int, tuple[Raw, Any, Any, Variant, str]]) -> dict[int, Accepted]:
    """The deals of ``found`` their variant's rules accept, asked once per variant for the
    whole batch (``Variant.valid_deals``)."""
    by_variant: dict[str, list[int]] = {}
    for k, (_, _, _, v, _) in found.items():
        by_variant.setdefault(v.name, []).append(k)
    taken: dict[int, Accepted] = {}
    for ks in by_variant.values():
        v = found[ks[0]][3]
        try:
            ok = v.valid_deals([(found[k][2], found[k][1]) for k in ks])
        except Exception:  # a check that fails is the reference's issue, deal by deal
            continue
        for k, good in zip(ks, ok, strict=True):
            if good:
                raw, record, game, _, canonical = found[k]
                taken[k] = Accepted(raw, record, game, v, canonical)
    return taken


def _fitting(taken: dict[int, Accepted]) -> dict[int, Accepted]:
    """``taken`` with each deal's ``deals_<variant>`` row, without the deals whose row does not
    fit its integer columns (those go to the reference, which names the column)."""
    by_variant: dict[str, list[int]] = {}
    for k, a in taken.items():
        by_variant.setdefault(a.variant.name, []).append(k)
    out: dict[int, Accepted] = {}
    for ks in by_variant.values():
        v = taken[ks[0]].variant
        rows: list[dict[str, object] | None] = []
        for k in ks:
            a = taken[k]
            try:
                rows.append(v.deal_row(a.game, a.record))  # type: ignore[arg-type]
            except Exception:
                rows.append(None)
        ok = fits(rows, v.frame_schema)
        for k, row, good in zip(ks, rows, ok.tolist(), strict=True):
            if good and row is not None:
                a = taken[k]
                out[k] = Accepted(a.raw, a.record, a.game, a.variant, a.canonical, row=row)
    return dict(sorted(out.items()))


def fits(rows: Sequence[dict[str, object] | None], schema: dict[str, Any]) -> np.ndarray:
    """Whether each row fits the integer columns of ``schema`` (``validate.too_wide``, column
    by column); a missing row does not fit."""
    ok = np.array([r is not None for r in rows], dtype=bool)
    present = [r if r is not None else {} for r in rows]
    for name, dtype in schema.items():
        bounds = int_range(dtype)
        if bounds is None:
            continue
        values = [r.get(name) for r in present]
        try:
            column = pl.Series(values, dtype=pl.Int64, strict=True)
        except Exception:  # beyond 64 bits, or not all integers: row by row
            ok &= np.array([too_wide({name: x}, {name: dtype}) is None for x in values])
            continue
        low, high = bounds
        ok &= ~((column < low) | (column > high)).fill_null(False).to_numpy()
    return ok
