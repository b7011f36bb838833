"""dashboards/text.py: escaping, units, short file names and readable tables."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import duckdb
import polars as pl
import pytest
from markdown_it import MarkdownIt

from dashboards.entry import rule_fields
from dashboards.text import (
    html,
    md,
    md_inline,
    number,
    quoted,
    readable,
    repairs_said,
    rule_value,
    rule_words,
    rules_table,
    short_paths,
    short_source,
    unit,
    versions_said,
    without_paths,
)
from dashboards.uploads import stored_name
from model.variants import registered
from model.variants import variant as lookup
from tests.dashboards import fixture_db as fx
from tests.dashboards.test_pages import html_of, page

EVIL = "![t](http://host/x.png)"
NAMES = [EVIL, "<img src=x onerror=alert(1)>", "**bold** _it_ `code` $x$ :red[r] [a](b)",
         "Anna & Co", "a\\b", "# heading", "1. list", "| a | b |", "a\\*b\\", "x\\\\`y`"]


JOINER = "\u2060"
"""The word joiner :func:`md` puts in an address so that Markdown makes no link of it."""


@pytest.mark.parametrize("name", ["[x](http://example.com)", "www.example.com", "x@example.com",
                                  "WWW.Example.com", "see https://a.b/c"])
def test_an_address_in_a_name_is_no_link(name: str) -> None:
    """Streamlit's Markdown makes a link of a bare address (GitHub's literal autolinks) however
    its characters are escaped: a link's ``league=[x](http://example.com)`` showed a link to
    example.com in the page's warning. A word joiner breaks each one; the text reads the same."""
    for escaped in (md(name), md_inline(name)):
        shown = escaped.replace("\\", "")
        assert "://" not in shown and "www." not in shown.lower() and not re.search(
            r"\w@", shown), escaped
        assert shown.replace(JOINER, "") == name


@pytest.mark.parametrize("name", NAMES)
def test_markdown_shows_the_name_as_text(name: str) -> None:
    """CommonMark (markdown-it, what Streamlit's renderer follows) turns the escaped name into a
    paragraph of exactly the name: no image, link, emphasis or HTML."""
    rendered = MarkdownIt("commonmark").renderInline(md(name)).replace(JOINER, "")
    assert rendered == html(name).replace("&#x27;", "'").replace("&quot;", '"') \
        or rendered == html(name)


INLINE_NAMES = [*NAMES, "a_b", "_x_", "a__b", "__init__", "x_*y*_z", "a_[b](c)_d", "Ζωή_2",
                "Tom & Co", "&amp;", "x&#42;y", "&copy", "a&b;"]
"""Names with underscores and ampersands where they are text and where they are markup."""


@pytest.mark.parametrize("name", INLINE_NAMES)
def test_inside_a_line_the_name_shows_as_text(name: str) -> None:
    """After a widget label's first words (``tricks: NAME``) the name shows exactly."""
    rendered = MarkdownIt("commonmark").renderInline(f"tricks: {md_inline(name)}").replace(
        JOINER, "")
    quoted = html(name).replace("&#x27;", "'").replace("&quot;", '"')
    assert rendered in (f"tricks: {html(name)}", f"tricks: {quoted}")


@pytest.mark.parametrize("name", ["O'Brien", "Jean-Luc", "A. Smith", "Anna (jr)", "Ζωή #2",
                                  "D\\Ana", "a_b", "snake_case_name", "Ζωή_2", "Tom & Co"])
def test_a_plain_name_gets_no_backslash_inside_a_line(name: str) -> None:
    """A widget's label is its aria-label (Streamlit writes the label there as it is), read as
    written by a screen reader: "tricks: O\\'Brien" was read with its backslash, and the Entry
    page's "tricks: a\\_b" and "tricks: Tom \\& Co" still were (an underscore inside a word and
    an ampersand that starts no entity are no markup, CommonMark 6.2 and 2.5)."""
    assert md_inline(name) == name


def test_a_value_is_quoted_as_a_user_reads_it() -> None:
    """A link's value was quoted by Python: a pair ``O'Brien\\é`` read ``"O'Brien\\\\é"``,
    a tab ``\\t``. The quotes are a reader's, the backslash is the value's own, a control
    character is its picture, and a value is cut after ``limit`` characters."""
    assert quoted("O'Brien\\é") == "“O'Brien\\é”"
    assert quoted("a\tb\nc\x7f") == "“a␉b␊c␡”"
    assert quoted("6S" * 3, 4) == "“6S6S…”" and quoted("6S6S", 4) == "“6S6S”"
    rendered = MarkdownIt("commonmark").renderInline(md(quoted("**x** <b>")))
    assert rendered == "“**x** &lt;b&gt;”"


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


