"""Paired simulations for variant-balance studies (docs/balance-study.md).

Two arms play the same deals (the same run seed deals the same cards: ``sim/seeds.py``):
two rule sets of one variant, or two 32-card variants. Each arm is simulated with the bots and
settled with the variant's own settlement (``scoring/registry.py``); the estimates, with 95%
confidence intervals, go to the ``balance_*`` tables (``sim/tables.py``):

- ``contract_share``: how often each contract is played (share of deals, Wilson interval);
- ``declarer_success``: how often the declarer makes each contract (Wilson interval);
- ``seat_result``: money per deal by seat position relative to the dealer (interval over games);
- ``money_flow``: the declarer's money per deal by contract level (interval over deals);
- ``flag_effect``: paired differences b - a per deal of the declarer's money, of his cash (named
  by its unit: ``declarer chips``, ``declarer whists`` ...) and of what the settlement keeps
  beside the cash (Greek: ``declarer kassa``), the share of deals whose contract changed and of
  those whose declarer's money changed (interval over games: the deals of one game are not
  independent).

Money: the settlement's ``money`` (``scoring/settlement.py``): the cash and what the settlement
keeps beside it valued in cash (Greek Prefa: the kassa, ten chips a point).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from ingest import store
from ingest.validate import in_words
from model.tables import insert
from model.variant import NO_CONTRACT, Variant
from model.variants import variant as lookup
from model.views import outcomes
from scoring.registry import settlement
from scoring.stats import Z95, wilson
from sim import SimulationError
from sim.batch import Batch
from sim.drivers import PREFERENCE, canonical_name, simulator
from sim.flags import alternatives
from sim.run import Plan, run_local
from sim.tables import BALANCE_METRICS, BALANCE_RUNS, METRICS, TABLES

POSITIONS = ("dealer", "first hand", "second hand")
"""Seat positions counted from the dealer in turn order (greek-prefa.md 3; in Swabian the first
hand is Vorhand, swabian.md 2)."""
METRIC_SCHEMA = {k: v for k, v in METRICS.schema.items() if k != "run_id"}
"""A study's metric rows before they are stored under its ``run_id``."""


@dataclass(frozen=True)
class Study:
    run_id: str
    runs_row: dict[str, Any]
    metrics: pl.DataFrame


def share(k: int, n: int) -> tuple[float | None, float | None, float | None]:
    """Share ``k / n`` with its 95% Wilson interval (``None`` three times when ``n`` is 0)."""
    if n == 0:
        return None, None, None
    low, high = wilson(k, n)
    return k / n, low, high


def mean_ci(values: pl.Series) -> tuple[float | None, float | None, float | None]:
    """Mean with a normal 95% interval (``None`` for an empty series); nulls are left out."""
    values = values.drop_nulls()
    n = values.len()
    if n == 0:
        return None, None, None
    m = float(values.mean())  # type: ignore[arg-type]
    if n == 1:
        return m, None, None
    se = float(values.std()) / math.sqrt(n)  # type: ignore[arg-type]
    return m, m - Z95 * se, m + Z95 * se


def clustered(frame: pl.DataFrame, column: str) -> tuple[int, tuple[float | None, ...]]:
    """Mean per deal of ``column`` with an interval over games (each game's mean per deal is one
    observation: deals of a game are dependent through the kassa or the bulas). The games are
    summed in the order of their first deal, so a study run again gives the same digits."""
    per_game = frame.group_by("game_id", maintain_order=True).agg(pl.col(column).mean())[column]
    return frame.height, mean_ci(per_game)


def clustered_share(frame: pl.DataFrame, column: str) -> tuple[int, tuple[float | None, ...]]:
    """A share per deal of a 0/1 ``column`` with its interval over games (:func:`clustered`),
    kept within 0 and 1. Where every game has the same share (no contract changed, or all),
    the games' spread says nothing and the normal interval would be the point itself: the
    interval is then Wilson's, with each game one observation (0 of 100 games: 0% to 3.7%)."""
    n, (estimate, low, high) = clustered(frame, column)
    if estimate is None or low is None or high is None:
        return n, (estimate, low, high)
    if low == high:
        games = frame["game_id"].n_unique()
        return n, (estimate, *wilson(round(estimate * games), games))
    return n, (estimate, max(0.0, low), min(1.0, high))


