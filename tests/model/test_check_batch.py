"""Every variant's ``check_batch`` (its rules deal by deal, every play of the batch in one call of
the compiled replay, ``model/replay_kernel.py``) says of each deal exactly what its ``check``
says: no problem, or some (``model/variant.py``).

Deals come from the variant's random legal-deal generator (``sim/random_play/<variant>.py``) and
its simulator, under house rules that change the play: Greek ``must_overtrump_when_void``,
``all_pass = play_low``, ``first_bidder_by_7d`` and four players (greek-prefa.md 7, 14); Balkan
Preferans and ``sans_lead`` (balkan.md 6: the play stops at the defence's fifth trick, Bettel at
the declarer's first); Russian raspasy with and without ``raspasy_talon_lead`` and four players
(russian.md 1, 4); Swabian Bettel and Durchmarsch stopping early (swabian.md 6); bridge claims
(bridge.md 3). Some are kept legal and the rest broken: by the changes of
``tests/ingest/test_columnar.py`` (cards, hands, tricks, auction, contract ...), or in the play
(:func:`_break_play`): a player's two cards swapped (a revoke, a failure to trump or overtrump),
two cards out of turn, a card left out, repeated or added after the end, the play cut at a trick.
"""

from __future__ import annotations

import json
import random
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from model.balkan import check as balkan_check
from model.base import DealBase, GameBase
from model.bridge import check as bridge_check
from model.card_batch import card_codes, cards_pass
from model.greek import check as greek_check
from model.russian import check as russian_check
from model.swabian import check as swabian_check
from model.tricks import CARD_NAMES
from model.variants import registered
from model.variants import variant as lookup
from sim.drivers import SIMULATED, simulator
from sim.run import Plan, simulate
from tests.ingest.test_columnar import _mutate

RULES: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {
    "greek-prefa": [({}, {}),
                    ({"must_overtrump_when_void": True, "all_pass": "play_low",
                      "first_bidder_by_7d": True}, {}),
                    ({"four_players": True, "must_overtrump_when_void": True}, {})],
    "balkan": [({}, {}), ({"preferans_bid": True, "sans_lead": "through_declarer"}, {}),
               ({"four_players": True}, {})],
    "russian": [({}, {}), ({"raspasy_talon_lead": False}, {}), ({}, {"players": 4})],
}
"""House rules (and simulator options) per variant; the defaults for the others."""


BATCHED = [v.name for v in registered()]


def test_every_registered_variant_has_a_batch_check_and_a_generator() -> None:
    assert [v.name for v in registered() if v.check_batch is None] == []
    assert set(BATCHED) <= set(SIMULATED)


