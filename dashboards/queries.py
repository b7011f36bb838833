"""Every query the dashboards run: plain functions of a DuckDB connection returning polars frames.

They read only the stable tables of ``../shared/spec/records.md`` section 2 (names from
:mod:`model.tables`) plus the canonical ``record`` JSON of a deal (records.md 1.2), so a variant
that lands later shows up without a change here. Every value from a user (filters, a game id, a
drill-down cell) is bound as a ``?`` parameter; the only text spliced into SQL is table names and
fixed fragments defined in this module.

Definitions shared by the pages (docs/dashboards.md, "Definitions"):

* **made** and **defence mode** come from the ``deal_outcomes`` view (``model/views.py``): each
  variant states them over its own ``deals_<variant>`` table (``Variant.outcome_sql``), in the
  variant's own words (Greek ``both/invite/alone/pass/concede``, Balkan
  ``both/invite/alone/pass/nokontra``, Swabian ``play/contra/recontra``, bridge
  ``undoubled/doubled/redoubled``). A deal of a variant without a table has no outcome: mode
  ``unknown``, made not counted.
* **role** of a player in a deal: ``sat out`` (the dealer, where his variant's
  ``dealer_sits_out_at`` says so), ``declarer``, ``no declarer``, in bridge ``dummy`` (the
  declarer's partner); every other player at the table defends: his own decision from the
  record's ``defence`` (``play``, ``pass``, ``invite``, ``alone``, ``whist`` ...), else
  ``defender`` (Swabian, where both opponents always play, swabian.md 6; a conceded Greek
  preliminary bid, greek-prefa.md 5, where nobody was asked).
* **defence succeeds**: a defender who did not pass lost nothing on the deal (``cash >= 0``).
* **position**: seat relative to the dealer in turn order: 0 dealer, 1 first hand, 2 second hand ...
"""

from __future__ import annotations

import json
import re
import weakref
from collections.abc import Callable, Hashable, Iterable, Sequence
from datetime import date

import duckdb
import polars as pl

from dashboards.filters import Filters
from dashboards.text import arm_values, rule_words
from ingest.players import is_registered, people_sql
from model.base import composed
from model.tables import (
    DEALS,
    DROPPED_ROW,
    FILE_KEY,
    GAMES,
    HELD_RECORDS,
    INGEST_LOG,
    PENDING,
    QUARANTINE,
    REPAIRS,
    SETTLEMENTS,
    STANDINGS,
    SUPERSEDED,
    TABLES,
    VERSIONS_OF,
    has_table,
)
from model.variant import NO_CONTRACT, Variant
from model.variants import REGISTERED
from model.views import DEAL_OUTCOMES
from scoring.bridge.event import EVENT_RESULTS as EVENT_RESULTS_TABLE
from scoring.registry import REGISTERED as SETTLEMENTS_REGISTERED
from sim.tables import BALANCE_METRICS, BALANCE_RUNS

EVENT_RESULTS = EVENT_RESULTS_TABLE.name
PAIRWISE = ("game_id", "deal_no", "writer", "against", "amount")
PAIRWISE_TABLES = tuple(sorted({t.name for s in SETTLEMENTS_REGISTERED for t in s.tables
                                if set(PAIRWISE) <= set(t.schema)}))
"""A settlement's own tables of what one player wrote against another per deal (records.md 2:
the pulya's whists), read by the pulya picture (``dashboards/pulya.py``)."""

Con = duckdb.DuckDBPyConnection

_KEY_PATH = r"""'$.defence."' || replace(replace(s.player, '\', '\\'), '"', '\"') || '"'"""
"""JSONPath of the player's key in the record's ``defence`` (quoted: any name is a key)."""
_OUTCOME = f"LEFT JOIN {DEAL_OUTCOMES} o ON o.game_id = d.game_id AND o.deal_no = d.deal_no"
"""The deal's outcome row (``model/views.py``); missing for a variant without a table."""
_MODE = "coalesce(o.defence_mode, 'unknown')"
_CALLED = "coalesce(o.called, d.contract)"
"""The contract as called: the deal's ``contract``, or the outcome's ``called`` where that does not
say it all (a Swabian game aus den Händen, ``model/views.py``), so the two are not one cell."""
_PLAYER_CONTRACT = f"coalesce(d.contract, '{NO_CONTRACT}')"
"""A deal's contract over :func:`_player_deals` (whose ``contract`` is already as called), its
doubling kept: a player's success by contract has no column of defence modes."""
_DENOM = "regexp_extract(d.contract, '[0-9]+([A-Z]+)', 1)"


def _text(value: str) -> str:
    """A string of ours (a variant's name, a denomination) as an SQL literal."""
    return "'" + value.replace("'", "''") + "'"


def _list(values: Iterable[str]) -> str:
    return "[" + ", ".join(map(_text, values)) + "]"


def _without_endings(contract: str) -> str:
    """``contract`` (SQL over alias ``d``) without its variant's ``mode_endings`` (bridge
    ``4SX`` -> ``4S``): a contract's doubling is its defence mode, not another contract."""
    def ending(endings: tuple[str, ...]) -> str:  # the longest first: XX before X
        return _text("(" + "|".join(map(re.escape, sorted(endings, key=len, reverse=True)))
                     + ")$")

    cases = " ".join(f"WHEN {_text(v.name)} THEN regexp_replace({contract}, "
                     f"{ending(v.mode_endings)}, '')" for v in REGISTERED if v.mode_endings)
    return f"CASE d.variant {cases} ELSE {contract} END" if cases else contract


_CONTRACT = _without_endings(f"coalesce({_CALLED}, '{NO_CONTRACT}')")
"""A declared deal's cell on the Contracts page: the contract as called, without the endings
that say its defence mode (:func:`_without_endings`), ``no contract`` without one."""


_LADDERS = " ".join(f"WHEN {_text(v.name)} THEN {_list(v.denominations)}"
                    for v in REGISTERED if v.denominations)
CONTRACT_ORDER_SQL = f"""TRY_CAST(regexp_extract(d.contract, '([0-9]+)', 1) AS INTEGER),
    list_position(CASE d.variant {_LADDERS} END, {_DENOM}), d.contract"""
"""Contracts in bid order: level, then the variant's denomination ladder (its
``denominations``: Greek 4.1 S < C < D < H < NT, bridge C < D < H < S < NT); other grammars by
their text."""
_PARTNERSHIPS = _list(v.name for v in REGISTERED if v.partnerships)
"""The variants played in partnerships, where the declarer's partner is dummy."""
_POSITION = "(s.seat - (list_position(g.players, d.dealer) - 1) + len(g.players)) % len(g.players)"
_SITTING_OUT = " ".join(f"WHEN {_text(v.name)} THEN {v.dealer_sits_out_at}"
                        for v in REGISTERED if v.dealer_sits_out_at)
_SITS_OUT = (f"(s.player = d.dealer AND len(g.players) >= CASE d.variant {_SITTING_OUT} END)"
             if _SITTING_OUT else "FALSE")
"""The player sits the deal out: the dealer at a table of his variant's ``dealer_sits_out_at``
(Greek, Balkan and Russian with four)."""
_UNRATED = "('pass', 'sat out', 'no declarer', 'dummy')"
"""The roles with nothing to make or hold: a passer, a player sitting out, a deal nobody
declared, bridge's dummy. Every other role but ``declarer`` defends."""
_DEFENDS = f"(role <> 'declarer' AND role NOT IN {_UNRATED})"


