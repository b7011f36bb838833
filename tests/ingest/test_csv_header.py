"""The header section and header row of a score sheet, and tables as spreadsheets write them
(docs/csv-score-sheet.md): a column named twice makes each row an issue that says so, in the
score sheet and the traveller reader alike (which of the two cells a row means is not known);
Excel's quoted and padded lines, its .txt exports, capitals, several games in one sheet, quotes
inside cells and cells holding line breaks."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.formats import reader_for
from ingest.source import Issue, Raw
from tests.ingest.conftest import SAMPLES

SHEET = SAMPLES / "club-sheet-2026-11-22.csv"
TRAVELLERS = SAMPLES / "bridge" / "club-pairs-travellers.csv"


def repeat_column(text: str, column: str) -> str:
    """``text`` with ``column`` named twice in its header row, each row's cell doubled."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.split(",")[0] and
              not line.startswith("#"))
    k = lines[at].split(",").index(column)
    out = lines[:at]
    for line in lines[at:]:
        cells = line.split(",")
        out.append(",".join(cells[:k + 1] + cells[k:]) if line else line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(("path", "column", "rows"), [(SHEET, "deal_no", 8),
                                                      (TRAVELLERS, "board", 17)],
                         ids=["sheet", "traveller"])
def test_repeated_header_column_is_an_issue_on_every_row(tmp_path: Path, path: Path,
                                                         column: str, rows: int) -> None:
    p = tmp_path / path.name
    p.write_text(repeat_column(path.read_text(), column))
    reader = reader_for(p)
    assert reader is not None
    items = list(reader.read(p))
    issues = [i for i in items if isinstance(i, Issue)]
    deals = [i for i in items if isinstance(i, Raw) and i.data["record"] == "deal"]
    assert deals == [] and len(issues) == rows
    assert all(f"the header row names the column {column!r} twice" in i.message
               for i in issues)


@pytest.mark.parametrize(("again", "refused"), [("30", True), ("20", False)])
def test_a_header_key_given_twice_with_two_values_refuses_the_game(
        tmp_path: Path, again: str, refused: bool) -> None:
    """docs/csv-score-sheet.md: ``# rules.initial_kassa: 20`` and then ``30`` leave the kassa
    unknown, so the game is not read (the last one used to win in silence); the same value
    twice is harmless."""
    text = (SAMPLES / "club-sheet-2026-11-22.csv").read_text(encoding="utf-8")
    text = text.replace("# rules.initial_kassa: 20\n",
                        f"# rules.initial_kassa: 20\n# rules.initial_kassa: {again}\n", 1)
    p = tmp_path / "sheet.csv"
    p.write_text(text, encoding="utf-8")
    items = list(reader_for(p).read(p))  # type: ignore[union-attr]
    games = [i for i in items if isinstance(i, Raw) and i.data["record"] == "game"]
    issues = [i for i in items if isinstance(i, Issue)]
    if refused:
        assert not games and len(issues) == 1
        assert issues[0].message.startswith(
            "the header gives 'rules.initial_kassa' twice, '20' at line")
    else:
        assert len(games) == 1 and not issues
        assert games[0].data["rules"]["initial_kassa"] == 20


def test_a_sheet_pasted_twice_is_its_game_again_and_its_deals_are_duplicates(
        tmp_path: Path) -> None:
    """The second copy's header section starts a game (docs/csv-score-sheet.md): the same
    game again, so its game line and deals are duplicates. A header row alone pasted again is
    one issue that says what it is (it used to be a deal refused with a 661-character message)."""
    from ingest.pipeline import ingest_paths
    from tests.ingest.fakes import FakeSettlement, fake_scorer

    text = SHEET.read_text(encoding="utf-8")
    p = tmp_path / "twice.csv"
    p.write_text(text + text, encoding="utf-8")
    (r,) = ingest_paths([p], tmp_path / "t.duckdb", score=fake_scorer(FakeSettlement()))
    assert not r.issues and r.duplicates == r.stored > 1
    table = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    p.write_text(text + table + "\n", encoding="utf-8")
    (r,) = ingest_paths([p], tmp_path / "t2.duckdb", score=fake_scorer(FakeSettlement()))
    (issue,) = r.issues
    header_at = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("deal_no"))
    assert issue.message.startswith(f"the header row of line {header_at} again (the sheet pasted")
    assert r.duplicates == r.stored - 1  # the second copy's deals; the game line once


