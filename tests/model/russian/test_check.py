"""Rule- and card-level checks of Russian deals (russian.md 1-4, records.md 1.2).

Real deals: the seven études of ``../shared/data/preferanser-deals`` (hands, talon, contract and
first lead as published) and the full misère play of ``preferans-dd-checks/kovalevskaya-misere``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from model.problems import Code
from model.russian.check import check_deal
from model.russian.records import RussianDeal, RussianGame

DATA = Path("../shared/data")
SEATS = ["EAST", "SOUTH", "WEST"]  # clockwise (preferanser-deals: East -> South -> West)
RANK = {"ACE": "A", "KING": "K", "QUEEN": "Q", "JACK": "J", "10": "T", "9": "9", "8": "8",
        "7": "7"}
LEVEL = {"SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9, "TEN": 10}
STRAIN = {"SPADE": "S", "CLUB": "C", "DIAMOND": "D", "HEART": "H"}


def card(name: str) -> str:
    suit, rank = name.split("_")
    return RANK[rank] + STRAIN[suit]


def game(players: list[str] = SEATS, **rules: Any) -> RussianGame:
    return RussianGame.model_validate({"game_id": "g", "variant": "russian", "players": players,
                                       "rules": rules})


def deal(**fields: Any) -> RussianDeal:
    return RussianDeal.model_validate({"game_id": "g", "deal_no": 1, **fields})


def codes(g: RussianGame, d: RussianDeal) -> list[Code]:
    return [p.code for p in check_deal(g, d)]


def etude(number: int) -> dict[str, Any]:
    """An étude as a record: first hand leads, so the seat before him deals; the declarer takes
    the widow and lays it away again (the published hands are the playing hands)."""
    raw = json.loads((DATA / f"preferanser-deals/{number}.json").read_text())
    said = {s: raw[f"{s.lower()}Contract"] for s in SEATS}
    decl = next(s for s, c in said.items() if c not in ("WHIST", "PASS"))
    talon = [card(raw["widow"]["card1"]), card(raw["widow"]["card2"])]
    rec: dict[str, Any] = {
        "dealer": SEATS[SEATS.index(raw["firstTurn"]) - 1], "declarer": decl,
        "hands": {s: [card(c) for c in raw[f"{s.lower()}Cards"]] for s in SEATS},
        "talon": talon, "discard": talon,
    }
    others = [s for s in SEATS if s != decl]
    if said[decl] == "MISER":
        rec.update(contract="misere", tricks={decl: 0, others[0]: 5, others[1]: 5})
    else:
        level, suit = said[decl].split("_")
        rec.update(contract=f"{LEVEL[level]}{STRAIN[suit]}",
                   defence={s: said[s].lower() for s in others},
                   tricks={decl: LEVEL[level], others[0]: 10 - LEVEL[level], others[1]: 0})
    return rec


@pytest.mark.parametrize("number", range(1, 8))
def test_the_etudes_are_legal_deals(number: int):
    """Each étude's hands and widow partition the 32-card deck; contract and defence are legal."""
    assert check_deal(game(), deal(**etude(number))) == []


def kovalevskaya() -> dict[str, Any]:
    """Version A with the collector's optimal line: South's misère caught for one trick."""
    raw = json.loads((DATA / "preferans-dd-checks/kovalevskaya-misere.json").read_text())
    a = raw["version_A"]
    play = [[c["seat"], c["card"]] for t in a["one_optimal_line"]["tricks"] for c in t["cards"]]
    return {"dealer": "WEST", "declarer": "SOUTH", "contract": "misere",
            "hands": a["hands"], "talon": a["talon"], "discard": a["talon"], "play": play,
            "tricks": {"EAST": 6, "SOUTH": 1, "WEST": 3},
            "auction": [{"player": "EAST", "call": "pass"}, {"player": "SOUTH", "call": "misere"},
                        {"player": "WEST", "call": "pass"}]}


def test_kovalevskaya_misere_replays_to_one_trick():
    """The published misère and a full optimal line (first hand East leads, 4): South takes
    trick 8 and nothing else; the replay gives exactly the recorded tricks."""
    assert check_deal(game(), deal(**kovalevskaya())) == []


def test_a_wrong_trick_count_is_a_replay_mismatch():
    rec = kovalevskaya() | {"tricks": {"EAST": 7, "SOUTH": 0, "WEST": 3}}
    assert codes(game(), deal(**rec)) == [Code.REPLAY_MISMATCH]


