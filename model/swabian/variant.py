"""Swabian Preferanz as a registered variant (``model/variants.py``): names, deck, records,
table, frame and the deal check, in one frozen object."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from model.base import DealBase, GameBase
from model.cards import DECK_32
from model.problems import Problem
from model.swabian import frame
from model.swabian.check import check_deal
from model.swabian.records import SwabianDeal, SwabianGame
from model.tables import DEALS_SWABIAN


@dataclass(frozen=True)
class SwabianVariant:
    """Satisfies ``model.variants.Variant`` for Swabian Preferanz (swabian.md)."""

    name: str = "swabian"
    aliases: tuple[str, ...] = ("swabian-preferanz", "preferanz", "donauschwaben")
    deck: int = DECK_32
    game_model: type[GameBase] = SwabianGame
    deal_model: type[DealBase] = SwabianDeal
    deals_table: str = DEALS_SWABIAN
    frame_schema: dict[str, pl.DataType] = field(default_factory=lambda: dict(frame.SCHEMA))

    @property
    def outcome_sql(self) -> str:
        """Per deal (``model/views.py``): the defence mode is the highest announcement of the
        defenders, ``play`` / ``contra`` / ``recontra`` (5: stake factor 1, 2, 4); made by the
        tricks required (3.1, ``model/swabian/games.py``): 7 in game 2, 6 in games 3-5, one more
        aus den Händen (3.2), none in Bettel, all ten in Durchmarsch."""
        return f"""
            SELECT game_id, deal_no, '{self.name}' AS variant,
                   CASE WHEN declarer IS NULL THEN 'none'
                        WHEN greatest(contra_0, contra_1, contra_2) >= 4 THEN 'recontra'
                        WHEN greatest(contra_0, contra_1, contra_2) = 2 THEN 'contra'
                        ELSE 'play' END AS defence_mode,
                   taken AS declarer_tricks,
                   CASE WHEN declarer IS NULL THEN NULL
                        WHEN game = 6 THEN taken = 0
                        WHEN game = 7 THEN taken = 10
                        ELSE taken >= CASE WHEN game = 2 THEN 7 ELSE 6 END
                                      + CASE WHEN hand THEN 1 ELSE 0 END END AS made
            FROM (SELECT *, [tricks_0, tricks_1, tricks_2][declarer + 1] AS taken
                  FROM {self.deals_table})"""

    def deal_row(self, game: GameBase, deal: DealBase) -> dict[str, object]:
        """The ``deals_swabian`` row of a valid deal (``model/swabian/frame.py``)."""
        return frame.deal_row(*_swabian(game, deal))

    def check_deal(self, game: GameBase, deal: DealBase) -> list[Problem]:
        """Every problem of a schema-valid deal (``model/swabian/check.py``)."""
        return check_deal(*_swabian(game, deal))


def _swabian(game: GameBase, deal: DealBase) -> tuple[SwabianGame, SwabianDeal]:
    if not isinstance(game, SwabianGame) or not isinstance(deal, SwabianDeal):
        raise TypeError(
            f"swabian needs a SwabianGame and a SwabianDeal, got {type(game).__name__} "
            f"and {type(deal).__name__}"
        )
    return game, deal


VARIANT = SwabianVariant()
