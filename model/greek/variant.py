"""Greek Prefa as a registered variant (``model/variants.py``): names, deck, records, table,
frame and the deal check, in one frozen object."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from model.base import DealBase, GameBase
from model.cards import DECK_32
from model.greek import frame
from model.greek.check import check_deal
from model.greek.records import GreekDeal, GreekGame
from model.problems import Problem
from model.tables import DEALS_GREEK


@dataclass(frozen=True)
class GreekVariant:
    """Satisfies ``model.variants.Variant`` for Greek Prefa (greek-prefa.md)."""

    name: str = "greek-prefa"
    aliases: tuple[str, ...] = ("greek", "prefa")
    deck: int = DECK_32
    game_model: type[GameBase] = GreekGame
    deal_model: type[DealBase] = GreekDeal
    deals_table: str = DEALS_GREEK
    frame_schema: dict[str, pl.DataType] = field(default_factory=lambda: dict(frame.SCHEMA))

    @property
    def outcome_sql(self) -> str:
        """Per deal (``model/views.py``): the frame's ``mode`` as the defence mode (6.1; ``concede``
        section 5); made with at least ``level`` tricks (9.2, 9.3), by both defenders passing
        (6.1 step 2, no play), never after a concession or a preliminary concession (5, 14)."""
        return f"""
            SELECT game_id, deal_no, '{self.name}' AS variant, mode AS defence_mode,
                   taken AS declarer_tricks,
                   CASE WHEN declarer IS NULL THEN NULL
                        WHEN mode = 'pass' THEN TRUE
                        WHEN mode = 'concede' OR level IS NULL THEN FALSE
                        ELSE taken >= level END AS made
            FROM (SELECT *, [tricks_0, tricks_1, tricks_2, tricks_3][declarer + 1] AS taken
                  FROM {self.deals_table})"""

    def deal_row(self, game: GameBase, deal: DealBase) -> dict[str, object]:
        """The ``deals_greek`` row of a valid deal (``model/greek/frame.py``)."""
        return frame.deal_row(*_greek(game, deal))

    def check_deal(self, game: GameBase, deal: DealBase) -> list[Problem]:
        """Every problem of a schema-valid deal (``model/greek/check.py``)."""
        return check_deal(*_greek(game, deal))


def _greek(game: GameBase, deal: DealBase) -> tuple[GreekGame, GreekDeal]:
    if not isinstance(game, GreekGame) or not isinstance(deal, GreekDeal):
        raise TypeError(
            f"greek-prefa needs a GreekGame and a GreekDeal, got {type(game).__name__} "
            f"and {type(deal).__name__}"
        )
    return game, deal


VARIANT = GreekVariant()
