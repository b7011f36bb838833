"""Validation of one Greek Prefa deal against its game's rules: every problem, as a list.

Rules level (always, greek-prefa.md 3, 5, 6, 7, 14): names are players of the game, the dealer
of a four-player game sits out, the contract exists under ``ten_nt``, the defenders' decisions
are one of the legal combinations, the trick counts belong to exactly the players who took part
and sum to ten, the flags ``four_aces`` / ``preliminary`` / ``conceded`` are allowed by the rules.

Card level (for the parts present, records.md 1.2): hands and talon partition the 32-card deck,
the auction is legal and won by the declarer at a bid not above his contract (4.2, 5), the discard
is two of his twelve cards, an announced four aces are in his hand after the discard (14), and the
play is legal card by card and replays to exactly the recorded tricks (7). The declarer plays his
hand plus the talon minus the discard.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from operator import itemgetter

from model.card_batch import Layout, batch_check, calls, check_one, counted, items
from model.cards import ACES, DECK_32, SUIT_LETTERS, CardSet, format_cards
from model.greek.auction import AuctionResult, ladder_bid, run_auction
from model.greek.contracts import NT, allowed, format_contract, ladder_index, parse_contract
from model.greek.params import GreekRules
from model.greek.play import (
    PLAYING,
    active_players,
    defenders,
    players_in_play,
    playing_hands,
    replay_play,
)
from model.greek.records import GreekDeal, GreekGame
from model.problems import Code, Problem, by_player
from model.replay_kernel import Play, Replayed, moves
from model.tricks import card_index, cards_mask

SEVEN_D, EIGHT_D = card_index("7D"), card_index("8D")

_CONTRACTS = {format_contract(6 + i // 5, i % 5): (6 + i // 5, i % 5) for i in range(25)}


def _contract(text: str) -> tuple[int, int]:
    """``parse_contract`` through a table (the record's pattern already fixed the grammar)."""
    found = _CONTRACTS.get(text)
    return found if found is not None else parse_contract(text)


def before_play(game: GreekGame, deal: GreekDeal) -> tuple[list[Problem], GreekPlay | None]:
    """Every problem of the deal but the replay's, and the play to replay (None: nothing to
    replay). :func:`check_deal` replays it in Python, :data:`check_batch` with the kernel."""
    problems = _names(game, deal)
    problems += _flags(game, deal)
    if problems and any(p.code is Code.UNKNOWN_PLAYER for p in problems):
        return problems, None  # seats are unknown: the remaining checks would only repeat this
    active = active_players(game, deal.dealer)
    defence_ok = _defence(active, deal, problems)
    order = players_in_play(active, deal, game.rules) if defence_ok else None
    if order is not None:
        _tricks(order, deal, problems)
    hands, talon = _deck(active, deal, problems)
    _discard(deal, hands, talon, problems)
    lead = _auction(game, active, deal, hands, problems)
    _four_aces(deal, hands, talon, problems)
    if deal.play is None or order is None:
        return problems, None
    return problems, _play(game, active, order, lead, deal, hands, talon, problems)


def layout(game: GreekGame, deal: GreekDeal) -> tuple[list[Problem], Layout | None]:
    """:func:`before_play` without the cards, for ``check_batch``: every problem the rules find
    without them (the play's names are seats of the columns), and what the cards must be
    (``model/card_batch.py``); None where the cards decide more than the columns read (no hands
    or talon, four aces, the first deal under ``first_bidder_by_7d``, a declarer's play without
    his discard): the reference judges those."""
    stray_discard = deal.declarer is None and deal.discard is not None
    plays_undiscarded = deal.declarer is not None and deal.discard is None and deal.play
    if (deal.hands is None or deal.talon is None or deal.four_aces or stray_discard
            or plays_undiscarded or (game.rules.first_bidder_by_7d and deal.deal_no == 1)):
        return [], None
    problems = _names(game, deal, play_names=False) + _flags(game, deal)
    if problems:
        return problems, None
    active = active_players(game, deal.dealer)
    order = players_in_play(active, deal, game.rules) if _defence(active, deal, problems) else None
    if order is not None:
        _tricks(order, deal, problems)
    lead = _auction(game, active, deal, None, problems)
    if problems:
        return problems, None
    declarer = -1 if deal.declarer is None else active.index(deal.declarer)
    dealt = Layout(active, 10, 2, DECK_32, declarer=declarer, discard=deal.discard is not None)
    if deal.play is None or order is None:
        return [], dealt
    cards = _play(game, active, order, lead, deal, None, None, problems)
    if cards is None:
        return problems, None
    return [], dealt._replace(seats=tuple(active.index(p) for p in cards.order),
                              row=cards.kernel.row(), by_tricks=True)


def rules_key(game: GreekGame, deal: GreekDeal) -> Hashable:
    """What :func:`layout` reads of a (game, deal) besides its game's players and rules."""
    return (deal.dealer, deal.declarer, deal.contract, items(deal.defence), counted(deal.tricks),
            deal.four_aces, deal.preliminary, deal.conceded, deal.deal_no == 1,
            None if deal.hands is None else tuple(deal.hands), deal.talon is None,
            deal.discard is None, deal.play is None, calls(deal.auction))


def _add(problems: list[Problem], code: Code, message: str) -> None:
    problems.append(Problem(code, message))


def _names(game: GreekGame, deal: GreekDeal, play_names: bool = True) -> list[Problem]:
    """Every name is a player of the game; with four players the dealer sits out (3, 14). The
    play's names too, unless the caller reads them itself."""
    known = set(game.players)
    if len(known) == 3:  # fast path: nobody sits out, so all that matters is that names are known
        used = {deal.dealer, *(deal.defence or ()), *(deal.tricks or ()), *(deal.hands or ())}
        if deal.declarer is not None:
            used.add(deal.declarer)
        if deal.auction:
            used.update(c.player for c in deal.auction)
        if deal.play and play_names:
            used.update(map(itemgetter(0), deal.play))
        if used <= known:
            return []
    fields: list[tuple[str, Iterable[str]]] = [
        ("dealer", [deal.dealer]),
        ("declarer", [deal.declarer] if deal.declarer is not None else []),
        ("defence", deal.defence or {}),
        ("tricks", deal.tricks or {}),
        ("hands", deal.hands or {}),
        ("auction", {c.player for c in deal.auction or ()}),
        ("play", {p for p, _ in deal.play or ()} if play_names else set()),
    ]
    problems = [
        Problem(
            Code.UNKNOWN_PLAYER,
            f"{field}: {name!r} is not a player of this game ({', '.join(game.players)})",
        )
        for field, names in fields
        for name in names
        if name not in known
    ]
    if len(game.players) == 4 and deal.dealer in known:
        sits = deal.dealer
        roles = (("declarer", "declare"), ("defence", "defend"), ("hands", "hold cards"))
        for field, role in roles:
            names = dict(fields)[field]
            if sits in names:
                _add(
                    problems,
                    Code.UNKNOWN_PLAYER,
                    f"{field}: {sits} deals and sits out this deal (four players), "
                    f"so cannot {role}",
                )
    return problems


def _flags(game: GreekGame, deal: GreekDeal) -> list[Problem]:
    """Contract exists (5.1, 14 ``ten_nt``); optional declarations allowed by the rules (5, 14)."""
    rules = game.rules
    problems: list[Problem] = []
    if deal.contract is not None and not allowed(*_contract(deal.contract), rules):
        _add(problems, Code.ILLEGAL_CONTRACT, f"contract {deal.contract!r} needs the ten_nt option")
    if deal.four_aces and rules.four_aces == "none":
        _add(
            problems,
            Code.ILLEGAL_CONTRACT,
            "four_aces announced but the rules have four_aces = none",
        )
    if deal.preliminary and not rules.preliminary_bid:
        _add(
            problems,
            Code.ILLEGAL_CONTRACT,
            "preliminary: true but the rules have preliminary_bid off",
        )
    if deal.conceded and not deal.preliminary and not rules.concede_any_contract:
        _add(
            problems,
            Code.ILLEGAL_CONTRACT,
            f"the declarer conceded {deal.contract!r}: only a preliminary-bid winner may concede "
            "unless concede_any_contract is on",
        )
    return problems


def _defence(active: tuple[str, ...], deal: GreekDeal, problems: list[Problem]) -> bool:
    """Keys are the two defenders, decisions one of the combinations of 6.1. True when usable."""
    if deal.declarer is None or deal.defence is None:
        return deal.declarer is None or deal.conceded
    pair = defenders(active, deal.declarer)
    ok = True
    if set(deal.defence) != set(pair):
        _add(
            problems,
            Code.ILLEGAL_DEFENCE,
            f"defence names {', '.join(deal.defence) or 'nobody'}; "
            f"the defenders are {pair[0]} and {pair[1]}",
        )
        ok = False
    decisions = tuple(sorted(deal.defence.values()))
    if decisions not in PLAYING:
        said = ", ".join(f"{p} {d}" for p, d in deal.defence.items())
        _add(
            problems,
            Code.ILLEGAL_DEFENCE,
            f"defence {said!r} is not a legal combination (play+play, pass+pass, "
            "invite+pass, alone+pass)",
        )
        ok = False
    return ok


def _tricks(order: tuple[str, ...], deal: GreekDeal, problems: list[Problem]) -> None:
    """Tricks of exactly the players who played, summing to ten; none when nothing was played."""
    tricks = deal.tricks or {}
    if not order:
        if tricks:
            _add(
                problems, Code.TRICK_COUNT,
                f"tricks ({by_player(tricks)}) recorded but nobody plays this deal"
            )
        return
    if deal.tricks is None:
        _add(problems, Code.TRICK_COUNT, f"no tricks given: {', '.join(order)} played this deal")
        return
    if set(tricks) != set(order):
        _add(
            problems,
            Code.TRICK_COUNT,
            f"tricks ({by_player(tricks)}) should name exactly the players who played: "
            f"{', '.join(order)}",
        )
    elif sum(tricks.values()) != 10:
        _add(problems, Code.TRICK_COUNT,
             f"tricks ({by_player(tricks)}) sum to {sum(tricks.values())}, not 10")


def _mask(cards: Sequence[str], what: str, problems: list[Problem], code: Code) -> CardSet | None:
    """The cards as a mask, or None after reporting repeats and cards outside the 32-card deck."""
    mask, n = cards_mask(cards)
    if n == mask.bit_count() and not mask & ~DECK_32:
        return mask
    seen = 0
    for text in cards:
        b = 1 << card_index(text)
        if not b & DECK_32:
            _add(problems, code, f"{what}: {text!r} is not in the 32-card deck")
        elif seen & b:
            _add(problems, code, f"{what}: {text!r} appears twice")
        seen |= b
    return None


def _deck(
    active: tuple[str, ...], deal: GreekDeal, problems: list[Problem]
) -> tuple[dict[str, CardSet] | None, CardSet | None]:
    """Hands of the active players (10 each) and the talon (2) partition the deck (3).
    Returns the hands and the talon (derived from the hands when not recorded), or None."""
    before = len(problems)
    talon = None
    if deal.talon is not None:
        talon = _mask(deal.talon, "talon", problems, Code.DECK)
        if talon is not None and len(deal.talon) != 2:
            _add(problems, Code.DECK, f"talon {list(deal.talon)!r} is not 2 cards")
    if deal.hands is None:
        return None, (talon if len(problems) == before else None)
    hands: dict[str, CardSet] = {}
    for p in active:
        if p not in deal.hands:
            _add(problems, Code.DECK, f"hands: {p}'s hand is missing")
            continue
        m = _mask(deal.hands[p], f"{p}'s hand", problems, Code.DECK)
        if m is not None:
            hands[p] = m
            if len(deal.hands[p]) != 10:
                _add(problems, Code.DECK, f"{p}'s hand has {len(deal.hands[p])} cards, not 10")
    if len(problems) != before:
        return None, None
    seen = 0
    holder: dict[str, CardSet] = {}
    for p, m in hands.items():
        for other, om in holder.items():
            if om & m:
                twice = format_cards(om & m)
                _add(problems, Code.DECK, f"{twice!r} dealt to both {other} and {p}")
        holder[p] = m
        seen |= m
    if talon is None:
        talon = DECK_32 & ~seen
    elif seen & talon:
        twice = format_cards(seen & talon)
        _add(problems, Code.DECK, f"{twice!r} dealt to a player and also in the talon")
    elif seen | talon != DECK_32:
        _add(problems, Code.DECK, "hands and talon do not cover the 32-card deck")
    return (hands, talon) if len(problems) == before else (None, None)


def _discard(
    deal: GreekDeal,
    hands: dict[str, CardSet] | None,
    talon: CardSet | None,
    problems: list[Problem],
) -> None:
    """Two cards of the declarer's hand plus talon (5)."""
    if deal.discard is None:
        return
    what = f"discard {list(deal.discard)!r}"
    m = _mask(deal.discard, "discard", problems, Code.DISCARD)
    if m is None:
        return
    if len(deal.discard) != 2:
        _add(problems, Code.DISCARD, f"{what} is not 2 cards")
    elif (
        hands is not None
        and talon is not None
        and deal.declarer in hands
        and m & ~(hands[deal.declarer] | talon)
    ):
        _add(problems, Code.DISCARD, f"{what}: not in {deal.declarer}'s hand or the talon")


def _bidders(
    game: GreekGame,
    active: tuple[str, ...],
    deal: GreekDeal,
    hands: dict[str, CardSet] | None,
    problems: list[Problem],
) -> tuple[str, ...] | None:
    """Calling order, first hand first; the holder of 7D (else 8D) in the first deal under
    ``first_bidder_by_7d`` (14). None when that deal had to be redealt."""
    if not (game.rules.first_bidder_by_7d and deal.deal_no == 1):
        return active
    start = None
    if hands is not None:
        for low in (SEVEN_D, EIGHT_D):
            start = next((p for p, m in hands.items() if m >> low & 1), None)
            if start is not None:
                break
        if start is None:
            _add(
                problems,
                Code.AUCTION,
                "first deal with first_bidder_by_7d: 7D and "
                "8D are both in the talon, so the cards are redealt",
            )
            return None
    elif deal.auction:
        start = deal.auction[0].player
    if start not in active:
        return active
    i = active.index(start)
    return active[i:] + active[:i]


def _auction(
    game: GreekGame,
    active: tuple[str, ...],
    deal: GreekDeal,
    hands: dict[str, CardSet] | None,
    problems: list[Problem],
) -> str:
    """Legal auction (4.2) won by the declarer; contract not below the winning bid (5).
    Returns who leads first (first hand, or the first bidder under ``first_bidder_by_7d``)."""
    bidders = _bidders(game, active, deal, hands, problems)
    if bidders is None or deal.auction is None:
        return (bidders or active)[0]
    out = run_auction(bidders, [(c.player, c.call) for c in deal.auction], game.rules)
    if isinstance(out, str):
        _add(problems, Code.AUCTION, out)
        return bidders[0]
    _winner(out, deal, problems)
    return bidders[0]


def _winner(out: AuctionResult, deal: GreekDeal, problems: list[Problem]) -> None:
    if out.winner != deal.declarer:
        said = "nobody" if deal.declarer is None else deal.declarer
        won = (
            "everybody passed in the auction"
            if out.winner is None
            else f"{out.winner} won the auction with {out.bid_name}"
        )
        _add(problems, Code.AUCTION, f"{won}, but the record names {said} as declarer")
        return
    if out.winner is None:
        return
    if out.preliminary != deal.preliminary:
        _add(
            problems,
            Code.AUCTION,
            f"{out.winner} won with {out.bid_name} but the record has "
            f"preliminary: {str(deal.preliminary).lower()}",
        )
    if out.bid is not None and deal.contract is not None:
        level, denom = _contract(deal.contract)
        if ladder_index(level, denom) < out.bid:
            _add(
                problems,
                Code.CONTRACT_NOT_ALLOWED,
                f"contract {deal.contract!r} is below the winning bid {ladder_bid(out.bid)}",
            )


def _four_aces(
    deal: GreekDeal,
    hands: dict[str, CardSet] | None,
    talon: CardSet | None,
    problems: list[Problem],
) -> None:
    """An announced four aces are in the declarer's hand after the discard (14 ``four_aces``)."""
    if not deal.four_aces or hands is None or talon is None or deal.declarer not in hands:
        return
    kept = hands[deal.declarer] | talon
    if deal.discard is not None:
        kept &= ~cards_mask(deal.discard)[0]
    if kept & ACES != ACES:
        missing = [f"A{SUIT_LETTERS[s]}" for s in range(4) if not kept >> (16 * s + 12) & 1]
        _add(
            problems,
            Code.ILLEGAL_CONTRACT,
            f"four aces announced but {deal.declarer} lacks {missing!r}",
        )


def _play(
    game: GreekGame,
    active: tuple[str, ...],
    order: tuple[str, ...],
    lead: str,
    deal: GreekDeal,
    hands: dict[str, CardSet] | None,
    talon: CardSet | None,
    problems: list[Problem],
) -> GreekPlay | None:
    """The play to replay (7): who plays from the leader on, their hands (the declarer's with
    the talon, less the discard), the trump; None, with the problem, when nobody plays."""
    play = deal.play or ()
    if not order:
        _add(
            problems,
            Code.REPLAY_MISMATCH,
            f"a play of {len(play)} cards is recorded but nobody plays this deal",
        )
        return None
    if lead != active[0]:  # first_bidder_by_7d moved first hand
        i = active.index(lead)
        turn = active[i:] + active[:i]
        order = tuple(p for p in turn if p in order)
    trump = None
    if deal.contract is not None and deal.declarer is not None:
        denom = _contract(deal.contract)[1]
        trump = None if denom == NT else denom
    discarded = 0
    playing = None
    if hands is not None:
        playing = dict(hands)
        d = deal.declarer
        if d is not None and d in playing and talon is not None:
            full = playing[d] | talon
            if deal.discard is not None:
                discarded = cards_mask(deal.discard)[0]
                playing[d] = full & ~discarded
            else:  # the discard is what he does not play
                played = cards_mask([c for p, c in play if p == d])[0]
                playing[d] = full & played
    return GreekPlay(deal, order, playing, trump, game.rules, discarded)


@dataclass(frozen=True, slots=True)
class GreekPlay:
    """A deal's play to replay (7): who plays, in turn order from the leader; their hands (None:
    unknown, each holds the cards he plays); the trump; the rules (``must_overtrump_when_void``,
    14); the discard (for messages). All ten tricks are played and give the recorded tricks."""

    deal: GreekDeal
    order: tuple[str, ...]
    hands: dict[str, CardSet] | None
    trump: int | None
    rules: GreekRules
    discarded: CardSet

    @property
    def kernel(self) -> Play:
        """The compiled replay's rules of this play, without the hands and the cards."""
        return _kernel(len(self.order), self.trump, self.rules.must_overtrump_when_void)

    @property
    def play(self) -> Play:
        """The play as the compiled replay takes it (``model/replay_kernel.py``)."""
        who, cards = moves(self.deal.play or (), {p: i for i, p in enumerate(self.order)})
        return replace(self.kernel, hands=playing_hands(self.order, self.hands, who, cards),
                       seats=who, cards=cards)

    def accepts(self, replayed: Replayed) -> bool:
        got = dict(zip(self.order, replayed.taken, strict=True))
        return replayed.ended and self._against_record(got) is None

    def reference(self) -> list[Problem]:
        """The replay card by card (``model/greek/play.py``), with the first problem it meets."""
        out = replay_play(self.order, self.hands, self.deal.play or (), self.trump, self.rules,
                          self.discarded)
        if isinstance(out, Problem):
            return [out]
        differ = self._against_record(out)
        return [] if differ is None else [differ]

    def _against_record(self, got: dict[str, int]) -> Problem | None:
        tricks = self.deal.tricks
        if tricks is not None and set(tricks) == set(got) and tricks != got:
            return Problem(Code.REPLAY_MISMATCH, f"replaying the play gives {by_player(got)}; "
                                                 f"the record says {by_player(tricks)}")
        return None


@cache
def _kernel(seats: int, trump: int | None, must_overtrump: bool) -> Play:
    """The compiled replay's rules of a Greek play (7, 14): first hand leads (the next in turn
    who plays), follow suit, trump when void, overtrump under ``must_overtrump_when_void``."""
    return Play((0,) * seats, (), (), 0, trump, must_trump=True, must_overtrump=must_overtrump)


check_batch = batch_check(before_play, layout, rules_key)
"""Many deals at once (``Variant.check_batch``): :func:`layout` once per distinct
:func:`rules_key`, the cards of the batch in columns (``model/card_batch.py``);
:func:`before_play` where they cannot settle."""

check_deal = check_one(before_play)
"""Every problem of a schema-valid deal (empty when valid): :func:`before_play`, then its
play replayed in Python (the reference ``check_batch`` is held to)."""
