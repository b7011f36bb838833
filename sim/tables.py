"""DuckDB tables of balance studies (``trickbook balance``, ``docs/balance-study.md``).

``balance_runs``: one row per study (its two arms' rules and size). ``balance_metrics``: one row per
estimate, long format: the ``metric`` (``contract_share``, ``declarer_success``,
``seat_result``, ``money_flow``, ``flag_effect``), its ``key`` (a contract, a seat position, a
level or a measured quantity), the ``arm`` (``a``, ``b`` or ``b-a`` for paired differences),
``n`` (observations), the ``estimate`` and its 95% confidence interval ``lo`` .. ``hi``.
"""

from __future__ import annotations

BALANCE_RUNS = "balance_runs"
BALANCE_METRICS = "balance_metrics"

DDL: dict[str, str] = {
    BALANCE_RUNS: """
        CREATE TABLE IF NOT EXISTS balance_runs (
            run_id         VARCHAR PRIMARY KEY,
            variant        VARCHAR NOT NULL,
            variant_b      VARCHAR NOT NULL,
            rules_a        JSON NOT NULL,
            rules_b        JSON NOT NULL,
            games          INTEGER NOT NULL,
            deals_per_game INTEGER NOT NULL,
            seed           BIGINT NOT NULL,
            play           VARCHAR NOT NULL,
            deals          INTEGER NOT NULL,
            created_at     TIMESTAMPTZ NOT NULL
        )""",
    BALANCE_METRICS: """
        CREATE TABLE IF NOT EXISTS balance_metrics (
            run_id   VARCHAR NOT NULL,
            metric   VARCHAR NOT NULL,
            key      VARCHAR NOT NULL,
            arm      VARCHAR NOT NULL,
            n        INTEGER NOT NULL,
            estimate DOUBLE,
            lo       DOUBLE,
            hi       DOUBLE,
            PRIMARY KEY (run_id, metric, key, arm)
        )""",
}
