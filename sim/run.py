"""Simulated hand histories at scale: the engine of ``trickbook simulate`` (docs/simulation.md).

A run is ``games`` games of ``deals_per_game`` deals, split into partitions of consecutive games.
Every game draws from its own generator, derived from the run's seed and its index alone
(``sim/seeds.py``), so the records are the same whatever the number of workers or the
cluster. Partitions run on every local core (multiprocessing), in one process (``workers=1``), or
on a Dask distributed cluster (``scheduler``): there each partition is written as Parquet files
and loaded into DuckDB. Output is canonical JSONL, or the database, written columnar: the rows of
``games``, ``deals`` and ``deals_<variant>`` come straight from the simulation, and the settlement
of every stored game follows (``scoring.store.rescore``). Ctrl-C stops cleanly: the partitions
finished so far stay stored (each is one transaction).
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Generator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from ingest import players, store
from model import tables as T
from model.variants import variant as lookup
from scoring.registry import settlement
from scoring.store import score_pending
from sim import SimulationError
from sim.batch import Batch
from sim.drivers import SIMULATED, canonical_name, simulator
from sim.pool import connect, pool_imap

TARGET_PARTITION_DEALS = 2_000
"""Deals per partition (one transaction, one progress step, one Dask task)."""


@dataclass(frozen=True)
class Plan:
    """What to simulate. ``rules`` is the game line's ``rules`` object (defaults when empty);
    ``options`` the driver's own (``sim.drivers.simulator``)."""

    variant: str
    games: int
    deals_per_game: int
    seed: int = 0
    rules: dict[str, Any] = field(default_factory=dict)
    play: str = "heuristic"
    options: dict[str, Any] = field(default_factory=dict)

    def partitions(self, games_per_part: int | None = None) -> list[tuple[int, int]]:
        """``(first, stop)`` game ranges, in order."""
        size = games_per_part or max(1, TARGET_PARTITION_DEALS // max(1, self.deals_per_game))
        return [(a, min(a + size, self.games)) for a in range(0, self.games, size)]


@dataclass
class Report:
    games: int = 0
    deals: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    unscored: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.deals / self.seconds if self.seconds > 0 else 0.0


def run_part(plan: Plan, first: int, stop: int, keep_lines: bool) -> Batch:
    """Simulate games ``first`` .. ``stop - 1`` of ``plan`` (a worker's task: plain Python, safe
    in a forked process). Their deals after a game's end are cut by :func:`end_games`, which the
    process that receives the batch runs (polars is not safe to use in a forked worker)."""
    sim = simulator(plan.variant, plan.rules, plan.play, plan.options)
    batch = Batch()
    for g in range(first, stop):
        sim.game(plan.seed, g, plan.deals_per_game, batch, keep_lines)
    return batch


def end_games(variant: str, batch: Batch) -> Batch:
    """``batch`` without the deals dealt after their game ended: the variant's settlement says
    where a game ends (greek-prefa.md 11: every kassa empty) by leaving such deals unsettled in a
    finished game."""
    if batch.n_deals == 0:
        return batch
    tables = frames(variant, batch)
    settled = settlement(variant).settle(tables[T.GAMES], tables[lookup(variant).deals_table])
    ended = settled.standings.filter(pl.col("finished")).select("game_id").unique()
    last = (settled.settlements.group_by("game_id").agg(pl.col("deal_no").max().alias("last"))
            .join(ended, on="game_id", how="inner"))
    deals = tables[T.DEALS].select("game_id", "deal_no").join(last, on="game_id", how="left")
    kept = deals.select(pl.col("last").is_null() | (pl.col("deal_no") <= pl.col("last")))
    if kept.to_series().all():
        return batch
    return batch.keep(kept.to_series().to_list())


def _run_local_part(args: tuple[Plan, int, int, bool]) -> Batch:
    return run_part(*args)


# --- frames and sinks -------------------------------------------------------------------------


def frames(variant: str, batch: Batch) -> dict[str, pl.DataFrame]:
    """The batch as frames of the ``games``, ``deals`` and ``deals_<variant>`` tables."""

    v = lookup(variant)
    g_schema = {k: store.GAMES_SCHEMA[k] for k in batch.games}
    d_schema = {k: store.DEALS_SCHEMA[k] for k in batch.deals}
    return {
        T.GAMES: pl.DataFrame(batch.games, schema=g_schema),
        T.DEALS: pl.DataFrame(batch.deals, schema=d_schema),
        v.deals_table: pl.DataFrame(batch.flat, schema=v.frame_schema),
    }


class JsonlSink:
    """Canonical JSONL: each game line followed by its deals, games in order."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = path.open("w", encoding="utf-8")

    def write(self, batch: Batch) -> None:
        self.fh.write("\n".join(batch.lines) + "\n" if batch.lines else "")
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


def _jsonl_sink(out: Path) -> JsonlSink:
    """The JSON Lines file ``out`` opened for writing; one that cannot be (a folder, a missing
    folder that cannot be made, no permission) is a :class:`SimulationError` naming it."""
    try:
        return JsonlSink(out)
    except OSError as exc:
        raise SimulationError(f"cannot write {str(out)!r}: {exc.strerror or exc}") from exc


class DbSink:
    """The database: each batch in one transaction (replacing games of the same id, so a rerun
    of the same plan gives the same rows, and marking them pending as ingest does), then the
    pending games are settled; a settlement cut short is finished by the next run or by
    ``trickbook score``. A game of the same id stored by another plan (other rules, players or
    deals per game: the ids name only the variant, seed and game) is never replaced: the run
    stops with :class:`SimulationError` before it writes (:meth:`_others`)."""

    def __init__(self, path: Path, variant: str) -> None:

        self.conn = store.connect(path)
        self.variant = variant
        self.unscored: list[str] = []

    def _replace(self, tables: dict[str, pl.DataFrame]) -> list[str]:

        ids = tables[T.GAMES]["game_id"].to_list()
        probe = pl.DataFrame({"game_id": ids}, schema={"game_id": pl.String()})
        self.conn.execute("BEGIN")
        try:
            others = self._others(tables)
            if others:
                raise SimulationError(
                    f"{len(others)} of these games are stored already from another run (other "
                    f"rules, players or deals per game), {others[0]!r} first; nothing of this "
                    "batch was stored. Simulate with another --seed, or into another --db.")
            self.conn.register("_sim_ids", probe.to_arrow())
            try:
                for table in tables:
                    self.conn.execute(
                        f"DELETE FROM {table} WHERE game_id IN (SELECT game_id FROM _sim_ids)"
                    )
            finally:
                self.conn.unregister("_sim_ids")
            for table, frame in tables.items():
                T.insert(self.conn, table, frame)
            store.mark_pending(self.conn, ids)
            players.register(self.conn, ids)
            self._log(tables[T.DEALS], ids)
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        return ids

    def _others(self, tables: dict[str, pl.DataFrame]) -> list[str]:
        """The ids of these games stored with another game line or other deals: a game of the
        same plan is the same (the simulation is deterministic), so only another plan's
        differs."""
        games = tables[T.GAMES].select("game_id", "record")
        deals = tables[T.DEALS].select("game_id", "deal_no", "deal_key")
        self.conn.register("_sim_games", games.to_arrow())
        self.conn.register("_sim_deals", deals.to_arrow())
        try:
            found = self.conn.execute(f"""
                SELECT g.game_id FROM {T.GAMES} g JOIN _sim_games n USING (game_id)
                WHERE g.record::VARCHAR IS DISTINCT FROM n.record
                UNION
                SELECT coalesce(s.game_id, n.game_id) FROM
                    (SELECT game_id, deal_no, deal_key FROM {T.DEALS}
                     WHERE game_id IN (SELECT game_id FROM _sim_games)) s
                    FULL JOIN (SELECT * FROM _sim_deals
                               WHERE game_id IN (SELECT game_id FROM {T.GAMES})) n
                    USING (game_id, deal_no)
                WHERE s.deal_key IS DISTINCT FROM n.deal_key
                ORDER BY 1""").fetchall()
        finally:
            self.conn.unregister("_sim_games")
            self.conn.unregister("_sim_deals")
        return [gid for (gid,) in found]

    def _log(self, deals: pl.DataFrame, ids: list[str]) -> None:
        """One ``ingest_log`` row per stored partition, so simulated deals are counted like read
        ones (records.md 2: every stored record is logged once); the partition's games identify
        it, so a rerun of the same seed replaces its row."""

        if deals.height == 0:
            return
        digest = hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()
        self.conn.execute(
            f"INSERT OR REPLACE INTO {T.INGEST_LOG} VALUES (?, ?, ?, ?, 0, 0, now())",
            [deals["source"][0], digest, deals.height, deals.height],
        )

    def write(self, batch: Batch) -> None:
        self._score(self._replace(frames(self.variant, batch)))

    def load_parquet(self, parts: dict[str, str]) -> None:
        """Load one partition written by a cluster worker (``table -> Parquet file``)."""
        tables = {t: pl.read_parquet(p) for t, p in parts.items()}
        self._score(self._replace(tables))

    def _score(self, ids: list[str]) -> None:
        """Settle the pending games (these, and any an interrupted run left) and clear their
        marks, as ingest does (``scoring.store.score_pending``)."""

        score_pending(self.conn)
        if self.variant not in SIMULATED:
            self.unscored.append(self.variant)

    def close(self) -> None:
        self.conn.close()


Sink = JsonlSink | DbSink


def write_part_parquet(plan: Plan, first: int, stop: int, directory: str) -> dict[str, Any]:
    """A cluster task: simulate a partition and write its tables as Parquet files under
    ``directory`` (which every worker and the client must see); returns the files and counts."""
    batch = end_games(canonical_name(plan.variant), run_part(plan, first, stop, False))
    out: dict[str, str] = {}
    for table, frame in frames(canonical_name(plan.variant), batch).items():
        path = Path(directory) / table / f"part-{first:09d}.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        frame.write_parquet(path)
        out[table] = str(path)
    return {"files": out, "deals": batch.n_deals, "games": stop - first}


# --- runs -------------------------------------------------------------------------------------


def run_local(
    plan: Plan, parts: list[tuple[int, int]], workers: int, keep: bool
) -> Generator[Batch, None, None]:
    """The batches of ``parts`` in order, on a pool of ``workers`` processes (in this process
    for one worker or one part), each game ending where its rules end it (in this process:
    polars is not safe in a forked worker); closing the generator stops the pool."""
    variant = canonical_name(plan.variant)
    tasks = [(plan, a, b, keep) for a, b in parts]
    for batch in pool_imap(_run_local_part, tasks, workers):
        yield end_games(variant, batch)


def simulate(
    plan: Plan,
    *,
    out: Path | None = None,
    db: Path | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    parts_dir: Path | None = None,
    games_per_part: int | None = None,
    on_start: Callable[[], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Run ``plan`` into ``out`` (JSONL) or ``db``. ``on_start()`` is called once the output is
    open and the cluster reached, before the first deal; ``on_progress(games, deals)`` after
    each stored partition. Ctrl-C (``KeyboardInterrupt``) ends the run with ``interrupted`` set and
    everything finished stored. Raises ``SimulationError`` for a plan it cannot run and
    :class:`ClusterUnreachable`, both before the first deal."""
    if (out is None) == (db is None):
        raise SimulationError("give exactly one of out (JSONL) and db")
    variant = canonical_name(plan.variant)
    simulator(variant, plan.rules, plan.play, plan.options)  # fail early on bad rules
    parts = plan.partitions(games_per_part)
    client = None if scheduler is None else connect(scheduler)
    try:
        sink: Sink = _jsonl_sink(out) if out is not None else DbSink(db, variant)  # type: ignore[arg-type]
    except BaseException:
        if client is not None:
            client.close()
        raise
    if on_start is not None:
        on_start()
    report = Report()
    started = time.perf_counter()
    stop = _GracefulStop()

    def done(games: int, deals: int) -> None:
        report.games += games
        report.deals += deals
        if on_progress is not None:
            on_progress(games, deals)
        if stop.requested:
            raise KeyboardInterrupt

    try:
        with stop:
            if client is None:
                n = workers or os.cpu_count() or 1
                batches = run_local(plan, parts, n, out is not None)
                try:
                    for (a, b), batch in zip(parts, batches, strict=False):
                        sink.write(batch)
                        done(b - a, batch.n_deals)
                finally:
                    batches.close()  # stops the worker pool at once on Ctrl-C
            else:
                _dask(plan, parts, client, sink, parts_dir or _default_parts(out, db), done)
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        if isinstance(sink, DbSink):
            report.unscored = sorted(set(sink.unscored))
        sink.close()
    report.seconds = time.perf_counter() - started
    return report


class _GracefulStop:
    """While active (main thread only), the first Ctrl-C only asks to stop: the partition being
    written is finished and stored, then the run ends. A second Ctrl-C interrupts at once (the
    partition being written is rolled back)."""

    def __init__(self) -> None:
        self.requested = False
        self.previous: Any = None

    def _handler(self, signum: int, frame: Any) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def __enter__(self) -> _GracefulStop:
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def _default_parts(out: Path | None, db: Path | None) -> Path:
    base = db if db is not None else out
    assert base is not None
    return base.with_name(base.name + ".parts")


def _dask(
    plan: Plan,
    parts: list[tuple[int, int]],
    client: Any,
    sink: Sink,
    parts_dir: Path,
    done: Callable[[int, int], None],
) -> None:
    """Run the partitions on the Dask cluster of ``client`` (:func:`connect`), and close it.
    Database runs: each task writes Parquet under ``parts_dir`` (a path every worker and this
    client share) and the client loads it; JSONL runs: the tasks return the lines, written in
    game order."""
    from distributed import as_completed

    futures: list[Any] = []
    try:
        if isinstance(sink, DbSink):
            futures = [
                client.submit(write_part_parquet, plan, a, b, str(parts_dir), pure=False)
                for a, b in parts
            ]
            for fut in as_completed(futures):  # type: ignore[no-untyped-call]
                result = fut.result()
                sink.load_parquet(result["files"])
                done(result["games"], result["deals"])
                for path in result["files"].values():
                    with suppress(OSError):
                        Path(path).unlink()
        else:
            batches = [client.submit(run_part, plan, a, b, True, pure=False) for a, b in parts]
            futures = list(batches)
            for (a, b), fut in zip(parts, batches, strict=True):
                batch: Batch = end_games(canonical_name(plan.variant), fut.result())
                sink.write(batch)
                done(b - a, batch.n_deals)
    finally:
        for fut in futures:
            fut.cancel()
        client.close()


def _unread(exc: OSError) -> str:
    """Why a file could not be read, in words, without the path ``str(exc)`` repeats."""
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, IsADirectoryError):
        return "a folder, not a file"
    if isinstance(exc, PermissionError):
        return "no permission to read it"
    return (exc.strerror or type(exc).__name__).lower()


