"""Messages a user reads in the quarantine and on the Entry page say what is wrong in the game's
words: a contract's spelling in words, not a regular expression; tricks by player, not a
Python dict (model/base.py ``spelled``, model/problems.py ``by_player``)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from ingest.validate import explain
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
