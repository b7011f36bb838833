"""The columnar card path accepts only what the pydantic reference accepts, with the same stored
content, and takes what the per-line card path takes in its two layouts (ingest/fastpath_columns/;
records.md 1.2; greek-prefa.md 3-7 and 14 for the rules it checks).

Lines come from the random simulator (sim/random_play/greek.py) under varied house rules,
broken in many ways by ``tests/ingest/test_fastpath_cards.py:_mutate``, written in the order of
records.md 1.2 or the canonical order, with or without spaces, and checked *in batches* of many
games at once (the path's arrays hold every line of a batch side by side).
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from ingest import fastpath_cards, fastpath_columns
from ingest.fastpath_columns import kernel
from ingest.fastpath_columns.games import Games
from ingest.fastpath_columns.layout import CALLS, SHAPE
from ingest.lines import PlainLines, Texts, plain_spans
from ingest.validate import Accepted
from model.greek.records import GreekGame
from tests.ingest.test_fastpath_cards import (
    ORDER,
    Draw,
    _mutate,
    assert_same,
    games,
    reference,
    simulated,
)


def layout(draw: Draw, d: dict[str, Any]) -> str:
    """The line as a file may hold it: the samples' order, the canonical order (``record``
    first), or any order; with or without spaces."""
    how = draw(st.sampled_from(["records", "records", "sorted", "any"]))
    keys = list(d)
    if how == "records":
        keys.sort(key=lambda k: ORDER.index(k) if k in ORDER else 99)
    elif how == "sorted":
        keys.sort(key=lambda k: (k != "record", k))
    else:
        keys = draw(st.permutations(keys))
    if how != "any" and "auction" in d and draw(st.booleans()):  # calls written call first
        d = {**d, "auction": [dict(sorted(c.items())) if isinstance(c, dict) else c
                              for c in d["auction"]] if isinstance(d["auction"], list)
             else d["auction"]}
    seps = draw(st.sampled_from([(", ", ": "), (",", ":"), (" ,", " : ")]))
    return json.dumps({k: d[k] for k in keys}, separators=seps,
                      ensure_ascii=draw(st.integers(0, 5)) == 0)


OTHER_CARD_SPELLING = r'"(?:10[SCDHscdh]|[0-9TJQKAtjqka][scdh]|[tjqka][SCDH])"'
"""A card spelt otherwise than ``7S`` ... ``AH`` (``"10D"``, ``"ah"``, ``"Kd"``), which the card
notation allows and only the per-line path reads."""


def columnar(by_game: dict[str, GreekGame], lines: list[str]) -> pl.DataFrame:
    """The columnar path's rows; for plain lines, the same whether it is given their bytes as
    the reader keeps them (``ingest.lines.PlainLines``, after a line it does not take) or
    encodes the candidates itself."""
    views = {gid: (v, -1) for gid, g in by_game.items()
             if (v := fastpath_cards.game_view(g)) is not None}
    out = fastpath_columns.accept(lines, list(range(len(lines))), views)
    data = "\n".join(["{}", *lines]).encode()
    if (spans := plain_spans(data, 0, len(data))) is not None:
        read = PlainLines(data, *spans, 1)
        in_place = fastpath_columns.accept(Texts(read), list(range(1, len(lines) + 1)), views,
                                           spans=read.spans())
        assert_frame_equal(in_place, out.with_columns(idx=pl.col("idx") + 1))
    return out


def per_line(by_game: dict[str, GreekGame], lines: list[str]) -> pl.DataFrame:
    views = {gid: (v, -1) for gid, g in by_game.items()
             if (v := fastpath_cards.game_view(g)) is not None}
    out, _ = fastpath_cards.accept("s", list(enumerate(lines, 1)), list(range(len(lines))),
                                   views)
    return out


@st.composite
def league(draw: st.DrawFn) -> dict[str, GreekGame]:
    """Two or three games with different ids, players and rules."""
    out: dict[str, GreekGame] = {}
    for i in range(draw(st.integers(2, 3))):
        g = draw(games())
        out[f"{g.game_id}-{i}"] = g.model_copy(update={"game_id": f"{g.game_id}-{i}"})
    return out


@settings(deadline=None, max_examples=150)
@given(data=st.data(), seed=st.integers(0, 10**6))
def test_columnar_path_accepts_only_what_the_reference_accepts(data: st.DataObject,
                                                              seed: int) -> None:
    by_game = data.draw(league())
    ids = sorted(by_game)
    lines: list[str] = []
    owners: list[GreekGame] = []
    for n in range(data.draw(st.integers(4, 12))):
        game = by_game[ids[n % len(ids)]]
        d = simulated(game, seed + n, data.draw(st.sampled_from([1, 2, 7, 30])))
        for _ in range(data.draw(st.sampled_from([0, 0, 1, 2]))):
            _mutate(data.draw, game, d)
        lines.append(layout(data.draw, d))
        owners.append(game)
    out = columnar(by_game, lines)
    for row in out.iter_rows(named=True):
        ref = reference(owners[row["idx"]], lines[row["idx"]])
        assert isinstance(ref, Accepted), f"columnar path took a line the reference rejects: {ref}"
        assert_same(row, ref)


@settings(deadline=None, max_examples=60)
@given(data=st.data(), seed=st.integers(0, 10**6))
def test_columnar_path_takes_what_the_per_line_path_takes(data: st.DataObject, seed: int) -> None:
    """In its two layouts the columnar path takes exactly the lines the per-line card path
    takes, legal or broken, with the same rows."""
    by_game = data.draw(league())
    ids = sorted(by_game)
    lines = []
    for n in range(12):
        game = by_game[ids[n % len(ids)]]
        d = simulated(game, seed + n, 2 + n)
        if data.draw(st.booleans()):
            _mutate(data.draw, game, d)
        keys = sorted(d, key=lambda k: ORDER.index(k) if k in ORDER else 99)
        if data.draw(st.booleans()):
            keys.sort(key=lambda k: (k != "record", k))
        lines.append(json.dumps({k: d[k] for k in keys},
                                separators=data.draw(st.sampled_from([(", ", ": "),
                                                                      (",", ":")])),
                                ensure_ascii=False))
    mine = columnar(by_game, lines).sort("idx")
    theirs = per_line(by_game, lines).sort("idx")
    # the per-line path also reads escapes, nulls and other spellings of cards ("10D", "ah":
    # the card notation of ../shared/spec/README.md) and of calls ("PASS", " pass":
    # greek-prefa.md 4, as model/greek/auction.py reads them), which this path leaves to it
    plain = [i for i, t in enumerate(lines)
             if "\\" not in t and "null" not in t and not re.search(OTHER_CARD_SPELLING, t)
             and all(c in CALLS for c in re.findall(r'"call": ?"([^"]*)"', t))]
    theirs = theirs.filter(pl.col("idx").is_in(plain))
    mine = mine.filter(pl.col("idx").is_in(plain))
    only = set(mine["idx"].to_list()) ^ set(theirs["idx"].to_list())
    assert not only, [lines[i] for i in sorted(only)]
    assert mine.equals(theirs)


def _game(players: list[str], game_id: str = "g") -> GreekGame:
    return GreekGame.model_validate({"game_id": game_id, "variant": "greek-prefa",
                                     "players": players})


def _legal_line(game: GreekGame, seed: int = 5) -> str:
    return json.dumps(simulated(game, seed, 2), ensure_ascii=False)


def _plain_lines(game: GreekGame, n: int) -> list[str]:
    """``n`` legal deals without flags set (the simulator sets some; both paths leave those to
    the reference)."""
    out = []
    for seed in range(10 * n):
        d = simulated(game, seed, 2)
        if not any(d.get(f) for f in fastpath_cards.FLAGS):
            keys = sorted(d, key=lambda k: ORDER.index(k) if k in ORDER else 99)
            out.append(json.dumps({k: d[k] for k in keys}, ensure_ascii=False))
        if len(out) == n:
            return out
    raise AssertionError("the simulator sets flags too often")


@pytest.mark.parametrize("players", [
    ["Anna", "talon", "Chris"], ["Anna", "Boris", "C" * 40], ["Anna", "Smith, J", "Chris: x"],
    ["Anna", "Smith,J", "Chris:x"], ["Åsa", "Ölof", "Zoë"], ["call", "player", "hands"],
], ids=["named like a key", "a long name", "comma and colon with a space",
        "comma and colon", "not ASCII", "named like the calls' keys"])
def test_any_name_keeps_its_bytes(players: list[str]) -> None:
    """records.md 1: the canonical JSON keeps names as written. The kernel reads a line token by
    token, so a name like a key, a long one, or one with a comma or a colon is just a name: the
    path takes the legal deals of such a game with the reference's rows (greek-prefa.md 3-7)."""
    game = _game(players)
    lines = _plain_lines(game, 6)
    got = columnar({"g": game}, lines)
    assert got.height == 6
    for row in got.iter_rows(named=True):
        ref = reference(game, lines[row["idx"]])
        assert isinstance(ref, Accepted)
        assert_same(row, ref)


