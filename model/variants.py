"""Variants registered by name, with aliases, and a lookup that fails loudly.

Each variant is one package under ``model/`` exposing a :class:`model.variant.Variant`; register it
here with one line in ``REGISTERED``.
"""

from __future__ import annotations

from model.balkan.variant import VARIANT as BALKAN
from model.bridge.variant import VARIANTS as BRIDGE
from model.greek.variant import VARIANT as GREEK
from model.russian.variant import VARIANT as RUSSIAN
from model.schema import Table
from model.swabian.variant import VARIANT as SWABIAN
from model.tables import TABLES
from model.variant import UnknownVariant, Variant

REGISTERED: tuple[Variant, ...] = (GREEK, SWABIAN, BALKAN, *BRIDGE, RUSSIAN)
"""Every variant, in registration order."""

_BY_NAME: dict[str, Variant] = {v.name: v for v in REGISTERED}
_BY_ALIAS: dict[str, Variant] = {a: v for v in REGISTERED for a in v.aliases}

__all__ = ["REGISTERED", "UnknownVariant", "Variant", "names", "registered", "tables",
           "unplayed_sql", "variant"]


def variant(name: str) -> Variant:
    """The variant called ``name`` (or one of its aliases)."""
    found = _BY_NAME.get(name) or _BY_ALIAS.get(name)
    if found is None:
        raise UnknownVariant(f"unknown variant {name!r}; known: {', '.join(sorted(_BY_NAME))}")
    return found


def registered() -> list[Variant]:
    """Every registered variant, in registration order."""
    return list(REGISTERED)


def names() -> list[str]:
    return sorted(_BY_NAME)


def unplayed_sql() -> str:
    """A condition over a ``deals`` row ``d``: the deal was dealt but nobody played it
    (``Variant.unplayed_sql`` of its variant; false for the variants without one)."""
    cases = " ".join(f"WHEN '{v.name}' THEN ({v.unplayed_sql})"
                     for v in REGISTERED if v.unplayed_sql)
    return f"coalesce(CASE d.variant {cases} ELSE FALSE END, FALSE)" if cases else "FALSE"


def tables() -> dict[str, Table]:
    """Every table of the database: the stable tables and each variant's ``deals_<variant>``."""
    return {**TABLES, **{v.table.name: v.table for v in REGISTERED}}
