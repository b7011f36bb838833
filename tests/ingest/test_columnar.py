"""The columnar path (``ingest/columnar.py``) accepts exactly what the per-record reference accepts
(``ingest/validate.py``), with the same canonical JSON, deal key and rows, for every registered
variant (records.md 1.2: the canonical record; each variant's spec for its rules).

Deals come from each variant's simulator (``sim/``), broken by one of the changes of
:func:`_mutate` (cards, play, tricks, auction, contract, types, nulls, extra fields) and written
canonically or not (:func:`_written`): other key orders, spaces, escaped names.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest import columnar, sheets
from ingest.jsonl import parse_line
from ingest.pipeline import ingest_paths
from ingest.sheets import Taken
from ingest.source import Issue
from ingest.validate import Accepted, Validator, too_wide
from model.identity import canonical
from model.problems import Code
from model.schema import integer_ranges
from model.variants import names
from sim.drivers import SIMULATED
from sim.run import Plan, simulate
from tests.ingest.conftest import snapshot as snapshot_of
from tests.ingest.taken import assert_same, counted, taken_rows, verdict
from tests.ingest.test_pipeline import snapshot

SOURCE = "t.jsonl"
ODD = ["X", "P1 ", "", "Ν"]
"""Names no game here has (a stray space, empty, a Greek capital nu)."""


def test_every_registered_variant_is_simulated() -> None:
    """The property below covers every registered variant."""
    assert set(names()) <= set(SIMULATED)


@cache
def simulated(variant: str) -> tuple[list[str], list[str]]:
    """Game lines and deal lines of a few simulated games (canonical, as the simulator writes)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "s.jsonl"
        simulate(Plan(variant, 3, 8, seed=5), out=out, workers=1)
        lines = out.read_text(encoding="utf-8").splitlines()
    return ([t for t in lines if t.startswith('{"record":"game"')],
            [t for t in lines if t.startswith('{"record":"deal"')])


def _cards(d: dict[str, Any]) -> list[str]:
    return [c for h in (d.get("hands") or {}).values() if isinstance(h, list) for c in h]


def _mutate(rng: random.Random, kind: int, d: dict[str, Any], games: list[str]) -> None:
    """One change that may or may not break the deal (kind 0-23)."""
    hands: dict[str, Any] = d["hands"] if isinstance(d.get("hands"), dict) else {}
    names = sorted(hands)
    play: list[Any] = d["play"] if isinstance(d.get("play"), list) else []
    players = json.loads(games[0])["players"]
    if kind == 0 and names:  # a wrong card: one of another suit or a foreign card
        h = hands[rng.choice(names)]
        if h:
            h[rng.randrange(len(h))] = rng.choice(["2C", "AS", "7H", "1S", "ZZ", "10S", "as"])
    elif kind == 1 and len(names) > 1:  # a card dealt twice
        a, b = rng.sample(names, 2)
        if hands[a] and hands[b]:
            hands[b][0] = hands[a][0]
    elif kind == 2 and names:  # a card missing, or one too many
        h = hands[rng.choice(names)]
        h.pop() if h and rng.random() < 0.5 else h.append(rng.choice(_cards(d) or ["7S"]))
    elif kind == 3 and len(names) > 1:  # two cards swapped between hands: the deck still whole
        a, b = rng.sample(names, 2)
        if hands[a] and hands[b]:
            i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
            hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    elif kind == 4 and len(play) > 1:  # a revoke or a card not held: two plays swapped
        i, j = rng.sample(range(len(play)), 2)
        play[i][1], play[j][1] = play[j][1], play[i][1]
    elif kind == 5 and play:  # a card out of turn, or by a stranger
        play[rng.randrange(len(play))][0] = rng.choice(players + ODD)
    elif kind == 6 and play:  # the play cut short
        del play[rng.randrange(len(play)):]
    elif kind == 7 and "tricks" in d:  # wrong trick counts
        if isinstance(d["tricks"], dict) and d["tricks"]:
            d["tricks"][rng.choice(sorted(d["tricks"]))] += rng.choice([-1, 1])
        elif isinstance(d["tricks"], int):
            d["tricks"] += rng.choice([-1, 1])
    elif kind == 8 and d.get("auction"):  # another call
        rng.choice(d["auction"])["call"] = rng.choice(
            ["pass", "1S", "7NT", "6S", "2", "x", "PASS", " pass", "hold", "take"])
    elif kind == 9 and d.get("auction"):  # a call left out
        d["auction"].pop(rng.randrange(len(d["auction"])))
    elif kind == 10:
        d["declarer"] = rng.choice([*players, None, *ODD])
    elif kind == 11:  # another contract (the contracts of the other deals, and nonsense)
        d["contract"] = rng.choice(["6S", "7D", "10NT", "2", "3NT", "4HX", "7", "6X", " 6S",
                                    None, 3])
    elif kind == 12 and d.get("discard"):  # a discard not from the hand and talon
        d["discard"] = rng.choice([[], ["7S"], d["discard"][::-1], [d["discard"][0]] * 2,
                                   (d.get("talon") or ["AS", "AH"])[:2]])
    elif kind == 13:  # wrong types
        d["deal_no"] = rng.choice([0, 2**31, "3", 2.0, True, -1])
    elif kind == 14 and d:  # a null
        d[rng.choice(sorted(d))] = None
    elif kind == 15:  # an unknown field, or a default written out
        d[rng.choice(["note", "variant", "hand", "kunstwerk", "four_aces", "board", "board"])] = \
            rng.choice(["x", False, True, 1, 0, 2**31, 2**63, 2**70])
    elif kind == 16:
        d["dealer"] = rng.choice([*players, *ODD])
    elif kind == 17 and d.get("talon"):
        d["talon"][0] = rng.choice(_cards(d) or ["7S"])
    elif kind == 18 and names:  # a hand given to a stranger
        hands[rng.choice(ODD[:2])] = hands.pop(rng.choice(names))
    elif kind == 19 and play:  # a card played by its name with spaces or another spelling
        play[rng.randrange(len(play))][1] = rng.choice([" 7S", "7s", "10S"])
    elif kind == 20:
        d["game_id"] = rng.choice(["nope", "", 7])
    elif kind == 21 and d.get("auction"):  # a call by the wrong player
        rng.choice(d["auction"])["player"] = rng.choice(players + ODD)
    elif kind == 22 and "tricks" in d:  # trick counts as text or floats
        d["tricks"] = rng.choice(["5", 5.0, None, {}, [1]])
    # kind 23: the deal as it is


