"""Balance: the paired variant-balance studies of ``trickbook balance`` (docs/balance-study.md).

Pick a study: its two arms' rules, the paired effect of arm b (b - a per deal), the effect of each
house-rule flag of a sweep, declarer success and contract shares by contract, money flow by
contract level and the result by seat position, arm a against arm b. Every estimate is shown with
its n and its 95% confidence interval as stored (``balance_metrics``, ``sim/tables.py``):
Wilson for shares, normal over games for the paired effects and seat results, over deals for the
money flow. The page does not use the sidebar filters: studies are simulations, not games.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import polars as pl
import streamlit as st

from dashboards import charts
from dashboards.common import (
    empty,
    guarded,
    kept_beside_cash,
    kept_filters,
    query,
    show,
    unknown,
    url_choice,
    url_param,
)
from dashboards.queries import rules_change
from dashboards.replay import call_words
from dashboards.text import arms_rules, md, unit
from model.problems import counted
from model.variants import REGISTERED

# Paired effects that are shares of deals; the others are money per deal, the declarer's money
# first (sim/balance.py money_effects). (No bare strings at module level here: Streamlit's magic
# would write them on the page.)
SHARES = ("contract changed", "money changed")
MONEY = "declarer money"


def money_note(variant: str) -> str:
    """What a study's money holds beside the cash, from the variant's settlement
    (``Settlement.ledger``, valued by ``Settlement.money``): `` (its kassa valued in chips)``;
    empty where the settlement keeps nothing beside the cash."""
    ledger = kept_beside_cash(variant)
    return f" (its {ledger[1]} valued in {unit(variant)})" if ledger else ""


def effect_order(keys: list[str]) -> list[str]:
    """A study's paired effects as the page shows them: the declarer's money, the other money
    effects it stored (its cash by unit, what its settlement keeps beside the cash), then the
    shares."""
    money = sorted(k for k in set(keys) if k not in SHARES and k != MONEY)
    return [k for k in (MONEY, *money, *SHARES) if k in keys]


def same_as_money(by_key: dict[str, dict[str, Any]]) -> list[str]:
    """The money effects other than the declarer's money whose n, estimate and interval are his
    money's, to the last few digits (his cash where nothing beside it changed, or where the
    settlement keeps nothing beside it; sums over games in another order differ in the last
    bits): shown once, as the money."""
    money = by_key.get(MONEY)
    if money is None:
        return []
    return [k for k, r in by_key.items() if k not in (MONEY, *SHARES) and r["n"] == money["n"]
            and all(_close(r[f], money[f]) for f in ("estimate", "lo", "hi"))]


def _close(a: float | None, b: float | None) -> bool:
    return a == b or (a is not None and b is not None
                      and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9))


def fmt_estimate(value: float | None, share: bool) -> str:
    if value is None:
        return "—"
    return f"{100 * value:.1f}%" if share else f"{value:+.2f}"


def fmt_interval(lo: float | None, hi: float | None, share: bool) -> str:
    """``54.8% to 68.5%``; ``none`` when there is none (a mean over one game)."""
    if lo is None or hi is None:
        return "none"
    return f"{fmt_estimate(lo, share)} to {fmt_estimate(hi, share)}"


def fmt_ci(n: int | None, lo: float | None, hi: float | None, share: bool) -> str:
    """``n=189 · 95% CI 54.8% to 68.5%``; ``n=1 · no interval`` when there is none."""
    head = f"n={n or 0:,}"
    if lo is None or hi is None:
        return f"{head} · no interval"
    return f"{head} · 95% CI {fmt_interval(lo, hi, share)}"


def drawn_estimates(frame: pl.DataFrame, share: bool, *keys: str) -> pl.DataFrame:
    """``keys`` and the columns of an estimate a chart draws (``charts.ESTIMATE``), its interval
    in words among them, for the rows with an estimate (the others draw no mark)."""
    frame = frame.filter(pl.col("estimate").is_not_null())
    words = [fmt_interval(lo, hi, share) for lo, hi in zip(frame["lo"], frame["hi"], strict=True)]
    return frame.with_columns(interval=pl.Series(words, dtype=pl.String)).select(
        *keys, *charts.ESTIMATE)


def with_text(frame: pl.DataFrame, share: bool, suffix: str = "", label: str = "") -> pl.DataFrame:
    """Add a readable ``estimate (n, 95% CI)`` column from ``estimate``, ``n``, ``lo``, ``hi``
    (each with ``suffix``)."""
    text = [
        "—" if e is None else f"{fmt_estimate(e, share)} ({fmt_ci(n, lo, hi, share)})"
        for e, n, lo, hi in zip(frame[f"estimate{suffix}"], frame[f"n{suffix}"],
                                frame[f"lo{suffix}"], frame[f"hi{suffix}"], strict=True)
    ]
    return frame.with_columns(pl.Series(label or "estimate (n, 95% CI)", text, pl.String))


# The study's key for every contract together, in words (a Russian player reads "all" as the
# all-pass of raspasy).
ALL_CONTRACTS = {"all": "all contracts"}


def contract_words(run: dict[str, Any], keys: list[str]) -> dict[str, str]:
    """The study's contract keys as Contracts and the replayer write them, and every contract
    together (:data:`ALL_CONTRACTS`). A study names each arm's contracts so already
    (``sim.balance.named_contracts``: ``6♠``, ``5 Eichel``, ``igra 3 Karo``); one stored before
    keyed them by code (``6S``), which its variant's words write here (words stay as they
    are). A study of two variants was never keyed by code in more than one variant's words."""
    if run["variant"] != run["variant_b"]:
        return ALL_CONTRACTS
    return {**{k: call_words(k, run["variant"]) for k in keys}, **ALL_CONTRACTS}


