"""Game lines judged once per cut (``ingest/sheets.py`` ``game_lines``, ``Validator.game_alike``)
have the reference's verdict on every line (``ingest/validate.py``): the same accepted game,
canonical JSON and duplicate flag, the same issue and message for a line it refuses, and the same
games known afterwards (records.md 1.1: a game line; a game id known with other content is a
conflict, with the same content a duplicate)."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest import sheets, validate
from ingest.jsonl import parse_line
from ingest.pipeline import ingest_paths
from ingest.source import Raw
from ingest.validate import Validator
from model.base import GameBase
from model.identity import canonical, canonical_json
from model.variants import REGISTERED, variant
from sim.drivers import SIMULATED
from tests.ingest.conftest import snapshot
from tests.ingest.test_columnar import simulated
from tests.ingest.test_sheets import sheet_deals

IDS = ["g1", "g1", "g2", "g 3", "ü4", "", "x" * 201, "a[b", 'q"t', "back\\slash", "tab\t",
       "stored-same", "stored-other", 7]
"""Ids a line may carry: plain, repeated, empty, too long, with a bracket, needing an escape
(written escaped or raw), not a string, and ids of stored games."""


@cache
def _games(name: str) -> list[dict[str, Any]]:
    return [json.loads(t) for t in simulated(name)[0]]


def _line(rng: random.Random, game: dict[str, Any]) -> str:
    """A game line: mostly canonical, else with spaces, keys reordered, a player repeated or
    dropped, a field of the wrong type, an unknown field, or ``game_id`` inside an object."""
    g = dict(game)
    how = rng.choice([0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8])
    if how == 3:
        g["players"] = [*g["players"][:-1], g["players"][0]]
    elif how == 4:
        g["players"] = g["players"][:2]
    elif how == 5:
        g["stake"] = 5
    elif how == 6:
        g["colour"] = "red"
    elif how == 7:
        g["rules"] = {**g.get("rules", {}), "game_id": g.pop("game_id", None)}
    elif how == 8:
        g["started_at"] = rng.choice(["2024-01-02T10:00:00", "yesterday"])
    if how == 1:
        return json.dumps(g, separators=(", ", " : "), ensure_ascii=False)
    if how == 2:
        keys = list(g)
        rng.shuffle(keys)
        return json.dumps({k: g[k] for k in keys}, ensure_ascii=False)
    text = '{"record":"game",' + canonical({k: v for k, v in g.items() if k != "record"})[1:]
    if isinstance(g.get("game_id"), str) and g["game_id"].startswith("tab"):
        text = text.replace("tab\\t", "tab\t")  # a raw control character: not JSON
    return text


def _validator(name: str) -> Validator:
    """A validator with two stored games: one as the file writes it, one with other players."""
    first = dict(_games(name)[0])
    other = {**first, "players": list(reversed(first["players"]))}
    stored = {"stored-same": canonical({**first, "game_id": "stored-same"}),
              "stored-other": canonical({**other, "game_id": "stored-other"})}
    return Validator(stored_game=lambda gid: (name, stored[gid]) if gid in stored else None)


@pytest.mark.parametrize("name", SIMULATED)
@settings(deadline=None, max_examples=60)
@given(seed=st.integers(0, 2**32))
def test_game_lines_judged_once_per_cut_are_judged_as_the_reference_would(
        name: str, seed: int) -> None:
    rng = random.Random(seed)
    lines = []
    for _ in range(rng.randrange(1, 16)):
        g = {**rng.choice(_games(name)), "game_id": rng.choice(IDS)}
        lines.append(_line(rng, g))
    lines.insert(rng.randrange(len(lines) + 1), '{"record":"deal","game_id":"g1","deal_no":1}')
    texts = list(enumerate(lines, 1))
    fast, ref = _validator(name), _validator(name)
    asked: list[str] = []
    got = sheets.game_lines("f", texts, range(len(lines)), fast, asked.extend)
    want = {}
    for k, (line_no, text) in enumerate(texts):
        raw = parse_line("f", line_no, text)
        if isinstance(raw, Raw) and raw.data.get("record") == "game":
            ref.position = k
            want[k] = ref.validate(raw)
    assert got == want
    assert fast.games == ref.games and fast.visible_from == ref.visible_from
    assert set(ref.games) <= set(asked)


def test_a_repeated_cut_is_judged_by_the_model_once_per_line() -> None:
    """The lines of one cut are not taken on trust: a later line whose id the model refuses
    (too long) or that names a known game gets the reference's issue."""
    game = _games("greek-prefa")[0]
    fields = {k: v for k, v in game.items() if k != "record"}
    lines = ['{"record":"game",' + canonical({**fields, "game_id": gid})[1:]
             for gid in ["a", "b", "x" * 201, "a"]]
    v = Validator()
    got = sheets.game_lines("f", list(enumerate(lines, 1)), range(4), v, lambda ids: None)
    assert [type(r).__name__ for r in got.values()] == ["Accepted"] * 2 + ["Issue", "Accepted"]
    assert got[3].duplicate and "game_id" in got[2].message  # type: ignore[union-attr]


