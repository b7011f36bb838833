"""The Balance page (docs/dashboards.md, docs/balance-study.md): its queries against small seeded
studies stored by ``sim.balance.store_study``, and the page in AppTest.

Expected numbers come from the ``Study`` objects ``sim.balance.study`` returned before they
were stored, not from the queries under test."""

from __future__ import annotations

import json
import math
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import polars as pl
import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Selectbox

from dashboards import queries as q
from dashboards.common import ALL
from dashboards.db import DB_ENV, read_only
from dashboards.text import md, quoted, unit
from ingest.pipeline import ingest_paths
from model.tables import insert
from model.variants import variant as lookup
from sim.tables import BALANCE_METRICS, BALANCE_RUNS, METRICS, RUNS
from tests.conftest import ROOT
from tests.dashboards.conftest import BALANCE_STUDIES, table_counts
from tests.dashboards.test_pages import frame_with, metrics

PAGE = ROOT / "dashboards" / "views" / "balance.py"


@pytest.fixture
def con(balance_studies):
    with read_only(balance_studies[0]) as c:
        yield c


def _expected(study, metric: str, arm: str) -> dict[str, tuple[int, float | None]]:
    rows = study.metrics.filter((pl.col("metric") == metric) & (pl.col("arm") == arm))
    return {r["key"]: (r["n"], r["estimate"]) for r in rows.iter_rows(named=True)}


def test_runs_list_every_stored_study(con, balance_studies) -> None:
    _, studies = balance_studies
    runs = q.balance_runs(con)
    assert sorted(runs["run_id"]) == sorted(s.run_id for s in studies)
    assert runs["created_at"].is_sorted(descending=True)
    by_id = {r["run_id"]: r for r in runs.iter_rows(named=True)}
    for s, (variant, rules_a, rules_b, seed) in zip(studies, BALANCE_STUDIES, strict=True):
        row = by_id[s.run_id]
        assert (row["variant"], row["seed"], row["deals"]) == (variant, seed, 300)
        assert json.loads(row["rules_a"]) == rules_a and json.loads(row["rules_b"]) == rules_b


def test_runs_of_a_database_without_studies_is_empty(empty_path: Path) -> None:
    with read_only(empty_path) as c:
        runs = q.balance_runs(c)
    assert runs.is_empty() and runs.columns == list(q.BALANCE_RUN_SCHEMA)


@pytest.mark.parametrize("metric", ["declarer_success", "contract_share", "money_flow",
                                    "seat_result", "flag_effect"])
def test_metrics_are_the_stored_study(con, balance_studies, metric: str) -> None:
    _, studies = balance_studies
    for s in studies:
        got = q.balance_metrics(con, s.run_id, metric)
        for arm in ("a", "b", "b-a"):
            rows = got.filter(pl.col("arm") == arm)
            want = _expected(s, metric, arm)
            assert {r["key"]: (r["n"], r["estimate"]) for r in rows.iter_rows(named=True)} == want
        assert (got["lo"] <= got["estimate"] + 1e-12).all()  # the interval holds its estimate
        assert (got["estimate"] <= got["hi"] + 1e-12).all()


def test_keys_in_reading_order(con, balance_studies) -> None:
    """Levels 6..10 then the concession (greek-prefa.md 5); seats from the dealer; contracts by
    level and the suit ladder ♠ < ♣ < ♦ < ♥ < NT (greek-prefa.md 4.1), not as text, and "all"
    (every contract together) last: it sorted as text, before "misere"."""
    greek = balance_studies[1][0]
    levels = q.balance_arms(con, greek.run_id, "money_flow")["key"].to_list()
    numbers = [k for k in levels if k != "concede"]
    assert numbers == sorted(numbers, key=int) and levels[len(numbers):] in ([], ["concede"])
    assert "10" in levels  # else the order test is empty
    seats = q.balance_arms(con, greek.run_id, "seat_result")["key"].to_list()
    assert seats == ["dealer", "first hand", "second hand"]
    contracts = q.balance_arms(con, greek.run_id, "declarer_success")["key"].to_list()
    ladder = ["♠", "♣", "♦", "♥", "NT"]
    played = [k for k in contracts if k[0].isdigit()]
    parts = [re.fullmatch(r"(\d+)(♠|♣|♦|♥|NT)", k) for k in played]
    assert all(parts) and played
    keys = [(int(m[1]), ladder.index(m[2])) for m in parts if m]
    assert keys == sorted(keys)
    assert contracts[-1] == "all"  # every contract together, below its parts


