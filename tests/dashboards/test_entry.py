"""The Entry page (AppTest) and its writer (``dashboards/entry.py``): a deal with an error shows
ingest's own message and stores nothing; a good deal is in the sheet and standings at once; a
correction keeps both versions; the write token blocks writes; every variant's form is drawn
from its models."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import get_args

import duckdb
import pytest
from pydantic.fields import FieldInfo
from streamlit.testing.v1 import AppTest

from dashboards import entry
from dashboards import queries as q
from dashboards.db import DB_ENV, read_only
from dashboards.text import md, md_inline, rule_value
from ingest.pipeline import ingest_paths
from ingest.source import Issue
from ingest.validate import Accepted
from model.balkan.params import PRESET_WORDS
from model.base import ChoiceWords
from model.problems import Code
from model.variants import registered
from model.variants import variant as lookup
from tests.conftest import ROOT
from tests.dashboards import fixture_db as fx
from tests.dashboards.conftest import table_counts
from tests.dashboards.test_pages import frame_with, page

GAME = "club-night/1"
PLAYERS = ["Ana", "Ben", "Cy"]


def start(at: AppTest, variant: str = "greek-prefa", players: list[str] = PLAYERS,
          game_id: str = GAME) -> AppTest:
    at.selectbox(key="entry_variant").set_value(variant).run()
    at.text_input(key="entry_game_id").input(game_id).run()
    at.text_input(key="entry_players").input(", ".join(players)).run()
    at.button(key="entry_start").click().run()
    assert not at.exception
    assert at.selectbox(key="entry_game").value == game_id, [e.value for e in at.error]
    return at


def type_deal(at: AppTest, no: int, tricks: tuple[int, int, int], declarer: str = "Ana",
              contract: str = "6S") -> AppTest:
    """A Greek deal (greek-prefa.md 6.1): ``declarer`` plays ``contract``, both defenders play.
    The fields the declarer's choice draws are filled together, then the page runs once."""
    at.number_input(key="entry_deal_no").set_value(no).run()
    at.selectbox(key=f"entry_d{no}_declarer").set_value(declarer).run()
    at.text_input(key=f"entry_d{no}_contract").input(contract)
    for i, p in enumerate(PLAYERS):
        if p != declarer:
            at.selectbox(key=f"entry_d{no}_defence_{i}").set_value("play")
        at.number_input(key=f"entry_d{no}_tricks_{i}").set_value(tricks[i])
    at.run()
    assert not at.exception
    return at


def widget_keys(at: AppTest) -> set[str]:
    return {str(w.key) for kind in ("selectbox", "text_input", "number_input", "checkbox",
                                    "text_area") for w in at.get(kind)}


