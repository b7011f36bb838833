"""A new version of a file read from another place (docs/ingest.md, "Versions of a source"): a
club's weekly file ingested from a folder, then its corrected copy (a deal changed, one left
out, one added) ingested from another folder or uploaded. The copy was another source: its new
deal was stored, its changed one refused as "another file's" and the deal it left out kept
unmentioned, so the game mixed both versions. A file of the same name that holds the earlier
file's games is its new version, with ``replace`` or without; a file of another name, or of
the same name without its games, is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest.pipeline import FileReport, ingest_paths
from ingest.versions import DROPPED_LINE
from tests.ingest.conftest import SAMPLES
from tests.ingest.fakes import FakeSettlement, fake_scorer
from tests.ingest.test_versions import GAME, LEAGUE, failing_checks, query

KEPT = ("SELECT * EXCLUDE (source, line) FROM {} WHERE game_id = '" + GAME + "' ORDER BY ALL")
"""What a game's rows say, wherever they were read from."""


def game_rows(db: Path) -> list[list[tuple[object, ...]]]:
    """The game's ``games``, ``deals`` (less where they were read) and ``deals_greek`` rows."""
    return [query(db, KEPT.format("games")), query(db, KEPT.format("deals")),
            query(db, f"SELECT * FROM deals_greek WHERE game_id = '{GAME}' ORDER BY ALL")]


def ingest(db: Path, p: Path, *, replace: bool = False, fast: bool = True) -> FileReport:
    (r,) = ingest_paths([p], db, score=fake_scorer(FakeSettlement()), replace=replace,
                        fast=fast)
    assert r.failed is None and r.records == r.stored + r.duplicates + r.quarantined, r
    return r


def week(deals: dict[int, str | None]) -> str:
    """The league's first game as a weekly file, with ``deals`` changed: a number's line in
    place of its own, ``None`` to leave it out; a number the game has not is added."""
    lines = [line for line in LEAGUE.read_text().splitlines() if f'"game_id": "{GAME}"' in line]
    numbered = {json.loads(line).get("deal_no"): line for line in lines}
    out = [numbered.pop(None)] + [deals.get(n, line) for n, line in numbered.items()]
    out += [line for n, line in deals.items() if n not in numbered]
    return "\n".join(line for line in out if line is not None) + "\n"


def deal(no: int, tricks: str = '"Boris": 7, "Chris": 3') -> str:
    """Deal 2 of the league's first game under number ``no``, with ``tricks``."""
    line = next(line for line in LEAGUE.read_text().splitlines()
                if f'"game_id": "{GAME}", "deal_no": 2,' in line)
    return line.replace('"deal_no": 2,', f'"deal_no": {no},').replace(
        '"Boris": 8, "Chris": 2', tricks)


CORRECTED = {2: deal(2), 5: None, 13: deal(13, '"Boris": 6, "Chris": 4')}
"""The weekly file corrected: deal 2 changed, deal 5 left out, deal 13 added."""


def placed(tmp_path: Path, folder: str, text: str, name: str = "week12.jsonl") -> Path:
    p = tmp_path / folder / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p


def as_alone(tmp_path: Path, text: str) -> list[list[tuple[object, ...]]]:
    """The game's rows in a database that read only ``text``."""
    db = tmp_path / "alone.duckdb"
    db.unlink(missing_ok=True)
    ingest(db, placed(tmp_path, "alone", text))
    return game_rows(db)


def test_a_name_is_the_name_an_upload_of_the_file_is_saved_under() -> None:
    from ingest.source import file_name

    assert file_name("some/folder/week 12.jsonl") == "week_12.jsonl"
    assert file_name("uploads/0123456789abcdef-week_12.jsonl") == "week_12.jsonl"
    assert file_name("week12.jsonl") == file_name("/srv/club/2026/week12.jsonl")