def test_contracts_are_named_as_the_contracts_page_names_them(con, balance_studies) -> None:
    """A study keyed a Swabian contract by its game's name alone (``Eichel``) where Contracts
    writes ``5 Eichel``, and a Greek one by its code (``6S``): every study names a contract as
    its variant's ``call_words`` writes the deal's contract (``sim/balance.py``)."""
    _, studies = balance_studies
    shapes = {"greek-prefa": r"(6|7|8|9|10)(♠|♣|♦|♥|NT)",
              "swabian": r"[2-7] (Laub|Schellen|Herz|Eichel|Bettel|Durchmarsch)"
                         r"( from the hands)?"}
    for s in studies:
        variant = s.runs_row["variant"]
        for metric in ("declarer_success", "contract_share"):
            keys = set(q.balance_arms(con, s.run_id, metric)["key"]) - {"all", "all played"}
            assert keys, (variant, metric)
            odd = {k for k in keys if not re.fullmatch(shapes[variant], k)}
            assert odd <= {"no contract"}, (variant, metric, odd)


def test_a_study_stored_with_contract_codes_keeps_its_order(con, balance_studies,
                                                            tmp_path: Path) -> None:
    """A study stored before its contracts were in words (``6S``) still reads by the ladder."""
    path = tmp_path / "old.duckdb"
    shutil.copy(balance_studies[0], path)
    greek = balance_studies[1][0]
    codes = {"6♠": "6S", "6♣": "6C", "6♦": "6D", "6♥": "6H", "6NT": "6NT", "7♠": "7S"}
    c = duckdb.connect(str(path))
    try:
        for words, code in codes.items():
            c.execute("UPDATE balance_metrics SET key = ? WHERE run_id = ? AND key = ?",
                      [code, greek.run_id, words])
    finally:
        c.close()
    with read_only(path) as old:
        keys = q.balance_arms(old, greek.run_id, "declarer_success")["key"].to_list()
    shown = [k for k in keys if k in codes.values()]
    assert shown == [c for c in codes.values() if c in shown] and len(shown) > 2, keys


def test_arms_side_by_side(con, balance_studies) -> None:
    _, studies = balance_studies
    s = studies[0]
    arms = q.balance_arms(con, s.run_id, "declarer_success")
    a, b = _expected(s, "declarer_success", "a"), _expected(s, "declarer_success", "b")
    assert set(arms["key"]) == set(a) | set(b)
    for r in arms.iter_rows(named=True):
        assert (r["n_a"], r["estimate_a"]) == a.get(r["key"], (None, None))
        assert (r["n_b"], r["estimate_b"]) == b.get(r["key"], (None, None))


def test_flag_effects_group_the_sweep(con, balance_studies) -> None:
    """Studies that share arm a (variant, rules, size, seed, play) form one sweep; the Swabian
    study and the other arm a are not in it."""
    _, (raise_value, fixed_chips, swabian) = balance_studies
    effects = q.balance_flag_effects(con, raise_value.run_id, "declarer money")
    assert sorted(effects["run_id"]) == sorted([raise_value.run_id, fixed_chips.run_id])
    by_id = {r["run_id"]: r for r in effects.iter_rows(named=True)}
    assert by_id[raise_value.run_id]["change"] == "four aces: raise value"
    assert by_id[fixed_chips.run_id]["change"] == "four aces: fixed chips"
    for s in (raise_value, fixed_chips):
        n, est = _expected(s, "flag_effect", "b-a")["declarer money"]
        assert (by_id[s.run_id]["n"], by_id[s.run_id]["estimate"]) == (n, est)
    assert effects["estimate"].is_sorted(descending=True)
    alone = q.balance_flag_effects(con, swabian.run_id, "contract changed")
    assert alone["run_id"].to_list() == [swabian.run_id]
    assert alone["change"].to_list() == ["vorhand must bid: yes"]


