"""The fast path for deals with cards accepts only what the pydantic reference accepts, with the
same stored content (ingest/fastpath_cards.py; records.md 1.2; greek-prefa.md 3-7 and 14 for the
rules it checks).

Hypothesis draws legal deals from the random simulator (sim/random_play/greek.py) under
varied house rules, then breaks them in many ways (a wrong or repeated card, a revoke, wrong
trick counts, a deck that is not partitioned, a bad auction, a wrong discard, flags, nulls, extra
fields, other key orders, spaces around names) and holds: a line the fast path accepts is accepted
by the reference with the same canonical JSON, deal key, ``deals`` columns and ``deals_greek`` row.
A second property holds that the simulator's legal deals are taken by the fast path where it
claims to cover them, and a pipeline test that a mixed file stores the same tables either way.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest import fastpath_cards, fastpath_columns, jsonl
from ingest.jsonl import parse_line
from ingest.source import Issue
from ingest.validate import Accepted, Validator
from model.base import DealBase
from model.greek.records import GreekGame
from model.variants import variant
from sim.random_play.greek import random_deal

GREEK = variant("greek-prefa")
NAMES = ["Anna", "Boris", "Chris", "Dora", "Zoë", "O'Neil", "A  B"]
ODD = [" Anna", "anna", "Nobody", "", 'A"B', "Tab\t"]
Draw = Callable[..., Any]
"""``st.DrawFn`` or ``st.DataObject.draw``."""
ORDER = ["record", "game_id", "deal_no", "dealer", "hands", "talon", "auction", "declarer",
         "discard", "contract", "defence", "play", "tricks"]


@st.composite
def games(draw: st.DrawFn) -> GreekGame:
    n = draw(st.sampled_from([3, 3, 4]))
    players = draw(st.lists(st.sampled_from(NAMES), min_size=n, max_size=n, unique=True))
    rules: dict[str, Any] = {"four_players": n == 4}
    for key, values in (("ten_nt", ["forbidden", "value_11"]), ("preliminary_bid", [True, False]),
                        ("jump_bids", [False, True]), ("must_overtrump_when_void", [False, True]),
                        ("hold_rule", ["after_first_round", "seat_priority"]),
                        ("first_bidder_by_7d", [False, True]),
                        ("four_aces", ["none", "raise_value"]),
                        ("all_pass", ["redeal", "redeal", "play_low"])):
        if draw(st.booleans()):
            rules[key] = draw(st.sampled_from(values))
    return GreekGame.model_validate({"game_id": draw(st.sampled_from(["g/1", "ü 2"])),
                                     "variant": "greek-prefa", "players": players,
                                     "rules": rules})


def simulated(game: GreekGame, seed: int, deal_no: int) -> dict[str, Any]:
    """A legal deal as the JSON object a file would hold (record first, flags written out)."""
    sim = random_deal(random.Random(seed), game, deal_no)
    d = sim.deal.model_dump(mode="json", exclude_none=True)
    return {"record": "deal", **{k: v for k, v in d.items() if k != "record"}}


def _swap_card(draw: Draw, cards: list[Any]) -> None:
    i = draw(st.integers(0, len(cards) - 1))
    cards[i] = draw(st.sampled_from(["7S", "AH", "TD", "10D", "2C", "KX", "ah", " 9C", 7]))


def _mutate(draw: Draw, game: GreekGame, d: dict[str, Any]) -> None:
    """One change that may or may not break the deal."""
    p = list(game.players)
    kind = draw(st.integers(0, 20))
    hands = d.get("hands") or {}
    play = d.get("play") or []
    if kind == 0 and hands:  # a wrong card, or one dealt twice
        _swap_card(draw, hands[draw(st.sampled_from(sorted(hands)))])
    elif kind == 1 and len(hands) == 3:  # swap two cards between hands: deck still partitioned
        a, b = draw(st.permutations(sorted(hands)))[:2]
        if hands[a] and hands[b]:  # an earlier change may have emptied or shortened one
            i = draw(st.integers(0, len(hands[a]) - 1))
            j = draw(st.integers(0, len(hands[b]) - 1))
            hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    elif kind == 2 and hands:  # a hand one card short or long
        h = hands[draw(st.sampled_from(sorted(hands)))]
        h.pop() if draw(st.booleans()) else h.append(draw(st.sampled_from(["7S", "8H"])))
    elif kind == 3 and d.get("talon"):
        _swap_card(draw, d["talon"])
    elif kind == 4 and play:  # a revoke or another card: swap two plays of one trick or two
        i = draw(st.integers(0, len(play) - 1))
        j = draw(st.integers(0, len(play) - 1))
        play[i][1], play[j][1] = play[j][1], play[i][1]
    elif kind == 5 and play:  # a card out of turn / by someone else
        play[draw(st.integers(0, len(play) - 1))][0] = draw(st.sampled_from(p + ODD))
    elif kind == 6 and play:  # play cut short
        del play[draw(st.integers(0, len(play) - 1)):]
    elif kind == 7 and d.get("tricks"):
        who = draw(st.sampled_from(sorted(d["tricks"])))
        d["tricks"][who] += draw(st.sampled_from([-1, 1]))
        if draw(st.booleans()) and len(d["tricks"]) > 1:  # still summing to ten
            other = draw(st.sampled_from(sorted(set(d["tricks"]) - {who})))
            d["tricks"][other] -= d["tricks"][who] - (d["tricks"][who] - 1)
    elif kind == 8 and d.get("auction"):
        calls = d["auction"]
        i = draw(st.integers(0, len(calls) - 1))
        if draw(st.booleans()):
            calls[i]["call"] = draw(st.sampled_from(["pass", "hold", "take", "6S", "7H", "10NT",
                                                     "PASS", " pass", "x"]))
        else:
            calls.pop(i)
    elif kind == 9:
        d["declarer"] = draw(st.sampled_from([*p, None, *ODD]))
    elif kind == 10:
        d["contract"] = draw(st.sampled_from(["6S", "7D", "8H", "10NT", "10H", "6X", " 6S", None]))
    elif kind == 11 and d.get("defence"):
        who = draw(st.sampled_from(sorted(d["defence"])))
        d["defence"][who] = draw(st.sampled_from(["play", "pass", "invite", "alone", "whist"]))
    elif kind == 12:
        d["discard"] = draw(st.sampled_from([None, ["7S", "8S"], ["AS"], ["AH", "AH"]]))
        if d["discard"] is None:
            del d["discard"]
    elif kind == 13:
        d[draw(st.sampled_from(["four_aces", "preliminary", "conceded"]))] = draw(
            st.sampled_from([True, False, None, 0]))
    elif kind == 14:
        d[draw(st.sampled_from(["note", "variant", "hand"]))] = "x"
    elif kind == 15:
        d[draw(st.sampled_from(["talon", "auction", "play", "tricks", "hands", "defence"]))] = None
    elif kind == 16:
        d["deal_no"] = draw(st.sampled_from([0, 1, 10**12, "3", 2.0, True]))
    elif kind == 17:
        d["dealer"] = draw(st.sampled_from(p + ODD))
    elif kind == 18 and hands:  # the hands of two players exchanged
        a, b = draw(st.permutations(sorted(hands)))[:2]
        hands[a], hands[b] = hands[b], hands[a]
    elif kind == 20:
        d["tricks"] = {}
    elif kind == 19:
        d.pop(draw(st.sampled_from(["talon", "auction", "play", "tricks", "hands", "discard"])),
              None)


def line_of(draw: Draw, d: dict[str, Any]) -> str:
    keys = list(d)
    if draw(st.integers(0, 4)) == 0:
        keys = draw(st.permutations(keys))
    else:
        keys.sort(key=lambda k: ORDER.index(k) if k in ORDER else 99)
    seps = draw(st.sampled_from([(", ", ": "), (",", ":"), (" ,", " : ")]))
    return json.dumps({k: d[k] for k in keys}, separators=seps,
                      ensure_ascii=draw(st.integers(0, 3)) == 0)


def reference(game: GreekGame, line: str) -> Accepted | Issue:
    validator = Validator(variants=variant)
    validator.games[game.game_id] = (game, GREEK, "")
    raw = parse_line("s", 1, line)
    return raw if isinstance(raw, Issue) else validator.validate(raw)


def fast(game: GreekGame, lines: list[str]) -> pl.DataFrame:
    view = fastpath_cards.game_view(game)
    games = {} if view is None else {game.game_id: (view, -1)}
    out, _ = fastpath_cards.accept("s", list(enumerate(lines, 1)), list(range(len(lines))),
                                   games)
    return out


def assert_same(row: dict[str, Any], ref: Accepted) -> None:
    deal = ref.record
    assert isinstance(deal, DealBase)
    assert row["record"] == ref.canonical
    assert row["deal_key"] == ref.key
    assert (row["game_id"], row["deal_no"], row["dealer"], row["declarer"], row["contract"],
            row["has_cards"]) == (deal.game_id, deal.deal_no, deal.dealer, deal.declarer,
                                  getattr(deal, "contract", None), deal.hands is not None)
    frame = pl.DataFrame([row], schema_overrides={"idx": pl.Int32()})
    got = fastpath_cards.taken(frame).rows[GREEK.name].drop("idx").row(0, named=True)
    assert got == GREEK.deal_row(ref.game, deal)


@settings(deadline=None, max_examples=400)
@given(data=st.data(), seed=st.integers(0, 10**6))
def test_fast_accepts_only_what_the_reference_accepts(data: st.DataObject, seed: int) -> None:
    game = data.draw(games())
    d = simulated(game, seed, data.draw(st.sampled_from([1, 2, 7])))
    for _ in range(data.draw(st.sampled_from([0, 1, 1, 2, 3]))):
        _mutate(data.draw, game, d)
    line = line_of(data.draw, d)
    out = fast(game, [line])
    ref = reference(game, line)
    if out.height:
        assert isinstance(ref, Accepted), f"fast path accepted a line the reference rejects: {ref}"
        assert_same(out.row(0, named=True), ref)


@settings(deadline=None, max_examples=60)
@given(data=st.data(), seed=st.integers(0, 10**6))
def test_legal_deals_take_the_fast_path(data: st.DataObject, seed: int) -> None:
    """Every simulated legal deal is taken, except what the path leaves to the reference by
    design (docs/ingest.md): all_pass = play_low and flags. (The simulator does not move first
    hand for the first deal under first_bidder_by_7d, so deals start at 2 here.)"""
    game = data.draw(games())
    lines = [json.dumps(simulated(game, seed + n, n), ensure_ascii=False) for n in range(2, 13)]
    out = fast(game, lines)
    taken = dict(zip(out["idx"].to_list(), out.iter_rows(named=True), strict=True))
    rules = game.rules
    for i, line in enumerate(lines):
        ref = reference(game, line)
        assert isinstance(ref, Accepted), ref  # the simulator only makes legal deals
        deal = ref.record
        left = rules.all_pass == "play_low" or any(getattr(deal, f) for f in fastpath_cards.FLAGS)
        assert (i in taken) != left, line
        if i in taken:
            assert_same(taken[i], ref)


@pytest.mark.parametrize(("small", "columns"), [(1, False), (64, False), (64, True)],
                         ids=["numpy-replay", "reference-replay", "columnar-path-first"])
def test_mixed_file_stores_the_same_with_and_without_the_fast_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small: int, columns: bool
) -> None:
    """records.md 2: the card fast paths change speed, never results. Legal and broken deals with
    cards, score-sheet deals, games starting mid-batch, duplicates and conflicting copies, in
    small batches, some of plain lines kept as bytes (``ingest/lines.py``) and some not; plays
    replayed in numpy (``replay_batch``) or one by one; with the columnar path
    (``ingest/fastpath_columns/``) before the per-line one, or the per-line one alone."""
    monkeypatch.setattr(fastpath_cards, "SMALL", small)
    monkeypatch.setattr(jsonl, "BLOCK", 8192)  # blocks of a few lines, plain or not
    columnar: list[int] = []  # lines the columnar path took, per batch
    real_columns = fastpath_columns.accept

    def spy_columns(*args: Any) -> pl.DataFrame:
        out = real_columns(*args) if columns else real_columns([], [], {})
        columnar.append(out.height)
        return out

    monkeypatch.setattr(fastpath_columns, "accept", spy_columns)
    from data.samples.make_samples import league_lines
    from ingest.pipeline import ingest_paths
    from tests.ingest.fakes import FakeSettlement, fake_scorer
    from tests.ingest.test_pipeline import snapshot

    rng = random.Random(3)
    lines = list(league_lines(3, 40, cards=True, prefix="cards"))
    lines += list(league_lines(2, 20, cards=False, prefix="sheet"))
    deals = [t for t in lines if '"hands"' in t]
    broken = [t.replace('"tricks": {"', '"tricks": {"x": 0, "', 1) for t in deals[:5]]
    broken += [t.replace('"AS"', '"AH"', 1) for t in deals[5:15]]  # a card dealt twice
    broken += [t.replace('"play": [[', '"play": [["Anna", "7S"], [', 1) for t in deals[15:20]]
    broken += [t.replace('"deal_no": ', '"deal_no": 1', 1) for t in deals[20:25]]  # new deals
    broken += [t.replace('"talon"', '"note": 1, "talon"', 1) for t in deals[25:28]]
    for t in deals[30:40]:  # plays that fail the replay (revokes, changed tricks), new numbers
        d = json.loads(t)
        if d.get("play"):
            play = d["play"]
            play[3][1], play[4][1] = play[4][1], play[3][1]
            d["deal_no"] += 1000
            broken.append(json.dumps(d))
    repeats = [rng.choice(deals) for _ in range(20)]
    mixed = lines + broken + repeats + ["", "  ", '{"record": "note", "text": "καφές"}']
    tail = mixed[len(lines) // 2:]
    rng.shuffle(tail)  # (a slice is a copy: shuffled, then put back)
    mixed[len(lines) // 2:] = tail
    src = tmp_path / "mixed.jsonl"
    src.write_text("\n".join(mixed) + "\n")
    fast_db, ref_db = tmp_path / "fast.duckdb", tmp_path / "ref.duckdb"
    taken: list[int] = []  # lines the card fast path accepted
    verdicts: list[bool] = []  # of the replays
    real_verdicts = fastpath_cards._verdicts

    def spy_verdicts(jobs: list[Any]) -> list[bool]:
        out = real_verdicts(jobs)
        verdicts.extend(v for v, j in zip(out, jobs, strict=True) if j is not None)
        return out

    real = fastpath_cards.accept

    def spy(*args: Any) -> tuple[pl.DataFrame, dict[int, Any]]:
        out = real(*args)
        taken.append(out[0].height)
        return out

    monkeypatch.setattr(fastpath_cards, "accept", spy)
    monkeypatch.setattr(fastpath_cards, "_verdicts", spy_verdicts)
    (f,) = ingest_paths([src], fast_db, score=fake_scorer(FakeSettlement()), batch=41)
    (r,) = ingest_paths([src], ref_db, score=fake_scorer(FakeSettlement()), batch=41,
                        fast=False)
    assert (f.records, f.stored, f.duplicates, f.quarantined) == \
        (r.records, r.stored, r.duplicates, r.quarantined)
    assert f.duplicates > 0 and f.quarantined > 0
    if columns:  # the columnar path did the work, the per-line one saw what it left
        assert sum(columnar) > len(deals) // 2
        assert False in verdicts
    else:
        assert sum(taken) > len(deals) // 2  # the fast path did the work
        assert True in verdicts and False in verdicts  # and its replay turned some plays down
    assert snapshot(fast_db) == snapshot(ref_db)


@settings(deadline=None, max_examples=40)
@given(data=st.data(), seed=st.integers(0, 10**6))
def test_batch_replay_agrees_with_the_reference_replay(data: st.DataObject, seed: int) -> None:
    """greek-prefa.md 7: the numpy replay of many plays at once (``replay_batch``) gives the
    verdict of ``model/tricks.py:replay`` for each: legal plays, revokes, cards not held, cards
    out of turn, wrong trick counts, under must_overtrump_when_void or not."""
    game = data.draw(games())
    view = fastpath_cards.game_view(game)
    if view is None:
        return
    jobs: list[fastpath_cards.Replay] = []
    rng = random.Random(seed)
    for n in range(2, 80):
        d = simulated(game, seed + n, n)
        if d.get("play") and rng.random() < 0.5:
            play = d["play"]
            i, j = rng.randrange(len(play)), rng.randrange(len(play))
            if rng.random() < 0.7:
                play[i][1], play[j][1] = play[j][1], play[i][1]
            else:
                play[i][0] = play[j][0]
        if d.get("tricks") and rng.random() < 0.1:
            a, b = sorted(d["tricks"])[:2]
            d["tricks"][a] += 1
            d["tricks"][b] -= 1
        got = fastpath_cards.check(view, json.loads(json.dumps(d)))
        if got is not None and got[2] is not None:
            jobs.append(got[2])
    for k in (2, 3):
        group = [j for j in jobs if len(j.hands) == k]
        if group:
            want = [fastpath_cards.replay_one(j) for j in group]
            assert fastpath_cards.replay_batch(group).tolist() == want
    assert not jobs or any(fastpath_cards.replay_one(j) for j in jobs)
