"""PBN reader on the real files of ../shared/data (data/README.md: endplay-fixtures,
pbn-tournaments-slovesnov): every table record is stored or quarantined with a reason, and where a
record states a result and a score, ours agree with them."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import duckdb
import pytest

from ingest import pipeline
from ingest.pbn import READER, SHOWN_ERRORS, convert, parse_contract_tag, resolve_tags
from ingest.pbn_syntax import split_games
from ingest.source import Issue, Raw
from model.bridge.contracts import parse_contract
from model.bridge.score import duplicate_score_ns
from model.bridge.seats import board_vulnerable
from model.problems import Code
from model.tables import DEALS, QUARANTINE
from tests.conftest import DATA
from tests.ingest.bridge_ingest import Ingested, ingest, validate

EP = DATA / "endplay-fixtures"
SL = DATA / "pbn-tournaments-slovesnov"
FILES = {
    # file: (table records per data/README.md, records we expect to quarantine)
    EP / "pbn" / "example1.pbn": (2, 0),
    EP / "pbn" / "example2.pbn": (299, 0),
    EP / "pbn" / "example4.pbn": (1, 0),  # stored after two repairs (test_example4_...)
    EP / "examples" / "sample.pbn": (2, 0),
    SL / "A1A12525.PBN": (40, 1),
    SL / "Aulpll23.pbn": (48, 0),
    SL / "Gboplo27.pbn": (48, 0),
}


def check_accounting(got: Ingested, records: int) -> None:
    """Every table record ends as a stored deal or an issue with a place and a reason."""
    assert len(got.deals) + len(got.issues) == records
    for issue in got.issues:
        assert issue.line >= 1 and issue.record_key and len(issue.message) > 20 and issue.raw


def check_stated_scores(got: Ingested) -> int:
    """Our Law 77 score equals the file's Score tag for every stored deal that has one."""
    n = 0
    for game, deal, _ in got.deals:
        if deal.score_ns is None:
            continue
        seat = {p: i for i, p in enumerate(game.players)}
        c = parse_contract(deal.contract) if deal.contract else None
        declarer = seat[deal.declarer] if deal.declarer else None
        vul = deal.vulnerable or board_vulnerable(deal.board or 1)
        assert duplicate_score_ns(c, declarer, deal.tricks, vul) == deal.score_ns
        n += 1
    return n


@pytest.mark.parametrize("path", list(FILES), ids=lambda p: p.name)
def test_every_record_is_stored_or_quarantined(path: Path) -> None:
    records, bad = FILES[path]
    got = ingest(READER, path)
    check_accounting(got, records)
    assert len(got.issues) == bad


def test_stated_results_and_scores_agree() -> None:
    checked = sum(check_stated_scores(ingest(READER, p)) for p in FILES)
    # slovesnov: every record has a Score (39 + 48 + 48 stored); example1 2, example2 279, sample 2
    assert checked == 39 + 48 + 48 + 2 + 279 + 2


def test_irregular_result_is_quarantined_with_the_reason() -> None:
    # A1A12525.PBN board 3 open: Result "^8" after a play that leaves declarer at most 6.
    got = ingest(READER, SL / "A1A12525.PBN")
    (issue,) = got.issues
    assert issue.code == Code.REPLAY_MISMATCH and issue.line == 147
    assert "8 must lie in 2..6" in issue.message and "irregular" in issue.message


def test_hash_inheritance_and_placeholders() -> None:
    # A1A12525.PBN writes [Event "#"] from the second game on (PBN 4.8).
    got = ingest(READER, SL / "A1A12525.PBN")
    events = {g.event for g, _, _ in got.deals}
    assert len(events) == 1 and "17th European Youth" in next(iter(events))
    # example1.pbn: [Scoring "?"] is a placeholder, not an error.
    assert len(ingest(READER, EP / "pbn" / "example1.pbn").deals) == 2


def test_date_is_the_games_start() -> None:
    # A1A12525.PBN: [Date "2000.07.16"] (PBN 3.4.3), inherited by every later game (4.8).
    got = ingest(READER, SL / "A1A12525.PBN")
    starts = {g.started_at for g, _, _ in got.deals}
    assert {(s.year, s.month, s.day) for s in starts if s} == {(2000, 7, 16)} and None not in starts


def test_passed_out_boards() -> None:
    # example2.pbn: [Declarer ""] [Contract "Pass"] [Result ""] with [Score "NS 0"].
    got = ingest(READER, EP / "pbn" / "example2.pbn")
    passed = [d for _, d, _ in got.deals if d.contract is None]
    assert passed and all(d.declarer is None and d.tricks is None for d in passed)
    assert all(d.score_ns in (None, 0) for d in passed)


