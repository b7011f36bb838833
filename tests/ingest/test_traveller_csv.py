"""CSV travellers (ingest/traveller_csv.py) and the bridge samples in data/samples/bridge."""

from __future__ import annotations

import csv
from pathlib import Path

import duckdb
import polars as pl
import pytest

from ingest.jsonl import READER as JSONL
from ingest.pipeline import FileReport, ingest_paths
from ingest.traveller_csv import READER
from model.bridge.frame import deal_row, deals_frame
from scoring.bridge import DUPLICATE, RUBBER
from scoring.bridge.event import event_results
from tests.conftest import ROOT
from tests.ingest.bridge_ingest import Ingested, ingest, validate

SAMPLES = ROOT / "data" / "samples" / "bridge"


def frames(got: Ingested) -> tuple[pl.DataFrame, pl.DataFrame]:
    games = pl.DataFrame([{"game_id": g.game_id, "variant": g.variant,
                           "players": list(g.players),
                           "rules": g.rules.model_dump_json(exclude_defaults=True)}
                          for g in got.games.values()])
    return games, deals_frame(deal_row(g, d) for g, d, _ in got.deals)


def test_sample_club_event() -> None:
    path = SAMPLES / "club-pairs-travellers.csv"
    assert READER.sniff(path, path.read_bytes()[:200])
    got = ingest(READER, path)
    assert len(got.deals) == 17 and not got.issues  # every stated score_ns agrees (Law 77)
    games, deals = frames(got)
    res = event_results(deals, DUPLICATE.settle(games, deals).settlements)
    assert res.height == 17
    # 6 boards: five played three times, board 6 twice (Neuberg to a top of 4)
    tables = dict(res.group_by("board").agg(pl.col("tables").first()).iter_rows())
    assert tables == {1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 6: 2}
    assert (res["mp_ns"] + res["mp_ew"] == 4.0).all()
    # each NS pair's matchpoints add up over their boards
    totals = res.group_by("ns_pair").agg(pl.col("mp_ns").sum())
    assert totals["mp_ns"].sum() == res["mp_ns"].sum()


def test_sample_rubber_session() -> None:
    got = ingest(JSONL, SAMPLES / "rubber-session.jsonl")
    assert not got.issues and len(got.deals) == 16
    games, deals = frames(got)
    out = RUBBER.settle(games, deals)
    cash = dict(out.standings.filter(pl.col("game_id").str.contains("rubber"))
                .select("player", "cash").iter_rows())
    # bridge.md 8.2 gives We +780 over its 8 deals; sides settle at +x / -x (records.md 2).
    assert cash["Anna"] == cash["Chris"] == -cash["Boris"] == -cash["Dora"]
    first8 = out.settlements.filter((pl.col("player") == "Anna") & (pl.col("deal_no") <= 8)
                                    & pl.col("game_id").str.contains("rubber"))
    # deal 5 carries Boris's 100 honours for They
    assert first8["cash"].sum() == 780 - 100


def test_bad_rows_are_issues_and_the_rest_goes_on() -> None:
    text = ("event,board,ns_pair,ew_pair,contract,declarer,lead,tricks,score_ns\n"
            "E,1,1,2,4S,N,AH,10,420\n"
            "E,x,1,2,4S,N,AH,10,420\n"
            "E,3,1,2,4Q,N,AH,10,420\n"
            "E,2,1,2,4S,N,AH,10,420\n"
            "E,4,1,2,4S,N,AH,10,420,extra\n"
            "E,5,1,2,pass,,,,0\n"
            "E,6,1,2,4S,N\n")  # cut short: not stored as a deal without its result
    got = validate(READER.read_text(text, "t.csv", "t"))
    msgs = [(i.line, i.message) for i in got.issues]
    assert [d.board for _, d, _ in got.deals] == [1, 5]
    assert [m[0] for m in msgs] == [3, 4, 5, 6, 8]
    assert "'x'" in msgs[0][1] and "'4Q'" in msgs[1][1]
    assert "scores 620" in msgs[2][1]  # board 2 is NS vulnerable
    assert msgs[3][1] == "10 fields, the header has 9"
    assert msgs[4][1] == "6 fields, the header has 9"


def _stored(path: Path, db: Path) -> tuple[FileReport, list[tuple[object, ...]]]:
    (report,) = ingest_paths([path], db)
    with duckdb.connect(str(db), read_only=True) as con:
        deals = con.execute("SELECT game_id, deal_no, record FROM deals ORDER BY ALL").fetchall()
    return report, deals


