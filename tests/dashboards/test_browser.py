"""End to end in a real headless Chromium (Debian's ``chromium``; ``make browser-deps``).

One browser for the module and two servers (``dashboards.serve``): the demo-like database
(``fixture_db.build_demo_like``: the fixture, every sample file, a conceded Greek deal) and an
empty one. Every page is opened for every variant and for "(all)" (League from its URL, the
others through the sidebar); a page fails on an exception element, traceback text, a "None"/"nan"
cell or a server path. Then the shared filters are walked across three page switches and a
reload, the replayer is clicked through and stepped by keys, a file uploaded and a game entered
deal by deal. Screenshots land in ``tests/out/`` (gitignored): of the
steps below, and of the walks' views that fail (of all of them with ``--shots``); the time each
page took, a cold page's and a replayer step's are printed (``-s``), not asserted.

Nothing here waits for luck: every step waits for a condition the page shows (the app's script
state, a heading, a message), with generous timeouts, so a loaded machine is slower, not red.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from bench.bench_parallel import process_cpu
from dashboards import queries as q
from dashboards.db import read_only
from dashboards.filters import Filters
from dashboards.serve import answers, command, environment, free_port
from dashboards.sheets import score_sheet
from tests.conftest import ROOT
from tests.dashboards import fixture_db as fx
from tests.dashboards.test_pulya import svg_of_img, titles

CHROMIUM = Path("/usr/bin/chromium")
OUT = ROOT / "tests" / "out"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 120_000
"""Generous: a page on a machine shared by many jobs may take tens of seconds."""
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
"""The app after its script finished (Streamlit's own marker of a run in progress)."""
FILTER_PAGES = [("", "League"), ("player", "Player"), ("contracts", "Contracts"),
                ("results", "Club results"), ("replayer", "Hand replayer")]
OTHER_PAGES = [("balance", "Balance"), ("quality", "Data quality"), ("upload", "Upload"),
               ("entry", "Entry")]
ANNA = "Anna (greek-prefa)"
"""The Greek Anna: the bridge Anna of the samples is another person until merged."""
LEAGUE_SECTIONS = ("Standings", "Cash over time", "Score sheet")
"""League's tabs; only the open one is drawn."""
BAD_CELLS = {"None", "none", "nan", "NaN", "<NA>", "null", "NaT"}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.xdist_group("browser"),  # one browser and one pair of servers for the module
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason=f"{CHROMIUM} is absent: install Debian's chromium "
                              "(`make browser-deps`)"),
]


