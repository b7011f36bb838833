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

    @property
    def outcome_sql(self) -> str:
        """Per deal (``model/views.py``): the frame's ``mode`` as the defence mode (5.1;
        ``nokontra`` a plain Pik nobody doubled); made (4, 6; ``declarer_made``) with six tricks,
        none in Betl (6), all ten in Preferans (8); with no play when both defenders passed or
        the Pik went without kontra. A repealed deal is not counted (null)."""
        return f"""
            SELECT game_id, deal_no, '{self.name}' AS variant, mode AS defence_mode,
                   taken AS declarer_tricks,
                   CASE WHEN declarer IS NULL OR repealed THEN NULL
                        WHEN mode IN ('pass', 'nokontra') THEN TRUE
                        WHEN number = 6 THEN taken = 0
                        WHEN number = 8 THEN taken = 10
                        ELSE taken >= 6 END AS made
            FROM (SELECT *, [tricks_0, tricks_1, tricks_2, tricks_3][declarer + 1] AS taken
                  FROM {self.deals_table})"""

    def deal_row(self, game: GameBase, deal: DealBase) -> dict[str, object]:
        return deal_row(cast(BalkanGame, game), cast(BalkanDeal, deal))

    def check_deal(self, game: GameBase, deal: DealBase) -> list[Problem]:
        return check_deal(cast(BalkanGame, game), cast(BalkanDeal, deal))


VARIANT = BalkanVariant()
