"""Greek Prefa seating and the replay of a recorded play (greek-prefa.md 3, 6.1, 7).

Players are listed in turn order (the next to act after ``players[i]`` is ``players[i + 1]``;
in Greek Prefa that is the player to the right, spec README). From that order:

- active players: everybody, or with four players everybody but the dealer (14 ``four_players``);
- first hand: the next active player after the dealer (3); he speaks first and leads first (7);
- R, the first defender: the next active player after the declarer; L: the other one (6.1, 16 G10);
- who plays: with both defending or after an invitation all three; with ``alone`` the declarer and
  the whister (two-handed, 6.1 step 6); when both pass nobody; after an all-pass deal played for
  fewest tricks (``all_pass = play_low``) all three, without trumps (14).

The first lead is first hand's; if he takes no part, the next player in turn who does (7).
Follow suit; else trump if able (not in no-trump); no obligation to beat except the
``must_overtrump_when_void`` option (7, 14). The trick goes to the highest trump, else the highest
card of the suit led, and its winner leads next.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from model.cards import format_card
from model.greek.params import GreekRules
from model.greek.records import GreekDeal, GreekGame
from model.problems import Code, Problem
from model.replay_kernel import moves
from model.tricks import SUIT_NAMES, PlayFault, replay
from model.variant import lone_defence_passer

PLAYING = {("play", "play"), ("invite", "pass"), ("alone", "pass"), ("pass", "pass")}
"""The legal final decisions of the two defenders, in any order (6.1); counter-invitations are
recorded by their final roles (6.1 step 4)."""


def active_players(game: GreekGame, dealer: str) -> tuple[str, ...]:
    """The players dealt in, in turn order starting from first hand (3, 14 ``four_players``)."""
    players = game.players
    n = len(players)
    d = players.index(dealer)
    order = tuple(players[(d + i) % n] for i in range(1, n + 1))
    return order[:-1] if n == 4 else order


def first_hand(game: GreekGame, dealer: str) -> str:
    """The player after the dealer in turn order (greek-prefa.md 3)."""
    return active_players(game, dealer)[0]


def defenders(active: Sequence[str], declarer: str) -> tuple[str, str]:
    """``(R, L)``: R is the next active player after the declarer, L the other (6.1, 16 G10)."""
    i = active.index(declarer)
    return active[(i + 1) % 3], active[(i + 2) % 3]


def players_in_play(active: Sequence[str], deal: GreekDeal, rules: GreekRules) -> tuple[str, ...]:
    """Who takes part in the play, in turn order from first hand; empty when nothing is played
    (both defenders passed, a concession, or an all-pass deal thrown in)."""
    if deal.declarer is None:
        return tuple(active) if rules.all_pass == "play_low" else ()
    if deal.conceded:
        return ()
    if set((deal.defence or {}).values()) == {"pass"}:
        return ()
    out = lone_defence_passer(deal.defence)
    return tuple(p for p in active if p not in out)


def playing_hands(order: Sequence[str], hands: Mapping[str, int] | None, seats: Sequence[int],
                  cards: Sequence[int]) -> list[int]:
    """What each player of ``order`` holds at the start of the play: his hand, or when the
    hands are unknown the cards he plays (``seats`` and ``cards`` of the play, seat -1 for
    somebody who takes no part), which still catches revokes the rest of the play reveals."""
    if hands is not None:
        return [hands.get(p, 0) for p in order]
    start = [0] * len(order)
    for s, c in zip(seats, cards, strict=True):
        if s >= 0:
            start[s] |= 1 << c
    return start


def replay_play(
    order: Sequence[str],
    hands: Mapping[str, int] | None,
    play: Sequence[tuple[str, str]],
    trump: int | None,
    rules: GreekRules,
    discarded: int = 0,
) -> dict[str, int] | Problem:
    """Replay a recorded play among ``order`` (the players who take part, turn order, the leader
    first) and return the tricks of each, or the first problem.

    ``hands`` are the playing hands (the declarer's already with talon and discard applied), or
    None (:func:`playing_hands`). A play must have all ten tricks (7).
    """
    seats, cards = moves(play, {p: i for i, p in enumerate(order)})
    out = replay(
        playing_hands(order, hands, seats, cards),
        0,
        list(zip(seats, cards, strict=True)),
        trump,
        must_trump=True,
        must_overtrump=rules.must_overtrump_when_void,
    )
    if isinstance(out, PlayFault):
        return Problem(Code.ILLEGAL_CARD, _fault_message(out, order, play, discarded))
    need = 10 * len(order)
    if len(play) != need:
        return Problem(
            Code.REPLAY_MISMATCH,
            f"the play has {len(play)} cards; {len(order)} players play all ten tricks, "
            f"{need} cards",
        )
    return {p: out[i] for i, p in enumerate(order)}


def _fault_message(
    fault: PlayFault, order: Sequence[str], play: Sequence[tuple[str, str]], discarded: int
) -> str:
    who, text = play[fault.index]
    head = f"trick {fault.trick}: {who} played {text}"
    expected = order[fault.expected]
    if fault.kind == "absent":
        return f"{head} but takes no part in the play (it was {expected}'s turn)"
    if fault.kind == "turn":
        return f"{head} out of turn: it was {expected}'s turn"
    if fault.kind == "not-held":
        if discarded >> fault.card & 1:
            return f"{head} but discarded it"
        return f"{head} but does not hold it (or played it before)"
    assert fault.suit is not None
    suit = SUIT_NAMES[fault.suit]
    if fault.kind == "follow":
        return f"{head} but must follow {suit}"
    if fault.kind == "trump":
        return f"{head} but is void in the suit led and must trump with {suit}"
    assert fault.over is not None
    return (
        f"{head} but must overtrump the {format_card(fault.over)} with a higher {suit[:-1]}"
        " (must_overtrump_when_void)"
    )
