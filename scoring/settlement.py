"""The settlement interface: how every variant's scoring package settles its games.

A settlement works on frames: ``games`` (rows of the ``games`` table: ``game_id``, ``players`` as a
list in turn order, ``rules`` as a JSON string) and ``deals`` (rows of the variant's
``deals_<variant>`` table, sorted by ``game_id, deal_no``). It returns frames whose columns are
those of the ``settlements``, ``transfers`` and ``standings`` tables (``model/tables.py``).

This module is a leaf: the scoring packages import it and ``scoring/registry.py`` imports them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass

import duckdb
import polars as pl

from model.schema import Table


@dataclass(frozen=True, slots=True)
class Check:
    """A data check (``scoring/checks.py``): a query returning the rows that break one
    property; no rows means it holds."""

    name: str
    description: str
    sql: str
    finding: bool = False
    """A finding is reported but is not a failure of the data (e.g. deals after the game end)."""
    needs: str | None = None
    """A table made by a later step (``trickbook analyse --play``): the check runs once it
    exists."""


@dataclass(frozen=True, slots=True)
class Settled:
    settlements: pl.DataFrame
    transfers: pl.DataFrame
    standings: pl.DataFrame


class Settlement(ABC):
    """One variant's settlement, registered by its variant name."""

    variant: str
    """The variant's canonical name (``model/variants.py``)."""
    deals_table: str
    """The ``deals_<variant>`` table it reads (the variant's ``table``)."""
    money: pl.Expr = pl.col("cash")
    """Over a ``settlements`` row: the player's whole result of the deal in the cash unit, what
    a balance study compares (``sim/balance.py``): the cash and what the settlement keeps beside
    it valued in cash (Greek: the kassa)."""
    ledger: tuple[str, str] | None = None
    """A ``settlements`` column the settlement keeps beside the cash, and its name in the
    players' words (Greek ``kassa_delta``, ``kassa``): a balance study reports its change too."""
    checks: tuple[Check, ...] = ()
    """Data checks of its own settlement columns, run after every load with the shared ones
    (``scoring/checks.py``; Greek: no kassa goes below 0)."""
    tables: tuple[Table, ...] = ()
    """Tables of its own it writes per game beside the shared ones (each with a ``game_id``
    column; Russian ``whists``): a rescore replaces their rows of the games it settles."""
    refreshed: tuple[Table, ...] = ()
    """Tables its :meth:`refresh` makes anew from every game of the variant (duplicate bridge:
    ``event_results``)."""

    @abstractmethod
    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        """The vectorised settlement of every game at once."""

    def rows(self, settled: Settled) -> Mapping[str, pl.DataFrame]:
        """The rows of :attr:`tables` in ``settled``, by table name."""
        return {}

    def refresh(self, conn: duckdb.DuckDBPyConnection) -> int:
        """Recompute, inside the rescore's transaction, what depends on the settlements of every
        game of the variant across games (duplicate bridge: ``event_results``); the rows
        written. Most variants have nothing of the kind."""
        return 0
