"""PBN reader (Portable Bridge Notation 2.1, import and export format) -> canonical bridge records.

Per game (pbn_syntax.py cuts them): tag values ``#`` take the previous game's value and tags a game
omits are carried over from the previous game for the board's identity (Event, Board, Dealer,
Vulnerable, Deal, teams ...; PBN 2.1 4.8 and the import format of 2.1); ``?`` and empty values are
unknown. ``Deal`` may start with any seat and one hand may be ``-`` (inferred when the other
three are given). ``Auction`` tokens: calls, ``AP`` (all pass), notes ``=n=`` (become alerts with
the ``Note`` text), annotations (``!``, ``?``, ``$n``) and irregularities (``^x``) are skipped.
``Play`` rows are cards by seat starting with the seat on lead (3.6; a ``Play`` of ``?``: the
seat left of declarer, who leads), turned into played order by replaying the trick winners;
``-`` ends the play (a claim). ``Result`` (a leading ``^`` marks an
irregularity and is dropped) is the declarer's tricks, ``Score`` ("NS 420", "EW -50") is checked.
A ``Scoring`` tag of ``Rubber`` or ``Chicago`` makes the deals a rubber game's; an ``Honours``
user tag (``S 100``) gives the honours held where there are no hands to count them from.
``Time``, ``UTCDate`` and ``UTCTime`` (4.5) give the game's start beyond its day
(:func:`started_at`); ``PairNS`` and ``PairEW`` (4.3) the traveller's pairs; the user tags
``League``, ``Stake``, ``Lead`` (the opening lead, ``HA``), ``Claim`` (declarer's trick
total agreed at a claim) and ``Rules`` (house rules, :func:`house_rules`) what ``pbn_write``
writes of a record that PBN has no tag for. A game
the file ends inside that shows it is cut short (:func:`cut_short`) is an issue, not a deal; so is
a game that gives a tag the reader reads twice with different values (:func:`repeated_tag`). The
cards of a ``Play`` section of a deal without a contract (passed out) are not read, and are an
issue of their own at the section (:func:`play_not_read`); the deal is read without them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Iterable, Iterator
from datetime import date, datetime, time, timedelta, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ingest import text as text_codec
from ingest.bridge_records import (
    GameGroups,
    HandError,
    call_of,
    card_name,
    complete_hands,
    game_record,
    hand_names,
    parse_hand,
    play_from_columns,
    played,
    seat_players,
    suit_rank_card,
    table_known,
)
from ingest.bridge_repairs import repair_auction, repair_play
from ingest.pbn_syntax import PbnGame, cut_tag, split_games
from ingest.source import Issue, NamedOrRecognised, Raw, ascii_int, given_twice, is_ascii_int
from model.base import GameId
from model.bridge.check import auction_of
from model.bridge.contracts import ContractError, parse_contract
from model.bridge.seats import (
    SEATS,
    SeatError,
    board_dealer,
    left_of,
    parse_seat,
    parse_vulnerable,
)
from model.bridge.variant import DUPLICATE
from model.bridge.variant import VARIANT as RUBBER
from model.problems import Code, counted

INHERITED = ("Event", "Site", "Date", "Scoring", "Stage", "Round", "Section", "HomeTeam",
             "VisitTeam", "Competition")
"""Tags a game without them takes from the previous game (the same event)."""
BOARD_TAGS = ("Board", "Dealer", "Vulnerable", "Deal")
"""Taken from the previous game only by a game of the same board (no Board tag of its own, or
the same number): the other table of the board."""
SEAT_TAGS = ("North", "East", "South", "West")
"""Taken, each that a game omits, from the same table of the event's board before
(:class:`SeatCarry`): the players who sat there."""
DEAL_TAGS = ("Deal", "Contract", "Auction", "Result")
"""A game with none of these records no deal (a header game: Event and such only)."""
RUBBER_SCORING: dict[str, dict[str, str]] = {"rubber": {}, "chicago": {"mode": "chicago"}}
"""A ``Scoring`` tag (PBN 2.1 3.4) naming rubber bridge, by lower case: its games are
``bridge-rubber`` games with these rules (bridge.md 10: Chicago's four-deal cycles); any other
scoring (MP, IMP, ...) is duplicate."""
_NOTE_REF = re.compile(r"^=([0-9]+)=$")
_SCORE = re.compile(r"(?:(NS|EW)\s+)?([+-]?[0-9]+)(?:\s+(NS|EW)\s+([+-]?[0-9]+))?")
"""A ``Score`` tag's whole value: a side's score (``NS 420``, ``EW -50``; no side: North-South's),
and perhaps the other side's (``NS 420 EW -420``), which must be its negation."""


class PbnError(ValueError):
    pass


def _value(v: str | None) -> str | None:
    if v is None:
        return None
    v = v.strip()
    return None if v in ("", "?") else v


START_TAGS = ("Time", "UTCDate", "UTCTime")
"""The game's start beyond its day (PBN 2.1 4.5; :func:`started_at`)."""
LABEL_TAGS = {"League": "league", "Stake": "stake"}
"""User tags (4.9) of a game's fields that PBN has no tag for, by the field each gives."""
PAIR_TAGS = {"PairNS": "ns_pair", "PairEW": "ew_pair"}
"""The traveller's pair numbers (4.3), by the deal field each gives."""
TRAVELLER_TAGS = (*PAIR_TAGS, "Lead", "Claim")
"""What a traveller or a claim adds to a deal (:func:`_traveller`)."""
DEAL_NO_TAG = "DealNo"
"""The user tag (4.9) of a deal's number in its game, which ``pbn_write`` writes beside
``GameId`` (:func:`deal_number`)."""

KNOWN = {t.lower(): t for t in (*INHERITED, *BOARD_TAGS, *SEAT_TAGS, "Declarer", "Contract",
                                "Result", "Auction", "Play", "Score", "Room", "Table", "Match",
                                "Honours", "GameId", DEAL_NO_TAG, "Rules", *START_TAGS, *LABEL_TAGS,
                                *TRAVELLER_TAGS)}
"""Tag names the reader uses, by lower case: the import format is lenient about their case."""


def resolve_tags(game: PbnGame, previous: dict[str, str]) -> dict[str, str]:
    """Tag values after ``#`` inheritance and carry-over of the board's identity tags."""
    tags: dict[str, str] = {}
    for name, v in game.tags:
        k = KNOWN.get(name.lower(), name)
        tags[k] = previous.get(k, "") if v.strip() == "#" else v
    for k in INHERITED:
        if k not in tags and k in previous:
            tags[k] = previous[k]
    if tags.get("Board", previous.get("Board")) == previous.get("Board") and not rubber(tags):
        for k in BOARD_TAGS:
            if k not in tags and k in previous:
                tags[k] = previous[k]
    return tags


class TeamSeats:
    """The teams of a deal's N-S and E-W pairs (``ns_team``, ``ew_team``), from the game's
    ``HomeTeam`` and ``VisitTeam`` (PBN 2.1 4.4; ``?`` for one not named). A ``Room`` tag
    ``Open`` or ``Closed`` says it: the home team sits N-S in the open room and E-W in the
    closed one (``example1.pbn``, the slovesnov championship files). Without it the file's
    first table of a board of the match seats the home team N-S, and its other table seats the
    two teams the other way round, whichever team that table's tags call home: RealBridge's
    ``example2.pbn`` names each table's N-S team home (``HomeTeam`` and ``VisitTeam`` swapped
    between its two ``Table`` numbers), endplay's ``example3.pbn`` names the same home team at
    both tables of a board and no room."""

    def __init__(self) -> None:
        self.first: dict[tuple[Any, ...], tuple[tuple[str, str], tuple[str | None, ...]]] = {}
        """(event, match, board) -> the teams (N-S, E-W) and N-S players of its first table."""

    def seat(self, tags: dict[str, str], deal: dict[str, Any]) -> None:
        home, visit = _value(tags.get("HomeTeam")), _value(tags.get("VisitTeam"))
        if not (home or visit):
            return
        teams = home or "?", visit or "?"
        room = (_value(tags.get("Room")) or "").casefold().split()[:1]
        ns = tuple(_value(tags.get(seat)) for seat in ("North", "South"))
        if room == ["closed"]:
            teams = teams[1], teams[0]
        elif room != ["open"] and deal.get("board") is not None:
            key = tags.get("Event"), deal.get("match"), deal.get("board")
            first = self.first.setdefault(key, (teams, ns))
            if first[1] != ns and set(first[0]) == set(teams):  # the board's other table
                teams = first[0][1], first[0][0]
        deal["ns_team"], deal["ew_team"] = teams


class SeatCarry:
    """The players a game omits, carried over from the table they sat at (the import format
    leaves out a tag whose value is the previous game's, ../shared/data/README.md, endplay's
    ``example3.pbn``: a segment names its players on its first board, the open room's and then
    the closed room's, and no board after it does).

    The previous game is the board's other table, so the seats are not taken from it: each seat
    tag a game omits takes the value of the same table of the event's board before it (the
    event: the :data:`INHERITED` tags and ``Match``). A table is the ``Room`` (or ``Table``)
    where the game gives one, else the board's k-th game in the file (the k-th table of the
    board takes the names of the k-th table of the board before); a rubber deal, and a deal
    without a board, sits at the table of the deal before it. A seat tag the game gives, ``?``
    too, is its own; a table nobody named before leaves the seat unknown
    (``bridge_records.seat_players``)."""

    def __init__(self) -> None:
        self.seated: dict[tuple[str | None, ...], dict[Hashable, tuple[str | None, ...]]] = {}
        """Event -> table -> the seat tags of the last game at it (N, E, S, W)."""
        self.tables: dict[tuple[tuple[str | None, ...], str | None], int] = {}
        """(event, board) -> the games of the board read so far."""

    def carry(self, game: PbnGame, tags: dict[str, str]) -> dict[str, str]:
        """``tags`` with the seat tags the game omits taken from its table (a header game, with
        no deal, sits at no table)."""
        if not any(k in tags for k in DEAL_TAGS):
            return tags
        own = {KNOWN.get(name.lower(), name) for name, _ in game.tags}
        event = tuple(tags.get(k) for k in (*INHERITED, "Match"))
        table = self._table(tags, event)
        seated = self.seated.setdefault(event, {})
        before = seated.get(table)
        if before is not None and not own.issuperset(SEAT_TAGS):
            tags = {**tags, **{seat: name for seat, name in zip(SEAT_TAGS, before, strict=True)
                               if seat not in own and name is not None}}
        seated[table] = tuple(tags.get(seat) for seat in SEAT_TAGS)
        return tags

    def _table(self, tags: dict[str, str], event: tuple[str | None, ...]) -> Hashable:
        room = _value(tags.get("Room")) or _value(tags.get("Table"))
        if room is not None:
            return "room", room
        board = _value(tags.get("Board"))
        if board is None or rubber(tags):
            return "table"
        k = self.tables.get((event, board), 0) + 1
        self.tables[(event, board)] = k
        return "k", k


def house_rules(tags: dict[str, str]) -> dict[str, Any] | None:
    """A game's rules (bridge.md 9-10): what a ``Scoring`` tag naming rubber bridge says
    (:func:`rubber`), with a ``Rules`` user tag's JSON object of the rules beyond it
    (``pbn_write.rules_tags``) over it; raises ``PbnError`` for a ``Rules`` tag that is no JSON
    object (the model judges its rules)."""
    scored = rubber(tags)
    text = _value(tags.get("Rules"))
    if text is None:
        return scored
    try:
        given = json.loads(text)
    except ValueError:
        given = None
    if not isinstance(given, dict):
        raise PbnError(f"the Rules tag is not a JSON object of house rules: {text[:60]!r}")
    return {**(scored or {}), **given}


def rubber(tags: dict[str, str]) -> dict[str, str] | None:
    """The rules of a rubber game when the ``Scoring`` tag names rubber bridge
    (:data:`RUBBER_SCORING`), else ``None``: a duplicate board. A rubber deal has no board, so
    it takes no board's tags from the game before it."""
    return RUBBER_SCORING.get((_value(tags.get("Scoring")) or "").lower())


_PASSED_OUT = frozenset({"PASS", "P", "AP"})
"""``Contract`` values that say the deal was passed out (:func:`parse_contract_tag`)."""


def parse_contract_tag(text: str) -> str | None:
    """``4Sx`` / ``5DR`` / ``3NXX`` / ``Pass`` -> ``4SX`` / ``5DXX`` / ``3NTXX`` / ``None``."""
    t = text.strip().upper()
    if t in _PASSED_OUT:
        return None
    t = t.replace("R", "XX")
    return str(parse_contract(t))


def _score_ns(text: str) -> int:
    m = _SCORE.fullmatch(text.strip())
    if m is None:
        raise PbnError(f"Score {text!r} is not 'NS n' / 'EW n'")
    n = ascii_int(m.group(2), "Score", signed=True)
    ns = -n if m.group(1) == "EW" else n
    if m.group(3) is not None:
        other = ascii_int(m.group(4), "Score", signed=True)
        if m.group(3) == (m.group(1) or "NS") or other != -n:
            raise PbnError(f"Score {text!r} gives the two sides' scores unlike (one is the "
                           "other's negation)")
    return ns


def _honours(text: str, players: list[str]) -> dict[str, int]:
    """The ``Honours`` user tag (``ingest.pbn_write.honours_tag``: ``S 100``, a comma between
    two holders) as the deal's honours by player (bridge.md 4.6); the record checks the
    points."""
    held: dict[str, int] = {}
    for part in text.split(","):
        seat_text, _, points = part.strip().partition(" ")
        held[players[parse_seat(seat_text)]] = ascii_int(points, "Honours points")
    return held


def _notes(game: PbnGame) -> dict[str, str]:
    out = {}
    for n in game.notes:
        k, _, text = n.partition(":")
        out[k.strip()] = text.strip()
    return out


SKIP = "skip"
"""A section token that is no call or card: a note, annotation or irregularity."""
_ANNOTATION = frozenset("!?")


def _skipped(tok: str) -> bool:
    return tok.startswith(("$", "^")) or set(tok) <= _ANNOTATION


def _marks(tok: str) -> bool:
    """A section token that marks the calls or cards (a note reference, an annotation, an
    irregularity) rather than being one."""
    return bool(_NOTE_REF.match(tok)) or _skipped(tok)


@lru_cache(maxsize=4096)
def _call_token(tok: str) -> str | tuple[str, ...]:
    """An ``Auction`` token: its calls (``AP`` is three passes), a note reference
    (``"=n="``), or ``SKIP``; once per spelling met."""
    if _NOTE_REF.match(tok):
        return tok
    if tok in ("*", "-", "+") or _skipped(tok):
        return SKIP
    if tok.upper() == "AP":
        return ("pass",) * 3
    return (call_of(tok.rstrip("!?")),)


def _auction(tokens: list[str], notes: dict[str, str]) -> tuple[list[str], dict[int, str]]:
    calls: list[str] = []
    alerts: dict[int, str] = {}
    for tok in tokens:
        read = _call_token(tok)
        if isinstance(read, tuple):
            calls += read
        elif read != SKIP and calls:
            ref = read[1:-1]
            alerts[len(calls) - 1] = notes.get(ref, f"note {ref}")
    return calls, alerts


@lru_cache(maxsize=4096)
def _play_token(tok: str) -> int | str | None:
    """A ``Play`` token: its card, ``None`` for a missing one (``-``), or ``SKIP``; once per
    spelling met."""
    if _marks(tok):
        return SKIP
    return None if tok in ("-", "+") else suit_rank_card(tok.rstrip("!?"))


def _play_rows(tokens: list[str]) -> list[list[int | None]]:
    rows: list[list[int | None]] = []
    row: list[int | None] = []
    for tok in tokens:
        if tok == "*":
            break
        card = _play_token(tok)
        if card == SKIP:
            continue
        row.append(card)  # type: ignore[arg-type]
        if len(row) == 4:
            rows.append(row)
            row = []
    if row:
        rows.append(row + [None] * (4 - len(row)))
    return rows


def _sections(game: PbnGame) -> dict[str, list[str]]:
    """The game's section tokens by tag name, spelled as :data:`KNOWN` spells it."""
    return {KNOWN.get(k.lower(), k): v for k, v in game.sections.items()}


def convert(game: PbnGame, tags: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(game key fields, deal fields) of one PBN game, raising ``PbnError`` with the reason."""
    sections = _sections(game)
    for name, tokens in sections.items():
        if tokens and name not in ("Auction", "Play") and not name.endswith("Table"):
            raise PbnError(f"text after the {name} tag, where PBN has no section: "
                           f"{' '.join(tokens)[:60]!r}")
    players = table_players(tags)
    board, dealer = _board_and_dealer(tags)
    deal: dict[str, Any] = {"dealer": players[dealer]}
    if board is not None:
        deal["board"] = board
    vul = _value(tags.get("Vulnerable"))
    if vul is not None:
        deal["vulnerable"] = parse_vulnerable(vul)
    _hands(tags, players, deal)
    if sections.get("Auction") is not None and "Auction" in tags:
        _auction_section(tags["Auction"], sections["Auction"], _notes(game), dealer, players,
                         deal)
    _result(tags, sections, players, deal)
    honours = _value(tags.get("Honours"))
    if honours is not None:
        deal["honours"] = _honours(honours, players)
    score = _value(tags.get("Score"))
    if score is not None:
        deal["score_ns"] = _score_ns(score)
    _traveller(tags, deal)
    event = _table(tags, deal)
    labels = {field: v for tag, field in LABEL_TAGS.items() if (v := _value(tags.get(tag)))}
    return {"players": players, "event": event, "started_at": started_at(tags),
            "rules": house_rules(tags), **labels}, deal


def _traveller(tags: dict[str, str], deal: dict[str, Any]) -> None:
    """The pairs' numbers (``PairNS``, ``PairEW``, PBN 2.1 4.3), the opening lead (a ``Lead``
    user tag, 4.9, a card as the Play section writes it, 3.6: ``HA``) and the declarer's trick
    total agreed at a claim (a ``Claim`` user tag), as ``pbn_write.table_tags`` writes them."""
    for tag, field in PAIR_TAGS.items():
        pair = _value(tags.get(tag))
        if pair is not None:
            deal[field] = pair
    lead = _value(tags.get("Lead"))
    if lead is not None:
        deal["lead"] = card_name(suit_rank_card(lead))
    claim = _value(tags.get("Claim"))
    if claim is not None:
        deal["claim"] = ascii_int(claim, "Claim")


def _board_and_dealer(tags: dict[str, str]) -> tuple[int | None, int]:
    """The board number (``None`` when the tag is absent, empty or ``?``; ``ValueError`` for
    one that is not a number from 1) and the dealer: the ``Dealer`` tag, else the board's
    (bridge.md 6)."""
    board_text = _value(tags.get("Board"))  # "" or "?": not known; "1.5", "-1", "0": wrong
    board = None if board_text is None else ascii_int(board_text, "Board")
    if board == 0:
        raise PbnError("Board '0' is not a board number (boards are numbered from 1)")
    dealer_text = _value(tags.get("Dealer"))
    if dealer_text is not None:
        return board, parse_seat(dealer_text)
    if board is not None:
        return board, board_dealer(board)
    raise PbnError("no Dealer tag and no Board number to take the dealer from")


def _hands(tags: dict[str, str], players: list[str], deal: dict[str, Any]) -> None:
    """``Deal "N:..."``: the four hands by player, when all four are known (one ``-``
    inferred)."""
    deal_text = _value(tags.get("Deal"))
    if deal_text is None:
        return
    first, _, rest = deal_text.partition(":")
    parts = rest.split()
    if len(parts) != 4:
        raise PbnError(f"Deal {deal_text!r} does not have four hands")
    start = parse_seat(first)
    hands: list[int | None] = [None] * 4
    for i, h in enumerate(parts):
        hands[(start + i) % 4] = None if h == "-" else parse_hand(h, dotted=True)
    full = complete_hands(hands)
    if all(h is not None for h in full):
        deal["hands"] = {players[s]: hand_names(h or 0) for s, h in enumerate(full)}


def _auction_section(first: str, tokens: list[str], notes: dict[str, str], dealer: int,
                     players: list[str], deal: dict[str, Any]) -> None:
    """The ``Auction`` section from its first caller (the dealer), with its notes' alerts."""
    first_caller = parse_seat(first)
    if first_caller != dealer:
        raise PbnError(f"Auction starts with {SEATS[first_caller]}, the dealer is "
                       f"{SEATS[dealer]}")
    calls, alerts = _auction(tokens, notes)
    deal["auction"] = [{"player": players[(dealer + i) % 4], "call": c}
                       for i, c in enumerate(calls)]
    if alerts:
        deal["alerts"] = alerts


def _result(tags: dict[str, str], sections: dict[str, list[str]], players: list[str],
            deal: dict[str, Any]) -> None:
    """Contract, declarer, tricks (``Result``; a leading ``^`` marks it irregular) and the play
    in played order."""
    contract_text = _value(tags.get("Contract"))
    contract = parse_contract_tag(contract_text) if contract_text else None
    if contract is None:
        if contract_text is None and _value(tags.get("Result")) is not None and not tags.get(
                "Contract", "").strip():
            raise PbnError("a Result without a Contract")
        return
    declarer_text = _value(tags.get("Declarer"))
    if declarer_text is None:
        raise PbnError(f"Contract {contract_text!r} without a Declarer")
    deal["contract"] = contract
    declarer = parse_seat(declarer_text.lstrip("^"))
    deal["declarer"] = players[declarer]
    result = _value(tags.get("Result"))
    if result is not None:
        r = result.lstrip("^")
        if r != result:
            deal["irregular"] = True
        if not is_ascii_int(r):
            raise PbnError(f"Result {result!r} is not a number of tricks")
        deal["tricks"] = int(r)
    section, leader = sections.get("Play"), _value(tags.get("Play"))
    rows = _play_rows(section or [])
    if section and (leader is not None or any(c is not None for row in rows for c in row)):
        order, _ = play_from_columns(  # a Play of "?" with cards: led from declarer's left
            rows, left_of(declarer) if leader is None else parse_seat(leader), contract)
        deal["play"] = played(order, players)


_PLAY_TAG = re.compile(r'\[\s*play\s+"', re.IGNORECASE)


def play_not_read(game: PbnGame, tags: dict[str, str], deal: dict[str, Any], source: str,
                  key: str) -> Issue | None:
    """The issue of a ``Play`` section whose cards are not read because the deal has no
    contract (PBN 2.1 3.6: the play of a contract; a deal without a Contract, or with
    ``Pass``, is read as passed out, and nobody plays a passed-out deal), at the section's
    line; ``None`` when the deal has a contract or the section holds no card, or when its
    auction ends in a contract (the deal is then quarantined for that, Play and all:
    ``contract-not-allowed``)."""
    if "contract" in deal or auction_of(0, tuple(
            a["call"] for a in deal.get("auction", ()))).contract is not None:
        return None
    tokens = _sections(game).get("Play") or []
    cards = sum(1 for tok in tokens if tok not in ("*", "-", "+") and not _marks(tok))
    if not cards:
        return None
    text = tags.get("Contract")
    if text is None:
        why = "the deal has no Contract tag, so it is read as passed out and nobody played"
    elif text.strip().upper() in _PASSED_OUT:
        why = f"the deal was passed out (Contract {text!r}), so nobody played"
    else:
        why = (f"the deal has no contract (Contract {text!r}), so it is read as passed out "
               "and nobody played")
    at = next((no for (name, _), no in zip(game.tags, game.tag_lines, strict=True)
               if name.lower() == "play"), game.line)
    lines = game.lines
    start = next((i for i, line in enumerate(lines) if _PLAY_TAG.search(line)), 0)
    return Issue(source, at, key, Code.PARSE,
                 f"{key}: the Play section's {counted(cards, 'card')} "
                 f"{'is' if cards == 1 else 'are'} not read: {why}", "\n".join(lines[start:]),
                 of_file=True)  # beside its deal, which is read


def repeated_tag(game: PbnGame, key: str) -> str | None:
    """Why a game is not read when it gives a tag the reader reads (:data:`KNOWN`, in any case)
    twice with different values, naming the tag, both values and their lines; ``None`` when
    it does not (the same value twice is harmless). PBN 2.1 3.4: a game gives each tag once
    (a later pair of a tag that already occurred is ignored; ``Note`` is the tag that
    repeats, and is kept apart). The reader kept the last value without a word; which of the
    two is meant is not known, so the game is quarantined, as a JSON record naming a key twice
    is (``ingest.jsonl.RepeatedKey``)."""
    seen: dict[str, tuple[str, int]] = {}
    for (name, value), line in zip(game.tags, game.tag_lines, strict=True):
        known = KNOWN.get(name.lower())
        if known is None:
            continue
        first = seen.setdefault(known, (value, line))
        if first[0].strip() != value.strip():
            twice = given_twice(f"{known!r} is", "in one game", first, (value, line))
            return (f"{key}: {twice}: a game gives each tag once (PBN 2.1 3.4), so which is "
                    "meant is not known")
    return None


def _table(tags: dict[str, str], deal: dict[str, Any]) -> str | None:
    """The deal's match (``Match``, else the teams and stage, :func:`teams_match`) and room;
    returns the event (Event / Section / Stage Round)."""
    stage = " ".join(x for x in (_value(tags.get("Stage")), _value(tags.get("Round"))) if x)
    if _value(tags.get("Match")):
        deal["match"] = tags["Match"]
    else:
        match = teams_match(_value(tags.get("HomeTeam")), _value(tags.get("VisitTeam")), stage)
        if match is not None:
            deal["match"] = match
    room = _value(tags.get("Room")) or _value(tags.get("Table"))
    if room:
        deal["room"] = room
    return " / ".join(
        x for x in (_value(tags.get("Event")), _value(tags.get("Section")), stage or None) if x
    ) or None


def teams_match(home: str | None, visit: str | None, stage: str) -> str | None:
    """The match of a deal whose file names its teams (``HomeTeam``, ``VisitTeam``, PBN 2.1
    4.4) without a ``Match`` tag: the two teams in alphabetical order (``?`` for one not
    named), then the stage and round. A file may name the home team the one at N-S in each
    room, so the closed room gives the teams the other way round (endplay's ``example2.pbn``,
    RealBridge): the match is the same pair of teams either way, and its two rooms are compared
    in IMPs (Law 78B [bk], ``scoring/bridge/event.py``). ``None`` without teams: a pairs
    event has no match."""
    if not (home or visit):
        return None
    first, second = sorted((home or "?", visit or "?"), key=lambda t: (t.casefold(), t))
    return " ".join(x for x in (f"{first} v {second}", stage) if x)


def _date(value: str | None) -> date | None:
    """A PBN date (``Date`` 3.4.3, ``UTCDate`` 4.5: ``YYYY.MM.DD``, unknown parts ``?``);
    ``None`` unless the whole date is known and valid."""
    m = re.fullmatch(r"(\d{4})\.(\d{2})\.(\d{2})", (_value(value) or "").strip())
    if not m:
        return None
    try:
        return date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def _clock(value: str | None) -> time | None:
    """A PBN time of day (``Time``, ``UTCTime``, 4.5: ``HH:MM:SS``); ``None`` unless it is
    known and valid."""
    m = re.fullmatch(r"([01]\d|2[0-3]):([0-5]\d):([0-5]\d)", (_value(value) or "").strip())
    return None if m is None else time(int(m[1]), int(m[2]), int(m[3]))


def started_at(tags: dict[str, str]) -> str | None:
    """The game's start (ISO 8601) from ``Date`` (3.4.3) and ``Time``, ``UTCDate``,
    ``UTCTime`` (4.5): the local ``Date`` and ``Time`` with their offset from UTC where the
    ``UTCDate`` and ``UTCTime`` of the same moment are given too (:func:`_offset`); the local
    time without an offset where they are not; the moment in UTC where only they are given in
    full; and a ``Date`` alone is the day's start in UTC (midnight), as before."""
    day, clock = _date(tags.get("Date")), _clock(tags.get("Time"))
    utc_day, utc_clock = _date(tags.get("UTCDate")), _clock(tags.get("UTCTime"))
    utc = None if utc_day is None or utc_clock is None else datetime.combine(utc_day, utc_clock)
    if day is not None and clock is not None:
        local = datetime.combine(day, clock)
        return local.replace(tzinfo=None if utc is None else _offset(local - utc)).isoformat()
    if utc is not None:
        return f"{utc.isoformat()}Z"
    return None if day is None else f"{day.isoformat()}T00:00:00Z"


def _offset(local_minus_utc: timedelta) -> timezone | None:
    """The local time's offset from UTC: whole minutes, less than a day (ISO 8601 and the
    record's ``started_at``); else the UTC tags are not the same moment, and ``None``."""
    if abs(local_minus_utc) >= timedelta(days=1) or local_minus_utc % timedelta(minutes=1):
        return None
    return timezone(local_minus_utc)


def game_key(tags: dict[str, str], players: list[str]) -> tuple[Any, ...]:
    """What makes a deal's game (``GameGroups``): its event, date, match, room and players, for
    rubber bridge its rules, a ``Rules`` user tag, and a ``GameId`` user tag where there is one
    (``pbn_write`` writes the stored game's id: two games without an event and with the seats'
    placeholders for players would be one game otherwise)."""
    table: dict[str, Any] = {}
    event = _table(tags, table)
    rules = rubber(tags)
    named, house = _value(tags.get("GameId")), _value(tags.get("Rules"))
    return (event, _value(tags.get("Date")), table.get("match"), table.get("room"),
            tuple(players), *([] if rules is None else ["rubber", str(rules)]),
            *([] if house is None else ["rules", house]),
            *([] if named is None else ["game", named]))


def table_players(tags: dict[str, str]) -> list[str]:
    """The game's players by seat (``seat_players``): a seat tag that is ``?``, empty or absent
    (none to carry over, :class:`SeatCarry`) is a player unnamed at this game's table (its
    event, date, match, room and rules, :func:`game_key`, and the seats it does name)."""
    return seat_players([_value(tags.get(t)) for t in SEAT_TAGS], lambda: game_key(tags, []))


_GAME_ID = TypeAdapter(GameId)


def named_game(tags: dict[str, str]) -> str | None:
    """The game id of a ``GameId`` user tag (``pbn_write`` writes the stored game's), when it
    is one (records.md 1.1); else the reader names the game by a hash (``GameGroups``), as a
    file without the tag."""
    named = _value(tags.get("GameId"))
    try:
        return None if named is None else _GAME_ID.validate_python(named)
    except ValidationError:
        return None


def deal_number(tags: dict[str, str]) -> int | None:
    """The number of a ``DealNo`` user tag (PBN 2.1 4.9: ``pbn_write`` writes the stored deal's
    ``deal_no``), when it is a whole number from 1; ``GameGroups.place`` says where it is the
    deal's number. Else ``None``: the deal is numbered as in a file without the tag."""
    text = _value(tags.get(DEAL_NO_TAG))
    return int(text) if text is not None and is_ascii_int(text) and int(text) >= 1 else None


def _keep_place(groups: GameGroups, tags: dict[str, str]) -> None:
    """A deal that cannot be read keeps its number in its game, so the deals after it keep
    theirs (a rubber's vulnerability follows the deal number, bridge.md 10; a corrected file
    numbers them the same). Nothing is kept for a game that holds no deal (a header game), or
    where its players or board cannot be read."""
    if not any(k in tags for k in DEAL_TAGS):
        return
    try:
        players = table_players(tags)
        board_text = _value(tags.get("Board"))
        board = None if board_text is None else ascii_int(board_text, "Board") or None
    except ValueError:
        return
    _placed(groups, tags, players, board)


def _placed(groups: GameGroups, tags: dict[str, str], players: list[str],
            board: int | None, cards: Hashable = None) -> tuple[str, int, bool]:
    """``GameGroups.place`` of a deal with these tags and players: its game's key and
    ``GameId``, its board where the table is known (``table_known``), its ``cards``, and its
    ``DealNo`` (:func:`deal_number`)."""
    return groups.place(game_key(tags, players), board if table_known(players) else None,
                        named_game(tags), cards, deal_number(tags))


def _cards(deal: dict[str, Any]) -> Hashable:
    """A rubber deal's four hands, by seat, when it has them (``GameGroups.place``; a
    duplicate board's hands are played at every table of the board)."""
    hands = deal.get("hands")
    return None if hands is None else tuple(tuple(h) for h in hands.values())


class PbnReader(NamedOrRecognised):
    """Reads ``*.pbn``: every game is one table record of a ``bridge-duplicate`` game, or a
    deal of a ``bridge-rubber`` game where the ``Scoring`` tag says Rubber or Chicago."""

    name = "pbn"
    extensions = (".pbn",)

    def looks_like(self, head: bytes) -> bool:
        """A file that opens with ``% PBN`` or an ``Event``, ``Board`` or ``Deal`` tag."""
        text = head.lstrip()
        return text.startswith(b"% PBN") or bool(re.match(rb'\[(Event|Board|Deal) "', text))

    def read(self, path: Path) -> Iterator[Raw | Issue]:
        """The file's records, read a piece at a time (``text.decoded_pieces``): the game being
        read is held, not the file."""
        with path.open("rb") as fh:
            yield from self.read_text(text_codec.decoded_pieces(fh), str(path))

    def read_text(self, text: str | Iterable[str], source: str,
                  stem: str = "pbn") -> Iterator[Raw | Issue]:
        """The records of a PBN text, or of its pieces (:func:`pbn_syntax.split_games`)."""
        groups = GameGroups(stem)
        announced: set[str] = set()
        previous: dict[str, str] = {}
        seats, teams = SeatCarry(), TeamSeats()
        always: set[str] | None = None  # the tags read that every deal's game so far gives
        dealt = 0  # games with a deal so far
        for game in split_games(text):
            if not game.tags:  # text before a game's first tag, or a tag cut off: no board
                yield Issue(source, game.line, None, Code.PARSE,
                            _unread(game, {}) or _first_errors(game.errors), game.text,
                            of_file=True)
                continue
            tags = seats.carry(game, resolve_tags(game, previous))
            previous = tags
            key = f"board {tags.get('Board', '?')}"
            unread = _unread(game, tags, always if dealt >= TAGS_SHOWN_BY else None)
            if any(k in tags for k in DEAL_TAGS):
                dealt += 1
                given = _read_tags(game) | (set(UNPLAYED_SPARE) if _unplayed(game, tags)
                                            else set())
                always = given if always is None else always & given
            if unread is not None:
                yield Issue(source, game.line, key, Code.PARSE, unread, game.text)
                _keep_place(groups, tags)
                continue
            twice = repeated_tag(game, key)
            if twice is not None:
                yield Issue(source, game.line, key, Code.PARSE, twice, game.text)
                _keep_place(groups, tags)
                continue
            if not any(k in tags for k in DEAL_TAGS):
                if "Board" in tags:  # else a header game (Event and such only)
                    yield Issue(source, game.line, key, Code.PARSE, f"{key}: no Deal, "
                                "Contract, Auction or Result: nothing to record", game.text)
                continue
            try:
                head, deal = convert(game, tags)
            except (PbnError, SeatError, ContractError, HandError, ValueError) as exc:
                yield Issue(source, game.line, key, Code.PARSE, str(exc), game.text)
                _keep_place(groups, tags)
                continue
            teams.seat(tags, deal)
            repairs = repair_auction(deal, head["players"]) + repair_play(deal, head["players"])
            rules = rubber(tags)
            gid, no, _ = _placed(groups, tags, head["players"], deal.get("board"),
                                 None if rules is None else _cards(deal))
            if gid not in announced:
                announced.add(gid)
                yield Raw(source, game.line, game_record(
                    gid, head["players"], head["event"],
                    DUPLICATE.name if rules is None else RUBBER.name,
                    started_at=head["started_at"], rules=head["rules"])
                    | {f: head[f] for f in LABEL_TAGS.values() if f in head}, game.text)
            yield Raw(source, game.line,
                      {"record": "deal", "game_id": gid, "deal_no": no, **deal}, game.text,
                      tuple(repairs))
            unplayed = play_not_read(game, tags, deal, source, key)
            if unplayed is not None:
                yield unplayed


READER = PbnReader()


SHOWN_ERRORS = 5
"""Syntax errors of one game named in its issue; the rest are counted (binary junk read as text
has one per token)."""


def _first_errors(errors: list[str]) -> str:
    """The first ``SHOWN_ERRORS`` of a game's syntax errors, and how many more there are."""
    more = len(errors) - SHOWN_ERRORS
    return "; ".join(errors[:SHOWN_ERRORS]) + (f"; and {more} more" if more > 0 else "")


def _read_tags(game: PbnGame) -> set[str]:
    """The tags of ``game`` the reader reads (:data:`KNOWN`, and ``Note``: an alert's text)."""
    return {KNOWN.get(name.lower(), "Note") for name, _ in game.tags
            if name.lower() in KNOWN or name.lower() == "note"}


def _unread(game: PbnGame, tags: dict[str, str], always: set[str] | None = None) -> str | None:
    """Why a game is not read: the file ends inside it, cut short (:func:`cut_short`; ``always``
    the tags read that every game before it with a deal gives), or its syntax errors; ``None``
    when neither."""
    cut = cut_short(game, tags, always or set()) if game.ends_file else None
    if cut is not None:
        return f"the file ends inside this game: {cut}"
    return _first_errors(game.errors) if game.errors else None


def cut_short(game: PbnGame, tags: dict[str, str], always: set[str]) -> str | None:
    """How a game the file ends inside shows that the rest of it is missing, or ``None``: its
    last line stops inside a tag; its deal is only the board's before it (carried over: it
    states none of Deal, Contract, Auction, Result); it names a Declarer but no Contract; its
    last section ends, where the file does, in a token that is no call or card
    (:func:`_token_cut`); its auction is not ended, or its play stops before the last trick,
    without ``*`` (left unfinished, 3.5 and 3.6) or a ``-`` for a card not played (a claim);
    it lacks a tag read
    that every game before it gives (``always``; the file cut where a line ends, between two
    of its tags). A game without an auction or play, after fewer than :data:`TAGS_SHOWN_BY`
    games, is whole: what it records is all there was."""
    last = game.lines[-1].strip() if game.lines else ""
    if cut_tag(last):
        return f"its last line {last[:60]!r} stops inside a tag"
    own = {KNOWN.get(name.lower(), name) for name, _ in game.tags}
    if any(k in tags for k in DEAL_TAGS) and not own.intersection(DEAL_TAGS):
        return "it has no Deal, Contract, Auction or Result of its own (its tags stop before)"
    if _value(tags.get("Declarer")) is not None and "Contract" not in own:
        return "it names a Declarer and stops before the Contract"
    sections = _sections(game)
    if (cut := _token_cut(game, sections)) is not None:
        return cut
    try:
        cut = (_auction_cut(sections.get("Auction"), tags.get("Auction"))
               or _play_cut(sections.get("Play"), tags.get("Play")))
    except ValueError:  # a token that is no call or card: the game's issue when it is read
        return None
    if cut is not None:
        return cut
    missing = _missing(_read_tags(game), always, _unplayed(game, tags))
    if not missing:
        return None
    listed = ", ".join(missing[:-1]) + (" or " if len(missing) > 1 else "") + missing[-1]
    return (f"it has no {listed}, which every game before it in the file gives (a whole game "
            "ends with an empty line)")


TAGS_SHOWN_BY = 2
"""Games with a deal before the game a file ends inside that show which tags it should give
(:func:`_missing`): one is no pattern (the other table of a board may record less)."""
UNPLAYED_SPARE = ("Auction", "Declarer", "Result", "Play", "Lead", "Claim")
"""Tags a deal nobody played (:func:`_unplayed`) can do without: its game is no sign that the
games after it should give them, nor does the last game miss them (:func:`_missing`)."""


def _unplayed(game: PbnGame, tags: dict[str, str]) -> bool:
    """A deal nobody played: no contract, passed out, or its auction left unfinished (``*``,
    PBN 3.5)."""
    contract = _value(tags.get("Contract"))
    return (contract is None or contract.upper() in _PASSED_OUT
            or "*" in _sections(game).get("Auction", ()))


def _missing(given: set[str], always: set[str], unplayed: bool) -> list[str]:
    """The tags in ``always`` a game does not give (``given``), but those of its board that it
    may take from the game before it (:data:`BOARD_TAGS`, the other table of a board) and those
    an ``unplayed`` deal does without (:data:`UNPLAYED_SPARE`). A tag of the event
    (:data:`INHERITED`) that every game before it gives is missed too: its value would be the
    game before's (another match's teams)."""
    missing = always - given - set(BOARD_TAGS)
    return sorted(missing - set(UNPLAYED_SPARE) if unplayed else missing)


_SECTION_TOKENS = {"Auction": ("call", _call_token), "Play": ("card", _play_token)}
"""How each section a file can be cut inside reads its tokens (PBN 2.1 3.5, 3.6)."""


def _token_cut(game: PbnGame, sections: dict[str, list[str]]) -> str | None:
    """The game's last section, Auction or Play, whose last token is the file's last text and
    reads as no call or card though the tokens before it read (``Pass`` cut to ``Pa``, ``AP``
    to ``A``, ``SA`` to ``S``): the file is cut inside that token. Elsewhere such a token is
    the game's own issue (``not a call``), read with the game."""
    name = KNOWN.get(game.tags[-1][0].lower(), "") if game.tags else ""
    tokens = sections.get(name) if name in _SECTION_TOKENS else None
    if (not tokens or "*" in tokens or not game.lines  # '*': ended (3.5, 3.6)
            or not game.lines[-1].rstrip().endswith(tokens[-1])):
        return None
    what, read = _SECTION_TOKENS[name]
    try:
        for tok in tokens[:-1]:
            read(tok)
    except ValueError:  # an earlier token is no call or card: the game's issue
        return None
    try:
        read(tokens[-1])
    except ValueError as exc:
        return (f"its {name} ends in {tokens[-1]!r} where the file ends, which is no {what} "
                f"({exc}): the file may be cut short inside it")
    return None


def _auction_cut(tokens: list[str] | None, first: str | None) -> str | None:
    """An ``Auction`` section whose calls do not end the auction, without ``*``."""
    if tokens is None or _value(first) is None or "*" in tokens:
        return None
    calls, _ = _auction(tokens, {})
    if auction_of(0, tuple(calls)).complete:
        return None
    return f"its auction stops after {len(calls)} calls, not ended and not marked '*'"


def _play_cut(tokens: list[str] | None, first: str | None) -> str | None:
    """A ``Play`` section without ``*`` that stops inside a trick (a row of fewer than four
    cards or ``-``), or after fewer than 13 tricks none of which has a card not played."""
    if tokens is None or _value(first) is None or "*" in tokens:
        return None
    cards = [c for c in map(_play_token, tokens) if c != SKIP]
    if len(cards) % 4 == 0 and (None in cards or len(cards) >= 52):
        return None
    return (f"its play stops after {counted(len(cards), 'card')} "
            f"({counted(len(cards) // 4, 'trick')} and {counted(len(cards) % 4, 'card')}), "
            "not marked '*' (play ended early) nor '-' (a claim)")
