"""Deal checks: deck, auction vs contract, play legality, result with claims (bridge.md 1-3)."""

from __future__ import annotations

from model.bridge.check import check_deal, honours_held, seat_hands
from model.bridge.contracts import parse_contract
from model.problems import Code
from tests.model.bridge.deals import HANDS, deal, full_play, game

AUCTION_7S = [{"player": p, "call": c} for p, c in
              zip(("Nora", "Emil", "Sara", "Walt", "Nora", "Emil", "Sara"),
                  ("7S", "pass", "pass", "pass"), strict=False)]


def codes(problems: list) -> set[Code]:
    return {p.code for p in problems}


def test_full_deal_is_valid() -> None:
    d = deal(hands=HANDS, auction=AUCTION_7S, declarer="Nora", contract="7S", tricks=13,
             play=full_play(), score_ns=2210)
    # 7S NV made: 210 + 300 + 1000 = 1510; board 1 is not vulnerable.
    problems = check_deal(game(), d)
    assert [p.code for p in problems] == [Code.SCORE_MISMATCH]
    ok = deal(hands=HANDS, auction=AUCTION_7S, declarer="Nora", contract="7S", tricks=13,
              play=full_play(), score_ns=1510)
    assert check_deal(game(), ok) == []


def test_deck_must_be_partitioned() -> None:
    hands = dict(HANDS, Sara=[*HANDS["Sara"][:12], "AS"])
    problems = check_deal(game(), deal(hands=hands))
    assert codes(problems) == {Code.DECK}
    assert "repeat" in problems[0].message and "2D" in problems[0].message


def test_auction_must_end_in_the_recorded_contract_and_declarer() -> None:
    wrong = deal(auction=AUCTION_7S, declarer="Sara", contract="7S", tricks=13)
    assert "first of the side" in check_deal(game(), wrong)[0].message
    wrong = deal(auction=AUCTION_7S, declarer="Nora", contract="7SX", tricks=13)
    assert codes(check_deal(game(), wrong)) == {Code.CONTRACT_NOT_ALLOWED}


def test_opening_lead_from_declarers_left() -> None:
    # bridge.md 3: declarer N, so E leads; a lead by S is out of turn.
    play = [["Sara", "2D"], ["Walt", "2C"], ["Nora", "2S"], ["Emil", "AH"]]
    problems = check_deal(game(), deal(hands=HANDS, declarer="Nora", contract="7S", tricks=13,
                                       play=play))
    assert codes(problems) == {Code.ILLEGAL_CARD} and "left of declarer" in problems[0].message


def test_revoke_is_found() -> None:
    # bridge.md 3: follow suit if able. Give S a heart and let him discard a diamond on a heart.
    hands = dict(HANDS, Emil=[*HANDS["Emil"][:12], "2D"], Sara=[*HANDS["Sara"][:12], "2H"])
    play = [["Emil", "AH"], ["Sara", "3D"]]
    problems = check_deal(game(), deal(hands=hands, declarer="Nora", contract="7S", tricks=13,
                                       play=play))
    assert "revoke" in problems[0].message


def test_revoke_without_hands_is_seen_from_later_cards() -> None:
    play = [["Emil", "AH"], ["Sara", "3D"], ["Walt", "2C"], ["Nora", "2S"],
            ["Nora", "AS"], ["Emil", "KH"], ["Sara", "2H"]]
    problems = check_deal(game(), deal(declarer="Nora", contract="7S", tricks=13, play=play))
    assert "revoke" in problems[0].message


def test_replay_must_give_the_recorded_tricks() -> None:
    d = deal(hands=HANDS, declarer="Nora", contract="7S", tricks=12, play=full_play())
    problems = check_deal(game(), d)
    assert codes(problems) == {Code.REPLAY_MISMATCH} and "13 tricks" in problems[0].message


def test_claims() -> None:
    # After trick 1 (won by N) the rest is claimed: 1..13 possible, the claim must equal the result.
    play = full_play()[:4]
    ok = deal(hands=HANDS, declarer="Nora", contract="7S", tricks=13, play=play, claim=13)
    assert check_deal(game(), ok) == []
    bad = deal(hands=HANDS, declarer="Nora", contract="7S", tricks=12, play=play, claim=13)
    assert "claim of 13" in check_deal(game(), bad)[0].message
    impossible = deal(hands=HANDS, declarer="Nora", contract="7S", tricks=0, play=play)
    assert "must lie in 1..13" in check_deal(game(), impossible)[0].message


def test_unknown_player() -> None:
    problems = check_deal(game(), deal(dealer="Zed"))
    assert codes(problems) == {Code.UNKNOWN_PLAYER}


def test_honours() -> None:
    # bridge.md 4.6 / 8.3 H1-H3.
    hands = seat_hands(game(), deal(hands=HANDS))
    assert hands is not None
    assert honours_held(hands, parse_contract("4S")) == {0: 150}
    assert honours_held(hands, parse_contract("4H")) == {1: 150}
    assert honours_held(hands, parse_contract("3NT")) == {}
    d = deal(hands=HANDS, declarer="Nora", contract="7S", tricks=13, honours={"Nora": 100})
    assert codes(check_deal(game(), d)) == {Code.REPLAY_MISMATCH}
