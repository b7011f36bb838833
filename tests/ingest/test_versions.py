"""Versions of a source (docs/ingest.md, "Versions of a source"; issue 14, 3): a changed game
line and the deals a new version dropped are conflicts naming both versions, or, with
``replace``, the new version supersedes the earlier one: the change recorded in ``superseded``
and the games rescored. Re-ingesting either version changes nothing stored."""

from __future__ import annotations

import json
import os
from pathlib import Path

import duckdb
import pytest

from ingest import pipeline
from ingest.pipeline import FileReport, ingest_paths
from ingest.versions import DROPPED_LINE
from scoring.checks import run_checks
from tests.ingest.conftest import SAMPLES
from tests.ingest.fakes import FakeSettlement, fake_scorer

LEAGUE = SAMPLES / "league.jsonl"
GAME = "club-7/2026-11-08/table-1"
STORED = ("games", "deals", "deals_greek", "settlements", "standings", "superseded")


def ingest(db: Path, p: Path, *, replace: bool = False, fast: bool = True) -> FileReport:
    (r,) = ingest_paths([p], db, score=fake_scorer(FakeSettlement()), replace=replace,
                        fast=fast)
    assert r.failed is None and r.records == r.stored + r.duplicates + r.quarantined, r
    return r


def query(db: Path, sql: str) -> list[tuple[object, ...]]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def stored(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every stored table but the logs (quarantine, ingest_log)."""
    return {t: query(db, f"SELECT * EXCLUDE (ingested_at) FROM {t} ORDER BY ALL"
                     if t == "superseded" else f"SELECT * FROM {t} ORDER BY ALL")
            for t in STORED}


def failing_checks(db: Path) -> list[str]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return [f.check for f in run_checks(conn) if not f.finding]
    finally:
        conn.close()


def new_header() -> str:
    """The league's first game line with other rules (its kassa: the fake settlement ends
    the game after that many deals) and another start."""
    game = json.loads(LEAGUE.read_text().splitlines()[0])
    assert game["game_id"] == GAME
    game["rules"] = {"initial_kassa": 3}
    game["started_at"] = "2026-11-08T20:00:00+01:00"
    return json.dumps(game)


def changed_header() -> str:
    lines = LEAGUE.read_text().splitlines()
    return "\n".join([new_header(), *lines[1:]]) + "\n"


def without_deals(*numbers: int) -> str:
    """The league without deals ``numbers`` of its first game."""
    keep = [line for line in LEAGUE.read_text().splitlines()
            if not (f'"game_id": "{GAME}"' in line and any(
                f'"deal_no": {n},' in line for n in numbers))]
    assert len(keep) == len(LEAGUE.read_text().splitlines()) - len(numbers)
    return "\n".join(keep) + "\n"


def names_both_versions(message: str, first: FileReport, then: FileReport) -> bool:
    return (f"version {(first.sha256 or '?')[:12]}" in message and "--replace" in message
            and f"version {(then.sha256 or '?')[:12]}" in message)


@pytest.mark.parametrize("fast", [True, False])
def test_changed_game_line_is_a_conflict_naming_both_versions(tmp_path: Path,
                                                              fast: bool) -> None:
    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    p.write_text(LEAGUE.read_text())
    first = ingest(db, p, fast=fast)
    before = stored(db)
    p.write_text(changed_header())
    r = ingest(db, p, fast=fast)
    assert (r.quarantined, r.stored, r.replaced) == (1, 0, 0)
    ((line, code, message),) = query(db, "SELECT line, code, message FROM quarantine")
    assert (line, code) == (1, "game-conflict")
    assert names_both_versions(str(message), first, r)
    # what changed, named (it quoted the stored game, whose rules of 31, the default, were
    # not written: a user could not see that the kassa was what changed)
    assert str(message).endswith(
        ", in rules.initial_kassa (31 there, 3 here); started_at ('2026-11-08T19:00:00+01:00' "
        "there, '2026-11-08T20:00:00+01:00' here)"), message
    assert stored(db) == before and failing_checks(db) == []


@pytest.mark.parametrize("fast", [True, False])
def test_replace_supersedes_a_changed_game_line_and_rescores(tmp_path: Path, fast: bool) -> None:
    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    p.write_text(LEAGUE.read_text())
    first = ingest(db, p, fast=fast)
    settled = query(db, f"SELECT count(DISTINCT deal_no) FROM settlements WHERE game_id = '{GAME}'")
    p.write_text(changed_header())
    r = ingest(db, p, replace=True, fast=fast)
    assert (r.quarantined, r.replaced, r.dropped) == (0, 1, 0)
    ((rules, started),) = query(db, f"SELECT rules::VARCHAR, started_at FROM games "
                                    f"WHERE game_id = '{GAME}'")
    assert json.loads(rules)["initial_kassa"] == 3 and started.hour == 19  # type: ignore[union-attr]
    # the fake settlement ends a game after its kassa in deals: the rescore settled three
    assert settled[0][0] > 3  # type: ignore[operator]
    assert query(db, f"SELECT count(DISTINCT deal_no) FROM settlements "
                     f"WHERE game_id = '{GAME}'") == [(3,)]
    ((change, key, previous, version, record),) = query(
        db, "SELECT change, record_key, previous, version, record FROM superseded")
    assert (change, key, previous, version) == ("game replaced", GAME, first.sha256, r.sha256)
    old = json.loads(record)  # type: ignore[arg-type]
    assert old["started_at"] == "2026-11-08T19:00:00+01:00" and "rules" not in old  # default
    assert query(db, "SELECT count(*) FROM deals") == [(32,)]
    assert failing_checks(db) == []


@pytest.mark.parametrize("fast", [True, False])
def test_dropped_deals_are_conflicts_naming_both_versions(tmp_path: Path, fast: bool) -> None:
    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    p.write_text(LEAGUE.read_text())
    first = ingest(db, p, fast=fast)
    before = stored(db)
    p.write_text(without_deals(3, 4))
    r = ingest(db, p, fast=fast)
    assert (r.dropped, r.quarantined, r.stored) == (2, 0, 0)
    ((line, code, message),) = query(db, "SELECT line, code, message FROM quarantine")
    assert (line, code) == (DROPPED_LINE, "deal-conflict")
    assert message.startswith("2 records at this line") and "deal 3 " in message  # type: ignore[union-attr]
    assert names_both_versions(str(message), first, r)
    assert stored(db) == before and failing_checks(db) == []


@pytest.mark.parametrize("fast", [True, False])
def test_replace_removes_the_dropped_deals_and_rescores(tmp_path: Path, fast: bool) -> None:
    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    p.write_text(LEAGUE.read_text())
    ingest(db, p, fast=fast)
    p.write_text(without_deals(3, 4))
    r = ingest(db, p, replace=True, fast=fast)
    assert (r.dropped, r.quarantined, r.stored) == (2, 0, 0)
    for table in ("deals", "deals_greek", "settlements"):
        assert query(db, f"SELECT DISTINCT deal_no FROM {table} WHERE game_id = '{GAME}' "
                         "AND deal_no IN (3, 4)") == [], table
    assert query(db, "SELECT count(*) FROM deals") == [(30,)]
    rows = query(db, "SELECT change, record_key, line, record FROM superseded ORDER BY line")
    assert [(c, k, li) for c, k, li, _ in rows] == [
        ("deal dropped", f"{GAME}#3", 4, ), ("deal dropped", f"{GAME}#4", 5)]
    assert json.loads(rows[0][3])["contract"] == "6H"  # type: ignore[arg-type]
    assert failing_checks(db) == []


@pytest.mark.parametrize("replace", [True, False])
def test_a_version_cut_short_drops_nothing_even_with_replace(tmp_path: Path,
                                                             replace: bool) -> None:
    """A weekly file saved again but cut off mid-line: its broken line is quarantined and the
    deals after it are missing. The conflicts advised '--replace to drop it', and with it the
    good deals were removed. While a version has records not stored, no deal of the earlier
    version is dropped; the conflicts say why and what to do."""
    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    text = LEAGUE.read_text()
    p.write_text(text)
    ingest(db, p)
    before = stored(db)
    lines = text.splitlines()
    p.write_text("\n".join(lines[:4]) + "\n" + lines[4][:50])  # line 5 cut off mid-record
    r = ingest(db, p, replace=replace)
    named = {json.loads(line)["game_id"] for line in lines[:4]}  # the games still named
    after = [line for line in lines[4:] if '"record": "deal"' in line  # the cut and all after
             and any(f'"game_id": "{g}"' in line for g in named)]
    assert 0 < r.dropped == len(after) and r.replaced == 0
    ((_, code, message),) = query(db, "SELECT line, code, message FROM quarantine "
                                      f"WHERE line = {DROPPED_LINE}")
    assert code == "deal-conflict"
    assert "it is kept while this version has 1 record not stored (line 5)" in str(message)
    assert "to drop it, fix that and ingest with --replace" in str(message)
    assert stored(db) == before and failing_checks(db) == []


@pytest.mark.parametrize("replace", [True, False])
def test_a_version_of_other_games_drops_none_of_the_earlier(tmp_path: Path,
                                                            replace: bool) -> None:
    """A file at the same path that names none of the earlier version's games (a weekly
    export of that week's games): the earlier games' deals are neither removed (with
    ``--replace`` all 32 were) nor conflicts (without it, each was)."""
    db, p = tmp_path / "t.duckdb", tmp_path / "week.jsonl"
    p.write_text(LEAGUE.read_text())
    ingest(db, p)
    greek = [f"SELECT * FROM {t} WHERE variant = 'greek-prefa' ORDER BY ALL"
             for t in ("games", "deals", "settlements", "standings")]
    before = [query(db, sql) for sql in greek]
    assert len(before[1]) == 32
    p.write_text((SAMPLES / "swabian" / "league.jsonl").read_text())
    r = ingest(db, p, replace=replace)
    assert (r.dropped, r.removed, r.quarantined, r.stored) == (0, False, 0, 42)
    assert [query(db, sql) for sql in greek] == before
    assert query(db, "SELECT count(*) FROM superseded") == [(0,)]


def test_replace_stores_the_deals_of_a_superseded_game_again_less_the_dropped(
        tmp_path: Path) -> None:
    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    p.write_text(LEAGUE.read_text())
    ingest(db, p)
    lines = without_deals(5).splitlines()
    p.write_text("\n".join([new_header(), *lines[1:]]) + "\n")
    r = ingest(db, p, replace=True)
    assert (r.replaced, r.dropped, r.quarantined) == (1, 1, 0)
    assert query(db, f"SELECT list(deal_no ORDER BY deal_no) FROM deals_greek "
                     f"WHERE game_id = '{GAME}'")[0][0][:5] == [1, 2, 3, 4, 6]  # type: ignore[index]
    assert sorted(c for c, in query(db, "SELECT change FROM superseded")) == [
        "deal dropped", "game replaced"]
    assert failing_checks(db) == []


@pytest.mark.parametrize("fast", [True, False])
def test_replace_of_a_game_and_one_of_its_deals_records_both(tmp_path: Path,
                                                              fast: bool) -> None:
    """docs/ingest.md: each change is a row of ``superseded``. A version that changed a game
    line and one of its deals recorded only ``game replaced``: the game's deals were stored
    again from the new version, and deal 2's earlier content was lost."""
    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    p.write_text(LEAGUE.read_text())
    ingest(db, p, fast=fast)
    lines = LEAGUE.read_text().splitlines()
    old = lines[2]
    assert f'"game_id": "{GAME}", "deal_no": 2,' in old
    lines[2] = old.replace('"Boris": 8, "Chris": 2', '"Boris": 7, "Chris": 3')
    p.write_text("\n".join([new_header(), *lines[1:]]) + "\n")
    r = ingest(db, p, replace=True, fast=fast)
    assert (r.replaced, r.dropped, r.quarantined) == (2, 0, 0)
    rows = query(db, "SELECT change, record_key, record FROM superseded ORDER BY change")
    assert [(c, k) for c, k, _ in rows] == [("deal replaced", f"{GAME}#2"),
                                          ("game replaced", GAME)]
    assert json.loads(str(rows[0][2]))["tricks"]["Boris"] == 8  # the earlier record
    assert failing_checks(db) == []


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("replace", [True, False])
def test_reingesting_either_version_changes_nothing(tmp_path: Path, replace: bool,
                                                    fast: bool) -> None:
    """The later version again is unchanged; the earlier one read again without ``replace`` (a
    revert) stores nothing: after a ``replace`` its changed game line and the deal that version
    dropped are conflicts (the dropped deal is not stored again), else all its records are
    stored already."""
    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    old, new = LEAGUE.read_text(), "\n".join(
        [new_header(), *without_deals(3).splitlines()[1:]]) + "\n"
    p.write_text(old)
    first = ingest(db, p, fast=fast)
    p.write_text(new)
    then = ingest(db, p, replace=replace, fast=fast)
    after = stored(db)
    again = ingest(db, p, replace=replace, fast=fast)
    assert again.skipped == "unchanged" and stored(db) == after
    p.write_text(old)
    back = ingest(db, p, fast=fast)
    assert back.stored == 0 and stored(db) == after
    if replace:
        assert {(i.line, i.code) for i in back.issues} == {(1, "game-conflict"),
                                                           (4, "deal-conflict")}
        dropped = next(i.message for i in back.issues if i.line == 4)
        assert "was dropped" in dropped and names_both_versions(dropped, then, back)
        assert back.sha256 == first.sha256
    else:
        assert back.quarantined == 0
    assert ingest(db, p, fast=fast).skipped == "unchanged" and stored(db) == after
    assert failing_checks(db) == []


