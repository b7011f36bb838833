"""Column schemas of the frames a Swabian settlement returns (``model/tables.py``).

Settlement rows carry every column of the ``settlements`` table; the ones Swabian Preferanz does
not use (Greek chips and kassa, Balkan bula and soups, bridge lines) are null. ``cash`` is in stake
units (swabian.md 7).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import polars as pl

from model.swabian.params import SwabianRules

VARIANT = "swabian"

SETTLEMENTS: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "deal_no": pl.Int32(),
    "player": pl.String(),
    "seat": pl.Int8(),
    "variant": pl.String(),
    "cash": pl.Float64(),
    "chips": pl.Float64(),
    "kassa_delta": pl.Int32(),
    "kassa_after": pl.Int32(),
    "bula_delta": pl.Int32(),
    "bula_after": pl.Int32(),
    "soups_left": pl.Int32(),
    "soups_right": pl.Int32(),
    "refa_used": pl.Boolean(),
    "below_line": pl.Int32(),
    "above_line": pl.Int32(),
    "vulnerable": pl.Boolean(),
    "score_ns": pl.Int32(),
}
TRANSFERS: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "deal_no": pl.Int32(),
    "payer": pl.String(),
    "payee": pl.String(),
    "amount": pl.Float64(),
}
STANDINGS: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "player": pl.String(),
    "variant": pl.String(),
    "cash": pl.Float64(),
    "deals_played": pl.Int32(),
    "finished": pl.Boolean(),
}
UNUSED = [
    c for c in SETTLEMENTS if c not in ("game_id", "deal_no", "player", "seat", "variant", "cash")
]


class RulesError(ValueError):
    """A game's ``rules`` that are not Swabian rules; quotes them."""


def read_rules(rules: object) -> SwabianRules:
    """The ``rules`` cell of a ``games`` row (JSON text, a mapping, or null) as ``SwabianRules``."""
    try:
        if rules is None or rules == "":
            return SwabianRules()
        if isinstance(rules, str):
            return SwabianRules.model_validate(json.loads(rules))
        if isinstance(rules, Mapping):
            return SwabianRules.model_validate(dict(rules))
    except ValueError as exc:
        raise RulesError(f"not Swabian rules: {rules!r}") from exc
    raise RulesError(f"not Swabian rules: {rules!r}")


def finished(rules: SwabianRules, deals_played: int) -> bool:
    """A session ends by agreement (every recorded balance is final) or after ``session_deals``
    deals (swabian.md 7, 10 ``session_end``)."""
    if rules.session_end == "fixed_deals":
        return deals_played >= (rules.session_deals or 0)
    return True
