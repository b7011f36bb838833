"""Rule- and card-level checks of a schema-valid Russian deal (``Variant.check_deal``).

Three levels, as for every variant: the schema (pydantic, ``records.py``), then the rules (names,
who sits out, contract, defence, trick counts; russian.md 1-4, 7), then, only when the rules hold
and cards are recorded, the cards (deck, auction, discard, legal play, replay == tricks).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from functools import cache

from model.card_batch import (
    Layout,
    batch_check,
    calls,
    check_one,
    counted,
    items,
    names_in,
    rules_then_cards,
)
from model.cards import DECK_32, CardSet, format_card_symbol, iter_cards
from model.problems import Code, Problem, by_player, once_per_input
from model.replay_kernel import Play, Replayed, moves
from model.russian import auction
from model.russian.contracts import HALF_WHIST_LEVELS, parse_contract
from model.russian.play import replay_contract, replay_raspasy
from model.russian.records import RussianDeal, RussianGame
from model.russian.seats import defenders, in_deal
from model.tricks import card_index, dealt

judged_auction = once_per_input(auction.run, auction.CallError)
"""``auction.run`` once per distinct calls, seating, rules and names."""


def symbols(cards: CardSet) -> str:
    return ", ".join(format_card_symbol(c) for c in sorted(iter_cards(cards), reverse=True))


def _names(game: RussianGame, deal: RussianDeal, play_names: bool = True) -> list[Problem]:
    """Every name is a player of the game; with four the dealer sits out (1). The play's names
    too, unless the caller reads them itself."""
    known = set(game.players)
    named = names_in(deal, ("hands", "tricks", "defence"), play_names)
    if deal.dealer in known and named <= known and (len(known) != 4 or deal.dealer not in named):
        return []
    used: list[tuple[str, str]] = [("dealer", deal.dealer)]
    if deal.declarer is not None:
        used.append(("declarer", deal.declarer))
    for field in ("hands", "tricks", "defence"):
        used += [(field, p) for p in getattr(deal, field) or {}]
    used += [("auction", c.player) for c in deal.auction or ()]
    if play_names:
        used += [("play", p) for p, _ in deal.play or ()]
    problems = [
        Problem(Code.UNKNOWN_PLAYER, f"{field} names {p!r}, not a player of {game.game_id!r}")
        for field, p in dict.fromkeys(used)
        if p not in known
    ]
    if not problems and len(known) == 4:
        problems += [
            Problem(Code.UNKNOWN_PLAYER, f"{field} names the dealer {p!r}, who sits out "
                                         "(russian.md 1)")
            for field, p in dict.fromkeys(used[1:])
            if p == deal.dealer
        ]
    return problems


def _tricks(players: list[str], deal: RussianDeal) -> list[Problem]:
    """The three players in the deal took ten tricks between them (4: all ten are played)."""
    tricks = dict(deal.tricks or {})
    if set(tricks) != set(players) or sum(tricks.values()) != 10:
        return [
            Problem(
                Code.TRICK_COUNT,
                f"tricks must give {', '.join(players)} ten between them (russian.md 4), got "
                f"{by_player(tricks)}",
            )
        ]
    return []


def _defence(game: RussianGame, deal: RussianDeal, first: str, second: str) -> list[Problem]:
    """Whist / pass / half per defender (3): half only by the second after the first passed, on
    6 and 7; Stalingrad; 10 not whisted; open play needs a single whister; tricks when played."""
    rules = game.rules
    c = parse_contract(deal.contract or "")
    said = dict(deal.defence or {})

    def bad(text: str) -> list[Problem]:
        return [Problem(Code.ILLEGAL_DEFENCE, f"{text}: defence {said!r}")]

    if set(said) != {first, second}:
        return bad(f"the defenders are {first} and {second}")
    a, b = said[first], said[second]
    if a == "half":
        return bad(f"only the second defender ({second}) may say half-whist, after a pass "
                   "(russian.md 3)")
    if b == "half" and (a != "pass" or not rules.half_whist or c.level not in HALF_WHIST_LEVELS):
        return bad("half-whist: only on 6 or 7, after the first defender passed, "
                   "when half_whist is on (russian.md 3)")
    if rules.stalingrad and str(c) == "6S" and (a, b) != ("whist", "whist"):
        return bad("Stalingrad: 6S is whisted by both opponents (russian.md 3)")
    if c.level == 10 and not rules.ten_whisted and "whist" in (a, b):
        return bad("a 10-trick contract is not whisted (ten_whisted is false, russian.md 3)")
    whisters = (a, b).count("whist")
    if deal.open and whisters != 1:
        return bad("open play needs exactly one whister (russian.md 3)")
    played = whisters > 0 or (b == "half" and rules.half_whist_play)
    if not played and (deal.tricks is not None or deal.play is not None):
        return [Problem(Code.TRICK_COUNT,
                        f"nobody whisted {deal.contract}: no play, no tricks (russian.md 3)")]
    if played and deal.tricks is None:
        return [Problem(Code.TRICK_COUNT, f"{deal.contract} is played: give the tricks "
                                          "(russian.md 4)")]
    return []


def check_rules(game: RussianGame, deal: RussianDeal, play_names: bool = True) -> list[Problem]:
    problems = _names(game, deal, play_names)
    if problems:
        return problems
    n = len(game.players)
    seat = {p: i for i, p in enumerate(game.players)}
    players = [game.players[s] for s in in_deal(n, seat[deal.dealer])]
    if deal.declarer is None:
        return _tricks(players, deal)
    if deal.contract == "misere":
        return _tricks(players, deal)
    first, second = (game.players[s] for s in defenders(n, seat[deal.dealer], seat[deal.declarer]))
    problems = _defence(game, deal, first, second)
    if not problems and deal.tricks is not None:
        problems = _tricks(players, deal)
    return problems


def _deck(players: list[str], deal: RussianDeal) -> tuple[list[CardSet], list[int]] | Problem:
    """The three hands (10 each) and the talon (2) partition the 32-card deck (1)."""
    hands = deal.hands or {}
    if set(hands) != set(players) or deal.talon is None:
        return Problem(Code.DECK, f"hands of {', '.join(players)} and the talon go together "
                                  "(russian.md 1)")
    whole = dealt([hands[p] for p in players], deal.talon, 10, 2, DECK_32)
    if whole is not None:
        return whole[0], [card_index(n) for n in deal.talon]
    masks: list[CardSet] = []
    seen = twice = 0
    for p in players:
        m = 0
        for name in hands[p]:
            b = 1 << card_index(name)
            twice |= (m | seen) & b
            m |= b
        if len(hands[p]) != 10:
            return Problem(Code.DECK, f"{p} holds {len(hands[p])} cards, not 10 (russian.md 1)")
        seen |= m
        masks.append(m)
    talon = [card_index(name) for name in deal.talon]
    for c in talon:
        twice |= seen & (1 << c)
        seen |= 1 << c
    if len(talon) != 2:
        return Problem(Code.DECK, f"the talon has {len(talon)} cards, not 2 (russian.md 1)")
    if twice:
        return Problem(Code.DECK, f"dealt twice: {symbols(twice)}")
    if seen != DECK_32:
        foreign, missing = symbols(seen & ~DECK_32) or "-", symbols(DECK_32 & ~seen) or "-"
        return Problem(Code.DECK, f"not the 32-card deck: foreign {foreign}; missing {missing}")
    return masks, talon


def _against_auction(deal: RussianDeal, won: auction.Won, names: list[str]) -> list[Problem]:
    """The auction's winner declares a contract not below his bid; misère stays misère (3)."""
    winner = None if won.declarer is None else names[won.declarer]
    if winner != deal.declarer:
        return [Problem(Code.AUCTION, f"the auction is won by {winner!r}, not {deal.declarer!r}")]
    if won.bid is None or deal.contract is None:
        return []
    c = parse_contract(deal.contract)
    if won.bid.misere != c.misere or c.rank < won.bid.rank:
        return [Problem(Code.CONTRACT_NOT_ALLOWED,
                        f"contract {c} after the winning bid {won.bid}: not below it, and a "
                        "misère stays a misère (russian.md 3)")]
    return []


