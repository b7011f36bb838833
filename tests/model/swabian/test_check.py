"""Rule- and card-level checks of Swabian deals (swabian.md 2-7; records.md 1.2), with German card
names in the messages (issue: "German card names in every output a person reads").

The hand-made deal: dealer Cora, so Anna is Vorhand. Anna holds every Herz and Laub Daus, König;
Bert every Eichel and Laub Ober, Unter; Cora every Schellen and Laub X, IX; the talon is Laub VIII,
VII.
"""

from __future__ import annotations

from typing import Any

import pytest

from model.problems import Code
from model.swabian.check import check_deal
from model.swabian.records import SwabianDeal, SwabianGame

HEARTS = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"]
CLUBS = ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"]
DIAMONDS = ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D"]
HANDS = {
    "Anna": [*HEARTS, "AS", "KS"],
    "Bert": [*CLUBS, "QS", "JS"],
    "Cora": [*DIAMONDS, "TS", "9S"],
}
TALON = ["8S", "7S"]


def game(**rules: Any) -> SwabianGame:
    return SwabianGame.model_validate(
        {"game_id": "t", "variant": "swabian", "players": ["Anna", "Bert", "Cora"], "rules": rules}
    )


def anna_runs_everything() -> list[list[str]]:
    """Anna leads her hearts, then Laub Daus and König; the others follow or throw."""
    play = []
    for k, h in enumerate(HEARTS):
        play += [["Anna", h], ["Bert", CLUBS[k]], ["Cora", DIAMONDS[k]]]
    play += [["Anna", "AS"], ["Bert", "QS"], ["Cora", "TS"]]
    play += [["Anna", "KS"], ["Bert", "JS"], ["Cora", "9S"]]
    return play


def deal(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game_id": "t",
        "deal_no": 1,
        "dealer": "Cora",
        "hands": HANDS,
        "talon": TALON,
        "auction": [
            {"player": "Anna", "call": "4"},
            {"player": "Bert", "call": "pass"},
            {"player": "Cora", "call": "pass"},
        ],
        "declarer": "Anna",
        "discard": TALON,
        "contract": "4",
        "play": anna_runs_everything(),
        "tricks": {"Anna": 10, "Bert": 0, "Cora": 0},
    }
    base.update(over)
    return {k: v for k, v in base.items() if v is not None}


def problems(g: SwabianGame | None = None, **over: Any) -> list[tuple[Code, str]]:
    return [
        (p.code, p.message)
        for p in check_deal(g or game(), SwabianDeal.model_validate(deal(**over)))
    ]


def test_the_hand_made_deal_is_legal():
    assert problems() == []


def test_durchmarsch_won_over_all_ten_tricks():
    """3.1: Durchmarsch needs all ten tricks."""
    assert problems(contract="7") == []


def test_aus_den_haenden_plays_without_the_talon():
    """3.2: the talon is set aside; no discard."""
    calls = [
        {"player": "Anna", "call": "hand4"},
        {"player": "Bert", "call": "pass"},
        {"player": "Cora", "call": "pass"},
    ]
    assert problems(auction=calls, hand=True, discard=None) == []
    code, msg = problems(auction=calls, discard=None)[0]
    assert code is Code.AUCTION and "aus den Händen" in msg


def test_deck_partition_names_cards_in_german():
    """2: hands and talon partition the 32 cards; records.md 1.2."""
    hands = dict(HANDS, Bert=["QH", *CLUBS[1:], "QS", "JS"])
    ((code, msg),) = problems(hands=hands, play=None, discard=None)
    assert code is Code.DECK and "Herz Ober" in msg


def test_a_card_outside_the_deck_is_named_not_a_crash():
    """2: the 32-card deck; a card of the 52 outside it (a 2) is named in the problem."""
    hands = dict(HANDS, Bert=["2C", *CLUBS[1:], "QS", "JS"])
    ((code, msg),) = problems(hands=hands, play=None, discard=None)
    assert code is Code.DECK and "2C" in msg


def test_must_follow_suit():
    """6: follow suit if able (Bert holds Laub Ober and throws an Eichel)."""
    play = anna_runs_everything()
    play[1], play[25] = ["Bert", "QS"], ["Bert", "AC"]  # trick 1: void in Herz, free
    ((code, msg),) = problems(play=play)
    assert code is Code.ILLEGAL_CARD
    assert "trick 9: Bert plays Eichel Daus but holds Laub" in msg and "must follow suit" in msg


def test_must_trump_when_void():
    """6: void in the led suit, a player must trump (3 Schellen: Cora must play a Schellen)."""
    play = anna_runs_everything()
    play[2] = ["Cora", "TS"]
    calls = [
        {"player": "Anna", "call": "3"},
        {"player": "Bert", "call": "pass"},
        {"player": "Cora", "call": "pass"},
    ]
    ((code, msg),) = problems(play=play, contract="3", auction=calls)
    assert code is Code.ILLEGAL_CARD
    assert "Cora plays Laub X" in msg and "must trump with Schellen" in msg


def test_no_obligation_to_beat():
    """6: a lower card of the suit may be played (Bert under-follows in Laub)."""
    play = anna_runs_everything()
    play[25], play[28] = ["Bert", "JS"], ["Bert", "QS"]
    assert problems(play=play) == []


