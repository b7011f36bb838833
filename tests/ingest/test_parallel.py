"""Parallel ingest gives the result of one process (docs/ingest.md, "Parallel ingest"): the same
rows in every table, the same quarantine, ingest log and reports, whether the files are read by
a process pool, a Dask cluster, or here; a large file cut into parts equals the file read whole;
a worker that fails on a file makes that file ``failed`` while the others are stored."""

from __future__ import annotations

import gc
import json
import os
import shutil
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest

from data.samples.make_samples import league_lines
from ingest import parallel, sheets
from ingest.jsonl import READER
from ingest.pipeline import FileReport, Interrupted, Progress, file_sha256, ingest_paths
from model import variants as registry
from model.variant import Variant
from scoring.store import score_pending
from sim.pool import dask_imap, pool_imap
from sim.run import Plan, simulate
from tests.conftest import DATA, local_cluster
from tests.ingest.conftest import SAMPLES, snapshot

pytest.importorskip("distributed")

TINY_PARTS = 4_096
"""Part size that cuts every simulated file of these tests into parts..."""
SMALL_BATCH = 16
"""... read in batches of this many lines (a part is a run of whole batches)."""


def in_process(fn: Callable[[Any], Any], tasks: list[Any]) -> Iterator[Any]:
    """The worker function run here, task by task (the parts logic without processes)."""
    return map(fn, tasks)


def two_processes(fn: Callable[[Any], Any], tasks: list[Any]) -> Iterator[Any]:
    return pool_imap(fn, tasks, 2, start="forkserver", preload=parallel.WORKER_MODULES)