def test_example4_comments_and_play_order() -> None:
    # expected-values.json pbn_example4_parsed: the Play section is in seat columns; we store the
    # cards in played order. The reader's decoding (before its repairs) is checked on the record.
    expected = json.loads((EP / "expected-values.json").read_text())["pbn_example4_parsed"]
    (game,) = [g for g in split_games((EP / "pbn" / "example4.pbn").read_text()) if g.tags]
    _, deal = convert(game, resolve_tags(game, {}))
    assert [c for _, c in deal["play"]] == [c[1] + c[0] for c in expected["play_in_played_order"]]
    assert [c["call"] for c in deal["auction"]] == [
        {"P": "pass"}.get(c, c) for c in expected["auction"]]
    assert deal["contract"] == "5C" and deal["tricks"] == 12
    # Finding: the calls only fit the hands and the contract 5C by East if East called first,
    # while Dealer and Auction say North (an opening pass left out), and the play, read in seat
    # columns, has East play the CQ North holds: the reader puts the pass back and drops the
    # play, naming both repairs (ingest/bridge_repairs.py); the record is then valid.
    (raw,) = [r for r in READER.read(EP / "pbn" / "example4.pbn")
              if isinstance(r, Raw) and r.data["record"] == "deal"]
    assert [r.code for r in raw.repairs] == ["opening-passes", "play-dropped"]
    assert "play" not in raw.data and raw.data["auction"][0]["call"] == "pass"
    got = ingest(READER, EP / "pbn" / "example4.pbn")
    assert not got.issues and len(got.deals) == 1


def sample_text(path: Path, games: int) -> str:
    blocks = path.read_text().split("\n\n")
    return "\n\n".join(blocks[:games])


def test_example3_sample() -> None:
    """example3.pbn (7,632 records, tags carried over between rooms; data/README.md): the first
    400 games. Every record is accounted for; stored records agree with their stated results."""
    text = sample_text(EP / "pbn" / "example3.pbn", 400)
    records = text.count("[Result ")
    got = validate(READER.read_text(text, "example3.pbn", "example3"))
    check_accounting(got, records)
    assert len(got.deals) > records // 5
    reasons = {i.code for i in got.issues}
    assert reasons <= {Code.CONTRACT_NOT_ALLOWED, Code.ILLEGAL_CARD, Code.REPLAY_MISMATCH,
                       Code.AUCTION, Code.SCHEMA}


def test_carry_over_of_board_tags() -> None:
    games = list(split_games(sample_text(EP / "pbn" / "example3.pbn", 2)))
    first = resolve_tags(games[0], {})
    second = resolve_tags(games[1], first)
    assert "Deal" not in dict(games[1].tags) and second["Deal"] == first["Deal"]
    assert second["Board"] == "1" and second["West"] == "Zak"


@pytest.mark.parametrize(("text", "contract"), [("4Sx", "4SX"), ("5DR", "5DXX"), ("1N", "1NT"),
                                                ("3NTXX", "3NTXX"), ("Pass", None)])
def test_contract_tag_spellings(text: str, contract: str | None) -> None:
    assert parse_contract_tag(text) == contract


def test_bad_records_do_not_stop_the_file() -> None:
    text = (
        '[Board "1"]\n[Dealer "N"]\n'
        '[Deal "N:AKQJ.AKQ.AKQ.AKQ AKQJ.AKQ.AKQ.AKQ 5432.5432.5432.5 T98.JT9.JT9.JT98"]\n'
        '[Contract "Pass"]\n\n'
        '[Board "2"]\n[Dealer "Q"]\n[Contract "1S"]\n\n'
        '[Board "3"]\n[Dealer "S"]\n[Declarer "S"]\n[Contract "4S"]\n[Result "10"]\n'
        '[Score "NS 620"]\n'
    )
    got = validate(READER.read_text(text, "t.pbn", "t"))
    msgs = [i.message for i in got.issues]
    assert len(got.deals) == 0 and len(msgs) == 3
    assert "repeat cards" in msgs[0]
    assert "'Q'" in msgs[1]
    # board 3 is vulnerable for EW only: 4S by S scores 420, not 620 (Law 77)
    assert "scores 420" in msgs[2]


def test_board_with_nothing_to_record_is_an_issue() -> None:
    """A game with a Board tag but no Deal, Contract, Auction or Result (its [Deal] line lost)
    is an issue, as LIN's board without md is; a header game (Event and such, no Board) is
    skipped."""
    text = (
        '[Event "Club"]\n[Site "Here"]\n\n'
        '[Event "Club"]\n[Board "1"]\n[North "N1"]\n[Dealer "N"]\n[Vulnerable "None"]\n\n'
        '[Event "Club"]\n[Board "3"]\n[Dealer "S"]\n[Declarer "S"]\n[Contract "4S"]\n'
        '[Result "10"]\n'
    )
    items = list(READER.read_text(text, "t.pbn", "t"))
    issues = [i for i in items if isinstance(i, Issue)]
    assert [(i.line, i.record_key) for i in issues] == [(4, "board 1")]
    assert "nothing to record" in issues[0].message
    assert [i.data["record"] for i in items if isinstance(i, Raw)] == ["game", "deal"]


@pytest.mark.slow
def test_example3_full() -> None:
    got = ingest(READER, EP / "pbn" / "example3.pbn")
    check_accounting(got, 7632)
    check_stated_scores(got)
    assert len(got.deals) > 1500


