"""PPN (Portable Preferans Notation) in and out: the Serbian online club's game record.

Reading (``READER``): the tag section becomes a ``balkan`` game line (rules: the ``serbian-club``
preset with ``Bula`` and ``Refe``, or the preset and flags of our ``Preset`` / ``Rules`` extension
tags when present, ``ingest/ppn_rules.py``), each bracketed deal record a canonical deal
(records.md 1.2) with hands in the order dealt, the auction rebuilt from each player's highest bid,
discard, contract, defence, kontra, every card played and the tricks. Every deal is validated:
replayed through the Balkan rules (``model/balkan/check.py``) and its value, refa flag, first
leader and summary (column entries) are compared with the paper rules (``model/balkan/paper.py``)
run across the game. A deal with any fault becomes one ``Issue`` naming all of them; a score that
disagrees has code ``SCORE_MISMATCH``. Nothing raises on bad input.

Writing: :func:`dumps` (one game) and :func:`export_games` (games stored in DuckDB); rules other
than the club's go into the extension tags, as do ``league``, ``stake`` and the time zone
(docs/ppn.md "Our extension tags"). Reading what we write gives the same records.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ingest import text as text_codec
from ingest.jsonl import quote
from ingest.ppn_auction import highest_bids, rebuild_auction
from ingest.ppn_codec import (
    BID_TOKEN,
    KONTRA_LETTERS,
    Follower,
    PpnError,
    card_name,
    encode_card,
    format_summary_token,
    parse_summary_token,
    split_line,
    tag_line,
)
from ingest.ppn_rules import (
    CLUB_PRESET,
    PpnRulesError,
    preset_refe,
    rules_record,
    rules_tags,
)
from ingest.source import Issue, NamedOrRecognised, Raw, content_id, given_twice, is_ascii_int
from ingest.validate import explain
from model.balkan.check import active_players, check_deal, defenders_of, first_leader, mode_of
from model.balkan.contracts import parse_contract
from model.balkan.frame import deal_row
from model.balkan.paper import BULA_POINT, Sheet, settle_deal
from model.balkan.params import BalkanRules
from model.balkan.records import BalkanDeal, BalkanGame
from model.balkan.variant import VARIANT
from model.cards import parse_card
from model.problems import Code
from model.tricks import card_index, trick_winner

PRESET = CLUB_PRESET
ZONE_TAG = "TimeZone"
"""Our extension: the UTC offset of ``Date`` + ``StartTime`` (``+01:00``; absent = unknown)."""
EXTRA_FIELDS = (("League", "league"), ("Stake", "stake"))
"""Our extension tags for game fields PPN has no tag for (docs/ppn.md)."""
REQUIRED_TAGS = ("Bula", "Refe", "Player1", "Player2", "Player3")
NO_PLAY = "0"
"""Throws field of a deal that was not played."""


@dataclass
class _Game:
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)
    deals: list[tuple[int, str, list[str] | str]] = field(default_factory=list)
    """Each deal record's line, text and fields, or why its line is not one (cut off before
    its ``]``, text after it): a deal of the game all the same (:func:`_read_game`)."""
    first_line: int = 0
    twice: str | None = None
    """Why the tags cannot be read: the first tag given twice with another value."""
    broken: tuple[int, str] | None = None
    """The first tag line without its closing ``]`` (``[Player2 sil``): which tag it gives is
    not known, so the tags cannot be read."""
    cut: bool = False
    """The file ends with :attr:`broken`: the game is cut short."""

    def raw(self) -> str:
        """The game's text as quarantined: its tags, and the tag line that is broken."""
        return "\n".join([*(f"[{k} {v}]" for k, (v, _) in self.tags.items()),
                          *([self.broken[1]] if self.broken else [])])

    def unread(self) -> str | None:
        """Why the tags cannot be read: a tag line broken (or cut off by the file's end), a
        tag given twice; ``None`` when they can."""
        if self.broken is not None:
            line = quote(self.broken[1])
            return (f"the file ends inside this game's tags: its last line {line} stops inside "
                    "a tag (it may be cut short)" if self.cut else
                    f"the tag line {line} at line {self.broken[0]} has no closing ']': which "
                    "tag it gives is not known")
        return self.twice

    def tag(self, name: str, value: str, no: int) -> None:
        """Tag ``name`` of ``value`` at line ``no``; a second value of a tag is :attr:`twice`
        (the same value again is harmless)."""
        first = self.tags.setdefault(name, (value, no))
        if first[0].strip() != value.strip() and self.twice is None:
            self.twice = (f"{given_twice(f'tag {name} is', 'in one game', first, (value, no))}: "
                          "which is meant is not known")


def _blocks(source: str, text: str) -> Iterator[_Game | Issue]:
    """Games (tag block then deal records) and the lines that are neither (text outside any
    record: an issue of its own, docs/ingest.md "Every record exactly once").

    A deal line that cannot be read (cut off before its ``]``, or text after it) is still a
    deal of its game, which then knows one of its deals is missing (:func:`_lost`); a tag line
    without its ``]`` (``[Player2 sil``, the file cut short inside it) is its game's, whose
    tags then cannot be read: one issue for the game, not one for it and one for the line."""
    game = _Game()
    broken_last = False  # the last line read is a tag line without its ']'
    no, line = 0, ""
    for no, line in enumerate(text_codec.lines_of(text), start=1):
        if not line.strip():
            continue
        part = split_line(line)
        broken_last = part is None and bool(_BROKEN_TAG.match(line))
        if isinstance(part, tuple) or broken_last:
            if game.deals:
                yield game
                game = _Game()
            if not game.tags and game.broken is None:
                game.first_line = no
            if isinstance(part, tuple):
                game.tag(part[0], part[1], no)
            elif game.broken is None:
                game.broken = no, line.strip()
        elif isinstance(part, list):
            game.deals.append((no, line.strip(), part))
        elif re.match(r"^\s*\[[0-9]", line):
            closed = line.rstrip().rfind("]")
            what = ("truncated deal record (no closing ']')" if closed < 0 else
                    "a deal record with text after its closing ']' "
                    f"({quote(line.rstrip()[closed + 1:], 40)})")
            game.deals.append((no, line.strip(), f"{what}: {quote(line.strip())}"))
        else:
            yield _neither(source, no, line)
    if broken_last:  # the file ends inside this tag: the game is cut short
        game.broken, game.cut = (no, line.strip()), True
    if game.tags or game.deals or game.broken:
        yield game


def _neither(source: str, no: int, line: str) -> Issue:
    """A line that is no tag pair and no deal record: text outside any record."""
    return Issue(source, no, None, Code.PARSE,
                 f"neither a tag pair nor a deal record: {quote(line.strip())}", line.strip(),
                 of_file=True)


_BROKEN_TAG = re.compile(r"^\s*\[[A-Za-z][^\]]*$")
"""A tag line without its closing ``]`` (``[Player2 sil``): a tag of its game."""


IDENTITY_TAGS = ("Player1", "Player2", "Player3", "Date", "StartTime", "Location")
"""The tags a PPN game without a ``GameId`` tag is identified by (its id is their hash)."""


def ppn_game_id(tag: dict[str, str]) -> str:
    """``ppn/<16 hex digits>``: the game's id from its players, date, start time and place, the
    same under any file name."""
    return "ppn/" + content_id([tag.get(k) for k in IDENTITY_TAGS])


def _game_record(source: str, g: _Game, stem: str) -> dict[str, Any] | Issue:
    raw = g.raw()
    unread = g.unread()
    if unread is not None:
        return Issue(source, g.first_line or 1, None, Code.PARSE, unread, raw)
    missing = [t for t in REQUIRED_TAGS if t not in g.tags]
    if missing:
        return Issue(source, g.first_line or 1, None, Code.SCHEMA,
                     f"PPN game without the required tags {missing!r}", raw)
    tag = {k: v for k, (v, _) in g.tags.items()}
    try:
        rules = rules_record(tag)
    except PpnRulesError as exc:
        return Issue(source, g.tags[exc.tag][1], None, Code.SCHEMA, str(exc), raw)
    for name, key in (("Bula", "start_bula"), ("Refe", "max_refe")):
        value = tag[name]
        if is_ascii_int(value):
            rules[key] = int(value)
        elif not (name == "Refe" and value.lower() in ("infinity", "unlimited", "-")):
            return Issue(source, g.tags[name][1], None, Code.SCHEMA,
                         f"tag {name} must be a count in digits (such as 40), got {value!r}",
                         raw)
        elif preset_refe(rules["preset"]) is not None:  # unlimited against a preset's limit
            rules[key] = None
    record: dict[str, Any] = {
        "record": "game", "variant": VARIANT.name,
        "game_id": tag.get("GameId") or ppn_game_id(tag),
        "players": [tag["Player1"], tag["Player2"], tag["Player3"]], "rules": rules,
    }
    date = re.match(r"^([0-9]{4})\.([0-9]{2})\.([0-9]{2})$", tag.get("Date", ""))
    if date:
        clock = tag.get("StartTime", "00:00:00")
        clock = clock if re.match(r"^[0-9]{2}:[0-9]{2}(:[0-9]{2})?$", clock) else "00:00:00"
        zone = tag.get(ZONE_TAG, "")
        zone = zone if re.match(r"^[+-][0-9]{2}:[0-9]{2}$", zone) else ""
        record["started_at"] = f"{date[1]}-{date[2]}-{date[3]}T{clock}{zone}"
    if "Location" in tag:
        record["event"] = tag["Location"]
    for name, key in EXTRA_FIELDS:
        if tag.get(name):
            record[key] = tag[name]
    return record


class _DealError(Exception):
    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class _Decoded:
    data: dict[str, Any]
    faults: list[tuple[Code, str]]
    summary: list[Follower] | None = None
    order: list[str] = field(default_factory=list)
    value: int | None = None
    starts: str | None = None
    winners: list[str] = field(default_factory=list)


def _player(game: BalkanGame, digit: str, what: str) -> str:
    if digit not in ("1", "2", "3"):
        raise _DealError(Code.UNKNOWN_PLAYER, f"{what} must be a player number 1-3, got "
                                              f"{digit!r}")
    return game.players[int(digit) - 1]


def _decode(game: BalkanGame, fields: list[str]) -> _Decoded:
    """The canonical deal of one record's fields (raises ``_DealError`` on unreadable fields)."""
    if len(fields) < 4:
        raise _DealError(Code.PARSE, f"truncated deal record: {len(fields)} fields, at least "
                                     "4 (id, deal order, cards, bids)")
    no, order, names, tokens = _dealt(game, fields[:4])
    data: dict[str, Any] = {
        "record": "deal", "game_id": game.game_id, "deal_no": no, "dealer": order[2],
        "hands": {p: names[10 * i: 10 * i + 10] for i, p in enumerate(order)},
        "talon": names[30:],
    }
    try:
        auction = rebuild_auction(order, tokens, game.rules)
    except PpnError as exc:
        raise _DealError(Code.AUCTION, str(exc)) from exc
    data["auction"] = [{"player": p, "call": c} for p, c in auction]
    out = _Decoded(data, [], order=order)
    if tokens == ["P", "P", "P"]:
        if len(fields) != 4:
            out.faults.append((Code.PARSE, f"all passed but {len(fields)} fields follow "
                                           "(an all-pass record ends after the bids)"))
        return out
    if len(fields) not in (13, 14):
        raise _DealError(Code.PARSE, f"truncated deal record: {len(fields)} fields, a played "
                                     "deal has 14 (13 without the refa flag)")
    if len(fields) == 13:
        out.faults.append((Code.PARSE, "13 fields: the refa flag (field 10) is missing"))
    _played(game, out, fields[4:])
    return out


def _dealt(game: BalkanGame, fields: list[str]) -> tuple[int, list[str], list[str], list[str]]:
    """Fields 1-4: the deal id, the deal order as players, the 32 card names (10 per player
    in deal order, then the talon) and the three bid tokens."""
    no, order_text, cards, bids = fields
    if not is_ascii_int(no) or int(no) < 1:
        raise _DealError(Code.PARSE, f"deal id must be a positive number, got {no!r}")
    if sorted(order_text) != ["1", "2", "3"]:
        raise _DealError(Code.PARSE, f"deal order must be a permutation of 123, got "
                                     f"{order_text!r}")
    order = [game.players[int(c) - 1] for c in order_text]
    if order != active_players(game, order[2]):
        raise _DealError(Code.PARSE, f"deal order {order_text!r} does not follow the turn "
                                     "order Player1 -> Player2 -> Player3")
    if len(cards) != 32:
        raise _DealError(Code.DECK, f"wrong card count: {len(cards)} card codes, a deal has 32 "
                                    "(10 per player in deal order, then 2 talon)")
    try:
        names = [card_name(ch) for ch in cards]
    except PpnError as exc:
        raise _DealError(Code.DECK, str(exc)) from exc
    tokens = bids.split(",")
    if len(tokens) != 3 or not all(BID_TOKEN.match(t) for t in tokens):
        raise _DealError(Code.AUCTION, f"bids must be three tokens P, 2-8, M2-M8, G, G2-G8; "
                                       f"got {bids!r}")
    return int(no), order, names, tokens


def _played(game: BalkanGame, out: _Decoded, fields: list[str]) -> None:
    """Fields 5-14 of a deal somebody declared: main player, discard, contract, defence and
    kontra, the refa flag (when there are ten fields), value, starting player, throws and the
    trick summary."""
    data, order = out.data, out.order
    main, discard, contract, accepted, kontra = fields[:5]
    rest = fields[5:]
    refa = rest.pop(0) if len(fields) == 10 else None
    value, starts, throws, summary = rest
    d = _player(game, main, "main player")
    data["declarer"] = d
    if not re.match(r"^G?[2-8]$", contract):
        raise _DealError(Code.ILLEGAL_CONTRACT, f"unknown contract code {contract!r} "
                                                "(2..8, G2..G8)")
    data["contract"] = contract
    if discard != "XX":
        if len(discard) != 2:
            raise _DealError(Code.DISCARD, f"discard must be two card codes or XX, got "
                                           f"{discard!r}")
        try:
            data["discard"] = [card_name(ch) for ch in discard]
        except PpnError as exc:
            raise _DealError(Code.DISCARD, str(exc)) from exc
    _defence(game, data, defenders_of(order, d), accepted, kontra)
    if refa is not None:
        if refa not in ("0", "1"):
            raise _DealError(Code.PARSE, f"refa flag must be 0 or 1, got {refa!r}")
        data["refa"] = refa == "1"
    if not is_ascii_int(value):
        raise _DealError(Code.PARSE, f"value must be a whole number, got {value!r}")
    data["value"] = out.value = int(value)
    out.starts = _player(game, starts, "starting player")
    tok = summary.split(",")
    try:
        out.summary = [parse_summary_token(t) for t in tok]
    except PpnError as exc:
        raise _DealError(Code.PARSE, str(exc)) from exc
    if len(out.summary) != 3:
        raise _DealError(Code.PARSE, f"summary must have 3 tokens, got {summary!r}")
    if throws != NO_PLAY:
        _throws(game, data, out, order, throws)


def _defence(game: BalkanGame, data: dict[str, Any], defs: list[str], accepted: str,
             kontra: str) -> None:
    """Fields 8-9: who follows, invitation and kontra (5.1, 5.3)."""
    if not is_ascii_int(accepted):
        raise _DealError(Code.ILLEGAL_DEFENCE, f"accepted must be a digit, got {accepted!r}")
    who = None
    letter = ""
    if kontra != "0":
        if len(kontra) != 2 or kontra[0] not in "IKRSM":
            raise _DealError(Code.ILLEGAL_DEFENCE, f"kontra must be 0 or a letter I K R S M "
                                                   f"and a player, got {kontra!r}")
        letter, who = kontra[0], _player(game, kontra[1], "kontra player")
    acc = int(accepted)
    if acc == 0:
        data["defence"] = dict.fromkeys(defs, "pass")
    elif acc <= 3:
        p = _player(game, accepted, "accepted")
        if p not in defs:
            raise _DealError(Code.ILLEGAL_DEFENCE, f"accepted names {p!r}, who is not a "
                                                   "defender")
        other = defs[1] if p == defs[0] else defs[0]
        choice = "invite" if who == p else "alone"
        data["defence"] = {p: choice, other: "pass"}
    else:
        data["defence"] = dict.fromkeys(defs, "play")
    if who is not None and letter != "I":
        data["kontra"] = {who: KONTRA_LETTERS[letter]}
    if who is not None and (acc == 0 or (acc <= 3 and who != game.players[acc - 1])):
        raise _DealError(Code.ILLEGAL_DEFENCE, f"kontra {kontra!r} by {who!r}, who does not "
                                               "follow")
    if letter == "I" and acc > 3:
        raise _DealError(Code.ILLEGAL_DEFENCE, f"invitation {kontra!r} but both follow")


def _throws(game: BalkanGame, data: dict[str, Any], out: _Decoded, order: list[str],
            throws: str) -> None:
    """Field 13: tricks as cards in play order and the winner digit (who leads next)."""
    deal = data
    d = deal["declarer"]
    defence = deal["defence"]
    alone = "alone" in defence.values()
    in_play = [p for p in order if p == d or not (alone and defence.get(p) == "pass")]
    play: list[list[str]] = []
    leader = out.starts
    for k, t in enumerate(throws.split(","), start=1):
        if len(t) != len(in_play) + 1:
            raise _DealError(Code.ILLEGAL_CARD, f"trick {k} {t!r}: {len(in_play)} cards and a "
                                                "winner digit expected")
        assert leader is not None
        if leader not in in_play:
            raise _DealError(Code.ILLEGAL_CARD, f"trick {k}: {leader!r} leads but takes no "
                                                "part in the play")
        at = in_play.index(leader)
        for j, ch in enumerate(t[:-1]):
            try:
                play.append([in_play[(at + j) % len(in_play)], card_name(ch)])
            except PpnError as exc:
                raise _DealError(Code.ILLEGAL_CARD, f"trick {k}: {exc}") from exc
        leader = _player(game, t[-1], f"trick {k} winner")
        out.winners.append(leader)
    deal["play"] = play
    deal["tricks"] = {p: out.winners.count(p) for p in in_play}


def _expected(game: BalkanGame, deal: BalkanDeal, sheet: Sheet, order: list[str]
              ) -> tuple[list[Follower], int, bool]:
    """Our summary tokens (deal order), value and refa flag of ``deal`` on ``sheet``'s state."""
    rules = game.rules
    seat = {p: i for i, p in enumerate(game.players)}
    row = deal_row(game, deal)
    scratch = copy.deepcopy(sheet)
    d = deal.declarer
    assert d is not None and deal.contract is not None
    refa = sheet.open_refe[seat[d]] > 0
    entries = settle_deal(scratch, row)
    c = parse_contract(deal.contract)
    big = max((2 ** k for k in (deal.kontra or {}).values()), default=1)
    value = rules.value(c.number, c.igra) * (2 if refa else 1) * big
    tricks = deal.tricks or {}
    defence = deal.defence or {}
    tokens = []
    for p in order:
        i = seat[p]
        if p == d:
            tokens.append(Follower("main", tricks.get(p, 10), bula=entries.bula[i]))
        elif defence.get(p) in ("play", "invite", "alone"):
            side = "L" if _left(rules, i) == seat[d] else "R"
            tokens.append(Follower("follower", tricks.get(p, 0), side,
                                   entries.soups[i][seat[d]], entries.bula[i]))
        else:
            tokens.append(Follower("none"))
    return tokens, value, refa


def _left(rules: BalkanRules, i: int) -> int:
    return (i + 1) % 3 if rules.direction == "clockwise" else (i - 1) % 3


def _score_faults(game: BalkanGame, deal: BalkanDeal, dec: _Decoded, sheet: Sheet
                  ) -> list[tuple[Code, str]]:
    """Recorded value, refa, first leader and column entries against our settlement."""
    if deal.declarer is None or dec.summary is None:
        return []
    faults: list[tuple[Code, str]] = []
    tokens, value, refa = _expected(game, deal, sheet, dec.order)
    if dec.value is not None and dec.value != value:
        faults.append((Code.SCORE_MISMATCH, f"value {dec.value} but the contract is worth "
                                            f"{value} here"))
    if deal.refa is not None and deal.refa != refa:
        faults.append((Code.SCORE_MISMATCH, f"refa flag {int(deal.refa)} but the declarer "
                                            f"{'has' if refa else 'has no'} open refa"))
    c = parse_contract(deal.contract or "2")
    if (game.rules.pik_needs_kontra and c.number == 2 and not c.igra and not refa
            and not deal.kontra and deal.tricks is not None):
        faults.append((Code.ILLEGAL_DEFENCE, "plain Pik without refa was played although "
                                             "nobody said kontra (balkan.md 5.3)"))
    if deal.play and dec.starts is not None:
        active = dec.order
        in_play = list(deal.tricks or {})
        lead = first_leader(active, deal.declarer, c.number, in_play, game.rules)
        if lead != dec.starts:
            faults.append((Code.ILLEGAL_CARD, f"player {dec.starts!r} starts, but {lead!r} "
                                              "leads the first trick (balkan.md 6)"))
    for p, got, want in zip(dec.order, dec.summary, tokens, strict=True):
        if got != want and not (got.role == want.role == "main" and got.bula == want.bula
                                and mode_of(deal) in ("pass", "nokontra")):
            faults.append((Code.SCORE_MISMATCH,
                           f"{p}: summary {format_summary_token(got)} but our settlement "
                           f"writes {format_summary_token(want)}"))
    return faults


def read_text(source: str, text: str, stem: str = "game") -> Iterator[Raw | Issue]:
    """Every game and deal of PPN ``text`` as ``Raw`` records or ``Issue``s."""
    for block in _blocks(source, text.removeprefix("\ufeff")):
        if isinstance(block, Issue):
            yield block
            continue
        yield from _read_game(source, block, stem)


def _read_game(source: str, g: _Game, stem: str) -> Iterator[Raw | Issue]:
    if not g.tags and g.broken is None:
        yield from _without_game(source, g, "deal record without a PPN tag section (Bula, "
                                            "Refe, Player1-3) before it")
        return
    record = _game_record(source, g, stem)
    if not isinstance(record, Issue):
        try:
            game = BalkanGame.model_validate(record)
        except ValidationError as exc:
            record = Issue(source, g.first_line, None, Code.SCHEMA, f"PPN game: {explain(exc)}",
                           g.raw())
    if isinstance(record, Issue):
        yield record
        yield from _without_game(source, g, "deal of a PPN game whose tags could not be read")
        return
    raw_game = g.raw()
    yield Raw(source, g.first_line, record, raw_game)
    sheet = Sheet(game.rules, 3)
    lost = False  # a deal of the game quarantined: its end is not known after it (_lost)
    seen_cards: dict[str, int] = {}
    for no, line, fields in g.deals:
        if isinstance(fields, str):  # a deal line that cannot be read: the game lacks it
            yield Issue(source, no, None, Code.PARSE, fields + _lost(lost), line)
            lost = True
            continue
        key = f"{game.game_id}#{fields[0]}"
        try:
            dec = _decode(game, fields)
        except _DealError as exc:
            yield Issue(source, no, key, exc.code, str(exc) + _lost(lost), line)
            lost = True
            continue
        faults = list(dec.faults)
        cards = fields[2]
        if cards in seen_cards:
            faults.append((Code.DECK, f"the cards repeat deal {seen_cards[cards]} exactly"))
        seen_cards.setdefault(cards, dec.data["deal_no"])
        try:
            deal = BalkanDeal.model_validate(dec.data)
        except ValidationError as exc:
            yield Issue(source, no, key, Code.SCHEMA, explain(exc) + _lost(lost), line)
            lost = True
            continue
        faults += [(p.code, p.message) for p in check_deal(game, deal)]
        sheet_only = deal.model_copy(update=dict.fromkeys(
            ("hands", "talon", "auction", "discard", "play")))
        if not check_deal(game, sheet_only):  # the score can be compared only when it exists
            faults += _score_faults(game, deal, dec, sheet)
        if sheet.is_over() and not lost:
            faults.append((Code.GAME_OVER, f"the game ended before this deal (bula sum "
                                           f"{sum(sheet.bula)} <= 0, balkan.md 7.5)"))
        if faults:
            main = next((c for c, _ in faults if c != Code.PARSE), faults[0][0])
            yield Issue(source, no, key, main, f"deal {deal.deal_no}: "
                        + "; ".join(m for _, m in faults) + _lost(lost), line)
            lost = True
            continue
        settle_deal(sheet, deal_row(game, deal))
        yield Raw(source, no, dec.data, line)
    yield from _check_results(source, g, game, sheet, lost)


def _without_game(source: str, g: _Game, why: str) -> Iterator[Issue]:
    """The issues of the deals of a game that is not read: ``why`` (``unknown-game``), or
    what is wrong with a deal line that cannot be read."""
    for no, line, fields in g.deals:
        yield (Issue(source, no, None, Code.PARSE, fields, line) if isinstance(fields, str)
               else Issue(source, no, None, Code.UNKNOWN_GAME, why, line))


def _lost(before: bool) -> str:
    """Said of a game's first deal quarantined (``before``: one was already): the game's end is
    not known after it, so the later deals are not held to it (each was a false "game over")."""
    return "" if before else "; the game's end is not checked after this deal"


def _check_results(source: str, g: _Game, game: BalkanGame, sheet: Sheet,
                   lost: bool = False) -> Iterator[Issue]:
    """Result1..3 against our final scores (not where a deal was ``lost``: our sheet lacks it
    and the source's holds it); Place1..3 against Result1..3 (either sign)."""
    tags = g.tags
    if all(f"Result{i}" in tags for i in (1, 2, 3)):
        values = [tags[f"Result{i}"][0] for i in (1, 2, 3)]
        line = tags["Result1"][1]
        raw = " ".join(f"[Result{i} {v}]" for i, v in enumerate(values, start=1))
        ours = _final(sheet)
        if not all(re.match(r"^-?[0-9]+$", v) for v in values):
            yield Issue(source, line, game.game_id, Code.PARSE,
                        f"Result1..3 must be whole numbers, got {values!r}", raw, of_file=True)
        elif lost:  # after a quarantined deal, the game's end and results are not known
            pass
        elif not sheet.is_over():
            yield Issue(source, line, game.game_id, Code.SCORE_MISMATCH,
                        f"Result1..3 = {', '.join(values)} are final results, but the deals "
                        f"read leave the game unfinished (bula {sheet.bula}, sum "
                        f"{sum(sheet.bula)} > 0; scores so far {ours})", raw, of_file=True)
        elif [int(v) for v in values] != ours:
            yield Issue(source, line, game.game_id, Code.SCORE_MISMATCH,
                        f"Result1..3 = {', '.join(values)} but the deals give {ours}", raw,
                        of_file=True)
        if all(f"Place{i}" in tags for i in (1, 2, 3)):
            places = [tags[f"Place{i}"][0] for i in (1, 2, 3)]
            if all(re.match(r"^-?[0-9]+$", v) for v in values):
                res = [int(v) for v in values]
                best_high = [1 + sum(r > x for r in res) for x in res]
                best_low = [1 + sum(r < x for r in res) for x in res]
                if [int(p) if is_ascii_int(p) else 0 for p in places] not in (best_high, best_low):
                    yield Issue(source, tags["Place1"][1], game.game_id, Code.SCORE_MISMATCH,
                                f"Place1..3 = {', '.join(places)} fit neither ordering of "
                                f"Result1..3 = {', '.join(values)} (higher or lower better)",
                                " ".join(f"[Place{i} {p}]" for i, p in enumerate(places, 1)),
                                of_file=True)


def _final(sheet: Sheet) -> list[int]:
    """Zero-sum final results (7.5) of the sheet's soups and bulas."""


    s = [sheet.soup_balance[i] - BULA_POINT * sheet.bula[i] for i in range(sheet.n)]
    mean = sum(s) / sheet.n
    return [round(x - mean) for x in s]


class PpnReader(NamedOrRecognised):
    """Reads ``*.ppn`` files, or files that open with PPN tag pairs."""

    name = "ppn"
    extensions = (".ppn",)

    def looks_like(self, head: bytes) -> bool:
        """A file whose first tags hold a PPN game's ``Bula``, ``Refe`` or ``Player1``."""
        text = head.decode("utf-8", errors="replace").lstrip()
        return bool(re.match(r"(?:\[[^\]\n]*\]\s*)*\[(?:Bula|Refe|Player1)\s", text))

    def read(self, path: Path) -> Iterator[Raw | Issue]:
        source = str(path)
        try:
            text = text_codec.without_declaration(text_codec.decode(path.read_bytes()))
        except text_codec.EncodingError as exc:
            yield Issue(source, 1, None, Code.PARSE, f"cannot read the file: {exc}", "",
                        of_file=True)
            return
        except OSError as exc:
            yield Issue(source, 1, None, Code.PARSE, f"cannot read: {exc}", "", of_file=True)
            return
        yield from read_text(source, text, path.stem)


READER = PpnReader()


# -- writing --------------------------------------------------------------------------------------


def dumps(game: BalkanGame, deals: Sequence[BalkanDeal]) -> str:
    """One game as PPN text. Every deal needs its cards (hands and talon); raises ``PpnError``
    naming a deal that PPN cannot express."""
    if len(game.players) != 3:
        raise PpnError(f"game {game.game_id!r}: PPN records three players")
    rules = game.rules
    sheet = Sheet(rules, 3)
    lines = []
    for deal in sorted(deals, key=lambda x: x.deal_no):
        lines.append(_deal_line(game, deal, sheet))
        settle_deal(sheet, deal_row(game, deal))
    tags = [("Bula", str(rules.start_bula)),
            ("Refe", "Infinity" if rules.max_refe is None else str(rules.max_refe))]
    tags += [(f"Player{i}", p) for i, p in enumerate(game.players, start=1)]
    if sheet.is_over():  # Result1..3 are final results: only for a finished game (7.5)
        tags += [(f"Result{i}", str(r)) for i, r in enumerate(_final(sheet), start=1)]
    if game.started_at is not None:
        tags.append(("Date", game.started_at.strftime("%Y.%m.%d")))
        tags.append(("StartTime", game.started_at.strftime("%H:%M:%S")))
        zone = game.started_at.strftime("%z")  # +0100, empty for a naive time
        if zone:
            tags.append((ZONE_TAG, f"{zone[:3]}:{zone[3:5]}"))
    if game.event:
        tags.append(("Location", game.event))
    tags += [(name, getattr(game, key)) for name, key in EXTRA_FIELDS if getattr(game, key)]
    tags += rules_tags(rules)
    if game.game_id != ppn_game_id(dict(tags)):
        tags.append(("GameId", game.game_id))
    head = [tag_line(k, v) for k, v in tags]
    return "\n".join(head) + "\n\n" + "\n".join(lines) + ("\n" if lines else "")


def _deal_line(game: BalkanGame, deal: BalkanDeal, sheet: Sheet) -> str:
    if deal.hands is None or deal.talon is None:
        raise PpnError(f"deal {game.game_id}#{deal.deal_no}: PPN needs the cards (hands, talon)")
    order = active_players(game, deal.dealer)
    num = {p: str(i) for i, p in enumerate(game.players, start=1)}
    cards = "".join(encode_card(parse_card(c)) for p in order for c in deal.hands[p])
    cards += "".join(encode_card(parse_card(c)) for c in deal.talon)
    tokens = highest_bids(order, deal, game.rules)
    head = [str(deal.deal_no), "".join(num[p] for p in order), cards, ",".join(tokens)]
    if deal.declarer is None:
        return "[" + " ".join(head) + "]"
    d = deal.declarer
    defence = deal.defence or {}
    following = [p for p in order if defence.get(p) in ("play", "invite", "alone")]
    accepted = "0" if not following else (num[following[0]] if len(following) == 1 else "8")
    kontra = "0"
    for p, k in (deal.kontra or {}).items():
        kontra = "KRSM"[k - 1] + num[p] if k <= 4 else kontra
    if kontra == "0":
        inviter = [p for p, x in defence.items() if x == "invite"]
        kontra = "I" + num[inviter[0]] if inviter else "0"
    tokens_s, value, refa = _expected(game, deal, sheet, order)
    if deal.value is not None:
        value = deal.value
    throws = NO_PLAY
    starts = num[order[0]]
    if deal.play:
        in_play = list(deal.tricks or {})
        c = parse_contract(deal.contract or "2")
        starts = num[first_leader(order, d, c.number, in_play, game.rules)]
        size = len(in_play)
        tricks_out = []
        trump = c.trump

        for k in range(0, len(deal.play), size):
            chunk = deal.play[k: k + size]
            w = chunk[trick_winner([card_index(x) for _, x in chunk], trump)][0]
            tricks_out.append("".join(encode_card(parse_card(x)) for _, x in chunk) + num[w])
        throws = ",".join(tricks_out)
    discard = "".join(encode_card(parse_card(x)) for x in deal.discard) if deal.discard else "XX"
    refa_flag = str(int(deal.refa if deal.refa is not None else refa))
    summary = ",".join(format_summary_token(t) for t in tokens_s)
    fields = [*head, num[d], discard, deal.contract or "", accepted, kontra, refa_flag,
              str(value), starts, throws, summary]
    return "[" + " ".join(fields) + "]"


def export_games(conn: Any, game_ids: list[str] | None = None) -> str:
    """The stored Balkan games (``games`` and ``deals`` tables) as PPN text, one game after the
    other; ``game_ids`` limits the export. Raises ``PpnError`` for a deal without cards."""
    sql = "SELECT game_id, record FROM games WHERE variant = 'balkan'"
    params: list[Any] = []
    if game_ids is not None:
        sql += " AND list_contains(?, game_id)"
        params.append(game_ids)
    out = []
    for gid, rec in conn.execute(sql + " ORDER BY game_id", params).fetchall():
        game = BalkanGame.model_validate(json.loads(rec))
        rows = conn.execute("SELECT record FROM deals WHERE game_id = ? ORDER BY deal_no",
                            [gid]).fetchall()
        deals = [BalkanDeal.model_validate(json.loads(r[0])) for r in rows]
        out.append(dumps(game, deals))
    return "\n".join(out)
