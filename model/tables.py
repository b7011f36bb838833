"""The stable DuckDB tables (``../shared/spec/records.md`` section 2): names and columns.

Table names are constants; every writer and every query uses them from here. Columns a variant
does not use are null (Greek fills ``kassa_*`` and ``chips``, Balkan ``bula_*`` and ``soups_*``,
bridge ``below_line`` ...). Each variant may add its own ``deals_<variant>`` table with the flat
columns its settlement kernel reads.

``deals`` and ``deals_greek`` declare no key: ``(game_id, deal_no)`` and ``deal_key`` are unique
there because ingest enforces it (it looks every deal up before storing it,
``ingest/pipeline.py``); a key index in DuckDB is an in-memory ART that grows with the table and
costs memory on every bulk load (docs/ingest.md "Memory").

``deals.record`` is VARCHAR holding the canonical JSON (records.md 1), which DuckDB's JSON
functions (``->``, ``->>``, ``json_extract_string`` ...) read as is: ingest writes only JSON it has
validated, and a JSON column would parse every record again on the way in. (A database made
before keeps its JSON column; both read alike.) ``deals.record`` and ``deals.deal_key`` are
stored with zstd: quicker to write at the commit than DuckDB's default string compression, and
smaller (docs/ingest.md "Speed").
"""

from __future__ import annotations

import duckdb
import polars as pl

GAMES = "games"
DEALS = "deals"
SETTLEMENTS = "settlements"
TRANSFERS = "transfers"
STANDINGS = "standings"
QUARANTINE = "quarantine"
INGEST_LOG = "ingest_log"
DEALS_GREEK = "deals_greek"

DDL: dict[str, str] = {
    GAMES: """
        CREATE TABLE IF NOT EXISTS games (
            game_id    VARCHAR PRIMARY KEY,
            variant    VARCHAR NOT NULL,
            players    VARCHAR[] NOT NULL,
            rules      JSON NOT NULL,
            started_at TIMESTAMPTZ,
            league     VARCHAR,
            event      VARCHAR,
            stake      VARCHAR,
            source     VARCHAR NOT NULL,
            line       INTEGER,
            record     JSON NOT NULL
        )""",
    DEALS: """
        CREATE TABLE IF NOT EXISTS deals (
            game_id    VARCHAR NOT NULL,
            deal_no    INTEGER NOT NULL,
            deal_key   VARCHAR NOT NULL USING COMPRESSION zstd,
            variant    VARCHAR NOT NULL,
            dealer     VARCHAR NOT NULL,
            declarer   VARCHAR,
            contract   VARCHAR,
            has_cards  BOOLEAN NOT NULL,
            source     VARCHAR NOT NULL,
            line       INTEGER,
            record     VARCHAR NOT NULL USING COMPRESSION zstd
        )""",
    DEALS_GREEK: """
        CREATE TABLE IF NOT EXISTS deals_greek (
            game_id     VARCHAR NOT NULL,
            deal_no     INTEGER NOT NULL,
            dealer      TINYINT NOT NULL,
            declarer    TINYINT,
            level       TINYINT,
            denom       TINYINT,
            mode        VARCHAR NOT NULL,
            whister     TINYINT,
            tricks_0    TINYINT,
            tricks_1    TINYINT,
            tricks_2    TINYINT,
            tricks_3    TINYINT,
            four_aces   BOOLEAN NOT NULL,
            preliminary BOOLEAN NOT NULL
        )""",
    SETTLEMENTS: """
        CREATE TABLE IF NOT EXISTS settlements (
            game_id     VARCHAR NOT NULL,
            deal_no     INTEGER NOT NULL,
            player      VARCHAR NOT NULL,
            seat        TINYINT NOT NULL,
            variant     VARCHAR NOT NULL,
            cash        DOUBLE NOT NULL,
            chips       DOUBLE,
            kassa_delta INTEGER,
            kassa_after INTEGER,
            bula_delta  INTEGER,
            bula_after  INTEGER,
            soups_left  INTEGER,
            soups_right INTEGER,
            refa_used   BOOLEAN,
            below_line  INTEGER,
            above_line  INTEGER,
            vulnerable  BOOLEAN,
            score_ns    INTEGER,
            PRIMARY KEY (game_id, deal_no, player)
        )""",
    TRANSFERS: """
        CREATE TABLE IF NOT EXISTS transfers (
            game_id VARCHAR NOT NULL,
            deal_no INTEGER NOT NULL,
            payer   VARCHAR NOT NULL,
            payee   VARCHAR NOT NULL,
            amount  DOUBLE NOT NULL,
            PRIMARY KEY (game_id, deal_no, payer, payee)
        )""",
    STANDINGS: """
        CREATE TABLE IF NOT EXISTS standings (
            game_id      VARCHAR NOT NULL,
            player       VARCHAR NOT NULL,
            variant      VARCHAR NOT NULL,
            cash         DOUBLE NOT NULL,
            deals_played INTEGER NOT NULL,
            finished     BOOLEAN NOT NULL,
            PRIMARY KEY (game_id, player)
        )""",
    QUARANTINE: """
        CREATE TABLE IF NOT EXISTS quarantine (
            source      VARCHAR NOT NULL,
            line        INTEGER NOT NULL,
            record_key  VARCHAR,
            code        VARCHAR NOT NULL,
            message     VARCHAR NOT NULL,
            raw         VARCHAR NOT NULL,
            ingested_at TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (source, line)
        )""",
    INGEST_LOG: """
        CREATE TABLE IF NOT EXISTS ingest_log (
            source      VARCHAR NOT NULL,
            sha256      VARCHAR NOT NULL,
            records     INTEGER NOT NULL,
            stored      INTEGER NOT NULL,
            duplicates  INTEGER NOT NULL,
            quarantined INTEGER NOT NULL,
            ingested_at TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (source, sha256)
        )""",
}