def test_a_revoke_is_an_illegal_card():
    """Trick 1 is East 10D, South 7D, West AD; West playing a heart while holding AD revokes."""
    rec = kovalevskaya()
    play = rec["play"]
    play[2], play[3] = ["WEST", "10H"], ["WEST", "AD"]
    problems = check_deal(game(), deal(**rec))
    assert [p.code for p in problems] == [Code.ILLEGAL_CARD]
    assert "must follow suit" in problems[0].message


def test_the_first_lead_is_first_hands():
    """4: first hand (dealer's left) leads in every deal; with South dealing West leads."""
    rec = kovalevskaya() | {"dealer": "SOUTH"}
    rec["auction"] = [{"player": "WEST", "call": "pass"}, {"player": "EAST", "call": "pass"},
                      {"player": "SOUTH", "call": "misere"}]
    assert codes(game(), deal(**rec)) == [Code.ILLEGAL_CARD]


@pytest.mark.parametrize(
    ("calls", "problem"),
    [
        (["6S", "6C", "pass", "misere"], "after his first call"),
        (["7S", "6H"], "must outrank"),
        (["pass", "6S"], "out of turn"),
        (["misere", "8NT"], "must outrank"),
    ],
)
def test_illegal_auctions(calls: list[str], problem: str):
    """2: misère only as a first call and ranked between 8NT and 9S; every bid outranks the last;
    the turn goes round the players still in."""
    order = ["EAST", "SOUTH", "WEST", "EAST"] if calls[0] != "pass" else ["EAST", "EAST"]
    rec = kovalevskaya() | {"auction": [{"player": p, "call": c}
                                        for p, c in zip(order, calls, strict=False)]}
    problems = check_deal(game(), deal(**rec))
    assert problems and problems[0].code == Code.AUCTION and problem in problems[0].message


def test_nine_spades_outbids_misere_and_the_contract_may_not_go_below_the_bid():
    """2: after a misère only 9S or higher; 3: the contract is not below the winning bid."""
    rec = etude(1)  # West declares 6S; South is first hand
    rec["auction"] = [{"player": "SOUTH", "call": "misere"}, {"player": "WEST", "call": "9S"},
                      {"player": "EAST", "call": "pass"}, {"player": "SOUTH", "call": "pass"}]
    assert codes(game(), deal(**rec)) == [Code.CONTRACT_NOT_ALLOWED]
    rec["contract"], rec["tricks"] = "9S", {"WEST": 9, "SOUTH": 1, "EAST": 0}
    assert check_deal(game(), deal(**rec)) == []


def test_raspasy_talon_lead():
    """4 (raspasy, Sochi): first hand leads the first two tricks in the suit of the turned-up talon
    card when he holds it; the winner of trick 2 leads trick 3."""
    hands = {"EAST": ["AS", "KS", "QS", "JS", "AC", "KC", "QC", "JC", "AD", "KD"],
             "SOUTH": ["TS", "9S", "8S", "7S", "TC", "9C", "8C", "7C", "QD", "JD"],
             "WEST": ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "TD", "9D"]}
    tricks = [("AD", "JD", "9D"), ("KD", "QD", "TD"), ("AS", "7S", "7H"), ("KS", "8S", "8H"),
              ("QS", "9S", "9H"), ("JS", "TS", "TH"), ("AC", "7C", "JH"), ("KC", "8C", "QH"),
              ("QC", "9C", "KH"), ("JC", "TC", "AH")]
    play = [[p, c] for t in tricks for p, c in zip(SEATS, t, strict=True)]
    rec = {"dealer": "WEST", "hands": hands, "talon": ["8D", "7D"], "play": play,
           "tricks": {"EAST": 10, "SOUTH": 0, "WEST": 0}}
    assert check_deal(game(), deal(**rec)) == []
    off_suit = [[p, c] for t in [tricks[2], tricks[0], tricks[1], *tricks[3:]]
                for p, c in zip(SEATS, t, strict=True)]
    problems = check_deal(game(), deal(**(rec | {"play": off_suit})))
    assert [p.code for p in problems] == [Code.ILLEGAL_CARD]
    assert "talon card" in problems[0].message
    free = check_deal(game(raspasy_talon_lead=False), deal(**(rec | {"play": off_suit})))
    assert free == []


