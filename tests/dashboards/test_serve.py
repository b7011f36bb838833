"""``dashboards.serve``: the command line and environment handed to ``streamlit run``."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from dashboards.db import DB_ENV
from dashboards.filters import Filters
from dashboards.serve import APP, command, environment
from tests.conftest import ROOT


def test_command_runs_the_app_on_the_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKBOOK_UPLOAD_MAX_MB", "7")
    cmd = command(8765)
    assert cmd[1:4] == ["-m", "dashboards.launch", "run"] and cmd[4] == str(APP)
    assert cmd[cmd.index("--server.port") + 1] == "8765"
    assert cmd[cmd.index("--server.maxUploadSize") + 1] == "7"
    assert cmd[cmd.index("--client.toolbarMode") + 1] == "viewer"  # no Deploy button
    assert cmd[cmd.index("--runner.magicEnabled") + 1] == "false"  # no page needs it
    assert cmd[cmd.index("--runner.postScriptGC") + 1] == "false"  # launch freezes the heap
    assert APP.is_file()


def test_a_bug_on_a_page_shows_its_kind_only() -> None:
    """A page's uncaught exception (a bug; code changed under a running server) showed its
    message and traceback, with the server's paths. The served option shows its kind only,
    as Streamlit marshals an uncaught exception under it."""
    from streamlit import config
    from streamlit.elements.exception import marshall
    from streamlit.proto.Exception_pb2 import Exception as ExceptionProto

    cmd = command(8765)
    previous = config.get_option("client.showErrorDetails")
    config.set_option("client.showErrorDetails", cmd[cmd.index("--client.showErrorDetails") + 1])
    try:
        try:
            raise AttributeError("/srv/club/dashboards/queries.py has no attribute 'x'")
        except AttributeError as exc:
            proto = ExceptionProto()
            marshall(proto, exc, apply_show_error_details=True)
    finally:
        config.set_option("client.showErrorDetails", previous)
    assert proto.type == "AttributeError"
    assert "/srv/club" not in str(proto) and not proto.stack_trace


def test_environment_passes_the_absolute_db(tmp_path: Path) -> None:
    env = environment(Path("rel/x.duckdb"))
    assert Path(env[DB_ENV]).is_absolute() and env[DB_ENV].endswith("rel/x.duckdb")


def test_warm_up_does_the_first_page_s_once_only_work() -> None:
    """``dashboards.launch.warm_up``: Streamlit's REPL check is marked done (no stack walk in
    the first page), an Altair chart converts without error in the server's process, and the
    objects of the imported modules are frozen out of the collector's walk."""
    import gc

    from streamlit import delta_generator

    from dashboards.launch import warm_up

    try:
        warm_up()
        assert delta_generator._use_warning_has_been_displayed is True
        assert gc.get_freeze_count() > 100_000  # pandas, polars, Altair, DuckDB, Streamlit
    finally:
        gc.unfreeze()  # this is a test process, not the server


def _refuse(name: str):
    def refused(*_args: object) -> None:
        raise AssertionError(f"queries.{name} ran: the warm-up did not fill the cache")
    return refused


