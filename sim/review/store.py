"""Which stored deals await a review, the review of one, and writing the rows (docs/review.md).

A deal is reviewed once: it is picked while it has no ``deal_review`` row, and its
``deal_review`` and ``card_review`` rows are written in one transaction, so an interrupted run
leaves nothing half written and the next run carries on where it stopped. A review whose
contract decision does not name the deal's contract as recorded is forgotten first
(:func:`forget_stale`), and made again.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import duckdb
import polars as pl

from model.tables import (
    CARD_REVIEW,
    DDL,
    DEAL_REVIEW,
    DEALS,
    DECISION_REVIEW,
    GAMES,
    TABLES,
    insert,
)
from model.variants import REGISTERED
from sim.analysis import PREFERENCE_VARIANTS
from sim.review.bridge import review_bridge
from sim.review.preference import review_preference
from sim.review.rows import CardReview, DealReview, Skipped

BRIDGE_VARIANTS = tuple(v.name for v in REGISTERED if v.partnerships)
"""The games reviewed double-dummy by DDS (``sim/review/bridge.py``)."""
REVIEWED_VARIANTS = (*PREFERENCE_VARIANTS, *BRIDGE_VARIANTS)

Task = tuple[str, int, str, list[str], str, str]
"""A deal to review: ``(game_id, deal_no, variant, players, rules JSON, record JSON)``."""

CARD_SCHEMA = TABLES[CARD_REVIEW].schema
DECISION_SCHEMA = TABLES[DECISION_REVIEW].schema
DEAL_SCHEMA = TABLES[DEAL_REVIEW].schema
assert list(CARD_SCHEMA) == ["game_id", "deal_no", *(f.name for f in fields(CardReview))], (
    "card_review rows are built in the schema's order (frames)")


def create_tables(conn: duckdb.DuckDBPyConnection) -> None:
    for table in (CARD_REVIEW, DECISION_REVIEW, DEAL_REVIEW):
        conn.execute(DDL[table])


STALE = f"""SELECT r.game_id, r.deal_no FROM {DECISION_REVIEW} r
             JOIN {DEALS} d ON d.game_id = r.game_id AND d.deal_no = r.deal_no
             WHERE r.kind = 'contract' AND r.choice IS DISTINCT FROM d.contract"""
"""Reviewed deals whose contract decision names another contract than the deal's: written in
the solver's names (``H``, ``sanac``) before decisions named contracts as records write them."""


def forget_stale(conn: duckdb.DuckDBPyConnection) -> int:
    """Delete every review row of the :data:`STALE` deals, in one transaction; returns how many
    deals the next run reviews again."""
    stale = conn.execute(f"SELECT count(*) FROM ({STALE})").fetchone()
    if not stale or not stale[0]:
        return 0
    conn.execute("BEGIN TRANSACTION")
    try:
        for table in (CARD_REVIEW, DEAL_REVIEW, DECISION_REVIEW):  # decisions last: STALE
            conn.execute(f"DELETE FROM {table} WHERE (game_id, deal_no) IN ({STALE})")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return int(stale[0])


def pending(conn: duckdb.DuckDBPyConnection, limit: int | None = None) -> list[Task]:
    """The deals with cards not reviewed yet (or reviewed stale, :func:`forget_stale`), in key
    order."""
    create_tables(conn)
    forget_stale(conn)
    rows = conn.execute(
        f"""SELECT d.game_id, d.deal_no, d.variant, g.players, g.rules::VARCHAR,
                   d.record::VARCHAR
            FROM {DEALS} d JOIN {GAMES} g ON g.game_id = d.game_id
            WHERE list_contains(?, d.variant) AND d.has_cards
              AND NOT EXISTS (SELECT 1 FROM {DEAL_REVIEW} r
                              WHERE r.game_id = d.game_id AND r.deal_no = d.deal_no)
            ORDER BY d.game_id, d.deal_no {'' if limit is None else 'LIMIT ?'}""",
        [list(REVIEWED_VARIANTS), *([] if limit is None else [limit])],
    ).fetchall()
    return [(g, n, v, list(p), r, t) for g, n, v, p, r, t in rows]


def review_task(task: Task) -> DealReview | Skipped:
    """The review of one stored deal (a worker's unit of work)."""
    game_id, deal_no, variant, players, rules, text = task
    rec: dict[str, Any] = json.loads(text)
    if variant in BRIDGE_VARIANTS:
        return review_bridge(game_id, deal_no, variant, players, rec)
    return review_preference(game_id, deal_no, variant, players, json.loads(rules or "{}"), rec)


def review_batch(tasks: list[Task]) -> list[DealReview | Skipped]:
    return [review_task(t) for t in tasks]


def frames(results: list[DealReview | Skipped]) -> dict[str, pl.DataFrame]:
    """The ``deal_review``, ``card_review`` and ``decision_review`` rows of reviewed deals."""
    deals: list[dict[str, Any]] = []
    cards: list[tuple[Any, ...]] = []  # a row per card, in CARD_SCHEMA's order
    decisions: list[dict[str, Any]] = []
    for r in results:
        if isinstance(r, Skipped):
            deals.append({"game_id": r.game_id, "deal_no": r.deal_no, "variant": r.variant,
                          "cards": 0, "skipped": r.reason})
            continue
        deals.append({"game_id": r.game_id, "deal_no": r.deal_no, "variant": r.variant,
                      "declarer": r.declarer, "contract": r.contract, "fewest": r.fewest,
                      "result": r.result, "value_start": r.value_start,
                      "value_end": r.value_end, "claimed": r.claimed, "cards": len(r.cards)})
        key = {"game_id": r.game_id, "deal_no": r.deal_no}
        cards += [(r.game_id, r.deal_no, c.card_no, c.player, c.side, c.card, c.value_before,
                   c.value_after, c.cost, list(c.best_cards)) for c in r.cards]
        decisions += [{**key, **_fields(d), "best": list(d.best)} for d in r.decisions]
    return {DEAL_REVIEW: pl.DataFrame(deals, schema=DEAL_SCHEMA),
            CARD_REVIEW: pl.DataFrame(cards, schema=CARD_SCHEMA, orient="row"),
            DECISION_REVIEW: pl.DataFrame(decisions, schema=DECISION_SCHEMA)}


def _fields(row: Any) -> dict[str, Any]:
    """A row's fields (``dataclasses.asdict`` without its deep copies)."""
    return {f.name: getattr(row, f.name) for f in fields(row)}


def write(conn: duckdb.DuckDBPyConnection, results: list[DealReview | Skipped]) -> None:
    """Store a batch of reviews in one transaction."""
    tables = frames(results)
    conn.execute("BEGIN")
    try:
        for table, rows in tables.items():
            insert(conn, table, rows)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
