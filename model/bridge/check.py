"""Rule- and card-level checks of a bridge deal (``../shared/spec/bridge.md`` 1-3, records.md 1.2).

Every problem found is reported (not only the first): unknown names, deck partition, auction
legality and its outcome against the recorded contract and declarer, play legality (follow suit,
turn, trick winner leads) replayed through ``model/tricks.py``, and the recorded result against the
replay with its claim. A stated ``score_ns`` of a duplicate deal is checked against Law 77.
"""

from __future__ import annotations

from functools import lru_cache

from model.bridge.auction import AuctionResult, run_auction
from model.bridge.contracts import NOTRUMP, TRUMP_SUIT, Contract, ContractError, parse_contract
from model.bridge.records import BridgeDeal, BridgeGame
from model.bridge.score import duplicate_score_ns
from model.bridge.seats import SEATS, board_vulnerable, left_of, partner
from model.cards import ACE, DECK_52, JACK, KING, QUEEN, TEN, CardError, format_card
from model.problems import Code, Problem
from model.tricks import card_index, cards_mask, replay

FAULTS = {
    "turn": "out of turn",
    "absent": "by a seat that does not exist",
    "not-held": "not in the player's hand (or already played)",
    "follow": "a revoke: the player had to follow suit",
}


def seat_hands(game: BridgeGame, deal: BridgeDeal) -> list[int] | None:
    """The four hands as card masks by seat (``None`` without hands)."""
    if deal.hands is None:
        return None
    seat = {p: i for i, p in enumerate(game.players)}
    out = [0, 0, 0, 0]
    for name, cards in deal.hands.items():
        out[seat[name]] |= cards_mask(cards)[0]
    return out


def honours_held(hands: list[int], contract: Contract) -> dict[int, int]:
    """Seat -> honours points held in one hand (4.6): 4 or 5 trump honours, or 4 aces at NT."""
    out: dict[int, int] = {}
    if contract.denom == NOTRUMP:
        aces = sum(1 << (16 * s + ACE) for s in range(4))
        for s, h in enumerate(hands):
            if h & aces == aces:
                out[s] = 150
        return out
    suit = TRUMP_SUIT[contract.denom]
    assert suit is not None
    top = sum(1 << (16 * suit + r) for r in (TEN, JACK, QUEEN, KING, ACE))
    for s, h in enumerate(hands):
        n = (h & top).bit_count()
        if n >= 4:
            out[s] = 150 if n == 5 else 100
    return out


def check_deal(game: BridgeGame, deal: BridgeDeal) -> list[Problem]:
    problems: list[Problem] = []
    seat = {p: i for i, p in enumerate(game.players)}

    def name_ok(name: str, what: str) -> bool:
        if name not in seat:
            problems.append(Problem(Code.UNKNOWN_PLAYER,
                                    f"{what} {name!r} is not a player of the game "
                                    f"({', '.join(game.players)})"))
            return False
        return True

    ok = name_ok(deal.dealer, "dealer")
    if deal.declarer is not None:
        ok &= name_ok(deal.declarer, "declarer")
    for group, what in ((deal.hands or {}, "hand of"), (deal.honours or {}, "honours of")):
        for name in group:
            ok &= name_ok(name, what)
    for call in deal.auction or ():
        ok &= name_ok(call.player, "caller")
    for name, _ in deal.play or ():
        ok &= name_ok(name, "player of a card")
    if not ok:
        return problems

    contract: Contract | None = None
    if deal.contract is not None:
        try:
            contract = parse_contract(deal.contract)
        except ContractError as exc:
            return [Problem(Code.ILLEGAL_CONTRACT, str(exc))]
    if game.variant == "bridge-duplicate" and deal.vulnerable is None and deal.board is None:
        problems.append(Problem(Code.SCHEMA, "a duplicate deal needs its board or vulnerable"))

    hands = seat_hands(game, deal)
    if hands is not None:
        problems += _deck(game, hands)
    if deal.auction is not None:
        problems += _auction(game, deal, contract)
    declarer = seat[deal.declarer] if deal.declarer is not None else None
    if contract is not None and declarer is not None:
        found = _play(game, deal, contract, declarer, hands if not problems else None)
        if deal.irregular:
            found = [Problem(p.code, p.message + " (the source marks the result as irregular, "
                                                  "e.g. a director's ruling)") for p in found]
        problems += found
        if hands is not None and deal.honours is not None and not problems:
            held = {game.players[s]: v for s, v in honours_held(hands, contract).items()}
            if held != dict(deal.honours):
                problems.append(Problem(Code.REPLAY_MISMATCH,
                                        f"honours stated {dict(deal.honours)} but the hands hold "
                                        f"{held or 'none'} (4.6)"))
    if deal.score_ns is not None and not problems and game.variant == "bridge-duplicate":
        problems += _score(game, deal, contract, declarer)
    return [Problem(p.code, f"{where(deal)}{p.message}") for p in problems]


