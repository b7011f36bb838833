"""The two layouts the columnar card path reads, and the words it knows (records.md 1.2).

:data:`SHAPE` is the regular expression of the two layouts: the kernel (``kernel.py``) reads
exactly the lines it matches (``tests/ingest/test_fastpath_columns.py`` holds the two together),
token by token, and turns their words into codes: keys, calls, contracts and decisions by their
place in the tuples below, card names into the card codes of ``model/cards.py`` through
:data:`CARD_CODE`.
"""

from __future__ import annotations

import numpy as np

from ingest.fastpath_cards import COLON, DECISION, NAME, SEP, TRICK_COUNT
from model.cards import DECK_32, format_card, iter_cards
from model.greek.contracts import format_contract

_CARD = r'"[789TJQKA][SCDH]"'
_BID = r"(?:[6-9]|10)(?:S|C|D|H|NT)"
_CALL = r'"(?:pass|hold|take|' + _BID + r')"'


def _key(name: str, value: str) -> str:
    return '"' + name + '"' + COLON + value


def _cards(n: int) -> str:
    return r"\[" + SEP.join([_CARD] * n) + r"\]"


_HANDS = r"\{" + SEP.join([NAME + COLON + _cards(10)] * 3) + r"\}"
_CALL_OBJ = (r"\{(?:" + _key("player", NAME) + SEP + _key("call", _CALL) + "|"
             + _key("call", _CALL) + SEP + _key("player", NAME) + r")\}")
_AUCTION = r"\[" + _CALL_OBJ + r"(?:" + SEP + _CALL_OBJ + r")*\]"
_DEFENCE = r"\{" + NAME + COLON + DECISION + SEP + NAME + COLON + DECISION + r"\}"
_MOVE = r"\[" + NAME + SEP + _CARD + r"\]"
_PLAY = r"\[" + _MOVE + r"(?:" + SEP + _MOVE + r")*\]"
_TRICKS = (r"\{(?:" + NAME + COLON + TRICK_COUNT + r"(?:" + SEP + NAME + COLON + TRICK_COUNT
           + r"){1,2})?\}")
_DEAL_NO = r"[1-9][0-9]{0,8}"


def _opt(name: str, value: str) -> str:
    return r"(?:" + SEP + _key(name, value) + r")?"


_RECORDS_ORDER = (
    _key("game_id", NAME) + SEP + _key("deal_no", _DEAL_NO) + SEP + _key("dealer", NAME) + SEP
    + _key("hands", _HANDS) + _opt("talon", _cards(2)) + _opt("auction", _AUCTION)
    + r"(?:" + SEP + _key("declarer", NAME) + _opt("discard", _cards(2)) + SEP
    + _key("contract", '"' + _BID + '"') + SEP + _key("defence", _DEFENCE) + r")?"
    + _opt("play", _PLAY) + _opt("tricks", _TRICKS) + _opt("four_aces", "false")
    + _opt("preliminary", "false") + _opt("conceded", "false")
)
_SORTED_ORDER = (
    r"(?:" + _key("auction", _AUCTION) + SEP + r")?" + r"(?:" + _key("conceded", "false") + SEP
    + r")?" + r"(?:" + _key("contract", '"' + _BID + '"') + SEP + r")?" + _key("deal_no", _DEAL_NO)
    + SEP + _key("dealer", NAME) + _opt("declarer", NAME) + _opt("defence", _DEFENCE)
    + _opt("discard", _cards(2)) + _opt("four_aces", "false") + SEP + _key("game_id", NAME)
    + SEP + _key("hands", _HANDS) + _opt("play", _PLAY) + _opt("preliminary", "false")
    + _opt("talon", _cards(2)) + _opt("tricks", _TRICKS)
)
SHAPE = (r"^\{" + _key("record", '"deal"') + SEP + r"(?:" + _RECORDS_ORDER + "|" + _SORTED_ORDER
         + r")\}$")
"""The two layouts a line may have (the order of records.md 1.2 as the samples write it, and
the canonical order)."""
KEYS = ("record", "game_id", "deal_no", "dealer", "hands", "talon", "auction", "declarer",
        "discard", "contract", "defence", "play", "tricks", "four_aces", "preliminary",
        "conceded")
"""The fields of ``GreekDeal`` (records.md 1.2); the flags are only ever ``false`` here."""
(RECORD, GAME_ID, DEAL_NO, DEALER, HANDS, TALON, AUCTION, DECLARER, DISCARD, CONTRACT, DEFENCE,
 PLAY, TRICKS, FOUR_ACES, PRELIMINARY, CONCEDED) = range(len(KEYS))
CONTRACTS = tuple(format_contract(6 + i // 5, i % 5) for i in range(25))
"""Contract names by ladder index (4.1)."""
CALLS = ("pass", "hold", "take", *CONTRACTS)
DECISIONS = ("play", "pass", "invite", "alone")
PLAY_, PASS_, INVITE_, ALONE_ = range(4)
MODES = ("none", "pass", "invite", "alone", "both")
"""``deals_greek.mode`` by index: nobody declared, both defenders passed, one invited, one
defends alone, both play (6.1)."""

CARD_CODE = np.full(1 << 16, -1, dtype=np.int64)
"""Card code (``model/cards.py``) of a two-letter card name, by its two bytes (first byte low)."""
for _card in iter_cards(DECK_32):
    _b = format_card(_card).encode()
    CARD_CODE[_b[0] | _b[1] << 8] = _card
LEVEL = np.array([6 + i // 5 for i in range(25)], dtype=np.int8)
DENOM = np.array([i % 5 for i in range(25)], dtype=np.int8)

