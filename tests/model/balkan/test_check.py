"""check_deal: rules (balkan.md 4-6), cards, and the random-play simulation (STYLE.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from model.balkan.check import check_deal, first_leader
from model.balkan.contracts import ContractError, parse_contract, trick_domain_ok
from model.balkan.params import BalkanRules, UnknownPreset
from model.balkan.records import BalkanDeal, BalkanGame
from model.problems import Code
from sim.random_play.balkan import random_deal

GAME = BalkanGame(variant="balkan", game_id="g", players=["A", "B", "C"])


def deal(**kw: Any) -> BalkanDeal:
    base: dict[str, Any] = {"game_id": "g", "deal_no": 1, "dealer": "C"}
    return BalkanDeal.model_validate(base | kw)


def codes(d: BalkanDeal, game: BalkanGame = GAME) -> list[Code]:
    return [p.code for p in check_deal(game, d)]


def test_contract_grammar() -> None:  # records.md 1.2: 2..7, 8 with preferans, G = igra
    assert parse_contract("G4").igra and parse_contract("4").number == 4
    with pytest.raises(ContractError):
        parse_contract("9")
    with pytest.raises(ContractError, match="preferans_bid"):
        parse_contract("8", BalkanRules())
    assert parse_contract("G8", BalkanRules(preferans_bid=True)).number == 8


def test_valid_score_sheet_deal() -> None:  # balkan.md 8 B1
    d = deal(declarer="A", contract="4", defence={"B": "play", "C": "play"},
             tricks={"A": 6, "B": 3, "C": 1})
    assert codes(d) == []


@pytest.mark.parametrize(
    ("number", "d", "x", "ok"),
    [(4, 6, 4, True), (4, 5, 5, True), (4, 5, 4, False), (4, 4, 6, False),
     (6, 0, 10, True), (6, 1, 3, True), (6, 2, 3, False), (8, 10, 0, True), (8, 9, 1, True)],
)
def test_trick_domain(number: int, d: int, x: int, ok: bool) -> None:  # balkan.md 6
    assert trick_domain_ok(number, d, x) is ok


def test_play_stops_at_the_fifth_defence_trick() -> None:  # balkan.md 6 [seed 002]
    d = deal(declarer="A", contract="4", defence={"B": "play", "C": "play"},
             tricks={"A": 4, "B": 3, "C": 3})
    assert codes(d) == [Code.TRICK_COUNT]


def test_bettel_both_must_play() -> None:  # balkan.md 4, 5.1
    d = deal(declarer="A", contract="6", defence={"B": "alone", "C": "pass"},
             tricks={"A": 0, "B": 10})
    assert Code.ILLEGAL_DEFENCE in codes(d)


def test_kontra_by_lone_defender_is_an_invitation() -> None:  # balkan.md 5.3
    d = deal(declarer="A", contract="4", defence={"B": "alone", "C": "pass"}, kontra={"B": 1},
             tricks={"A": 6, "B": 4})
    assert Code.ILLEGAL_DEFENCE in codes(d)


def test_kontra_chain_limit() -> None:  # balkan.md 9 kontra_max_level
    game = GAME.model_copy(update={"rules": BalkanRules(kontra_max_level=2)})
    d = deal(declarer="A", contract="4", defence={"B": "play", "C": "play"}, kontra={"B": 3},
             tricks={"A": 6, "B": 2, "C": 2})
    assert codes(d, game) == [Code.ILLEGAL_DEFENCE]
    assert codes(d) == []


def test_pik_without_kontra_is_not_played() -> None:  # balkan.md 5.3, 8 B11
    d = deal(declarer="A", contract="2", defence={"B": "play", "C": "play"})
    assert codes(d) == []
    game = GAME.model_copy(update={"rules": BalkanRules(pik_needs_kontra=False)})
    assert codes(d, game) == [Code.TRICK_COUNT]


def test_defence_names_the_defenders() -> None:
    d = deal(declarer="A", contract="4", defence={"A": "play", "C": "play"},
             tricks={"A": 6, "B": 2, "C": 2})
    assert codes(d) == [Code.ILLEGAL_DEFENCE]
    assert codes(deal(declarer="Z", contract="4", defence={})) == [Code.UNKNOWN_PLAYER]


def test_a_stranger_is_named_beside_the_game_s_players() -> None:
    """A name the game does not seat is said as the other variants say it, not as a Python
    list (``not players of the game: ['Nobody']``)."""
    (problem,) = check_deal(GAME, deal(dealer="Nobody"))
    assert problem.message == f"'Nobody' is not a player of this game ({', '.join(GAME.players)})"
    (problem,) = check_deal(GAME, deal(dealer="Nobody", declarer="Z", contract="4",
                                       defence={}))
    assert problem.message.startswith("'Nobody', 'Z' are not players of this game (")


def test_first_lead_rules() -> None:  # balkan.md 6 (first hand, Sanac, sans_lead)
    active = ["A", "B", "C"]  # dealer C: A is first hand
    seed = BalkanRules()
    assert first_leader(active, "B", 4, active, seed) == "A"
    assert first_leader(active, "A", 7, active, seed) == "B"  # declarer may not lead Sanac
    assert first_leader(active, "B", 4, ["B", "C"], seed) == "B"  # A passed, sits out
    club = BalkanRules(sans_lead="through_declarer")
    assert first_leader(active, "A", 7, active, club) == "C"  # player before the declarer


def test_presets() -> None:  # balkan.md 9; docs/balkan.md
    club = BalkanRules.preset("serbian-club")
    assert (club.value_scale, club.direction, club.kontra_scope) == (
        2, "counterclockwise", "whole_hand")
    assert BalkanRules.preset("seed") == BalkanRules()
    with pytest.raises(UnknownPreset, match="nope"):
        BalkanRules.preset("nope")
    g = BalkanGame.model_validate({"variant": "balkan", "game_id": "x", "players": ["a", "b", "c"],
                                   "rules": {"preset": "serbian-club", "start_bula": 100}})
    assert g.rules.start_bula == 100 and g.rules.value_scale == 2


def _full(seed: int, rules: dict[str, Any]) -> tuple[BalkanGame, BalkanDeal]:
    game = BalkanGame(variant="balkan", game_id="g", players=["A", "B", "C"], rules=rules)
    rng = random.Random(seed)
    while True:
        d = random_deal(rng, game, 1, "C")
        if d.play:
            return game, d


def test_cards_impossible_trick() -> None:  # records.md 1.2: every card played is legal
    game, d = _full(1, {})
    play = [list(x) for x in d.play or ()]
    play[0], play[1] = play[1], play[0]  # out of turn
    bad = d.model_copy(update={"play": tuple(tuple(x) for x in play)})
    assert Code.ILLEGAL_CARD in codes(bad, game)


def test_cards_wrong_count_and_discard() -> None:
    game, d = _full(2, {})
    hands = dict(d.hands or {})
    first = next(iter(hands))
    hands[first] = hands[first][:-1]
    assert codes(d.model_copy(update={"hands": hands}), game) == [Code.DECK]
    if d.discard:
        other = next(c for p, h in (d.hands or {}).items() if p != d.declarer for c in h)
        bad = d.model_copy(update={"discard": (d.discard[0], other)})
        assert Code.DISCARD in codes(bad, game)


def test_replay_must_give_the_recorded_tricks() -> None:
    game, d = _full(3, {})
    tricks = dict(d.tricks or {})
    a, b = list(tricks)[:2]
    if tricks[a] > 0:
        tricks[a] -= 1
        tricks[b] += 1
        assert Code.REPLAY_MISMATCH in codes(d.model_copy(update={"tricks": tricks}), game) or \
            Code.TRICK_COUNT in codes(d.model_copy(update={"tricks": tricks}), game)


RULE_SETS = [{}, {"preset": "serbian-club"}, {"preset": "preferansklub"},
             {"jump_bids": True, "preferans_bid": True}, {"here_rule": "first_bidder_privilege"}]


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULE_SETS))
def test_random_play_survives_check(seed: int, rules: dict[str, Any]) -> None:
    """Random legal deals (auction, talon, defence, kontra, play) pass check_deal (STYLE.md)."""
    game = BalkanGame(variant="balkan", game_id="g", players=["A", "B", "C"], rules=rules)
    rng = random.Random(seed)
    for no in range(1, 11):
        d = random_deal(rng, game, no, "ABC"[no % 3])
        assert check_deal(game, d) == [], d.model_dump(exclude_none=True)
