"""The compiled heuristic play (``model/sim/bots/_kernel.py``) makes exactly the decisions of the
interpreted one (``play_interpreted``) in every kind of play: trump and no-trump, three- and
two-handed, for fewest tricks (Bettel, play_low), with the overtrump option and the early stops
(greek-prefa.md 7, 14; swabian.md 6; balkan.md 6)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from model.cards import DECK_32
from model.sim.bots import _kernel
from model.sim.bots.play import play_heuristic, play_interpreted
from model.tricks import replay
from tests.sim.helpers import simulate_lines

CARDS = [c for c in range(64) if DECK_32 >> c & 1]


@settings(deadline=None, max_examples=300)
@given(
    seed=st.integers(0, 2**32),
    two_handed=st.booleans(),
    trump=st.sampled_from([None, 0, 1, 2, 3]),
    mode=st.sampled_from(["most", "bettel", "everybody"]),
    overtrump=st.booleans(),
    stop=st.sampled_from([99, 5, 1]),
)
def test_kernel_matches_interpreted(
    seed: int, two_handed: bool, trump: int | None, mode: str, overtrump: bool, stop: int
) -> None:
    rng = random.Random(seed)
    cards = CARDS[:]
    rng.shuffle(cards)
    k = 2 if two_handed else 3
    hands = [sum(1 << c for c in cards[10 * i:10 * i + 10]) for i in range(k)]
    fewest = mode != "most"
    declarer = -1 if mode == "everybody" else rng.randrange(k)
    if fewest:
        trump = None
    stop_d = 1 if mode == "bettel" else 99
    stop_f = 99 if fewest else stop
    leader = rng.randrange(k)
    args = (hands, leader, declarer, trump)
    kw = {"fewest": fewest, "must_overtrump": overtrump, "stop_declarer": stop_d,
          "stop_defence": stop_f, "deck": DECK_32}
    moves, taken = play_interpreted(*args, **kw)  # type: ignore[arg-type]
    m, n, t = _kernel.play(np.array(hands, dtype=np.int64), k, leader, declarer,
                           -1 if trump is None else trump, fewest, overtrump, stop_d, stop_f,
                           DECK_32)
    assert [(x >> 6, x & 63) for x in m[:n].tolist()] == moves
    assert t[:k].tolist() == taken
    assert play_heuristic(*args, **kw) == (moves, taken)  # type: ignore[arg-type]
    # and the play is legal under the shared trick rules (model/tricks.py)
    if len(moves) % k == 0:
        out = replay(hands, leader, moves, trump, must_trump=True, must_overtrump=overtrump)
        assert out == taken


@pytest.mark.parametrize("variant", ["greek-prefa", "swabian", "balkan"])
def test_records_identical_without_numba(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the whole records (not only the play) are the same with the compiled kernel and with the
    # interpreted play, as when numba is not installed (docs/simulation.md, "Speed")
    rules = {"all_pass": "play_low", "must_overtrump_when_void": True} if variant == (
        "greek-prefa") else {}
    compiled = simulate_lines(variant, 15, 10, seed=41, rules=rules)
    monkeypatch.setattr(_kernel, "COMPILED", False)
    interpreted = simulate_lines(variant, 15, 10, seed=41, rules=rules)
    assert compiled.lines == interpreted.lines
    assert compiled.flat == interpreted.flat