def test_import_format_leniency() -> None:
    # PBN 2.1 import format: tag names in any case, sections on the tag's line, lower-case calls
    # and cards, AP, notes, a missing hand inferred, any first seat in Deal.
    text = (
        '[board "2"] [dealer "E"] [vulnerable "ns"]\n'
        '[deal "E:AKQJ.AKQ.AKQ.AKQ - 5432.5432.5432.5 T98.JT9.JT9.JT98"]\n'
        '[declarer "E"] [contract "1nt"] [result "13"]\n'
        '[auction "E"] 1nt =1= ap\n[Note "1:strong"]\n'
        '[play "S"] s7 s2 s8 sa ; a comment\n'
        '{ a comment\n over two lines }\n'
        '*\n'
    )
    got = validate(READER.read_text(text, "t.pbn", "t"))
    assert not got.issues
    (game, deal, _), = got.deals
    assert deal.contract == "1NT" and deal.vulnerable == "NS" and deal.alerts == {0: "strong"}
    assert deal.hands is not None and len(deal.hands[game.players[0]]) == 13
    assert [c for _, c in deal.play or ()] == ["7S", "2S", "8S", "AS"]


def test_golden_file() -> None:
    """tests/ingest/golden/bridge-two-boards.pbn (hand-made): comments, `#`, a note, a claim after
    two tricks (`-` row), a passed-out board; the records checked by hand once, kept as JSON."""
    golden = Path(__file__).parent / "golden"
    src = golden / "bridge-two-boards.pbn"
    expected = json.loads((golden / "bridge-two-boards.expected.json").read_text())
    items = list(READER.read_text(src.read_text(), str(src), "golden"))
    assert [json.loads(json.dumps(r.data)) for r in items] == expected  # type: ignore[union-attr]
    got = validate(items)
    assert not got.issues and len(got.deals) == 2


