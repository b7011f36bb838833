"""The ``trickbook`` script's entry point (``pyproject.toml``, ``[project.scripts]``) and
``python -m trickbook``'s: it imports nothing but a little of the standard library
before it has made a Ctrl-C during the command's start-up (the seconds of importing
``trickbook.cli``: typer, rich, the model, numba) a sentence and exit 130. The script that
imported ``trickbook.cli`` itself printed a Python traceback."""

from __future__ import annotations

import signal
import sys
from typing import NoReturn

STARTING = "interrupted before starting: nothing changed"
INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (``trickbook.console.INTERRUPTED``)."""


def main() -> None:
    """Import the commands and run the one named on the command line; a Ctrl-C before they
    are imported says :data:`STARTING`, exit 130. A Ctrl-C after that is the command's."""
    try:
        from trickbook.cli import app
    except KeyboardInterrupt:
        _interrupted()
    app(prog_name="trickbook")


def _interrupted() -> NoReturn:
    """Say that nothing started and exit 130: a further Ctrl-C is ignored from here on, so the
    words are whole and the exit is not a traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.stderr.write(f"{STARTING}\n")
    sys.stderr.flush()
    sys.exit(INTERRUPTED)