def _serve(db: Path, log_path: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = log_path.open("w")
    proc = subprocess.Popen(command(port), env=environment(db), stdout=log,
                            stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    if not answers(url, proc, 180):
        proc.kill()
        pytest.fail(f"streamlit did not start (exit {proc.poll()}); see {log_path}")
    return proc, url


SERVER_PIDS: dict[str, int] = {}
"""The process serving each URL of :func:`servers`, for the CPU a page costs it."""
SERVER_LOGS: dict[str, Path] = {}
STOPPED: list[str] = []
"""What a test found of a server that no longer answers (:func:`_servers_answer`)."""


def _stopped_answering(url: str) -> str | None:
    """``None`` while the server at ``url`` answers its health check within a minute (however
    loaded the machine); else what it is doing: every thread's stack, which ``SIGUSR1`` writes
    to its log (``dashboards/launch.py``), and the log's end."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=20) as r:
                if r.status == 200:
                    return None
        except OSError:
            time.sleep(1)
    try:
        os.kill(SERVER_PIDS[url], signal.SIGUSR1)
        time.sleep(2)
    except ProcessLookupError:
        pass  # it has ended: its log says how
    log = SERVER_LOGS[url].read_text(encoding="utf-8", errors="replace")
    return f"the server at {url} stopped answering; the end of its log:\n{log[-12_000:]}"


@pytest.fixture(autouse=True)
def _servers_answer(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test, each server must still answer (else the test fails with the server's
    threads); once one has stopped, the module's later tests fail at once instead of waiting
    out their timeouts."""
    if STOPPED:
        pytest.fail("a server stopped answering in an earlier test:\n" + STOPPED[0][:2_000])
    yield
    if "servers" in request.fixturenames:
        for url in list(SERVER_PIDS):
            problem = _stopped_answering(url)
            if problem:
                STOPPED.append(problem)
                pytest.fail(problem)


def _cpu_seconds(pid: int) -> float | None:
    """The process's CPU time so far, where ``/proc`` has it."""
    try:
        return process_cpu(pid)[0]
    except OSError:
        return None


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from sim.balance import store_study, study

    db = fx.build_demo_like(tmp_path_factory.mktemp("browser") / "demo.duckdb")
    store_study(db, study("greek-prefa", {}, {"four_aces": "fixed_chips"}, 30, 10, seed=3,
                          workers=1))  # for the Balance page
    return db


@pytest.fixture(scope="module")
def servers(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    base = tmp_path_factory.mktemp("browser-serve")
    empty = fx.build_empty(base / "empty.duckdb")
    procs: list[subprocess.Popen[bytes]] = []
    urls: dict[str, str] = {}
    try:
        for name, db in (("demo", demo_db), ("empty", empty)):
            proc, urls[name] = _serve(db, base / f"streamlit-{name}.log")
            procs.append(proc)
            SERVER_PIDS[urls[name]] = proc.pid
            SERVER_LOGS[urls[name]] = base / f"streamlit-{name}.log"
        yield urls
    finally:
        for proc in procs:
            _stop(proc)
        SERVER_PIDS.clear()
        SERVER_LOGS.clear()


@pytest.fixture(scope="module")
def browser(servers: dict[str, str]):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh tab (its own Streamlit session) per test."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    tab.set_default_timeout(TIMEOUT_MS)
    yield tab
    context.close()


def _settle(page) -> None:
    """Wait until the app's script has run to its end (and the page drew its result)."""
    page.locator(IDLE).wait_for(state="attached")
    page.wait_for_load_state("networkidle")


def _open(page, url: str, title: str, until_quiet: bool = True) -> float:
    """Open ``url``, wait for ``title`` and the end of the run, and (``until_quiet``) for half
    a second without network requests, what a picture drawn after the run needs; returns the
    seconds it took. The walks of every page judge the text of a page, which is there when its
    run ends: they skip the half second, about a third of a page's time."""
    start = time.monotonic()
    page.goto(url)
    page.get_by_role("heading", name=title, exact=True).wait_for()
    if until_quiet:
        _settle(page)
    else:
        page.locator(IDLE).wait_for(state="attached")
    return time.monotonic() - start


def _shot(page, name: str) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"browser_{re.sub(r'[^A-Za-z0-9_.-]', '_', name)}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def _server_paths(db: Path) -> list[str]:
    return [str(ROOT), str(db.parent), "site-packages", "/tmp/", "/work/", "/home/",
            "/usr/lib/"]


def page_problems(page, forbidden: list[str]) -> list[str]:
    """What a user must never see: an exception box, traceback text, a None/nan cell, a path."""
    problems = []
    if page.locator("[data-testid='stException']").count():
        problems.append("an exception element")
    text = page.locator("[data-testid='stApp']").inner_text()
    if "Traceback" in text or "SchemaValidationError" in text:
        problems.append("traceback text")
    problems += [f"server path {p!r}" for p in forbidden if p in text]
    cells = page.locator("[data-testid='stDataFrame'] td, [data-testid='stTable'] td")
    bad = sorted({c for c in cells.all_inner_texts() if c.strip() in BAD_CELLS})
    if bad:
        problems.append(f"cells reading {bad}")
    return problems


def _filters(db: Path) -> list[dict[str, str]]:
    """The shared filters a walk sets: every variant and "(all)", each without a player and
    with the variant's most active player (the Player page needs one)."""
    with read_only(db) as con:
        variants = [None, *q.variants(con)["variant"].to_list()]
        players = {v: q.players(con, Filters(variant=v))["player"][0] for v in variants}
    return [{**({"variant": v} if v else {}), **({"player": who} if who else {})}
            for v in variants for who in (None, players[v])]


def _click_until(page, target, took: Callable[[], bool]) -> None:
    """Click ``target`` until ``took()`` says the click took, at most five times, waiting for
    the end of the page's run between two: on a loaded machine a click can land before the run
    of the one before it has reached the page, whose result then undoes it (a lost tab click
    failed a loaded run of the suite). The caller then waits its full timeout, as
    :func:`_step` presses its key again."""
    for _ in range(5):
        target.click()
        if took():
            return
        page.locator(IDLE).wait_for(state="attached")


def _switch(page, title: str) -> None:
    """Go to the page ``title`` through the sidebar's navigation, as a user does (a rerun of
    the session, not a new one), and wait for the end of its run; a lost click is made again
    (:func:`_click_until`)."""
    heading = page.get_by_role("heading", name=title, exact=True)

    def arrived() -> bool:
        try:
            heading.wait_for(timeout=15_000)
        except pytest.importorskip("playwright.sync_api").TimeoutError:
            return False
        return True

    _click_until(page, page.locator("[data-testid='stSidebarNav']").get_by_text(
        title, exact=True), arrived)
    heading.wait_for()
    page.locator(IDLE).wait_for(state="attached")


def _step(page, key: str, shown: str, expected: str) -> None:
    """Press ``key`` on the replayer showing ``shown`` and wait until it shows ``expected``. The
    buttons' shortcuts are bound once the buttons are drawn: a press that came before (the page
    still shows ``shown`` and no run is under way) is pressed again."""
    _expect()(page.get_by_role("button", name="Forward ▶")).to_be_enabled(timeout=TIMEOUT_MS)
    for _ in range(5):
        page.keyboard.press(key)
        try:
            page.get_by_text(expected).wait_for(timeout=10_000)
            return
        except pytest.importorskip("playwright.sync_api").TimeoutError:
            page.locator(IDLE).wait_for(state="attached")
            if page.get_by_text(shown).count() == 0:
                break
    page.get_by_text(expected).wait_for()


def _league_times(page, url: str) -> tuple[float, float]:
    """Open the League page; the seconds until its run finished (heading shown, script state
    idle) and until its standings table was drawn (the grid's canvas, whose code the browser
    loads when the first table arrives)."""
    start = time.monotonic()
    page.goto(url)
    page.get_by_role("heading", name="League", exact=True).wait_for()
    page.locator(IDLE).wait_for(state="attached")
    ran = time.monotonic() - start
    page.locator("[data-testid='stDataFrame'] canvas").first.wait_for()
    return ran, time.monotonic() - start


def test_cold_page_and_step_times(page, servers: dict[str, str]) -> None:
    """Printed, not asserted (``-s``; docs/dashboards.md "Speed"): the first page the demo server
    serves (a cold page: a new browser context with an empty cache, a new session), the same page
    in a second tab (a returning browser: Streamlit's files from its cache), then the replayer's
    load and one step by key, each timed to the condition the page shows. First in the module,
    so the server is cold when it runs in a full run or alone."""
    pid = SERVER_PIDS[servers["demo"]]
    cpu = _cpu_seconds(pid)
    ran, drawn = _league_times(page, servers["demo"])
    page.wait_for_load_state("networkidle")
    last = page.evaluate("Math.max(...performance.getEntriesByType('resource')"
                         ".map(r => r.responseEnd))") / 1000
    after = _cpu_seconds(pid)
    served = "" if cpu is None or after is None else f"; the server's CPU {after - cpu:.2f} s"
    print(f"cold page (League): the app's run finished at {ran:.2f} s, the standings table was "
          f"drawn at {drawn:.2f} s, the last request ended at {last:.2f} s{served}")
    again = page.context.new_page()  # the same browser: Streamlit's files come from its cache
    ran, drawn = _league_times(again, servers["demo"])
    fetched = again.evaluate("performance.getEntriesByType('resource')"
                             ".filter(r => r.transferSize > 0).length")
    print(f"the same page again in a new tab (a new session; {fetched} files fetched, the rest "
          f"from the browser's cache): run finished at {ran:.2f} s, table drawn at {drawn:.2f} s")
    again.close()
    league = urllib.parse.quote_plus(fx.LEAGUE7)
    seconds = _open(page, f"{servers['demo']}/replayer?league={league}", "Hand replayer")
    page.get_by_text("After 0 of 10 tricks").wait_for()
    print(f"replayer page: {seconds:.2f} s")
    page.locator("h1").first.click()
    start = time.monotonic()
    _step(page, "ArrowRight", "After 0 of 10 tricks", "After 1 of 10 tricks")
    print(f"replayer step (right arrow, fragment rerun): {time.monotonic() - start:.2f} s")
    assert page.locator("[data-testid='stException']").count() == 0


def _open_tab(page, label: str) -> None:
    """Open the tab ``label`` (a lazy tab: its content is drawn by the rerun it starts) and wait
    until it is selected and the run has ended; the click is made again until the tab is still
    selected once the page has run (:func:`_click_until`: the run of the tab opened just before
    selects its own tab again)."""
    tab = page.get_by_role("tab", name=label, exact=True)

    def stays_selected() -> bool:
        try:
            _expect()(tab).to_have_attribute("aria-selected", "true", timeout=15_000)
        except AssertionError:
            return False
        _settle(page)
        return tab.get_attribute("aria-selected") == "true"

    _click_until(page, tab, stays_selected)
    _expect()(tab).to_have_attribute("aria-selected", "true", timeout=TIMEOUT_MS)
    _settle(page)


@pytest.fixture
def every_shot(request: pytest.FixtureRequest) -> bool:
    """``--shots``: the walks below screenshot every view, not only those that fail."""
    return bool(request.config.getoption("--shots"))


def _looked_at(page, where: str, name: str, db: Path, every_shot: bool) -> list[str]:
    """What :func:`page_problems` finds on the page, each told with ``where``; a screenshot
    ``name`` of a page that has any (of every page with ``every_shot``)."""
    found = [f"{where}: {p}" for p in page_problems(page, _server_paths(db))]
    if found or every_shot:
        _shot(page, name)
    return found


def test_every_page_every_variant(page, servers: dict[str, str], demo_db: Path,
                                  every_shot: bool) -> None:
    """Each filter opens League from its URL, then the other pages through the sidebar: each
    page must keep the filters in its URL and show nothing :func:`page_problems` finds."""
    failures = []
    for path, title in OTHER_PAGES:
        _open(page, f"{servers['demo']}/{path}", title, until_quiet=False)
        failures += _looked_at(page, path, path, demo_db, every_shot)
    for filters in _filters(demo_db):
        query = urllib.parse.urlencode(filters)
        name = f"{filters.get('variant', 'all')}{'_player' if 'player' in filters else ''}"
        seconds = _open(page, f"{servers['demo']}/?{query}", "League", until_quiet=False)
        print(f"league_{name}: {seconds:.1f} s")
        failures += _looked_at(page, f"?{query}", f"league_{name}", demo_db, every_shot)
        for section in LEAGUE_SECTIONS[1:] if "player" not in filters else ():
            _open_tab(page, section)  # drawn only once opened
            failures += _looked_at(page, f"?{query} {section}", f"league_{name}_{section}",
                                   demo_db, every_shot)
        for path, title in FILTER_PAGES[1:]:
            _switch(page, title)
            shown = urllib.parse.parse_qs(urllib.parse.urlsplit(page.url).query)
            if any(shown.get(k) != [v] for k, v in filters.items()):
                failures.append(f"{path}?{query}: the URL lost its filters ({page.url})")
            failures += _looked_at(page, f"{path}?{query}", f"{path}_{name}", demo_db,
                                   every_shot)
    assert not failures, "\n".join(failures)


def test_every_page_on_an_empty_database(page, servers: dict[str, str], demo_db: Path,
                                         every_shot: bool) -> None:
    failures = []
    for path, title in [*FILTER_PAGES, *OTHER_PAGES]:
        _open(page, f"{servers['empty']}/{path}", title, until_quiet=False)
        page.locator("[data-testid='stAlert']").first.wait_for()  # an empty state says why
        failures += _looked_at(page, path, f"empty_{path or 'league'}", demo_db, every_shot)
    assert not failures, "\n".join(failures)


def test_nothing_is_fetched_from_another_machine(page, servers: dict[str, str]) -> None:
    """A club's dashboards run where there is no network, and what a user opens is nobody
    else's business: every page, its icon, fonts and pictures come from the dashboard's own
    server (each page opened and left quiet, its pictures drawn)."""
    own = urllib.parse.urlsplit(servers["demo"]).netloc
    elsewhere: list[str] = []
    page.on("request", lambda r: elsewhere.append(r.url)
            if urllib.parse.urlsplit(r.url).netloc not in (own, "") else None)
    for path, title in [*FILTER_PAGES, *OTHER_PAGES]:
        _open(page, f"{servers['demo']}/{path}", title)
    assert not elsewhere, elsewhere


def _expect():
    return pytest.importorskip("playwright.sync_api").expect


def _pick(page, label: str, value: str, where: str = "stSidebar", tries: int = 5) -> None:
    """Choose ``value`` in the select box ``label`` (of the sidebar, or ``stMain``) and wait for
    the rerun. A rerun still under way (the one an earlier choice started) can draw the box
    again while its list is open, which closes the list, or after the choice, which drops it:
    the box is then opened and the value chosen again."""
    error = pytest.importorskip("playwright.sync_api").Error
    box = page.locator(f"[data-testid='{where}']").get_by_role("combobox", name=label)
    option = page.get_by_role("option", name=value, exact=True)
    for _ in range(tries):
        _settle(page)
        _expect()(box).to_have_count(1, timeout=TIMEOUT_MS)  # not while a rerun draws it twice
        try:
            box.click()
            option.click(timeout=TIMEOUT_MS // 4)
            _expect()(box).to_have_value(value, timeout=TIMEOUT_MS // 4)
            break
        except (error, AssertionError):  # the list closed, or the box was drawn again
            page.keyboard.press("Escape")
    else:
        shown = page.get_by_role("option").all_inner_texts()
        raise AssertionError(f"{value!r} could not be chosen in {label!r} in {tries} tries "
                             f"(the list showed {shown!r})")
    _settle(page)
    _expect()(box).to_have_count(1, timeout=TIMEOUT_MS)  # the rerun the choice started drew it
    _expect()(box).to_have_value(value, timeout=TIMEOUT_MS)


def _shows_filters(page, variant: str, player: str) -> None:
    sidebar = page.locator("[data-testid='stSidebar']")
    for label, value in (("Variant", variant), ("Player", player)):
        _expect()(sidebar.get_by_role("combobox", name=label)).to_have_value(
            value, timeout=TIMEOUT_MS)
    page.wait_for_url(lambda url: urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).get(
        "player") == [player] and f"variant={variant}" in url)


def _biggest_cells(db: Path, variant: str, count: int) -> list[tuple[str, str, str]]:
    """The ``count`` heatmap cells of ``variant`` with the most deals whose labels (``rate%
    (n)``) no other cell has: each one's label and its contract and defence mode in words."""
    from dashboards.common import rates
    from dashboards.replay import call_words
    from dashboards.text import mode_in_words

    with read_only(db) as con:
        cells = rates(q.contract_rates(con, Filters(variant=variant)), "made", "n")
    labels = cells.select(pl.format(  # as the page writes them (a half rounded as it does)
        "{}% ({})", (pl.col("rate") * 100).round(0).cast(pl.Int64), "n"))[:, 0].to_list()
    unique = [(n, label, contract, mode) for n, label, contract, mode in zip(
        cells["n"], labels, cells["contract"], cells["mode"], strict=True)
        if labels.count(label) == 1]
    return [(label, call_words(contract, variant), mode_in_words(variant, mode))
            for _, label, contract, mode in sorted(unique, reverse=True)[:count]]


def test_a_click_on_a_heatmap_cell_lists_its_deals(page, servers: dict[str, str],
                                                   demo_db: Path) -> None:
    """Contracts: a click on a heatmap cell chose nothing (only the boxes below it did). It now
    chooses the cell's contract and defence mode, whose deals are listed below; a click on
    another cell, then on the first again, chooses each in turn."""
    first, second = _biggest_cells(demo_db, "swabian", 2)
    _open(page, f"{servers['demo']}/contracts?variant=swabian", "Contracts")
    chart = page.locator("[data-testid='stVegaLiteChart']").first
    for label, contract, mode in (first, second, first):
        said = page.get_by_text(f"swabian {contract} with defence {mode}:")
        cell = chart.get_by_text(label, exact=True)
        cell.scroll_into_view_if_needed()
        box = cell.bounding_box()  # clicked where it is: the clear picker lies over it
        assert box is not None, label
        for _ in range(5):  # a click that lands before the last run has drawn is made again
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            try:
                said.wait_for(timeout=15_000)
                break
            except pytest.importorskip("playwright.sync_api").TimeoutError:
                page.locator(IDLE).wait_for(state="attached")
        said.wait_for()
        page.locator(IDLE).wait_for(state="attached")
    _shot(page, "contracts_clicked")


def test_a_switch_of_the_heatmap_s_variant_says_its_own_contracts(
        page, servers: dict[str, str], demo_db: Path) -> None:
    """Contracts under "(all)": with a Swabian contract chosen, the heatmap's Variant switched to
    Balkan left the Contract box reading the Swabian words ("4 Herz") of a contract code both
    games have, beside a caption and deals of Balkan's "4 Herc". The box reads the contract of
    the caption."""
    from dashboards.replay import call_words

    with read_only(demo_db) as con:
        rates = q.contract_rates(con, Filters())
    codes = {v: set(rates.filter(pl.col("variant") == v)["contract"].to_list())
             for v in ("swabian", "balkan")}
    shared = sorted(codes["swabian"] & codes["balkan"])
    if not shared:
        pytest.skip("no contract code both swabian and balkan have in the demo database")
    _open(page, f"{servers['demo']}/contracts", "Contracts")
    _pick(page, "Variant", "swabian", "stMain")
    _pick(page, "Contract", call_words(shared[0], "swabian"), "stMain")
    _pick(page, "Variant", "balkan", "stMain")
    box = page.locator("[data-testid='stMain']").get_by_role("combobox", name="Contract")
    page.get_by_text(re.compile(r"^balkan .* with defence ")).wait_for()
    said = page.get_by_text(re.compile(r"^balkan .* with defence ")).inner_text()
    assert said.startswith(f"balkan {box.input_value()} with defence "), (box.input_value(), said)


def test_filters_survive_page_switches_and_reload(page, servers: dict[str, str]) -> None:
    """docs/dashboards.md, "Shared filters and the URL": set on League, kept on Player,
    Contracts and League again, in the URL at every step, and after a reload."""
    _open(page, servers["demo"], "League")
    _pick(page, "Variant", "greek-prefa")
    _pick(page, "Player", ANNA)
    _shows_filters(page, "greek-prefa", ANNA)
    nav = page.locator("[data-testid='stSidebarNav']")
    for title in ("Player", "Contracts", "League"):
        nav.get_by_text(title, exact=True).click()
        page.get_by_role("heading", name=title, exact=True).wait_for()
        _settle(page)
        _shows_filters(page, "greek-prefa", ANNA)
    page.reload()
    page.get_by_role("heading", name="League", exact=True).wait_for()
    _settle(page)
    _shows_filters(page, "greek-prefa", ANNA)
    _shot(page, "filters_after_reload")


def test_league_has_its_own_url(page, servers: dict[str, str]) -> None:
    """/league opens League with its filters, as /player opens Player: Streamlit serves its
    default page only at the root, and a typed /league said "Page not found" (dashboards/app.py).
    From there the menu's pages open as from the root."""
    query = urllib.parse.urlencode({"variant": "greek-prefa", "player": ANNA})
    _open(page, f"{servers['demo']}/league?{query}", "League")
    _shows_filters(page, "greek-prefa", ANNA)
    assert page.get_by_text("Page not found").count() == 0
    assert page.get_by_role("dialog").count() == 0
    assert not page_problems(page, [])
    nav = page.locator("[data-testid='stSidebarNav']")
    for title in ("Player", "League"):
        nav.get_by_text(title, exact=True).click()
        page.get_by_role("heading", name=title, exact=True).wait_for()
        _settle(page)
        _shows_filters(page, "greek-prefa", ANNA)
    assert page.get_by_role("dialog").count() == 0


def test_an_address_in_a_link_s_value_is_no_link(page, servers: dict[str, str]) -> None:
    """Streamlit's Markdown makes a link of a bare address however it is escaped: a link's
    ``league=[x](http://example.com)`` or ``file=x@example.com`` showed, in the page's
    warning, a link to example.com or a mailto: (dashboards/text.py ``md``)."""
    for path, value in (("", {"league": "[x](http://example.com)"}),
                        ("/quality", {"file": "x@example.com"}),
                        ("/contracts", {"contract": "www.example.com"})):
        title = {"": "League", "/quality": "Data quality", "/contracts": "Contracts"}[path]
        _open(page, f"{servers['demo']}{path}?{urllib.parse.urlencode(value)}", title)
        shown = " ".join(page.locator("[data-testid='stAlert']").all_inner_texts())
        assert next(iter(value.values())) in shown.replace("\u2060", ""), shown
        links = page.eval_on_selector_all("a", "all => all.map(a => a.href)")
        assert not [h for h in links if "example" in h], links


def test_replayer_click_through(page, servers: dict[str, str]) -> None:
    league = urllib.parse.quote_plus(fx.LEAGUE7)
    _open(page, f"{servers['demo']}/replayer?league={league}", "Hand replayer")
    page.get_by_text("After 0 of 10 tricks").wait_for()
    forward = page.get_by_role("button", name="Forward ▶")
    for step in range(1, 4):
        start = time.monotonic()
        forward.click()
        page.get_by_text(f"After {step} of 10 tricks").wait_for()
        print(f"replayer step {step} (button): {time.monotonic() - start:.2f} s")
    _shot(page, "replayer_trick3")
    page.get_by_role("button", name="◀ Back").click()
    page.get_by_text("After 2 of 10 tricks").wait_for()
    page.get_by_text("Trick 2").first.wait_for(state="visible")
    assert page.locator("[data-testid='stException']").count() == 0
    _shot(page, "replayer_trick2")


def test_replayer_steps_with_the_arrow_keys(page, servers: dict[str, str]) -> None:
    """Right and left arrows step the trick (Streamlit's button shortcuts), Home and End jump;
    each waits for the trick the page shows."""
    league = urllib.parse.quote_plus(fx.LEAGUE7)
    _open(page, f"{servers['demo']}/replayer?league={league}", "Hand replayer")
    page.get_by_text("After 0 of 10 tricks").wait_for()
    page.locator("h1").first.click()  # the focus on the page, not in a field
    for step in range(1, 4):
        start = time.monotonic()
        _step(page, "ArrowRight", f"After {step - 1} of 10 tricks", f"After {step} of 10 tricks")
        page.get_by_text(f"Trick {step} · won by").first.wait_for(state="visible")
        print(f"replayer step {step} (right arrow): {time.monotonic() - start:.2f} s")
    page.keyboard.press("ArrowLeft")
    page.get_by_text("After 2 of 10 tricks").wait_for()
    page.keyboard.press("End")
    page.get_by_text("After 10 of 10 tricks").wait_for()
    page.keyboard.press("Home")
    page.get_by_text("After 0 of 10 tricks").wait_for()
    assert page.locator("[data-testid='stException']").count() == 0


def test_replayer_search_that_finds_nothing_then_another(page, servers: dict[str, str]) -> None:
    """A search that finds nothing keeps the open deal and says so; the next search, or
    clearing it, finds the deals again. The browser names the kept deal by the label it was
    shown with (dashboards/views/replayer.py ``_choose``): that once ended in a ValueError."""
    _open(page, f"{servers['demo']}/replayer", "Hand replayer")
    page.get_by_text("After 0 of").first.wait_for()
    page.locator("[data-testid='stMain']").get_by_role("combobox", name="Deal").click()
    second = page.get_by_role("option").all_inner_texts()[1]
    page.keyboard.press("Escape")
    _pick(page, "Deal", second, where="stMain")  # the browser now holds the deal by its label
    _type(page, "textbox", "Find a deal", "zzz")
    page.get_by_text("No deal with cards matches the search").wait_for()
    for search in ("anna", ""):
        _type(page, "textbox", "Find a deal", search)
        page.get_by_text("deals with cards match").wait_for()
        page.get_by_text("After 0 of").first.wait_for()
        assert page_problems(page, []) == [], search


def _choose_file(page, path: Path) -> None:
    """Put ``path`` in the uploader and wait until the server has the file (the page lists it
    under "Ready to ingest" in the run after the upload) and the Ingest button is enabled."""
    page.locator("input[type=file]").set_input_files(str(path))
    page.locator("[data-testid='stCaptionContainer']").filter(
        has_text="Ready to ingest").filter(has_text=path.name).first.wait_for()
    _expect()(page.get_by_role("button", name="Ingest")).to_be_enabled(timeout=TIMEOUT_MS)
    _settle(page)


def test_upload_through_the_browser(page, servers: dict[str, str], tmp_path: Path) -> None:
    """Binary garbage is refused with a message; a valid file is ingested and counted."""
    _open(page, f"{servers['demo']}/upload", "Upload")
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(bytes(range(256)) * 16)  # binary: a NUL in every 256 bytes
    ingest = page.get_by_role("button", name="Ingest")
    _choose_file(page, garbage)
    ingest.click()
    page.locator("[data-testid='stAlert']").filter(has_text="not a text file").wait_for()
    _settle(page)
    _shot(page, "upload_refused")
    good = tmp_path / "club.jsonl"
    good.write_text(
        '{"record": "game", "game_id": "browser/1", "variant": "greek-prefa", '
        '"players": ["Ana", "Ben", "Cy"]}\n'
        '{"record": "deal", "game_id": "browser/1", "deal_no": 1, "dealer": "Ana"}\n'
    )
    _choose_file(page, good)
    ingest.click()
    verdict = page.locator("[data-testid='stAlert']").filter(has_text="club.jsonl")
    verdict.first.wait_for(timeout=2 * TIMEOUT_MS)
    _settle(page)
    assert "club.jsonl: 2 records, 2 stored" in verdict.first.inner_text(), \
        verdict.first.inner_text()
    _shot(page, "upload_stored")


def test_pulya_picture_in_the_browser(page, servers: dict[str, str], demo_db: Path) -> None:
    """The pulya (russian.md 5) drawn on the League page for the first Russian game: the SVG is
    in the page (not sanitised away) and its bands hold the table form's final pool and hill."""

    with read_only(demo_db) as con:
        game_id = q.games(con, Filters(variant="russian"))["game_id"][0]
        players = list(q.game_info(con, game_id)["players"][0])
        total = score_sheet(q.game_sheet(con, game_id), "russian", players).row(-1, named=True)
    _open(page, f"{servers['demo']}/?variant=russian", "League")
    _open_tab(page, "Score sheet")
    img = page.locator("img[src^='data:image/svg+xml']")
    img.wait_for()
    img.scroll_into_view_if_needed()
    assert img.evaluate("i => i.complete && i.naturalWidth > 0")  # the browser drew it
    svg = svg_of_img(f'src="{img.get_attribute("src")}"')
    shown = titles(svg)
    for p in players:
        assert f"{p} pool {int(total[f'{p} pool'])}" in shown
        assert f"{p} hill {int(total[f'{p} hill'])}" in shown
    _shot(page, "league_pulya")


def _type(page, role: str, label: str, value: str, tries: int = 5, send: str = "Enter") -> None:
    """Type ``value`` into the text or number box ``label`` and send it (Enter), once the page
    shows one such box. A rerun still under way (the one an earlier choice started) can draw
    the form again between the typing and the Enter: the box typed into is then replaced, so
    the typing is done again until the page's one box holds the value."""
    error = pytest.importorskip("playwright.sync_api").Error
    box = page.locator("[data-testid='stMain']").get_by_role(role, name=label, exact=True)
    for _ in range(tries):
        _settle(page)
        _expect()(box).to_have_count(1, timeout=TIMEOUT_MS)
        try:
            box.fill(value)
            box.press(send)
            _settle(page)
            _expect()(box).to_have_count(1, timeout=TIMEOUT_MS)
            if box.input_value() == value:
                return
        except error:  # the box was replaced while it was typed into: type again
            continue
    raise AssertionError(f"{label!r} did not keep {value!r} after {tries} tries")


def _alert(page, text: str):
    """The message box saying ``text``, once the page shows it."""
    found = page.locator("[data-testid='stAlert']").filter(has_text=text).first
    found.wait_for()
    return found


def test_entry_through_the_browser(page, servers: dict[str, str]) -> None:
    """A game started and a deal typed as a scorer would; a deal with a problem shows ingest's
    message and cannot be saved; the good one is saved and drawn in the sheet at once; the game
    is still the one entered after League and Entry are opened by the menu."""
    _open(page, f"{servers['demo']}/entry", "Entry")
    _type(page, "textbox", "Game id", "browser/entry")
    _type(page, "textbox", "Players, in seat order, separated by commas", "Ana, Ben, Cy")
    _alert(page, "The game line is valid")
    page.get_by_role("button", name="Start the game").click()
    _alert(page, "The game is stored.")
    _settle(page)
    _pick(page, "declarer", "Ana", "stMain")
    _type(page, "textbox", "contract", "6S")
    for defender in ("Ben", "Cy"):
        _pick(page, f"defence: {defender}", "play", "stMain")
    for player, tricks in (("Ana", "6"), ("Ben", "2"), ("Cy", "1")):
        _type(page, "spinbutton", f"tricks: {player}", tricks)
    _alert(page, "sum to 9, not 10")  # greek-prefa.md 7: ingest's message, beside the form
    save = page.get_by_role("button", name="Save deal 1")
    _expect()(save).to_be_disabled(timeout=TIMEOUT_MS)
    _shot(page, "entry_problem")
    _type(page, "spinbutton", "tricks: Cy", "2")
    _alert(page, "Deal 1 is valid.")
    _expect()(save).to_be_enabled(timeout=TIMEOUT_MS)
    save.click()
    _alert(page, "Deal 1 is stored.")
    page.get_by_text("Money in chips").wait_for()  # the sheet, drawn once it has a deal
    _settle(page)
    assert page_problems(page, []) == []
    _shot(page, "entry_stored")
    _deal_with_cards(page)
    nav = page.locator("[data-testid='stSidebarNav']")  # away by the menu and back
    for title in ("League", "Entry"):
        nav.get_by_text(title, exact=True).click()
        page.get_by_role("heading", name=title, exact=True).wait_for()
        _settle(page)
    page.get_by_text("Deal of browser/entry", exact=True).wait_for()  # not "(new game)"


def _deal_with_cards(page) -> None:
    """Deal 2 typed with its cards (the fixture's full Greek deal, greek-prefa.md 6.1): a card
    given twice shows ingest's message, the right hands let it be saved with its cards."""
    names = {"Anna": "Ana", "Boris": "Ben", "Chris": "Cy"}
    deal = fx.full_deal("browser/entry", names)
    _alert(page, "Type deal 2:")  # the next deal, untouched: what to type, not "valid"
    _pick(page, "dealer", "Ana", "stMain")
    _pick(page, "declarer", "Cy", "stMain")
    _type(page, "textbox", "contract", "6S")
    for defender in ("Ana", "Ben"):
        _pick(page, f"defence: {defender}", "play", "stMain")
    for player in ("Ana", "Ben", "Cy"):
        _type(page, "spinbutton", f"tricks: {player}", str(deal["tricks"][player]))
    page.locator("[data-testid='stExpander']").get_by_text("Cards (optional)").click()
    wrong = [*deal["hands"]["Ana"][:-1], "7H"]  # Cy holds the 7H
    _type(page, "textbox", "hands: Ana", " ".join(wrong))
    for player in ("Ben", "Cy"):
        _type(page, "textbox", f"hands: {player}", " ".join(deal["hands"][player]))
    for name in ("talon", "discard"):
        _type(page, "textbox", name, " ".join(deal[name]))
    _type(page, "textbox", "auction",
          ", ".join(f"{c['player']} {c['call']}" for c in deal["auction"]), send="Control+Enter")
    _type(page, "textbox", "play", ", ".join(" ".join(p) for p in deal["play"]),
          send="Control+Enter")
    _alert(page, "7H")  # ingest's message names the card dealt twice
    save = page.get_by_role("button", name="Save deal 2")
    _expect()(save).to_be_disabled(timeout=TIMEOUT_MS)
    _shot(page, "entry_cards_problem")
    _type(page, "textbox", "hands: Ana", " ".join(deal["hands"]["Ana"]))
    _alert(page, "Deal 2 is valid.")
    _expect()(save).to_be_enabled(timeout=TIMEOUT_MS)
    save.click()
    _alert(page, "Deal 2 is stored.")
    _settle(page)
    assert page_problems(page, []) == []
    _shot(page, "entry_cards_stored")


def test_entry_form_of_every_variant(page, servers: dict[str, str], demo_db: Path) -> None:
    """The Entry page's new-game form for every registered variant, on the demo and the empty
    database: no exception, traceback, None cell or server path, and no box of a house rule
    left to its default reading a dash (bridge's honours did)."""
    from model.variants import registered

    failures = []
    for server in ("demo", "empty"):
        _open(page, f"{servers[server]}/entry", "Entry")
        for v in registered():
            _pick(page, "Variant", v.name, "stMain")
            failures += [f"{server} {v.name}: {p}"
                         for p in page_problems(page, _server_paths(demo_db))]
            boxes = page.eval_on_selector_all(  # read at once: a box may be drawn again
                "[data-testid='stMain'] [role='combobox']",
                "boxes => boxes.map(b => [b.getAttribute('aria-label'), b.value])")
            failures += [f"{server} {v.name}: the box {label!r} reads a dash"
                         for label, value in boxes if value == "—"]
        _shot(page, f"entry_form_{server}")
    assert not failures, "\n".join(failures)


RASPASY_ROW = "deals in raspasy (all-pass play) with tricks lost"


@pytest.fixture(scope="module")
def reviewed_db(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The demo-like database with two simulated Russian games (raspasy among their deals),
    those deals reviewed open-hand; and the label of a player with raspasy cards."""
    from sim.review import store
    from sim.run import Plan, simulate

    db = tmp_path_factory.mktemp("browser-review") / "reviewed.duckdb"
    shutil.copyfile(demo_db, db)
    simulate(Plan("russian", 2, 6, seed=11), db=db, workers=1)
    conn = duckdb.connect(str(db))
    try:
        store.write(conn, [store.review_task(t) for t in store.pending(conn)
                           if t[2] == "russian"])
        name = conn.execute("SELECT min(player) FROM card_review WHERE side = 'self'").fetchone()
        labels = q.players(conn, Filters(variant="russian"))["player"].to_list()
    finally:
        conn.close()
    assert name is not None and name[0] is not None
    return db, next(p for p in labels if p == name[0] or p.startswith(f"{name[0]} ("))


@pytest.mark.long  # a third server and a review of Russian deals: make test-long
def test_player_review_with_raspasy(page, reviewed_db: tuple[Path, str], servers: dict[str, str],
                                    tmp_path: Path) -> None:
    """The Player page's review of a Russian player shows his raspasy row (n, rate, tricks lost
    per deal), for russian and for "(all)"; on the empty database the page for both says why
    it is empty. Nothing a user must not see on any of them."""
    db, player = reviewed_db
    proc, url = _serve(db, tmp_path / "streamlit-reviewed.log")
    failures = []
    try:
        for variant in ("russian", None):
            query = urllib.parse.urlencode({**({"variant": variant} if variant else {}),
                                            "player": player})
            _open(page, f"{url}/player?{query}", "Player")
            review = page.get_by_role("heading", name="Review of play")
            review.scroll_into_view_if_needed()  # the screenshot shows the review's table
            cells = page.locator("[data-testid='stDataFrame'] td")  # the grid's own table
            cells.filter(has_text=RASPASY_ROW).first.wait_for(state="attached")
            failures += [f"{variant}: {p}" for p in page_problems(page, _server_paths(db))]
            _shot(page, f"player_review_{variant or 'all'}")
    finally:
        _stop(proc)
    for variant in ("russian", None):
        query = urllib.parse.urlencode({"variant": variant} if variant else {})
        _open(page, f"{servers['empty']}/player?{query}", "Player")
        page.locator("[data-testid='stAlert']").first.wait_for()
        failures += [f"empty {variant}: {p}" for p in page_problems(page, _server_paths(db))]
        _shot(page, f"player_review_empty_{variant or 'all'}")
    assert not failures, "\n".join(failures)