def test_the_games_of_a_sheet_are_read_one_after_another(tmp_path: Path) -> None:
    """Two tables' games in one sheet, the second with other players and another column order:
    each game is read with its own header section and header row (docs/csv-score-sheet.md),
    storing what the two sheets store apart. The second game's deals were quarantined as rows
    of the wrong width, and nothing said a second game was there."""
    from ingest.pipeline import ingest_paths

    first = SHEET.read_text(encoding="utf-8")
    second = (first.replace("table-1", "table-2").replace("Anna", "Dora")
              .replace("deal_no,dealer,", "dealer,deal_no,"))
    second = "\n".join(_swap_first_two(line) if line[:1].isdigit() else line
                       for line in second.splitlines()) + "\n"
    apart = [tmp_path / "t1.csv", tmp_path / "t2.csv"]
    apart[0].write_text(first, encoding="utf-8")
    apart[1].write_text(second, encoding="utf-8")
    both = tmp_path / "both.csv"
    both.write_text(first + "\n" + second, encoding="utf-8")
    (together,) = ingest_paths([both], tmp_path / "t.duckdb")
    assert not together.issues and together.stored == together.records
    reports = ingest_paths(apart, tmp_path / "t.duckdb")
    assert [r.duplicates for r in reports] == [r.records for r in reports]
    assert sum(r.records for r in reports) == together.stored


def _swap_first_two(line: str) -> str:
    cells = line.split(",")
    return ",".join([cells[1], cells[0], *cells[2:]])


def test_a_damaged_column_name_is_said_once_at_the_header(tmp_path: Path) -> None:
    """``defe›ce.Anna`` (a byte changed in a column name): one issue at the header row names
    the column, and each row that fills it points there (it used to repeat pydantic's "Extra
    inputs are not permitted" on every deal)."""
    text = SHEET.read_text(encoding="utf-8").replace("defence.Anna", "defe›ce.Anna", 1)
    p = tmp_path / "sheet.csv"
    p.write_text(text, encoding="utf-8")
    issues = [i for i in reader_for(p).read(p) if isinstance(i, Issue)]  # type: ignore[union-attr]
    header_at = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("deal_no"))
    assert issues[0].line == header_at
    assert issues[0].message.startswith("unknown column 'defe›ce.Anna': not a field of a "
                                        "greek-prefa deal")
    assert issues[1:] and all(i.message == "a cell under the unknown column 'defe›ce.Anna' of "
                              f"the header row (line {header_at})" for i in issues[1:])


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_a_sheet_saved_back_by_a_spreadsheet_reads_as_written(tmp_path: Path,
                                                              delimiter: str) -> None:
    """A spreadsheet pads every row to the table's width: ``# variant: greek-prefa,,,,,,``.
    The padding is not part of the value (the whole sheet was refused as of the unknown
    variant 'greek-prefa,,,,,,'); the sheet stores what the sheet itself stores."""
    from ingest.pipeline import ingest_paths

    lines = SHEET.read_text(encoding="utf-8").splitlines()
    width = max(len(line.split(",")) for line in lines if not line.startswith("#"))
    padded = [line + delimiter * (width - 1) if line.startswith("#")
              else line.replace(",", delimiter) for line in lines]
    path = tmp_path / "saved.csv"
    path.write_text("\n".join(padded) + "\n", encoding="utf-8")
    (saved,) = ingest_paths([path], tmp_path / "t.duckdb")
    (original,) = ingest_paths([SHEET], tmp_path / "t.duckdb")
    assert not saved.issues and saved.stored == saved.records > 1
    assert original.duplicates == saved.stored  # the same records


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_a_sheet_written_by_a_spreadsheet_with_quoted_header_cells_reads_as_written(
        tmp_path: Path, delimiter: str) -> None:
    """A spreadsheet quotes a cell that holds its delimiter, so Excel saves the header line
    ``# players: Anna, Boris, Chris`` as ``"# players: Anna, Boris, Chris",,,,`` (with a UTF-8
    byte-order mark). That quoted cell is still a header line (docs/csv-score-sheet.md): the
    game was lost and every deal quarantined for want of it."""
    import csv

    from ingest.pipeline import ingest_paths

    lines = SHEET.read_text(encoding="utf-8").splitlines()
    width = max(len(line.split(",")) for line in lines if not line.startswith("#"))
    path = tmp_path / "excel.csv"
    with path.open("w", encoding="utf-8-sig", newline="") as fh:
        writer = csv.writer(fh, delimiter=delimiter, lineterminator="\r\n")
        for line in lines:
            writer.writerow([line] + [""] * (width - 1) if line.startswith("#")
                            else line.split(","))
    if delimiter == ",":
        assert '"# players: Anna, Boris, Chris",' in path.read_text(encoding="utf-8-sig")
    (saved,) = ingest_paths([path], tmp_path / "t.duckdb")
    (original,) = ingest_paths([SHEET], tmp_path / "t.duckdb")
    assert not saved.issues and saved.stored == saved.records > 1
    assert original.duplicates == saved.stored  # the same records


