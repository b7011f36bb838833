"""The two layouts the columnar card path reads, and the words it knows (records.md 1.2).

:data:`SHAPE` is the one regular expression a line must match; the vocabularies turn the strings
of a matching line into codes (``text.Vocab``), and :data:`CARD_CODE` its card names into the
card codes of ``model/cards.py``.
"""

from __future__ import annotations

import numpy as np

from ingest import fastpath_cards as per_line
from ingest.fastpath_columns.text import Vocab
from model.greek.contracts import format_contract

# -- the layouts -------------------------------------------------------------------------------
_S, _C = r", ?", r": ?"
_NAME = r'"[^"\\\x00-\x1f]+"'
_CARD = r'"[789TJQKA][SCDH]"'
_BID = r"(?:[6-9]|10)(?:S|C|D|H|NT)"
_CALL = r'"(?:pass|hold|take|' + _BID + r')"'
_T = r"(?:10|[0-9])"


def _key(name: str, value: str) -> str:
    return '"' + name + '"' + _C + value


def _cards(n: int) -> str:
    return r"\[" + _S.join([_CARD] * n) + r"\]"


_HANDS = r"\{" + _S.join([_NAME + _C + _cards(10)] * 3) + r"\}"
_CALL_OBJ = (r"\{(?:" + _key("player", _NAME) + _S + _key("call", _CALL) + "|"
             + _key("call", _CALL) + _S + _key("player", _NAME) + r")\}")
_AUCTION = r"\[" + _CALL_OBJ + r"(?:" + _S + _CALL_OBJ + r")*\]"
_DEC = r'"(?:play|pass|invite|alone)"'
_DEFENCE = r"\{" + _NAME + _C + _DEC + _S + _NAME + _C + _DEC + r"\}"
_MOVE = r"\[" + _NAME + _S + _CARD + r"\]"
_PLAY = r"\[" + _MOVE + r"(?:" + _S + _MOVE + r")*\]"
_TRICKS = r"\{(?:" + _NAME + _C + _T + r"(?:" + _S + _NAME + _C + _T + r"){1,2})?\}"
_DEAL_NO = r"[1-9][0-9]{0,8}"


def _opt(name: str, value: str) -> str:
    return r"(?:" + _S + _key(name, value) + r")?"


_RECORDS_ORDER = (
    _key("game_id", _NAME) + _S + _key("deal_no", _DEAL_NO) + _S + _key("dealer", _NAME) + _S
    + _key("hands", _HANDS) + _opt("talon", _cards(2)) + _opt("auction", _AUCTION)
    + r"(?:" + _S + _key("declarer", _NAME) + _opt("discard", _cards(2)) + _S
    + _key("contract", '"' + _BID + '"') + _S + _key("defence", _DEFENCE) + r")?"
    + _opt("play", _PLAY) + _opt("tricks", _TRICKS) + _opt("four_aces", "false")
    + _opt("preliminary", "false") + _opt("conceded", "false")
)
_SORTED_ORDER = (
    r"(?:" + _key("auction", _AUCTION) + _S + r")?" + r"(?:" + _key("conceded", "false") + _S
    + r")?" + r"(?:" + _key("contract", '"' + _BID + '"') + _S + r")?" + _key("deal_no", _DEAL_NO)
    + _S + _key("dealer", _NAME) + _opt("declarer", _NAME) + _opt("defence", _DEFENCE)
    + _opt("discard", _cards(2)) + _opt("four_aces", "false") + _S + _key("game_id", _NAME)
    + _S + _key("hands", _HANDS) + _opt("play", _PLAY) + _opt("preliminary", "false")
    + _opt("talon", _cards(2)) + _opt("tricks", _TRICKS)
)
SHAPE = (r"^\{" + _key("record", '"deal"') + _S + r"(?:" + _RECORDS_ORDER + "|" + _SORTED_ORDER
         + r")\}$")
"""The two layouts a line may have (the order of records.md 1.2 as the samples write it, and
the canonical order)."""
CALL_KEYS = (r'\{"player"' + _C + r'("[^"\\\x00-\x1f]+")' + _S + r'"call"' + _C
              + r'("[A-Za-z0-9]+")\}')
"""A call written player first: rewritten ``{"call":...,"player":...}`` (same object)."""

# -- vocabularies, packed as up to eight bytes in a little-endian uint64 ---------------------------
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


KEY_VOCAB = Vocab.of(KEYS)
CONTRACT_VOCAB = Vocab.of(CONTRACTS)
CALL_VOCAB = Vocab.of(CALLS)
DECISION_VOCAB = Vocab.of(DECISIONS)
CARD_CODE = np.full(1 << 16, -1, dtype=np.int64)
"""Card code (``model/cards.py``) of a two-letter card name, by its two bytes (first byte low)."""
for _name, _bit in per_line._BIT_32.items():
    if len(_name) == 2:
        CARD_CODE[_name.encode()[0] | _name.encode()[1] << 8] = _bit.bit_length() - 1
LEVEL = np.array([6 + i // 5 for i in range(25)], dtype=np.int8)
DENOM = np.array([i % 5 for i in range(25)], dtype=np.int8)

