"""Variants registered by name, with aliases, and a lookup that fails loudly.

Each variant is one package under ``model/`` (``model/greek`` ...) exposing a ``VARIANT`` object
that satisfies :class:`Variant`. Register it here with one line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import polars as pl

from model.base import DealBase, GameBase
from model.problems import Problem


class Variant(Protocol):
    @property
    def name(self) -> str:
        """The canonical ``variant`` value of records.md 1.1, e.g. ``"greek-prefa"``."""
        ...

    @property
    def aliases(self) -> tuple[str, ...]: ...

    @property
    def deck(self) -> int:
        """The deck as a card mask (``DECK_32`` or ``DECK_52``)."""
        ...

    @property
    def game_model(self) -> type[GameBase]: ...

    @property
    def deal_model(self) -> type[DealBase]: ...

    @property
    def deals_table(self) -> str:
        """The ``deals_<variant>`` table (model/tables.py) holding the flat columns its kernel
        reads."""
        ...

    @property
    def frame_schema(self) -> dict[str, pl.DataType]:
        """Columns of that table as a polars schema."""
        ...

    @property
    def outcome_sql(self) -> str:
        """A ``SELECT`` over the variant's own ``deals_<variant>`` table giving, per deal of its
        games: ``game_id``, ``deal_no``, ``variant``, ``defence_mode`` (the variant's word, ``none``
        when nobody declared), ``declarer_tricks`` and ``made`` (null where nobody declared); the
        branches of the ``deal_outcomes`` view (``model/views.py``)."""
        ...

    def deal_row(self, game: GameBase, deal: DealBase) -> dict[str, object]:
        """The ``deals_<variant>`` row of a valid deal."""
        ...

    def check_deal(self, game: GameBase, deal: DealBase) -> list[Problem]:
        """Rule- and card-level problems of a schema-valid deal of ``game`` (empty when valid).

        Rules: names are players of the game, contract legal, defence legal, trick counts in range
        and summing right. Cards, when present: hands and talon partition the deck, the auction is
        legal, the contract is allowed by it, every card played is legal, the replay gives exactly
        the recorded tricks."""
        ...


@dataclass(frozen=True)
class VariantSpec:
    """One variant's rules behind the :class:`Variant` protocol: names, deck, record models, the
    flat ``deals_<variant>`` table, the outcome SQL and the deal check, in one frozen object.

    ``check`` and ``row`` take the variant's own game and deal records; ``check_deal`` and
    ``deal_row`` make sure they get them."""

    name: str
    aliases: tuple[str, ...]
    deck: int
    game_model: type[GameBase]
    deal_model: type[DealBase]
    deals_table: str
    frame_schema: dict[str, pl.DataType]
    outcome_sql: str
    """A SELECT giving ``model/views.py``'s ``deal_outcomes`` columns for this variant's deals."""
    check: Callable[[Any, Any], list[Problem]]
    row: Callable[[Any, Any], dict[str, object]]

    def check_deal(self, game: GameBase, deal: DealBase) -> list[Problem]:
        return self.check(*self._own(game, deal))

    def deal_row(self, game: GameBase, deal: DealBase) -> dict[str, object]:
        return self.row(*self._own(game, deal))

    def _own(self, game: GameBase, deal: DealBase) -> tuple[GameBase, DealBase]:
        if not isinstance(game, self.game_model) or not isinstance(deal, self.deal_model):
            raise TypeError(
                f"{self.name} needs a {self.game_model.__name__} and a "
                f"{self.deal_model.__name__}, got {type(game).__name__} and {type(deal).__name__}"
            )
        return game, deal


class UnknownVariant(ValueError):
    pass


def _registry() -> dict[str, Variant]:
    from model.balkan.variant import VARIANT as BALKAN
    from model.bridge.variant import VARIANTS as BRIDGE
    from model.greek.variant import VARIANT as GREEK
    from model.russian.variant import VARIANT as RUSSIAN
    from model.swabian.variant import VARIANT as SWABIAN

    return {v.name: v for v in (GREEK, SWABIAN, BALKAN, *BRIDGE, RUSSIAN)}


def variant(name: str) -> Variant:
    """The variant called ``name`` (or one of its aliases)."""
    reg = _registry()
    if name in reg:
        return reg[name]
    for v in reg.values():
        if name in v.aliases:
            return v
    raise UnknownVariant(f"unknown variant {name!r}; known: {', '.join(sorted(reg))}")


def registered() -> list[Variant]:
    """Every registered variant, in registration order."""
    return list(_registry().values())


def names() -> list[str]:
    return sorted(_registry())
