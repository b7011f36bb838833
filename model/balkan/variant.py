"""The Balkan preferans variant behind the ``Variant`` protocol of ``model/variants.py``."""

from __future__ import annotations

from typing import cast

import polars as pl

from model.balkan.check import check_deal
from model.balkan.frame import SCHEMA, deal_row
from model.balkan.records import BalkanDeal, BalkanGame
from model.base import DealBase, GameBase
from model.cards import DECK_32
from model.problems import Problem
from model.tables import DEALS_BALKAN


class BalkanVariant:
    name = "balkan"
    aliases: tuple[str, ...] = ("balkan-preferans", "serbian", "croatian", "ppn")
    deck = DECK_32
    game_model: type[GameBase] = BalkanGame
    deal_model: type[DealBase] = BalkanDeal
    deals_table = DEALS_BALKAN
    frame_schema: dict[str, pl.DataType] = SCHEMA

    def deal_row(self, game: GameBase, deal: DealBase) -> dict[str, object]:
        return deal_row(cast(BalkanGame, game), cast(BalkanDeal, deal))

    def check_deal(self, game: GameBase, deal: DealBase) -> list[Problem]:
        return check_deal(cast(BalkanGame, game), cast(BalkanDeal, deal))


VARIANT = BalkanVariant()
