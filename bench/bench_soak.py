"""Soak (issue 14): many small files and one large file ingested while a reader queries the
database in a loop; memory stays flat, nothing is lost, both complete.

``python -m bench soak`` (part of ``make bench``) runs it at full size: 10,000 small files and a
1 GB file. The sizes are parameters (``TRICKBOOK_SOAK_FILES``, ``TRICKBOOK_SOAK_MB``, or
``python -m bench.bench_soak --files 500 --mb 50``) so that a quick run is possible. The inputs
are generated under ``bench/out/soak-<files>-<mb>mb/`` (kept for the next run):

- the small files: Greek Prefa score sheets of one game and a few deals each (the league
  generator of ``data/samples/make_samples.py``); every 10th holds a line that is not JSON (a
  quarantined record), every 25th repeats the game and deals of the file before it with one deal
  more (duplicates), every 100th is a byte-for-byte copy of the file before it (skipped as the same
  content);
- the large file: one score-sheet league of 500-deal games, ``mb`` megabytes.

A writer child ingests the small files ``CHUNK`` at a time (one ``ingest_paths`` call each, as
files arrive at a club; a reader gets the database between two calls) and then the large file (one
call). It prints its resident memory (``VmRSS``) after each chunk and at every twentieth of the
large file, and its peak (``VmHWM``). A reader child opens the
database read-only in a loop (``dashboards.db.read_only``: while the writer holds the lock it
retries, then reports the database busy) and checks on each read that nothing stored shrinks and
that the ingest log accounts for every deal. Scoring is off (as in ``bench ingest``): ingest
alone is measured.

What it prints and checks: every file's records = stored + duplicates + quarantined, the totals
equal to what was generated and to the database's rows; the reader's reads, busy retries and no
inconsistent read; both children exit 0. For each phase it prints the writer's memory early and
late (first and last sample, and their ratio) and whether it plateaus (the mean of the last
quarter of the samples over the third quarter's, within :data:`PLATEAU`), with the load average
at the start and the end (the machine may be shared: memory is printed, not asserted).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
FILES_ENV, MB_ENV = "TRICKBOOK_SOAK_FILES", "TRICKBOOK_SOAK_MB"
FILES, MB = 10_000, 1024
CHUNK = 500
"""Small files per ingest call, at most (fewer when there are fewer than ``SAMPLES`` chunks)."""
DEALS_PER_FILE = 4
SAMPLES = 20
"""Memory samples per phase (the large file: one at every twentieth of its bytes)."""

WRITER = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from ingest.pipeline import ingest_paths

    def rss(key="VmRSS"):
        for line in open("/proc/self/status"):
            if line.startswith(key + ":"):
                return int(line.split()[1])

    small, big, db = sys.argv[1], sys.argv[2], sys.argv[3]
    chunk, samples = int(sys.argv[4]), int(sys.argv[5])
    files = sorted(Path(small).iterdir())
    def report(r):
        return [r.records, r.stored, r.duplicates, r.quarantined, r.skipped, r.failed]
    for at in range(0, len(files), chunk):
        reports = ingest_paths(files[at:at + chunk], db)
        print(json.dumps({"phase": "small", "done": at + chunk, "rss": rss(),
                          "reports": [report(r) for r in reports]}), flush=True)
    mark = [0]
    def tick(p):  # a sample at every 1/samples of the file's bytes
        if p.total_bytes and p.done_bytes * samples >= (mark[0] + 1) * p.total_bytes:
            mark[0] = p.done_bytes * samples // p.total_bytes
            print(json.dumps({"phase": "big", "records": p.records, "rss": rss()}), flush=True)
    (r,) = ingest_paths([big], db, progress=tick)
    print(json.dumps({"phase": "big-done", "rss": rss(), "hwm": rss("VmHWM"),
                      "reports": [report(r)]}), flush=True)
""")

READER = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from dashboards.db import DatabaseBusy, DatabaseMissing, read_only

    db, stop = Path(sys.argv[1]), Path(sys.argv[2])
    reads = busy = missing = bad = 0
    last = (0, 0)
    while not stop.exists():
        try:
            with read_only(db, retry_seconds=0.5) as con:
                deals, logged = con.execute(
                    "SELECT (SELECT count(*) FROM deals), "
                    "(SELECT coalesce(sum(stored), 0) FROM ingest_log)").fetchone()
                games = con.execute("SELECT count(*) FROM games").fetchone()[0]
        except DatabaseBusy:
            busy += 1
            continue
        except DatabaseMissing:
            missing += 1
            time.sleep(0.05)
            continue
        reads += 1
        if deals < last[0] or games < last[1] or deals + games > logged:
            bad += 1
        last = (deals, games)
    print(json.dumps({"reads": reads, "busy": busy, "missing": missing, "bad": bad}))
