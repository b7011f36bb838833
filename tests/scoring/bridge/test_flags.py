"""The bridge flags of ``model/bridge/params.py`` set one at a time, each against a score computed
by hand from ``../shared/spec/bridge.md`` 4.2-4.3, 5 and 9 (duplicate scores: trick score + game
or partscore bonus + doubled bonuses; docs/flags.md lists every flag and its test)."""

from __future__ import annotations

from model.bridge.contracts import parse_contract
from model.bridge.params import BridgeRules
from model.bridge.score import duplicate_score
from scoring.bridge.reference import RubberDeal, rubber_session


def score(contract: str, tricks: int, vulnerable: bool, **rules: object) -> int:
    return duplicate_score(parse_contract(contract), tricks, vulnerable, BridgeRules(**rules))


def test_doubled_overtrick_value() -> None:
    """4.2, 9: 2HX non-vulnerable making 9: 120 + 300 (game) + 50 (insult) + one overtrick,
    Laws 100 -> 570; ``doubled_overtrick_value = 150`` -> 620 (and redoubled, where the Laws give
    200 non-vulnerable, the flag's 150 too: 2HXX making 9 = 240 + 300 + 100 + 150 = 790)."""
    assert score("2HX", 9, False) == 570
    assert score("2HX", 9, False, doubled_overtrick_value=150) == 620
    assert score("2HXX", 9, False) == 840
    assert score("2HXX", 9, False, doubled_overtrick_value=150) == 790


def test_insult_requires_overtrick() -> None:
    """4.3, 9: 2HX non-vulnerable made exactly: 120 + 300 + 50 insult = 470 (Laws); with
    ``insult_requires_overtrick`` the 50 needs an overtrick: 420; with one it stays (570)."""
    assert score("2HX", 8, False) == 470
    assert score("2HX", 8, False, insult_requires_overtrick=True) == 420
    assert score("2HX", 9, False, insult_requires_overtrick=True) == 570


def test_insult_redoubled() -> None:
    """4.3, 9: 4SXX vulnerable made exactly: 480 + 500 (game) + 100 insult (Laws) = 1080;
    ``insult_redoubled = 25`` -> 1005; the doubled insult stays 50 (4SX: 240 + 500 + 50 = 790)."""
    assert score("4SXX", 10, True) == 1080
    assert score("4SXX", 10, True, insult_redoubled=25) == 1005
    assert score("4SX", 10, True, insult_redoubled=25) == 790


def test_seed004_defeat_bonus() -> None:
    """9 BR3: 4SX non-vulnerable three down: 100 + 200 + 200 = 500 to the defenders (Laws);
    ``seed004_defeat_bonus = 50`` adds 50 -> -550; undoubled contracts get nothing (-150)."""
    assert score("4SX", 7, False) == -500
    assert score("4SX", 7, False, seed004_defeat_bonus=50) == -550
    assert score("4S", 7, False, seed004_defeat_bonus=50) == -150


def test_incomplete_rubber_bonus() -> None:
    """5 (bridge.md 8.3 H4 shape): We made 3NT (one game), They 2NT (partscore 70), rubber
    unfinished: We +300, They +50 by default; ``incomplete_rubber_bonus = (500, 100)`` -> We +500,
    They +100."""
    deals = [RubberDeal(0, parse_contract("3NT"), 0, 9), RubberDeal(1, parse_contract("2NT"), 1, 8)]
    assert rubber_session(deals, BridgeRules(), "rubber")[1].above == (300, 50)
    custom = BridgeRules(incomplete_rubber_bonus=(500, 100))
    assert rubber_session(deals, custom, "rubber")[1].above == (500, 100)


def test_mode_overrides_the_variant() -> None:
    """10: ``mode`` ``None`` follows the variant (rubber for ``bridge-rubber``, duplicate for
    ``bridge-duplicate``); a value overrides it (the scores of each mode: test_rubber.py,
    test_duplicate.py, test_rubber.py::test_chicago_cycle)."""
    assert BridgeRules().mode_for("bridge-rubber") == "rubber"
    assert BridgeRules().mode_for("bridge-duplicate") == "duplicate"
    assert BridgeRules(mode="duplicate").mode_for("bridge-rubber") == "duplicate"
    assert BridgeRules(mode="chicago").mode_for("bridge-rubber") == "chicago"
