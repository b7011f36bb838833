"""DDS golden hand files (data/README.md, dds-hands): every deal ingests as an unplayed deal with
its stated double-dummy table, and our DDS analysis of stored deals agrees with those tables."""

from __future__ import annotations

import duckdb
import pytest

from ingest.dds_hands import READER
from model.tables import DEALS, GAMES, TABLES
from scoring.bridge.dd import DD_TABLES
from tests.conftest import DATA
from tests.ingest.bridge_ingest import Ingested, ingest, validate

DDS = DATA / "dds-hands"
COUNTS = {"list1.txt": 1, "list2.txt": 2, "list10.txt": 10, "list100.txt": 100,
          "list300.txt": 300, "list1000.txt": 1000, "largest.txt": 21, "thomas1.txt": 1,
          "thomas2.txt": 1, "sol10.txt": 10}
DENOMS = ("C", "D", "H", "S", "NT")


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_every_deal_ingests(name: str) -> None:
    got = ingest(READER, DDS / name)
    assert not got.issues and len(got.deals) == COUNTS[name]
    for _, deal, _ in got.deals:
        assert deal.unplayed and deal.dd_table is not None and len(deal.dd_table) == 20
        assert deal.hands is not None and sum(len(h) for h in deal.hands.values()) == 52


def test_bad_record_is_an_issue() -> None:
    text = ('NUMBER 2\nPBN 0 0 0 0 "N:AKQ.AKQ.AKQ.AKQ2 - - -"\nTABLE 1 2\n'
            'PBN 0 1 0 0 "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 '
            'AT942.AQ4.32.KJ3"\n')
    got = validate(READER.read_text(text, "t.txt", "t"))
    assert len(got.issues) == 1 and "four suits S.H.D.C: '-'" in got.issues[0].message
    assert len(got.deals) == 1 and got.deals[0][1].vulnerable == "All"


def store(got: Ingested) -> duckdb.DuckDBPyConnection:
    conn = duckdb.connect()
    for t in (GAMES, DEALS):
        conn.execute(TABLES[t].ddl)
    for game in got.games.values():
        conn.execute("INSERT INTO games VALUES (?, ?, ?, '{}', NULL, NULL, NULL, NULL, 'dds', 1, "
                     "'{}')", [game.game_id, game.variant, list(game.players)])
    for _, deal, _ in got.deals:
        conn.execute("INSERT INTO deals VALUES (?, ?, ?, ?, ?, NULL, NULL, true, 'dds', 1, ?)",
                     [deal.game_id, deal.deal_no, f"k{deal.deal_no}", "bridge-duplicate",
                      deal.dealer, deal.model_dump_json()])
    return conn


@pytest.mark.parametrize("name", ["list10.txt", "sol10.txt"])
def test_analyse_agrees_with_the_stated_tables(name: str) -> None:
    pytest.importorskip("endplay")
    from scoring.bridge.dd import analyse

    got = ingest(READER, DDS / name)
    conn = store(got)
    assert analyse(conn) == len(got.deals)
    rows = conn.execute(f"SELECT deal_no, denom, declarer, tricks, par_ns FROM {DD_TABLES}"
                        ).fetchall()
    ours = {(n, f"{DENOMS[d]}_{'NESW'[s]}"): t for n, d, s, t, _ in rows}
    for _, deal, _ in got.deals:
        assert deal.dd_table is not None
        for cell, tricks in deal.dd_table.items():
            assert ours[(deal.deal_no, cell)] == tricks
        if deal.par_ns is not None:
            assert {p for n, _, _, _, p in rows if n == deal.deal_no} == {deal.par_ns}


