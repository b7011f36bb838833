"""The prefadoros / prefatria worked examples (../shared/data/greek-prefadoros/, see the data README
section): that site keeps one common pot, so its columns differ from the seed's personal kassas, but
the per-player net chips agree. With our rows the net of player i in a deal is
``chips_i - 10*kassa_delta_i + 10*(sum of kassa_delta)/3`` (each player owns a third of the pot:
a kassa point written off is 10 chips lifted from the pot); compared with
``derived_net_kapikia``."""

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


def records(e: dict[str, Any]) -> tuple[Any, Deals]:
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
    g = game(names)
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