def _where(con: Con, f: Filters, use_player: bool = True) -> tuple[str, list[object]]:
    """Game-level filter on alias ``g``: SQL with ``?`` placeholders and the values to bind. The
    player filter is a person (his label): the games where any of his names sat in its variant."""
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
        his, pairs = _is_person(con, f.player, "t.variant", "t.name")
        clauses.append(f"""g.game_id IN (
            SELECT t.game_id FROM (SELECT game_id, variant, unnest(players) AS name
                                   FROM {GAMES}) t
            WHERE {his})""")
        params += pairs
    return " AND ".join(clauses), params


_KEPT: weakref.WeakKeyDictionary[Con, dict[Hashable, str] | None] = weakref.WeakKeyDictionary()
"""Per connection: the temporary tables :func:`_kept` made on it, by key (``None``: the connection
may write, so nothing is kept)."""


def _kept(con: Con, key: Hashable, select: Callable[[], tuple[str, list[object]]]
          ) -> tuple[str, list[object]]:
    """``select()`` (SQL and its values) as a table to read from, and the values to bind.

    On a read-only connection (every page's, ``dashboards/db.py``) its rows are computed once
    into a temporary table, found again by ``key``, so the queries of one page run that start
    from the same rows (the people, a player's deals) do not compute them each time; on a
    connection that may write, the rows could change, so ``select()`` is returned as it is."""
    if con not in _KEPT:
        mode = con.execute("SELECT current_setting('access_mode')").fetchone()
        _KEPT[con] = {} if mode == ("read_only",) else None
    kept = _KEPT[con]
    if kept is None:
        return select()
    if key not in kept:
        name = f"trickbook_kept_{len(kept)}"
        sql, params = select()
        con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS {sql}", params)
        kept[key] = name
    return f"SELECT * FROM {kept[key]}", []


def _people(con: Con) -> str:
    """Every name at the table with its person (``variant, name, person_id, person``: the
    person's label), also on a database made before the people tables (``ingest/players.py``).
    """
    return _kept(con, "people", lambda: (people_sql(is_registered(con)), []))[0]


def _is_person(con: Con, person: str | None, variant: str, name: str
               ) -> tuple[str, list[object]]:
    """A condition that the row's ``variant`` and ``name`` columns are a name of the person
    labelled ``person``, and its values: his ``(variant, name)`` pairs are looked up first (one
    small query) and bound one by one, so DuckDB filters the scan of the deals by them (a
    subquery or a list here made the Player queries five to ten times slower on 1,000,000
    deals)."""
    pairs = con.execute(f"SELECT pp.variant, pp.name FROM ({_people(con)}) pp "
                        "WHERE pp.person = ? ORDER BY ALL", [person]).fetchall()
    if not pairs:
        return "FALSE", []
    sql = " OR ".join([f"({variant} = ? AND {name} = ?)"] * len(pairs))
    return f"({sql})", [str(x) for pair in pairs for x in pair]


def _as_person(con: Con, variant: str, name: str) -> str:
    """A join naming the person of each row by its ``variant`` and ``name`` columns (his
    label as ``pp.person``)."""
    return f"JOIN ({_people(con)}) pp ON pp.variant = {variant} AND pp.name = {name}"


def _frame(con: Con, sql: str, params: Sequence[object] | None = None) -> pl.DataFrame:
    return con.sql(sql, params=list(params or [])).pl()


# ---------------------------------------------------------------- filter choices and overview


def variants(con: Con) -> pl.DataFrame:
    return _frame(con, f"SELECT DISTINCT variant FROM {GAMES} ORDER BY variant")


def leagues(con: Con, f: Filters) -> pl.DataFrame:
    where, params = _where(con, Filters(variant=f.variant))
    sql = f"""SELECT DISTINCT g.league FROM {GAMES} g
              WHERE {where} AND g.league IS NOT NULL ORDER BY g.league"""
    return _frame(con, sql, params)


_SEATED = f"JOIN {STANDINGS} seated ON seated.game_id = t.game_id AND seated.player = t.name"
"""A join keeping the rows ``t`` (``game_id``, ``name``) of a player with a settled deal in
his game: its standings (records.md 2), which every settled deal's players have, the dealer
of four who sat it out too (paid by the rules). A solved deal nobody played (a DDS hand file,
docs/bridge.md) is not settled: its unnamed seats are no players, nor are a game's players
before any deal of it is settled."""


def players(con: Con, f: Filters) -> pl.DataFrame:
    """The people of the filtered games with a settled deal there (:data:`_SEATED`;
    ``player``: his label) and in how many of those games each, most games first, then by name
    as a reader sorts them (Ánna beside Anna, not after Zoe)."""
    where, params = _where(con, f, use_player=False)
    sql = f"""SELECT pp.person AS player, count(DISTINCT t.game_id) AS games
              FROM (SELECT g.game_id, g.variant, unnest(g.players) AS name FROM {GAMES} g
                    WHERE {where}) t {_SEATED} {_as_person(con, "t.variant", "t.name")}
              GROUP BY pp.person
              ORDER BY games DESC, player COLLATE NOACCENT.NOCASE, player"""
    return _frame(con, sql, params)


def date_span(con: Con) -> tuple[date | None, date | None]:
    row = _frame(
        con, f"SELECT min(CAST(started_at AS DATE)) AS lo, max(CAST(started_at AS DATE)) AS hi "
        f"FROM {GAMES}"
    ).row(0)
    return row[0], row[1]


def overview(con: Con, f: Filters) -> pl.DataFrame:
    """One row: games, deals, deals with cards, people in the filtered games with a settled
    deal there (:data:`_SEATED`, as :func:`players` lists them)."""
    where, params = _where(con, f)
    sql = f"""WITH fg AS (SELECT g.game_id, g.variant, g.players FROM {GAMES} g WHERE {where})
        SELECT (SELECT count(*) FROM fg) AS games,
               count(d.game_id) AS deals,
               count(d.game_id) FILTER (WHERE d.has_cards) AS deals_with_cards,
               (SELECT count(DISTINCT pp.person_id)
                FROM (SELECT game_id, variant, unnest(players) AS name FROM fg) t
                {_SEATED} {_as_person(con, "t.variant", "t.name")}) AS players
        FROM fg JOIN {DEALS} d ON d.game_id = fg.game_id"""
    return _frame(con, sql, params)


# ---------------------------------------------------------------- League


def league_standings(con: Con, f: Filters) -> pl.DataFrame:
    """Per league, season (year of ``started_at``), variant and person (``player``: his label):
    games and cash, in the variant's unit."""
    where, params = _where(con, f)
    sql = f"""SELECT coalesce(g.league, '(no league)') AS league,
                     year(g.started_at) AS season, g.variant, pp.person AS player,
                     count(*) AS games, count(*) FILTER (WHERE st.finished) AS finished,
                     sum(st.deals_played)::BIGINT AS deals_played,
                     sum(st.cash) AS cash, avg(st.cash) AS cash_per_game
              FROM {STANDINGS} st JOIN {GAMES} g ON g.game_id = st.game_id
              {_as_person(con, "st.variant", "st.player")}
              WHERE {where}
              GROUP BY ALL ORDER BY league, season, g.variant, cash DESC, player"""
    return _frame(con, sql, params)


def unsettled_games(con: Con, f: Filters) -> int:
    """How many of the filtered games wait in ``rescore_pending`` for their settlement (an
    ingest stopped by a second Ctrl-C while settling, or a settlement that failed): the
    standings lack their deals stored since the last settlement until ``trickbook score``
    runs."""
    if not has_table(con, PENDING):
        return 0
    where, params = _where(con, f)
    row = con.execute(f"""SELECT count(*) FROM {GAMES} g
                          WHERE g.game_id IN (SELECT game_id FROM {PENDING}) AND {where}""",
                      params).fetchone()
    return int(row[0]) if row else 0


