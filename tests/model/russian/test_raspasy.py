"""Runs of raspasy (russian.md 7): progression, what ends a run, the exit after a run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from model.identity import canonical_json
from model.problems import Code
from model.russian.params import RussianRules
from model.russian.raspasy import RaspasyDeal, check_game, exit_binds, level
from model.russian.records import RussianDeal, RussianGame
from sim.run import Plan, simulate

ABC = ["A", "B", "C"]
RASPASY = {"dealer": "C", "tricks": {"A": 3, "B": 3, "C": 4}}


def contract(c: str, whist: bool = True) -> dict[str, Any]:
    if c == "misere":
        return {"dealer": "C", "declarer": "A", "contract": c,
                "tricks": {"A": 0, "B": 5, "C": 5}}
    level_ = int(c[:-1])
    return {"dealer": "C", "declarer": "A", "contract": c,
            "defence": {"B": "whist" if whist else "pass", "C": "pass"},
            **({"tricks": {"A": level_, "B": 10 - level_, "C": 0}} if whist else {})}


def problems(exit_: str, records: list[dict[str, Any]]) -> list[int]:
    g = RussianGame.model_validate({"game_id": "g", "variant": "russian", "players": ABC,
                                    "rules": {"raspasy_exit": exit_}})
    deals = [RussianDeal.model_validate({"game_id": "g", "deal_no": k, **r})
             for k, r in enumerate(records, 1)]
    found = check_game(g, deals)
    assert all(p.code == Code.ILLEGAL_CONTRACT for _, p in found)
    stored = [RaspasyDeal.model_validate_json(canonical_json(d)) for d in deals]
    assert check_game(g, stored) == found  # as ingest reads stored deals (their records)
    return [no for no, _ in found]


@pytest.mark.parametrize(("progression", "levels"),
                         [("1,2,3cap", [1, 2, 3, 3, 3]), ("1,2,4", [1, 2, 4, 4, 4]),
                          ("none", [1, 1, 1, 1, 1])])
def test_progression(progression: str, levels: list[int]):
    rules = RussianRules(raspasy_progression=progression)
    assert [level(rules, run) for run in range(5)] == levels


def test_free_exit():
    assert problems("free", [RASPASY, RASPASY, contract("6S")]) == []


def test_hard_exit_at_seven():
    """Leningrad's mandatory hard exit (7, suggested level 7): 6S after a raspasy is not allowed,
    7S and misère are."""
    assert problems("7-7-7", [RASPASY, contract("6S")]) == [2]
    assert problems("7-7-7", [RASPASY, contract("7S"), contract("6S")]) == []
    assert problems("7-7-7", [RASPASY, contract("misere"), contract("6S")]) == []


def test_six_seven_seven_and_a_contract_nobody_whisted_keeps_the_run():
    """6-7-7: six after one raspasy, seven after two. A contract both defenders passed is not
    played, so the run goes on (7 reset: played contract or misère)."""
    assert problems("6-7-7", [RASPASY, contract("6S")]) == []
    assert problems("6-7-7", [RASPASY, RASPASY, contract("6S")]) == [3]
    assert problems("6-7-7", [RASPASY, contract("6S", whist=False), RASPASY,
                              contract("6S")]) == [4]


def test_a_stored_record_read_for_the_rule_says_what_the_deal_says(tmp_path: Path) -> None:
    """``RaspasyDeal`` (the fields ``check_game`` reads of a stored record, 7) reads from each
    simulated deal's record the values the deal model reads, and the rule says the same of a
    game's deals read either way."""
    path = tmp_path / "r.jsonl"
    simulate(Plan("russian", 6, 12, seed=3), out=path, workers=1)
    games: dict[str, tuple[RussianGame, list[RussianDeal], list[RaspasyDeal]]] = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if record["record"] == "game":
            games[record["game_id"]] = (RussianGame.model_validate(record), [], [])
            continue
        full, light = RussianDeal.model_validate_json(line), RaspasyDeal.model_validate_json(line)
        assert {f: getattr(full, f) for f in RaspasyDeal.model_fields} == light.model_dump()
        games[full.game_id][1].append(full)
        games[full.game_id][2].append(light)
    assert any(d.declarer is None for _, deals, _ in games.values() for d in deals)
    for game, full_deals, light_deals in games.values():
        assert check_game(game, light_deals) == check_game(game, full_deals)


DEALS = st.lists(st.sampled_from(
    [RASPASY, contract("misere"), *(contract(f"{n}{s}", whist)
                                    for n in (6, 7, 8) for s in "SH" for whist in (True, False))]),
    max_size=8)


@given(exit_=st.sampled_from(["free", "6-7-7", "7-7-7"]),
       progression=st.sampled_from(["1,2,3cap", "1,2,4", "none"]),
       reset=st.sampled_from(["played", "any_contract"]), records=DEALS)
def test_ingest_skips_the_check_only_where_it_can_find_nothing(
        exit_: str, progression: str, reset: str, records: list[dict[str, Any]]) -> None:
    """``exit_binds`` (``Variant.checks_game``: ingest reads a game's deals for the rule only
    where it is true) is false only where :func:`check_game` finds nothing in any deals (7: the
    free exit is 6, the lowest contract), and true for the hard exits."""
    g = RussianGame.model_validate({"game_id": "g", "variant": "russian", "players": ABC,
                                    "rules": {"raspasy_exit": exit_,
                                              "raspasy_progression": progression,
                                              "raspasy_reset": reset}})
    deals = [RussianDeal.model_validate({"game_id": "g", "deal_no": k, **r})
             for k, r in enumerate(records, 1)]
    assert exit_binds(g) == (exit_ != "free")
    assert exit_binds(g) or check_game(g, deals) == []
