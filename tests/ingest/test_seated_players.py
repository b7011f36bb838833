"""Who sat at a bridge table (docs/bridge.md, "Known limits and findings"): the players a PBN
game omits are those of the same table of the board before (``ingest.pbn.SeatCarry``), and a
seat no source names is a player unnamed at that table alone (``bridge_records.unnamed``), never
one ``North`` who sat at every table of every file that names nobody."""

from __future__ import annotations

from collections import Counter

from ingest.bridge_records import SEAT_NAMES, is_unnamed, table_known, unnamed
from ingest.dds_hands import READER as DDS
from ingest.lin import READER as LIN
from ingest.pbn import READER as PBN
from ingest.source import Raw
from tests.conftest import DATA
from tests.ingest.bridge_ingest import ingest, validate

EXAMPLE3 = DATA / "endplay-fixtures" / "pbn" / "example3.pbn"
HEAD = '[Event "{event}"]\n[Date "2012.08.20"]\n'
MADE = '[Declarer "N"]\n[Contract "3NT"]\n[Result "9"]\n'


def _board(n: int, seats: tuple[str, ...] | None = None, room: str | None = None) -> str:
    """A game of board ``n``: 3NT by North made, at the table ``seats`` name (N E S W; none: the
    game names nobody) in ``room``."""
    named = "" if seats is None else "".join(
        f'[{seat} "{name}"]\n' for seat, name in zip(SEAT_NAMES, seats, strict=True))
    return (f'[Board "{n}"]\n{named}' + (f'[Room "{room}"]\n' if room else "")
            + f'[Dealer "N"]\n[Vulnerable "None"]\n{MADE}\n')


OPEN = ("Balicki", "Upmark", "Zmudzinski", "Nystrom")
CLOSED = ("Ahlesved", "Zaremba", "Petersson", "Zak")


def _tables(text: str) -> list[tuple[list[str], int | None]]:
    """Each deal's players and board, in file order."""
    got = validate(PBN.read_text(text, "t.pbn", "t"))
    assert not got.issues, [i.message for i in got.issues]
    return [(list(g.players), d.board) for g, d, _ in got.deals]


def test_example3_names_every_table_once_per_segment() -> None:
    """endplay's example3.pbn names a segment's players on its first board only (the open room's
    game, then the closed room's) and omits them for both tables of every board after: 7,139 of
    its deals were stored under one North, East, South and West, who sat at every table of the
    2012 World Championship, Vanderbilt, Spingold and US Championship. Each segment is its two
    tables, each with its players and its 16 boards once."""
    games: dict[str, list[str]] = {}
    boards: dict[str, list[int]] = {}
    for raw in PBN.read(EXAMPLE3):
        if not isinstance(raw, Raw):
            continue
        data = raw.data
        if data["record"] == "game":
            games[data["game_id"]] = data["players"]
        else:
            boards.setdefault(data["game_id"], []).append(data["board"])
    assert sum(len(b) for b in boards.values()) == 7632 and len(games) == 490
    assert not [p for players in games.values() for seat, p in enumerate(players)
                if is_unnamed(p, seat)]
    assert all(len(set(b)) == len(b) for b in boards.values())
    first, second = list(games)[:2]
    assert games[first] == ["Balicki", "Upmark", "Zmudzinski", "Nystrom"]
    assert games[second] == ["Ahlesved", "Zaremba", "Petersson", "Zak"]
    assert boards[first] == boards[second] == list(range(1, 17))


def test_the_kth_table_takes_the_players_of_the_kth_table_before() -> None:
    """Two tables a board, named on board 1 only: each board's second game sits at the second
    table. A seat a later game names is its own, and the table keeps it from there."""
    text = (HEAD.format(event="Final") + _board(1, OPEN) + _board(1, CLOSED) + _board(2)
            + _board(2) + _board(3, (*OPEN[:3], "Cullin")) + _board(3) + _board(4) + _board(4))
    sub = [*OPEN[:3], "Cullin"]
    assert _tables(text) == [(list(OPEN), 1), (list(CLOSED), 1), (list(OPEN), 2),
                             (list(CLOSED), 2), (sub, 3), (list(CLOSED), 3), (sub, 4),
                             (list(CLOSED), 4)]


