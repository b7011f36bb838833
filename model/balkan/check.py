"""Rule- and card-level checks of a Balkan deal (balkan.md 3-6; records.md 1.2).

``check_deal`` reports every problem it finds, never raises: names, contract, defence and kontra,
trick counts; and, when the cards are given, the deck, the auction, the discard, the first lead
and the replay of every card (follow suit, trump when void, no obligation to beat; play stops at
the defence's fifth trick, Bettel at the declarer's first: balkan.md 6).
"""

from __future__ import annotations

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
    trick_domain_ok,
)
from model.balkan.params import BalkanRules
from model.balkan.records import BalkanDeal, BalkanGame
from model.cards import DECK_32, CardError, count, format_cards, parse_cards
from model.problems import Code, Problem, once_per_input
from model.tricks import card_index, legal_cards, trick_winner

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


def check_deal(game: BalkanGame, deal: BalkanDeal) -> list[Problem]:
    """Every problem of a schema-valid deal of ``game`` (empty when valid)."""
    rules = game.rules
    probs: list[Problem] = []
    names = set(game.players)
    mentioned = [deal.dealer, *([deal.declarer] if deal.declarer else [])]
    for field in (deal.defence, deal.kontra, deal.tricks, deal.hands):
        mentioned += list(field or {})
    mentioned += [p for p, _ in deal.play or ()]
    bad = sorted({p for p in mentioned if p not in names})
    if bad:
        return [Problem(Code.UNKNOWN_PLAYER, f"not players of the game: {bad!r}")]
    active = active_players(game, deal.dealer)
    if deal.declarer is None:
        if deal.tricks is not None:
            probs.append(Problem(Code.TRICK_COUNT, "tricks given but nobody declared"))
        return probs + _check_cards(game, deal, active, None, [], probs)
    if deal.declarer not in active:
        return [Problem(Code.UNKNOWN_PLAYER,
                        f"declarer {deal.declarer!r} is the dealer, who sits out this deal")]
    try:
        contract = parse_contract(deal.contract or "", rules)
    except ContractError as exc:
        return [Problem(Code.ILLEGAL_CONTRACT, str(exc))]
    defenders = defenders_of(active, deal.declarer)
    defence = deal.defence or {}
    if set(defence) != set(defenders):
        return [Problem(Code.ILLEGAL_DEFENCE,
                        f"defence must name exactly the defenders {defenders!r}, got "
                        f"{sorted(defence)!r}")]
    decisions = sorted(defence.values())
    if decisions not in (["play", "play"], ["pass", "pass"], ["invite", "pass"],
                         ["alone", "pass"]):
        probs.append(Problem(Code.ILLEGAL_DEFENCE,
                             f"impossible pair of decisions {defence!r} (5.1: play+play, "
                             "pass+pass, invite+pass, alone+pass)"))
    if contract.number == BETL and decisions != ["play", "play"]:
        probs.append(Problem(Code.ILLEGAL_DEFENCE,
                             f"in Bettel both defenders must play (5.1), got {defence!r}"))
    mode = mode_of(deal)
    kontra = deal.kontra or {}
    for p, k in kontra.items():
        if p not in defenders or defence[p] == "pass":
            probs.append(Problem(Code.ILLEGAL_DEFENCE,
                                 f"{p!r} kontras but is not a playing defender"))
        elif defence[p] == "alone":
            probs.append(Problem(Code.ILLEGAL_DEFENCE,
                                 f"{p!r} plays alone with a kontra: a kontra by the only "
                                 "playing defender is an invitation (5.3)"))
        if rules.kontra_max_level is not None and k > rules.kontra_max_level:
            probs.append(Problem(Code.ILLEGAL_DEFENCE,
                                 f"kontra chain of {k} with {p!r} exceeds kontra_max_level "
                                 f"{rules.kontra_max_level}"))
    if len(kontra) > 1 and rules.kontra_scope != "pairwise":
        probs.append(Problem(Code.ILLEGAL_DEFENCE,
                             f"both defenders kontra {kontra!r}: under kontra_scope "
                             f"{rules.kontra_scope} only one defender may (5.3)"))
    players_in = [deal.declarer] + [p for p in defenders
                                    if mode != "alone" or defence[p] != "pass"]
    if mode in ("pass", "nokontra"):
        if deal.tricks is not None:
            probs.append(Problem(Code.TRICK_COUNT, f"no play ({mode}) but tricks given"))
        if mode == "nokontra" and not rules.pik_needs_kontra:
            probs.append(Problem(Code.TRICK_COUNT,
                                 "Pik without tricks: pik_needs_kontra is off, it must be played"))
        return probs + _check_cards(game, deal, active, contract, [], probs)
    tricks = deal.tricks
    if tricks is None:
        probs.append(Problem(Code.TRICK_COUNT, "the deal was played: tricks are missing"))
        return probs
    if set(tricks) != set(players_in):
        probs.append(Problem(Code.TRICK_COUNT,
                             f"tricks must name {sorted(players_in)!r}, got {sorted(tricks)!r}"))
        return probs
    t_d = tricks[deal.declarer]
    t_x = sum(t for p, t in tricks.items() if p != deal.declarer)
    if not trick_domain_ok(contract.number, t_d, t_x):
        probs.append(Problem(Code.TRICK_COUNT,
                             f"tricks {tricks!r} cannot end a play of {contract.name} (6: play "
                             "stops at the defence's fifth trick, Bettel at the declarer's "
                             "first)"))
    return probs + _check_cards(game, deal, active, contract, players_in, probs)


