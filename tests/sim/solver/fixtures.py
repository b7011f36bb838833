"""Readers for the solved preferans positions in ``../shared/data`` (formats: data README)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from model.cards import CardSet, card, parse_card, to_set

SUIT_WORDS = {"SPADE": 0, "CLUB": 1, "DIAMOND": 2, "HEART": 3}
RANK_WORDS = {"7": 5, "8": 6, "9": 7, "10": 8, "JACK": 9, "QUEEN": 10, "KING": 11, "ACE": 12}
BTS_SUITS = (0, 3, 2, 1)
"""Bridge Studio writes a hand as spades.hearts.diamonds.clubs (data README)."""
DENOMS = {"S": 0, "C": 1, "D": 2, "H": 3}


@dataclass(frozen=True)
class Deal:
    """Three hands in turn order, who leads, who declares, trump (None: no trump), misère."""

    hands: tuple[CardSet, ...]
    leader: int
    declarer: int
    trump: int | None
    misere: bool
    preplayed: tuple[int, ...] = ()


def unisay_card(word: str) -> int:
    suit, rank = word.split("_")
    return card(SUIT_WORDS[suit], RANK_WORDS[rank])


def read_unisay(path: Path) -> Deal:
    """preferanser-deals/N.json: seats play East -> South -> West (data README)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    seats = ("EAST", "SOUTH", "WEST")
    hands = tuple(to_set(unisay_card(w) for w in raw[f"{s.lower()}Cards"]) for s in seats)
    declarer = next(
        i for i, s in enumerate(seats) if raw[f"{s.lower()}Contract"] not in ("PASS", "WHIST")
    )
    contract = raw[f"{seats[declarer].lower()}Contract"]
    misere = contract == "MISER"
    trump = None if misere or contract.endswith("NOTRUMP") else SUIT_WORDS[contract.split("_")[1]]
    return Deal(hands, seats.index(raw["firstTurn"]), declarer, trump, misere)


def bts_hand(text: str) -> CardSet:
    mask = 0
    for suit, ranks in zip(BTS_SUITS, text.split("."), strict=True):
        for r in ranks:
            mask |= 1 << card(suit, "23456789TJQKA".index(r))
    return mask


def read_bts(path: Path) -> list[Deal]:
    """Bridge Studio problems: hands in seat order N, E, S, W without the absent seat, which is
    also the clockwise play order; ``player`` is the declarer (data README)."""
    deals: list[Deal] = []
    block: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    for line in [*lines, "deal"]:
        word, _, rest = line.partition(" ")
        if word == "deal" and block:
            deals.append(_bts_deal(block))
            block = {}
        if word in ("deal", "contract", "play", "player", "absent"):
            block[word] = rest.strip()
    return deals


def _bts_deal(block: dict[str, str]) -> Deal:
    seats = [s for s in "NESW" if s != block.get("absent", "S")]
    hands = tuple(bts_hand(h) for h in block["deal"].split()[1:])
    contract = block["contract"]
    misere = contract == "misere"
    trump = None if misere or contract.endswith("NT") else DENOMS[contract[-1]]
    play = block["play"].split()
    if len(play) == 1 and play[0] in seats:
        return Deal(hands, seats.index(play[0]), seats.index(block["player"]), trump, misere)
    cards = tuple(parse_card(t[::-1]) for t in play)  # "DA" is suit then rank
    leader = next(i for i, h in enumerate(hands) if h >> cards[0] & 1)
    return Deal(hands, leader, seats.index(block["player"]), trump, misere, cards)


def read_eshavlyugin(path: Path) -> list[tuple[Deal, int]]:
    """solvers.tests: three hands, declarer, leader, contract, stored answer; order 0 -> 1 -> 2."""
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    n = int(lines[0])
    out: list[tuple[Deal, int]] = []
    for k in range(n):
        rows = lines[1 + 7 * k : 8 + 7 * k]
        hands = tuple(to_set(parse_card(t) for t in row.split()) for row in rows[:3])
        contract = rows[5]
        misere = contract == "misere"
        trump = None if misere or contract.endswith("n") else DENOMS[contract[-1].upper()]
        out.append((Deal(hands, int(rows[4]), int(rows[3]), trump, misere), int(rows[6])))
    return out