def rows(db: Path, sql: str, params: list[object]) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def test_a_deal_with_an_error_shows_the_ingest_message_and_stores_nothing(
        fixture_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = start(page("entry", fixture_copy, monkeypatch))
    before = table_counts(fixture_copy)
    type_deal(at, 1, (6, 2, 1))  # 9 tricks: greek-prefa.md 7, the ten tricks are all shared
    # the same lines through `trickbook ingest`'s path, into a database of their own
    (stored,) = rows(fixture_copy, "SELECT record::VARCHAR FROM games WHERE game_id = ?",
                     [GAME])
    game = json.dumps({"record": "game", **json.loads(str(stored[0]))})
    deal = {"record": "deal", "game_id": GAME, "deal_no": 1, "dealer": "Ana",
            "declarer": "Ana", "contract": "6S", "defence": {"Ben": "play", "Cy": "play"},
            "tricks": {"Ana": 6, "Ben": 2, "Cy": 1}}
    lines = tmp_path / "typed.jsonl"
    lines.write_text(f"{game}\n{json.dumps(deal)}\n")
    (report,) = ingest_paths([lines], fx.build_empty(tmp_path / "other.duckdb"))
    (issue,) = report.issues
    assert md(entry.message(issue)) in [e.value for e in at.error]  # its words, not its code
    assert "tricks (Ana 6, Ben 2, Cy 1) sum to 9, not 10" in issue.message  # not a dict
    assert at.button(key="entry_save").disabled
    assert table_counts(fixture_copy) == before


def test_a_good_deal_is_in_the_sheet_and_standings_at_once(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = start(page("entry", fixture_copy, monkeypatch))
    type_deal(at, 1, (6, 2, 2))
    assert "Deal 1 is valid." in [s.value for s in at.success]
    at.button(key="entry_save").click().run()
    assert not at.exception
    assert any("Deal 1 is stored" in s.value for s in at.success)
    assert at.number_input(key="entry_deal_no").value == 2  # on to the next deal
    sheet = frame_with(at, "Kassa Ana")
    assert sheet["deal"].tolist() == ["1", "—"]  # the deal and the total row
    with read_only(fixture_copy) as con:
        standings = q.game_standings(con, GAME)
        log = q.ingest_log(con, f"{entry.PREFIX}{GAME}/1")
    shown = frame_with(at, "cash (chips)")
    assert shown["player"].tolist() == standings["player"].to_list()
    assert shown["cash (chips)"].tolist() == standings["cash"].to_list()
    assert standings["cash"].abs().sum() > 0 and standings["deals_played"].to_list() == [1] * 3
    assert log.height == 1  # recorded in ingest_log like any source


def test_a_correction_keeps_both_versions(fixture_copy: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    at = start(page("entry", fixture_copy, monkeypatch))
    type_deal(at, 1, (6, 2, 2)).button(key="entry_save").click().run()
    type_deal(at, 1, (5, 3, 2))
    assert any("Deal 1 is stored" in i.value for i in at.info)  # the page says it is a correction
    at.button(key="entry_save").click().run()
    assert any("new version" in s.value for s in at.success)
    source = f"{entry.PREFIX}{GAME}/1"
    logged = rows(fixture_copy, "SELECT sha256 FROM ingest_log WHERE source = ?", [source])
    assert len({sha for (sha,) in logged}) == 2
    (record,) = rows(fixture_copy, "SELECT record::VARCHAR FROM deals WHERE game_id = ? AND "
                                   "deal_no = 1", [GAME])
    assert json.loads(str(record[0]))["tricks"] == {"Ana": 5, "Ben": 3, "Cy": 2}
    versions = frame_with(at, "as typed")
    assert versions["status"].tolist() == ["superseded", "stored"]
    # the fields as the form takes them, not as JSON ('tricks {"Ana": 6, ...}')
    assert "tricks: Ana 6, Ben 2, Cy 2" in versions["as typed"].iloc[0]
    assert "tricks: Ana 5, Ben 3, Cy 2" in versions["as typed"].iloc[1]
    assert "defence: Ben play, Cy play" in versions["as typed"].iloc[1]
    assert not versions["as typed"].str.contains('[{"]').any()
    # what the correction changed, readable where "as typed" is cut off at the column's width
    changed = versions["changed from the version before"].tolist()
    assert changed == ["", "tricks: Ana 5, Ben 3, Cy 2 (was Ana 6, Ben 2, Cy 2)"]
    files = sorted((fixture_copy.parent / "uploads" / "entry").glob("*.jsonl"))
    assert len(files) == 3  # the game line and both versions of the deal, each kept


def test_the_write_token_blocks_entry(fixture_copy: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKBOOK_WRITE_TOKEN", "s3cret")
    before = table_counts(fixture_copy)
    at = page("entry", fixture_copy, monkeypatch)
    assert not at.exception and not at.get("selectbox")
    at.text_input(key="entry_token").input("wrong").run()
    assert any("not the club's write token" in e.value for e in at.error)
    assert not at.get("selectbox") and not at.get("button")
    assert table_counts(fixture_copy) == before
    at.text_input(key="entry_token").input("s3cret").run()
    start(at)
    at.selectbox(key="entry_d1_declarer").set_value("Ben").run()  # a deal typed, game started
    assert at.get("selectbox") and not any("write token" in i.value for i in at.info)
    monkeypatch.delenv("TRICKBOOK_WRITE_TOKEN")
    assert page("entry", fixture_copy, monkeypatch).get("selectbox")  # no token: open


def test_a_folder_that_cannot_be_written_is_said_not_raised(fixture_copy: Path,
                                                            tmp_path: Path) -> None:
    """Every entered record is kept as a file beside the database first: where that folder
    cannot be written, the page says so and nothing is stored (it raised OSError)."""
    (tmp_path / "file").write_text("")
    before = table_counts(fixture_copy)
    game = {"record": "game", "game_id": "entry-blocked/1", "variant": "greek-prefa",
            "players": PLAYERS}
    written = entry.write(fixture_copy, game, tmp_path / "file" / "entry")
    assert not written.ok and written.text.startswith("nothing was stored: the folder ")
    assert str(tmp_path) not in written.text
    assert table_counts(fixture_copy) == before


@pytest.mark.parametrize("variant", [v.name for v in registered()])
def test_every_variant_gets_its_form(variant: str, fixture_copy: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The form is drawn from the variant's models: every field it names is asked."""
    v = next(v for v in registered() if v.name == variant)
    players = ["Ana", "Ben", "Cy", "Dan"] if v.partnerships else PLAYERS
    at = start(page("entry", fixture_copy, monkeypatch), variant, players, f"{variant}/1")
    at.selectbox(key="entry_d1_declarer").set_value("Ben").run()  # the defenders' fields
    keys = widget_keys(at)
    for name in v.entry_fields:
        assert {f"entry_d1_{name}", f"entry_d1_{name}_0"} & keys, name
    assert at.success or at.error  # ingest's verdict on the deal as typed so far


def test_a_preset_fills_the_rules(fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Balkan presets (balkan.md 10): the game line names the preset, its flags come with it.
    The box names each by the source whose rules it is (it showed ``iklub``, ``seed``)."""
    at = page("entry", fixture_copy, monkeypatch)
    at.selectbox(key="entry_variant").set_value("balkan").run()
    box = at.selectbox(key="entry_preset_balkan")  # each named by its source (balkan.md 0)
    assert box.options == ["(the spec's defaults)", *PRESET_WORDS.values()]
    box.set_value("serbian-club").run()
    start(at, "balkan")
    (rules,) = rows(fixture_copy, "SELECT rules::VARCHAR FROM games WHERE game_id = ?", [GAME])
    balkan = next(v for v in registered() if v.name == "balkan")
    assert json.loads(str(rules[0])) == json.loads(
        balkan.rules({"preset": "serbian-club"}).model_dump_json())


def test_names_are_escaped_in_the_form(fixture_copy: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A player named like Markdown shows as text (docs/dashboards.md, "Hostile input")."""
    evil = "![t](http://host/x.png)"
    at = start(page("entry", fixture_copy, monkeypatch), players=["Ana", evil, "Cy"],
               game_id=f"{evil}/1")
    assert at.number_input(key="entry_d1_tricks_1").label == f"tricks: {md_inline(evil)}"
    assert at.subheader[0].value == f"Deal of {md(evil + '/1')}"


def test_every_entry_field_can_be_asked() -> None:
    for v in registered():
        asked = [f.name for f in entry.deal_fields(v)]
        assert asked == list(v.entry_fields), v.name


def _pairs(items: list[object]) -> str:
    """An auction or play of a record typed as the form takes it: ``player item`` pairs."""
    return ", ".join(f"{i['player']} {i['call']}" if isinstance(i, dict) else " ".join(i)
                     for i in items)


def type_cards(at: AppTest, deal: dict[str, object], players: list[str],
               hands: dict[str, list[str]]) -> AppTest:
    """The cards section typed from a record: hands per seat, talon, auction, discard, play;
    then the page runs once."""
    for i, p in enumerate(players):
        at.text_input(key=f"entry_d1_hands_{i}").input(" ".join(hands[p]))
    for name in ("talon", "discard"):
        at.text_input(key=f"entry_d1_{name}").input(" ".join(deal[name]))  # type: ignore
    for name in ("auction", "play"):
        at.text_area(key=f"entry_d1_{name}").input(_pairs(deal[name]))  # type: ignore
    at.run()
    assert not at.exception
    return at


def test_cards_typed_are_checked_as_ingest_checks_them_and_stored(
        fixture_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cards optional (issue 17): the fixture's full Greek deal (greek-prefa.md 6.1: Chris 6S
    made with 6 tricks, the play of ten tricks) typed with one card wrong in a hand shows
    ingest's own message and stores nothing; typed right, the deal is stored with its cards."""
    names = {"Anna": "Ana", "Boris": "Ben", "Chris": "Cy"}
    deal = fx.full_deal(GAME, names)
    at = start(page("entry", fixture_copy, monkeypatch))
    type_deal(at, 1, (2, 2, 6), declarer="Cy")
    assert "Deal 1 is valid." in [s.value for s in at.success]  # no cards: a score-sheet deal
    before = table_counts(fixture_copy)
    bad = {**deal["hands"], "Ana": [*deal["hands"]["Ana"][:-1], "7H"]}  # 8S -> 7H, Cy's card
    type_cards(at, deal, PLAYERS, bad)
    (stored,) = rows(fixture_copy, "SELECT record::VARCHAR FROM games WHERE game_id = ?",
                     [GAME])
    lines = tmp_path / "typed.jsonl"
    lines.write_text(json.dumps({"record": "game", **json.loads(str(stored[0]))}) + "\n"
                     + json.dumps({**deal, "hands": bad}) + "\n")
    (report,) = ingest_paths([lines], fx.build_empty(tmp_path / "other.duckdb"))
    (issue,) = report.issues
    assert md(entry.message(issue)) in [e.value for e in at.error]  # its words, not its code
    assert at.button(key="entry_save").disabled
    assert table_counts(fixture_copy) == before
    type_cards(at, deal, PLAYERS, deal["hands"])
    assert "Deal 1 is valid." in [s.value for s in at.success], [e.value for e in at.error]
    at.button(key="entry_save").click().run()
    assert any("Deal 1 is stored" in s.value for s in at.success)
    (record,) = rows(fixture_copy, "SELECT record::VARCHAR FROM deals WHERE game_id = ? AND "
                                   "deal_no = 1", [GAME])
    got = json.loads(str(record[0]))
    for name in ("hands", "talon", "auction", "discard", "play"):
        assert got[name] == deal[name], name
    with read_only(fixture_copy) as con:
        assert con.execute("SELECT has_cards FROM deals WHERE game_id = ?", [GAME]).fetchone() \
            == (True,)


def test_typed_pairs_read_as_the_record_holds_them() -> None:
    assert entry.calls_of("Ben pass, Cy 6S;\nAna  pass") == [
        {"player": "Ben", "call": "pass"}, {"player": "Cy", "call": "6S"},
        {"player": "Ana", "call": "pass"}]
    assert entry.plays_of("Ana Maria AH, Ben 9H") == [["Ana Maria", "AH"], ["Ben", "9H"]]
    assert entry.plays_of("AH") == [["", "AH"]]  # no player: ingest says so
    assert entry.calls_of(" , ") is None
    stored = [{"player": "Ben", "call": "pass"}, {"player": "Cy", "call": "6S"}]
    assert entry.calls_of(entry.pairs_text(stored)) == stored
    assert entry.pairs_text([["Ben", "AD"], ["Cy", "7D"]]) == "Ben AD, Cy 7D"


def test_suits_typed_as_the_pages_write_them(fixture_copy: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages write a contract ``6♠`` (the sheet, the replayer); typed so into Entry it read
    "'6♠' is not a contract". A suit symbol in a contract, call or card is read as its letter
    (records.md 1.2), never in a player's name."""
    at = start(page("entry", fixture_copy, monkeypatch))
    type_deal(at, 1, (6, 2, 2), contract="6♠")
    assert "Deal 1 is valid." in [s.value for s in at.success], [e.value for e in at.error]
    assert entry.calls_of("Ben pass, Cy 7♥") == [{"player": "Ben", "call": "pass"},
                                                  {"player": "Cy", "call": "7H"}]
    assert entry.plays_of("♣ Club Q♦") == [["♣ Club", "QD"]]
    assert entry.cards_of("A♠, 10♣") == ["AS", "10C"]


TYPED_CONTRACTS = {"greek-prefa": (" 6s ", "6S"), "russian": ("7nt", "7NT"),
                   "balkan": ("g3", "G3"), "swabian": (" 5 ", "5"),
                   "bridge-rubber": ("3nt", "3NT"), "bridge-duplicate": (" 4sx ", "4SX")}
"""Each variant's contract as a scorer may type it, and as its records write it (records.md
1.2)."""


def _verdict(at: AppTest) -> list[str]:
    return [m.value for kind in (at.error, at.warning, at.success) for m in kind]


@pytest.mark.parametrize("variant", [v.name for v in registered()])
def test_a_contract_typed_in_small_letters_or_with_spaces_is_the_contract(
        variant: str, fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``6S`` was taken and ``6s``, ``3nt`` or `` 6S `` refused ("'6s' is not a contract"): the
    page says of a contract typed in any case, with spaces around it, what it says of the
    contract as the records write it (``model/base.py`` ``spelled(any_case=True)``)."""
    v = lookup(variant)
    players = ["Ana", "Ben", "Cy", "Dan"] if v.partnerships else PLAYERS
    at = start(page("entry", fixture_copy, monkeypatch), variant, players, f"{variant}/1")
    at.selectbox(key="entry_d1_declarer").set_value("Ben").run()
    typed, written = TYPED_CONTRACTS[variant]
    at.text_input(key="entry_d1_contract").input(written).run()
    said = _verdict(at)
    at.text_input(key="entry_d1_contract").input(typed).run()
    assert not at.exception
    assert _verdict(at) == said
    assert not any("is not a" in m for m in said), said


def test_a_contract_typed_in_small_letters_is_stored_as_the_records_write_it(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = start(page("entry", fixture_copy, monkeypatch))
    type_deal(at, 1, (6, 2, 2), contract=" 6s ")
    assert "Deal 1 is valid." in [s.value for s in at.success], [e.value for e in at.error]
    at.button(key="entry_save").click().run()
    assert any("Deal 1 is stored" in s.value for s in at.success)
    (stored,) = rows(fixture_copy, "SELECT contract, record::VARCHAR FROM deals WHERE "
                                   "game_id = ? AND deal_no = 1", [GAME])
    assert stored[0] == json.loads(str(stored[1]))["contract"] == "6S"


def _place(at: AppTest, key: str) -> tuple[int, ...]:
    """Where the widget ``key`` is drawn: its path of child indexes from the page's main body,
    which is how the browser matches a rerun's elements to the ones it shows."""
    def walk(node: object, path: tuple[int, ...]) -> tuple[int, ...] | None:
        if getattr(node, "key", None) == key:
            return path
        for i, child in getattr(node, "children", {}).items():
            found = walk(child, (*path, i))
            if found is not None:
                return found
        return None

    found = walk(at.main, ())
    assert found is not None, f"{key!r} is not drawn"
    return found


def test_the_form_keeps_its_place_when_a_message_goes(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The message of the last write is shown once; the next run must draw the form where it
    was, or the browser shows it twice (the old form, stale, until the run ends) and a choice
    made meanwhile lands in the old one."""
    at = start(page("entry", fixture_copy, monkeypatch))
    assert any("is stored" in s.value for s in at.success)
    first = _place(at, "entry_d1_declarer")
    at.selectbox(key="entry_d1_declarer").set_value("Ana").run()
    assert not any("is stored" in s.value for s in at.success)  # the message went
    assert _place(at, "entry_d1_declarer") == first
    type_deal(at, 1, (6, 2, 2))
    at.button(key="entry_save").click().run()
    assert any("Deal 1 is stored" in s.value for s in at.success)
    at.number_input(key="entry_deal_no").set_value(1).run()  # the stored deal: its note shows
    assert any("Deal 1 is stored:" in i.value for i in at.info)
    assert _place(at, "entry_d1_declarer") == first


@pytest.mark.parametrize("variant", [v.name for v in registered() if v.by_defenders])
def test_the_declarer_is_not_asked_his_own_defence(variant: str, fixture_copy: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Each defender plays or passes (greek-prefa.md 6.1, balkan.md, russian.md: the defence);
    the form asked the declarer too, and with nobody declaring it asked all three."""
    at = start(page("entry", fixture_copy, monkeypatch), variant, game_id=f"{variant}/1")
    assert not {k for k in widget_keys(at) if k.startswith("entry_d1_defence")}
    at.selectbox(key="entry_d1_declarer").set_value("Ben").run()
    assert {k for k in widget_keys(at) if k.startswith("entry_d1_defence")} == {
        "entry_d1_defence_0", "entry_d1_defence_2"}  # Ana and Cy, in their places


@pytest.mark.parametrize(("typed", "said"), [
    (11, "must be at most 10 (got 11)"), (2.5, "must be a whole number (got 2.5)"),
    (-1, "must be at least 0 (got -1)")])
def test_a_number_out_of_range_or_with_a_fraction_gets_ingest_s_message(
        typed: float, said: str, fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tricks are 0 to 10 (greek-prefa.md 7). The widget held its bounds and whole steps itself:
    11 was refused without a word, 2.5 stored as 2. Now the number typed reaches ingest, whose
    message names the field, and nothing can be saved."""
    at = start(page("entry", fixture_copy, monkeypatch))
    type_deal(at, 1, (6, 2, 2))
    at.number_input(key="entry_d1_tricks_1").set_value(typed).run()
    errors = [e.value for e in at.error]
    assert any(md(f"tricks of Ben: {said}") in e for e in errors), errors
    assert at.button(key="entry_save").disabled


def test_a_blank_tricks_box_is_named(fixture_copy: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's tricks box left blank is left out of the record, so the rule's message
    (greek-prefa.md 6.1: tricks name exactly the players who played) named only the players
    typed; the page now says whose box is blank. A box of a form field is named "tricks of
    Ben", not by the record's path ``tricks.Ben``."""
    at = start(page("entry", fixture_copy, monkeypatch))
    type_deal(at, 1, (6, 2, 2))
    at.number_input(key="entry_d1_tricks_2").set_value(None).run()
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "should name exactly the players who played" in errors[0]
    assert errors[0].endswith(md(f". Blank: tricks of {PLAYERS[2]}.")), errors
    assert at.button(key="entry_save").disabled


def test_names_that_differ_only_in_capitals_are_pointed_out(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Ana, ana, Cy`` is three players to the records (a name twice is refused only as the
    same text), which a scorer who typed one of them twice does not mean: the page says so,
    and lets him start the game all the same."""
    at = page("entry", fixture_copy, monkeypatch)
    at.text_input(key="entry_game_id").input("club-night/9").run()
    at.text_input(key="entry_players").input("Ana, ana, Cy").run()
    assert [w.value for w in at.warning] == [
        "Ana and ana differ only in capitals: they are two players to the records. If they "
        "are one, type the name once."]
    assert not at.button(key="entry_start").disabled
    at.text_input(key="entry_players").input("Ana, Ben, Cy").run()
    assert not at.warning


def test_a_duplicate_deal_starts_on_its_board(fixture_copy: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A new duplicate game opened on the error 'a duplicate deal needs its board or
    vulnerable' before anything was typed; deal n starts on board n (bridge.md 6: the board
    number gives the vulnerability), as the dealer starts in turn."""
    players = ["Ana", "Ben", "Cy", "Dan"]
    at = start(page("entry", fixture_copy, monkeypatch), "bridge-duplicate", players,
               "bridge-duplicate/1")
    assert at.number_input(key="entry_d1_board").value == 1
    assert not any("board or vulnerable" in e.value for e in at.error)


@pytest.mark.parametrize(("variant", "players"), [
    ("russian", PLAYERS), ("bridge-rubber", ["Nia", "Eli", "Sam", "Wes"])])
def test_a_new_deal_opens_on_what_to_type_not_on_an_error(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch, variant: str,
        players: list[str]) -> None:
    """A Russian game opened its first deal on an error before anything was typed ("a raspasy
    deal (no declarer) needs the tricks of each player", russian.md: a deal nobody declares is
    raspasy); the blank deal now says what to type, and the error comes with what is typed."""
    at = start(page("entry", fixture_copy, monkeypatch), variant, players)
    assert not at.error, [e.value for e in at.error]
    hint = [i.value for i in at.info if i.value.startswith("Type deal 1:")]
    assert hint and not [s.value for s in at.success if "valid" in s.value]
    # a blank Greek or bridge deal is one nobody declared, which may be saved as such
    assert at.button(key="entry_save").disabled == (variant == "russian")
    at.selectbox(key="entry_d1_declarer").set_value(players[1]).run()
    at.text_input(key="entry_d1_contract").input("no such contract").run()
    assert at.error and at.button(key="entry_save").disabled


def test_the_next_deal_is_not_called_valid_before_it_is_typed_nor_a_gap_unsaid(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a deal was saved the next, untouched, read "Deal 2 is valid: nobody declared." with
    Save ready; a deal typed past the next left a gap in the sheet without a word."""
    at = start(page("entry", fixture_copy, monkeypatch))
    type_deal(at, 1, (6, 2, 2))
    at.button(key="entry_save").click().run()
    assert at.number_input(key="entry_deal_no").value == 2
    assert not [s.value for s in at.success if "valid" in s.value]
    assert any(i.value.startswith("Type deal 2:") for i in at.info)
    at.number_input(key="entry_deal_no").set_value(5).run()
    assert any("Deals 2 to 4 are not entered yet" in w.value for w in at.warning)
    at.number_input(key="entry_deal_no").set_value(3).run()
    assert any("Deal 2 is not entered yet" in w.value for w in at.warning)
    at.number_input(key="entry_deal_no").set_value(1).run()
    assert not at.warning and any("Deal 1 is stored" in i.value for i in at.info)


def test_a_new_game_s_id_is_asked_for_in_words(fixture_copy: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A game id cleared read "schema: game_id: String should have at least 1 character", an id
    taken read "game-conflict: ... already known with other content" and the stored JSON."""
    at = start(page("entry", fixture_copy, monkeypatch))
    at.selectbox(key="entry_game").set_value("(new game)").run()
    at.text_input(key="entry_players").input("Ana, Ben, Dee").run()
    at.text_input(key="entry_game_id").input("").run()
    assert any(i.value.startswith("Type the game's id") for i in at.info)
    assert not at.error and at.button(key="entry_start").disabled
    at.text_input(key="entry_game_id").input(GAME).run()
    said = [e.value for e in at.error]
    assert len(said) == 1 and "is stored already, with other players" in said[0], said
    assert "{" not in said[0] and "rules" not in said[0]
    assert at.button(key="entry_start").disabled
    assert "choose that game above" in said[0]  # an entered game: the Game box has it
    filed = fx.G1  # a game of a file, which the box does not offer
    at.text_input(key="entry_game_id").input(filed).run()
    (said_of_file,) = [e.value for e in at.error]
    assert "choose that game above" not in said_of_file
    assert said_of_file.endswith("It was not entered on this page but read from a file or "
                                 "simulated: its deals come from there.")
    at.text_input(key="entry_game_id").input("club-night/2").run()
    assert not at.error and any("game line is valid" in s.value for s in at.success)


def test_a_version_reads_as_the_form_takes_it() -> None:
    """Versions, "as typed": cards, an auction and a play in the words the form takes them
    (docs/dashboards.md, Entry), not as JSON."""
    assert entry.typed_value(["AS", "KS", "TH"]) == "AS KS TH"
    assert entry.typed_value([{"call": "pass", "player": "Ben"},
                              {"call": "6S", "player": "Cy"}]) == "Ben pass, Cy 6S"
    assert entry.typed_value([["Ben", "AD"], ["Cy", "7D"]]) == "Ben AD, Cy 7D"
    assert entry.typed_value({"Ana": ["AS"], "Ben": []}) == "Ana AS, Ben"
    assert entry.typed_value(True) == "yes"


def test_a_reload_keeps_the_game_and_a_scorer_reads_no_spec_sections(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game being entered is in the URL (``?game=``): a reload opened "(new game)" with a
    new id, as if the game were gone. A new Russian deal says what to type in the table's words,
    without ingest's citation of the rulebook ("russian.md 7"); a game id is typed within the
    200 characters the records take (model.base.GameBase)."""
    at = page("entry", fixture_copy, monkeypatch)
    assert at.text_input(key="entry_game_id").max_chars == entry.GAME_ID_CHARS == 200
    at = start(at, "russian", ["Ivan", "Olga", "Pavel"], "club-night/ru")
    assert at.query_params["game"] in ("club-night/ru", ["club-night/ru"])
    (prompt,) = [i.value for i in at.info if i.value.startswith("Type deal 1")]
    assert prompt.startswith("Type deal 1: its declarer, contract and tricks. A raspasy deal")
    assert ".md" not in prompt
    again = page("entry", fixture_copy, monkeypatch, game="club-night/ru")
    assert again.selectbox(key="entry_game").value == "club-night/ru"
    assert not again.exception


def test_a_message_loses_its_rulebook_citation_only() -> None:
    """``entry.message``: ingest's words without the sections they cite (russian.md 7)."""
    from ingest.source import Issue
    from model.problems import Code

    def said(text: str) -> str:
        return entry.message(Issue("s", 1, None, Code.SCHEMA, text, ""))

    assert said("x given but nobody declared (raspasy, russian.md 7)") == (
        "x given but nobody declared (raspasy)")
    assert said("needs the tricks of each player (russian.md 7)") == (
        "needs the tricks of each player")
    plain = "tricks (Ana 6, Ben 2) sum to 8, not 10"
    assert said(plain) == plain


def test_a_name_s_label_has_no_backslash_a_screen_reader_reads(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The label is the input's aria-label: "tricks: O\\'Brien" was read with its backslash."""
    at = start(page("entry", fixture_copy, monkeypatch), players=["Ana", "O'Brien", "Jean-Luc"],
               game_id="aria/1")
    assert at.number_input(key="entry_d1_tricks_1").label == "tricks: O'Brien"
    assert at.number_input(key="entry_d1_tricks_2").label == "tricks: Jean-Luc"


def test_the_game_being_entered_is_kept_across_pages(fixture_copy: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Entry, then League from the menu, then Entry again opened "(new game)": Streamlit drops a
    widget's state once a page without it has run, and the menu's link has no ``?game=``
    (``dashboards.common.url_choice`` keeps the page's last choice)."""
    monkeypatch.setenv(DB_ENV, str(fixture_copy))
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60).run()
    start(at.switch_page("views/entry.py").run())
    for other in ("views/league.py", "views/player.py"):
        at.switch_page(other).run()
        at.switch_page("views/entry.py").run()
        assert not at.exception
        assert at.selectbox(key="entry_game").value == GAME, other
        assert at.query_params["game"] in (GAME, [GAME])


def test_a_blank_name_among_the_players_is_said(fixture_copy: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``Ana, , Cy`` read "Greek Prefa needs 3 or 4 players, got 2": the blank name was dropped
    without a word. A comma typed before the next name is not a blank seat."""
    at = page("entry", fixture_copy, monkeypatch)
    at.text_input(key="entry_game_id").input("club-night/9").run()
    at.text_input(key="entry_players").input("Ana, , Cy").run()
    assert [e.value for e in at.error] == [
        "The name of the player in seat 2 is blank: type it, or remove its comma."]
    assert at.button(key="entry_start").disabled
    at.text_input(key="entry_players").input("Ana, Ben, Cy, ").run()
    assert not at.error and not at.button(key="entry_start").disabled
    assert entry.blank_seats(" , Ben,, Dee,,") == [1, 3]


def test_a_taken_game_id_says_what_differs_from_the_stored_game() -> None:
    """A game id taken, with the players of the stored game, said "with other players or
    rules" (records.md 1.1: a game line differing from the stored one is a conflict); the
    parts compared are the canonical records ingest stores."""
    stored = entry.validate(entry.game_record(
        lookup("greek-prefa"), GAME, PLAYERS, {}, datetime(2026, 12, 1, 20, 0, tzinfo=UTC),
        None), lambda _gid: None)
    assert isinstance(stored, Accepted)
    later = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
    same = entry.game_record(lookup("greek-prefa"), GAME, PLAYERS, {}, later, None)
    assert entry.differing(stored.canonical, same) == ["another start time"]
    other = entry.game_record(lookup("greek-prefa"), GAME, ["Ana", "Ben", "Dee"],
                              {"initial_kassa": 50}, datetime(2026, 12, 1, 20, 0, tzinfo=UTC),
                              "Tuesday")
    assert entry.differing(stored.canonical, other) == [
        "other players", "other house rules", "another league"]


def test_a_passer_s_0_tricks_are_left_out(fixture_copy: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """greek-prefa.md 6.1 step 6, 7: with Ben alone and Cy passing, Cy takes no part in the
    play; his tricks box, typed 0 as a scorer types it, read "tricks (Ana 6, Ben 4, Cy 0) should
    name exactly the players who played". The 0 is left out and said; a 0 of a player who did
    play is kept."""
    at = start(page("entry", fixture_copy, monkeypatch))
    at.selectbox(key="entry_d1_declarer").set_value("Ana").run()
    at.text_input(key="entry_d1_contract").input("6S")
    at.selectbox(key="entry_d1_defence_1").set_value("alone")
    at.selectbox(key="entry_d1_defence_2").set_value("pass")
    for i, n in enumerate((6, 4, 0)):
        at.number_input(key=f"entry_d1_tricks_{i}").set_value(n)
    at.run()
    assert not at.error, [e.value for e in at.error]
    assert [s.value for s in at.success] == [
        "Deal 1 is valid. The 0 tricks of Cy, who did not play, are left out."]
    at.button(key="entry_save").click().run()
    (record,) = rows(fixture_copy, "SELECT record::VARCHAR FROM deals WHERE game_id = ?", [GAME])
    assert json.loads(str(record[0]))["tricks"] == {"Ana": 6, "Ben": 4}
    type_deal(at, 2, (10, 0, 0))  # both defenders play: Ben's and Cy's 0 are theirs
    assert [s.value for s in at.success] == ["Deal 2 is valid."]


@pytest.mark.parametrize("variant", ["greek-prefa", "balkan"])
def test_four_at_the_table_need_no_rules_box_ticked(variant: str, fixture_copy: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """records.md 1.1: ``rules.four_players`` must agree with the players. Four names typed
    read "4 players but rules.four_players is False: set four_players to true ...", a box to
    find in House rules; the form now sets it from the players and does not ask it."""
    at = page("entry", fixture_copy, monkeypatch)
    at.selectbox(key="entry_variant").set_value(variant).run()
    at.text_input(key="entry_game_id").input(f"four/{variant}").run()
    at.text_input(key="entry_players").input("Ana, Ben, Cy, Dee").run()
    assert not at.error and any("game line is valid" in s.value for s in at.success)
    assert not [c.key for c in at.checkbox if "four" in str(c.key)]
    at.button(key="entry_start").click().run()
    (rules,) = rows(fixture_copy, "SELECT rules::VARCHAR FROM games WHERE game_id = ?",
                    [f"four/{variant}"])
    assert json.loads(str(rules[0])).get("four_players") is True
    v = lookup(variant)
    assert entry.seated(v, {"four_players": True}, ["Ana", "Ben", "Cy"]) == {}
    assert entry.seated(lookup("russian"), {}, ["Ana", "Ben", "Cy", "Dee"]) == {}


def test_a_message_names_the_form_s_boxes_as_the_form_does(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A declarer chosen, no contract yet, read "a declarer needs a contract (or conceded:
    true)": the file's words, where the form has a "conceded" check box. A rule is named by its
    label, and a player's name is left as it is."""
    at = start(page("entry", fixture_copy, monkeypatch))
    at.selectbox(key="entry_d1_declarer").set_value("Ana").run()
    assert [e.value for e in at.error] == [
        md('a declarer needs a contract (or "conceded" ticked)')]
    greek = lookup("greek-prefa")
    said = Issue("s", 1, None, Code.SCHEMA,
                 "preliminary: true but the rules have preliminary_bid off; dealer 'P_1'", "")
    assert entry.message(said, greek) == (
        "\"preliminary\" ticked but the rules have preliminary bid off; dealer 'P_1'")
    assert entry.message(said) == said.message


@pytest.mark.parametrize("variant", [v.name for v in registered()])
def test_every_house_rule_says_what_it_means_without_the_rulebook(
        variant: str, fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each rule's widget has its docstring as help (``entry.field_docs``), without the spec
    sections, open questions and sources it cites (a scorer has no rulebook at hand), named in
    brackets or in a sentence."""
    at = page("entry", fixture_copy, monkeypatch)
    at.selectbox(key="entry_variant").set_value(variant).run()
    helps = {str(w.key).rsplit("_None_", 1)[-1]: w.help
             for kind in ("selectbox", "checkbox", "number_input", "text_input")
             for w in at.get(kind) if str(w.key).startswith(f"entry_rule_{variant}_None_")}
    assert set(helps) == {f.name for f in entry.rule_fields(lookup(variant))}
    for name, said in helps.items():
        assert said and not re.search(r"section|\.md\b|\[|\(\s*\)|`|\(G[0-9]|\w_\w|\b(None|true|"
                                      r"false)\b|\s[.,;]|\bseed\b|prefadoros|pagat|rostik",
                                      said), (name, said)
    if variant == "greek-prefa":  # greek-prefa.md 14, ten_nt
        assert helps["ten_nt"] == "A 10NT contract: not allowed, worth 11, or worth 10."


def _words(info: FieldInfo) -> Mapping[object, str]:
    """The ``ChoiceWords`` of a rules field, if any."""
    return next((m.words for m in info.metadata if isinstance(m, ChoiceWords)), {})


@pytest.mark.parametrize("variant", [v.name for v in registered()])
def test_a_rule_s_choices_read_in_the_players_words(variant: str, fixture_copy: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """bridge.md 9: the scoring profile ``seed004`` is named after the spec's source text, not
    in a scorer's words. A rules model's ``ChoiceWords`` are what the form shows: the choices,
    and a help that names such a value; a field's ``title`` its label. The game stores the
    value itself."""
    v = lookup(variant)
    at = page("entry", fixture_copy, monkeypatch)
    at.selectbox(key="entry_variant").set_value(variant).run()
    widgets = {str(w.key).rsplit("_None_", 1)[-1]: w
               for kind in ("selectbox", "checkbox", "number_input", "text_input")
               for w in at.get(kind) if str(w.key).startswith(f"entry_rule_{variant}_None_")}
    said = " ".join(f"{w.label} {w.help} {getattr(w, 'options', '')}" for w in widgets.values())
    assert "seed004" not in said
    chosen = {}
    asked = {f.name for f in entry.rule_fields(v)}  # not a pair (bridge's unfinished rubber)
    for name, info in v.rules_model.model_fields.items():
        words = _words(info)
        if info.title and name in asked:
            assert widgets[name].label == info.title
        if not words:
            continue
        assert widgets[name].options == [words.get(o) or rule_value(o)
                                         for o in get_args(info.annotation)]
        for value in (o for o in words if str(o).lower() != words[o].lower()):
            assert not re.search(rf"\b{re.escape(str(value))}\b", said), (value, said)
        chosen[name] = next(o for o in words if o != info.default)
        widgets[name].set_value(chosen[name])
    if not chosen:
        return
    players = ["Ana", "Ben", "Cy", "Dan"] if v.partnerships else PLAYERS
    start(at, variant, players, f"{variant}/1")
    (rules,) = rows(fixture_copy, "SELECT rules::VARCHAR FROM games WHERE game_id = ?",
                    [f"{variant}/1"])
    stored = json.loads(str(rules[0]))
    assert {name: stored[name] for name in chosen} == chosen


def test_a_rule_s_help_keeps_what_is_not_a_citation() -> None:
    assert entry.rule_help("Pays 10*K/3 (10*K/4 with four players) to each (section 11).") == (
        "Pays 10*K/3 (10*K/4 with four players) to each.")
    assert entry.rule_help("By his opponents only (10/(N-1), [rostik]; R5).") == (
        "By his opponents only (10/(N-1)).")
    assert entry.rule_help("The pot holds (15, the table setting): ``normal`` settles.") == (
        "The pot holds (the table setting): normal settles.")
    assert entry.rule_help("Cost on the player (7, [resolution]).") == "Cost on the player."
    assert entry.rule_help("``None``: ``fixed_chips``; ``false``: ``end``.") == (
        "default: fixed chips; no: end.")  # in the words the form shows the values
    assert entry.rule_help(None) is None


def test_a_deal_typed_again_in_other_case_is_no_new_version(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal saved with its contract and calls typed ``6s``, ``Pass``, then typed again as
    ``6S``, ``pass``: its calls were stored as typed, and the file kept as typed made the second
    save a new version of the deal. Calls are stored as records.md 1.2 writes them (the
    contract was already), so the record typed again is the stored one: nothing is written and
    the deal has one version."""
    at = start(page("entry", fixture_copy, monkeypatch))
    type_deal(at, 1, (2, 6, 2), declarer="Ben", contract="6s")
    at.text_area(key="entry_d1_auction").input("Ben 6s, Cy Pass, Ana PASS").run()
    assert "Deal 1 is valid." in [s.value for s in at.success], [e.value for e in at.error]
    at.button(key="entry_save").click().run()
    assert any("Deal 1 is stored" in s.value for s in at.success)
    (stored,) = rows(fixture_copy, "SELECT record::VARCHAR FROM deals WHERE game_id = ? AND "
                                   "deal_no = 1", [GAME])
    record = json.loads(str(stored[0]))
    assert record["contract"] == "6S"
    assert [c["call"] for c in record["auction"]] == ["6S", "pass", "pass"]

    type_deal(at, 1, (2, 6, 2), declarer="Ben", contract="6S")
    at.text_area(key="entry_d1_auction").input("Ben 6S, Cy pass, Ana pass").run()
    at.button(key="entry_save").click().run()
    said = [s.value for s in at.success]
    assert any("Deal 1 is unchanged" in s for s in said) and not any("new version" in s
                                                                     for s in said), said
    logged = rows(fixture_copy, "SELECT sha256 FROM ingest_log WHERE source = ?",
                  [f"{entry.PREFIX}{GAME}/1"])
    assert len(logged) == 1
    assert not [d for d in at.dataframe if "as typed" in d.value.columns]
