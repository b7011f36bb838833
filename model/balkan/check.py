"""Rule- and card-level checks of a Balkan deal (balkan.md 3-6; records.md 1.2).

``check_deal`` reports every problem it finds, never raises: names, contract, defence and kontra,
trick counts; and, when the cards are given, the deck, the auction, the discard, the first lead
and the replay of every card (follow suit, trump when void, no obligation to beat; play stops at
the defence's fifth trick, Bettel at the declarer's first: balkan.md 6).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from functools import cache

from model.balkan.auction import CallError, run_auction
from model.balkan.contracts import (
    BETL,
    PIK,
    PREFERANS,
    SANS,
    Contract,
    ContractError,
    parse_contract,
    play_over,
    play_stops,
    trick_domain_ok,
)
from model.balkan.params import BalkanRules
from model.balkan.records import BalkanDeal, BalkanGame
from model.card_batch import Layout, batch_check, calls, check_one, counted, items
from model.cards import DECK_32, CardError, count, format_cards, parse_cards
from model.problems import Code, Problem, by_player, once_per_input
from model.replay_kernel import Play, Replayed, moves
from model.tricks import card_index, legal_cards, trick_winner
from model.variant import lone_defence_passer

judged_auction = once_per_input(run_auction, CallError)
"""``run_auction`` (4) once per distinct bidders, calls and rules."""


def active_players(game: BalkanGame, dealer: str) -> list[str]:
    """The three who play this deal, first hand first (2; with four the dealer sits out)."""
    ps = list(game.players)
    i = ps.index(dealer)
    order = ps[i + 1 :] + ps[: i + 1]
    return order[:3]


def defenders_of(active: list[str], declarer: str) -> list[str]:
    """The two defenders, the one who speaks first (the next after the declarer) first (5.1)."""
    i = active.index(declarer)
    return [active[(i + 1) % 3], active[(i + 2) % 3]]


def mode_of(deal: BalkanDeal) -> str:
    """``none`` all pass; ``pass`` both defenders passed; ``nokontra`` plain Pik not kontra'd
    (no play); ``both``, ``invite``, ``alone`` the defence of the play (5.1)."""
    if deal.declarer is None:
        return "none"
    decisions = set((deal.defence or {}).values())
    if decisions == {"pass"}:
        return "pass"
    if deal.tricks is None and deal.contract == str(PIK) and not deal.kontra:
        return "nokontra"
    if "invite" in decisions:
        return "invite"
    if "alone" in decisions:
        return "alone"
    return "both"


def first_leader(active: list[str], declarer: str, number: int, players_in: list[str],
                 rules: BalkanRules) -> str:
    """Who leads the first trick (6): first hand, skipping a passer who sits out; in Sanac the
    declarer may not lead (``sans_lead``: next player, or the player before the declarer); in
    Preferans the player before the declarer leads."""
    i = active.index(declarer)
    before = active[(i + 2) % 3]
    if number == PREFERANS or (number == SANS and rules.sans_lead == "through_declarer"):
        if before in players_in:
            return before
        return next(p for p in players_in if p != declarer)
    for k in range(3):
        p = active[k]
        if p not in players_in or (number == SANS and p == declarer):
            continue
        return p
    return active[0]


def before_play(game: BalkanGame, deal: BalkanDeal) -> tuple[list[Problem], BalkanPlay | None]:
    """Every problem of the deal but the replay's, and the play to replay (None: nothing to
    replay). :func:`check_deal` replays it in Python, ``check_batch`` with the kernel."""
    found = _rules(game, deal)
    if isinstance(found, list):
        return found, None
    active, contract, players_in, probs = found
    return _with_cards(game, deal, active, contract, players_in, probs)


def layout(game: BalkanGame, deal: BalkanDeal) -> tuple[list[Problem], Layout | None]:
    """:func:`before_play` without the cards, for ``check_batch``: every problem the rules find
    without them (the play's names are seats of the columns), and what the cards must be
    (``model/card_batch.py``); None for a deal without hands (the reference is quick there)."""
    if deal.hands is None:
        return [], None
    found = _rules(game, deal, play_names=False)
    if isinstance(found, list):
        return found, None
    active, contract, players_in, probs = found
    if probs:
        return probs, None
    problem = _against_auction(game, deal, active)
    if problem is not None:
        return [problem], None
    if contract is None or deal.declarer is None:
        return [], Layout(tuple(active), 10, 2, DECK_32)
    if contract.igra and deal.discard:
        return [IGRA_DISCARD], None
    declarer = active.index(deal.declarer)
    discard = not contract.igra and deal.discard is not None
    if deal.play is None or not players_in:
        return [], Layout(tuple(active), 10, 2, DECK_32, declarer=declarer, discard=discard)
    if not contract.igra and deal.discard is None:
        return [NO_DISCARD], None
    judge = _balkan_play(game, deal, active, contract, players_in, {})
    return [], Layout(tuple(active), 10, 2, DECK_32, tuple(active.index(p) for p in judge.order),
                      judge.kernel.row(), declarer=declarer, discard=discard, by_tricks=True)


def rules_key(game: BalkanGame, deal: BalkanDeal) -> Hashable:
    """What :func:`layout` reads of a deal besides its game's players and rules."""
    return (deal.dealer, deal.declarer, deal.contract, items(deal.defence),
            items(deal.kontra), counted(deal.tricks, deal.declarer),
            deal.discard is None, not deal.discard, deal.play is None,
            None if deal.hands is None else tuple(deal.hands),
            calls(deal.auction))



def _rules(game: BalkanGame, deal: BalkanDeal, play_names: bool = True,
           ) -> list[Problem] | tuple[list[str], Contract | None, list[str], list[Problem]]:
    """The rules without the cards (2-6): a problem that ends the check, or the players dealt
    in, the contract, the players in the play and the problems found so far."""
    strangers = _strangers(game, deal, play_names)
    if strangers:
        return strangers
    active = active_players(game, deal.dealer)
    if deal.declarer is None:
        probs = [] if deal.tricks is None else [
            Problem(Code.TRICK_COUNT, "tricks given but nobody declared")]
        return active, None, [], probs
    if deal.declarer not in active:
        return [Problem(Code.UNKNOWN_PLAYER,
                        f"declarer {deal.declarer!r} is the dealer, who sits out this deal")]
    try:
        contract = parse_contract(deal.contract or "", game.rules)
    except ContractError as exc:
        return [Problem(Code.ILLEGAL_CONTRACT, str(exc))]
    defenders = defenders_of(active, deal.declarer)
    defence = deal.defence or {}
    if set(defence) != set(defenders):
        return [Problem(Code.ILLEGAL_DEFENCE,
                        f"defence must name exactly the defenders {defenders!r}, got "
                        f"{sorted(defence)!r}")]
    probs = _decisions(contract, defence) + _kontra(deal, defenders, game.rules)
    mode = mode_of(deal)
    out = lone_defence_passer(defence)
    players_in = [deal.declarer] + [p for p in defenders if p not in out]
    if mode in ("pass", "nokontra"):
        if deal.tricks is not None:
            probs.append(Problem(Code.TRICK_COUNT, f"no play ({mode}) but tricks given"))
        if mode == "nokontra" and not game.rules.pik_needs_kontra:
            probs.append(Problem(Code.TRICK_COUNT,
                                 "Pik without tricks: pik_needs_kontra is off, it must be played"))
        return active, contract, [], probs
    found, cards_too = _tricks(deal, contract, players_in)
    if not cards_too:
        return probs + found
    return active, contract, players_in, probs + found


def _strangers(game: BalkanGame, deal: BalkanDeal, play_names: bool = True) -> list[Problem]:
    """Every name the deal mentions is a player of the game (the play's names too, unless the
    caller reads them itself)."""
    names = set(game.players)
    mentioned = [deal.dealer, *([deal.declarer] if deal.declarer else [])]
    for field in (deal.defence, deal.kontra, deal.tricks, deal.hands):
        mentioned += list(field or {})
    if play_names:
        mentioned += [p for p, _ in deal.play or ()]
    bad = sorted({p for p in mentioned if p not in names})
    if not bad:
        return []
    named = ", ".join(map(repr, bad))
    verb = "is not a player" if len(bad) == 1 else "are not players"
    return [Problem(Code.UNKNOWN_PLAYER,
                    f"{named} {verb} of this game ({', '.join(game.players)})")]


def _decisions(contract: Contract, defence: Mapping[str, str]) -> list[Problem]:
    """The defenders' pair of decisions (5.1); both play against Bettel."""
    probs: list[Problem] = []
    decisions = sorted(defence.values())
    if decisions not in (["play", "play"], ["pass", "pass"], ["invite", "pass"],
                         ["alone", "pass"]):
        probs.append(Problem(Code.ILLEGAL_DEFENCE,
                             f"impossible pair of decisions {defence!r} (balkan.md 5.1: play+play, "
                             "pass+pass, invite+pass, alone+pass)"))
    if contract.number == BETL and decisions != ["play", "play"]:
        probs.append(Problem(Code.ILLEGAL_DEFENCE,
                             "in Bettel both defenders must play "
                             f"(balkan.md 5.1), got {defence!r}"))
    return probs


def _kontra(deal: BalkanDeal, defenders: list[str], rules: BalkanRules) -> list[Problem]:
    """Kontra by a playing defender, not the one alone, within the chain's limit and scope
    (5.3)."""
    probs: list[Problem] = []
    defence = deal.defence or {}
    kontra = deal.kontra or {}
    for p, k in kontra.items():
        if p not in defenders or defence[p] == "pass":
            probs.append(Problem(Code.ILLEGAL_DEFENCE,
                                 f"{p!r} kontras but is not a playing defender"))
        elif defence[p] == "alone":
            probs.append(Problem(Code.ILLEGAL_DEFENCE,
                                 f"{p!r} plays alone with a kontra: a kontra by the only "
                                 "playing defender is an invitation (balkan.md 5.3)"))
        if rules.kontra_max_level is not None and k > rules.kontra_max_level:
            probs.append(Problem(Code.ILLEGAL_DEFENCE,
                                 f"kontra chain of {k} with {p!r} exceeds kontra_max_level "
                                 f"{rules.kontra_max_level}"))
    if len(kontra) > 1 and rules.kontra_scope != "pairwise":
        probs.append(Problem(Code.ILLEGAL_DEFENCE,
                             f"both defenders kontra {kontra!r}: under kontra_scope "
                             f"{rules.kontra_scope} only one defender may (balkan.md 5.3)"))
    return probs


def _tricks(deal: BalkanDeal, contract: Contract, players_in: list[str],
            ) -> tuple[list[Problem], bool]:
    """The tricks of a played deal: of exactly the players in, a score a play can end at (6).
    With the problems, whether the cards are still worth checking."""
    tricks = deal.tricks
    if tricks is None:
        return [Problem(Code.TRICK_COUNT, "the deal was played: tricks are missing")], False
    if set(tricks) != set(players_in):
        return [Problem(Code.TRICK_COUNT,
                        f"tricks must name {', '.join(sorted(players_in))}, got "
                        f"{', '.join(sorted(tricks))}")], False
    assert deal.declarer is not None
    t_d = tricks[deal.declarer]
    t_x = sum(t for p, t in tricks.items() if p != deal.declarer)
    if not trick_domain_ok(contract.number, t_d, t_x):
        return [Problem(Code.TRICK_COUNT,
                        f"tricks ({by_player(tricks)}) cannot end a play of {contract.name} "
                        "(balkan.md 6: play "
                        "stops at the defence's fifth trick, Bettel at the declarer's "
                        "first)")], True
    return [], True


def _with_cards(game: BalkanGame, deal: BalkanDeal, active: list[str], contract: Contract | None,
                players_in: list[str], earlier: list[Problem],
                ) -> tuple[list[Problem], BalkanPlay | None]:
    found, cards = _check_cards(game, deal, active, contract, players_in, earlier)
    return earlier + found, cards

def _check_cards(game: BalkanGame, deal: BalkanDeal, active: list[str], contract: Contract | None,
                 players_in: list[str], earlier: list[Problem],
                 ) -> tuple[list[Problem], BalkanPlay | None]:
    """The cards, when given (3-4, 6): the deck, the auction, the discard; and the play to
    replay, unless something before it is wrong."""
    if deal.hands is None:
        if deal.play or deal.auction or deal.discard:
            return [Problem(Code.DECK, "play, auction or discard given without the hands")], None
        return [], None
    probs: list[Problem] = []
    try:
        hands = {p: parse_cards(cs) for p, cs in deal.hands.items()}
        talon = parse_cards(deal.talon or ())
    except CardError as exc:
        return [Problem(Code.DECK, str(exc))], None
    if set(hands) != set(active):
        return [Problem(Code.DECK,
                        f"hands must be given for {active!r}, got {sorted(hands)!r}")], None
    for p, h in hands.items():
        if count(h) != 10:
            probs.append(Problem(Code.DECK, f"{p!r} holds {count(h)} cards, not 10"))
    if count(talon) != 2:
        probs.append(Problem(Code.DECK, f"the talon has {count(talon)} cards, not 2"))
    union = talon
    for h in hands.values():
        if union & h:
            probs.append(Problem(Code.DECK, f"cards dealt twice: {format_cards(union & h)}"))
        union |= h
    if union != DECK_32 and not probs:
        probs.append(Problem(Code.DECK, f"cards missing from the deal: "
                             f"{format_cards(DECK_32 & ~union)}; not of the 32-card deck: "
                             f"{format_cards(union & ~DECK_32)}"))
    if probs:
        return probs, None
    problem = _against_auction(game, deal, active)
    if problem is not None:
        return [problem], None
    if contract is None or deal.declarer is None:
        return probs, None
    d = deal.declarer
    if contract.igra:
        if deal.discard:
            probs.append(IGRA_DISCARD)
    elif deal.discard is not None:
        try:
            disc = parse_cards(deal.discard)
        except CardError as exc:
            return [*probs, Problem(Code.DISCARD, str(exc))], None
        if count(disc) != 2 or disc & ~(hands[d] | talon):
            stray = format_cards(disc & ~(hands[d] | talon))
            probs.append(Problem(Code.DISCARD,
                                 f"the discard {list(deal.discard)!r} must be two cards of the "
                                 f"declarer's hand and the talon (balkan.md 4); not held: {stray}"))
            hands[d] |= talon  # keep replaying to find every fault of the deal
        else:
            hands[d] = (hands[d] | talon) & ~disc
    if deal.play is None or not players_in or earlier:
        return probs, None
    if not contract.igra and deal.discard is None:
        return [*probs, NO_DISCARD], None
    return probs, _balkan_play(game, deal, active, contract, players_in, hands)


IGRA_DISCARD = Problem(Code.DISCARD, "igra is played without the talon: no discard (balkan.md 4)")
NO_DISCARD = Problem(Code.DISCARD, "the play is given but the discard is missing")


def _against_auction(game: BalkanGame, deal: BalkanDeal, active: list[str]) -> Problem | None:
    """The recorded auction (4), when there is one: legal, won by the declarer, the contract
    one it allows."""
    if deal.auction is None:
        return None
    res = judged_auction(tuple(active), tuple((c.player, c.call) for c in deal.auction),
                         game.rules)
    if isinstance(res, Exception):
        return Problem(Code.AUCTION, str(res))
    if res.winner != deal.declarer:
        return Problem(Code.AUCTION, f"the auction is won by {res.winner!r}, the deal names "
                                     f"{deal.declarer!r}")
    if deal.contract is not None and deal.contract not in res.allowed:
        return Problem(Code.CONTRACT_NOT_ALLOWED,
                       f"contract {deal.contract!r} not allowed after this auction; "
                       f"allowed: {sorted(res.allowed)!r} (balkan.md 4: not lower than the bid)")
    return None


def _balkan_play(game: BalkanGame, deal: BalkanDeal, active: list[str], contract: Contract,
                 players_in: list[str], hands: dict[str, int]) -> BalkanPlay:
    assert deal.declarer is not None
    order = tuple(p for p in active if p in players_in)
    leader = first_leader(active, deal.declarer, contract.number, players_in, game.rules)
    return BalkanPlay(deal, order, hands, leader, contract)


@dataclass(frozen=True, slots=True)
class BalkanPlay:
    """A deal's play to replay (6): who plays, in turn order; their hands at the start of the
    play (the declarer's after the discard); who leads; the contract. Follow suit, trump when
    void, no obligation to beat; the play stops where :func:`play_stops` says, and the replay's
    tricks are the recorded ones."""

    deal: BalkanDeal
    order: tuple[str, ...]
    hands: dict[str, int]
    leader: str
    contract: Contract

    @property
    def kernel(self) -> Play:
        """The compiled replay's rules of this play (``model/replay_kernel.py``), without the
        hands and the cards."""
        assert self.deal.declarer is not None
        return _kernel(len(self.order), self.order.index(self.leader), self.contract.trump,
                       self.order.index(self.deal.declarer), self.contract.number)

    @property
    def play(self) -> Play:
        """The play as the compiled replay takes it (``model/replay_kernel.py``)."""
        who, cards = moves(self.deal.play or (), {p: i for i, p in enumerate(self.order)})
        return replace(self.kernel, hands=[self.hands[p] for p in self.order], seats=who,
                       cards=cards)

    def accepts(self, replayed: Replayed) -> bool:
        return replayed.ended and dict(zip(self.order, replayed.taken, strict=True)) == dict(
            self.deal.tricks or {})

    def reference(self) -> list[Problem]:
        """The replay card by card (``model/tricks.py``), with the first problem it meets."""
        deal, contract, order = self.deal, self.contract, self.order
        assert deal.declarer is not None
        d = deal.declarer
        trump = contract.trump
        left = dict(self.hands)
        taken = dict.fromkeys(order, 0)
        turn = self.leader
        trick: list[int] = []
        who: list[str] = []
        stopped = False
        for i, (p, text) in enumerate(deal.play or ()):
            n_trick = sum(taken.values()) + 1
            if stopped:
                return [Problem(Code.ILLEGAL_CARD,
                                f"card {i + 1} ({p} {text}) after the play stopped (balkan.md 6)")]
            c = card_index(text)
            if p != turn:
                return [Problem(Code.ILLEGAL_CARD,
                                f"trick {n_trick}: {p!r} plays {text} but it is {turn!r}'s turn")]
            if not left[p] >> c & 1:
                return [Problem(Code.ILLEGAL_CARD,
                                f"trick {n_trick}: {p!r} plays {text}, a card he does not hold")]
            if not legal_cards(left[p], trick, trump, must_trump=True) >> c & 1:
                return [Problem(Code.ILLEGAL_CARD,
                                f"trick {n_trick}: {p!r} plays {text} but must follow suit or "
                                "trump (balkan.md 6)")]
            left[p] &= ~(1 << c)
            trick.append(c)
            who.append(p)
            if len(trick) == len(order):
                w = who[trick_winner(trick, trump)]
                taken[w] += 1
                trick, who = [], []
                turn = w
                t_d = taken[d]
                stopped = play_over(contract.number, t_d, sum(taken.values()) - t_d, 10)
            else:
                turn = order[(order.index(p) + 1) % len(order)]
        if not stopped:
            return [Problem(Code.REPLAY_MISMATCH,
                            f"the play stops after {sum(taken.values())} tricks, before the deal "
                            "is decided (balkan.md 6)")]
        if taken != dict(deal.tricks or {}):
            return [Problem(Code.REPLAY_MISMATCH,
                            f"replaying the play gives tricks {by_player(taken)}, the deal records "
                            f"{by_player(deal.tricks)}")]
        return []


@cache
def _kernel(seats: int, leader: int, trump: int | None, declarer: int, number: int) -> Play:
    """The compiled replay's rules of a Balkan play (6): follow suit, trump when void, the play
    stops where :func:`play_stops` says."""
    won, lost = play_stops(number)
    return Play((0,) * seats, (), (), leader, trump, must_trump=True, declarer=declarer,
                stop_won=won, stop_lost=lost)


check_batch = batch_check(before_play, layout, rules_key)
"""Many deals at once (``Variant.check_batch``): :func:`layout` deal by deal, the cards of the
batch in columns (``model/card_batch.py``); :func:`before_play` where they cannot settle."""

check_deal = check_one(before_play)
"""Every problem of a schema-valid deal (empty when valid): :func:`before_play`, then its
play replayed in Python (the reference ``check_batch`` is held to)."""
