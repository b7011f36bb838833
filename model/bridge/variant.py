"""Bridge as two registered variants (``model/variants.py``): ``bridge-rubber`` (with Chicago as
``rules.mode``) and ``bridge-duplicate``; one record model, one ``deals_bridge`` table."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from model.base import DealBase, GameBase
from model.bridge import frame
from model.bridge.check import check_deal
from model.bridge.records import BridgeDeal, BridgeGame
from model.cards import DECK_52
from model.problems import Problem
from model.tables import DEALS_BRIDGE, GAMES


@dataclass(frozen=True)
class BridgeVariant:
    """Satisfies ``model.variants.Variant`` for contract bridge (bridge.md)."""

    name: str
    aliases: tuple[str, ...]
    deck: int = DECK_52
    game_model: type[GameBase] = BridgeGame
    deal_model: type[DealBase] = BridgeDeal
    deals_table: str = DEALS_BRIDGE
    frame_schema: dict[str, pl.DataType] = field(default_factory=lambda: dict(frame.SCHEMA))

    @property
    def outcome_sql(self) -> str:
        """Per deal of this variant's games (the table is shared, ``model/views.py``): the
        defence mode is the contract's doubling (``undoubled`` / ``doubled`` / ``redoubled``,
        bridge.md 3); made with at least level + 6 tricks for the declarer's side (Law 77)."""
        return f"""
            SELECT b.game_id, b.deal_no, g.variant,
                   CASE WHEN b.declarer IS NULL THEN 'none'
                        ELSE ['undoubled', 'doubled', 'redoubled'][b.doubled + 1] END
                        AS defence_mode,
                   b.tricks AS declarer_tricks,
                   CASE WHEN b.declarer IS NULL THEN NULL
                        ELSE b.tricks >= b.level + 6 END AS made
            FROM {self.deals_table} b JOIN {GAMES} g ON g.game_id = b.game_id
            WHERE g.variant = '{self.name}'"""

    def deal_row(self, game: GameBase, deal: DealBase) -> dict[str, object]:
        """The ``deals_bridge`` row of a valid deal (``model/bridge/frame.py``)."""
        return frame.deal_row(*_bridge(game, deal))

    def check_deal(self, game: GameBase, deal: DealBase) -> list[Problem]:
        """Every problem of a schema-valid deal (``model/bridge/check.py``)."""
        return check_deal(*_bridge(game, deal))


def _bridge(game: GameBase, deal: DealBase) -> tuple[BridgeGame, BridgeDeal]:
    if not isinstance(game, BridgeGame) or not isinstance(deal, BridgeDeal):
        raise TypeError(
            f"bridge needs a BridgeGame and a BridgeDeal, got {type(game).__name__} "
            f"and {type(deal).__name__}"
        )
    return game, deal


VARIANT = BridgeVariant("bridge-rubber", ("rubber", "bridge", "chicago"))
DUPLICATE = BridgeVariant("bridge-duplicate", ("duplicate",))
VARIANTS = (VARIANT, DUPLICATE)