def test_replace_takes_a_version_read_before_with_conflicts(tmp_path: Path) -> None:
    """The conflict says "ingest with --replace to take this version": doing so with the same
    file is not skipped as unchanged."""
    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    p.write_text(LEAGUE.read_text())
    first = ingest(db, p)
    p.write_text(changed_header())
    assert ingest(db, p).quarantined == 1
    r = ingest(db, p, replace=True)
    assert (r.skipped, r.replaced, r.quarantined) == (None, 1, 0)
    assert query(db, "SELECT previous FROM superseded") == [(first.sha256,)]
    assert query(db, "SELECT count(*) FROM quarantine") == [(0,)]
    assert ingest(db, p, replace=True).skipped == "unchanged" and failing_checks(db) == []


@pytest.mark.parametrize("fast", [True, False])
def test_replace_with_other_players_checks_the_deals_against_the_new_game(
        tmp_path: Path, fast: bool) -> None:
    """A new version seats another player (Chris becomes Christos in the game line and its
    deals): the deals are read against the superseding game line, on the fast paths too (their
    view of the games is rebuilt when a game is superseded, not only when one is added)."""
    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    p.write_text(LEAGUE.read_text())
    ingest(db, p, fast=fast)
    lines = LEAGUE.read_text().splitlines()
    renamed = [line.replace('"Chris"', '"Christos"') if f'"{GAME}"' in line else line
               for line in lines]
    p.write_text("\n".join(renamed) + "\n")
    r = ingest(db, p, replace=True, fast=fast)
    deals = sum(1 for line in lines if f'"{GAME}"' in line and '"record": "deal"' in line)
    # the game line and each of its deals (each names Christos): docs/ingest.md, one row of
    # superseded per change
    assert (r.replaced, r.quarantined, r.dropped) == (1 + deals, 0, 0)
    assert query(db, "SELECT change, count(*) FROM superseded GROUP BY 1 ORDER BY 1") == [
        ("deal replaced", deals), ("game replaced", 1)]
    players = query(db, f"SELECT players FROM games WHERE game_id = '{GAME}'")
    assert players == [(["Anna", "Boris", "Christos"],)]
    names = query(db, f"SELECT DISTINCT player FROM settlements WHERE game_id = '{GAME}' "
                      "ORDER BY 1")
    assert names == [("Anna",), ("Boris",), ("Christos",)]
    assert failing_checks(db) == []