@settings(deadline=None, max_examples=150)
@given(data=st.data(), seed=st.integers(0, 10**6))
def test_kernel_reads_exactly_the_layouts_of_shape(data: st.DataObject, seed: int) -> None:
    """The kernel's reading of the layout (``kernel.check_lines``) agrees with ``layout.SHAPE``,
    the regular expression of the two layouts (records.md 1.2), on lines in any key order, with
    any spacing, broken or not."""
    by_game = data.draw(league())
    ids = sorted(by_game)
    lines = []
    for n in range(8):
        game = by_game[ids[n % len(ids)]]
        d = simulated(game, seed + n, data.draw(st.sampled_from([1, 2, 7])))
        for _ in range(data.draw(st.sampled_from([0, 1, 2]))):
            _mutate(data.draw, game, d)
        lines.append(layout(data.draw, d))
    views = {gid: (v, -1) for gid, g in by_game.items()
             if (v := fastpath_cards.game_view(g)) is not None}
    checked, _ = fastpath_columns.check_batch(*fastpath_columns.encoded(lines),
                                              np.arange(len(lines)), Games.of(views))
    read = (checked.status != kernel.SHAPE).tolist()
    assert read == [re.search(SHAPE, t) is not None for t in lines], lines


def test_a_deal_sees_its_game_only_after_the_game_line() -> None:
    """records.md 1: a deal refers to a game given earlier; the pipeline passes the position of
    the game line in the batch, and a deal line before it is not taken."""
    game = _game(["Anna", "Boris", "Chris"])
    one, two = _plain_lines(game, 2)
    lines = ["{}", one, "{}", two]
    view = fastpath_cards.game_view(game)
    assert view is not None
    out = fastpath_columns.accept(lines, [1, 3], {"g": (view, 2)})
    assert out["idx"].to_list() == [3]


