"""``dashboards.serve``: the command line and environment handed to ``streamlit run``."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboards.db import DB_ENV
from dashboards.serve import APP, command, environment


def test_command_runs_the_app_on_the_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKBOOK_UPLOAD_MAX_MB", "7")
    cmd = command(8765)
    assert cmd[1:4] == ["-m", "dashboards.launch", "run"] and cmd[4] == str(APP)
    assert cmd[cmd.index("--server.port") + 1] == "8765"
    assert cmd[cmd.index("--server.maxUploadSize") + 1] == "7"
    assert cmd[cmd.index("--client.toolbarMode") + 1] == "viewer"  # no Deploy button
    assert cmd[cmd.index("--runner.magicEnabled") + 1] == "false"  # no page needs it
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
