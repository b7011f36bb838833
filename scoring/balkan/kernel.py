"""The Balkan settlement, vectorised (``../shared/spec/balkan.md`` section 7): the registered
``SETTLEMENT`` books every deal of every game at once with ``booking.book``."""

from __future__ import annotations

import polars as pl

from model.balkan.frame import TABLE
from scoring.balkan.booking import book
from scoring.balkan.frames import VARIANT, settle_with
from scoring.settlement import Settled, Settlement


class BalkanSettlement(Settlement):
    variant = VARIANT
    deals_table = TABLE.name

    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        return settle_with(games, deals, lambda rules, d, _sub: book(rules, d))


SETTLEMENT = BalkanSettlement()
