"""Recompute settlements from the stored deals and replace them (records.md section 2).

For each variant: read its games and its ``deals_<variant>`` rows, call the registered
``Settlement.settle`` (``scoring/registry.py``) on them, whole games of at most ``SETTLE_DEALS``
deals at a time, and replace the ``settlements``, ``transfers`` and ``standings`` rows of exactly
those games in one transaction.
In the same transaction the ``deal_outcomes`` view is (re)created (``model/views.py``) and each
settled variant refreshes what it derives across games (``Settlement.refresh``: duplicate bridge's
``event_results``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import duckdb
import polars as pl

from model import tables as T
from model import variants
from model.schema import Table
from model.tables import insert
from model.views import create_views
from scoring import registry
from scoring.frames import runs
from scoring.settlement import Settlement

SettlementLookup = Callable[[str], Settlement]
OUTPUTS = (T.SETTLEMENTS, T.TRANSFERS, T.STANDINGS)



@dataclass
class Rescored:
    games: int = 0
    settlements: int = 0
    transfers: int = 0
    standings: int = 0
    unsettled_variants: list[str] = field(default_factory=list)
    """Variants with stored games but no registered settlement (their rows are left alone)."""
    refreshed: int = 0
    """Rows the settled variants' ``refresh`` wrote (duplicate bridge: ``event_results``)."""


