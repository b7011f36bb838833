"""Variants registered by name, with aliases, and a lookup that fails loudly.

Each variant is one package under ``model/`` (``model/greek`` ...) exposing a ``VARIANT`` object
that satisfies :class:`Variant`. Register it here with one line.
"""

from __future__ import annotations

from typing import Protocol

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


class UnknownVariant(ValueError):
    pass


def _registry() -> dict[str, Variant]:
    from model.balkan.variant import VARIANT as BALKAN
    from model.bridge.variant import VARIANTS as BRIDGE
    from model.greek.variant import VARIANT as GREEK
    from model.swabian.variant import VARIANT as SWABIAN

    return {v.name: v for v in (GREEK, SWABIAN, BALKAN, *BRIDGE)}


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
