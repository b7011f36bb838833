"""The replayer's model (dashboards/replay.py) on the fixture's full deal and on broken records."""

from __future__ import annotations

import random
import re

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from dashboards.render import CSS, hand_html, seat_html, trick_html
from dashboards.replay import (
    build,
    call_words,
    card_label,
    cards_in_words,
    contract_words,
    decisions_in_words,
    no_declarer,
    repair_notes,
    suit_groups,
    trick_winner,
    trump_of,
    why_no_play,
)
from model.cards import parse_card, parse_cards
from model.variants import registered
from sim.drivers import SIMULATED, simulator
from tests.dashboards import fixture_db as fx

PLAYERS = ["Anna", "Boris", "Chris"]


def test_trick_winners_follow_the_play() -> None:
    # fixture_db.PLAY, worked by hand: ruffs in tricks 1, 3 and 5 (spades trump, contract 6S)
    replay = build(fx.full_deal(fx.G1), "greek-prefa", PLAYERS)
    assert [t.winner for t in replay.tricks] == fx.TRICK_WINNERS
    assert replay.taken_at(10) == {"Anna": 2, "Boris": 2, "Chris": 6}  # the record's tricks
    assert replay.taken_at(3) == {"Anna": 2, "Boris": 1, "Chris": 0}


def test_hands_shrink_trick_by_trick() -> None:
    replay = build(fx.full_deal(fx.G1), "greek-prefa", PLAYERS)
    start = replay.hands_at(0)
    # the declarer holds the talon less his discard (records.md 1.2)
    assert start["Chris"] == parse_cards(["AS", "KS", "QS", "JS", "TS", "9S", "7H", "8H",
                                          "7D", "8D"])
    assert all(h.bit_count() == 10 for h in start.values())
    assert all(h.bit_count() == 7 for h in replay.hands_at(3).values())
    assert all(h == 0 for h in replay.hands_at(10).values())
    assert replay.steps == 10


def test_trump_of_each_grammar() -> None:
    assert trump_of("greek-prefa", "6S") == 0
    assert trump_of("greek-prefa", "7NT") is None
    assert trump_of("bridge-rubber", "4HX") == 3
    assert trump_of("balkan", "3") == 2  # Bells / diamonds (balkan.md 3)
    assert trump_of("balkan", "G5") == 1  # igra Acorns / clubs
    assert trump_of("swabian", "6") is None  # Bettel
    assert trump_of("russian", "misere") is None
    assert trump_of("greek-prefa", None) is None


def test_trick_winner_rules() -> None:
    c = parse_card
    assert trick_winner([("a", c("KH")), ("b", c("AH")), ("c", c("7S"))], None) == "b"
    assert trick_winner([("a", c("KH")), ("b", c("AH")), ("c", c("7S"))], 0) == "c"
    assert trick_winner([("a", c("KH")), ("b", c("AD")), ("c", c("QH"))], 0) == "a"


def test_german_names_for_swabian() -> None:
    # swabian.md / spec README: Leaves = S, Ober = Q, Daus = A
    assert card_label(parse_card("QS"), "swabian") == "Laub Ober"
    assert card_label(parse_card("AH"), "swabian") == "Herz Daus"
    assert card_label(parse_card("TD"), "greek-prefa") == "10♦"
    groups = suit_groups(parse_cards(["AH", "7H", "KS"]), "greek-prefa")
    assert groups == [("♥", ["A♥", "7♥"]), ("♦", []), ("♣", []), ("♠", ["K♠"])]


def test_render_escapes_names() -> None:
    html = hand_html("<script>alert(1)</script>", parse_cards(["AH"]), "greek-prefa")
    assert "<script>" not in html and "&lt;script&gt;" in html
    trick = trick_html((("<b>", parse_card("AH")),), "<b>", "greek-prefa")
    assert "<b>" not in trick.replace('<b class', '')


