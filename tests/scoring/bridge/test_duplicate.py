"""Duplicate scoring (Law 77) against the spec's worked examples and against endplay."""

from __future__ import annotations

import json

import pytest

from model.bridge.contracts import DENOMS, Contract, parse_contract
from model.bridge.params import BridgeRules
from model.bridge.score import duplicate_score, duplicate_score_ns
from tests.conftest import SPEC


def spec_examples() -> list[dict[str, object]]:
    lines = (SPEC / "bridge.md").read_text().splitlines()
    return [json.loads(x) for x in lines if x.startswith('{"id": "D')]


@pytest.mark.parametrize("case", spec_examples(), ids=lambda c: f"bridge.md-8.1-{c['id']}")
def test_spec_worked_examples(case: dict) -> None:
    c = parse_contract(f"{case['level']}{case['denom']}{case['doubled']}")
    assert duplicate_score(c, case["tricks"], case["vulnerable"]) == case["declarer_side_score"]


def test_spec_has_all_25_examples() -> None:
    assert len(spec_examples()) == 25


def test_ns_sign_and_passed_out() -> None:
    # bridge.md 6: passed out scores 0; EW declarer's score is NS's loss.
    assert duplicate_score_ns(None, None, None, "All") == 0
    assert duplicate_score_ns(parse_contract("4S"), 1, 10, "EW") == -620
    assert duplicate_score_ns(parse_contract("4S"), 1, 10, "NS") == -420
    assert duplicate_score_ns(parse_contract("4S"), 2, 10, "NS") == 620


@pytest.mark.parametrize(
    ("contract", "vul", "tricks", "laws", "seed"),
    [
        # bridge.md 9: seed004 doubled overtricks 50 each, insult only with an overtrick,
        # +50 to the defenders of a defeated doubled contract on top of the undertricks.
        ("2HX", False, 9, 120 + 300 + 100 + 50, 120 + 300 + 50 + 50),
        ("2HX", False, 8, 470, 420),
        ("4SXX", True, 11, 480 + 500 + 400 + 100, 480 + 500 + 50 + 50),
        ("4SX", False, 7, -500, -550),
        ("4S", False, 7, -150, -150),
    ],
)
def test_seed004_profile(contract: str, vul: bool, tricks: int, laws: int, seed: int) -> None:
    c = parse_contract(contract)
    assert duplicate_score(c, tricks, vul) == laws
    assert duplicate_score(c, tricks, vul, BridgeRules(scoring_profile="seed004")) == seed


def test_equals_endplay_every_case() -> None:
    """Every level x denomination x doubling x vulnerability x declarer x tricks (issue 4)."""
    ep = pytest.importorskip("endplay.types")
    denom = {"C": ep.Denom.clubs, "D": ep.Denom.diamonds, "H": ep.Denom.hearts,
             "S": ep.Denom.spades, "NT": ep.Denom.nt}
    penalty = (ep.Penalty.passed, ep.Penalty.doubled, ep.Penalty.redoubled)
    vuls = {ep.Vul.none: "None", ep.Vul.ns: "NS", ep.Vul.ew: "EW", ep.Vul.both: "All"}
    players = (ep.Player.north, ep.Player.east, ep.Player.south, ep.Player.west)
    cases = 0
    wrong = []
    for level in range(1, 8):
        for d, name in enumerate(DENOMS):
            for doubled in range(3):
                c = Contract(level, d, doubled)
                for seat, player in enumerate(players):
                    for tricks in range(14):
                        theirs = ep.Contract(level=level, denom=denom[name], declarer=player,
                                             penalty=penalty[doubled], result=tricks - level - 6)
                        for vul, vul_name in vuls.items():
                            ours = duplicate_score_ns(c, seat, tricks, vul_name)
                            expect = theirs.score(vul) * (1 if seat % 2 == 0 else -1)
                            cases += 1
                            if ours != expect:
                                wrong.append((str(c), seat, tricks, vul_name, ours, expect))
    assert cases == 7 * 5 * 3 * 4 * 14 * 4
    assert wrong == []