def arms_table(run_id: str, metric: str, share: bool, key_title: str,
               table_key: str, named: dict[str, str] | None = None) -> pl.DataFrame:
    """One metric, arm a against arm b, as a table with both texts and the stored numbers
    (``named``: keys shown in other words)."""
    arms = query("balance_arms", run_id, metric).with_columns(
        pl.col("key").replace(named or {}))
    arms = with_text(arms, share, "_a", "arm a (n, 95% CI)")
    arms = with_text(arms, share, "_b", "arm b (n, 95% CI)")
    shown = arms.select("key", "arm a (n, 95% CI)", "arm b (n, 95% CI)")
    show(shown, table_key, labels={"key": key_title})
    return arms


def arms_chart(run_id: str, metric: str, order: list[str], share: bool, x_title: str,
               y_title: str, named: dict[str, str] | None = None) -> None:
    """Arm a and arm b side by side per key: a point at the estimate, a bar for the 95% CI."""
    long = query("balance_metrics", run_id, metric).filter(
        pl.col("arm").is_in(["a", "b"])).with_columns(pl.col("key").replace(named or {}))
    drawn = drawn_estimates(long, share, "key", "arm")
    if drawn.is_empty():  # no estimate (no contract played): the table above says so
        return
    st.vega_lite_chart(drawn, charts.arms(order, share, x_title, y_title), width="stretch")


def labelled(runs: pl.DataFrame) -> dict[str, str]:
    """``run id · what arm b changes · deals · seed`` for the study picker."""
    labels = {}
    for r in runs.iter_rows(named=True):
        change = rules_change(r["rules_a"], r["rules_b"], r["variant"], r["variant_b"])
        labels[r["run_id"]] = (f"{r['run_id']} · {change} · {counted(r['deals'], 'deal')} · "
                               f"seed {r['seed']}")
    return labels


def _picked() -> None:
    """A variant picked in the page's box becomes the shared filters' (a box cleared, none)."""
    st.session_state["balance_picked"] = st.session_state.get("balance_variant") is not None


# How a user fills the database of this page: ingested files make no study (a comment, not a
# docstring: Streamlit draws a page's bare strings).
STUDY_IT = ("create a study with `trickbook balance --variant VARIANT --db PATH`, PATH being "
            "the `--db` the dashboard was started with (docs/balance-study.md)")