def test_a_changed_file_is_the_same_game(tmp_path) -> None:
    """The game is its deals, not the file's text: list10.txt saved with Windows line ends is
    10 duplicates (it was stored again, 10 new deals), and a par corrected in one deal is that
    deal's conflict (it was 10 conflicts and 10 new deals)."""
    from ingest.pipeline import ingest_paths

    text = (DDS / "list10.txt").read_text(encoding="utf-8")
    db = tmp_path / "dds.duckdb"
    ingest_paths([DDS / "list10.txt"], db)
    crlf = tmp_path / "crlf" / "list10.txt"
    crlf.parent.mkdir()
    crlf.write_bytes(text.replace("\n", "\r\n").encode())
    (again,) = ingest_paths([crlf], db)
    assert (again.stored, again.duplicates) == (0, 11)  # the game line and its 10 deals
    par = text.index('PAR2 "-110"')
    fixed = tmp_path / "fixed" / "list10.txt"
    fixed.parent.mkdir()
    fixed.write_text(text[:par] + 'PAR2 "-120"' + text[par + len('PAR2 "-110"'):],
                     encoding="utf-8")
    (changed,) = ingest_paths([fixed], db)
    assert (changed.stored, changed.duplicates, changed.quarantined) == (0, 10, 1)
    (issue,) = changed.issues
    assert issue.code == "deal-conflict"


def test_a_stray_line_and_a_wrong_count_are_issues_of_their_own(tmp_path) -> None:
    """A line that is none of a deal's six (data/README.md, dds-hands) was dropped in silence;
    it is now an issue at its line and the deal around it still reads. ``NUMBER`` is the count
    of the deals after it: list10.txt cut after its fourth deal says so at line 1, while two
    files joined, each with its own ``NUMBER``, read clean."""
    from ingest.pipeline import ingest_paths

    lines = (DDS / "list2.txt").read_text(encoding="utf-8").splitlines()
    text = "\n".join([*lines[:3], "hello from a spreadsheet", *lines[3:]]) + "\n"
    got = validate(READER.read_text(text, "t.txt", "t"))
    (issue,) = got.issues
    assert issue.line == 4 and "not a line of a DDS hand file" in issue.message
    assert "'hello from a spreadsheet'" in issue.message
    assert len(got.deals) == 2 and got.deals[0][1].dd_table is not None
    gib = (DDS / "sol10.txt").read_text(encoding="utf-8").splitlines()
    got = validate(READER.read_text("\n".join([gib[0], "junk", *gib[1:3]]), "s.txt", "s"))
    assert [i.line for i in got.issues] == [2] and len(got.deals) == 3

    ten = (DDS / "list10.txt").read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "list10.txt"
    cut.write_text("\n".join(ten[:1 + 4 * 7]) + "\n", encoding="utf-8")
    (report,) = ingest_paths([cut], tmp_path / "d.duckdb")
    (issue,) = report.issues
    assert issue.line == 1 and "'NUMBER 10' is not the count" in issue.message
    assert "4 (the file may be cut short)" in issue.message
    assert report.stored == 5 and report.records == report.stored + report.quarantined
    joined = "\n".join([*lines, *(DDS / "thomas1.txt").read_text(encoding="utf-8").splitlines()])
    got = validate(READER.read_text(joined, "j.txt", "j"))
    assert not got.issues and len(got.deals) == 3


@pytest.mark.parametrize(("change", "line", "said"), [
    (lambda t: t.replace("PBN 0 0 0 0", "PBN 9 9 9 9", 1), 2, "PBN line not"),  # 9 % 4 was read
    (lambda t: t.replace("TABLE", "TABLE 13 13 13 13 13 13 13 13 13 13 13 13 13 13 13 13 13 13 "
                         "13 13\nTABLE", 1), 2, "a second TABLE line in one deal, at line 5"),
    (lambda t: t.replace("NUMBER 2 \n", "NUMBER 2\nexported by tool X\n", 1), 2,
     "record without a PBN line"),  # and NUMBER 2 still counts the two deals
    (lambda t: t.replace("\nTABLE", "\f\nTABLE", 1), 7, "not a line of a DDS hand file"),
], ids=["digits out of range", "TABLE twice", "a note before the deals", "a form feed"])
def test_a_deal_s_lines_are_read_as_written(change, line: int, said: str) -> None:
    """data/README.md, dds-hands: dealer and vulnerability are 0-3 (PBN 9 9 9 9 was stored as
    East, All); a TABLE or PAR2 given twice was the second in silence; a note before the first
    deal was counted as a deal, so a right NUMBER read as wrong; a form feed inside a line
    moved every later line number by one (str.splitlines)."""
    text = change((DDS / "list2.txt").read_text(encoding="utf-8"))
    if "\f" in text:
        text = text.replace("PLAY", "hello\nPLAY", 1)  # a stray line after the form feed
    got = validate(READER.read_text(text, "t.txt", "t"))
    assert any(said in i.message for i in got.issues), [i.message for i in got.issues]
    if "\f" in text:
        (issue,) = [i for i in got.issues if said in i.message]
        assert issue.line == 7  # as an editor numbers it
    assert not any("NUMBER" in i.message for i in got.issues)