@pytest.mark.parametrize(
    ("fields", "rules", "code"),
    [
        ({"contract": "8S", "defence": {"SOUTH": "pass", "WEST": "half"}}, {},
         Code.ILLEGAL_DEFENCE),
        ({"contract": "6S", "defence": {"SOUTH": "half", "WEST": "pass"}}, {},
         Code.ILLEGAL_DEFENCE),
        ({"contract": "6S", "defence": {"SOUTH": "pass", "WEST": "half"}}, {"half_whist": False},
         Code.ILLEGAL_DEFENCE),
        ({"contract": "6S", "defence": {"SOUTH": "whist", "WEST": "pass"},
          "tricks": {"EAST": 6, "SOUTH": 4, "WEST": 0}}, {"stalingrad": True},
         Code.ILLEGAL_DEFENCE),
        ({"contract": "10NT", "defence": {"SOUTH": "whist", "WEST": "pass"},
          "tricks": {"EAST": 10, "SOUTH": 0, "WEST": 0}}, {"ten_whisted": False},
         Code.ILLEGAL_DEFENCE),
        ({"contract": "6S", "defence": {"SOUTH": "whist", "WEST": "whist"}, "open": True,
          "tricks": {"EAST": 6, "SOUTH": 4, "WEST": 0}}, {},
         Code.ILLEGAL_DEFENCE),
        ({"contract": "6S", "defence": {"SOUTH": "pass", "WEST": "pass"},
          "tricks": {"EAST": 6, "SOUTH": 4, "WEST": 0}}, {}, Code.TRICK_COUNT),
        ({"contract": "6S", "defence": {"SOUTH": "whist", "WEST": "pass"}}, {}, Code.TRICK_COUNT),
        ({"contract": "6S", "defence": {"SOUTH": "whist", "WEST": "pass"},
          "tricks": {"EAST": 6, "SOUTH": 3, "WEST": 0}}, {}, Code.TRICK_COUNT),
        ({"contract": "6S", "defence": {"SOUTH": "whist", "NORTH": "pass"}}, {},
         Code.UNKNOWN_PLAYER),
    ],
)
def test_rule_problems(fields: dict[str, Any], rules: dict[str, Any], code: Code):
    """3: half-whist only by the second defender after a pass, on 6 and 7, when allowed;
    Stalingrad; 10 not whisted; open play needs one whister; play and tricks exactly when
    somebody whisted; ten tricks between the three; names are players."""
    d = deal(dealer="WEST", declarer="EAST", **fields)
    assert codes(game(**rules), d) == [code]


def test_four_players_the_dealer_sits_out():
    """1: with four players the dealer holds no cards, declares and defends nothing."""
    g = game(["A", "B", "C", "D"])
    ok = deal(dealer="D", declarer="A", contract="6S", defence={"B": "whist", "C": "pass"},
              tricks={"A": 6, "B": 3, "C": 1})
    assert check_deal(g, ok) == []
    bad = deal(dealer="D", declarer="A", contract="6S", defence={"B": "whist", "D": "pass"},
               tricks={"A": 6, "B": 3, "D": 1})
    assert {p.code for p in check_deal(g, bad)} == {Code.UNKNOWN_PLAYER}
    raspasy = deal(dealer="D", tricks={"A": 6, "B": 3, "C": 1})
    assert check_deal(g, raspasy) == []


@pytest.mark.parametrize(
    "fields",
    [
        {"contract": "5S"},
        {"contract": "misere", "defence": {"B": "whist", "C": "pass"}, "tricks": {"A": 0}},
        {"tricks": None},
        {"declarer": None, "contract": "6S", "tricks": {"A": 1}},
    ],
)
def test_schema_rejects(fields: dict[str, Any]):
    """records.md 1.2: the contract grammar; misère is not whisted; raspasy needs its tricks."""
    base: dict[str, Any] = {"dealer": "C", "declarer": "A", "contract": "6S",
                            "defence": {"B": "whist", "C": "pass"}, "tricks": {"A": 6}}
    if fields.get("tricks", 0) is None:
        base = {"dealer": "C"}
        fields = {}
    with pytest.raises(ValidationError):
        deal(**(base | fields))


@pytest.mark.parametrize("text", ["²S", "١٠NT", "10 NT", "11S", "5H", ""])
def test_a_contract_is_written_in_ascii_digits(text: str):
    """russian.md 2: ``6S`` ... ``10NT`` or misère; a digit of another script is no level (it
    used to raise a bare ``ValueError``, or read ``١٠NT`` as 10NT)."""
    from model.russian.contracts import ContractError, parse_contract

    with pytest.raises(ContractError, match="not a Russian contract"):
        parse_contract(text)
