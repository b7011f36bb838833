"""Swabian Preferanz settlement (swabian.md 7-8): a per-deal reference and a vectorised kernel.

``SETTLEMENT.settle(games, deals)`` is the vectorised one (registered in ``scoring/registry.py``);
``scoring.swabian.reference.settle`` is the plain reading it is tested against.
"""

from __future__ import annotations

import polars as pl

from model.swabian.frame import TABLE
from scoring.settlement import Settled, Settlement
from scoring.swabian import reference, vectorised


class SwabianSettlement(Settlement):
    """The ``Settlement`` of the registry for Swabian Preferanz."""

    variant = "swabian"
    deals_table = TABLE.name

    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        """Vectorised settlement (``vectorised.settle``)."""
        return vectorised.settle(games, deals)

    def settle_reference(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        """The per-deal reference (``reference.settle``), for tests and benchmarks."""
        return reference.settle(games, deals)


SETTLEMENT = SwabianSettlement()
