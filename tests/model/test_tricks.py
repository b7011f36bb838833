"""Shared trick mechanics (model/tricks.py): follow suit, must trump, must overtrump, trick winner,
replay faults. Rules: greek-prefa.md 7 and 14 ``must_overtrump_when_void``; summary.md "play rules"
(bridge: follow suit, otherwise free)."""

from __future__ import annotations

import pytest

from model.cards import CardError, Suit, parse_card, parse_cards
from model.tricks import (
    PlayFault,
    card_index,
    cards_mask,
    legal_cards,
    replay,
    trick_winner,
)

S, C, D, H = Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS


def cs(*names: str) -> int:
    return parse_cards(names)


def trick(*names: str) -> list[int]:
    return [parse_card(n) for n in names]


HAND = cs("AS", "7S", "KH", "8H", "9C")  # no diamonds


def test_lead_any_card() -> None:
    # greek-prefa.md 7: the leader may lead anything
    assert legal_cards(HAND, [], H, must_trump=True) == HAND


def test_must_follow_suit() -> None:
    # greek-prefa.md 7: follow suit if able
    assert legal_cards(HAND, trick("QS"), H, must_trump=True) == cs("AS", "7S")


def test_no_need_to_beat_when_following() -> None:
    # greek-prefa.md 7: no obligation to head the trick; 7S under QS is legal
    assert cs("7S") & legal_cards(HAND, trick("QS"), H, must_trump=True)


def test_void_must_trump() -> None:
    # greek-prefa.md 7: void in the led suit -> must trump if able
    assert legal_cards(HAND, trick("AD"), H, must_trump=True) == cs("KH", "8H")


def test_void_in_both_any_card() -> None:
    # greek-prefa.md 7: void in led suit and trumps -> any card
    hand = cs("AS", "9C")
    assert legal_cards(hand, trick("AD"), H, must_trump=True) == hand


def test_no_trumping_obligation_in_no_trump() -> None:
    # greek-prefa.md 7: in no-trump there is no trumping obligation
    assert legal_cards(HAND, trick("AD"), None, must_trump=True) == HAND


def test_bridge_has_no_trumping_obligation() -> None:
    # bridge.md (summary.md "play rules"): follow suit, otherwise any card
    assert legal_cards(HAND, trick("AD"), H, must_trump=False) == HAND


def test_without_overtrump_option_any_trump_under_a_trump() -> None:
    # greek-prefa.md 7: no obligation to overtrump by default
    assert legal_cards(HAND, trick("AD", "9H"), H, must_trump=True) == cs("KH", "8H")


def test_must_overtrump_when_able() -> None:
    # greek-prefa.md 14 must_overtrump_when_void: may not play a lower trump when able to overtrump
    got = legal_cards(HAND, trick("AD", "9H"), H, must_trump=True, must_overtrump=True)
    assert got == cs("KH")


def test_must_still_trump_when_unable_to_overtrump() -> None:
    # greek-prefa.md 14: if he cannot overtrump he must still trump (a lower trump)
    got = legal_cards(HAND, trick("AD", "AH"), H, must_trump=True, must_overtrump=True)
    assert got == cs("KH", "8H")


def test_overtrump_only_when_the_trick_holds_a_trump() -> None:
    # greek-prefa.md 14: the obligation starts once somebody void has trumped
    got = legal_cards(HAND, trick("AD", "7D"), H, must_trump=True, must_overtrump=True)
    assert got == cs("KH", "8H")


def test_trump_led_is_simply_followed() -> None:
    # greek-prefa.md 14: "no other obligation to beat" -- following trumps needs no overtrump
    got = legal_cards(HAND, trick("QH"), H, must_trump=True, must_overtrump=True)
    assert got == cs("KH", "8H")


