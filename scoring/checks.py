"""Data checks after every load (STYLE.md practice 8): small named SQL queries, one property each.

Each query returns the rows that break its property; no rows means the property holds. Sources:
``../shared/spec/records.md`` section 2 (zero-sum, transfers, ingest accounting, the end of a
game), docs/review.md (the review's invariants); then each settlement's own checks of its own
columns (``Settlement.checks``: Greek, greek-prefa.md 8, 10, no kassa below 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from model import tables as T
from model.tables import PENDING, has_table
from model.variants import REGISTERED, unplayed_sql
from scoring.registry import REGISTERED as SETTLEMENTS
from scoring.settlement import Check

__all__ = ["CHECKS", "Check", "Failure", "run_checks"]

ZERO_SUM_PER_DEAL = tuple(v.name for v in REGISTERED if v.zero_sum_per_deal)
"""Variants whose ``settlements.cash`` sums to 0 in every deal (records.md section 2)."""
SETTLES_BY_PAYMENTS = tuple(v.name for v in REGISTERED if v.settles_by_payments)
"""Variants whose per-deal ``transfers`` net to ``settlements.cash`` (records.md section 2); the
games that settle at the end of the game (Balkan soups) are not."""
TOLERANCE = 1e-6


@dataclass(frozen=True, slots=True)
class Failure:
    check: str
    description: str
    count: int
    examples: list[tuple[object, ...]]
    finding: bool

    def __str__(self) -> str:
        kind = "finding" if self.finding else "failed"
        return f"{self.check} ({kind}, {self.count} rows): {self.description}; e.g. {self.examples}"


_ZERO_SUM = ", ".join(f"'{v}'" for v in ZERO_SUM_PER_DEAL)
_BY_PAYMENTS = ", ".join(f"'{v}'" for v in SETTLES_BY_PAYMENTS)

CHECKS: tuple[Check, ...] = (
    Check(
        "settlements_zero_sum_per_deal",
        "settlements.cash sums to 0 per deal where the variant is zero-sum per deal",
        f"""SELECT game_id, deal_no, sum(cash) AS total FROM {T.SETTLEMENTS}
            WHERE variant IN ({_ZERO_SUM}) GROUP BY game_id, deal_no
            HAVING abs(sum(cash)) > {TOLERANCE} ORDER BY game_id, deal_no""",
    ),
    Check(
        "transfers_net_to_settlements",
        "each player's received minus paid transfers equals settlements.cash, per deal, where "
        "the variant settles by payments",
        f"""WITH flows AS (
                SELECT game_id, deal_no, payee AS player, amount FROM {T.TRANSFERS}
                UNION ALL
                SELECT game_id, deal_no, payer AS player, -amount FROM {T.TRANSFERS}),
            net AS (SELECT game_id, deal_no, player, sum(amount) AS net FROM flows
                    GROUP BY ALL),
            paying AS (SELECT game_id FROM {T.GAMES} WHERE variant IN ({_BY_PAYMENTS}))
            SELECT s.game_id, s.deal_no, s.player, s.cash, coalesce(n.net, 0) AS net
            FROM {T.SETTLEMENTS} s JOIN paying USING (game_id)
            LEFT JOIN net n USING (game_id, deal_no, player)
            WHERE abs(s.cash - coalesce(n.net, 0)) > {TOLERANCE}
            ORDER BY s.game_id, s.deal_no, s.player""",
    ),
    Check(
        "finished_games_zero_sum",
        "a finished game's standings.cash sums to 0 over its players (records.md 2)",
        f"""SELECT game_id, sum(cash) AS total FROM {T.STANDINGS} GROUP BY game_id
            HAVING bool_and(finished) AND abs(sum(cash)) > {TOLERANCE} ORDER BY game_id""",
    ),
    Check(
        "deals_have_settlements",
        "every stored deal has settlements (deals after the end of a game are a finding below; "
        "a deal nobody played, Variant.unplayed_sql, has none)",
        f"""SELECT d.game_id, d.deal_no FROM {T.DEALS} d
            WHERE NOT {unplayed_sql()} AND NOT EXISTS (SELECT 1 FROM {T.SETTLEMENTS} s
                              WHERE s.game_id = d.game_id AND s.deal_no = d.deal_no)
              AND NOT EXISTS (SELECT 1 FROM {T.STANDINGS} t
                              WHERE t.game_id = d.game_id AND t.finished
                                AND d.deal_no > (SELECT coalesce(max(s.deal_no), 0)
                                                 FROM {T.SETTLEMENTS} s
                                                 WHERE s.game_id = d.game_id))
            ORDER BY d.game_id, d.deal_no""",
    ),
    Check(
        "no_games_waiting_for_rescore",
        "every game touched by an ingest has been rescored (rescore_pending is empty)",
        f"SELECT game_id FROM {PENDING} ORDER BY game_id",
    ),
    Check(
        "deals_after_game_end",
        "deals recorded after their game ended (the variant's end of game, e.g. "
        "greek-prefa.md 11): stored, not settled",
        f"""SELECT d.game_id, d.deal_no, d.source, d.line FROM {T.DEALS} d
            WHERE NOT {unplayed_sql()} AND EXISTS (SELECT 1 FROM {T.STANDINGS} t
                          WHERE t.game_id = d.game_id AND t.finished)
              AND NOT EXISTS (SELECT 1 FROM {T.SETTLEMENTS} s
                              WHERE s.game_id = d.game_id AND s.deal_no = d.deal_no)
              AND d.deal_no > (SELECT coalesce(max(s.deal_no), 0) FROM {T.SETTLEMENTS} s
                               WHERE s.game_id = d.game_id)
            ORDER BY d.game_id, d.deal_no""",
        finding=True,
    ),
    Check(
        "review_invariant",
        "for a deal played to its end, the open-hand value before the first card minus the "
        "declaring side's card costs plus the defence's is the recorded result (misère and "
        "Bettel the other way round; docs/review.md)",
        f"""WITH costs AS (
                SELECT game_id, deal_no,
                       sum(CASE WHEN side = 'declarer' THEN cost ELSE 0 END) AS declarer,
                       sum(CASE WHEN side = 'defence' THEN cost ELSE 0 END) AS defence
                FROM {T.CARD_REVIEW} GROUP BY game_id, deal_no),
             recorded AS (
                SELECT game_id, deal_no,
                       CASE WHEN json_type(record::JSON -> 'tricks') = 'OBJECT'
                            THEN json_extract_string(record, '$.tricks."' || replace(replace(
                                     declarer, '\\', '\\\\'), '"', '\\"') || '"')::INTEGER
                            ELSE (record::JSON ->> 'tricks')::INTEGER END AS result
                FROM {T.DEALS})
            SELECT r.game_id, r.deal_no, r.value_start, c.declarer, c.defence, d.result
            FROM {T.DEAL_REVIEW} r JOIN costs c USING (game_id, deal_no)
                 JOIN recorded d USING (game_id, deal_no)
            WHERE r.skipped IS NULL AND NOT r.claimed
              AND d.result IS DISTINCT FROM r.value_start
                  - (CASE WHEN r.fewest THEN -1 ELSE 1 END) * (c.declarer - c.defence)
            ORDER BY r.game_id, r.deal_no""",
        needs=T.CARD_REVIEW,
    ),
    Check(
        "review_invariant_per_player",
        "in all-pass play (raspasy), for each player: his open-hand value before his first "
        "card, plus his cards' costs, less what the others' cards gave him (never negative), "
        "is his recorded tricks (docs/review.md)",
        f"""WITH own AS (
                SELECT game_id, deal_no, player, card_no, value_before, cost,
                       lag(value_after) OVER (PARTITION BY game_id, deal_no, player
                                              ORDER BY card_no) - value_before AS gift
                FROM {T.CARD_REVIEW} WHERE side = 'self'),
             players AS (
                SELECT game_id, deal_no, player, arg_min(value_before, card_no) AS value_start,
                       sum(cost) AS costs, coalesce(sum(gift), 0) AS gifts,
                       coalesce(min(gift), 0) AS least_gift
                FROM own GROUP BY game_id, deal_no, player)
            SELECT p.game_id, p.deal_no, p.player, p.value_start, p.costs, p.gifts,
                   json_extract_string(d.record, '$.tricks."' || replace(replace(
                       p.player, '\\', '\\\\'), '"', '\\"') || '"')::INTEGER AS result
            FROM players p JOIN {T.DEALS} d USING (game_id, deal_no)
            WHERE p.least_gift < 0
               OR result IS DISTINCT FROM p.value_start + p.costs - p.gifts
            ORDER BY p.game_id, p.deal_no, p.player""",
        needs=T.CARD_REVIEW,
    ),
    Check(
        "ingest_log_counts_every_record_once",
        "records = stored + duplicates + quarantined in every ingest_log row (records.md 2)",
        f"""SELECT source, sha256, records, stored, duplicates, quarantined FROM {T.INGEST_LOG}
            WHERE records <> stored + duplicates + quarantined ORDER BY source""",
    ),
    Check(
        "quarantine_matches_last_ingest",
        "a source's quarantine rows hold as many records as its last ingest_log row says (the "
        "versions of an upload are one source: the last read of any; a "
        "row holding the records of one line says '<n> records at this line'; the "
        "deal-conflict row at line 0 holds the deals of an earlier version this one dropped, "
        "no records of it, while a bad sidecar game file's issue at line 0 is one)",
        f"""WITH last AS (SELECT {T.VERSIONS_OF} AS source,
                                 arg_max(quarantined, ingested_at) AS quarantined
                          FROM {T.INGEST_LOG} GROUP BY 1),
                 held AS (SELECT {T.VERSIONS_OF} AS source, sum({T.HELD_RECORDS}) AS n
                          FROM {T.QUARANTINE} WHERE NOT {T.DROPPED_ROW} GROUP BY 1)
            SELECT coalesce(l.source, h.source) AS source, l.quarantined, coalesce(h.n, 0) AS n
            FROM last l FULL JOIN held h USING (source)
            WHERE coalesce(l.quarantined, -1) <> coalesce(h.n, 0) ORDER BY 1""",
    ),
    Check(
        "stored_records_logged",
        "the stored deals of each source are no more than its ingest_log rows stored",
        f"""WITH logged AS (SELECT source, sum(stored) AS stored FROM {T.INGEST_LOG}
                            GROUP BY source),
                 held AS (SELECT source, count(*) AS n FROM {T.DEALS} GROUP BY source)
            SELECT h.source, h.n, l.stored FROM held h LEFT JOIN logged l USING (source)
            WHERE h.n > coalesce(l.stored, 0) ORDER BY 1""",
    ),
    *(check for s in SETTLEMENTS for check in s.checks),
)


def run_checks(
    conn: duckdb.DuckDBPyConnection, checks: tuple[Check, ...] = CHECKS, *, examples: int = 5
) -> list[Failure]:
    """Every check whose property does not hold (findings included, flagged), in order."""
    out: list[Failure] = []
    for check in checks:
        if check.needs is not None and not has_table(conn, check.needs):
            continue
        rows = conn.execute(check.sql).fetchall()
        if rows:
            out.append(Failure(check.name, check.description, len(rows), rows[:examples],
                               check.finding))
    return out