def test_excel_unicode_text_exports_are_read_by_their_content(tmp_path: Path) -> None:
    """Excel's "Unicode Text (*.txt)" export is UTF-16, tab separated, named ``.txt``; a file
    may also lose its extension on the way. A score sheet and a traveller saved so are read as
    their ``.csv`` originals (docs/csv-score-sheet.md), while a note that begins with ``#`` is
    not taken for a sheet: a folder walk passes it over."""
    import csv

    from ingest.pipeline import ingest_paths

    folder = tmp_path / "week"
    folder.mkdir()
    for source, name in [(SHEET, "sheet.txt"), (TRAVELLERS, "travellers")]:
        with (folder / name).open("w", encoding="utf-16", newline="") as fh:
            writer = csv.writer(fh, delimiter="\t", lineterminator="\r\n")
            for line in source.read_text(encoding="utf-8").splitlines():
                writer.writerow([line] if line.startswith("#") else next(csv.reader([line])))
    (folder / "notes.txt").write_text("# Notes\nTable 2 started late.\n", encoding="utf-8")
    reports = ingest_paths([folder], tmp_path / "t.duckdb")
    assert sorted(Path(r.source).name for r in reports) == ["sheet.txt", "travellers"]
    assert all(not r.issues and r.stored == r.records > 1 for r in reports)
    originals = ingest_paths([SHEET, TRAVELLERS], tmp_path / "t.duckdb")
    assert [r.duplicates for r in originals] == [r.stored for r in reports]


def test_column_names_and_header_keys_in_capitals_read_as_written_small(tmp_path: Path) -> None:
    """A user titles a sheet's columns and lines: ``Dealer``, ``Tricks.Anna``, ``Flags``,
    ``# Players:``. They are the records' names (docs/csv-score-sheet.md); a player's name keeps
    its case. Every deal was quarantined under "unknown column 'Dealer'"."""
    from ingest.pipeline import ingest_paths

    def titled(line: str) -> str:
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            return f"# {key.strip().capitalize()}:{value}"
        if line.startswith("deal_no"):
            return ",".join(c[0].upper() + c[1:] for c in line.split(","))
        return line

    path = tmp_path / "titled.csv"
    path.write_text("\n".join(map(titled, SHEET.read_text(encoding="utf-8").splitlines()))
                    + "\n", encoding="utf-8")
    assert "Defence.Anna,Defence.Boris" in path.read_text(encoding="utf-8")
    (saved,) = ingest_paths([path], tmp_path / "t.duckdb")
    (original,) = ingest_paths([SHEET], tmp_path / "t.duckdb")
    assert not saved.issues and saved.stored == saved.records > 1
    assert original.duplicates == saved.stored  # the same records


def test_a_stray_quote_costs_its_row_alone(tmp_path: Path) -> None:
    """docs/csv-score-sheet.md: a ``"`` opening a cell that no later line closes (a typing slip,
    ``1,"Anna,Boris,6S,...``) made every row after it the rest of one quoted cell, all
    quarantined; only its own row is an issue now, and the deals after it keep their numbers."""
    from ingest.pipeline import ingest_paths

    lines = SHEET.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("deal_no")) + 1
    lines[at] = lines[at].replace(",", ',"', 1)
    path = tmp_path / "stray.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (r,) = ingest_paths([path], tmp_path / "t.duckdb")
    assert [(i.line, i.message.split(" (")[0]) for i in r.issues] == [
        (at + 1, "a quoted cell opened in this row is never closed")]
    (original,) = ingest_paths([SHEET], tmp_path / "t.duckdb")
    assert original.duplicates == r.stored and original.records == r.stored + 1


