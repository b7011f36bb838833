"""End to end in a real headless Chromium (Debian's ``chromium``; ``make browser-deps``).

Starts ``dashboards.serve`` on a free port against the fixture database, opens every page, clicks
through the replayer and saves screenshots under ``tests/out/`` (gitignored)."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboards.serve import command, environment
from tests.conftest import ROOT
from tests.dashboards import fixture_db as fx

CHROMIUM = Path("/usr/bin/chromium")
OUT = ROOT / "tests" / "out"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason=f"{CHROMIUM} is absent: install Debian's chromium "
                              "(`make browser-deps`)"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from sim.balance import store_study, study

    db = fx.build(tmp_path_factory.mktemp("browser") / "fixture.duckdb")
    store_study(db, study("greek-prefa", {}, {"four_aces": "fixed_chips"}, 30, 10, seed=3,
                          workers=1))  # for the Balance page
    port = _free_port()
    log = (tmp_path_factory.getbasetemp() / "streamlit.log").open("w")
    proc = subprocess.Popen(command(port), env=environment(db), stdout=log,
                            stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"streamlit did not start (exit {proc.poll()}); see {log.name}")
                time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser_page(server: str):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(60_000)
        yield page
        browser.close()


def _open(page, url: str, title: str) -> None:
    page.goto(url)
    page.get_by_role("heading", name=title, exact=True).wait_for()
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1500)  # let charts draw before the screenshot


def _shot(page, name: str) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"browser_{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.mark.parametrize(
    ("path", "title", "must_show"),
    [
        ("", "League", "Standings"),
        ("player?player=Boris", "Player", "As declarer, by contract"),
        ("contracts", "Contracts", "Deals behind a cell"),
        ("balance", "Balance", "Declarer success by contract"),
        ("quality", "Data quality", "Quarantine"),
        ("upload", "Upload", "at most 20 MB"),
    ],
)
def test_every_page_opens(browser_page, server: str, path: str, title: str,
                          must_show: str) -> None:
    _open(browser_page, f"{server}/{path}", title)
    # wait (up to the page's default timeout) rather than sample once: a loaded machine may
    # still be running the page's script when the heading appears
    browser_page.get_by_text(must_show).first.wait_for(state="visible")
    # a direct link still runs through st.navigation: the named pages are in the sidebar
    nav = browser_page.locator("[data-testid='stSidebarNav']")
    nav.get_by_text("Hand replayer").wait_for(state="visible")
    assert browser_page.locator("[data-testid='stException']").count() == 0
    assert _shot(browser_page, path.split("?")[0] or "league").stat().st_size > 10_000


def test_replayer_click_through(browser_page, server: str) -> None:
    page = browser_page
    _open(page, f"{server}/replayer?league={fx.LEAGUE7.replace(' ', '+')}", "Hand replayer")
    page.get_by_text("After 0 of 10 tricks").wait_for()
    forward = page.get_by_role("button", name="Forward ▶")
    for step in range(1, 4):
        forward.click()
        page.get_by_text(f"After {step} of 10 tricks").wait_for()
    _shot(page, "replayer_trick3")
    page.get_by_role("button", name="◀ Back").click()
    page.get_by_text("After 2 of 10 tricks").wait_for()
    page.get_by_text("Trick 2").first.wait_for(state="visible")  # raises if it never shows
    assert page.locator("[data-testid='stException']").count() == 0
    _shot(page, "replayer_trick2")


def test_upload_through_the_browser(browser_page, server: str, tmp_path: Path) -> None:
    """Binary garbage is refused with a message; a valid file is ingested and counted."""
    page = browser_page
    _open(page, f"{server}/upload", "Upload")
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(bytes(range(256)) * 8)
    page.locator("input[type=file]").set_input_files(str(garbage))
    page.get_by_role("button", name="Ingest").click()
    page.locator("[data-testid='stAlert']").filter(has_text="not a text file").wait_for()
    _shot(page, "upload_refused")
    good = tmp_path / "club.jsonl"
    good.write_text(
        '{"record": "game", "game_id": "browser/1", "variant": "greek-prefa", '
        '"players": ["Ana", "Ben", "Cy"]}\n'
        '{"record": "deal", "game_id": "browser/1", "deal_no": 1, "dealer": "Ana"}\n'
    )
    page.locator("input[type=file]").set_input_files(str(good))
    page.get_by_role("button", name="Ingest").click()
    page.locator("[data-testid='stAlert']").filter(
        has_text="club.jsonl: 2 records, 2 stored").wait_for()
    _shot(page, "upload_stored")