def test_bettel_ends_at_the_declarers_first_trick():
    """6: Bettel ends as soon as the declarer takes a trick; the play must stop there."""
    calls = [
        {"player": "Anna", "call": "6"},
        {"player": "Bert", "call": "pass"},
        {"player": "Cora", "call": "pass"},
    ]
    ok = problems(
        auction=calls,
        contract="6",
        play=anna_runs_everything()[:3],
        tricks={"Anna": 1, "Bert": 0, "Cora": 0},
    )
    assert ok == []
    ((code, msg),) = problems(
        auction=calls,
        contract="6",
        play=anna_runs_everything()[:6],
        tricks={"Anna": 1, "Bert": 0, "Cora": 0},
    )
    assert code is Code.ILLEGAL_CARD and "Bettel ended at trick 1" in msg and "Herz König" in msg


def test_replay_must_give_the_recorded_tricks():
    """records.md 1.2: replaying the play gives exactly ``tricks``."""
    ((code, _),) = problems(tricks={"Anna": 9, "Bert": 1, "Cora": 0})
    assert code is Code.REPLAY_MISMATCH


def test_contract_not_below_the_winning_bid():
    """4: the game announced is the winning bid or a higher one."""
    assert problems(contract="5", play=None) == []
    ((code, msg),) = problems(contract="3", play=None)
    assert code is Code.CONTRACT_NOT_ALLOWED and "below the winning bid 4 Herz" in msg


def test_discard_must_come_from_hand_and_talon():
    """4: the winner takes the talon and discards two cards."""
    ((code, msg),) = problems(discard=["AD", "8S"], play=None)
    assert code is Code.DISCARD and "Schellen Daus" in msg


def test_kunstwerk_must_agree_with_the_talon():
    """4: Kunstwerk is an equal-rank talon."""
    ((code, msg),) = problems(kunstwerk=True)
    assert code is Code.DECK and "Laub VIII" in msg
    hands = dict(HANDS, Anna=[*HEARTS[:-1], "8S", "AS", "KS"])
    paired = {"hands": hands, "talon": ["7H", "7S"], "discard": ["7H", "7S"], "play": None}
    assert problems(kunstwerk=True, **paired) == []
    ((code, _),) = problems(**paired)
    assert code is Code.DECK


def test_auction_errors_are_reported():
    """3.2: only Vorhand may say "Das kann ich"."""
    calls = [
        {"player": "Anna", "call": "pass"},
        {"player": "Bert", "call": "2"},
        {"player": "Cora", "call": "3"},
        {"player": "Bert", "call": "hold"},
    ]
    ((code, msg),) = problems(auction=calls)
    assert code is Code.AUCTION and "only Vorhand" in msg


@pytest.mark.parametrize(
    ("over", "code", "text"),
    [
        ({"contra": {"Anna": "contra"}}, Code.ILLEGAL_DEFENCE, "cannot say Contra"),
        ({"tricks": {"Anna": 9, "Bert": 0, "Cora": 0}}, Code.TRICK_COUNT, "plays all 10"),
        ({"tricks": {"Anna": 10, "Bert": 0}}, Code.TRICK_COUNT, "all three"),
        (
            {"contract": "6", "tricks": {"Anna": 2, "Bert": 0, "Cora": 0}},
            Code.TRICK_COUNT,
            "Bettel",
        ),
        (
            {"contract": "7", "tricks": {"Anna": 3, "Bert": 1, "Cora": 1}},
            Code.TRICK_COUNT,
            "Durchmarsch",
        ),
        ({"dealer": "Dora"}, Code.UNKNOWN_PLAYER, "'Dora'"),
        ({"hand": True, "discard": None, "kunstwerk": True}, Code.ILLEGAL_CONTRACT, "kunstwerk"),
        ({"defence": {"Bert": "play"}}, Code.ILLEGAL_DEFENCE, "against both"),
    ],
)
def test_rule_level_problems(over: dict[str, Any], code: Code, text: str):
    """5 (contra is the defenders'), 3.1 and 6 (trick counts), records.md (names)."""
    found = problems(**over)
    assert found and found[0][0] is code and text in found[0][1]


def test_recontra_scope_all_contra_players():
    """10 ``recontra_scope``, 11 S3: with one Re-contra for all, levels cannot differ."""
    contra = {"Bert": "recontra", "Cora": "contra"}
    assert problems(contra=contra) == []
    ((code, _),) = problems(game(recontra_scope="all_contra_players"), contra=contra)
    assert code is Code.ILLEGAL_DEFENCE


def test_fixed_session_length():
    """10 ``session_end = fixed_deals``: a deal after the last is out of the game."""
    g = game(session_end="fixed_deals", session_deals=1)
    assert problems(g) == []
    ((code, _),) = problems(g, deal_no=2)
    assert code is Code.GAME_OVER


def test_schema_rejects_bad_records():
    """records.md 1.2: contract 2..7; no contract without a declarer; aus den Händen has no
    discard (3.2); three players (swabian.md 1); unknown fields are refused."""
    from pydantic import ValidationError

    bad = [
        deal(contract="8"),
        deal(declarer=None, auction=None, discard=None, play=None, tricks=None),
        deal(hand=True),
        deal(kontra={"Bert": 1}),
        deal(hands=dict(HANDS, Anna=["XX", *HANDS["Anna"][1:]])),
        deal(contract=None),
    ]
    for record in bad:
        with pytest.raises(ValidationError):
            SwabianDeal.model_validate(record)
    with pytest.raises(ValidationError, match="3 players"):
        SwabianGame.model_validate({"game_id": "t", "variant": "swabian", "players": ["A", "B"]})
    assert SwabianDeal.model_validate(deal(contract=4)).contract == "4"
