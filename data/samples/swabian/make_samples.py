"""Make the sample Swabian Preferanz league of ``data/samples/swabian``.

Run: ``.venv/bin/python data/samples/swabian/make_samples.py`` (from the project root).

Deterministic (fixed seed). Deals are made by ``sim/random_play/swabian.py`` (shuffled 32-card deck,
the auction state machine, random legal play with the shared trick rules) and checked with
``model/swabian/check.py`` before they are written. One table keeps the full cards and play; the
others are reduced to what a club score sheet holds (declarer, game, aus den Händen, contra,
Kunstwerk, tricks).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from model.swabian.check import check_deal  # noqa: E402
from model.swabian.params import SwabianRules  # noqa: E402
from model.swabian.records import SwabianDeal, SwabianGame  # noqa: E402
from sim.random_play.swabian import random_game  # noqa: E402

HERE = Path(__file__).parent
LEAGUE = "Donau club winter league"
CARDS = ("hands", "talon", "auction", "discard", "play")
TABLES: list[tuple[str, tuple[str, str, str], int, SwabianRules, bool]] = [
    ("donau-club/2026-11-22/table-1", ("Franz", "Greta", "Hilde"), 12, SwabianRules(), True),
    ("donau-club/2026-11-22/table-2", ("Jakob", "Katharina", "Lorenz"), 15, SwabianRules(), False),
    (
        "donau-club/2026-11-29/table-1",
        ("Franz", "Jakob", "Hilde"),
        12,
        SwabianRules(kunstwerk_units=3, session_end="fixed_deals", session_deals=12),
        False,
    ),
]


def score_sheet(record: dict[str, Any]) -> dict[str, Any]:
    """What a club score sheet keeps of a deal: no cards, no auction, no play."""
    return {k: v for k, v in record.items() if k not in CARDS}


def lines() -> list[dict[str, Any]]:
    rng = random.Random(20261122)
    out: list[dict[str, Any]] = []
    for day, (game_id, players, deals, rules, full) in enumerate(TABLES):
        started = "2026-11-22T19:00:00+01:00" if day < 2 else "2026-11-29T19:00:00+01:00"
        game = SwabianGame(variant="swabian", game_id=game_id, players=players, rules=rules,
                           league=LEAGUE, started_at=started, stake="1 Kreuzer per unit")
        line = game.model_dump(mode="json", exclude_none=True)
        out.append(line | {"rules": rules.model_dump(exclude_defaults=True)})
        for deal in random_game(rng, game, deals):
            record = {"record": "deal"} | deal.model_dump(mode="json", exclude_defaults=True)
            kept = record if full else score_sheet(record)
            problems = check_deal(game, SwabianDeal.model_validate(kept))
            if problems:
                raise AssertionError(f"{game_id} deal {record['deal_no']}: {problems}")
            out.append(kept)
    return out


def main() -> None:
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines())
    (HERE / "league.jsonl").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