def test_a_seat_shows_each_suit_on_its_line_and_its_role_apart() -> None:
    """A seat read "declarer♥ A♥ ..." (the badge ran into the first suit) and a long Swabian
    hand wrapped anywhere: each suit is a line of its own, as a hand diagram has it."""
    html = seat_html("Ana", parse_cards(["AH", "7H", "KS", "9D"]), "greek-prefa", "declarer")
    assert html.count('class="tb-suit"') == 4  # and the club void
    assert 'declarer</span><span class="tb-suit">' in html
    assert ".tb-seat .tb-suit {display: block;}" in CSS and "margin: 0 0.4rem 0 4px" in CSS


def test_broken_record_reports_problems() -> None:
    record = {"hands": {"Anna": ["AS", "ZZ"], "Boris": "not a list"}, "talon": ["1X"],
              "play": [["Anna", "AS"], ["Boris"], "junk", ["Boris", "QQ"]]}
    replay = build(record, "greek-prefa", PLAYERS)
    assert any("ZZ" in p for p in replay.problems)
    assert any("QQ" in p for p in replay.problems)
    assert replay.tricks[-1].winner is None  # an incomplete trick has no winner


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=4),
    max_leaves=20,
)


@settings(deadline=None, max_examples=150)
@given(st.dictionaries(st.sampled_from(["hands", "talon", "discard", "auction", "play",
                                        "declarer", "contract"]), json_values))
def test_build_never_raises(record: dict) -> None:
    replay = build(record, "greek-prefa", PLAYERS)
    for step in range(replay.steps + 1):
        replay.hands_at(step)
        replay.taken_at(step)


def test_a_void_shows_its_suit_mark_and_a_dash() -> None:
    """A suit a player does not hold was a blank line without its mark (Russian deal 1, a hand
    without hearts): a hand diagram writes the mark and a dash."""
    html = hand_html("P2", parse_cards(["AS", "KD", "7C"]), "russian")
    assert '<span class="tb-red">♥</span> <span class="tb-void">—</span>' in html
    assert html.count('class="tb-suit"') == 4
    assert "no cards left" in hand_html("P2", 0, "russian")  # an empty hand: no four dashes


def test_bridge_lists_spades_first_and_the_preference_games_keep_their_order() -> None:
    """Bridge hands read ♥ ♦ ♣ ♠; a bridge diagram (PBN's deal, BBO's viewer) reads ♠ ♥ ♦ ♣.
    The Preference games keep theirs: the ladder from the top (greek-prefa.md 4.1)."""
    hand = parse_cards(["AS", "KH", "QD", "JC"])
    assert [s for s, _ in suit_groups(hand, "bridge-duplicate")] == ["♠", "♥", "♦", "♣"]
    for variant in ("greek-prefa", "russian", "balkan", "swabian"):
        assert [s for s, _ in suit_groups(hand, variant)] == ["♥", "♦", "♣", "♠"], variant


def test_calls_and_contracts_in_the_games_words() -> None:
    """The auction grid and the headline showed codes ("hand7", "7 by Hilde", "1S" beside hands
    drawn with symbols); each variant writes them in its players' words (``Variant.call_words``)."""
    assert call_words("hand6", "swabian") == "6 Bettel from the hands"  # swabian.md 3.1, 3.2
    assert call_words("2", "swabian") == "2 Laub" and call_words("hold", "swabian") == "hold"
    assert contract_words({"contract": "7", "hand": True}, "swabian") == \
        "7 Durchmarsch from the hands"
    assert contract_words({"contract": "4"}, "swabian") == "4 Herz"
    assert call_words("1S", "bridge-duplicate") == "1♠"  # bridge.md 2.1
    assert contract_words({"contract": "4HX"}, "bridge-rubber") == "4♥X"
    assert call_words("3NT", "bridge-duplicate") == "3NT"
    assert call_words("6S", "greek-prefa") == "6♠" and call_words("take", "greek-prefa") == \
        "I'll take"  # greek-prefa.md 4.2, the preliminary bid
    assert call_words("misere", "russian") == "misère" and call_words("7D", "russian") == "7♦"
    assert call_words("G5", "balkan") == "igra 5 Tref" and call_words("sans", "balkan") == \
        "igra 7 Sans"  # balkan.md 1, 3.1
    assert call_words("3", "balkan") == "3 Karo" and call_words("here", "balkan") == "here"
    assert contract_words({}, "swabian") is None


