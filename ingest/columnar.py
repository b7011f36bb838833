"""The columnar path: the deal lines of a JSON Lines batch, for every registered variant.

Each deal line is read into its variant's record, one line at a time, and the rest is done for
the whole batch at once:

1. a line whose bytes may be the canonical JSON of its record (``model/identity.py``:
   ``record`` first, the other keys sorted, no spaces, text unescaped, defaults left out: how
   the simulator and the exporters write) is parsed and read in one pass in pydantic-core, its
   fields built in canonical order (``identity.canonical_reader``; the game is found by the
   line's ``game_id``, which the record must then carry), and written back in one pass
   (``identity.canonical_json_read``): when that text is the line itself, the line is its
   stored record. Any other line (another key order, spaces, escapes, defaults written out) is
   read as the reference reads it: ``jsonl.load_json``, then the variant's ``deal_model``, and its
   canonical JSON written from the record;
2. the variant's rules for the whole batch (``Variant.valid_deals``: its compiled
   ``check_batch`` where it has one, else ``check_deal`` deal by deal) and its rows
   (``Variant.deal_rows``: once per distinct ``row_key``);
3. the integer range checks of ``deals_<variant>`` (``validate.too_wide``) over the batch's rows
   as one frame.

A line this path does not take (not JSON, an unknown game, a record the model or the rules turn
down, a row that does not fit) goes to the per-record reference path (``ingest/validate.py``),
which alone writes messages. ``tests/ingest/test_columnar.py`` holds, by hypothesis for every
registered variant, that this path takes exactly what the reference accepts, with the same
canonical JSON, deal key and rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import polars as pl

from ingest.jsonl import load_json, too_deep
from ingest.sheets import DEALS_COLUMNS, Taken, deal_columns
from ingest.validate import MAX_DEAL_NO, Validator
from model.base import DealBase, GameBase
from model.identity import canonical_json, canonical_json_read, canonical_reader, deal_keys
from model.schema import integer_ranges
from model.variant import Variant
from model.variants import REGISTERED

PREFIX = '{"record":"deal",'
"""How a canonical deal line starts (``record`` is the first key, records.md 1.2)."""
_AT = len(PREFIX)
_GAME_ID = re.compile(r'"game_id":"([^"\\]+)"')
"""A canonical line's ``game_id`` where it is plain text (a guess: the record read from the
line must carry the same id)."""


_Read = tuple[int, DealBase, GameBase, str]
"""A deal line read by its variant's model, not yet checked by the rules: its position in the
batch, record, game and canonical JSON."""
Read = tuple[Variant, _Read]
"""A deal read, with its variant."""


def accept(texts: Sequence[tuple[int, str]], candidates: Iterable[int],
           validator: Validator) -> Taken:
    """The candidate lines (positions in ``texts``: line number and text) this path takes, as
    the reference would accept them: their ``deals`` columns and ``deals_<variant>`` rows as
    frames (``sheets.Taken``, stored as the score-sheet path's are). A line sees the games the
    reference would see at its position (``Validator.position``)."""
    reads: list[Read] = []
    for k in candidates:
        text = texts[k][1]
        validator.position = k
        found = (_canonical(validator, k, text) if text.startswith(PREFIX) else None) \
            or _any_order(validator, k, text)
        if found is not None:
            reads.append(found)
    return judge(reads)


def judge(reads: Iterable[Read]) -> Taken:
    """The deals of ``reads`` the rules of their variants accept (:func:`_taken`, one call
    per variant)."""
    by_variant: dict[str, tuple[Variant, list[_Read]]] = {}
    for v, read in reads:
        by_variant.setdefault(v.name, (v, []))[1].append(read)
    taken = Taken.empty()
    for v, own in by_variant.values():
        taken += _taken(v, own)
    return taken


for _registered in REGISTERED:  # built at import, before any thread reads (canonical_reader)
    canonical_reader(_registered.deal_model)


def _canonical(validator: Validator, k: int, text: str) -> Read | None:
    """A canonical ``text`` read when the record its variant's model reads
    (:func:`model.identity.canonical_reader`, one pass in pydantic-core) is written back as
    the line itself (``canonical_json_read``): nothing was normalised (names with spaces,
    ``false`` flags written out, numbers as text, keys in another order, a key twice)."""
    if (found := _GAME_ID.search(text, _AT)) is None:
        return None
    known = validator.known_game(found.group(1))
    if known is None:
        return None
    game, v, _ = known
    try:
        deal = canonical_reader(v.deal_model).validate_json(text)
        canonical = canonical_json_read(deal)
    except Exception:  # the reference says why (a model that fails is its issue)
        return None
    if (deal.game_id != game.game_id or deal.deal_no > MAX_DEAL_NO
            or len(text) != len(canonical) + _AT - 1 or not text.endswith(canonical[1:])):
        return None
    return v, (k, deal, game, canonical)


def _any_order(validator: Validator, k: int, text: str) -> Read | None:
    """Any other deal line read as the reference reads it (``jsonl.parse_line``, then
    :func:`read_record`): parsed by ``jsonl.load_json``."""
    if too_deep(text):
        return None
    try:
        data = load_json(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    return read_record(validator, k, data)


def read_record(validator: Validator, k: int, data: dict[str, Any]) -> Read | None:
    """A deal record (a line's JSON, or what a reader of another format made) read as
    ``Validator._deal`` reads it up to its rules: its game known at its position, its
    variant's model validating it; its canonical JSON written from the record
    (``identity.canonical_json``)."""
    if data.get("record") != "deal":
        return None
    gid = data.get("game_id")
    known = validator.known_game(gid) if isinstance(gid, str) and gid else None
    if known is None:
        return None
    game, v, _ = known
    try:  # most objects read in canonical order once their mappings' keys are sorted
        deal = canonical_reader(v.deal_model).validate_python(_sorted_maps(data))
        canonical = canonical_json_read(deal)
    except Exception:  # keys out of order once read (names with spaces), or a bad record
        try:
            deal = v.deal_model.model_validate(data)
        except Exception:  # the reference says why
            return None
        canonical = canonical_json(deal)
    if deal.deal_no > MAX_DEAL_NO:
        return None
    return v, (k, deal, game, canonical)


def _sorted_maps(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with the keys of each object among its values sorted (what
    ``identity.canonical_reader`` asks of a mapping field; the fields themselves may come in
    any order)."""
    return {key: dict(sorted(value.items())) if type(value) is dict else value
            for key, value in data.items()}


def _taken(v: Variant, reads: list[_Read]) -> Taken:
    """The deals of ``reads`` the variant's rules accept, asked once for the whole batch
    (``Variant.valid_deals``), with their ``deals_<variant>`` rows, without the deals whose row
    does not fit its integer columns (those go to the reference, which names the column)."""
    pairs = [(r[2], r[1]) for r in reads]
    try:
        ok = v.valid_deals(pairs)
        rows = v.deal_rows([p for p, good in zip(pairs, ok, strict=True) if good])
    except Exception:  # a check that fails is the reference's issue, deal by deal
        return Taken.empty()
    made = iter(rows)
    rows = [next(made) if good else None for good in ok]
    fit = fits(rows, v.frame_schema)
    kept = [(read, row) for read, row, good in zip(reads, rows, fit.tolist(), strict=True)
            if good]
    if not kept:
        return Taken.empty()
    own = pl.DataFrame([row for _, row in kept], schema=v.frame_schema, orient="row")
    return Taken(_deals(v, [read for read, _ in kept]),
                 {v.name: own.select(pl.Series("idx", [r[0] for r, _ in kept], dtype=pl.Int32),
                                     *v.frame_schema)})


_OWN = ("idx", "game_id", "deal_no", "dealer", "declarer", "contract", "has_cards", "record")
"""The ``deals`` columns read from a deal's record (``deal_key`` and ``variant`` added)."""


def _deals(v: Variant, reads: list[_Read]) -> pl.DataFrame:
    """The ``deals`` columns of the deals taken, read from their records in one pass, with
    their ``deal_key`` hashed over the batch (``identity.deal_keys``)."""
    columns = dict(zip(_OWN, zip(*[(k, d.game_id, d.deal_no, *deal_columns(d), text)
                                   for k, d, _, text in reads], strict=True), strict=True))
    columns["deal_key"] = tuple(deal_keys(columns["game_id"], columns["record"]))
    columns["variant"] = (v.name,) * len(reads)
    return pl.DataFrame({name: columns[name] for name in DEALS_COLUMNS}, schema=DEALS_COLUMNS)


def fits(rows: Sequence[dict[str, object] | None], schema: dict[str, Any]) -> np.ndarray:
    """Whether each row fits the integer columns of ``schema`` (``validate.too_wide``, column
    by column); a missing row does not fit."""
    ok = np.array([r is not None for r in rows], dtype=bool)
    bounded = integer_ranges(schema)
    if not bounded:
        return ok
    present = [r if r is not None else {} for r in rows]
    try:  # every integer column read at once, as 64-bit integers
        frame = pl.DataFrame(present, schema=dict.fromkeys(bounded, pl.Int64), orient="row",
                             strict=True)
    except Exception:  # beyond 64 bits, or not all integers: column by column
        return ok & _fits_one_by_one(present, bounded)
    for name, (low, high) in bounded.items():
        column = frame[name]
        ok &= ~((column < low) | (column > high)).fill_null(False).to_numpy()
    return ok


def _fits_one_by_one(rows: list[dict[str, object]],
                     bounded: dict[str, tuple[int, int]]) -> np.ndarray:
    ok = np.ones(len(rows), dtype=bool)
    for name, (low, high) in bounded.items():
        values = [r.get(name) for r in rows]
        try:
            column = pl.Series(values, dtype=pl.Int64, strict=True)
        except Exception:
            ok &= np.array([not (isinstance(x, int) and not low <= x <= high) for x in values])
            continue
        ok &= ~((column < low) | (column > high)).fill_null(False).to_numpy()
    return ok
