"""Rule- and card-level checks of a bridge deal (``../shared/spec/bridge.md`` 1-3, records.md 1.2).

Every problem found is reported (not only the first): unknown names, deck partition, auction
legality and its outcome against the recorded contract and declarer, play legality (follow suit,
turn, trick winner leads) replayed through ``model/tricks.py``, and the recorded result against the
replay with its claim. A stated ``score_ns`` of a duplicate deal is checked against Law 77.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from model.bridge.auction import AuctionResult, run_auction
from model.bridge.contracts import NOTRUMP, TRUMP_SUIT, Contract, ContractError, parse_contract
from model.bridge.records import BridgeDeal, BridgeGame
from model.bridge.score import duplicate_score_ns
from model.bridge.seats import SEATS, board_vulnerable, left_of, partner
from model.card_batch import Layout, batch_check, calls, items, names_in
from model.cards import ACE, DECK_52, JACK, KING, QUEEN, TEN, CardError, format_card
from model.problems import Code, Problem
from model.replay_kernel import Play, Replayed
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
    problems, cards = before_play(game, deal)
    if cards is not None:
        problems = problems + cards.reference()
        if not problems:
            problems = cards.after()
    return [Problem(p.code, f"{where(deal)}{p.message}") for p in problems]


def before_play(game: BridgeGame, deal: BridgeDeal) -> tuple[list[Problem], BridgePlay | None]:
    """Every problem of the deal but the replay's (and, without a play to replay, the checks
    after it), and the play to replay (None: nothing to replay). :func:`check_deal` replays it
    in Python, :data:`check_batch` with the kernel."""
    problems = _names(game, deal)
    if problems:
        return problems, None
    contract: Contract | None = None
    if deal.contract is not None:
        try:
            contract = parse_contract(deal.contract)
        except ContractError as exc:
            return [Problem(Code.ILLEGAL_CONTRACT, str(exc))], None
    if game.variant == "bridge-duplicate" and deal.vulnerable is None and deal.board is None:
        problems.append(NO_BOARD)
    hands = seat_hands(game, deal)
    if hands is not None:
        problems += _deck(game, hands)
    if deal.auction is not None:
        problems += _auction(game, deal, contract)
    declarer = game.players.index(deal.declarer) if deal.declarer is not None else None
    cards = None
    if contract is not None and declarer is not None:
        found, cards = _play(game, deal, contract, declarer, hands if not problems else None)
        problems += _irregular(deal, found)
    if cards is None and not problems:
        problems += _after_play(game, deal, contract, declarer, hands)
    return problems, cards


NO_BOARD = Problem(Code.SCHEMA, "a duplicate deal needs its board or vulnerable")


def layout(game: BridgeGame, deal: BridgeDeal) -> tuple[list[Problem], Layout | None]:
    """:func:`before_play` without the cards, for ``check_batch``: every problem the rules find
    without them (the play's names are seats of the columns), and what the cards must be
    (``model/card_batch.py``); None for a deal without hands, or with stated honours, an opening
    lead or a claim other than the result (the reference reads those against the cards)."""
    if deal.hands is None or deal.honours is not None or deal.lead is not None:
        return [], None
    problems = _names(game, deal, play_names=False)
    if problems:
        return problems, None
    contract: Contract | None = None
    if deal.contract is not None:
        try:
            contract = parse_contract(deal.contract)
        except ContractError as exc:
            return [Problem(Code.ILLEGAL_CONTRACT, str(exc))], None
    if game.variant == "bridge-duplicate" and deal.vulnerable is None and deal.board is None:
        return [NO_BOARD], None
    if deal.auction is not None:
        problems = _auction(game, deal, contract)
        if problems:
            return problems, None
    declarer = game.players.index(deal.declarer) if deal.declarer is not None else None
    problems = _after_play(game, deal, contract, declarer, None)
    if problems:
        return problems, None
    players = tuple(game.players)
    if contract is None or declarer is None or deal.play is None:
        return [], Layout(players, 13, 0, DECK_52)
    if deal.claim is not None and deal.claim != deal.tricks:
        return [], None
    assert deal.tricks is not None
    return [], Layout(players, 13, 0, DECK_52, (0, 1, 2, 3),
                      _kernel(left_of(declarer), TRUMP_SUIT[contract.denom]).row(), ended=False,
                      side=(declarer, partner(declarer)), side_tricks=deal.tricks)


def rules_key(game: BridgeGame, deal: BridgeDeal) -> Hashable:
    """What :func:`layout` reads of a (game, deal) besides its game's players and rules."""
    return (game.variant, deal.dealer, deal.declarer, deal.contract, deal.board, deal.vulnerable,
            deal.claim, deal.tricks, deal.score_ns, deal.lead, items(deal.honours),
            None if deal.hands is None else tuple(deal.hands), deal.play is None,
            calls(deal.auction))


@cache
def _kernel(leader: int, trump: int | None) -> Play:
    """The compiled replay's rules of a bridge play (3): left of declarer leads, follow suit,
    no obligation to trump, thirteen tricks."""
    return Play((0, 0, 0, 0), (), (), leader, trump, must_trump=False, tricks=13)


def _names(game: BridgeGame, deal: BridgeDeal, play_names: bool = True) -> list[Problem]:
    """Every name is a player of the game (the play's too, unless the caller reads them)."""
    problems: list[Problem] = []
    seat = set(game.players)
    if deal.dealer in seat and names_in(deal, ("hands", "honours"), play_names) <= seat:
        return problems

    def name_ok(name: str, what: str) -> None:
        if name not in seat:
            problems.append(Problem(Code.UNKNOWN_PLAYER,
                                    f"{what} {name!r} is not a player of the game "
                                    f"({', '.join(game.players)})"))

    name_ok(deal.dealer, "dealer")
    if deal.declarer is not None:
        name_ok(deal.declarer, "declarer")
    for group, what in ((deal.hands or {}, "hand of"), (deal.honours or {}, "honours of")):
        for name in group:
            name_ok(name, what)
    for call in deal.auction or ():
        name_ok(call.player, "caller")
    if play_names:
        for name, _ in deal.play or ():
            name_ok(name, "player of a card")
    return problems


def _irregular(deal: BridgeDeal, found: list[Problem]) -> list[Problem]:
    """The play's problems, said to be of a result the source marks as irregular."""
    if not deal.irregular:
        return found
    return [Problem(p.code, p.message + " (the source marks the result as irregular, "
                                        "e.g. a director's ruling)") for p in found]


def _after_play(game: BridgeGame, deal: BridgeDeal, contract: Contract | None,
                declarer: int | None, hands: list[int] | None) -> list[Problem]:
    """When nothing else is wrong: the stated honours are in the hands (4.6), a duplicate
    deal's stated score is its score (Law 77)."""
    if contract is not None and declarer is not None and hands is not None \
            and deal.honours is not None:
        held = {game.players[s]: v for s, v in honours_held(hands, contract).items()}
        if held != dict(deal.honours):
            return [Problem(Code.REPLAY_MISMATCH, f"honours stated {dict(deal.honours)} but the "
                                                  f"hands hold {held or 'none'} (bridge.md 4.6)")]
    if deal.score_ns is not None and game.variant == "bridge-duplicate":
        return _score(game, deal, contract, declarer)
    return []


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
                        f"first of the side to name the denomination (bridge.md 2.3), "
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
) -> tuple[list[Problem], BridgePlay | None]:
    """The play's problems before the replay (the lead, too many cards, a card twice), and the
    play to replay: left of declarer leads (3), follow suit, no obligation to trump."""
    seat = {p: i for i, p in enumerate(game.players)}
    assert deal.tricks is not None
    play: list[tuple[int, int]] = []
    try:
        play = [(seat[p], card_index(c)) for p, c in deal.play or ()]
    except CardError as exc:
        return [Problem(Code.ILLEGAL_CARD, str(exc))], None
    out: list[Problem] = []
    if deal.lead is not None and play and format_card(play[0][1]) != format_card(
        card_index(deal.lead)
    ):
        out.append(Problem(Code.ILLEGAL_CARD, f"lead {deal.lead!r} but the play starts with "
                                              f"{format_card(play[0][1])}"))
    if deal.play is None:
        return out, None
    if len(play) > 52:
        return [Problem(Code.ILLEGAL_CARD, f"{len(play)} cards played; a deal has 52")], None
    if hands is None:
        # Without the hands a player is known to hold the cards he plays later, which is enough
        # to see a revoke.
        hands = [0, 0, 0, 0]
        for s, c in play:
            if hands[s] >> c & 1:
                return [Problem(Code.ILLEGAL_CARD, f"{format_card(c)} is played twice")], None
            hands[s] |= 1 << c
    return out, BridgePlay(game, deal, contract, declarer, hands, play)


