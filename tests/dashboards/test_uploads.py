"""Uploads (dashboards/uploads.py): names, size bound, refused files change nothing."""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.uploads import (
    REPLACE_BOX,
    ingest_uploads,
    refuse_reason,
    safe_name,
    save,
    stored_name,
)
from ingest.pipeline import ingest_paths
from tests.dashboards.conftest import table_counts
from tests.ingest.conftest import SAMPLES

GOOD = (b'{"record": "game", "game_id": "late/1", "variant": "greek-prefa", '
        b'"players": ["Ana", "Ben", "Cy"]}\n'
        b'{"record": "deal", "game_id": "late/1", "deal_no": 1, "dealer": "Ana"}\n')


def test_safe_name() -> None:
    assert safe_name("../../etc/passwd") == "passwd"
    assert safe_name("a'; DROP TABLE deals; --.jsonl") == "a___DROP_TABLE_deals__--.jsonl"
    assert safe_name("C:\\x\\..\\.hidden") == "hidden"
    assert safe_name("...") == "upload"


def test_refuse_reasons() -> None:
    assert refuse_reason("big.jsonl", b"x" * (2 * 1024 * 1024 + 1), limit_mb=2) is not None
    assert "NUL" in (refuse_reason("bin", b"\x00\x01\x02garbage" * 10) or "")
    assert refuse_reason("bin", bytes(range(256)) * 16) == (  # it said "full of NUL bytes"
        "“bin” is not a text file (16 NUL bytes in its first 4,096 bytes: binary data, not "
        "text): nothing was stored")
    assert "NUL" in (refuse_reason("wide", "{}\n".encode("utf-16-le") * 3 + bytes(40)) or "")
    assert refuse_reason("x.jsonl", "{}\n".encode("utf-16-le")) is None  # its zeros are letters
    assert "UTF-8" in (refuse_reason("binary", b"\x01\x02\xff\xfa" * 30 + b"a" * 100) or "")
    # four odd bytes in a line of text: read, that line quarantined with why (ingest/text.py
    # stray_bytes_only), not the file refused
    assert refuse_reason("odd", b"\x01\x02\xff\xfa" + b"a" * 100) is None
    assert "empty" in (refuse_reason("e.jsonl", b"  \n") or "")
    assert refuse_reason("ok.jsonl", b'{"record": "game"}\n') is None
    # docs/ingest.md: an encoding is declared in a sheet, PBN, LIN, PPN or DDS file; JSON is
    # UTF-8 or UTF-16, so its refusal said to declare what JSON does not read
    garbage = bytes(range(0x80, 0x100)) * 12
    for name, advice in (("g.jsonl", "save it as UTF-8"), ("g.json", "save it as UTF-8"),
                         ("g.csv", "declare its encoding with a first line '# encoding:")):
        said = refuse_reason(name, garbage) or ""
        assert said.endswith(f"{advice}; nothing was stored") or advice in said, said
        assert ("# encoding" in said) == name.endswith(".csv"), said


def test_a_nul_byte_in_one_line_costs_that_line_not_the_file(fixture_copy: Path,
                                                              tmp_path: Path) -> None:
    """ingest/text.py ``binary``: a club file with one NUL byte (a damaged copy) was refused
    whole by the Upload page as "not a text file", while ``trickbook ingest`` reads it with
    that line quarantined; the page now reads it as the command does."""
    damaged = GOOD + b'{"record": "deal", "game_id": "late/1", "deal_no": 2, "dealer": "B\x00en"}\n'
    (r,) = ingest_uploads([("late.jsonl", damaged)], fixture_copy, tmp_path)
    assert r.saved_as is not None and (r.records, r.stored, r.quarantined) == (3, 2, 1)
    assert "line 3: parse: not JSON (Invalid control character" in r.issues[0]