def test_rules_change_in_words() -> None:
    """Words, not identifiers: the walk of the Balance page read ``four_aces=fixed_chips``."""
    assert q.rules_change("{}", '{"four_aces": "raise_value"}') == "four aces: raise value"
    assert q.rules_change('{"a": 1, "b": true}', '{"a": 1, "b": false}') == "b: no"
    assert q.rules_change('{"kassa": 10}', '{"kassa": 20}') == "kassa: 20"
    assert q.rules_change('{"x": 1}', "{}") == "x: default"
    # arm b leaves out a rule arm a sets: its value is the variant's default (greek-prefa.md 14)
    assert q.rules_change('{"jump_bids": true}', "{}", "greek-prefa") == "jump bids: no (default)"
    # ... or the one arm b's convention gives it (russian.md 6.1: Leningrad whists gentleman)
    assert q.rules_change('{"whist_style": "greedy"}', '{"convention": "leningrad"}',
                          "russian") == "convention: Leningrad, whist style: gentleman (default)"
    assert q.rules_change("{}", "{}") == "no change"
    # a Balkan arm a with a preset (balkan.md 10): arm b has none, though BalkanRules.preset is
    # a method of its rules (the page failed: "Object of type method is not JSON serializable")
    assert q.rules_change('{"preset": "serbian-club"}', "{}", "balkan") == "preset: default"
    assert q.rules_change("{}", "{}", "greek-prefa", "swabian") == "variant swabian"


@pytest.mark.parametrize("hostile", ["'; DROP TABLE balance_runs; --", "x' OR '1'='1", "%"])
def test_hostile_run_id_is_bound(balance_studies, hostile: str) -> None:
    path, _ = balance_studies
    before = table_counts(path)
    with read_only(path) as c:
        assert q.balance_metrics(c, hostile).is_empty()
        assert q.balance_arms(c, hostile, hostile).is_empty()
        assert q.balance_flag_effects(c, hostile, hostile).is_empty()
        assert q.balance_runs(c).height == len(BALANCE_STUDIES)
    assert table_counts(path) == before


def _one_study(path: Path, variant: str, rules_a: dict[str, object],
               rules_b: dict[str, object]) -> Path:
    """A database of one study ``r`` of ``variant`` (both arms) and its one flag effect."""
    with duckdb.connect(str(path)) as con:
        for table in (RUNS, METRICS):
            con.execute(table.ddl)
        insert(con, RUNS.name, pl.DataFrame([{
            "run_id": "r", "variant": variant, "variant_b": variant,
            "rules_a": json.dumps(rules_a), "rules_b": json.dumps(rules_b), "games": 1,
            "deals_per_game": 6, "seed": 1, "play": "bots", "deals": 6,
            "created_at": datetime(2026, 1, 1, tzinfo=UTC)}], schema=RUNS.schema))
        insert(con, METRICS.name, pl.DataFrame(
            [{"run_id": "r", "metric": "flag_effect", "key": "declarer money", "arm": "b-a",
              "n": 6, "estimate": 0.5, "lo": 0.0, "hi": 1.0}], schema=METRICS.schema))
    return path


