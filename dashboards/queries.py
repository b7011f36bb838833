"""Every query the dashboards run: plain functions of a DuckDB connection returning polars frames.

They read only the stable tables of ``../shared/spec/records.md`` section 2 (names from
:mod:`model.tables`) plus the canonical ``record`` JSON of a deal (records.md 1.2), so a variant
that lands later shows up without a change here. Every value from a user (filters, a game id, a
drill-down cell) is bound as a ``?`` parameter; the only text spliced into SQL is table names and
fixed fragments defined in this module.

Definitions shared by the pages (docs/dashboards.md, "Definitions"):

* **made** (declarer's success): bridge, where the record's tricks are per player but the
  contract is the partnership's, by the declarer's settlement (``cash > 0``); elsewhere by tricks:
  the declarer's tricks against the contract's target (Greek/Russian ``<n><suit>`` needs n, misère
  0; Balkan 2-5 and 7 need 6, Bettel 6 needs 0, 8 needs 10 (balkan.md 3); Swabian 2 needs 7, 3-5
  need 6, +1 aus den Händen, Bettel 0, Durchmarsch 10 (swabian.md 3.1)). A contract with a target
  of 0 is made only with exactly 0 tricks. A conceded deal is lost; a deal whose defenders all
  passed (no tricks recorded, records.md 1.2) is made. Unknown contract grammar: not counted.
* **defence mode**: the defenders' decisions from ``record.defence``, sorted and joined with ``/``
  (``play/play``, ``invite/pass``, ``pass/pass`` ...); ``none`` when the record has no defence.
* **defence succeeds**: a defender who did not pass lost nothing on the deal (``cash >= 0``).
* **position**: seat relative to the dealer in turn order: 0 dealer, 1 first hand, 2 second hand ...
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import duckdb
import polars as pl

from dashboards.filters import Filters
from model.tables import DEALS, GAMES, INGEST_LOG, QUARANTINE, SETTLEMENTS, STANDINGS

Con = duckdb.DuckDBPyConnection

_EXTRACT = "json_extract(d.record, ['$.defence', '$.tricks', '$.conceded', '$.hand'])"
"""The record's fields the definitions need, parsed once per row (a list of four JSON values)."""
_KEY_PATH = r"""'$."' || replace(replace(declarer, '\', '\\'), '"', '\"') || '"'"""
"""JSONPath of the declarer's key (quoted, so any name is a key and never a path)."""
_PARSED = f"""j[1] IS NOT NULL AS has_defence,
    json_extract_string(j[1], '$.*') AS decisions,
    TRY_CAST(json_extract_string(j[2], {_KEY_PATH}) AS INTEGER) AS taken,
    coalesce(TRY_CAST(j[3] AS BOOLEAN), FALSE) AS conceded,
    coalesce(TRY_CAST(j[4] AS BOOLEAN), FALSE) AS by_hand,
    declarer_cash > 0 AS cash_won"""
"""Per-row columns read from the record (and the declarer's settlement): the only JSON work."""
_LEAD = "regexp_extract(contract, '^G?([0-9]+)', 1)"
_TARGET = f"""CASE
    WHEN variant IN ('greek-prefa', 'russian') THEN
        CASE WHEN lower(contract) LIKE 'mis%' THEN 0 ELSE TRY_CAST({_LEAD} AS INTEGER) END
    WHEN variant = 'balkan' THEN
        CASE {_LEAD} WHEN '6' THEN 0 WHEN '8' THEN 10 WHEN '' THEN NULL ELSE 6 END
    WHEN variant = 'swabian' THEN
        CASE {_LEAD} WHEN '2' THEN 7 WHEN '3' THEN 6 WHEN '4' THEN 6 WHEN '5' THEN 6
                     WHEN '6' THEN 0 WHEN '7' THEN 10 ELSE NULL END
        + CASE WHEN {_LEAD} IN ('2', '3', '4', '5') AND by_hand THEN 1 ELSE 0 END
    ELSE NULL END"""
