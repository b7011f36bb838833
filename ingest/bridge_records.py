"""What the bridge readers (PBN, LIN, CSV travellers) share: hands, seat names, card order of the
play, and grouping table records into games.

The readers turn a file's table records into canonical records (records.md 1): one
``bridge-duplicate`` game per table line-up of an event (same event, match, room and players),
with its deals numbered in file order. Checking the records is the validation stage's job
(``model/bridge/check.py``); these helpers only decode.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NoReturn

from ingest.source import content_id
from model.bridge.contracts import TRUMP_SUIT, Contract, normalise_call, parse_contract
from model.bridge.seats import SEATS, left_of
from model.bridge.variant import DUPLICATE
from model.cards import DECK_52, RANK_LETTERS, SUIT_LETTERS, format_card
from model.tricks import trick_winner

SEAT_NAMES = ("North", "East", "South", "West")
PLACEHOLDERS = {"", "?", "-"}
HAND_SUITS = "SHDC"
"""Suit order of a hand written ``S.H.D.C`` (PBN) or ``S..H..D..C..`` (LIN)."""


class HandError(ValueError):
    pass


def parse_hand(text: str, dotted: bool) -> int:
    """A hand as a card mask: PBN ``AK.QJ2.T98.765`` (``dotted``) or LIN ``SAKHQJ2DT98C765``."""
    mask = 0
    t = text.strip().upper().replace("10", "T")
    if dotted:
        parts = t.split(".")
        if len(parts) != 4:
            raise HandError(f"a hand has four suits S.H.D.C: {text!r}")
        pairs: list[tuple[str, str]] = list(zip(HAND_SUITS, parts, strict=True))
    else:
        pairs_list: list[tuple[str, str]] = []
        suit = None
        buf = ""
        for ch in t:
            if ch in HAND_SUITS and (suit is None or ch not in RANK_LETTERS):
                if suit is not None:
                    pairs_list.append((suit, buf))
                suit, buf = ch, ""
            elif suit is None:
                raise HandError(f"a LIN hand starts with a suit letter: {text!r}")
            else:
                buf += ch
        if suit is not None:
            pairs_list.append((suit, buf))
        pairs = pairs_list
    for suit, ranks in pairs:
        held = _holding(suit, ranks)
        if held < 0 or mask & held:
            _fault(pairs, text)
        mask |= held
    return mask


@lru_cache(maxsize=1 << 15)
def _holding(suit: str, ranks: str) -> int:
    """The cards of one suit's ranks as a mask, or -1 when a rank is unknown or repeated;
    once per holding met."""
    base = 16 * SUIT_LETTERS.index(suit)
    mask = 0
    for r in ranks:
        at = RANK_LETTERS.find(r)
        if at < 0 or mask >> (base + at) & 1:
            return -1
        mask |= 1 << (base + at)
    return mask


def _fault(pairs: list[tuple[str, str]], text: str) -> NoReturn:
    """Raise the ``HandError`` of the first unknown or repeated card of a hand."""
    mask = 0
    for suit, ranks in pairs:
        s = SUIT_LETTERS.index(suit)
        for r in ranks:
            if r not in RANK_LETTERS:
                raise HandError(f"{r!r} is not a rank in hand {text!r}")
            b = 1 << (16 * s + RANK_LETTERS.index(r))
            if mask & b:
                raise HandError(f"card {r}{suit} twice in hand {text!r}")
            mask |= b
    raise HandError(f"not a hand: {text!r}")


def complete_hands(hands: list[int | None]) -> list[int | None]:
    """Infer a single missing hand as the rest of the deck (LIN ``md``, PBN ``-``)."""
    missing = [i for i, h in enumerate(hands) if h is None]
    if len(missing) == 1:
        rest = DECK_52
        for h in hands:
            if h is not None:
                rest &= ~h
        hands = list(hands)
        hands[missing[0]] = rest
    return hands


CARD_NAMES = {c: format_card(c) for c in range(64) if DECK_52 >> c & 1}
"""The name of each card of the deck (``format_card``)."""
CARD_OF_NAME = {name: c for c, name in CARD_NAMES.items()}
"""The card of each name as ``format_card`` writes it."""


def hand_names(mask: int) -> list[str]:
    """The cards of a hand by suit (spades first), highest first: the cards' indices from the
    highest down (a card is ``16 * suit + rank``)."""
    if mask >> 64 or mask & ~DECK_52:
        return _names_of(mask)
    return [*_suit_names(mask >> 48 & 0xFFFF, 48), *_suit_names(mask >> 32 & 0xFFFF, 32),
            *_suit_names(mask >> 16 & 0xFFFF, 16), *_suit_names(mask & 0xFFFF, 0)]


@lru_cache(maxsize=1 << 15)
def _suit_names(holding: int, base: int) -> tuple[str, ...]:
    """:func:`hand_names` of one suit's cards, once per holding met."""
    return tuple(_names_of(holding << base))


