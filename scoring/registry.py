"""Settlements registered by variant name: one line per variant in ``REGISTERED``
(the interface: ``scoring/settlement.py``)."""

from __future__ import annotations

from model import variants as model_variants
from model.tables import Table
from scoring.balkan import SETTLEMENT as BALKAN
from scoring.bridge import DUPLICATE as BRIDGE_DUPLICATE
from scoring.bridge import RUBBER as BRIDGE_RUBBER
from scoring.greek import SETTLEMENT as GREEK
from scoring.russian import SETTLEMENT as RUSSIAN
from scoring.settlement import Settled, Settlement
from scoring.swabian import SETTLEMENT as SWABIAN

REGISTERED: tuple[Settlement, ...] = (
    GREEK, SWABIAN, BALKAN, BRIDGE_RUBBER, BRIDGE_DUPLICATE, RUSSIAN,
)
_BY_VARIANT: dict[str, Settlement] = {s.variant: s for s in REGISTERED}

__all__ = ["REGISTERED", "Settled", "Settlement", "settlement", "tables", "variants"]


def settlement(variant: str) -> Settlement:
    found = _BY_VARIANT.get(variant)
    if found is None:
        raise KeyError(
            f"no settlement for variant {variant!r}; known: {', '.join(sorted(_BY_VARIANT))}"
        )
    return found


def variants() -> list[str]:
    return sorted(_BY_VARIANT)


def tables() -> dict[str, Table]:
    """Every table trickbook declares, by name: the stable and variant tables
    (``model.variants.tables``) and those the settlements write (``Settlement.tables``,
    ``Settlement.refreshed``)."""
    own = {t.name: t for s in REGISTERED for t in (*s.tables, *s.refreshed)}
    return {**model_variants.tables(), **own}
