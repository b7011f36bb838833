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