"""Tricks the declarer must take (module docstring); 0 means "exactly none"."""
MADE_SQL = f"""CASE
    WHEN NOT has_declarer THEN NULL
    WHEN variant LIKE 'bridge%' THEN cash_won
    WHEN conceded THEN FALSE
    WHEN taken IS NULL THEN CASE WHEN has_defence THEN TRUE ELSE NULL END
    WHEN ({_TARGET}) = 0 THEN taken = 0
    ELSE taken >= ({_TARGET}) END"""
"""Whether the declarer made his contract (module docstring), over :data:`_PARSED` columns."""
MODE_SQL = """CASE WHEN NOT has_defence THEN 'none'
    WHEN len(decisions) = 2 THEN least(decisions[1], decisions[2]) || '/'
                                 || greatest(decisions[1], decisions[2])
    ELSE array_to_string(list_sort(decisions), '/') END"""
"""The defence mode: the defenders' decisions sorted and joined with ``/``."""
_DECLARER_ROW = (
    f"LEFT JOIN (SELECT game_id, deal_no, player, cash FROM {SETTLEMENTS} "
    "WHERE variant LIKE 'bridge%') sd "
    "ON sd.game_id = d.game_id AND sd.deal_no = d.deal_no AND sd.player = d.declarer"
)
"""The declarer's settlement row, needed only where "made" is read from cash (bridge)."""


def _facts(columns: str, from_where: str) -> str:
    """Rows with ``mode`` and ``made`` (and ``defence``, the record's defence JSON).

    ``columns`` are the innermost select's columns over aliases ``d`` (deals), ``g`` (games) and
    ``sd`` (:data:`_DECLARER_ROW`); they must include ``variant``, ``contract``, ``declarer`` and
    ``declarer_cash``. ``from_where`` is the innermost FROM ... WHERE text."""
    return f"""SELECT * EXCLUDE (has_defence, decisions, taken, conceded, by_hand, cash_won,
                                 has_declarer),
                      {MADE_SQL} AS made, {MODE_SQL} AS mode
        FROM (SELECT * EXCLUDE (j), j[1] AS defence, declarer IS NOT NULL AS has_declarer,
                     {_PARSED}
              FROM (SELECT {columns}, {_EXTRACT} AS j {from_where}))"""


_DEAL_COLUMNS = """d.game_id, d.deal_no, d.variant, d.dealer, d.declarer, d.contract, d.has_cards,
    d.source, d.line, g.started_at, sd.cash AS declarer_cash"""
_DENOM = "regexp_extract(d.contract, '[0-9]+([A-Z]+)', 1)"
CONTRACT_ORDER_SQL = f"""TRY_CAST(regexp_extract(d.contract, '([0-9]+)', 1) AS INTEGER),
    CASE WHEN d.variant LIKE 'bridge%' THEN list_position(['C', 'D', 'H', 'S', 'NT'], {_DENOM})
         ELSE list_position(['S', 'C', 'D', 'H', 'NT'], {_DENOM}) END, d.contract"""
"""Contracts in bid order: level, then the denomination ladder (Greek 4.1 S < C < D < H < NT;
bridge C < D < H < S < NT); other grammars by their text."""
_POSITION = "(s.seat - (list_position(g.players, d.dealer) - 1) + len(g.players)) % len(g.players)"


def _where(f: Filters, use_player: bool = True) -> tuple[str, list[object]]:
    """Game-level filter on alias ``g``: SQL with ``?`` placeholders and the values to bind."""
    clauses = ["TRUE"]
    params: list[object] = []
    if f.variant:
        clauses.append("g.variant = ?")
        params.append(f.variant)
    if f.league:
        clauses.append("g.league = ?")
        params.append(f.league)
    if f.date_from:
        clauses.append("CAST(g.started_at AS DATE) >= ?")
        params.append(f.date_from)
    if f.date_to:
        clauses.append("CAST(g.started_at AS DATE) <= ?")
        params.append(f.date_to)
    if use_player and f.player:
        clauses.append("list_contains(g.players, ?)")
        params.append(f.player)
    return " AND ".join(clauses), params


def _frame(con: Con, sql: str, params: Sequence[object] | None = None) -> pl.DataFrame:
    return con.sql(sql, params=list(params or [])).pl()


# ---------------------------------------------------------------- filter choices and overview


