"""PBN writer (export format of PBN 2.1) for bridge records, the inverse of ``ingest/pbn.py``.

Written per deal: Event, Site (``?``), Date (the game's day), Board, the four players, Dealer,
Vulnerable, Deal (``N:`` first), Scoring (``Rubber`` or ``Chicago`` for a rubber game, else
``?``), Declarer, Contract, Result, Auction (four calls a line, alerts as ``=n=`` notes), Play
(cards by seat from the opening leader, ``-`` where the play stopped, 3.6); then the game's
start (``Time``, ``UTCDate``, ``UTCTime``, 4.5), ``League``, ``Stake`` and ``Rules`` (house
rules beyond what Scoring says) user tags (4.9), the traveller's pairs (``PairNS``,
``PairEW``, 4.3), ``Lead`` and ``Claim`` user tags, an ``Honours`` user tag, Score, Room,
``Match``, the teams (``HomeTeam``, ``VisitTeam``), ``GameId`` and ``DealNo`` user tags
(the reader keeps the deals of two games apart by ``GameId``, where nothing else in PBN
tells them apart, and numbers each deal of that game by its ``DealNo``, so a game stored with
a gap in its numbers comes back with the same). Reading
the output back gives the same records, game ids and deal numbers included
(:data:`NOT_WRITTEN` names what it leaves out).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from ingest.pbn import DEAL_NO_TAG, LABEL_TAGS, PAIR_TAGS, RUBBER_SCORING
from model.bridge.records import BridgeDeal, BridgeGame
from model.bridge.seats import SEATS, left_of
from model.bridge.variant import VARIANT as RUBBER
from model.bridge.variant import VARIANTS
from model.cards import RANK_LETTERS, SUIT_LETTERS
from model.tricks import card_index

SUIT_ORDER = ("S", "H", "D", "C")
NOT_WRITTEN = ("dd_table", "par_ns", "unplayed", "a start's fraction of a second")
"""What a stored bridge record may hold that the export does not carry (the demo's records hold
none of it): a deal's double-dummy table and par, a deal dealt but not played (written as
passed out)."""


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def pbn_hand(cards: Iterable[str]) -> str:
    by_suit: dict[str, list[int]] = {s: [] for s in SUIT_ORDER}
    for name in cards:
        c = card_index(name)
        by_suit[SUIT_LETTERS[c >> 4]].append(c & 15)
    return ".".join("".join(RANK_LETTERS[r] for r in sorted(by_suit[s], reverse=True))
                    for s in SUIT_ORDER)


def _call(call: str) -> str:
    return "Pass" if call == "pass" else call


def scoring(game: BridgeGame) -> str:
    """The ``Scoring`` tag of a game's deals (PBN 2.1 3.4): ``Rubber`` or ``Chicago`` for a
    rubber game (``ingest.pbn.RUBBER_SCORING`` reads it back so); ``?``, not known, for
    duplicate (matchpoints or IMPs are the event's choice, not the deal's)."""
    if game.variant != RUBBER.name:
        return "?"
    return "Chicago" if game.rules.mode_for(game.variant) == "chicago" else "Rubber"


def dump_deal(game: BridgeGame, deal: BridgeDeal) -> str:
    """One deal as a PBN game, its tags in the order of the export format's tag roster (3.1):
    Event, Site, Date, Board, the players, Dealer, Vulnerable, Deal, Scoring, Declarer,
    Contract, Result; ``?`` where a value is not known. A tag a game left out would be the
    previous game's (3.4; a missing Board, the previous board's Deal), so each is written for
    every deal."""
    seat = {p: i for i, p in enumerate(game.players)}
    day = game.started_at.strftime("%Y.%m.%d") if game.started_at is not None else "?"
    tags: list[tuple[str, str]] = [("Event", game.event or "?"), ("Site", "?"), ("Date", day)]
    tags.append(("Board", "?" if deal.board is None else str(deal.board)))
    for s in (3, 0, 1, 2):
        tags.append((("North", "East", "South", "West")[s], game.players[s]))
    tags.append(("Dealer", SEATS[seat[deal.dealer]]))
    if deal.vulnerable is not None:
        tags.append(("Vulnerable", deal.vulnerable))
    if deal.hands is not None:
        hands = " ".join(pbn_hand(deal.hands[game.players[s]]) for s in range(4))
        tags.append(("Deal", f"N:{hands}"))
    tags.append(("Scoring", scoring(game)))
    if deal.declarer is not None and deal.contract is not None:
        tags += [("Declarer", SEATS[seat[deal.declarer]]), ("Contract", deal.contract),
                 ("Result", ("^" if deal.irregular else "") + str(deal.tricks))]
    else:
        tags += [("Declarer", ""), ("Contract", "Pass"), ("Result", "")]
    out = [f'[{k} "{_escape(v)}"]' for k, v in tags]
    notes: list[str] = []
    if deal.auction is not None:
        out.append(f'[Auction "{SEATS[seat[deal.dealer]]}"]')
        tokens = []
        for i, call in enumerate(deal.auction):
            tok = _call(call.call)
            if deal.alerts and i in deal.alerts:
                notes.append(deal.alerts[i])
                tok += f" ={len(notes)}="
            tokens.append(tok)
        out += [" ".join(tokens[i:i + 4]) for i in range(0, len(tokens), 4)]
        out += [f'[Note "{n}:{_escape(t)}"]' for n, t in enumerate(notes, start=1)]
    if deal.play and deal.contract is not None and deal.declarer is not None:
        out += _play(deal, seat)
    extra = start_tags(game.started_at) + game_tags(game) + rules_tags(game) + table_tags(deal)
    out += [f'[{k} "{_escape(v)}"]' for k, v in extra]
    if deal.honours:
        out.append(f'[Honours "{honours_tag(deal.honours, seat)}"]')
    if deal.score_ns is not None:
        out.append(f'[Score "NS {deal.score_ns}"]')
    if deal.room is not None:
        out.append(f'[Room "{_escape(deal.room)}"]')
    if deal.match is not None:
        out.append(f'[Match "{_escape(deal.match)}"]')
    out += [f'[{k} "{_escape(v)}"]' for k, v in team_tags(deal)]
    out += id_tags(game, deal)
    return "\n".join(out) + "\n"


def team_tags(deal: BridgeDeal) -> list[tuple[str, str]]:
    """``HomeTeam`` and ``VisitTeam`` of a deal that names its pairs' teams, as the reader seats
    them (``ingest.pbn.TeamSeats``): the home team N-S, but E-W in a ``Closed`` room."""
    if deal.ns_team is None or deal.ew_team is None:
        return []
    closed = (deal.room or "").casefold().split()[:1] == ["closed"]
    home, visit = (deal.ew_team, deal.ns_team) if closed else (deal.ns_team, deal.ew_team)
    return [("HomeTeam", home), ("VisitTeam", visit)]


def id_tags(game: BridgeGame, deal: BridgeDeal) -> list[str]:
    """The record's key (records.md 2) as user tags (PBN 2.1 4.9), which other programs pass
    over: ``GameId``, the game's id, and ``DealNo``, the deal's number in it. A game's stored
    numbers may have a gap (a deal quarantined when it was read); the reader numbers a deal by
    its ``DealNo`` in the game its ``GameId`` names (``GameGroups.place``), not by its place in
    the file, so the export read back is the deals stored."""
    return [f'[GameId "{_escape(game.game_id)}"]', f'[{DEAL_NO_TAG} "{deal.deal_no}"]']


def start_tags(started_at: datetime | None) -> list[tuple[str, str]]:
    """The game's start beyond its day (PBN 2.1 4.5): ``Time``, the local clock time it
    started (``HH:MM:SS``), and for a start with its offset from UTC ``UTCDate`` and
    ``UTCTime``, the same moment in UTC; the reader takes the offset from the two. None for a
    start at midnight UTC: the ``Date`` alone reads back so."""
    if started_at is None or _midnight_utc(started_at):
        return []
    tags = [("Time", started_at.strftime("%H:%M:%S"))]
    if started_at.tzinfo is not None:
        utc = started_at.astimezone(UTC)
        tags += [("UTCDate", utc.strftime("%Y.%m.%d")), ("UTCTime", utc.strftime("%H:%M:%S"))]
    return tags


def _midnight_utc(started_at: datetime) -> bool:
    """A start the reader makes of a ``Date`` alone (``ingest.pbn``: midnight, UTC)."""
    return (started_at.utcoffset() == timedelta(0) and started_at.time() == datetime.min.time())


def game_tags(game: BridgeGame) -> list[tuple[str, str]]:
    """``League`` and ``Stake`` user tags (PBN 2.1 4.9): the game's league and stake, which
    PBN has no tag for; written with every deal, as ``Event`` is (3.4)."""
    return [(tag, v) for tag, field in LABEL_TAGS.items()
            if (v := getattr(game, field)) is not None]


def rules_tags(game: BridgeGame) -> list[tuple[str, str]]:
    """A ``Rules`` user tag (PBN 2.1 4.9): the game's house rules (bridge.md 9-10) beyond what
    its ``Scoring`` tag says (``ingest.pbn.RUBBER_SCORING``), as the record writes them (a JSON
    object, defaults left out); none when the ``Scoring`` tag says them all."""
    own = game.rules.model_dump(mode="json", exclude_defaults=True)
    said = RUBBER_SCORING.get(scoring(game).lower(), {})
    rest = {k: v for k, v in own.items() if said.get(k) != v}
    return [("Rules", json.dumps(rest, separators=(",", ":"), sort_keys=True))] if rest else []


def table_tags(deal: BridgeDeal) -> list[tuple[str, str]]:
    """What a traveller or a claim adds to a deal: the pairs' numbers (``PairNS``,
    ``PairEW``, PBN 2.1 4.3), the opening lead (a ``Lead`` user tag, 4.9: the card as the Play
    section writes it, 3.6, ``HA``; a traveller records it without the play) and the
    declarer's trick total agreed at a claim (a ``Claim`` user tag; the Play section only shows
    where the play stopped, 3.6)."""
    tags = [(tag, v) for tag, field in PAIR_TAGS.items()
            if (v := getattr(deal, field)) is not None]
    if deal.lead is not None:
        tags.append(("Lead", _card(card_index(deal.lead))))
    if deal.claim is not None:
        tags.append(("Claim", str(deal.claim)))
    return tags


def honours_tag(honours: Mapping[str, int], seat: dict[str, int]) -> str:
    """The ``Honours`` user tag (PBN 2.1 4.9; ``ingest.pbn`` reads it): who held honours and
    their points (bridge.md 4.6), ``S 100``, a comma between two holders. PBN has no tag of its
    own for them, and without the hands they cannot be worked out."""
    return ", ".join(f"{SEATS[seat[p]]} {points}" for p, points in honours.items())


def _play(deal: BridgeDeal, seat: dict[str, int]) -> list[str]:
    assert deal.play is not None and deal.contract is not None and deal.declarer is not None
    first = left_of(seat[deal.declarer])
    out = [f'[Play "{SEATS[first]}"]']
    cards = [(seat[p], card_index(c)) for p, c in deal.play]
    for start in range(0, len(cards), 4):
        trick = cards[start:start + 4]
        row = ["-"] * 4
        for s, c in trick:
            row[(s - first) % 4] = _card(c)
        out.append(" ".join(row))
    out.append("*")
    return out


def _card(c: int) -> str:
    """A card (``model.tricks.card_index``) as a Play section writes it (PBN 2.1 3.6): ``HA``."""
    return SUIT_LETTERS[c >> 4] + RANK_LETTERS[c & 15]


def dumps(records: Iterable[tuple[BridgeGame, BridgeDeal]]) -> str:
    """A PBN file of the deals, one game each, each ended by an empty line (a game the file
    ends inside may be one cut short: ``pbn.cut_short``)."""
    return "% PBN 2.1\n% EXPORT\n" + "".join(dump_deal(g, d) + "\n" for g, d in records)


def export_games(conn: Any, game_ids: list[str] | None = None) -> str:
    """The stored bridge games (``games`` and ``deals`` tables) as one PBN text, game by game,
    deals in order (:func:`dumps`); ``game_ids`` limits the export."""
    sql = "SELECT game_id, record::VARCHAR FROM games WHERE list_contains(?, variant)"
    params: list[Any] = [[v.name for v in VARIANTS]]
    if game_ids is not None:
        sql += " AND list_contains(?, game_id)"
        params.append(game_ids)
    records: list[tuple[BridgeGame, BridgeDeal]] = []
    for gid, rec in conn.execute(sql + " ORDER BY game_id", params).fetchall():
        game = BridgeGame.model_validate_json(rec)
        deals = conn.execute("SELECT record::VARCHAR FROM deals WHERE game_id = ? "
                             "ORDER BY deal_no", [gid]).fetchall()
        records += [(game, BridgeDeal.model_validate_json(d[0])) for d in deals]
    return dumps(records)
