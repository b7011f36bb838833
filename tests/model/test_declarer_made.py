"""What "made" means for each Preference variant (``Variant.declarer_made``, asked by the review
of decisions), from the rules: the contract's tricks or more; none in a misère game; all ten
where the game says so."""

from __future__ import annotations

import json

import polars as pl
import pytest

from model.variants import variant
from sim.drivers import PREFERENCE
from tests.ingest.test_columnar import simulated

CASES = [
    # Greek Prefa (greek-prefa.md 5): a contract of n tricks is made with n or more
    ("greek-prefa", {"contract": "7S"}, 7, True),
    ("greek-prefa", {"contract": "7S"}, 6, False),
    ("greek-prefa", {"contract": "10NT"}, 10, True),
    # Balkan (balkan.md 4, 6): six tricks; Betl (6) none; Preferans (8) all ten
    ("balkan", {"contract": "2"}, 6, True),
    ("balkan", {"contract": "2"}, 5, False),
    ("balkan", {"contract": "6"}, 0, True),
    ("balkan", {"contract": "6"}, 1, False),
    ("balkan", {"contract": "8"}, 9, False),
    ("balkan", {"contract": "8"}, 10, True),
    # Swabian (swabian.md 3.1, 3.2): 7 in game 2, 6 in 3-5, one more aus den Händen
    ("swabian", {"contract": "2"}, 7, True),
    ("swabian", {"contract": "2"}, 6, False),
    ("swabian", {"contract": "3"}, 6, True),
    ("swabian", {"contract": "3", "hand": True}, 6, False),
    ("swabian", {"contract": "3", "hand": True}, 7, True),
    ("swabian", {"contract": "6"}, 0, True),
    ("swabian", {"contract": "7"}, 9, False),
]


@pytest.mark.parametrize(("name", "deal", "tricks", "made"), CASES)
def test_declarer_made_follows_the_rules(name: str, deal: dict[str, object], tricks: int,
                                         made: bool) -> None:
    declarer_made = variant(name).declarer_made
    assert declarer_made is not None
    assert declarer_made(deal, tricks) is made


def test_a_swabian_game_from_the_hands_is_named_as_its_own_contract() -> None:
    """swabian.md 3.2: aus den Händen is a contract of its own (one trick more), so the balance
    studies' contracts (``Variant.contract_code`` in ``call_words``) tell it from the same
    game, and name the game with its number, as Contracts does (not ``Schellen``)."""
    v = variant("swabian")
    frame = pl.DataFrame({"game": [3, 3, 6], "hand": [False, True, True]})
    codes = frame.select(v.contract_code).to_series().to_list()
    assert [v.call_words(c) for c in codes] == [
        "3 Schellen", "3 Schellen from the hands", "6 Bettel from the hands"]


def test_a_balkan_contract_is_named_with_its_number_as_the_players_say_it() -> None:
    """balkan.md 1, 3.1: a bid is a number read with its game's name (6: 6 Betl), and the hand
    game naming it is igra 6 Betl; the balance studies' contract (``Variant.contract_code``)
    is the deal's contract code, which ``call_words`` writes as Contracts does."""
    v = variant("balkan")
    numbers = list(range(2, 9))
    frame = pl.DataFrame({"number": numbers * 2, "igra": [False] * 7 + [True] * 7})
    codes = frame.select(v.contract_code).to_series().to_list()
    assert codes == [str(n) for n in numbers] + [f"G{n}" for n in numbers]
    assert v.call_words(codes[4]) == "6 Betl" and v.call_words(codes[11]) == "igra 6 Betl"


@pytest.mark.parametrize("name", PREFERENCE)
def test_a_study_s_contract_is_the_call_its_record_names(name: str) -> None:
    """``Variant.contract_code`` over a deal's row is ``Variant.contract_call`` of its record
    (the code the Contracts page writes in ``call_words``), on every simulated deal."""
    v = variant(name)
    game_lines, deal_lines = simulated(name)
    games = {g.game_id: g for g in map(v.game_model.model_validate_json, game_lines)}
    deals = [v.deal_model.model_validate_json(t) for t in deal_lines]
    rows = pl.DataFrame([v.deal_row(games[d.game_id], d) for d in deals], schema=v.frame_schema,
                        orient="row")
    codes = rows.select(v.contract_code).to_series().to_list()
    assert codes == [v.contract_call(json.loads(t)) for t in deal_lines]
    assert any(codes)
