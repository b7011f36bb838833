"""The Streamlit server with the dashboards' modules already imported (``dashboards.serve``).

``python -m dashboards.launch run APP ...`` is ``streamlit run APP ...`` in a process that has
done at its start what the first page a server shows would otherwise pay for (several seconds of
CPU on the 2-core development machine, under load): the imports of the query, drawing and chart
modules and of pandas (Streamlit converts every table and chart to pandas and Arrow), of the
Streamlit modules a first page loads (the material icons' names, the table adapters), an
in-memory DuckDB connection (the first of a process loads the time zone and JSON support every
page's connection uses), and Streamlit's once-per-process check whether it runs in a REPL (a
walk of the whole call stack through ``inspect.stack``, pointless under ``streamlit run``). Last,
everything imported so far is moved out of the garbage collector's sight (``gc.freeze``): a
full collection walking the objects of pandas, polars and DuckDB cost about 0.35 s of
CPU, during which the server (one Python thread at a time) answers nothing else, and Python
still runs full collections as objects accumulate (Streamlit's own after every run of a page is
switched off, :mod:`dashboards.serve`). Before all that, the League page's queries for the
default filters (the sidebar's options, the headline, the standings) are run through the pages'
query cache (:func:`warm_queries`), so the first visitor's page reads them from memory. The
server's connections send each write at once (:func:`send_at_once`), and Streamlit's own scripts,
styles and fonts are answered from memory ahead of its middleware (:class:`HashedFiles`).
"""

from __future__ import annotations

import faulthandler
import gc
import logging
import mimetypes
import signal
import socket
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import duckdb
import pandas  # noqa: F401  (Streamlit turns tables into pandas and Arrow)
import pyarrow  # noqa: F401  (imported for its load time, like the modules below)
import streamlit.dataframe.lazy_df_adapters  # (a page's first table)
import streamlit.material_icon_names  # noqa: F401  (the pages' icons, checked every run)
from streamlit import delta_generator, file_util
from streamlit.runtime.caching import cache_data_api
from streamlit.web import cli
from streamlit.web.server.starlette import starlette_server
from streamlit.web.server.starlette.starlette_server_config import (
    STATIC_ASSET_CACHE_MAX_AGE_SECONDS,
)

import dashboards.queries
import dashboards.render
import dashboards.replay
import dashboards.review
import dashboards.sheets
import dashboards.text
import dashboards.uploads  # noqa: F401

# Declaring a cache (``dashboards.common``) before the server runs logs that Streamlit keeps it in
# memory, as the server's default cache storage does too: not worth a line at every start.
_CACHING_LOG = logging.getLogger(cache_data_api.__name__)
_LOG_LEVEL = _CACHING_LOG.level
_CACHING_LOG.setLevel(logging.ERROR)
from dashboards.common import query  # noqa: E402
from dashboards.db import one_per_run  # noqa: E402
from dashboards.filters import Filters  # noqa: E402

_CACHING_LOG.setLevel(_LOG_LEVEL)

LEAGUE_FIRST_RUN = (("variants",), ("leagues", Filters()), ("players", Filters()),
                    ("overview", Filters()), ("league_standings", Filters()),
                    ("unsettled_games", Filters()))
"""The queries of a first League page with no filter (``filters`` and ``views/league.py``)."""


def warm_queries() -> None:
    """Run :data:`LEAGUE_FIRST_RUN` through the pages' cache (:func:`dashboards.common.query`,
    keyed on the database's version, so a later write still shows). The file is opened
    read-only once, without waiting for a writer's lock; a missing, busy or unreadable database
    (or any other failure) leaves the cache empty and the pages say what is wrong as usual."""
    _CACHING_LOG.setLevel(logging.ERROR)  # the same line, for the cache's first use
    try:
        with one_per_run(retry_seconds=0.0):
            for name, *args in LEAGUE_FIRST_RUN:
                query(name, *args)
    except Exception:  # a warm-up must never stop the server from starting
        return
    finally:
        _CACHING_LOG.setLevel(_LOG_LEVEL)


_STREAMLIT_BIND = getattr(starlette_server, "_bind_socket", None)


def _bind_tcp(*args: Any, **kwargs: Any) -> socket.socket:
    """Streamlit's listening socket, the same descriptor, its protocol read as TCP."""
    assert _STREAMLIT_BIND is not None
    sock: socket.socket = _STREAMLIT_BIND(*args, **kwargs)
    if sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.proto == socket.IPPROTO_TCP:
        return sock
    tcp = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
    tcp.setblocking(False)
    return tcp