def test_a_game_s_rules_are_listed_in_the_words_of_its_variant() -> None:
    """bridge.md 9: ``scoring_profile: seed004`` named the spec's source text, a value of ours,
    where the Entry form says "simplified (Russian text)" (``model.base.ChoiceWords``); a
    field's ``title`` is its name (``seed004_defeat_bonus``: "defeated doubled bonus")."""
    table = rules_table('{"scoring_profile": "seed004", "seed004_defeat_bonus": 100, '
                        '"honours": false, "passed_out": null, "x_y": "a_b"}', "bridge-rubber")
    assert table["rule"].to_list() == ["scoring profile", "defeated doubled bonus", "honours",
                                       "passed out", "x y"]
    assert table["value"].to_list() == ["simplified (Russian text)", "100", "no", "—", "a b"]
    assert rules_table('{"scoring_profile": "seed004"}')["value"].to_list() == ["seed004"]


def _literals(annotation: Any) -> list[object]:
    """The values of a rule's ``Literal`` (inside ``Annotated`` or ``| None`` too), if any."""
    if get_origin(annotation) is Literal:
        return list(get_args(annotation))
    return [v for a in get_args(annotation) for v in _literals(a)]


@pytest.mark.parametrize("variant", [v.name for v in registered()])
def test_every_rule_and_choice_reads_as_words(variant: str) -> None:
    """Every house rule of every variant, with its default and each of its choices, as League and
    Balance list it: no code of ours in the rule or the value (``two_whister_q1_responsible``,
    ``bula_sum_le_zero``), no JSON (bridge's unfinished rubber ``[300, 50]``)."""
    for name, info in lookup(variant).rules_model.model_fields.items():
        for value in [info.default, *_literals(info.annotation)]:
            rule, said = rule_words(variant, name, value)
            assert "_" not in rule and "_" not in said, (name, value, rule, said)
            assert not re.search(r'[\[\]{}"]', said), (name, value, said)


@pytest.mark.parametrize(("variant", "name", "value", "rule", "said"), [
    # russian.md 7: consecutive raspasy go 1, 2, 3 "(then stays 3)"; alternative 1-2-4
    ("russian", "raspasy_progression", "1,2,3cap", "raspasy progression",
     "1, 2, 3, then stays 3"),
    ("russian", "raspasy_progression", "1,2,4", "raspasy progression", "1, 2, 4"),
    # russian.md 0, 9.1: [rostik]'s customised Sochi, "Sochi (custom)"
    ("russian", "convention", "soci-custom", "convention", "Sochi (custom)"),
    # russian.md 6: two whisters on 8-10, the team quota 1 is carried by the second whister;
    # [rostik] RS2: he pays when he took no trick himself
    ("russian", "two_whister_q1_responsible", "second_whister_personal",
     "who pays when two whisters are short on 8 to 10", "second whister without a trick"),
    # balkan.md 7.5: the game ends when the sum of the bulas reaches 0 or less
    ("balkan", "end_condition", "bula_sum_le_zero", "end condition",
     "sum of the bulas 0 or less"),
    ("balkan", "end_condition", "all_bulas_le_zero", "end condition", "every bula 0 or less"),
    # balkan.md 6: the declarer may not lead to Sanac's first trick; Serbian clubs: the player
    # before him leads
    ("balkan", "sans_lead", "through_declarer", "first lead in Sanac",
     "the player before the declarer"),
    # bridge.md 5: an unfinished rubber, 300 to a side with one game, 50 to a side with a
    # partscore (a game's rules JSON holds the pair as a list)
    ("bridge-rubber", "incomplete_rubber_bonus", [300, 50],
     "unfinished rubber bonus for one game, for a partscore", "300, 50"),
    # greek-prefa.md 10, 14: fractional chips kept exact or rounded
    ("greek-prefa", "chip_rounding", "exact_rational", "chip rounding", "exact fractions"),
    # balkan.md 0: the preset of [prefko]'s Serbian online club
    ("balkan", "preset", "serbian-club", "preset", "Serbian online club (prefko)"),
    # greek-prefa.md 14: 10NT not allowed, or allowed with value 11 or 10
    ("greek-prefa", "ten_nt", "value_11", "10NT contract", "worth 11"),
])
def test_a_rule_coded_by_us_is_listed_in_the_spec_s_words(variant: str, name: str,
                                                          value: object, rule: str,
                                                          said: str) -> None:
    assert rule_words(variant, name, value) == (rule, said)