def cash_over_time(con: Con, f: Filters, top: int = 10) -> pl.DataFrame:
    """Cumulative cash per variant and person by day, for the ``top`` people of each variant
    with most games (dated games). Money is never summed across variants: each has its unit."""
    where, params = _where(con, f)
    sql = f"""WITH per_day AS (
            SELECT g.variant, pp.person AS player, CAST(g.started_at AS DATE) AS day,
                   sum(st.cash) AS cash, count(*) AS games
            FROM {STANDINGS} st JOIN {GAMES} g ON g.game_id = st.game_id
            {_as_person(con, "st.variant", "st.player")}
            WHERE {where} AND g.started_at IS NOT NULL GROUP BY ALL),
        ranked AS (SELECT variant, player,
                          row_number() OVER (PARTITION BY variant
                                             ORDER BY sum(games) DESC, player) AS rank
                   FROM per_day GROUP BY variant, player)
        SELECT p.variant, p.player, p.day, p.cash,
               sum(p.cash) OVER (PARTITION BY p.variant, p.player ORDER BY p.day)
                   AS cumulative_cash
        FROM per_day p JOIN ranked k ON k.variant = p.variant AND k.player = p.player
        WHERE k.rank <= ?
        ORDER BY p.variant, p.player, p.day"""
    return _frame(con, sql, [*params, top])


def undated_cash(con: Con, f: Filters) -> pl.DataFrame:
    """Per variant and person, the games without ``started_at`` and their cash: counted in the
    standings, with no place on a time line."""
    where, params = _where(con, f)
    sql = f"""SELECT g.variant, pp.person AS player, count(*) AS games, sum(st.cash) AS cash
              FROM {STANDINGS} st JOIN {GAMES} g ON g.game_id = st.game_id
              {_as_person(con, "st.variant", "st.player")}
              WHERE {where} AND g.started_at IS NULL
              GROUP BY ALL ORDER BY g.variant, player"""
    return _frame(con, sql, params)


def games(con: Con, f: Filters, limit: int = 500) -> pl.DataFrame:
    where, params = _where(con, f)
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
    """Every settlement row of one game in deal and seat order, with the deal's headline
    and whether it was recorded with its cards."""
    sql = f"""SELECT s.*, d.dealer, d.declarer, {_CALLED} AS contract, d.has_cards
              FROM {SETTLEMENTS} s
              JOIN {DEALS} d ON d.game_id = s.game_id AND d.deal_no = s.deal_no {_OUTCOME}
              WHERE s.game_id = ? ORDER BY s.deal_no, s.seat"""
    return _frame(con, sql, [game_id])


def game_pairwise(con: Con, game_id: str) -> pl.DataFrame:
    """What each player wrote against each other one per deal in one game
    (:data:`PAIRWISE_TABLES`; empty where the game's variant keeps no such table)."""
    cols = ", ".join(PAIRWISE)
    parts = [f"SELECT {cols} FROM {t} WHERE game_id = ?" for t in PAIRWISE_TABLES
             if has_table(con, t)]
    if not parts:
        return pl.DataFrame(schema={"game_id": pl.String, "deal_no": pl.Int32,
                                    "writer": pl.String, "against": pl.String,
                                    "amount": pl.Int32})
    sql = " UNION ALL ".join(parts) + " ORDER BY deal_no, writer, against"
    return _frame(con, sql, [game_id] * len(parts))


def game_standings(con: Con, game_id: str) -> pl.DataFrame:
    sql = f"""SELECT player, cash, deals_played, finished FROM {STANDINGS}
              WHERE game_id = ? ORDER BY cash DESC, player"""
    return _frame(con, sql, [game_id])


# ---------------------------------------------------------------- Player


def _player_deals(con: Con, f: Filters) -> tuple[str, list[object]]:
    """The person's deals at the table (under any of his names) with his role, position, success
    and cash.

    Success comes from ``deal_outcomes``; only the player's own defence decision is read from the
    record (one JSON path per row of this player)."""
    where, params = _where(con, f.without_player())
    his, pairs = _is_person(con, f.player, "s.variant", "s.player")
    sql = f"""SELECT s.game_id, s.deal_no, s.cash, d.variant, {_CALLED} AS contract, g.started_at,
                     d.declarer, d.has_cards, o.declarer_tricks,
                     {_POSITION} AS position,
                     CASE WHEN {_SITS_OUT} THEN 'sat out'
                          WHEN d.declarer = s.player THEN 'declarer'
                          WHEN d.declarer IS NULL THEN 'no declarer'
                          WHEN list_contains({_PARTNERSHIPS}, d.variant) THEN
                              CASE WHEN (s.seat - list_position(g.players, d.declarer) + 1) % 2
                                        = 0 THEN 'dummy' ELSE 'defender' END
                          ELSE coalesce(json_extract_string(d.record, {_KEY_PATH}), 'defender')
                     END AS role,
                     CASE WHEN d.declarer = s.player THEN o.made END AS made,
                     o.made AS contract_made
              FROM {SETTLEMENTS} s
              JOIN {DEALS} d ON d.game_id = s.game_id AND d.deal_no = s.deal_no
              JOIN {GAMES} g ON g.game_id = s.game_id {_OUTCOME}
              WHERE {his} AND {where}"""
    return _kept(con, ("player deals", sql, *pairs, *params), lambda: (sql, [*pairs, *params]))


def player_summary(con: Con, f: Filters) -> pl.DataFrame:
    """One row: deals settled (``deals``: played, and sat out as the dealer of four, which
    pay him too), sat out, games, declared, made, defended, defence held, cash."""
    base, params = _player_deals(con, f)
    sql = f"""SELECT count(*) AS deals, count(*) FILTER (WHERE role = 'sat out') AS sat_out,
                     count(DISTINCT game_id) AS games,
                     count(*) FILTER (WHERE role = 'declarer') AS declared,
                     count(made) AS declared_counted,
                     count(*) FILTER (WHERE made) AS made,
                     count(*) FILTER (WHERE {_DEFENDS}) AS defended,
                     count(*) FILTER (WHERE {_DEFENDS} AND cash >= 0) AS defence_held,
                     coalesce(sum(cash), 0) AS cash,
                     coalesce(sum(cash) / nullif(count(*), 0), 0) AS cash_per_deal,
                     coalesce(sum(cash) / nullif(count(DISTINCT game_id), 0), 0) AS cash_per_game
              FROM ({base})"""
    return _frame(con, sql, params)


def field_summary(con: Con, f: Filters) -> pl.DataFrame:
    """The field for comparison: every player of the filtered games (without the player filter):
    the deals each played (``played``: not sat out as the dealer of four), declared, cash per
    deal settled.

    Each declared deal has exactly one declarer at the table, so "declared" counts deals."""
    where, params = _where(con, f.without_player())
    games = f"JOIN {GAMES} g ON g.game_id = x.game_id" if params else ""
    sql = f"""SELECT s.played, d.declared, s.cash_per_deal
              FROM (SELECT count(*) FILTER (WHERE NOT {_SITS_OUT}) AS played,
                           avg(s.cash) AS cash_per_deal
                    FROM {SETTLEMENTS} s
                    JOIN {DEALS} d ON d.game_id = s.game_id AND d.deal_no = s.deal_no
                    JOIN {GAMES} g ON g.game_id = s.game_id WHERE {where}) s,
                   (SELECT count(*) AS declared FROM {DEALS} x {games}
                    WHERE {where} AND x.declarer IS NOT NULL) d"""
    return _frame(con, sql, [*params, *params])


