"""The one-time upgrades of a database's stored records to what this version reads (docs/ingest.md,
"Databases made before"), applied when it is opened to be written (``store.connect``), each once:
its name is a row of ``upgrades``. A database made new has nothing to upgrade, and is marked so.

``calls spelled``: a deal stored before each variant spelled its calls as records.md 1.2 writes
them (``DealBase.spelled_call``) keeps them as typed (``6s``, bridge ``Dbl``), and so a canonical
JSON and a ``deal_key`` other than the same deal read now. A changed version of its file then
showed its unchanged deals changed (a ``deal-conflict`` each, or with ``--replace`` a deal
replaced by itself), and a file holding the same deals stored them again as conflicts. The
upgrade respells those calls in ``deals.record`` and recomputes ``deal_key``, in one transaction.

``conflicts judged again`` (after it, its own upgrade so that a database an earlier trickbook
respelled gets it too): the ``deal-conflict`` rows a read of the database before the respelling
quarantined (:func:`_judge_conflicts`): a row whose record now equals the stored deal is a
duplicate, so it leaves ``quarantine`` and its file's last ``ingest_log`` row counts it among
the duplicates.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import suppress

import duckdb
import polars as pl

from model import tables as T
from model import variants as registry
from model.identity import canonical, canonical_json, deal_key
from model.problems import Code
from model.tables import over_rows

CALLS_SPELLED = "calls spelled"
CONFLICTS_JUDGED = "conflicts judged again"

_CALLS = "json_extract_string(record::VARCHAR, '$.auction[*].call')"
"""SQL: the calls of a ``deals`` row's auction, as stored (``NULL`` without an auction)."""
_WITH_AUCTION = """contains(record::VARCHAR, '"auction":')"""
BATCH = 10_000
"""Deals respelled per statement."""


def apply(conn: duckdb.DuckDBPyConnection, made_now: bool) -> None:
    """Apply each upgrade the database lacks, each in its own transaction with its mark (a stop
    midway leaves the database as it was, and the next writer applies it). ``made_now``: the
    database had no table before this open, so only the marks are written."""
    done = {name for (name,) in conn.execute(f"SELECT upgrade FROM {T.UPGRADES}").fetchall()}
    for name, upgrade in ((n, u) for n, u in UPGRADES.items() if n not in done):
        conn.execute("BEGIN")
        try:
            changed = 0 if made_now else upgrade(conn)
            conn.execute(f"INSERT INTO {T.UPGRADES} (upgrade, deals) VALUES (?, ?)",
                         [name, changed])
            conn.execute("COMMIT")
        except BaseException:
            with suppress(duckdb.Error):  # a stopped statement may have ended it
                conn.execute("ROLLBACK")
            raise


def _respell_calls(conn: duckdb.DuckDBPyConnection,
                   variants: Callable[[str], registry.Variant] = registry.variant) -> int:
    """Respell the calls of the stored deals that are not as their variant spells them now;
    the deals changed. The calls stored are asked once as the distinct texts of each variant,
    so a database whose calls are all so spelled reads no record."""
    misspelt: dict[str, list[str]] = {}
    for name, call in conn.execute(
            f"SELECT DISTINCT variant, unnest({_CALLS}) FROM {T.DEALS} "
            f"WHERE {_WITH_AUCTION}").fetchall():
        try:
            spell = variants(name).deal_model.spelled_call
        except (KeyError, ValueError):  # a variant this version does not know: left as stored
            continue
        if isinstance(call, str) and spell(call) != call:
            misspelt.setdefault(name, []).append(call)
    return sum(_respell_variant(conn, name, calls, variants(name).deal_model.spelled_call)
               for name, calls in misspelt.items())


def _respell_variant(conn: duckdb.DuckDBPyConnection, name: str, calls: list[str],
                     spell: Callable[[str], str]) -> int:
    """Respell the deals of variant ``name`` that hold one of ``calls``, a batch at a time (by
    ``game_id, deal_no``, so that no batch's rows are all in memory at once); the deals."""
    changed, after = 0, ("", 0)
    while rows := conn.execute(
            f"SELECT game_id, deal_no, record::VARCHAR FROM {T.DEALS} "
            f"WHERE variant = ? AND {_WITH_AUCTION} AND list_has_any({_CALLS}, ?) "
            "AND (game_id, deal_no) > (?, ?) ORDER BY game_id, deal_no LIMIT ?",
            [name, calls, *after, BATCH]).fetchall():
        respelt = [_respelt(game_id, deal_no, record, spell) for game_id, deal_no, record in rows]
        frame = pl.DataFrame(respelt, schema={"game_id": pl.String(), "deal_no": pl.Int32(),
                                              "deal_key": pl.String(), "record": pl.String()},
                             orient="row")
        over_rows(conn.from_arrow(frame.to_arrow()), "respelt",
                  f"UPDATE {T.DEALS} AS d SET record = r.record, deal_key = r.deal_key "
                  "FROM respelt AS r WHERE d.game_id = r.game_id AND d.deal_no = r.deal_no")
        changed += len(rows)
        after = (rows[-1][0], rows[-1][1])
    return changed


