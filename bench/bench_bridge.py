"""Bridge: full ingest of PBN and LIN files against endplay's bare parse of exactly the same
files (issue 12's target: at least 3x endplay's speed; CPU time, each ingest into an already
created empty database, :func:`against_endplay`), PBN and LIN parse rates (deals per second, with
and without validation), and the scoring kernel against its reference, measured in the same run
(bench/__main__.py)."""

from __future__ import annotations

import random
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl
from endplay.parsers import lin as endplay_lin  # a test dependency
from endplay.parsers import pbn as endplay_pbn

from ingest import store
from ingest.lin import READER as LIN
from ingest.lin import pairs
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
    parser = endplay_pbn if fmt == "pbn" else endplay_lin
    n = 0
    for path in paths:
        with path.open(encoding="utf-8") as fh:
            n += len(parser.load(fh))
    return n


TABLE_KEYS = frozenset({"md", "sv", "mb", "an", "pc", "mc", "pg"})
"""The pairs of a Vugraph board kept in its single-table form (what both readers read)."""


def single_tables(vugraph: str) -> str:
    """A Vugraph LIN file as single-table LIN, one board (and room) a line as BBO's hand
    records and endplay's writer have it: ``pn`` with the room's four names (S, W, N, E), the
    board's ``qx`` and its deal, calls, cards and claim (vulnerability ``0`` written ``o``, the
    one letter endplay reads for none). endplay reads only this form (its parser takes four
    names per ``pn`` and starts a board at each), so both readers are timed on these files."""
    names: list[str] = []
    boards: list[list[str]] = []
    for key, value, _ in pairs(vugraph):
        if key in ("pn", "pw"):
            names = value.split(",")
        elif key == "qx":
            closed = value.strip()[:1].lower() == "c" and len(names) >= 8
            four = names[4:8] if closed else names[:4]
            boards.append([f"pn|{','.join(four)}|qx|{value}|"])
        elif boards and key in TABLE_KEYS:
            value = value.strip()
            boards[-1].append(f"{key}|{'o' if key == 'sv' and value == '0' else value}|")
    return "".join("".join(b) + "\n" for b in boards)


def lin_files(folder: Path) -> list[Path]:
    """endplay's LIN fixture and the Vugraph files of ../shared/data in single-table form
    (:func:`single_tables`), written under ``folder``."""
    out = [DATA / "endplay-fixtures" / "lin" / "example1.lin"]
    for path in sorted((DATA / "bbo-vugraph-lin").glob("*.lin")):
        text = single_tables(path.read_text(encoding="utf-8"))
        if text:
            out.append(folder / path.name)
            out[-1].write_text(text, encoding="utf-8")
    return out


def one_lin_file(paths: list[Path], copies: int, folder: Path) -> Path:
    """The boards of ``paths`` ``copies`` times over in one file (each copy's boards are new
    deals of the same games): the cost per board without the cost per file."""
    text = "".join(p.read_text(encoding="utf-8").rstrip("\n") + "\n" for p in paths)
    out = folder / "all.lin"
    out.write_text(text * copies, encoding="utf-8")
    return out


def _ingest(paths: list[Path], empty: Path, rounds: int, folder: Path) -> tuple[int, float]:
    """Records stored by ``rounds`` full ingests of ``paths`` (scoring off), each into a copy
    of the empty database ``empty``, and the CPU time of the ingests alone: creating the
    database and its tables is set-up, made once, and each copy is made before its clock
    starts."""
    stored, spent = 0, 0.0
    for r in range(rounds):
        db = folder / f"round{r}.duckdb"
        shutil.copyfile(empty, db)
        start = time.process_time()
        stored += sum(rep.stored for rep in ingest_paths(paths, db))
        spent += time.process_time() - start
        db.unlink()
    return stored, spent


def against_endplay() -> None:
    """Full ingest (read, validate, store; scoring off) against endplay's bare parse of exactly
    the same files, CPU time of this process (imports and both parsers warmed first), each
    ingest into an already created empty database (a copy of one made beforehand: creating a
    database and its tables is set-up, not the ingest of a file). Cases: endplay's PBN
    fixtures; the LIN files (endplay's fixture and the Vugraph files as single-table LIN, 10
    rounds), where each file's own costs weigh (its look-ups, rows and log; each round is one
    run, its files committed as one group); and their boards ten times over in one LIN file.
    Prints endplay's time over ours (issue 12's target: at least 3x)."""
    fixtures = DATA / "endplay-fixtures"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        empty = folder / "empty.duckdb"
        store.connect(empty).close()
        lin = lin_files(folder)
        cases = {"PBN fixtures": ("pbn", [*sorted((fixtures / "pbn").glob("*.pbn")),
                                          fixtures / "examples" / "sample.pbn"], 1),
                 "LIN files": ("lin", lin, 10),
                 "LIN one file": ("lin", [one_lin_file(lin, 10, folder)], 1)}
        for fmt, paths, _ in cases.values():
            _ingest(paths[:1], empty, 1, folder)
            _endplay_parse(paths[:1], fmt)
        for label, (fmt, paths, rounds) in cases.items():
            start = time.process_time()
            boards = sum(_endplay_parse(paths, fmt) for _ in range(rounds))
            theirs = time.process_time() - start
            stored, ours = _ingest(paths, empty, rounds, folder)
            print(f"{label} ({len(paths)} files x {rounds}): endplay parse {boards} boards "
                  f"{theirs:.2f} s CPU; full ingest into an empty database {stored} records "
                  f"stored {ours:.2f} s CPU: {theirs / ours:.2f}x endplay (target 3x)")


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