def variants(con: Con) -> pl.DataFrame:
    return _frame(con, f"SELECT DISTINCT variant FROM {GAMES} ORDER BY variant")


def leagues(con: Con, f: Filters) -> pl.DataFrame:
    where, params = _where(Filters(variant=f.variant))
    sql = f"""SELECT DISTINCT g.league FROM {GAMES} g
              WHERE {where} AND g.league IS NOT NULL ORDER BY g.league"""
    return _frame(con, sql, params)


def players(con: Con, f: Filters) -> pl.DataFrame:
    where, params = _where(f, use_player=False)
    sql = f"""SELECT p.player, count(*) AS games
              FROM (SELECT unnest(g.players) AS player FROM {GAMES} g WHERE {where}) p
              GROUP BY p.player ORDER BY games DESC, p.player"""
    return _frame(con, sql, params)


def date_span(con: Con) -> tuple[date | None, date | None]:
    row = _frame(
        con, f"SELECT min(CAST(started_at AS DATE)) AS lo, max(CAST(started_at AS DATE)) AS hi "
        f"FROM {GAMES}"
    ).row(0)
    return row[0], row[1]


def overview(con: Con, f: Filters) -> pl.DataFrame:
    """One row: games, deals, deals with cards, players in the filtered games."""
    where, params = _where(f)
    sql = f"""WITH fg AS (SELECT g.game_id, g.players FROM {GAMES} g WHERE {where})
        SELECT (SELECT count(*) FROM fg) AS games,
               count(d.game_id) AS deals,
               count(d.game_id) FILTER (WHERE d.has_cards) AS deals_with_cards,
               (SELECT count(DISTINCT p) FROM (SELECT unnest(players) AS p FROM fg)) AS players
        FROM fg JOIN {DEALS} d ON d.game_id = fg.game_id"""
    return _frame(con, sql, params)


# ---------------------------------------------------------------- League


def league_standings(con: Con, f: Filters) -> pl.DataFrame:
    """Per league, season (year of ``started_at``), variant and player: games and cash."""
    where, params = _where(f)
    sql = f"""SELECT coalesce(g.league, '(no league)') AS league,
                     year(g.started_at) AS season, g.variant, st.player,
                     count(*) AS games, count(*) FILTER (WHERE st.finished) AS finished,
                     sum(st.deals_played)::BIGINT AS deals_played,
                     sum(st.cash) AS cash, avg(st.cash) AS cash_per_game
              FROM {STANDINGS} st JOIN {GAMES} g ON g.game_id = st.game_id
              WHERE {where}
              GROUP BY ALL ORDER BY league, season, g.variant, cash DESC, st.player"""
    return _frame(con, sql, params)


def cash_over_time(con: Con, f: Filters, top: int = 10) -> pl.DataFrame:
    """Cumulative cash per player by day for the ``top`` players with most games (dated games)."""
    where, params = _where(f)
    sql = f"""WITH per_day AS (
            SELECT st.player, CAST(g.started_at AS DATE) AS day, sum(st.cash) AS cash,
                   count(*) AS games
            FROM {STANDINGS} st JOIN {GAMES} g ON g.game_id = st.game_id
            WHERE {where} AND g.started_at IS NOT NULL GROUP BY ALL),
        keep AS (SELECT player FROM per_day GROUP BY player
                 ORDER BY sum(games) DESC, player LIMIT ?)
        SELECT p.player, p.day, p.cash,
               sum(p.cash) OVER (PARTITION BY p.player ORDER BY p.day) AS cumulative_cash
        FROM per_day p SEMI JOIN keep k ON k.player = p.player
        ORDER BY p.player, p.day"""
    return _frame(con, sql, [*params, top])


def games(con: Con, f: Filters, limit: int = 500) -> pl.DataFrame:
    where, params = _where(f)
    sql = f"""SELECT g.game_id, g.variant, g.league, g.started_at, g.players,
                     (SELECT count(*) FROM {DEALS} d WHERE d.game_id = g.game_id) AS deals
              FROM {GAMES} g WHERE {where}
              ORDER BY g.started_at DESC NULLS LAST, g.game_id LIMIT ?"""
    return _frame(con, sql, [*params, limit])