class Counted:
    """Counts the files the writer commits from workers' rows and those it reads itself."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.committed: list[str] = []
        self.parts: list[int] = []
        self.read_here: list[str] = []
        commit, read_here = parallel.commit, parallel.Writer.read_here

        def counted_commit(conn: Any, parts: list[parallel.Part], *args: Any, **kw: Any
                           ) -> FileReport:
            report = commit(conn, parts, *args, **kw)  # raises when a part is not exact
            self.committed.append(Path(parts[0].path).name)
            self.parts.append(len(parts))
            return report

        def counted_read(conn: Any, path: Path, **kw: Any) -> FileReport:
            self.read_here.append(path.name)
            return read_here(conn, path, **kw)

        monkeypatch.setattr(parallel, "commit", counted_commit)
        monkeypatch.setattr(parallel.Writer, "read_here", staticmethod(counted_read))


def run(paths: list[Path], db: Path, reading: Any = None, **kw: Any
        ) -> tuple[list[FileReport], list[Progress]]:
    ticks: list[Progress] = []
    extra = {} if reading is None else {"reading": reading}
    reports = ingest_paths(paths, db, score=score_pending, progress=ticks.append, **extra, **kw)
    return reports, ticks


def deal_lines(path: Path) -> list[str]:
    return [t for t in path.read_text().splitlines() if '"record":"deal"' in t]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Samples of every variant and format, simulated files, broken files, a copy, deals whose
    games are in other files (read before and after them), and duplicates across files."""
    root = tmp_path_factory.mktemp("mixed")
    shutil.copytree(SAMPLES, root / "samples")
    for variant in registry.names():
        simulate(Plan(variant, 3, 6, seed=5), out=root / "sim" / f"{variant}.jsonl", workers=1)
    broken = root / "broken"
    broken.mkdir()
    greek = (root / "sim" / "greek-prefa.jsonl").read_bytes()
    (broken / "cut.jsonl").write_bytes(greek[: len(greek) // 2])
    (broken / "noise.jsonl").write_bytes(b'{"record": "deal"\n\xff\xfe\x00garbage\n[1, 2]\n')
    shutil.copy(SAMPLES / "league.jsonl", root / "copy-of-league.jsonl")
    balkan = deal_lines(root / "sim" / "balkan.jsonl")
    changed = json.loads(balkan[1])
    changed["dealer"] = "P3" if changed["dealer"] != "P3" else "P2"
    # read before sim/ (sorted walk): its deals' games are stored only later in the run
    (root / "early-deals.jsonl").write_text("\n".join(balkan[:2]) + "\n")
    # read after sim/: duplicates and a changed deal of stored games
    (root / "zz-late-deals.jsonl").write_text(
        "\n".join([*balkan[:3], json.dumps(changed)]) + "\n")
    return root


def change_a_file(folder: Path) -> None:
    """A new version of a simulated file: one deal dropped, one changed."""
    path = folder / "sim" / "swabian.jsonl"
    lines = path.read_text().splitlines()
    deals = [k for k, t in enumerate(lines) if '"record":"deal"' in t]
    edited = json.loads(lines[deals[2]])
    edited["deal_no"] = 99
    lines[deals[2]] = json.dumps(edited)
    del lines[deals[-1]]
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def runs(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[Any, Any]:
    """The folder ingested, then ingested again after a file changed: in one process, with two
    worker processes, and on a Dask LocalCluster of two workers (both cutting files in parts)."""
    out = tmp_path_factory.mktemp("runs")
    names = ("one", "pool", "dask")
    copies = {n: out / f"folder-{n}" for n in names}
    for n in names:
        shutil.copytree(folder, copies[n])
    found: dict[Any, Any] = {}
    with pytest.MonkeyPatch.context() as mp, local_cluster() as cluster:
        counted = Counted(mp)

        def on_dask(fn: Callable[[Any], Any], tasks: list[Any]) -> Iterator[Any]:
            return dask_imap(fn, tasks, cluster.scheduler_address)

        readings = {"one": None, "pool": parallel.reading(two_processes, 2, TINY_PARTS),
                    "dask": parallel.reading(on_dask, 2, TINY_PARTS)}
        for n in names:
            db = out / f"{n}.duckdb"
            first = run([copies[n]], db, readings[n], batch=SMALL_BATCH)
            found[n, "first"] = (*first, snapshot(db))
            change_a_file(copies[n])
            second = run([copies[n]], db, readings[n], batch=SMALL_BATCH)
            found[n, "second"] = (*second, snapshot(db))
    found["counted"], found["roots"] = counted, copies
    return found


def moved(value: Any, root: Path) -> Any:
    """A report (or a progress report) with its folder written ``<root>`` (each run reads its
    own copy of the folder)."""
    if isinstance(value, Progress):
        return replace(value, source=value.source.replace(str(root), "<root>"))
    issues = [replace(i, source=i.source.replace(str(root), "<root>"),
                      message=i.message.replace(str(root), "<root>")) for i in value.issues]
    return replace(value, source=value.source.replace(str(root), "<root>"), issues=issues,
                   skipped=value.skipped and value.skipped.replace(str(root), "<root>"))


@pytest.mark.parametrize("how", ["pool", "dask"])
@pytest.mark.parametrize("when", ["first", "second"])
def test_workers_store_what_one_process_stores(runs: dict[Any, Any], how: str, when: str,
                                                tmp_path_factory: pytest.TempPathFactory
                                                ) -> None:
    one_reports, one_ticks, one_rows = runs["one", when]
    reports, ticks, rows = runs[how, when]
    assert one_rows.keys() == rows.keys()
    for table in one_rows:
        same = [str(v).replace(f"folder-{how}", "folder-one") for v in rows[table]]
        assert same == [str(v) for v in one_rows[table]], table
    roots = runs["roots"]
    assert [moved(r, roots[how]) for r in reports] == [moved(r, roots["one"])
                                                       for r in one_reports]
    assert [moved(p, roots[how]) for p in ticks] == [moved(p, roots["one"]) for p in one_ticks]


def test_the_mixed_folder_holds_what_the_comparison_needs(runs: dict[Any, Any]) -> None:
    """Every kind of outcome is in the runs compared above, and the workers' rows were committed
    (not only files read again by the writer)."""
    reports, _, rows = runs["one", "first"]
    assert any(r.skipped and r.skipped.startswith("same content as") for r in reports)
    assert {i.code for r in reports for i in r.issues} >= {"parse", "unknown-game",
                                                           "deal-conflict"}
    assert any(r.duplicates for r in reports)
    assert {v.deals_table for v in registry.registered()} <= {t for t, v in rows.items() if v}
    assert {r.reader for r in reports} >= {"jsonl", "csv-sheet"}
    second, _, _ = runs["one", "second"]
    assert [r.stored for r in second if r.source.endswith("swabian.jsonl")] == [1]
    counted = runs["counted"]
    # the deals read early are committed from the workers (their games are not stored yet), the
    # late ones are read again here (their games are stored); some files were cut in parts
    assert "early-deals.jsonl" in counted.committed and "zz-late-deals.jsonl" in counted.read_here
    assert counted.committed.count("balkan.jsonl") == 2  # pool and Dask, the first runs
    assert max(counted.parts) >= 2


# --- a large file cut into parts ----------------------------------------------------------------


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A JSON Lines file of games of every variant, with lines that make parts interact: a game
    line repeated and changed in later parts, a deal before its game, bad and blank lines, a
    byte order mark, Windows line ends."""
    root = tmp_path_factory.mktemp("big")
    lines: list[str] = []
    for variant in registry.names():
        path = root / f"{variant}.jsonl"
        simulate(Plan(variant, 4, 5, seed=11), out=path, workers=1)
        lines += path.read_text().splitlines()
    game = next(t for t in lines if '"record":"game"' in t)
    other = json.loads(game)
    other["players"] = list(reversed(other["players"]))
    late = next(t for t in reversed(lines) if '"record":"game"' in t)
    late_deal = next(t for t in reversed(lines) if '"record":"deal"' in t)
    lines.insert(3, late_deal)  # before its game line: unknown-game
    lines += ["", game, json.dumps(other), "not json", late + "\r"]
    path = root / "big.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(lines).encode() + b"\n")
    return path


def test_the_scan_finds_every_line_that_may_be_a_game(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(b'{"record":"game","a":1}\n{"x":"game"}\n\n{"record": "deal"}\n'
                     b'{"record":"game","game":"game"}\r\nlast "game"')
    assert list(parallel.game_lines(path)) == [
        (1, '{"record":"game","a":1}'), (2, '{"x":"game"}'),
        (5, '{"record":"game","game":"game"}\r'), (6, 'last "game"')]


@pytest.mark.parametrize("spoilt", ["not UTF-8", "byte order mark"])
def test_a_game_line_the_reader_refuses_is_no_game_of_an_earlier_part(
        tmp_path: Path, spoilt: str) -> None:
    """A game line that is not UTF-8 (a byte 0xFF in a name, which a lenient decoding reads as
    U+FFFD), or that starts with a byte order mark after the file's first line, is quarantined
    by the reader: the parts after it must not know its game, whose deals (naming the player
    with U+FFFD, in the last part) are then unknown-game, as in one process."""
    src = tmp_path / "g.jsonl"
    simulate(Plan("greek-prefa", 6, 5, seed=3), out=src, workers=1)
    lines = src.read_text().splitlines()
    game = json.loads(lines[0])
    name = game["players"][0]
    odd = name[:1] + "\ufffd" + name[1:]
    own = [t.replace(f'"{name}"', f'"{odd}"') for t in lines if game["game_id"] in t]
    rest = [t for t in lines if game["game_id"] not in t]
    if spoilt == "not UTF-8":
        first = own[0].encode().replace("\ufffd".encode(), b"\xff")
        data = first + b"\n" + "\n".join(rest + own[1:]).encode() + b"\n"
    else:
        data = "\n".join([rest[0], "\ufeff" + own[0], *rest[1:], *own[1:]]).encode() + b"\n"
    path = tmp_path / "big.jsonl"
    path.write_bytes(data)
    one, _ = run([path], tmp_path / "one.duckdb", batch=5)
    split, _ = run([path], tmp_path / "parts.duckdb",
                   parallel.reading(in_process, 3, path.stat().st_size // 3), batch=5)
    assert len(parallel.split(path, "-", 3, batch=5)) == 3
    assert split == one and one[0].quarantined == len(own)
    assert snapshot(tmp_path / "parts.duckdb") == snapshot(tmp_path / "one.duckdb")


def test_parts_cover_the_file_line_by_line(big: Path) -> None:
    """Each part is read in the batches the whole file is read in (same lines, same numbers),
    and parts are about the same size: each cut is the batch end nearest its share."""
    whole = [list(batch) for batch in READER.read_lines(big, 7)]
    for pieces in (2, 3, 7):
        cut = parallel.cuts(big, pieces, batch=7)
        assert len(cut) == pieces and cut[0][0] == 0 and cut[-1][1] == big.stat().st_size
        assert all(a[1] == b[0] for a, b in pairwise(cut))
        starts = parallel.line_starts(big, parallel.batch_ends(big, 7)[:-1])
        for k, (start, _, _) in enumerate(cut[1:], start=1):  # the batch end nearest k/pieces
            wanted = big.stat().st_size * k // pieces
            assert abs(start - wanted) == min(abs(s - wanted) for s in starts)
        parts = [list(batch) for start, stop, before in cut
                 for batch in READER.part(start, stop, before).read_lines(big, 7)]
        assert parts == whole


def test_a_large_file_is_cut_in_parts_of_about_the_part_size_at_most_four_per_worker(
        big: Path, tmp_path: Path) -> None:
    """Parts of about the part size, and no more than ``PARTS_PER_WORKER`` per worker (every
    part scans the file before it for game lines)."""
    conn = parallel.store.connect(tmp_path / "plan.duckdb")
    try:
        def parts(workers: int, part_bytes: int) -> int:
            return len(parallel.plan([big], conn, workers, part_bytes, batch=9)[big])

        size = big.stat().st_size
        assert parts(2, size // 3) == 3  # about the part size, whatever the workers
        assert parts(1, size // 3) == 3
        most = parallel.PARTS_PER_WORKER
        assert (parts(2, 64), parts(3, 64)) == (2 * most, 3 * most)  # tiny parts: the cap
    finally:
        conn.close()


@pytest.mark.parametrize("pieces", [2, 3, 5])
def test_a_file_in_parts_equals_the_file_read_whole(big: Path, tmp_path: Path, pieces: int,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)
    one, one_ticks = run([big], tmp_path / "one.duckdb", batch=9)
    assert len(parallel.split(big, "-", pieces, batch=9)) == pieces
    reading = parallel.reading(in_process, pieces, big.stat().st_size // pieces)
    split, ticks = run([big], tmp_path / "parts.duckdb", reading, batch=9)
    assert counted.committed == ["big.jsonl"] and counted.read_here == []
    assert split == one
    assert snapshot(tmp_path / "parts.duckdb") == snapshot(tmp_path / "one.duckdb")
    assert ticks == one_ticks
    assert {i.code for i in one[0].issues} >= {"unknown-game", "game-conflict", "parse"}


def test_each_part_is_stored_as_it_comes(big: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer stores a part before it takes the next (the workers read on meanwhile), all
    in the file's one transaction: the tables are those of one process."""
    events: list[str] = []

    def one_at_a_time(fn: Callable[[Any], Any], tasks: list[Any]) -> Iterator[Any]:
        for task in tasks:
            events.append("read")
            yield fn(task)

    load = parallel.store.Staging.load

    def stored(self: Any, conn: Any, *args: Any) -> None:
        if type(self) is parallel.store.Staging:  # the writer's, not a worker's (``Handed``)
            events.append("stored")
        load(self, conn, *args)

    monkeypatch.setattr(parallel.store.Staging, "load", stored)
    one, _ = run([big], tmp_path / "one.duckdb", batch=9)
    events.clear()
    split, _ = run([big], tmp_path / "parts.duckdb",
                   parallel.reading(one_at_a_time, 3, big.stat().st_size // 3), batch=9)
    assert events == ["read", "stored"] * 3
    assert split == one
    assert snapshot(tmp_path / "parts.duckdb") == snapshot(tmp_path / "one.duckdb")


def test_the_writer_lets_a_part_s_rows_go_once_it_is_stored(big: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """When the writer stores a part, the rows of the parts before it are gone: it holds one
    part's rows at a time, not every part's until the file's commit (the parts of a 200 MB
    file held about 200 MiB in the writer)."""
    handed: list[list[weakref.ref[pa.Table]]] = []

    def watched(fn: Callable[[Any], Any], tasks: list[Any]) -> Iterator[Any]:
        for task in tasks:
            result = fn(task)
            handed.append([weakref.ref(t) for t in result.tables.values()])
            yield result

    held: list[int] = []
    load = parallel.store.Staging.load

    def stored(self: Any, conn: Any, *args: Any) -> None:
        if type(self) is parallel.store.Staging:  # the writer's, not a worker's (``Handed``)
            gc.collect()
            held.append(sum(ref() is not None for refs in handed[:-1] for ref in refs))
        load(self, conn, *args)

    monkeypatch.setattr(parallel.store.Staging, "load", stored)
    [report], _ = run([big], tmp_path / "parts.duckdb",
                      parallel.reading(watched, 3, big.stat().st_size // 3), batch=9)
    assert report.stored and len(handed) == 3 and all(handed)
    assert held == [0, 0, 0]


def test_workers_gone_in_the_middle_of_a_file_leave_nothing_of_it(
        big: Path, tmp_path: Path) -> None:
    """A part is stored, then the workers go away: the file is ``failed`` and rolled back, and
    the file after it is read here, as if the first had not been read."""
    other = tmp_path / "league.jsonl"
    shutil.copy(SAMPLES / "league.jsonl", other)

    def gone_after_one(fn: Callable[[Any], Any], tasks: list[Any]) -> Iterator[Any]:
        yield fn(tasks[0])
        raise RuntimeError("the workers went away (planted by the test)")

    reports, _ = run([big, other], tmp_path / "two.duckdb",
                     parallel.reading(gone_after_one, 3, big.stat().st_size // 3), batch=9)
    assert reports[0].failed == "RuntimeError: the workers went away (planted by the test)"
    alone, _ = run([other], tmp_path / "one.duckdb", batch=9)
    assert reports[1:] == alone and alone[0].stored
    assert snapshot(tmp_path / "two.duckdb") == snapshot(tmp_path / "one.duckdb")


def test_a_ctrl_c_while_a_file_waits_for_a_part_rolls_the_file_back(big: Path,
                                                                     tmp_path: Path) -> None:
    """A second Ctrl-C (``KeyboardInterrupt``) while the writer waits for a file's next part
    ends the run, and the parts stored so far are rolled back with the file."""

    def interrupted_after_one(fn: Callable[[Any], Any], tasks: list[Any]) -> Iterator[Any]:
        yield fn(tasks[0])
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run([big], tmp_path / "c.duckdb",
            parallel.reading(interrupted_after_one, 3, big.stat().st_size // 3), batch=9)
    rows = snapshot(tmp_path / "c.duckdb", ["games", "deals", "ingest_log"])
    assert rows == {"games": [], "deals": [], "ingest_log": []}


def in_order(fn: Callable[[Any], Any], tasks: list[Any]) -> Iterator[Any]:
    """The parts read here, one after another (a pool's results in order)."""
    return map(fn, tasks)


def test_a_ctrl_c_before_a_file_s_commit_says_it_is_rolled_back(
        big: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second Ctrl-C in the writer after a file's parts are inserted, before its commit:
    the file is rolled back, and the stop says so (``Interrupted.rolled_back``)."""

    def stopped(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(parallel.store, "log_ingest", stopped)  # the parts are in
    with pytest.raises(Interrupted) as stop:
        run([big], tmp_path / "c.duckdb",
            parallel.reading(in_order, 3, big.stat().st_size // 3), batch=9)
    assert (stop.value.rolled_back, stop.value.stored, stop.value.before) == ([str(big)], [], 0)
    rows = snapshot(tmp_path / "c.duckdb", ["games", "deals", "ingest_log"])
    assert rows == {"games": [], "deals": [], "ingest_log": []}


def test_a_ctrl_c_after_a_file_s_commit_says_it_is_stored(
        big: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second Ctrl-C in the writer once a file read in parts is committed (while the
    results of its parts are taken) was said as a file rolled back, while the file was
    stored: the stop says it is stored (``Interrupted.stored``), and its games wait to be
    settled."""

    def stopped(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(parallel.Writer, "drain", stopped)
    db = tmp_path / "c.duckdb"
    with pytest.raises(Interrupted) as stop:
        run([big], db, parallel.reading(in_order, 3, big.stat().st_size // 3), batch=9)
    assert (stop.value.rolled_back, stop.value.stored) == ([], [str(big)])
    rows = snapshot(db, ["ingest_log", "rescore_pending"])
    assert len(rows["ingest_log"]) == 1 and rows["rescore_pending"]


def test_a_deal_in_two_parts_makes_the_writer_read_the_file(big: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """The same deal number in two parts (a duplicate, then a conflict): the parts cannot know
    it, so the file is read by the writer, as by one process."""
    text = big.read_text(encoding="utf-8-sig")
    first_deal = next(t for t in text.splitlines() if '"record":"deal"' in t)
    changed = json.loads(first_deal)
    changed["dealer"] = "P2" if changed["dealer"] != "P2" else "P3"
    path = tmp_path / "twice.jsonl"
    path.write_text(text + first_deal + "\n" + json.dumps(changed) + "\n")
    counted = Counted(monkeypatch)
    one, _ = run([path], tmp_path / "one.duckdb", batch=9)
    split, _ = run([path], tmp_path / "parts.duckdb",
                   parallel.reading(in_process, 3, path.stat().st_size // 3), batch=9)
    assert counted.read_here == ["twice.jsonl"]
    assert split == one and one[0].duplicates >= 1
    assert snapshot(tmp_path / "parts.duckdb") == snapshot(tmp_path / "one.duckdb")


def test_the_parts_know_the_games_of_earlier_parts(big: Path) -> None:
    """A part knows the game lines before it (and validates only those it is asked for); a
    part that had not known them would not be exact."""
    parts = parallel.split(big, file_sha256(big), 3, batch=9)
    results = [parallel.read_part(p) for p in parts]
    stored = [set(r.tables["games"]["game_id"].to_pylist()) if "games" in r.tables else set()
              for r in results]
    assert results[0].known == frozenset()
    assert stored[0] <= results[1].known and stored[0] | stored[1] <= results[2].known
    assert all(r.asked & (stored[0] | stored[1]) for r in results[1:])  # the file needs them
    conn = duckdb.connect()
    try:
        for table in ("games", "rescore_pending"):
            conn.execute(f"CREATE TABLE {table} (game_id VARCHAR, variant VARCHAR, "
                         "record VARCHAR)" if table == "games" else
                         f"CREATE TABLE {table} (game_id VARCHAR)")
        exact = parallel.Exact(conn, parts[0].sha256)
        assert [exact(r) for r in results] == [True] * len(results)
        blind = [results[0], *(replace(r, known=frozenset()) for r in results[1:])]
        exact = parallel.Exact(conn, parts[0].sha256)
        assert [exact(r) for r in blind] == [True] + [False] * (len(results) - 1)
    finally:
        conn.close()


def test_a_part_validates_only_the_earlier_games_it_is_asked_for(big: Path) -> None:
    parts = parallel.split(big, file_sha256(big), 3, batch=9)
    earlier = parallel.EarlierGames(big, parts[2].start, None)
    assert earlier.found == {}
    some = next(iter(earlier.lines))
    found = earlier.game(some)
    assert found is not None and json.loads(found[1])["game_id"] == some
    assert earlier.found.keys() == {some}
    assert "no such game" not in earlier


def test_a_worker_judges_a_score_sheet_shape_once_per_file(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The score-sheet verdicts a worker learnt from a part of a file serve its later parts
    (``sheets.Memo``, as from batch to batch in one process): a part judges only the shapes its
    worker has not judged yet."""
    path = tmp_path / "sheet.jsonl"
    path.write_text("".join(f"{line}\n" for line in
                            league_lines(4, 300, cards=False, prefix="sheet")))
    parts = parallel.split(path, file_sha256(path), 2, batch=200)
    judged: list[int] = []
    judge = sheets._judged

    def counted(source: str, numbered: Any, reps: list[int], validator: Any) -> Any:
        judged.append(len(reps))
        return judge(source, numbered, reps, validator)

    monkeypatch.setattr(sheets, "_judged", counted)

    def judged_by_one_worker(chosen: list[parallel.Part]) -> list[int]:
        counts = []
        with ThreadPoolExecutor(1) as worker:  # a worker thread of its own: its own memo
            for part in chosen:
                judged.clear()
                assert worker.submit(parallel.read_part, part).result().report.stored
                counts.append(sum(judged))
        return counts

    alone = judged_by_one_worker([parts[1]])[0]
    after_the_first = judged_by_one_worker(parts)[1]
    assert len(parts) == 2 and 0 <= after_the_first < alone


# --- a worker that fails ------------------------------------------------------------------------


class _NoTable:
    """A variant whose ``deals_<variant>`` table cannot be named (a bug met while storing)."""

    def __init__(self, v: Variant) -> None:
        self._v = v

    def __getattr__(self, name: str) -> Any:
        return getattr(self._v, name)

    @property
    def deals_table(self) -> str:
        raise RuntimeError("no table for balkan deals (a bug planted by the test)")


def balkan_fails(name: str) -> Any:
    """The variant registry, with Balkan failing when its deals are stored."""
    v = registry.variant(name)
    return _NoTable(v) if v.name == "balkan" else v


def test_a_worker_that_fails_on_a_file_fails_only_that_file(folder: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    counted = Counted(monkeypatch)
    files = [folder / "sim" / f"{v}.jsonl" for v in ("greek-prefa", "balkan", "swabian")]
    one, _ = run(files, tmp_path / "one.duckdb", variants=balkan_fails)
    two, _ = run(files, tmp_path / "two.duckdb", parallel.reading(two_processes, 2),
                 variants=balkan_fails)
    assert counted.read_here == ["greek-prefa.jsonl"]  # the first, while the workers start
    assert two == one
    assert two[1].failed == "RuntimeError: no table for balkan deals (a bug planted by the test)"
    assert [r.stored > 0 and r.failed is None for r in two] == [True, False, True]
    assert snapshot(tmp_path / "two.duckdb") == snapshot(tmp_path / "one.duckdb")


def swabian_kills_its_process(name: str) -> Any:
    """The variant registry, with the process ending at once when a Swabian game is read."""
    v = registry.variant(name)
    if v.name == "swabian":
        os._exit(3)
    return v


def test_a_worker_process_that_dies_fails_the_file_it_read(folder: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The pool breaks: the file waited for is ``failed`` (the first the workers read, so it
    is the one that ended its worker), and the files after it are read by the writer."""
    counted = Counted(monkeypatch)
    files = [folder / "sim" / f"{v}.jsonl" for v in ("balkan", "swabian", "greek-prefa")]
    reports, _ = run(files, tmp_path / "two.duckdb", parallel.reading(two_processes, 2),
                     variants=swabian_kills_its_process)
    assert reports[1].failed is not None and "BrokenProcessPool" in reports[1].failed
    assert [r.stored > 0 and r.failed is None for r in reports] == [True, False, True]
    assert counted.read_here == ["balkan.jsonl", "greek-prefa.jsonl"]


def no_workers(fn: Callable[[Any], Any], tasks: list[Any]) -> Iterator[Any]:
    raise AssertionError("no worker may start")


def test_strict_mode_reads_one_file_at_a_time(folder: Path, tmp_path: Path) -> None:
    reports, _ = run([folder / "sim"], tmp_path / "s.duckdb", parallel.reading(no_workers, 2),
                     strict=True)
    assert len(reports) == len(registry.names()) and all(r.stored for r in reports)
    with pytest.raises(AssertionError, match="no worker may start"):
        run([folder / "sim"], tmp_path / "t.duckdb", parallel.reading(no_workers, 2))


def test_a_stop_between_files_keeps_the_files_stored_and_ends_the_workers(
        folder: Path, tmp_path: Path) -> None:
    """The first Ctrl-C (``should_stop``): the files stored so far stay, the workers' read-ahead
    is dropped, and the result is that of one process stopped at the same file."""

    def after_two() -> Callable[[], bool]:
        asked = iter(range(100))
        return lambda: next(asked) >= 2

    one = ingest_paths([folder / "sim"], tmp_path / "one.duckdb", should_stop=after_two())
    two = ingest_paths([folder / "sim"], tmp_path / "two.duckdb", should_stop=after_two(),
                       reading=parallel.reading(two_processes, 2))
    assert len(two) == 2 and two == one
    assert snapshot(tmp_path / "two.duckdb") == snapshot(tmp_path / "one.duckdb")


def test_a_named_source_is_read_here_and_the_files_after_it_get_their_own_rows(
        folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``names`` (a file stored under a source name, as the Entry page does) makes the writer
    read that file itself; the workers' rows for it are taken and dropped, so the file after it
    is committed from its own rows, as one process stores it."""
    counted = Counted(monkeypatch)
    files = [folder / "sim" / f"{v}.jsonl" for v in ("greek-prefa", "balkan", "swabian")]
    names = {files[1]: "entry/named/balkan"}
    one, _ = run(files, tmp_path / "one.duckdb", names=names)
    two, _ = run(files, tmp_path / "two.duckdb", parallel.reading(in_process, 2), names=names)
    assert counted.read_here == ["greek-prefa.jsonl", "balkan.jsonl"]
    assert counted.committed == ["swabian.jsonl"]
    assert two == one and two[1].source == "entry/named/balkan"
    assert snapshot(tmp_path / "two.duckdb") == snapshot(tmp_path / "one.duckdb")


def test_a_worker_hands_its_new_rows_over_unloaded_unless_a_game_check_reads_them(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's new deals reach the writer as staged (no load into the worker's database),
    except those of a variant whose game-level check reads the stored deals (Russian)."""
    loads: list[str] = []
    load = parallel.store.Staging.load

    def counted(self: Any, conn: Any, *args: Any) -> None:
        loads.append(type(self).__name__)
        load(self, conn, *args)

    monkeypatch.setattr(parallel.store.Staging, "load", counted)
    for variant, loaded in (("balkan", 0), ("russian", 1)):
        path = folder / "sim" / f"{variant}.jsonl"
        loads.clear()
        result = parallel.read_part(parallel.Part(str(path), file_sha256(path)))
        assert result.report.failed is None and result.report.stored
        assert len(loads) == loaded
        table = registry.variant(variant).deals_table
        assert result.tables["deals"].num_rows == result.tables[table].num_rows > 0


def test_the_writer_hashes_each_file_once(folder: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan hashes every file to see which to read ahead; the run does not hash them again
    (``ingest_paths``'s hashing thread takes the plan's), nor does a worker. Only the first
    file is hashed twice: its hash starts while the database opens, before the plan."""
    from ingest import pipeline

    hashed: list[str] = []
    real = pipeline.file_sha256

    def counted(path: Path) -> str:
        hashed.append(path.name)
        return real(path)

    monkeypatch.setattr(pipeline, "file_sha256", counted)
    files = sorted((folder / "sim").glob("*.jsonl"))
    reports, _ = run(files, tmp_path / "h.duckdb", parallel.reading(in_process, 2))
    assert all(r.stored for r in reports)
    assert sorted(hashed) == sorted([files[0].name] + [p.name for p in files])


@pytest.mark.parametrize("replace_it", [False, True])
def test_a_corrected_copy_elsewhere_in_parts_equals_one_process(
        big: Path, tmp_path: Path, replace_it: bool) -> None:
    """A corrected copy of a stored file, of its name in another folder (a new version of it:
    docs/ingest.md, "A file of the same name in another place"), read in parts by workers
    stores what one process stores: its records name the stored file's games, which the
    workers' empty databases lack, so the writer reads it itself where that matters."""
    lines = big.read_bytes().decode("utf-8-sig").splitlines()
    deals = [k for k, t in enumerate(lines) if t.startswith('{"record":"deal"')]
    moved_deal = json.loads(lines[deals[30]])
    moved_deal["deal_no"] = 9_999  # a new deal in place of an old one, which is left out
    lines[deals[30]], lines[deals[20]] = json.dumps(moved_deal), ""  # and another left out
    corrected = tmp_path / "corrected" / "big.jsonl"
    corrected.parent.mkdir()
    corrected.write_text("\n".join(t for t in lines if t) + "\n")
    found = {}
    for name, reading in (("one", None), ("parts", parallel.reading(in_process, 3, 2_000))):
        db = tmp_path / f"{name}.duckdb"
        run([big], db, batch=9)
        reports, _ = run([corrected], db, reading, batch=9, replace=replace_it)
        assert reports[0].earlier_files == [str(big)]
        assert reports[0].dropped == 2  # kept: the file has bad lines of its own
        found[name] = reports, snapshot(db)
    assert found["parts"] == found["one"]


def test_a_large_file_not_cut_in_parts_is_read_by_the_writer(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """A worker keeps every new row of what it reads in memory until the writer stores them
    (``parallel.Handed``, never spilled): a file of ``WHOLE_BYTES`` or more that is not cut into
    parts (a PBN file) is read by the writer, its rows spilled past ``store.HOLD_BYTES`` (a 100
    MB PBN file read by a worker kept about 1.3 GB resident); the smaller files are still read
    by the workers, and the result is one process's."""
    pbn = DATA / "pbn-tournaments-slovesnov"
    files = [pbn / "A1A12525.PBN", pbn / "Aulpll23.pbn", DATA / "endplay-fixtures" / "pbn" /
             "example1.pbn"]  # 24,065, 29,322 and 1,196 bytes
    monkeypatch.setattr(parallel, "WHOLE_BYTES", 25_000)
    counted = Counted(monkeypatch)
    one, _ = run(files, tmp_path / "one.duckdb")
    two, _ = run(files, tmp_path / "two.duckdb", parallel.reading(in_process, 2))
    # the first file is read here while the workers start (``plan``), the large one too
    assert counted.read_here == ["A1A12525.PBN", "Aulpll23.pbn"]
    assert counted.committed == ["example1.pbn"]
    assert two == one
    assert snapshot(tmp_path / "two.duckdb") == snapshot(tmp_path / "one.duckdb")
