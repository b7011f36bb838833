"""What every record shares: frozen pydantic models that forbid unknown fields.

``../shared/spec/records.md`` section 1 fixes the canonical record; each variant module adds its own
``Game`` and ``Deal`` subclasses (discriminated by ``variant``) and its rule parameters.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import itemgetter
from typing import Annotated, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    field_validator,
)

from model.cards import CardError, parse_card
from model.tricks import CARD_NAMES

SPELLINGS: dict[str, str] = {}
"""What a text of a constrained pattern looks like, in words, by its pattern: a message says
``'6X' is not a contract: 6 to 10 and S, C, D, H or NT`` (:func:`spelled`), not the regex."""

ANY_CASE = "(?i-u)"
"""A pattern's flags that match its letters in either case, ASCII only (``ſ`` is no ``s``)."""


def spelled(words: str, pattern: str, *, any_case: bool = False,
            **constraints: bool) -> StringConstraints:
    """``StringConstraints`` of ``pattern`` whose mismatch a message says in ``words``.

    ``any_case``: the text's letters are read in either case and kept in capitals, for a code
    whose letters say one thing in any case (a contract typed ``6s`` or ``3nt`` is the ``6S``
    and ``3NT`` of records.md 1.2's grammar): the pattern matches ignoring case, and then
    pydantic-core capitalises the text, so the record and its canonical JSON hold the
    capitals, and a record written so is read as before."""
    if any_case:
        pattern, constraints = ANY_CASE + pattern, {**constraints, "to_upper": True}
    SPELLINGS[pattern] = words
    return StringConstraints(pattern=pattern, **constraints)


PlayerName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
CardName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=3)]
PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"
"""Text without control characters (a NUL, an escape sequence): what a page or a terminal shows
as it is."""
Label = Annotated[str, StringConstraints(max_length=200, pattern=PRINTABLE)]
"""A game's league, event or stake: a name a page shows, not a document (a PBN ``Event`` of
megabytes is refused, not stored), without control characters."""
GameId = Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=PRINTABLE)]
"""A game's id (records.md 1.1)."""
SeatedName = Annotated[PlayerName, StringConstraints(pattern=PRINTABLE)]
"""A player of a game line: without control characters. (A deal names the game's players, so
its names need no check of their own.)"""
Integer = Annotated[int, Strict()]
"""A whole number of a record or its rules (a deal's number, tricks, a level, an amount): a
number without a fraction. ``true``, ``6.0`` and ``"6"`` are refused, not read as 1 and 6 (the
records of records.md 1 write them as plain integers; a reader hands Python ints)."""
HOUSE_NUMBER_MAX = 10_000
HouseNumber = Annotated[Integer, Field(ge=0, le=HOUSE_NUMBER_MAX)]
"""A number a house rule sets for a deal or a session (a bonus, a raise, a count of rounds or
deals): at most 10,000, far above any table's, so that a game's sums stay in the settlement's
32-bit columns. A rule that needs a positive value adds ``Field(gt=0)``."""
STOCK_MAX = 1_000_000
Stock = Annotated[Integer, Field(gt=0, le=STOCK_MAX)]
"""What every player starts a game with (a kassa, a bula): at most 1,000,000."""
TrickCount = Annotated[Integer, Field(ge=0, le=10)]
"""A player's tricks in a deal of the 32-card games: ten tricks in all."""


@dataclass(frozen=True)
class ChoiceWords:
    """A house rule's choices in the players' words, where a value of its ``Literal`` is a code
    of ours rather than a word (``Annotated[Literal[...], ChoiceWords({...})]``): forms show the
    words, the record keeps the value. A value without words is shown as any other value."""

    words: Mapping[object, str] = field(hash=False)


AN_ISO_TIME = "an ISO 8601 date or time (e.g. 2026-12-03 or 2026-12-03T19:00:00+01:00)"
"""What a game's ``started_at`` must be, as a message says it."""


def _written_as_a_time(value: object) -> object:
    """A game's ``started_at`` is an ISO 8601 date or time (records.md 1.1). A number, or
    digits alone, would be read as seconds since 1970: ``2026`` as 1970-01-01 00:33:46."""
    text = value.strip().lstrip("+-").replace(".", "", 1) if isinstance(value, str) else None
    if isinstance(value, int | float) or (text is not None and text.isdigit()):
        raise ValueError(f"{value!r} is not {AN_ISO_TIME}")
    return value


def _in_utc(value: datetime) -> datetime:
    """A time the store keeps in UTC: one that is not a time in UTC's calendar (years 1 to
    9999; ``9999-12-31T23:59:59-14:00`` is in year 10000) is refused here, with the record,
    rather than when its file is stored."""
    if value.tzinfo is not None:
        try:
            value.astimezone(UTC)
        except (OverflowError, ValueError) as exc:
            raise ValueError("must fall in the years 1 to 9999 in UTC") from exc
    return value


StartedAt = Annotated[datetime, BeforeValidator(_written_as_a_time), AfterValidator(_in_utc)]