def _respelt(game_id: str, deal_no: int, record: str,
             spell: Callable[[str], str]) -> tuple[str, int, str, str]:
    """A stored deal with its calls spelled (``spell``): its row, its canonical JSON (the record
    as stored, but for the calls) and its ``deal_key``."""
    deal = json.loads(record)
    for call in deal.get("auction") or ():
        call["call"] = spell(call["call"])
    text = canonical(deal)
    return game_id, deal_no, deal_key(game_id, text), text


_CONFLICTS = f"""
    SELECT q.source, q.line, q.raw, d.game_id, d.deal_no, d.variant, d.record::VARCHAR
    FROM (SELECT source, line, record_key, raw FROM {T.QUARANTINE}
          WHERE code = '{Code.DEAL_CONFLICT}' AND NOT {T.DROPPED_ROW} AND {T.HELD_RECORDS} = 1) q
    JOIN {T.DEALS} d ON q.record_key = d.game_id || '#' || d.deal_no"""
"""SQL: the ``deal-conflict`` rows that hold one record of their file (not the row of deals a
version dropped, nor several records of one line), each with the stored deal it is keyed by."""


_LAST_READ = f"""
    SELECT source, sha256 FROM {T.INGEST_LOG}
    WHERE {T.VERSIONS_OF} = (SELECT {T.VERSIONS_OF} FROM (SELECT ?::VARCHAR AS source))
    ORDER BY ingested_at DESC LIMIT 1"""
"""SQL: the ``ingest_log`` row of the last read of the file a quarantine row's ``source`` is a
version of (the read whose quarantine holds the row)."""


def _judge_conflicts(conn: duckdb.DuckDBPyConnection,
                       variants: Callable[[str], registry.Variant] = registry.variant) -> int:
    """Remove the ``deal-conflict`` rows of :data:`_CONFLICTS` whose record, read as this version
    reads it, is the stored deal now (its calls respelled): read again, it would be a duplicate.
    Each source's last ``ingest_log`` row then counts those records as duplicates, not
    quarantined (``scoring/checks.py``: ``quarantine_matches_last_ingest``). Only a row whose
    quarantined text is the record in canonical form (a JSON Lines deal line) can be read
    again alone; any other (a PBN game, a score-sheet row) stays until its file is read again.
    Returns the rows removed."""
    same = [(source, line) for source, line, raw, game_id, deal_no, name, stored
            in conn.execute(_CONFLICTS).fetchall()
            if _read_now(raw, game_id, deal_no, name, variants) == stored]
    for source, line in same:
        conn.execute(f"DELETE FROM {T.QUARANTINE} WHERE source = ? AND line = ?", [source, line])
        conn.execute(f"""UPDATE {T.INGEST_LOG} SET quarantined = quarantined - 1,
                                duplicates = duplicates + 1
                         WHERE (source, sha256) IN ({_LAST_READ})""", [source])
    return len(same)


def _read_now(raw: str, game_id: str, deal_no: int, name: str,
              variants: Callable[[str], registry.Variant]) -> str | None:
    """The canonical JSON this version reads ``raw`` as, a deal of variant ``name`` numbered
    ``deal_no`` in ``game_id``; ``None`` where ``raw`` is no such record (another format's
    text, a line cut short in the quarantine, a record the model refuses)."""
    try:
        data = json.loads(raw)
        if (not isinstance(data, dict) or data.get("game_id") != game_id
                or data.get("deal_no") != deal_no):
            return None
        return canonical_json(variants(name).deal_model.model_validate(data))
    except (ValueError, KeyError):  # pydantic's ValidationError is a ValueError
        return None


UPGRADES: dict[str, Callable[[duckdb.DuckDBPyConnection], int]] = {
    CALLS_SPELLED: _respell_calls,
    CONFLICTS_JUDGED: _judge_conflicts,
}
"""Every upgrade, in the order they are applied, and what it does: the records it changes (the
``deals`` of its ``upgrades`` row). A database whose calls an earlier trickbook respelled is
marked ``calls spelled`` and still gets ``conflicts judged again``."""