""")


PLATEAU = 1.05
"""The writer's memory plateaus when the mean RSS of the last quarter of a phase's samples is
within this factor of the third quarter's."""


@dataclass(frozen=True)
class Memory:
    """A phase's resident memory, in MiB: its first and last sample, and the means of the third
    and the last quarter of its samples."""

    first: int
    last: int
    third_quarter: int
    last_quarter: int

    @classmethod
    def of(cls, kib: list[int]) -> Memory:
        if not kib:
            return cls(0, 0, 0, 0)
        n = len(kib)
        q3 = kib[n // 2: max(n // 2 + 1, 3 * n // 4)]
        q4 = kib[3 * n // 4:]
        return cls(kib[0] // 1024, kib[-1] // 1024, sum(q3) // len(q3) // 1024,
                   sum(q4) // len(q4) // 1024)

    @property
    def growth(self) -> float:
        """Last over first sample."""
        return self.last / max(self.first, 1)

    @property
    def late_growth(self) -> float:
        """Last quarter over third quarter (means)."""
        return self.last_quarter / max(self.third_quarter, 1)

    def said(self) -> str:
        verdict = "plateaus" if self.late_growth <= PLATEAU else "still grows"
        return (f"{self.first:,} -> {self.last:,} MiB ({self.growth:.2f}x, first to last); "
                f"third quarter {self.third_quarter:,}, last quarter {self.last_quarter:,} MiB "
                f"({self.late_growth:.2f}x: {verdict})")


@dataclass(frozen=True)
class Inputs:
    small: Path
    big: Path
    records: int
    """Records of the small files that are read (copies are skipped unread) and of the big one."""
    quarantined: int
    duplicates: int
    copies: int


def _small_files(folder: Path, n: int) -> tuple[int, int, int, int]:
    """Write ``n`` small files; returns (records read, quarantined, duplicates, copies)."""
    from data.samples.make_samples import league_lines

    folder.mkdir(parents=True)
    records = quarantined = duplicates = copies = 0
    before: list[str] = []
    for i in range(n):
        path = folder / f"club-{i:05d}.jsonl"
        if i % 100 == 99:  # a copy of the file before: skipped, nothing read
            path.write_text("\n".join(before) + "\n")
            copies += 1
            continue
        if i % 25 == 24:  # the file before again, one deal more: duplicates and one new deal
            lines = list(league_lines(1, DEALS_PER_FILE + 1, cards=False, seed=i - 1,
                                      prefix=f"soak-{i - 1:05d}"))
            duplicates += len(before) - (1 if any(not ln.startswith("{") for ln in before)
                                         else 0)
        else:
            lines = list(league_lines(1, DEALS_PER_FILE, cards=False, seed=i,
                                      prefix=f"soak-{i:05d}"))
        if i % 10 == 9:
            lines.insert(2, "this line is not JSON")
            quarantined += 1
        path.write_text("\n".join(lines) + "\n")
        records += len(lines)
        before = lines
    return records, quarantined, duplicates, copies


def _big_file(path: Path, mb: int) -> int:
    """Write a score-sheet league of about ``mb`` megabytes; returns its records."""
    from data.samples.make_samples import league_lines

    records, size, games = 0, 0, 0
    tmp = path.with_suffix(".tmp")
    with tmp.open("w") as fh:
        while size < mb * 1024 * 1024:
            for line in league_lines(1, 500, cards=False, seed=games, prefix=f"big-{games:07d}"):
                fh.write(line + "\n")
                size += len(line) + 1
                records += 1
            games += 1
    tmp.rename(path)
    return records


def inputs(files: int, mb: int) -> Inputs:
    folder = OUT / f"soak-{files}-{mb}mb"
    facts = folder / "facts.json"
    if not facts.exists():
        shutil.rmtree(folder, ignore_errors=True)
        records, quarantined, duplicates, copies = _small_files(folder / "small", files)
        records += _big_file(folder / "big.jsonl", mb)
        facts.write_text(json.dumps([records, quarantined, duplicates, copies]))
    records, quarantined, duplicates, copies = json.loads(facts.read_text())
    return Inputs(folder / "small", folder / "big.jsonl", records, quarantined, duplicates,
                  copies)


def soak(files: int = FILES, mb: int = MB) -> dict[str, object]:
    """Run the soak; returns its findings (and prints them). Raises ``AssertionError`` when
    something was lost or a child failed."""
    made = inputs(files, mb)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRICKBOOK_DB_RETRY_SECONDS": "0.5"}
    with tempfile.TemporaryDirectory() as tmp:
        db, stop = Path(tmp) / "soak.duckdb", Path(tmp) / "stop"
        reader = subprocess.Popen([sys.executable, "-c", READER, str(db), str(stop)], cwd=ROOT,
                                  env=env, stdout=subprocess.PIPE, text=True)
        t0 = time.perf_counter()
        at_start = os.getloadavg()[0]
        writer = subprocess.run(
            [sys.executable, "-c", WRITER, str(made.small), str(made.big), str(db),
             str(max(1, min(CHUNK, files // SAMPLES))), str(SAMPLES)],
            cwd=ROOT, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        load = (round(at_start, 1), round(os.getloadavg()[0], 1))
        stop.touch()
        read_out, _ = reader.communicate()
        assert writer.returncode == 0, writer.stderr[-2000:]
        assert reader.returncode == 0, "the reader failed"
        import duckdb

        con = duckdb.connect(str(db), read_only=True)
        try:
            rows = con.execute("SELECT (SELECT count(*) FROM deals) + (SELECT count(*) FROM "
                               "games), (SELECT count(*) FROM quarantine)").fetchone()
        finally:
            con.close()
    events = [json.loads(line) for line in writer.stdout.splitlines() if line.startswith("{")]
    reports = [r for e in events for r in e.get("reports", [])]
    read = sum(r[0] for r in reports)
    stored, dups, quarantined = (sum(r[k] for r in reports) for k in (1, 2, 3))
    skipped = sum(1 for r in reports if r[4])
    assert all(r[0] == r[1] + r[2] + r[3] and r[5] is None for r in reports), "a file lost records"
    assert (read, quarantined, dups, skipped) == (
        made.records, made.quarantined, made.duplicates, made.copies), (read, made)
    assert rows == (stored, quarantined), (rows, stored, quarantined)
    small_rss = [e["rss"] for e in events if e["phase"] == "small"]
    big_rss = [e["rss"] for e in events if e["phase"] == "big"]
    peak = events[-1]["hwm"]
    reader_said = json.loads(read_out.strip().splitlines()[-1])
    assert reader_said["bad"] == 0, reader_said
    small, big = Memory.of(small_rss), Memory.of(big_rss)
    found = {"files": files, "mb": mb, "records": read, "stored": stored, "duplicates": dups,
             "quarantined": quarantined, "copies skipped": skipped, "seconds": round(seconds, 1),
             "rss small files MiB": small, "rss big file MiB": big,
             "peak rss MiB": peak // 1024, "reader": reader_said, "load average": load}
    print(f"{files:,} small files and a {mb:,} MB file in {seconds:,.0f} s: "
          f"{read:,} records read = {stored:,} stored + {dups:,} duplicates + "
          f"{quarantined:,} quarantined; {skipped} copies skipped; the database holds them all")
    print(f"writer RSS, small files ({len(small_rss)} samples): {small.said()}")
    print(f"writer RSS, large file ({len(big_rss)} samples): "
          + (big.said() if big_rss else "(fewer records than one sample)"))
    print(f"writer peak RSS {peak / 1024:,.0f} MiB; load average {load[0]:.1f} at the start, "
          f"{load[1]:.1f} at the end (1 minute)")
    print(f"reader: {reader_said['reads']:,} consistent reads, {reader_said['busy']:,} busy "
          f"(the writer held the lock), {reader_said['bad']} inconsistent")
    return found


def run() -> None:
    soak(int(os.environ.get(FILES_ENV, FILES)), int(os.environ.get(MB_ENV, MB)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=FILES)
    parser.add_argument("--mb", type=int, default=MB)
    args = parser.parse_args()
    soak(args.files, args.mb)
