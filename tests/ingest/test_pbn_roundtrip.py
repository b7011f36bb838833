"""PBN writer: reading what we write gives the same records (issue 4, STYLE.md practice 10)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from ingest.jsonl import READER as JSONL
from ingest.lin import READER as LIN
from ingest.pbn import READER as PBN
from ingest.pbn_write import dumps, pbn_hand
from ingest.traveller_csv import READER as TRAVELLER
from model.bridge.records import BridgeDeal, BridgeGame
from tests.conftest import DATA, ROOT
from tests.ingest.bridge_ingest import Ingested, ingest, validate

SOURCES = [
    DATA / "endplay-fixtures" / "pbn" / "example1.pbn",
    DATA / "endplay-fixtures" / "pbn" / "example2.pbn",
    DATA / "pbn-tournaments-slovesnov" / "Aulpll23.pbn",
    DATA / "pbn-tournaments-slovesnov" / "Gboplo27.pbn",
]
NOT_IN_PBN = {"game_id"}
"""Record fields a round trip may change: a game read from a file without a ``GameId`` tag
(a LIN file) is named by ``pbn_write``'s tag, which is the first reader's id (the test of the
PBN sources checks the ids too)."""


def same_records(a: Ingested, b: Ingested) -> None:
    assert len(a.deals) == len(b.deals) and not b.issues
    for (g1, d1, _), (g2, d2, _) in zip(a.deals, b.deals, strict=True):
        assert g1.model_dump(exclude=NOT_IN_PBN) == g2.model_dump(exclude=NOT_IN_PBN)
        assert d1.model_dump(exclude=NOT_IN_PBN) == d2.model_dump(exclude=NOT_IN_PBN)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_pbn_round_trip(path: Path) -> None:
    first = ingest(PBN, path)
    text = dumps((g, d) for g, d, _ in first.deals)
    second = validate(PBN.read_text(text, "out.pbn", "out"))
    same_records(first, second)
    # the game ids too (the writer's GameId tag), and writing again gives the same text
    assert [g.game_id for g, _, _ in second.deals] == [g.game_id for g, _, _ in first.deals]
    assert dumps((g, d) for g, d, _ in second.deals) == text


def test_lin_to_pbn() -> None:
    first = ingest(LIN, DATA / "bbo-vugraph-lin" / "00001.lin")
    text = dumps((g, d) for g, d, _ in first.deals)
    same_records(first, validate(PBN.read_text(text, "out.pbn", "out")))


def test_hand_format() -> None:
    # PBN 2.1 3.4.11: suits S.H.D.C, ranks high to low, a void is empty.
    assert pbn_hand(["AS", "TS", "2H", "KD", "QD"]) == "AT.2.KQ."


def test_rubber_and_chicago_round_trip_with_their_honours() -> None:
    """A rubber game's deals are written with ``Scoring "Rubber"`` or ``"Chicago"`` (PBN 2.1
    3.4) and their honours in an ``Honours`` user tag, and read back as the same rubber game
    (bridge.md 4.6, 10); a bad ``Honours`` tag is that deal's issue, naming the tag, and the
    other deals are read (data/samples/bridge/rubber-session.jsonl)."""
    first = ingest(JSONL, ROOT / "data" / "samples" / "bridge" / "rubber-session.jsonl")
    text = dumps((g, d) for g, d, _ in first.deals)
    assert 'Scoring "Chicago"' in text and 'Scoring "Rubber"' in text
    assert '[Honours "E 100"]' in text  # Boris, East of rubber-1, held 100
    second = validate(PBN.read_text(text, "out.pbn", "out"))
    same_records(first, second)
    assert {g.rules for g in second.games.values()} == {g.rules for g in first.games.values()}
    assert '[Date "2026.11.26"]' in text  # the export format's roster (3.1): the game's day
    assert {g.started_at for g in second.games.values()} == {
        g.started_at for g in first.games.values()}
    bad = validate(PBN.read_text(text.replace('[Honours "E 100"]', '[Honours "E lots"]'),
                                 "bad.pbn", "bad"))
    assert [i.message for i in bad.issues] == [
        "Honours points 'lots' is not a non-negative whole number in digits 0-9"]
    assert len(bad.deals) == len(first.deals) - 1


def test_a_deal_that_cannot_be_read_keeps_its_number() -> None:
    """A PBN rubber has no board numbers: its deals are numbered in file order, and Chicago's
    vulnerability follows the number (bridge.md 10). A deal that could not be read gave its
    number to the next one, so every later deal was scored at another vulnerability; it keeps
    its number now, and the deals after it keep theirs (data/samples/bridge/rubber-session.jsonl
    written as PBN, one deal's ``Honours`` tag broken)."""
    first = ingest(JSONL, ROOT / "data" / "samples" / "bridge" / "rubber-session.jsonl")
    text = dumps((g, d) for g, d, _ in first.deals)
    broken = validate(PBN.read_text(text.replace('[Honours "E 100"]', '[Honours "Q 100"]'),
                                    "bad.pbn", "bad"))
    assert [i.message for i in broken.issues] == ["not a seat: 'Q' (N, E, S or W)"]
    numbers = sorted((g.rules.mode or "rubber", d.deal_no) for g, d, _ in broken.deals)
    lost = next(d.deal_no for _, d, _ in first.deals if d.honours)
    assert numbers == sorted((g.rules.mode or "rubber", d.deal_no) for g, d, _ in first.deals
                             if d.deal_no != lost or g.rules.mode == "chicago")


def test_a_broken_header_game_takes_no_deal_number() -> None:
    """A game of tags only (PBN 2.1's header: Event, Site) holds no deal, so a syntax error in
    it keeps no place: the first deal after it is still deal 1."""
    text = ('% PBN 2.1\n[Event "Club"]\n[Site "x" junk]\n\n[Event "Club"]\n[Board "1"]\n'
            '[Dealer "N"]\n[Vulnerable "None"]\n[Declarer "N"]\n[Contract "3NT"]\n'
            '[Result "9"]\n')
    read = validate(PBN.read_text(text, "header.pbn", "header"))
    assert len(read.issues) == 1 and [d.deal_no for _, d, _ in read.deals] == [1]


def test_a_deal_without_a_board_takes_nothing_from_the_board_before() -> None:
    """PBN carries Board, Dealer, Vulnerable and Deal over from the game before to a game that
    leaves Board out (the board's other table, 3.4): a duplicate deal recorded with only its
    vulnerability came back as the board before it, with that board's hands. The writer gives
    every deal a Board, ``?`` where it has none (the export format's roster, 3.1)."""
    from model.bridge.records import BridgeDeal

    game, first, _ = ingest(PBN, SOURCES[0]).deals[0]
    assert first.board is not None and first.hands is not None
    other = BridgeDeal.model_validate({"game_id": game.game_id, "deal_no": first.deal_no + 1,
                                       "dealer": game.players[1], "vulnerable": "NS",
                                       "contract": "2H", "declarer": game.players[1],
                                       "tricks": 8})
    boards = [first, other]
    text = dumps((game, d) for d in boards)
    read = validate(PBN.read_text(text, "out.pbn", "out"))
    assert not read.issues
    second = read.deals[1][1]
    assert (second.board, second.hands, second.vulnerable) == (None, None, "NS")


def test_games_pbn_cannot_tell_apart_come_back_apart() -> None:
    """Two stored games without an event and with the seats' placeholders for players (as the
    simulator stores duplicate games) were one game when their PBN export was read back, and
    every board the second game repeated was a conflict (48 records of the demo's export). The
    writer adds a ``GameId`` user tag, which the reader keeps games apart by."""
    from model.bridge.records import BridgeDeal, BridgeGame

    records = []
    for n, contract in ((1, "3NT"), (2, "4S")):
        game = BridgeGame.model_validate({"game_id": f"sim-{n}", "variant": "bridge-duplicate",
                                          "players": ["N", "E", "S", "W"]})
        records += [(game, BridgeDeal.model_validate(
            {"game_id": game.game_id, "deal_no": board, "board": board, "dealer": "N",
             "contract": contract, "declarer": "N", "tricks": 9 + board}))
            for board in (1, 2)]
    read = validate(PBN.read_text(dumps(records), "out.pbn", "out"))
    assert not read.issues and len(read.games) == 2 and len(read.deals) == 4
    assert sorted((d.board, d.contract) for _, d, _ in read.deals) == [
        (1, "3NT"), (1, "4S"), (2, "3NT"), (2, "4S")]


def test_a_game_whose_first_deal_cannot_be_read_keeps_its_id() -> None:
    """The game id comes from the writer's ``GameId`` tag even when the game's first deal is
    quarantined: that deal keeps the game's place, and it took the id from a hash then, so the
    deals after it came back under another game id than the one stored."""
    first = ingest(JSONL, ROOT / "data" / "samples" / "bridge" / "rubber-session.jsonl")
    text = dumps((g, d) for g, d, _ in first.deals)
    broken = validate(PBN.read_text(text.replace('[Contract "', '[Contract "9', 1),
                                    "bad.pbn", "bad"))
    assert len(broken.issues) == 1
    assert {g.game_id for g, _, _ in broken.deals} == {g.game_id for g, _, _ in first.deals}


@pytest.mark.parametrize("tag", ["a" * 201, "tab\there", "?", ""])
def test_a_game_id_tag_that_is_no_game_id_is_passed_over(tag: str) -> None:
    """A ``GameId`` longer than a game id may be (records.md 1.1: at most 200 printable
    characters) quarantined the game, and every deal of it as a deal of an unknown game. Such a
    tag (or an unknown one, ``?``) is passed over: the game is named by a hash, as without it."""
    text = ('[Event "Club"]\n[Board "1"]\n[West "Ann"]\n[North "Bob"]\n[East "Cid"]\n'
            '[South "Dan"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Declarer "N"]\n'
            f'[Contract "3NT"]\n[Result "9"]\n[GameId "{tag}"]\n')
    read = validate(PBN.read_text(text, "odd.pbn", "odd"))
    assert not read.issues and len(read.deals) == 1
    assert read.deals[0][0].game_id.startswith("odd/")


def test_two_games_with_one_game_id_tag_stay_two_games() -> None:
    """Two exports put together may hold two games under one ``GameId``: the second game's
    deals were read as the first game's, and quarantined as its dealer and declarer were no
    players of it. The second game is named by a hash, as a game without the tag."""
    board = ('[Event "{event}"]\n[Board "1"]\n[West "{w}"]\n[North "{n}"]\n[East "{e}"]\n'
             '[South "{s}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Declarer "N"]\n'
             '[Contract "3NT"]\n[Result "9"]\n[GameId "club/1"]\n\n')
    text = (board.format(event="A", w="Ann", n="Bob", e="Cid", s="Dan")
            + board.format(event="B", w="Eve", n="Fay", e="Gus", s="Hal"))
    read = validate(PBN.read_text(text, "two.pbn", "two"))
    assert not read.issues and len(read.games) == 2 and len(read.deals) == 2
    assert sorted(read.games)[0] == "club/1"
    assert {g.event for g, _, _ in read.deals} == {"A", "B"}



def test_a_rubber_pasted_twice_is_read_once(tmp_path: Path) -> None:
    """A rubber deal has no board number, so a session pasted twice into one file came back
    with twice its deals, the copies numbered after the originals (into a database holding the
    session: all of them new deals, doubling its scores). A deal whose four hands repeat an
    earlier deal of its game is that deal read again: a duplicate, or a conflict when its
    result differs (simulated rubber games with cards, written as PBN)."""
    from ingest.pipeline import ingest_paths
    from sim.run import Plan, simulate

    simulate(Plan("bridge-rubber", 2, 6, seed=3), out=tmp_path / "rubber.jsonl", workers=1)
    deals = [(g, d) for g, d, _ in ingest(JSONL, tmp_path / "rubber.jsonl").deals]
    once, twice, changed = (tmp_path / n for n in ("once.pbn", "twice.pbn", "changed.pbn"))
    once.write_text(dumps(deals))
    twice.write_text(dumps(deals) + "\n" + dumps(deals))
    result = deals[3][1].model_copy(update={"play": None, "claim": None,
                                            "tricks": (deals[3][1].tricks or 0) ^ 1})
    changed.write_text(dumps(deals) + "\n" + dumps([(deals[3][0], result)]))
    alone = ingest_paths([twice], tmp_path / "a.duckdb", score=None)[0]
    assert (alone.stored, alone.duplicates, alone.quarantined) == (2 + 12, 12, 0)
    after = ingest_paths([once, twice], tmp_path / "b.duckdb", score=None)[1]
    assert (after.stored, after.duplicates, after.quarantined) == (0, 2 + 24, 0)
    fixed = ingest_paths([changed], tmp_path / "c.duckdb", score=None)[0]
    assert (fixed.stored, fixed.quarantined) == (2 + 12, 1)
    assert fixed.issues[0].code == "deal-conflict"


CLUB = BridgeGame.model_validate({"game_id": "club/1", "variant": "bridge-duplicate",
                                  "players": ["Ann", "Bob", "Cid", "Dan"], "event": "Pairs"})
MADE = {"game_id": "club/1", "deal_no": 1, "board": 1, "dealer": "Ann", "vulnerable": "None",
        "contract": "4S", "declarer": "Ann", "tricks": 10}
PLAY = [["Bob", "AH"], ["Cid", "2H"], ["Dan", "3H"], ["Ann", "4H"]]
"""The first trick of North's 4S: East (Bob) leads the ace of hearts and wins it."""


@pytest.mark.parametrize(("game", "deal"), [
    ({"league": "Riverside BC winter league"}, {}),
    ({"stake": "1 cent per point"}, {}),
    ({"started_at": "2026-11-26T19:00:00+01:00"}, {}),
    ({"started_at": "2026-11-26T23:30:00-05:30"}, {}),  # the next day in UTC
    ({"started_at": "2026-11-26T19:00:00Z"}, {}),
    ({"started_at": "2026-11-26T19:00:00"}, {}),  # local time, offset not known
    ({"started_at": "2026-11-26T00:00:00+01:00"}, {}),  # midnight, but not UTC's
    ({}, {"lead": "AH"}),
    ({}, {"ns_pair": "3", "ew_pair": "12A"}),
    ({}, {"play": PLAY, "claim": 10, "lead": "AH"}),
], ids=["league", "stake", "start", "start-west", "start-utc", "start-local", "midnight",
        "lead", "pairs", "claim"])
def test_what_pbn_has_no_tag_for_comes_back(game: dict[str, str],
                                            deal: dict[str, object]) -> None:
    """A game's league, stake and start (its time and offset, not only its day), a
    traveller's opening lead and pair numbers, and a claim: the export wrote none of them (PBN
    has no tag for most), so an export read into the database it came from was a
    ``game-conflict`` or ``deal-conflict`` for each such record (19 of the demo's 112). They are
    written as PBN's ``Time``/``UTCDate``/``UTCTime`` (4.5), ``PairNS``/``PairEW`` (4.3), and
    ``League``, ``Stake``, ``Lead`` and ``Claim`` user tags (4.9), and read back the same."""
    g = BridgeGame.model_validate({**CLUB.model_dump(), **game})
    d = BridgeDeal.model_validate({**MADE, **deal})
    read = validate(PBN.read_text(dumps([(g, d)]), "out.pbn", "out"))
    assert not read.issues and read.games == {g.game_id: g}
    assert [r for _, r, _ in read.deals] == [d]


@pytest.mark.parametrize(("variant", "rules"), [
    ("bridge-rubber", {"honours": False}),
    ("bridge-rubber", {"mode": "chicago", "scoring_profile": "seed004"}),
    ("bridge-rubber", {"mode": "chicago"}),  # the Scoring tag says it all: no Rules tag
    ("bridge-duplicate", {"insult_redoubled": 50, "incomplete_rubber_bonus": [200, 50]}),
], ids=["no-honours", "chicago-seed", "chicago", "duplicate"])
def test_house_rules_come_back(variant: str, rules: dict[str, object]) -> None:
    """A game's house rules (bridge.md 9-10) beyond what the ``Scoring`` tag says (Rubber or
    Chicago) were not written, so a game under them read back was a ``game-conflict``. They
    are a ``Rules`` user tag (4.9), the JSON object the record holds."""
    g = BridgeGame.model_validate({**CLUB.model_dump(), "variant": variant, "rules": rules})
    d = BridgeDeal.model_validate({k: v for k, v in MADE.items()
                                   if variant == "bridge-duplicate" or k != "board"})
    text = dumps([(g, d)])
    assert ("[Rules " in text) == (rules != {"mode": "chicago"})
    read = validate(PBN.read_text(text, "out.pbn", "out"))
    assert not read.issues and read.games == {g.game_id: g}


def test_a_rules_tag_that_is_no_json_object_is_the_deal_s_issue() -> None:
    """A ``Rules`` tag the reader cannot read as house rules quarantines its deal, naming the
    tag; rules the model refuses are its schema issue (records.md 1.1)."""
    board = ('[Event "Club"]\n[Board "1"]\n[West "Ann"]\n[North "Bob"]\n[East "Cid"]\n'
             '[South "Dan"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Declarer "N"]\n'
             '[Contract "3NT"]\n[Result "9"]\n')
    bad = validate(PBN.read_text(board + '[Rules "honours off"]\n', "r.pbn", "r"))
    assert not bad.deals and "the Rules tag is not a JSON object" in bad.issues[0].message
    wrong = validate(PBN.read_text(board + '[Rules "{\\"mode\\":\\"poker\\"}"]\n', "r.pbn", "r"))
    assert not wrong.deals and any("mode" in i.message for i in wrong.issues)


def test_a_traveller_comes_back_with_its_pairs_and_leads() -> None:
    """The club's travellers (pair numbers and opening lead on every row) written as PBN and
    read back are the same records (data/samples/bridge/club-pairs-travellers.csv)."""
    first = ingest(TRAVELLER, ROOT / "data" / "samples" / "bridge" / "club-pairs-travellers.csv")
    assert all(d.lead and d.ns_pair and d.ew_pair for _, d, _ in first.deals)
    text = dumps((g, d) for g, d, _ in first.deals)
    assert '[PairNS "1"]' in text and '[Lead "HA"]' in text
    same_records(first, validate(PBN.read_text(text, "out.pbn", "out")))


@pytest.mark.parametrize(("tags", "start"), [
    ('[Date "2026.11.26"]', "2026-11-26T00:00:00Z"),
    ('[Date "2026.11.26"]\n[Time "19:05:00"]', "2026-11-26T19:05:00"),
    ('[Date "2026.11.27"]\n[Time "01:00:00"]\n[UTCDate "2026.11.26"]\n[UTCTime "23:00:00"]',
     "2026-11-27T01:00:00+02:00"),
    ('[Date "?"]\n[UTCDate "2026.11.26"]\n[UTCTime "18:00:00"]', "2026-11-26T18:00:00Z"),
    ('[Date "2026.11.26"]\n[Time "7pm"]', "2026-11-26T00:00:00Z"),
    ('[Date "2026.11.26"]\n[Time "19:00:00"]\n[UTCDate "2026.11.28"]\n[UTCTime "19:00:00"]',
     "2026-11-26T19:00:00"),
    ('[Date "2026.11.26"]\n[Time "19:00:00"]\n[UTCDate "2026.11.26"]\n[UTCTime "18:00:30"]',
     "2026-11-26T19:00:00"),
], ids=["day", "local", "offset", "utc", "bad-time", "utc-days-apart", "utc-seconds-apart"])
def test_the_start_of_a_game(tags: str, start: str) -> None:
    """PBN 2.1 4.5: ``Time`` is the local clock time the game started, ``UTCDate`` and
    ``UTCTime`` the same moment in UTC (their difference is the local offset); a ``Date`` alone
    is the day's start in UTC, as before; a time that is no ``HH:MM:SS`` is not read, nor are
    UTC tags a day or more from the local ones, or not whole minutes from them (no offset)."""
    text = (f'[Event "Club"]\n{tags}\n[Board "1"]\n[West "Ann"]\n[North "Bob"]\n'
            '[East "Cid"]\n[South "Dan"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
            '[Declarer "N"]\n[Contract "3NT"]\n[Result "9"]\n')
    read = validate(PBN.read_text(text, "start.pbn", "start"))
    assert not read.issues
    [game] = read.games.values()
    want = datetime.fromisoformat(start)
    assert game.started_at is not None
    assert (game.started_at, game.started_at.utcoffset()) == (want, want.utcoffset())


@pytest.mark.parametrize(("tag", "message"), [
    ('[Lead "ZA"]', "not a card: 'ZA' (suit then rank, e.g. 'DQ', 'HT')"),
    ('[Claim "ten"]', "Claim 'ten' is not a non-negative whole number in digits 0-9"),
])
def test_a_bad_lead_or_claim_tag_is_the_deals_issue(tag: str, message: str) -> None:
    """A ``Lead`` or ``Claim`` user tag that is no card or no number is that deal's issue,
    quoting it; the deals around it are read."""
    deals = [BridgeDeal.model_validate({**MADE, "deal_no": n, "board": n}) for n in (1, 2)]
    text = dumps([(CLUB, d) for d in deals]).replace('[GameId', f'{tag}\n[GameId', 1)
    read = validate(PBN.read_text(text, "bad.pbn", "bad"))
    assert [i.message for i in read.issues] == [message]
    assert [d.board for _, d, _ in read.deals] == [2]


SEATS_ONLY = ["North", "East", "South", "West"]
"""The players of a game that names none (``bridge_records.seat_players``): its boards
repeat within it, so they are no deal numbers (``table_known``)."""


def _numbered(players: list[str], deal_nos: list[int],
              boards: list[int]) -> list[tuple[BridgeGame, BridgeDeal]]:
    """A game of these players with these stored deal numbers and boards."""
    game = BridgeGame.model_validate({**CLUB.model_dump(), "players": players})
    return [(game, BridgeDeal.model_validate({**MADE, "deal_no": no, "board": board,
                                              "dealer": players[0], "declarer": players[0]}))
            for no, board in zip(deal_nos, boards, strict=True)]


@pytest.mark.parametrize(("players", "deal_nos", "boards"), [
    (SEATS_ONLY, [1, 3, 4], [1, 3, 4]),  # deal 2 quarantined when the game was first read
    (CLUB.players, [1, 2], [11, 12]),  # a JSON Lines game: its deals numbered apart from boards
], ids=["gap", "not-the-boards"])
def test_a_deal_comes_back_with_its_stored_number(players: list[str], deal_nos: list[int],
                                                  boards: list[int]) -> None:
    """The export wrote a deal's board but not its number, and the reader numbered a deal by
    its place in its game (a game that names no players) or by its board: a game stored with a
    gap (deal 19 of the 2012 Vanderbilt, one of board 59's tables, quarantined) came back as
    deals 1..n, a new deal and then a conflict for every deal after the gap. The writer adds a
    ``DealNo`` user tag (PBN 2.1 4.9), which numbers the deal in the game its ``GameId``
    names."""
    records = _numbered(players, deal_nos, boards)
    text = dumps(records)
    read = validate(PBN.read_text(text, "out.pbn", "out"))
    assert not read.issues
    assert [(g, d) for g, d, _ in read.deals] == records
    assert [line for line in text.splitlines() if line.startswith("[DealNo")] == [
        f'[DealNo "{no}"]' for no in deal_nos]


@pytest.mark.parametrize(("tag", "game_id"), [
    ('[DealNo "7"]', ""), ('[DealNo "0"]', '[GameId "club/1"]'),
    ('[DealNo "seven"]', '[GameId "club/1"]'), ('[DealNo "?"]', '[GameId "club/1"]'),
], ids=["no-game-id", "zero", "word", "unknown"])
def test_a_deal_no_tag_that_is_not_exact_is_passed_over(tag: str, game_id: str) -> None:
    """A ``DealNo`` tag numbers a deal only where it is exact: a number from 1 in a game named
    by its ``GameId`` tag. In an ordinary PBN file (no ``GameId``), and where it is no number
    from 1, the deals are numbered as without it, in file order."""
    text = "".join(f'[Event "Club"]\n[Board "{n}"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                   f'[Declarer "N"]\n[Contract "3NT"]\n[Result "9"]\n{tag}\n{game_id}\n\n'
                   for n in (1, 2))
    read = validate(PBN.read_text(text, "plain.pbn", "plain"))
    assert not read.issues and [d.deal_no for _, d, _ in read.deals] == [1, 2]


def test_a_deal_no_of_a_game_whose_game_id_another_game_took_is_passed_over() -> None:
    """Two exports put together, two games under one ``GameId``: the second game is named by
    a hash (``GameGroups.place``), so its ``DealNo`` numbers a deal of another game and is
    passed over; its deals are numbered in file order."""
    first = dumps(_numbered(SEATS_ONLY, [5], [1]))
    second = first.replace('"Pairs"', '"Teams"')
    read = validate(PBN.read_text(first + "\n" + second, "two.pbn", "two"))
    assert not read.issues
    assert sorted((g.event, d.deal_no) for g, d, _ in read.deals) == [("Pairs", 5), ("Teams", 1)]
