"""Rule- and card-level checks of a schema-valid Swabian deal (``Variant.check_deal``).

Three levels, as for every variant: the schema (pydantic, ``records.py``), then the rules (names,
contract, contra, trick counts; swabian.md 3-7), then, only when the rules hold and cards are
recorded, the cards (deck partition, Kunstwerk, auction, discard, legal play, replay == tricks).
Every message a person reads names cards in German ("Herz Ober").
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
from model.cards import (
    DECK_32,
    format_card,
    format_card_german,
    iter_cards,
    rank_of,
)
from model.problems import Code, Problem, by_player, once_per_input
from model.replay_kernel import Play, Replayed, moves
from model.swabian import auction
from model.swabian.games import BETTEL, DURCHMARSCH, TRUMP, label, parse_game
from model.swabian.play import Played, play_stops, replay_play
from model.swabian.records import SwabianDeal, SwabianGame
from model.tricks import card_index, dealt


def german(cards: int) -> str:
    """The cards by their German names; a card outside the 32-card deck by its plain name."""
    return ", ".join(format_card_german(c) if DECK_32 >> c & 1 else format_card(c)
                     for c in sorted(iter_cards(cards), reverse=True))


def _names(game: SwabianGame, deal: SwabianDeal, play_names: bool = True) -> list[Problem]:
    """Every name is a player of the game (the play's too, unless the caller reads them)."""
    known = set(game.players)
    if deal.dealer in known and names_in(deal, ("hands", "tricks", "contra", "defence"),
                                         play_names) <= known:
        return []
    seen: list[tuple[str, str]] = [("dealer", deal.dealer)]
    if deal.declarer is not None:
        seen.append(("declarer", deal.declarer))
    for field in ("hands", "tricks", "contra", "defence"):
        seen += [(field, p) for p in getattr(deal, field) or {}]
    seen += [("auction", c.player) for c in deal.auction or ()]
    if play_names:
        seen += [("play", p) for p, _ in deal.play or ()]
    return [
        Problem(Code.UNKNOWN_PLAYER, f"{field} names {p!r}, not a player of {game.game_id!r}")
        for field, p in dict.fromkeys(seen)
        if p not in known
    ]


def _tricks(game: SwabianGame, deal: SwabianDeal, number: int) -> list[Problem]:
    """Trick counts (3.1, 6): ten in games 2-5; Bettel and Durchmarsch may stop early."""
    tricks = deal.tricks or {}
    assert deal.declarer is not None
    if set(tricks) != set(game.players):
        return [Problem(Code.TRICK_COUNT,
                        f"tricks must name all three players, got {by_player(tricks)}")]
    t = tricks[deal.declarer]
    total = sum(tricks.values())
    others = total - t
    bad = None
    if number <= 5 and total != 10:
        bad = f"{total} tricks in {label(number, deal.hand)}; a suit game plays all 10"
    elif number == BETTEL and (t > 1 or (t == 0 and total != 10)):
        bad = (f"Bettel with declarer {t} of {total} tricks; play ends at his first trick "
               "(swabian.md 6)")
    elif number == DURCHMARSCH and (others > 1 or (others == 0 and total != 10)):
        bad = (f"Durchmarsch with {others} lost of {total} tricks; play ends at his first "
               "loss (swabian.md 6)")
    return [] if bad is None else [Problem(Code.TRICK_COUNT, f"{bad}: {by_player(tricks)}")]


def check_rules(game: SwabianGame, deal: SwabianDeal, play_names: bool = True) -> list[Problem]:
    problems = _names(game, deal, play_names)
    if problems:
        return problems
    rules = game.rules
    if rules.session_deals is not None and deal.deal_no > rules.session_deals:
        problems.append(
            Problem(
                Code.GAME_OVER,
                f"deal {deal.deal_no} after the session of {rules.session_deals} deals",
            )
        )
    if deal.declarer is None:
        return problems
    number = parse_game(deal.contract or "")
    if deal.kunstwerk and deal.hand and not rules.kunstwerk_on_hand_game:
        problems.append(
            Problem(
                Code.ILLEGAL_CONTRACT,
                "kunstwerk on an aus-den-Händen game; the talon stays aside (4, "
                "kunstwerk_on_hand_game is false)",
            )
        )
    contra = deal.contra or {}
    if deal.declarer in contra:
        problems.append(
            Problem(Code.ILLEGAL_DEFENCE, f"the declarer {deal.declarer!r} cannot say Contra "
                                          "(swabian.md 5)")
        )
    if rules.recontra_scope == "all_contra_players" and len(set(contra.values())) > 1:
        problems.append(
            Problem(
                Code.ILLEGAL_DEFENCE,
                f"one Re-contra answers every Contra (recontra_scope all_contra_players): "
                f"{contra!r}",
            )
        )
    defenders = set(game.players) - {deal.declarer}
    if deal.defence is not None and set(deal.defence) != defenders:
        problems.append(
            Problem(
                Code.ILLEGAL_DEFENCE,
                f"the declarer plays against both {sorted(defenders)!r} (swabian.md 6), "
                f"defence names {sorted(deal.defence)!r}",
            )
        )
    return problems + _tricks(game, deal, number)


def _deck(game: SwabianGame, deal: SwabianDeal) -> tuple[list[int], int] | Problem:
    hands = deal.hands or {}
    if set(hands) != set(game.players) or deal.talon is None:
        return Problem(Code.DECK, "hands of all three players and the talon are needed together")
    whole = dealt([hands[p] for p in game.players], deal.talon, 10, 2, DECK_32)
    if whole is not None:
        return whole
    masks: list[int] = []
    seen = 0
    twice = 0
    for p in game.players:
        m = 0
        for name in hands[p]:
            b = 1 << card_index(name)
            twice |= (m | seen) & b
            m |= b
        if len(hands[p]) != 10:
            return Problem(Code.DECK, f"{p} holds {len(hands[p])} cards, not 10 (swabian.md 2)")
        seen |= m
        masks.append(m)
    talon = 0
    for name in deal.talon:
        b = 1 << card_index(name)
        twice |= (talon | seen) & b
        talon |= b
    if len(deal.talon) != 2:
        return Problem(Code.DECK, f"the talon has {len(deal.talon)} cards, not 2 (swabian.md 2)")
    if twice:
        return Problem(Code.DECK, f"dealt twice: {german(twice)}")
    if (seen | talon) != DECK_32:
        extra, missing = (seen | talon) & ~DECK_32, DECK_32 & ~(seen | talon)
        return Problem(
            Code.DECK,
            f"not the 32-card deck: foreign {german(extra) or '-'}; "
            f"missing {german(missing) or '-'}",
        )
    return masks, talon


judged_auction = once_per_input(auction.run, auction.CallError)
"""``auction.run`` (4) once per distinct calls, Vorhand, rules and names."""


def check_cards(game: SwabianGame, deal: SwabianDeal,
                ) -> tuple[list[Problem], SwabianPlay | None]:
    """Cards, when recorded: deck, Kunstwerk, auction, discard (records.md 1.2); and the play
    to replay."""
    players = list(game.players)
    seat = {p: i for i, p in enumerate(players)}
    vorhand = (seat[deal.dealer] + 1) % 3
    problems = _auction(game, deal, seat, vorhand)
    if deal.hands is None and deal.talon is None:
        if deal.play is not None:
            problems.append(
                Problem(Code.ILLEGAL_CARD, "a play without the hands cannot be checked")
            )
        return problems, None
    dealt = _deck(game, deal)
    if isinstance(dealt, Problem):
        return [*problems, dealt], None
    masks, talon = dealt
    pair = rank_of(min(iter_cards(talon))) == rank_of(max(iter_cards(talon)))
    due = (
        pair and deal.declarer is not None and (not deal.hand or game.rules.kunstwerk_on_hand_game)
    )
    if due != deal.kunstwerk:
        problems.append(
            Problem(
                Code.DECK,
                f"kunstwerk is {deal.kunstwerk} but the talon is {german(talon)} (swabian.md 4)",
            )
        )
    if deal.declarer is None:
        return problems, None
    d = seat[deal.declarer]
    if not deal.hand:
        if deal.discard is None:
            if deal.play is not None:
                problems.append(TALON_GAME_DISCARD)
                return problems, None
        else:
            discard = 0
            for name in deal.discard:
                discard |= 1 << card_index(name)
            held = masks[d] | talon
            if len(deal.discard) != 2 or discard.bit_count() != 2 or discard & ~held:
                problems.append(
                    Problem(
                        Code.DISCARD,
                        f"{deal.declarer} discards {german(discard)}: not 2 of his hand and the "
                        f"talon {german(talon)} (swabian.md 4)",
                    )
                )
                return problems, None
            masks[d] = held & ~discard
    if deal.play is None:
        return problems, None
    return problems, SwabianPlay(deal, players, masks, vorhand, d, parse_game(deal.contract or ""))


def _auction(game: SwabianGame, deal: SwabianDeal, seat: dict[str, int], vorhand: int,
             ) -> list[Problem]:
    """The recorded auction (4), when there is one, and the record against it."""
    if deal.auction is None:
        return []
    players = list(game.players)
    won = judged_auction(tuple((seat[c.player], c.call) for c in deal.auction), vorhand,
                         game.rules, tuple(players))
    if isinstance(won, Exception):
        return [Problem(Code.AUCTION, str(won))]
    return _against_auction(deal, won, players)


TALON_GAME_DISCARD = Problem(Code.DISCARD, "a talon game with a play needs the discard")


def layout(game: SwabianGame, deal: SwabianDeal) -> tuple[list[Problem], Layout | None]:
    """:func:`before_play` without the cards, for ``check_batch``: every problem the rules find
    without them (the play's names are seats of the columns), and what the cards must be
    (``model/card_batch.py``); None for a deal without hands or where the record's Kunstwerk
    is wrong whatever the talon (the reference says why)."""
    if deal.hands is None or deal.talon is None:
        return [], None
    problems = check_rules(game, deal, play_names=False)
    if problems:
        return problems, None
    players = tuple(game.players)
    seat = {p: i for i, p in enumerate(players)}
    vorhand = (seat[deal.dealer] + 1) % 3
    problems = _auction(game, deal, seat, vorhand)
    if problems:
        return problems, None
    may = deal.declarer is not None and (not deal.hand or game.rules.kunstwerk_on_hand_game)
    if deal.kunstwerk and not may:
        return [], None
    pair = True if deal.kunstwerk else (False if may else None)
    if deal.declarer is None:
        return [], Layout(players, 10, 2, DECK_32, talon_pair=pair)
    d = seat[deal.declarer]
    discard = not deal.hand and deal.discard is not None
    if not deal.hand and deal.discard is None and deal.play is not None:
        return [TALON_GAME_DISCARD], None
    if deal.play is None:
        return [], Layout(players, 10, 2, DECK_32, declarer=d, discard=discard, talon_pair=pair)
    tricks = deal.tricks or {}
    if set(tricks) != set(players):
        return [], None
    number = parse_game(deal.contract or "")
    return [], Layout(players, 10, 2, DECK_32, (0, 1, 2), _kernel(vorhand, d, number).row(),
                      ended=False, whole=True, declarer=d, discard=discard, talon_pair=pair,
                      by_tricks=True)


def rules_key(game: SwabianGame, deal: SwabianDeal) -> Hashable:
    """What :func:`layout` reads of a (game, deal) besides its game's players and rules."""
    over = game.rules.session_deals is not None and deal.deal_no > game.rules.session_deals
    return (over, deal.dealer, deal.declarer, deal.contract, deal.hand, deal.kunstwerk,
            items(deal.contra), items(deal.defence), counted(deal.tricks, deal.declarer),
            None if deal.hands is None else tuple(deal.hands), deal.talon is None,
            deal.discard is None, deal.play is None, calls(deal.auction))



@cache
def _kernel(vorhand: int, declarer: int, number: int) -> Play:
    """The compiled replay's rules of a Swabian play (6): Vorhand leads, follow suit, trump
    when void; Bettel and Durchmarsch stop early (:func:`play_stops`)."""
    won, lost = play_stops(number)
    return Play((0, 0, 0), (), (), vorhand, TRUMP[number], must_trump=True, declarer=declarer,
                stop_won=won, stop_lost=lost)


@dataclass(frozen=True, slots=True)
class SwabianPlay:
    """A deal's play to replay (6): the players, their hands at the start of the play (the
    declarer's after his discard), Vorhand who leads, the declarer and the game. Follow suit,
    trump when void; Bettel and Durchmarsch stop early (:func:`play_stops`); the replay's
    tricks are the recorded ones."""

    deal: SwabianDeal
    players: list[str]
    hands: list[int]
    vorhand: int
    declarer: int
    number: int

    @property
    def play(self) -> Play:
        """The play as the compiled replay takes it (``model/replay_kernel.py``)."""
        who, cards = moves(self.deal.play or (), {p: i for i, p in enumerate(self.players)})
        return replace(_kernel(self.vorhand, self.declarer, self.number), hands=self.hands,
                       seats=who, cards=cards)

    def accepts(self, replayed: Replayed) -> bool:
        return (replayed.fault is None and len(self.deal.play or ()) % 3 == 0
                and self._got(replayed.taken) == dict(self.deal.tricks or {}))

    def _got(self, tricks: Sequence[int]) -> dict[str, int]:
        return {p: tricks[i] for i, p in enumerate(self.players)}

    def reference(self) -> list[Problem]:
        """The replay card by card (``model/swabian/play.py``), with the first problem."""
        seat = {p: i for i, p in enumerate(self.players)}
        pairs = [(seat[p], card_index(c)) for p, c in self.deal.play or ()]
        out = replay_play(self.hands, self.vorhand, self.declarer, self.number, pairs,
                          self.players)
        if not isinstance(out, Played):
            return [Problem(Code.ILLEGAL_CARD, out)]
        got = self._got(out.tricks)
        if got != dict(self.deal.tricks or {}):
            return [Problem(Code.REPLAY_MISMATCH, f"the play ({out.played} tricks) gives "
                                                  f"{by_player(got)}, the record says "
                                                  f"{by_player(self.deal.tricks)}")]
        return []


def _against_auction(deal: SwabianDeal, won: auction.Won, players: list[str]) -> list[Problem]:
    """The record must agree with the auction: declarer, aus den Händen, contract not below the
    winning bid (4)."""
    winner = None if won.declarer is None else players[won.declarer]
    if winner != deal.declarer:
        return [Problem(Code.AUCTION, f"the auction is won by {winner!r}, not {deal.declarer!r}")]
    if won.game is None or deal.contract is None:
        return []
    if won.hand != deal.hand:
        return [
            Problem(
                Code.AUCTION,
                f"the winning bid is {label(won.game, won.hand)}, but hand is {deal.hand}",
            )
        ]
    if int(deal.contract) < won.game:
        return [
            Problem(
                Code.CONTRACT_NOT_ALLOWED,
                f"game {label(int(deal.contract), deal.hand)} is below the winning bid "
                f"{label(won.game, won.hand)} (swabian.md 4)",
            )
        ]
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
