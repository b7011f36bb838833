"""People, not names: which person each name at the table is (docs/ingest.md "People").

A game names its players as its source writes them. ``player_names`` holds, for every variant,
each name seen and the person it is; ``players`` holds the people: an id and the name shown for
him. Names are scoped by variant: within one variant a name is one person (as the settlements
already count it); the same name in two variants is two people until a user says otherwise. A
name is its text in Unicode's composed form (NFC): ``Ánna`` typed as ``A`` and an accent is the
``Ánna`` of the other files, one person.

* Ingest (and the simulator's writer) calls :func:`register` in the transaction that stores the
  games: each new ``(variant, name)`` is the person ``<variant>:<name>`` (content-derived, so a
  rebuilt database gets the same ids; the name in NFC), made with the name as his shown name if
  he is new. A name already known keeps its person: re-ingesting changes nothing.
* A user joins people with :func:`merge` (the second one's names become the first one's; merging
  twice changes nothing) and renames one with :func:`rename` (``trickbook players``).
* :func:`people_sql` is the read side: every name with its person and the person's label (his
  shown name, with its variants added where two people share a shown name), also for a database
  made before these tables (each name its own person) and for names not registered yet.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import duckdb
import polars as pl

from model.base import PRINTABLE, composed
from model.problems import counted
from model.tables import GAMES, PLAYER_NAMES, PLAYERS, SETTLEMENTS, has_table, insert

Con = duckdb.DuckDBPyConnection

MAX_NAME = 200
"""Longest shown name a rename accepts (names read from files are at most this long too)."""


class PersonError(ValueError):
    """A person that cannot be found, or found more than once, or a name that cannot be given:
    one line a user can act on."""


def person_id(variant: str, name: str) -> str:
    """The id of the person a name first seen in ``variant`` makes: ``<variant>:<name>``, the
    name in Unicode's composed form (NFC), so its two spellings are one person."""
    return f"{variant}:{composed(name)}"


_ID_SQL = "n.variant || ':' || nfc_normalize(n.name)"
""":func:`person_id` in SQL, over a row ``n`` with ``variant`` and ``name``."""


def _seen(games: str) -> str:
    """Every ``(variant, name)`` at the table of the games ``games`` (a SQL condition on ``g``)."""
    return f"SELECT DISTINCT g.variant, unnest(g.players) AS name FROM {GAMES} g WHERE {games}"


def register(conn: Con, game_ids: Iterable[str] | None = None) -> int:
    """Give every name of the games ``game_ids`` (all games with ``None``) that no person has yet
    its person (:func:`person_id`: a new one, or the one of the same name spelt in NFC). Returns
    how many names were registered; names already known are left as they are (re-ingesting a
    file changes nothing). Runs in the caller's transaction."""
    if game_ids is None:
        where, params = "TRUE", []
    else:
        ids = sorted(set(game_ids))
        if not ids:
            return 0
        where, params = "g.game_id IN (SELECT unnest(?::VARCHAR[]))", [ids]
    sql = f"""INSERT INTO {PLAYER_NAMES} (variant, name, person_id)
              SELECT n.variant, n.name, {_ID_SQL} FROM ({_seen(where)}) n
              WHERE n.name IS NOT NULL AND NOT EXISTS (
                  SELECT 1 FROM {PLAYER_NAMES} k WHERE k.variant = n.variant AND k.name = n.name)
              RETURNING person_id, name"""
    made = conn.execute(sql, params).fetchall()
    _add_people(conn, [(pid, composed(name)) for pid, name in made])
    return len(made)


def _add_people(conn: Con, made: list[tuple[str, str]]) -> None:
    """A person ``(person_id, name)`` for each name just registered (one there already is
    kept), inserted as every table's rows are (``model.tables.insert``: a few bound as lists)."""
    insert(conn, PLAYERS, pl.DataFrame(made, schema={"person_id": pl.String(),
                                                     "name": pl.String()}, orient="row"),
           or_ignore=True)


