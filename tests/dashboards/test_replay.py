"""The replayer's model (dashboards/replay.py) on the fixture's full deal and on broken records."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dashboards.render import CSS, hand_html, seat_html, trick_html
from dashboards.replay import build, card_label, suit_groups, trick_winner, trump_of
from model.cards import parse_card, parse_cards
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
    assert groups == [("♥", ["A♥", "7♥"]), ("♠", ["K♠"])]


def test_render_escapes_names() -> None:
    html = hand_html("<script>alert(1)</script>", parse_cards(["AH"]), "greek-prefa")
    assert "<script>" not in html and "&lt;script&gt;" in html
    trick = trick_html((("<b>", parse_card("AH")),), "<b>", "greek-prefa")
    assert "<b>" not in trick.replace('<b class', '')


def test_a_seat_shows_each_suit_on_its_line_and_its_role_apart() -> None:
    """A seat read "declarer♥ A♥ ..." (the badge ran into the first suit) and a long Swabian
    hand wrapped anywhere: each suit is a line of its own, as a hand diagram has it."""
    html = seat_html("Ana", parse_cards(["AH", "7H", "KS", "9D"]), "greek-prefa", "declarer")
    assert html.count('class="tb-suit"') == 3
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