def player_cash(con: Con, f: Filters) -> pl.DataFrame:
    """Per variant (money is never summed across units): deals, games, cash, per deal and per
    game, and the field's cash per deal in the same games (every player, without the player
    filter)."""
    base, params = _player_deals(con, f)
    where, field_params = _where(con, f.without_player())
    sql = f"""WITH me AS (
                  SELECT variant, count(*) AS deals, count(DISTINCT game_id) AS games,
                         sum(cash) AS cash
                  FROM ({base}) GROUP BY variant),
              field AS (
                  SELECT g.variant, avg(x.cash) AS field_cash_per_deal
                  FROM {SETTLEMENTS} x JOIN {GAMES} g ON g.game_id = x.game_id
                  WHERE {where} GROUP BY g.variant)
              SELECT me.variant, me.deals, me.games, me.cash,
                     me.cash / me.deals AS cash_per_deal, me.cash / me.games AS cash_per_game,
                     field.field_cash_per_deal
              FROM me LEFT JOIN field ON field.variant = me.variant ORDER BY me.variant"""
    return _frame(con, sql, [*params, *field_params])


def player_roles(con: Con, f: Filters) -> pl.DataFrame:
    """Per variant, how often the player declares, plays, passes, invites ...: n, successes,
    cash."""
    base, params = _player_deals(con, f)
    sql = f"""SELECT variant, role, count(*) AS n,
                     CASE WHEN role IN {_UNRATED} THEN NULL
                          ELSE count(*) FILTER (WHERE CASE WHEN role = 'declarer' THEN made
                                                           ELSE cash >= 0 END) END AS ok,
                     sum(cash) AS cash, avg(cash) AS cash_per_deal
              FROM ({base}) GROUP BY variant, role ORDER BY variant, n DESC, role"""
    return _frame(con, sql, params)


_NEWEST = "started_at DESC NULLS LAST, game_id, deal_no DESC"
"""Newest first: the latest game first (undated games last) and in each game its last deal
first."""
DEAL_ORDERS = {
    "newest first": _NEWEST,
    "biggest losses first": f"cash ASC, {_NEWEST}",
    "biggest wins first": f"cash DESC, {_NEWEST}",
}
"""The orders of :func:`player_deal_list` (fixed SQL fragments, chosen by name); deals of
equal cash newest first."""


def player_deal_list(con: Con, f: Filters, order: str = "newest first",
                     limit: int = 1000, offset: int = 0) -> pl.DataFrame:
    """The player's deals: date, game (as a player knows it: its event or league and the names
    at its table, besides its id), deal, variant, role, contract (``no contract`` for a
    declared deal without one, a conceded Greek preliminary bid), result (of the contract,
    whoever declared it), declarer's tricks, cash; in one of :data:`DEAL_ORDERS`, a page of
    ``limit`` rows from ``offset`` (the page says how many)."""
    base, params = _player_deals(con, f)
    sql = f"""SELECT p.* EXCLUDE (k), concat_ws(' · ', coalesce(g.event, g.league),
                                                 array_to_string(g.players, ', ')) AS game
              FROM (SELECT started_at, game_id, deal_no, variant, role, declarer,
                           coalesce(contract, CASE WHEN declarer IS NOT NULL
                                                   THEN '{NO_CONTRACT}' END) AS contract,
                           CASE WHEN contract_made THEN 'made' WHEN NOT contract_made
                                THEN 'down' END AS result,
                           declarer_tricks, cash, has_cards, count(*) OVER () AS total,
                           row_number() OVER (ORDER BY {DEAL_ORDERS[order]}) AS k
                    FROM ({base}) ORDER BY k LIMIT ? OFFSET ?) p
              LEFT JOIN {GAMES} g ON g.game_id = p.game_id
              ORDER BY p.k"""
    return _frame(con, sql, [*params, limit, offset])


def player_contracts(con: Con, f: Filters) -> pl.DataFrame:
    """Declarer success by variant and contract (n counts deals whose outcome is known)."""
    base, params = _player_deals(con, f)
    sql = f"""SELECT * FROM (
                  SELECT d.variant, {_PLAYER_CONTRACT} AS contract, count(d.made) AS n,
                         count(*) FILTER (WHERE d.made) AS made, avg(d.cash) AS cash_per_deal
                  FROM ({base}) d WHERE d.role = 'declarer' GROUP BY ALL) d
              ORDER BY d.variant, {CONTRACT_ORDER_SQL}"""
    return _frame(con, sql, params)


def player_positions(con: Con, f: Filters) -> pl.DataFrame:
    """Per variant and seat from the dealer: the deals, declared (null for the deals sat out
    as the dealer of four, a row of their own: he cannot declare in them), cash per deal and
    cash."""
    base, params = _player_deals(con, f)
    sql = f"""SELECT variant, position, sat_out, deals,
                     CASE WHEN NOT sat_out THEN declared END AS declared, cash_per_deal, cash
              FROM (SELECT variant, position, role = 'sat out' AS sat_out, count(*) AS deals,
                           count(*) FILTER (WHERE role = 'declarer') AS declared,
                           avg(cash) AS cash_per_deal, sum(cash) AS cash
                    FROM ({base}) GROUP BY ALL)
              ORDER BY variant, position, sat_out"""
    return _frame(con, sql, params)


def player_over_time(con: Con, f: Filters) -> pl.DataFrame:
    base, params = _player_deals(con, f)
    sql = f"""SELECT m.*, sum(m.cash) OVER (PARTITION BY m.variant ORDER BY m.month)
                         AS cumulative
              FROM (SELECT variant, date_trunc('month', started_at)::DATE AS month,
                           count(*) AS deals,
                           count(*) FILTER (WHERE role = 'declarer') AS declared,
                           sum(cash) AS cash
                    FROM ({base}) WHERE started_at IS NOT NULL GROUP BY ALL) m
              ORDER BY m.variant, m.month"""
    return _frame(con, sql, params)


# ---------------------------------------------------------------- Contracts


def contract_rates(con: Con, f: Filters) -> pl.DataFrame:
    """Declared deals by variant, contract and defence mode: deals, n (outcome known), made.

    Outcomes come from the ``deal_outcomes`` view: no JSON is read; the games table is joined
    only when a game-level filter is set (``deals`` has the variant)."""
    where, params = _where(con, f)
    games = f"JOIN {GAMES} g ON g.game_id = d.game_id" if params else ""
    where = where if params else "TRUE"
    sql = f"""SELECT * FROM (
                  SELECT d.variant, {_CONTRACT} AS contract, {_MODE} AS mode,
                         count(*) AS deals,
                         count(o.made) AS n, count(*) FILTER (WHERE o.made) AS made
                  FROM {DEALS} d {games} {_OUTCOME}
                  WHERE {where} AND d.declarer IS NOT NULL
                  GROUP BY ALL) d
              ORDER BY d.variant, {CONTRACT_ORDER_SQL}, d.mode"""
    return _frame(con, sql, params)


def contract_deals(
    con: Con, f: Filters, variant: str, contract: str, mode: str | None = None, limit: int = 200
) -> pl.DataFrame:
    """The deals behind one cell of the contracts table (drill-down)."""
    where, params = _where(con, f)
    mode_clause, extra = (f"AND {_MODE} = ?", [mode]) if mode is not None else ("", [])
    sql = f"""SELECT d.game_id, d.deal_no, g.started_at, d.dealer, d.declarer,
                     {_CALLED} AS contract, {_MODE} AS mode, o.made, o.declarer_tricks, d.has_cards,
                     d.source, d.line
              FROM {DEALS} d JOIN {GAMES} g ON g.game_id = d.game_id {_OUTCOME}
              WHERE {where} AND d.variant = ? AND {_CONTRACT} = ? {mode_clause}
              ORDER BY g.started_at NULLS LAST, d.game_id, d.deal_no LIMIT ?"""
    return _frame(con, sql, [*params, variant, contract, *extra, limit])


