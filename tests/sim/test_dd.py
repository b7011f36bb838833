"""Open-hand play through the solver (``--play dd``) gives legal deals that pass validation."""

from __future__ import annotations

import pytest

from model.variants import variant as lookup
from tests.sim.helpers import records, simulate_lines

pytest.importorskip("sim.solver")


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["greek-prefa", "swabian", "balkan"])
def test_dd_play_passes_check(variant: str) -> None:
    batch = simulate_lines(variant, 4, 5, seed=31, play="dd")
    v = lookup(variant)
    for i, game, deal in records(variant, batch):
        assert v.check_deal(game, deal) == [], batch.deals["record"][i]