def test_a_cell_holding_a_line_break_says_so_and_the_deals_after_keep_their_numbers(
        tmp_path: Path) -> None:
    """A spreadsheet writes a cell holding a line break quoted over two lines. Both lines are
    issues that say so, as in a traveller (docs/csv-score-sheet.md); in a sheet without a
    ``deal_no`` column the deal after it is still the next deal. They read as rows of 7 and 5
    cells "but the header row has 11 columns"."""
    from ingest.pipeline import ingest_paths

    lines = SHEET.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("deal_no"))
    table = [line.partition(",")[2] for line in lines[at:]]  # without deal_no
    table[2] = table[2].replace(",invite,", ',"invite\n# variant: balkan",')  # not a header
    path = tmp_path / "break.csv"
    path.write_text("\n".join(lines[:at] + table) + "\n", encoding="utf-8")
    (r,) = ingest_paths([path], tmp_path / "t.duckdb")
    assert [(i.line, i.message.split(":")[0]) for i in r.issues] == [
        (at + 3, "a quoted cell not closed on its line (a line break inside quotes)"),
        (at + 4, "the rest of the quoted cell opened at line " + str(at + 3))]
    (original,) = ingest_paths([SHEET], tmp_path / "t.duckdb")
    assert original.duplicates == r.stored and original.records == r.stored + 1


def _sheet_lines() -> list[str]:
    return SHEET.read_text(encoding="utf-8").splitlines()


def test_a_second_game_of_a_sheet_under_the_first_ones_id_is_not_read(tmp_path: Path) -> None:
    """A second game whose id is the first's but whose fields are not (another start time, or
    no ``# game_id`` line in either, so both are named after the file): its deals would be the
    first game's. The game is a ``game-conflict`` that says so and each of its deals an issue
    pointing there; the first game is stored as alone (docs/csv-score-sheet.md)."""
    from ingest.pipeline import ingest_paths

    lines = _sheet_lines()
    at = next(i for i, line in enumerate(lines) if line.startswith("deal_no"))
    second = [line.replace("19:00", "21:00") for line in lines[:at + 1]] + [
        "9,Anna,Boris,6S,play,,play,2,6,2,", "10,Boris,Chris,7H,pass,pass,,,,,"]
    path = tmp_path / "two.csv"
    path.write_text("\n".join(lines + second) + "\n", encoding="utf-8")
    (r,) = ingest_paths([path], tmp_path / "t.duckdb")
    game, *deals = r.issues
    assert game.code == "game-conflict" and game.line == len(lines) + 1
    assert "is the sheet's game of line 1 already, with other fields" in game.message
    assert [d.line for d in deals] == [len(lines) + at + 2, len(lines) + at + 3]
    assert all(d.message.startswith(f"game 'club-7/2026-11-22/table-1' of line {len(lines) + 1}"
                                    " is not read") for d in deals)
    (alone,) = ingest_paths([SHEET], tmp_path / "t.duckdb")
    assert alone.duplicates == alone.records == r.stored

    unnamed = [line for line in lines + second if not line.startswith("# game_id")]
    path.write_text("\n".join(unnamed) + "\n", encoding="utf-8")
    (r,) = ingest_paths([path], tmp_path / "u.duckdb")
    assert "without a '# game_id' line a game is named after the file, 'two'" in r.issues[0].message


def test_a_quote_inside_a_cell_is_a_character_and_padding_rows_are_passed_over(
        tmp_path: Path) -> None:
    """``inv"ite``: a quote that does not open its cell is a character of it, as for Python's
    ``csv`` and a spreadsheet; only that row is refused (every row after it was quarantined as
    the rest of a quoted cell). Rows of empty cells, which a spreadsheet pads a table with,
    are no deals."""
    from ingest.pipeline import ingest_paths

    lines = _sheet_lines()
    at = next(i for i, line in enumerate(lines) if line.startswith("deal_no"))
    lines[at + 2] = lines[at + 2].replace(",invite,", ',inv"ite,')
    path = tmp_path / "quote.csv"
    path.write_text("\n".join(lines + [",,,,,,,,,,"] * 3) + "\n", encoding="utf-8")
    (r,) = ingest_paths([path], tmp_path / "t.duckdb")
    (issue,) = r.issues
    assert issue.line == at + 3 and "inv\"ite" in issue.message and r.records == len(lines) - at


