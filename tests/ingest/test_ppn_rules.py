"""PPN games played under rules other than the club's: the ``Preset`` / ``Rules`` extension tags
(docs/ppn.md "Our extension tags"; rules flags from balkan.md 9, presets in
``model/balkan/params.py``). A file without the tags still reads as ``serbian-club``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.formats import reader_for
from ingest.ppn import dumps, read_text
from ingest.ppn_codec import PpnError
from ingest.ppn_rules import rules_tags
from ingest.source import Issue, Raw
from model.balkan.params import PRESETS, BalkanRules
from model.balkan.records import BalkanDeal, BalkanGame
from model.problems import Code
from sim.random_play.balkan import random_game
from tests.conftest import ROOT

SAMPLES = ROOT / "data" / "samples" / "balkan"
SEED_GAME = "kafana-dunav/2026-11-24/table-1"  # data/samples/balkan/league.jsonl, seed rules


def _sample_games() -> dict[str, tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Every Balkan game of data/samples/balkan/ as read by its own reader."""
    games: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
    for path in sorted(SAMPLES.iterdir()):
        reader = reader_for(path)
        if reader is None:
            continue
        for x in reader.read(path):
            if not isinstance(x, Raw):
                continue
            if x.data["record"] == "game" and x.data.get("variant") == "balkan":
                games[x.data["game_id"]] = (x.data, [])
            elif x.data["record"] == "deal" and x.data["game_id"] in games:
                games[x.data["game_id"]][1].append(x.data)
    return games


def _read_back(text: str, stem: str = "t") -> tuple[BalkanGame, list[BalkanDeal]]:
    """Read PPN text; ``stem`` is the file name a game without ``GameId`` takes its id from."""
    out = list(read_text("mem", text, stem))
    issues = [x for x in out if isinstance(x, Issue)]
    assert issues == [], [i.message[:200] for i in issues]
    raws = [x.data for x in out if isinstance(x, Raw)]
    return (BalkanGame.model_validate(raws[0]),
            [BalkanDeal.model_validate(r) for r in raws[1:]])


GAMES = _sample_games()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_sample_game_round_trips(game_id: str) -> None:
    """Written as PPN and read back: the same game (rules included) and the same deals; the
    reader adds the value and refa flag PPN always carries (checked against our settlement).
    A sheet-only game cannot be written (PPN has no field for a deal without cards)."""
    g, ds = GAMES[game_id]
    game = BalkanGame.model_validate(g)
    deals = [BalkanDeal.model_validate(d) for d in ds]
    if any(d.hands is None for d in deals):
        with pytest.raises(PpnError, match="needs the cards"):
            dumps(game, deals)
        return
    back_game, back = _read_back(dumps(game, deals), game_id.removeprefix("ppn/"))
    assert back_game == game
    assert len(back) == len(deals)
    for a, b in zip(deals, back, strict=True):
        added = {k for k in ("value", "refa") if getattr(a, k) is None}
        assert b.model_dump(exclude=added) == a.model_dump(exclude=added), a.deal_no


def test_samples_hold_a_game_under_other_rules() -> None:
    """The round trip above covers a non-club game with cards (league.jsonl: seed rules)."""
    game = BalkanGame.model_validate(GAMES[SEED_GAME][0])
    assert game.rules == BalkanRules.preset("seed")
    text = dumps(game, [BalkanDeal.model_validate(d) for d in GAMES[SEED_GAME][1]])
    assert "[Preset seed]" in text.splitlines()
    assert not any(line.startswith("[Rules ") for line in text.splitlines())


def test_without_the_tags_the_same_file_reads_as_serbian_club() -> None:
    """A club file carries no rules: the seed game's text without its Preset tag is read under
    serbian-club rules (values x2, counterclockwise leads: balkan.md 7.2, 2) and quarantined."""
    g, ds = GAMES[SEED_GAME]
    text = dumps(BalkanGame.model_validate(g), [BalkanDeal.model_validate(d) for d in ds])
    club = "\n".join(x for x in text.splitlines() if not x.startswith("[Preset "))
    out = list(read_text("mem", club, "club"))
    game = BalkanGame.model_validate(next(x.data for x in out if isinstance(x, Raw)))
    assert game.rules == BalkanRules.preset("serbian-club", start_bula=30)
    issues = [x for x in out if isinstance(x, Issue)]
    assert issues and any("but the contract is worth" in i.message for i in issues)


