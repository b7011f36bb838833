"""``dashboards.serve``: the command line and environment handed to ``streamlit run``."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboards.db import DB_ENV
from dashboards.filters import Filters
from dashboards.serve import APP, command, environment


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
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``dashboards.launch.warm_queries``: the first League page's queries come from the cache,
    under the same key the page uses, until the database is written (its version moves on)."""
    import os

    from dashboards import common, queries
    from dashboards.launch import LEAGUE_FIRST_RUN, warm_queries
    from tests.dashboards import fixture_db as fx

    db = fx.build_demo_like(tmp_path / "demo.duckdb")
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


@pytest.mark.parametrize("state", ["missing", "busy"])
def test_warm_queries_never_stop_the_server(
        state: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A missing database, or one a writer holds, leaves the cache empty without an error (the
    page then says what is wrong), and the warm-up does not wait for the writer."""
    import duckdb

    from dashboards import common
    from dashboards.db import RETRY_ENV
    from dashboards.launch import warm_queries
    from tests.dashboards import fixture_db as fx

    db = tmp_path / "x.duckdb"
    if state == "busy":
        fx.build_demo_like(db)
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
    import asyncio
    import socket

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
