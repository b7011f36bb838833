"""Make the sample Russian preferans league of ``data/samples/russian``.

Run: ``.venv/bin/python data/samples/russian/make_samples.py`` (from the project root).

Deterministic (fixed seed). Score-sheet deals (no cards) are drawn by ``sim/random_play/russian.py``
and checked with ``model/russian/check.py``; a contract below the raspasy exit (russian.md 7,
``raspasy.check_game``: Leningrad's 7-7-7) is raised to the exit level; one table of each
convention, one of them with four players (the dealer sits out); each game stops at the deal that
closes every pool.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from model.russian.frame import deal_row  # noqa: E402
from model.russian.params import RussianRules, preset  # noqa: E402
from model.russian.raspasy import check_game  # noqa: E402
from model.russian.records import RussianDeal, RussianGame  # noqa: E402
from scoring.russian.reference import Deal, Sheet, finished, score_deal  # noqa: E402
from sim.random_play.russian import random_game  # noqa: E402

HERE = Path(__file__).parent
LEAGUE = "Nevsky club pulya league"
TABLES: list[tuple[str, list[str], int, RussianRules]] = [
    ("nevsky/2026-11-22/sochi", ["Ivan", "Olga", "Pavel"], 60, preset("sochi", pool_target=10)),
    ("nevsky/2026-11-22/leningrad", ["Irina", "Oleg", "Petr", "Vera"], 60,
     preset("leningrad", pool_target=10)),
    ("nevsky/2026-11-29/rostov", ["Ivan", "Irina", "Pavel"], 60, preset("rostov", pool_target=10)),
]


def exit_kept(g: RussianGame, deals: list[RussianDeal]) -> list[RussianDeal]:
    """Each contract below the raspasy exit raised to level 7 (the exit levels are 6 or 7), the
    same strain, tricks and words (7)."""
    while found := check_game(g, deals):
        no = found[0][0]
        deals = [d if d.deal_no != no else RussianDeal.model_validate(
            d.model_dump() | {"contract": "7" + (d.contract or "")[1:]}) for d in deals]
    return deals


def until_the_end(g: RussianGame, deals: list[RussianDeal]) -> list[RussianDeal]:
    """The deals up to the one that closes every pool (russian.md 8: the game ends there)."""
    sheet = Sheet(len(g.players))
    for k, d in enumerate(deals):
        score_deal(g.rules, sheet, Deal.of(deal_row(g, d)))
        if finished(g.rules, sheet):
            return deals[: k + 1]
    return deals


def main() -> None:
    rng = random.Random(20261122)
    lines = []
    for game_id, players, deals, rules in TABLES:
        g = RussianGame(variant="russian", game_id=game_id, players=players, rules=rules)
        ds = random_game(rng, g, deals)
        ds = until_the_end(g, exit_kept(g, ds))
        game = g.model_dump(mode="json", exclude_none=True, exclude_defaults=False)
        game["rules"] = rules.model_dump(mode="json", exclude_defaults=True) | {
            "convention": rules.convention}
        lines.append(json.dumps(game | {"league": LEAGUE}, ensure_ascii=False))
        lines += [json.dumps(d.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
                             | {"record": "deal", "game_id": game_id, "deal_no": d.deal_no},
                             ensure_ascii=False) for d in ds]
    (HERE / "league.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