DEALS_SWABIAN = "deals_swabian"
DDL[DEALS_SWABIAN] = """
        CREATE TABLE IF NOT EXISTS deals_swabian (
            game_id   VARCHAR NOT NULL,
            deal_no   INTEGER NOT NULL,
            dealer    TINYINT NOT NULL,
            declarer  TINYINT,
            game      TINYINT,
            hand      BOOLEAN NOT NULL,
            tricks_0  TINYINT,
            tricks_1  TINYINT,
            tricks_2  TINYINT,
            contra_0  TINYINT NOT NULL,
            contra_1  TINYINT NOT NULL,
            contra_2  TINYINT NOT NULL,
            kunstwerk BOOLEAN NOT NULL,
            PRIMARY KEY (game_id, deal_no)
        )"""

DEALS_BRIDGE = "deals_bridge"
EVENT_RESULTS = "event_results"
DD_TABLES = "dd_tables"
DDL[DEALS_BRIDGE] = """
        CREATE TABLE IF NOT EXISTS deals_bridge (
            game_id         VARCHAR NOT NULL,
            deal_no         INTEGER NOT NULL,
            event           VARCHAR,
            match           VARCHAR,
            room            VARCHAR,
            board           INTEGER,
            ns_pair         VARCHAR,
            ew_pair         VARCHAR,
            dealer          TINYINT NOT NULL,
            declarer        TINYINT,
            level           TINYINT,
            denom           TINYINT,
            doubled         TINYINT,
            tricks          TINYINT,
            vul_ns          BOOLEAN,
            vul_ew          BOOLEAN,
            honours_ns      SMALLINT NOT NULL,
            honours_ew      SMALLINT NOT NULL,
            stated_score_ns INTEGER,
            PRIMARY KEY (game_id, deal_no)
        )"""
DDL[EVENT_RESULTS] = """
        CREATE TABLE IF NOT EXISTS event_results (
            event       VARCHAR NOT NULL,
            board       INTEGER NOT NULL,
            game_id     VARCHAR NOT NULL,
            deal_no     INTEGER NOT NULL,
            match       VARCHAR,
            room        VARCHAR,
            ns_pair     VARCHAR,
            ew_pair     VARCHAR,
            score_ns    INTEGER NOT NULL,
            tables      INTEGER NOT NULL,
            mp_ns       DOUBLE NOT NULL,
            mp_ew       DOUBLE NOT NULL,
            pct_ns      DOUBLE,
            cross_imp_ns DOUBLE,
            team_imp_ns INTEGER,
            PRIMARY KEY (game_id, deal_no)
        )"""
