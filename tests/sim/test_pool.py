"""``sim.pool.pool_imap`` with a fork server (``start="forkserver"``), as parallel ingest runs it
(docs/ingest.md, "Parallel ingest"): the server imports the workers' modules but runs no
polars, so each forked worker starts polars' thread pool of its own and polars works there (a
pool started in the server would leave its forked workers waiting forever for threads that do
not exist in them)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import struct
import subprocess
import sys
import threading
import time
from multiprocessing import forkserver
from pathlib import Path

import polars as pl
import pytest

from data.samples.make_samples import league_lines
from ingest.parallel import WORKER_MODULES
from sim.pool import pool_imap

ROOT = Path(__file__).resolve().parents[2]
HANG = 600.0
"""Seconds after which the workers are taken to wait forever (a deadlock, not a slow run)."""


def grouped_sum(k: int) -> int:
    """Work for polars' thread pool: a group-by over a frame large enough to be split."""
    frame = pl.DataFrame({"a": range(200_000)})
    sums = frame.group_by((pl.col("a") % 7).alias("k")).agg(pl.col("a").sum()).sort("k")
    return int(sums["a"].sum()) + k


def server_threads() -> list[str]:
    """The names of the fork server's threads (``/proc``)."""
    pid = getattr(forkserver._forkserver, "_forkserver_pid")  # noqa: B009  (not typed)
    tasks = Path(f"/proc/{pid}/task")
    return [(t / "comm").read_text().strip() for t in tasks.iterdir()]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_polars_runs_in_workers_forked_from_the_fork_server() -> None:
    tasks = [0, 1, 2, 3]
    found: list[int] = []
    run = threading.Thread(target=lambda: found.extend(pool_imap(
        grouped_sum, tasks, 2, start="forkserver", preload=WORKER_MODULES)), daemon=True)
    run.start()
    run.join(HANG)
    assert not run.is_alive(), "the workers hang: polars' thread pool did not survive the fork"
    assert found == [grouped_sum(k) for k in tasks]
    pool = [n for n in server_threads() if re.fullmatch(r"polars-\d+", n)]
    assert not pool  # polars' thread pool (threads polars-0, polars-1, ...) is not in the server


def test_the_fork_server_ignores_ctrl_c_while_it_imports(tmp_path: Path) -> None:
    """A Ctrl-C while the fork server imported its ``preload`` killed it with a traceback, and
    the file being read failed for want of workers ("not stored: EOFError"): it is started with
    Ctrl-C ignored from the first line it runs (``sim.pool._start_fork_server``)."""
    probe = tmp_path / "probe.txt"
    run = ("from sim.pool import pool_imap; "
           "print(list(pool_imap(abs, [1, -2], 2, start='forkserver', "
           "preload=('tests.sim.sigint_probe',))))")
    done = subprocess.run([sys.executable, "-c", run], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "SIGINT_PROBE": str(probe)}, timeout=HANG)
    assert done.returncode == 0 and done.stdout.strip() == "[1, 2]", done.stderr
    assert probe.read_text(encoding="utf-8") == "ignored"


def half_a_result(marker: str) -> None:
    """A worker caught while it sends its result: the start of a message (its length, 1 MiB,
    and one byte) written to the pool's results pipe, ``marker`` created, then a long wait."""
    frame = sys._getframe()
    while "result_queue" not in frame.f_locals:  # the pool's worker loop, which called this
        assert frame.f_back is not None
        frame = frame.f_back
    writer = frame.f_locals["result_queue"]._writer
    os.write(writer.fileno(), struct.pack("!i", 1 << 20) + b"\x80")
    Path(marker).touch()
    time.sleep(HANG)


def test_stopping_workers_caught_while_they_send_a_result_does_not_hang(tmp_path: Path) -> None:
    """Closing the results (Ctrl-C, an error) ends the workers at once: a worker ended in the
    middle of a result leaves part of a message in the pipe, and the pool's manager thread must
    not wait for the rest for ever (``sim.pool._stop``; a run of the tests hung there)."""
    markers = [tmp_path / f"{k}.sent" for k in range(2)]
    results = pool_imap(half_a_result, [str(m) for m in markers], 2, start="forkserver",
                        preload=WORKER_MODULES)
    while not all(m.exists() for m in markers):  # both workers are in the middle of a result
        time.sleep(0.05)
    closing = threading.Thread(target=results.close, daemon=True)
    closing.start()
    closing.join(HANG)
    assert not closing.is_alive(), "stopping the workers hangs on a result cut short"


