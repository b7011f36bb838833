"""Replaying a Russian play (russian.md 4) on the shared trick mechanics (``model/tricks.py``).

Follow suit; void, trump if able; otherwise any card; no obligation to beat. First hand leads to
the first trick in every deal, the winner of a trick leads the next. No trumps in NT, misère and
raspasy. Raspasy with ``raspasy_talon_lead``: the talon cards are turned up one per trick for the
first two tricks; first hand leads both, in the suit of the turned card when he holds it. All ten
tricks are played (4). Seats here are positions in the deal: 0 = first hand, 1, 2.
"""

from __future__ import annotations

from collections.abc import Sequence

from model.cards import SUIT_MASK, Card, CardSet, format_card_symbol, suit_of
from model.tricks import SUIT_NAMES, PlayFault, legal_cards, replay, trick_winner

TRICKS = 10


def fault_text(fault: PlayFault, names: Sequence[str], first_trick: int = 1) -> str:
    """A person's reading of a play fault (``names`` by position in the deal)."""
    who = names[fault.seat] if 0 <= fault.seat < len(names) else f"seat {fault.seat}"
    where = f"trick {fault.trick + first_trick - 1}: {who} plays {format_card_symbol(fault.card)}"
    if fault.kind in ("turn", "absent"):
        return f"{where} out of turn ({names[fault.expected]} is to play)"
    if fault.kind == "not-held":
        return f"{where}, a card he does not hold (or played already)"
    suit = SUIT_NAMES[fault.suit] if fault.suit is not None else "?"
    if fault.kind == "follow":
        return f"{where} but holds {suit} and must follow suit (russian.md 4)"
    return f"{where} but is void in the led suit and must trump with {suit} (russian.md 4)"


def _complete(tricks: list[int], play: Sequence[tuple[int, Card]], start: int) -> list[int] | str:
    if len(play) != 3 * (TRICKS - start):
        done = len(play) // 3 + start
        return (f"{done} tricks and {len(play) % 3} cards played; all 10 tricks are played "
                "(russian.md 4)")
    return tricks


def replay_contract(
    hands: list[CardSet], trump: int | None, play: Sequence[tuple[int, Card]], names: Sequence[str]
) -> list[int] | str:
    """Tricks per position of a contract or misère play from first hand's lead, or the fault."""
    result = replay(hands, 0, play, trump, must_trump=True)
    if isinstance(result, PlayFault):
        return fault_text(result, names)
    return _complete(result, play, 0)


def replay_raspasy(
    hands: list[CardSet],
    talon: Sequence[Card],
    talon_lead: bool,
    play: Sequence[tuple[int, Card]],
    names: Sequence[str],
) -> list[int] | str:
    """Tricks per position of a raspasy play, or the fault (4 "Raspasy")."""
    if not talon_lead:
        return replay_contract(hands, None, play, names)
    left = list(hands)
    taken = [0, 0, 0]
    for t, shown in enumerate(talon[:2]):
        cards = play[3 * t : 3 * t + 3]
        trick: list[Card] = []
        for k, (pos, c) in enumerate(cards):
            who = names[pos] if 0 <= pos < 3 else pos
            where = f"trick {t + 1}: {who} plays {format_card_symbol(c)}"
            if pos != k:
                return (f"{where} out of turn ({names[k]} is to play; first hand leads under "
                        "the talon card)")
            if not left[pos] & (1 << c):
                return f"{where}, a card he does not hold (or played already)"
            if k == 0:
                lead_suit = left[pos] & SUIT_MASK[suit_of(shown)]
                if lead_suit and not lead_suit & (1 << c):
                    return (f"{where} but holds {SUIT_NAMES[suit_of(shown)]}, the suit of the "
                            f"talon card {format_card_symbol(shown)} (russian.md 4)")
            elif not legal_cards(left[pos], trick, None, must_trump=False) & (1 << c):
                return (f"{where} but holds {SUIT_NAMES[suit_of(trick[0])]} and must follow "
                        "suit (russian.md 4)")
            trick.append(c)
            left[pos] ^= 1 << c
        if len(cards) < 3:
            return _complete(taken, play, 0)
        taken[trick_winner(trick, None)] += 1
    rest = play[6:]
    leader = play[3 + trick_winner([c for _, c in play[3:6]], None)][0]
    more = replay(left, leader, rest, None, must_trump=False)
    if isinstance(more, PlayFault):
        return fault_text(more, names, first_trick=3)
    return _complete([a + b for a, b in zip(taken, more, strict=True)], rest, 2)