def test_a_lone_defender_s_partner_sits_the_play_out() -> None:
    """A defender who passes while the other plays alone takes no part in the play: the tricks
    are two-handed (greek-prefa.md 6.1 step 6, balkan.md 5.1). The replayer made tricks of three
    cards, the passer's first card being the declarer's next one, so its winners and counts
    contradicted the record. Every replayed play of every simulated variant whose record counts
    each player's tricks gives those counts, and a trick is a card of each player in play."""
    alone = dict.fromkeys(SIMULATED, 0)
    for name in SIMULATED:
        game, deals = simulator(name).random_game(random.Random(7), "words", 60)
        for deal in deals:
            record = deal.model_dump(mode="json", exclude_none=True)
            if not record.get("play") or not isinstance(record.get("tricks"), dict):
                continue
            replay = build(record, name, list(game.players))
            alone[name] += bool(replay.sitting_out)
            playing = len(replay.players) - len(replay.sitting_out)
            assert all(len(t.cards) == playing for t in replay.tricks if t.winner), record
            taken = replay.taken_at(replay.steps)
            assert {p: taken[p] for p in record["tricks"]} == record["tricks"], record
    assert alone["greek-prefa"] and alone["balkan"], alone


def test_every_call_of_every_variant_is_in_words() -> None:
    """No call a variant's generator makes is shown as a code: no suit letter after a level, no
    ``hand`` prefix, no ``G`` code, no ``misere`` or ``take``."""
    code = re.compile(r"^(\d+[SCDH]X{0,2}|hand\d|G\d|misere|take|betl|sans)$", re.IGNORECASE)
    for name in SIMULATED:
        game, deals = simulator(name).random_game(random.Random(7), "words", 40)
        for deal in deals:
            record = deal.model_dump(mode="json", exclude_none=True)
            shown = [c for row in build(record, name, list(game.players)).auction_grid()
                     for c in row if c]
            assert not [c for c in shown if code.match(c)], (name, shown)
            words = contract_words(record, name)
            assert words is None or not code.match(words), (name, words)


def test_why_a_deal_has_no_play() -> None:
    """A deal with cards and no play said "After 0 of 0 tricks"; it says why (records.md 1.2;
    balkan.md 5.1, 5.3; greek-prefa.md 5; russian.md 3)."""
    passed = {"declarer": "A", "contract": "G7", "defence": {"B": "pass", "C": "pass"}}
    assert why_no_play(passed, "balkan") == "both defenders passed, so the deal was not played"
    assert "kontra on Pik" in why_no_play({"declarer": "A", "contract": "2",
                                            "defence": {"B": "play", "C": "play"}}, "balkan")
    assert "nobody declared" in why_no_play({"contract": None}, "swabian")
    assert "conceded" in why_no_play({"declarer": "A", "conceded": True}, "greek-prefa")
    assert "half-whist" in why_no_play({"declarer": "A", "contract": "6S",
                                        "defence": {"B": "pass", "C": "half"}}, "russian")
    assert why_no_play({"declarer": "N", "contract": "4S"}, "bridge-duplicate") == \
        "the record has no play"