def game_info(con: Con, game_id: str) -> pl.DataFrame:
    sql = f"""SELECT game_id, variant, players, CAST(rules AS VARCHAR) AS rules, started_at,
                     league, stake, source FROM {GAMES} WHERE game_id = ?"""
    return _frame(con, sql, [game_id])


def game_sheet(con: Con, game_id: str) -> pl.DataFrame:
    """Every settlement row of one game in deal and seat order, with the deal's headline."""
    sql = f"""SELECT s.*, d.dealer, d.declarer, d.contract
              FROM {SETTLEMENTS} s
              JOIN {DEALS} d ON d.game_id = s.game_id AND d.deal_no = s.deal_no
              WHERE s.game_id = ? ORDER BY s.deal_no, s.seat"""
    return _frame(con, sql, [game_id])


def game_standings(con: Con, game_id: str) -> pl.DataFrame:
    sql = f"""SELECT player, cash, deals_played, finished FROM {STANDINGS}
              WHERE game_id = ? ORDER BY cash DESC, player"""
    return _frame(con, sql, [game_id])


# ---------------------------------------------------------------- Player


def _player_deals(f: Filters) -> tuple[str, list[object]]:
    """The player's deals at the table with his role, position, success and cash."""
    where, params = _where(f.without_player())
    facts = _facts(
        f"{_DEAL_COLUMNS}, s.player, s.cash, {_POSITION} AS position",
        f"""FROM {SETTLEMENTS} s
            JOIN {DEALS} d ON d.game_id = s.game_id AND d.deal_no = s.deal_no
            JOIN {GAMES} g ON g.game_id = s.game_id {_DECLARER_ROW}
            WHERE s.player = ? AND {where}""",
    )
    sql = f"""SELECT game_id, deal_no, cash, variant, contract, started_at, position,
                     CASE WHEN declarer = player THEN 'declarer'
                          WHEN declarer IS NULL THEN 'no declarer'
                          ELSE coalesce(map_extract_value(
                              TRY_CAST(defence AS MAP(VARCHAR, VARCHAR)), player), 'sat out')
                     END AS role,
                     CASE WHEN declarer = player THEN made END AS made
              FROM ({facts})"""
    return sql, [f.player, *params]


def player_summary(con: Con, f: Filters) -> pl.DataFrame:
    """One row: deals at the table, games, declared, made, defended, defence held, cash."""
    base, params = _player_deals(f)
    sql = f"""SELECT count(*) AS deals, count(DISTINCT game_id) AS games,
                     count(*) FILTER (WHERE role = 'declarer') AS declared,
                     count(made) AS declared_counted,
                     count(*) FILTER (WHERE made) AS made,
                     count(*) FILTER (WHERE role NOT IN ('declarer', 'no declarer',
                                                         'sat out', 'pass')) AS defended,
                     count(*) FILTER (WHERE role NOT IN ('declarer', 'no declarer',
                                      'sat out', 'pass') AND cash >= 0) AS defence_held,
                     coalesce(sum(cash), 0) AS cash,
                     coalesce(sum(cash) / nullif(count(*), 0), 0) AS cash_per_deal,
                     coalesce(sum(cash) / nullif(count(DISTINCT game_id), 0), 0) AS cash_per_game
              FROM ({base})"""
    return _frame(con, sql, params)


def field_summary(con: Con, f: Filters) -> pl.DataFrame:
    """The field for comparison: every player of the filtered games (without the player filter).

    Each declared deal has exactly one declarer at the table, so "declared" counts deals."""
    where, params = _where(f.without_player())
    games = f"JOIN {GAMES} g ON g.game_id = x.game_id" if params else ""
    sql = f"""SELECT s.deals, d.declared, s.cash_per_deal
              FROM (SELECT count(*) AS deals, avg(x.cash) AS cash_per_deal
                    FROM {SETTLEMENTS} x {games} WHERE {where}) s,
                   (SELECT count(*) AS declared FROM {DEALS} x {games}
                    WHERE {where} AND x.declarer IS NOT NULL) d"""
    return _frame(con, sql, [*params, *params])


