"""The prefadoros / prefatria worked examples (../shared/data/greek-prefadoros/, see the data README
section). That site keeps one common pot (greek-prefa.md 15). Settled with ``bookkeeping =
common_pot`` our chips are its per-player nets (``derived_net_kapikia``: kasa_i + metrita_i -
(sum of kasa)/3) exactly. Settled with the seed's personal kassas the columns differ, but the net
of player i, ``chips_i - 10*kassa_delta_i + 10*(sum of kassa_delta)/3`` (each player owns a third of
the pot: a kassa point written off is 10 chips lifted from the pot), is the same."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from tests.conftest import DATA
from tests.scoring.greek.builders import Deals, game
from tests.scoring.greek.paths import both

FILE = DATA / "greek-prefadoros" / "greek-prefadoros-examples.json"
SUITS = {"spades": "S", "clubs": "C", "diamonds": "D", "hearts": "H", "notrump": "NT"}


def examples() -> list[dict[str, Any]]:
    doc = json.loads(FILE.read_text(encoding="utf-8"))
    return [e for e in doc["examples"] if "derived_net_kapikia" in e and "tricks" in e]


def net(s: Any) -> dict[str, Fraction]:
    rows = s.settlements.to_dicts()
    pot = sum(Fraction(r["kassa_delta"]) for r in rows)
    return {
        r["player"]: Fraction(r["chips"]).limit_denominator(6)
        - 10 * r["kassa_delta"]
        + pot * 10 / 3
        for r in rows
    }


def chips(s: Any) -> dict[str, Fraction]:
    return {r["player"]: Fraction(r["chips"]).limit_denominator(6)
            for r in s.settlements.to_dicts()}


def records(e: dict[str, Any], **rules: Any) -> tuple[Any, Deals]:
    """Seats 1, 2, 3 in turn order (the first player after the declarer is his right, as
    prefadoros-code numbers them); role-named examples: declarer, first, second defender."""
    c = e["contract"]
    contract = f"{c['tricks_bid']}{SUITS[c['strain']]}"
    if "declarer_seat" in c:
        names = ["1", "2", "3"]
        declarer = str(c["declarer_seat"])
        tricks = {k: v for k, v in e["tricks"].items()}
        played = [k for k, v in e.get("defence", {}).items() if v == "played"]
    else:
        names = ["declarer", "first_defender", "second_defender"]
        declarer = "declarer"
        tricks = dict(e["tricks"])
        played = ["first_defender", "second_defender"]
    g = game(names, **rules)
    deals = Deals(g)
    others = [n for n in names if n != declarer]
    if len(played) == 2:
        defence = {p: "play" for p in others}
    else:
        defence = {p: ("alone" if p in played else "pass") for p in others}
        tricks = {k: v for k, v in tricks.items() if k == declarer or k in played}
    deals.add(declarer=declarer, contract=contract, defence=defence, tricks=tricks)
    return g, deals


@pytest.mark.parametrize("e", examples(), ids=[e["id"] for e in examples()])
def test_net_chips_match_prefadoros(e: dict[str, Any]) -> None:
    g, deals = records(e)
    s = both([g], deals.deals)
    want = {k: Fraction(v["exact"]) for k, v in e["derived_net_kapikia"].items()}
    assert net(s) == want


def test_all_tricks_examples_are_used() -> None:
    assert [e["id"] for e in examples()] == [
        "dianomi-ex1", "dianomi-ex2", "dianomi-ex3", "guide-6-hearts-made",
        "guide-7-hearts-declarer-in",
    ]


@pytest.mark.parametrize("e", examples(), ids=[e["id"] for e in examples()])
def test_common_pot_chips_are_prefadoros_nets(e: dict[str, Any]) -> None:
    """15 ``bookkeeping = common_pot``: the chips of the deal are the site's nets, e.g. dianomi-ex1
    (6H made, 6/3/1): the declarer lifts 50 from the pot and pays 15 + 5, 30 - 50/3 = 40/3."""
    g, deals = records(e, bookkeeping="common_pot")
    s = both([g], deals.deals)
    want = {k: Fraction(v["exact"]) for k, v in e["derived_net_kapikia"].items()}
    assert chips(s) == want
    pot = -sum(Fraction(v) for v in e["expected"]["kasa"].values()) / 10  # "kasa" = chips lifted
    assert set(s.settlements["kassa_delta"].to_list()) == {pot}
    assert set(s.settlements["kassa_after"].to_list()) == {3 * g.rules.initial_kassa + pot}


def last_contract(pot_end: str, t: tuple[int, int, int]) -> Any:
    """A pot of 12 points (initial_kassa 4, three players), a both-pass 10S leaves 2 (20 kapikia),
    then A plays 6H (v = 5) against B (R) and C (L) with tricks ``t``; the frames of deal 2."""
    g = game(["A", "B", "C"], initial_kassa=4, bookkeeping="common_pot", pot_end=pot_end)
    deals = Deals(g)
    deals.both_pass("A", "10S")
    deals.played("A", "6H", "both", t)
    return both([g], deals.deals)


def deal_two(s: Any) -> dict[str, Fraction]:
    rows = s.settlements.filter(s.settlements["deal_no"] == 2).to_dicts()
    return {r["player"]: Fraction(r["chips"]).limit_denominator(6) for r in rows}


@pytest.mark.parametrize("pot_end", ["normal", "unbalanced"])
def test_last_contract_made_is_paid_from_what_is_left(pot_end: str) -> None:
    """The data file's last-contract-normal-mode example: 20 kapikia left, a hearts contract is paid
    at 2 a trick instead of 5 (``normal``; ``unbalanced`` too, since the pot pays a made contract).
    A takes 20 from the pot and pays B 3*2, C 1*2: A 20 - 8 - 20/3 = 16/3, B 6 - 20/3 = -2/3,
    C 2 - 20/3 = -14/3; the pot is empty and the game over."""
    doc = json.loads(FILE.read_text(encoding="utf-8"))
    ex = next(e for e in doc["examples"] if e["id"] == "last-contract-normal-mode")
    assert (ex["kasa_remaining"], ex["expected"]["trick_value_kapikia"]) == (20, 2)
    s = last_contract(pot_end, (6, 3, 1))
    assert deal_two(s) == {"A": Fraction(16, 3), "B": Fraction(-2, 3), "C": Fraction(-14, 3)}
    assert s.settlements.filter(s.settlements["deal_no"] == 2)["kassa_after"].to_list() == [0] * 3
    assert s.standings["finished"].all()


def test_last_contract_down_normal_scales_unbalanced_does_not() -> None:
    """The site's rule note: ``normal`` scales the last contract whatever happens, ``unbalanced``
    charges full value when anyone goes in. 6H down one (5/3/2), 2 points in the pot:
    normal v = 2: A puts 20 in and pays B 6, C 4: A -10 - 40/3 = -70/3, B 6 + 20/3 = 38/3,
    C 4 + 20/3 = 32/3, the pot 4 points; unbalanced v = 5: A puts 50 in and pays 15 + 10:
    A -25 - 100/3 = -175/3, B 15 + 50/3 = 95/3, C 10 + 50/3 = 80/3, the pot 7. The game goes on."""
    s = last_contract("normal", (5, 3, 2))
    assert deal_two(s) == {"A": Fraction(-70, 3), "B": Fraction(38, 3), "C": Fraction(32, 3)}
    assert s.settlements.filter(s.settlements["deal_no"] == 2)["kassa_after"].to_list() == [4] * 3
    s = last_contract("unbalanced", (5, 3, 2))
    assert deal_two(s) == {"A": Fraction(-175, 3), "B": Fraction(95, 3), "C": Fraction(80, 3)}
    assert s.settlements.filter(s.settlements["deal_no"] == 2)["kassa_after"].to_list() == [7] * 3
    assert not s.standings["finished"].any()


def test_last_contract_fair_goes_below_zero() -> None:
    """``fair`` (the site's "dikaio"): full value always, the pot goes below 0 and everyone tops it
    up equally. 6H made 6/3/1 with 2 points left: A lifts 50 and pays B 15, C 5: A 30 - 50/3 =
    40/3, B 15 - 50/3 = -5/3, C 5 - 50/3 = -35/3 (as with a full pot); the pot stands at 0."""
    s = last_contract("fair", (6, 3, 1))
    assert deal_two(s) == {"A": Fraction(40, 3), "B": Fraction(-5, 3), "C": Fraction(-35, 3)}
    assert s.settlements.filter(s.settlements["deal_no"] == 2)["kassa_after"].to_list() == [0] * 3
    assert s.standings["finished"].all()
