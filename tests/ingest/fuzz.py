"""A seeded mutation fuzzer over real files of every format (issue 14, part 8).

Each mutant is a real file (``data/samples/`` and ``../shared/data/``: JSON Lines, club score
sheets, bridge travellers, PBN, LIN, PPN, DDS hands) with one to three named mutations: bytes
flipped, cut or inserted, lines deleted, repeated or swapped, the file cut short, numbers made
huge or Unicode digits, separators and brackets dropped or doubled, deep nesting, an over-long
value, a byte order mark, UTF-16 or a single-byte code page. A batch of mutants is ingested in
one run into a fresh database; the invariants (docs/ingest.md, "Hostile input"):

- no exception leaves ``ingest_paths`` and no file fails (``FileReport.failed``);
- every file's records read = stored + duplicates + quarantined;
- every record of the unmutated part is read (JSON Lines lines, LIN board lines and PBN games
  that stand unchanged in the mutant each yield a record at least: ``Mutant.floor``);
- the data checks of ``scoring/checks.py`` hold.

The same seed gives the same mutants. ``tests/ingest/test_fuzz.py`` runs a short batch; ``make
fuzz`` a long one: ``python -m tests.ingest.fuzz --seed 1 --mutants 1000``. A failing batch is
kept under ``--out`` with its mutants, for ``trickbook ingest`` to replay.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from ingest.pipeline import ingest_paths
from scoring.checks import run_checks
from scoring.store import score_pending

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
CORPUS_GLOBS = (
    (ROOT / "data" / "samples", ("**/*.jsonl", "**/*.csv", "**/*.ppn")),
    (SHARED / "endplay-fixtures", ("pbn/example1.pbn", "pbn/example4.pbn", "examples/*.pbn",
                                   "lin/*.lin")),
    (SHARED / "pbn-tournaments-slovesnov", ("*.pbn", "*.PBN")),
    (SHARED / "bbo-vugraph-lin", ("00001.lin", "40000.lin")),
    (SHARED / "prefko-ppn", ("*.ppn",)),
    (SHARED / "dds-hands", ("list10.txt", "sol10.txt")),
)
"""The real files mutated: one or a few of each format, small enough to ingest by the dozen."""
BATCH = 12
"""Mutants ingested together (one ``ingest_paths`` run, one database)."""


def corpus() -> list[Path]:
    """The seed files, sorted (the same seed picks the same files)."""
    found: set[Path] = set()
    for folder, patterns in CORPUS_GLOBS:
        for pattern in patterns:
            found.update(p for p in folder.glob(pattern) if p.is_file())
    return sorted(found)


Mutation = Callable[[bytes, random.Random], bytes]
NOISE = (b"|", b"||", b"{", b"}", b"[", b"]", b'"', b"\\", b",", b";", b"\n", b"\r\n", b"\x00",
         b"\xff", b"\xef\xbb\xbf", "²".encode(), "١٢".encode(), b"2147483648",
         b"99999999999999999999999", b"-1", b"NaN", b"{\"record\": \"deal\"}", b"%", b"#")


def _at(data: bytes, rng: random.Random) -> int:
    return rng.randrange(len(data) + 1)


def flip_byte(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]


def cut_bytes(data: bytes, rng: random.Random) -> bytes:
    i = _at(data, rng)
    return data[:i] + data[i + rng.randint(1, 8):]


def insert_noise(data: bytes, rng: random.Random) -> bytes:
    i = _at(data, rng)
    return data[:i] + rng.choice(NOISE) + data[i:]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def delete_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def repeat_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"\n".join(lines)


def swap_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[:_at(data, rng)]


def huge_number(data: bytes, rng: random.Random) -> bytes:
    spots = [i for i in range(len(data)) if 48 <= data[i] <= 57]
    if not spots:
        return data
    i = rng.choice(spots)
    return data[:i] + rng.choice((b"2147483648", b"9" * 30, "²".encode(), b"-0")) + data[i + 1:]


def drop_separator(data: bytes, rng: random.Random) -> bytes:
    spots = [i for i in range(len(data)) if data[i:i + 1] in (b"|", b"}", b"]", b'"', b",",
                                                               b"\n")]
    if not spots:
        return data
    i = rng.choice(spots)
    return data[:i] + data[i + 1:]


def deep_nesting(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice((40, 1000, 5000))
    line = b'{"record": "deal", "x": ' + b"[" * depth + b"]" * depth + b"}"
    lines = _lines(data)
    lines.insert(rng.randrange(len(lines) + 1), line)
    return b"\n".join(lines)


def long_value(data: bytes, rng: random.Random) -> bytes:
    i = _at(data, rng)
    return data[:i] + b"x" * rng.choice((70_000, 140_000, 1 << 20)) + data[i:]


def byte_order_mark(data: bytes, rng: random.Random) -> bytes:
    return b"\xef\xbb\xbf" + data


def re_encode(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", errors="replace")
    encoding = rng.choice(("utf-16", "cp1252", "cp1253", "latin-1"))
    return text.encode(encoding, errors="replace")


MUTATIONS: dict[str, Mutation] = {
    f.__name__: f for f in (flip_byte, cut_bytes, insert_noise, delete_line, repeat_line,
                            swap_lines, truncate, huge_number, drop_separator, deep_nesting,
                            long_value, byte_order_mark, re_encode)}


@dataclass
class Mutant:
    path: Path
    origin: Path
    mutations: list[str]

    @property
    def floor(self) -> int:
        """Records the mutant must yield at least: one per record of the original left
        untouched (``untouched``)."""
        return untouched(self.origin.suffix.lower(), self.origin.read_bytes(),
                         self.path.read_bytes())


def _units(suffix: str, data: bytes) -> list[bytes]:
    """The parts of a file that are one record (at least) each, whatever stands around them:
    a JSON Lines line, a LIN board line (``qx|``), a PBN game with its own tags after an empty
    line (with the empty line and its first tag)."""
    text = data.replace(b"\r\n", b"\n")
    if suffix in (".jsonl", ".ndjson"):
        return [t for t in text.split(b"\n") if t.strip()]
    if suffix == ".lin":
        return [t for t in text.split(b"\n") if t.startswith(b"qx|")]
    if suffix == ".pbn":
        return [b"\n\n" + block for block in text.split(b"\n\n")[1:]
                if block.startswith(b"[") and (b'[Contract "' in block or b'[Deal "' in block)]
    return []


def untouched(suffix: str, original: bytes, mutant: bytes) -> int:
    """How many of the original's record units (``_units``) stand unchanged in the mutant (a
    PBN game must also end where it did: followed by an empty line or the end)."""
    if suffix == ".pbn":
        text = mutant.replace(b"\r\n", b"\n")
        return sum(1 for u in set(_units(suffix, original))
                   for at in _find_all(text, u)
                   if text[at + len(u):at + len(u) + 2] in (b"\n\n", b"\n", b""))
    kept = Counter(_units(suffix, mutant)) & Counter(_units(suffix, original))
    return sum(kept.values())


def _find_all(text: bytes, part: bytes) -> list[int]:
    found, at = [], text.find(part)
    while at >= 0:
        found.append(at)
        at = text.find(part, at + 1)
    return found


@dataclass
class Outcome:
    mutants: list[Mutant] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def make_mutants(rng: random.Random, files: list[Path], count: int, folder: Path
                 ) -> list[Mutant]:
    """``count`` mutants of ``files`` under ``folder`` (each in its own sub-folder, with its
    origin's name, so the readers pick it by extension as they would the original)."""
    out = []
    for n in range(count):
        origin = rng.choice(files)
        data = origin.read_bytes()
        names = [rng.choice(sorted(MUTATIONS)) for _ in range(rng.randint(1, 3))]
        for name in names:
            data = MUTATIONS[name](data, rng)
        path = folder / f"{n:04d}" / origin.name
        path.parent.mkdir(parents=True)
        path.write_bytes(data)
        sidecar = origin.with_name(origin.stem + ".game.json")
        if sidecar.is_file():
            shutil.copy(sidecar, path.with_name(sidecar.name))
        out.append(Mutant(path, origin, names))
    return out


def check_batch(mutants: list[Mutant], db: Path) -> list[str]:
    """Ingest a batch of mutants into ``db``; every broken invariant, as a line."""
    where = {str(m.path): m for m in mutants}
    try:
        reports = ingest_paths([m.path for m in mutants], db, score=score_pending)
    except Exception:
        return ["ingest_paths raised: " + traceback.format_exc(limit=8)]
    failures = []
    for r in reports:
        m = where.get(r.source)
        what = f"{r.source} ({m.origin.name}: {', '.join(m.mutations)})" if m else r.source
        if r.failed:
            failures.append(f"{what}: failed: {r.failed}")
        if m is not None and r.records < m.floor and not r.skipped:
            failures.append(f"{what}: {r.records} records read, but {m.floor} records of the "
                            "original stand unchanged in it")
        if r.records != r.stored + r.duplicates + r.quarantined:
            failures.append(f"{what}: {r.records} read but {r.stored} stored + {r.duplicates} "
                            f"duplicates + {r.quarantined} quarantined")
    if not db.exists():
        return failures
    conn = duckdb.connect(str(db), read_only=True)
    try:
        failures += [f"data check failed: {f}" for f in run_checks(conn) if not f.finding]
    finally:
        conn.close()
    return failures


def fuzz(seed: int, count: int, folder: Path) -> Outcome:
    """``count`` mutants from ``seed``, ingested ``BATCH`` at a time under ``folder``; batches
    that hold are removed, failing ones kept."""
    rng = random.Random(seed)
    files = corpus()
    outcome = Outcome()
    for start in range(0, count, BATCH):
        batch = folder / f"batch-{start // BATCH:04d}"
        mutants = make_mutants(rng, files, min(BATCH, count - start), batch)
        outcome.mutants += mutants
        failures = check_batch(mutants, batch / "fuzz.duckdb")
        if failures:
            outcome.failures += [f"{batch.name}: {f}" for f in failures]
        else:
            shutil.rmtree(batch)
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mutants", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "out" / "fuzz")
    args = parser.parse_args(argv)
    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)
    outcome = fuzz(args.seed, args.mutants, args.out)
    for line in outcome.failures:
        print(line)
    print(f"{len(outcome.mutants)} mutants of {len(corpus())} files (seed {args.seed}): "
          f"{len(outcome.failures)} broken invariants" + (f"; kept under {args.out}"
                                                          if outcome.failures else ""))
    return 1 if outcome.failures else 0


if __name__ == "__main__":
    sys.exit(main())
