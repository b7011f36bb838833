"""Where work runs: a pool of local processes, or a Dask cluster (``ingest --workers`` and
``--cluster``, ``simulate``, ``analyse``). Only the standard library and ``sim.lifeline`` are
imported here (distributed on first use), so a command that only reads files does not load the
simulator to run its workers.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import suppress
from functools import partial
from itertools import islice
from multiprocessing import forkserver
from typing import Any, TypeVar

from sim import lifeline

TaskT = TypeVar("TaskT")
ResultT = TypeVar("ResultT")


def pool_imap(
    fn: Callable[[TaskT], ResultT], tasks: list[TaskT], workers: int, start: str = "fork",
    preload: tuple[str, ...] = (),
) -> Generator[ResultT, None, None]:
    """``fn`` of each task, in order, on a pool of ``workers`` processes (in this process for
    one worker or one task) that ignore Ctrl-C and end soon after this process ends, even
    killed with SIGKILL (``sim.lifeline``; its fork server and resource tracker end then too),
    at most ``2 * workers`` tasks ahead of the one yielded (their results wait in memory). The
    workers start at once: from a fork server in a
    thread (the caller works meanwhile), forked by the calling thread (a child forked by another
    thread while this one runs can crash: this one may hold a lock of the allocator at the
    fork). Closing the generator stops them at once. A worker process that dies raises
    ``BrokenProcessPool`` here. With the default ``start`` the pool forks: ``fn`` must not use
    polars then (its thread pool does not survive a fork). ``start="forkserver"`` forks
    each worker from a server process that imported the modules ``preload`` but ran nothing, so
    polars' thread pool, started at its first use, is started afresh in each worker (a worker
    costs its work, not an interpreter's start); ``start="spawn"`` starts fresh interpreters.
    The fork server is started once per process, with the ``preload`` of the first pool that
    asks for one."""
    if workers <= 1 or len(tasks) <= 1:
        return (fn(t) for t in tasks)
    ctx = mp.get_context(start if start in mp.get_all_start_methods() else "spawn")
    if ctx.get_start_method() == "forkserver":
        if preload:
            ctx.set_forkserver_preload(list(preload))
        _start_fork_server()
    pool = ProcessPoolExecutor(min(workers, len(tasks)), mp_context=ctx,  # a worker unpickles
                               initializer=partial(lifeline.serve, os.getpid()))  # it alone
    queued = iter(tasks)
    ahead = partial(_submitted, pool, fn, queued, 2 * workers)
    if ctx.get_start_method() == "fork":  # forked by this thread, the one that runs our code
        first: Future[deque[Any]] = Future()
        first.set_result(ahead())
    else:
        starting = ThreadPoolExecutor(1)  # a worker's start may wait for the fork server
        first = starting.submit(ahead)
        starting.shutdown(wait=False)
    server = ctx.get_start_method() == "forkserver"
    results = _in_order(pool, first, queued, fn, server)
    next(results)  # started: closing it stops the pool, even before the first result
    return results


def _start_fork_server() -> None:
    """Start this process's fork server, if it is not running, with Ctrl-C ignored: it keeps
    that while it imports its ``preload`` (a Ctrl-C there killed it with a traceback, and the
    file being read failed for want of workers), and the workers it forks inherit it. The
    command's process alone answers Ctrl-C. From a thread other than the main one (which cannot
    set a signal's handler) the server starts as it would."""
    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def _submitted(pool: Any, fn: Callable[[TaskT], ResultT], queued: Iterator[TaskT],
               n: int) -> deque[Any]:
    """The futures of the next ``n`` tasks of ``queued``, submitted to ``pool``."""
    return deque(pool.submit(fn, t) for t in islice(queued, n))


def _in_order(pool: Any, first: Any, queued: Iterator[TaskT],
              fn: Callable[[TaskT], ResultT], server: bool = False
              ) -> Generator[Any, None, None]:
    """The results of the tasks submitted by ``first`` (a future of their futures) in order, a
    task of ``queued`` submitted for each; first ``None`` (see :func:`pool_imap`). ``server``:
    the workers are forked by this process's fork server."""
    try:
        yield None
        running = first.result()
        while running:
            result = running.popleft().result()
            running.extend(pool.submit(fn, t) for t in islice(queued, 1))
            yield result
    except BaseException:
        if server and not first.done():
            _stop_fork_server()
        first.exception()  # the first workers are started (or failed to)
        _stop(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_fork_server() -> None:
    """End this process's fork server while the workers' start waits for it (it imports its
    ``preload``: seconds under load), so that the start fails at once and the stop (a second
    Ctrl-C) ends the workers without waiting for it: a stop waited for the imports, about 5 s.
    The next pool starts a server again (``forkserver.ensure_running``)."""
    pid = getattr(forkserver._forkserver, "_forkserver_pid", None)  # private: not typed
    if pid is not None:
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _stop(pool: Any) -> None:
    """End a process pool's workers now (Ctrl-C, an error): what they run is dropped (the pool
    has no public way to do so before Python 3.14's ``terminate_workers``).

    A worker ended while it wrote its result leaves part of a message in the results' pipe,
    and the pool's manager thread would wait for the rest for ever (its ``shutdown`` with it:
    a run of the tests hung there). Once the workers are gone, this process's own end for
    writing results (no one here writes to it) is closed, so that the pipe has no writer left
    and the manager thread's read ends (the pool is then broken, and shuts down)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
    results = getattr(pool, "_result_queue", None)
    if results is not None:
        results._writer.close()


class ClusterUnreachable(RuntimeError):
    """A Dask cluster that cannot be used: its address is malformed, or its scheduler does not
    answer within distributed's connect timeout (``distributed.comm.timeouts.connect``, 30 s
    unless configured), or the client fails while giving up on it. The message names the
    address and the reason."""


def connect(scheduler: str) -> Any:
    """A client of the Dask cluster whose scheduler is at ``scheduler`` (an address such as
    ``tcp://10.0.0.5:8786``): how ``ingest --cluster``, ``analyse --play --cluster`` and
    ``simulate --cluster`` reach it. Raises :class:`ClusterUnreachable`."""
    from distributed import Client

    try:
        return Client(scheduler)
    except Exception as exc:  # a timeout is an OSError; on a loaded machine the client's own
        # close after it can fail an assertion of distributed's (AssertionError, no message)
        reason = str(exc).strip().splitlines()
        raise ClusterUnreachable(f"cannot reach the Dask cluster at {scheduler!r} "
                                 f"({reason[0] if reason else type(exc).__name__})") from exc


def dask_imap(
    fn: Callable[[TaskT], ResultT], tasks: list[TaskT], scheduler: str
) -> Generator[ResultT, None, None]:
    """``fn`` of each task, in order, on the Dask cluster at ``scheduler`` (:func:`connect`).
    The tasks are submitted at once (a cluster that cannot be reached raises here); closing the
    generator cancels what is left."""
    client = connect(scheduler)
    futures = [client.submit(fn, t, pure=False) for t in tasks]
    results = _dask_in_order(client, futures)
    next(results)  # started: closing it cancels the tasks, even before the first result
    return results


def _dask_in_order(client: Any, futures: list[Any]) -> Generator[Any, None, None]:
    try:
        yield None
        for fut in futures:
            yield fut.result()
    finally:
        for fut in futures:
            fut.cancel()
        client.close()
