"""The compiled heuristic play (``sim/bots/_kernel.py``) makes exactly the decisions of the
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
from model.tricks import replay
from sim.bots import _kernel
from sim.bots.play import play_heuristic, play_interpreted
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


@pytest.mark.parametrize(
    "variant", ["greek-prefa", "swabian", "balkan", "russian", "bridge-rubber", "bridge-duplicate"]
)
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


@settings(deadline=None, max_examples=300)
@given(
    seed=st.integers(0, 2**32),
    trump=st.sampled_from([None, 0, 1, 2, 3]),
    partner=st.lists(st.integers(0, 3), max_size=2, unique=True),
)
def test_bridge_kernel_matches_interpreted(
    seed: int, trump: int | None, partner: list[int]
) -> None:
    # bridge (bridge.md 3): the compiled opening lead and play make the interpreted decisions
    from model.cards import DECK_52
    from sim.bots.bridge_play import play_bridge_interpreted

    rng = random.Random(seed)
    cards = [c for c in range(64) if DECK_52 >> c & 1]
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[13 * i:13 * i + 13]) for i in range(4)]
    declarer = rng.randrange(4)
    partner = sorted(partner)
    codes, won = play_bridge_interpreted(hands, declarer, trump, partner, DECK_52)
    mask = sum(1 << s for s in partner)
    k_codes, k_won = _kernel.bridge_play(np.array(hands, dtype=np.int64), declarer,
                                         -1 if trump is None else trump, mask, DECK_52)
    assert k_codes.tolist() == codes
    assert k_won == won
    # legal under the bridge trick rules (follow suit, no obligation to trump)
    leader = (declarer + 1) % 4
    taken = replay(hands, leader, [(x >> 6, x & 63) for x in codes], trump, must_trump=False)
    assert isinstance(taken, list)
    assert sum(taken[s] for s in range(4) if s % 2 == declarer % 2) == won


def _bridge_hands(seed: int, layout: str) -> list[int]:
    """A deal for the bidding tests: ``random``, or the high cards mostly with two seats
    (``ns``: partners, for slams; ``ne``: opponents, for competitive auctions and doubles)."""
    from model.cards import DECK_52

    rng = random.Random(seed)
    cards = [c for c in range(64) if DECK_52 >> c & 1]
    rng.shuffle(cards)
    if layout == "random":
        return [sum(1 << c for c in cards[13 * i:13 * i + 13]) for i in range(4)]
    cards.sort(key=lambda c: -(c & 15) + rng.random() * 20)
    strong, weak = ((0, 2), (1, 3)) if layout == "ns" else ((0, 1), (2, 3))
    hands = [0, 0, 0, 0]
    for i, c in enumerate(cards):
        hands[(strong if i < 26 else weak)[i % 2]] |= 1 << c
    return hands


def _same_auction(hands: list[int], dealer: int) -> list[str]:
    from sim.bots._bidding_kernel import OUT, bridge_auction
    from sim.bots.bidding import CALL_NAMES, Bidder

    bidder = Bidder(hands, dealer)
    calls = bidder.run()
    out = bridge_auction(np.array(hands, dtype=np.int64), dealer).tolist()
    assert [CALL_NAMES[x] for x in out[OUT:OUT + out[0]]] == calls
    found = bidder.contract()
    if found is None:
        assert out[1] == 0
        return calls
    assert tuple(out[1:5]) == found
    shown = bidder.shown[(found[3] + 3) % 4].length
    assert out[5] == sum(1 << s for s in range(4) if shown[s] >= 4)
    return calls


@settings(deadline=None, max_examples=400)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3),
       layout=st.sampled_from(["random", "ns", "ne"]))
def test_bridge_bidding_kernel_matches_bidder(seed: int, dealer: int, layout: str) -> None:
    # the compiled bidder (bots/_bidding_kernel.py) makes the interpreted Bidder's calls and
    # finds the same contract, declarer (bridge.md 2.3) and opening leader's partner's suits
    _same_auction(_bridge_hands(seed, layout), dealer)


def test_bridge_bidding_kernel_doubles_and_slams() -> None:
    # the same over a fixed sample that holds penalty doubles and slams (bridge.md 2.2, 2.3)
    doubles = slams = 0
    for seed in range(1500):
        for layout in ("ns", "ne"):
            calls = _same_auction(_bridge_hands(seed, layout), seed % 4)
            doubles += "X" in calls
            slams += any(c[0] in "67" for c in calls)
    assert doubles >= 5
    assert slams >= 50
