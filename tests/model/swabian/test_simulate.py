"""Random-play simulation: every deal the generator (``sim/random_play/swabian.py``) makes through
the rules module (auction state machine, shared trick mechanics) passes ``check_deal`` (swabian.md
2-6), under the defaults and under every alternative of section 10 that changes legality."""

from __future__ import annotations

import random

import pytest

from model.swabian.check import check_deal
from model.swabian.frame import deal_row
from model.swabian.params import SwabianRules
from model.swabian.records import SwabianGame
from model.variants import variant
from sim.random_play.swabian import random_game


@pytest.mark.parametrize(
    "rules",
    [
        SwabianRules(),
        SwabianRules(hold_only_vorhand=False, jump_bids=False),
        SwabianRules(
            vorhand_must_bid=True, recontra_scope="all_contra_players", kunstwerk_on_hand_game=True
        ),
    ],
    ids=["defaults", "seat-hold-no-jumps", "vorhand-bids-recontra-all-kunstwerk-hand"],
)
def test_simulated_deals_are_legal(rules: SwabianRules):
    rng = random.Random(7)
    seen_games: set[int] = set()
    for g in range(40):
        game = SwabianGame(variant="swabian", game_id=f"sim-{g}",
                           players=("Anna", "Bert", "Cora"), rules=rules)
        for deal in random_game(rng, game, 10):
            assert check_deal(game, deal) == [], deal
            row = deal_row(game, deal)
            if row["game"] is not None:
                seen_games.add(int(row["game"]))  # type: ignore[call-overload]
    assert seen_games == {2, 3, 4, 5, 6, 7}


def test_registered_by_name_and_alias():
    """records.md 1.1 ``variant = swabian``."""
    assert variant("swabian") is variant("preferanz")
    assert variant("swabian").deals_table == "deals_swabian"