def test_a_balkan_arm_with_a_preset_opens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    """``trickbook balance --variant balkan --rules-a`` a file of ``{"preset": "serbian-club"}``
    (balkan.md 10): the page failed on it (arm b's ``preset`` read as ``BalkanRules.preset``,
    a method: "Object of type method is not JSON serializable")."""
    path = _one_study(tmp_path / "study.duckdb", "balkan", {"preset": "serbian-club"}, {})
    at = page(path, monkeypatch)
    assert not at.exception
    assert frame_with(at, "arm b changes")["arm b changes"].to_list() == ["preset: default"]
    (arms,) = [df.value for df in at.dataframe if "rule" in df.value.columns]
    assert arms.to_dict(orient="list") == {
        "rule": ["preset"], "arm a": ["Serbian online club (prefko)"], "arm b": ["default"]}


# ---------------------------------------------------------------- the page (AppTest)


def page(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(DB_ENV, str(db))
    return AppTest.from_file(str(PAGE), default_timeout=60).run()


def shown_variant(box: Selectbox) -> str:
    """The variant the page's box shows: its value, or where the page opened on a variant that
    is not the shared filters', its placeholder (a pick of it is then a change)."""
    return str(box.value or box.proto.placeholder)


def test_page_shows_the_query_numbers(balance_studies, monkeypatch: pytest.MonkeyPatch) -> None:
    path, _ = balance_studies
    at = page(path, monkeypatch)
    assert not at.exception
    assert at.main.children[0].type == "title"  # nothing written above it (Streamlit magic)
    run_id = at.selectbox(key="balance_run").value
    with read_only(path) as c:
        effects = q.balance_metrics(c, run_id, "flag_effect")
        success = q.balance_arms(c, run_id, "declarer_success")
        money = q.balance_arms(c, run_id, "money_flow")
        flags = q.balance_flag_effects(c, run_id, "declarer money")
    money_effect = effects.filter(pl.col("key") == "declarer money").row(0, named=True)
    money_label = f"Declarer money ({unit(shown_variant(at.selectbox(key='balance_variant')))})"
    assert metrics(at)[money_label] == f"{money_effect['estimate']:+.2f}"  # with its unit
    changed = effects.filter(pl.col("key") == "contract changed").row(0, named=True)
    assert metrics(at)["Contract changed"] == f"{100 * changed['estimate']:.1f}%"
    captions = [c.value for c in at.caption]
    assert f"n={money_effect['n']:,} · 95% CI {money_effect['lo']:+.2f} to " \
           f"{money_effect['hi']:+.2f}" in captions
    shown = frame_with(at, "arm a (n, 95% CI)")  # the first arms table: declarer success
    # each number once, as text with its n and interval (no raw copy beside it)
    assert list(shown.columns) == ["contract", "arm a (n, 95% CI)", "arm b (n, 95% CI)"]
    assert [t.split(" (")[0] for t in shown["arm b (n, 95% CI)"]] == [
        "—" if e is None else f"{100 * e:.1f}%" for e in success["estimate_b"]]
    assert [t.split("n=")[1].split(" ")[0] for t in shown["arm a (n, 95% CI)"]] == [
        f"{n:,}" for n in success["n_a"]]
    levels = next(df.value for df in at.dataframe if "level" in df.value.columns)
    assert [t.split(" (")[0] for t in levels["arm a (n, 95% CI)"]] == [
        f"{e:+.2f}" for e in money["estimate_a"]]
    sweep = frame_with(at, "arm b changes")
    assert [t.split(" (")[0] for t in sweep["estimate (n, 95% CI)"]] == [
        f"{e:+.2f}" for e in flags["estimate"]]
    charts = at.get("vega_lite_chart")
    assert len(charts) == 4  # flag effects, success, money, seats
    run = q_run(path, run_id)
    money_axes = json.dumps([json.loads(c.proto.spec) for c in charts[2:]])
    assert f"declarer's money per deal ({unit(run['variant'])}" in money_axes  # its unit
    assert f"money per deal ({unit(run['variant'])}" in money_axes
    # the money tables say their unit too; every contract together is said in words ("all"
    # read as raspasy's all-pass); the deals paired are not said to be games x deals
    assert sum(f"in {unit(run['variant'])}" in c for c in captions if "per deal" in c) == 2
    assert "all" not in shown["contract"].to_list() and (
        "all contracts" in shown["contract"].to_list())
    # contracts in the game's words, as Contracts and the replayer write them (6♠, not 6S)
    variant = lookup(run["variant"])
    assert shown["contract"].to_list() == [
        "all contracts" if k == "all" else variant.call_words(k) for k in success["key"]]
    assert any("♠" in c or "♥" in c for c in shown["contract"]), shown["contract"].to_list()
    share = next(df.value for df in at.dataframe if "contract" in df.value.columns
                 and df.value is not shown and "all contracts" not in df.value["contract"].tolist())
    assert not any(re.fullmatch(r"\d+(S|C|D|H|NT)", c) for c in share["contract"]), share
    assert any(f"{run['deals']:,} deals played in both arms" in c for c in captions)
    assert not any(" × " in c for c in captions)


def q_run(path: Path, run_id: str) -> dict:
    with read_only(path) as c:
        return q.balance_runs(c).filter(pl.col("run_id") == run_id).row(0, named=True)


def test_page_widgets_by_key(balance_studies, monkeypatch: pytest.MonkeyPatch) -> None:
    path, (_, _, swabian) = balance_studies
    at = page(path, monkeypatch)
    at.selectbox(key="balance_effect").set_value("money changed").run()
    assert not at.exception
    with read_only(path) as c:
        want = q.balance_flag_effects(c, at.selectbox(key="balance_run").value, "money changed")
    assert [t.split(" (")[0] for t in frame_with(at, "arm b changes")["estimate (n, 95% CI)"]] \
        == [f"{100 * e:.1f}%" for e in want["estimate"]]
    at.selectbox(key="balance_variant").set_value("swabian").run()
    assert not at.exception
    assert at.selectbox(key="balance_run").value == swabian.run_id
    _, n_money = _expected(swabian, "flag_effect", "b-a")["declarer money"]
    assert metrics(at)["Declarer money (units)"] == f"{n_money:+.2f}"


def test_page_opens_on_the_variant_of_the_address(balance_studies,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Opened with ``?variant=...`` (the filters' variant of the page before), Balance showed
    the first variant's study whatever the address said, and said nothing of one without."""
    path, (_, _, swabian) = balance_studies
    monkeypatch.setenv(DB_ENV, str(path))
    at = AppTest.from_file(str(PAGE), default_timeout=60)
    at.query_params["variant"] = "swabian"
    at.run()
    assert not at.exception
    assert at.selectbox(key="balance_variant").value == "swabian"
    assert at.selectbox(key="balance_run").value == swabian.run_id
    other = AppTest.from_file(str(PAGE), default_timeout=60)
    other.query_params["variant"] = "bridge-duplicate"
    other.run()
    assert any("No balance study of bridge-duplicate" in c.value.replace("\\", "")
               for c in other.caption)


def test_page_shows_the_effects_each_study_stored(balance_studies,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The paired effects are the study's own: its cash named by its unit, a kassa only where
    the settlement keeps one (greek-prefa.md 8; sim/balance.py money_effects); the caption says
    the money counts the kassa only there. A cash effect that is the money's to the last digit
    (Swabian keeps nothing beside the cash) was a second metric with the same figure; it is
    said once, in the caption, and stays among the effects to chart."""
    path, (greek, _, swabian) = balance_studies
    at = page(path, monkeypatch)
    for study, cash, kept in ((greek, "Declarer chips", ["Declarer kassa"]),
                              (swabian, "Declarer units", [])):
        at.selectbox(key="balance_variant").set_value(study.runs_row["variant"]).run()
        at.selectbox(key="balance_run").set_value(study.run_id).run()
        assert not at.exception
        stored = _expected(study, "flag_effect", "b-a")
        money = f"Declarer money ({unit(study.runs_row['variant'])})"
        (n, cash_effect), (money_n, money_effect) = stored[cash.lower()], stored["declarer money"]
        same = n == money_n and math.isclose(cash_effect, money_effect, rel_tol=1e-9,
                                             abs_tol=1e-9)  # sums over games in any order
        assert same == (not kept)  # in these studies, where nothing is kept beside the cash
        assert list(metrics(at)) == [money, *([] if same else [cash]), *kept,
                                     "Contract changed", "Money changed"]
        assert sorted(at.selectbox(key="balance_effect").options) == sorted(stored)
        captions = " ".join(c.value for c in at.caption)
        assert ("(its kassa valued in chips)" in captions) == bool(kept)
        assert (f"{cash}: the same as the declarer money" in captions) == same


def test_page_empty_state_names_the_command(empty_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    at = page(empty_path, monkeypatch)
    assert not at.exception
    assert any("trickbook balance --variant" in i.value for i in at.info)
    assert not any("--db empty" in i.value for i in at.info)  # PATH: the server's own --db
    assert not at.metric
    swabian = AppTest.from_file(str(PAGE), default_timeout=60)
    swabian.query_params["variant"] = "swabian"  # the command for the filters' variant
    swabian.run()
    assert any("trickbook balance --variant swabian" in i.value for i in swabian.info)


def test_page_without_a_database_names_the_command(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A database not made yet: the page advised uploading files, which make no study."""
    at = page(tmp_path / "none.duckdb", monkeypatch)
    assert not at.exception
    (said,) = [i.value for i in at.info]
    assert "trickbook balance --variant VARIANT --db PATH" in said
    assert "Upload" not in said and "ingest" not in said


def test_page_is_in_the_navigation() -> None:
    from dashboards.app import PAGES  # imported here: it runs st.navigation (bare mode)

    entry = next(p for p in PAGES if p[3] == "balance")
    assert entry[1] == "Balance" and (ROOT / "dashboards" / "views" / entry[0]).is_file()


def test_the_balance_tables_are_the_simulators() -> None:  # sim/tables.py
    assert (BALANCE_RUNS, BALANCE_METRICS) == ("balance_runs", "balance_metrics")


def test_contract_keys_follow_the_study_variants_ladder(tmp_path: Path) -> None:
    """Bridge contracts by level, then C < D < H < S < NT (bridge.md 2.1); the Greek ladder
    S < C < D < H < NT (greek-prefa.md 4.1) would put spades first."""
    path = tmp_path / "study.duckdb"
    keys = ["1NT", "1S", "2C", "1C", "1H", "1D"]
    with duckdb.connect(str(path)) as con:
        for table in (RUNS, METRICS):
            con.execute(table.ddl)
        insert(con, RUNS.name, pl.DataFrame([{
            "run_id": "r", "variant": "bridge-duplicate", "variant_b": "bridge-duplicate",
            "rules_a": "{}", "rules_b": "{}", "games": 1, "deals_per_game": 6, "seed": 1,
            "play": "bots", "deals": 6,
            "created_at": datetime(2026, 1, 1, tzinfo=UTC)}], schema=RUNS.schema))
        insert(con, METRICS.name, pl.DataFrame(
            [{"run_id": "r", "metric": "declarer_success", "key": k, "arm": arm, "n": 1,
              "estimate": 0.5, "lo": 0.0, "hi": 1.0} for k in keys for arm in ("a", "b")],
            schema=METRICS.schema))
    with read_only(path) as con:
        assert q.balance_arms(con, "r", "declarer_success")["key"].to_list() == [
            "1C", "1D", "1H", "1S", "1NT", "2C"]
        long = q.balance_metrics(con, "r", "declarer_success")
        assert long.filter(pl.col("arm") == "a")["key"].to_list() == [
            "1C", "1D", "1H", "1S", "1NT", "2C"]



def test_the_arms_rules_read_as_the_entry_form_says_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An arm of ``scoring_profile: seed004`` was listed so, in its rules and in what arm b
    changes (the study's label, the flag effects): it reads as the Entry form says it
    (``model.base.ChoiceWords``, a field's ``title``), in the words of each arm's variant."""
    rules_b = {"scoring_profile": "seed004", "seed004_defeat_bonus": 100}
    path = _one_study(tmp_path / "study.duckdb", "bridge-duplicate", {}, rules_b)
    at = page(path, monkeypatch)
    assert not at.exception
    change = "scoring profile: simplified (Russian text), defeated doubled bonus: 100"
    assert at.selectbox(key="balance_run").format_func("r").startswith(f"r · {change} · ")
    assert frame_with(at, "arm b changes")["arm b changes"].to_list() == [change]
    (arms,) = [df.value for df in at.dataframe if "rule" in df.value.columns]
    assert arms.to_dict(orient="list") == {  # side by side, arm a at its defaults
        "rule": ["scoring profile", "defeated doubled bonus"],
        "arm a": ["Laws (default)", "default"],
        "arm b": ["simplified (Russian text)", "100"]}


def test_page_lists_variants_as_the_sidebar_does_and_keeps_the_filters_in_its_url(
        balance_studies, monkeypatch: pytest.MonkeyPatch) -> None:
    """The studied variants come in the sidebar's order (by name), not the studies'; the
    shared filters of the address stay in it (a reload or a link to Balance lost the league,
    dates and player), with the variant chosen on the page."""
    path, _ = balance_studies
    monkeypatch.setenv(DB_ENV, str(path))
    at = AppTest.from_file(str(PAGE), default_timeout=60)
    for key, value in (("league", "Thursday club"), ("from", "2026-01-01"), ("player", "Anna")):
        at.query_params[key] = value
    at.run()
    assert not at.exception
    box = at.selectbox(key="balance_variant")
    assert box.options == sorted({variant for variant, *_ in BALANCE_STUDIES})
    at.selectbox(key="balance_variant").set_value("swabian").run()
    kept = {k: at.query_params[k] for k in ("variant", "league", "from", "player")}
    assert {k: v[0] if isinstance(v, list) else v for k, v in kept.items()} == {
        "variant": "swabian", "league": "Thursday club", "from": "2026-01-01", "player": "Anna"}


def test_a_study_in_the_address_opens_with_its_variant(balance_studies,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The study chosen is kept in the URL (``?run=``): a reload or a shared link showed the
    variant's first study instead."""
    path, (older, _, _) = balance_studies  # the newest study of a variant is its first
    monkeypatch.setenv(DB_ENV, str(path))
    at = AppTest.from_file(str(PAGE), default_timeout=60).run()
    at.selectbox(key="balance_variant").set_value("greek-prefa").run()
    at.selectbox(key="balance_run").set_value(older.run_id).run()
    assert at.query_params["run"] in (older.run_id, [older.run_id])
    again = AppTest.from_file(str(PAGE), default_timeout=60)
    again.query_params["variant"] = "swabian"  # the study's own variant wins
    again.query_params["run"] = older.run_id
    again.run()
    assert not again.exception
    assert shown_variant(again.selectbox(key="balance_variant")) == "greek-prefa"
    assert again.selectbox(key="balance_run").value == older.run_id


def test_filters_of_an_address_opening_on_balance_reach_the_next_page(
        balance_studies, monkeypatch: pytest.MonkeyPatch) -> None:
    """A session that opens on Balance (a reload there) keeps the address's filters for the
    next page: a page switch drops the URL's, and League opened on "(all)"."""
    path, _ = balance_studies
    monkeypatch.setenv(DB_ENV, str(path))
    with read_only(path) as c:
        league = q.leagues(c, q.Filters())["league"][0]
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60)
    at.switch_page("views/balance.py")
    at.query_params["league"] = league
    at.run()
    assert not at.exception
    at.query_params.clear()  # what a page switch in the browser does
    at.switch_page("views/league.py").run()
    assert not at.exception
    assert at.selectbox(key="f_league").value == league


def _opened_with_a_league_unstudied(balance_studies, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch, shared: str | None
                                    ) -> tuple[AppTest, Path]:
    """Balance opened (with ``shared`` as the filters' variant) on a copy of the studies'
    database that also holds a Balkan league, which has no study; and the copy."""
    path = tmp_path / "balance.duckdb"
    shutil.copy(balance_studies[0], path)
    ingest_paths([ROOT / "data" / "samples" / "balkan" / "league.ppn"], path)  # no study
    monkeypatch.setenv(DB_ENV, str(path))
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60)
    at.switch_page("views/balance.py")
    if shared:
        at.query_params["variant"] = shared
    at.run()
    assert not at.exception
    return at, path


@pytest.mark.parametrize("shared", ["balkan", None])
def test_opening_balance_leaves_the_filters_variant_alone(
        balance_studies, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        shared: str | None) -> None:
    """Balance opens on the first studied variant when the filters' has no study (or is
    "(all)"); before, that variant became the shared filters', so League then showed Greek
    Prefa's games of a Balkan league, or none. Picking one on the page does make it theirs."""
    at, _ = _opened_with_a_league_unstudied(balance_studies, tmp_path, monkeypatch, shared)
    opened = shown_variant(at.selectbox(key="balance_variant"))
    assert opened != shared and at.query_params.get("variant") in ([shared], shared, None, [])
    at.query_params.clear()  # a page switch in the browser
    at.switch_page("views/league.py").run()
    assert at.selectbox(key="f_variant").value == (shared or ALL)
    at.switch_page("views/balance.py").run()
    other = next(v for v in at.selectbox(key="balance_variant").options if v != opened)
    at.selectbox(key="balance_variant").set_value(other).run()
    at.query_params.clear()
    at.switch_page("views/league.py").run()
    assert at.selectbox(key="f_variant").value == other


@pytest.mark.parametrize("shared", ["balkan", None])
def test_picking_the_variant_shown_makes_it_the_filters(
        balance_studies, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        shared: str | None) -> None:
    """Balance opens on the first studied variant when the filters' has no study (or is
    "(all)"); a user who then picked that same variant in the page's box left the filters'
    variant as it was (the box did not change, so it was no pick), and League showed the old
    one. A pick of the variant shown makes it the filters' variant too."""
    at, path = _opened_with_a_league_unstudied(balance_studies, tmp_path, monkeypatch, shared)
    shown = sorted({variant for variant, *_ in BALANCE_STUDIES})[0]  # the first studied
    assert q_run(path, at.selectbox(key="balance_run").value)["variant"] == shown
    at.selectbox(key="balance_variant").set_value(shown).run()
    assert not at.exception
    assert at.query_params["variant"] in (shown, [shown])
    at.query_params.clear()  # a page switch in the browser
    at.switch_page("views/league.py").run()
    assert at.selectbox(key="f_variant").value == shown


def test_a_study_the_database_lacks_is_said(balance_studies,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A link naming a study this database does not hold (another database's, a typo) opened
    the first study without a word: the page says so, escaped, and shows the newest study."""
    path, _ = balance_studies
    monkeypatch.setenv(DB_ENV, str(path))
    at = AppTest.from_file(str(PAGE), default_timeout=60)
    at.query_params["run"] = "<b>gone</b>"
    at.run()
    assert not at.exception
    (said,) = [w.value for w in at.warning]
    assert said.startswith(f"The link names the study {md(quoted('<b>gone</b>'))}, which is not "
                           "in this database: showing the newest study of ")
    assert at.selectbox(key="balance_run").index == 0
    fine = AppTest.from_file(str(PAGE), default_timeout=60)
    fine.query_params["run"] = at.selectbox(key="balance_run").value
    fine.run()
    assert not fine.exception and not fine.warning
