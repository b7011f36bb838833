"""Every simulated deal is a complete canonical record that passes its variant's validation, and
the rows the simulator writes are those ingest would derive from the same record
(records.md 1.2 and 2; greek-prefa.md 3-7; swabian.md 2-6)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from model.identity import canonical_json, deal_key
from model.variants import variant as lookup
from tests.sim.helpers import records, simulate_lines

GREEK_RULES: list[dict[str, Any]] = [
    {},
    {"all_pass": "play_low", "must_overtrump_when_void": True},
    {"four_aces": "raise_value", "ten_nt": "value_11", "jump_bids": True},
    {"preliminary_bid": False, "hold_rule": "seat_priority", "ten_as_nine": True},
    {"four_aces": "fixed_chips", "concede_any_contract": True, "initial_kassa": 20},
    {"four_players": True, "all_pass": "play_low"},
    {"first_bidder_by_7d": True, "counter_invitation": True},
    {"four_players": True, "first_bidder_by_7d": True, "counter_invitation": True},
]
BALKAN_RULES: list[dict[str, Any]] = [
    {},
    {"preset": "serbian-club"},
    {"four_players": True, "preferans_bid": True, "here_rule": "alternating", "jump_bids": True},
    {"here_rule": "first_bidder_privilege", "sans_lead": "through_declarer"},
]
SWABIAN_RULES: list[dict[str, Any]] = [
    {},
    {"vorhand_must_bid": True, "jump_bids": False},
    {"recontra_scope": "all_contra_players", "hold_only_vorhand": False},
    {"kunstwerk_on_hand_game": True},
]


def _check(variant: str, rules: dict[str, Any], games: int, deals: int) -> Counter[str]:
    v = lookup(variant)
    batch = simulate_lines(variant, games, deals, seed=11, rules=rules)
    seen: Counter[str] = Counter()
    n = 0
    for i, game, deal in records(variant, batch):
        problems = v.check_deal(game, deal)
        assert problems == [], (problems, batch.deals["record"][i])
        flat = {k: batch.flat[k][i] for k in batch.flat}
        assert flat == v.deal_row(game, deal)
        text = canonical_json(deal)
        assert text == batch.deals["record"][i]
        assert deal_key(deal.game_id, text) == batch.deals["deal_key"][i]
        seen[str(flat.get("mode", flat.get("game", flat.get("level"))))] += 1
        if flat.get("hand") or flat.get("igra"):
            seen["hand game"] += 1
        assert deal.hands is not None and deal.auction
        n += 1
    assert n == games * deals
    return seen


def test_greek_default_rules_thousands_of_deals() -> None:
    # greek-prefa.md 3-7: 3,000 deals with the default rules, every mode of 6.1 occurs
    seen = _check("greek-prefa", {}, 300, 10)
    assert {"none", "pass", "both", "invite", "alone", "concede"} <= set(seen)


@pytest.mark.parametrize("rules", GREEK_RULES[1:], ids=lambda r: ",".join(r) or "default")
def test_greek_house_rules(rules: dict[str, Any]) -> None:
    # greek-prefa.md 14: each option is simulated legally
    _check("greek-prefa", rules, 60, 10)


def test_swabian_default_rules_thousands_of_deals() -> None:
    # swabian.md 3-6: 2,000 deals, suit games and Bettel occur
    seen = _check("swabian", {}, 200, 10)
    assert {"2", "3", "4", "5", "6"} & set(seen)
    assert "6" in seen
    assert seen["hand game"] > 0  # aus den Händen (3.2)


@pytest.mark.parametrize("rules", SWABIAN_RULES[1:], ids=lambda r: ",".join(r))
def test_swabian_house_rules(rules: dict[str, Any]) -> None:
    # swabian.md 10
    _check("swabian", rules, 60, 10)


def test_game_lines_are_canonical() -> None:
    # records.md 1.1: the games row holds the canonical game record
    from model.greek.records import GreekGame

    batch = simulate_lines("greek-prefa", 2, 1, rules={"four_aces": "raise_value"})
    game = GreekGame.model_validate_json(batch.lines[0])
    assert canonical_json(game) == batch.games["record"][0]
    assert game.rules.four_aces == "raise_value"


def test_balkan_default_rules_thousands_of_deals() -> None:
    # balkan.md 3-6: 2,000 deals; defences, the unkontra'd Pik and Betl occur
    seen = _check("balkan", {}, 200, 10)
    assert {"none", "pass", "nokontra", "both", "invite"} <= set(seen)
    assert seen["hand game"] > 0  # igra (3.1-3.2)


def test_balkan_igra_naming() -> None:
    # balkan.md 3.2 rule 4: several plain igra calls, then the callers name their games
    batch = simulate_lines("balkan", 600, 10, seed=12)
    named = [r for r in batch.deals["record"] if '"call":"G' in r]
    assert named
    v = lookup("balkan")
    for i, game, deal in records("balkan", batch):
        if '"call":"G' in batch.deals["record"][i]:
            assert v.check_deal(game, deal) == []


@pytest.mark.parametrize("variant", ["bridge-rubber", "bridge-duplicate"])
def test_bridge_records(variant: str) -> None:
    # bridge.md 2-3, records.md 1.2: auction, contract, declarer, the 52 cards and the declaring
    # side's tricks pass the bridge checks; passed-out deals and several levels occur
    seen = _check(variant, {}, 60, 16)
    assert "None" in seen and len(seen) >= 6


@pytest.mark.parametrize("rules", BALKAN_RULES[1:], ids=lambda r: ",".join(r))
def test_balkan_house_rules(rules: dict[str, Any]) -> None:
    # balkan.md presets and options
    _check("balkan", rules, 60, 10)