def studied(variant: str) -> str:
    """The canonical name of a variant balance studies cover: the three-handed 32-card games
    (their metrics are by contract level and by the three seat positions). Any other is a
    :class:`SimulationError` listing those it covers, not every simulated one (bridge is
    simulated, not studied)."""
    covered = ", ".join(PREFERENCE)
    try:
        name = canonical_name(variant)
    except SimulationError as exc:
        raise SimulationError(f"variant {variant!r} is not studied; balance studies cover "
                              f"{covered}") from exc
    if name not in PREFERENCE:
        raise SimulationError(f"balance studies cover {covered}; {variant!r} is simulated by "
                              "`trickbook simulate` but not studied here")
    return name


Progress = Callable[[int], None]
"""Told the number of games of each batch an arm has simulated (a progress bar's step)."""


def _arm_deals(variant: str, plan: Plan, workers: int,
               progress: Progress | None = None) -> pl.DataFrame:
    """Simulate and settle one arm: one row per deal with its contract, success and money."""
    v = lookup(variant)
    if getattr(v.rules(plan.rules), "four_players", False) or plan.options:
        raise SimulationError(
            "four players (four_players, or a simulator option) are simulated but not studied: "
            "the metrics compare three seats"
        )
    batch = Batch()
    for part in run_local(plan, plan.partitions(), workers, False):
        batch.extend(part)
        if progress is not None:
            progress(len(part.games["game_id"]))
    sim = simulator(variant, plan.rules, plan.play, plan.options)
    rules_json = getattr(sim, "rules_json", "{}")
    games = pl.DataFrame({
        "game_id": batch.games["game_id"],
        "players": batch.games["players"],
        "rules": [rules_json] * len(batch.games["game_id"]),
    }, schema={"game_id": pl.String(), "players": pl.List(pl.String()), "rules": pl.String()})

    flat = pl.DataFrame(batch.flat, schema=v.frame_schema)
    settles = settlement(variant)
    settled = settles.settle(games, flat).settlements
    kept = pl.col(settles.ledger[0]) if settles.ledger else pl.lit(0)
    wide = settled.with_columns(value=settles.money, kept=kept)
    wide = wide.pivot(on="seat", index=["game_id", "deal_no"], values=["value", "cash", "kept"])
    deals = flat.join(wide, on=["game_id", "deal_no"], how="left")
    return _describe(v, deals)


def _seat_col(name: str, seat: pl.Expr) -> pl.Expr:
    """The column ``{name}_{seat}`` picked row by row (seat 0..2)."""
    return (
        pl.when(seat == 0).then(pl.col(f"{name}_0"))
        .when(seat == 1).then(pl.col(f"{name}_1"))
        .when(seat == 2).then(pl.col(f"{name}_2"))
    )


def _describe(variant: Variant, deals: pl.DataFrame) -> pl.DataFrame:
    """One row per deal: played, contract, made (the variant's ``outcome_sql``), level, the
    declarer's money, cash and the change of what the settlement keeps beside it, and the money
    of each seat position."""
    for name in ("value", "cash", "kept"):  # no settlement row (a deal after the game's end)
        for s in range(3):  # moves no money
            col = f"{name}_{s}"
            if col not in deals.columns:
                deals = deals.with_columns(pl.lit(0.0).alias(col))
            else:
                deals = deals.with_columns(pl.col(col).cast(pl.Float64).fill_null(0.0))
    decl = pl.col("declarer")
    played = decl.is_not_null()
    made = outcomes(variant, deals).select("game_id", "deal_no", "made")
    deals = deals.join(made, on=["game_id", "deal_no"], how="left")
    contract, level = variant.contract_code, variant.contract_level
    out = deals.with_columns(
        played=played,
        contract=pl.when(played).then(contract),
        made=pl.when(played).then(pl.col("made")),
        level=pl.when(played).then(level.cast(pl.Int32)),
        d_value=pl.when(played).then(_seat_col("value", decl)).otherwise(0.0),
        d_cash=pl.when(played).then(_seat_col("cash", decl)).otherwise(0.0),
        d_kept=pl.when(played).then(_seat_col("kept", decl).cast(pl.Float64)).otherwise(0.0),
        **{
            f"pos_{i}": _seat_col("value", (pl.col("dealer") + i) % 3).fill_null(0.0)
            for i in range(3)
        },
    )
    return named_contracts(variant, out).select(
        "game_id", "deal_no", "played", "contract", "made", "level", "d_value", "d_cash",
        "d_kept", "pos_0", "pos_1", "pos_2")