class Frozen(BaseModel):
    """Base of every record and parameter model: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class GameBase(Frozen):
    """A game line (records.md 1.1). ``variant`` is the discriminator; ``rules`` is per variant."""

    record: Literal["game"] = "game"
    game_id: GameId
    players: tuple[SeatedName, ...]
    started_at: StartedAt | None = None
    league: Label | None = None
    event: Label | None = None
    stake: Label | None = None


def composed(name: str) -> str:
    """A name as a person is known by: its text in Unicode's composed form (NFC), so ``Ánna``
    typed as ``A`` and an accent and ``Ánna`` typed as one letter are one name."""
    return unicodedata.normalize("NFC", name)


def check_seats(game: str, players: tuple[str, ...], counts: tuple[int, ...],
                four_players: bool | None = None) -> None:
    """A game's seating (records.md 1.1): ``counts`` allowed, no name twice (nor in two Unicode
    forms, ``Á`` composed and ``A`` with its accent), and where the
    rules carry ``four_players`` it agrees with the table (the dealer sits out with four)."""
    n = len(players)
    if n not in counts:
        allowed = " or ".join(str(c) for c in counts)
        raise ValueError(f"{game} needs {allowed} players, got {n}")
    names = [composed(p) for p in players]
    if len(set(names)) != n:
        twice = sorted({p for p in names if names.count(p) > 1})
        raise ValueError(f"a player is named twice: {', '.join(twice)}"
                         + (" (once in another Unicode form)" * (len(set(players)) == n)))
    if four_players is not None and (n == 4) != four_players:
        raise ValueError(
            f"{n} players but rules.four_players is {four_players}: "
            "set four_players to true exactly when four sit at the table"
        )


class Call(Frozen):
    """One call of an auction: who, and what (variant grammar)."""

    player: PlayerName
    call: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=16)]


CALLS_KEPT = 1024
"""Spellings of a call each variant's ``auction.spelled_call`` remembers: a file's calls are a
few dozen texts, read once each; a file of other texts cannot grow the memory past this."""


class DealBase(Frozen):
    """A deal line (records.md 1.2): the fields every variant shares."""

    spelled_call: ClassVar[Callable[[str], str]] = staticmethod(str)
    """A call of this variant's auction as records.md 1.2 writes it (``6S``, ``pass``); the
    text as given where it is no call of the grammar, so the check quotes it. Each variant's
    deal sets its own (its ``auction.spelled_call``)."""

    record: Literal["deal"] = "deal"
    game_id: GameId
    deal_no: Annotated[Integer, Field(ge=1)]
    dealer: PlayerName
    declarer: PlayerName | None = None
    hands: dict[PlayerName, tuple[CardName, ...]] | None = None
    talon: tuple[CardName, ...] | None = None
    auction: tuple[Call, ...] | None = None
    discard: tuple[CardName, ...] | None = None
    play: tuple[tuple[PlayerName, CardName], ...] | None = None

    @field_validator("auction")
    @classmethod
    def _calls_spelled(cls, calls: tuple[Call, ...] | None) -> tuple[Call, ...] | None:
        """Each call as records.md 1.2 writes it (:meth:`spelled_call`): ``6s``, `` Pass `` and
        ``6S``, ``pass`` are one record, with one canonical JSON and ``deal_key``. A call already
        so spelled is kept as read (a canonical line stays its own stored record)."""
        if calls is None:
            return None
        spell = cls.spelled_call
        if all(spell(c.call) == c.call for c in calls):
            return calls
        return tuple(c if spell(c.call) == c.call else c.model_copy(update={"call": spell(c.call)})
                     for c in calls)

    @field_validator("talon", "discard")
    @classmethod
    def _card_names(cls, cards: tuple[str, ...] | None) -> tuple[str, ...] | None:
        return check_card_names(cards)

    @field_validator("hands")
    @classmethod
    def _hand_cards(
        cls, hands: dict[str, tuple[str, ...]] | None
    ) -> dict[str, tuple[str, ...]] | None:
        if hands is not None:
            for cards in hands.values():
                check_card_names(cards)
        return hands

    @field_validator("play")
    @classmethod
    def _play_cards(
        cls, play: tuple[tuple[str, str], ...] | None
    ) -> tuple[tuple[str, str], ...] | None:
        if play is not None and not _KNOWN.issuperset(map(itemgetter(1), play)):
            check_card_names(tuple(c for _, c in play))
        return play


def check_card_names(names: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """Schema-level card check used by the variant deal models: every name must be a card.

    The usual spellings are looked up in ``model.tricks.CARD_NAMES`` (a set test for the whole
    tuple); only a name missing there is read by ``parse_card``, which gives the same verdict and
    the message."""
    if names is None or _KNOWN.issuperset(names):
        return names
    for n in names:
        try:
            parse_card(n)
        except CardError as exc:
            raise ValueError(str(exc)) from exc
    return names


_KNOWN = frozenset(CARD_NAMES)
