"""Serve the dashboards: ``main(db, port)`` runs ``streamlit run dashboards/app.py`` (through
``dashboards.launch``, which imports the dashboards' modules before the first page).

The database path reaches the app through ``$TRICKBOOK_DB``; the upload bound through
``--server.maxUploadSize`` (the browser refuses larger files) and ``$TRICKBOOK_UPLOAD_MAX_MB``
(the page checks again). ``trickbook dashboard --db FILE --port N`` calls :func:`main`.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import FrameType

from dashboards.db import DB_ENV
from dashboards.uploads import UPLOAD_MAX_ENV, max_upload_mb

APP = Path(__file__).with_name("app.py")


def command(port: int, headless: bool = True, app: Path = APP) -> list[str]:
    """The ``streamlit run`` command line (``dashboards.launch``: Streamlit's own command with the
    dashboards' modules imported first) of ``app`` (the dashboards)."""
    return [
        sys.executable, "-m", "dashboards.launch", "run", str(app),
        "--server.port", str(port),
        "--server.headless", "true" if headless else "false",
        "--server.maxUploadSize", str(max_upload_mb()),
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        "--client.toolbarMode", "viewer",  # no Deploy button or developer menu for users
        # A bug a page does not catch (``common.guarded`` says the expected ones) shows its
        # kind only: no message, traceback or server path; the server's log has them.
        "--client.showErrorDetails", "type",
        # No page draws a bare expression (tests/dashboards/test_pages.py): skip rewriting each
        # page's syntax tree for Streamlit's magic when the page is first compiled.
        "--runner.magicEnabled", "false",
        # No full garbage collection after every run: it holds the interpreter lock while the
        # run's last messages wait to be sent (``dashboards.launch`` freezes the long-lived
        # objects, and Python's own collections still run as objects accumulate).
        "--runner.postScriptGC", "false",
    ]


def environment(db: Path) -> dict[str, str]:
    env = dict(os.environ)
    env[DB_ENV] = str(Path(db).resolve())
    env[UPLOAD_MAX_ENV] = str(max_upload_mb())
    return env


def free_port() -> int:
    """A port of this machine no one listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def answers(url: str, proc: subprocess.Popen[bytes], seconds: float) -> bool:
    """Whether the server ``proc`` started answers its health check at ``url`` before it ends or
    ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as r:
                if r.status == 200:
                    return True
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                return False
            time.sleep(0.1)


TERMINATED = 128 + signal.SIGTERM
"""The exit code of :func:`main` stopped by SIGTERM (the shell's 143)."""


def main(db: Path, port: int = 8501) -> int:
    """Serve until interrupted; returns streamlit's exit code (0 on Ctrl-C). SIGTERM stops the
    server with us (``subprocess.call`` kills it as :class:`Terminated` unwinds it) and returns
    :data:`TERMINATED`."""
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        return subprocess.call(command(port), env=environment(db))
    except KeyboardInterrupt:
        return 0
    except Terminated:
        return TERMINATED
    finally:
        signal.signal(signal.SIGTERM, previous)


class Terminated(Exception):
    """SIGTERM while the dashboards run."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Terminated(f"signal {signum}")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="serve the trickbook dashboards")
    parser.add_argument("--db", type=Path, default=Path("data/trickbook.duckdb"))
    parser.add_argument("--port", type=int, default=8501)
    args = parser.parse_args()
    raise SystemExit(main(args.db, args.port))