def named_contracts(variant: Variant, deals: pl.DataFrame) -> pl.DataFrame:
    """``deals`` with their ``contract`` codes (``Variant.contract_code``) in the variant's
    words (``Variant.call_words``: ``6♠``, ``igra 3 Karo``, ``5 Eichel``), as the Contracts page
    names them (a declared deal without one ``no contract``): a study's contracts are keyed so,
    and two variants' arms name a contract alike only where their players do (a Greek and a
    Russian ``6♠``; a Balkan ``2 Pik`` is no Swabian ``2 Laub``). Each code is put in words
    once."""
    codes = deals["contract"].drop_nulls().unique().to_list()
    words = pl.col("contract").replace_strict({c: variant.call_words(c) for c in codes},
                                              default=None, return_dtype=pl.String)
    return deals.with_columns(contract=pl.when(pl.col("played")).then(
        pl.when(pl.col("contract").is_null()).then(pl.lit(NO_CONTRACT)).otherwise(words)))


def arm_metrics(arm: str, deals: pl.DataFrame) -> list[dict[str, Any]]:
    """The per-arm estimates of one arm's deals."""
    rows: list[dict[str, Any]] = []

    def add(metric: str, key: str, n: int, est: tuple[float | None, ...]) -> None:
        rows.append({"metric": metric, "key": key, "arm": arm, "n": n,
                     "estimate": est[0], "lo": est[1], "hi": est[2]})

    total = deals.height
    played = deals.filter(pl.col("played"))
    for (contract,), g in played.sort("contract").group_by("contract", maintain_order=True):
        add("contract_share", str(contract), total, share(g.height, total))
        add("declarer_success", str(contract), g.height,
            share(int(g["made"].sum()), g.height))
    add("contract_share", "all played", total, share(played.height, total))
    add("declarer_success", "all", played.height,
        share(int(played["made"].sum()), played.height))
    for i, name in enumerate(POSITIONS):
        n, est = clustered(deals, f"pos_{i}")
        add("seat_result", name, n, est)
    levels = played.with_columns(key=pl.col("level").cast(pl.String).fill_null("concede"))
    for (key,), g in levels.sort("level", nulls_last=True).group_by("key", maintain_order=True):
        add("money_flow", str(key), g.height, mean_ci(g["d_value"]))
    return rows


def money_effects(va: str, vb: str) -> tuple[tuple[str, str], ...]:
    """The paired money effects of a study of ``va`` against ``vb`` as (key, column of
    :func:`paired_metrics`): the declarer's money, his cash named by its unit (``declarer
    cash`` when the arms count it in different units), and what the settlement keeps beside
    the cash where both arms keep it (Greek: ``declarer kassa``)."""
    unit_a, unit_b = lookup(va).cash_unit, lookup(vb).cash_unit
    effects = [("declarer money", "diff_value"),
               (f"declarer {unit_a}" if unit_a == unit_b else "declarer cash", "diff_cash")]
    kept = settlement(va).ledger
    if kept is not None and kept == settlement(vb).ledger:
        effects.append((f"declarer {kept[1]}", "diff_kept"))
    return tuple(effects)


def _in_run(arm: pl.DataFrame) -> pl.DataFrame:
    """An arm's deals with their game's place in its run (``game_no``): the arms of a study
    deal the same cards to the same game of their runs (one seed), whose ids differ where the
    variants do (``sim-greek-1-00000003``, ``sim-swabian-1-00000003``)."""
    return arm.with_columns(game_no=pl.col("game_id").rank("dense"))


def paired_metrics(a: pl.DataFrame, b: pl.DataFrame, money: tuple[tuple[str, str], ...]
                   ) -> list[dict[str, Any]]:
    """Paired differences b - a per deal (the same deals: the same game of each arm's run, the
    same deal number), intervals over games: the ``money`` effects (:func:`money_effects`),
    then the shares of deals whose contract and whose declarer's money changed."""
    j = _in_run(a).join(_in_run(b), on=["game_no", "deal_no"], suffix="_b")
    j = j.with_columns(
        diff_value=pl.col("d_value_b") - pl.col("d_value"),
        diff_cash=pl.col("d_cash_b") - pl.col("d_cash"),
        diff_kept=pl.col("d_kept_b") - pl.col("d_kept"),
        changed=(pl.col("contract_b").fill_null("-") != pl.col("contract").fill_null("-"))
        .cast(pl.Float64),
    ).with_columns(affected=(pl.col("diff_value") != 0).cast(pl.Float64))
    shares = (("contract changed", "changed"), ("money changed", "affected"))
    effects = [(key, clustered(j, col)) for key, col in money]
    effects += [(key, clustered_share(j, col)) for key, col in shares]
    return [{"metric": "flag_effect", "key": key, "arm": "b-a", "n": n, "estimate": est[0],
             "lo": est[1], "hi": est[2]} for key, (n, est) in effects]


