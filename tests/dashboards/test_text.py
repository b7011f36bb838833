"""dashboards/text.py: escaping, units, short file names and readable tables."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest
from markdown_it import MarkdownIt

from dashboards.text import (
    html,
    md,
    md_inline,
    number,
    readable,
    rules_table,
    short_paths,
    short_source,
    unit,
    without_paths,
)
from dashboards.uploads import stored_name
from tests.dashboards import fixture_db as fx
from tests.dashboards.test_pages import html_of, page

EVIL = "![t](http://host/x.png)"
NAMES = [EVIL, "<img src=x onerror=alert(1)>", "**bold** _it_ `code` $x$ :red[r] [a](b)",
         "Anna & Co", "a\\b", "# heading", "1. list", "| a | b |"]


@pytest.mark.parametrize("name", NAMES)
def test_markdown_shows_the_name_as_text(name: str) -> None:
    """CommonMark (markdown-it, what Streamlit's renderer follows) turns the escaped name into a
    paragraph of exactly the name: no image, link, emphasis or HTML."""
    rendered = MarkdownIt("commonmark").renderInline(md(name))
    assert rendered == html(name).replace("&#x27;", "'").replace("&quot;", '"') \
        or rendered == html(name)


@pytest.mark.parametrize("name", NAMES)
def test_inside_a_line_the_name_shows_as_text(name: str) -> None:
    """After a widget label's first words (``tricks: NAME``) the name shows exactly."""
    rendered = MarkdownIt("commonmark").renderInline(f"tricks: {md_inline(name)}")
    quoted = html(name).replace("&#x27;", "'").replace("&quot;", '"')
    assert rendered in (f"tricks: {html(name)}", f"tricks: {quoted}")


@pytest.mark.parametrize("name", ["O'Brien", "Jean-Luc", "A. Smith", "Anna (jr)", "Ζωή #2"])
def test_a_plain_name_gets_no_backslash_inside_a_line(name: str) -> None:
    """A widget's label is its aria-label, read as written by a screen reader: "tricks:
    O\\'Brien" was read with its backslash."""
    assert md_inline(name) == name


def test_html_escapes_quotes_and_tags() -> None:
    assert html('<b a="1">') == "&lt;b a=&quot;1&quot;&gt;"


def test_units_numbers_and_sources() -> None:
    assert unit("greek-prefa") == "chips" and unit("balkan") == "soup points"
    assert unit("bridge-duplicate") == "points" and unit(None) == "units"
    assert number(46.33333) == "46.33" and number(20.0, sign=True) == "+20"
    # a sum of thirds is whole up to floating point: "+3,318", not "+3,318.00"; never "-0"
    assert number(3318.0000000001, sign=True) == "+3,318" and number(-0.001) == "0"
    assert short_source("/srv/club/data/samples/league.jsonl") == "samples/league.jsonl"
    assert short_source("data/samples/league.jsonl") == "samples/league.jsonl"
    assert without_paths("cannot open /srv/x/uploads/a.jsonl", "/srv/x/uploads") == \
        "cannot open uploads/a.jsonl"


def test_an_upload_is_named_as_uploaded() -> None:
    """Data quality lists a stored upload by the name the user gave it, not by its hash."""
    stored = stored_name("Week 12.csv", b"game_id,deal_no\n")
    assert short_source(f"/srv/club/uploads/{stored}") == \
        f"uploads/Week_12.csv (upload {stored[:12]})"
    assert short_paths(f"conflicts with /srv/club/uploads/{stored} line 3") == \
        f"conflicts with uploads/Week_12.csv (upload {stored[:12]}) line 3"
    assert short_source("samples/0123-league.jsonl") == "samples/0123-league.jsonl"


def test_readable_has_no_none_or_nan() -> None:
    frame = pl.DataFrame({"cash_per_game": [46.333333, None, float("nan")],
                          "season": [2026, None, 2025], "league": ["a", None, "b"]})
    shown = readable(frame, missing={"season": "undated"})
    assert shown.columns == ["cash per game", "season", "league"]
    assert shown["cash per game"].to_list() == ["46.33", "—", "—"]
    assert shown["season"].to_list() == ["2026", "undated", "2025"]


def test_readable_shows_no_negative_zero() -> None:
    """A Balkan total of -0.0001 soups (thirds summed) rounds to -0.0, which a table shows as
    "-0"; the Entry page's standings read "Bojan -0"."""
    shown = readable(pl.DataFrame({"cash": [-0.0001, -0.0, 1.5], "n": [-0.004, None, 2.0]}))
    assert [str(v) for v in shown["cash"].to_list()] == ["0.0", "0.0", "1.5"]
    assert shown["n"].to_list() == ["0", "—", "2"]


def test_a_hostile_name_renders_as_text_on_every_page(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    db = fx.build(tmp_path / "evil.duckdb")
    con = duckdb.connect(str(db))
    con.execute("UPDATE games SET players = list_transform(players, "
                "lambda p: CASE WHEN p = 'Boris' THEN ? ELSE p END)", [EVIL])
    for table in ("settlements", "standings"):
        con.execute(f"UPDATE {table} SET player = ? WHERE player = 'Boris'", [EVIL])
    con.close()
    for name in ("league", "player", "contracts", "replayer"):
        at = page(name, db, monkeypatch, player=EVIL)
        assert not at.exception, name
        texts = [*(m.value for m in at.markdown), *(c.value for c in at.caption),
                 *(s.value for s in at.subheader), *(w.value for w in at.warning),
                 *(i.value for i in at.info)]
        assert not any(EVIL in t for t in texts), name  # never raw in Markdown
        assert "<img" not in html_of(at)
    assert any(md(EVIL) in s.value for s in page("player", db, monkeypatch,
                                                  player=EVIL).subheader)


def test_house_rules_read_as_words() -> None:
    """A game's rules on League and Balance: words, not identifiers (``fixed_chips``, ``true``)."""
    table = rules_table('{"four_aces": "fixed_chips", "ten_nt": true, "kassa": 20, "x": null}')
    assert table["rule"].to_list() == ["four aces", "ten nt", "kassa", "x"]
    assert table["value"].to_list() == ["fixed chips", "yes", "20", "—"]