def test_stored_games_are_looked_up_once_per_group(tmp_path: Path, monkeypatch) -> None:
    """A reader's games are asked of the database in one query per ``LOOKUP_EVERY`` records,
    never one per game, and a second version of the file finds every game it stored."""
    from ingest import pipeline, store

    calls = {"one": 0, "many": 0}
    one, many = store.stored_game, store.stored_games

    def count_one(*args: object) -> object:
        calls["one"] += 1
        return one(*args)  # type: ignore[arg-type]

    def count_many(*args: object) -> object:
        calls["many"] += 1
        return many(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "stored_game", count_one)
    monkeypatch.setattr(store, "stored_games", count_many)
    monkeypatch.setattr(pipeline, "LOOKUP_EVERY", 100)
    text = (EP / "pbn" / "example2.pbn").read_text(encoding="utf-8")
    first = tmp_path / "a.pbn"
    first.write_text(text, encoding="utf-8")
    [report] = pipeline.ingest_paths([first], tmp_path / "t.duckdb")
    assert report.records > 300 and report.quarantined == 0
    assert calls == {"one": 0, "many": -(-report.records // 100)}
    again = tmp_path / "b.pbn"
    again.write_text("% a second version\n" + text, encoding="utf-8")
    [second] = pipeline.ingest_paths([again], tmp_path / "t.duckdb")
    assert second.stored == 0 and second.duplicates == report.records
    assert calls["one"] == 0


def test_junk_names_its_first_syntax_errors_and_counts_the_rest(tmp_path: Path) -> None:
    """A file of junk read as PBN (here Latin-1 text with no tag) is one game of many syntax
    errors: its issue names the first few with their lines and says how many more."""
    junk = tmp_path / "junk.pbn"
    rng = random.Random(7)
    junk.write_bytes(b"\n".join(bytes(rng.randrange(0xA0, 0x100) for _ in range(12)) + b" x"
                                for _ in range(40)))
    issues = [i for i in READER.read(junk) if isinstance(i, Issue)]
    assert len(issues) == 1
    message = issues[0].message
    assert len(re.findall(r"(?:^|; )line \d+: ", message)) == SHOWN_ERRORS, message
    assert re.search(r"; and \d+ more$", message), message


def test_line_ends_converted_twice_read_as_once(tmp_path: Path) -> None:
    """A CRLF file converted to CRLF again ends each line with CR CR LF: read as the file
    itself, not as an empty line after every line (each tag a game of its own: example1.pbn's 4
    records read as 57). PBN 2.3: only an empty line ends a game."""
    path = EP / "pbn" / "example1.pbn"
    text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
    twice = tmp_path / "example1.pbn"
    twice.write_bytes(text.replace("\n", "\r\r\n").encode())
    got, expected = ingest(READER, twice), ingest(READER, path)
    assert not got.issues and len(got.deals) == len(expected.deals) == FILES[path][0]
    assert [d.model_dump() for _, d, _ in got.deals] == \
        [d.model_dump() for _, d, _ in expected.deals]


def test_a_doubled_tag_line_is_no_new_game(tmp_path: Path) -> None:
    """A tag line twice in a row (a paste, an editor's slip) is the same line: before, the first
    made a game of its own that took the board's other tags by carry-over (a phantom deal)."""
    path = EP / "pbn" / "example1.pbn"
    lines = path.read_text(encoding="utf-8").splitlines()
    doubled = []
    for line in lines:
        doubled.append(line)
        if line.startswith("[Event "):
            doubled.append(line)
    (tmp_path / "doubled.pbn").write_text("\n".join(doubled) + "\n", encoding="utf-8")
    got, expected = ingest(READER, tmp_path / "doubled.pbn"), ingest(READER, path)
    assert not got.issues and len(got.deals) == len(expected.deals) == FILES[path][0]


AULPLL = SL / "Aulpll23.pbn"
"""Its board 2 open room is the game at line 74: tags to line 94, the auction at 95-100, the
play at 101-107 (six tricks), ``*`` at 108, an empty line at 109; the closed room at 110."""


def _lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("at", [0, 36], ids=["first-line", "between-games"])
def test_a_junk_line_before_a_game_is_its_own_issue(at: int) -> None:
    """A line that is no tag, comment or section (a program's name above the file, junk
    between games) was read as the start of the game after it, which was quarantined for it
    ("token 'Exported' before any tag"). It is an issue of its own at its line, without a
    board's key, and the game after it is read as it is without the junk."""
    lines = _lines_of(AULPLL)
    assert at == 0 or lines[at - 1] == ""
    junked = [*lines[:at], "Exported by BridgeComposer", *lines[at:]]
    got = list(READER.read_text("\n".join(junked) + "\n", "x.pbn"))
    want = list(READER.read_text("\n".join(lines) + "\n", "x.pbn"))
    (issue,) = [i for i in got if isinstance(i, Issue)]
    assert (issue.line, issue.record_key) == (at + 1, None)
    assert "'Exported by BridgeComposer' is not a tag" in issue.message
    assert [r.data for r in got if isinstance(r, Raw)] == [
        r.data for r in want if isinstance(r, Raw)]


JUNK = "Some junk between games"


@pytest.mark.parametrize(("edit", "line", "section"), [
    ({107: ["*", JUNK]}, 109, "Play"),
    ({107: [f"* {JUNK}"]}, 108, "Play"),
    ({99: ["Pass Pass *", JUNK]}, 101, "Auction"),
], ids=["line-after-play", "on-the-play-star-line", "after-auction-star"])
def test_junk_after_a_sections_star_is_its_own_issue(
        edit: dict[int, list[str]], line: int, section: str) -> None:
    """PBN 2.1 3.5 and 3.6: the token ``*`` ends an Auction or Play section (an auction or play
    left unfinished), so text after it that is no tag or comment (3.8) is no part of the game.
    A junk line after a play's ``*`` was added to the Play section and never read, with no
    issue (the file read as if it were whole); after an auction's ``*`` it was read as calls
    (the game quarantined). It is an issue of its own at its line, quoting it as junk before a
    game's first tag is quoted, and the game is read as it is without it."""
    lines = _lines_of(AULPLL)
    assert lines[107] == "*" and lines[99] == "Pass Pass" and lines[100] == '[Play "S"]'
    junked = [new for no, old in enumerate(lines) for new in edit.get(no, [old])]
    got = list(READER.read_text("\n".join(junked) + "\n", "x.pbn"))
    want = list(READER.read_text("\n".join(lines) + "\n", "x.pbn"))
    (issue,) = [i for i in got if isinstance(i, Issue)]
    assert (issue.line, issue.record_key, issue.code) == (line, None, Code.PARSE)
    assert issue.message == (f"line {line}: {JUNK!r} is not a tag, comment or section of a "
                             f"game (text after the '*' that ends the {section} section)")
    assert JUNK in issue.raw
    assert [r.data for r in got if isinstance(r, Raw)] == [
        r.data for r in want if isinstance(r, Raw)]


def test_comments_after_a_plays_star_are_no_issue() -> None:
    """Commentary (``{ ... }``, ``;`` to the end of the line; PBN 2.1 3.8) and ``%`` escape
    lines (2.4) after a play's ``*`` are legal: no issue, and the same records."""
    lines = _lines_of(AULPLL)
    commented = [*lines[:108], "{a comment}", "; another", "% an escape line", *lines[108:]]
    got = list(READER.read_text("\n".join(commented) + "\n", "x.pbn"))
    want = list(READER.read_text("\n".join(lines) + "\n", "x.pbn"))
    assert not [i for i in got if isinstance(i, Issue)]
    assert [r.data for r in got if isinstance(r, Raw)] == [
        r.data for r in want if isinstance(r, Raw)]


def test_a_broken_tag_line_stays_with_its_game() -> None:
    """A tag line that does not read (``[Event "x" junk``) opens its game: the game is the
    issue (not read without its Event, which it would take from the game before)."""
    lines = _lines_of(AULPLL)
    lines[73] = '[Event "#" junk'
    got = validate(READER.read_text("\n".join(lines) + "\n", "x.pbn"))
    (issue,) = got.issues
    assert issue.line == 74 and issue.record_key == "board 2"


@pytest.mark.parametrize(("kept", "tail", "game", "why"), [
    (97, "", 74, "its auction stops after 8 calls"),
    (104, "", 74, "its play stops after 12 cards (3 tricks and 0 cards)"),
    (104, "D2 H9", 74, "its play stops after 14 cards (3 tricks and 2 cards)"),
    (102, "D2", 74, "its play stops after 5 cards (1 trick and 1 card)"),
    (84, '[Declarer "E', 74, "its last line '[Declarer \"E' stops inside a tag"),
    (85, "", 74, "it names a Declarer and stops before the Contract"),
    (110, "", 110, "it has no Deal, Contract, Auction or Result of its own"),
    (84, "", 74, "it has no Contract, HomeTeam, Room, Round, Score, Section, Table or "
     "VisitTeam, which every game before it"),
    (94, "", 74, "it has no Auction or Play, which every game before it in the file gives"),
    (100, "", 74, "it has no Play, which every game before it in the file gives"),
], ids=["auction", "play", "mid-trick", "one-trick", "tag", "declarer", "carried-over",
        "after-deal", "before-auction", "before-play"])
def test_a_file_cut_inside_its_last_game_quarantines_that_game(
        kept: int, tail: str, game: int, why: str) -> None:
    """A file cut off inside a game stored what was left of it as the whole deal (its play
    short of tricks, a mid-trick row read as a claim, a deal without its contract, the board
    before's hands under placeholder players). Where the game is visibly incomplete it is
    quarantined at its line, saying the file ends inside it; the games before are as in the
    whole file."""
    lines = _lines_of(AULPLL)
    text = "\n".join(lines[:kept]) + "\n" + tail
    got = list(READER.read_text(text, "cut.pbn"))
    whole = list(READER.read_text("\n".join(lines) + "\n", "x.pbn"))
    *before, last = got
    assert isinstance(last, Issue) and last.line == game and last.code == Code.PARSE
    assert last.message.startswith("the file ends inside this game: " + why), last.message
    assert [(r.line, r.data) for r in before if isinstance(r, Raw)] == [
        (r.line, r.data) for r in whole if isinstance(r, Raw) and r.line < game]


@pytest.mark.parametrize(("path", "at", "ends", "line", "missing"), [
    # board 24 Open (line 1664) is passed out: no Play, which the games after it still give
    (SL / "Gboplo27.pbn", 28119, "Pass Pass Pass\r\n", 1702, "Play"),
    # each game names its teams after its play, and the next game would take the last game's
    (EP / "pbn" / "example2.pbn", 36979, '[Table "2"]\n', 2219,
     "Competition, HomeTeam or VisitTeam"),
], ids=["after-a-passed-out-game", "before-the-teams"])
def test_a_cut_is_seen_past_a_passed_out_game_and_before_the_teams(
        path: Path, at: int, ends: str, line: int, missing: str) -> None:
    """Cut where a line ends (a hostile run on the files named), the last game was stored
    without its play, or in the match of the game before it: a passed-out game earlier in the
    file made every later game's Play look optional, and the teams, which a game without them
    takes from the game before, were never missed."""
    text = path.read_bytes()[:at].decode("latin-1")
    assert text.endswith(ends)
    *before, last = READER.read_text(text, "cut.pbn")
    assert isinstance(last, Issue) and last.line == line
    assert last.message.startswith(f"the file ends inside this game: it has no {missing}, "
                                   "which every game before it in the file gives")
    whole = _records(path.read_bytes().decode("latin-1"))
    assert _records(before) == {k: d for k, d in whole.items() if k[0] < line}


def _records(read: str | list[Raw | Issue]) -> dict[tuple[int, str], dict]:
    """The records of a PBN text (or of what it was read into) by line and kind."""
    items = READER.read_text(read, "x.pbn") if isinstance(read, str) else read
    return {(r.line, r.data["record"]): r.data for r in items if isinstance(r, Raw)}


def test_a_file_cut_where_a_line_ends_stores_no_game_cut_short() -> None:
    """Cut where a line ends, between two tags or sections of its last game, a file
    (../shared/data/pbn-tournaments-slovesnov) stored that game without its contract, auction
    or play. Now, cut at any line end of its first games, each deal read is the whole file's
    deal: a game that lacks a tag every game before it gives is cut short
    (``pbn.cut_short``). Only the first two games have too few before them to show what
    should follow."""
    lines = _lines_of(AULPLL)[:150]
    whole = _records("\n".join(lines) + "\n")
    second = sorted(line for line, record in whole if record == "deal")[1]
    cut_short = 0
    for kept in range(1, len(lines)):
        items = list(READER.read_text("\n".join(lines[:kept]) + "\n", "cut.pbn"))
        read = {k: d for k, d in _records(items).items() if k[0] > second}
        assert read == {k: whole.get(k) for k in read}, lines[kept - 1]
        cut_short += any("the file ends inside this game" in i.message for i in items
                         if isinstance(i, Issue))
    assert cut_short > len(lines) // 2


@pytest.mark.parametrize(("kept", "tail"), [
    (108, ""), (57, ""), (60, ""), (104, "D2 - - -"), (97, "*"),
], ids=["star", "no-auction-or-play", "auction-no-play", "claim", "auction-star"])
def test_a_last_game_that_looks_whole_is_read_as_whole(kept: int, tail: str) -> None:
    """A file that ends inside its last game without the empty line (PBN 2.3) is read as if it
    went on, where nothing shows the game cut short: its play ended by ``*`` or by a card not
    played (a claim), an auction ended or marked ``*``, no auction or play at all where fewer
    than two games before it show that they should follow (line 57: the file's second game)."""
    text = "\n".join(_lines_of(AULPLL)[:kept]) + "\n" + tail
    got = list(READER.read_text(text, "end.pbn"))
    assert got == list(READER.read_text(text + "\n\n", "end.pbn"))
    assert not any(isinstance(i, Issue) and "file ends" in i.message for i in got)


def test_a_play_whose_leader_is_unknown_is_led_from_the_declarer_s_left() -> None:
    """PBN 2.1 3.6: the Play tag names the seat on lead, the first column of the section; "?"
    is an unknown value (2.3). The cards of a ``[Play "?"]`` section were dropped without a
    word; the leader is the seat left of declarer (bridge.md 3), so the play is read as the
    same file with every leader written out."""
    text = AULPLL.read_text(encoding="utf-8")
    unknown = re.sub(r'\[Play "[NESW]"\]', '[Play "?"]', text)
    assert unknown.count('[Play "?"]') > 10
    got = list(READER.read_text(unknown, "x.pbn"))
    want = list(READER.read_text(text, "x.pbn"))
    assert [type(r).__name__ for r in got] == [type(r).__name__ for r in want]
    assert [r.data for r in got if isinstance(r, Raw)] == [
        r.data for r in want if isinstance(r, Raw)]
    assert sum("play" in r.data for r in got if isinstance(r, Raw)) > 10
    start = text.index('[Play "')  # a "?" over no cards ("*" only) still records no play
    bare = text[:start] + '[Play "?"]\n*' + text[text.index("\n\n", start):]
    first = next(r for r in READER.read_text(bare, "x.pbn")
                 if isinstance(r, Raw) and r.data["record"] == "deal")
    assert "play" not in first.data and "tricks" in first.data


BOARD_1 = ('[Event "Club"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
           '[Deal "N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 5432.5432.5432.5 76.876.876.76432"]\n')
"""A board's tags to its Deal (lines 1-5); the tags of its result follow."""
TWO_TRICKS = '[Play "E"]\nST SA S2 S7\nHJ HK H2 H6\n*\n'


@pytest.mark.parametrize(("result", "why"), [
    ('[Declarer ""]\n[Contract "Pass"]\n[Result ""]\n[Auction "N"]\nPass AP\n',
     "the deal was passed out (Contract 'Pass'), so nobody played"),
    ('[Declarer ""]\n[Contract ""]\n[Result ""]\n',
     "the deal has no contract (Contract ''), so it is read as passed out and nobody played"),
    ("", "the deal has no Contract tag, so it is read as passed out and nobody played"),
], ids=["pass", "empty", "no-contract-tag"])
def test_the_play_of_a_deal_without_a_contract_is_an_issue(
        tmp_path: Path, result: str, why: str) -> None:
    """PBN 2.1 3.6: the Play section is the play of the contract, led from the declarer's
    left. A deal without one (``Contract "Pass"``, an empty Contract, none at all) is read as
    passed out, and its Play section's cards were dropped without a word. The deal is stored as
    before; the cards are an issue of their own at the section's line, saying why they are not
    read."""
    text = BOARD_1 + result + TWO_TRICKS
    at = text.splitlines().index('[Play "E"]') + 1
    got = validate(READER.read_text(text, "t.pbn", "t"))
    ((_, deal, _),) = got.deals
    assert deal.contract is None and deal.declarer is None and deal.play is None
    (issue,) = got.issues
    assert (issue.line, issue.record_key, issue.code) == (at, "board 1", Code.PARSE)
    assert issue.message == f"board 1: the Play section's 8 cards are not read: {why}"
    assert issue.raw == TWO_TRICKS.rstrip("\n")
    path = tmp_path / "passed.pbn"
    path.write_text(text, encoding="utf-8")
    [report] = pipeline.ingest_paths([path], tmp_path / "t.duckdb")
    # the Play section's issue is beside the stored deal: an issue of the file, no record
    assert (report.records, report.stored, report.quarantined, report.file_issues) == \
        (2, 2, 0, 1)
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        assert conn.execute(f"SELECT contract, declarer, line FROM {DEALS}").fetchall() == [
            (None, None, 1)]
        assert conn.execute(f"SELECT line, message FROM {QUARANTINE}").fetchall() == [
            (at, issue.message)]
    # An auction that ends in a contract the record lacks quarantines the deal, Play and all:
    # one issue, the auction's.
    bid = validate(READER.read_text(BOARD_1 + '[Auction "N"]\n1S AP\n' + TWO_TRICKS, "t.pbn"))
    assert not bid.deals and [i.code for i in bid.issues] == [Code.CONTRACT_NOT_ALLOWED]


PLAYED = BOARD_1 + ('[Declarer "N"]\n[Contract "4S"]\n[Result "10"]\n[Score "NS 420"]\n'
                    '[Room "Open"]\n')
"""Board 1 played: 4S by North making 10 tricks (420, none vulnerable); Declarer at line 6,
Contract 7, Result 8, Score 9, Room 10."""


@pytest.mark.parametrize(("score", "read"), [
    ("NS 420", 420), ("EW -420", 420), ("420", 420), ("NS 420 EW -420", 420),
    ("NS -50junk", None), ("NS 1e400", None), ("NS 420 EW 420", None), ("NS 420 NS -420", None),
])
def test_a_score_is_read_whole(score: str, read: int | None) -> None:
    """PBN 2.1 3.4: a Score tag was read by its leading digits: "NS -50junk" stored as -50 and
    "NS 1e400" as 1, each without a word. The whole value is read, a side's score and perhaps
    the other side's (its negation), or the game is an issue naming the tag."""
    items = list(READER.read_text(PLAYED.replace("NS 420", score), "t.pbn", "t"))
    deals = [i.data for i in items if isinstance(i, Raw) and i.data.get("record") == "deal"]
    if read is None:
        (issue,) = [i for i in items if isinstance(i, Issue)]
        assert f"Score {score!r}" in issue.message and not deals
    else:
        assert [d["score_ns"] for d in deals] == [read]


@pytest.mark.parametrize(("after", "line", "message"), [
    (7, '[Contract "3S"]', "'Contract' is given twice in one game ('4S' at line 7, then '3S' "
                           "at line 8)"),
    (9, '[Result "9"]', "'Result' is given twice in one game ('10' at line 8, then '9' at "
                        "line 10)"),
    (9, '[Score "NS 450"]', "'Score' is given twice in one game ('NS 420' at line 9, then "
                            "'NS 450' at line 10)"),
    (10, '[room "Closed"]', "'Room' is given twice in one game ('Open' at line 10, then "
                            "'Closed' at line 11)"),
], ids=["contract", "result", "score", "room"])
def test_a_tag_given_twice_with_different_values_quarantines_its_game(
        after: int, line: str, message: str) -> None:
    """PBN 2.1 3.4: a game gives each tag once (a tag pair that already occurred is ignored;
    Note is the tag that repeats). A second Score or Room with another value silently replaced
    the first (the deal stored with the last); a second Contract or Result started a "next
    game" of that one tag, quarantined for what it lacked ("a Result without a Contract") while
    the deal was stored with the first. Which value is meant is not known: the game is one
    issue at its line naming the tag and both values, as a JSON record naming a key twice is
    (``ingest.jsonl.RepeatedKey``), and nothing of it is stored."""
    lines = PLAYED.splitlines()
    text = "\n".join([*lines[:after], line, *lines[after:]]) + "\n"
    items = list(READER.read_text(text, "t.pbn", "t"))
    (issue,) = items
    assert isinstance(issue, Issue)
    assert (issue.line, issue.record_key, issue.code) == (1, "board 1", Code.PARSE)
    assert issue.message == (f"board 1: {message}: a game gives each tag once (PBN 2.1 3.4), "
                             "so which is meant is not known")
    assert issue.raw == text.rstrip("\n")


def test_a_tag_given_twice_with_the_same_value_is_harmless() -> None:
    """PBN 2.1 3.4: the second pair of a tag that already occurred is ignored; where it says
    what the first said, nothing is in doubt. A second Result "10" further down was read as a
    "next game" of that tag alone and quarantined ("a Result without a Contract"); now the
    game is read as without it. The other table of the board run on without the empty line
    (2.3), starting at its Declarer and giving its own Room, is still the next game."""
    lines = PLAYED.splitlines()
    text = "\n".join([*lines[:9], '[Score "NS 420"]', '[Result "10"]', *lines[9:]]) + "\n"
    got = validate(READER.read_text(text, "t.pbn", "t"))
    assert not got.issues
    ((_, deal, _),) = got.deals
    assert (deal.contract, deal.tricks, deal.score_ns, deal.room) == ("4S", 10, 420, "Open")
    closed = '[Declarer "S"]\n[Contract "3NT"]\n[Result "9"]\n[Room "Closed"]\n'
    both = validate(READER.read_text(PLAYED + closed, "t.pbn", "t"))
    assert not both.issues
    assert [(d.room, d.contract) for _, d, _ in both.deals] == [("Open", "4S"), ("Closed", "3NT")]


def test_a_deal_given_twice_in_one_board_quarantines_it() -> None:
    """PBN 2.1 3.4: a game gives each tag once. A board giving two Deals with other hands was
    read as two deals of the board (the first passed out with the first hands, the second
    played with the other hands), stored without a word; now it is the game's one issue. A list
    of Deals without boards is still one deal per Deal, and a board whose other table run on
    from its Declarer repeats the same Deal is still two tables."""
    other = '[Deal "N:T98.JT9.JT9.JT98 AKQJ.AKQ.AKQ.AKQ 5432.5432.5432.5 76.876.876.76432"]\n'
    result = '[Declarer "N"]\n[Contract "4S"]\n[Result "10"]\n'
    items = list(READER.read_text(BOARD_1 + other + result, "t.pbn", "t"))
    (issue,) = items
    assert isinstance(issue, Issue) and issue.record_key == "board 1"
    assert "'Deal' is given twice in one game" in issue.message
    assert "at line 5, then " in issue.message and "at line 6" in issue.message
    deals = BOARD_1.splitlines()[4] + "\n" + other
    listed = validate(READER.read_text('[Event "Hands"]\n' + deals, "t.pbn", "t"))
    assert len(listed.deals) + len(listed.issues) == 2  # each its own game (here: no dealer)
    assert not any("twice" in i.message for i in listed.issues)
    same = validate(READER.read_text(BOARD_1 + result + BOARD_1.splitlines()[4] + "\n"
                                     + '[Declarer "S"]\n[Contract "3NT"]\n[Result "9"]\n',
                                     "t.pbn", "t"))
    assert not same.issues and [d.contract for _, d, _ in same.deals] == ["4S", "3NT"]


@pytest.mark.parametrize(("tag", "message"), [
    ('[Dealer "E"]', "'Dealer' is given twice in one game ('N' at line 3, then 'E' at line 6)"),
    ('[Vulnerable "All"]', "'Vulnerable' is given twice in one game ('None' at line 4, then "
                           "'All' at line 6)"),
    ('[Dealer "N"]', None),
], ids=["dealer", "vulnerable", "same-dealer"])
def test_a_board_s_dealer_or_vulnerability_given_twice(tag: str, message: str | None) -> None:
    """PBN 2.1 3.4: a game gives each tag once. A second Dealer or Vulnerable after the Deal
    began a "next game" of the board, so the board was stored twice, the second time with the
    other dealer or vulnerability, without a word (and twice even where the value was the
    same). Another value is now the game's one issue; the same value is harmless."""
    lines = PLAYED.splitlines()
    text = "\n".join([*lines[:5], tag, *lines[5:]]) + "\n"
    got = validate(READER.read_text(text, "t.pbn", "t"))
    if message is None:
        assert not got.issues and len(got.deals) == 1
        return
    assert not got.deals
    (issue,) = got.issues
    assert issue.message.startswith(f"board 1: {message}")


@pytest.mark.parametrize(("kept", "tail", "token"), [
    (99, "Pa", "Pa"),
    (98, "3H Pass 4H A", "A"),
    (104, "D2 H", "H"),
], ids=["pass-cut", "all-pass-cut", "card-cut"])
def test_a_file_cut_inside_its_last_call_or_card_says_it_may_be_cut_short(
        kept: int, tail: str, token: str) -> None:
    """A PBN file (../shared/data/pbn-tournaments-slovesnov/Aulpll23.pbn, board 2 open) cut
    inside the last token of its last game's Auction (a ``Pass`` cut to ``Pa``, an ``AP``, PBN
    2.1 3.5, cut to ``A``) said only "not a call: 'A'". A section's last token that is no call
    (or, in the Play, PBN 2.1 3.6, no card) where the file ends is the game the file ends
    inside: its issue says the file may be cut short, and quotes the token; the games before
    are as in the whole file."""
    lines = _lines_of(AULPLL)
    text = "\n".join(lines[:kept]) + "\n" + tail
    *before, last = READER.read_text(text, "cut.pbn")
    assert isinstance(last, Issue) and last.line == 74, last
    assert last.message.startswith("the file ends inside this game: "), last.message
    assert f"{token!r}" in last.message and "cut short" in last.message, last.message
    whole = _records("\n".join(lines) + "\n")
    assert _records(before) == {k: d for k, d in whole.items() if k[0] < 74}
    # the same token in a game the file goes on after is that game's own issue
    (issue,) = [i for i in READER.read_text(text + "\n\n" + "\n".join(lines[109:]) + "\n",
                                            "whole.pbn") if isinstance(i, Issue)]
    assert issue.line == 74 and "file ends" not in issue.message


def seated(got: Ingested, board: int) -> dict[str, tuple[str | None, str | None]]:
    """Board ``board``'s tables: North's name -> the teams (N-S, E-W) its deal names."""
    return {g.players[0]: (d.ns_team, d.ew_team) for g, d, _ in got.deals if d.board == board}


def test_the_teams_each_pair_plays_for() -> None:
    """A deal names the teams of its N-S and E-W pairs, however its file seats the home team.
    example1.pbn: [Room "Open"] / [Room "Closed"], HomeTeam J-germany in both: the home team
    sits N-S in the open room, E-W in the closed one. example2.pbn (RealBridge): no room, the
    tables [Table "11"] and [Table "7"] of AUSTRIA v DENMARK name each its N-S team home
    (Knob/Wanha of Austria, Bilde/Jepsen of Denmark). example3.pbn: no room, HomeTeam Poland at
    both tables of each board of the Final: the first table seats it N-S (Balicki/Zmudzinski),
    the other E-W (Ahlesved/Petersson of Sweden N-S)."""
    got = ingest(READER, EP / "pbn" / "example1.pbn")
    assert seated(got, 1) == {"Linde J": ("J-germany", "J-austria"),
                              "Lindermann A": ("J-austria", "J-germany")}
    got = ingest(READER, EP / "pbn" / "example2.pbn")
    austria = {n: t for n, t in seated(got, 11).items() if "AUSTRIA" in t}
    assert austria == {"Markus Knob#39415": ("AUSTRIA", "DENMARK"),
                       "Dennis Bilde#38002": ("DENMARK", "AUSTRIA")}
    got = validate(READER.read_text(sample_text(EP / "pbn" / "example3.pbn", 6), "example3.pbn",
                                    "example3"))
    for board in (1, 2, 3):
        assert seated(got, board) == {"Balicki": ("Poland", "Sweden"),
                                      "Ahlesved": ("Sweden", "Poland")}


def test_a_pairs_event_names_no_teams() -> None:
    """example1.pbn without its HomeTeam and VisitTeam tags, as a pairs event's file is: no deal
    names a team (nor a match)."""
    text = sample_text(EP / "pbn" / "example1.pbn", 3)
    text = re.sub(r'\[(HomeTeam|VisitTeam) "[^"]*"\]\n', "", text)
    got = validate(READER.read_text(text, "t.pbn", "t"))
    assert got.deals and all(d.ns_team is None and d.ew_team is None and d.match is None
                             for _, d, _ in got.deals)