@pytest.mark.parametrize("text", [
    "\n".join((DDS / "list2.txt").read_text(encoding="utf-8").splitlines()[1:]),  # no NUMBER
    (DDS / "list2.txt").read_text(encoding="utf-8").replace("NUMBER ", "NUMBER\t", 1),
    (DDS / "sol10.txt").read_text(encoding="utf-8").replace("\n", "\r"),  # CR-only GIB
], ids=["no NUMBER", "NUMBER and a tab", "CR-only GIB"])
def test_a_dds_file_is_known_by_its_first_deal_too(tmp_path, text: str) -> None:
    """A six-line file without its NUMBER line, one with a tab after NUMBER, and a CR-only GIB
    file got no reader ('skipped (no reader)'); each reads as a DDS file."""
    path = tmp_path / "hands.txt"
    path.write_bytes(text.encode())
    from ingest.formats import reader_for

    found = reader_for(path)
    assert found is not None and found.name == "dds-hands"


@pytest.mark.parametrize(("text", "said"), [
    ("NUMBER 3\n", "'NUMBER 3' is not the count"),
    ("NUMBER 0\n", "the file has no deals"),
    ("NUMBER 1\nPBN N:\xff garbage\n", "PBN line not"),
], ids=["a count and no deals", "no deals", "no deal reads"])
def test_a_file_of_which_no_deal_reads_stores_no_game(tmp_path, text: str, said: str) -> None:
    """A DDS file of which no deal reads stored an empty game "DDS hands" (the hash of no deals),
    which every such file then shared; it now stores nothing, and says why."""
    from ingest.pipeline import ingest_paths

    path = tmp_path / "hands.txt"
    path.write_text(text, encoding="utf-8")
    (report,) = ingest_paths([path], tmp_path / "d.duckdb")
    assert report.stored == 0 and report.records == report.quarantined
    assert report.quarantined + report.file_issues >= 1  # no deals at all: the file's issue
    assert any(said in i.message for i in report.issues), [i.message for i in report.issues]
    with duckdb.connect(str(tmp_path / "d.duckdb"), read_only=True) as con:
        assert con.execute(f"SELECT count(*) FROM {GAMES}").fetchone() == (0,)


def test_files_joined_are_the_games_they_were(tmp_path) -> None:
    """Two DDS files joined into one (each keeps its ``NUMBER`` line, data/README.md,
    dds-hands) were one new game: a file ingested before and then joined to another stored its
    deals a second time, under new numbers. Each file joined is now its own game, the one it
    was alone, so its deals are duplicates."""
    from ingest.pipeline import ingest_paths

    db = tmp_path / "d.duckdb"
    ten, two = DDS / "list10.txt", DDS / "list2.txt"
    joined = tmp_path / "joined.txt"
    joined.write_text(ten.read_text(encoding="utf-8") + two.read_text(encoding="utf-8"),
                      encoding="utf-8")
    (alone,) = ingest_paths([ten], db)
    (report,) = ingest_paths([joined], db)
    assert alone.stored == 11 and not report.issues
    assert (report.stored, report.duplicates) == (1 + 2, 11)  # list2's game and deals
    other = tmp_path / "o.duckdb"
    ingest_paths([ten, two], other)
    query = f"SELECT game_id, deal_no, record FROM {DEALS} ORDER BY ALL"
    with duckdb.connect(str(db), read_only=True) as a, \
            duckdb.connect(str(other), read_only=True) as b:
        assert a.execute(query).fetchall() == b.execute(query).fetchall()