def people_sql(registered: bool) -> str:
    """A SELECT of ``variant, name, person_id, person``: every name at the table with its
    person's id and label. ``registered``: the database has ``players`` and ``player_names``
    (without them, or for a name not registered yet, a name is a person of its own, as
    :func:`register` would make it). The label is the person's shown name; where two people
    share one, it is followed by the person's variants, and where they share those too, by his
    id, so a label names one person."""
    unknown = (f"SELECT n.variant, n.name, {_ID_SQL} AS person_id, n.name AS shown "
               f"FROM ({_seen('TRUE')}) n")
    if registered:
        unknown += f""" WHERE NOT EXISTS (SELECT 1 FROM {PLAYER_NAMES} k
                                          WHERE k.variant = n.variant AND k.name = n.name)
            UNION ALL
            SELECT k.variant, k.name, k.person_id, coalesce(p.name, k.name) AS shown
            FROM {PLAYER_NAMES} k LEFT JOIN {PLAYERS} p ON p.person_id = k.person_id"""
    return f"""WITH pn AS ({unknown}),
        per AS (SELECT person_id, min(shown) AS shown,
                       string_agg(DISTINCT variant, ', ' ORDER BY variant) AS variants
                FROM pn GROUP BY person_id),
        lab AS (SELECT person_id,
                       CASE WHEN count(*) OVER (PARTITION BY shown) = 1 THEN shown
                            WHEN count(*) OVER (PARTITION BY shown, variants) = 1
                                THEN shown || ' (' || variants || ')'
                            ELSE shown || ' (' || person_id || ')' END AS person
                FROM per)
        SELECT pn.variant, pn.name, pn.person_id, lab.person
        FROM pn JOIN lab ON lab.person_id = pn.person_id"""


def is_registered(conn: Con) -> bool:
    """Whether the database has the people tables (a database made before them has not)."""
    return has_table(conn, PLAYERS) and has_table(conn, PLAYER_NAMES)


def resolve(conn: Con, who: str) -> str:
    """The id of the person ``who`` names: his id, the ``<variant>:<name>`` of one of his names,
    his label as `trickbook players list` and the dashboards show it (``Anna (greek-prefa)``),
    his shown name, or a name of his at the table (the last two only when they name one
    person; each compared in NFC). :class:`PersonError` when none or several match."""
    steps = (
        f"SELECT person_id FROM {PLAYERS} WHERE nfc_normalize(person_id) = ?",
        f"SELECT DISTINCT n.person_id FROM {PLAYER_NAMES} n WHERE {_ID_SQL} = ?",
        f"SELECT DISTINCT person_id FROM ({people_sql(True)}) WHERE nfc_normalize(person) = ?",
        f"SELECT person_id FROM {PLAYERS} WHERE nfc_normalize(name) = ?",
        f"SELECT DISTINCT person_id FROM {PLAYER_NAMES} WHERE nfc_normalize(name) = ?",
    )
    for sql in steps:
        found = sorted(str(r[0]) for r in conn.execute(sql, [composed(who)]).fetchall())
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise PersonError(f"{who!r} names {len(found)} people ({', '.join(found)}): "
                              "name one by its id")
    raise PersonError(f"no person {who!r}: `trickbook players list` shows every person with "
                      "his id and names")


def merge(conn: Con, keep: str, other: str) -> int:
    """Make ``other``'s names ``keep``'s (both as :func:`resolve` reads them) and drop
    ``other``; returns how many names moved (0 when they are one person already). Runs in one
    transaction."""
    conn.execute("BEGIN")
    try:
        into, gone = resolve(conn, keep), resolve(conn, other)
        moved = 0
        if into != gone:
            _refuse_two_seats(conn, into, gone, keep, other)
            moved = len(conn.execute(
                f"UPDATE {PLAYER_NAMES} SET person_id = ? WHERE person_id = ? RETURNING name",
                [into, gone]).fetchall())
            conn.execute(f"DELETE FROM {PLAYERS} WHERE person_id = ?", [gone])
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return moved


