"""The compiled trick replay (``model/replay_kernel.py``) against its reference, ``model/tricks.py``
``replay`` (summary.md "play rules"; greek-prefa.md 7 and 14 ``must_overtrump_when_void``): on
random deals of two to four seats, random plays mostly of legal cards with faults mixed in (a
card not held, out of turn, by a stranger, a revoke, a failure to trump or overtrump), the same
first fault at the same card, or the same tricks. The games' own stops and fixed leads are held by
each variant's ``check_batch`` against its ``check`` (``tests/model/test_check_batch.py``)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from model.cards import DECK_32, DECK_52, iter_cards
from model.replay_kernel import FAULTS, OK, SHORT, Play, replay_many
from model.tricks import PlayFault, legal_cards, replay, trick_winner
from tests.conftest import fresh_process


def _deal(rng: random.Random) -> Play:
    k = rng.choice([2, 3, 4])
    deck = list(iter_cards(rng.choice([DECK_32, DECK_52])))
    rng.shuffle(deck)
    n = rng.randint(1, len(deck) // k)
    hands = [sum(1 << c for c in deck[n * s: n * s + n]) for s in range(k)]
    trump = rng.choice([None, 0, 1, 2, 3])
    must_trump, must_over = rng.random() < 0.7, rng.random() < 0.5
    leader = rng.randrange(k)
    seats: list[int] = []
    cards: list[int] = []
    left = list(hands)
    trick: list[int] = []
    who: list[int] = []
    turn = leader
    odd = rng.choice([0.0, 0.02, 0.1])
    for _ in range(rng.randint(0, n * k + 2)):
        legal = legal_cards(left[turn], trick, trump, must_trump=must_trump,
                            must_overtrump=must_over)
        seat, card = turn, rng.choice(list(iter_cards(legal)) or deck)
        if rng.random() < odd:
            seat = rng.choice([turn, turn, rng.randrange(k), -1, k])
        if rng.random() < odd:
            card = rng.choice(list(iter_cards(left[turn])) or deck) if rng.random() < 0.8 \
                else rng.choice(deck)
        seats.append(seat)
        cards.append(card)
        left[turn] &= ~(1 << card)
        trick.append(card)
        who.append(turn)
        if len(trick) == k:
            turn = who[trick_winner(trick, trump)]
            trick, who = [], []
        else:
            turn = (turn + 1) % k
    return Play(hands, seats, cards, leader, trump, must_trump, must_over, tricks=n)


@settings(deadline=None, max_examples=80)
@given(seeds=st.lists(st.integers(0, 2**32), min_size=1, max_size=40))
def test_the_kernel_replays_as_the_reference(seeds: list[int]) -> None:
    plays = [_deal(random.Random(s)) for s in seeds]
    for p, got in zip(plays, replay_many(plays), strict=True):
        want = replay(list(p.hands), p.leader, list(zip(p.seats, p.cards, strict=True)),
                      p.trump, must_trump=p.must_trump, must_overtrump=p.must_overtrump)
        end = p.tricks * len(p.hands)
        if isinstance(want, PlayFault) and want.index < end:
            assert (got.fault, got.fault_at) == (want.kind, want.index)
        elif isinstance(want, PlayFault) or len(p.cards) > end:  # every card held was played
            assert (got.fault, got.fault_at) == ("after-end", end)
        else:
            assert got.status == (OK if len(p.cards) == end else SHORT)
            assert list(got.taken) == want
            assert got.played == len(p.cards) // len(p.hands)


def test_every_fault_of_the_reference_has_its_status() -> None:
    """The kernel names its faults as ``model.tricks.FaultKind`` does."""
    assert set(FAULTS) >= {"turn", "absent", "not-held", "follow", "trump", "overtrump"}


def test_play_stops_at_the_declarers_first_trick() -> None:
    """Bettel (balkan.md 6, swabian.md 6): the play stops when the declarer takes a trick; a card
    after it is a fault, and a play that stops before is short."""
    hands = [0b1, 0b10, 0b100]  # seat 2 holds the highest spade and wins the only trick
    full = Play(hands, [0, 1, 2], [0, 1, 2], 0, None, True, declarer=2, stop_won=1)
    after = Play(hands, [0, 1, 2, 2], [0, 1, 2, 3], 0, None, True, declarer=2, stop_won=1)
    short = Play(hands, [0, 1], [0, 1], 0, None, True, declarer=2, stop_won=1)
    a, b, c = replay_many([full, after, short])
    assert (a.status, a.taken, a.played) == (OK, (0, 0, 1), 1)
    assert (b.fault, b.fault_at) == ("after-end", 3)
    assert c.status == SHORT


def test_fixed_leads_keep_the_leader_and_the_suit() -> None:
    """russian.md 4 (raspasy under the talon cards): first hand leads the first two tricks, in
    the suit of the turned card when he holds it."""
    spade, heart = 0, 48
    hands = [(1 << spade) | (1 << (spade + 1)) | (1 << heart), 1 << 2 | 1 << 3, 1 << 4 | 1 << 5]
    # seat 2 wins trick one with the 6th spade, but seat 0 leads again
    ok = Play(hands, [0, 1, 2, 0, 1, 2], [0, 2, 4, 1, 3, 5], 0, None, False, tricks=3,
              lead_suits=(0, 0))
    wrong_suit = Play(hands, [0], [heart], 0, None, False, tricks=3, lead_suits=(0, -1))
    a, b = replay_many([ok, wrong_suit])
    assert (a.status, a.taken, a.played) == (SHORT, (0, 0, 2), 2)
    assert (b.fault, b.fault_at) == ("lead", 0)


SCRIPT = """
import json
from model.replay_kernel import compiled
kernel = compiled()
print(json.dumps({"hits": sum(kernel.stats.cache_hits.values()),
                  "misses": sum(kernel.stats.cache_misses.values())}))
"""


def test_a_second_process_loads_the_kernel_from_the_disk_cache() -> None:
    """One explicit signature, so numba's disk cache reloads the kernel: the second process
    counts a cache hit and no miss (numba's own account, never a time)."""
    fresh_process(SCRIPT)
    assert fresh_process(SCRIPT) == {"hits": 1, "misses": 0}
