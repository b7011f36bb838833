"""A cold page in the browser against Streamlit's floor (issue 17: a cold page under 1.5 s).

``run()`` serves, each time on a fresh server started as the dashboards are
(``dashboards.serve.command``: ``dashboards.launch``, its flags, Streamlit's files from memory),
the League page of a database of the samples and a bare page (``bench/bare_page.py``: a title
and a table of eight rows, the least a page with a table draws), and opens each in a new context
of headless Chromium (an empty cache, a new session), alternately, ``ROUNDS`` times. It prints,
for each page, the seconds until the app's run finished and until its table was drawn (the
grid's canvas), and the ratio of the League page's median to the bare page's: what of a cold
page the dashboards add to what Streamlit costs on this machine. Skipped without Chromium.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dashboards.serve import answers, command, environment, free_port

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
BARE = Path(__file__).with_name("bare_page.py")
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ROUNDS = 5
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
TABLE = "[data-testid='stDataFrame'] canvas"


def _database() -> Path:
    """The samples ingested and settled (``trickbook ingest data/samples``), made once."""
    path = OUT / "cold-samples.duckdb"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "trickbook", "ingest", str(ROOT / "data" / "samples"),
                        "--db", str(path)], check=True, capture_output=True)
    return path


@contextmanager
def _served(db: Path, app: Path | None) -> Iterator[str]:
    """A fresh server of ``app`` (the dashboards when None), its URL once it answers."""
    port = free_port()
    cmd = command(port) if app is None else command(port, app=app)
    proc = subprocess.Popen(cmd, env=environment(db), cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        if not answers(url, proc, 120):
            raise RuntimeError(f"the server of {app or 'the dashboards'} did not start")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _cold(browser, url: str) -> tuple[float, float]:
    """Seconds until the page's run finished and until its table was drawn, in a new context."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.set_default_timeout(120_000)
        start = time.monotonic()
        page.goto(url)
        page.get_by_role("heading", name="League", exact=True).wait_for()
        page.locator(IDLE).wait_for(state="attached")
        ran = time.monotonic() - start
        page.locator(TABLE).first.wait_for()
        return ran, time.monotonic() - start
    finally:
        context.close()


def run() -> None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("skipped: playwright is not installed")
        return
    if not CHROMIUM.exists():
        print(f"skipped: no Chromium at {CHROMIUM} (make browser-deps)")
        return
    db = _database()
    times: dict[str, list[tuple[float, float]]] = {"League page": [], "bare page": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            with _served(db, BARE) as url:  # the browser's own first start, not counted
                _cold(browser, url)
            for _ in range(ROUNDS):
                for label, app in (("League page", None), ("bare page", BARE)):
                    with _served(db, app) as url:
                        times[label].append(_cold(browser, url))
        finally:
            browser.close()
    median = {label: (statistics.median(r for r, _ in found),
                      statistics.median(d for _, d in found)) for label, found in times.items()}
    for label, found in times.items():
        each = ", ".join(f"{d:.2f}" for _, d in found)
        print(f"{label:12s} run finished {median[label][0]:.2f} s, table drawn "
              f"{median[label][1]:.2f} s (medians of {ROUNDS}; drawn: {each})")
    (ran, drawn), (bare_ran, bare_drawn) = median["League page"], median["bare page"]
    print(f"League page / bare page: run {ran / bare_ran:.2f}x, table {drawn / bare_drawn:.2f}x "
          "(target of issue 17: a cold page under 1.5 s)")
