"""The review of play per player (docs/review.md, "Per player"): plain query functions of a
read-only connection, returning polars frames, for the Player and Replayer pages.

They read the review tables (``card_review``, ``decision_review``, ``deal_review``) beside
``games``; the filters of every page (variant, league, dates) apply to the games, the player (a
person, under any of his names) is bound. Every rate comes with its n and a Wilson 95% interval
(``dashboards/stats.py``, ``scoring/stats.py``); the tricks lost per deal come with the share of
deals that lost any (a rate, with its interval) and the mean with a normal 95% interval.
"""

from __future__ import annotations

import math

import duckdb
import polars as pl

from dashboards.filters import Filters
from dashboards.queries import _frame, _is_person, _where
from dashboards.stats import with_rate
from model.tables import CARD_REVIEW, DEAL_REVIEW, DECISION_REVIEW, GAMES, has_table
from model.variants import REGISTERED
from scoring.stats import Z95

Con = duckdb.DuckDBPyConnection

ROLES = {"declarer": "declarer", "defence": "defence", "all_pass": "self"}
"""The player's role in a deal -> the ``card_review.side`` of his cards in it: declaring,
defending, and all-pass play (Russian raspasy, ``Variant.all_pass_play``), where each card is
valued for the player himself (docs/review.md)."""
METRICS = ("cards_reviewed", "costly_cards", "opening_lead_accuracy",
           *(f"{role}_tricks_lost" for role in ROLES), "decision_accuracy")
"""The rows of ``player_review`` for each group, in order (``all_pass_tricks_lost`` only for a
variant that plays all-pass deals out)."""
ALL_PASS_VARIANTS = frozenset(v.name for v in REGISTERED if v.all_pass_play)


def _group(by_month: bool) -> str:
    return "g.variant" + (", date_trunc('month', g.started_at)::DATE AS month" if by_month else "")


def _same(alias: str, by_month: bool) -> str:
    """Join condition on the group keys (a game without a date has a null month)."""
    month = f" AND {alias}.month IS NOT DISTINCT FROM k.month" if by_month else ""
    return f"{alias}.variant = k.variant{month}"


def _wide(con: Con, f: Filters, by_month: bool) -> pl.DataFrame:
    """One row per variant (and month): the counts behind every metric."""
    where, params = _where(con, f.without_player())
    card_of, pairs = _is_person(con, f.player, "g.variant", "c.player")
    decision_of, _ = _is_person(con, f.player, "g.variant", "r.player")
    keys = "variant" + (", month" if by_month else "")
    sql = f"""
        WITH cards AS (
            SELECT {_group(by_month)}, c.game_id, c.deal_no, c.card_no, c.side, c.cost
            FROM {CARD_REVIEW} c JOIN {GAMES} g ON g.game_id = c.game_id
            WHERE {card_of} AND {where}),
        deals AS (
            SELECT {keys}, side, game_id, deal_no, sum(cost) AS lost
            FROM cards GROUP BY ALL),
        card_counts AS (
            SELECT {keys}, count(*) AS cards, count(*) FILTER (WHERE cost > 0) AS costly,
                   count(*) FILTER (WHERE card_no = 1) AS leads,
                   count(*) FILTER (WHERE card_no = 1 AND cost = 0) AS good_leads
            FROM cards GROUP BY ALL),
        deal_counts AS (
            SELECT {keys}, {_role_counts()}
            FROM deals GROUP BY ALL),
        decision_counts AS (
            SELECT {_group(by_month)}, count(*) AS decisions,
                   count(*) FILTER (WHERE r.correct) AS correct
            FROM {DECISION_REVIEW} r JOIN {GAMES} g ON g.game_id = r.game_id
            WHERE {decision_of} AND {where} GROUP BY ALL),
        groups AS (SELECT {keys} FROM card_counts UNION SELECT {keys} FROM decision_counts)
        SELECT k.*, c.* EXCLUDE ({keys}), d.* EXCLUDE ({keys}), x.* EXCLUDE ({keys})
        FROM groups k
        LEFT JOIN card_counts c ON {_same("c", by_month)}
        LEFT JOIN deal_counts d ON {_same("d", by_month)}
        LEFT JOIN decision_counts x ON {_same("x", by_month)}
        ORDER BY {keys}"""
    return _frame(con, sql, [*pairs, *params, *pairs, *params])


def _role_counts() -> str:
    """Per role (``ROLES``): the player's deals in it, those that lost a trick, the tricks lost
    and their squares (for the interval), from the ``deals`` of ``_wide``."""
    out = []
    for role, side in ROLES.items():
        of = f"FILTER (WHERE side = '{side}'"
        out += [f"count(*) {of}) AS {role}_deals",
                f"count(*) {of} AND lost > 0) AS {role}_losing",
                f"(sum(lost) {of}))::DOUBLE AS {role}_lost",
                f"(sum(lost * lost) {of}))::DOUBLE AS {role}_lost_sq"]
    return ",\n                   ".join(out)


def _mean(total: float | None, squares: float | None, n: int | None
          ) -> tuple[float | None, float | None, float | None]:
    """Mean and normal 95% interval of per-deal values from their sum and sum of squares."""
    if not n:
        return None, None, None
    mean = (total or 0) / n
    var = max(0.0, (squares or 0) / n - mean * mean) * n / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), mean + half


