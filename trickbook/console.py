"""What the commands print to, their check that a database exists, and that an output file is
not one; how a command ends when its output cannot be written."""

from __future__ import annotations

import functools
import os
import re
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TextIO, cast

import typer
from rich.console import Console
from rich.progress import Progress, ProgressColumn

# no colours of rich's own on a line's numbers, quotes and paths: its highlighting coloured the
# "12" of a file's name and a summary's counts at random
out = Console(soft_wrap=True, highlight=False)
err = Console(stderr=True, soft_wrap=True, highlight=False)

INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as a shell gives it."""
UNWRITABLE = 2
"""The exit status when stdout cannot be written (a full disk), as when ``--out`` cannot."""


class Commands(typer.Typer):
    """A group of commands, each of which ends a Ctrl-C it does not handle itself as one line
    and exit 130 (:func:`interruptible`), and output it cannot write as :func:`output_checked`
    says."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], Any]:
        register = super().command(*args, **kwargs)

        def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
            register(interruptible(fn))
            return fn

        return decorator


STARTED = {"command": False}
"""Whether a command's body has begun (:func:`interruptible`): a Ctrl-C before that (while typer
reads the command line) is typer's silent exit 130, which ``trickbook/start.py`` says."""


def interruptible(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn``, ending in exit 130 and "interrupted" on Ctrl-C: the ``KeyboardInterrupt``, or
    DuckDB's word for it when it came inside a statement (``model.tables.interrupted``);
    before, "Aborted!" or "RuntimeError: Query interrupted" and exit 1. What the command did
    not commit is rolled back (DuckDB drops an open transaction with its connection). Its
    output is :func:`output_checked`."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        STARTED["command"] = True

        def checked() -> Any:
            with output_checked():
                return fn(*args, **kwargs)

        done, result = run_or_stop(checked)
        if done:
            return result
        err.print("interrupted: nothing it had not committed was kept")
        raise typer.Exit(INTERRUPTED) from result

    return run


def run_or_stop(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[bool, Any]:
    """``(True, fn(...))``, or ``(False, the stop)`` when a Ctrl-C ended it: the
    ``KeyboardInterrupt``, or DuckDB's stop of a statement it raised
    (``model.tables.interrupted``). Any other failure is raised, and a command's own exit
    (``typer.Exit``: a stop it has said) as it is, without asking ``model.tables`` (a Ctrl-C
    that cut the command's imports short may have left a library half-imported: importing it
    again failed, and the stop said became ``AttributeError``, exit 1)."""
    try:
        return True, fn(*args, **kwargs)
    except KeyboardInterrupt as exc:
        return False, exc
    except typer.Exit:
        raise
    except Exception as exc:
        from model.tables import interrupted

        if not interrupted(exc):
            raise
        return False, exc


class _Unwritable(Exception):
    """Writing to stdout failed; the ``OSError`` is the cause. Not an ``OSError`` itself: a
    command's own (a file it cannot read) stays an unexpected error, and typer's handler of a
    closed pipe (exit 1, said nowhere) does not take it."""


class _Output:
    """``sys.stdout`` while a command runs: an ``OSError`` of its ``write`` or ``flush`` is an
    :class:`_Unwritable`, whoever writes (``print``, ``csv.writer``, rich's console)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as exc:
            raise _Unwritable from exc

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            raise _Unwritable from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


@contextmanager
def output_checked() -> Iterator[None]:
    """A command's output to stdout, flushed at its end, ending as a Unix tool's does when it
    cannot be written: a reader that closed the pipe (``report --format csv | head -1``) ends
    the command quietly, exit 0 (the reader has what it wanted); any other failure (a full
    disk) is one line, ``cannot write to standard output: No space left on device``, and exit 2.
    What is left unwritten goes to ``os.devnull`` (Python's "Note on SIGPIPE"), so that the
    interpreter's last flush does not fail again."""
    stream = sys.stdout
    output = _Output(stream)
    sys.stdout = cast(TextIO, output)
    try:
        try:
            yield
        finally:
            output.flush()  # what is still buffered, so that its failure is met here
    except _Unwritable as exc:
        cause = exc.__cause__
        null = os.open(os.devnull, os.O_WRONLY)
        with suppress(OSError, ValueError):  # a stream without a file descriptor (a test's)
            os.dup2(null, stream.fileno())
        os.close(null)
        if isinstance(cause, BrokenPipeError):
            raise typer.Exit(0) from exc
        why = cause.strerror if isinstance(cause, OSError) and cause.strerror else cause
        err.print(f"cannot write to standard output: {why}", markup=False)
        raise typer.Exit(UNWRITABLE) from exc
    finally:
        sys.stdout = stream


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                      "\u202a-\u202e\u2066-\u2069]")
"""Control characters, and the Unicode ones that reorder or break a line: the bidirectional
controls (U+202E turns the rest of a terminal's line around) and the line and paragraph
separators."""


def shown(text: object) -> str:
    """``text`` for the terminal: a control character a file or its name holds (an escape
    sequence that would recolour or clear the screen, a NUL, a right-to-left override) is
    written as ``\\x1b``, ``\\u202e``."""
    return _CONTROL.sub(lambda m: _escaped(ord(m.group())), str(text))


def _escaped(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def one_line(text: object) -> str:
    """:func:`shown`, a line break or tab written as ``\\x0a`` too: a file's name or a message
    printed as one line of the report stays one (a name may hold a line break)."""
    return shown(text).replace("\t", "\\x09").replace("\n", "\\x0a")


SHOWN_CHARS = 500
"""Characters of a message an ingest's summary prints of each issue (``ingest.store.bounded``:
an issue quoting a value of megabytes is one line, not a screenful); the quarantine keeps it
whole (``trickbook report quarantine``)."""


def waiting_note(db: Path) -> Callable[[float], None]:
    """What a command says while another process holds ``db``'s lock (``ingest.store.connect``
    waits for it): once, so that a wait of up to 30 s is not silence."""
    said: list[bool] = []

    def waiting(_seconds: float) -> None:
        from ingest.store import LOCK_WAIT

        if not said:
            err.print(f"waiting for {db}: another process holds its lock (up to "
                      f"{LOCK_WAIT:.0f} s) ...", markup=False)
            said.append(True)

    return waiting


def progress_bar(*columns: str | ProgressColumn, disable: bool = False,
                 kept: bool = False) -> Progress:
    """A progress bar on stderr that is gone once done; off when stderr is not a terminal (a
    log file or a pipe), where it drew nothing but left an empty line. ``kept``: it stays, its
    last state a line of the log too (``simulate``'s rate)."""
    return _Bar(*columns, console=err, transient=not kept,
                disable=disable or not (kept or err.is_terminal))


class _Bar(Progress):
    """rich's bar, whose ``stop`` writes nothing when the bar never started: rich's ended a
    line on a stderr that is not a terminal, so an error met before the first deal
    (``simulate --players 7``) came after an empty line."""

    def stop(self) -> None:
        if self.live.is_started:
            super().stop()


def must_exist(db: Path) -> None:
    """Exit 2 naming ``db`` when there is no database there: a command that reads or rescores
    stored games does not make an empty one where a mistyped path points."""
    if not db.exists():
        err.print(f"no database at {one_line(db)} (run `trickbook ingest` first)", markup=False)
        raise typer.Exit(2)


def not_a_database(out_file: Path) -> None:
    """Exit 2 naming ``out_file`` when it is a DuckDB database (``--out`` of an export or a
    simulation, given the ``--db`` path by mistake, would overwrite every stored game); any other
    file is overwritten, as an output is."""
    from ingest.store import DUCKDB_MAGIC

    try:
        with out_file.open("rb") as fh:
            head = fh.read(12)
    except OSError:  # absent, a folder, unreadable: the write says why
        return
    if head[8:12] == DUCKDB_MAGIC:
        err.print(f"{one_line(out_file)} is a DuckDB database: --out does not overwrite one "
                  "(name a new file)", markup=False)
        raise typer.Exit(2)


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (``kill PID``, a service stopping) taken as Ctrl-C while the block runs: the
    command stops its workers and keeps what it keeps on Ctrl-C. Killed so before, a simulation
    left its worker processes running, blocked on a pipe to a parent that was gone. A worker
    forked meanwhile inherits the handler: there SIGTERM ends the process (how a pool stops
    its workers)."""
    owner = os.getpid()

    def as_ctrl_c(signum: int, _frame: object) -> None:
        if os.getpid() != owner:  # a worker forked meanwhile: stopped by its pool, it must end
            signal.signal(signum, signal.SIG_DFL)
            signal.raise_signal(signum)
        signal.raise_signal(signal.SIGINT)

    previous = signal.signal(signal.SIGTERM, as_ctrl_c)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