def test_what_a_deal_nobody_declared_is() -> None:
    """The replayer said "No declarer (passed out or redealt)" of every deal nobody declared,
    also of a Russian raspasy, which is played out for the fewest tricks (russian.md 2, 7). Each
    variant says what its all-pass deal is (``Variant.no_declarer``): played where its all-pass
    deal is played (``Variant.all_pass_play``), else redealt, a refa (balkan.md 7.4) or passed
    out (bridge.md 2.3); a Greek all-pass deal with its tricks was played (greek-prefa.md 14
    ``all_pass = play_low``). A raspasy recorded without its play was played all the same."""
    for v in registered():
        said = no_declarer({"dealer": "A"}, v.name)
        assert ("was played" in said) == v.all_pass_play, (v.name, said)
    assert "fewest tricks" in no_declarer({"tricks": {"A": 3, "B": 4, "C": 3}}, "greek-prefa")
    assert "redealt" in no_declarer({}, "greek-prefa") and "redealt" in no_declarer({}, "swabian")
    assert "fewest tricks" in no_declarer({}, "russian")
    assert "refa" in no_declarer({}, "balkan")
    assert "both sides score 0" in no_declarer({}, "bridge-duplicate")
    assert "nobody scores" in no_declarer({}, "bridge-rubber")
    played = {"tricks": {"A": 2, "B": 5, "C": 3}}
    assert why_no_play(played, "russian") == "the record has no play"
    assert why_no_play(played, "greek-prefa") == "the record has no play"
    assert "nobody declared" in why_no_play({}, "greek-prefa")


def test_reviewed_cards_are_named_as_the_replayer_names_them() -> None:
    """A review's cards and best cards in each row's variant's names (French symbols; German
    names for Swabian, swabian.md 2); a card without best cards has none, not an error."""
    rows = pl.DataFrame({"card": ["TC", "QC"], "variant": ["greek-prefa", "swabian"],
                         "best_cards": [["8C", "AS"], None]})
    named = cards_in_words(rows)
    assert named["card"].to_list() == [card_label(parse_card("TC"), "greek-prefa"),
                                       card_label(parse_card("QC"), "swabian")]
    assert named["card"][1] == "Eichel Ober"
    assert named["best"].to_list() == ["8♣, A♠", ""]


def test_decisions_name_contracts_in_the_game_s_words() -> None:
    """A wrong contract and its best ones as the replayer writes calls (``6♥`` against ``6♠``;
    Balkan igra games, the Russian misère by name); a claim's tricks with their noun; a defence
    as recorded."""
    rows = pl.DataFrame({
        "variant": ["greek-prefa", "balkan", "russian", "greek-prefa", "bridge-duplicate"],
        "kind": ["contract", "contract", "contract", "defence", "claim"],
        "choice": ["6H", "G4", "MISERE", "pass", "9"],
        "best": [["6S", "6NT"], ["7"], ["MISERE"], ["play"], ["10"]]})
    said = decisions_in_words(rows)
    assert said["choice"].to_list() == ["6♥", call_words("G4", "balkan"), "misère", "pass",
                                        "9 tricks"]
    assert said["best"].to_list() == ["6♠, 6NT", call_words("7", "balkan"), "misère", "play",
                                      "10 tricks"]
    assert said["choice"][1].startswith("igra 4")
    par = decisions_in_words(pl.DataFrame({  # par contracts (scoring.bridge.dd.par_of)
        "variant": ["bridge-duplicate"], "kind": ["contract"], "choice": ["4S"],
        "best": [["6DN=", "3NTNS+1", "5CEx-2"]]}))
    assert par.row(0) == ("bridge-duplicate", "contract", "4♠", "6♦N=, 3NTNS+1, 5♣Ex-2")


def test_repairs_are_told_by_what_they_touched() -> None:
    """A deal's repairs (docs/ingest.md "Repairs") in words, by the part of the deal each fixed;
    a code the replayer has no words for is a note on the deal, named by its code."""
    frame = pl.DataFrame({"code": ["opening-passes", "play-dropped", "contract-double", "new"],
                          "message": ["2 passes", "play of 8 cards dropped", "4S is 4SX", None]})
    assert repair_notes(frame) == {
        "auction": [("opening passes put back", "2 passes"),
                    ("the contract's double taken from the auction", "4S is 4SX")],
        "play": [("the play dropped", "play of 8 cards dropped")],
        "deal": [("new", "")]}
    assert repair_notes(frame.clear()) == {}
