"""The ``trickbook`` script's entry point (``pyproject.toml``, ``[project.scripts]``) and
``python -m trickbook``'s: it imports nothing but a little of the standard library
before it has made a Ctrl-C during the command's start-up (the seconds of importing
``trickbook.cli``: typer, rich, the model, numba; then typer's reading of the command line) a
sentence and exit 130. The script that imported ``trickbook.cli`` itself printed a Python
traceback, and one during typer's reading ended in exit 130 without a word."""

from __future__ import annotations

import signal
import sys
from typing import NoReturn

STARTING = "interrupted before starting: nothing changed"
INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (``trickbook.console.INTERRUPTED``)."""


def main() -> None:
    """Import the commands and run the one named on the command line; a Ctrl-C before it
    begins (while the commands are imported, or typer reads the command line: typer ends that
    in exit 130 and says nothing) says :data:`STARTING`, exit 130. One after that is the
    command's to say."""
    try:
        from trickbook.cli import app
        from trickbook.console import STARTED
    except KeyboardInterrupt:
        _interrupted()
    try:
        app(prog_name="trickbook")
    except SystemExit as exc:
        if exc.code == INTERRUPTED and not STARTED["command"]:
            _interrupted()
        raise


def _interrupted() -> NoReturn:
    """Say that nothing started and exit 130: a further Ctrl-C is ignored from here on, so the
    words are whole and the exit is not a traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.stderr.write(f"{STARTING}\n")
    sys.stderr.flush()
    sys.exit(INTERRUPTED)