def _columns(conn: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [r[0] for r in conn.execute(f"DESCRIBE {table}").fetchall()]


def _fit(conn: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame, variant: str
         ) -> pl.DataFrame:
    """The settle output restricted to the table's columns, with ``variant`` filled in."""
    cols = _columns(conn, table)
    if "variant" in cols and "variant" not in frame.columns:
        frame = frame.with_columns(pl.lit(variant).alias("variant"))
    return frame.select([c for c in frame.columns if c in cols])


OF_GAMES = "game_id IN (SELECT game_id FROM _trickbook_ids)"
"""The condition of :func:`_of_games`'s statements: a row of one of its games."""


def _of_games(conn: duckdb.DuckDBPyConnection, games: pl.DataFrame, sql: str) -> pl.DataFrame:
    """``sql`` (which chooses its rows with :data:`OF_GAMES`) for the ``game_id``s of
    ``games``."""
    conn.register("_trickbook_ids", games.select("game_id").to_arrow())
    try:
        return conn.sql(sql).pl()
    finally:
        conn.unregister("_trickbook_ids")


def _games(conn: duckdb.DuckDBPyConnection, game_ids: list[str] | None) -> pl.DataFrame:
    sql = (f"SELECT game_id, variant, players, rules::VARCHAR AS rules, started_at "
           f"FROM {T.GAMES}")
    if game_ids is None:
        return conn.sql(sql + " ORDER BY game_id").pl()
    ids = pl.DataFrame({"game_id": game_ids}, schema={"game_id": pl.String()})
    return _of_games(conn, ids, f"{sql} WHERE {OF_GAMES} ORDER BY game_id")


def _deals(conn: duckdb.DuckDBPyConnection, table: str, games: pl.DataFrame, variant: str
           ) -> pl.DataFrame:
    """The variant's flat deal rows of ``games`` that were played, typed by its
    ``frame_schema`` (the frame ingest wrote: enums stay enums). A deal nobody played
    (``Variant.unplayed_sql``: a solved deal, its hands only) is stored but not settled: no
    one's deals, games or cash count it."""
    try:
        v: variants.Variant | None = variants.variant(variant)
    except variants.UnknownVariant:
        v = None
    deals = _of_games(conn, games,
                      f"SELECT * FROM {table} WHERE {OF_GAMES} ORDER BY game_id, deal_no")
    if v is None:
        return deals
    if v.unplayed_sql is not None:  # looked up apart: a join in the query above cost 3 times it
        unplayed = _of_games(conn, games, f"SELECT d.game_id, d.deal_no FROM {T.DEALS} d "
                                          f"WHERE {OF_GAMES} AND ({v.unplayed_sql})")
        if unplayed.height:
            deals = deals.join(unplayed.cast(deals.select("game_id", "deal_no").schema),
                               on=["game_id", "deal_no"], how="anti").sort("game_id", "deal_no")
    return deals.cast({c: t for c, t in v.frame_schema.items() if c in deals.columns})


def rescore(
    conn: duckdb.DuckDBPyConnection,
    game_ids: Iterable[str] | None = None,
    *,
    settlements: SettlementLookup | None = None,
    transaction: bool = True,
) -> Rescored:
    """Settle ``game_ids`` (every game when ``None``) and replace their result rows; each
    variant's games are settled and inserted a part at a time (:func:`_parts`), so memory does
    not grow with the number of deals.

    ``settlements`` defaults to the registry (``scoring/registry.py``), looked up at call time.
    With ``transaction=False`` the caller holds the transaction (ingest clears its pending marks in
    the same one)."""
    lookup = settlements or registry.settlement
    ids = None if game_ids is None else sorted(set(game_ids))
    report = Rescored()
    if ids is not None and not ids:
        _views(conn, transaction)
        return report
    games = _games(conn, ids)
    settled: list[tuple[Settlement, str, pl.DataFrame]] = []
    settled_ids: list[str] = []
    for (name,), group in games.group_by("variant", maintain_order=True):
        try:
            s = lookup(str(name))
        except KeyError:
            report.unsettled_variants.append(str(name))
            continue
        settled.append((s, str(name), group))
        settled_ids.extend(group["game_id"].to_list())
    if transaction:
        conn.execute("BEGIN")
    try:
        done = pl.DataFrame({"game_id": settled_ids}, schema={"game_id": pl.String()})
        conn.register("_trickbook_done", done.to_arrow())
        try:
            own = {t.name: t for s, _, _ in settled for t in s.tables}
            for t in own.values():
                conn.execute(t.ddl)
            for table in (*OUTPUTS, *own):
                conn.execute(
                    f"DELETE FROM {table} WHERE game_id IN (SELECT game_id FROM _trickbook_done)"
                )
        finally:
            conn.unregister("_trickbook_done")
        for s, name, group in settled:
            for part in _parts(conn, s.deals_table, group):
                _settle_part(conn, s, name, part, own, report)
        create_views(conn)
        for s, _, _ in settled:
            report.refreshed += s.refresh(conn)
        if transaction:
            conn.execute("COMMIT")
    except BaseException:
        if transaction:
            conn.execute("ROLLBACK")
        raise
    report.games = len(settled_ids)
    return report


SETTLE_DEALS = 50_000
"""Deals :func:`rescore` settles at a time (whole games: a game of more deals is settled alone),
so a settlement's frames do not grow with the deals of a large file. Each game settles on its
own deals alone (``score_pending`` settles any part of a batch), so the rows are those of one
settlement of every game."""


def _parts(conn: duckdb.DuckDBPyConnection, table: str, games: pl.DataFrame
           ) -> list[pl.DataFrame]:
    """``games`` (a variant's, in order) cut into runs of games whose deals in ``table`` add up
    to at most :data:`SETTLE_DEALS` (a game of more deals is a run alone)."""
    counted = _of_games(conn, games, f"SELECT game_id, count(*) AS deals FROM {table} "
                                     f"WHERE {OF_GAMES} GROUP BY game_id")
    counts = dict(zip(counted["game_id"], counted["deals"], strict=True))
    sizes = [counts.get(game_id, 0) for game_id in games["game_id"].to_list()]
    return [games.slice(run.start, len(run)) for run in runs(sizes, SETTLE_DEALS)]


def _settle_part(conn: duckdb.DuckDBPyConnection, s: Settlement, variant: str,
                 games: pl.DataFrame, own: dict[str, Table], report: Rescored) -> None:
    """Settle ``games`` (of ``variant``) with ``s`` on their stored deals and insert the rows
    of the results (and of the settlement's own ``own`` tables), counted in ``report``."""
    out = s.settle(games, _deals(conn, s.deals_table, games, variant))
    report.settlements += _insert(conn, T.TABLES[T.SETTLEMENTS],
                                  _fit(conn, T.SETTLEMENTS, out.settlements, s.variant))
    report.transfers += _insert(conn, T.TABLES[T.TRANSFERS],
                                _fit(conn, T.TRANSFERS, out.transfers, s.variant))
    report.standings += _insert(conn, T.TABLES[T.STANDINGS],
                                _fit(conn, T.STANDINGS, out.standings, s.variant))
    for name, frame in s.rows(out).items():
        _insert(conn, own[name], frame)


def _insert(conn: duckdb.DuckDBPyConnection, table: Table, frame: pl.DataFrame) -> int:
    """A settlement's rows of ``table``, their key checked first (the settlement tables keep no
    index of it: ``Table.indexed``); a repeated key fails the rescore, which is rolled back."""
    table.check_key(frame)
    return insert(conn, table.name, frame)


def _views(conn: duckdb.DuckDBPyConnection, transaction: bool) -> None:
    """(Re)create the views (``model/views.py``), in a transaction of its own when asked."""
    if not transaction:
        create_views(conn)
        return
    conn.execute("BEGIN")
    try:
        create_views(conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


class GamesNotScored(Exception):
    """Some pending games could not be settled (a settlement bug, or data no rule foresaw):
    they stay pending with their reason; every other pending game is settled."""

    def __init__(self, failures: dict[str, BaseException]) -> None:
        self.failures = failures
        first, exc = next(iter(failures.items()))
        more = f" and {len(failures) - 1} more" if len(failures) > 1 else ""
        super().__init__(f"game {first!r}{more}: {type(exc).__name__}: {exc}")


SETTLE_TRIES = 64
"""How many settlements one ``score_pending`` tries at most while it halves a failing batch: a
single failing game among a million is found in 40; when most games fail (a settlement bug),
the search stops there and leaves what is left pending."""


def score_pending(
    conn: duckdb.DuckDBPyConnection, settlements: SettlementLookup | None = None
) -> list[str]:
    """Rescore every game marked in ``rescore_pending`` and clear the marks of those settled;
    games of a variant without a settlement stay marked. All games are settled in one
    transaction; if that fails, the batch is halved until each failing game is found (at most
    ``SETTLE_TRIES`` settlements), so a game a settlement cannot settle keeps only itself
    pending: ``GamesNotScored`` names it after every other game is settled."""
    pending = [r[0] for r in conn.execute(f"SELECT game_id FROM {T.PENDING} ORDER BY 1").fetchall()]
    failures: dict[str, BaseException] = {}
    batches = [pending] if pending else []
    tries = 0
    while batches:
        batch = batches.pop()
        tries += 1
        try:
            _settle_pending(conn, batch, settlements)
        except Exception as exc:
            T.stop_if_interrupted(exc)  # Ctrl-C: the user's stop, not a game that fails
            if len(batch) == 1 or tries + 2 > SETTLE_TRIES:
                failures.update(dict.fromkeys(batch, exc))
                continue
            half = len(batch) // 2
            batches += [batch[half:], batch[:half]]
    if failures:
        raise GamesNotScored(failures)
    return pending


def _settle_pending(
    conn: duckdb.DuckDBPyConnection, game_ids: list[str], settlements: SettlementLookup | None
) -> None:
    """Settle ``game_ids`` and clear their pending marks, in one transaction."""
    conn.execute("BEGIN")
    try:
        result = rescore(conn, game_ids, settlements=settlements, transaction=False)
        conn.execute(
            f"DELETE FROM {T.PENDING} WHERE game_id IN (SELECT unnest(?::VARCHAR[])) "
            f"AND game_id IN (SELECT game_id FROM {T.GAMES} "
            "WHERE NOT list_contains(?::VARCHAR[], variant))",
            [game_ids, result.unsettled_variants],
        )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
