"""``trickbook players`` (docs/cli.md) and the people ingest makes (``ingest/players.py``): a new
name is a person of its own, names join only when a user merges them, re-ingesting and merging
again change nothing. The samples: "Anna" plays Greek Prefa in ``data/samples/league.jsonl`` and
bridge in ``data/samples/bridge/rubber-session.jsonl``."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from dashboards.filters import Filters
from dashboards.queries import league_standings
from model.base import check_seats
from tests.cli.test_commands import _rows
from tests.conftest import ROOT
from trickbook.cli import app

runner = CliRunner()
SAMPLES = ROOT / "data" / "samples"
GREEK, BRIDGE = SAMPLES / "league.jsonl", SAMPLES / "bridge" / "rubber-session.jsonl"


def _run(db: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--db", str(db)])
    return result.exit_code, result.stdout, result.stderr


def _people(db: Path) -> list[tuple]:
    return _rows(db, "SELECT person_id, name FROM players ORDER BY ALL")


def _names(db: Path) -> list[tuple]:
    return _rows(db, "SELECT variant, name, person_id FROM player_names ORDER BY ALL")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "club.duckdb"
    assert _run(path, "ingest", str(GREEK), str(BRIDGE))[0] == 0
    return path


def test_ingest_gives_every_new_name_a_person_of_its_own(db: Path) -> None:
    seen = _rows(db, "SELECT DISTINCT variant, unnest(players) FROM games ORDER BY ALL")
    names = _names(db)
    assert [(v, n) for v, n, _ in names] == [tuple(r) for r in seen]
    assert all(pid == f"{v}:{n}" for v, n, pid in names)
    assert ("greek-prefa:Anna", "Anna") in _people(db)
    assert ("bridge-rubber:Anna", "Anna") in _people(db)  # one name, two variants: two people
    assert len(_people(db)) == len(names)


def test_re_ingest_changes_nothing(db: Path) -> None:
    before = (_people(db), _names(db))
    assert _run(db, "ingest", str(GREEK), str(BRIDGE))[0] == 0
    assert (_people(db), _names(db)) == before


def test_list_shows_people_their_names_and_deals(db: Path) -> None:
    code, out, _ = _run(db, "players", "list")
    assert code == 0
    annas = [line for line in out.splitlines() if line.startswith("Anna")]
    assert len(annas) == 2  # two people named Anna, each labelled with his variant
    deals = dict(_rows(db, "SELECT variant, count(*) FROM settlements WHERE player = 'Anna' "
                           "GROUP BY variant"))
    assert any(f"{deals['bridge-rubber']:,} deals" in line and "bridge-rubber: Anna" in line
               for line in annas)
    assert any(f"{deals['greek-prefa']:,} deals" in line and "greek-prefa: Anna" in line
               for line in annas)


def test_merge_joins_the_names_and_again_changes_nothing(db: Path) -> None:
    code, out, _ = _run(db, "players", "merge", "greek-prefa:Anna", "bridge-rubber:Anna")
    assert code == 0 and "1 name(s)" in out
    assert ("bridge-rubber", "Anna", "greek-prefa:Anna") in _names(db)
    assert "bridge-rubber:Anna" not in [pid for pid, _ in _people(db)]
    after = (_people(db), _names(db))
    code, out, _ = _run(db, "players", "merge", "greek-prefa:Anna", "bridge-rubber:Anna")
    assert code == 0 and "nothing changed" in out
    assert (_people(db), _names(db)) == after
    code, out, _ = _run(db, "players", "list")
    anna = [line for line in out.splitlines() if line.startswith("Anna")]
    assert len(anna) == 1 and "bridge-rubber: Anna" in anna[0] and "greek-prefa: Anna" in anna[0]
    # a later file's "Anna" of either variant is that one person
    assert _run(db, "ingest", str(BRIDGE))[0] == 0
    assert (_people(db), _names(db)) == after


def test_merge_takes_the_labels_the_list_shows(db: Path) -> None:
    """Two people sharing a shown name are listed as ``Anna (greek-prefa)`` and ``Anna
    (bridge-rubber)``; a user copies those labels into the merge."""
    _, out, _ = _run(db, "players", "list")
    assert "Anna (greek-prefa)" in out and "Anna (bridge-rubber)" in out
    code, out, _ = _run(db, "players", "merge", "Anna (greek-prefa)", "Anna (bridge-rubber)")
    assert code == 0 and "1 name(s)" in out
    assert ("bridge-rubber", "Anna", "greek-prefa:Anna") in _names(db)


def test_rename_changes_the_shown_name_only(db: Path) -> None:
    code, out, _ = _run(db, "players", "rename", "bridge-rubber:Anna", "Anna Papadopoulou")
    assert code == 0 and "bridge-rubber:Anna" in out
    assert ("bridge-rubber:Anna", "Anna Papadopoulou") in _people(db)
    assert ("bridge-rubber", "Anna", "bridge-rubber:Anna") in _names(db)
    # now the shown name is one person's: it names him
    code, _, _ = _run(db, "players", "rename", "Anna Papadopoulou", "Anna P.")
    assert code == 0 and ("bridge-rubber:Anna", "Anna P.") in _people(db)


def test_a_rename_to_a_name_another_person_shows_says_how_the_pages_tell_them_apart(
        db: Path) -> None:
    """Two people may be shown by one name (the Greek and the bridge Anna of
    data/samples/league.jsonl and the bridge samples): the rename says so, with the labels the
    pages show them by and how to make them one person (docs/cli.md)."""
    assert _run(db, "players", "rename", "bridge-rubber:Anna", "Anna Papadopoulou")[0] == 0
    code, out, _ = _run(db, "players", "rename", "greek-prefa:Anna", "Anna Papadopoulou")
    out = " ".join(out.split())
    assert code == 0 and "2 people are shown as 'Anna Papadopoulou' now" in out
    assert "'Anna Papadopoulou (bridge-rubber)', 'Anna Papadopoulou (greek-prefa)'" in out
    code, out, _ = _run(db, "players", "rename", "greek-prefa:Anna", "Anna K.")
    assert code == 0 and "people are shown" not in out


def test_unknown_or_ambiguous_person_is_a_clear_error(db: Path) -> None:
    before = (_people(db), _names(db))
    code, _, err = _run(db, "players", "merge", "greek-prefa:Anna", "Nobody'); DROP TABLE x;--")
    assert code == 1 and "no person \"Nobody'); DROP TABLE x;--\"" in err
    assert "Traceback" not in err
    code, _, err = _run(db, "players", "rename", "Anna", "X")  # two people are named Anna
    assert code == 1 and "2 people" in err and "bridge-rubber:Anna" in err
    code, _, err = _run(db, "players", "rename", "bridge-rubber:Anna", "  ")
    assert code == 1 and "cannot name a person '  ': the name is blank" in err  # not "1 to 200"
    code, _, err = _run(db, "players", "rename", "bridge-rubber:Anna", "A\x9bred")  # C1 control
    assert code == 1 and "no control character" in err
    # another person's id as a shown name would show the bridge Anna as the Greek one
    code, _, err = _run(db, "players", "rename", "bridge-rubber:Anna", "greek-prefa:Anna")
    assert code == 1 and "the id of another person ('greek-prefa:Anna')" in err
    assert (_people(db), _names(db)) == before
    # his own id is his
    assert _run(db, "players", "rename", "bridge-rubber:Anna", "bridge-rubber:Anna")[0] == 0
    code, _, err = _run(db.with_name("none.duckdb"), "players", "list")
    assert code == 2  # in the words of every other command (tests/cli/test_cli.py)
    assert f"no database at {db.with_name('none.duckdb')} (run `trickbook ingest` first)" in err


def test_a_database_made_before_the_tables_gets_them(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    assert _run(path, "ingest", str(GREEK))[0] == 0
    con = duckdb.connect(str(path))
    con.execute("DROP TABLE players; DROP TABLE player_names")
    con.close()
    code, out, _ = _run(path, "players", "list")
    assert code == 0 and out.startswith("Anna")
    # the listing only reads (it opened the file for writing, so a read-only file was refused
    # with "no permission to write"); a command that writes gives the names their people
    assert not {"players", "player_names"} & {
        t for (t,) in _rows(path, "SELECT table_name FROM duckdb_tables()")}
    assert _run(path, "players", "rename", "greek-prefa:Anna", "Anna")[0] == 0
    assert ("greek-prefa:Anna", "Anna") in _people(path)


def test_two_people_of_one_table_are_never_merged(db: Path) -> None:
    """Merging Boris into Anna, who sat at the same Greek tables (data/samples/league.jsonl),
    gave one person two seats and counted each of those deals twice in his total."""
    before = (_people(db), _names(db))
    code, _, err = _run(db, "players", "merge", "greek-prefa:Anna", "greek-prefa:Boris")
    assert code == 1 and "sat at the same table in 2 games" in err, err
    assert "nothing was merged" in err
    assert (_people(db), _names(db)) == before



def test_a_name_in_two_unicode_forms_is_one_person(tmp_path: Path) -> None:
    """``Ánna`` composed (NFC) in the first game and as ``A`` and an accent (NFD, as some
    systems write it) in the others: one person (ingest/players.py ``person_id``), one row of
    standings (dashboards/queries.py)."""
    composed, decomposed = "\u00c1nna", "A\u0301nna"
    first = GREEK.read_text(encoding="utf-8").splitlines()[0].split('"game_id": "')[1][:25]
    lines = [line.replace("Anna", composed if first in line else decomposed)
             for line in GREEK.read_text(encoding="utf-8").splitlines()]
    path = tmp_path / "league.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "club.duckdb"
    assert _run(db, "ingest", str(path))[0] == 0
    ids = {pid for v, name, pid in _names(db) if name in (composed, decomposed)}
    assert ids == {f"greek-prefa:{composed}"}
    assert [n for _, n in _people(db) if n in (composed, decomposed)] == [composed]
    conn = duckdb.connect(str(db), read_only=True)
    try:
        standings = league_standings(conn, Filters())
    finally:
        conn.close()
    assert standings.filter(pl.col("player") == composed).height == 1
    assert standings.filter(pl.col("player") == decomposed).is_empty()


def test_one_name_twice_at_a_table_in_two_unicode_forms_is_refused() -> None:
    """model/base.py ``check_seats``: two seats whose names are one person's."""
    with pytest.raises(ValueError, match=r"named twice.*another Unicode form"):
        check_seats("greek-prefa", ("\u00c1nna", "A\u0301nna", "Boris"), (3,))


def test_a_person_is_found_by_his_name_in_either_unicode_form(db: Path) -> None:
    """``trickbook players rename``, then the new name typed decomposed finds him
    (ingest/players.py ``resolve``)."""
    assert _run(db, "players", "rename", "greek-prefa:Anna", "\u00c1nna")[0] == 0
    code, _out, err = _run(db, "players", "rename", "A\u0301nna", "Anna K.")
    assert code == 0, err
    assert ("greek-prefa:Anna", "Anna K.") in _people(db)
