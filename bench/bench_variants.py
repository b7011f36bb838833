"""JSON Lines with cards and play, every simulated variant, end to end (issue 12's yardstick).

For each variant of ``sim/drivers.py``: a file of about ``DEALS`` simulated deals with hands,
auction and play (``trickbook simulate --out``, under ``bench/out/``) is ingested into a fresh
database with its settlement (``ingest_paths`` with ``score_pending``: read, validate, store,
settle, commit). Its time is printed as a ratio to three baselines on the same file in the same
run: ``json.loads`` of every line, DuckDB's ``read_json`` of the file into a table, and DuckDB
storing the rows that ingest made of the file (every table's, read back) into a fresh database
on disk in one transaction: what the store alone costs. Each time is the
best of ``REPEAT`` runs after one warm run (imports, compiled kernels), in CPU seconds of this
process (``time.process_time``: the machine is shared, so the clock says little). The target is
within 3x the ``json.loads`` time, about 50,000 deals/s per core, for every variant.

Then score-sheet records (no cards) of every variant: the games of ``data/samples/`` whose deals
have no hands (for a variant without such a sample, 25 simulated games with the cards and
auctions stripped, keeping the deals its rules accept so), copied under new game ids to about
``SHEET_DEALS`` deals and written as canonical lines (``model/identity.py``), timed the same way
against the target of 100,000 deals/s per core, and once more without the settlement.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from ingest import store
from ingest.pipeline import ingest_paths
from model import tables as T
from model.identity import canonical_json
from model.variant import Variant
from model.variants import REGISTERED
from scoring.store import score_pending
from sim.drivers import SIMULATED
from sim.run import Plan, simulate

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
DEALS = 20_400
DEALS_PER_GAME = 20
REPEAT = 3
SHEET_DEALS = 50_000
SAMPLES = ROOT / "data" / "samples"


def _file(variant: str) -> Path:
    path = OUT / f"sim-{variant}-{DEALS}.jsonl"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        simulate(Plan(variant, DEALS // DEALS_PER_GAME, DEALS_PER_GAME, seed=12), out=path,
                 workers=1)
    return path


def _best(fn: Callable[[], object]) -> float:
    fn()
    best = float("inf")
    for _ in range(REPEAT):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def _games_in(path: Path) -> int:
    return sum(1 for line in path.open(encoding="utf-8") if line.startswith('{"record":"game"'))


def _loads(path: Path) -> None:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            json.loads(line)


def _read_json(path: Path) -> None:
    con = duckdb.connect()
    try:
        con.execute("CREATE TABLE t AS SELECT * FROM read_json(?, format = 'newline_delimited', "
                    "union_by_name = true, maximum_object_size = 1048576)", [str(path)])
    finally:
        con.close()


def _rows_of(path: Path) -> dict[str, pa.Table]:
    """Every table's rows (those with any) after an ingest of ``path`` with its settlement."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "v.duckdb"
        ingest_paths([path], db, score=score_pending)
        con = duckdb.connect(str(db), read_only=True)
        try:
            names = [t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()
                     if t != T.UPGRADES]  # a new database writes its own marks (ingest/upgrades.py)
            return {t: rows for t in names
                    if (rows := con.sql(f'SELECT * FROM "{t}"').arrow().read_all()).num_rows}
        finally:
            con.close()


def _store(rows: dict[str, pa.Table]) -> None:
    """DuckDB alone storing ``rows`` (:func:`_rows_of`) in a fresh database on disk, created as
    ingest creates it: one transaction of one insert per table (a settlement's own table, which
    the settlement creates, created from the rows), its commit and the close."""
    with tempfile.TemporaryDirectory() as tmp:
        con = store.connect(Path(tmp) / "s.duckdb")
        try:
            created = {t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()")
                       .fetchall()}
            con.execute("BEGIN")
            for table, frame in rows.items():
                rel = con.from_arrow(frame)
                rel.insert_into(table) if table in created else rel.create(table)
            con.execute("COMMIT")
        finally:
            con.close()


def _ingest(path: Path, score: Callable[..., object] | None = score_pending) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        (report,) = ingest_paths([path], Path(tmp) / "v.duckdb", score=score)
    assert report.quarantined == 0 and report.score_error is None, report