def test_a_room_is_the_table_whatever_the_order() -> None:
    """A file of the open room's boards and then the closed room's: the ``Room`` tag is the
    table, so the closed room's boards take the closed room's players, not the game before."""
    text = (HEAD.format(event="Final") + _board(1, OPEN, "Open") + _board(2, room="Open")
            + _board(1, CLOSED, "Closed") + _board(2, room="Closed"))
    assert _tables(text) == [(list(OPEN), 1), (list(OPEN), 2), (list(CLOSED), 1),
                             (list(CLOSED), 2)]


def test_players_are_not_carried_into_another_event() -> None:
    """The seats are an event's: the next event's first board, naming nobody, is unnamed."""
    text = (HEAD.format(event="Final") + _board(1, OPEN) + HEAD.format(event="Semifinal")
            + _board(1))
    (named, _), (other, _) = _tables(text)
    assert named == list(OPEN) and all(is_unnamed(p, s) for s, p in enumerate(other))


def test_a_seat_given_as_unknown_stays_unknown() -> None:
    """``?`` is the file saying it does not know (PBN 2.1 3.4): nothing is carried over it."""
    text = HEAD.format(event="Final") + _board(1, OPEN) + _board(2, ("?", "?", "?", "?"))
    (_, _), (players, _) = _tables(text)
    assert all(is_unnamed(p, s) for s, p in enumerate(players))


def test_unnamed_players_of_two_events_are_two_people() -> None:
    """Tables nobody names, in two events: no ``North`` of both, no seat name alone."""
    text = (HEAD.format(event="Monday") + _board(1) + _board(2)
            + HEAD.format(event="Tuesday") + _board(1))
    monday, monday_2, tuesday = (players for players, _ in _tables(text))
    assert monday == monday_2 and not set(monday) & set(tuesday)
    assert not set(monday) & set(SEAT_NAMES)
    assert monday[0].startswith("North (unnamed ") and tuesday[2].startswith("South (unnamed ")


def test_unnamed_players_read_back_from_an_export_are_the_same() -> None:
    """The placeholder is a name the PBN writer writes: read back, it is the same player, and
    the table is still not known by name (its boards may repeat, ``table_known``)."""
    north = unnamed(0, ("Club", None))
    assert is_unnamed(north, 0) and not is_unnamed(north, 1)
    text = HEAD.format(event="Final") + _board(1, (north, *(unnamed(s, ("Club", None))
                                                             for s in (1, 2, 3))))
    ((players, _),) = _tables(text)
    assert players[0] == north and not table_known(players)
    assert table_known(["Anna", *players[1:]])


def test_gboplo27_unknown_rooms_are_two_tables() -> None:
    """Gboplo27.pbn gives ``?`` for every seat of Great Britain v Poland from board 13 on, in
    both rooms: two tables of unnamed players, not one, and nobody else's."""
    got = ingest(PBN, DATA / "pbn-tournaments-slovesnov" / "Gboplo27.pbn")
    unknown = Counter(tuple(g.players) for g, _, _ in got.deals
                      if all(is_unnamed(p, s) for s, p in enumerate(g.players)))
    assert sorted(unknown.values()) == [12, 12]


def test_dds_files_have_unnamed_players_of_their_own() -> None:
    """Nobody sat at a DDS solved deal: each file's game has four unnamed players of its own."""
    one, two = (ingest(DDS, DATA / "dds-hands" / name) for name in ("list1.txt", "list2.txt"))
    (a,), (b,) = one.games.values(), two.games.values()
    assert not set(a.players) & set(b.players)
    assert all(is_unnamed(p, s) for s, p in enumerate(a.players))
    for game, deal, _ in [*one.deals, *two.deals]:
        assert deal.dealer in game.players and set(deal.hands or {}) == set(game.players)


def test_lin_seats_named_by_their_seat_name_nobody() -> None:
    """A LIN ``pn`` that names a room's seats ``South, West, North, East`` (an operator's
    placeholders, data/README.md; 40000.lin's closed room, whose boards it does not hold) names
    nobody there: here they are the open room's."""
    text = (DATA / "bbo-vugraph-lin" / "40000.lin").read_text(encoding="utf-8")
    pn = next(line for line in text.splitlines() if line.startswith("pn|"))
    names = pn.split("|")[1].split(",")
    assert names[4:8] == ["South", "West", "North", "East"]
    closed = text.replace(pn, "pn|" + ",".join(names[4:8] + names[:4]) + "|pg||", 1)
    got = validate(LIN.read_text(closed, "t.lin"))
    assert got.deals and all(is_unnamed(p, s) for g, _, _ in got.deals
                             for s, p in enumerate(g.players))
    assert not {p for g, _, _ in got.deals for p in g.players} & set(SEAT_NAMES)
