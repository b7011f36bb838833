"""``model/tricks.py:dealt`` (the quick deck test) and ``model/problems.py:once_per_input`` (a
verdict judged once per input). The deck: three hands of ten and a talon of two partition the
32-card deck (greek-prefa.md 3, swabian.md 2, russian.md 1)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from model.cards import DECK_32, format_card, iter_cards
from model.problems import once_per_input
from model.tricks import cards_mask, dealt

DECK = [format_card(c) for c in iter_cards(DECK_32)]


@settings(max_examples=300)
@given(seed=st.integers(0, 2**32), change=st.integers(0, 4))
def test_dealt_is_exactly_a_partition_of_the_deck(seed: int, change: int) -> None:
    rng = random.Random(seed)
    cards = DECK[:]
    rng.shuffle(cards)
    hands, talon = [cards[0:10], cards[10:20], cards[20:30]], cards[30:]
    if change == 1:  # a card twice (one missing)
        hands[rng.randrange(3)][rng.randrange(10)] = talon[0]
    elif change == 2:  # a hand one short, the talon one long
        talon.append(hands[0].pop())
    elif change == 3:  # a card of the 52-card deck
        hands[2][0] = "2C"
    elif change == 4:  # a card written twice in one hand, instead of another
        hands[1][1] = hands[1][0]
    found = dealt(hands, talon, 10, 2, DECK_32)
    names = [c for h in hands for c in h] + talon
    whole = (all(len(h) == 10 for h in hands) and len(talon) == 2
             and sorted(names) == sorted(DECK))
    assert (found is not None) == whole
    if found is not None:
        assert found == ([cards_mask(h)[0] for h in hands], cards_mask(talon)[0])


def test_once_per_input_judges_each_input_once_and_returns_the_error() -> None:
    calls: list[int] = []

    def judge(n: int) -> int:
        calls.append(n)
        if n < 0:
            raise ValueError(f"negative: {n}")
        return n * 2

    once = once_per_input(judge, ValueError)
    assert [once(3), once(3), once(4)] == [6, 6, 8]
    bad = once(-1)
    assert isinstance(bad, ValueError) and str(bad) == "negative: -1"
    assert once(-1) is bad
    assert calls == [3, 4, -1]