@pytest.mark.parametrize("name", SIMULATED)
def test_verdicts_kept_from_batch_to_batch_hold_only_for_their_game(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The score-sheet path keeps its verdicts from batch to batch (``sheets.Memo``): deals of
    one game, then the same lines under a game of other players, and again under a twin of the
    first game, in batches of 5 lines: the same tables as without the score-sheet path."""
    games, deals = sheet_deals(name)
    first = json.loads(games[0])
    gid = first["game_id"]
    others = {**first, "game_id": "others",
              "players": [p + "x" for p in first["players"]]}
    twin = {**first, "game_id": "twin"}
    own = [canonical({"record": "deal", **d}) for d in deals if d["game_id"] == gid]
    lines = [games[0], canonical(others), canonical(twin), *own]
    for other in ("others", "twin"):
        lines += [t.replace(canonical({"game_id": gid})[1:-1],
                            canonical({"game_id": other})[1:-1]) for t in own]
    src = tmp_path / "sheet.jsonl"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    counts = {}
    for db, accept in (("on", sheets.accept), ("off", lambda *args: sheets.Taken.empty())):
        monkeypatch.setattr(sheets, "accept", accept)
        (r,) = ingest_paths([src], tmp_path / f"{db}.duckdb", batch=5)
        counts[db] = (r.stored, r.quarantined)
    assert counts["on"] == counts["off"] and counts["on"][1] >= len(own) > 0
    assert snapshot(tmp_path / "on.duckdb") == snapshot(tmp_path / "off.duckdb")


CHECKED = [name for name in SIMULATED if variant(name).check_game is not None]


@pytest.mark.parametrize("name", CHECKED)
@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 2**32))
def test_a_game_check_judged_once_per_game_content_finds_what_it_finds_per_game(
        name: str, seed: int) -> None:
    """``Variant.check_game`` (russian.md 7: a contract below the raspasy exit) on games that
    share their content and deals but for the id, some of another source, with a memory of
    verdicts (``validate.GameVerdicts``) and without: the same issues for every game."""
    rng = random.Random(seed)
    v = variant(name)
    games, deals = sheet_deals(name)
    base = json.loads(games[0])
    gid = base["game_id"]
    if name == "russian":  # an exit that finds fault (russian.md 7)
        base["rules"] = {"raspasy_exit": rng.choice(["free", "6-7-7", "7-7-7"])}
    own = [d for d in deals if d["game_id"] == gid]
    first = rng.choice(own)
    runs = []
    for _ in range(rng.randrange(1, 4)):  # deal sequences from one first deal, renumbered
        picked = [first, *rng.sample(own, rng.randrange(0, len(own)))]
        runs.append([{**d, "deal_no": no} for no, d in enumerate(picked, 1)])
    judged = validate.GameVerdicts()
    read: dict[Any, Any] = {}
    for g in range(rng.randrange(2, 9)):
        game = v.game_model.model_validate({**base, "game_id": f"{gid}/{g}"})
        run = rng.choice(runs)
        stored = [(d["deal_no"], rng.choice(["f", "f", "other"]), 10 * g + d["deal_no"],
                   canonical_json(v.deal_model.model_validate({**d, "game_id": game.game_id})))
                  for d in run]
        want = validate.game_issues("f", game, v, stored)
        assert validate.game_issues("f", game, v, stored, read, judged) == want
    assert len(judged) <= len(runs)


def test_the_game_check_finds_its_problem_in_a_game_like_a_faultless_one() -> None:
    """Two games alike but for their id and the deals after the first (a raspasy, then a
    contract of six: below the exit, russian.md 7, or of ten): the problem only in the one."""
    v = variant("russian")
    games, deals = sheet_deals("russian")
    base = {**json.loads(games[0]), "rules": {"raspasy_exit": "7-7-7"}}
    own = [d for d in deals if d["game_id"] == base["game_id"]]
    raspasy = next(d for d in own if d.get("declarer") is None)
    judged = validate.GameVerdicts()
    found = {}
    for gid, level in (("a", "6"), ("b", "10"), ("c", "6")):
        after = next(d for d in own if str(d.get("contract")).startswith(level)
                     and str(d.get("contract"))[len(level)].isalpha())
        game = v.game_model.model_validate({**base, "game_id": gid})
        stored = [(no, "f", no, canonical_json(v.deal_model.model_validate(
            {**d, "game_id": gid, "deal_no": no}))) for no, d in ((1, raspasy), (2, after))]
        found[gid] = [no for no, _ in validate.game_issues("f", game, v, stored, None, judged)]
    assert found == {"a": [2], "b": [], "c": [2]}


@pytest.mark.parametrize("variant", [v.name for v in REGISTERED])
def test_no_game_model_narrows_the_game_id(variant: str) -> None:
    """``Validator.game_alike`` judges a repeated game line's new id by ``validate.GAME_ID``
    alone (records.md 1.1): every game model takes the id as ``GameBase`` declares it."""
    model = next(v for v in REGISTERED if v.name == variant).game_model
    field, base = model.model_fields["game_id"], GameBase.model_fields["game_id"]
    assert (field.annotation, field.metadata) == (base.annotation, base.metadata)
    validators = model.__pydantic_decorators__.field_validators.values()
    assert not [d for d in validators if "game_id" in d.info.fields]