def session(sid: int) -> dict[int, tuple[int, str, str]]:
    """The processes of session ``sid`` (a child started in a session of its own, and every
    process it started, wherever they were moved after it ended): pid -> (parent pid, state,
    command line), from ``/proc``."""
    found: dict[int, tuple[int, str, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_bytes()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                errors="replace")
        except OSError:  # ended meanwhile
            continue
        fields = stat.rsplit(b")", 1)[1].split()  # after "pid (name)": state, ppid, pgrp, sid
        if int(fields[3]) == sid:
            found[int(entry.name)] = (int(fields[1]), fields[0].decode(), command)
    return found


def running(sid: int) -> dict[int, tuple[int, str, str]]:
    """The processes of session ``sid`` that have not ended (a zombie has: it waits only to be
    reaped)."""
    return {pid: p for pid, p in session(sid).items() if p[1] != "Z"}


def workers_of(child: subprocess.Popen[bytes]) -> list[int]:
    """The processes ``child`` started that another of its processes started (the pool's
    workers, forked from the fork server; with ``fork``, the pool's children)."""
    procs = running(child.pid)
    return [pid for pid, (ppid, _, command) in procs.items()
            if pid != child.pid and ("resource_tracker" not in command)
            and (ppid != child.pid or "forkserver" not in command)]


def kill_once_workers_run(child: subprocess.Popen[bytes], workers: int) -> list[int]:
    """SIGKILL ``child`` once ``workers`` of its pool's workers run; the pids of its processes
    then. Fails if it ends first."""
    try:
        while len(workers_of(child)) < workers:
            assert child.poll() is None, (
                f"the command ended (exit {child.returncode}) before its workers ran")
            time.sleep(0.05)
        left = sorted(p for p in running(child.pid) if p != child.pid)
        child.kill()
        child.wait()
        return left
    except BaseException:
        child.kill()
        child.wait()
        raise


def wait_for_none_left(sid: int, seen: list[int]) -> None:
    """Poll until no process of session ``sid`` is left running (:data:`HANG` at most, a
    deadlock and not a slow machine); those left then are ended (each by its pid) and named
    in the failure."""
    deadline = time.monotonic() + HANG
    while (left := running(sid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)
    assert not left, f"left running after the command was killed (of {seen}): {left}"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("start", ["forkserver", "fork", "spawn"])
def test_a_pools_processes_end_when_its_process_is_killed(start: str) -> None:
    """A process running a pool killed with SIGKILL left its workers waiting for ever (with a
    fork server: the server waiting for them, and multiprocessing's resource tracker for both).
    They now end soon after it (``sim.lifeline``), busy or not, whatever starts them."""
    run = ("import time; from sim.pool import pool_imap; "
           f"list(pool_imap(time.sleep, [{HANG}] * 4, 2, start={start!r}))")
    child = subprocess.Popen([sys.executable, "-c", run], cwd=ROOT, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen = kill_once_workers_run(child, 2)
    wait_for_none_left(child.pid, seen)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ingest_workers_end_when_the_command_is_killed(tmp_path: Path) -> None:
    """``trickbook ingest FOLDER --workers 2`` killed with SIGKILL (docs/ingest.md, "Parallel
    ingest"): its workers, their fork server and the resource tracker went on running (the
    workers, their files read, waited to hand them over); now no process of the command is
    left running soon after it."""
    folder = tmp_path / "league"
    folder.mkdir()
    for k in range(6):
        (folder / f"part-{k}.jsonl").write_text(
            "\n".join(league_lines(20, 250, cards=True, seed=k, prefix=f"kill-{k}")) + "\n",
            encoding="utf-8")
    child = subprocess.Popen(
        [sys.executable, "-m", "trickbook", "ingest", str(folder), "--workers", "2",
         "--db", str(tmp_path / "t.duckdb")], cwd=ROOT, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen = kill_once_workers_run(child, 1)
    wait_for_none_left(child.pid, seen)


HELD = """
import json, os, threading, time
from multiprocessing import forkserver
from pathlib import Path
from sim.pool import pool_imap
results = pool_imap(abs, [1, -2, 3], 2, start="forkserver", preload=("tests.sim.held_preload",))
held = Path(os.environ["HELD_PRELOAD"])
while not held.exists():  # the server imports: the workers' start waits for it
    threading.Event().wait(0.05)
server = forkserver._forkserver._forkserver_pid
closing = threading.Thread(target=results.close, daemon=True)  # what a second Ctrl-C does
closing.start()
closing.join({hang})
waited = closing.is_alive()
Path(os.environ["HELD_RELEASE"]).touch()  # a server still importing may go on
closing.join()
deadline = time.monotonic() + {hang}  # killed, the server may take a moment to end
while (ended := os.waitpid(server, os.WNOHANG)[0]) != server and time.monotonic() < deadline:
    threading.Event().wait(0.05)
print(json.dumps({{"waited": waited, "server_ended": ended == server}}))
"""


def test_a_stop_while_the_workers_start_ends_them_at_once(tmp_path: Path) -> None:
    """A second Ctrl-C while ``ingest --workers 2`` started its workers took about 5 s to
    answer under load: the stop waited for the workers' start, which waits for the fork server
    to import its ``preload``. The stop ends the server (``sim.pool._stop_fork_server``), the
    start fails at once and the pool is ended without waiting for it. The server's imports
    are held here until the stop has returned (or given up)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HELD_PRELOAD": str(tmp_path / "held"),
           "HELD_RELEASE": str(tmp_path / "release")}
    done = subprocess.run([sys.executable, "-c", HELD.format(hang=HANG)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=3 * HANG)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert not found["waited"], "the stop waited for the fork server's imports"
    assert found["server_ended"]