@pytest.mark.parametrize("fast", [True, False])
def test_a_corrected_copy_from_another_folder_replaces_the_earlier_file(
        tmp_path: Path, fast: bool) -> None:
    """``trickbook ingest corrected/week12.jsonl --replace``: the game is what the corrected
    file alone stores (deal 2 changed, deal 5 removed, deal 13 added), each change a row of
    ``superseded``; a third version from yet another folder replaces both earlier files' deals
    (deal 2 now stored from the second). Each file read again changes nothing."""
    db = tmp_path / "t.duckdb"
    first = placed(tmp_path, "some/folder", week({}))
    ingest(db, first, fast=fast)
    second = placed(tmp_path, "corrected", week(CORRECTED))
    r = ingest(db, second, replace=True, fast=fast)
    assert (r.stored, r.replaced, r.dropped, r.removed, r.quarantined) == (2, 1, 1, True, 0)
    assert r.earlier_files == [str(first)] and r.in_part() == ""
    assert game_rows(db) == \
        as_alone(tmp_path, week(CORRECTED))
    assert query(db, "SELECT change, record_key, line FROM superseded ORDER BY ALL") == [
        ("deal dropped", f"{GAME}#5", 6), ("deal replaced", f"{GAME}#2", 3)]
    third = week({**CORRECTED, 2: deal(2, '"Boris": 6, "Chris": 4'), 13: None})
    r = ingest(db, placed(tmp_path, "mended", third), replace=True, fast=fast)
    assert sorted(r.earlier_files) == sorted([str(first), str(second)])
    assert (r.replaced, r.dropped, r.removed, r.quarantined) == (1, 1, True, 0)
    assert game_rows(db) == \
        as_alone(tmp_path, third)
    assert failing_checks(db) == []
    before = [*game_rows(db), query(db, "SELECT * FROM superseded ORDER BY ALL")]
    for p in (first, second, tmp_path / "mended" / "week12.jsonl"):
        assert ingest(db, p, fast=fast).skipped == "unchanged"
    assert [*game_rows(db), query(db, "SELECT * FROM superseded ORDER BY ALL")] == before


@pytest.mark.parametrize("fast", [True, False])
def test_without_replace_a_corrected_copy_says_it_is_applied_in_part(
        tmp_path: Path, fast: bool) -> None:
    """Read without ``replace``, the copy's new deal is stored and its changed one is a
    conflict that says to take it with ``--replace``; the deal it left out is a conflict too
    (it was not mentioned), and the report says the file was applied in part. Read again with
    ``replace`` it is taken whole."""
    db = tmp_path / "t.duckdb"
    first = placed(tmp_path, "some/folder", week({}))
    ingest(db, first, fast=fast)
    second = placed(tmp_path, "corrected", week(CORRECTED))
    r = ingest(db, second, fast=fast)
    assert (r.stored, r.quarantined, r.conflicts, r.withheld) == (1, 1, 1, 1)
    assert (r.dropped, r.removed, r.earlier_files) == (1, False, [str(first)])
    changed = next(i for i in r.issues if i.line == 3)
    assert f"stored from {first} line 3" in changed.message
    assert changed.message.endswith("ingest with --replace to take this version")
    ((message,),) = query(db, f"SELECT message FROM quarantine WHERE line = {DROPPED_LINE}")
    assert f"deal 5 of game '{GAME}' stored from {first} line 6" in str(message)
    assert str(message).endswith("is not in this version "
                                 f"{(r.sha256 or '')[:12]}: ingest with --replace to drop it")
    assert r.in_part() == ("applied in part: 1 record stored, but 1 changed record refused and "
                           "1 deal of the earlier version that it leaves out kept (the "
                           "conflicts): ingest with --replace to take this version whole")
    assert query(db, f"SELECT deal_no FROM deals WHERE game_id = '{GAME}' AND "
                     "deal_no IN (2, 5, 13) AND source = "
                     f"'{first}' ORDER BY 1") == [(2,), (5,)]  # the earlier ones kept
    assert failing_checks(db) == []
    r = ingest(db, second, replace=True, fast=fast)
    assert (r.replaced, r.dropped, r.removed, r.quarantined) == (1, 1, True, 0)
    assert game_rows(db) == \
        as_alone(tmp_path, week(CORRECTED))