def _row(key: dict[str, object], metric: str, n: int | None, hits: int | None = None,
         mean: tuple[float | None, float | None, float | None] = (None, None, None)
         ) -> dict[str, object]:
    return {**key, "metric": metric, "n": n or 0, "hits": hits, "mean": mean[0],
            "mean_low": mean[1], "mean_high": mean[2]}


def player_review(con: Con, f: Filters, by_month: bool = False) -> pl.DataFrame:
    """The review of ``f.player`` per variant (and month with ``by_month``): one row per metric
    (``METRICS``) with ``n``, ``hits``, ``rate`` and its interval, and for the tricks lost per
    deal ``mean`` with its interval. Empty without a player or before ``analyse --play``."""
    keys = ["variant", *(["month"] if by_month else [])]
    empty = pl.DataFrame(schema={"variant": pl.String(), **({"month": pl.Date()} if by_month
                                                            else {}), "metric": pl.String(),
                                 "n": pl.Int64(), "hits": pl.Int64(), "mean": pl.Float64(),
                                 "mean_low": pl.Float64(), "mean_high": pl.Float64()})
    if not f.player or not has_table(con, CARD_REVIEW):
        return with_rate(empty, "hits", "n")  # the same columns, no rows
    rows: list[dict[str, object]] = []
    for w in _wide(con, f, by_month).iter_rows(named=True):
        key = {k: w[k] for k in keys}
        rows += [
            _row(key, "cards_reviewed", w["cards"]),
            _row(key, "costly_cards", w["cards"], w["costly"]),
            _row(key, "opening_lead_accuracy", w["leads"], w["good_leads"]),
            *(_row(key, f"{role}_tricks_lost", w[f"{role}_deals"], w[f"{role}_losing"],
                   _mean(w[f"{role}_lost"], w[f"{role}_lost_sq"], w[f"{role}_deals"]))
              for role in ROLES if role != "all_pass" or w["variant"] in ALL_PASS_VARIANTS),
            _row(key, "decision_accuracy", w["decisions"], w["correct"]),
        ]
    frame = pl.DataFrame(rows, schema=empty.schema) if rows else empty
    counted = pl.col("hits").is_not_null()
    return with_rate(frame, "hits", "n").with_columns(
        pl.when(counted).then(pl.col(c)).alias(c) for c in ("rate", "rate_low", "rate_high"))


def costliest_cards(con: Con, f: Filters, limit: int = 20) -> pl.DataFrame:
    """The player's cards that cost most, with the deal to open in the replayer."""
    if not f.player or not has_table(con, CARD_REVIEW):
        return pl.DataFrame()
    where, params = _where(con, f.without_player())
    his, pairs = _is_person(con, f.player, "g.variant", "c.player")
    sql = f"""SELECT g.variant, g.started_at, c.game_id, c.deal_no, c.card_no, c.side, c.card,
                     c.cost, c.best_cards, c.value_before, c.value_after
              FROM {CARD_REVIEW} c JOIN {GAMES} g ON g.game_id = c.game_id
              WHERE {his} AND c.cost > 0
                    AND {where}
              ORDER BY c.cost DESC, g.started_at DESC NULLS LAST, c.game_id, c.deal_no,
                       c.card_no
              LIMIT ?"""
    return _frame(con, sql, [*pairs, *params, limit])


def costliest_decisions(con: Con, f: Filters, limit: int = 20) -> pl.DataFrame:
    """The player's wrong decisions, the costliest first (defence decisions have no cost)."""
    if not f.player or not has_table(con, DECISION_REVIEW):
        return pl.DataFrame()
    where, params = _where(con, f.without_player())
    his, pairs = _is_person(con, f.player, "g.variant", "r.player")
    sql = f"""SELECT g.variant, g.started_at, r.game_id, r.deal_no, r.kind, r.choice, r.best,
                     r.value_choice, r.value_best, r.cost
              FROM {DECISION_REVIEW} r JOIN {GAMES} g ON g.game_id = r.game_id
              WHERE {his} AND NOT r.correct
                    AND {where}
              ORDER BY r.cost DESC NULLS LAST, g.started_at DESC NULLS LAST, r.game_id,
                       r.deal_no, r.decision_no
              LIMIT ?"""
    return _frame(con, sql, [*pairs, *params, limit])


def deal_review(con: Con, game_id: str, deal_no: int) -> pl.DataFrame:
    """Every card of one deal with its review, in play order (the replayer's marks)."""
    if not has_table(con, CARD_REVIEW):
        return pl.DataFrame()
    sql = f"""SELECT c.card_no, c.player, c.side, c.card, c.cost, c.best_cards, c.value_before,
                     c.value_after, r.value_start, r.result, r.claimed, r.fewest
              FROM {CARD_REVIEW} c JOIN {DEAL_REVIEW} r
                   ON r.game_id = c.game_id AND r.deal_no = c.deal_no
              WHERE c.game_id = ? AND c.deal_no = ? ORDER BY c.card_no"""
    return _frame(con, sql, [game_id, deal_no])