def _written(rng: random.Random, how: int, d: dict[str, Any]) -> str:
    """The deal as a line: canonical (``record`` first, keys sorted, no spaces) mostly; else with
    spaces, in another order (at the top or inside), with escapes, a name written with a \\u
    escape, or a name that needs an escape (canonical all the same)."""
    body = canonical(d)
    if how == 1:
        return json.dumps({"record": "deal", **d}, separators=(", ", ": "), sort_keys=True)
    if how == 2:
        keys = list(d)
        rng.shuffle(keys)
        return json.dumps({"record": "deal", **{k: d[k] for k in keys}}, separators=(",", ":"))
    if how == 3:
        return '{"record":"deal",' + body[1:].replace('"P', '"\\u0050', 1)
    if how == 4:
        return '{"record":"deal",' + json.dumps(d, sort_keys=True, separators=(",", ":"),
                                                ensure_ascii=True)[1:] + " "
    if how == 5:
        return '{"deal_no":1,"record":"deal",' + body[1:]  # a key twice
    if how == 6:  # the keys of the objects inside in another order (hands, calls, tricks)
        return '{"record":"deal",' + json.dumps(_inner_reversed(d), separators=(",", ":"),
                                                ensure_ascii=False)[1:]
    if how == 7:  # a name that needs an escape: a quote, a backslash or a control character
        body = canonical({**d, "dealer": str(d.get("dealer")) + rng.choice(['"', "\\", "\n"])})
    if how == 8:  # a key twice inside an object (a player's tricks or decision said twice)
        body = _INNER_PAIR.sub(r"\1\2,\2\3", body, count=1)
    return '{"record":"deal",' + body[1:]


_INNER_PAIR = re.compile(r'(:\{)("[^"]+":[^,{}\[\]]+)([,}])')
"""The first pair of the first object inside a record whose value is not an array or object."""


def _inner_reversed(d: dict[str, Any]) -> dict[str, Any]:
    """``d`` with its top-level keys sorted and the keys of every object inside reversed."""
    def turned(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: turned(x[k]) for k in sorted(x, reverse=True)}
        return [turned(v) for v in x] if isinstance(x, list) else x

    return {k: turned(d[k]) for k in sorted(d)}


def _validator(games: list[str]) -> Validator:
    validator = Validator()
    for i, g in enumerate(games):
        raw = parse_line(SOURCE, i + 1, g)
        assert not isinstance(raw, Issue)
        assert isinstance(validator.validate(raw), Accepted)
    return validator


@pytest.mark.parametrize("variant", SIMULATED)
@settings(deadline=None, max_examples=60)
@given(data=st.data())
def test_columnar_accepts_exactly_what_the_reference_accepts(variant: str,
                                                             data: st.DataObject) -> None:
    games, deals = simulated(variant)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    d = json.loads(data.draw(st.sampled_from(deals)))
    del d["record"]
    for kind in data.draw(st.lists(st.integers(0, 23), min_size=1, max_size=2)):
        _mutate(rng, kind, d, games)
    text = _written(rng, data.draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8])), d)
    line = 10
    ref = verdict(_validator(games), SOURCE, line, text)
    taken = taken_rows(columnar.accept([(line, text)], [0], _validator(games)))
    if 0 in taken:
        assert isinstance(ref, Accepted), ref
        assert_same(taken[0], ref)
    else:
        assert not isinstance(ref, Accepted), ref


