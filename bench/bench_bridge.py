"""Bridge: PBN and LIN parse rates (deals per second, with and without validation), full ingest
of endplay's PBN and LIN fixtures against endplay's bare parse of the same files (target of
issue 12: at least 3x faster), and the scoring kernel against its reference, measured in the same
run (bench/__main__.py)."""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

from ingest.lin import READER as LIN
from ingest.pbn import READER as PBN
from ingest.pipeline import ingest_paths
from ingest.source import Raw
from ingest.validate import Validator
from model.bridge.frame import SCHEMA
from model.bridge.variant import VARIANTS
from scoring.bridge.kernel import per_deal_vectorised
from scoring.bridge.reference import per_deal_reference

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def _timed(fn: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    n = fn()
    return n, time.perf_counter() - start


def _rate(label: str, n: int, seconds: float) -> None:
    print(f"{label:<44} {n:>7} deals  {n / seconds:>10,.0f} deals/s")


def _read(reader: object, paths: list[Path], validate: bool) -> int:
    by_name = {v.name: v for v in VARIANTS}
    n = 0
    for p in paths:
        val = Validator(variants=lambda name: by_name[name])
        for item in reader.read(p):  # type: ignore[attr-defined]
            if isinstance(item, Raw) and item.data.get("record") == "deal":
                n += 1
            if validate and isinstance(item, Raw):
                val.validate(item)
    return n


def _frames(games: int, deals: int, seed: int = 4) -> tuple[pl.DataFrame, pl.DataFrame]:
    rng = random.Random(seed)
    g_rows, d_rows = [], []
    for g in range(games):
        variant = "bridge-duplicate" if g % 2 else "bridge-rubber"
        g_rows.append({"game_id": f"g{g}", "variant": variant,
                       "players": [f"g{g}{s}" for s in "NESW"], "rules": "{}"})
        for k in range(1, deals + 1):
            level = rng.randint(1, 7)
            row = {c: None for c in SCHEMA}
            row.update(game_id=f"g{g}", deal_no=k, dealer=(k - 1) % 4, declarer=rng.randint(0, 3),
                       level=level, denom=rng.randint(0, 4), doubled=rng.choice([0, 0, 0, 1, 2]),
                       tricks=rng.randint(level + 3, 13), honours_ns=0, honours_ew=0,
                       vul_ns=rng.random() < 0.5, vul_ew=rng.random() < 0.5)
            d_rows.append(row)
    return (pl.DataFrame(g_rows, schema={"game_id": pl.String(), "variant": pl.String(),
                                         "players": pl.List(pl.String()), "rules": pl.String()}),
            pl.DataFrame(d_rows, schema=SCHEMA, orient="row"))


def _endplay_parse(paths: list[Path], fmt: str) -> int:
    """Boards endplay's parser reads from ``paths`` (``pbn`` or ``lin``), nothing else done."""
    from endplay.parsers import lin, pbn  # a test dependency

    parser = pbn if fmt == "pbn" else lin
    n = 0
    for path in paths:
        with path.open(encoding="utf-8") as fh:
            n += len(parser.load(fh))
    return n


def _ingest(paths: list[Path]) -> int:
    """Records stored by a full ingest of ``paths`` into a fresh database (scoring off)."""
    with tempfile.TemporaryDirectory() as tmp:
        return sum(r.stored for r in ingest_paths(paths, Path(tmp) / "b.duckdb"))


def against_endplay() -> None:
    """Full ingest of endplay's fixtures against endplay's bare parse of the same files, CPU
    time of this process (imports warmed first); the LIN fixture is 8 boards, read 50 times."""
    fixtures = DATA / "endplay-fixtures"
    pbn = [*sorted((fixtures / "pbn").glob("*.pbn")), fixtures / "examples" / "sample.pbn"]
    cases = {"pbn": pbn,
             "lin": [fixtures / "lin" / "example1.lin"]}
    _ingest(cases["lin"])
    _endplay_parse(cases["lin"], "lin")
    for fmt, paths in cases.items():
        rounds = 1 if fmt == "pbn" else 50
        t0 = time.process_time()
        boards = sum(_endplay_parse(paths, fmt) for _ in range(rounds))
        t1 = time.process_time()
        stored = sum(_ingest(paths) for _ in range(rounds))
        t2 = time.process_time()
        print(f"{fmt.upper()} endplay fixtures: endplay parse {boards} boards {t1 - t0:.2f} s, "
              f"full ingest {stored} records {t2 - t1:.2f} s: ingest {(t1 - t0) / (t2 - t1):.2f}x "
              f"endplay's speed (target 3x)")


def run() -> None:
    against_endplay()
    pbn = [DATA / "endplay-fixtures" / "pbn" / "example3.pbn"]
    lin = sorted((DATA / "bbo-vugraph-lin").glob("*.lin")) * 20
    for label, reader, paths in (("PBN example3.pbn", PBN, pbn), ("LIN vugraph x20", LIN, lin)):
        n, t = _timed(lambda r=reader, p=paths: _read(r, p, False))
        _rate(f"{label}: read", n, t)
        n, t = _timed(lambda r=reader, p=paths: _read(r, p, True))
        _rate(f"{label}: read + validate", n, t)
    games, deals = _frames(400, 24)
    n = deals.height
    _, t_ref = _timed(lambda: per_deal_reference(games, deals)[0].height)
    _, t_vec = _timed(lambda: per_deal_vectorised(games, deals)[0].height)
    _rate("scoring reference (per deal)", n, t_ref)
    _rate("scoring kernel (join + rubber scan)", n, t_vec)
    print(f"kernel / reference speed-up: {t_ref / t_vec:.1f}x")
