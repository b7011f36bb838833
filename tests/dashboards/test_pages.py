"""AppTest of every page against the fixture database: no exception, the numbers shown are the
query functions' numbers, widgets driven by key; hostile URLs and empty or missing databases."""

from __future__ import annotations

import json
import re
import shutil
import urllib.parse
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import common
from dashboards import queries as q
from dashboards.common import NO_GAMES
from dashboards.db import DB_ENV, read_only
from dashboards.filters import Filters
from dashboards.replay import call_words
from dashboards.text import md, quoted
from ingest import players, store
from ingest.pipeline import ingest_paths
from ingest.traveller_csv import pair_player
from model.variants import registered
from model.variants import variant as lookup
from scoring.store import rescore
from sim.run import Plan, simulate
from tests.conftest import DATA, ROOT
from tests.dashboards import fixture_db as fx
from tests.dashboards.conftest import table_counts

PAGES = ROOT / "dashboards" / "views"
PAGE_NAMES = ["league", "player", "contracts", "results", "replayer", "balance", "quality",
              "upload", "entry"]


def page(name: str, db: Path, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    monkeypatch.setenv(DB_ENV, str(db))
    at = AppTest.from_file(str(PAGES / f"{name}.py"), default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def cell_boxes(at: AppTest) -> tuple[Any, Any]:
    """The Contracts page's Contract and Defence mode boxes of its heatmap's variant (a pair per
    variant, ``box_keys`` of ``dashboards/views/contracts.py``)."""
    variant = at.selectbox(key="contracts_variant").value
    return (at.selectbox(key=f"contracts_contract_{variant}"),
            at.selectbox(key=f"contracts_mode_{variant}"))


def frame_with(at: AppTest, column: str) -> pd.DataFrame:
    for df in at.dataframe:
        if column in df.value.columns:
            return df.value
    raise AssertionError(f"no table with a {column!r} column")


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def league_counts(at: AppTest) -> dict[str, int]:
    """League's headline (``**3 games** · **40 deals**, 30 with cards · **9 players**``) read
    back: the count of each of games, deals, cards (deals with cards) and players."""
    line = next(m.value for m in at.markdown if " with cards · " in m.value)
    found = re.findall(r"([\d,]+)\*?\*? (game|deal|with card|player)s?", line)
    return {noun.replace("with card", "cards"): int(n.replace(",", "")) for n, noun in found}


def open_tab(at: AppTest, key: str, label: str) -> AppTest:
    """Open the tab ``label`` of the lazy tabs ``key`` (only the open tab's content runs)."""
    assert label in [t.label for t in at.tabs], f"no tab {label!r}"
    at.session_state[key] = label
    return at.run()


def standings_tables(at: AppTest) -> list[pd.DataFrame]:
    """Every variant's standings on League under "(all)": one tab per variant, each opened."""
    labels = [t.label for t in at.tabs if t.label not in LEAGUE_SECTIONS]
    tables = []
    for label in labels:
        tables += [df.value for df in open_tab(at, "league_variant", label).dataframe]
    return tables


LEAGUE_SECTIONS = ("Standings", "Cash over time", "Score sheet")


def test_app_entry_runs_the_default_page(fixture_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DB_ENV, str(fixture_path))
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60).run()
    assert not at.exception
    assert [t.value for t in at.title] == ["League"]


def test_league_numbers(fixture_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("league", fixture_path, monkeypatch)
    assert not at.exception
    with read_only(fixture_path) as con:
        totals = q.overview(con, Filters()).row(0, named=True)
        standings = q.league_standings(con, Filters())
    assert league_counts(at) == {"game": totals["games"], "deal": totals["deals"],
                                 "cards": totals["deals_with_cards"],
                                 "player": totals["players"]}
    assert set(LEAGUE_SECTIONS) <= {t.label for t in at.tabs}
    assert "league_game" not in [box.key for box in at.selectbox]  # the sheet tab is closed
    open_tab(at, "league_variant", "greek-prefa (chips)")
    table = frame_with(at, "cash per game (chips)")  # the Greek table, in its unit
    greek = standings.filter(standings["variant"] == "greek-prefa")
    assert table["cash (chips)"].tolist() == greek["cash"].to_list()
    open_tab(at, "league_variant", "swabian (units)")
    assert "cash (units)" in frame_with(at, "cash per game (units)").columns  # Swabian apart
    assert len(at.dataframe) == 1  # only the open tab is drawn
    open_tab(at, "league_section", "Score sheet")
    at.selectbox(key="league_game").set_value(fx.G1).run()
    sheet = frame_with(at, "Kassa Anna")
    assert sheet["Chips Anna"].iloc[-1] == 20  # fixture docstring: +4 +0 +16 +0
    assert sheet["dealer"].iloc[-1] == "total" and sheet["declarer"].iloc[-1] == "—"


SEED004 = {"scoring_profile": "seed004", "seed004_defeat_bonus": 100}
"""Bridge house rules a scorer reads in words: the profile of bridge.md 9 and a field with a
``title`` (``model/bridge/params.py``)."""


def test_a_game_s_rules_read_as_the_entry_form_says_them(fixture_copy: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """League's score sheet listed a bridge game's rules as stored: ``scoring profile:
    seed004``, ``seed004 defeat bonus``. It says them as the Entry form does (the field's
    ``ChoiceWords`` and ``title``)."""
    from scoring.store import score_pending

    game = "riverside/2026-12-01/rubber-9"
    lines = tmp_path / "seed004.jsonl"
    lines.write_text("\n".join(json.dumps(r) for r in (
        {"record": "game", "game_id": game, "variant": "bridge-rubber",
         "players": ["Ana", "Ben", "Cy", "Dan"], "rules": SEED004,
         "started_at": "2026-12-01T19:00:00Z"},
        {"record": "deal", "game_id": game, "deal_no": 1, "dealer": "Ana", "contract": "2H",
         "declarer": "Ana", "tricks": 9})) + "\n", encoding="utf-8")
    ingest_paths([lines], fixture_copy, score=score_pending)
    at = page("league", fixture_copy, monkeypatch, variant="bridge-rubber")
    open_tab(at, "league_section", "Score sheet")
    at.selectbox(key="league_game").set_value(game).run()
    assert not at.exception
    rules = frame_with(at, "rule")
    listed = dict(zip(rules["rule"], rules["value"], strict=True))
    assert listed["scoring profile"] == "simplified (Russian text)"
    assert listed["defeated doubled bonus"] == "100"
    assert not [text for text in (*listed, *listed.values()) if "seed004" in text]


def test_league_filter_in_url(fixture_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("league", fixture_path, monkeypatch, league=fx.LEAGUE9)
    assert league_counts(at)["game"] == 1
    assert at.sidebar.selectbox(key="f_league").value == fx.LEAGUE9
    at.sidebar.selectbox(key="f_league").set_value(fx.LEAGUE7).run()
    assert league_counts(at)["game"] == 2
    assert at.query_params["league"] in (fx.LEAGUE7, [fx.LEAGUE7])  # kept in the URL


def test_player_page(fixture_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("player", fixture_path, monkeypatch)
    assert not at.exception and any("Choose a player" in i.value for i in at.info)
    at.sidebar.selectbox(key="f_player").set_value("Boris").run()
    with read_only(fixture_path) as con:
        me = q.player_summary(con, Filters(player="Boris")).row(0, named=True)
        roles = q.player_roles(con, Filters(player="Boris"))
    shown = metrics(at)
    # 8 deals settled, one sat out as the dealer of four (G2): 7 played, as the standings say,
    # and he could declare in those alone (2 of 7); before, "Deals at the table" 8 and 2 of 8
    assert (me["deals"], me["sat_out"], me["declared"]) == (8, 1, 2)
    with read_only(fixture_path) as con:
        standings = q.league_standings(con, Filters(player="Boris"))
    played = standings.filter(pl.col("player") == "Boris")["deals_played"].sum()
    assert shown["Deals played"] == str(played) == "7"
    assert shown["Declared"] == f"{100 * 2 / 7:.0f}%"
    assert any("n=7" in c.value for c in at.caption)  # every rate shows its n
    assert frame_with(at, "role")["n"].tolist() == roles["n"].to_list()
    # By position: the deal he sat out is a row of its own, not a deal he could declare in
    seats = frame_with(at, "seat")
    assert seats["seat"].tolist() == ["dealer", "dealer, sat out", "first hand", "second hand"]
    assert seats["rate (n, 95% CI)"].tolist()[1] == "— (not a rate)"
    assert seats["deals"].sum() == me["deals"]
    (per_deal,) = [m for m in at.metric if m.label.startswith("Cash per deal")]
    assert "with the 1 deal he sat out as the dealer: they pay him too" in per_deal.proto.help
    # Contracts in the game's words, as the replayer writes them (Variant.call_words), in "As
    # declarer, by contract" and in My deals.
    assert frame_with(at, "contract")["contract"].tolist() == ["6♠", "8♦"]
    my_deals = next(df.value for df in at.dataframe if "role" in df.value.columns
                    and "contract" in df.value.columns)
    written = set(my_deals["contract"].dropna())
    assert {"6♠", "8♦"} <= written and not [c for c in written if c[-1] in "SHDC"], written
    # one variant: its unit in the labels, so a value is never cut to "+3,318.00 soup p…"
    money = {k: v for k, v in shown.items() if k.startswith("Cash")}
    assert set(money) == {"Cash (chips)", "Cash per deal (chips)", "Cash per game (chips)"}
    # Greek chips add up to zero over the table: the field breaks even, and "vs field" would
    # repeat the value
    per_deal = next(m for m in at.metric if m.label == "Cash per deal (chips)")
    assert not per_deal.delta and "breaks even" in (per_deal.help or "")
    assert not any("chips" in v for v in money.values())


def test_my_deals_declarers_tricks_are_numbers(fixture_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """My deals: "declarer's tricks" is a number column for every variant. Where some deal has
    none (nobody declared, both defenders passed: greek-prefa.md 6.1, 9.1) it was sent as text,
    left aligned and sorted as text (9 above 10); bridge's, never missing, was a number."""
    at = page("player", fixture_path, monkeypatch, player="Boris", variant="greek-prefa")
    assert not at.exception
    table = next(df for df in at.dataframe if "declarer's tricks" in df.value.columns)
    sent = pa.ipc.open_stream(table.proto.arrow_data.data or
                              table.proto.lazy_data.initial_chunk.data).schema
    assert pa.types.is_integer(sent.field("declarer's tricks").type), sent
    tricks = table.value["declarer's tricks"]
    assert tricks.isna().sum() == 2 and sorted(tricks.dropna()) == [5, 6, 6, 6, 7, 7]
    assert table.proto.placeholder == "—"  # the grid draws the missing ones as a dash
    assert not shown_problems(at)


def test_narrowing_the_dates_keeps_the_player(fixture_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/dashboards.md, "Shared filters and the URL": a range in which the chosen player has
    no games keeps him chosen and says so (he fell back to "(all)" in silence, and a URL said he
    was not in the database); widening it again shows his deals."""
    at = page("player", fixture_path, monkeypatch, player="Boris", **{"from": "2030-01-01"})
    assert not at.exception
    assert at.sidebar.selectbox(key="f_player").value == "Boris"
    assert not [w.value for w in at.warning if "in the database" in w.value]
    assert any("No games of Boris for the other filters" in c.value for c in at.sidebar.caption)
    at.sidebar.date_input(key="f_from").set_value(None).run()
    assert at.sidebar.selectbox(key="f_player").value == "Boris"
    assert int(metrics(at)["Deals played"]) > 0
    at = page("player", fixture_path, monkeypatch, player="Nobody")  # in no game at all
    assert any("Nobody" in w.value and "in the database" in w.value for w in at.warning)


def test_a_reversed_range_typed_in_the_sidebar_is_swapped(fixture_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A From after the To typed in the sidebar is swapped and said, as in a URL: it showed
    nothing, without a word."""
    at = page("league", fixture_path, monkeypatch, **{"from": "2030-01-01"})
    at.sidebar.date_input(key="f_to").set_value(date(2020, 1, 1)).run()
    assert any("reversed" in w.value for w in at.warning)
    right = page("league", fixture_path, monkeypatch, **{"from": "2020-01-01", "to": "2030-01-01"})
    assert league_counts(at)["game"] == league_counts(right)["game"] != 0


def test_contracts_say_what_the_player_filter_chooses(fixture_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """With a player chosen, Contracts rates every contract of his games: the page says so (a
    user read them as his own contracts)."""
    at = page("contracts", fixture_path, monkeypatch, player="Boris")
    assert not at.exception
    assert any("whoever declared it" in c.value for c in at.caption)
    assert not any("whoever declared it" in c.value
                   for c in page("contracts", fixture_path, monkeypatch).caption)


def test_the_player_list_opens_each_player_s_page(demo_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a player, the Player page lists the most active; each row's link opens his page
    under the filters set (here the variant)."""
    at = page("player", demo_path, monkeypatch, variant="swabian")
    listed = frame_with(at, "page")
    with read_only(demo_path) as con:
        assert listed["player"].tolist() == q.players(con, Filters(variant="swabian"))[
            "player"].head(50).to_list()
    for person, link in list(zip(listed["player"], listed["page"], strict=True))[:3]:
        path, _, query_string = link.partition("?")
        params = dict(urllib.parse.parse_qsl(query_string))
        assert path == "player" and params == {"variant": "swabian", "player": person}
        opened = page("player", demo_path, monkeypatch, **params)
        assert not opened.exception and opened.subheader[0].value == person


@pytest.mark.usefixtures("polars_without_python")
def test_contracts_say_defence_modes_in_the_players_words(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """balkan.md 5.1, russian.md 3: the table and the heatmap showed the codes ``nokontra`` and
    ``misere`` where the players say "no kontra" and "misère" (``Variant.mode_words``)."""
    for variant, code, said in (("balkan", "nokontra", "no kontra"),
                                ("russian", "misere", "misère")):
        assert lookup(variant).mode_words[code] == said
        at = page("contracts", demo_path, monkeypatch, variant=variant)
        modes = set(frame_with(at, "defence")["defence"])
        if said not in modes:
            pytest.skip(f"no {code} deal of {variant} in the demo database")
        assert code not in modes
        for i in range(len(cell_boxes(at)[0].options)):
            cell_boxes(at)[0].select_index(i).run()
            if said in cell_boxes(at)[1].options:  # its options as shown
                break
        box = cell_boxes(at)[1]
        box.select_index(box.options.index(said)).run()
        deals = set(frame_with(at, "replay")["defence"])  # the cell's deals, in words too
        assert deals == {said}, deals


@pytest.mark.usefixtures("polars_without_python")
def test_only_deals_with_their_cards_open_in_the_replayer(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """My deals and a Contracts cell linked every deal to the replayer, which has nothing to
    show of one recorded without its cards (most Greek deals of the demo are score-sheet
    lines); Club results already left those out."""
    with read_only(demo_path) as c:
        carded = {(g, n) for g, n in c.execute(
            "SELECT game_id, deal_no FROM deals WHERE has_cards").fetchall()}
    player = page("player", demo_path, monkeypatch, variant="greek-prefa", player="Anna")
    contracts = page("contracts", demo_path, monkeypatch, variant="greek-prefa")
    seen = set()
    for at, game, deal in ((player, "game id", "deal"), (contracts, "game", "deal")):
        assert not at.exception
        table = frame_with(at, "replay")
        linked = [bool(link) for link in table["replay"]]
        has = [(g, int(n)) in carded for g, n in zip(table[game], table[deal], strict=True)]
        assert linked == has
        seen.update(has)
    assert seen == {True, False}  # both kinds of deal were shown
    league = page("league", demo_path, monkeypatch, variant="greek-prefa")
    open_tab(league, "league_section", "Score sheet")
    sheets = set()
    for i in range(len(league.selectbox(key="league_game").options)):  # each game's sheet
        league.selectbox(key="league_game").select_index(i).run()
        game = league.selectbox(key="league_game").value
        sheet = frame_with(league, "replay")
        assert sheet.columns[0] == "replay"  # in sight: a wide sheet cut off its last column
        linked = [bool(link) for link in sheet["replay"]]
        has = [str(d).isdigit() and (game, int(d)) in carded for d in sheet["deal"]]
        assert linked == has, game  # and none on the totals row
        sheets.update(has)
    assert sheets == {True, False}


def test_contracts_page_drill_down(fixture_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("contracts", fixture_path, monkeypatch)
    assert not at.exception
    with read_only(fixture_path) as con:
        rates = q.contract_rates(con, Filters())
    table = frame_with(at, "rate (n, 95% CI)")
    assert table["n (outcome known)"].tolist() == rates["n"].to_list()
    assert all("n=" in text for text in table["rate (n, 95% CI)"])
    # Contracts in the game's words (Variant.call_words), the URL keeps their codes.
    assert "6♠" in table["contract"].tolist() and "6S" not in table["contract"].tolist()
    assert "6♠" in cell_boxes(at)[0].options
    cell_boxes(at)[0].set_value("6S").run()
    cell_boxes(at)[1].set_value("both").run()
    deals = frame_with(at, "replay")
    assert set(deals["contract"]) == {"6♠"}
    assert deals.columns[0] == "replay"  # in sight: the table is wider than the page
    assert sorted(deals["game"]) == sorted([fx.G1, fx.G3])
    assert set(deals["result"]) <= {"made", "down", "—"}  # named as My deals names it
    # the cell is in the URL beside the filters: a reload or a shared link opens on it
    cell_boxes(at)[0].set_value("7H").run()
    params = {k: v if isinstance(v, str) else v[0] for k, v in at.query_params.items()}
    assert params.get("contract") == "7H"  # not the first contract: kept in the URL
    again = page("contracts", fixture_path, monkeypatch, **params)
    assert cell_boxes(again)[0].value == "7H"
    assert frame_with(again, "replay")["game"].tolist() == frame_with(at, "replay")[
        "game"].tolist()
    other = page("contracts", fixture_path, monkeypatch, heatmap="swabian")
    assert other.selectbox(key="contracts_variant").value == "swabian"
    assert f"replayer?game={fx.G1.replace('/', '%2F')}&deal=1" in deals["replay"].tolist()


def test_a_link_to_a_cell_the_page_lacks_says_so(fixture_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """An old link's ``?contract=4SX`` (a doubled contract was a row of its own) opened the
    first contract without a word; the page says which one the link named and what it shows
    instead, and says nothing of a link it follows."""
    at = page("contracts", fixture_path, monkeypatch, contract="6SX", mode="<b>redoubled</b>")
    assert not at.exception
    first = cell_boxes(at)[0].value
    said = [w.value for w in at.warning]
    assert said[0] == (f"The link names the contract {md(quoted('6SX'))}, which is not among the "
                       f"contracts of {md('greek-prefa')} these filters choose: showing "
                       f"{md(call_words(first, 'greek-prefa'))}.")
    assert said[1].startswith(f"The link names the defence mode {md(quoted('<b>redoubled</b>'))}")
    assert len(said) == 2
    cell_boxes(at)[0].set_value("7H").run()  # a choice is no link
    assert not at.warning
    params = {k: v if isinstance(v, str) else v[0] for k, v in at.query_params.items()}
    assert not page("contracts", fixture_path, monkeypatch, **params).warning
    nowhere = page("contracts", fixture_path, monkeypatch, heatmap="chess")
    assert [w.value for w in nowhere.warning] == [
        f"The link names the variant {md(quoted('chess'))}, which is not among the variants of the "
        f"declared deals these filters choose: showing {md('greek-prefa')}."]
    long = page("contracts", fixture_path, monkeypatch, contract="6S" * 100)
    assert long.warning[0].value.startswith(
        f"The link names the contract {md(quoted('6S' * 100, 60))}, which is not")
    # a game of a file is in the database, but not among the games the Entry box offers (it
    # said "which is not in this database")
    for game in ("no-such-game", fx.G1):
        entry = page("entry", fixture_path, monkeypatch, game=game)
        assert [w.value for w in entry.warning] == [
            f"The link names the game {md(quoted(game))}, which is not among the games entered "
            f"on this page: showing {md('(new game)')}."]


@pytest.mark.parametrize("variant", [None, *(v.name for v in registered())])
def test_contracts_rate_a_doubled_contract_with_the_same_contract(
        variant: str | None, demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """bridge.md 3: a contract is its level and strain; doubled and redoubled are its defence
    modes, so a ``4SX`` deal is the doubled cell of the 4♠ row, not a row ``4♠X`` of its own
    (``Variant.mode_endings``). Under each variant and "(all)": every cell once, every declared
    deal in one cell, and a cell's drill-down its deals, each with its contract as recorded."""
    at = page("contracts", demo_path, monkeypatch, **({"variant": variant} if variant else {}))
    assert not at.exception
    with read_only(demo_path) as c:
        declared = c.execute("SELECT count(*) FROM deals WHERE declarer IS NOT NULL "
                             "AND variant = coalesce(?, variant)", [variant]).fetchall()[0]
        rates = q.contract_rates(c, Filters(variant=variant))
    table = frame_with(at, "rate (n, 95% CI)")
    assert not table.duplicated(["variant", "contract", "defence"]).any()
    assert (int(table["deals"].sum()),) == declared
    for name in rates["variant"].unique().to_list():
        endings = lookup(name).mode_endings
        contracts = rates.filter(pl.col("variant") == name)["contract"]
        assert not [c for c in contracts if c.endswith(endings)], name
    doubled = rates.filter(pl.col("mode") == "doubled").join(
        rates.filter(pl.col("mode") == "undoubled"), on=["variant", "contract"])
    if variant is not None and lookup(variant).mode_endings:
        assert not doubled.is_empty()  # the demo doubles a contract also played undoubled
    if doubled.is_empty():
        return
    name, contract = doubled["variant"][0], doubled["contract"][0]
    at.selectbox(key="contracts_variant").set_value(name).run()
    cell_boxes(at)[0].set_value(contract).run()
    assert {"doubled", "undoubled"} <= set(cell_boxes(at)[1].options)
    cell_boxes(at)[1].set_value("doubled").run()
    deals = frame_with(at, "replay")
    assert set(deals["contract"]) == {call_words(contract + "X", name)}, deals["contract"]
    assert len(deals) == doubled["deals"][0]


def html_of(at: AppTest) -> str:
    return " ".join(str(h.proto.body) for h in at.get("html"))


def test_replayer_steps(fixture_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("replayer", fixture_path, monkeypatch, league=fx.LEAGUE7)
    assert not at.exception
    assert at.selectbox(key="replay_deal").value == f"{fx.G1}#1"
    for _ in range(3):
        at.button(key="replay_next").click().run()
    assert at.slider(key="replay_step").value == 3
    assert any("After 3 of 10 tricks" in m.value and "Boris 1" in m.value for m in at.markdown)
    at.button(key="replay_back").click().run()
    assert at.slider(key="replay_step").value == 2
    at.slider(key="replay_step").set_value(10).run()
    assert "Trick 10 · won by Chris" in html_of(at)
    at.button(key="replay_next").click().run()  # stays at the last trick
    assert at.slider(key="replay_step").value == 10
    assert at.query_params["game"] in (fx.G1, [fx.G1])  # the deal is in the URL


def test_replayer_opens_the_deal_of_the_url(demo_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A link from any deal row: ``?game=...&deal=N``; a bridge deal shows the board, the
    vulnerability, the contract's result, the claim, tricks per side and the auction by seat."""
    game = "lin/a080b5f2875a70b8"  # ../shared/data/bbo-vugraph-lin/40000.lin, board 11 first
    with read_only(demo_path) as con:
        if q.deal_detail(con, game, 11).is_empty():
            pytest.skip("../shared/data/bbo-vugraph-lin is absent")
    at = page("replayer", demo_path, monkeypatch, game=game, deal="11")
    assert not at.exception
    assert at.selectbox(key="replay_deal").value == f"{game}#11"
    text = " ".join([*(m.value for m in at.markdown), *(c.value for c in at.caption)])
    assert "board 11" in text and "vulnerable: nobody" in text  # LIN: board 11, no one vul
    assert "made, 11 tricks" in text and "claimed" in text and "takes 11 tricks" in text
    at.slider(key="replay_step").set_value(8).run()
    shown = [m.value.replace("\\", "") for m in at.markdown]  # as rendered: escapes dropped
    assert any("After 8 of 8 tricks" in m and "taken: N-S 6, E-W 2" in m for m in shown), shown
    html = html_of(at)
    assert "declarer</span>" in html and "dummy</span>" in html
    assert '<table class="tb-auction"><tr><th>KVANGRAVEN</th>' in html
    assert "(incomplete)" not in html


def test_replayer_names_a_linked_deal_off_the_list_as_the_list_would(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A link to a bridge deal while the filters list Greek deals only: the Deal box names it
    as the list names its deals (board, variant, declarer and contract), not 'game · deal N'."""
    game = "lin/a080b5f2875a70b8"  # ../shared/data/bbo-vugraph-lin/40000.lin
    with read_only(demo_path) as con:
        if q.deal_detail(con, game, 11).is_empty():
            pytest.skip("../shared/data/bbo-vugraph-lin is absent")
    at = page("replayer", demo_path, monkeypatch, variant="greek-prefa", game=game, deal="11")
    assert not at.exception
    box = at.selectbox(key="replay_deal")
    assert box.value == f"{game}#11"
    assert box.options[0].startswith(f"{game} · deal 11 · board 11 · bridge-duplicate · ")
    assert not any(o.startswith(game) for o in box.options[1:])  # the list: Greek deals only


def test_replayer_names_a_raspasy_deal_without_a_loose_space(
        demo_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """russian.md 7: a raspasy deal (all pass, played for the fewest tricks) has no declarer
    and no contract; the Deal box named it "... · no declarer " with a space at its end, on the
    list and off it (a link while the filters list other deals)."""
    db = tmp_path / "raspasy.duckdb"
    shutil.copyfile(demo_path, db)
    simulate(Plan("russian", 2, 6, seed=11), db=db, workers=1)
    with read_only(db) as con:
        found = con.execute("SELECT game_id, deal_no FROM deals WHERE variant = 'russian' "
                            "AND declarer IS NULL AND has_cards ORDER BY ALL").fetchall()
    assert found, "the simulated games have no raspasy deal"
    game, deal = found[0]
    for variant in ("russian", "greek-prefa"):
        at = page("replayer", db, monkeypatch, variant=variant, game=game, deal=str(deal))
        assert not at.exception
        box = at.selectbox(key="replay_deal")
        assert box.value == f"{game}#{deal}"
        label = next(o for o in box.options if o.startswith(f"{game} · deal {deal} · "))
        assert label == f"{game} · deal {deal} · russian · no declarer", variant
        assert [o for o in box.options if o != o.strip() or "  " in o] == [], variant


def test_replayer_says_a_raspasy_deal_was_played(fixture_copy: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """russian.md 2, 7: all three pass, and the deal is played out, each player for the fewest
    tricks (raspasy); its result line said "No declarer (passed out or redealt)." It says what
    the variant's all-pass deal is (``Variant.no_declarer``) and the tricks each player took."""
    simulate(Plan("russian", 2, 6, seed=11), db=fixture_copy, workers=1)
    with read_only(fixture_copy) as con:
        found = con.execute("SELECT game_id, deal_no, CAST(record AS VARCHAR) FROM deals WHERE "
                            "variant = 'russian' AND declarer IS NULL AND has_cards "
                            "AND (record->'$.play') IS NOT NULL ORDER BY ALL").fetchone()
    assert found, "the simulated games have no raspasy deal with its play"
    game, deal, text = found
    record = json.loads(text)
    at = page("replayer", fixture_copy, monkeypatch, game=game, deal=str(deal))
    assert not at.exception
    (line,) = [m.value for m in at.markdown if m.value.startswith("No declarer")]
    assert "redealt" not in line and "passed out" not in line, line
    assert md(lookup("russian").no_declarer(record)) in line and "fewest tricks" in line
    assert line.endswith("Tricks taken: " + ", ".join(
        f"{md(p)} {n}" for p, n in record["tricks"].items()))
    assert at.slider(key="replay_step").max == 10  # played out, trick by trick


def test_replayer_search_pages_without_a_silent_cap(demo_path: Path) -> None:
    with read_only(demo_path) as con:
        every = q.card_deals(con, Filters(), None, 10_000, 0)
        page1 = q.card_deals(con, Filters(), None, 5, 0)
        page2 = q.card_deals(con, Filters(), None, 5, 5)
        found = q.card_deals(con, Filters(), "ANNA")
        players = [q.deal_detail(con, g, n)["players"][0].to_list()
                   for g, n in found.select("game_id", "deal_no").iter_rows()]
        count = q.card_deal_count(con, Filters())
        found_count = q.card_deal_count(con, Filters(), "ANNA")
        board = q.card_deals(con, Filters(variant="bridge-duplicate"), "11")
    assert all(11 in (b, n) for b, n in board.select("board", "deal_no").iter_rows())
    assert board.height == board["board"].eq(11).sum() > 0  # boards 11 (the LIN's and the PBN's)
    assert count == every.height  # the count covers every match, not the page
    assert page1["deal_no"].to_list() + page2["deal_no"].to_list() == \
        every["deal_no"].head(10).to_list()
    assert found.height == found_count > 0 and all("Anna" in p for p in players)


def test_replayer_keeps_the_deal_when_a_search_finds_nothing_and_is_cleared(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that finds nothing keeps the chosen deal open and says so; the browser then
    names the choice by the label it was shown with, and clearing the search must find that
    deal again (it used to end in ``ValueError: invalid literal for int()``)."""
    at = page("replayer", demo_path, monkeypatch)
    chosen = at.selectbox(key="replay_deal").value
    at.text_input(key="replay_search").set_value("zzz").run()
    assert not at.exception
    assert any("No deal with cards matches the search" in c.value for c in at.caption)
    box = at.selectbox(key="replay_deal")
    assert box.options == [box.format_func(chosen)]
    at.session_state["replay_deal"] = box.options[0]  # what the browser sends back
    at.text_input(key="replay_search").set_value("").run()
    assert not at.exception
    assert at.selectbox(key="replay_deal").value == chosen


def test_replayer_opens_the_first_deal_of_a_new_filter(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal open, then another variant chosen in the sidebar: its first deal opens (the deal
    of the variant before stayed open under the new filter); a variant without deals with cards
    keeps the deal and says the filters, not a search, found none."""
    at = page("replayer", demo_path, monkeypatch, variant="balkan")
    assert at.selectbox(key="replay_deal").value.startswith("ppn/")
    at.sidebar.selectbox(key="f_variant").set_value("greek-prefa").run()
    assert not at.exception
    box = at.selectbox(key="replay_deal")
    assert "· greek-prefa ·" in box.format_func(box.value)
    chosen = box.value
    at.sidebar.selectbox(key="f_variant").set_value("bridge-rubber").run()
    assert at.selectbox(key="replay_deal").value == chosen
    captions = [c.value for c in at.caption]
    assert any("No deal with cards for these filters" in c for c in captions), captions


def test_a_player_in_the_url_in_either_unicode_form_is_chosen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``?player=`` with ``Ánna`` decomposed (``A`` and an accent) chooses the Ánna stored
    composed (dashboards/filters.py: values from the URL in NFC, as names are stored); it
    said "No player 'Ánna' in the database"."""
    from ingest.pipeline import ingest_paths
    from scoring.store import score_pending

    jsonl = tmp_path / "league.jsonl"
    jsonl.write_text((ROOT / "data" / "samples" / "league.jsonl").read_text(encoding="utf-8")
                     .replace("Anna", "\u00c1nna"), encoding="utf-8")
    db = fx.build_empty(tmp_path / "t.duckdb")
    ingest_paths([jsonl], db, score=score_pending)  # the box lists players of settled deals
    at = page("league", db, monkeypatch, player="A\u0301nna")
    assert not at.exception
    assert not [w.value for w in at.warning], [w.value for w in at.warning]
    assert at.sidebar.selectbox(key="f_player").value == "\u00c1nna"


def test_a_name_in_the_url_chooses_the_one_person_so_named(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two people are named Anna in the demo (Greek and bridge rubber, data/samples), labelled
    ``Anna (greek-prefa)`` and ``Anna (bridge-rubber)`` (ingest/players.py). ``?player=Anna``
    with a variant chooses that variant's Anna; it said "No player 'Anna' in the database".
    Without a variant the name names both, and the page says so."""
    for variant in ("greek-prefa", "bridge-rubber"):
        at = page("player", demo_path, monkeypatch, variant=variant, player="Anna")
        assert not at.exception and not [w.value for w in at.warning]
        assert at.sidebar.selectbox(key="f_player").value == f"Anna ({variant})"
        assert at.subheader[0].value == md(f"Anna ({variant})")
    at = page("player", demo_path, monkeypatch, player="Anna")
    (warning,) = [w.value for w in at.warning]
    assert warning.startswith(md("“Anna” names 2 players")), warning
    assert md("Anna (greek-prefa)") in warning and md("Anna (bridge-rubber)") in warning
    assert at.sidebar.selectbox(key="f_player").value == "(all)"


def test_replayer_search_opens_its_first_match(demo_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A search for a day said "12 deals with cards match" and left the deal open before, of
    another day, on the table; a search that finds deals opens the first of them."""
    with read_only(demo_path) as con:
        every = q.card_deals(con, Filters(), None, 10_000, 0)
    at = page("replayer", demo_path, monkeypatch)
    chosen = at.selectbox(key="replay_deal").value
    other = every.filter(pl.col("game_id") != chosen.rpartition("#")[0]).row(-1, named=True)
    at.button(key="replay_next").click().run()
    at.text_input(key="replay_search").set_value(other["game_id"]).run()
    assert not at.exception
    box = at.selectbox(key="replay_deal")
    assert box.value.rpartition("#")[0] == other["game_id"] and chosen not in box.options
    assert at.slider(key="replay_step").value == 0
    assert at.query_params["game"] in (other["game_id"], [other["game_id"]])


def test_replayer_keeps_the_trick_in_the_url(fixture_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A reload or a shared link opened the deal at trick 0 wherever it had been stepped to."""
    at = page("replayer", fixture_path, monkeypatch, game=fx.G1, deal="1", trick="4")
    assert not at.exception
    assert at.slider(key="replay_step").value == 4
    at.button(key="replay_next").click().run()
    assert at.query_params["trick"] in ("5", ["5"])
    at.button(key="replay_start").click().run()
    assert "trick" not in at.query_params
    far = page("replayer", fixture_path, monkeypatch, game=fx.G1, deal="1", trick="99")
    assert far.slider(key="replay_step").value == 10  # past the last trick: the last


def test_replayer_says_when_the_url_s_trick_is_not_the_deal_s(
        fixture_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A shared link's ``trick=99`` opened the deal at its last trick, and ``trick=abc`` or
    ``-3`` at its start, without a word: the page says which trick it shows instead, once."""
    far = page("replayer", fixture_path, monkeypatch, game=fx.G1, deal="1", trick="99")
    for trick in ("99", "9" * 30):  # a number of any length past the last: the last shown
        far = page("replayer", fixture_path, monkeypatch, game=fx.G1, deal="1", trick=trick)
        assert [w.value for w in far.warning] == [
            f"The address asks for trick {md(quoted(trick, 20))}, but the record has 10 tricks: "
            "the last one is shown."]
        far.button(key="replay_back").click().run()
        assert not far.warning and far.slider(key="replay_step").value == 9
    for trick in ("abc", "-3", "<b>2</b>"):
        at = page("replayer", fixture_path, monkeypatch, game=fx.G1, deal="1", trick=trick)
        assert [w.value for w in at.warning] == [
            f"The address asks for trick {md(quoted(trick))}, which is not a trick number: "
            "the deal is shown from its start."]
        assert at.slider(key="replay_step").value == 0
        at.button(key="replay_next").click().run()  # stepped: the address's trick is gone
        assert not at.warning and at.slider(key="replay_step").value == 1
    fine = page("replayer", fixture_path, monkeypatch, game=fx.G1, deal="1", trick="10")
    assert not fine.warning


def test_replayer_says_when_the_url_names_no_deal(fixture_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``?game=nonexistent&deal=abc`` silently opened the first deal of the list."""
    at = page("replayer", fixture_path, monkeypatch, game="nonexistent", deal="abc")
    assert not at.exception
    assert any("names no deal" in w.value and "nonexistent" in w.value for w in at.warning)
    assert at.selectbox(key="replay_deal").value  # the first deal, said to be another
    game = "C:\\club"
    bare = page("replayer", fixture_path, monkeypatch, game=game)  # it read deal “”
    assert [w.value for w in bare.warning] == [
        f"The address asks for game {md(quoted(game))} and no deal number: that names no "
        "deal (a game id and a deal number are needed), so the page opens on the list of deals "
        "instead."]


def test_replayer_on_an_empty_database_shows_no_deal_for_the_url(
        empty_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It said "the first deal of the list is shown" above a list that had none."""
    at = page("replayer", empty_path, monkeypatch, game="g", deal="1")
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "The address asks for deal “1” of game “g”: the database holds no such deal, so the "
        "page opens on the list of deals instead."]
    assert not any("first deal" in w.value for w in at.warning)


@pytest.mark.usefixtures("polars_without_python")
def test_results_of_a_pairs_mitchell(demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Club results on data/samples/bridge/club-pairs-travellers.csv (a traveller file without a
    date): six pairs named by direction, no team-IMPs column in a pairs event, no "undated"."""
    at = page("results", demo_path, monkeypatch, variant="bridge-duplicate")
    box = at.selectbox(key="results_event")
    riverside = next(i for i in box.options if "Riverside" in i)
    box.set_value(box.options.index(riverside)).run()
    assert not at.exception
    assert not any("undated" in c.value for c in at.caption) and "undated" not in riverside
    ranking = frame_with(at, "pair")
    assert sorted(ranking["pair"]) == ["E-W 1", "E-W 2", "E-W 3", "N-S 1", "N-S 2", "N-S 3"]
    assert "IMPs" not in ranking.columns and {"%", "cross-IMPs"} <= set(ranking.columns)
    assert "match (teams)" not in ranking.columns  # a pairs event has no match
    # each direction ranked apart (a Mitchell has a winner in each): N-S 2 and E-W 3 both
    # score 43.75% and were 3 and 4 of one list; each is second of its direction
    ranks = dict(zip(ranking["pair"], ranking["rank"].astype(int), strict=True))
    assert ranks["N-S 2"] == ranks["E-W 3"] == 2, ranks
    assert sorted(ranks.values()) == [1, 1, 2, 2, 3, 3]
    assert any("a Mitchell's pairs are named and ranked by direction" in c.value
               for c in at.caption)


def test_replayer_draws_the_first_deal_when_the_url_names_a_deal_not_stored(
        fixture_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``?game=nope&deal=3`` (or deal 99 of a real game) showed a made-up choice "nope · deal
    3", "No deal 3 of game nope in the database.", no deal, and the URL fell to ``/replayer``.
    docs/dashboards.md: the message above the first deal, which is drawn and put in the URL."""
    first = page("replayer", fixture_path, monkeypatch).selectbox(key="replay_deal").value
    for game, deal in (("**nope**", "3"), (fx.G1, "99")):
        at = page("replayer", fixture_path, monkeypatch, game=game, deal=deal, trick="2")
        assert not at.exception
        said = [w.value for w in at.warning if "no such deal" in w.value]
        assert len(said) == 1 and f"deal “{deal}”" in said[0]
        assert "**nope**" not in said[0]  # the game id escaped: shown as written
        box = at.selectbox(key="replay_deal")
        assert box.value == first and not any(f"deal {deal}" in o for o in box.options)
        assert not any("in the database." in i.value for i in at.info)
        assert 'class="tb-table"' in html_of(at)  # the first deal is drawn ...
        assert (at.query_params["game"], at.query_params["deal"]) in (  # ... and in the URL
            (first.split("#")[0], first.split("#")[1]),
            ([first.split("#")[0]], [first.split("#")[1]]))
        assert at.slider(key="replay_step").value == 0  # the address's trick was its deal's


def test_replayer_writes_calls_and_contracts_in_the_games_words(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Swabian auction read "hand7" and its headline "7 by Hilde" (swabian.md 3.1, 3.2)."""
    at = page("replayer", demo_path, monkeypatch, game="donau-club/2026-11-22/table-1",
              deal="1")
    assert not at.exception
    html = html_of(at)
    assert "<td>7 Durchmarsch from the hands</td>" in html and "hand7" not in html
    assert any(m.value.startswith("**7 Durchmarsch from the hands** by ") for m in at.markdown)


def test_replayer_bridge_hand_spades_first_voids_and_suit_symbols(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bridge hand read ♥ ♦ ♣ ♠ with a blank line for a void, its auction "4H" beside hands
    drawn with symbols: now ♠ ♥ ♦ ♣ (PBN, BBO), ``♥ —`` and ``4♥``."""
    game = "lin/a080b5f2875a70b8"  # ../shared/data/bbo-vugraph-lin/40000.lin
    with read_only(demo_path) as con:
        if q.deal_detail(con, game, 20).is_empty():
            pytest.skip("../shared/data/bbo-vugraph-lin is absent")
    at = page("replayer", demo_path, monkeypatch, game=game, deal="20")
    assert not at.exception
    html = html_of(at)
    seat = html[html.index("KLUKOWSKI</span>"):]
    seat = seat[:seat.index("</div>")]
    suits = re.findall(r'<span class="(?:tb-red)?">(.)</span>', seat)
    assert suits == ["♠", "♥", "♦", "♣"]
    assert '<span class="tb-red">♥</span> <span class="tb-void">—</span>' in seat
    assert "<td>4♥</td>" in html and "<td>4H</td>" not in html
    assert any(m.value.startswith("**4♥** by ") for m in at.markdown)


def test_replayer_deal_without_play_has_nothing_to_step(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A PPN deal whose defenders passed read "After 0 of 0 tricks" with Start / Back /
    Forward / End and an empty "All tricks"; it says why there is no play (balkan.md 5.1)."""
    at = page("replayer", demo_path, monkeypatch, game="ppn/adf0925e5415a7ef", deal="1")
    assert not at.exception
    assert not at.button and not at.slider
    assert not any("After 0" in m.value for m in at.markdown)
    assert any("no play: both defenders passed" in m.value for m in at.markdown)
    assert not [e for e in at.expander if e.label == "All tricks"]
    assert "Laub" not in html_of(at) and "tb-table" in html_of(at)


def test_replayer_swabian_german_names(fixture_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("replayer", fixture_path, monkeypatch, variant="swabian")
    assert not at.exception
    html = " ".join(str(h.proto.body) for h in at.get("html"))
    assert "Laub Daus" in html and "♠" in html


def test_replayer_empty_state(fixture_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("replayer", fixture_path, monkeypatch, player="Dora")
    assert any("No deals with cards for Dora" in i.value for i in at.info)


@pytest.mark.usefixtures("polars_without_python")
def test_quality_page(fixture_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = page("quality", fixture_path, monkeypatch)
    assert not at.exception
    assert metrics(at)["Quarantined now"] == "3"
    at.selectbox(key="quality_code").set_value("parse").run()
    rows = frame_with(at, "text as read")
    assert rows["text as read"].tolist() == ["deal;6S;Anna"]
    # The summary by file and code keeps to the filters too (it listed every file and code).
    summary = next(df.value for df in at.dataframe if list(df.value.columns) == [
        "file", "code", "records", "issues of the file"])
    assert summary["code"].tolist() == ["parse"]
    said = " ".join(c.value for c in at.caption)  # "for every file and parse" named no code
    assert "1 quarantined record for every file and code parse" in said, said
    at.selectbox(key="quality_source").set_value("samples/club-9.csv").run()
    assert metrics(at)["Records"] == "3"
    # the Code box offers the codes of the file chosen (it offered every file's)
    codes = at.selectbox(key="quality_code").options
    assert "parse" not in codes and len(codes) > 1, codes


def test_quality_says_each_repair_in_words(fixture_path: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The Repairs list says each fix in the words the Replayer says it with (one table,
    ``dashboards.text.REPAIR_WORDS``; docs/ingest.md "Repairs"); a code without words is shown
    as it is. It showed the codes (``opening-passes``)."""
    db = tmp_path / "repaired.duckdb"
    shutil.copy(fixture_path, db)
    con = duckdb.connect(str(db))
    try:
        con.executemany("INSERT INTO repairs VALUES (?, ?, ?, ?, ?, now())", [
            ("samples/club-9.csv", 2, "g#1", "opening-passes", "2 opening passes put back"),
            ("samples/club-9.csv", 3, "g#2", "play-dropped", "play of 8 cards dropped"),
            ("samples/club-9.csv", 4, "g#3", "a-new-fix", "something else")])
    finally:
        con.close()
    at = page("quality", db, monkeypatch)
    assert not at.exception
    fixes = frame_with(at, "what was changed")
    assert fixes["repair"].tolist() == ["opening passes put back", "the play dropped",
                                        "a-new-fix"]


def test_quality_keeps_its_file_and_code_in_the_url(fixture_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The File and Code chosen were lost on a reload or a page switch and back (Contracts'
    cell and Club results' event were kept); the URL names the file as the page shows it."""
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60)
    at.switch_page("views/quality.py")
    monkeypatch.setenv(DB_ENV, str(fixture_path))
    at.run()
    at.selectbox(key="quality_source").set_value("samples/club-9.csv").run()
    code = at.selectbox(key="quality_code").options[1]
    at.selectbox(key="quality_code").set_value(code).run()
    params = {k: v if isinstance(v, str) else v[0] for k, v in at.query_params.items()}
    assert params == {"file": "samples/club-9.csv", "code": code}
    records = metrics(at)["Records"]
    at.switch_page("views/league.py").run()  # away and back
    at.switch_page("views/quality.py").run()
    assert at.selectbox(key="quality_source").value == "samples/club-9.csv"
    assert at.selectbox(key="quality_code").value == code
    again = page("quality", fixture_path, monkeypatch, **params)  # a reload, a shared link
    assert again.selectbox(key="quality_source").value == "samples/club-9.csv"
    assert again.selectbox(key="quality_code").value == code
    assert metrics(again)["Records"] == records


def test_quality_says_a_file_or_code_of_the_link_it_does_not_have(
        fixture_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A link naming a file or a code this database does not have (a link from another
    database, a typo) showed every file and code without a word: the page says so, quoted and
    escaped, the file as the link names it (cut to its folder and name, a link's
    ``endplay-fixtures/pbn/example3.pbn`` was said as ``pbn/example3.pbn``, which the
    database has), and shows everything as before. A code of the database that the linked file
    has none of is said as such."""
    everything = page("quality", fixture_path, monkeypatch)
    assert not everything.warning
    path = "/srv/trickbook/data/*week*<12>.jsonl"
    at = page("quality", fixture_path, monkeypatch, file=path, code="no_such_code")
    assert not at.exception
    file_said, code_said = (w.value for w in at.warning)
    assert file_said == (f"The link names the file {md(quoted(path, 60))}, "
                         "which is not in this database: showing every file.")
    assert code_said == (f"The link names the code {md(quoted('no_such_code'))}, which is not "
                         "in this database: showing every code.")
    assert "<12>" not in file_said and "*week*" not in file_said
    assert at.selectbox(key="quality_source").value == at.selectbox(key="quality_code").value
    assert metrics(at) == metrics(everything)
    assert [df.value.shape for df in at.dataframe] == [df.value.shape
                                                       for df in everything.dataframe]
    at = page("quality", fixture_path, monkeypatch, file="samples/club-9.csv", code="parse")
    assert [w.value for w in at.warning] == [
        f"The link names the code {md(quoted('parse'))}, which is not among the quarantined "
        f"records of {md('samples/club-9.csv')}: showing every code."]
    assert at.selectbox(key="quality_source").value == "samples/club-9.csv"
    good = page("quality", fixture_path, monkeypatch, file="samples/club-9.csv",
                code=at.selectbox(key="quality_code").options[1])
    assert not good.warning and not good.exception


def test_quality_takes_a_file_named_by_its_path_or_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file named in the link as it was ingested (the path the command printed) was "not in
    this database"; it is chosen, shown and kept in the URL as the page shows files, and so is
    one ingested by a relative path and named by its full one. An empty ``?file=`` was named as
    a file it does not have; it is none."""
    from ingest.pipeline import ingest_paths

    sheet = tmp_path / "club" / "week.csv"
    sheet.parent.mkdir()
    sheet.write_bytes((ROOT / "data" / "samples" / "club-sheet-2026-11-22.csv").read_bytes())
    db = tmp_path / "t.duckdb"
    ingest_paths([sheet], db)
    at = page("quality", db, monkeypatch, file=str(sheet))
    assert not at.exception and not at.warning
    assert at.selectbox(key="quality_source").value == str(sheet)  # shown as club/week.csv
    assert at.query_params["file"] == "club/week.csv"
    monkeypatch.chdir(tmp_path)  # ingested by a relative path, named by its full one
    (relative,) = ingest_paths([Path("club") / "week.csv"], tmp_path / "r.duckdb")
    assert relative.source == "club/week.csv" and relative.stored
    at = page("quality", tmp_path / "r.duckdb", monkeypatch, file=str(sheet))
    assert not at.exception and not at.warning
    assert at.selectbox(key="quality_source").value == "club/week.csv"
    at = page("quality", db, monkeypatch, file="", code="")
    assert not at.exception and not at.warning
    assert metrics(at) == metrics(page("quality", db, monkeypatch))
    # a link naming the end of the path it was ingested from (more than the page shows) is
    # that file; an end no file has is said as the link wrote it
    for end in (f"{tmp_path.name}/club/week.csv", "week.csv"):
        at = page("quality", db, monkeypatch, file=end)
        assert not at.exception and not at.warning, end
        assert at.selectbox(key="quality_source").value == str(sheet)
    at = page("quality", db, monkeypatch, file="elsewhere/club/week.csv")
    assert [w.value for w in at.warning] == [
        f"The link names the file {md(quoted('elsewhere/club/week.csv'))}, which is not in this "
        "database: showing every file."]


def test_quality_keeps_the_shared_filters_in_its_url(fixture_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Data quality does not draw the sidebar's filters: its address lost them, so a reload
    there, then League, showed "(all)" (Balance keeps them, ``common.kept_filters``)."""
    monkeypatch.setenv(DB_ENV, str(fixture_path))
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60)
    at.switch_page("views/quality.py")
    at.query_params["variant"] = "swabian"
    at.query_params["player"] = "Xaver"
    at.run()
    assert not at.exception
    params = {k: v if isinstance(v, str) else v[0] for k, v in at.query_params.items()}
    assert params == {"variant": "swabian", "player": "Xaver"}
    at.query_params.clear()  # a page switch in the browser
    at.switch_page("views/league.py").run()
    assert at.selectbox(key="f_variant").value == "swabian"


def test_quality_totals_agree_across_versions(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A weekly file, then its next version (deal 2 changed, deal 4 left out, one deal whose
    tricks sum to 13) read twice, the second time with ``replace``. The page said "Quarantined
    3" (every ingest added up) above "2 quarantined records" (the table's rows, one of them the
    left-out deal at line 0): both now count the records quarantined now, as the data check
    ``quarantine_matches_last_ingest`` counts them (records read add up every ingest), and the
    left-out deal's row is said apart, its line a dash (docs/ingest.md, "Versions of a
    source")."""
    from scoring.checks import run_checks
    from scoring.store import score_pending

    league = ROOT / "data" / "samples" / "league.jsonl"
    lines = league.read_text(encoding="utf-8").splitlines()[:6]
    week = tmp_path / "week.jsonl"
    week.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = fx.build_empty(tmp_path / "t.duckdb")
    ingest_paths([week], db, score=score_pending)
    bad = json.loads(lines[5])
    bad["tricks"] = {name: 5 for name in bad["tricks"]}
    changed = [lines[0], lines[1], lines[2].replace('"Boris": 8, "Chris": 2',
                                                    '"Boris": 7, "Chris": 3'),
               lines[3], json.dumps(bad)]
    assert changed[2] != lines[2]
    week.write_text("\n".join(changed) + "\n", encoding="utf-8")
    ingest_paths([week], db, score=score_pending)
    ingest_paths([week], db, score=score_pending, replace=True)
    conn = duckdb.connect(str(db), read_only=True)
    try:
        assert not run_checks(conn)
        read = conn.execute("SELECT sum(records) FROM ingest_log").fetchone()
    finally:
        conn.close()
    at = page("quality", db, monkeypatch)
    assert not at.exception
    assert read is not None and metrics(at)["Records"] == f"{read[0]:,}"  # every ingest
    assert metrics(at)["Quarantined now"] == "1"
    said = " ".join(c.value for c in at.caption)
    assert "1 quarantined record for every file" in said, said
    assert "1 row of deals an earlier version stored that the latest left out" in said, said
    rows = frame_with(at, "text as read")
    assert sorted(rows["line"].astype(str)) == ["5", "—"], rows


def test_quality_page_shows_repairs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: a record stored after a named fix is shown with its file, line and fix (the
    first board of ``../shared/data/endplay-fixtures/pbn/example3.pbn`` leaves its opening
    passes out: a repair ``opening-passes``)."""
    from ingest.pipeline import ingest_paths

    source = ROOT.parent / "shared" / "data" / "endplay-fixtures" / "pbn" / "example3.pbn"
    board = tmp_path / "board1.pbn"
    board.write_text("\n".join(source.read_text().splitlines()[:27]) + "\n")  # to its *
    db = fx.build_empty(tmp_path / "t.duckdb")
    empty_page = page("quality", db, monkeypatch)
    assert any("No record needed a repair" in i.value for i in empty_page.info)
    [report] = ingest_paths([board], db)
    assert report.stored > 0
    at = page("quality", db, monkeypatch)
    assert not at.exception
    fixed = frame_with(at, "what was changed")
    assert "opening passes put back" in fixed["repair"].tolist()  # in words, not its code
    assert str(tmp_path) not in fixed.to_string()
    # the same board again in another file: a duplicate, so repaired but not stored (the page
    # said "2 records stored after a named fix" of it, counting the table's rows)
    again = tmp_path / "again.pbn"
    again.write_text("% the same board\n" + board.read_text())
    [dup] = ingest_paths([again], db)
    assert (dup.stored, dup.duplicates, dup.repaired) == (0, 2, 1)  # its game and deal
    said = [c.value for c in page("quality", db, monkeypatch, file=str(again)).caption]
    fixes = len(fixed)
    assert (f"1 record read with a named fix ({fixes} repair{'s' * (fixes > 1)}; not stored: "
            "a duplicate of a deal stored before).") in " ".join(said), said


def test_the_replayer_says_what_a_reader_repaired(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal a reader repaired (the first board of ``endplay-fixtures/pbn/example3.pbn`` leaves
    its opening passes out, ``opening-passes``, and its play holds a card not held,
    ``play-dropped``) was replayed as if read as written: the page says under its auction and
    under its table which fix was made there, in words, with what the reader changed
    (escaped); a deal stored as read says nothing of repairs."""
    source = ROOT.parent / "shared" / "data" / "endplay-fixtures" / "pbn" / "example3.pbn"
    board = tmp_path / "board1.pbn"
    board.write_text("\n".join(source.read_text().splitlines()[:27]) + "\n")
    db = fx.build_empty(tmp_path / "t.duckdb")
    [report] = ingest_paths([board], db)
    assert report.stored > 0 and report.repaired == 1
    hostile = "3 opening passes put back *before* the calls <b>N</b> [x](y) $1$"
    con = duckdb.connect(str(db))
    try:
        con.execute("UPDATE repairs SET message = ? WHERE code = 'opening-passes'", [hostile])
        ((game, deal),) = con.execute("SELECT game_id, deal_no FROM deals").fetchall()
        ((dropped,),) = con.execute(
            "SELECT message FROM repairs WHERE code = 'play-dropped'").fetchall()
    finally:
        con.close()
    at = page("replayer", db, monkeypatch, game=game, deal=str(deal))
    assert not at.exception
    said = [c.value for c in at.caption if "Repaired" in c.value]
    assert said == [f"Repaired when its file was read (its play): **the play dropped** "
                    f"({md(dropped)})",
                    f"Repaired when its file was read (its auction): **opening passes put "
                    f"back** ({md(hostile)})"], said

    plain = page("replayer", fx.build(tmp_path / "f.duckdb"), monkeypatch)
    assert not plain.exception and not [c for c in plain.caption if "Repaired" in c.value]


def test_upload_page_states_the_bound(fixture_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKBOOK_UPLOAD_MAX_MB", "5")
    at = page("upload", fixture_path, monkeypatch)
    assert not at.exception
    assert any("at most 5 MB" in m.value for m in at.markdown)
    assert at.button(key="upload_go").disabled


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_hostile_url_changes_nothing(name: str, fixture_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    before = table_counts(fixture_path)
    evil = "'; DROP TABLE deals; --"
    at = page(name, fixture_path, monkeypatch, variant=evil, league=evil, player=evil,
              **{"from": evil, "to": "2026-02-30"})
    assert not at.exception
    if name not in ("balance", "quality", "upload", "entry"):  # the pages with the shared filters
        warnings = " ".join(w.value for w in at.warning)
        assert "not a date" in warnings and "No player" in warnings
    assert table_counts(fixture_path) == before


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_empty_database_says_what_is_missing(name: str, empty_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    at = page(name, empty_path, monkeypatch)
    assert not at.exception
    assert at.info, "an empty state must say what is missing"


def test_player_page_of_an_empty_database_has_no_empty_list(
        empty_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It asked to open 'one of the most active players below' above an empty table."""
    at = page("player", empty_path, monkeypatch)
    assert any(i.value == NO_GAMES for i in at.info)
    assert not any("players below" in i.value for i in at.info) and not at.dataframe


@pytest.mark.parametrize("name", ["league", "player", "contracts", "replayer", "results"])
def test_an_empty_database_blames_no_filter(name: str, empty_path: Path, fixture_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """With no filter set, an empty database said "No games match these filters: widen the
    date range"; it says it holds no games yet. A database with games whose filters find none
    names the filters and asks to widen them (Contracts, Replayer and Club results did not: the
    replayer blamed score sheets for deals a date range hid)."""
    at = page(name, empty_path, monkeypatch)
    assert not at.exception and [i.value for i in at.info if "filters" in i.value] == []
    assert NO_GAMES in [i.value for i in at.info]
    at = page(name, fixture_path, monkeypatch, **{"from": "1990-01-01", "to": "1990-01-02"})
    assert not at.exception and NO_GAMES not in [i.value for i in at.info]
    assert any("filters" in i.value and "widen the date range" in i.value for i in at.info)


@pytest.mark.parametrize("name", ["league", "quality"])
def test_missing_database_is_a_message(name: str, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The way to fill it names no server path, and asks for no command that would make a file
    elsewhere (it said `--db none.duckdb` "in the folder the dashboard was started from", which
    is another file when the server was given an absolute path). It is information, not a red
    error box, and its commands read as code (they were shown with their backticks)."""
    at = page(name, tmp_path / "none.duckdb", monkeypatch)
    assert not at.exception and not at.error  # where every club starts: no error
    (info,) = [i.value for i in at.info if "no database" in i.value]
    assert "the `--db` the dashboard was started with" in info and "--db none" not in info
    assert "\\`" not in info  # the commands are shown as code, not as escaped backticks
    assert str(tmp_path) not in info


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_a_duckdb_file_without_tables_is_no_database_yet(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty DuckDB file (created, never ingested into) showed a traceback on every page
    that reads: DuckDB took a missing table for a Python name of the page's module."""
    blank = tmp_path / "blank.duckdb"
    duckdb.connect(str(blank)).close()
    at = page(name, blank, monkeypatch)
    assert not at.exception
    said = " ".join(e.value for e in [*at.error, *at.info])
    assert "Traceback" not in said and "Python Object" not in said
    if name not in ("upload", "entry", "balance"):  # these work without data
        assert "holds no trickbook tables yet" in said


def test_sample_database_pages(sample_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PAGE_NAMES:
        at = page(name, sample_path, monkeypatch)
        assert not at.exception, name
    with read_only(sample_path) as con:
        games = q.overview(con, Filters())["games"][0]
    assert league_counts(page("league", sample_path, monkeypatch))["game"] == games


def test_ingest_between_reruns_shows_new_data(fixture_copy: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The app holds no connection: a writer can take the file between two reruns, and the next
    rerun shows its data (the cache key includes the file's modification time)."""
    import duckdb

    at = page("league", fixture_copy, monkeypatch)
    assert league_counts(at)["game"] == 4
    writer = duckdb.connect(str(fixture_copy))  # would fail if the page kept the file open
    writer.execute(
        "INSERT INTO games SELECT 'late/1', variant, players, rules, started_at, league, event, "
        "stake, source, line, record FROM games WHERE game_id = ?", [fx.G1])
    writer.close()
    at.run()
    assert not at.exception
    assert league_counts(at)["game"] == 5


BAD_WORDS = ("None", "nan", "NaN")


def shown_problems(at: AppTest) -> list[str]:
    """What a user must never see on a page: an exception, a None/NaN cell, a server path."""
    problems = [f"exception: {e.value[:200]}" for e in at.exception]
    for df in at.dataframe:
        frame = df.value
        # a missing number stays a number (sorted as one) where the table draws it as a word
        drawn = df.proto.HasField("placeholder") and df.proto.placeholder not in BAD_WORDS
        for column in frame.columns:
            values = frame[column]
            gaps = values.isna().any() and not (drawn and pd.api.types.is_numeric_dtype(values))
            if gaps or values.astype(str).isin(BAD_WORDS).any():
                problems.append(f"a None/NaN cell in column {column!r}")
    texts = [*(m.value for m in at.markdown), *(c.value for c in at.caption),
             *(e.value for e in at.error), *(w.value for w in at.warning),
             *(i.value for i in at.info)]
    for df in at.dataframe:
        texts += [str(v) for v in df.value.astype(str).to_numpy().ravel()]
    for path in (str(ROOT), "/tmp/", "site-packages"):
        if any(path in t for t in texts):
            problems.append(f"a server path ({path})")
    return problems


@pytest.mark.parametrize("variant", [None, *(v.name for v in registered())])
@pytest.mark.usefixtures("polars_without_python")
def test_demo_pages_show_no_crash_none_or_path(variant: str | None, demo_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page for every variant on the demo-like database (the Contracts page crashed on
    Greek Prefa's conceded preliminary bids, a declared deal without a contract), each column
    worked out without polars calling Python (the dashboards' server stopped answering in CI on
    the Player page, whose columns polars worked out with Python functions from its threads)."""
    params = {"variant": variant} if variant else {}
    failures = []
    for name in PAGE_NAMES:
        at = page(name, demo_path, monkeypatch, **params)
        failures += [f"{name}: {p}" for p in shown_problems(at)]
        if name == "player":
            with read_only(demo_path) as con:
                top = q.players(con, Filters(variant=variant))["player"][0]
            at = page(name, demo_path, monkeypatch, **params, player=top)
            failures += [f"{name} {top}: {p}" for p in shown_problems(at)]
    assert not failures, "\n".join(sorted(set(failures)))


def test_upload_needs_the_write_token_when_one_is_set(fixture_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKBOOK_WRITE_TOKEN", "s3cret")
    at = page("upload", fixture_path, monkeypatch)
    assert not at.exception and not at.get("file_uploader")
    at.text_input(key="upload_token").input("wrong").run()
    assert any("not the club's write token" in e.value for e in at.error)
    assert not at.get("file_uploader")
    at.text_input(key="upload_token").input("s3cret").run()
    assert at.get("file_uploader") and at.button(key="upload_go").disabled
    at.run().run()  # the token box is no longer drawn: Streamlit drops its state, not the gate
    assert at.get("file_uploader") and not at.get("text_input")
    monkeypatch.delenv("TRICKBOOK_WRITE_TOKEN")
    assert page("upload", fixture_path, monkeypatch).get("file_uploader")  # no token: open


def test_no_page_has_a_bare_string_to_draw() -> None:
    """Streamlit's magic draws every bare expression of a page script: a string after the module
    docstring (an attribute's docstring, say) would show on the page as text."""
    import ast

    for path in sorted(PAGES.glob("*.py")):
        body = ast.parse(path.read_text(encoding="utf-8")).body
        bare = [node.lineno for node in body[1:] if isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)]
        assert bare == [], f"{path.name}: bare strings at lines {bare}"


def test_pages_show_the_merged_person(demo_path: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Greek "Anna" and bridge "Anna" (data/samples) are two people until merged; then the
    Player page shows one person, his cash one row per variant in its unit, and League lists
    him under each variant (ingest/players.py)."""
    copy = tmp_path / "demo.duckdb"
    shutil.copy(demo_path, copy)
    at = page("player", copy, monkeypatch)
    options = at.sidebar.selectbox(key="f_player").options
    assert {"Anna (greek-prefa)", "Anna (bridge-rubber)"} <= set(options)
    con = duckdb.connect(str(copy))
    players.register(con)
    players.merge(con, "greek-prefa:Anna", "bridge-rubber:Anna")
    con.close()
    at = page("player", copy, monkeypatch, player="Anna")
    assert not at.exception
    assert at.subheader[0].value == "Anna"
    money = frame_with(at, "field's cash per deal")
    assert {"greek-prefa", "bridge-rubber"} <= set(money["variant"])
    assert set(money["unit"]) >= {"chips", "points"}  # each cash figure says its unit
    league = page("league", copy, monkeypatch, player="Anna")
    tables = [t for t in standings_tables(league) if "player" in t.columns]
    assert sum("Anna" in t["player"].tolist() for t in tables) >= 2  # one table per variant


def test_replayer_says_a_deal_without_cards_has_nothing_to_replay(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A traveller deal (no cards) opened by its address: its result and a sentence, not an
    empty table reading "After 0 of 0 tricks · taken:"."""
    with read_only(demo_path) as con:
        game, deal = con.execute("SELECT game_id, deal_no FROM deals WHERE NOT has_cards "
                                 "AND game_id LIKE 'traveller/%' LIMIT 1").fetchone()
    at = page("replayer", demo_path, monkeypatch, game=game, deal=str(deal))
    assert not at.exception
    assert any("recorded without its cards" in i.value for i in at.info)
    assert not any("After 0 of 0 tricks" in m.value for m in at.markdown)


def test_results_card_links_only_deals_with_cards(demo_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Club results: a traveller's boards have no cards, so the pair's card offers no replay
    link (it opened an empty table); a session of boards played once says so; a pairs event
    opens ranked by matchpoints though the session shown before was a teams match."""
    at = page("results", demo_path, monkeypatch, variant="bridge-duplicate")
    box = at.selectbox(key="results_event")
    assert at.radio(key=f"results_by_{box.value}").value == "imps"  # the first: a teams match
    riverside = next(i for i, o in enumerate(box.options) if "Riverside" in o)
    box.set_value(riverside).run()
    assert at.radio(key=f"results_by_{riverside}").value == "percent"
    card = [df.value for df in at.dataframe][-1]
    assert "replay" not in card.columns
    assert any("recorded without their cards" in c.value for c in at.caption)


def test_a_deal_link_keeps_the_filters_in_a_new_tab(fixture_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal row's replayer link held only the deal: opened in a new tab (a new session, its
    URL alone) the sidebar read "(all)". It carries the filters, and the replayer opens with
    them and the deal."""
    at = page("contracts", fixture_path, monkeypatch, variant="greek-prefa")
    cell_boxes(at)[0].set_value("6S").run()
    cell_boxes(at)[1].set_value("both").run()
    link = frame_with(at, "replay")["replay"].tolist()[0]
    path, _, query_string = link.partition("?")
    params = dict(urllib.parse.parse_qsl(query_string))
    assert path == "replayer" and params["variant"] == "greek-prefa" and params["deal"]
    opened = page("replayer", fixture_path, monkeypatch, **params)
    assert not opened.exception
    assert opened.selectbox(key="f_variant").value == "greek-prefa"
    assert opened.selectbox(key="replay_deal").value == f"{params['game']}#{params['deal']}"


def test_my_deals_name_a_game_as_its_players_know_it(demo_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Player, My deals: a game was shown by its id alone, and a PPN game's id is a hash
    (``ppn/adf0925e5415a7ef``, docs/ingest.md "Versions of a source"); a row now names the
    game by its event or league and the names at its table, its id last (two undated games of
    one table differ only there), the replayer's link first, in sight on a 1400 px page: with
    one variant chosen, its unit is said once, above the table."""
    with read_only(demo_path) as con:
        people = q.players(con, Filters(variant="balkan"))["player"].to_list()
        games = con.execute("SELECT game_id, coalesce(event, league), "
                            "array_to_string(players, ', ') FROM games").fetchall()
    assert "Jelena" in people
    named = {gid: " · ".join(x for x in (where, table) if x) for gid, where, table in games}
    at = page("player", demo_path, monkeypatch, player="Jelena", variant="balkan")
    assert not at.exception
    deals = frame_with(at, "game id")
    assert list(deals.columns) == [
        "replay", "started (UTC)", "game", "deal", "role", "contract", "result",
        "declarer's tricks", "cash", "game id"]
    assert all(named[gid] == game for gid, game in zip(deals["game id"], deals["game"],
                                                        strict=True))
    assert "Jelena, Ana, Marko" in set(deals["game"])  # the PPN game's table
    assert any("Cash in soup points" in c.value for c in at.caption)
    at.sidebar.selectbox(key="f_variant").set_value(None).run()
    deals = frame_with(at, "game id")
    assert {"variant", "unit"} <= set(deals.columns) and not at.exception


def test_amounts_are_shown_with_thousands_separators(demo_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """League's standings read 3218 and -4298 where the Player page reads +3,318: a table's
    amounts take the reader's separators (still numbers, sorted as such); a season does not."""
    at = page("league", demo_path, monkeypatch, variant="greek-prefa")
    (table, *_) = at.dataframe
    config = json.loads(table.proto.columns)
    assert config["cash (chips)"]["type_config"]["format"] == "localized"
    assert "season" not in config or "format" not in config["season"].get("type_config", {})
    assert table.value["cash (chips)"].dtype.kind in "if"  # sorted as numbers


def test_replayer_opened_on_a_deal_without_cards_says_only_it_is_listed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opened from an address on a score-sheet deal (no deal with cards in the database), the
    replayer said "the deal chosen before stays open": nothing was chosen before."""
    from ingest.pipeline import ingest_paths

    db = fx.build_empty(tmp_path / "t.duckdb")
    ingest_paths([ROOT / "data" / "samples" / "club-sheet-2026-11-22.csv"], db)
    with read_only(db) as con:
        (game,), = con.execute("SELECT game_id FROM games").fetchall()
    at = page("replayer", db, monkeypatch, game=game, deal="1")
    assert not at.exception
    said = [c.value for c in at.caption if c.value.startswith("No deal with cards")]
    assert said == ["No deal with cards for these filters; only the deal open is listed."]


def test_replayer_says_why_play_ends_with_cards_in_hand(demo_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A Balkan deal of data/samples/balkan (PPN) whose play stops after 7 tricks, the outcome
    settled, ended "After 7 of 7 tricks" with three cards in each hand and no word why."""
    game = "ppn/adf0925e5415a7ef"
    with read_only(demo_path) as con:
        if q.deal_detail(con, game, 28).is_empty():
            pytest.skip("the Balkan sample is not in the demo database")
    at = page("replayer", demo_path, monkeypatch, game=game, deal="28", trick="7")
    assert not at.exception
    assert any("play ends after trick 7" in c.value for c in at.caption)
    at.button(key="replay_back").click().run()
    assert not any("play ends after" in c.value for c in at.caption)


def test_my_deals_in_another_order_start_on_its_first_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Page 3 of a player's deals, then another order, showed rows 401 to 600 of the new order;
    another order starts on its first page."""
    from ingest.pipeline import ingest_paths
    from scoring.store import score_pending
    from sim.run import Plan, simulate

    simulate(Plan("swabian", 15, 20, seed=3), out=tmp_path / "s.jsonl", workers=1)
    db = fx.build_empty(tmp_path / "t.duckdb")
    ingest_paths([tmp_path / "s.jsonl"], db, score=score_pending)
    with read_only(db) as con:
        (player, deals), = con.execute(
            "SELECT player, count(*) AS n FROM settlements GROUP BY ALL ORDER BY n DESC, player "
            "LIMIT 1").fetchall()
    assert deals > 200  # two pages at least
    at = page("player", db, monkeypatch, variant="swabian", player=player)
    at.number_input(key="player_deal_page").set_value(2).run()
    assert any(c.value.startswith(f"{deals:,} deals; rows 201 to") for c in at.caption)
    at.radio(key="player_deal_order").set_value("biggest losses first").run()
    assert at.number_input(key="player_deal_page").value == 1
    assert any(c.value.startswith(f"{deals:,} deals; rows 1 to 200.") for c in at.caption)


def test_my_deals_order_and_the_results_choices_are_in_the_url(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Biggest losses first", a Club results event and a pair were lost on a reload: none was
    in the URL. Each is, beside the filters, and an address with them opens on them."""
    at = page("player", demo_path, monkeypatch, variant="balkan", player="Ana")
    at.radio(key="player_deal_order").set_value("biggest losses first").run()
    assert at.query_params["order"] in ("biggest losses first", ["biggest losses first"])
    again = page("player", demo_path, monkeypatch, **{k: v if isinstance(v, str) else v[0]
                                                       for k, v in at.query_params.items()})
    assert again.radio(key="player_deal_order").value == "biggest losses first"
    cash = frame_with(again, "cash")["cash"].tolist()
    assert cash == sorted(cash)  # the losses first
    res = page("results", demo_path, monkeypatch, variant="bridge-duplicate")
    box = res.selectbox(key="results_event")
    if len(box.options) < 2:
        pytest.skip("one event only")
    box.set_value(len(box.options) - 1).run()
    pairs = res.selectbox(key="results_pair")
    pairs.set_value(pairs.options[-1]).run()
    ranking = res.radio(key=f"results_by_{len(box.options) - 1}")
    other = next(o for o in q.RANKINGS if o != ranking.value)
    ranking.set_value(other).run()
    params = {k: v if isinstance(v, str) else v[0] for k, v in res.query_params.items()}
    assert {"event", "pair", "by"} <= params.keys()
    opened = page("results", demo_path, monkeypatch, **params)
    assert opened.selectbox(key="results_event").value == len(box.options) - 1
    assert opened.selectbox(key="results_pair").value == pairs.options[-1]
    assert opened.radio(key=f"results_by_{len(box.options) - 1}").value == other
    assert not opened.warning  # a link the page made names what it has
    stale = page("results", demo_path, monkeypatch, **{**params, "event": "Old cup",
                                                       "pair": "Nobody"})
    said = [w.value for w in stale.warning]
    assert said[0].startswith(f"The link names the event {md(quoted('Old cup'))}, which is not "
                              "among the events these filters choose: showing ")
    assert said[1].startswith(f"The link names the pair {md(quoted('Nobody'))}, which is not "
                              "in this event's ranking: showing ")


def test_a_link_s_order_or_ranking_the_page_lacks_is_said(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A link's ``order`` of a player's deals or ``by`` of Club results that the page does not
    have was dropped without a word, as the other values of a link are not."""
    at = page("player", demo_path, monkeypatch, variant="balkan", player="Ana", order="oldest")
    assert [w.value for w in at.warning] == [
        f"The link names the order {md(quoted('oldest'))}, which is not one of the orders of "
        "the deals: showing newest first."]
    res = page("results", demo_path, monkeypatch, variant="bridge-duplicate", by="butler")
    (said,) = [w.value for w in res.warning]
    assert said.startswith(f"The link names the ranking {md(quoted('butler'))}, which is not one "
                           "of the rankings: showing "), said


def test_a_deal_with_hands_and_no_play_has_no_trick_slider(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal recorded with its hands and without a play (data/samples' PPN) shows the hands
    only: there is no trick to step to, so no slider (it ran from 0 to 1) and no "After 0 of 0
    tricks" (it says why there is no play)."""
    with read_only(demo_path) as con:
        found = con.execute("""SELECT game_id, deal_no FROM deals WHERE has_cards
                               AND (record->'$.play') IS NULL ORDER BY ALL LIMIT 1""").fetchone()
    assert found is not None
    at = page("replayer", demo_path, monkeypatch, game=found[0], deal=str(found[1]))
    assert not at.exception
    assert at.selectbox(key="replay_deal").value == f"{found[0]}#{found[1]}"
    assert not at.get("slider")
    assert not any("After 0 of 0 tricks" in m.value for m in at.markdown)
    assert any("The hands as dealt** · no play: " in m.value for m in at.markdown)


def test_the_replayer_says_the_kassa_beside_the_chips(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A made Greek contract can cost its declarer chips while his kassa falls (greek-prefa.md
    8): "made" beside "-16 chips" alone read as a scoring fault. The settled line says the kassa
    change (the settlement's ledger) beside the chips; a variant that keeps nothing beside the
    cash says nothing more."""
    with read_only(demo_path) as con:
        found = con.execute("""SELECT game_id, deal_no, player, cash, kassa_delta
                               FROM settlements WHERE variant = 'greek-prefa'
                               AND kassa_delta < 0 AND cash < 0 ORDER BY ALL LIMIT 1""").fetchone()
    assert found is not None
    game, deal, player, chips, kassa = found
    at = page("replayer", demo_path, monkeypatch, game=game, deal=str(deal))
    (settled,) = [c.value.replace("\\", "") for c in at.caption if "Settled:" in c.value]
    assert f"{player} {chips:+,.0f} chips (kassa {kassa:+d})" in settled


def test_a_pairs_session_ranked_by_imps_says_cross_imps(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pairs event has no team IMPs (data/samples/bridge/club-pairs-travellers.csv): its
    "IMPs" choice ranked the pairs by their cross-IMPs while it said "IMPs", a column the
    ranking does not show. The choice and the caption say cross-IMPs, and the order is theirs."""
    at = page("results", demo_path, monkeypatch, variant="bridge-duplicate")
    box = at.selectbox(key="results_event")
    box.set_value(next(i for i, o in enumerate(box.options) if "Riverside" in o)).run()
    by = at.radio(key=f"results_by_{box.value}")
    assert list(by.options) == ["matchpoint %", "cross-IMPs per board"]
    by.set_value("imps").run()
    assert not at.exception
    assert any("ranked by cross-IMPs per board" in c.value for c in at.caption)
    ranking = frame_with(at, "pair")
    for side in ("N-S", "E-W"):  # a Mitchell: each direction ranked apart
        cross = ranking[ranking["pair"].str.startswith(side)]["cross-IMPs per board"].tolist()
        assert cross == sorted(cross, reverse=True) and len(set(cross)) > 1


GAME_WITHOUT_DEALS = """[Event "Club night"]
[Date "2026.11.20"]
[Board "1"]
[West "Ann"]
[North "Bob"]
[East "Cid"]
[South "Dan"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.AKQ.AKQ.AKQ AKQJ.234.234.234 6789.567.567.567 T.T98J.T98J.T98J"]
[Declarer "S"]
[Contract "3NT"]
[Result "9"]
"""


@pytest.fixture(scope="module")
def no_deals_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database whose one game has no deal: the PBN file's only board repeats cards, so it is
    quarantined and its game is stored alone."""
    from ingest.pipeline import ingest_paths

    folder = tmp_path_factory.mktemp("no-deals")
    (folder / "club.pbn").write_text(GAME_WITHOUT_DEALS)
    db = fx.build_empty(folder / "t.duckdb")
    [report] = ingest_paths([folder / "club.pbn"], db)
    assert (report.stored, report.quarantined) == (1, 1)
    return db


@pytest.mark.parametrize("variant", ["", "bridge-duplicate"])
@pytest.mark.parametrize("name", PAGE_NAMES)
def test_a_game_without_deals(name: str, variant: str, no_deals_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    """League crashed (Streamlit's "the tabs parameter is required") when the games matching
    the filters had no standings; now it says why, as every page does."""
    at = page(name, no_deals_path, monkeypatch, **({"variant": variant} if variant else {}))
    assert not at.exception
    if name == "league":
        assert any("no stored deal" in i.value for i in at.info)


def test_deals_not_scored_yet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals stored with scoring off have no standings yet: League says how to score them."""
    from ingest.pipeline import ingest_paths

    db = fx.build_empty(tmp_path / "t.duckdb")
    [report] = ingest_paths([ROOT / "data" / "samples" / "league.jsonl"], db)
    assert report.stored > 0
    at = page("league", db, monkeypatch)
    assert not at.exception
    assert any("not scored yet" in i.value and "trickbook score" in i.value for i in at.info)


def test_games_waiting_for_their_settlement(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Games stored and not settled (a second Ctrl-C while settling, a settlement that failed:
    docs/ingest.md) left the standings short without a word when other games had standings;
    League now counts them, with the filters, and says how to settle them."""
    from scoring.store import score_pending

    db = fx.build_empty(tmp_path / "t.duckdb")
    [scored] = ingest_paths([ROOT / "data" / "samples" / "league.jsonl"], db, score=score_pending)
    swabian = sorted((ROOT / "data" / "samples" / "swabian").glob("*.jsonl"))[0]
    [waiting] = ingest_paths([swabian], db)
    assert scored.stored and waiting.stored and not scored.score_error
    games = len(waiting.games)
    at = page("league", db, monkeypatch)
    assert not at.exception
    [warning] = [w.value for w in at.warning if "settlement" in w.value]
    assert warning.startswith(f"{games} game") and "trickbook score" in warning
    greek = page("league", db, monkeypatch, variant="greek-prefa")
    assert not [w for w in greek.warning if "settlement" in w.value]
    with duckdb.connect(str(db)) as con:
        score_pending(con)
    assert not [w for w in page("league", db, monkeypatch).warning if "settlement" in w.value]


def test_a_greek_deal_s_cash_says_what_it_leaves_out(fixture_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """greek-prefa.md 9.3: a declarer who makes his contract pays the defenders chips for their
    tricks, and gains by his kassa; My deals showed his made contract at, e.g., -21 chips
    without a word. The note is the variant's (``Variant.cash_note``), said for Greek deals
    only."""
    greek = page("player", fixture_path, monkeypatch, player="Boris", variant="greek-prefa")
    notes = [c.value for c in greek.caption if "kassa" in c.value]
    assert notes == [lookup("greek-prefa").cash_note]
    mixed = page("player", fixture_path, monkeypatch, player="Boris")
    assert [c.value for c in mixed.caption if "kassa" in c.value] == [
        f"greek-prefa: {lookup('greek-prefa').cash_note}"]
    swabian = page("player", fixture_path, monkeypatch, player="Boris", variant="swabian")
    assert not [c.value for c in swabian.caption if "kassa" in c.value]
    assert [v.name for v in registered() if v.cash_note] == ["greek-prefa"]


def test_duplicate_standings_say_they_are_table_scores(sample_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A duplicate event is ranked by matchpoints or IMPs over the same boards (docs/bridge.md),
    and League ranked its seats by table scores added up without a word; the standings and a
    player's cash now say what they are and where the ranking is (``Variant.standings_note``),
    for bridge-duplicate only."""
    note = lookup("bridge-duplicate").standings_note
    assert "Club results" in note
    league = page("league", sample_path, monkeypatch, variant="bridge-duplicate")
    assert [c.value for c in league.caption if c.value == note] == [note]
    player = page("player", sample_path, monkeypatch, variant="bridge-duplicate",
                  player=pair_player(0, "Riverside BC Tuesday pairs 2026-11-24", "1"))
    assert note in [c.value for c in player.caption]
    greek = page("league", sample_path, monkeypatch, variant="greek-prefa")
    assert not [c for c in greek.caption if "Club results" in c.value]
    assert [v.name for v in registered() if v.standings_note] == ["bridge-duplicate"]


def test_undated_results_are_counted_in_words(sample_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """An undated game read "1 undated greek-prefa games" on Player and "Anna +20 chips in 1"
    on League's cash over time."""
    with read_only(sample_path) as con:
        undated = q.undated_cash(con, Filters(variant="greek-prefa"))
    one = undated.filter(pl.col("games") == 1).row(0, named=True)
    at = page("player", sample_path, monkeypatch, player=one["player"], variant="greek-prefa")
    said = [c.value for c in at.caption if c.value.startswith("Not on the time line")]
    assert said and "1 undated greek\\-prefa game, " in said[0], said
    league = open_tab(page("league", sample_path, monkeypatch, variant="greek-prefa"),
                      "league_section", "Cash over time")
    said = [c.value for c in league.caption if c.value.startswith("Not on the time line")]
    assert said and " in 1 game" in said[0] and " in 1," not in said[0], said
    games = int(undated["games"].sum())
    assert f"({games:,} undated game result{'' if games == 1 else 's'}," in said[0]


def test_counts_of_one_are_said_in_the_singular(demo_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A replayer search finding one deal read "1 deals with cards match", and a deal of one
    trick recorded (the demo's first Swabian deal) "After 0 of 1 tricks" (Upload's one
    record: ``test_uploads.py``)."""
    with read_only(demo_path) as con:
        every = q.card_deals(con, Filters(), None, 100_000, 0)
    alone = every.group_by("game_id").len().filter(pl.col("len") == 1)["game_id"].sort()
    at = page("replayer", demo_path, monkeypatch)
    at.text_input(key="replay_search").set_value(alone[0]).run()
    assert any(c.value.startswith("1 deal with cards matches;") for c in at.caption), \
        [c.value for c in at.caption]
    swabian = page("replayer", demo_path, monkeypatch, variant="swabian")  # its first deal
    steps = [m.value for m in swabian.markdown if m.value.startswith("**After 0 of ")]
    assert len(steps) == 1 and steps[0].startswith("**After 0 of 1 trick** · taken: "), steps


def test_a_player_of_one_deal_reads_in_the_singular(fixture_copy: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """My deals of a player who played one deal read "1 deals; rows 1 to 1"."""
    from scoring.store import score_pending

    lines = tmp_path / "one.jsonl"
    lines.write_text(
        json.dumps({"record": "game", "game_id": "one/1", "variant": "greek-prefa",
                    "players": ["Xan", "Yan", "Zed"]}) + "\n"
        + json.dumps({"record": "deal", "game_id": "one/1", "deal_no": 1, "dealer": "Xan",
                      "declarer": "Yan", "contract": "6S",
                      "defence": {"Xan": "play", "Zed": "play"},
                      "tricks": {"Xan": 2, "Yan": 6, "Zed": 2}}) + "\n")
    (report,) = ingest_paths([lines], fixture_copy, score=score_pending)
    assert report.stored == 2, report.issues
    at = page("player", fixture_copy, monkeypatch, player="Zed")
    assert any(c.value.startswith("1 deal; rows 1 to 1.") for c in at.caption), \
        [c.value for c in at.caption]


def test_results_say_why_a_typed_duplicate_game_is_not_ranked(
        fixture_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A duplicate game typed on the Entry page has no event, so Club results never lists it,
    and the page only told the scorer to ingest files he never needed: it says why."""
    at = page("results", fixture_path, monkeypatch)
    assert not at.exception
    (said,) = [i.value for i in at.info]
    assert said.startswith("No duplicate bridge results") and said.endswith(
        "A duplicate game typed on the Entry page, or simulated, is part of no event: its table "
        "scores are on the League page."), said


def test_results_of_a_pbn_teams_event_rank_by_imps_with_the_teams(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Club results on ../shared/data/endplay-fixtures/pbn/example2.pbn (a RealBridge teams
    qualifier, data/README.md), whose rooms name their teams in either order: a teams session,
    opened ranked by IMPs (Law 78B, docs/dashboards.md), each pair with its match (the two
    teams) and team, above them the teams ranked by net IMPs (AUSTRIA v DENMARK, boards 11-20:
    20 IMPs won, 16 lost, by hand in tests/dashboards/test_queries.py). Names are shown as
    written: board 11's two rooms of AUSTRIA v DENMARK as an event of their own, AUSTRIA
    renamed with Markdown and HTML in it."""
    from scoring.store import score_pending

    source = ROOT.parent / "shared" / "data" / "endplay-fixtures" / "pbn" / "example2.pbn"
    if not source.exists():
        pytest.skip("../shared/data/endplay-fixtures is absent")
    name = "<b>*AUS*</b> [x](y)"
    games = [g for g in source.read_text(encoding="utf-8").split("\n\n")
             if '"AUSTRIA"' in g and '[Board "11"]' in g]
    (tmp_path / "teams.pbn").write_text(
        "\n\n".join(games).replace("AUSTRIA", name).replace("Online Qual", "*Cup*"),
        encoding="utf-8")
    db = tmp_path / "teams.duckdb"
    ingest_paths([source, tmp_path / "teams.pbn"], db, score=score_pending)
    at = page("results", db, monkeypatch)
    options = at.selectbox(key="results_event").options
    seen, teams = {}, {}
    for event in ("2021 Online Qual: Open R2", "2021 *Cup*: Open R2"):
        pick = options.index(f"{event} · 2021-08-23")
        at.selectbox(key="results_event").set_value(pick).run()
        assert not at.exception
        assert at.radio(key=f"results_by_{pick}").value == "imps"
        ranking = seen[event] = frame_with(at, "match (teams)")
        assert ranking["IMPs"].notna().all()
        assert list(ranking["IMPs"]) == sorted(ranking["IMPs"], reverse=True)
        assert any("a teams event" in c.value for c in at.caption)
        assert event in [h.value.replace("\\", "") for h in at.subheader]
        assert [h.value for h in at.subheader][-3:-1] == ["Teams", "Pairs"]
        teams[event] = frame_with(at, "net IMPs")
        assert list(teams[event]["net IMPs"]) == sorted(teams[event]["net IMPs"], reverse=True)
    assert {"AUSTRIA v DENMARK", "GERMANY v LATVIA"} <= set(
        seen["2021 Online Qual: Open R2"]["match (teams)"])
    whole = teams["2021 Online Qual: Open R2"].set_index("team")
    assert len(whole) == 30 and whole.loc["AUSTRIA", "against"] == "DENMARK"
    assert list(whole.loc["AUSTRIA", ["boards compared", "IMPs won", "IMPs lost", "net IMPs"]]
                ) == [10, 20, 16, 4]
    mine = seen["2021 *Cup*: Open R2"]
    assert set(mine["match (teams)"]) == {f"{name} v DENMARK"}
    assert set(mine["team"]) == {name, "DENMARK"}
    assert sorted(mine["IMPs"]) == [-4, -4, 4, 4]
    assert teams["2021 *Cup*: Open R2"][["team", "net IMPs"]].values.tolist() == [
        [name, 4], ["DENMARK", -4]]


def test_results_of_a_lin_pairs_final_show_no_match(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """../shared/data/bbo-vugraph-lin/40000.lin, a pairs final (``vg`` scoring ``P``) whose
    ``vg`` names placeholder teams: a pairs session, opened by matchpoint %, with no match
    column and no word of teams (docs/dashboards.md)."""
    at = page("results", demo_path, monkeypatch)
    options = at.selectbox(key="results_event").options
    pick = next((i for i, o in enumerate(options) if o.startswith("T26 2015 EOBC")), None)
    if pick is None:
        pytest.skip("../shared/data/bbo-vugraph-lin is absent")
    at.selectbox(key="results_event").set_value(pick).run()
    assert not at.exception
    assert at.radio(key=f"results_by_{pick}").value == "percent"
    ranking = frame_with(at, "pair")
    assert "match (teams)" not in ranking.columns and "IMPs" not in ranking.columns
    assert "team" not in ranking.columns and "Teams" not in [h.value for h in at.subheader]
    assert not any("net IMPs" in df.value.columns for df in at.dataframe)
    assert not any("a teams event" in c.value for c in at.caption)


def test_a_dds_hand_file_s_unnamed_seats_are_no_players(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A DDS hand file (../shared/data/dds-hands/list10.txt) is deals nobody played, its seats
    unnamed (docs/bridge.md, dds_hands.py): League's header counted its four seats as players
    and the Player box listed them, with no deal played. The header now counts none, the box
    lists none, and Player says why there is no player though a game matches."""
    from scoring.store import score_pending

    db = fx.build_empty(tmp_path / "t.duckdb")
    ingest_paths([DATA / "dds-hands" / "list10.txt"], db,
                 score=score_pending)
    league = page("league", db, monkeypatch)
    assert not league.exception
    assert "1 game** · **10 deals**" in league.markdown[0].value
    assert league.markdown[0].value.endswith("**0 players**")
    assert [i.value for i in league.info] == [
        "The 10 deals matching these filters are deals nobody played (a DDS hand file's solved "
        "deals, their hands only), so no standings: the Replayer shows their hands."]
    player = page("player", db, monkeypatch)
    assert not player.exception
    assert player.sidebar.selectbox(key="f_player").options == ["(all)"]
    assert [i.value for i in player.info] == [
        "The 1 game matching these filters has no settled deal, so no players: deals nobody "
        "played (a DDS hand file's solved deals) are not settled, and deals not scored yet are "
        "settled by `trickbook score --db FILE`."]


def test_results_of_an_older_trickbook_s_database_say_so(
        demo_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A database an older trickbook made has an ``event_results`` without the teams of a
    deal's pairs (``ns_team``, ``ew_team``): Club results showed DuckDB's BinderException as a
    traceback; it says the database is an older trickbook's and what to do (docs/dashboards.md),
    which then opens it."""
    db = tmp_path / "older.duckdb"
    shutil.copy(demo_path, db)
    with duckdb.connect(str(db)) as conn:
        conn.execute("ALTER TABLE event_results DROP COLUMN ns_team")
        conn.execute("ALTER TABLE event_results DROP COLUMN ew_team")
    at = page("results", db, monkeypatch)
    assert not at.exception
    (said,) = [e.value.replace("\\", "") for e in at.error]
    assert said == ("the database “older.duckdb” lacks columns the dashboards read "
                    "(event_results.ns_team, event_results.ew_team): an older trickbook's "
                    "database; run `trickbook score` on it once to bring it up to date"), said
    conn = store.connect(db)  # what `trickbook score` does
    try:
        rescore(conn)
    finally:
        conn.close()
    assert not page("results", db, monkeypatch).error  # the score brought it up to date


def test_a_query_that_fails_on_a_current_database_is_not_called_an_older_one(
        demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A column a page's query names wrongly (a fault of the page) fails as DuckDB's
    BinderException, as a column an older trickbook's table lacks does: on a database that lacks
    no declared column the page says its query failed, not that the database is an older
    trickbook's and wants `trickbook score`, which would change nothing."""
    monkeypatch.setenv(DB_ENV, str(demo_path))
    monkeypatch.setattr(q, "misnamed", lambda con: con.sql("SELECT no_such FROM games").pl(),
                        raising=False)
    with pytest.raises(common.PageError) as said:
        common.query("misnamed")
    assert str(said.value).startswith(
        f"this page could not read the database “{demo_path.name}” (Binder Error: Referenced "
        'column "no_such" not found'), said
    assert "older" not in str(said.value) and "trickbook score" not in str(said.value)


def test_results_name_a_match_whose_rooms_are_seated_alike(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Russia v Netherlands (../shared/data/pbn-tournaments-slovesnov/A1A12525.PBN) read as two
    files, a room each, without ``Room`` tags: Russia N-S in both rooms. Club results says so
    and shows no Teams table (each team would win every board) nor a team of its pairs, while
    they are still ranked by their IMPs (each table's against the other: 59, as from the one
    file); read from its one file, the Teams table ranks the two teams by net IMPs, and the
    page says that the switch ranks the pairs (bridge.md defines no victory points,
    docs/dashboards.md)."""
    from scoring.store import score_pending

    if not fx.YOUTH_TEAMS.exists():
        pytest.skip("../shared/data/pbn-tournaments-slovesnov is absent")
    (apart := tmp_path / "apart").mkdir()
    ingest_paths(fx.rooms_apart(fx.YOUTH_TEAMS, apart), apart / "t.duckdb", score=score_pending)
    at = page("results", apart / "t.duckdb", monkeypatch)
    assert not at.exception
    (warned,) = [w.value for w in at.warning]
    assert warned.startswith("Not in the Teams table: Netherlands v Russia 25 (19 boards: "
                             "Russia N-S in both rooms)")
    assert "Teams" not in [h.value for h in at.subheader]
    assert not any("net IMPs" in df.value.columns for df in at.dataframe)
    pairs = frame_with(at, "match (teams)")
    assert pairs["IMPs"].notna().all() and sorted(pairs["IMPs"]) == [-59, -59, 59, 59]
    assert "team" not in pairs.columns  # Russia N-S in both rooms: which team a pair is, unknown
    ingest_paths([fx.YOUTH_TEAMS], tmp_path / "whole.duckdb", score=score_pending)
    at = page("results", tmp_path / "whole.duckdb", monkeypatch)
    assert not at.exception and not at.warning
    assert at.radio(key="results_by_0").label == "Rank pairs by"
    teams = frame_with(at, "net IMPs")
    assert sorted(teams["team"]) == ["Netherlands", "Russia"] and teams["net IMPs"].sum() == 0
    said = " ".join(c.value for c in at.caption)
    assert "2 teams ranked by net IMPs" in said and "no victory-point scale" in said