def test_numbers_in_a_row_read_as_a_list() -> None:
    assert rule_value((300, 50)) == "300, 50"
    assert rule_value([1.5, 2]) == "1.5, 2"
    assert rule_value({"a": 1}) == '{"a": 1}'  # anything else as its JSON
    assert rule_value([True, 1]) == "[true, 1]"
    assert rules_table('{"incomplete_rubber_bonus": [500, 100]}', "bridge-duplicate")[
        "value"].to_list() == ["500, 100"]


@pytest.mark.parametrize("variant", [v.name for v in registered()])
def test_listed_rules_say_what_the_entry_form_says(variant: str) -> None:
    """Every rule the Entry form asks, and each of its choices, is listed (League's game,
    Balance's arms and what arm b changes) with the form's label and words; a rule left blank
    reads "default" in both (the form wrote a dash for bridge's honours)."""
    for rule in rule_fields(lookup(variant)):
        for value in [*rule.options, *([rule.default] if rule.default is not None else []),
                      *([None] if rule.optional else [])]:
            assert rule_words(variant, rule.name, value) == (rule.label, rule.shown(value))


def test_an_upload_is_named_by_the_name_it_was_given() -> None:
    """An upload is kept under its safe name (``audit_club.jsonl``), and listed under the name
    the user gave it (``audit club.jsonl``) where that name was kept (``names``: by the name it
    is kept under, ``dashboards.uploads.uploaded_names``); else under its safe name."""
    given = "Sitzung März 2026 — Tisch 1 ♠.jsonl"
    stored = stored_name(given, b"1")
    assert stored.endswith("Sitzung_März_2026___Tisch_1__.jsonl")
    names = {stored: given}
    assert short_source(f"/srv/club/uploads/{stored}", names) == \
        f"uploads/{given} (upload {stored[:12]})"
    assert short_source(f"/srv/club/uploads/{stored}") == \
        f"uploads/Sitzung_März_2026___Tisch_1__.jsonl (upload {stored[:12]})"
    assert short_paths(f"stored from /srv/club/uploads/{stored} line 3; this is", names) == \
        f"stored from uploads/{given} (upload {stored[:12]}) line 3; this is"


def test_a_conflict_names_an_upload_s_version_once() -> None:
    """ingest's messages name the stored record's source and its version: for an upload, whose
    name says its version, the page showed ``uploads/audit_club.jsonl (upload 1d98e9232605)
    line 5 (version 1d98e9232605)``. The version is said once; another version is still said."""
    earlier, later = stored_name("audit club.jsonl", b"1"), stored_name("audit club.jsonl", b"2")
    names = {earlier: "audit club.jsonl", later: "audit club.jsonl"}
    h, k = earlier[:12], later[:12]
    dropped = (f"deal 4 of game 'g' stored from /srv/up/{earlier} line 5 (version {h}) is not "
               "in this version 0123456789ab: ingest with --replace to drop it")
    assert short_paths(dropped, names) == (
        f"deal 4 of game 'g' stored from up/audit club.jsonl (upload {h}) line 5 is not in "
        "this version 0123456789ab: ingest with --replace to drop it")
    other = f"stored from up/{earlier} line 5 (version {k}); this is version 0123456789ab"
    assert short_paths(other, names) == (
        f"stored from up/audit club.jsonl (upload {h}) line 5 (version {k}); this is version "
        "0123456789ab")
    gone = (f"deal 4 of game 'g' was dropped from /srv/up/{later} by its version {k} (read with "
            "--replace); this is version 0123456789ab")
    assert short_paths(gone, names) == (
        f"deal 4 of game 'g' was dropped by up/audit club.jsonl (upload {k}) (read with "
        "--replace); this is version 0123456789ab")
    another = ("it comes from another file, and only a new version of audit_club.jsonl uploaded "
               "under that name can change it")
    assert short_paths(f"stored from /srv/up/{earlier} line 2; {another}", names) == (
        f"stored from up/audit club.jsonl (upload {h}) line 2; "
        + another.replace("audit_club.jsonl", "audit club.jsonl"))
    assert short_paths("stored from /srv/x/samples/a.jsonl line 2 (version 0123456789ab)") == \
        "stored from samples/a.jsonl line 2 (version 0123456789ab)"  # a file's version is said


@pytest.mark.parametrize("game", ["club-7/2026-12-06/table-1", "audit <i>game</i> 'x' 🂡",
                                  "a/../b//c", "0123456789abcdef-x/y"])