def test_club_rules_write_no_extension_tag() -> None:  # the golden files stay as they were
    game = BalkanGame(variant="balkan", game_id="ppn/t", players=["A", "B", "C"],
                      rules={"preset": "serbian-club", "start_bula": 40, "max_refe": 4})
    assert rules_tags(game.rules) == []
    text = dumps(game, [])
    assert "[Preset" not in text and "[Rules" not in text


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_preset_is_named_not_spelled_out(name: str) -> None:
    tags = dict(rules_tags(BalkanRules.preset(name)))
    if name == "serbian-club":
        assert tags == {}
    else:
        assert tags.get("Preset") in PRESETS and "Rules" not in tags
        assert BalkanRules.preset(tags["Preset"]) == BalkanRules.preset(name)


FLAGS = {k: f for k, f in BalkanRules.model_fields.items()
         if k not in ("start_bula", "max_refe", "four_players")}


def _values(name: str) -> list[Any]:
    """The finite choices of one flag (booleans, literals) and a few numbers for the others."""
    from typing import get_args

    ann = FLAGS[name].annotation
    if ann is bool:
        return [False, True]
    args = get_args(ann)
    if args and all(isinstance(a, str | int) for a in args):
        return list(args)
    return [None, 1, 2, 4] if name == "kontra_max_level" else [0, 1, 2]


@settings(deadline=None, max_examples=60)
@given(st.data())
def test_any_rules_survive_the_tags(data: st.DataObject) -> None:
    """Any combination of balkan.md 9 flags: the tags give back exactly the same rules."""
    flags = {k: data.draw(st.sampled_from(_values(k)), label=k)
             for k in FLAGS if data.draw(st.booleans())}
    bula = data.draw(st.integers(1, 500))
    refe = data.draw(st.none() | st.integers(0, 9))
    rules = BalkanRules(start_bula=bula, max_refe=refe, **flags)
    game = BalkanGame(variant="balkan", game_id="ppn/t", players=["A", "B", "C"], rules=rules)
    back, _ = _read_back(dumps(game, []))
    assert back.rules == rules


@settings(deadline=None, max_examples=6)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(PRESETS)))
def test_random_games_under_every_preset_round_trip(seed: int, preset: str) -> None:
    """Random legal games of each preset (``sim/random_play/balkan.py``) read back unchanged
    (up to the auction, which PPN keeps as each player's highest bid)."""
    game = BalkanGame(variant="balkan", game_id="ppn/t", players=["A", "B", "C"],
                      rules={"preset": preset})
    deals = random_game(random.Random(seed), game, 12)
    back_game, back = _read_back(dumps(game, deals))
    assert back_game.rules == game.rules
    skip = {"value", "refa", "auction"}
    for a, b in zip(deals, back, strict=True):
        assert a.model_dump(exclude=skip) == b.model_dump(exclude=skip)


@pytest.mark.parametrize(
    ("tag", "message"),
    [
        ("[Preset nowhere]", "unknown Balkan preset 'nowhere'"),
        ("[Rules {not json}]", "tag Rules is not JSON"),
        ("[Rules 5]", "must be a JSON object"),
        ('[Rules {"start_bula":10}]', "which the Bula and Refe tags carry"),
        ('[Rules {"no_such_flag":true}]', "unknown flags ['no_such_flag']"),
        ('[Rules {"igra_increment":2,"igra_increment":3}]',
         "'igra_increment' is given twice in one object (2, then 3)"),
    ],
)
def test_bad_rules_tags_are_issues(tag: str, message: str) -> None:
    text = "[Bula 30]\n[Refe 2]\n[Player1 A]\n[Player2 B]\n[Player3 C]\n" + tag + "\n\n" \
        "[1 123 P7SJN36GKLT5E2Q1IVWFBUAHCO4DM9R8 P,P,P]\n"
    out = list(read_text("mem", text, "bad"))
    assert not [x for x in out if isinstance(x, Raw)]
    assert out[0].code == Code.SCHEMA and message in out[0].message
    assert [x.code for x in out[1:]] == [Code.UNKNOWN_GAME]


def test_samples_directory_is_there() -> None:
    assert Path(SAMPLES / "league.jsonl").is_file() and GAMES