def _all_taken_as_the_reference_takes(games: list[str], deals: list[str]) -> None:
    """The columnar path takes every line of ``deals`` in one batch, each as the reference
    takes it."""
    texts = [(i + 1, t) for i, t in enumerate(deals)]
    taken = taken_rows(columnar.accept(texts, range(len(deals)), _validator(games)))
    assert sorted(taken) == list(range(len(deals)))
    validator = _validator(games)
    for k, (line, text) in enumerate(texts):
        ref = verdict(validator, SOURCE, line, text)
        assert isinstance(ref, Accepted), ref
        assert_same(taken[k], ref)


@pytest.mark.parametrize("variant", SIMULATED)
def test_simulated_deals_take_the_columnar_path(variant: str) -> None:
    """Every simulated deal is legal: the columnar path takes all of them in one batch, each as
    the reference takes it (the rows worked out once per ``row_key``), written canonically as
    the simulator writes them and written otherwise (spaces, every object's keys reversed)."""
    games, deals = simulated(variant)
    _all_taken_as_the_reference_takes(games, deals)
    reversed_keys = [json.dumps(_inner_reversed(dict(reversed(json.loads(t).items()))))
                     for t in deals]
    _all_taken_as_the_reference_takes(games, reversed_keys)


NAMES = {"named like a key": ["hands", "talon", "call", "player"],
         "long": ["A" * 80, "B" * 79, "C" * 40, "D"],
         "comma and colon": ["Smith, J", "Chris: x", "a,b", "c:d"],
         "not ASCII": ["Åsa", "Ölof", "Zoë", "Γιώργος"],
         "quote-like": ["O'Neil", "[x]", "{y}", "a b"]}
"""Odd but valid player names (records.md 1.1: a name is kept as written)."""


def _renamed(text: str, names: dict[str, str]) -> str:
    """A canonical line with every player name (a string or mapping key equal to one) replaced,
    written canonically again."""
    def swap(x: Any) -> Any:
        if isinstance(x, dict):
            return {names.get(k, k): swap(v) for k, v in x.items()}
        if isinstance(x, list):
            return [swap(v) for v in x]
        return names.get(x, x) if isinstance(x, str) else x

    d = swap(json.loads(text))
    record = d.pop("record")
    return f'{{"record":"{record}",' + canonical(d)[1:]


@pytest.mark.parametrize("variant", SIMULATED)
@pytest.mark.parametrize("odd", list(NAMES), ids=list(NAMES))
def test_any_name_keeps_its_bytes(variant: str, odd: str) -> None:
    """records.md 1: the canonical JSON keeps names as written, so a name like a key, a long
    one, one with a comma, a colon or a quote, or one not in ASCII is just a name: the columnar
    path takes the legal deals of such a game as the reference does."""
    games, deals = simulated(variant)
    players = json.loads(games[0])["players"]
    names = dict(zip(players, NAMES[odd], strict=False))
    games = [_renamed(g, names) for g in games[:1]]
    game_id = json.loads(games[0])["game_id"]
    _all_taken_as_the_reference_takes(
        games, [_renamed(t, names) for t in deals if json.loads(t)["game_id"] == game_id])


