"""DuckDB tables of balance studies (``trickbook balance``, ``docs/balance-study.md``).

``balance_runs``: one row per study (its two arms' rules and size). ``balance_metrics``: one row per
estimate, long format: the ``metric`` (``contract_share``, ``declarer_success``,
``seat_result``, ``money_flow``, ``flag_effect``), its ``key`` (a contract, a seat position, a
level or a measured quantity), the ``arm`` (``a``, ``b`` or ``b-a`` for paired differences),
``n`` (observations), the ``estimate`` and its 95% confidence interval ``lo`` .. ``hi``.
"""

from __future__ import annotations

import polars as pl

from model.schema import Table

BALANCE_RUNS = "balance_runs"
BALANCE_METRICS = "balance_metrics"

_S, _I32, _F64 = pl.String(), pl.Int32(), pl.Float64()

RUNS = Table(BALANCE_RUNS, {
    "run_id": _S, "variant": _S, "variant_b": _S, "rules_a": _S, "rules_b": _S,
    "games": _I32, "deals_per_game": _I32, "seed": pl.Int64(), "play": _S, "deals": _I32,
    "created_at": pl.Datetime("us", "UTC"),
}, required=("variant", "variant_b", "rules_a", "rules_b", "games", "deals_per_game", "seed",
             "play", "deals", "created_at"),
    key=("run_id",), sql={"rules_a": "JSON", "rules_b": "JSON"})
METRICS = Table(BALANCE_METRICS, {
    "run_id": _S, "metric": _S, "key": _S, "arm": _S, "n": _I32,
    "estimate": _F64, "lo": _F64, "hi": _F64,
}, required=("n",), key=("run_id", "metric", "key", "arm"))
TABLES = (RUNS, METRICS)