@cache
def _games(variant: str, setting: int, seed: int) -> list[tuple[GameBase, list[dict[str, Any]]]]:
    """Two games under the setting's rules, their deals as JSON records: one of the variant's
    random legal-deal generator, one its simulator plays (Russian's generator has no cards)."""
    rules, options = RULES.get(variant, [({}, {})])[setting]
    v = lookup(variant)
    game, deals = simulator(variant, rules, options=options).random_game(
        random.Random(seed), f"g{seed}", 12)
    out = [(game, [d.model_dump(mode="json", exclude_none=True) for d in deals])]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.jsonl"
        simulate(Plan(variant, 1, 12, seed=seed, rules=rules, options=options), out=path,
                 workers=1)
        lines = [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        del line["record"]
    [sim_game] = [v.game_model.model_validate(g) for g in lines if "players" in g]
    out.append((sim_game, [d for d in lines if "players" not in d]))
    return out


def _break_play(rng: random.Random, kind: int, d: dict[str, Any]) -> None:
    """One change of the recorded play (kind 0-5)."""
    play: list[list[str]] = d.get("play") or []
    if not play:
        return
    i = rng.randrange(len(play))
    if kind == 0:  # one player's two cards swapped: a revoke, a trump or overtrump missed
        later = [j for j in range(i + 1, len(play)) if play[j][0] == play[i][0]]
        if later:
            j = rng.choice(later)
            play[i][1], play[j][1] = play[j][1], play[i][1]
    elif kind == 1 and i + 1 < len(play):  # two cards out of turn
        play[i], play[i + 1] = play[i + 1], play[i]
    elif kind == 2:  # a card left out
        del play[i]
    elif kind == 3:  # a card played again
        play.insert(rng.randrange(i, len(play) + 1), list(play[i]))
    elif kind == 4:  # a card after the end of the play
        play.append(list(play[i]))
    else:  # the play cut after a trick
        del play[rng.randrange(1, 5) * len({p for p, _ in play}):]


def _deal(variant: str, data: st.DataObject) -> tuple[GameBase, DealBase] | None:
    setting = data.draw(st.integers(0, len(RULES.get(variant, [()])) - 1))
    game, deals = data.draw(st.sampled_from(_games(variant, setting, data.draw(st.integers(0, 3)))))
    d = json.loads(json.dumps(data.draw(st.sampled_from(deals))))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    how = data.draw(st.sampled_from(["legal", "play", "play", "other"]))
    if how == "play":
        _break_play(rng, data.draw(st.integers(0, 5)), d)
    elif how == "other":
        _mutate(rng, data.draw(st.integers(0, 23)), d, [json.dumps({"players": game.players})])
    v = lookup(variant)
    try:
        return game, v.deal_model.model_validate(d)
    except (ValidationError, ValueError, TypeError):
        return None


@pytest.mark.parametrize("variant", BATCHED)
@settings(deadline=None, max_examples=25)
@given(data=st.data())
def test_check_batch_says_what_check_says(variant: str, data: st.DataObject) -> None:
    v = lookup(variant)
    pairs = [p for p in (_deal(variant, data) for _ in range(data.draw(st.integers(1, 12))))
             if p is not None]
    want = [not v.check_deal(game, deal) for game, deal in pairs]
    assert v.valid_deals(pairs) == want


@pytest.mark.parametrize("variant", BATCHED)
def test_broken_plays_are_found(variant: str) -> None:
    """The property above sees both answers: legal deals pass, and most broken plays fail."""
    v = lookup(variant)
    legal = [(game, v.deal_model.model_validate(d)) for game, deals in _games(variant, 0, 0)
             for d in deals]
    assert v.valid_deals(legal) == [True] * len(legal)
    rng = random.Random(3)
    broken = []
    for game, deals in _games(variant, 0, 0):
        for d in deals:
            if d.get("play"):
                b = json.loads(json.dumps(d))
                _break_play(rng, 3, b)  # a card played twice: never legal
                broken.append((game, v.deal_model.model_validate(b)))
    assert broken and v.valid_deals(broken) == [False] * len(broken)


COLUMNS = {"greek-prefa": greek_check, "balkan": balkan_check, "swabian": swabian_check,
           "russian": russian_check, "bridge-rubber": bridge_check,
           "bridge-duplicate": bridge_check}
"""The variants whose ``check_batch`` reads the cards in columns (``model/card_batch.py``)."""
CARD_BREAKS = (0, 1, 2, 3, 4, 5, 6, 12, 17, 18, 19, 23)
"""The changes of ``tests/ingest/test_columnar.py`` that touch the cards (23: none)."""


@pytest.mark.parametrize("variant", sorted(COLUMNS))
def test_legal_deals_are_settled_by_the_columns(variant: str) -> None:
    """Not vacuous: the legal deals with cards get a layout (all but the first deal of a Greek
    game under ``first_bidder_by_7d`` and announced four aces, which the reference reads) and
    their cards pass the columns, without ``before_play``."""
    v, check = lookup(variant), COLUMNS[variant]
    laid: list[tuple[int, Any, Any]] = []
    for setting in range(len(RULES.get(variant, [()]))):
        rules = v.rules(RULES.get(variant, [({}, {})])[setting][0])
        for game, deals in _games(variant, setting, 1):
            for d in deals:
                deal = v.deal_model.model_validate(d)
                problems, layout = check.layout(game, deal)
                assert not problems
                left = getattr(deal, "four_aces", False) or (
                    getattr(rules, "first_bidder_by_7d", False) and deal.deal_no == 1)
                if deal.hands is not None and not left:
                    assert layout is not None, d
                    laid.append((len(laid), deal, layout))
    assert laid and cards_pass(laid) == [True] * len(laid)


@pytest.mark.parametrize("variant", sorted(COLUMNS))
@settings(deadline=None, max_examples=20)
@given(data=st.data())
def test_the_columns_say_what_check_says_of_broken_cards(variant: str,
                                                         data: st.DataObject) -> None:
    """One game's deals in one batch (so many share a rules key), some with their cards or play
    broken: hands, talon, discard, a card of the play, its players (records.md 1.2)."""
    v = lookup(variant)
    setting = data.draw(st.integers(0, len(RULES.get(variant, [()])) - 1))
    game, deals = data.draw(st.sampled_from(_games(variant, setting, data.draw(st.integers(0, 3)))))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    pairs = []
    for d in deals:
        d = json.loads(json.dumps(d))
        if rng.random() < 0.2 and isinstance(d.get("tricks"), int) and d.get("play"):
            # a claim after a late trick, agreeing with the result or not, in reach or not
            d["tricks"] = min(13, max(0, d["tricks"] + rng.choice([0, 0, -2, -1, 1, 2])))
            d["claim"] = d["tricks"] + rng.choice([0, 0, 0, 1])
            del d["play"][4 * rng.randrange(9, 13) + rng.choice([0, 0, 1]):]
        elif rng.random() < 0.1 and d.get("discard") and d.get("hands"):
            other = rng.choice(sorted(p for p in d["hands"] if p != d.get("declarer")))
            d["discard"] = rng.sample(d["hands"][other], 2)  # cards the declarer never held
        elif rng.random() < 0.5:
            _mutate(rng, rng.choice(CARD_BREAKS), d, [json.dumps({"players": game.players})])
        elif rng.random() < 0.5:
            _break_play(rng, rng.randrange(6), d)
        try:
            pairs.append((game, v.deal_model.model_validate(d)))
        except (ValidationError, ValueError, TypeError):
            continue
    want = [not v.check_deal(g, deal) for g, deal in pairs]
    assert v.valid_deals(pairs) == want


@pytest.mark.parametrize("variant", sorted(COLUMNS))
def test_trick_counts_moved_between_players_are_judged_deal_by_deal(variant: str) -> None:
    """Deals that differ only in how their tricks are split (the total kept), with and without
    their play, in one batch: each judged as ``check`` judges it, though the rules' key holds
    only what they read of the counts (``card_batch.counted``: who, the declarer's, the total)."""
    v = lookup(variant)
    rng = random.Random(5)
    pairs = []
    for setting in range(len(RULES.get(variant, [()]))):
        for game, deals in _games(variant, setting, 2):
            for d in deals:
                if not isinstance(d.get("tricks"), dict) or len(d["tricks"]) < 2:
                    continue
                for play in (True, False):
                    for shift in range(4):
                        e = json.loads(json.dumps(d))
                        if not play:
                            e.pop("play", None)
                        if shift:
                            a, b = rng.sample(sorted(e["tricks"]), 2)
                            moved = min(shift, e["tricks"][a])
                            e["tricks"][a] -= moved
                            e["tricks"][b] += moved
                        try:
                            pairs.append((game, v.deal_model.model_validate(e)))
                        except (ValidationError, ValueError, TypeError):
                            continue
    if not pairs:
        pytest.skip(f"{variant} records its tricks as one number")
    want = [not v.check_deal(g, deal) for g, deal in pairs]
    assert v.valid_deals(pairs) == want
    assert any(want) and not all(want)


def test_card_codes_read_every_spelling_of_model_tricks() -> None:
    """Through the two-letter table when every name has two letters, else name by name; a name
    that is not a card reads as -1 (``model/tricks.py`` ``CARD_NAMES``)."""
    two = [n for n in CARD_NAMES if len(n) == 2]
    assert card_codes(two).tolist() == [CARD_NAMES[n] for n in two]
    every = [*CARD_NAMES, "ZZ", "1S", "A", "AS "]
    assert card_codes(every).tolist() == [CARD_NAMES.get(n, -1) for n in every]
    assert card_codes(["AS", "ZZ", "é1"]).tolist() == [CARD_NAMES["AS"], -1, -1]