@pytest.mark.parametrize("variant", SIMULATED)
def test_a_mixed_file_gives_the_same_tables_with_the_columnar_path_on_and_off(
        variant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Legal, broken, repeated and conflicting deals, some written otherwise, in one file: the
    same tables (deals, deals_<variant>, quarantine, log) with the columnar path and without."""
    games, deals = simulated(variant)
    rng = random.Random(7)
    lines = list(games)
    for i, t in enumerate(deals):
        d = json.loads(t)
        del d["record"]
        if i % 3 == 1:
            _mutate(rng, rng.randrange(24), d, games)
        lines.append(_written(rng, rng.choice([0, 0, 0, 1, 2, 3, 5, 6, 7, 8]), d))
        if i % 5 == 0:
            lines.append(t)  # a duplicate, or the deal the broken one conflicts with
    rng.shuffle(lines[len(games):])
    src = tmp_path / "mixed.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    used = counted(monkeypatch, columnar, "accept")
    (on,) = ingest_paths([src], tmp_path / "on.duckdb", batch=17)
    monkeypatch.setattr(columnar, "accept", lambda *args: Taken.empty())
    (off,) = ingest_paths([src], tmp_path / "off.duckdb", batch=17)
    assert sum(used) > 0  # the columnar path took deals (Greek ones go to its own fast paths first)
    assert (on.records, on.stored, on.duplicates, on.quarantined) == \
        (off.records, off.stored, off.duplicates, off.quarantined)
    assert on.quarantined > 0 and on.duplicates > 0
    assert snapshot(tmp_path / "on.duckdb") == snapshot(tmp_path / "off.duckdb")


@settings(deadline=None, max_examples=200)
@given(rows=st.lists(st.one_of(st.none(), st.fixed_dictionaries({
    "a": st.one_of(st.none(), st.integers(-2**70, 2**70), st.booleans(), st.sampled_from(
        [2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**63 - 1, 2**63, -2**63 - 1])),
    "b": st.one_of(st.none(), st.integers(-300, 300), st.sampled_from([255, 256, 0, -1])),
    "c": st.text(max_size=2)})), max_size=8))
def test_fits_is_too_wide_column_by_column(rows: list[dict[str, Any] | None]) -> None:
    """``columnar.fits`` says of each row what ``validate.too_wide`` says (a missing row never
    fits): the integer ranges of a Int32, UInt8 and a text column."""
    schema = {"a": pl.Int32(), "b": pl.UInt8(), "c": pl.String()}
    want = [r is not None and too_wide(r, integer_ranges(schema)) is None for r in rows]
    assert columnar.fits(rows, schema).tolist() == want


CARDS = ("hands", "talon", "discard", "play", "auction")
"""What a score-sheet deal does not write."""


def _across_paths(rng: random.Random, games: list[str], deals: list[str]) -> list[str]:
    """Deal lines that the three paths take, repeated under one (game, deal number) across
    paths: each simulated deal canonical (columnar), and as it is written with spaces (the
    reference: a duplicate), or with its cards stripped (a score sheet: the sheet path, or
    the reference when written with an escape), which is another record (a conflict); some
    stripped deals twice (sheet path and reference: a duplicate); some broken."""
    out = list(games)
    for i, t in enumerate(deals):
        d = json.loads(t)
        del d["record"]
        sheet = {k: x for k, x in d.items() if k not in CARDS}
        out.append(t)
        if i % 4 == 0:
            out.append(_written(rng, 1, d))
        elif i % 4 == 1:
            out.append(_written(rng, 0, sheet))
        elif i % 4 == 2:
            out += [_written(rng, 0, sheet), _written(rng, 3, sheet)]
        else:
            _mutate(rng, rng.randrange(24), d, games)
            out.append(_written(rng, rng.choice([0, 1]), d))
    body = out[len(games):]
    rng.shuffle(body)
    return out[:len(games)] + body


@pytest.mark.parametrize("variant", SIMULATED)
def test_numbers_repeated_across_the_paths_give_the_tables_of_the_reference(
        variant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One file whose deals the columnar path, the sheet path and the reference take, a number
    repeated across the paths (the same record: a duplicate; another record: a conflict, the
    earlier line kept, records.md 2): the same tables and counts, in small batches (the
    repeats in other batches than the first) and in one, as with the fast paths off."""
    games, deals = simulated(variant)
    src = tmp_path / "mixed.jsonl"
    src.write_text("\n".join(_across_paths(random.Random(11), games, deals)) + "\n",
                   encoding="utf-8")
    took: dict[str, set[tuple[str, int]]] = {"columnar": set(), "sheets": set()}
    real = {"columnar": columnar.accept, "sheets": sheets.accept}

    def spy(path: str) -> Callable[..., Taken]:
        def spied(*args: Any) -> Taken:
            out: Taken = real[path](*args)
            took[path].update(zip(out.deals["game_id"], out.deals["deal_no"], strict=True))
            return out
        return spied

    monkeypatch.setattr(columnar, "accept", spy("columnar"))
    monkeypatch.setattr(sheets, "accept", spy("sheets"))
    ons = [ingest_paths([src], tmp_path / f"on{batch}.duckdb", batch=batch)[0]
           for batch in (17, 100_000)]
    monkeypatch.setattr(columnar, "accept", lambda *args: Taken.empty())
    monkeypatch.setattr(sheets, "accept", lambda *args: Taken.empty())
    (off,) = ingest_paths([src], tmp_path / "off.duckdb", batch=17)
    assert took["columnar"] & took["sheets"]  # a number both fast paths took (in two batches)
    counts = (off.records, off.stored, off.duplicates, off.quarantined)
    assert off.duplicates > 0 and any(i.code == Code.DEAL_CONFLICT for i in off.issues)
    want = snapshot_of(tmp_path / "off.duckdb")
    for on, batch in zip(ons, (17, 100_000), strict=True):
        assert (on.records, on.stored, on.duplicates, on.quarantined) == counts
        assert snapshot_of(tmp_path / f"on{batch}.duckdb") == want
