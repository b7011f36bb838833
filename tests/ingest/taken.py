"""What a fast path took (``sheets.Taken``), compared deal by deal with the reference's verdict
(``ingest/validate.py``): the same canonical JSON, deal key, ``deals`` columns and row."""

from __future__ import annotations

from typing import Any

import polars as pl

from ingest.jsonl import parse_line
from ingest.sheets import Taken
from ingest.source import Issue
from ingest.validate import Accepted, Validator
from model.base import DealBase


def taken_rows(taken: Taken) -> dict[int, tuple[dict[str, Any], dict[str, Any]]]:
    """Each taken line's ``deals`` columns and ``deals_<variant>`` row, by position."""
    rows = {r.pop("idx"): r for frame in taken.rows.values() for r in frame.iter_rows(named=True)}
    return {d["idx"]: (d, rows[d["idx"]]) for d in taken.deals.iter_rows(named=True)}


def verdict(validator: Validator, source: str, line: int, text: str) -> Accepted | Issue:
    """The reference's verdict on a line: its parse issue, or what ``validator`` says of it."""
    raw = parse_line(source, line, text)
    return raw if isinstance(raw, Issue) else validator.validate(raw)


def assert_same(fast: tuple[dict[str, Any], dict[str, Any]], ref: Accepted) -> None:
    deals, row = fast
    deal = ref.record
    assert isinstance(deal, DealBase)
    assert deals["record"] == ref.canonical
    assert deals["deal_key"] == ref.key
    assert (deals["game_id"], deals["deal_no"], deals["dealer"], deals["declarer"],
            deals["contract"], deals["variant"], deals["has_cards"]) == (
        deal.game_id, deal.deal_no, deal.dealer, deal.declarer, getattr(deal, "contract", None),
        ref.variant.name, deal.hands is not None or deal.play is not None)
    schema = ref.variant.frame_schema
    assert row == pl.DataFrame([ref.row], schema=schema, orient="row").row(0, named=True)


def counted(monkeypatch: Any, module: object, name: str) -> list[int]:
    """How many deals each call of the fast path ``module.name`` took (the function spied on
    for the rest of the test)."""
    used: list[int] = []
    real = getattr(module, name)

    def spy(*args: Any) -> Taken:
        out: Taken = real(*args)
        used.append(len(out))
        return out

    monkeypatch.setattr(module, name, spy)
    return used
