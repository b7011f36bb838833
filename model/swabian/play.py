"""Replaying a Swabian play (swabian.md 6) on the shared trick mechanics (``model/tricks.py``).

Follow suit; void in the led suit, trump if able (games 2-5); no obligation to beat. Vorhand leads
to the first trick, the winner of a trick leads the next. Bettel ends at once when the declarer
takes a trick, Durchmarsch when he loses one (6): the recorded play must stop there.
Messages name cards in German ("Herz Ober", ``model/cards.py`` ``format_card_german``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from model.cards import GERMAN_SUITS, Card, CardSet, format_card_german
from model.swabian.games import BETTEL, DURCHMARSCH, TRUMP
from model.tricks import PlayFault, replay, trick_winner


@dataclass(frozen=True, slots=True)
class Played:
    """What a legal play gives: tricks per seat and the number of tricks played."""

    tricks: list[int]
    played: int


NO_STOP = 11
"""More tricks than a deal has: the play does not stop early."""


def play_stops(game: int) -> tuple[int, int]:
    """Where the play stops early (6): (the declarer's tricks won, lost) that end it: Bettel at
    his first trick, Durchmarsch at his first lost one."""
    return (1 if game == BETTEL else NO_STOP), (1 if game == DURCHMARSCH else NO_STOP)


def end_of_play(game: int, declarer: int, winners: Sequence[int]) -> int:
    """How many tricks are played (6): all ten, or up to where :func:`play_stops` says."""
    won_at, lost_at = play_stops(game)
    won = lost = 0
    for i, w in enumerate(winners):
        won += w == declarer
        lost += w != declarer
        if won >= won_at or lost >= lost_at:
            return i + 1
    return 10


def fault_text(fault: PlayFault, names: Sequence[str]) -> str:
    """A person's reading of a play fault, with German card and suit names."""
    who = names[fault.seat] if 0 <= fault.seat < len(names) else f"seat {fault.seat}"
    card = format_card_german(fault.card)
    where = f"trick {fault.trick}: {who} plays {card}"
    if fault.kind == "turn" or fault.kind == "absent":
        return f"{where} out of turn ({names[fault.expected]} is to play)"
    if fault.kind == "not-held":
        return f"{where}, a card he does not hold (or played already)"
    suit = GERMAN_SUITS[fault.suit] if fault.suit is not None else "?"
    if fault.kind == "follow":
        return f"{where} but holds {suit} and must follow suit (swabian.md 6)"
    return f"{where} but is void in the led suit and must trump with {suit} (swabian.md 6)"


def replay_play(
    hands: list[CardSet],
    vorhand: int,
    declarer: int,
    game: int,
    play: Sequence[tuple[int, Card]],
    names: Sequence[str],
) -> Played | str:
    """Replay ``play`` from the start hands (the declarer's after his discard); the tricks per
    seat, or the first fault as a message (illegal card, play past the early end, broken trick)."""
    trump = TRUMP[game]
    result = replay(hands, vorhand, play, trump, must_trump=True)
    if isinstance(result, PlayFault):
        return fault_text(result, names)
    winners: list[int] = []
    for t in range(len(play) // 3):
        trick = [c for _, c in play[3 * t : 3 * t + 3]]
        winners.append(play[3 * t + trick_winner(trick, trump)][0])
    end = end_of_play(game, declarer, winners)
    if len(winners) > end:
        kind = "Bettel" if game == BETTEL else "Durchmarsch"
        first = format_card_german(play[3 * end][1])
        return f"the {kind} ended at trick {end}, but the play goes on with {first} (swabian.md 6)"
    if len(play) % 3:
        return f"the play stops inside trick {len(winners) + 1} ({len(play) % 3} cards of 3)"
    return Played(result, len(winners))