# ---------------------------------------------------------------- Hand replayer


def _boards(con: Con) -> str:
    """A SELECT of ``game_id, deal_no, board``: the board number of every deal whose variant's
    flat table has one (``deals_bridge``, from the record's ``board``, records.md 1.2), read
    there rather than from the JSON records: a search by board then scans two integer columns,
    not every record (0.4-0.6 s on 1,000,000 deals)."""
    names = sorted({v.table.name for v in REGISTERED if "board" in v.table.columns})
    parts = [f"SELECT game_id, deal_no, board FROM {t}" for t in names if has_table(con, t)]
    return " UNION ALL ".join(parts) or (
        "SELECT NULL::VARCHAR AS game_id, NULL::INTEGER AS deal_no, NULL::INTEGER AS board "
        "WHERE FALSE")


def _card_deals_where(con: Con, f: Filters, search: str | None) -> tuple[str, list[object]]:
    """The deals with cards that match the filters and ``search`` (:func:`card_deals`): the SQL
    after ``FROM deals d JOIN games g`` and its values."""
    where, params = _where(con, f)
    sql = f"WHERE {where} AND d.has_cards"
    text = composed((search or "").strip())  # as names are known
    if text.isdigit():  # a deal or board number
        sql += f""" AND (d.deal_no = TRY_CAST(? AS INTEGER)
                         OR (d.game_id, d.deal_no) IN (SELECT b.game_id, b.deal_no
                                                       FROM ({_boards(con)}) b
                                                       WHERE b.board = TRY_CAST(? AS INTEGER)))"""
        params += [text, text]
    elif text:
        sql += """ AND (contains(lower(d.game_id), lower(?))
                        OR len(list_filter(g.players,
                                           lambda x: contains(lower(nfc_normalize(x)),
                                                              lower(?)))) > 0
                        OR CAST(CAST(g.started_at AS DATE) AS VARCHAR) = ?)"""
        params += [text, text, text]
    return sql, params


def card_deals(con: Con, f: Filters, search: str | None = None, limit: int = 200,
               offset: int = 0) -> pl.DataFrame:
    """Deals that carry their cards (``has_cards``), newest first, a page of ``limit`` from
    ``offset`` (:func:`card_deal_count` counts them all: no silent cap). ``search`` finds a game
    (part of its id, any case), a deal or board number, a player (part of his name, any case,
    either Unicode form) or a day
    (``YYYY-MM-DD``). The page is chosen from the narrow columns first and only its rows get
    their board (:func:`_boards`): no JSON record is read."""
    where, params = _card_deals_where(con, f, search)
    sql = f"""SELECT d.game_id, d.deal_no, d.variant, d.dealer, d.declarer,
                     {_CALLED} AS contract, d.started_at, b.board
              FROM (SELECT d.game_id, d.deal_no, d.variant, d.dealer, d.declarer, d.contract,
                           g.started_at
                    FROM {DEALS} d JOIN {GAMES} g ON g.game_id = d.game_id {where}
                    ORDER BY g.started_at DESC NULLS LAST, d.game_id, d.deal_no
                    LIMIT ? OFFSET ?) d
              LEFT JOIN ({_boards(con)}) b ON b.game_id = d.game_id AND b.deal_no = d.deal_no
              {_OUTCOME}
              ORDER BY d.started_at DESC NULLS LAST, d.game_id, d.deal_no"""
    return _frame(con, sql, [*params, limit, offset])


def card_deal_count(con: Con, f: Filters, search: str | None = None) -> int:
    """How many deals :func:`card_deals` pages through."""
    where, params = _card_deals_where(con, f, search)
    sql = f"""SELECT count(*) AS n FROM {DEALS} d JOIN {GAMES} g ON g.game_id = d.game_id
              {where}"""
    return int(_frame(con, sql, params)["n"][0])


def deal_detail(con: Con, game_id: str, deal_no: int) -> pl.DataFrame:
    """One deal with its game's players, start, event and the canonical record as JSON text."""
    sql = f"""SELECT d.game_id, d.deal_no, d.variant, g.players, d.dealer, d.declarer,
                     d.contract, d.has_cards, CAST(d.record AS VARCHAR) AS record,
                     g.started_at, g.event, g.league
              FROM {DEALS} d JOIN {GAMES} g ON g.game_id = d.game_id
              WHERE d.game_id = ? AND d.deal_no = ?"""
    return _frame(con, sql, [game_id, deal_no])


def deal_result(con: Con, game_id: str, deal_no: int) -> pl.DataFrame:
    """The deal's outcome (made, declarer's tricks) and each player's settlement (its row of
    ``settlements``: cash, bridge ``score_ns``, the Greek ``kassa_delta`` ...), in seat order."""
    sql = f"""SELECT s.*, o.made, o.declarer_tricks
              FROM {SETTLEMENTS} s
              LEFT JOIN {DEAL_OUTCOMES} o ON o.game_id = s.game_id AND o.deal_no = s.deal_no
              WHERE s.game_id = ? AND s.deal_no = ? ORDER BY s.seat"""
    return _frame(con, sql, [game_id, deal_no])


# ---------------------------------------------------------------- Club results (bridge)

_SIDES = f"""WITH e AS (
        SELECT e.*, CAST(g.started_at AS DATE) AS day, g.players,
               coalesce(bool_or(e.ns_pair = e.ew_pair) OVER (
                   PARTITION BY e.event, CAST(g.started_at AS DATE)), false) AS mitchell
        FROM {EVENT_RESULTS} e JOIN {GAMES} g ON g.game_id = e.game_id
        WHERE {{where}}),
    r AS (
        SELECT event, day, board, game_id, deal_no, match, ns_team, ew_team,
               coalesce(CASE WHEN mitchell THEN 'N-S ' END || ns_pair, ns_pair,
                        players[1] || ' & ' || players[3]) AS ns,
               coalesce(CASE WHEN mitchell THEN 'E-W ' END || ew_pair, ew_pair,
                        players[2] || ' & ' || players[4]) AS ew,
               score_ns, mp_ns, mp_ew, pct_ns, cross_imp_ns, team_imp_ns, mitchell
        FROM e),
    sides AS (
        SELECT event, day, ns AS pair, 'N-S' AS direction, match, board, game_id, deal_no,
               score_ns,
               mp_ns AS mp, mp_ns + mp_ew AS top, pct_ns AS pct, cross_imp_ns AS butler,
               team_imp_ns AS imps, mitchell, ns_team AS team, ew_team AS opponent FROM r
        UNION ALL
        SELECT event, day, ew, 'E-W', match, board, game_id, deal_no, -score_ns, mp_ew,
               mp_ns + mp_ew, 100 - pct_ns, 0 - cross_imp_ns, -team_imp_ns, mitchell, ew_team,
               ns_team FROM r)"""
"""Every board result once per pair (N-S and E-W), from ``event_results``
(scoring/bridge/event.py: matchpoints 2 per result beaten, Law 78A, on the event's top, Neuberg
where a board was played fewer times; IMPs, Law 78B). A pair is its number; in a Mitchell (some
board pits a pair number against the same number, so the numbers are counted per direction) it
is ``N-S 2`` or ``E-W 2``; a pair without a number is its two players (N-S first). A teams
board's ``match`` (the two teams, ``ingest.pbn.teams_match``) is kept with each side, and the
side's ``team`` and its ``opponent`` (the deal's ``ns_team`` / ``ew_team``). E-W's
cross-IMPs are ``0 - x``, never ``-0.0`` (shown "-0")."""


