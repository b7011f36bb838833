"""Card notation and masks (model/cards.py; spec README "Conventions shared by all games")."""

from __future__ import annotations

import pytest

from model.cards import (
    ACES,
    DECK_32,
    DECK_52,
    SUIT_MASK,
    CardError,
    format_card,
    format_card_german,
    format_card_symbol,
    format_cards,
    iter_cards,
    parse_card,
    parse_cards,
)


def test_every_card_round_trips() -> None:
    # spec README: ranks 2..A, suits S C D H, rank then suit
    for c in iter_cards(DECK_52):
        assert parse_card(format_card(c)) == c
    assert len({format_card(c) for c in iter_cards(DECK_52)}) == 52


def test_masks_fit_a_signed_64_bit_column() -> None:
    # STYLE.md practice 1: masks stay below bit 63
    assert DECK_52 < 2**63
    assert max(iter_cards(DECK_52)) == 60
    assert DECK_32 & ~DECK_52 == 0


def test_preference_deck_is_seven_to_ace() -> None:
    # greek-prefa.md 2: 32 cards, A K Q J 10 9 8 7 in each suit
    assert DECK_32.bit_count() == 32
    assert sorted(format_card(c)[0] for c in iter_cards(DECK_32 & SUIT_MASK[0])) == sorted(
        "789TJQKA"
    )
    assert ACES & DECK_32 == ACES


@pytest.mark.parametrize("text", ["10H", "TH", "th", "10h", " Th "])
def test_ten_is_written_10_or_t(text: str) -> None:
    # spec README: "10" accepted for "T"
    assert parse_card(text) == parse_card("TH")
    assert format_card(parse_card(text)) == "TH"
    assert format_card_symbol(parse_card(text)) == "10♥"


@pytest.mark.parametrize("text", ["1H", "AX", "10", "", "AAS", "11S"])
def test_bad_card_error_quotes_the_input(text: str) -> None:
    # STYLE.md: narrow errors that quote the bad input
    with pytest.raises(CardError, match=repr(text).replace("\\", "\\\\")):
        parse_card(text)


def test_repeated_card_is_an_error_naming_it() -> None:
    # records.md 1.2: hands partition the deck, so a repeat is an error
    with pytest.raises(CardError, match="'AS' appears twice"):
        parse_cards(["AS", "KS", "AS"])


def test_format_cards_highest_first() -> None:
    # model/cards.py format_cards: hearts, diamonds, clubs, spades; high ranks first
    assert format_cards(parse_cards(["7S", "AH", "TD"])) == ["AH", "TD", "7S"]


def test_german_names_share_the_encoding() -> None:
    # swabian.md / spec README: Ober = Q, hearts = Herz
    assert format_card_german(parse_card("QH")) == "Herz Ober"
