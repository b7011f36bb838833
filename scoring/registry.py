"""Settlements registered by variant name.

Every variant's settlement works on frames: ``games`` (rows of the ``games`` table: ``game_id``,
``players`` as a list in turn order, ``rules`` as a JSON string) and ``deals`` (rows of that
variant's ``deals_<variant>`` table, sorted by ``game_id, deal_no``). It returns frames whose
columns are those of the ``settlements``, ``transfers`` and ``standings`` tables
(model/tables.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import polars as pl


@dataclass(frozen=True, slots=True)
class Settled:
    settlements: pl.DataFrame
    transfers: pl.DataFrame
    standings: pl.DataFrame


class Settlement(Protocol):
    @property
    def variant(self) -> str: ...

    @property
    def deals_table(self) -> str: ...

    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        """The vectorised settlement of every game at once."""
        ...


def _registry() -> dict[str, Settlement]:
    from scoring.balkan import SETTLEMENT as BALKAN
    from scoring.bridge import DUPLICATE as BRIDGE_DUPLICATE
    from scoring.bridge import RUBBER as BRIDGE_RUBBER
    from scoring.greek import SETTLEMENT as GREEK
    from scoring.russian import SETTLEMENT as RUSSIAN
    from scoring.swabian import SETTLEMENT as SWABIAN

    return {s.variant: s for s in (GREEK, SWABIAN, BALKAN, BRIDGE_RUBBER, BRIDGE_DUPLICATE,
                                   RUSSIAN)}


def settlement(variant: str) -> Settlement:
    reg = _registry()
    if variant not in reg:
        raise KeyError(f"no settlement for variant {variant!r}; known: {', '.join(sorted(reg))}")
    return reg[variant]


def variants() -> list[str]:
    return sorted(_registry())
