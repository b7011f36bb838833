"""The CSV club score sheet for Balkan, Swabian and Russian games (docs/csv-score-sheet.md).

Golden files: ``tests/ingest/golden/csv/{balkan,swabian}.csv`` next to their expected JSON. The
columns come from records.md 1.2 and the games' specs: Balkan ``kontra.<player>`` is the doubling
chain (balkan.md 5.3: 1 kontra, 2 rekontra ...), ``G`` marks igra (balkan.md 3.1), ``refa`` and
``repealed`` are flags; Swabian ``contra.<player>`` is ``contra``/``recontra`` (swabian.md 5),
``hand`` is aus den Händen (3.2), ``kunstwerk`` the equal-rank talon (4); Russian
``defence.<player>`` is ``whist``/``pass``/``half`` (russian.md 3), a row without declarer is
raspasy with every player's tricks (7), ``open`` a flag (3).
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from ingest.csv_sheet import READER as CSV_SHEET
from ingest.pipeline import ingest_paths
from ingest.source import Issue, Raw
from scoring.checks import run_checks
from scoring.store import score_pending
from tests.conftest import ROOT

GOLDEN = Path(__file__).parent / "golden" / "csv"
SAMPLE_SHEETS = [ROOT / "data" / "samples" / "balkan" / "club-sheet-2026-12-01.csv",
                 ROOT / "data" / "samples" / "swabian" / "club-sheet-2026-12-06.csv",
                 ROOT / "data" / "samples" / "russian" / "club-sheet-2026-12-03.csv"]


def _golden(items: list[Raw | Issue]) -> list[dict[str, object]]:
    return [{"line": i.line, "data": i.data} if isinstance(i, Raw)
            else {"line": i.line, "code": str(i.code), "raw": i.raw} for i in items]


@pytest.mark.parametrize("name", ["balkan", "swabian", "russian"])
def test_golden_sheet(name: str) -> None:
    got = _golden(list(CSV_SHEET.read(GOLDEN / f"{name}.csv")))
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    # compared as JSON text: True and 1 are equal in Python but not in a record
    assert json.dumps(got, sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_cell_words_map_to_the_record() -> None:
    items = [i.data for i in CSV_SHEET.read(GOLDEN / "balkan.csv") if isinstance(i, Raw)]
    deals = {d["deal_no"]: d for d in items if d["record"] == "deal"}
    assert deals[1]["kontra"] == {"Ana": 1}
    assert deals[3]["kontra"] == {"Boris": 2}  # "rekontra" (balkan.md 5.3)
    assert deals[2]["contract"] == "G2" and deals[2]["refa"] is True
    items = [i.data for i in CSV_SHEET.read(GOLDEN / "swabian.csv") if isinstance(i, Raw)]
    deals = {d["deal_no"]: d for d in items if d["record"] == "deal"}
    assert deals[2]["contra"] == {"Anton": "contra"}  # "Kontra"
    assert deals[4]["contra"] == {"Berta": "recontra"} and deals[4]["hand"] is True  # "Re", "yes"
    assert deals[5]["hand"] is False and deals[5]["kunstwerk"] is True
    items = [i.data for i in CSV_SHEET.read(GOLDEN / "russian.csv") if isinstance(i, Raw)]
    deals = {d["deal_no"]: d for d in items if d["record"] == "deal"}
    assert "declarer" not in deals[3] and sum(deals[3]["tricks"].values()) == 10  # raspasy
    assert deals[6]["defence"] == {"Olga": "pass", "Pavel": "half"}
    assert deals[7]["open"] is True and deals[4]["contract"] == "misere"


def _quarantine(db: Path) -> list[tuple[str, int, str]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT source, line, code FROM quarantine ORDER BY source, line"
                           ).fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("path", [GOLDEN / "balkan.csv", GOLDEN / "swabian.csv",
                                  GOLDEN / "russian.csv", *SAMPLE_SHEETS],
                         ids=lambda p: p.name)
def test_sheet_ingests_settles_and_checks(tmp_path: Path, path: Path) -> None:
    db = tmp_path / "x.duckdb"
    [report] = ingest_paths([path], db, score=score_pending)
    assert report.quarantined == 0 and report.stored == report.records > 5
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert [str(f) for f in run_checks(con) if not f.finding] == []
        deals = con.execute("SELECT count(*) FROM deals").fetchone()
        settled = con.execute("SELECT count(DISTINCT (game_id, deal_no)) FROM settlements"
                              ).fetchone()
    finally:
        con.close()
    assert deals == settled


BALKAN_BAD = """# game_id: kafana/bad-1
# variant: balkan
# players: Ana, Boris, Vera
deal_no,dealer,declarer,contract,defence.Ana,defence.Boris,defence.Vera,kontra.Ana,kontra.Boris,kontra.Vera,tricks.Ana,tricks.Boris,tricks.Vera
1,Ana,Boris,3,play,,play,maybe,,,2,7,1
2,Boris,Vera,G9,play,play,,,,,2,1,7
3,Vera,Ana,4,,play,play,,,,6,2,1
4,Ana,Boris,3,play,,play
5,Boris,Vera,5,play,play,,,,,2,2,6
"""
SWABIAN_BAD = """# game_id: donau/bad-1
# variant: swabian
# players: Anton, Berta, Conrad
deal_no,dealer,declarer,contract,hand,contra.Anton,contra.Berta,contra.Conrad,tricks.Anton,tricks.Berta,tricks.Conrad
1,Anton,Berta,3,,double,,,2,6,2
2,Berta,Conrad,8,,,,,3,1,6
3,Conrad,Conrad,4,,,,,3,1,5
4,Anton,,,yes,,,,,,
5,Berta,Berta,2,maybe,,,,2,7,1
6,Conrad,Anton,5,,,,,6,2,2
"""


def test_bad_rows_quarantined_with_code_and_line(tmp_path: Path) -> None:
    (tmp_path / "balkan-bad.csv").write_text(BALKAN_BAD, encoding="utf-8")
    (tmp_path / "swabian-bad.csv").write_text(SWABIAN_BAD, encoding="utf-8")
    db = tmp_path / "x.duckdb"
    reports = ingest_paths([tmp_path], db, score=score_pending)
    got = [(Path(s).name, line, code) for s, line, code in _quarantine(db)]
    assert got == [
        ("balkan-bad.csv", 5, "schema"),  # kontra level 'maybe' is not a number (balkan.md 5.3)
        ("balkan-bad.csv", 6, "schema"),  # G9: no such game (balkan.md 1: 2..7, 8)
        ("balkan-bad.csv", 7, "trick-count"),  # 6 + 3 tricks cannot end a Herc (balkan.md 6)
        ("balkan-bad.csv", 8, "parse"),  # 7 cells under a 13-column header
        ("swabian-bad.csv", 5, "schema"),  # 'double' is neither contra nor recontra (5)
        ("swabian-bad.csv", 6, "schema"),  # game 8 does not exist (swabian.md 3.1: 2..7)
        ("swabian-bad.csv", 7, "trick-count"),  # 9 tricks in a suit game (swabian.md 6)
        ("swabian-bad.csv", 8, "schema"),  # hand without a declarer (swabian.md 11 S6)
        ("swabian-bad.csv", 9, "schema"),  # hand 'maybe' is no yes/no
    ]
    # the good rows of both files are stored: Balkan deal 5, Swabian deal 6, and each game
    assert sorted(r.stored for r in reports) == [2, 2]


RUSSIAN_SPREADSHEET = """# game_id: nevsky/exported
# variant: russian
# players: Ivan, Olga, Pavel
# rules.pool_target: 10.0
deal_no,dealer,declarer,contract,defence.Ivan,defence.Olga,defence.Pavel,tricks.Ivan,tricks.Olga,tricks.Pavel
1.0,Ivan,Olga,6S,pass,,whist,1.0,6.0,3.0
2,Olga,Pavel,7H,whist,pass,,2,1.5,7
3,Pavel,Pavel,7H,whist,pass,,2,true,7
4,Ivan,Olga,6S,pass,,whist,1,٦,3
1e1,Ivan,Olga,6S,pass,,whist,1,6,3
1_1,Ivan,Olga,6S,pass,,whist,1,6,3
12,Ivan,Olga,6S,pass,,whist,1,nan,3
"""


def test_a_whole_number_with_a_fraction_is_the_number_and_a_fraction_is_refused(
        tmp_path: Path) -> None:
    """A sheet exported with ``6.0`` for 6 (as some spreadsheets write numbers) is read as
    written; ``1.5``, ``true`` or an Arabic-Indic ``٦`` for tricks is refused with the cell's
    field named, not rounded or read as 1 or 6 (records.md 1.2: tricks are counted;
    ``model.base.Integer``); so are ``1e1`` and ``1_1`` (not deal 10 and 11) and ``nan``."""
    path = tmp_path / "exported.csv"
    path.write_text(RUSSIAN_SPREADSHEET, encoding="utf-8")
    db = tmp_path / "x.duckdb"
    [report] = ingest_paths([path], db, score=score_pending)
    assert [(i.line, str(i.code)) for i in report.issues] == [
        (n, "schema") for n in (7, 8, 9, 10, 11, 12)]
    assert [i.message.split(":")[0] for i in report.issues] == [
        "tricks.Olga", "tricks.Olga", "tricks.Olga", "deal_no", "deal_no", "tricks.Olga"]
    with duckdb.connect(str(db), read_only=True) as con:
        rules = con.execute("SELECT record->>'$.rules.pool_target' FROM games").fetchall()
        deals = con.execute("SELECT deal_no, record->>'$.tricks.Olga' FROM deals").fetchall()
    assert rules == [("10",)] and deals == [(1, "6")]


RUSSIAN_COMMA_LOCALE = """# game_id: nevsky/comma-locale
# variant: russian
# players: Ivan, Olga, Pavel
# rules.pool_target: 10,0
deal_no;dealer;declarer;contract;defence.Ivan;defence.Olga;defence.Pavel;tricks.Ivan;tricks.Olga;tricks.Pavel
1,0;Ivan;Olga;6S;pass;;whist;1,00;6,0;3,0
2;Olga;Pavel;7H;whist;pass;;2;1,5;7
3;Pavel;Pavel;7H;whist;pass;;2;1,000;7
"""


def test_a_comma_locale_export_writes_whole_numbers_with_a_decimal_comma(tmp_path: Path) -> None:
    """A spreadsheet set to a comma locale saves ``;`` sheets with ``6,0`` for 6: such a number
    is the whole number, in the header's rules as in the cells, so the game and its deals are
    read. ``1,5`` is a fraction and ``1,000`` may be a thousands group: both are refused with
    the cell named, not guessed (records.md 1.2: tricks are counted; ``model.base.Integer``)."""
    path = tmp_path / "comma.csv"
    path.write_text(RUSSIAN_COMMA_LOCALE, encoding="utf-8")
    db = tmp_path / "x.duckdb"
    [report] = ingest_paths([path], db, score=score_pending)
    assert [(i.line, str(i.code), i.message.split(":")[0]) for i in report.issues] == [
        (7, "schema", "tricks.Olga"), (8, "schema", "tricks.Olga")]
    with duckdb.connect(str(db), read_only=True) as con:
        rules = con.execute("SELECT record->>'$.rules.pool_target' FROM games").fetchall()
        deals = con.execute("SELECT deal_no, record->>'$.tricks' FROM deals").fetchall()
    assert rules == [("10",)] and deals == [(1, '{"Ivan":1,"Olga":6,"Pavel":3}')]
