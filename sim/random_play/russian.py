"""Random legal Russian score sheets (no cards) as canonical records: the variant's one random
legal-deal generator (``RussianSimulator.random_game``), for the tests and the samples.

Every record drawn here passes the schema and ``check_deal`` (the generator raises otherwise), so
a property failure downstream is the settlement's, not the generator's. Rules are drawn from the
presets with some flags changed (``FLAG_CHOICES``).
"""

from __future__ import annotations

import random
from typing import Any

from model.russian.check import check_deal
from model.russian.contracts import HALF_WHIST_LEVELS, STRAINS
from model.russian.params import PRESET_FLAGS, RussianRules
from model.russian.records import RussianDeal, RussianGame
from model.russian.seats import defenders, in_deal, next_dealer
from model.russian.variant import VARIANT
from sim.random_play import split

FLAG_CHOICES: dict[str, tuple[object, ...]] = {
    "consolation": ("both_opponents", "whisters_only", "none"),
    "consolation_factor": (1, 2),
    "whist_style": ("greedy", "gentleman"),
    "whist_responsibility": ("full", "half"),
    "two_whister_q1_responsible": ("second_whister", "second_whister_personal", "both"),
    "half_whist": (True, False),
    "half_whist_play": (True, False),
    "stalingrad": (False, True),
    "ten_whisted": (True, False),
    "raspasy_amnesty": (True, False),
    "raspasy_progression": ("1,2,3cap", "1,2,4", "none"),
    "raspasy_payment": ("hill", "whists"),
    "raspasy_reset": ("played", "any_contract"),
    "overflow_hill_below_zero": (True, False),
    "hill_split": ("all_participants", "opponents_only"),
    "unfinished_pool": ("to_hill", "ignore"),
}


def random_rules(rng: random.Random) -> RussianRules:
    flags: dict[str, Any] = {"convention": rng.choice(sorted(PRESET_FLAGS)),
                             "pool_target": rng.choice((2, 5, 10, 20, 50, 200, 1000))}
    for name, values in FLAG_CHOICES.items():
        if rng.random() < 0.3:
            flags[name] = rng.choice(values)
    return RussianRules.model_validate(flags)


def _defence(rng: random.Random, rules: RussianRules, level: int, strain: int) -> tuple[str, str]:
    if rules.stalingrad and (level, strain) == (6, 0):
        return "whist", "whist"
    choices = [("whist", "whist"), ("whist", "pass"), ("pass", "whist"), ("pass", "pass")]
    if rules.half_whist and level in HALF_WHIST_LEVELS:
        choices.append(("pass", "half"))
    if level == 10 and not rules.ten_whisted:
        choices = [("pass", "pass")]
    return rng.choice(choices)


def random_deal(rng: random.Random, g: RussianGame, deal_no: int, dealer: int) -> RussianDeal:
    names = g.players
    n = len(names)
    seats = in_deal(n, dealer)
    rec: dict[str, Any] = {"game_id": g.game_id, "deal_no": deal_no, "dealer": names[dealer]}
    tricks = dict(zip((names[s] for s in seats), split(rng, 10, 3), strict=True))
    kind = rng.random()
    if kind < 0.2:
        rec["tricks"] = tricks
    else:
        decl = rng.choice(seats)
        rec["declarer"] = names[decl]
        if kind < 0.3:
            rec.update(contract="misere", tricks=tricks)
        else:
            level = rng.choices(range(6, 11), weights=(50, 30, 12, 6, 2))[0]
            strain = rng.randrange(5)
            first, second = defenders(n, dealer, decl)
            a, b = _defence(rng, g.rules, level, strain)
            rec.update(contract=f"{level}{STRAINS[strain]}",
                       defence={names[first]: a, names[second]: b})
            if "whist" in (a, b) or (b == "half" and g.rules.half_whist_play):
                taken = rng.choice((level, level, level - 1, rng.randint(0, 10)))
                one, two = split(rng, 10 - taken, 2)
                rec["tricks"] = {names[decl]: taken, names[first]: one, names[second]: two}
                rec["open"] = (a, b).count("whist") == 1 and rng.random() < 0.2
    deal = RussianDeal.model_validate(rec)
    problems = check_deal(g, deal)
    if problems:
        raise ValueError(f"generated an illegal deal {rec!r}: {problems}")
    return deal


def random_game(rng: random.Random, game: RussianGame, deals: int) -> list[RussianDeal]:
    """``deals`` random legal deals of ``game`` from a random first dealer, the deal passing in
    turn order."""
    n = len(game.players)
    dealer = rng.randrange(n)
    out = []
    for k in range(1, deals + 1):
        out.append(random_deal(rng, game, k, dealer))
        dealer = next_dealer(n, dealer)
    return out


def random_league_game(rng: random.Random, game_id: str, deals: int) -> tuple[RussianGame,
                                                                             list[RussianDeal]]:
    """A game of three or four players under random rules (:func:`random_rules`) and its
    ``deals`` random legal deals."""
    names = [f"{game_id}p{i}" for i in range(rng.choice((3, 3, 4)))]
    game = RussianGame.model_validate({"game_id": game_id, "variant": VARIANT.name,
                                       "players": names, "rules": random_rules(rng).model_dump()})
    return game, random_game(rng, game, deals)
