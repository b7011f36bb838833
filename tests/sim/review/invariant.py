"""The review's invariant (docs/review.md) held on simulated deals, the same way at every size:
the tests of ``make test`` hold it on hundreds of deals per variant, ``make test-long`` (the
``long`` mark) on thousands.

A deal played to its end (no claim) holds it when the value before its first card, minus the
declaring side's costs, plus the defence's, is its recorded result (misère and Bettel the other
way round, ``rows.invariant_result``); a raspasy deal (nobody declared, russian.md 7) when each
player's value before his first card, plus his costs, minus the others' gifts, is his recorded
tricks and no gift is negative (``rows.invariant_per_player``).

``python -m tests.sim.review.invariant DIR`` sums the counts the long tests leave in ``DIR``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import duckdb

from sim.review.rows import DealReview, gifts, invariant_per_player, invariant_result
from sim.review.store import pending, review_task
from sim.run import Plan, simulate
from tests.conftest import ROOT

LONG_OUT = ROOT / "tests" / "out" / "invariant"
"""Where the long runs leave their counts (``make test-long`` sums them)."""

Reviewed = tuple[DealReview, dict[str, Any]]
"""A deal's review and its record (the canonical JSON as a dict)."""


def failures(reviews: Iterable[Reviewed]) -> list[tuple[str, int, str]]:
    """``(game_id, deal_no, what)`` of every deal played to its end that breaks the invariant."""
    out: list[tuple[str, int, str]] = []
    for r, rec in reviews:
        if r.claimed:
            continue
        if r.declarer is None:
            predicted = invariant_per_player(r)
            if predicted != rec.get("tricks"):
                out.append((r.game_id, r.deal_no, f"tricks {predicted} != {rec.get('tricks')}"))
            if any(g < 0 for _, g in gifts(r)):
                out.append((r.game_id, r.deal_no, "a negative gift"))
        elif invariant_result(r) != r.result:
            out.append((r.game_id, r.deal_no, f"result {invariant_result(r)} != {r.result}"))
    return out


def reviews_of(db: Path) -> list[Reviewed]:
    """Every deal of ``db`` with cards, reviewed (skipped deals left out)."""
    conn = duckdb.connect(str(db))
    try:
        tasks = pending(conn)
    finally:
        conn.close()
    out = [(review_task(t), json.loads(t[5])) for t in tasks]
    return [(r, rec) for r, rec in out if isinstance(r, DealReview)]


@dataclass(frozen=True)
class Held:
    """What one run held: the deals played to their end, the claimed ones (reviewed up to the
    claim, not counted), the costly cards among them, and the deals that broke the invariant."""

    variant: str
    rules: dict[str, Any]
    seed: int
    ended: int
    claimed: int
    costly_cards: int
    failed: list[tuple[str, int, str]]


def hold(db: Path, variant: str, games: int, deals: int, seed: int,
         rules: dict[str, Any] | None = None, play: str = "heuristic",
         ) -> tuple[Held, list[Reviewed]]:
    """Simulate ``games`` games of ``deals`` deals into ``db``, review them and hold the
    invariant on every deal played to its end; the counts and the ended deals' reviews."""
    simulate(Plan(variant, games, deals, seed=seed, rules=rules or {}, play=play), db=db,
             workers=1)
    reviews = reviews_of(db)
    ended = [(r, rec) for r, rec in reviews if not r.claimed]
    held = Held(variant, rules or {}, seed, len(ended), len(reviews) - len(ended),
                sum(1 for r, _ in ended for c in r.cards if c.cost), failures(ended))
    return held, ended


def with_wrong_cost(review: DealReview) -> DealReview:
    """``review`` with its first card's cost one trick too high: a deliberately wrong cost,
    which the invariant must catch."""
    first = replace(review.cards[0], cost=review.cards[0].cost + 1)
    return replace(review, cards=(first, *review.cards[1:]))


def record(held: Held, out: Path) -> None:
    """Leave ``held``'s counts in ``out`` (one JSON file per run) for the summary."""
    out.mkdir(parents=True, exist_ok=True)
    name = f"{held.variant}-{held.seed}-{len(held.rules)}.json"
    (out / name).write_text(json.dumps(asdict(held)))


def summary(out: Path) -> str:
    """Per variant: the runs, the deals played to their end, the costly cards, the failures."""
    rows: dict[str, list[int]] = {}
    for path in sorted(out.glob("*.json")):
        held = json.loads(path.read_text())
        row = rows.setdefault(held["variant"], [0, 0, 0, 0])
        row[0] += 1
        row[1] += held["ended"]
        row[2] += held["costly_cards"]
        row[3] += len(held["failed"])
    lines = [f"{'variant':<18}{'runs':>6}{'deals':>8}{'costly cards':>14}{'failed':>8}"]
    lines += [f"{v:<18}{r[0]:>6}{r[1]:>8}{r[2]:>14}{r[3]:>8}" for v, r in sorted(rows.items())]
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(Path(sys.argv[1])))