def where(deal: BridgeDeal) -> str:
    """``board 26 open: `` - the board id a person looks up in the source."""
    if deal.board is None:
        return ""
    return f"board {deal.board}{' ' + deal.room if deal.room else ''}: "


def _deck(game: BridgeGame, hands: list[int]) -> list[Problem]:
    out = []
    for s, h in enumerate(hands):
        if h.bit_count() != 13:
            out.append(Problem(Code.DECK, f"{SEATS[s]} ({game.players[s]}) holds "
                                          f"{h.bit_count()} cards, not 13"))
    union = hands[0] | hands[1] | hands[2] | hands[3]
    if not out and union != DECK_52:
        missing = [format_card(c) for c in range(64) if DECK_52 >> c & 1 and not union >> c & 1]
        out.append(Problem(Code.DECK, f"the hands repeat cards; missing: {' '.join(missing)}"))
    return out


def _auction(game: BridgeGame, deal: BridgeDeal, contract: Contract | None) -> list[Problem]:
    seat = {p: i for i, p in enumerate(game.players)}
    dealer = seat[deal.dealer]
    calls = list(deal.auction or ())
    for i, call in enumerate(calls):
        if seat[call.player] != (dealer + i) % 4:
            return [Problem(Code.AUCTION, f"call {i + 1} {call.call!r} by {call.player!r} out of "
                                          f"turn ({SEATS[(dealer + i) % 4]} to call)")]
    said = tuple(c.call for c in calls)
    result = auction_of(dealer, said)
    if result.problems:
        return [Problem(Code.AUCTION, "; ".join(result.problems))]
    if str(result.contract or "") != str(contract or ""):
        hint = _missing_passes(game, deal, contract, dealer, list(said))
        return [Problem(Code.CONTRACT_NOT_ALLOWED,
                        f"the auction ends in {result.contract or 'passed out'}, "
                        f"the record says {deal.contract or 'passed out'}{hint}")]
    if result.declarer is not None and game.players[result.declarer] != deal.declarer:
        hint = _missing_passes(game, deal, contract, dealer, list(said))
        return [Problem(Code.CONTRACT_NOT_ALLOWED,
                        f"declarer is {SEATS[result.declarer]} ({game.players[result.declarer]}), "
                        f"first of the side to name the denomination (2.3), "
                        f"not {deal.declarer!r}{hint}")]
    return []


@lru_cache(maxsize=1 << 16)
def auction_of(dealer: int, calls: tuple[str, ...]) -> AuctionResult:
    """``run_auction``, once per distinct dealer and sequence of calls (a file repeats the usual
    auctions many times; the result is frozen)."""
    return run_auction(dealer, list(calls))


def _missing_passes(
    game: BridgeGame, deal: BridgeDeal, contract: Contract | None, dealer: int, calls: list[str]
) -> str:
    """A hint when the calls fit the recorded contract and declarer only with 1-3 passes added
    before them (an export that dropped the opening passes)."""
    for k in (1, 2, 3):
        r = run_auction(dealer, ["pass"] * k + calls)
        if (r.complete and r.contract is not None and str(r.contract) == str(contract or "")
                and r.declarer is not None and game.players[r.declarer] == deal.declarer):
            return (f" (the calls fit the record if {k} opening pass{'es' if k > 1 else ''} "
                    f"had been left out before them: the first call would be "
                    f"{SEATS[(dealer + k) % 4]}'s)")
    r = run_auction(dealer, calls)
    if (contract is not None and r.contract is not None and r.contract.doubled != contract.doubled
            and (r.contract.level, r.contract.denom) == (contract.level, contract.denom)):
        return " (the record's contract leaves out the auction's double or redouble)"
    return ""


