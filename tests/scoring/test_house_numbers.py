"""Every number a house rule sets is bounded (``model.base.HouseNumber``, ``Stock``, and the
rules' own bounds): a game with every such number at its largest scores, and a number above its
bound is refused when the game line is read, not when it is scored (records.md 1.1: a game
line's ``rules`` are validated by the variant's rules model)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from ingest import store
from model import tables as T
from model.variants import variant as lookup
from sim.drivers import SIMULATED
from sim.run import Plan, simulate

COMPANIONS: dict[str, dict[str, Any]] = {
    "session_deals": {"session_end": "fixed_deals"},  # swabian.md 10
    "four_aces_amount": {"four_aces": "fixed_chips"},  # greek-prefa.md 14
}
"""Flags a number only counts with."""


def largest(variant: str) -> dict[str, Any]:
    """The variant's house rules with every bounded number at its largest value (a rule given
    as ``X | None`` too)."""
    rules: dict[str, Any] = {}
    schema = lookup(variant).rules_model.model_json_schema()["properties"]
    for name, field in schema.items():
        bounds = [f["maximum"] for f in (field, *field.get("anyOf", ())) if "maximum" in f]
        if bounds:
            rules[name] = min(bounds)
            rules.update(COMPANIONS.get(name, {}))
    return rules


@pytest.mark.parametrize("variant", SIMULATED)
def test_a_game_at_the_largest_house_numbers_scores(variant: str, tmp_path: Path) -> None:
    rules = largest(variant)
    db = tmp_path / "t.duckdb"
    report = simulate(Plan(variant, games=2, deals_per_game=300, seed=5, rules=rules),
                      db=db, workers=1)
    assert report.deals > 0 and not report.unscored
    conn = store.connect(db)
    try:
        assert conn.execute(f"SELECT count(*) FROM {T.PENDING}").fetchone() == (0,)
        settled = conn.execute(f"SELECT count(DISTINCT (game_id, deal_no)) FROM {T.SETTLEMENTS}")
        assert settled.fetchone() == (report.deals,)
    finally:
        conn.close()


@pytest.mark.parametrize("variant", SIMULATED)
def test_a_house_number_above_the_largest_is_refused(variant: str) -> None:
    v = lookup(variant)
    rules = largest(variant)
    assert rules, f"{variant} has no house number to bound"
    for name in [n for n in rules if n not in {k for c in COMPANIONS.values() for k in c}]:
        with pytest.raises(ValidationError, match=name):
            v.rules({**rules, name: rules[name] + 1})
