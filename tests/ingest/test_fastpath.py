"""The columnar fast path accepts only what the pydantic reference accepts, with the same stored
content (ingest/fastpath.py; records.md 1.2; greek-prefa.md 6.1, 7, 14 for the rules it checks).

Hypothesis draws near-valid score-sheet deals (names with spaces, punctuation, accents; wrong
decisions, trick sums, sitting-out dealers, 10NT, nulls, flags, extra and repeated keys, other
key orders and separators) and holds: a line the fast path accepts is accepted by the reference
with the same canonical JSON, deal key, ``deals`` columns and ``deals_greek`` row. A second
property holds that well-formed deals in the usual key order are all taken by the fast path.
"""

from __future__ import annotations

import json
import random
from typing import Any

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from data.samples.make_samples import sheet_deal
from ingest import fastpath
from ingest.jsonl import parse_line
from ingest.source import Issue, Raw
from ingest.validate import Accepted, Validator
from model.greek.records import GreekGame
from model.variants import variant

GREEK = variant("greek-prefa")
NAMES = ["Anna", "Boris", "Chris", "Dora", "Anna B", "Anna!", "Ánna", "Zoë", "O'Neil", "x", "A  B"]
ODD = [" Anna", "Anna ", "anna", "Nobody", "", 'A"B', "Tab\t", "back\\slash"]
DECISIONS = ["play", "play", "pass", "pass", "invite", "alone", "whist", "Play"]
CONTRACTS = ["6S", "6C", "7D", "8H", "9NT", "10H", "10NT", "6X", " 6S", "11S", "6s"]
ORDER = ["record", "game_id", "deal_no", "dealer", "declarer", "contract", "defence", "tricks"]


@st.composite
def games(draw: st.DrawFn) -> GreekGame:
    n = draw(st.sampled_from([3, 3, 4]))
    players = draw(st.lists(st.sampled_from(NAMES), min_size=n, max_size=n, unique=True))
    rules: dict[str, Any] = {"four_players": n == 4}
    if draw(st.booleans()):
        rules["ten_nt"] = draw(st.sampled_from(["forbidden", "value_11"]))
    if draw(st.integers(0, 5)) == 0:
        rules["all_pass"] = "play_low"
    return GreekGame.model_validate({"game_id": draw(st.sampled_from(["g/1", "g 2", "ü/3"])),
                                     "variant": "greek-prefa", "players": players,
                                     "rules": rules})


def _name(draw: st.DrawFn, players: tuple[str, ...]) -> str:
    return draw(st.sampled_from(list(players))) if draw(st.integers(0, 9)) else \
        draw(st.sampled_from(ODD + NAMES))


@st.composite
def valid_deal(draw: st.DrawFn, game: GreekGame) -> dict[str, Any]:
    """A deal the rules accept (greek-prefa.md 3, 6.1, 7): seats from the dealer, defenders after
    the declarer, a legal pair of decisions, tricks of exactly the players in the play."""
    p = game.players
    n = len(p)
    d = draw(st.integers(0, n - 1))
    active = [p[(d + i) % n] for i in (1, 2, 3)]
    deal: dict[str, Any] = {"record": "deal", "game_id": game.game_id,
                            "deal_no": draw(st.integers(1, 60)), "dealer": p[d]}
    if draw(st.integers(0, 7)) == 0:
        return deal
    k = draw(st.integers(0, 2))
    declarer, r, l_ = active[k], active[(k + 1) % 3], active[(k + 2) % 3]
    level = draw(st.integers(6, 10))
    deal |= {"declarer": declarer,
             "contract": f"{level}{draw(st.sampled_from(['S', 'C', 'D', 'H', 'NT']))}"}
    mode = draw(st.sampled_from(["both", "both", "pass", "invite", "alone"]))
    td = draw(st.integers(0, 10))
    if mode == "pass":
        deal["defence"] = dict(draw(st.permutations([(r, "pass"), (l_, "pass")])))
        return deal
    whister, passer = draw(st.permutations([r, l_]))
    if mode == "alone":
        deal["defence"] = dict(draw(st.permutations([(whister, "alone"), (passer, "pass")])))
        deal["tricks"] = dict(draw(st.permutations([(declarer, td), (whister, 10 - td)])))
        return deal
    deal["defence"] = ({r: "play", l_: "play"} if mode == "both"
                       else dict(draw(st.permutations([(whister, "invite"), (passer, "pass")]))))
    tr = draw(st.integers(0, 10 - td))
    deal["tricks"] = dict(draw(st.permutations(
        [(declarer, td), (r, tr), (l_, 10 - td - tr)])))
    return deal