def _names_of(mask: int) -> list[str]:
    out = []
    while mask:
        top = mask.bit_length() - 1
        out.append(CARD_NAMES.get(top) or format_card(top))
        mask ^= 1 << top
    return out


NAME_MAX = 80
"""The longest player name (records.md 1.1, ``model.base.PlayerName``)."""


_UNNAMED = re.compile(r"(North|East|South|West) \(unnamed [0-9a-f]{8}\)")
"""What :func:`unnamed` writes (read back from an export, it is still nobody's name)."""


def unnamed(seat: int, table: object, pair: str | None = None) -> str:
    """The player at ``seat`` of a table its source does not name: the seat and 8 hex digits
    of the table's identity (``table``: the game's key, its event, match, room and the players
    it does name; ``content_id``), ``North (unnamed 3f9c1a2b)``. The unnamed players of two
    tables are two people (``ingest/players.py`` makes a person of each name), never one
    ``North`` who sat at every table of every file that names nobody.

    A traveller names a pair, not its players: ``pair`` (``NS 3``) goes before the seat and
    ``table`` is the pair at its event, ``NS 3 North (unnamed 3f9c1a2b)``, the same player at
    every board of the event and another in the next event. Such a name is a pair's player,
    known by the pair's number (not :func:`is_unnamed`)."""
    who = SEAT_NAMES[seat] if pair is None else f"{pair} {SEAT_NAMES[seat]}"
    return f"{who} (unnamed {content_id(table)[:8]})"


def is_unnamed(name: str, seat: int) -> bool:
    """Whether ``name`` at ``seat`` names nobody: a placeholder of :func:`unnamed`, or the
    seat's own name (``South`` at South: a LIN ``pn`` placeholder, or a game stored before
    :func:`unnamed`, read back from its export)."""
    m = _UNNAMED.fullmatch(name)
    return (m.group(1) if m else name).lower() == SEAT_NAMES[seat].lower()


def seat_players(names: list[str | None], table: Callable[[], object]) -> list[str]:
    """Player names by seat N E S W: a seat its source leaves unknown (``None``, empty, ``?``,
    ``-``) is :func:`unnamed` at ``table()`` (the game's identity but its players, worked out
    only for a table with a seat unknown), and a name
    used twice gets its seat appended, so a game always has four distinct players. A name
    given is kept as it is (``North`` too: an export of a game stored so reads back the same).
    A name longer than ``NAME_MAX`` is refused (``ValueError``), not cut: two cut names could
    become one."""
    given: list[str | None] = []
    for i, n in enumerate(names):
        n = (n or "").strip()
        if len(n) > NAME_MAX:
            raise ValueError(f"the player at {SEATS[i]} has a name of {len(n):,} characters "
                             f"(at most {NAME_MAX}): {n[:40]!r}…")
        given.append(None if n in PLACEHOLDERS else n)
    # the table, and the seats it names (two tables of one event apart), only where needed
    at = (table(), tuple(given)) if None in given else None
    out = [unnamed(i, at) if n is None else n for i, n in enumerate(given)]
    for i, n in enumerate(out):
        if out.count(n) > 1:
            out[i] = f"{n} ({SEATS[i]})"
    return out


