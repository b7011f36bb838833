"""A bridge game and deal as a message names them (``model/bridge/words.py``): what a player
knows of a board (event, board, pairs or players by side, a teams match and room), then the
game's id; by the id alone where the record says nothing more (records.md 1.1-1.2)."""

from __future__ import annotations

from model.bridge.words import deal_named, game_named
from model.variants import variant

GAME = {"game_id": "pbn/0123456789abcdef", "players": ["Ann", "Bob", "Sue", "Tom"],
        "event": "Spring teams"}


def test_a_board_is_named_by_event_board_and_table() -> None:
    deal = {"deal_no": 4, "board": 12, "match": "2", "room": "Closed"}
    assert deal_named(GAME, deal) == ("board 12 of Spring teams, Ann and Sue against Bob and "
                                      "Tom, match 2, room Closed (deal 4 of game "
                                      "'pbn/0123456789abcdef')")
    paired = {"deal_no": 4, "board": 12, "ns_pair": "3", "ew_pair": "5"}
    assert deal_named(GAME, paired).startswith("board 12 of Spring teams, NS pair 3 against EW "
                                               "pair 5 (deal 4 of game")


def test_a_deal_the_record_says_nothing_more_of_is_named_by_its_id() -> None:
    plain = {"game_id": "club/1", "players": ["Ann", "Bob", "Sue", "Tom"]}
    assert deal_named(plain, {"deal_no": 3}) == "deal 3 of game 'club/1'"
    assert game_named(plain) == "game 'club/1'"
    assert deal_named(plain, {"deal_no": 3, "board": 3}) == "board 3 of Ann and Sue against " \
        "Bob and Tom (deal 3 of game 'club/1')"
    assert deal_named({"game_id": "x"}, {"deal_no": 1, "board": 1}) == \
        "board 1 (deal 1 of game 'x')"


def test_a_game_is_named_by_its_event_and_sides() -> None:
    assert game_named(GAME) == ("the game of Spring teams, Ann and Sue against Bob and Tom "
                                "(game 'pbn/0123456789abcdef')")


def test_both_bridge_variants_name_their_games_so() -> None:
    for name in ("bridge-rubber", "bridge-duplicate"):
        assert variant(name).game_named is game_named and variant(name).deal_named is deal_named