@pytest.mark.parametrize("fast", [True, False])
def test_replace_with_the_players_reseated_stores_what_a_clean_ingest_stores(
        tmp_path: Path, fast: bool) -> None:
    """The same players in another seat order: every deal stays valid, but what is stored per
    seat changes; the database after --replace holds what ingesting the new version alone
    does."""
    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    p.write_text(LEAGUE.read_text())
    ingest(db, p, fast=fast)
    lines = LEAGUE.read_text().splitlines()
    game = json.loads(lines[0])
    game["players"] = ["Boris", "Chris", "Anna"]
    p.write_text("\n".join([json.dumps(game), *lines[1:]]) + "\n")
    ingest(db, p, replace=True, fast=fast)
    clean = tmp_path / "clean.duckdb"
    ingest(clean, p, fast=fast)
    for table in ("games", "deals_greek", "settlements", "standings"):
        assert query(db, f"SELECT * FROM {table} ORDER BY ALL") == query(
            clean, f"SELECT * FROM {table} ORDER BY ALL"), table


def test_replace_removes_what_other_commands_derived_from_a_removed_deal(
        tmp_path: Path) -> None:
    """A deal replaced or dropped takes with it every row keyed by it (``store.deal_tables``):
    here a review row and an analysis table's row written after the first version; the rows of
    the deals kept stay (so `trickbook analyse` reviews the new deal again)."""
    from model.tables import DEAL_REVIEW, TABLES

    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    p.write_text(LEAGUE.read_text())
    ingest(db, p)
    conn = duckdb.connect(str(db))
    conn.execute(TABLES[DEAL_REVIEW].ddl)
    conn.execute("CREATE TABLE some_analysis (game_id VARCHAR, deal_no INTEGER, x INTEGER)")
    for n in (2, 3, 4):
        conn.execute("INSERT INTO deal_review (game_id, deal_no, variant, cards) "
                     "VALUES (?, ?, 'greek-prefa', 0)", [GAME, n])
        conn.execute("INSERT INTO some_analysis VALUES (?, ?, 1)", [GAME, n])
    conn.close()
    p.write_text(without_deals(3).replace('"Boris": 8, "Chris": 2', '"Boris": 7, "Chris": 3', 1))
    r = ingest(db, p, replace=True)
    assert (r.replaced, r.dropped) == (1, 1)
    for table in ("deal_review", "some_analysis"):
        assert query(db, f"SELECT deal_no FROM {table} ORDER BY 1") == [(4,)], table