def _discard(deal: RussianDeal, hand: CardSet, talon: list[int]) -> CardSet | Problem:
    """Two cards of the declarer's hand and the talon (3)."""
    held = hand | (1 << talon[0]) | (1 << talon[1])
    discard = sum({1 << card_index(n) for n in deal.discard or ()})
    if len(deal.discard or ()) != 2 or discard.bit_count() != 2 or discard & ~held:
        return Problem(Code.DISCARD, f"{deal.declarer} discards {symbols(discard) or '-'}: not 2 "
                                     f"of his hand and the talon {symbols(held & ~hand)} "
                                     "(russian.md 3)")
    return held & ~discard


def check_cards(game: RussianGame, deal: RussianDeal,
                ) -> tuple[list[Problem], RussianPlay | None]:
    """Cards, when recorded: deck, auction, discard (records.md 1.2); and the play to
    replay."""
    names = list(game.players)
    n = len(names)
    seat = {p: i for i, p in enumerate(names)}
    seats = in_deal(n, seat[deal.dealer])
    players = [names[s] for s in seats]
    problems = _auction(game, deal, seat, seats)
    if deal.hands is None and deal.talon is None:
        if deal.play is not None:
            problems.append(
                Problem(Code.ILLEGAL_CARD, "a play without the hands cannot be checked"))
        return problems, None
    dealt = _deck(players, deal)
    if isinstance(dealt, Problem):
        return [*problems, dealt], None
    masks, talon = dealt
    if deal.declarer is not None and deal.discard is not None:
        at = players.index(deal.declarer)
        kept = _discard(deal, masks[at], talon)
        if isinstance(kept, Problem):
            return [*problems, kept], None
        masks[at] = kept
    elif deal.declarer is not None and deal.play is not None:
        return [*problems, NEEDS_DISCARD], None
    if deal.play is None:
        return problems, None
    return problems, RussianPlay(deal, players, masks, talon, game.rules.raspasy_talon_lead)