def test_a_traveller_exported_with_tabs_or_semicolons_reads_as_with_commas(tmp_path: Path) -> None:
    """A spreadsheet's export of a traveller (docs/bridge.md, traveller_csv.py) may separate its
    cells by tabs or semicolons: the same deals are stored as from the comma file."""
    sample = SAMPLES / "club-pairs-travellers.csv"
    rows = list(csv.reader(sample.read_text(encoding="utf-8").splitlines()))
    _, expected = _stored(sample, tmp_path / "comma.duckdb")
    for name, delimiter in (("tabs.tsv", "\t"), ("tabs.csv", "\t"), ("semicolons.csv", ";")):
        path = tmp_path / "exports" / name
        path.parent.mkdir(exist_ok=True)
        with path.open("w", encoding="utf-8", newline="") as fh:
            csv.writer(fh, delimiter=delimiter).writerows(rows)
        report, deals = _stored(path, tmp_path / f"{name}.duckdb")
        assert report.reader == READER.name and report.quarantined == 0, (name, report)
        assert deals == expected, name


def test_a_traveller_pasted_twice_says_so(tmp_path: Path) -> None:
    """The header row again is one issue that says what it is, of the file (a header row is no
    record: it was counted as a record read and quarantined); the rows after it are the same
    table results again (duplicates), not issues of a board called 'board'."""
    text = (SAMPLES / "club-pairs-travellers.csv").read_text(encoding="utf-8")
    header_at = 1 + next(i for i, t in enumerate(text.splitlines()) if not t.startswith("#"))
    path = tmp_path / "twice.csv"
    path.write_text(text + text, encoding="utf-8")
    report, deals = _stored(path, tmp_path / "twice.duckdb")
    assert (report.quarantined, report.file_issues) == (0, 1)
    assert report.records == report.stored + report.duplicates
    (issue,) = report.issues
    assert f"the header row of line {header_at} again" in issue.message
    assert report.duplicates == len(deals) == 17  # every table result again; no new game


def test_a_second_traveller_in_another_column_order_is_read_under_its_own_header(
        tmp_path: Path) -> None:
    """Two exports pasted one below the other, the second with its columns in another order:
    each row is read under the header row above it (docs/bridge.md, travellers), storing what
    the two files store apart. The second one's rows were read under the first header, each
    misread or quarantined."""
    text = (SAMPLES / "club-pairs-travellers.csv").read_text(encoding="utf-8")
    rows = [line.split(",") for line in text.splitlines() if line]
    order = [1, 0, *range(2, len(rows[0]))][::-1]
    second = "\n".join(",".join(row[k] for k in order) for row in rows) + "\n"
    apart = tmp_path / "second.csv"
    apart.write_text(second.replace("Riverside", "Hillside"), encoding="utf-8")
    both = tmp_path / "both.csv"
    both.write_text(text + apart.read_text(encoding="utf-8"), encoding="utf-8")
    report, deals = _stored(both, tmp_path / "t.duckdb")
    first, _ = _stored(SAMPLES / "club-pairs-travellers.csv", tmp_path / "t.duckdb")
    again, _ = _stored(apart, tmp_path / "t.duckdb")
    assert report.quarantined == 0 and len(deals) == 2 * 17
    assert first.duplicates + again.duplicates == report.stored


def test_a_second_header_with_an_unknown_column_is_a_header_that_says_so(
        tmp_path: Path) -> None:
    """The second traveller's header row names a column that is not one (``score-ns``): it is
    still the header of the rows below it, its unknown column said at its line and each row
    that fills it pointing there (the rows were read under the first header, pairs swapped)."""
    text = (SAMPLES / "club-pairs-travellers.csv").read_text(encoding="utf-8")
    lines = text.splitlines()
    swapped = ["event,board,ew_pair,ns_pair,contract,declarer,lead,tricks,score-ns"] + [
        ",".join([c[0], c[1], c[3], c[2], *c[4:]]) for c in
        (line.split(",") for line in lines[10:])]
    path = tmp_path / "both.csv"
    path.write_text("\n".join(lines[:10] + swapped) + "\n", encoding="utf-8")
    report, _deals = _stored(path, tmp_path / "t.duckdb")
    first, *rows = report.issues
    assert first.line == 11 and "unknown column 'score-ns'" in first.message
    assert len(rows) == len(lines) - 10
    assert all("under the unknown column 'score-ns' of the header row (line 11)" in i.message
               for i in rows)


def test_a_quoted_comment_a_quote_inside_a_cell_and_padding_rows(tmp_path: Path) -> None:
    """What a spreadsheet writes: a ``#`` comment quoted as one cell and padded
    (``"# exported by ...",,,,``: the file was read as a score sheet and every row quarantined),
    a quote inside a cell (``A"H``: only its row is refused; every row after it was the rest of a
    quoted cell), rows of empty cells (no deals)."""
    text = (SAMPLES / "club-pairs-travellers.csv").read_text(encoding="utf-8")
    lines = text.splitlines()
    lines[3] = lines[3].replace(",AH,", ',A"H,')
    path = tmp_path / "export.csv"
    path.write_text("\n".join(['"# exported by the club\'s scorer, v8",,,,,,,,', *lines,
                               ",,,,,,,,", ",,,,,,,,"]) + "\n", encoding="utf-8")
    report, _deals = _stored(path, tmp_path / "t.duckdb")
    assert report.reader == READER.name
    (issue,) = report.issues
    assert issue.line == 5 and 'A"H' in issue.message
    clean, _ = _stored(SAMPLES / "club-pairs-travellers.csv", tmp_path / "t.duckdb")
    assert clean.duplicates == clean.records - 1 == report.stored


