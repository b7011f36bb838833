"""A pool worker's tie to the process that runs the pool (``sim.pool.pool_imap``): the worker
ends soon after that process ends, however it ends.

A process killed with SIGKILL runs no clean-up, and a worker forked from the fork server
holds both ends of the pool's pipes (its call queue never reads an end of file) and the end of
the server's "alive" pipe that the server waits on: left alone, the workers would wait for work
for ever, the fork server for them, and multiprocessing's resource tracker for both. So each
worker watches the pool's process (:func:`serve`) and, once it is gone, ends itself; the fork
server then reads the end of its "alive" pipe and ends, and so does the resource tracker.

The watch is a thread that waits, without waking, on a pidfd of the pool's process (Linux
5.3 and later; elsewhere it asks every :data:`POLL` seconds), so a normal run pays nothing
for it. It needs the interpreter's lock to end the worker, which any Python code and every
call that waits or reads gives up within milliseconds. Only the standard library is imported
here: a worker started afresh (``spawn``) unpickles its initializer from this module alone.
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time

POLL = 1.0
"""Seconds between two looks at the pool's process where there is no pidfd to wait on."""
ORPHANED = 70
"""A worker's exit status when it ends because the pool's process is gone (EX_SOFTWARE)."""


def serve(pool_pid: int) -> None:
    """A pool worker's initializer: Ctrl-C ignored (the pool's process alone answers it), and
    the worker bound to ``pool_pid``, the process that runs the pool (:func:`bind`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    bind(pool_pid)


def bind(pid: int) -> None:
    """End this process (``os._exit``, :data:`ORPHANED`) soon after process ``pid`` ends; at
    once if it has ended already."""
    try:
        fd: int | None = os.pidfd_open(pid)
    except ProcessLookupError:
        os._exit(ORPHANED)
    except (AttributeError, OSError):  # no pidfd here (not Linux, or a kernel before 5.3)
        fd = None
    threading.Thread(target=_watch, args=(pid, fd), name="lifeline", daemon=True).start()


def _watch(pid: int, fd: int | None) -> None:
    """Wait for process ``pid`` to end (on its pidfd ``fd``, readable from then on, or by
    asking every :data:`POLL` seconds), then end this process."""
    if fd is not None:
        ended = select.poll()  # (select.select takes no descriptor past 1023)
        ended.register(fd, select.POLLIN)
        while not ended.poll():
            pass
    else:
        while _running(pid):
            time.sleep(POLL)
    os._exit(ORPHANED)


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and has not ended (a process ended but not yet waited
    for by its parent is a zombie, which ``kill(pid, 0)`` still finds)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return True