@pytest.mark.parametrize(
    ("cards", "trump", "winner"),
    [
        (("QS", "AS", "7S"), H, 1),  # highest of the suit led
        (("QS", "AH", "KS"), None, 2),  # off-suit ace does not win in no-trump
        (("QS", "7H", "AS"), H, 1),  # any trump beats the suit led
        (("QS", "7H", "8H"), H, 2),  # highest trump
        (("8H", "AS"), S, 1),  # two-handed (alone) trick
        (("9D", "KD", "AC"), C, 2),
    ],
)
def test_trick_winner(cards: tuple[str, ...], trump: int | None, winner: int) -> None:
    # greek-prefa.md 7: highest trump, else highest card of the suit led
    assert trick_winner(trick(*cards), trump) == winner


def _play(*moves: tuple[int, str]) -> list[tuple[int, int]]:
    return [(s, parse_card(c)) for s, c in moves]


HANDS = [cs("AS", "7D"), cs("KS", "8D"), cs("QS", "9H")]


def test_replay_counts_tricks_and_winner_leads() -> None:
    # greek-prefa.md 7: the winner leads next
    play = _play((0, "AS"), (1, "KS"), (2, "QS"), (0, "7D"), (1, "8D"), (2, "9H"))
    assert replay(list(HANDS), 0, play, None, must_trump=True) == [1, 1, 0]
    assert replay(list(HANDS), 0, play, H, must_trump=True) == [1, 0, 1]


@pytest.mark.parametrize(
    ("moves", "kind", "trick_no"),
    [
        (((1, "KS"),), "turn", 1),
        (((0, "KS"),), "not-held", 1),
        (((0, "7D"), (1, "KS")), "follow", 1),
        (((0, "AS"), (1, "KS"), (2, "QS"), (1, "8D")), "turn", 2),
        (((0, "AS"), (1, "KS"), (2, "QS"), (0, "AS")), "not-held", 2),
        (((0, "AS"), (1, "KS"), (2, "QS"), (0, "7D"), (1, "8D"), (2, "QS")), "not-held", 2),
        (((0, "AS"), (7, "KS")), "absent", 1),
    ],
)
def test_replay_faults(moves: tuple[tuple[int, str], ...], kind: str, trick_no: int) -> None:
    # greek-prefa.md 7: turn order, own cards, follow suit
    out = replay(list(HANDS), 0, _play(*moves), None, must_trump=True)
    assert isinstance(out, PlayFault)
    assert (out.kind, out.trick, out.index) == (kind, trick_no, len(moves) - 1)


def test_replay_must_trump_fault() -> None:
    # greek-prefa.md 7: void in diamonds, holds a heart trump, discards a spade instead
    hands = [cs("7D"), cs("AS", "9H"), cs("8D")]
    out = replay(hands, 0, _play((0, "7D"), (1, "AS")), H, must_trump=True)
    assert isinstance(out, PlayFault) and out.kind == "trump" and out.suit == H


def test_replay_overtrump_fault() -> None:
    # greek-prefa.md 14 must_overtrump_when_void
    hands = [cs("7D"), cs("9H"), cs("8H", "AH")]
    play = _play((0, "7D"), (1, "9H"), (2, "8H"))
    out = replay(hands, 0, play, H, must_trump=True, must_overtrump=True)
    assert isinstance(out, PlayFault) and out.kind == "overtrump"
    assert out.over == parse_card("9H")
    assert replay(hands, 0, play, H, must_trump=True) == [0, 1, 0]


@pytest.mark.parametrize("text", ["AS", "as", "aS", "10h", "10H", "Th", "TH", " 10h "])
def test_card_index_reads_every_spelling(text: str) -> None:
    # spec README conventions: 10 or T, any case
    assert card_index(text) == parse_card(text)


def test_card_index_error_quotes_input() -> None:
    # STYLE.md: errors quote the bad input
    with pytest.raises(CardError, match="'ZZ'"):
        card_index("ZZ")


def test_cards_mask_counts_repeats() -> None:
    # records.md 1.2: a repeated card must be detectable
    mask, n = cards_mask(["AS", "as", "KD"])
    assert (mask.bit_count(), n) == (2, 3)
