"""Trick mechanics shared by every game: legal cards, the winner of a trick, replay of a play.

Cards are ints (``16 * suit + rank``, rank grows with strength) and hands are masks
(``model/cards.py``), so within one suit a higher card is a higher int and the usual rules need
no rank table. The obligations every game of the project uses (``../shared/spec/summary.md``,
"play rules"):

- follow suit if able (all games);
- if void in the led suit, trump if able (``must_trump``: the Preference games; not bridge);
- no obligation to beat, except the Greek option ``must_overtrump_when_void``
  (greek-prefa.md 14): a player void in the led suit who must trump may not play under a trump
  already in the trick when he holds a higher one.

Nothing here allocates per card: the replay walks the recorded cards with int masks only, so a
validator can replay tens of thousands of deals per second in plain Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from model.cards import RANK_LETTERS, SUIT_LETTERS, SUIT_MASK, Card, CardSet, parse_card

SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")
"""Plural suit names for messages, indexed like ``Suit``."""


def legal_cards(
    hand: CardSet,
    trick: Sequence[Card],
    trump: int | None,
    *,
    must_trump: bool,
    must_overtrump: bool = False,
) -> CardSet:
    """The cards of ``hand`` that may be played to ``trick`` (the cards already in it, lead first).

    ``trump`` is the trump suit, ``None`` in no-trump (then there is no trumping obligation).
    ``must_trump``: a player void in the led suit must trump if able (Preference games).
    ``must_overtrump``: ... and, if the trick already holds a trump, must play a higher one when
    he can (greek-prefa.md 14 ``must_overtrump_when_void``); a player who cannot overtrump still
    has to trump. An empty hand gives an empty set.
    """
    if not trick:
        return hand
    follow = hand & SUIT_MASK[trick[0] >> 4]
    if follow:
        return follow
    if trump is None or not must_trump:
        return hand
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return hand
    if must_overtrump:
        top = -1
        for c in trick:
            if c >> 4 == trump and c > top:
                top = c
        if top >= 0:
            higher = trumps & ~((2 << top) - 1)
            if higher:
                return higher
    return trumps


def trick_winner(trick: Sequence[Card], trump: int | None) -> int:
    """Index into ``trick`` of the card that wins it: the highest trump, else the highest card of
    the suit led (greek-prefa.md 7; the same in every game of the project)."""
    win = trick[0]
    at = 0
    for i in range(1, len(trick)):
        c = trick[i]
        if c >> 4 == win >> 4:
            if c > win:
                win, at = c, i
        elif c >> 4 == trump:
            win, at = c, i
    return at


def beats(card: Card, best: Card, trump: int | None) -> bool:
    """Does ``card`` take the trick from ``best``, the card winning it so far?"""
    if card >> 4 == best >> 4:
        return card > best
    return card >> 4 == trump


FaultKind = Literal["turn", "absent", "not-held", "follow", "trump", "overtrump"]


@dataclass(frozen=True, slots=True)
class PlayFault:
    """Why a recorded card is illegal. ``index`` is its position in the play, ``trick`` is
    1-based, ``seat`` the position of the player who played it (-1: not one of the players),
    ``expected`` the seat whose turn it was, ``suit`` the suit he had to follow or trump with,
    ``over`` the trump he had to beat (overtrump faults)."""

    kind: FaultKind
    index: int
    trick: int
    seat: int
    card: Card
    expected: int
    suit: int | None = None
    over: Card | None = None


def replay(
    hands: list[CardSet],
    leader: int,
    play: Sequence[tuple[int, Card]],
    trump: int | None,
    *,
    must_trump: bool,
    must_overtrump: bool = False,
) -> list[int] | PlayFault:
    """Replay ``play`` (seat, card) pairs trick by trick and count the tricks of each seat.

    ``hands[s]`` is what seat ``s`` holds at the start of the play; seats take turns in index
    order (wrapping), ``leader`` leads the first trick and the winner of each trick leads the next.
    Returns the tricks of every seat over the complete tricks, or the first fault: a card out of
    turn, by a seat that does not exist, not in the player's hand (or already played), or against
    the follow / trump / overtrump obligations of :func:`legal_cards`. ``hands`` is not modified.
    """
    k = len(hands)
    left = list(hands)
    taken = [0] * k
    trick_no = 1
    turn = leader
    pos = 0  # cards in the current trick
    led = 0
    led_mask = 0
    trump_mask = SUIT_MASK[trump] if trump is not None else 0
    best = -1
    best_seat = -1
    for i, (seat, c) in enumerate(play):
        if seat != turn:
            kind: FaultKind = "absent" if not 0 <= seat < k else "turn"
            return PlayFault(kind, i, trick_no, seat, c, turn)
        b = 1 << c
        h = left[seat]
        if not h & b:
            return PlayFault("not-held", i, trick_no, seat, c, turn)
        if pos == 0:
            led = c >> 4
            led_mask = SUIT_MASK[led]
            best, best_seat = c, seat
        else:
            if not b & led_mask:
                if h & led_mask:
                    return PlayFault("follow", i, trick_no, seat, c, turn, led)
                if must_trump and h & trump_mask:
                    if not b & trump_mask:
                        return PlayFault("trump", i, trick_no, seat, c, turn, trump)
                    if (
                        must_overtrump
                        and best >> 4 == trump
                        and c < best
                        and h & trump_mask & ~((2 << best) - 1)
                    ):
                        return PlayFault("overtrump", i, trick_no, seat, c, turn, trump, best)
            if c >> 4 == best >> 4:
                if c > best:
                    best, best_seat = c, seat
            elif c >> 4 == trump:
                best, best_seat = c, seat
        left[seat] = h ^ b
        pos += 1
        if pos == k:
            taken[best_seat] += 1
            trick_no += 1
            pos = 0
            turn = best_seat
        else:
            turn = turn + 1 if turn + 1 < k else 0
    return taken


# Card names as written in records, read without re-parsing: every spelling parse_card accepts
# for the 52 cards in upper and lower case ("AS", "as", "TS", "10S", "10s" ...).
CARD_NAMES: dict[str, Card] = {}
"""Every spelling of every card, for lookups in hot loops (fall back to ``card_index``)."""
_NAMES = CARD_NAMES
_BITS: dict[str, CardSet] = {}
for _s, _sl in enumerate(SUIT_LETTERS):
    for _r, _rl in enumerate(RANK_LETTERS):
        for _text in {_rl + _sl, ("10" if _rl == "T" else _rl) + _sl}:
            for _form in (_text, _text.lower(), _text[:-1] + _sl.lower(), _text[:-1].lower() + _sl):
                _NAMES[_form] = 16 * _s + _r
                _BITS[_form] = 1 << (16 * _s + _r)


def card_index(text: str) -> Card:
    """The card written as ``text`` (any spelling ``parse_card`` accepts), via a lookup table;
    raises ``CardError`` quoting ``text`` when it is not a card."""
    c = _NAMES.get(text)
    return c if c is not None else parse_card(text)


def dealt(hands: Sequence[Sequence[str]], talon: Sequence[str], size: int, talon_size: int,
          deck: CardSet) -> tuple[list[CardSet], CardSet] | None:
    """The hands and the talon as masks when they partition ``deck`` exactly (``size`` cards in
    each hand, ``talon_size`` in the talon, every card once); ``None`` otherwise, and the caller
    finds what is wrong and says so. A quick test for the usual, valid deal."""
    if len(talon) != talon_size or any(len(h) != size for h in hands):
        return None
    masks = [cards_mask(h)[0] for h in hands]
    rest = cards_mask(talon)[0]
    union = rest
    for m in masks:
        union |= m
    if union != deck or sum(m.bit_count() for m in masks) + rest.bit_count() != deck.bit_count():
        return None
    return masks, rest


def cards_mask(texts: Sequence[str]) -> tuple[CardSet, int]:
    """The set of the cards written as ``texts`` and how many names there were (more names than
    cards in the set means a repeat); raises ``CardError`` quoting a name that is not a card."""
    try:
        bits = set(map(_BITS.__getitem__, texts))
    except KeyError:
        bits = {1 << card_index(text) for text in texts}
    return sum(bits), len(texts)