@pytest.mark.parametrize("fast", [True, False])
def test_a_superseded_games_deals_from_another_source_are_still_found(
        tmp_path: Path, fast: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``replace`` removes the stored game before its deals of other sources; a look-up of the
    game after that finds it not stored, yet its deals of the other source are, and one this
    version holds too is a duplicate, not stored twice (``_FileLoad.may_hold_deals``)."""
    monkeypatch.setattr(pipeline, "LOOKUP_EVERY", 1)  # each record looked up on its own
    db, p, other = tmp_path / "t.duckdb", tmp_path / "results.jsonl", tmp_path / "other.jsonl"
    p.write_text(without_deals(5))
    ingest(db, p, fast=fast)
    lines = LEAGUE.read_text().splitlines()
    other.write_text("\n".join([lines[0], *(line for line in lines if f'"game_id": "{GAME}"'
                                            in line and '"deal_no": 5,' in line)]) + "\n")
    assert ingest(db, other, fast=fast).stored == 1  # deal 5, stored from the other source
    p.write_text(changed_header())
    r = ingest(db, p, replace=True, fast=fast)
    assert (r.replaced, r.quarantined) == (1, 0)
    assert query(db, f"SELECT source FROM deals WHERE game_id = '{GAME}' AND deal_no = 5") \
        == [(str(other),)]
    assert query(db, "SELECT count(*) FROM deals") == [(32,)]


def test_a_folder_of_uploads_is_read_oldest_upload_first(tmp_path: Path) -> None:
    """Three uploads of one weekly file, saved under their content's names (hash first), so
    their names sort in another order than they were uploaded: ``ingest <folder> --replace``
    leaves the last upload standing (ingest/formats.py ``reading_order``)."""
    from dashboards.uploads import stored_name

    folder = tmp_path / "uploads"
    folder.mkdir()
    texts = [without_deals(3), changed_header(), without_deals(5)]
    paths = [folder / stored_name("week.jsonl", t.encode()) for t in texts]
    assert sorted(paths) != paths  # the hashes do not sort by upload
    for age, (p, text) in enumerate(zip(paths, texts, strict=True)):
        p.write_text(text)
        os.utime(p, (1_000_000 + age, 1_000_000 + age))
    ingest(tmp_path / "last.duckdb", paths[-1])
    reports = ingest_paths([folder], tmp_path / "t.duckdb", score=fake_scorer(FakeSettlement()),
                           replace=True)
    assert [r.source for r in reports] == [str(p) for p in paths]
    kept = "SELECT * EXCLUDE (source, line) FROM {} ORDER BY ALL"
    for table in ("games", "deals"):
        assert query(tmp_path / "t.duckdb", kept.format(table)) == \
            query(tmp_path / "last.duckdb", kept.format(table)), table


def test_a_conflict_with_a_simulated_deal_says_a_simulation_stored_it(tmp_path: Path) -> None:
    """A file's deal of a game a simulation stored (its score-sheet shape: the cards left out)
    conflicts with the simulated deal; the message said "stored from simulated line 0 ... only
    a new version of simulated ingested in its place can change it", a file that is not there.
    It says what stored the deal, and that no file changes it."""
    from model.tables import SIMULATED
    from sim.run import Plan, simulate

    db = tmp_path / "sim.duckdb"
    simulate(Plan("greek-prefa", 1, 3, seed=4), db=db, workers=1)
    (game, deal), = query(db, "SELECT g.record, d.record FROM games g JOIN deals d "
                              "USING (game_id) WHERE d.deal_no = 1 AND d.declarer IS NOT NULL")
    assert query(db, "SELECT DISTINCT source FROM deals") == [(SIMULATED,)]
    sheet = {"record": "deal"} | {k: v for k, v in json.loads(str(deal)).items()
             if k not in ("hands", "talon", "auction", "discard", "play")}
    path = tmp_path / "week.jsonl"
    path.write_text(json.dumps({"record": "game", **json.loads(str(game))}) + "\n"
                    + json.dumps(sheet) + "\n", encoding="utf-8")
    r = ingest(db, path)
    (issue,) = r.issues
    assert issue.message.endswith("stored by a simulation (trickbook simulate); this is version "
                                  f"{r.sha256[:12]}: a file cannot change a simulated game")
