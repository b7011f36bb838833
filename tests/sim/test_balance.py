"""Paired balance studies (docs/balance-study.md): the same deals under two rule sets, estimates
with intervals, stored in the balance_* tables (sim/tables.py)."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import polars as pl
import pytest

from sim.balance import money_effects, share, store_study, study


def test_wilson_interval() -> None:
    p, lo, hi = share(3, 10)
    assert p == 0.3 and lo is not None and hi is not None and 0.1 < lo < 0.3 < hi < 0.61
    assert share(0, 10)[1] == 0.0
    assert share(0, 0) == (None, None, None)


def test_four_aces_raise_moves_kassa_only_for_the_declarer(tmp_path: Path) -> None:
    # greek-prefa.md 14 four_aces = raise_value: same deals, same contracts; the declarer's
    # kassa change can only grow in his favour (value raised), never the other way
    s = study("greek-prefa", {}, {"four_aces": "raise_value"}, 60, 6, seed=3, workers=1)
    m = s.metrics
    effect = {r["key"]: r for r in m.filter(pl.col("arm") == "b-a").iter_rows(named=True)}
    assert effect["contract changed"]["estimate"] == 0.0
    # no game changed a contract: not "0.0% to 0.0%" but Wilson's interval over the 60 games
    # (sim/balance.py clustered_share): 0 to 3.84 / 63.84
    changed = effect["contract changed"]
    assert changed["lo"] == 0.0 and changed["hi"] == pytest.approx(3.8415 / 63.8415, rel=1e-3)
    assert effect["declarer kassa"]["estimate"] <= 0.0
    share = m.filter(pl.col("metric") == "contract_share").sort("key", "arm")
    a = share.filter(pl.col("arm") == "a")["estimate"].to_list()
    assert a == share.filter(pl.col("arm") == "b")["estimate"].to_list()
    assert set(m["metric"]) == {"contract_share", "declarer_success", "seat_result",
                                "money_flow", "flag_effect"}
    for r in m.iter_rows(named=True):
        if r["lo"] is not None:
            assert r["lo"] - 1e-9 <= r["estimate"] <= r["hi"] + 1e-9
    db = tmp_path / "b.duckdb"
    store_study(db, s)
    conn = duckdb.connect(str(db), read_only=True)
    try:
        n = conn.execute("SELECT count(*) FROM balance_metrics WHERE run_id = ?",
                         [s.run_id]).fetchone()
        runs = conn.execute("SELECT deals FROM balance_runs").fetchall()
    finally:
        conn.close()
    assert n is not None and n[0] == m.height
    assert runs == [(360,)]


def test_two_variants_on_the_same_deals() -> None:
    # greek-prefa.md and swabian.md share the 32-card deck: arm b plays the same cards
    s = study("greek-prefa", {}, {}, 20, 5, seed=4, variant_b="swabian", workers=1)
    assert s.runs_row["variant_b"] == "swabian"
    assert not s.metrics.filter(pl.col("arm") == "b").is_empty()
    # chips against Swabian units: the cash effect names no unit, and only Greek keeps a kassa
    effects = s.metrics.filter(pl.col("metric") == "flag_effect")
    assert effects["key"].to_list() == [
        "declarer money", "declarer cash", "contract changed", "money changed"]
    # paired by each game's place in its run: the arms' game ids name their variants, and a
    # join on them paired no deal (every effect n=0, no estimate)
    assert effects["n"].to_list() == [s.runs_row["deals"]] * 4
    assert effects["estimate"].is_not_null().all()


def test_two_variants_name_their_contracts_each_in_its_players_words() -> None:
    """A Greek-against-Balkan study's chart mixed codes (``6S``) and words (``3 Karo``): each
    arm names its contracts as the Contracts page does, in its variant's words
    (``Variant.call_words`` of the contract's code), so none is a code."""
    s = study("greek-prefa", {}, {}, 8, 8, seed=2, variant_b="balkan", workers=1)
    shapes = {"a": r"(6|7|8|9|10)(♠|♣|♦|♥|NT)",
              "b": r"(igra )?[2-8] (Pik|Karo|Herc|Tref|Betl|Sans|Preferans)"}
    for arm, shape in shapes.items():
        keys = set(s.metrics.filter((pl.col("arm") == arm) & pl.col("metric").is_in(
            ["declarer_success", "contract_share"]))["key"]) - {"all", "all played", "no contract"}
        assert keys and all(re.fullmatch(shape, k) for k in keys), (arm, keys)


def test_the_money_effects_are_named_by_each_variant_settlement() -> None:
    # the cash in its unit (scoring/settlement.py, model/variant.py cash_unit); beside it what
    # the settlement keeps apart: the Greek kassa (greek-prefa.md 8)
    assert money_effects("greek-prefa", "greek-prefa") == (
        ("declarer money", "diff_value"), ("declarer chips", "diff_cash"),
        ("declarer kassa", "diff_kept"))
    assert money_effects("russian", "russian") == (
        ("declarer money", "diff_value"), ("declarer whists", "diff_cash"))
    assert money_effects("balkan", "balkan")[1] == ("declarer soup points", "diff_cash")
    assert money_effects("greek-prefa", "swabian") == (
        ("declarer money", "diff_value"), ("declarer cash", "diff_cash"))


def test_unknown_variant_is_refused() -> None:
    # balance metrics are by contract level and three seat positions: the 32-card games only
    from sim import SimulationError

    with pytest.raises(SimulationError, match=r"'whist' is not studied; balance studies cover "
                       r"greek-prefa, swabian, balkan, russian$"):  # not bridge, not studied
        study("whist", {}, {}, 1, 1)
    with pytest.raises(SimulationError, match="not studied"):
        study("bridge-rubber", {}, {}, 1, 1)


def test_sweep_studies_every_finite_flag() -> None:
    # swabian.md 10: every boolean / named option is studied against the defaults on the same
    # deals; an option needing another value with it (session_end) is skipped with its reason
    from sim.balance import sweep

    studies, skipped = sweep("swabian", 12, 3, seed=2, workers=1)
    labels = [label for label, _ in studies]
    assert "jump_bids=false" in labels and "recontra_scope=all_contra_players" in labels
    # the reason in words, as a single study says it (it said "1 validation error for
    # SwabianRules")
    assert "session_end=fixed_deals: session_deals is None with session_end 'fixed_deals': " \
        "give session_deals exactly for fixed_deals" in skipped
    for _, s in studies:
        assert s.runs_row["rules_a"] == "{}"
        assert s.metrics.filter(pl.col("arm") == "b-a")["key"].to_list() == [
            "declarer money", "declarer units", "contract changed", "money changed"]


def test_running_a_study_again_replaces_it(tmp_path: Path) -> None:
    # a club or an analyst who runs the same `trickbook balance` twice sees one study on the
    # Balance page, not two; another seed is another study
    db = tmp_path / "b.duckdb"
    first = study("greek-prefa", {}, {"four_aces": "raise_value"}, 6, 4, seed=3, workers=1)
    again = study("greek-prefa", {}, {"four_aces": "raise_value"}, 6, 4, seed=3, workers=2)
    other = study("greek-prefa", {}, {"four_aces": "raise_value"}, 6, 4, seed=4, workers=1)
    assert first.run_id == again.run_id != other.run_id
    for s in (first, again, other):
        store_study(db, s)
    conn = duckdb.connect(str(db), read_only=True)
    try:
        runs = conn.execute("SELECT run_id, seed FROM balance_runs ORDER BY seed").fetchall()
        rows = conn.execute("SELECT run_id, count(*) FROM balance_metrics GROUP BY run_id"
                            " ORDER BY run_id").fetchall()
    finally:
        conn.close()
    assert runs == [(first.run_id, 3), (other.run_id, 4)]
    assert rows == sorted([(first.run_id, again.metrics.height),
                           (other.run_id, other.metrics.height)])
