"""Repairs with provenance for bridge table records (issue 14; dlt's and PUDL's "fix, and say
so"): where a record is unambiguous after a known, named fix, the reader makes the fix and
names it (``ingest.source.Repair``), the pipeline stores the record and a ``repairs`` row, and
``--strict`` refuses it. Each fix is tried only when the record as written does not hold, and
taken only when exactly one way makes it hold:

- ``opening-passes``: the calls fit the stated contract and declarer only with 1-3 passes put
  back before them (an export that left out the opening passes; the dealer opens, bridge.md 2).
- ``contract-double``: the Contract tag lacks the final double or redouble that the auction
  (as written, or with its opening passes put back) shows, for the same level, denomination
  and declarer.
- ``play-dropped``: the play holds a card a player does not have or may not play, while the
  contract, declarer and result are stated (and agree with the auction): the play is dropped,
  the result kept.
"""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Any

from ingest.bridge_records import CARD_OF_NAME, contract_of
from ingest.source import Repair
from model.bridge.check import auction_of
from model.bridge.contracts import TRUMP_SUIT, ContractError
from model.bridge.seats import SEATS, left_of
from model.cards import CardError, parse_card
from model.tricks import replay

MAX_PASSES = 3
"""Opening passes that may have been left out: with four, the board would be passed out."""


def _fits(dealer: int, calls: list[str], contract: str, declarer: int) -> str | None:
    """The auction's contract when ``calls`` from ``dealer`` end in ``contract`` (or in it with
    a double or redouble more) by ``declarer``; ``None`` otherwise."""
    r = auction_of(dealer, tuple(calls))
    if not r.complete or r.contract is None or r.declarer != declarer:
        return None
    stated = contract_of(contract)
    got = r.contract
    if (got.level, got.denom) != (stated.level, stated.denom) or got.doubled < stated.doubled:
        return None
    return str(got)


def repair_auction(deal: dict[str, Any], players: list[str]) -> list[Repair]:
    """Put back left-out opening passes and a Contract's missing final double (module doc);
    ``deal`` is changed in place. Nothing is changed unless exactly one fix makes it hold."""
    auction = deal.get("auction")
    contract, declarer_name = deal.get("contract"), deal.get("declarer")
    if not auction or contract is None or declarer_name not in players:
        return []
    dealer, declarer = players.index(deal["dealer"]), players.index(declarer_name)
    calls = [a["call"] for a in auction]
    try:
        stated = str(contract_of(contract))
        if _fits(dealer, calls, contract, declarer) == stated:
            return []  # holds as written
        fits = {k: _fits(dealer, ["pass"] * k + calls, contract, declarer)
                for k in range(MAX_PASSES + 1)}
    except ContractError:
        return []
    exact = [k for k, got in fits.items() if got == str(contract_of(contract))]
    doubled = [k for k, got in fits.items() if got is not None]
    if len(exact) == 1:
        k = exact[0]
    elif not exact and len(doubled) == 1:
        k = doubled[0]
    else:
        return []
    repairs: list[Repair] = []
    if k:
        deal["auction"] = [{"player": players[(dealer + i) % 4], "call": "pass"} for i in range(k)]
        deal["auction"] += [{**a, "player": players[(dealer + k + i) % 4]}
                            for i, a in enumerate(auction)]
        if deal.get("alerts"):
            deal["alerts"] = {int(i) + k: t for i, t in deal["alerts"].items()}
        repairs.append(Repair("opening-passes", f"{k} opening pass{'es' if k > 1 else ''} put "
                                                f"back before the calls: the dealer "
                                                f"{SEATS[dealer]} opens, the first call written "
                                                f"is {SEATS[(dealer + k) % 4]}'s"))
    got = fits[k]
    if got is not None and got != str(contract_of(contract)):
        repairs.append(Repair("contract-double", f"Contract {contract!r} is {got!r}: the "
                                                 "auction ends with the double the tag lacks"))
        deal["contract"] = got
    return repairs


def _card(name: str) -> int:
    """A card of a record the reader wrote (``format_card``'s names), else read."""
    found = CARD_OF_NAME.get(name)
    return parse_card(name) if found is None else found


_BIT_OF_NAME = {name: 1 << c for name, c in CARD_OF_NAME.items()}


def _mask(cards: list[str]) -> int:
    """A hand's cards as a mask (names as the reader writes them, else read one by one)."""
    try:
        return reduce(or_, map(_BIT_OF_NAME.__getitem__, cards), 0)
    except KeyError:
        return reduce(or_, (1 << _card(c) for c in cards), 0)


def _auction_agrees(deal: dict[str, Any], players: list[str]) -> bool:
    """The auction ends in the stated contract by the stated declarer."""
    try:
        dealer, declarer = players.index(deal["dealer"]), players.index(deal["declarer"])
        r = auction_of(dealer, tuple(a["call"] for a in deal["auction"]))
        return (r.complete and r.declarer == declarer and r.contract is not None
                and str(r.contract) == str(contract_of(deal["contract"])))
    except (ValueError, KeyError, ContractError):
        return False


def repair_play(deal: dict[str, Any], players: list[str]) -> list[Repair]:
    """Drop a play that breaks (a card the player does not have, or may not play) when the
    contract, declarer and result are stated; ``deal`` is changed in place."""
    play, hands = deal.get("play"), deal.get("hands")
    if not play or not hands or deal.get("contract") is None or deal.get("tricks") is None:
        return []
    if deal.get("auction") and not _auction_agrees(deal, players):
        return []
    try:
        seat = {p: i for i, p in enumerate(players)}
        masks = [0] * 4
        for name, cards in hands.items():
            if cards:
                masks[seat[name]] |= _mask(cards)
        order = [(seat[p], _card(c)) for p, c in play]
        contract = contract_of(deal["contract"])
        declarer = seat[deal["declarer"]]
    except (KeyError, CardError, ContractError, ValueError):
        return []
    fault = replay(masks, left_of(declarer), order, TRUMP_SUIT[contract.denom], must_trump=False)
    if isinstance(fault, list):
        return []
    del deal["play"]
    who = SEATS[fault.seat] if 0 <= fault.seat < 4 else "?"
    return [Repair("play-dropped", f"play of {len(order)} cards dropped: at trick {fault.trick} "
                                   f"{who} plays {play[fault.index][1]} ({fault.kind}); the "
                                   f"stated result ({deal['tricks']} tricks) is kept")]
