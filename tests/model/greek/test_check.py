"""check_deal (model/greek/check.py): every problem of a Greek Prefa deal, with its code.

Rules: greek-prefa.md 3-7 and 14; record shape: records.md 1.2. Valid full deals come from the
random simulator (sim/random_play/greek.py), bad ones change one thing each.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from model.cards import DECK_32, format_card, iter_cards
from model.greek.check import check_deal
from model.greek.frame import TABLE as GREEK_TABLE
from model.greek.frame import mode_of
from model.greek.params import GreekRules
from model.greek.play import active_players
from model.greek.records import GreekDeal, GreekGame
from model.problems import Code, Problem
from model.variants import variant
from sim.random_play.greek import random_deal

PLAYERS = ("Anna", "Boris", "Chris")


def game(n: int = 3, **rules: Any) -> GreekGame:
    return GreekGame(
        game_id="g",
        variant="greek-prefa",
        players=(*PLAYERS, "Dora")[:n],
        rules=GreekRules(four_players=n == 4, **rules),
    )


GAME = game()


def codes(g: GreekGame, d: GreekDeal) -> list[Code]:
    return [p.code for p in check_deal(g, d)]


def messages(g: GreekGame, d: GreekDeal) -> str:
    return " | ".join(p.message for p in check_deal(g, d))


def minimal(**fields: Any) -> GreekDeal:
    """Dealer Anna, first hand Boris; declarer Chris has R = Anna, L = Boris (6.1)."""
    base: dict[str, Any] = {
        "game_id": "g",
        "deal_no": 2,
        "dealer": "Anna",
        "declarer": "Chris",
        "contract": "6S",
        "defence": {"Anna": "play", "Boris": "play"},
        "tricks": {"Chris": 6, "Anna": 2, "Boris": 2},
    }
    base.update(fields)
    return GreekDeal.model_validate({k: v for k, v in base.items() if v is not None})


def full(mode: str, g: GreekGame = GAME, seed: int = 7) -> dict[str, Any]:
    """The first simulated deal of ``mode`` (a record dict, valid by construction)."""
    rng = random.Random(seed)
    while True:
        d = random_deal(rng, g).deal
        if mode_of(d) == mode and not d.preliminary:
            return d.model_dump(exclude_defaults=True)


def with_(record: dict[str, Any], **changes: Any) -> GreekDeal:
    return GreekDeal.model_validate(record | changes)


# --- valid records -------------------------------------------------------------------------


def test_minimal_record_is_valid() -> None:
    # records.md 1.2: the score-sheet form
    assert check_deal(GAME, minimal()) == []


@pytest.mark.parametrize("mode", ["both", "invite", "alone", "pass"])
def test_full_records_are_valid(mode: str) -> None:
    # greek-prefa.md 3-7: simulated deals with cards, auction, discard and play
    assert check_deal(GAME, with_(full(mode))) == []


def test_variant_registry_runs_the_check() -> None:
    # records.md 1.1: variant "greek-prefa"; aliases and table per model/variants.py, tables.py
    v = variant("prefa")
    assert v.name == "greek-prefa" and v is variant("greek")
    assert v.deals_table == GREEK_TABLE.name and v.deck == DECK_32
    assert v.check_deal(GAME, minimal(tricks={"Chris": 6})) != []
    assert v.deal_row(GAME, minimal())["mode"] == "both"


# --- rules level ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "quote"),
    [
        ({"dealer": "Zoe"}, "dealer: 'Zoe'"),
        ({"declarer": "Zoe"}, "declarer: 'Zoe'"),
        ({"defence": {"Anna": "play", "Zoe": "play"}}, "defence: 'Zoe'"),
        ({"tricks": {"Chris": 6, "Anna": 2, "Zoe": 2}}, "tricks: 'Zoe'"),
    ],
)
def test_unknown_player(fields: dict[str, Any], quote: str) -> None:
    # records.md 1.2: dealer, declarer, defence and tricks name players of the game
    assert codes(GAME, minimal(**fields)) == [Code.UNKNOWN_PLAYER]
    assert quote in messages(GAME, minimal(**fields))


def test_four_players_dealer_may_not_declare_defend_or_hold_cards() -> None:
    # greek-prefa.md 14 four_players: the dealer sits out
    g4 = game(4)
    assert check_deal(g4, minimal(dealer="Dora")) == []
    assert codes(g4, minimal(dealer="Chris")) == [Code.UNKNOWN_PLAYER]
    assert "Chris deals and sits out" in messages(g4, minimal(dealer="Chris"))
    dealer_defends = minimal(dealer="Anna", defence={"Anna": "play", "Boris": "play"})
    assert Code.UNKNOWN_PLAYER in codes(g4, dealer_defends)
    hands = minimal(dealer="Dora", hands={"Dora": ["AS"]}, tricks=None)
    assert "cannot hold cards" in messages(g4, hands)


@pytest.mark.parametrize(
    ("g", "fields", "quote"),
    [
        # greek-prefa.md 5.1 / 14 ten_nt
        (GAME, {"contract": "10NT", "tricks": {"Chris": 10, "Anna": 0, "Boris": 0}}, "'10NT'"),
        # 14 four_aces
        (GAME, {"four_aces": True}, "four_aces = none"),
        # 14 preliminary_bid
        (game(preliminary_bid=False), {"preliminary": True}, "preliminary_bid off"),
        # 5, 14 concede_any_contract
        (GAME, {"conceded": True, "tricks": None}, "only a preliminary-bid winner"),
    ],
)
def test_illegal_contract(g: GreekGame, fields: dict[str, Any], quote: str) -> None:
    # greek-prefa.md 5, 14 (per case above)
    assert codes(g, minimal(**fields)) == [Code.ILLEGAL_CONTRACT]
    assert quote in messages(g, minimal(**fields))


def test_allowed_options_pass() -> None:
    # greek-prefa.md 14: the same records are fine when the rules allow them
    ten = {"contract": "10NT", "tricks": {"Chris": 10, "Anna": 0, "Boris": 0}}
    assert check_deal(game(ten_nt="value_10"), minimal(**ten)) == []
    assert check_deal(game(four_aces="raise_value"), minimal(four_aces=True)) == []
    assert check_deal(game(concede_any_contract=True), minimal(conceded=True, tricks=None)) == []
    assert check_deal(GAME, minimal(conceded=True, preliminary=True, tricks=None)) == []


@pytest.mark.parametrize(
    "defence",
    [
        {"Anna": "play", "Chris": "play"},  # the declarer is no defender
        {"Anna": "play"},  # both defenders decide
        {"Anna": "invite", "Boris": "invite"},  # 6.1: only one whister invites
        {"Anna": "alone", "Boris": "play"},  # 6.1: alone only when the other passed
        {"Anna": "play", "Boris": "pass"},  # 6.1 step 3: a single whister says alone or invite
    ],
)
def test_illegal_defence(defence: dict[str, str]) -> None:
    # greek-prefa.md 6.1
    found = codes(GAME, minimal(defence=defence, tricks=None))
    assert found and set(found) == {Code.ILLEGAL_DEFENCE}


@pytest.mark.parametrize(
    ("g", "fields"),
    [
        (GAME, {"tricks": {"Chris": 6, "Anna": 2, "Boris": 1}}),  # sum 9 (7)
        (GAME, {"tricks": {"Chris": 6, "Anna": 4}}),  # both played: three counts
        (GAME, {"tricks": None}),  # played, so tricks are needed
        # 6.1 step 6: alone is two-handed
        (GAME, {"defence": {"Anna": "pass", "Boris": "alone"}}),
        # 6.1 step 2: both pass, no play
        (GAME, {"defence": {"Anna": "pass", "Boris": "pass"}}),
        # 4.2 all pass, redeal: nothing played
        (GAME, {"declarer": None, "contract": None, "defence": None}),
        # 14 all_pass = play_low: all three play
        (
            game(all_pass="play_low"),
            {"declarer": None, "contract": None, "defence": None, "tricks": None},
        ),
        (
            game(all_pass="play_low"),
            {
                "declarer": None,
                "contract": None,
                "defence": None,
                "tricks": {"Chris": 6, "Anna": 4},
            },
        ),
    ],
)
def test_trick_count(g: GreekGame, fields: dict[str, Any]) -> None:
    # greek-prefa.md 6.1, 7 (per case above)
    assert codes(g, minimal(**fields)) == [Code.TRICK_COUNT]


def test_trick_counts_that_fit_the_mode() -> None:
    # greek-prefa.md 7: tD + tW = 10 alone; nothing when both pass; all three under play_low
    alone = minimal(defence={"Anna": "pass", "Boris": "alone"}, tricks={"Chris": 8, "Boris": 2})
    assert check_deal(GAME, alone) == []
    assert check_deal(GAME, minimal(defence={"Anna": "pass", "Boris": "pass"}, tricks=None)) == []
    low = minimal(
        declarer=None, contract=None, defence=None, tricks={"Chris": 3, "Anna": 3, "Boris": 4}
    )
    assert check_deal(game(all_pass="play_low"), low) == []


def test_every_problem_is_reported() -> None:
    # model/variants.py Variant.check_deal (records.md 1.2): all problems at once, not the first
    d = minimal(contract="10NT", four_aces=True, tricks={"Chris": 9, "Anna": 0, "Boris": 0})
    assert sorted(codes(GAME, d)) == sorted(
        [Code.ILLEGAL_CONTRACT, Code.ILLEGAL_CONTRACT, Code.TRICK_COUNT]
    )


# --- card level ----------------------------------------------------------------------------


def test_deck_problems() -> None:
    # greek-prefa.md 3: 10 cards each and 2 in the talon, the 32-card deck
    rec = full("both")
    hands = rec["hands"]
    anna = hands["Anna"]
    short = with_(rec, hands=hands | {"Anna": anna[:9]})
    assert Code.DECK in codes(GAME, short) and "10" in messages(GAME, short)
    boris = hands["Boris"][0]
    twice = with_(rec, hands=hands | {"Anna": [*anna[:9], boris]})
    assert codes(GAME, twice)[0] is Code.DECK
    assert f"['{boris}'] dealt to both" in messages(GAME, twice)
    small = with_(rec, hands=hands | {"Anna": [*anna[:9], "2S"]})
    assert "'2S' is not in the 32-card deck" in messages(GAME, small)
    talon = with_(rec, talon=[*rec["talon"], anna[0]])
    assert Code.DECK in codes(GAME, talon)
    assert "is not 2 cards" in messages(GAME, talon)
    stolen = with_(rec, talon=[rec["talon"][0], anna[0]])
    assert f"['{anna[0]}'] dealt to a player and also in the talon" in messages(GAME, stolen)
    missing = with_(rec, hands={k: v for k, v in hands.items() if k != "Anna"})
    assert "Anna's hand is missing" in messages(GAME, missing)


def test_auction_winner_must_be_the_declarer() -> None:
    # greek-prefa.md 4.2: the survivor of the auction declares
    rec = full("both")
    calls = [{"player": c["player"], "call": c["call"]} for c in rec["auction"]]
    cut = with_(rec, auction=calls[:-1])
    assert codes(GAME, cut) == [Code.AUCTION]
    assert "still has to speak" in messages(GAME, cut)
    order = active_players(GAME, rec["dealer"])
    allpass = [{"player": p, "call": "pass"} for p in order]
    d = with_(rec, auction=allpass)
    assert codes(GAME, d) == [Code.AUCTION]
    assert messages(GAME, d) == (
        f"everybody passed in the auction, but the record names {rec['declarer']} as declarer"
    )


def test_contract_below_the_winning_bid() -> None:
    # greek-prefa.md 5: the contract may not be lower than the bid that won the talon
    d = minimal(
        contract="6S",
        auction=[
            {"player": "Boris", "call": "6S"},
            {"player": "Chris", "call": "6C"},
            {"player": "Anna", "call": "pass"},
            {"player": "Boris", "call": "pass"},
        ],
    )
    assert codes(GAME, d) == [Code.CONTRACT_NOT_ALLOWED]
    assert "'6S' is below the winning bid 6C" in messages(GAME, d)
    assert check_deal(GAME, minimal(contract="7S", auction=d.auction)) == []


def test_preliminary_winner_declares_anything() -> None:
    # greek-prefa.md 4.2 GA2, 5: a preliminary-bid winner may announce any contract
    calls = [
        {"player": "Boris", "call": "pass"},
        {"player": "Chris", "call": "take"},
        {"player": "Anna", "call": "pass"},
    ]
    assert check_deal(GAME, minimal(auction=calls, preliminary=True)) == []
    assert codes(GAME, minimal(auction=calls)) == [Code.AUCTION]


def test_first_bidder_by_7d() -> None:
    # greek-prefa.md 14 first_bidder_by_7d: in the first deal the holder of 7D bids first
    g = game(first_bidder_by_7d=True)
    for seed in range(100):
        rec = full("pass", g, seed)
        order = active_players(g, rec["dealer"])
        holder = next((p for p, cards in rec["hands"].items() if "7D" in cards), None)
        if holder is not None and holder != order[0]:
            break
    i = order.index(holder)
    by_7d = order[i:] + order[:i]

    def opened_by(seats: tuple[str, ...]) -> GreekDeal:
        calls = [{"player": seats[0], "call": "6S"}]
        calls += [{"player": p, "call": "pass"} for p in seats[1:]]
        defence = dict.fromkeys(seats[1:], "pass")
        return with_(
            rec,
            deal_no=1,
            auction=calls,
            declarer=seats[0],
            defence=defence,
            contract="6S",
            discard=None,
        )

    assert check_deal(g, opened_by(by_7d)) == []
    assert codes(g, opened_by(order)) == [Code.AUCTION]
    assert check_deal(g, opened_by(order).model_copy(update={"deal_no": 2})) == []


def test_discard_problems() -> None:
    # greek-prefa.md 5: two cards of the declarer's hand plus talon
    rec = full("both")
    someone_else = next(p for p in rec["hands"] if p != rec["declarer"])
    foreign = rec["hands"][someone_else][0]
    d = with_(rec, discard=[rec["discard"][0], foreign], play=None)
    assert codes(GAME, d) == [Code.DISCARD]
    assert f"'{foreign}'" in messages(GAME, d)
    three = with_(rec, discard=[*rec["discard"], foreign], play=None)
    assert codes(GAME, three) == [Code.DISCARD]


def test_four_aces_need_the_aces() -> None:
    # greek-prefa.md 14 four_aces: announced after the discard, so all four must be kept
    g = game(four_aces="fixed_chips")
    rec = full("both", g)
    d = with_(rec, four_aces=True)
    assert codes(g, d) == [Code.ILLEGAL_CONTRACT]
    assert "lacks" in messages(g, d)


def test_illegal_card_and_replay_mismatch() -> None:
    # greek-prefa.md 7: every card legal; the replay gives the recorded tricks
    rec = full("both")
    play = [tuple(m) for m in rec["play"]]
    swapped = [play[1], play[0], *play[2:]]
    assert codes(GAME, with_(rec, play=swapped)) == [Code.ILLEGAL_CARD]
    tricks = dict(rec["tricks"])
    names = sorted(tricks, key=tricks.__getitem__)
    low, high = names[0], names[-1]
    tricks[low], tricks[high] = tricks[high], tricks[low]
    mismatch = with_(rec, tricks=tricks)
    assert codes(GAME, mismatch) == [Code.REPLAY_MISMATCH]
    assert "replaying the play gives" in messages(GAME, mismatch)
    assert codes(GAME, with_(rec, play=play[:-1])) == [Code.REPLAY_MISMATCH]


def test_play_without_players() -> None:
    # greek-prefa.md 6.1 step 2: both passed, nothing is played
    rec = full("pass")
    other = full("both")
    d = with_(rec, play=other["play"])
    assert Code.REPLAY_MISMATCH in codes(GAME, d)


def test_cards_without_hands_are_still_replayed() -> None:
    # records.md 1.2: only the parts present are checked
    rec = full("both")
    bare = {k: v for k, v in rec.items() if k not in ("hands", "talon", "discard", "auction")}
    assert check_deal(GAME, with_(bare)) == []


# --- properties ----------------------------------------------------------------------------

RULE_SETS = [
    {},
    {"must_overtrump_when_void": True, "all_pass": "play_low"},
    {"jump_bids": True, "hold_rule": "seat_priority", "ten_nt": "value_11"},
    {"four_aces": "raise_value", "preliminary_bid": False, "concede_any_contract": True},
]


@settings(deadline=None, max_examples=150)
@given(seed=st.integers(0, 2**32), n=st.sampled_from([3, 4]), rules=st.sampled_from(RULE_SETS))
def test_simulated_deals_are_valid_and_any_illegal_card_is_caught(
    seed: int, n: int, rules: dict[str, Any]
) -> None:
    # greek-prefa.md 3-7, 14: a shuffled deck, a legal auction, legal play -> no problem;
    # one card of the play replaced by a card outside the legal set -> ILLEGAL_CARD
    g = game(n, **rules)
    rng = random.Random(seed)
    sim = random_deal(rng, g)
    assert check_deal(g, sim.deal) == []
    if not sim.legal:
        return
    i = rng.randrange(len(sim.legal))
    bad = rng.choice(list(iter_cards(DECK_32 & ~sim.legal[i])))
    play = list(sim.deal.play or ())
    play[i] = (play[i][0], format_card(bad))
    flipped = sim.deal.model_copy(update={"play": tuple(play)})
    found = check_deal(g, flipped)
    assert [p.code for p in found] == [Code.ILLEGAL_CARD]
    assert f"played {format_card(bad)}" in found[0].message


NAMES = [*PLAYERS, "Dora", "Zoe"]
CALLS = ["pass", "hold", "take", "6S", "6C", "7NT", "10H", "10NT", "six"]
CARDS = ["AS", "7D", "8D", "TH", "2C", "KC"]


def _mutate(rng: random.Random, rec: dict[str, Any]) -> dict[str, Any]:
    """One random corruption of a record (names, cards, calls, counts, dropped parts)."""
    rec = dict(rec)
    what = rng.randrange(9)
    if what == 0:
        rec["dealer"] = rng.choice(NAMES)
    elif what == 1 and rec.get("declarer"):
        rec["declarer"] = rng.choice(NAMES)
    elif what == 2 and rec.get("hands"):
        p = rng.choice(list(rec["hands"]))
        cards = list(rec["hands"][p])
        cards[rng.randrange(len(cards))] = rng.choice(CARDS)
        rec["hands"] = rec["hands"] | {p: cards}
    elif what == 3 and rec.get("auction"):
        calls = [dict(c) for c in rec["auction"]]
        c = rng.randrange(len(calls))
        calls[c] = {"player": rng.choice(NAMES), "call": rng.choice(CALLS)}
        rec["auction"] = calls[: rng.randrange(1, len(calls) + 1)]
    elif what == 4 and rec.get("play"):
        play = list(rec["play"])
        play[rng.randrange(len(play))] = (rng.choice(NAMES), rng.choice(CARDS))
        rec["play"] = play[: rng.randrange(len(play) + 1)]
    elif what == 5 and rec.get("tricks"):
        rec["tricks"] = {rng.choice(NAMES): rng.randrange(11) for _ in range(3)}
    elif what == 6:
        for key in rng.sample(["hands", "talon", "auction", "discard", "play"], 2):
            rec.pop(key, None)
    elif what == 7 and rec.get("defence"):
        rec["defence"] = {
            rng.choice(NAMES): rng.choice(["play", "pass", "invite", "alone"]) for _ in range(2)
        }
    elif what == 8 and rec.get("discard"):
        rec["discard"] = [rng.choice(CARDS) for _ in range(rng.randrange(1, 4))]
    return rec


@settings(deadline=None, max_examples=200)
@given(seed=st.integers(0, 2**32), n=st.sampled_from([3, 4]), rules=st.sampled_from(RULE_SETS))
def test_corrupted_records_give_problems_not_exceptions(
    seed: int, n: int, rules: dict[str, Any]
) -> None:
    # STYLE.md: validators return problems, never raise on bad data
    g = game(n, **rules)
    rng = random.Random(seed)
    rec = random_deal(rng, g).deal.model_dump(exclude_defaults=True)
    for _ in range(rng.randrange(1, 4)):
        rec = _mutate(rng, rec)
    try:
        deal = GreekDeal.model_validate(rec)
    except ValueError:
        return  # the schema already refuses it
    found = check_deal(g, deal)
    assert all(isinstance(p, Problem) and p.message for p in found)