def _mutate(draw: st.DrawFn, game: GreekGame, d: dict[str, Any]) -> None:
    """One small change that may or may not break the deal."""
    p = list(game.players)
    kind = draw(st.integers(0, 13))
    if kind == 0:
        d["dealer"] = _name(draw, game.players)
    elif kind == 1:
        d["declarer"] = draw(st.sampled_from([*p, d["dealer"], *ODD]))
    elif kind == 2 and d.get("defence"):
        who = draw(st.sampled_from(sorted(d["defence"])))
        d["defence"][who] = draw(st.sampled_from(DECISIONS))
    elif kind == 3 and d.get("defence"):
        who = draw(st.sampled_from(sorted(d["defence"])))
        d["defence"][draw(st.sampled_from(p + ODD))] = d["defence"].pop(who)
    elif kind == 4 and d.get("tricks"):
        who = draw(st.sampled_from(sorted(d["tricks"])))
        d["tricks"][who] += draw(st.sampled_from([-1, 1, 2]))
    elif kind == 5 and d.get("tricks"):
        who = draw(st.sampled_from(sorted(d["tricks"])))
        d["tricks"][draw(st.sampled_from(p + ODD))] = d["tricks"].pop(who)
    elif kind == 6:
        d.pop(draw(st.sampled_from(["tricks", "defence", "contract", "declarer"])), None)
    elif kind == 7:
        d["contract"] = draw(st.sampled_from(CONTRACTS))
    elif kind == 8:
        d["deal_no"] = draw(st.sampled_from([0, -1, 10**9, 10**12, "3"]))
    elif kind == 9:
        d[draw(st.sampled_from(["declarer", "contract", "defence", "tricks", "four_aces"]))] = None
    elif kind == 10:
        d[draw(st.sampled_from(["four_aces", "preliminary", "conceded"]))] = draw(st.booleans())
    elif kind == 11:
        d[draw(st.sampled_from(["note", "hands", "variant"]))] = "x"
    elif kind == 12:
        d["tricks"] = {}
    else:
        d["game_id"] = draw(st.sampled_from(["g/1", "g 2", "other"]))


@st.composite
def deal_lines(draw: st.DrawFn, game: GreekGame) -> str:
    d = draw(valid_deal(game))
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2]))):
        _mutate(draw, game, d)
    keys = list(d)
    if draw(st.integers(0, 4)) == 0:
        keys = draw(st.permutations(keys))
    else:
        keys.sort(key=lambda k: ORDER.index(k) if k in ORDER else 99)
    seps = draw(st.sampled_from([(", ", ": "), (", ", ": "), (",", ":"), (", ", ":"),
                                 (" ,", " : ")]))
    ascii_only = draw(st.integers(0, 3)) == 0
    text = json.dumps({k: d[k] for k in keys}, separators=seps, ensure_ascii=ascii_only)
    if draw(st.integers(0, 15)) == 0:  # a repeated key: the last one wins in json.loads
        text = text[:-1] + f', "dealer": {json.dumps(_name(draw, game.players))}}}'
    return text


def frame_of(game: GreekGame) -> pl.DataFrame:
    row = fastpath.game_row(game)
    return pl.DataFrame([row] if row else [], schema=fastpath.GAMES_SCHEMA, orient="row")


def reference(game: GreekGame, line: str) -> Accepted | Issue:
    validator = Validator(variants=variant)
    validator.games[game.game_id] = (game, GREEK, "")
    raw = parse_line("s", 1, line)
    return raw if isinstance(raw, Issue) else validator.validate(raw)


def assert_same(fast: dict[str, Any], ref: Accepted) -> None:
    deal = ref.record
    assert fast["record"] == ref.canonical
    assert fast["deal_key"] == ref.key
    assert (fast["game_id"], fast["deal_no"], fast["dealer"], fast["declarer"],
            fast["contract"]) == (deal.game_id, deal.deal_no, deal.dealer,  # type: ignore[union-attr]
                                  deal.declarer, getattr(deal, "contract", None))
    row = GREEK.deal_row(ref.game, deal)  # type: ignore[arg-type]
    got = fastpath.greek_rows(pl.DataFrame([fast])).row(0, named=True)
    assert got == row


@settings(deadline=None, max_examples=500)
@given(data=st.data())
def test_fast_accepts_only_what_the_reference_accepts(data: st.DataObject) -> None:
    game = data.draw(games())
    line = data.draw(deal_lines(game))
    out = fastpath.accept([line], frame_of(game))
    ref = reference(game, line)
    if out.height:
        assert isinstance(ref, Accepted), f"fast path accepted a line the reference rejects: {ref}"
        assert_same(out.row(0, named=True), ref)


@settings(deadline=None, max_examples=150)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_usual_deals_take_the_fast_path(seed: int, data: st.DataObject) -> None:
    game = data.draw(games())
    if game.rules.all_pass != "redeal":
        return
    rng = random.Random(seed)
    lines = [json.dumps(sheet_deal(game.game_id, list(game.players), n, rng), ensure_ascii=False)
             for n in range(1, 30)]
    out = fastpath.accept(lines, frame_of(game))
    taken = dict(zip(out["idx"].to_list(), out.iter_rows(named=True), strict=True))
    for i, line in enumerate(lines):
        ref = reference(game, line)
        if isinstance(ref, Accepted) and "10NT" not in line:
            assert i in taken, f"well-formed deal left to the slow path: {line}"
        if i in taken:
            assert isinstance(ref, Accepted)
            assert_same(taken[i], ref)


def test_raw_repr() -> None:
    """The reference helper really parses: a broken line is an issue, a good one a Raw."""
    assert isinstance(parse_line("s", 1, "{"), Issue)
    assert isinstance(parse_line("s", 1, '{"record": "deal"}'), Raw)
