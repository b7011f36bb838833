"""Seating and play replay (model/greek/play.py): greek-prefa.md 3, 6.1, 7, 14."""

from __future__ import annotations

import pytest

from model.cards import Suit, parse_cards
from model.greek.params import GreekRules
from model.greek.play import (
    active_players,
    defenders,
    first_hand,
    players_in_play,
    replay_play,
)
from model.greek.records import GreekDeal, GreekGame
from model.problems import Code, Problem

THREE = GreekGame(game_id="g3", variant="greek-prefa", players=("Anna", "Boris", "Chris"))
FOUR = GreekGame(
    game_id="g4",
    variant="greek-prefa",
    players=("Anna", "Boris", "Chris", "Dora"),
    rules=GreekRules(four_players=True),
)


def test_first_hand_is_next_after_the_dealer() -> None:
    # greek-prefa.md 3: first hand = the dealer's right = next in turn order
    assert first_hand(THREE, "Anna") == "Boris"
    assert first_hand(THREE, "Chris") == "Anna"
    assert active_players(THREE, "Boris") == ("Chris", "Anna", "Boris")


def test_four_players_dealer_sits_out() -> None:
    # greek-prefa.md 14 four_players: the dealer sits out
    assert active_players(FOUR, "Dora") == ("Anna", "Boris", "Chris")
    assert active_players(FOUR, "Anna") == ("Boris", "Chris", "Dora")


def test_right_and_left_of_the_declarer() -> None:
    # greek-prefa.md 6.1 / 16 G10: R = next active player after the declarer
    active = active_players(FOUR, "Boris")  # Chris, Dora, Anna
    assert defenders(active, "Dora") == ("Anna", "Chris")
    assert defenders(active, "Anna") == ("Chris", "Dora")


def deal(**fields: object) -> GreekDeal:
    base: dict[str, object] = {"game_id": "g3", "deal_no": 1, "dealer": "Anna"}
    return GreekDeal.model_validate(base | fields)


@pytest.mark.parametrize(
    ("defence", "expected"),
    [
        ({"Anna": "play", "Boris": "play"}, ("Boris", "Chris", "Anna")),  # 6.1 step 5
        ({"Anna": "invite", "Boris": "pass"}, ("Boris", "Chris", "Anna")),  # 6.1 step 3
        ({"Anna": "pass", "Boris": "alone"}, ("Boris", "Chris")),  # 6.1 step 6: two-handed
        ({"Anna": "alone", "Boris": "pass"}, ("Chris", "Anna")),  # 7: lead passes on
        ({"Anna": "pass", "Boris": "pass"}, ()),  # 6.1 step 2: no play
    ],
)
def test_who_plays(defence: dict[str, str], expected: tuple[str, ...]) -> None:
    # greek-prefa.md 6.1, 7: who takes part in the play (per case above)
    d = deal(declarer="Chris", contract="6S", defence=defence)
    assert players_in_play(active_players(THREE, "Anna"), d, THREE.rules) == expected


def test_all_pass_is_played_only_with_play_low() -> None:
    # greek-prefa.md 4.2 / 14 all_pass
    active = active_players(THREE, "Anna")
    assert players_in_play(active, deal(), GreekRules()) == ()
    assert players_in_play(active, deal(), GreekRules(all_pass="play_low")) == active


DEFAULT = GreekRules()
ORDER = ("Anna", "Boris", "Chris")
HANDS = {
    "Anna": parse_cards(["AS", "KS", "AD"]),
    "Boris": parse_cards(["QS", "JS", "7H", "8D"]),
    "Chris": parse_cards(["7S", "8S", "9D", "7C"]),
}
OPENING = [("Anna", "AS"), ("Boris", "QS"), ("Chris", "7S"), ("Anna", "KS"), ("Boris", "JS")]


def replay_problem(
    moves: list[tuple[str, str]],
    trump: int | None = Suit.CLUBS,
    rules: GreekRules = DEFAULT,
    discarded: int = 0,
) -> Problem:
    out = replay_play(ORDER, HANDS, moves, trump, rules, discarded)
    assert isinstance(out, Problem)
    return out


def test_revoke_message_names_trick_player_and_card() -> None:
    # greek-prefa.md 7: follow suit if able
    moves = [*OPENING, ("Chris", "8S"), ("Anna", "AD"), ("Boris", "7H")]
    p = replay_problem(moves)
    assert p == Problem(Code.ILLEGAL_CARD, "trick 3: Boris played 7H but must follow diamonds")


def test_must_trump_message() -> None:
    # greek-prefa.md 7: void in the suit led -> must trump; Chris holds 7C (clubs are trumps)
    hands = dict(HANDS, Chris=parse_cards(["7S", "8S", "7C", "8H"]))
    moves = [*OPENING, ("Chris", "8S"), ("Anna", "AD"), ("Boris", "8D"), ("Chris", "8H")]
    p = replay_play(ORDER, hands, moves, Suit.CLUBS, GreekRules())
    assert p == Problem(
        Code.ILLEGAL_CARD,
        "trick 3: Chris played 8H but is void in the suit led and must trump with clubs",
    )
    # in no-trump there is no trumping obligation: the card is legal, the play just stops short
    nt = replay_play(ORDER, hands, moves, None, GreekRules())
    assert isinstance(nt, Problem) and nt.code is Code.REPLAY_MISMATCH


def test_out_of_turn_and_not_held() -> None:
    # greek-prefa.md 7: the winner leads next
    p = replay_problem([*OPENING[:3], ("Boris", "JS")])
    assert p.message == "trick 2: Boris played JS out of turn: it was Anna's turn"
    p = replay_problem([("Anna", "QS")])
    assert p.message == "trick 1: Anna played QS but does not hold it (or played it before)"
    p = replay_problem([("Anna", "QS")], discarded=parse_cards(["QS"]))
    assert p.message == "trick 1: Anna played QS but discarded it"
    p = replay_problem([("Dora", "QS")])
    assert p.message == "trick 1: Dora played QS but takes no part in the play (it was Anna's turn)"


def test_overtrump_message() -> None:
    # greek-prefa.md 14 must_overtrump_when_void
    hands = {
        "Anna": parse_cards(["AD"]),
        "Boris": parse_cards(["9C"]),
        "Chris": parse_cards(["8C", "AC"]),
    }
    moves = [("Anna", "AD"), ("Boris", "9C"), ("Chris", "8C")]
    p = replay_play(ORDER, hands, moves, Suit.CLUBS, GreekRules(must_overtrump_when_void=True))
    assert p == Problem(
        Code.ILLEGAL_CARD,
        "trick 1: Chris played 8C but must overtrump the 9C with a higher club"
        " (must_overtrump_when_void)",
    )


def test_incomplete_play_is_a_mismatch() -> None:
    # greek-prefa.md 7: all ten tricks are played
    p = replay_problem(OPENING[:3])
    assert p == Problem(
        Code.REPLAY_MISMATCH, "the play has 3 cards; 3 players play all ten tricks, 30 cards"
    )


def test_unknown_hands_are_inferred_from_the_play() -> None:
    # records.md 1.2: a play without hands is still checked; Boris shows a diamond later
    moves = [("Anna", "AD"), ("Boris", "7H"), ("Chris", "9D"), ("Anna", "KS"), ("Boris", "8D")]
    out = replay_play(ORDER, None, moves, None, GreekRules())
    assert isinstance(out, Problem) and out.message.endswith("must follow diamonds")
