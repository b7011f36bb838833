"""Make the sample Greek Prefa league of ``data/samples``.

Run: ``.venv/bin/python data/samples/make_samples.py`` (from the project root).

Deterministic (fixed seeds). Full deals are dealt from a shuffled 32-card deck, bid with the
Greek ladder (greek-prefa.md 4), and played out card by card with the shared trick rules
(``model/tricks.py``: follow suit, else trump); every deal is checked with
``model/greek/check.py`` before it is written. Also usable as a library: :func:`full_deal`,
:func:`sheet_deal` and :func:`league_lines` feed the ingest benchmark and tests.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from model.cards import DECK_32, SUIT_MASK, format_card, iter_cards
from model.greek.check import check_deal
from model.greek.contracts import DENOMS
from model.greek.records import GreekDeal, GreekGame
from model.tricks import legal_cards, trick_winner

HERE = Path(__file__).parent
DECK = list(iter_cards(DECK_32))
LEAGUE = "club-7 autumn league"


def _active(players: list[str], dealer: str) -> list[str]:
    n = len(players)
    d = players.index(dealer)
    order = [players[(d + i) % n] for i in range(1, n + 1)]
    return order[:-1] if n == 4 else order


def dealer_of(players: list[str], deal_no: int) -> str:
    """The dealer passes to the next player in turn order (greek-prefa.md 3)."""
    return players[(deal_no - 1) % len(players)]


def _cards(mask: int) -> list[str]:
    return [format_card(c) for c in sorted(iter_cards(mask), reverse=True)]


def _best_denom(hand: int) -> int:
    return max(range(4), key=lambda s: ((hand & SUIT_MASK[s]).bit_count(), s))


def full_deal(
    game_id: str, players: list[str], deal_no: int, rng: random.Random, *, level: int = 6
) -> dict[str, Any]:
    """A legal deal with hands, talon, auction, discard and a random legal play: the strongest
    first-round bidder takes the talon and names ``level`` in his longest suit."""
    dealer = dealer_of(players, deal_no)
    active = _active(players, dealer)
    deck = DECK[:]
    rng.shuffle(deck)
    hands = {p: sum(1 << c for c in deck[10 * i: 10 * i + 10]) for i, p in enumerate(active)}
    talon = sum(1 << c for c in deck[30:])
    k = rng.randrange(3)
    declarer = active[k]
    auction = [{"player": p, "call": "pass" if i != k else "6S"} for i, p in enumerate(active)]
    whole = hands[declarer] | talon
    trump = _best_denom(whole)
    contract = f"{level}{DENOMS[trump]}"
    discard_cards = sorted(c for c in iter_cards(whole) if c >> 4 != trump)[:2]
    if len(discard_cards) < 2:
        discard_cards = sorted(iter_cards(whole))[:2]
    discard = sum(1 << c for c in discard_cards)
    playing = dict(hands)
    playing[declarer] = whole & ~discard
    r = active[(k + 1) % 3]
    l_ = active[(k + 2) % 3]
    left = [playing[p] for p in active]
    leader, play, taken = 0, [], [0, 0, 0]
    for _ in range(10):
        trick: list[int] = []
        for j in range(3):
            s = (leader + j) % 3
            options = list(iter_cards(legal_cards(left[s], trick, trump, must_trump=True)))
            c = rng.choice(options)
            left[s] &= ~(1 << c)
            trick.append(c)
            play.append([active[s], format_card(c)])
        leader = (leader + trick_winner(trick, trump)) % 3
        taken[leader] += 1
    return {
        "record": "deal", "game_id": game_id, "deal_no": deal_no, "dealer": dealer,
        "hands": {p: _cards(hands[p]) for p in active}, "talon": _cards(talon),
        "auction": auction, "declarer": declarer,
        "discard": [format_card(c) for c in discard_cards],
        "contract": contract, "defence": {r: "play", l_: "play"}, "play": play,
        "tricks": {p: taken[i] for i, p in enumerate(active)},
    }


def sheet_deal(
    game_id: str, players: list[str], deal_no: int, rng: random.Random
) -> dict[str, Any]:
    """A score-sheet deal (no cards): a random contract, defence and legal trick split."""
    dealer = dealer_of(players, deal_no)
    active = _active(players, dealer)
    if rng.random() < 0.08:
        return {"record": "deal", "game_id": game_id, "deal_no": deal_no, "dealer": dealer}
    k = rng.randrange(3)
    declarer, r, l_ = active[k], active[(k + 1) % 3], active[(k + 2) % 3]
    level = rng.choice((6, 6, 6, 7, 7, 8, 9, 10))
    contract = f"{level}{rng.choice(DENOMS[:4] if level == 10 else DENOMS)}"
    mode = rng.choice(("both", "both", "both", "pass", "invite", "alone"))
    deal: dict[str, Any] = {"record": "deal", "game_id": game_id, "deal_no": deal_no,
                            "dealer": dealer, "declarer": declarer, "contract": contract}
    td = min(10, max(0, level + rng.choice((-2, -1, 0, 0, 0, 1))))
    if mode == "pass":
        deal["defence"] = {r: "pass", l_: "pass"}
    elif mode == "alone":
        deal["defence"] = {r: "alone", l_: "pass"}
        deal["tricks"] = {declarer: td, r: 10 - td}
    else:
        tr = rng.randint(0, 10 - td)
        deal["defence"] = ({r: "play", l_: "play"} if mode == "both"
                           else {r: "pass", l_: "invite"})
        deal["tricks"] = {declarer: td, r: tr, l_: 10 - td - tr}
    return deal


def game_line(game_id: str, players: list[str], **extra: Any) -> dict[str, Any]:
    rules = extra.pop("rules", {})
    if len(players) == 4:
        rules = {**rules, "four_players": True}
    return {"record": "game", "game_id": game_id, "variant": "greek-prefa", "players": players,
            "rules": rules, "league": LEAGUE, **extra}


def checked(game: dict[str, Any], deal: dict[str, Any]) -> dict[str, Any]:
    """``deal`` after the rules module accepted it (raises when a generator bug made it bad)."""
    problems = check_deal(GreekGame.model_validate(game), GreekDeal.model_validate(deal))
    if problems:
        raise ValueError(f"generated deal {deal['game_id']}#{deal['deal_no']}: {problems}")
    return deal


def league_lines(
    games: int, deals_per_game: int, *, cards: bool, seed: int = 7, prefix: str = "bench"
) -> Iterator[str]:
    """JSONL lines of a generated league (the benchmark's and the kill test's input)."""
    rng = random.Random(seed)
    names = ["Anna", "Boris", "Chris", "Dora"]
    for g in range(games):
        gid = f"{prefix}/{g:06d}"
        players = names[:3]
        yield json.dumps(game_line(gid, players, rules={"initial_kassa": 10_000}))
        for n in range(1, deals_per_game + 1):
            deal = full_deal(gid, players, n, rng) if cards else sheet_deal(gid, players, n, rng)
            yield json.dumps(deal)


def ended_game() -> list[dict[str, Any]]:
    """A game that runs to its end: kassa 4 each; every player makes 6S twice (v = 2, 5.1), so
    after six deals every kassa is 0 and the game is over (11)."""
    gid = "club-7/2026-11-15/table-1"
    players = ["Eleni", "Nikos", "Sofia"]
    game = game_line(gid, players, rules={"initial_kassa": 4},
                     started_at="2026-11-15T19:00:00+01:00", stake="0.10 EUR per kassa point")
    out = [game]
    for n in range(1, 7):
        dealer = dealer_of(players, n)
        active = _active(players, dealer)
        declarer = active[n % 3]
        r, l_ = (active[(active.index(declarer) + i) % 3] for i in (1, 2))
        out.append(checked(game, {
            "record": "deal", "game_id": gid, "deal_no": n, "dealer": dealer,
            "declarer": declarer, "contract": "6S", "defence": {r: "play", l_: "play"},
            "tricks": {declarer: 6, r: 2, l_: 2}}))
    return out


BAD_GAME = "club-7/bad-lines"


def bad_lines(rng: random.Random) -> list[tuple[str, str]]:
    """``(expected code, line)``: one deliberately bad line per problem kind, after a good game
    line and a good first deal, so that a new user sees quarantine at work."""
    players = ["Anna", "Boris", "Chris"]
    # no league: the file shows quarantine at work; its one good game is no club's result
    game = {k: v for k, v in game_line(BAD_GAME, players).items() if k != "league"}
    good = checked(game, full_deal(BAD_GAME, players, 1, rng))

    def deal(no: int, **change: Any) -> str:
        d = {**good, "deal_no": no, **change}
        return json.dumps({k: v for k, v in d.items() if v is not None})

    hands = good["hands"]
    first = next(iter(hands))
    second = list(hands)[1]
    twice = {**hands, first: [hands[second][0], *hands[first][1:]]}
    play = [list(m) for m in good["play"]]
    revoke = None  # swap two cards of one player's play so that he fails to follow suit
    for i in range(1, len(play)):
        lead = play[i - i % 3][1][-1]
        if i % 3 and play[i][1][-1] == lead:
            later = next((j for j in range(i + 1, len(play))
                          if play[j][0] == play[i][0] and play[j][1][-1] != lead), None)
            if later is not None:
                revoke = [m[:] for m in play]
                revoke[i][1], revoke[later][1] = revoke[later][1], revoke[i][1]
                break
    tricks = dict(good["tricks"])
    a, b = list(tricks)[:2]
    shifted = {**tricks, a: tricks[a] + 1, b: tricks[b] - 1} if tricks[b] else \
        {**tricks, a: tricks[a] - 1, b: tricks[b] + 1}
    sheet = {"record": "deal", "game_id": BAD_GAME, "dealer": "Anna", "declarer": "Boris",
             "contract": "6S", "defence": {"Chris": "play", "Anna": "play"},
             "tricks": {"Boris": 6, "Chris": 2, "Anna": 2}}
    return [
        ("", json.dumps(game)),
        ("", json.dumps(good)),
        ("parse", '{"record": "deal", "game_id": "club-7/bad-lines", "deal_no": 2, "dealer": '),
        ("unknown-record", json.dumps({"record": "note", "text": "coffee break at 21:00"})),
        ("unknown-variant", json.dumps({**game, "game_id": "club-7/skat", "variant": "skat"})),
        ("schema", json.dumps({**sheet, "deal_no": 3, "contract": "6X"})),
        ("unknown-game", json.dumps({**sheet, "game_id": "club-7/no-such-game", "deal_no": 1})),
        ("game-conflict", json.dumps({**game, "players": ["Anna", "Boris", "Dora"]})),
        ("deal-conflict", deal(1, play=None, hands=None, auction=None, discard=None,
                               talon=None, tricks=shifted)),
        ("unknown-player", json.dumps({**sheet, "deal_no": 4, "dealer": "Zoe"})),
        ("illegal-contract", json.dumps({**sheet, "deal_no": 5, "contract": "10NT"})),
        ("illegal-defence", json.dumps({**sheet, "deal_no": 6,
                                        "defence": {"Chris": "invite", "Anna": "invite"}})),
        ("trick-count", json.dumps({**sheet, "deal_no": 7,
                                    "tricks": {"Boris": 6, "Chris": 3, "Anna": 2}})),
        ("deck", deal(8, hands=twice)),
        ("auction", deal(9, auction=[{"player": p, "call": "pass"} for p in hands])),
        ("discard", deal(10, discard=[*good["discard"], good["talon"][0]])),
        ("illegal-card", deal(11, play=revoke)),
        ("replay-mismatch", deal(12, tricks=shifted)),
    ]


def main() -> None:
    rng = random.Random(2026)
    lines: list[dict[str, Any]] = []
    # A long evening at score-sheet level (section 12's sheet, written as canonical records).
    g1 = game_line("club-7/2026-11-08/table-1", ["Anna", "Boris", "Chris"],
                   rules={"initial_kassa": 31}, started_at="2026-11-08T19:00:00+01:00")
    lines += [g1] + [checked(g1, sheet_deal(g1["game_id"], g1["players"], n, rng))
                     for n in range(1, 13)]
    # A table recorded by software: every deal with its cards and play.
    g2 = game_line("club-7/2026-11-08/table-2", ["Dora", "Elias", "Fotis"],
                   rules={"initial_kassa": 20}, started_at="2026-11-08T19:30:00+01:00")
    lines += [g2] + [checked(g2, full_deal(g2["game_id"], g2["players"], n, rng,
                                           level=rng.choice((6, 6, 7))))
                     for n in range(1, 7)]
    lines += ended_game()
    # Four at the table: the dealer sits out (14 four_players); cards on every other deal.
    g4 = game_line("club-7/2026-11-15/table-2", ["Anna", "Dora", "Boris", "Elias"],
                   rules={"initial_kassa": 31}, started_at="2026-11-15T19:00:00+01:00")
    lines.append(g4)
    for n in range(1, 9):
        make = full_deal if n % 2 else sheet_deal
        lines.append(checked(g4, make(g4["game_id"], g4["players"], n, rng)))
    text = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n"
    (HERE / "league.jsonl").write_text(text, encoding="utf-8")
    bad = bad_lines(random.Random(13))
    (HERE / "bad-lines.jsonl").write_text("\n".join(t for _, t in bad) + "\n", encoding="utf-8")
    expected = [{"line": i, "code": c} for i, (c, _) in enumerate(bad, start=1) if c]
    (HERE / "bad-lines.expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    main()