def attribute_play(cards: list[int], contract: str, declarer: int) -> list[tuple[int, int]]:
    """Seats of cards given in played order (LIN ``pc``): the opening leader sits left of
    declarer and each trick's winner leads the next (bridge.md 3)."""
    trump = TRUMP_SUIT[contract_of(contract).denom]
    out = []
    leader = left_of(declarer)
    for start in range(0, len(cards), 4):
        trick = cards[start:start + 4]
        out += [((leader + i) % 4, c) for i, c in enumerate(trick)]
        if len(trick) == 4:
            leader = (leader + trick_winner(trick, trump)) % 4
    return out


_FROM = tuple(tuple((leader + i) % 4 for i in range(4)) for leader in range(4))
"""The seats in playing order from each leader."""


def play_from_columns(
    rows: list[list[int | None]], first: int, contract: str
) -> tuple[list[tuple[int, int]], bool]:
    """PBN ``Play`` rows (cards by seat, columns from seat ``first``) in played order.

    A trick with a missing card (``-``) ends the play there (a claim or an unrecorded card); the
    flag tells whether a card was dropped after such a gap."""
    trump = TRUMP_SUIT[contract_of(contract).denom]
    out: list[tuple[int, int]] = []
    leader = first
    for row in rows:
        columns = [*row, None, None, None, None]
        trick = [(s, columns[(s - first) % 4]) for s in _FROM[leader]]
        known: list[tuple[int, int]] = []
        for s, c in trick:
            if c is None:
                break
            known.append((s, c))
        out += known
        if len(known) < 4:
            dropped = any(c is not None for _, c in trick[len(known):]) or row is not rows[-1]
            return out, dropped
        leader = trick[trick_winner([c for _, c in known], trump)][0]
    return out, False


@dataclass
class GameGroups:
    """Assigns table records to games: one game per (event, date, match, room, players).

    A game's id is its kind (``pbn``, ``lin``, ``traveller``) and a hash of that key, not the
    file's path (STYLE.md 6): the same games in a copy, a part or a later version of a file
    under any name have the same ids, so their deals are duplicates, not new games."""

    kind: str
    games: dict[tuple[Any, ...], tuple[str, int]] = field(default_factory=dict)
    """Game key -> its id and the highest deal number given in it."""
    named: set[str] = field(default_factory=set)
    """The ids given by name (``place``'s ``named``)."""
    dealt: dict[tuple[str, Hashable], int] = field(default_factory=dict)
    """(game id, cards) -> the number given to a deal of those cards without a board."""

    def place(self, key: tuple[Any, ...], board: int | None = None,
              named: str | None = None, cards: Hashable = None,
              number: int | None = None) -> tuple[str, int, bool]:
        """``(game_id, deal_no, new)`` for the next deal of the game keyed ``key``. A deal whose
        ``board`` number is given is numbered by it: a board is played once at a table in a
        session, so the same board read again (a repeated row, a file pasted twice, a corrected
        copy with a board taken out) is the same deal, a duplicate or, when its result differs,
        a conflict. A reader gives the board only when the table is known (``table_known``);
        else the deal is numbered after the highest number given in the game so far. A game
        ``named`` in its file (PBN's ``GameId`` user tag, which ``pbn_write`` writes) has that
        id, unless an earlier game of the file has it (two exports put together, a copied
        tag): then, as a game without a name, the hash of its key.

        A rubber's deal whose ``cards`` (its four hands; None when they are not all known, and
        for a duplicate game, whose boards are played at several tables) repeat those of an
        earlier deal of its game has that deal's number: the same cards are not dealt twice, so
        it is that deal read again (a session pasted twice), a duplicate or a conflict, and the
        deals after it keep their numbers.

        A deal's ``number`` given in its file (PBN's ``DealNo`` user tag, which ``pbn_write``
        writes beside ``GameId``) is its number where it is exact: in the game ``named`` by the
        same file, whose stored deal it numbers; in a game named by a hash (no name, or a name
        an earlier game of the file took) it is another game's number, and is passed over. So a
        game exported with a gap (a deal quarantined when it was first read) is read back with
        the numbers it was stored under, not numbered again without the gap (docs/ingest.md
        "A bridge deal is its board")."""
        new = key not in self.games
        if new and named in self.named:
            named = None
        gid, top = self.games.get(key) or (named or f"{self.kind}/{content_id(key)}", 0)
        if new and named is not None:
            self.named.add(named)
        if number is not None and gid == named:  # exact: the number its game stores it under
            deal_no = number
            if cards is not None:
                self.dealt.setdefault((gid, cards), number)
        elif board is None and cards is not None:
            deal_no = self.dealt.setdefault((gid, cards), top + 1)
        else:
            deal_no = board or top + 1
        self.games[key] = (gid, max(top, deal_no))
        return gid, deal_no, new