@dataclass(frozen=True, slots=True)
class BridgePlay:
    """A deal's play to replay (3): the hands by seat, the cards as (seat, card); left of
    declarer leads, follow suit, no obligation to trump. The declarer's side's tricks agree with
    the result over thirteen tricks, or with the claim over fewer; then :func:`_after_play`."""

    game: BridgeGame
    deal: BridgeDeal
    contract: Contract
    declarer: int
    hands: list[int]
    moves: list[tuple[int, int]]

    @property
    def play(self) -> Play:
        """The play as the compiled replay takes it (``model/replay_kernel.py``)."""
        return replace(_kernel(left_of(self.declarer), TRUMP_SUIT[self.contract.denom]),
                       hands=self.hands, seats=[s for s, _ in self.moves],
                       cards=[c for _, c in self.moves])

    def accepts(self, replayed: Replayed) -> bool:
        return replayed.fault is None and not self._result(list(replayed.taken)) \
            and not self.after()

    def reference(self) -> list[Problem]:
        """The replay card by card (``model/tricks.py``), and the result against it."""
        leader = left_of(self.declarer)
        taken = replay(self.hands, leader, self.moves, TRUMP_SUIT[self.contract.denom],
                       must_trump=False)
        if not isinstance(taken, list):
            f = taken
            who = SEATS[f.seat] if 0 <= f.seat < 4 else str(f.seat)
            why = FAULTS.get(f.kind, f.kind)
            if f.kind == "turn" and f.index == 0:
                why = (f"out of turn: the opening lead is {SEATS[leader]}'s, left of declarer "
                       "(bridge.md 3)")
            elif f.kind == "turn":
                why = f"out of turn: {SEATS[f.expected]} was to play"
            return _irregular(self.deal, [Problem(Code.ILLEGAL_CARD,
                                                  f"trick {f.trick}, card {f.index + 1}: {who} "
                                                  f"plays {format_card(f.card)}, {why}")])
        return _irregular(self.deal, self._result(taken))

    def after(self) -> list[Problem]:
        """:func:`_after_play`, for a deal with nothing else wrong."""
        return _after_play(self.game, self.deal, self.contract, self.declarer, self.hands)

    def _result(self, taken: list[int]) -> list[Problem]:
        """The recorded tricks against the replay's: over thirteen tricks the same, over fewer
        the claim between the declarer's tricks and all that are left."""
        deal, declarer = self.deal, self.declarer
        assert deal.tricks is not None
        out: list[Problem] = []
        won = taken[declarer] + taken[partner(declarer)]
        done = len(self.moves) // 4
        left = 13 - done
        if done == 13:
            if won != deal.tricks:
                out.append(Problem(Code.REPLAY_MISMATCH, f"the play gives declarer {won} tricks, "
                                                         f"the record says {deal.tricks}"))
            return out
        claim = deal.claim if deal.claim is not None else deal.tricks
        if deal.claim is not None and deal.claim != deal.tricks:
            out.append(Problem(Code.REPLAY_MISMATCH, f"claim of {deal.claim} tricks but the "
                                                     f"result says {deal.tricks}"))
        if not won <= claim <= won + left:
            out.append(Problem(Code.REPLAY_MISMATCH,
                               f"declarer has {won} of {done} complete tricks, so the claimed "
                               f"total {claim} must lie in {won}..{won + left}"))
        return out


check_batch = batch_check(before_play, layout, rules_key)
"""Many deals at once (``Variant.check_batch``): :func:`layout` once per distinct
:func:`rules_key`, the cards of the batch in columns (``model/card_batch.py``);
:func:`before_play` where they cannot settle."""


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