def player_roles(con: Con, f: Filters) -> pl.DataFrame:
    """How often the player declares, plays, passes, invites ...: n, successes, cash."""
    base, params = _player_deals(f)
    sql = f"""SELECT role, count(*) AS n,
                     CASE WHEN role IN ('pass', 'sat out', 'no declarer') THEN NULL
                          ELSE count(*) FILTER (WHERE CASE WHEN role = 'declarer' THEN made
                                                           ELSE cash >= 0 END) END AS ok,
                     sum(cash) AS cash, avg(cash) AS cash_per_deal
              FROM ({base}) GROUP BY role ORDER BY n DESC, role"""
    return _frame(con, sql, params)


def player_contracts(con: Con, f: Filters) -> pl.DataFrame:
    """Declarer success by variant and contract (n counts deals whose outcome is known)."""
    base, params = _player_deals(f)
    sql = f"""SELECT d.variant, d.contract, count(d.made) AS n,
                     count(*) FILTER (WHERE d.made) AS made, avg(d.cash) AS cash_per_deal
              FROM ({base}) d WHERE d.role = 'declarer'
              GROUP BY d.variant, d.contract
              ORDER BY d.variant, {CONTRACT_ORDER_SQL}"""
    return _frame(con, sql, params)


def player_positions(con: Con, f: Filters) -> pl.DataFrame:
    base, params = _player_deals(f)
    sql = f"""SELECT position, count(*) AS deals,
                     count(*) FILTER (WHERE role = 'declarer') AS declared,
                     avg(cash) AS cash_per_deal, sum(cash) AS cash
              FROM ({base}) GROUP BY position ORDER BY position"""
    return _frame(con, sql, params)


def player_over_time(con: Con, f: Filters) -> pl.DataFrame:
    base, params = _player_deals(f)
    sql = f"""SELECT m.*, sum(m.cash) OVER (ORDER BY m.month) AS cumulative
              FROM (SELECT date_trunc('month', started_at)::DATE AS month, count(*) AS deals,
                           count(*) FILTER (WHERE role = 'declarer') AS declared,
                           sum(cash) AS cash
                    FROM ({base}) WHERE started_at IS NOT NULL GROUP BY 1) m
              ORDER BY m.month"""
    return _frame(con, sql, params)


# ---------------------------------------------------------------- Contracts


def _declared_rows(f: Filters, columns: str) -> tuple[str, list[object]]:
    """Declared deals with ``declarer_cash`` and the record's fields ``j`` (:data:`_EXTRACT`).

    Only bridge needs the declarer's settlement row, so the join runs on bridge deals alone; the
    games table is joined only when a game-level filter is set (``deals`` has the variant)."""
    where, params = _where(f)
    games = f"JOIN {GAMES} g ON g.game_id = d.game_id" if params else ""
    where = where if params else "TRUE"
    sql = f"""SELECT {columns}, NULL::DOUBLE AS declarer_cash, {_EXTRACT} AS j
              FROM {DEALS} d {games}
              WHERE {where} AND d.declarer IS NOT NULL AND d.variant NOT LIKE 'bridge%'
              UNION ALL
              SELECT {columns}, sd.cash AS declarer_cash, {_EXTRACT} AS j
              FROM {DEALS} d {games} {_DECLARER_ROW}
              WHERE {where} AND d.declarer IS NOT NULL AND d.variant LIKE 'bridge%'"""
    return sql, [*params, *params]


def contract_rates(con: Con, f: Filters) -> pl.DataFrame:
    """Declared deals by variant, contract and defence mode: deals, n (outcome known), made.

    The record is read once per deal; "made" and the mode are computed per group of equal inputs
    (a few hundred groups), which keeps a million deals well under a second."""
    rows, params = _declared_rows(f, "d.variant, d.contract, d.declarer")
    sql = f"""WITH parsed AS (
            SELECT variant, contract, declarer IS NOT NULL AS has_declarer, {_PARSED}
            FROM ({rows})),
        grouped AS (SELECT *, count(*) AS k FROM parsed GROUP BY ALL),
        rated AS (SELECT variant, contract, k, {MADE_SQL} AS made, {MODE_SQL} AS mode
                  FROM grouped)
        SELECT d.variant, d.contract, d.mode, sum(k)::BIGINT AS deals,
               coalesce(sum(k) FILTER (WHERE d.made IS NOT NULL), 0)::BIGINT AS n,
               coalesce(sum(k) FILTER (WHERE d.made), 0)::BIGINT AS made
        FROM rated d
        GROUP BY d.variant, d.contract, d.mode
        ORDER BY d.variant, {CONTRACT_ORDER_SQL}, d.mode"""
    return _frame(con, sql, params)