NEEDS_DISCARD = Problem(Code.DISCARD, "a played contract needs the discard (russian.md 3)")


def _auction(game: RussianGame, deal: RussianDeal, seat: dict[str, int],
             seats: Sequence[int]) -> list[Problem]:
    """The recorded auction (3), when there is one, and the record against it."""
    if deal.auction is None:
        return []
    names = list(game.players)
    won = judged_auction(tuple((seat[c.player], c.call) for c in deal.auction), tuple(seats),
                         game.rules, tuple(names))
    if isinstance(won, Exception):
        return [Problem(Code.AUCTION, str(won))]
    return _against_auction(deal, won, names)


def layout(game: RussianGame, deal: RussianDeal) -> tuple[list[Problem], Layout | None]:
    """:func:`before_play` without the cards, for ``check_batch``: every problem the rules find
    without them (the play's names are seats of the columns), and what the cards must be
    (``model/card_batch.py``); None for a deal without hands (the reference is quick there)."""
    if deal.hands is None or deal.talon is None:
        return [], None
    problems = check_rules(game, deal, play_names=False)
    if problems:
        return problems, None
    names = tuple(game.players)
    seat = {p: i for i, p in enumerate(names)}
    seats = in_deal(len(names), seat[deal.dealer])
    problems = _auction(game, deal, seat, seats)
    if problems:
        return problems, None
    players = tuple(names[s] for s in seats)
    declarer = -1 if deal.declarer is None else players.index(deal.declarer)
    discard = declarer >= 0 and deal.discard is not None
    if declarer >= 0 and deal.discard is None and deal.play is not None:
        return [NEEDS_DISCARD], None
    if deal.play is None:
        return [], Layout(players, 10, 2, DECK_32, declarer=declarer, discard=discard)
    tricks = deal.tricks or {}
    if set(tricks) != set(players):
        return [], None
    leads = 2 if declarer < 0 and game.rules.raspasy_talon_lead else 0
    trump = None if declarer < 0 else trump_of(deal.contract or "")
    return [], Layout(players, 10, 2, DECK_32, (0, 1, 2), _kernel(trump).row(),
                      declarer=declarer, discard=discard, talon_leads=leads, by_tricks=True)