def _study(
    va: str, vb: str, rules_a: dict[str, Any], rules_b: dict[str, Any], a: pl.DataFrame,
    b: pl.DataFrame, plan: Plan,
) -> Study:
    rows = arm_metrics("a", a) + arm_metrics("b", b) + paired_metrics(a, b, money_effects(va, vb))
    metrics = pl.DataFrame(rows, schema=METRIC_SCHEMA, orient="row")
    defined = {"variant": va, "variant_b": vb, "rules_a": json.dumps(rules_a, sort_keys=True),
               "rules_b": json.dumps(rules_b, sort_keys=True), "games": plan.games,
               "deals_per_game": plan.deals_per_game, "seed": plan.seed, "play": plan.play}
    run_id = study_id(defined)
    runs_row = {"run_id": run_id, **defined, "deals": a.height, "created_at": datetime.now(UTC)}
    return Study(run_id, runs_row, metrics)


def study_id(defined: dict[str, Any]) -> str:
    """A study's ``run_id``: a hash of what defines it (both variants and rule sets, its size,
    seed and play), so that running the same study again replaces it (:func:`store_study`)
    rather than listing it twice; the bots and the seed deal and play the same games."""
    text = json.dumps(defined, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def study(
    variant: str,
    rules_a: dict[str, Any],
    rules_b: dict[str, Any],
    games: int,
    deals_per_game: int,
    *,
    seed: int = 0,
    play: str = "heuristic",
    variant_b: str | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
) -> Study:
    """Run a paired study and return its run row and metrics (nothing is stored); ``progress``
    is told the games simulated as they come (``2 * games`` in all)."""
    va = studied(variant)
    vb = studied(variant_b or variant)
    n = workers or os.cpu_count() or 1
    plan = Plan(va, games, deals_per_game, seed, rules_a, play)
    a = _arm_deals(va, plan, n, progress)
    b = _arm_deals(vb, Plan(vb, games, deals_per_game, seed, rules_b, play), n, progress)
    return _study(va, vb, rules_a, rules_b, a, b, plan)


def sweep(
    variant: str,
    games: int,
    deals_per_game: int,
    *,
    base: dict[str, Any] | None = None,
    seed: int = 0,
    play: str = "heuristic",
    workers: int | None = None,
    progress: Progress | None = None,
) -> tuple[list[tuple[str, Study]], list[str]]:
    """The effect of each house-rule flag: one paired study per alternative value of every
    finite option (``sim/flags.py``) against ``base`` (the defaults), on the same deals;
    arm a is simulated once. Returns ``(label, study)`` pairs and the alternatives skipped
    (rules the simulator or the settlement does not play), with the reason. ``progress`` is told
    the games simulated as they come (``games`` per arm: one more arm than alternatives)."""
    va = studied(variant)
    rules_a = dict(base or {})
    n = workers or os.cpu_count() or 1
    plan = Plan(va, games, deals_per_game, seed, rules_a, play)
    a = _arm_deals(va, plan, n, progress)
    done: list[tuple[str, Study]] = []
    skipped: list[str] = []
    for label, flag in alternatives(va):
        rules_b = {**rules_a, **flag}
        try:
            b = _arm_deals(va, Plan(va, games, deals_per_game, seed, rules_b, play), n,
                           progress)
        except (SimulationError, NotImplementedError, ValueError) as exc:
            skipped.append(f"{label}: {in_words(exc).splitlines()[0]}")
            continue
        done.append((label, _study(va, va, rules_a, rules_b, a, b, plan)))
    return done, skipped


def store_study(db: Path, s: Study) -> None:
    """Write a study into the ``balance_*`` tables of ``db`` (one transaction), in place of
    an earlier run of the same study (:func:`study_id`); a database it cannot write is
    ``ingest.store.DatabaseError``."""
    conn = store.connect(db)  # the stable tables too: every command reads a study's file
    try:
        for table in TABLES:
            conn.execute(table.ddl)
        conn.execute("BEGIN")
        for table in TABLES:
            conn.execute(f"DELETE FROM {table.name} WHERE run_id = ?", [s.run_id])
        insert(conn, BALANCE_RUNS, pl.DataFrame([s.runs_row]))
        insert(conn, BALANCE_METRICS, s.metrics.with_columns(run_id=pl.lit(s.run_id)))
        conn.execute("COMMIT")
    finally:
        conn.close()