def _refuse_two_seats(conn: Con, into: str, gone: str, keep: str, other: str) -> None:
    """Two people who sat at one table are two people: merging them would count each deal of
    those games twice for one person (``PersonError``)."""
    found = conn.execute(f"""
        SELECT count(*), min(g.game_id) FROM {GAMES} g
        WHERE EXISTS (SELECT 1 FROM {PLAYER_NAMES} a WHERE a.person_id = ?
                      AND a.variant = g.variant AND list_contains(g.players, a.name))
          AND EXISTS (SELECT 1 FROM {PLAYER_NAMES} b WHERE b.person_id = ?
                      AND b.variant = g.variant AND list_contains(g.players, b.name))""",
        [into, gone]).fetchone()
    if found and found[0]:
        raise PersonError(
            f"{keep!r} and {other!r} sat at the same table in {counted(found[0], 'game')} "
            f"({found[1]!r} first): they are two people, and nothing was merged")


def rename(conn: Con, who: str, name: str) -> str:
    """Show the person ``who`` as ``name`` (in NFC, as names are); returns his id."""
    shown = composed(name.strip())
    if not shown:
        raise PersonError(f"cannot name a person {name[:60]!r}: the name is blank")
    if len(shown) > MAX_NAME or not re.match(PRINTABLE, shown):
        raise PersonError(f"cannot name a person {name[:60]!r}: a name is 1 to {MAX_NAME} "
                          "characters of text, with no control character")
    pid = resolve(conn, who)
    _refuse_an_id(conn, pid, shown)
    conn.execute(f"UPDATE {PLAYERS} SET name = ? WHERE person_id = ?", [shown, pid])
    return pid


def _refuse_an_id(conn: Con, pid: str, shown: str) -> None:
    """A shown name that is another person's id (or the ``<variant>:<name>`` of one of his
    names) would show one person under the other's id, and :func:`resolve` would read it as
    the other (``PersonError``)."""
    sql = f"""SELECT person_id FROM {PLAYERS} WHERE nfc_normalize(person_id) = $1
              UNION SELECT n.person_id FROM {PLAYER_NAMES} n WHERE {_ID_SQL} = $1"""
    other = sorted({str(r[0]) for r in conn.execute(sql, [shown]).fetchall()} - {pid})
    if other:
        raise PersonError(f"cannot show {pid!r} as {shown!r}: that is the id of another person "
                          f"({other[0]!r}); nothing was renamed")


def labels_of(conn: Con, shown: str) -> list[str]:
    """The labels of the people shown as ``shown`` (``people_sql``: followed by their variants
    or id where several share it), one per person."""
    sql = f"""SELECT DISTINCT l.person FROM ({people_sql(is_registered(conn))}) l
              JOIN {PLAYERS} p ON p.person_id = l.person_id WHERE p.name = ? ORDER BY 1"""
    return [str(r[0]) for r in conn.execute(sql, [shown]).fetchall()]


def people(conn: Con) -> pl.DataFrame:
    """Every person: ``person_id``, ``person`` (his label), ``names`` (``variant: name`` each)
    and ``deals`` (his settled deals at the table, all variants)."""
    dealt = f"""SELECT s.variant, s.player AS name, count(*) AS deals FROM {SETTLEMENTS} s
                GROUP BY ALL"""
    sql = f"""SELECT p.person_id, any_value(p.person) AS person,
                     list(p.variant || ': ' || p.name ORDER BY p.variant, p.name) AS names,
                     coalesce(sum(d.deals), 0)::BIGINT AS deals
              FROM ({people_sql(is_registered(conn))}) p
              LEFT JOIN ({dealt}) d ON d.variant = p.variant AND d.name = p.name
              GROUP BY p.person_id ORDER BY person, p.person_id"""
    return conn.sql(sql).pl()
