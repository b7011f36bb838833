"""Messages a user reads in the quarantine and on the Entry page say what is wrong in the game's
words: a contract's spelling in words, not a regular expression; tricks by player, not a
Python dict (model/base.py ``spelled``, model/problems.py ``by_player``)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from ingest.validate import differences, explain
from model.base import SPELLINGS
from model.problems import by_player
from model.variants import REGISTERED


@pytest.mark.parametrize("variant", REGISTERED, ids=lambda v: v.name)
def test_a_misspelt_contract_is_said_in_words(variant) -> None:
    """records.md 1.2: each variant's contract spelling; ``6s!`` is none of them."""
    deal = {"game_id": "g", "deal_no": 1, "dealer": "Anna", "declarer": "Anna",
            "contract": "6s!"}
    with pytest.raises(ValidationError) as caught:
        variant.deal_model.model_validate(deal)
    message = explain(caught.value)
    assert "contract: '6s!' is not a" in message.replace("6S!", "6s!"), message  # or read as 6S!
    assert "pattern" not in message and "^" not in message
    assert any(words in message for words in SPELLINGS.values())


@pytest.mark.parametrize("variant", REGISTERED, ids=lambda v: v.name)
def test_a_field_the_record_has_not_is_named_unknown(variant) -> None:
    """A record has no fields but its model's (model/base.py, ``extra="forbid"``); pydantic's
    "Extra inputs are not permitted" is said in ingest's words (docs/ingest.md, ``schema``)."""
    deal = {"game_id": "g", "deal_no": 1, "dealer": "Anna", "bogus": 7}
    with pytest.raises(ValidationError) as caught:
        variant.deal_model.model_validate(deal)
    assert "bogus: unknown field (got 7)" in explain(caught.value)


def test_values_by_player_read_as_a_sentence() -> None:
    assert by_player({"Anna": 5, "Boris": 3, "Chris": 3}) == "Anna 5, Boris 3, Chris 3"
    assert by_player(None) == by_player({}) == "none"


@pytest.mark.parametrize(("line", "said"), [
    ("[]", "a record is a JSON object, not an array"),
    ("null", "a record is a JSON object, not null"),
    ("true", "a record is a JSON object, not true"),
    ('{"r\x00": 1}', "not JSON (Invalid control character at column 4)"),
    ('{"deal_no": ' + "9" * 5000 + "}", "not readable JSON (a number of more than 4,300 digits)"),
    ('{"record": "deal", "deal_no": 1, "deal_no": 2}',
     "'deal_no' is given twice in one object (1, then 2)"),
    ('{"record":"deal","tricks":{"Anna":6,"Boris":4,"Anna":0}}',
     "'Anna' is given twice in one object (6, then 0)"),
], ids=["array", "null", "true", "control", "digits", "key-twice", "key-twice-inside"])
def test_a_line_that_is_no_record_is_said_in_json_s_words(line: str, said: str) -> None:
    """records.md 1: a line is one JSON object. Python's words leaked out ("got NoneType",
    "at at column 4", "use sys.set_int_max_str_digits() t"); a key given twice (RFC 8259 4:
    names SHOULD be unique) was read as its last value, silently."""
    from ingest.jsonl import parse_line

    issue = parse_line("f.jsonl", 1, line)
    assert issue.message.startswith(said), issue.message  # type: ignore[union-attr]


@pytest.mark.parametrize(("game", "said"), [
    ({"rules": []}, "rules: must be an object (got [])"),
    ({"rules": None}, "rules: must be an object (got null)"),
    ({"players": "ABC"}, "players: must be a list (got 'ABC')"),
    ({"players": ["A" * 81, "B", "C"]}, "players #1: must have at most 80 characters"),
    ({"started_at": "2026-13-45"}, "started_at: must be an ISO 8601 date or time"),
], ids=["rules-list", "rules-null", "players-text", "name-long", "date"])
def test_a_game_line_s_wrong_kinds_are_said_in_words(game: dict, said: str) -> None:
    """records.md 1.1; pydantic said "Input should be a valid dictionary or instance of
    GreekRules", "a valid tuple", "String should have at most 80 characters"."""
    record = {"record": "game", "game_id": "g", "variant": "greek-prefa",
              "players": ["A", "B", "C"], **game}
    with pytest.raises(ValidationError) as caught:
        REGISTERED[0].game_model.model_validate(record)
    message = explain(caught.value)
    assert message.startswith(said), message
    assert "Input should" not in message and "GreekRules" not in message


def test_a_game_conflict_quotes_lists_as_a_record_writes_them() -> None:
    """A Balkan sheet with its players' names changed: the conflict read "in players
    (['Bojan', 'Milica', 'Stefan'] there, ['Nikolić', 'Đurić', 'Čolić'] here)", a Python
    list, which no record writes."""
    assert differences({"players": ["Bojan", "Milica"], "rules": {"x": 1}},
                       {"players": ["Nikolić", "Đurić"], "rules": {"x": 1}}) == [
        'players (["Bojan", "Milica"] there, ["Nikolić", "Đurić"] here)']