def test_refused_files_change_nothing(fixture_copy: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKBOOK_UPLOAD_MAX_MB", "1")
    before = table_counts(fixture_copy)
    results = ingest_uploads(
        [("garbage.bin", bytes(range(256)) * 64), ("huge.jsonl", b"{}\n" * 600_000),
         ("empty.jsonl", b"")],
        fixture_copy, tmp_path / "up",
    )
    assert [r.saved_as for r in results] == [None, None, None]
    assert all(r.message for r in results)
    assert table_counts(fixture_copy) == before
    assert not (tmp_path / "up").exists()


def test_hostile_text_goes_to_quarantine_not_sql(fixture_copy: Path, tmp_path: Path) -> None:
    """A text file full of SQL and junk is ingested like any other: its lines are quarantined,
    the tables it names are untouched."""
    pytest.importorskip("ingest.pipeline")
    before = table_counts(fixture_copy)
    text = "'; DROP TABLE deals; --\n" + '{"record": "deal"; DELETE FROM games}\n'
    results = ingest_uploads([("evil'; --.jsonl", text.encode())], fixture_copy, tmp_path)
    after = table_counts(fixture_copy)
    assert results[0].saved_as is not None and results[0].stored == 0
    for table in ("games", "deals", "settlements", "standings"):
        assert after[table] == before[table]


def test_valid_upload_is_stored(fixture_copy: Path, tmp_path: Path) -> None:
    pytest.importorskip("ingest.pipeline")
    game = {"record": "game", "game_id": "upload/1", "variant": "greek-prefa",
            "players": ["Ana", "Ben", "Cy"], "league": "uploads"}
    deal = {"record": "deal", "game_id": "upload/1", "deal_no": 1, "dealer": "Ana",
            "declarer": "Cy", "contract": "6S", "defence": {"Ana": "play", "Ben": "play"},
            "tricks": {"Cy": 6, "Ana": 2, "Ben": 2}}
    data = (json.dumps(game) + "\n" + json.dumps(deal) + "\n").encode()
    results = ingest_uploads([("club.jsonl", data)], fixture_copy, tmp_path)
    assert results[0].records == 2, results[0]
    assert results[0].stored == 2, results[0]
    assert table_counts(fixture_copy)["deals"] == 10


def test_an_uploads_folder_that_cannot_be_written_is_said_and_stores_nothing(
        fixture_copy: Path, tmp_path: Path) -> None:
    """A database whose folder is read-only to the server: each upload says why it was not
    kept, without a server path, and the page goes on (it raised OSError)."""
    (tmp_path / "file").write_text("")
    blocked = tmp_path / "file" / "uploads"  # no folder can be made below a file, even by root
    before = table_counts(fixture_copy)
    results = ingest_uploads([("club.jsonl", GOOD), ("more.jsonl", GOOD.replace(b"late/1",
                                                                                 b"late/2"))],
                             fixture_copy, blocked)
    assert [r.saved_as for r in results] == [None, None]
    for r in results:
        assert r.message.startswith(f"{r.name}: nothing was stored: the folder file/uploads/ ")
        assert "cannot be written" in r.message and str(tmp_path) not in r.message, r.message
    assert table_counts(fixture_copy) == before


@pytest.mark.parametrize("encoding", ["cp1253", "utf-16", "utf-32"])
def test_a_sheet_saved_in_another_encoding_is_read_as_the_command_reads_it(
        tmp_path: Path, encoding: str) -> None:
    """A Greek club's sheet saved by a spreadsheet in its Windows code page (cp1253) or as
    UTF-16 is read, as ``trickbook ingest`` reads it (docs/ingest.md, "Encodings"); the page
    refused every file that was not UTF-8."""
    sheet = Path(__file__).resolve().parents[2] / "data" / "samples" / "club-sheet-2026-11-22.csv"
    text = sheet.read_text(encoding="utf-8").replace("Anna", "Άννα")
    (r,) = ingest_uploads([("Σάββατο.csv", text.encode(encoding))], tmp_path / "t.duckdb",
                          tmp_path / "up")
    assert r.saved_as is not None and r.stored == r.records > 0 and not r.message
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as con:
        assert con.execute("SELECT players FROM games").fetchall() == [
            (["Άννα", "Boris", "Chris"],)]


def test_messages_name_the_file_as_uploaded(tmp_path: Path) -> None:
    """What ingest says of a file names it as the user uploaded it, not as it is kept (its
    content's hash, then its name)."""
    (r,) = ingest_uploads([("week12.csv", b"garbage;header\n1;2\n")], tmp_path / "t.duckdb",
                          tmp_path / "up")
    assert r.saved_as is not None and "week12.game.json" in r.message
    assert Path(r.saved_as).stem not in r.message


def test_uploads_with_non_ascii_names_do_not_collide(tmp_path: Path) -> None:
    """Issue 14: ``Σάββατο.jsonl`` and ``Κυριακή.jsonl`` were both saved as ``_______.jsonl``."""
    from dashboards.uploads import stored_name

    a, b = stored_name("Σάββατο.jsonl", b"1"), stored_name("Κυριακή.jsonl", b"2")
    assert a != b and a.endswith("Σάββατο.jsonl") and b.endswith("Κυριακή.jsonl")
    assert stored_name("same.jsonl", b"1") != stored_name("same.jsonl", b"2")
    db = tmp_path / "t.duckdb"
    lines = (Path(__file__).resolve().parents[2] / "data" / "samples" / "league.jsonl"
             ).read_text().splitlines()
    first, second = "\n".join(lines[:10]) + "\n", "\n".join(lines[:1] + lines[10:20]) + "\n"
    results = ingest_uploads([("Σάββατο.jsonl", first.encode()),
                              ("Κυριακή.jsonl", second.encode())], db, tmp_path / "up")
    assert [r.stored for r in results] == [10, 10] and len({r.saved_as for r in results}) == 2
    assert sorted(p.read_text() for p in (tmp_path / "up").iterdir()) == sorted([first, second])


def test_two_files_of_one_name_in_one_upload_are_each_reported(tmp_path: Path) -> None:
    """The Balkan and the Swabian ``league.jsonl`` of data/samples chosen together: the page
    listed "league.jsonl, league.jsonl" and said what became of one of them (the other's
    result overwritten), with its 43 deals as "the earlier version's, not in this one"."""
    samples = Path(__file__).resolve().parents[2] / "data" / "samples"
    files = [("league.jsonl", (samples / v / "league.jsonl").read_bytes())
             for v in ("balkan", "swabian")]
    results = ingest_uploads(files, tmp_path / "t.duckdb", tmp_path / "up")
    assert [(r.name, r.stored, r.quarantined, r.dropped) for r in results] == [
        ("league.jsonl", 45, 0, 0), ("league.jsonl", 42, 0, 0)]
    assert len({r.saved_as for r in results}) == 2 and not any(r.message for r in results)


def test_changed_file_uploaded_again_under_the_same_name(tmp_path: Path) -> None:
    """Issue 14: a club's weekly results.pbn, changed and uploaded again, failed with "Current
    transaction is aborted". Now both versions are kept; the changed deal is a conflict naming
    both versions."""
    pbn = Path(__file__).resolve().parents[3] / "shared" / "data" / "endplay-fixtures" / "pbn"
    first = (pbn / "example1.pbn").read_bytes()
    play = b'[Play "W"]\nDQ D3 D4 D2\nSK S2 S4 SJ\nDJ DT DK D7\n*\n'
    assert play in first
    db = tmp_path / "t.duckdb"
    (a,) = ingest_uploads([("results.pbn", first)], db, tmp_path / "up")
    (b,) = ingest_uploads([("results.pbn", first.replace(play, b""))], db, tmp_path / "up")
    assert a.stored == 4 and "failed" not in b.message
    assert (b.quarantined, b.duplicates) == (1, 3) and a.saved_as != b.saved_as


def test_upload_waits_for_a_reader_to_let_go(fixture_copy: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A page reading the file in another process holds it for a moment: the upload waits and
    stores, instead of failing (the browser test once timed out on this)."""
    import subprocess
    import sys
    import textwrap

    monkeypatch.setenv("TRICKBOOK_DB_RETRY_SECONDS", "20")  # writer waits up to 100 s
    script = textwrap.dedent(f"""
        import duckdb, sys
        con = duckdb.connect({str(fixture_copy)!r}, read_only=True)
        print("reading", flush=True)
        sys.stdin.readline()
        con.close()
    """)
    reader = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert reader.stdout is not None and reader.stdout.readline().strip() == "reading"
        release = threading.Timer(4.0, lambda: (reader.stdin.write("\n"), reader.stdin.flush()))
        release.start()
        (result,) = ingest_uploads([("late.jsonl", GOOD)], fixture_copy, tmp_path / "up")
        release.join()
    finally:
        reader.wait(timeout=30)
    assert (result.records, result.stored) == (2, 2), result.message


def weekly_versions() -> tuple[bytes, bytes]:
    """A club's weekly file (the first game of the league sample) and its next version: deal 2
    corrected, deal 5 left out."""
    lines = (Path(__file__).resolve().parents[2] / "data" / "samples" / "league.jsonl"
             ).read_text().splitlines()[:10]
    assert '"deal_no": 2,' in lines[2] and '"deal_no": 5,' in lines[5]
    changed = [lines[0], lines[1], lines[2].replace('"Boris": 8, "Chris": 2',
                                                    '"Boris": 7, "Chris": 3'),
               *lines[3:5], *lines[6:]]
    assert changed[2] != lines[2]
    return ("\n".join(lines) + "\n").encode(), ("\n".join(changed) + "\n").encode()


def upload(at: AppTest, name: str, data: bytes, replace: bool) -> None:
    """Drive the Upload page: choose the file, tick (or not) the box, press Ingest."""
    at.get("file_uploader")[0].set_value((name, data, "application/json")).run()
    box = at.checkbox(key="upload_replace")
    assert box.value is False or replace  # off by default
    box.set_value(replace).run()
    at.button(key="upload_go").click().run()
    assert not at.exception


def tricks_of_deal_2(db: Path) -> list[tuple[object, ...]]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return conn.execute("SELECT record->>'$.tricks.Boris', (SELECT count(*) FROM deals d "
                            "WHERE d.game_id = x.game_id) FROM deals x WHERE deal_no = 2 AND "
                            "game_id = 'club-7/2026-11-08/table-1'").fetchall()
    finally:
        conn.close()


def test_upload_page_replaces_an_earlier_version_only_when_asked(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: a changed weekly file uploaded again. Without "this file replaces its earlier
    version" the page shows the conflicts and keeps what is stored; with it the new version is
    stored (the corrected deal replaces the old, the deal it left out is removed)."""
    from tests.dashboards.test_pages import page

    first, second = weekly_versions()
    at = page("upload", fixture_copy, monkeypatch)
    upload(at, "weekly.jsonl", first, replace=False)
    assert any("10 stored" in s.value for s in at.success), [s.value for s in at.success]
    assert tricks_of_deal_2(fixture_copy) == [("8", 9)]

    upload(at, "weekly.jsonl", second, replace=False)
    warned = " ".join(w.value for w in at.warning)
    assert "conflicts with stored records (quarantined too; the stored records are kept)" \
        in warned and "deal 2 " in warned
    assert "this file replaces its earlier version" in warned
    assert "deal 5 " in warned and "is not in this version" in warned
    assert tricks_of_deal_2(fixture_copy) == [("8", 9)]

    upload(at, "weekly.jsonl", second, replace=True)
    shown = " ".join(s.value for s in at.success)
    assert "1 replacing the earlier version" in shown and "1 deal of the earlier version" \
        " not in this one removed" in shown, shown
    assert not at.warning
    assert tricks_of_deal_2(fixture_copy) == [("7", 8)]


def test_a_weekly_file_cut_off_removes_nothing_and_is_not_green(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The weekly file uploaded again but cut off in its sixth line: the cut line is
    quarantined and deals 5 to 9 are missing. The page said in green "5 deals ... kept as
    conflicts" beside a table reading "dropped 5", and each conflict advised ticking the box,
    which then removed the five good deals. Nothing is removed while a line is unread; the
    summary is a warning, and the conflicts say to fix the file first."""
    from dashboards.text import md
    from tests.dashboards.test_pages import frame_with, page

    first, _ = weekly_versions()
    cut = first[:first.index(b'"deal_no": 5,') + 20]
    at = page("upload", fixture_copy, monkeypatch)
    upload(at, "weekly.jsonl", first, replace=False)
    for replace in (False, True):
        upload(at, "weekly.jsonl", cut, replace=replace)
        assert not at.success
        warned = " ".join(w.value for w in at.warning)
        assert "kept as conflicts" in warned and "removed" not in warned
        assert md("it is kept while this version has 1 record not stored (line 6)") in warned
        assert frame_with(at, "earlier deals not in it")["earlier deals not in it"].tolist() == [5]
        assert tricks_of_deal_2(fixture_copy) == [("8", 9)]  # the game keeps its 9 deals


def test_another_file_of_the_same_name_with_replace_removes_nothing(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """data/samples has four different ``league.jsonl``: the Greek one uploaded, then the
    Swabian one with "this file replaces its earlier version" ticked (as the conflicts of an
    upload without it advised). All 32 Greek deals were removed, their games left with none.
    A file naming none of the earlier upload's games takes none of its deals away."""
    from tests.dashboards.test_pages import page
    from tests.ingest.conftest import SAMPLES

    def greek_deals() -> int:
        with duckdb.connect(str(fixture_copy), read_only=True) as conn:
            return int(conn.execute(  # type: ignore[index]
                "SELECT count(*) FROM deals WHERE game_id LIKE 'club-7/%'").fetchone()[0])

    at = page("upload", fixture_copy, monkeypatch)
    upload(at, "league.jsonl", (SAMPLES / "league.jsonl").read_bytes(), replace=False)
    before = greek_deals()
    assert before >= 32
    upload(at, "league.jsonl", (SAMPLES / "swabian" / "league.jsonl").read_bytes(),
           replace=True)
    shown = " ".join(s.value for s in [*at.success, *at.warning])
    assert "42 stored" in shown and "removed" not in shown and "conflict" not in shown, shown
    assert greek_deals() == before


def test_quality_page_shows_what_a_new_version_replaced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/ingest.md "Versions of a source": the Data quality page lists the rows of
    ``superseded`` (the corrected deal 2 replaced, deal 5 dropped), with both versions."""
    from tests.dashboards import fixture_db as fx
    from tests.dashboards.test_pages import frame_with, page

    db = fx.build_empty(tmp_path / "t.duckdb")
    first, second = weekly_versions()
    p = tmp_path / "weekly.jsonl"
    p.write_bytes(first)
    ingest_paths([p], db)
    at = page("quality", db, monkeypatch)
    assert any("No new version" in i.value for i in at.info)
    p.write_bytes(second)
    (r,) = ingest_paths([p], db, replace=True)
    at = page("quality", db, monkeypatch)
    assert not at.exception
    shown = frame_with(at, "earlier version")
    assert sorted(shown["change"]) == ["deal dropped", "deal replaced"]
    assert set(shown["by version"]) == {(r.sha256 or "")[:12]}
    assert str(tmp_path) not in shown.to_string()


def test_the_same_file_uploaded_again_is_its_latest_upload(tmp_path: Path) -> None:
    """Week 1, week 2, then week 1 again: the folder is read with week 1 last, as it was last
    uploaded (dashboards/uploads.py ``save``, ingest/formats.py ``reading_order``)."""
    from ingest.formats import expand

    first, second = b'{"week": 1}\n', b'{"week": 2}\n'
    for age, data in enumerate((first, second, first)):
        saved = save(tmp_path, stored_name("week.jsonl", data), data)
        if age < 2:
            os.utime(saved, (1_000_000 + age, 1_000_000 + age))
    assert [p.read_bytes() for p, _ in expand([tmp_path])] == [second, first]


def test_an_upload_s_quarantined_count_is_what_its_lists_show(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The next version of a weekly file with deal 2 changed and a line that is not JSON: the
    file's summary counts both quarantined, and the page lists the broken line under
    "quarantined, besides the conflicts below" and the changed deal under the conflicts, which
    it calls quarantined too (the box said "quarantined" above one line under a count of 2)."""
    from tests.dashboards.test_pages import page

    first, second = weekly_versions()
    at = page("upload", fixture_copy, monkeypatch)
    upload(at, "weekly.jsonl", first, replace=False)
    upload(at, "weekly.jsonl", second + b"{not json\n", replace=False)
    warned = [w.value for w in at.warning]
    summary = next(w for w in warned if "records," in w)
    quarantined = int(re.search(r"(\d+) quarantined", summary)[1])
    issues = next(w for w in warned if "quarantined, besides the conflicts below" in w)
    conflicts = next(w for w in warned if "conflicts with stored records (quarantined" in w)
    listed = [line for w in (issues, conflicts) for line in w.splitlines()
              if line.startswith("- ") and "is not in this version" not in line]
    assert len(listed) == quarantined, (summary, listed)  # deal 5, left out, is said apart
    assert "1 deal of the earlier version not in this one kept" in summary


def test_a_changed_upload_names_the_box_and_no_server_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A weekly file uploaded again with a deal changed: the conflict says to tick the page's
    box (not the command's ``--replace``), and neither the Upload page's message nor the Data
    quality page shows the server's folder (dashboards/text.py ``short_paths``)."""
    from tests.dashboards.fixture_db import build_empty
    from tests.dashboards.test_pages import page

    (tmp_path / "db").mkdir()
    db = build_empty(tmp_path / "db" / "t.duckdb")
    week = (SAMPLES / "league.jsonl").read_text()
    changed = week.replace('"tricks": {"Anna": 6, "Boris": 4, "Chris": 0}',
                           '"tricks": {"Anna": 5, "Boris": 5, "Chris": 0}', 1)
    assert changed != week
    ingest_uploads([("week.jsonl", week.encode())], db)
    (r,) = ingest_uploads([("week.jsonl", changed.encode())], db)
    assert r.conflicts and all(f'"{REPLACE_BOX}" ticked' in c for c in r.conflicts)
    server = str(db.parent)
    assert not any(server in c or "--replace" in c for c in r.conflicts)
    # the earlier version by the name it was uploaded under, never its stored name (a hash)
    earlier = stored_name("week.jsonl", week.encode())
    assert not any(earlier in c for c in r.conflicts), r.conflicts
    assert all(f"uploads/week.jsonl (upload {earlier[:12]}) line " in c for c in r.conflicts)
    # its version once, by the name: not again as "(version ...)" with as many digits or fewer
    assert not any(earlier[:8] in c.replace(f"(upload {earlier[:12]})", "")
                   for c in r.conflicts), r.conflicts
    at = page("quality", db, monkeypatch)
    assert not at.exception
    shown = " ".join(df.value.to_string() for df in at.dataframe)
    assert "uploads/" in shown and server not in shown


def test_a_conflict_with_another_file_gives_no_advice_the_box_cannot_follow(
        tmp_path: Path) -> None:
    """The stored deal came from another file of another name (the samples' league.jsonl), so
    ticking the box on week.jsonl cannot take the upload's version: the conflict says where the
    stored deal is from and that only a file of that name can change it. An upload's other
    quarantined records are listed with their line and reason."""
    from ingest.pipeline import ingest_paths
    from tests.dashboards.fixture_db import build_empty

    (tmp_path / "db").mkdir()
    db = build_empty(tmp_path / "db" / "t.duckdb")
    ingest_paths([SAMPLES / "league.jsonl"], db)
    changed = (SAMPLES / "league.jsonl").read_text().replace(
        '"tricks": {"Anna": 6, "Boris": 4, "Chris": 0}',
        '"tricks": {"Anna": 5, "Boris": 5, "Chris": 0}', 1) + "not json\n"
    (r,) = ingest_uploads([("week.jsonl", changed.encode())], db)
    assert r.conflicts and "samples/league.jsonl" in r.conflicts[0]
    assert not any(REPLACE_BOX in c or "--replace" in c for c in r.conflicts)
    assert r.conflicts[0].endswith(  # the way forward: a file of that name
        "it comes from another file, and only a new version of league.jsonl (a file of that "
        "name, ingested or uploaded) can change it")
    assert not r.in_part  # no change an upload of this name can take
    assert len(r.issues) == 1 and r.issues[0].startswith("line 37: parse: ")


def test_a_file_uploaded_again_says_it_has_nothing_new(tmp_path: Path) -> None:
    """The same file uploaded again read "unchanged" beside a row of noughts, and a copy under
    another name "same content as uploads/<16 hex digits>-week.jsonl", the server's name."""
    from tests.dashboards.fixture_db import build_empty

    (tmp_path / "db").mkdir()
    db = build_empty(tmp_path / "db" / "t.duckdb")
    data = (SAMPLES / "league.jsonl").read_bytes()
    (first,) = ingest_uploads([("week.jsonl", data)], db)
    assert first.stored > 0 and not first.message
    (again,) = ingest_uploads([("week.jsonl", data)], db)
    assert again.message == "uploaded before with this same content: nothing new to store"
    (copy,) = ingest_uploads([("copy.jsonl", data)], db)
    assert copy.message.startswith("the same content as uploads/week.jsonl (upload ")
    assert copy.message.endswith(", ingested before: nothing new to store")
    assert re.search(r"[0-9a-f]{16}", copy.message) is None


def test_a_sheet_uploaded_with_its_game_file_is_read_with_it(tmp_path: Path) -> None:
    """A score sheet whose game is its ``.game.json`` (data/samples/club-sheet-2026-11-29.csv,
    docs/csv-score-sheet.md) could not be uploaded: each file was kept under its own content's
    name, so the sheet found no game beside it (every deal quarantined) and the game file had
    "no reader". Uploaded together, the game file goes beside its sheet and the sheet is read;
    a changed game file is a new version of the sheet; a game file alone, or a sheet alone,
    says what it lacks, with the names as uploaded."""
    sheet = (SAMPLES / "club-sheet-2026-11-29.csv").read_bytes()
    game = (SAMPLES / "club-sheet-2026-11-29.game.json").read_bytes()
    db, up = tmp_path / "t.duckdb", tmp_path / "up"
    read, note = ingest_uploads([("week.csv", sheet), ("week.game.json", game)], db, up)
    assert (read.records, read.stored, read.quarantined) == (5, 5, 0) and not read.issues
    assert note.saved_as == "" and note.message == "the game of week.csv: read with it"
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT game_id FROM games").fetchall() == [
            ("club-7/2026-11-29/table-2",)]
    kassa = game.replace(b'"initial_kassa": 31', b'"initial_kassa": 30')
    (again, _) = ingest_uploads([("week.csv", sheet), ("week.game.json", kassa)], db, up,
                                replace=True)
    assert again.replaced == 1 and not again.issues  # the game line, in place of the first
    (alone,) = ingest_uploads([("other.game.json", game)], db, up)
    assert alone.saved_as is None and "upload it together with its sheet (other.csv)" in \
        alone.message
    (bare,) = ingest_uploads([("bare.csv", sheet.replace(b"7NT", b"6NT"))], db, up)
    assert bare.stored == 0 and bare.issues[0].startswith("line 1: parse: the sheet names no game")
    assert "no bare.game.json beside it" in bare.issues[0]


def test_one_record_is_said_in_the_singular(fixture_copy: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of one record read "1 records, 1 stored, 0 duplicates, 0 quarantined"."""
    from tests.dashboards.test_pages import page

    game = weekly_versions()[0].splitlines()[0] + b"\n"  # the game line alone
    at = page("upload", fixture_copy, monkeypatch)
    upload(at, "one.jsonl", game, replace=False)
    shown = [s.value for s in at.success]
    assert any("one\\.jsonl: 1 record, 1 stored, 0 duplicates, 0 quarantined" in s
               for s in shown), shown


def test_a_new_version_of_an_upload_replaces_the_quarantine_of_the_earlier(
        tmp_path: Path) -> None:
    """A weekly file with a bad line, then its next version with the line mended: the earlier
    version's quarantine row went on being listed, and counted in "Quarantined now", for ever
    (an upload is saved under its content's name, so each version was a source of its own).
    Now the new version's read replaces it (ingest/versions.py ``clear_replaced_quarantine``);
    what is still wrong is quarantined again, under the new version, once; the data checks
    hold (scoring/checks.py, the versions of an upload one source)."""
    from dashboards import queries as q
    from scoring.checks import run_checks

    good = GOOD.decode()
    bad = good.replace('"deal_no": 1,', '"deal_no": "one",')
    other = good.replace('"Ana"}', '"Ana", "bogus": 1}').replace('"deal_no": 1', '"deal_no": 2')
    db = tmp_path / "t.duckdb"
    uploads = tmp_path / "up"

    def upload(text: str) -> None:
        ingest_uploads([("week.jsonl", text.encode())], db, uploads)

    def held() -> tuple[list[str], int]:
        with duckdb.connect(str(db), read_only=True) as con:
            rows = [r[0] for r in con.execute("SELECT message FROM quarantine").fetchall()]
            now = int(q.ingest_totals(con)["quarantined now"][0])
            assert run_checks(con) == [], run_checks(con)
        return rows, now

    upload(bad + other.splitlines(keepends=True)[1])  # two bad deals
    rows, now = held()
    assert len(rows) == now == 2
    upload(good + other.splitlines(keepends=True)[1])  # the first mended, the second not
    rows, now = held()
    assert len(rows) == now == 1 and "bogus" in rows[0]
    upload(good)
    assert held() == ([], 0)


def test_an_upload_with_more_issues_than_listed_says_how_many(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven bad lines: the page lists the first five and says so, with the count of all (it
    said "all of them on the Data quality page" above five of seven)."""
    from tests.dashboards.test_pages import page

    at = page("upload", fixture_copy, monkeypatch)
    upload(at, "bad.jsonl", GOOD + b"{not json\n" * 7, replace=False)
    issues = next(w.value for w in at.warning if "quarantined (" in w.value)
    assert "the first 5 here, all 7 on the Data quality page" in issues, issues
    assert sum(line.startswith("- ") for line in issues.splitlines()) == 5


def test_per_file_says_what_became_of_each_upload(tmp_path: Path) -> None:
    """Upload's Per file table gave a refused file, one uploaded before and a sheet's game file
    rows of noughts, as if they held no records; each now says what became of it, and only a
    file that was read has counts. A sheet's game file uploaded again with it said "read with
    it" though nothing was read."""
    from dataclasses import asdict

    from dashboards.uploads import per_file

    data = (SAMPLES / "league.jsonl").read_bytes()
    pair = [("s.csv", (SAMPLES / "club-sheet-2026-11-29.csv").read_bytes()),
            ("s.game.json", (SAMPLES / "club-sheet-2026-11-29.game.json").read_bytes())]
    db, up = tmp_path / "t.duckdb", tmp_path / "up"
    (first,) = ingest_uploads([("week.jsonl", data)], db, up)
    results = ingest_uploads(
        [("week.jsonl", data), ("empty.jsonl", b""), ("notes.txt", b"hello\n"), *pair], db, up)
    table = per_file([asdict(first)] + [asdict(r) for r in results])
    assert table.select("name", "result", "records", "stored").rows() == [
        ("week.jsonl", "read", first.records, first.records),
        ("week.jsonl", "ingested before", None, None),
        ("empty.jsonl", "refused", None, None),
        ("notes.txt", "not read", None, None),
        ("s.csv", "read", 5, 5),
        ("s.game.json", "read with its sheet", None, None)]
    assert results[1].message == "“empty.jsonl” is empty: nothing was stored"
    again = ingest_uploads(pair, db, up)
    assert per_file([asdict(r) for r in again])["result"].to_list() == ["ingested before"] * 2
    assert again[1].message == "the game of s.csv, ingested before with it: nothing new to store"


def test_an_upload_with_more_conflicts_than_listed_says_how_many(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A weekly file uploaded again with seven deals changed (the defenders' tricks swapped):
    the page lists the first five conflicts and says how many there are (it listed five and
    said nothing of the others)."""
    from tests.dashboards.test_pages import page

    first, _ = weekly_versions()

    def swapped(m: re.Match[bytes]) -> bytes:
        return b'"Chris": %s, "Anna": %s' % (m[2], m[1])

    second, changed = re.subn(rb'"Chris": (\d+), "Anna": (?!\1\b)(\d+)', swapped, first)
    assert changed == 7
    at = page("upload", fixture_copy, monkeypatch)
    upload(at, "weekly.jsonl", first, replace=False)
    upload(at, "weekly.jsonl", second, replace=False)
    conflicts = next(w.value for w in at.warning if "conflicts with stored records" in w.value)
    assert "the first 5 here, all 7 on the Data quality page" in conflicts, conflicts
    assert sum(line.startswith("- ") for line in conflicts.splitlines()) == 5


def test_quality_page_gives_an_upload_s_conflicts_the_upload_page_s_advice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed weekly file uploaded without the box: its conflicts on the Data quality page
    said "ingest with --replace", a command a scorer in the browser has not got, where the
    Upload page said to tick its box. Both say the box now; a file ingested by the command keeps
    the command's advice."""
    from ingest.pipeline import ingest_paths
    from tests.dashboards import fixture_db as fx
    from tests.dashboards.test_pages import frame_with, page

    (tmp_path / "db").mkdir()
    db = fx.build_empty(tmp_path / "db" / "t.duckdb")
    first, second = weekly_versions()
    ingest_uploads([("weekly.jsonl", first)], db)
    ingest_uploads([("weekly.jsonl", second)], db)
    at = page("quality", db, monkeypatch)
    assert not at.exception
    problems = frame_with(at, "text as read")["problem"].to_list()
    changed = [p for p in problems if "other content" in p]
    assert changed and all(f'upload it again with "{REPLACE_BOX}" ticked' in p for p in changed)
    assert not any("--replace" in p for p in problems)
    path = tmp_path / "weekly.jsonl"
    path.write_bytes(first.replace(b"table-1", b"table-9"))
    ingest_paths([path], db)
    path.write_bytes(second.replace(b"table-1", b"table-9"))
    ingest_paths([path], db)
    at = page("quality", db, monkeypatch)
    problems = frame_with(at, "text as read")["problem"].to_list()
    assert any("ingest with --replace" in p for p in problems)


AUDIT = "audit club.jsonl"
"""The browser walk's file: a name with a space, kept as ``<hash>-audit_club.jsonl``."""


def audit_versions() -> tuple[bytes, bytes]:
    """The browser walk's ``audit club.jsonl``: a game line and deals 1 to 4 (version 1), and
    its next version: deal 2's tricks changed, deal 4 left out, deal 5 added."""
    lines = (SAMPLES / "league.jsonl").read_text().splitlines()
    changed = lines[2].replace('"Boris": 8, "Chris": 2', '"Boris": 7, "Chris": 3')
    assert changed != lines[2] and '"deal_no": 5,' in lines[5]
    return (("\n".join(lines[:5]) + "\n").encode(),
            ("\n".join([*lines[:2], changed, lines[3], lines[5]]) + "\n").encode())


def standing(db: Path) -> list[tuple[object, ...]]:
    """The deals stored of the audit file's game: number and Boris's tricks."""
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT deal_no, record->>'$.tricks.Boris' FROM deals WHERE "
                           "game_id = 'club-7/2026-11-08/table-1' ORDER BY 1").fetchall()


V1_DEALS = [(1, "4"), (2, "8"), (3, "7"), (4, "9")]
V2_DEALS = [(1, "4"), (2, "7"), (3, "7"), (5, "6")]


def test_an_earlier_version_uploaded_again_with_the_box_stands_again(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The browser walk: version 1, version 2 with the box, version 1 again with the box read
    "uploaded before with this same content: nothing new to store" and kept version 2, where
    ``trickbook ingest club.jsonl --replace`` with v1, v2, v1 stores v1's deals again."""
    from tests.dashboards.test_pages import page

    v1, v2 = audit_versions()
    at = page("upload", fixture_copy, monkeypatch)
    upload(at, AUDIT, v1, replace=False)
    upload(at, AUDIT, v2, replace=True)
    both = "1 replacing the earlier version; 1 deal of the earlier version not in this one removed"
    assert any(both in s.value for s in at.success)
    assert standing(fixture_copy) == V2_DEALS
    upload(at, AUDIT, v1, replace=True)
    assert not any("nothing new to store" in i.value for i in at.info)
    assert any(both in s.value for s in at.success), [s.value for s in at.success]
    assert standing(fixture_copy) == V1_DEALS
    upload(at, AUDIT, v1, replace=True)  # it stands: nothing to read again
    assert any("nothing new to store" in i.value for i in at.info)
    assert standing(fixture_copy) == V1_DEALS
    # the uploads folder ingested again reads nothing: each version is unchanged
    again = ingest_paths([fixture_copy.parent / "uploads"], fixture_copy, replace=True)
    assert {r.skipped for r in again} == {"unchanged"}
    assert standing(fixture_copy) == V1_DEALS


def test_an_earlier_version_uploaded_again_without_the_box_says_what_stands(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Version 1 uploaded again without the box, after version 2 replaced it: the page said
    "uploaded before with this same content: nothing new to store", though what is stored is
    version 2's. It lists what differs, says to tick the box, and keeps version 2."""
    from tests.dashboards.test_pages import page

    v1, v2 = audit_versions()
    ingest_uploads([(AUDIT, v1)], fixture_copy)
    ingest_uploads([(AUDIT, v2)], fixture_copy, replace=True)
    at = page("upload", fixture_copy, monkeypatch)
    upload(at, AUDIT, v1, replace=False)
    said = " ".join(m.value for kind in (at.info, at.success, at.warning) for m in kind)
    assert "nothing new to store" not in said and "same content" not in said
    assert REPLACE_BOX in said
    assert standing(fixture_copy) == V2_DEALS


def test_the_upload_pages_name_an_upload_as_it_was_uploaded(
        fixture_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The browser walk: ``audit club.jsonl`` was listed as ``uploads/audit_club.jsonl (upload
    1d98e9232605)``, the name it is kept under, and a conflict named its version twice
    (``... (upload 1d98e9232605) line 5 (version 1d98e9232605)``). Both pages name it as it
    was uploaded, each version once."""
    from dashboards.text import md
    from tests.dashboards.test_pages import frame_with, page

    v1, v2 = audit_versions()
    h1, h2 = stored_name(AUDIT, v1)[:12], stored_name(AUDIT, v2)[:12]
    at = page("upload", fixture_copy, monkeypatch)
    upload(at, AUDIT, v1, replace=False)
    upload(at, AUDIT, v2, replace=False)
    conflicts = next(w.value for w in at.warning if "conflicts with stored records" in w.value)
    listed = [line for line in conflicts.splitlines() if line.startswith("- ")]
    assert len(listed) == 2 and all(line.count(h1) == 1 for line in listed), listed
    assert md(f"stored from uploads/{AUDIT} (upload {h1}) line 3; this is version {h2}") \
        in conflicts
    assert md(f"stored from uploads/{AUDIT} (upload {h1}) line 5 is not in this version {h2}") \
        in conflicts
    at = page("quality", fixture_copy, monkeypatch)
    assert not at.exception
    files = set(frame_with(at, "sha256 (start)")["file"])
    assert {f"uploads/{AUDIT} (upload {h1})", f"uploads/{AUDIT} (upload {h2})"} <= files
    assert not any("audit_club" in f for f in files)
    problems = frame_with(at, "text as read")["problem"].to_list()
    assert sum(f"uploads/{AUDIT} (upload {h1}) line 5 is not in this version {h2}" in p
               for p in problems) == 1, problems
    assert all(p.count(h1) == 1 for p in problems if AUDIT in p), problems


def test_the_name_an_upload_was_given_is_kept_beside_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Names with letters of any script, a dash and a suit symbol, or markup: the pages name
    them as uploaded (Markdown escaped), from a record in the uploads folder, so a restarted
    server (a page run anew here) does too; an upload saved before the record, or without it,
    by its safe name. ``trickbook ingest`` of the uploads folder passes the record over."""
    from dashboards.text import md
    from dashboards.uploads import NAMES_FILE
    from ingest.pipeline import ingest_paths
    from tests.dashboards.fixture_db import build_empty
    from tests.dashboards.test_pages import frame_with, page

    (tmp_path / "db").mkdir()
    db = build_empty(tmp_path / "db" / "t.duckdb")
    german, marked = "Sitzung März 2026 — Tisch 1 ♠.jsonl", "**Club** <b>x</b> [a](b).jsonl"
    bad = GOOD.replace(b"late/1", b"late/2") + b"{not json\n"
    ingest_uploads([(german, GOOD), (marked, bad)], db)
    at = page("quality", db, monkeypatch)
    files = frame_with(at, "sha256 (start)")["file"].to_list()
    shown = [f"uploads/{german} (upload {stored_name(german, GOOD)[:12]})",
             f"uploads/{marked} (upload {stored_name(marked, bad)[:12]})"]
    assert sorted(files) == sorted(shown)
    assert sorted(at.selectbox(key="quality_source").options[1:]) == sorted(shown)
    at.selectbox(key="quality_source").set_value(
        str(db.parent / "uploads" / stored_name(marked, bad))).run()
    assert at.query_params["file"] in (shown[1], [shown[1]])  # as shown: no server path
    caption = next(c.value for c in at.caption if "quarantined record" in c.value)
    assert md(shown[1]) in caption, caption
    reports = ingest_paths([db.parent / "uploads"], db)
    assert not any(NAMES_FILE in r.source for r in reports)
    (db.parent / "uploads" / NAMES_FILE).unlink()
    at = page("quality", db, monkeypatch)
    assert f"uploads/{stored_name(german, GOOD)[17:]} (upload " in \
        " ".join(frame_with(at, "sha256 (start)")["file"])


def _ingested_from_a_folder(tmp_path: Path, week12: bytes) -> Path:
    """A database of ``week12`` read from a club's folder, ``club/2026/week12.jsonl``, as
    ``trickbook ingest`` reads it."""
    from tests.dashboards.fixture_db import build_empty

    (tmp_path / "db").mkdir()
    db = build_empty(tmp_path / "db" / "t.duckdb")
    folder = tmp_path / "club" / "2026"
    folder.mkdir(parents=True)
    (folder / "week12.jsonl").write_bytes(week12)
    ingest_paths([folder / "week12.jsonl"], db)
    return db


def test_an_upload_replaces_the_file_ingested_from_a_folder_when_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user walk: the secretary ingested week12.jsonl from a folder (``trickbook ingest``,
    the demo's samples), corrected a deal, left one out and added one, and uploaded the copy.
    The upload was another source: its new deal was stored, its changed one refused as
    another file's ("an upload cannot" change it) and the deal it left out kept unmentioned.
    It is a new version of the file of its name whose games it holds: without the box the
    page says it was applied in part, which changes were not taken and how to take them; with
    it, the game is the corrected file's."""
    from tests.dashboards.test_pages import page

    first, second = weekly_versions()
    added = second.splitlines()[-1].replace(b'"deal_no": 9,', b'"deal_no": 10,')
    assert added != second.splitlines()[-1]
    second += added + b"\n"
    db = _ingested_from_a_folder(tmp_path, first)
    at = page("upload", db, monkeypatch)
    upload(at, "week12.jsonl", second, replace=False)
    warned = " ".join(w.value for w in at.warning)
    assert "a new version of 2026/week12.jsonl" in warned, warned
    assert ("applied in part: 1 record stored, but 1 changed record refused and 1 deal of "
            "the earlier version that it leaves out kept (the conflicts): upload it again with "
            f'"{REPLACE_BOX}" ticked to take this version whole') in warned.replace("\\", "")
    assert "deal 2 " in warned and "deal 5 " in warned and "is not in this version" in warned
    assert "an upload cannot" not in warned and str(tmp_path) not in warned
    assert tricks_of_deal_2(db) == [("8", 10)]  # deal 10 stored, deal 2 and deal 5 kept

    upload(at, "week12.jsonl", second, replace=True)
    shown = " ".join(s.value for s in at.success)
    assert not at.warning, [w.value for w in at.warning]
    assert ("a new version of 2026/week12.jsonl; 1 replacing the earlier version; 1 deal of "
            "the earlier version not in this one removed") in shown, shown
    assert tricks_of_deal_2(db) == [("7", 9)]


def test_the_file_ingested_from_a_folder_uploaded_again_with_the_box_is_put_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user walk: week12.jsonl ingested from a folder, its corrected copy uploaded with the
    box, then, to undo the correction, the earlier file's bytes uploaded with the box: it was
    skipped as "the same content as 2026/week12.jsonl, ingested before: nothing new to store"
    and the corrected deals stayed. Without the box the page says the corrected upload
    replaced it since and to tick the box to put it back; with it, it stands again. Uploaded
    again, and the folder ingested again, nothing changes."""
    from tests.dashboards.test_pages import page

    first, second = weekly_versions()
    db = _ingested_from_a_folder(tmp_path, first)
    at = page("upload", db, monkeypatch)
    upload(at, "week12.jsonl", second, replace=True)
    assert tricks_of_deal_2(db) == [("7", 8)]
    corrected = f"uploads/week12.jsonl (upload {stored_name('week12.jsonl', second)[:12]})"

    at = page("upload", db, monkeypatch)  # the box off, as a new visit has it
    upload(at, "week12.jsonl", first, replace=False)
    warned = " ".join(w.value for w in at.warning).replace("\\", "")
    assert (f"the same content as 2026/week12.jsonl, ingested before, but since replaced by "
            f'{corrected}: upload it again with "{REPLACE_BOX}" ticked to put it back') \
        in warned, warned
    assert not at.info and tricks_of_deal_2(db) == [("7", 8)]
    assert at.dataframe[0].value["result"].to_list() == ["replaced since"]

    upload(at, "week12.jsonl", first, replace=True)
    shown = " ".join(s.value for s in at.success).replace("\\", "")
    assert not at.warning, [w.value for w in at.warning]
    assert f"put back: it stands again in place of {corrected}, which had replaced it" in shown
    assert tricks_of_deal_2(db) == [("8", 9)]  # deal 2 as it was, deal 5 back

    upload(at, "week12.jsonl", first, replace=True)
    assert any("nothing new to store" in i.value for i in at.info)
    again = ingest_paths([tmp_path / "club" / "2026", db.parent / "uploads"], db, replace=True)
    assert {r.skipped for r in again} == {"unchanged"} and tricks_of_deal_2(db) == [("8", 9)]


def _add(at: AppTest, name: str, data: bytes) -> None:
    """Drop one more file in the uploader, as the browser does: the files it still lists stay
    listed beside it."""
    box = at.get("file_uploader")[0]
    listed = [(f.name, f.getvalue(), f.type) for f in box.value or []]
    box.set_value([*listed, (name, data, "application/json")]).run()


def test_a_press_reads_only_the_files_chosen_since_the_last(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user walk: week12.jsonl ingested from a folder, its corrected copy uploaded with the
    box, then the earlier file dropped again with the box to undo the correction. The files of
    the earlier press stayed in the uploader and were read again with the next press: the
    summary showed two put-backs (the corrected copy put back over the earlier file, then the
    earlier file over it). A press reads the files chosen since the last one: the uploader is
    empty after it, the results stay shown, and the undo is one put-back."""
    from tests.dashboards.test_pages import page

    first, second = weekly_versions()
    db = _ingested_from_a_folder(tmp_path, first)
    at = page("upload", db, monkeypatch)
    at.checkbox(key="upload_replace").set_value(True).run()
    _add(at, "week12.jsonl", second)
    at.button(key="upload_go").click().run()
    assert not at.exception and tricks_of_deal_2(db) == [("7", 8)]
    assert not at.get("file_uploader")[0].value, "the files read are still listed"
    assert at.dataframe[0].value["file"].to_list() == ["week12.jsonl"]  # the results stay
    assert at.button(key="upload_go").disabled

    _add(at, "week12.jsonl", first)
    at.button(key="upload_go").click().run()
    assert not at.exception and not at.warning, [w.value for w in at.warning]
    assert at.dataframe[0].value["file"].to_list() == ["week12.jsonl"]
    shown = [s.value for s in at.success]
    assert len(shown) == 1 and "put back" in shown[0], shown
    assert tricks_of_deal_2(db) == [("8", 9)]  # deal 2 as it was, deal 5 back
