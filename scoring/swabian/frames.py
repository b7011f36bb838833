"""Frames in and out of the Swabian settlement: the rules reader and the output schemas.

Settlement rows carry every column of the ``settlements`` table; the ones Swabian Preferanz does
not use (Greek chips and kassa, Balkan bula and soups, bridge lines) are null. ``cash`` is in stake
units (swabian.md 7).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from model.swabian.params import SwabianRules
from scoring import frames

VARIANT = "swabian"

SETTLEMENTS = frames.SETTLEMENTS
TRANSFERS = frames.TRANSFERS
STANDINGS = frames.STANDINGS
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