def test_warm_queries_fill_the_cache_of_the_first_league_page(
        demo_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``dashboards.launch.warm_queries``: the first League page's queries come from the cache,
    under the same key the page uses, until the database is written (its version moves on)."""
    import os

    from dashboards import common, queries
    from dashboards.launch import LEAGUE_FIRST_RUN, warm_queries

    db = tmp_path / "demo.duckdb"  # a copy: its time is moved on below
    shutil.copyfile(demo_path, db)
    monkeypatch.setenv(DB_ENV, str(db))
    common._cached.clear()
    warm_queries()
    for name, *_ in LEAGUE_FIRST_RUN:
        monkeypatch.setattr(queries, name, _refuse(name))
    # as ``common.filters`` and the page build them
    assert common.query("overview", Filters(None, None, None, None, None)) is not None
    assert common.query("variants") is not None
    later = os.stat(db).st_mtime + 5
    os.utime(db, (later, later))  # as a write would
    with pytest.raises(AssertionError, match=r"queries\.overview ran"):
        common.query("overview", Filters())
    common._cached.clear()


def test_the_first_league_page_runs_no_query_of_its_own(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every query of a first League page with no filter is in the warm-up
    (``LEAGUE_FIRST_RUN``): after it, the page runs none itself (a query added to the page and
    not to the warm-up ran cold for the first visitor)."""
    from streamlit.testing.v1 import AppTest

    from dashboards import common, queries
    from dashboards.launch import warm_queries
    from tests.dashboards.test_pages import PAGES

    monkeypatch.setenv(DB_ENV, str(demo_path))
    common._cached.clear()
    warm_queries()
    for name in [n for n in vars(queries) if not n.startswith("_")]:
        if callable(fn := getattr(queries, name)) and getattr(fn, "__module__", "") == \
                queries.__name__:
            monkeypatch.setattr(queries, name, _refuse(name))
    at = AppTest.from_file(str(PAGES / "league.py"), default_timeout=60).run()
    common._cached.clear()
    assert not at.exception, at.exception


@pytest.mark.parametrize("state", ["missing", "busy"])
def test_warm_queries_never_stop_the_server(
        state: str, demo_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A missing database, or one a writer holds, leaves the cache empty without an error (the
    page then says what is wrong), and the warm-up does not wait for the writer."""
    import duckdb

    from dashboards import common
    from dashboards.db import RETRY_ENV
    from dashboards.launch import warm_queries

    db = tmp_path / "x.duckdb"
    if state == "busy":  # a copy: a writer holds it below
        shutil.copyfile(demo_path, db)
    monkeypatch.setenv(DB_ENV, str(db))
    monkeypatch.setenv(RETRY_ENV, "600")  # a wait would hang the test
    common._cached.clear()
    writer = duckdb.connect(str(db)) if state == "busy" else None
    try:
        warm_queries()
    finally:
        if writer is not None:
            writer.close()
    if state == "missing":
        with pytest.raises(common.PageError, match="no database"):
            common.query("variants")
    else:
        assert not common.query("variants").is_empty()  # read now, not an empty cached answer
    common._cached.clear()


def test_the_server_s_connections_send_each_write_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``dashboards.launch.send_at_once``: a connection accepted on Streamlit's listening socket
    gets ``TCP_NODELAY`` from asyncio, as uvicorn serves it (``create_server(sock=...)``), and
    the listener stays non-blocking and inheritable."""
    from streamlit.web.server.starlette import starlette_server

    from dashboards.launch import send_at_once

    monkeypatch.setattr(starlette_server, "_bind_socket", starlette_server._bind_socket)
    send_at_once()
    listener = starlette_server._bind_socket("127.0.0.1", 0, 8)
    assert not listener.getblocking() and listener.get_inheritable()

    async def accepted_nodelay() -> int:
        accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Report(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                accepted.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        server = await asyncio.get_running_loop().create_server(Report, sock=listener)
        try:
            _, writer = await asyncio.open_connection(*listener.getsockname()[:2])
            value = await asyncio.wait_for(accepted, 30)
            writer.close()
            return value
        finally:
            server.close()

    assert asyncio.run(accepted_nodelay()) != 0


def _asgi_get(app, path: str, headers: tuple = (), method: str = "GET") -> tuple[int, dict, bytes]:
    """``app``'s answer to one HTTP request: status, headers, body."""
    sent: list[dict] = []
    requests = [{"type": "http.request", "body": b"", "more_body": False}]
    done = asyncio.Event()

    async def receive() -> dict:  # the request, then a disconnect once the answer is sent
        if requests:
            return requests.pop()
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            done.set()

    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(),
             "root_path": "", "query_string": b"", "headers": list(headers),
             "scheme": "http", "server": ("127.0.0.1", 8501), "http_version": "1.1"}

    async def answer() -> None:
        await app(scope, receive, send)
        done.set()

    asyncio.run(answer())
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body


def test_streamlit_s_hashed_files_are_answered_from_memory_as_streamlit_answers_them() -> None:
    """``dashboards.launch.HashedFiles``: a script, a style and a font under ``static/`` get the
    bytes, type and caching Streamlit's own handler gives them, without reaching it; the page
    itself, an unknown or escaping path, a file gone since the start, a range and another method
    go to Streamlit."""
    from streamlit import file_util
    from streamlit.web.server.starlette.starlette_static_routes import (
        create_streamlit_static_handler,
    )

    from dashboards.launch import HashedFiles

    folder = Path(file_util.get_static_dir())
    streamlit = create_streamlit_static_handler(str(folder), None)
    reached: list[str] = []

    async def behind(scope, receive, send) -> None:
        reached.append(scope["path"])
        await streamlit(scope, receive, send)

    app = HashedFiles(behind, folder)
    for pattern in ("static/js/index.*.js", "static/css/index.*.css", "static/media/*.woff2"):
        asset = path = "/" + next(folder.glob(pattern)).relative_to(folder).as_posix()
        status, headers, body = _asgi_get(app, path)
        _, theirs, their_body = _asgi_get(streamlit, path)
        assert (status, body) == (200, their_body) and body
        for name in ("content-type", "content-length", "cache-control"):
            assert headers[name] == theirs[name], (path, name)
        assert _asgi_get(app, path)[2] == body  # the second answer comes from memory
    assert reached == []
    index = (folder / "index.html").read_bytes()
    app.names.add("/static/js/gone.js")  # listed at the start, since removed
    for path, extra in [("/", {}), ("/static/js/nothere.js", {}), ("/static/../index.html", {}),
                        ("/static/js/gone.js", {}),
                        (asset, {"headers": ((b"range", b"bytes=0-9"),)}),
                        (asset, {"method": "HEAD"})]:
        reached.clear()
        _asgi_get(app, path, **extra)
        assert reached == [path], path
    assert _asgi_get(app, "/")[2] == index


def test_answer_hashed_files_puts_them_in_front_of_streamlit_s_app(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.web.server.starlette import starlette_server

    from dashboards import launch

    async def app(scope, receive, send) -> None:  # Streamlit's app, as built for a runtime
        pass

    monkeypatch.setattr(launch, "_STREAMLIT_APP", lambda runtime: app)
    monkeypatch.setattr(starlette_server, "create_starlette_app",
                        starlette_server.create_starlette_app)
    launch.answer_hashed_files()
    built = starlette_server.create_starlette_app(object())
    assert isinstance(built, launch.HashedFiles) and built.app is app


def test_sigusr1_writes_every_thread_s_stack_and_the_server_goes_on() -> None:
    """``kill -USR1`` on a server that stopped answering says what each thread is doing
    (docs/dashboards.md), and the process goes on."""
    code = ("import os, signal, threading, time\n"
            "from dashboards.launch import stacks_on_sigusr1\n"
            "stacks_on_sigusr1()\n"
            "def waiting_page():\n"
            "    time.sleep(30)\n"
            "threading.Thread(target=waiting_page, daemon=True).start()\n"
            "time.sleep(0.5)\n"
            "os.kill(os.getpid(), signal.SIGUSR1)\n"
            "print('still running', flush=True)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0 and done.stdout == "still running\n"
    assert "waiting_page" in done.stderr and "Current thread" in done.stderr