RANKINGS = {
    "percent": ("round(avg(pct), 2)", "avg(butler) DESC NULLS LAST"),
    "imps": ("coalesce(sum(imps), round(avg(butler), 2))", "avg(pct) DESC NULLS LAST"),
}
"""How :func:`event_rankings` ranks: by matchpoint percentage (pairs) or by IMPs (teams); a
pairs event by IMPs goes by cross-IMPs per board, as its percentage is per board (a pair that
sat out a round has played fewer boards). Pairs equal in it as the page shows it (to two
places) share a rank (3, 3, then 5), listed in the order of the second measure."""


def event_rankings(con: Con, f: Filters, by: str = "percent") -> pl.DataFrame:
    """Per event and day (session), each pair's boards, matchpoints of the top, percentage (the
    mean of its board percentages), cross-IMPs (and per board) and team IMPs (Law 78B: its
    match's two rooms compared on each of its boards) with its match (the two teams) and its
    team (both null in a pairs event, which has none), ranked as
    :data:`RANKINGS` says: in a Mitchell (pairs named by direction) within each direction, N-S
    first, as each direction's pairs are compared only with each other."""
    if not has_table(con, EVENT_RESULTS):
        return pl.DataFrame(schema={"event": pl.String, "day": pl.Date, "rank": pl.Int64,
                                    "pair": pl.String})
    where, params = _where(con, f)
    measure, then = RANKINGS[by]
    field = "CASE WHEN bool_or(mitchell) THEN any_value(direction) END"  # N-S, E-W, or one
    sql = _SIDES.format(where=where) + f"""
        SELECT event, day,
               rank() OVER (PARTITION BY event, day, {field}
                            ORDER BY {measure} DESC NULLS LAST) AS rank,
               pair, string_agg(DISTINCT direction, ', ' ORDER BY direction) AS direction,
               string_agg(DISTINCT match, ', ' ORDER BY match) AS match,
               string_agg(DISTINCT team, ', ' ORDER BY team) AS team,
               count(*) AS boards, sum(mp) AS matchpoints, sum(top)::BIGINT AS top,
               avg(pct) AS percent, sum(butler) AS cross_imps,
               avg(butler) AS cross_imps_per_board, sum(imps)::BIGINT AS imps
        FROM sides GROUP BY event, day, pair
        ORDER BY day DESC NULLS LAST, event, {field} DESC NULLS FIRST, rank, {then}, pair"""
    return _frame(con, sql, params)


_SEATED_ALIKE = f"""
    SELECT event, day, match, count(DISTINCT board) AS boards,
           string_agg(DISTINCT ns_team, ', ' ORDER BY ns_team) AS ns_teams
    FROM (SELECT e.event, CAST(g.started_at AS DATE) AS day, e.match, e.board, e.ns_team
          FROM {EVENT_RESULTS} e JOIN {GAMES} g ON g.game_id = e.game_id
          WHERE {{where}} AND e.match IS NOT NULL AND e.ns_team IS NOT NULL
          GROUP BY ALL HAVING count(*) > 1)
    GROUP BY event, day, match"""
"""The matches of which some board's two rooms seat the same team N-S (``ns_teams``), with the
boards so seated: no match is played so (one team's pairs sit N-S in one room and E-W in the
other, Law 78B), so the seats were read wrong, and which team won a board is not known. The
open and closed rooms of a match read from two PBN files without ``Room`` tags are each a
first table, the home team N-S (docs/bridge.md). Asked without the player filter, so a match
of which the filters keep one room is still seen."""


def seated_alike(con: Con, f: Filters) -> pl.DataFrame:
    """Per event and day (session), the matches of :data:`_SEATED_ALIKE`: left out of
    :func:`team_rankings`, named on the page as a data-quality note."""
    schema = {"event": pl.String, "day": pl.Date, "match": pl.String, "boards": pl.Int64,
              "ns_teams": pl.String}
    if not has_table(con, EVENT_RESULTS):
        return pl.DataFrame(schema=schema)
    where, params = _where(con, f, use_player=False)
    return _frame(con, _SEATED_ALIKE.format(where=where) + " ORDER BY day DESC NULLS LAST, "
                  "event, match", params)


def team_rankings(con: Con, f: Filters) -> pl.DataFrame:
    """Per event and day (session), each team of a teams event ranked by its net IMPs: its
    matches, opponents, boards compared, IMPs won and lost and their difference, and its
    pairs. A board's IMPs are the team's once per match however many of its rooms the filters
    keep: both rooms give the team the same figure (Law 78B: its N-S score in one room against
    the other room's; ``scoring/bridge/event.py``). Teams equal in net IMPs share a rank, listed
    by IMPs won. Empty for a pairs event (no deal names its teams). A match whose rooms seat
    the same team N-S (:func:`seated_alike`) is left out: it would give both teams every board."""
    schema = {"event": pl.String, "day": pl.Date, "rank": pl.Int64, "team": pl.String}
    if not has_table(con, EVENT_RESULTS):
        return pl.DataFrame(schema=schema)
    where, params = _where(con, f)
    alike, also = _where(con, f, use_player=False)
    sql = _SIDES.format(where=where) + f""",
    alike AS ({_SEATED_ALIKE.format(where=alike)}),
    seated AS (
        SELECT s.* FROM sides s ANTI JOIN alike a
        ON a.event = s.event AND a.day IS NOT DISTINCT FROM s.day AND a.match = s.match
        WHERE s.team IS NOT NULL),
    boards AS (
        SELECT event, day, team, match, board, max(imps) AS imps
        FROM seated GROUP BY event, day, team, match, board),
    teams AS (
        SELECT event, day, team, count(DISTINCT match) AS matches,
               string_agg(DISTINCT opponent, ', ' ORDER BY opponent) AS opponents,
               string_agg(DISTINCT pair, '; ' ORDER BY pair) AS pairs
        FROM seated GROUP BY event, day, team)
    SELECT b.event, b.day,
           rank() OVER (PARTITION BY b.event, b.day ORDER BY sum(b.imps) DESC NULLS LAST)
               AS rank,
           b.team, any_value(t.matches) AS matches, any_value(t.opponents) AS opponents,
           count(b.imps) AS boards,
           sum(greatest(b.imps, 0)) FILTER (WHERE b.imps IS NOT NULL)::BIGINT AS imps_for,
           sum(greatest(-b.imps, 0)) FILTER (WHERE b.imps IS NOT NULL)::BIGINT AS imps_against,
           sum(b.imps)::BIGINT AS net,
           any_value(t.pairs) AS pairs
    FROM boards b JOIN teams t ON t.event = b.event AND t.day IS NOT DISTINCT FROM b.day
                              AND t.team = b.team
    GROUP BY b.event, b.day, b.team
    ORDER BY b.day DESC NULLS LAST, b.event, rank, imps_for DESC NULLS LAST, b.team"""
    return _frame(con, sql, [*params, *also])


def pair_card(con: Con, f: Filters, event: str, pair: str) -> pl.DataFrame:
    """One pair's boards in an event: direction, contract, declarer, score (its side's view),
    matchpoints of the top, percentage, IMPs; with each deal's game, number and variant."""
    if not has_table(con, EVENT_RESULTS):
        return pl.DataFrame(schema={"board": pl.Int32})
    where, params = _where(con, f)
    sql = _SIDES.format(where=where) + f"""
        SELECT s.board, s.direction, d.contract, d.declarer, s.score_ns AS score,
               s.mp AS matchpoints, s.top, s.pct AS percent, s.butler AS cross_imps,
               s.imps, s.game_id, s.deal_no, d.has_cards, d.variant
        FROM sides s JOIN {DEALS} d ON d.game_id = s.game_id AND d.deal_no = s.deal_no
        WHERE s.event = ? AND s.pair = ?
        ORDER BY s.board, s.game_id"""
    return _frame(con, sql, [*params, event, pair])


