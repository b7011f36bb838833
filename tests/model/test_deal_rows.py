"""``Variant.deal_rows`` (``model/variant.py``) gives each deal the row ``deal_row`` gives it,
though it works a row out once per distinct ``row_key`` of the batch: so the key holds every
field of the game and the deal the row reads (each variant's ``frame.py``).

The batches hold the legal deals of ``tests/model/test_check_batch.py`` and the same deals with
one field changed (to the value another deal of the game has, a flag turned, nothing), some of
their games with the players in another order.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from model.base import DealBase, GameBase
from model.variants import registered
from model.variants import variant as lookup
from tests.model.test_check_batch import RULES, _games

KEYED = [v.name for v in registered() if v.row_key is not None]


def test_the_rows_of_most_variants_are_keyed() -> None:
    assert len(KEYED) >= 4


def _changed(rng: random.Random, deal: DealBase, others: list[DealBase]) -> DealBase:
    """``deal`` with one field (not its game or number) as another deal has it, turned, or
    left out."""
    field = rng.choice([f for f in type(deal).model_fields if f not in ("record", "game_id",
                                                                        "deal_no")])
    value: Any = getattr(rng.choice(others), field)
    if isinstance(getattr(deal, field), bool) and rng.random() < 0.5:
        value = not getattr(deal, field)
    elif rng.random() < 0.1:
        value = None
    return deal.model_copy(update={field: value})


def _row(variant: str, game: GameBase, deal: DealBase) -> dict[str, object] | None:
    try:
        return lookup(variant).deal_row(game, deal)
    except Exception:
        return None


@pytest.mark.parametrize("variant", KEYED)
def test_deal_rows_says_what_deal_row_says(variant: str) -> None:
    v = lookup(variant)
    rng = random.Random(11)
    pairs: list[tuple[GameBase, DealBase]] = []
    for setting in range(len(RULES.get(variant, [()]))):
        for seed in range(3):
            for game, records in _games(variant, setting, seed):
                deals = [v.deal_model.model_validate(d) for d in records]
                turned = game.model_copy(update={"players": game.players[::-1]})
                for deal in deals:
                    for g in (game, turned):
                        pairs.append((g, deal))
                        pairs += [(g, _changed(rng, deal, deals)) for _ in range(4)]
    rng.shuffle(pairs)
    want = [_row(variant, game, deal) for game, deal in pairs]
    assert v.deal_rows(pairs) == want
    assert sum(r is not None for r in want) > len(want) // 2