def read_rules(path: Path | None, variant: str | None = None) -> dict[str, Any]:
    """House rules from a JSON file: the ``rules`` object, or a game line holding one (a game
    line without ``rules`` plays the defaults). A file that is not a JSON object of UTF-8 text,
    or a game line of another variant than ``variant`` (when given), is a
    :class:`SimulationError` naming it."""
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise SimulationError(f"cannot read rules file {str(path)!r}: not UTF-8 text "
                              f"({exc.reason} at byte {exc.start})") from exc
    except OSError as exc:
        raise SimulationError(f"cannot read rules file {str(path)!r}: {_unread(exc)}") from exc
    except json.JSONDecodeError as exc:
        raise SimulationError(f"cannot read rules file {str(path)!r}: {exc}") from exc
    if not isinstance(data, dict):
        raise SimulationError(f"rules file {str(path)!r} must hold a JSON object")
    game_line = data.get("record") == "game"
    if game_line and variant is not None and data.get("variant", variant) != variant:
        raise SimulationError(f"rules file {str(path)!r} is a game line of "
                              f"{json.dumps(data['variant'], ensure_ascii=False)}, not of "
                              f"{variant}: its rules are that variant's")
    rules = (data.get("rules") or {}) if game_line else data
    if not isinstance(rules, dict):
        raise SimulationError(f"the game line of rules file {str(path)!r}: its rules must be "
                              "a JSON object")
    return dict(rules)