# ---------------------------------------------------------------- Data quality


def ingest_log(con: Con, source: str | None = None) -> pl.DataFrame:
    clause, params = ("WHERE source = ?", [source]) if source else ("", [])
    sql = f"""SELECT source, sha256, records, stored, duplicates, quarantined, ingested_at
              FROM {INGEST_LOG} {clause} ORDER BY ingested_at DESC, source"""
    return _frame(con, sql, params)


def ingest_totals(con: Con, source: str | None = None) -> pl.DataFrame:
    """The records read, stored and duplicates of every ingest (of ``source``), added up, and
    the records quarantined now: each source's latest ingest's (the versions of an upload are
    one source, ``VERSIONS_OF``), whose quarantine replaced its earlier ones' (what
    :func:`quarantined_records` counts in the quarantine)."""
    clause, params = ("WHERE source = ?", [source]) if source else ("", [])
    sql = f"""SELECT coalesce(sum(records), 0)::BIGINT AS records,
                     coalesce(sum(stored), 0)::BIGINT AS stored,
                     coalesce(sum(duplicates), 0)::BIGINT AS duplicates,
                     coalesce(sum(now), 0)::BIGINT AS "quarantined now"
              FROM (SELECT sum(records) AS records, sum(stored) AS stored,
                           sum(duplicates) AS duplicates,
                           arg_max(quarantined, ingested_at) AS now
                    FROM {INGEST_LOG} {clause} GROUP BY {VERSIONS_OF})"""
    return _frame(con, sql, params)


def quarantine_summary(con: Con) -> pl.DataFrame:
    """Quarantined records by file and code (a row of several records of one line counts
    them all), and the issues of the file (rows keyed ``tables.FILE_KEY``: no record); the row
    of deals a file's latest version left out is not among them (:func:`quarantined_records`
    counts it)."""
    sql = f"""SELECT source, code, sum({HELD_RECORDS})::BIGINT AS records,
                     count(*) FILTER (WHERE record_key = '{FILE_KEY}') AS "issues of the file"
              FROM {QUARANTINE}
              WHERE NOT {DROPPED_ROW} GROUP BY ALL ORDER BY records DESC, source, code"""
    return _frame(con, sql)


def quarantined_records(con: Con, source: str | None = None, code: str | None = None
                        ) -> pl.DataFrame:
    """The records quarantined of ``source`` with ``code`` (as :func:`quarantine_summary`
    counts them), the rows of deals an earlier version stored that a file's latest version
    left out, kept as conflicts, and the issues of the file (no record)."""
    where, params = _quarantine_filter(source, code)
    sql = f"""SELECT coalesce(sum({HELD_RECORDS}) FILTER (WHERE NOT {DROPPED_ROW}), 0)::BIGINT
                     AS records, count(*) FILTER (WHERE {DROPPED_ROW}) AS dropped,
                     count(*) FILTER (WHERE record_key = '{FILE_KEY}') AS of_file
              FROM {QUARANTINE} WHERE {where}"""
    return _frame(con, sql, params)


def _quarantine_filter(source: str | None, code: str | None) -> tuple[str, list[object]]:
    clauses, params = ["TRUE"], []
    if source:
        clauses.append("source = ?")
        params.append(source)
    if code:
        clauses.append("code = ?")
        params.append(code)
    return " AND ".join(clauses), params


def quarantine(
    con: Con, source: str | None = None, code: str | None = None, limit: int = 1000
) -> pl.DataFrame:
    where, params = _quarantine_filter(source, code)
    sql = f"""SELECT source, nullif(line, 0) AS line, record_key, code, message, raw,
                     ingested_at
              FROM {QUARANTINE} WHERE {where} ORDER BY source, line NULLS FIRST LIMIT ?"""
    return _frame(con, sql, [*params, limit])


# ---------------------------------------------------------------- Balance (docs/balance-study.md)

_METRIC_COLUMNS = "m.metric, m.key, m.arm, m.n, m.estimate, m.lo, m.hi"


def _in_words(v: Variant, denomination: str) -> str:
    """A denomination as the variant writes it after a level (``S``: ``♠``; ``NT`` as it is)."""
    return v.call_words(f"6{denomination}").removeprefix("6")


_WORD_LADDERS = " ".join(
    f"WHEN {_text(v.name)} THEN "
    f"{_list(w for d in v.denominations for w in (_in_words(v, d), d))}"
    for v in REGISTERED if v.denominations)
"""Each variant's denomination ladder, each written as its players write it (``♠``) and as its
code (``S``), side by side: a study's contracts are in words (``sim/balance.py``), a study
stored before named them by code, and both take their place in the ladder."""
_KEY_ORDER = f"""m.key = 'all',
    list_position(['dealer', 'first hand', 'second hand'], m.key) NULLS LAST,
    TRY_CAST(regexp_extract(m.key, '^([0-9]+)', 1) AS INTEGER) NULLS LAST,
    list_position((SELECT CASE r.variant {_WORD_LADDERS} END FROM {BALANCE_RUNS} r
                   WHERE r.run_id = ?), regexp_extract(m.key, '^[0-9]+(.+)$', 1)), m.key"""
"""Keys in reading order: seat positions from the dealer, then levels and contracts by level and
the denomination ladder of the study's variant (the ``?`` is its ``run_id``;
:data:`_WORD_LADDERS`: Greek ♠ < ♣ < ♦ < ♥ < NT, greek-prefa.md 4.1), then by text (game names,
``no contract``), and ``all`` (every contract together) last, below its parts."""


BALANCE_RUN_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "run_id": pl.String, "variant": pl.String, "variant_b": pl.String, "rules_a": pl.String,
    "rules_b": pl.String, "games": pl.Int32, "deals_per_game": pl.Int32, "seed": pl.Int64,
    "play": pl.String, "deals": pl.Int32, "created_at": pl.Datetime("us", "UTC"),
}
"""The columns of :func:`balance_runs` (also when no study is stored)."""


def repairs(con: Con, source: str | None = None, limit: int = 1000) -> pl.DataFrame:
    """The named fixes readers made to records that were then stored (``repairs``, docs/ingest.md
    "Repairs"), per file; empty for a database without the table."""
    if not has_table(con, REPAIRS):
        return pl.DataFrame(schema={k: v for k, v in TABLES[REPAIRS].schema.items()
                                    if k != "ingested_at"})
    clause, params = ("WHERE source = ?", [source]) if source else ("", [])
    sql = f"""SELECT source, line, record_key, code, message FROM {REPAIRS} {clause}
              ORDER BY source, line, code LIMIT ?"""
    return _frame(con, sql, [*params, limit])


def deal_repairs(con: Con, game_id: str, deal_no: int) -> pl.DataFrame:
    """The named fixes a reader made to the stored deal (``repairs`` rows of the file and line
    it was stored from, docs/ingest.md "Repairs"): ``code``, ``message``; empty for a deal
    stored as read and for a database without the table."""
    if not has_table(con, REPAIRS):
        return pl.DataFrame(schema={"code": pl.String, "message": pl.String})
    sql = f"""SELECT r.code, r.message FROM {DEALS} d JOIN {REPAIRS} r
                ON r.source = d.source AND r.line = d.line
               AND r.record_key = d.game_id || '#' || d.deal_no::VARCHAR
              WHERE d.game_id = ? AND d.deal_no = ? ORDER BY r.code, r.message"""
    return _frame(con, sql, [game_id, deal_no])