def _play(
    game: BridgeGame,
    deal: BridgeDeal,
    contract: Contract,
    declarer: int,
    hands: list[int] | None,
) -> list[Problem]:
    seat = {p: i for i, p in enumerate(game.players)}
    assert deal.tricks is not None
    play: list[tuple[int, int]] = []
    try:
        play = [(seat[p], card_index(c)) for p, c in deal.play or ()]
    except CardError as exc:
        return [Problem(Code.ILLEGAL_CARD, str(exc))]
    out: list[Problem] = []
    if deal.lead is not None and play and format_card(play[0][1]) != format_card(
        card_index(deal.lead)
    ):
        out.append(Problem(Code.ILLEGAL_CARD, f"lead {deal.lead!r} but the play starts with "
                                              f"{format_card(play[0][1])}"))
    if deal.play is None:
        return out
    if len(play) > 52:
        return [Problem(Code.ILLEGAL_CARD, f"{len(play)} cards played; a deal has 52")]
    if hands is None:
        # Without the hands a player is known to hold the cards he plays later, which is enough
        # to see a revoke.
        hands = [0, 0, 0, 0]
        for s, c in play:
            if hands[s] >> c & 1:
                return [Problem(Code.ILLEGAL_CARD, f"{format_card(c)} is played twice")]
            hands[s] |= 1 << c
    leader = left_of(declarer)
    taken = replay(hands, leader, play, TRUMP_SUIT[contract.denom], must_trump=False)
    if not isinstance(taken, list):
        f = taken
        who = SEATS[f.seat] if 0 <= f.seat < 4 else str(f.seat)
        why = FAULTS.get(f.kind, f.kind)
        if f.kind == "turn" and f.index == 0:
            why = f"out of turn: the opening lead is {SEATS[leader]}'s, left of declarer (3)"
        elif f.kind == "turn":
            why = f"out of turn: {SEATS[f.expected]} was to play"
        return [*out, Problem(Code.ILLEGAL_CARD,
                              f"trick {f.trick}, card {f.index + 1}: {who} plays "
                              f"{format_card(f.card)}, {why}")]
    won = taken[declarer] + taken[partner(declarer)]
    done = len(play) // 4
    left = 13 - done
    if done == 13:
        if won != deal.tricks:
            out.append(Problem(Code.REPLAY_MISMATCH, f"the play gives declarer {won} tricks, "
                                                     f"the record says {deal.tricks}"))
        return out
    claim = deal.claim if deal.claim is not None else deal.tricks
    if deal.claim is not None and deal.claim != deal.tricks:
        out.append(Problem(Code.REPLAY_MISMATCH, f"claim of {deal.claim} tricks but the result "
                                                 f"says {deal.tricks}"))
    if not won <= claim <= won + left:
        out.append(Problem(Code.REPLAY_MISMATCH,
                           f"declarer has {won} of {done} complete tricks, so the claimed total "
                           f"{claim} must lie in {won}..{won + left}"))
    return out


def _score(
    game: BridgeGame, deal: BridgeDeal, contract: Contract | None, declarer: int | None
) -> list[Problem]:
    vul = deal.vulnerable or board_vulnerable(deal.board or 1)
    ours = duplicate_score_ns(contract, declarer, deal.tricks, vul, game.rules)
    if ours != deal.score_ns:
        return [Problem(Code.SCORE_MISMATCH,
                        f"stated NS score {deal.score_ns} but {deal.contract or 'passed out'} "
                        f"with {deal.tricks} tricks, {vul} vulnerable scores {ours} (Law 77)")]
    return []