@pytest.mark.parametrize("replace", [True, False])
def test_a_file_of_another_name_with_the_same_games_is_another_file(
        tmp_path: Path, replace: bool) -> None:
    """The corrected copy saved as week13.jsonl is not week12.jsonl's new version: its changed
    deal is a conflict naming the file of that name, nothing stored is replaced or dropped,
    and it is not said to be applied in part (no ``--replace`` takes its changes)."""
    db = tmp_path / "t.duckdb"
    ingest(db, placed(tmp_path, "some/folder", week({})))
    before = [query(db, KEPT.format(t)) for t in ("games", "deals")]
    r = ingest(db, placed(tmp_path, "corrected", week(CORRECTED), "week13.jsonl"),
               replace=replace)
    assert (r.stored, r.replaced, r.dropped, r.withheld, r.earlier_files) == (1, 0, 0, 0, [])
    (issue,) = r.issues
    assert issue.message.endswith("it comes from another file, and only a new version of "
                                  "week12.jsonl (a file of that name, ingested or uploaded) "
                                  "can change it")
    assert r.in_part() == ""
    after = [query(db, KEPT.format(t)) for t in ("games", "deals")]
    assert after[0] == before[0] and set(before[1]) <= set(after[1])  # deal 13 added


def test_a_file_of_the_same_name_without_its_games_is_another_file(tmp_path: Path) -> None:
    """Another club's league.jsonl (the Swabian sample) in another folder, with ``replace``:
    it holds none of the Greek league.jsonl's games, so it is no version of it."""
    db = tmp_path / "t.duckdb"
    ingest(db, placed(tmp_path, "greek", LEAGUE.read_text(), "league.jsonl"))
    greek = "SELECT * FROM deals WHERE variant = 'greek-prefa' ORDER BY ALL"
    before = query(db, greek)
    r = ingest(db, placed(tmp_path, "swabian", (SAMPLES / "swabian" / "league.jsonl")
                          .read_text(), "league.jsonl"), replace=True)
    assert (r.earlier_files, r.dropped, r.quarantined, r.stored) == ([], 0, 0, 42)
    assert query(db, greek) == before


def test_a_deal_left_out_names_the_version_of_its_own_file(tmp_path: Path) -> None:
    """Two earlier files, then a third version without ``replace`` that leaves out deal 2
    (stored from the second file) and deal 5 (stored from the first): each conflict named the
    second file's version, the latest of all, though deal 5 was stored from the first. Each
    names the version of the file it was stored from."""
    db = tmp_path / "t.duckdb"
    first = placed(tmp_path, "some/folder", week({}))
    v1 = ingest(db, first).sha256 or ""
    second = placed(tmp_path, "corrected", week({2: deal(2)}))
    v2 = ingest(db, second, replace=True).sha256 or ""
    r = ingest(db, placed(tmp_path, "mended", week({2: None, 5: None})))
    assert (r.dropped, r.removed, sorted(r.earlier_files)) == (2, False,
                                                               sorted([str(first), str(second)]))
    said = {i.record_key: i.message for i in r.issues if i.line == DROPPED_LINE}
    assert f"stored from {second} line 3 (version {v2[:12]}) is not in" in said[f"{GAME}#2"]
    assert f"stored from {first} line 6 (version {v1[:12]}) is not in" in said[f"{GAME}#5"]


SUPERSEDED = "SELECT * FROM superseded ORDER BY ALL"


