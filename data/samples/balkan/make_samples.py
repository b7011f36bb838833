"""Build the Balkan sample league (``league.jsonl``) and its PPN twin (``league.ppn``).

Deterministic (seeded): ``.venv/bin/python data/samples/balkan/make_samples.py``. Three games of a
club evening: one with every card played under the seed rules (``seed`` preset), one score-sheet
game under the ``serbian-club`` preset played to the end of the game (the bula sum reaches zero),
and one ``serbian-club`` game with cards, also written as PPN.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from ingest.ppn import dumps
from model.balkan.frame import deal_row
from model.balkan.records import BalkanDeal, BalkanGame
from scoring.balkan.reference import Sheet, settle_deal
from sim.random_play.balkan import random_deal, random_game

HERE = Path(__file__).parent
LEAGUE = "Kafana Dunav Tuesday league"


def finished_game(rng: random.Random, game: BalkanGame, with_cards: bool) -> list[BalkanDeal]:
    """Deals until the bula sum reaches zero (balkan.md 7.5); mostly made contracts."""
    sheet = Sheet(game.rules, 3)
    deals: list[BalkanDeal] = []
    ps = list(game.players)
    while not sheet.is_over() and len(deals) < 200:
        no = len(deals) + 1
        while True:
            d = random_deal(rng, game, no, ps[(no - 1) % 3])
            made = d.tricks is None or d.declarer is None or (
                d.tricks[d.declarer] >= 6 if d.contract not in ("6", "G6")
                else d.tricks[d.declarer] == 0)
            if made or rng.random() < 0.03:
                break
        if not with_cards:
            d = d.model_copy(update={"hands": None, "talon": None, "auction": None,
                                     "discard": None, "play": None})
        deals.append(d)
        settle_deal(sheet, deal_row(game, d))
    return deals


def line(record: BalkanGame | BalkanDeal) -> str:
    data = {"record": record.record, **record.model_dump(mode="json", exclude_defaults=True)}
    return json.dumps(data, ensure_ascii=False)


def main() -> None:
    rng = random.Random(2026)
    g1 = BalkanGame(variant="balkan", game_id="kafana-dunav/2026-11-24/table-1",
                    players=["Jelena", "Marko", "Nikola"], league=LEAGUE,
                    started_at="2026-11-24T19:00:00+01:00", stake="1 dinar per soup point")
    g2 = BalkanGame(variant="balkan", game_id="kafana-dunav/2026-11-24/table-2",
                    players=["Ana", "Dragan", "Vesna"], league=LEAGUE,
                    rules={"preset": "serbian-club", "start_bula": 40, "max_refe": 4},
                    started_at="2026-11-24T19:05:00+01:00", stake="1 dinar per soup point")
    g3 = BalkanGame(variant="balkan", game_id="ppn/league",
                    players=["Jelena", "Ana", "Marko"], league=LEAGUE,
                    rules={"preset": "serbian-club", "start_bula": 40, "max_refe": 4},
                    started_at="2026-11-24T22:30:00+01:00")
    games = [(g1, random_game(rng, g1, 24)), (g2, finished_game(rng, g2, False))]
    out = []
    for g, deals in games:
        out.append(line(g))
        out += [line(d) for d in deals]
    (HERE / "league.jsonl").write_text("\n".join(out) + "\n", encoding="utf-8")
    (HERE / "league.ppn").write_text(dumps(g3, finished_game(rng, g3, True)), encoding="utf-8")


if __name__ == "__main__":
    main()
