"""Review of a bridge deal card by card with DDS through endplay (docs/review.md, the optional
``dds`` extra as ``scoring/bridge/dd.py``).

Before each recorded card, ``solve_board`` values every legal card of the hand to play: the tricks
its side takes from the remaining ones with every hand open (bridge.md 3: follow suit, else any
card; highest trump, else highest card of the suit led). The value is turned into the declaring
side's total (tricks already won plus those to come). Dummy's cards are the declarer's choices.
A play that stops before the 52nd card ends in a claim (``claim``, or ``tricks`` with a short
play): the cards up to it are reviewed and the claim is checked open-hand (``value_end``, the
declaring side's tricks from there with best play, against the ``result`` claimed).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from model.bridge.contracts import parse_contract
from model.bridge.score import duplicate_score
from model.bridge.seats import NS, is_vulnerable, side_of
from model.cards import Card, format_card
from model.tricks import card_index
from scoring.bridge.dd import _endplay, deal_vulnerable, par_of, pbn_deal
from sim.review.rows import CardReview, DealReview, DecisionReview, Skipped, card_review

EP_TRUMP = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}
"""endplay's Denom of a contract's denomination."""
EP_SUIT = "SHDC"
EP_RANKS = "23456789TJQKA"


def _ep_card(ep: Any) -> Card:
    """Our card (``model/cards.py``) of an endplay Card (suit S H D C, rank a power of two)."""
    return card_index(EP_RANKS[int(ep.rank).bit_length() - 3] + EP_SUIT[int(ep.suit)])


def review_bridge(
    game_id: str, deal_no: int, variant: str, players: list[str], rec: dict[str, Any]
) -> DealReview | Skipped:
    """The review of one bridge deal record (``players``: the game's N, E, S, W), or why not."""
    hands = rec.get("hands") or {}
    play = rec.get("play") or []
    declarer, contract = rec.get("declarer"), rec.get("contract")
    if declarer is None or contract is None:
        return Skipped(game_id, deal_no, variant, "no declarer")
    if len(hands) != 4 or not play:
        return Skipped(game_id, deal_no, variant, "hands or play not recorded")
    types, _ = _endplay()
    deal = types.Deal(pbn_deal([hands[p] for p in players]))
    seat_of = {p: i for i, p in enumerate(players)}
    side = seat_of[declarer] % 2
    deal.first = types.Player(seat_of[play[0][0]])
    deal.trump = types.Denom(EP_TRUMP[str(contract).rstrip("X")[1:]])
    won = [0, 0]
    cards: list[CardReview] = []
    for no, (player, text) in enumerate(play, start=1):
        to_play = int(deal.curplayer)
        if seat_of.get(player) != to_play:
            return Skipped(game_id, deal_no, variant, f"card {no} ({player} {text}) out of turn")
        ours = to_play % 2 == side
        values = _values(deal, won, side)
        card = card_index(text)
        if card not in values:
            return Skipped(game_id, deal_no, variant, f"card {no} ({player} {text}) not legal")
        chooser = declarer if ours and to_play != seat_of[declarer] else player
        cards.append(card_review(no, chooser, ours, card, values, fewest=False))
        deal.play(types.Card(_ep_name(card)))
        if len(deal.curtrick) == 0:
            won[int(deal.first) % 2] += 1
    claimed = len(play) < 52
    end = cards[-1].value_after
    if claimed:
        at_claim = _values(deal, won, side).values()
        end = max(at_claim) if int(deal.curplayer) % 2 == side else min(at_claim)
    result = rec.get("claim") if rec.get("claim") is not None else rec.get("tricks")
    review = DealReview(
        game_id=game_id, deal_no=deal_no, variant=variant, declarer=str(declarer),
        contract=str(contract), fewest=False, result=result, value_start=cards[0].value_before,
        value_end=end, claimed=claimed, cards=tuple(cards),
    )
    return replace(review, decisions=tuple(bridge_decisions(players, rec, review)))


def _values(deal: Any, won: list[int], side: int) -> dict[Card, int]:
    """Each legal card of the hand to play -> the declaring side's tricks at the end with best
    play after it (DDS counts the tricks still to come for the side to play)."""
    _, dds = _endplay()
    rest = 13 - won[0] - won[1]
    ours = int(deal.curplayer) % 2 == side
    return {_ep_card(c): won[side] + (t if ours else rest - t) for c, t in dds.solve_board(deal)}


def _ep_name(card: Card) -> str:
    """endplay's name of our card (suit letter first: ``SA``)."""
    name = format_card(card)
    return name[-1] + name[:-1]


def bridge_decisions(players: list[str], rec: dict[str, Any], review: DealReview
                     ) -> list[DecisionReview]:
    """The contract against par, and the claim when the play ended in one (docs/review.md,
    "Decisions"): the contract's double-dummy score for the declaring side (its DD tricks, the
    review's value before the first card, scored as duplicate, bridge.md 7) against par for that
    side (``scoring.bridge.dd.par_of``), cost in points, correct when not below par; the claimed
    tricks against the open-hand value at the claim, cost the tricks the declaring side gave
    away, correct when equal."""
    start, end = review.value_start, review.value_end
    assert start is not None and end is not None, "a contract deal has a value at the start"
    seat = {p: i for i, p in enumerate(players)}
    declarer = seat[str(rec["declarer"])]
    contract = parse_contract(str(rec["contract"]))
    vul = deal_vulnerable(rec)
    side = side_of(declarer)
    dd_score = duplicate_score(contract, start, is_vulnerable(vul, side))
    par_ns, par_contracts = par_of(pbn_deal([rec["hands"][p] for p in players]), vul,
                                   seat[str(rec["dealer"])])
    par = par_ns if side == NS else -par_ns
    out = [DecisionReview(1, str(rec["declarer"]), "contract", str(rec["contract"]),
                          tuple(par_contracts), dd_score, par, max(0, par - dd_score),
                          dd_score >= par)]
    if review.claimed and review.result is not None:
        out.append(DecisionReview(2, str(rec["declarer"]), "claim", str(review.result),
                                  (str(end),), review.result, end,
                                  max(0, end - review.result),
                                  review.result == end))
    return out