@pytest.mark.parametrize("fast", [True, False])
def test_the_earlier_file_named_with_replace_is_put_back(tmp_path: Path, fast: bool) -> None:
    """``trickbook ingest corrected/week12.jsonl --replace``, then, to undo the correction,
    ``trickbook ingest some/folder/week12.jsonl --replace``: the earlier file was skipped as
    unchanged, and the corrected deals stayed. Named with ``replace`` it is read again as the
    newest version (deal 2 as it was, deal 5 back, deal 13 removed); without ``replace``, or
    found in a folder, it is skipped and says which file replaced it. Read again, each file
    changes nothing, and the corrected file says it was replaced since."""
    db = tmp_path / "t.duckdb"
    first = placed(tmp_path, "some/folder", week({}))
    ingest(db, first, fast=fast)
    second = placed(tmp_path, "corrected", week(CORRECTED))
    ingest(db, second, replace=True, fast=fast)
    corrected = [*game_rows(db), query(db, SUPERSEDED)]
    for again in (ingest(db, first, fast=fast),
                  ingest(db, first.parent, replace=True, fast=fast)):  # found in a folder
        assert (again.skipped, again.replaced_by) == ("unchanged", str(second))
    assert [*game_rows(db), query(db, SUPERSEDED)] == corrected
    r = ingest(db, first, replace=True, fast=fast)
    assert (r.skipped, r.replaced_by, r.quarantined) == (None, str(second), 0)
    assert (r.replaced, r.dropped, r.removed) == (1, 1, True)  # deal 2; deal 13 (deal 5 stored)
    assert game_rows(db) == as_alone(tmp_path, week({}))
    assert failing_checks(db) == []
    before = [*game_rows(db), query(db, SUPERSEDED)]
    r = ingest(db, first, replace=True, fast=fast)
    assert (r.skipped, r.replaced_by) == ("unchanged", None)
    r = ingest(db, second, fast=fast)
    assert (r.skipped, r.replaced_by) == ("unchanged", str(first))
    assert [*game_rows(db), query(db, SUPERSEDED)] == before


def test_a_copy_of_the_earlier_file_named_with_replace_is_put_back(tmp_path: Path) -> None:
    """The earlier file's bytes in a third folder, after the corrected file replaced it: it
    was skipped as ``same content as`` the earlier file. Named with ``replace`` it is put back
    over the corrected file; without, it says which file replaced its content."""
    db = tmp_path / "t.duckdb"
    first = placed(tmp_path, "some/folder", week({}))
    ingest(db, first)
    second = placed(tmp_path, "corrected", week(CORRECTED))
    ingest(db, second, replace=True)
    copy = placed(tmp_path, "kept", week({}))
    r = ingest(db, copy)
    assert (r.skipped, r.replaced_by) == (f"same content as {first}", str(second))
    r = ingest(db, copy, replace=True)
    assert (r.skipped, r.replaced_by, r.quarantined) == (None, str(second), 0)
    assert game_rows(db) == as_alone(tmp_path, week({}))
    assert failing_checks(db) == []
    before = [*game_rows(db), query(db, SUPERSEDED)]
    assert ingest(db, copy, replace=True).skipped == "unchanged"
    assert ingest(db, first, replace=True).replaced_by is None
    assert [*game_rows(db), query(db, SUPERSEDED)] == before


def test_a_copy_under_another_name_is_not_put_back(tmp_path: Path) -> None:
    """The earlier file's bytes saved as week13.jsonl, after the corrected week12.jsonl
    replaced them: it is no version of week12.jsonl, so it stays a copy, and no note says it
    can be put back."""
    db = tmp_path / "t.duckdb"
    first = placed(tmp_path, "some/folder", week({}))
    ingest(db, first)
    ingest(db, placed(tmp_path, "corrected", week(CORRECTED)), replace=True)
    r = ingest(db, placed(tmp_path, "kept", week({}), "week13.jsonl"), replace=True)
    assert (r.skipped, r.replaced_by) == (f"same content as {first}", None)