def send_at_once() -> None:
    """Turn Nagle's algorithm off on the server's connections, as asyncio means to.

    Streamlit binds its listening socket itself (``starlette_server._bind_socket``) with the
    protocol left at 0, every accepted connection copies that, and asyncio sets
    ``TCP_NODELAY`` only on a socket whose protocol reads ``IPPROTO_TCP``. So a response
    written in two parts (its headers, then its body) waited for the browser's delayed
    acknowledgement: about 40 ms for every static file after the first on a kept-alive
    connection (a first page fetches about 120 of them over six), and the same for the
    websocket's messages. The listener is handed on as the same descriptor labelled TCP.
    Should Streamlit's function move, nothing changes."""
    if _STREAMLIT_BIND is not None:
        starlette_server._bind_socket = _bind_tcp  # type: ignore[attr-defined]


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
                   Awaitable[None]]
Headers = list[tuple[bytes, bytes]]
IMMUTABLE = f"public, immutable, max-age={STATIC_ASSET_CACHE_MAX_AGE_SECONDS}".encode("latin-1")


class HashedFiles:
    """Streamlit's files under ``static/`` (its scripts, styles and fonts, each name carrying a
    hash of its content), answered from memory before any of Streamlit's middleware runs.

    A first page fetches about 120 of them. Through Streamlit's stack (path checks, the session
    cookie, the compression choice, the router, a file opened and read on a worker thread) each
    cost the server about 1.5 ms of CPU, and a cold page about 0.2 s of the server's Python (one
    thread at a time, the page's run among them). Here a file is read once, at its first
    request, and answered with the headers Streamlit gives it (its type, its length, cached as
    immutable). A request for anything else (the page itself, the websocket, a range, another
    method, a path under a base URL, a file that can no longer be read) goes to Streamlit
    unchanged."""

    def __init__(self, app: ASGIApp, folder: Path) -> None:
        self.app = app
        self.folder = folder
        self.names = {"/" + path.relative_to(folder).as_posix()
                      for path in (folder / "static").rglob("*") if path.is_file()}
        self.answers: dict[str, tuple[bytes, Headers]] = {}

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        path = scope.get("path", "")
        if (scope["type"] != "http" or scope["method"] != "GET" or path not in self.names
                or any(name.lower() == b"range" for name, _ in scope.get("headers", ()))):
            await self.app(scope, receive, send)
            return
        try:
            body, headers = self._answer(path)
        except OSError:  # gone since the server started: Streamlit says what it says
            await self.app(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _answer(self, path: str) -> tuple[bytes, Headers]:
        """The file's bytes and headers, read at its first request."""
        if path not in self.answers:
            body = (self.folder / path.lstrip("/")).read_bytes()
            kind = mimetypes.guess_type(path)[0] or "text/plain"  # as Starlette's FileResponse
            if kind.startswith("text/"):
                kind += "; charset=utf-8"
            self.answers[path] = (body, [
                (b"content-type", kind.encode("latin-1")),
                (b"content-length", str(len(body)).encode("latin-1")),
                (b"cache-control", IMMUTABLE)])
        return self.answers[path]


_STREAMLIT_APP = getattr(starlette_server, "create_starlette_app", None)


def _app_with_hashed_files(*args: Any, **kwargs: Any) -> ASGIApp:
    assert _STREAMLIT_APP is not None
    return HashedFiles(_STREAMLIT_APP(*args, **kwargs), Path(file_util.get_static_dir()))


def answer_hashed_files() -> None:
    """Put :class:`HashedFiles` in front of the app Streamlit's server builds. Should Streamlit's
    function move, nothing changes."""
    if _STREAMLIT_APP is not None:
        starlette_server.create_starlette_app = _app_with_hashed_files  # type: ignore[assignment]


def warm_up() -> None:
    """What the first page would do once per process, done before the server listens."""
    con = duckdb.connect()  # in memory: the database file is not touched (nor locked)
    try:
        con.execute("SET TimeZone = 'UTC'")
        con.execute("""SELECT json_extract('{"deal": 1}', '$.deal')""").fetchall()
    finally:
        con.close()
    # Streamlit's warning for a script run without ``streamlit run``: shown at most once per
    # process, and its check walks the call stack; this process is ``streamlit run``.
    if hasattr(delta_generator, "_use_warning_has_been_displayed"):
        delta_generator._use_warning_has_been_displayed = True
    gc.collect()
    gc.freeze()  # the modules' objects live as long as the process: never collect them again


def stacks_on_sigusr1() -> None:
    """``kill -USR1 <pid>`` makes the server write every thread's stack to its log (stderr):
    what a server that stopped answering is doing, without stopping it."""
    if hasattr(signal, "SIGUSR1"):
        faulthandler.register(signal.SIGUSR1, all_threads=True)


if __name__ == "__main__":
    stacks_on_sigusr1()
    send_at_once()
    answer_hashed_files()
    warm_queries()
    warm_up()
    sys.exit(cli.main(prog_name="streamlit"))