def test_auction_verdicts_are_kept_per_rules() -> None:
    """greek-prefa.md 4.2, 14: the same calls under other rules are run again (the cache is keyed
    by the rules, not by the batch's numbering of them)."""
    plain = _game(["Anna", "Boris", "Chris"], "a")
    jumps = GreekGame.model_validate({"game_id": "b", "variant": "greek-prefa",
                                      "players": ["Anna", "Boris", "Chris"],
                                      "rules": {"jump_bids": True}})
    cache: dict[tuple[str, bytes], tuple[int, int]] = {}
    for game in (plain, jumps):
        view = fastpath_cards.game_view(game)
        assert view is not None
        lines = _plain_lines(game, 20)
        out = fastpath_columns.accept(lines, list(range(20)), {game.game_id: (view, -1)}, cache)
        assert out.height == 20
    assert {rules for rules, _ in cache} == {plain.rules.model_dump_json(),
                                             jumps.rules.model_dump_json()}


def test_parts_checked_in_threads_give_the_batch_in_one_piece(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A batch cut into parts checked side by side (``WORKERS`` threads) takes the same lines
    with the same rows, in the same order, as the batch checked in one piece (records.md 2: the
    fast paths change speed, never results)."""
    four = GreekGame.model_validate({"game_id": "b", "variant": "greek-prefa",
                                     "players": ["Dora", "Anna", "Boris", "Chris"],
                                     "rules": {"four_players": True}})
    by_game = {"a": _game(["Anna", "Boris", "Chris"], "a"), "b": four}
    lines = []
    for game in by_game.values():
        for n, line in enumerate(_plain_lines(game, 40)):
            d = json.loads(line)
            d["deal_no"] = 2 + n
            if n % 5 == 0 and d.get("play"):  # a revoke or a card out of turn
                d["play"][3], d["play"][4] = d["play"][4], d["play"][3]
            lines.append(json.dumps(d, ensure_ascii=False))
    monkeypatch.setattr(fastpath_columns, "PART", 1000)
    whole = columnar(by_game, lines)
    monkeypatch.setattr(fastpath_columns, "WORKERS", 4)
    monkeypatch.setattr(fastpath_columns, "PART", 7)
    parts = columnar(by_game, lines)
    assert 40 < whole.height < len(lines)
    assert parts.equals(whole)