st.title("Balance")
with guarded(STUDY_IT):
    runs: pl.DataFrame = query("balance_runs")
    if runs.is_empty():  # the command for the filters' variant (every variant is simulated)
        example = kept_filters().variant or REGISTERED[0].name
        empty("No balance study in this database yet. Create one with `trickbook balance "
              f"--variant {example} --rules-a a.json --rules-b b.json --games 1000 "
              "--deals-per-game 10 --seed 1 --db PATH` (PATH: the `--db` the dashboard was "
              "started with; add `--sweep` for the effect of every house-rule flag); see "
              "docs/balance-study.md.")
        st.stop()
    c1, c2 = st.columns([1, 3])
    studied = sorted(runs["variant"].unique().to_list())  # as the sidebar's Variant lists them
    wanted_run = url_param("run")  # a study named in the address opens with its variant
    of_run = runs.filter(pl.col("run_id") == (wanted_run or ""))["variant"].to_list()
    shared = kept_filters().variant
    wanted = of_run[0] if of_run else shared  # as the other pages' filters
    if "balance_variant" not in st.session_state:  # a visit begins: the filters' variant stays
        st.session_state["balance_picked"] = False
        if wanted in studied and wanted == shared:
            st.session_state["balance_variant"] = wanted
        elif wanted not in studied and wanted:
            st.caption(f"No balance study of {md(wanted)} in this database: the studies of "
                       "other variants are below.")
    # a variant opened on that is not the filters' (the study's of the address, or the first
    # studied) is the box's placeholder, so that a pick of it too is a pick (a change); a box
    # cleared shows the filters' variant again
    opened = wanted if wanted in studied else studied[0]
    variant = c1.selectbox("Variant (arm a)", studied, index=None, placeholder=opened,
                           key="balance_variant", on_change=_picked) or opened
    # the shared filters stay in the address; the variant becomes theirs once a user picks it
    picked = st.session_state.get("balance_picked")
    st.query_params.from_dict(kept_filters(variant if picked else None).to_params())
    chosen = runs.filter(pl.col("variant") == variant)
    labels = labelled(chosen)
    format_run: Callable[[str], str] = lambda r: labels.get(r, r)  # noqa: E731
    unknown("study", wanted_run, set(runs["run_id"].to_list()), "in this database",
            showing=f"the newest study of {md(variant)}")
    with c2:
        run_id = url_choice("Study", chosen["run_id"].to_list(), "balance_run", wanted_run,
                            "run", format_run)
    if run_id is None:
        empty("No study for this variant.")
        st.stop()
    run = chosen.filter(pl.col("run_id") == run_id).row(0, named=True)
    st.caption(
        f"{counted(run['games'], 'game')} of up to {counted(run['deals_per_game'], 'deal')} · "
        f"{counted(run['deals'], 'deal')} played in both arms (paired; a game ends early where "
        "its rules end it, so an arm's own n below may be larger)"
        f" · seed {run['seed']} · play {run['play']} · stored {run['created_at']:%Y-%m-%d %H:%M}"
        f" UTC. Both arms play the same deals; money is the declarer's whole result in the "
        f"settlement's unit{money_note(run['variant'])}."
    )
    st.markdown(f"**Arm a** · {md(run['variant'])} · **arm b** · {md(run['variant_b'])}")
    show(arms_rules(run["rules_a"], run["variant"], run["rules_b"], run["variant_b"]),
         "balance_rules")  # side by side, the page's width: in half of it values were cut

    units = " / ".join(dict.fromkeys(unit(v) for v in (run["variant"], run["variant_b"])))
    st.subheader("Paired effect of arm b (b − a per deal)")
    effects = query("balance_metrics", run_id, "flag_effect")
    by_key = {r["key"]: r for r in effects.iter_rows(named=True)}
    shown = effect_order(list(by_key))
    same = same_as_money(by_key)
    drawn = [k for k in shown if k not in same]
    if not shown:
        empty("This study stored no paired effect.")
    for col, key in zip(st.columns(len(drawn)) if drawn else [], drawn, strict=True):
        r = by_key[key]
        share = key in SHARES
        unit_of = f" ({units})" if key == MONEY else ""  # the others name theirs, or are shares
        col.metric(key.capitalize() + unit_of, fmt_estimate(r["estimate"], share))
        col.caption(fmt_ci(r["n"], r["lo"], r["hi"], share))
    once = (f" {', '.join(k.capitalize() for k in same)}: the same as the declarer money "
            "(nothing beside the cash changed), so shown once." if same else "")
    st.caption("Per deal over the paired deals (n); intervals over games, since the deals of a "
               "game are not independent. What the settlement keeps beside the cash in its own "
               f"points, the rest in the settlement's unit.{once}")

    st.subheader("Effect of each house-rule flag")
    effect = st.selectbox("Effect", shown or [MONEY], key="balance_effect")
    flags = query("balance_flag_effects", run_id, effect)
    share = effect in SHARES
    st.caption(f"Every stored study with this study's arm a (same rules, deals and seed): "
               f"{flags.height} arm b. `trickbook balance --sweep` stores one per flag value.")
    if not flags.is_empty():
        st.vega_lite_chart(drawn_estimates(flags, share, "change", "run_id"),
                           charts.flag_effects(effect, share, flags.height), width="stretch")
        show(with_text(flags, share).select("change", "estimate (n, 95% CI)", "run_id"),
             "balance_flags", labels={"change": "arm b changes", "run_id": "study"})

    st.subheader("Declarer success by contract")
    contracts = contract_words(run, [
        *query("balance_metrics", run_id, "declarer_success")["key"].to_list(),
        *query("balance_metrics", run_id, "contract_share")["key"].to_list()])
    success = arms_table(run_id, "declarer_success", True, "contract", "balance_success",
                         contracts)
    arms_chart(run_id, "declarer_success", success["key"].to_list(), True, "contract", "made",
               contracts)
    st.caption("Share of played contracts the declarer made (Wilson 95% CI); n = deals played in "
               "that contract in the arm.")

    st.subheader("How often each contract is played")
    arms_table(run_id, "contract_share", True, "contract", "balance_share", contracts)
    st.caption("Share of all deals (n) played in each contract.")

    st.subheader("Money flow per contract level")
    money = arms_table(run_id, "money_flow", False, "level", "balance_money")
    arms_chart(run_id, "money_flow", money["key"].to_list(), False, "contract level",
               f"declarer's money per deal ({units})")
    st.caption(f"The declarer's money per deal played at that level, in {units} (normal 95% CI "
               "over deals).")

    st.subheader("Result per seat position")
    seats = arms_table(run_id, "seat_result", False, "position", "balance_seats")
    arms_chart(run_id, "seat_result", seats["key"].to_list(), False, "position from the dealer",
               f"money per deal ({units})")
    st.caption(f"Money per deal of each seat position counted from the dealer, in {units} "
               "(interval over games).")