DDL[DD_TABLES] = """
        CREATE TABLE IF NOT EXISTS dd_tables (
            game_id     VARCHAR NOT NULL,
            deal_no     INTEGER NOT NULL,
            denom       TINYINT NOT NULL,
            declarer    TINYINT NOT NULL,
            tricks      TINYINT NOT NULL,
            par_ns      INTEGER NOT NULL,
            par_contracts VARCHAR NOT NULL,
            PRIMARY KEY (game_id, deal_no, denom, declarer)
        )"""

DEALS_BALKAN = "deals_balkan"
DDL[DEALS_BALKAN] = """
        CREATE TABLE IF NOT EXISTS deals_balkan (
            game_id       VARCHAR NOT NULL,
            deal_no       INTEGER NOT NULL,
            dealer        TINYINT NOT NULL,
            declarer      TINYINT,
            number        TINYINT,
            igra          BOOLEAN NOT NULL,
            mode          VARCHAR NOT NULL,
            lead_defender TINYINT,
            kontra_0      TINYINT NOT NULL,
            kontra_1      TINYINT NOT NULL,
            kontra_2      TINYINT NOT NULL,
            kontra_3      TINYINT NOT NULL,
            tricks_0      TINYINT,
            tricks_1      TINYINT,
            tricks_2      TINYINT,
            tricks_3      TINYINT,
            repealed      BOOLEAN NOT NULL,
            PRIMARY KEY (game_id, deal_no)
        )"""


CARD_REVIEW = "card_review"
DEAL_REVIEW = "deal_review"
DECISION_REVIEW = "decision_review"
DDL[CARD_REVIEW] = """
        CREATE TABLE IF NOT EXISTS card_review (
            game_id      VARCHAR NOT NULL,
            deal_no      INTEGER NOT NULL,
            card_no      TINYINT NOT NULL,
            player       VARCHAR NOT NULL,
            side         VARCHAR NOT NULL,
            card         VARCHAR NOT NULL,
            value_before TINYINT NOT NULL,
            value_after  TINYINT NOT NULL,
            cost         TINYINT NOT NULL,
            best_cards   VARCHAR[] NOT NULL
        )"""
DDL[DEAL_REVIEW] = """
        CREATE TABLE IF NOT EXISTS deal_review (
            game_id     VARCHAR NOT NULL,
            deal_no     INTEGER NOT NULL,
            variant     VARCHAR NOT NULL,
            declarer    VARCHAR,
            contract    VARCHAR,
            fewest      BOOLEAN,
            result      TINYINT,
            value_start TINYINT,
            value_end   TINYINT,
            claimed     BOOLEAN,
            cards       SMALLINT NOT NULL,
            skipped     VARCHAR
        )"""
DDL[DECISION_REVIEW] = """
        CREATE TABLE IF NOT EXISTS decision_review (
            game_id      VARCHAR NOT NULL,
            deal_no      INTEGER NOT NULL,
            decision_no  TINYINT NOT NULL,
            player       VARCHAR NOT NULL,
            kind         VARCHAR NOT NULL,
            choice       VARCHAR NOT NULL,
            best         VARCHAR[] NOT NULL,
            value_choice INTEGER NOT NULL,
            value_best   INTEGER NOT NULL,
            cost         INTEGER,
            correct      BOOLEAN NOT NULL
        )"""
"""The review of play (docs/review.md): a row per recorded card and per decision, a row per
deal looked at (``skipped`` says why a deal has no card rows). Keyed by ``(game_id, deal_no)``
and ``card_no`` or ``decision_no``, without a declared key, like ``deals``: the review writes a
deal's rows once, in one transaction, and only for deals without a ``deal_review`` row."""

PENDING = "rescore_pending"
"""Games whose settlements must be recomputed: ingest marks them in the same transaction as their
deals and the rescore that follows clears them, so an interrupted rescore is finished by the next
run (``docs/ingest.md``)."""
PENDING_DDL = f"CREATE TABLE IF NOT EXISTS {PENDING} (game_id VARCHAR PRIMARY KEY)"


def insert(conn: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame) -> int:
    """Append ``frame`` to ``table`` by column name through Arrow (missing columns are null;
    values are bound, never spliced into SQL). The one way rows enter the stable tables."""
    if frame.height == 0:
        return 0
    conn.register("_trickbook_rows", frame.to_arrow())
    try:
        conn.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _trickbook_rows")
    finally:
        conn.unregister("_trickbook_rows")
    return frame.height