def test_what_is_not_a_game_field_in_a_header_and_a_header_too_long_are_said(
        tmp_path: Path) -> None:
    """``# Encoding: utf-8`` and ``# coding=utf-8`` declare the encoding (ingest/text.py), in
    any case: the game is read (it was refused for an extra field 'Encoding'). A header row too
    long to read is an issue at its line, and each row under it points there; a quoted ``#``
    line too long is still a header line."""
    from ingest.pipeline import ingest_paths

    lines = _sheet_lines()
    path = tmp_path / "declared.csv"
    path.write_text("\n".join(["# Encoding: utf-8", "# coding=utf-8", *lines]) + "\n",
                    encoding="utf-8")
    (r,) = ingest_paths([path], tmp_path / "t.duckdb")
    assert not r.issues and r.stored == r.records > 1

    at = next(i for i, line in enumerate(lines) if line.startswith("deal_no"))
    long = [*lines[:at], lines[at] + ",x" * 40000, *lines[at + 1:]]
    path.write_text("\n".join(long) + "\n", encoding="utf-8")
    (r,) = ingest_paths([path], tmp_path / "long.duckdb")
    first, *rows = r.issues
    assert first.line == at + 1 and first.message.startswith("the header row is not read: a row")
    assert rows and all(i.message.startswith(f"the header row of line {at + 1} is not read")
                        for i in rows)
    quoted = ['"# league: ' + "y" * 70_000 + '",,,', *lines]
    path.write_text("\n".join(quoted) + "\n", encoding="utf-8")
    (r,) = ingest_paths([path], tmp_path / "q.duckdb")
    assert "the header gives 'league' twice" in r.issues[0].message  # line 1 is a header line
    assert "at line 1 and 'club-7 autumn league' here" in r.issues[0].message


def test_a_note_is_not_a_sheet(tmp_path: Path) -> None:
    """A ``.txt`` note that gives an event or a stake is not a score sheet: only a game's id,
    variant, players or a house rule make a ``.txt`` or unnamed file one."""
    note = tmp_path / "note.txt"
    note.write_text("# Club night\n# Event: Christmas cup, bring snacks\n# stake: 5 EUR\n",
                    encoding="utf-8")
    assert reader_for(note) is None


def test_a_row_of_one_cell_is_counted_in_words(tmp_path: Path) -> None:
    """A row of one cell read "1 cells but the header row has 11 columns"."""
    from ingest.pipeline import ingest_paths

    lines = _sheet_lines()
    at = next(i for i, line in enumerate(lines) if line.startswith("deal_no"))
    path = tmp_path / "short.csv"
    path.write_text("\n".join([*lines[:at + 1], "9", *lines[at + 1:]]) + "\n", encoding="utf-8")
    (r,) = ingest_paths([path], tmp_path / "t.duckdb")
    columns = len(lines[at].split(","))
    assert [i.message.split(":")[0] for i in r.issues] == [
        f"1 cell but the header row has {columns} columns"]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_a_last_row_short_of_cells_without_a_line_end_says_the_file_may_be_cut_short(
        tmp_path: Path, encoding: str) -> None:
    """A sheet that stops inside its last row (a copy broken off, a disk that filled) read as
    any short row, "9 cells but the header row has 11 columns"; now its issue says the file may
    be cut short, as LIN's last value does. A short last row with its line end, and a whole
    last row without one, are read as before."""
    text = SHEET.read_text(encoding="utf-8")
    cut = text[:text.rindex(",9,")]  # '8,Boris,Chris,9S,play,play,,0,1' and no line end
    cases = {"cut.csv": cut, "ended.csv": cut + "\n", "whole.csv": text.rstrip("\n")}
    said = {}
    for name, body in cases.items():
        (tmp_path / name).write_text(body, encoding=encoding)
        reader = reader_for(tmp_path / name)
        assert reader is not None
        items = list(reader.read(tmp_path / name))
        said[name] = [i.message for i in items if isinstance(i, Issue)]
        deals = [i for i in items if isinstance(i, Raw) and i.data["record"] == "deal"]
        assert len(deals) == 8 - (name != "whole.csv")
    columns = len(_sheet_lines()[-1].split(","))
    assert said["cut.csv"] == [
        f"9 cells but the header row has {columns} columns (the file ends inside this row, "
        "with no line end after it: it may be cut short): '8,Boris,Chris,9S,play,play,,0,1'"]
    assert said["ended.csv"] == [f"9 cells but the header row has {columns} columns: "
                                 "'8,Boris,Chris,9S,play,play,,0,1'"]
    assert said["whole.csv"] == []