def table_known(players: list[str]) -> bool:
    """Whether a deal names a player (not only the placeholders of ``seat_players``): a file
    that names nobody at a board's tables may hold its other tables under the same unnamed
    players, so its boards repeat within the game."""
    return not all(is_unnamed(p, seat) for seat, p in enumerate(players))


def game_record(
    game_id: str, players: list[str], event: str | None, variant: str = DUPLICATE.name,
    started_at: str | None = None, rules: dict[str, Any] | None = None,
) -> dict[str, Any]:
    rec: dict[str, Any] = {"record": "game", "game_id": game_id, "variant": variant,
                           "players": players}
    if rules:
        rec["rules"] = rules
    if event:
        rec["event"] = event
    if started_at:
        rec["started_at"] = started_at
    return rec


def card_name(c: int) -> str:
    return format_card(c)


__all__ = [
    "CARD_NAMES",
    "CARD_OF_NAME",
    "SEAT_NAMES",
    "GameGroups",
    "HandError",
    "attribute_play",
    "call_of",
    "card_name",
    "complete_hands",
    "content_id",
    "contract_of",
    "game_record",
    "hand_names",
    "is_unnamed",
    "parse_hand",
    "play_from_columns",
    "played",
    "seat_players",
    "table_known",
    "unnamed",
]


@lru_cache(maxsize=1024)
def contract_of(text: str) -> Contract:
    """``parse_contract``, once per spelling met (a ``Contract`` is frozen)."""
    return parse_contract(text)


def played(order: list[tuple[int, int]], players: list[str]) -> list[list[str]]:
    """A play as the record writes it: ``[player, card]`` in played order."""
    return [[players[s], CARD_NAMES.get(c) or format_card(c)] for s, c in order]


@lru_cache(maxsize=4096)
def call_of(text: str) -> str:
    """``normalise_call``, once per spelling met (a file repeats a few dozen calls)."""
    return normalise_call(text)


@lru_cache(maxsize=1024)
def suit_rank_card(text: str) -> int:
    """A card written suit then rank, as PBN and LIN write them (``DQ``, ``hT``, ``S10``)."""
    t = text.strip().upper()
    if len(t) >= 2 and t[0] in SUIT_LETTERS:
        rank = "T" if t[1:] == "10" else t[1:]
        if len(rank) == 1 and rank in RANK_LETTERS:
            return 16 * SUIT_LETTERS.index(t[0]) + RANK_LETTERS.index(rank)
    raise HandError(f"not a card: {text!r} (suit then rank, e.g. 'DQ', 'HT')")


def source_id(path: Path) -> str:
    """The prefix of a file's game ids: its folder and name (``pbn/example1.pbn``), so files
    of one stem in different formats or folders do not share game ids."""
    return f"{path.parent.name}/{path.name}" if path.parent.name else path.name
