"""The sample league ``data/samples/swabian/league.jsonl`` (shown by ``make demo``) is valid: every
game and deal passes the schema and ``check_deal``, and its settlement is zero-sum per deal
(swabian.md 7 [derived])."""

from __future__ import annotations

import json

import polars as pl

from model.swabian.check import check_deal
from model.swabian.frame import deal_row, deals_frame
from model.swabian.records import SwabianDeal, SwabianGame
from scoring.swabian import SETTLEMENT
from tests.conftest import ROOT
from tests.scoring.swabian.helpers import games_frame

SAMPLE = ROOT / "data" / "samples" / "swabian" / "league.jsonl"


def test_sample_league_is_valid_and_zero_sum():
    games: dict[str, SwabianGame] = {}
    rows = []
    with_play = 0
    for text in SAMPLE.read_text(encoding="utf-8").splitlines():
        data = json.loads(text)
        if data["record"] == "game":
            games[data["game_id"]] = SwabianGame.model_validate(data)
            continue
        deal = SwabianDeal.model_validate(data)
        game = games[deal.game_id]
        assert check_deal(game, deal) == [], text
        with_play += deal.play is not None
        rows.append(deal_row(game, deal))
    assert len(games) >= 2 and with_play >= 5
    settled = SETTLEMENT.settle(games_frame(games.values()), deals_frame(rows))
    per_deal = settled.settlements.group_by("game_id", "deal_no").agg(pl.col("cash").sum())
    assert per_deal.height == len(rows) and (per_deal["cash"] == 0).all()
    assert settled.settlements["cash"].abs().sum() > 0