@cache
def _sheet_games() -> tuple[dict[str, dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """The samples' game lines and, by game, their deal lines without hands or play (the
    deliberately broken samples, those with an ``.expected.json``, left out)."""
    games: dict[str, dict[str, Any]] = {}
    deals: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(SAMPLES.rglob("*.jsonl")):
        if path.with_suffix(".expected.json").exists():  # a deliberately broken sample
            continue
        for line in path.open(encoding="utf-8"):
            r = json.loads(line)
            if r.get("record") == "game":
                games[r["game_id"]] = r
            elif r.get("record") == "deal" and "hands" not in r and "play" not in r:
                deals.setdefault(str(r.get("game_id")), []).append(r)
    return games, deals


CARDS = ("hands", "talon", "discard", "play", "auction")
"""What a score sheet does not write."""


def _simulated_sheet(v: Variant) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Games of ``v``'s simulator with the cards of their deals stripped, keeping the deals
    its rules accept so (for a variant without a score-sheet sample)."""
    if v.name not in SIMULATED:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "s.jsonl"
        simulate(Plan(v.name, 25, DEALS_PER_GAME, seed=12), out=out, workers=1)
        records = [json.loads(line) for line in out.open(encoding="utf-8")]
    own = []
    for g in (r for r in records if r["record"] == "game"):
        game = v.game_model.model_validate(g)
        deals = [{k: x for k, x in d.items() if k not in CARDS} for d in records
                 if d["record"] == "deal" and d["game_id"] == g["game_id"]]
        own.append((g, [d for d in deals
                        if not v.check_deal(game, v.deal_model.model_validate(d))]))
    return own


def _sheet_file(v: Variant) -> tuple[Path, int, str] | None:
    """A file of about ``SHEET_DEALS`` score-sheet deals of ``v``, its number of deals and
    where they come from, or ``None`` when neither a sample nor the simulator has them."""
    games, deals = _sheet_games()
    own = [(g, deals[gid]) for gid, g in games.items()
           if g.get("variant") == v.name and gid in deals]
    origin = "samples"
    if not own:
        own, origin = _simulated_sheet(v), "simulated, cards stripped"
    per_copy = sum(len(ds) for _, ds in own)
    if not per_copy:
        return None
    copies = -(-SHEET_DEALS // per_copy)
    path = OUT / f"sheet-{v.name}-{copies * per_copy}.jsonl"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as fh:
            for c in range(copies):
                for g, ds in own:
                    gid = f"{g['game_id']}#{c}"
                    game = v.game_model.model_validate({**g, "game_id": gid})
                    fh.write('{"record":"game",' + canonical_json(game)[1:] + "\n")
                    for d in ds:
                        deal = v.deal_model.model_validate({**d, "game_id": gid})
                        fh.write('{"record":"deal",' + canonical_json(deal)[1:] + "\n")
    return path, copies * per_copy, origin


def _row(label: str, deals: int, path: Path, ingest: Callable[[Path], None],
         note: str = "") -> float:
    """Times ``ingest`` of ``path`` against the three baselines and prints one table row."""
    loads, read_json, took = (_best(partial(f, path)) for f in (_loads, _read_json, ingest))
    stored = _best(partial(_store, _rows_of(path)))
    print(f"{label:18s} {deals / took:9,.0f} {took / loads:12.1f}x {took / read_json:11.1f}x "
          f"{took / stored:7.1f}x   {stored / loads:.1f}x{note}", flush=True)
    return took


def run() -> None:
    header = (f"{'variant':18s} {'deals/s':>9s} {'x json.loads':>13s} {'x read_json':>12s} "
              f"{'x store':>8s}   (store x json.loads)")
    print(f"{header}   (cards and play; target: within 3x json.loads, ~50,000 deals/s)")
    for variant in SIMULATED:
        path = _file(variant)
        deals = sum(1 for line in path.open(encoding="utf-8") if '"record":"deal"' in line)
        _row(variant, deals, path, _ingest)
    print(f"\n{header}   (score-sheet records; target: 100,000 deals/s)")
    for v in REGISTERED:
        found = _sheet_file(v)
        if found is None:
            print(f"{v.name:18s} (no score-sheet deals)")
            continue
        path, deals, origin = found
        _row(v.name, deals, path, _ingest, f"   ({origin}; {_games_in(path):,} games)")
        only = _best(partial(_ingest, path, score=None))
        print(f"{'  ingest only':18s} {deals / only:9,.0f}   (settlement not run)", flush=True)


if __name__ == "__main__":
    run()