def _check_cards(game: BalkanGame, deal: BalkanDeal, active: list[str], contract: object,
                 players_in: list[str], earlier: list[Problem]) -> list[Problem]:
    if deal.hands is None:
        if deal.play or deal.auction or deal.discard:
            return [Problem(Code.DECK, "play, auction or discard given without the hands")]
        return []
    probs: list[Problem] = []
    try:
        hands = {p: parse_cards(cs) for p, cs in deal.hands.items()}
        talon = parse_cards(deal.talon or ())
    except CardError as exc:
        return [Problem(Code.DECK, str(exc))]
    if set(hands) != set(active):
        return [Problem(Code.DECK, f"hands must be given for {active!r}, got {sorted(hands)!r}")]
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
        return probs
    rules = game.rules
    if deal.auction is not None:
        res = judged_auction(tuple(active), tuple((c.player, c.call) for c in deal.auction),
                             rules)
        if isinstance(res, Exception):
            return [Problem(Code.AUCTION, str(res))]
        if res.winner != deal.declarer:
            return [Problem(Code.AUCTION,
                            f"the auction is won by {res.winner!r}, the deal names "
                            f"{deal.declarer!r}")]
        if deal.contract is not None and deal.contract not in res.allowed:
            return [Problem(Code.CONTRACT_NOT_ALLOWED,
                            f"contract {deal.contract!r} not allowed after this auction; "
                            f"allowed: {sorted(res.allowed)!r} (4: not lower than the bid)")]
    if not isinstance(contract, Contract) or deal.declarer is None:
        return probs
    d = deal.declarer
    if contract.igra:
        if deal.discard:
            probs.append(Problem(Code.DISCARD,
                                 "igra is played without the talon: no discard (4)"))
    elif deal.discard is not None:
        try:
            disc = parse_cards(deal.discard)
        except CardError as exc:
            return [*probs, Problem(Code.DISCARD, str(exc))]
        if count(disc) != 2 or disc & ~(hands[d] | talon):
            stray = format_cards(disc & ~(hands[d] | talon))
            probs.append(Problem(Code.DISCARD,
                                 f"the discard {list(deal.discard)!r} must be two cards of the "
                                 f"declarer's hand and the talon (4); not held: {stray}"))
            hands[d] |= talon  # keep replaying to find every fault of the deal
        else:
            hands[d] = (hands[d] | talon) & ~disc
    if deal.play is None or not players_in or earlier:
        return probs
    if not contract.igra and deal.discard is None:
        return [*probs, Problem(Code.DISCARD, "the play is given but the discard is missing")]
    return probs + _replay(deal, hands, active, contract, players_in, rules)


def _replay(deal: BalkanDeal, hands: dict[str, int], active: list[str], contract: object,
            players_in: list[str], rules: BalkanRules) -> list[Problem]:
    assert isinstance(contract, Contract) and deal.declarer is not None
    d = deal.declarer
    order = [p for p in active if p in players_in]
    leader = first_leader(active, d, contract.number, players_in, rules)
    trump = contract.trump
    left = dict(hands)
    taken = dict.fromkeys(order, 0)
    turn = leader
    trick: list[int] = []
    who: list[str] = []
    total = 10
    stopped = False
    for i, (p, text) in enumerate(deal.play or ()):
        n_trick = sum(taken.values()) + 1
        if stopped:
            return [Problem(Code.ILLEGAL_CARD,
                            f"card {i + 1} ({p} {text}) after the play stopped (6)")]
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
                            "trump (6)")]
        left[p] &= ~(1 << c)
        trick.append(c)
        who.append(p)
        if len(trick) == len(order):
            w = who[trick_winner(trick, trump)]
            taken[w] += 1
            trick, who = [], []
            turn = w
            t_d = taken[d]
            stopped = play_over(contract.number, t_d, sum(taken.values()) - t_d, total)
        else:
            turn = order[(order.index(p) + 1) % len(order)]
    if not stopped:
        return [Problem(Code.REPLAY_MISMATCH,
                        f"the play stops after {sum(taken.values())} tricks, before the deal "
                        "is decided (6)")]
    if taken != dict(deal.tricks or {}):
        return [Problem(Code.REPLAY_MISMATCH,
                        f"replaying the play gives tricks {taken!r}, the deal records "
                        f"{dict(deal.tricks or {})!r}")]
    return []