def test_an_entered_record_is_named_by_its_game_and_deal(game: str) -> None:
    """The Entry page stores each typed record under the source ``entry/<game id>/<deal>`` (or
    ``entry/<game id>/game``, ``dashboards.entry.source_of``); game ids hold "/" (a club, a
    day, a table), and were cut to their last two parts: ``table-1/3``, ``i> 'x' 🂡/1``."""
    from dashboards.entry import source_of

    deal = source_of({"record": "deal", "game_id": game, "deal_no": 3})
    assert short_source(deal) == f"entry: {game}, deal 3"
    assert short_source(source_of({"record": "game", "game_id": game})) == \
        f"entry: {game}, game line"


def test_a_file_in_a_folder_named_entry_is_a_file() -> None:
    assert short_source("entry/week.jsonl") == "entry/week.jsonl"
    assert short_source("/srv/club/entry/x/3") == "x/3"


def test_the_quality_page_names_an_entered_deal_by_its_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game typed on the Entry page with a "/" and markup in its id: Data quality listed its
    records as ``i> 'x' 🂡/game`` and ``i> 'x' 🂡/1``."""
    from dashboards import entry
    from tests.dashboards.test_pages import frame_with

    db = fx.build_empty(tmp_path / "t.duckdb")
    game = "club-7/audit <i>game</i> 'x' 🂡"
    players = ["Ana", "Ben", "Cy"]
    assert entry.write(db, {"record": "game", "game_id": game, "variant": "greek-prefa",
                            "players": players}).ok
    assert entry.write(db, {"record": "deal", "game_id": game, "deal_no": 1, "dealer": "Ana",
                            "declarer": "Ana", "contract": "6C",
                            "defence": {"Ben": "pass", "Cy": "invite"},
                            "tricks": {"Ana": 6, "Ben": 4, "Cy": 0}}).ok
    at = page("quality", db, monkeypatch)
    assert not at.exception
    assert sorted(frame_with(at, "sha256 (start)")["file"]) == [
        f"entry: {game}, deal 1", f"entry: {game}, game line"]


def test_repairs_are_counted_as_records_and_fixes() -> None:
    """The Data quality page said "1,000 records stored after a named fix (first 1,000…)" for
    5,701 records of 7,707 fixes, and "2 records stored" for one record of two fixes that was a
    duplicate, so not stored: records, fixes and what was stored are counted apart, and the
    list's cut is said as a cut."""
    assert repairs_said({"records": 5701, "repairs": 7707, "stored": 5700}, 1000) == (
        "5,701 records read with a named fix (7,707 repairs; 5,700 stored, 1 a duplicate of a "
        "deal stored before). The first 1,000 repairs are listed. `--strict` refuses such "
        "records (docs/ingest.md, \"Repairs\").")
    assert repairs_said({"records": 1, "repairs": 2, "stored": 0}, 2).startswith(
        "1 record read with a named fix (2 repairs; not stored: a duplicate of a deal stored "
        "before). `--strict`")
    assert "(1 repair; stored)." in repairs_said({"records": 1, "repairs": 1, "stored": 1}, 1)
    assert "(9 repairs; 4 stored, 2 duplicates of deals stored before)." in repairs_said(
        {"records": 6, "repairs": 9, "stored": 4}, 9)


def test_versions_are_counted_in_all_not_as_the_rows_listed() -> None:
    """The Versions list of the Data quality page said "N records ... (first 1,000 …)" with N
    the rows it listed, at most 1,000, and "first 1,000" also for three: the count is of
    every row of ``superseded``, and the list's cut is said only where it cuts."""
    assert versions_said(2500, 1000) == (
        "2,500 records of an earlier version replaced or dropped by a later one "
        "(docs/ingest.md, \"Versions of a source\"). The latest 1,000 are listed.")
    assert versions_said(1, 1) == (
        "1 record of an earlier version replaced or dropped by a later one "
        "(docs/ingest.md, \"Versions of a source\").")


def test_the_versions_count_is_of_every_row(tmp_path: Path) -> None:
    """``queries.superseded_count`` counts every row of ``superseded`` (of a file), where
    ``queries.superseded`` lists the latest 1,000 (docs/dashboards.md, Data quality)."""
    from dashboards import queries
    from ingest.store import connect

    db = tmp_path / "v.duckdb"
    conn = connect(db)
    try:
        assert queries.superseded_count(conn) == 0
        conn.execute("INSERT INTO superseded (source, change, record_key, line, previous, "
                     "version, ingested_at, record) SELECT CASE WHEN i % 2 = 0 THEN 'a.jsonl' "
                     "ELSE 'b.jsonl' END, 'deal replaced', 'g#' || i, i, 'p', 'v', now(), '{}' "
                     "FROM range(1, 1203) t(i)")
        assert queries.superseded_count(conn) == 1202
        assert queries.superseded_count(conn, "a.jsonl") == 601
        assert queries.superseded(conn).height == 1000
    finally:
        conn.close()