def contract_deals(
    con: Con, f: Filters, variant: str, contract: str, mode: str | None = None, limit: int = 200
) -> pl.DataFrame:
    """The deals behind one cell of the contracts table (drill-down)."""
    where, params = _where(f)
    facts = _facts(
        _DEAL_COLUMNS,
        f"""FROM {DEALS} d JOIN {GAMES} g ON g.game_id = d.game_id {_DECLARER_ROW}
            WHERE {where} AND d.variant = ? AND d.contract = ?""",
    )
    mode_clause, extra = ("WHERE mode = ?", [mode]) if mode is not None else ("", [])
    sql = f"""SELECT game_id, deal_no, started_at, dealer, declarer, contract, mode, made,
                     has_cards, source, line
              FROM ({facts}) {mode_clause}
              ORDER BY started_at NULLS LAST, game_id, deal_no LIMIT ?"""
    return _frame(con, sql, [*params, variant, contract, *extra, limit])


# ---------------------------------------------------------------- Hand replayer


def card_deals(con: Con, f: Filters, limit: int = 500) -> pl.DataFrame:
    """Deals that carry their cards (``has_cards``), newest first."""
    where, params = _where(f)
    player = ""
    extra: list[object] = []
    if f.player:
        player = "AND (d.declarer = ? OR list_contains(g.players, ?))"
        extra = [f.player, f.player]
    sql = f"""SELECT d.game_id, d.deal_no, d.variant, d.dealer, d.declarer, d.contract,
                     g.started_at
              FROM {DEALS} d JOIN {GAMES} g ON g.game_id = d.game_id
              WHERE {where} AND d.has_cards {player}
              ORDER BY g.started_at DESC NULLS LAST, d.game_id, d.deal_no LIMIT ?"""
    return _frame(con, sql, [*params, *extra, limit])


def deal_detail(con: Con, game_id: str, deal_no: int) -> pl.DataFrame:
    """One deal with its game's players and the canonical record as JSON text."""
    sql = f"""SELECT d.game_id, d.deal_no, d.variant, g.players, d.dealer, d.declarer,
                     d.contract, d.has_cards, CAST(d.record AS VARCHAR) AS record
              FROM {DEALS} d JOIN {GAMES} g ON g.game_id = d.game_id
              WHERE d.game_id = ? AND d.deal_no = ?"""
    return _frame(con, sql, [game_id, deal_no])


# ---------------------------------------------------------------- Data quality


def ingest_log(con: Con, source: str | None = None) -> pl.DataFrame:
    clause, params = ("WHERE source = ?", [source]) if source else ("", [])
    sql = f"""SELECT source, sha256, records, stored, duplicates, quarantined, ingested_at
              FROM {INGEST_LOG} {clause} ORDER BY ingested_at DESC, source"""
    return _frame(con, sql, params)


def quarantine_summary(con: Con) -> pl.DataFrame:
    sql = f"""SELECT source, code, count(*) AS records FROM {QUARANTINE}
              GROUP BY ALL ORDER BY records DESC, source, code"""
    return _frame(con, sql)


def quarantine(
    con: Con, source: str | None = None, code: str | None = None, limit: int = 1000
) -> pl.DataFrame:
    clauses, params = ["TRUE"], []
    if source:
        clauses.append("source = ?")
        params.append(source)
    if code:
        clauses.append("code = ?")
        params.append(code)
    sql = f"""SELECT source, line, record_key, code, message, raw, ingested_at
              FROM {QUARANTINE} WHERE {" AND ".join(clauses)}
              ORDER BY source, line LIMIT ?"""
    return _frame(con, sql, [*params, limit])