def rules_key(game: RussianGame, deal: RussianDeal) -> Hashable:
    """What :func:`layout` reads of a (game, deal) besides its game's players and rules."""
    return (deal.dealer, deal.declarer, deal.contract, deal.open, items(deal.defence),
            counted(deal.tricks), None if deal.hands is None else tuple(deal.hands),
            deal.talon is None, deal.discard is None, deal.play is None,
            calls(deal.auction))



@cache
def _kernel(trump: int | None) -> Play:
    """The compiled replay's rules of a Russian play (4): first hand leads, follow suit, trump
    when void, all ten tricks."""
    return Play((0, 0, 0), (), (), 0, trump, must_trump=True)


@cache
def trump_of(contract: str) -> int | None:
    """The trump of a contract (``parse_contract``, once per contract)."""
    return parse_contract(contract).trump


@dataclass(frozen=True, slots=True)
class RussianPlay:
    """A deal's play to replay (4): the three in the deal from first hand, who leads; their
    hands at the start of the play (the declarer's after his discard); the talon, whose cards
    fix the suit of raspasy's first two leads under ``raspasy_talon_lead``. All ten tricks are
    played and give the recorded tricks."""

    deal: RussianDeal
    players: list[str]
    hands: list[CardSet]
    talon: list[int]
    talon_lead: bool

    @property
    def trump(self) -> int | None:
        return None if self.deal.declarer is None else trump_of(self.deal.contract or "")

    @property
    def play(self) -> Play:
        """The play as the compiled replay takes it (``model/replay_kernel.py``)."""
        who, cards = moves(self.deal.play or (), {p: i for i, p in enumerate(self.players)})
        leads: tuple[int, ...] = ()
        if self.deal.declarer is None and self.talon_lead:
            leads = tuple(c >> 4 for c in self.talon[:2])
        return replace(_kernel(self.trump), hands=self.hands, seats=who, cards=cards,
                       lead_suits=leads)

    def accepts(self, replayed: Replayed) -> bool:
        return replayed.ended and dict(zip(self.players, replayed.taken, strict=True)) == dict(
            self.deal.tricks or {})

    def reference(self) -> list[Problem]:
        """The replay card by card (``model/russian/play.py``), with the first problem."""
        deal, players = self.deal, self.players
        pos = {p: i for i, p in enumerate(players)}
        pairs = [(pos.get(p, -1), card_index(c)) for p, c in deal.play or ()]
        if deal.declarer is None:
            out = replay_raspasy(self.hands, self.talon, self.talon_lead, pairs, players)
        else:
            out = replay_contract(self.hands, self.trump, pairs, players)
        if isinstance(out, str):
            return [Problem(Code.ILLEGAL_CARD, out)]
        got = dict(zip(players, out, strict=True))
        if got != dict(deal.tricks or {}):
            return [Problem(Code.REPLAY_MISMATCH,
                            f"the play gives {by_player(got)}, the record says "
                            f"{by_player(deal.tricks)}")]
        return []


before_play = rules_then_cards(check_rules, check_cards)
"""Every problem of the deal but the replay's, and the play to replay (None: nothing to
replay): the cards only when the rules hold."""


check_batch = batch_check(before_play, layout, rules_key)
"""Many deals at once (``Variant.check_batch``): :func:`layout` once per distinct
:func:`rules_key`, the cards of the batch in columns (``model/card_batch.py``);
:func:`before_play` where they cannot settle."""

check_deal = check_one(before_play)
"""Every problem of a schema-valid deal (empty when valid): :func:`before_play`, then its
play replayed in Python (the reference ``check_batch`` is held to)."""