def repair_counts(con: Con, source: str | None = None) -> dict[str, int]:
    """Of the ``repairs`` (of ``source``): the records a reader repaired and the pipeline kept
    (``records``; a record of two fixes is one), the fixes (``repairs``: the table's rows), and
    the records among them stored (``stored``: the deal of that file and line is in ``deals``;
    the others were duplicates of a deal stored before). Zeros for a database without the
    table."""
    if not has_table(con, REPAIRS):
        return {"records": 0, "repairs": 0, "stored": 0}
    clause, params = ("WHERE r.source = ?", [source]) if source else ("", [])
    sql = f"""SELECT count(DISTINCT (r.source, r.line, r.record_key)) AS records,
                     count(*) AS repairs,
                     count(DISTINCT (r.source, r.line, r.record_key))
                         FILTER (WHERE d.game_id IS NOT NULL) AS stored
              FROM {REPAIRS} r LEFT JOIN {DEALS} d
                ON d.source = r.source AND d.line = r.line
               AND r.record_key = d.game_id || '#' || d.deal_no::VARCHAR {clause}"""
    return _frame(con, sql, params).row(0, named=True)


SUPERSEDED_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "source": pl.String, "change": pl.String, "record_key": pl.String, "line": pl.Int32,
    "previous": pl.String, "version": pl.String, "ingested_at": pl.Datetime("us", "UTC"),
}
"""The columns of :func:`superseded`."""


def superseded(con: Con, source: str | None = None, limit: int = 1000) -> pl.DataFrame:
    """What a new version of a file replaced or dropped of the records its earlier version stored
    (``superseded``, docs/ingest.md "Versions of a source"), newest first; empty for a database
    without the table."""
    if not has_table(con, SUPERSEDED):
        return pl.DataFrame(schema=SUPERSEDED_SCHEMA)
    clause, params = ("WHERE source = ?", [source]) if source else ("", [])
    sql = f"""SELECT source, change, record_key, line, previous, version, ingested_at
              FROM {SUPERSEDED} {clause} ORDER BY ingested_at DESC, source, line LIMIT ?"""
    return _frame(con, sql, [*params, limit])


def superseded_count(con: Con, source: str | None = None) -> int:
    """The rows of ``superseded`` (of ``source``): each a record of an earlier version that a
    later one replaced or dropped, all of them (:func:`superseded` lists the latest 1,000); 0
    for a database without the table."""
    if not has_table(con, SUPERSEDED):
        return 0
    clause, params = ("WHERE source = ?", [source]) if source else ("", [])
    return int(_frame(con, f"SELECT count(*) AS n FROM {SUPERSEDED} {clause}", params)["n"][0])


def balance_runs(con: Con) -> pl.DataFrame:
    """Every stored balance study, newest first; empty when no study was ever stored (a database
    without the ``balance_*`` tables, ``sim/tables.py``)."""
    if not (has_table(con, BALANCE_RUNS) and has_table(con, BALANCE_METRICS)):
        return pl.DataFrame(schema=BALANCE_RUN_SCHEMA)
    cols = """run_id, variant, variant_b, CAST(rules_a AS VARCHAR) AS rules_a,
              CAST(rules_b AS VARCHAR) AS rules_b, games, deals_per_game, seed, play, deals,
              created_at"""
    return _frame(con, f"SELECT {cols} FROM {BALANCE_RUNS} ORDER BY created_at DESC, run_id")


def balance_metrics(con: Con, run_id: str, metric: str | None = None) -> pl.DataFrame:
    """The estimates of one study (``metric``, ``key``, ``arm``, ``n``, ``estimate``, 95% CI
    ``lo`` .. ``hi``), optionally of one metric, keys in reading order, arm a before b."""
    clause, extra = ("AND m.metric = ?", [metric]) if metric is not None else ("", [])
    sql = f"""SELECT {_METRIC_COLUMNS} FROM {BALANCE_METRICS} m
              WHERE m.run_id = ? {clause}
              ORDER BY m.metric, {_KEY_ORDER}, m.arm"""
    return _frame(con, sql, [run_id, *extra, run_id])


def balance_arms(con: Con, run_id: str, metric: str) -> pl.DataFrame:
    """One metric of one study with the two arms side by side: ``key``, then ``n``, ``estimate``,
    ``lo``, ``hi`` of arm a (``_a``) and arm b (``_b``); a key only one arm has gets nulls."""
    sql = f"""WITH m AS (SELECT * FROM {BALANCE_METRICS} WHERE run_id = ? AND metric = ?)
              SELECT coalesce(a.key, b.key) AS key,
                     a.n AS n_a, a.estimate AS estimate_a, a.lo AS lo_a, a.hi AS hi_a,
                     b.n AS n_b, b.estimate AS estimate_b, b.lo AS lo_b, b.hi AS hi_b
              FROM (SELECT * FROM m WHERE arm = 'a') a
              FULL JOIN (SELECT * FROM m WHERE arm = 'b') b ON a.key = b.key"""
    ordered = f"SELECT * FROM ({sql}) m ORDER BY {_KEY_ORDER}"
    return _frame(con, ordered, [run_id, metric, run_id])


def rules_change(rules_a: str, rules_b: str, variant: str = "", variant_b: str = "") -> str:
    """What arm b changes against arm a, in the words of arm b's variant's rules
    (:func:`dashboards.text.rule_words`): ``four aces: fixed chips`` (the rule ``four_aces`` set
    to ``fixed_chips``); the other variant when the arms play two variants; ``no change`` when
    both are the same."""
    a, b = json.loads(rules_a or "{}"), json.loads(rules_b or "{}")
    parts = [f"variant {variant_b}"] if variant_b and variant_b != variant else []
    arm_b = variant_b or variant
    changed = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    parts += [f"{rule_words(arm_b, k, None)[0]}: {value}"
              for k, value in zip(changed, arm_values(arm_b, changed, b), strict=True)]
    return ", ".join(parts) or "no change"


def balance_flag_effects(con: Con, run_id: str, key: str = "declarer money") -> pl.DataFrame:
    """The paired effect ``key`` (a ``flag_effect`` key) of every study that shares the chosen
    study's arm a (variant, rules, size, seed, play): one row per arm b, as ``trickbook balance
    --sweep`` stores them, with ``change`` naming what arm b changes."""
    sql = f"""SELECT r.run_id, r.variant, r.variant_b, CAST(r.rules_a AS VARCHAR) AS rules_a,
                     CAST(r.rules_b AS VARCHAR) AS rules_b, m.n, m.estimate, m.lo, m.hi
              FROM {BALANCE_RUNS} s
              JOIN {BALANCE_RUNS} r ON r.variant = s.variant
                   AND CAST(r.rules_a AS VARCHAR) = CAST(s.rules_a AS VARCHAR)
                   AND r.games = s.games AND r.deals_per_game = s.deals_per_game
                   AND r.seed = s.seed AND r.play = s.play
              JOIN {BALANCE_METRICS} m ON m.run_id = r.run_id AND m.metric = 'flag_effect'
                   AND m.arm = 'b-a' AND m.key = ?
              WHERE s.run_id = ?
              ORDER BY m.estimate DESC NULLS LAST, r.run_id"""
    out = _frame(con, sql, [key, run_id])
    change = [rules_change(r["rules_a"], r["rules_b"], r["variant"], r["variant_b"])
              for r in out.iter_rows(named=True)]
    return out.with_columns(pl.Series("change", change, pl.String)).select(
        "run_id", "change", "n", "estimate", "lo", "hi")
