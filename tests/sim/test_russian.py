"""Simulated Russian preferans (``sim/russian.py``): every deal of every convention is a complete
canonical record that passes ``check_deal`` (russian.md 1-4, 7), gives the row ingest derives,
ingests through the JSONL pipeline and settles; the games end where the settlement ends them (8)
and respect the raspasy exit (7)."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest

from ingest.pipeline import ingest_paths
from ingest.validate import canonical_json, deal_key
from model.cards import DECK_32, SUIT_MASK, iter_cards, parse_card
from model.russian.contracts import parse_contract
from model.russian.raspasy import check_game
from model.russian.records import RussianDeal
from model.variants import variant as lookup
from scoring.store import score_pending
from sim import SimulationError
from sim.balance import study
from sim.drivers import simulator
from sim.run import Plan, end_games, simulate
from sim.russian import bot_auction, raspasy_play, talon_lead, talon_order
from tests.sim.helpers import records, simulate_lines

RUSSIAN = "russian"
CONVENTIONS = ("sochi", "leningrad", "rostov", "soci-custom")


def _check(rules: dict[str, Any], games: int, deals: int, seed: int = 11,
           players: int = 3) -> Counter[str]:
    """Every simulated deal passes the variant's validation and is stored as ingest would store
    it (records.md 1.2, 2); returns what kinds of deal occurred."""
    v = lookup(RUSSIAN)
    batch = simulate_lines(RUSSIAN, games, deals, seed=seed, rules=rules,
                           options={"players": players})
    seen: Counter[str] = Counter()
    by_game: dict[str, list[Any]] = {}
    n = 0
    for i, game, deal in records(RUSSIAN, batch):
        assert isinstance(deal, RussianDeal)
        assert v.check_deal(game, deal) == [], batch.deals["record"][i]
        flat = {k: batch.flat[k][i] for k in batch.flat}
        assert flat == v.deal_row(game, deal)
        text = canonical_json(deal)
        assert text == batch.deals["record"][i]
        assert deal_key(deal.game_id, text) == batch.deals["deal_key"][i]
        assert deal.hands is not None and deal.auction and deal.talon is not None
        by_game.setdefault(game.game_id, [game]).append(deal)
        words = sorted((deal.defence or {}).values())
        seen["raspasy" if deal.declarer is None else str(deal.contract)[:1]
             if deal.contract != "misere" else "misere"] += 1
        seen["-".join(words)] += bool(words)
        seen["open"] += deal.open
        n += 1
    assert n == games * deals
    for game, *deals_of in by_game.values():  # the raspasy exit (7) needs the earlier deals
        assert check_game(game, deals_of) == []
    return seen


def test_sochi_thousands_of_deals_every_kind_occurs() -> None:
    # russian.md 2-4, 7: 3,000 deals under the defaults; raspasy, misère, every level, both
    # whists, one whister (open and closed), half-whist and a contract nobody whisted
    seen = _check({}, 150, 20)
    assert {"raspasy", "misere", "6", "7", "8", "9", "1"} <= set(seen)
    assert {"whist-whist", "pass-whist", "half-pass", "pass-pass"} <= set(seen)
    assert 0 < seen["open"] < seen["pass-whist"]


@pytest.mark.parametrize("convention", CONVENTIONS[1:])
def test_every_convention_is_simulated_legally(convention: str) -> None:
    # russian.md 6.1, 7: the presets (Leningrad's 7-7-7 exit is held by check_game)
    seen = _check({"convention": convention}, 60, 20)
    assert seen["raspasy"] > 0 and seen["misere"] + seen["6"] + seen["7"] > 0


@pytest.mark.parametrize("rules", [
    {"stalingrad": True, "ten_whisted": False},
    {"half_whist_play": True, "raspasy_exit": "6-7-7"},
    {"raspasy_talon_lead": False, "half_whist": False},
], ids=lambda r: ",".join(r))
def test_house_rules(rules: dict[str, Any]) -> None:
    # russian.md 10: each flag the bots act on is simulated legally
    _check(rules, 60, 10)


@pytest.mark.parametrize("convention", ["sochi", "leningrad"])
def test_four_players_the_dealer_sits_out(convention: str) -> None:
    # russian.md 1: with four players the dealer sits out; the deal passes to the left, so each
    # player sits out every fourth deal; the three in the deal bid, whist and play
    seen = _check({"convention": convention}, 40, 16, players=4)
    assert seen["raspasy"] > 0 and seen["whist-whist"] + seen["pass-whist"] > 0
    batch = simulate_lines(RUSSIAN, 3, 8, seed=5, options={"players": 4})
    for _, game, deal in records(RUSSIAN, batch):
        assert len(game.players) == 4
        assert deal.dealer == game.players[(deal.deal_no - 1) % 4]
        assert deal.hands is not None and deal.dealer not in deal.hands
        assert deal.tricks is None or deal.dealer not in deal.tricks


def test_players_is_an_option_of_three_or_four() -> None:
    with pytest.raises(SimulationError, match="players"):
        simulator(RUSSIAN, None, "heuristic", {"players": 5})
    with pytest.raises(SimulationError, match="options"):
        simulator("greek-prefa", None, "heuristic", {"players": 4})


def test_half_whist_is_played_when_the_flag_says_so() -> None:
    # russian.md 3, [rostik]: with half_whist_play the half-whist deals carry a play
    batch = simulate_lines(RUSSIAN, 100, 10, rules={"half_whist_play": True})
    deals = [d for _, _, d in records(RUSSIAN, batch) if isinstance(d, RussianDeal)]
    halves = [d for d in deals if "half" in (d.defence or {}).values()]
    assert halves and all(d.play is not None and d.tricks is not None for d in halves)


def test_the_auction_follows_the_rules_machine() -> None:
    # russian.md 2: misère as a first call only, after it 9S or higher; all pass is raspasy
    calls, declarer, bid = bot_auction([3, -1, 20], [False, True, False], 6)
    assert calls[:2] == [(0, 0), (1, 15)]  # 6S, misère
    assert (1, -1) in calls and declarer == 2 and bid == 16  # then 9S by the third
    assert bot_auction([-1, -1, -1], [False] * 3, 6) == ([(0, -1), (1, -1), (2, -1)], None, -1)
    # after raspasy with a 7 exit nobody bids a six (7)
    calls, declarer, bid = bot_auction([6, 4, -1], [False] * 3, 7)
    assert calls == [(0, 5), (1, -1), (2, -1)] and declarer == 0  # 7S (rank 5); 6NT is 4


def test_raspasy_leads_the_suit_of_the_turned_talon_card() -> None:
    # russian.md 4 "Raspasy": first hand leads the first two tricks, in the talon card's suit
    cards = list(iter_cards(DECK_32))
    talon = (1 << parse_card("7H")) | (1 << parse_card("AS"))
    rest = [c for c in cards if not talon >> c & 1]
    hands = [sum(1 << c for c in rest[k::3]) for k in range(3)]
    codes, taken = raspasy_play(hands, talon, True, False)
    assert talon_order(talon) == (parse_card("7H"), parse_card("AS"))
    assert [x >> 6 for x in codes[:6]] == [0, 1, 2, 0, 1, 2]
    assert hands[0] & SUIT_MASK[3] and hands[0] & SUIT_MASK[0]  # he holds both suits
    assert (codes[0] & 63) >> 4 == 3 and (codes[3] & 63) >> 4 == 0
    assert sum(taken) == 10 and len(codes) == 30


def test_the_compiled_talon_lead_makes_the_interpreted_decisions() -> None:
    # docs/simulation.md "Speed": the first two raspasy tricks run compiled when numba is there;
    # the plain Python function (numba's py_func) plays the same cards on random deals
    interpreted = getattr(talon_lead, "py_func", talon_lead)
    cards = list(iter_cards(DECK_32))
    rng = random.Random(5)
    for _ in range(300):
        rng.shuffle(cards)
        hands = np.array([sum(1 << c for c in cards[10 * k:10 * k + 10]) for k in range(3)],
                         dtype=np.int64)
        talon = (1 << cards[30]) | (1 << cards[31])
        first, second = talon_order(talon)
        a, b = talon_lead(hands, talon, first, second), interpreted(hands, talon, first, second)
        assert [x.tolist() if hasattr(x, "tolist") else x for x in a] == [
            x.tolist() if hasattr(x, "tolist") else x for x in b]


def test_simulated_games_ingest_and_settle(tmp_path: Path) -> None:
    # records.md 1-2: the JSONL the simulator writes goes through ingest unquarantined and every
    # deal settles; pools never pass the target and the whists sum to zero per deal (8)
    for seed, convention in enumerate(CONVENTIONS):  # a seed each: the game ids differ
        simulate(Plan(RUSSIAN, 6, 25, seed, {"convention": convention}), out=tmp_path /
                 f"{convention}.jsonl", workers=1)
    db = tmp_path / "r.duckdb"
    reports = ingest_paths([tmp_path / f"{c}.jsonl" for c in CONVENTIONS], db,
                           score=score_pending)
    assert all(r.quarantined == 0 and not r.issues for r in reports), [
        i for r in reports for i in r.issues][:3]
    con = duckdb.connect(str(db), read_only=True)
    try:
        n_deals = con.execute("SELECT count(*) FROM deals").fetchone()
        unsettled = con.execute(
            "SELECT count(*) FROM deals d WHERE NOT EXISTS (SELECT 1 FROM settlements s "
            "WHERE s.game_id = d.game_id AND s.deal_no = d.deal_no)").fetchone()
        sums = con.execute("SELECT max(abs(t)) FROM (SELECT sum(cash) t FROM settlements "
                           "GROUP BY game_id, deal_no)").fetchone()
        games = con.execute("SELECT count(DISTINCT game_id) FROM games").fetchone()
    finally:
        con.close()
    assert games == (24,)
    assert n_deals is not None and n_deals[0] > 24 * 10
    assert unsettled == (0,)
    assert sums is not None and sums[0] < 1e-6


def test_a_game_ends_when_every_pool_is_closed() -> None:
    # russian.md 8: with a small target the games end early and nothing is dealt after the end
    rules = {"pool_target": 6}
    raw = simulate_lines(RUSSIAN, 6, 80, seed=3, rules=rules)
    ended = end_games(RUSSIAN, raw)
    assert 0 < ended.n_deals < raw.n_deals
    per_game: dict[str, list[int]] = {}
    for gid, no in zip(ended.deals["game_id"], ended.deals["deal_no"], strict=True):
        per_game.setdefault(gid, []).append(no)
    assert all(nos == list(range(1, len(nos) + 1)) for nos in per_game.values())
    assert max(len(nos) for nos in per_game.values()) < 80


def test_balance_study_compares_the_conventions() -> None:
    # docs/balance-study.md: Sochi against Leningrad on the same deals (russian.md 6.1, 7):
    # money by contract level and seat from the variant's outcome, contract label and level
    s = study(RUSSIAN, {"convention": "sochi"}, {"convention": "leningrad"}, 20, 10, seed=4,
              workers=1)
    m = s.metrics
    for arm in ("a", "b"):
        keys = set(m.filter((pl.col("arm") == arm) & (pl.col("metric") == "seat_result"))["key"])
        assert keys == {"dealer", "first hand", "second hand"}
        levels = m.filter((pl.col("arm") == arm) & (pl.col("metric") == "money_flow"))["key"]
        assert {"6", "7"} <= set(levels)
    shares = m.filter((pl.col("metric") == "contract_share") & (pl.col("key") != "all played"))
    # the contracts in the game's words, as the Contracts page writes them (6S is 6♠)
    assert all(re.fullmatch(r"(6|7|8|9|10)(♠|♣|♦|♥|NT)|misère", k) for k in shares["key"])
    effect = m.filter(pl.col("metric") == "flag_effect").rows_by_key("key", named=True)
    # Leningrad doubles whists and remises (6.1): the declarer's money changes in most deals
    assert effect["money changed"][0]["estimate"] > 0.3
    # the money is whists (russian.md 8), all of it in the cash: no chips, no kassa
    assert set(effect) == {"declarer money", "declarer whists", "contract changed",
                           "money changed"}
    (money,), (whists,) = effect["declarer money"], effect["declarer whists"]
    assert money["n"] == whists["n"]  # the same sums, added in whatever order polars chose
    assert [money[k] for k in ("estimate", "lo", "hi")] == pytest.approx(
        [whists[k] for k in ("estimate", "lo", "hi")], rel=1e-12)


def test_the_bots_play_a_sensible_game() -> None:
    # docs/simulation.md "How the bots decide" (loose bounds, 3,000 Sochi deals): raspasy are a
    # minority, misère is rare, most played contracts are made, defenders do not whist everything
    batch = simulate_lines(RUSSIAN, 150, 20, seed=21)
    deals = [d for _, _, d in records(RUSSIAN, batch) if isinstance(d, RussianDeal)]
    raspasy = sum(d.declarer is None for d in deals)
    misere = [d for d in deals if d.contract == "misere"]
    played = [d for d in deals if d.declarer is not None and d.contract != "misere" and d.tricks]
    made = sum((d.tricks or {})[d.declarer or ""] >= parse_contract(d.contract or "").level
               for d in played)
    words = [w for d in deals for w in (d.defence or {}).values()]
    assert 0.15 < raspasy / len(deals) < 0.5
    assert 0.003 < len(misere) / len(deals) < 0.05
    assert 0.5 < made / len(played) < 0.9
    assert 0.3 < words.count("whist") / len(words) < 0.9