def test_an_unknown_column_is_said_not_dropped(tmp_path: Path) -> None:
    """A misspelt column (``score-ns``) was dropped in silence, and with it the check of the
    stated score (Law 77): it is one issue at the header row, and each row that fills it points
    there, as in a score sheet (docs/csv-score-sheet.md)."""
    text = (SAMPLES / "club-pairs-travellers.csv").read_text(encoding="utf-8")
    path = tmp_path / "typo.csv"
    path.write_text(text.replace("score_ns", "score-ns", 1), encoding="utf-8")
    report, deals = _stored(path, tmp_path / "typo.duckdb")
    first, *rows = report.issues
    assert first.line == 1 and "unknown column 'score-ns'" in first.message
    assert len(rows) == 17 and not deals
    assert all("under the unknown column 'score-ns' of the header row (line 1)" in i.message
               for i in rows)


def test_a_quoted_cell_with_a_line_break_is_not_half_read(tmp_path: Path) -> None:
    """A spreadsheet cell holding a line break is written quoted over two lines: the reader
    reads a row a line, so both lines are issues that say why. Before, the first was cut short
    and the second stored under a made-up event ('Tuesday pairs 2026-11-24"')."""
    lines = (SAMPLES / "club-pairs-travellers.csv").read_text(encoding="utf-8").splitlines()
    event = lines[3].split(",")[0]
    lines[3] = lines[3].replace(event, '"' + event.replace(" Tuesday", '\nTuesday') + '"', 1)
    path = tmp_path / "broken.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report, deals = _stored(path, tmp_path / "broken.duckdb")
    assert [(i.line, "quoted cell" in i.message) for i in report.issues] == [(4, True), (5, True)]
    assert len(deals) == 16
    with duckdb.connect(str(tmp_path / "broken.duckdb"), read_only=True) as con:
        events = con.execute("SELECT DISTINCT event FROM games").fetchall()
    assert events == [(event,)]


@pytest.mark.parametrize("where", ["first", "last"])
def test_a_stray_quote_costs_its_row_alone(tmp_path: Path, where: str) -> None:
    """A ``"`` typed at the start of a cell and never closed made every row after it the rest
    of one quoted cell: all 17 rows were quarantined. No later line closes it, so only its row
    is refused, saying so, and the rest are read (and are the sample's rows)."""
    lines = (SAMPLES / "club-pairs-travellers.csv").read_text(encoding="utf-8").splitlines()
    at = 1 if where == "first" else len(lines) - 1
    lines[at] = lines[at].replace(",", ',"', 1)
    path = tmp_path / "stray.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report, deals = _stored(path, tmp_path / "t.duckdb")
    (issue,) = report.issues
    assert issue.line == at + 1 and issue.message.startswith(
        "a quoted cell opened in this row is never closed")
    assert len(deals) == len(lines) - 2
    clean, _ = _stored(SAMPLES / "club-pairs-travellers.csv", tmp_path / "t.duckdb")
    assert clean.duplicates == report.stored


def test_unnamed_pairs_of_two_events_are_not_one_pair(tmp_path: Path) -> None:
    """A traveller without player names (docs/bridge.md, traveller_csv.py) named pair 3's
    players ``NS 3 North`` in every event, so pair 3 of Tuesday's event and pair 3 of
    Thursday's were one "player" on League and Player. Each is now a player of his pair at its
    event (``bridge_records.unnamed``, the pair number kept in the name): the same in every
    board of the event, another in the next event, and the same again when the file is read
    again (a re-ingest finds every table result a duplicate)."""
    head = "event,board,ns_pair,ew_pair,contract,declarer,lead,tricks\n"
    rows = "{e},1,3,5,4S,N,AH,10\n{e},2,3,5,3NT,S,QS,9\n"
    tuesday = rows.format(e="Riverside BC Tuesday pairs 2026-11-24")
    thursday = rows.format(e="Riverside BC Thursday pairs 2026-11-26")
    got = validate(READER.read_text(head + tuesday + thursday, "t.csv", "t"))
    assert not got.issues
    (first, second) = got.games.values()
    assert not set(first.players) & set(second.players)
    assert [p.split(" (unnamed ")[0] for p in first.players] == [
        "NS 3 North", "EW 5 East", "NS 3 South", "EW 5 West"]
    assert all(" (unnamed " in p for p in (*first.players, *second.players))
    again = validate(READER.read_text(head + thursday, "t.csv", "t"))
    (alone,) = again.games.values()
    assert alone.players == second.players
    db = tmp_path / "t.duckdb"
    for name, ends in (("tuesday.csv", "\n"), ("tuesday-saved-again.csv", "\r\n")):
        path = tmp_path / name  # other line ends: not skipped as the same content
        path.write_bytes((head + tuesday).replace("\n", ends).encode())
        report, _ = _stored(path, db)
    assert report.duplicates == 3 and report.stored == 0  # its game and two deals
