"""Who may write (``dashboards/gate.py``, ``common.write_gate``): Streamlit's login as the write
gate of the Upload and Entry pages, alone and with the club's write token (issue 17, "Score entry
for clubs": writing needs a club write token or Streamlit's login; viewing stays open).

A configured ``[auth]`` shows in ``st.user`` as its ``is_logged_in`` key (Streamlit's
``UserInfoProxy``: absent when the login is not configured); AppTest seeds ``st.user`` from
``AppTest.user``, so a logged-out, a logged-in and an unlisted user are tested without a provider.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import gate
from dashboards.db import DB_ENV
from dashboards.text import md
from tests.dashboards.conftest import table_counts
from tests.dashboards.test_pages import PAGES

WRITER = {"is_logged_in": True, "email": "Scorer@Club.example", "name": "Scorer"}
OPEN = {"upload": "file_uploader", "entry": "selectbox"}
"""What each writing page draws only once the user may write."""


def visit(name: str, db: Path, monkeypatch: pytest.MonkeyPatch, user: dict[str, Any],
          secrets: dict[str, Any] | None = None) -> AppTest:
    monkeypatch.setenv(DB_ENV, str(db))
    at = AppTest.from_file(str(PAGES / f"{name}.py"), default_timeout=60)
    at.user = user
    if secrets:
        at.secrets = secrets
    return at.run()


def test_login_verdicts() -> None:
    assert gate.login({"email": "a@b"}, None) == "off"  # no [auth]: st.user has no is_logged_in
    assert gate.login({"is_logged_in": False}, None) == "out"
    assert gate.login(WRITER, None) == "writer"
    assert gate.login(WRITER, frozenset({"scorer@club.example"})) == "writer"  # case ignored
    assert gate.login(WRITER, frozenset({"other@club.example"})) == "not a writer"
    assert gate.login({"is_logged_in": True}, frozenset({"other@club.example"})) == "not a writer"


def test_writers_from_the_environment_or_the_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(gate.WRITERS_ENV, raising=False)
    assert gate.writers(None) is None and gate.writers({}) is None
    secrets = {"trickbook": {"writers": ["A@x.org", " b@x.org "]}}
    assert gate.writers(secrets) == {"a@x.org", "b@x.org"}
    assert gate.writers({"trickbook": {"writers": "c@x.org"}}) == {"c@x.org"}
    monkeypatch.setenv(gate.WRITERS_ENV, "d@x.org, E@x.org,")
    assert gate.writers(secrets) == {"d@x.org", "e@x.org"}  # the environment wins


@pytest.mark.parametrize("name", ["upload", "entry"])
def test_a_logged_out_user_sees_a_login_button_and_cannot_write(
        name: str, fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRICKBOOK_WRITE_TOKEN", raising=False)
    before = table_counts(fixture_copy)
    at = visit(name, fixture_copy, monkeypatch, {"is_logged_in": False})
    assert not at.exception
    assert not at.get(OPEN[name]) and not at.get("text_input")  # no form, no token box
    assert [b.label for b in at.button] == ["Log in"]
    assert any("needs a club member's login" in i.value for i in at.info)
    assert table_counts(fixture_copy) == before


@pytest.mark.parametrize("name", ["upload", "entry"])
def test_a_logged_in_writer_may_write(name: str, fixture_copy: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRICKBOOK_WRITE_TOKEN", raising=False)
    monkeypatch.setenv(gate.WRITERS_ENV, "scorer@club.example")
    at = visit(name, fixture_copy, monkeypatch, WRITER)
    assert not at.exception and at.get(OPEN[name])
    assert any(f"Writing as {md(WRITER['email'])}" in c.value for c in at.caption)


def test_an_unlisted_user_is_refused(fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRICKBOOK_WRITE_TOKEN", raising=False)
    monkeypatch.delenv(gate.WRITERS_ENV, raising=False)
    secrets = {"trickbook": {"writers": ["treasurer@club.example"]}}
    at = visit("entry", fixture_copy, monkeypatch, WRITER, secrets)
    assert not at.exception and not at.get("selectbox")
    assert any("is not among the club's writers" in w.value for w in at.warning)
    assert [b.label for b in at.button] == ["Log out"]


def test_with_login_and_token_either_opens_the_page(fixture_copy: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKBOOK_WRITE_TOKEN", "s3cret")
    monkeypatch.delenv(gate.WRITERS_ENV, raising=False)
    at = visit("upload", fixture_copy, monkeypatch, {"is_logged_in": False})
    assert not at.get("file_uploader") and [b.label for b in at.button] == ["Log in"]
    at.text_input(key="upload_token").input("wrong").run()
    assert not at.get("file_uploader")
    at.text_input(key="upload_token").input("s3cret").run()
    assert not at.exception and at.get("file_uploader")
    assert visit("upload", fixture_copy, monkeypatch, WRITER).get("file_uploader")


def test_viewing_stays_open(fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = visit("league", fixture_copy, monkeypatch, {"is_logged_in": False})
    assert not at.exception and at.dataframe and not at.button  # the standings, no login


def test_a_login_that_cannot_start_is_said_not_raised(fixture_copy: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``st.login`` refuses (no ``[auth]`` provider Streamlit can use here: Authlib missing or the
    section incomplete): the page says why instead of showing a traceback."""
    monkeypatch.delenv("TRICKBOOK_WRITE_TOKEN", raising=False)
    at = visit("upload", fixture_copy, monkeypatch, {"is_logged_in": False})
    at.button(key="upload_token_login").click().run()
    assert not at.exception
    assert any("The login is not available" in e.value for e in at.error)
    assert not at.get("file_uploader")
