"""The bots look like sensible club players (docs/simulation.md): strong hands bid and make their
contracts, hopeless hands do not whist, Bettel is bid with safe hands; rates are measured over
simulated deals and held to loose bounds."""

from __future__ import annotations

from model.cards import ACES, DECK_32, parse_cards
from model.greek.params import GreekRules
from model.sim.bots.evaluate import declarer_tricks, defender_tricks, misere_risk
from model.sim.bots.play import play_heuristic
from model.sim.greek import auction_calls, declare
from model.tricks import cards_mask
from tests.sim.helpers import records, simulate_lines

KINGS = sum(1 << (16 * s + 11) for s in range(4))


def test_unbeatable_hand_does_not_pass() -> None:
    # greek-prefa.md 4.2 and 5: eight top hearts and two aces win the auction and declare high
    strong = parse_cards(["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "AS", "AC"])
    rest = [c for c in range(64) if DECK_32 >> c & 1 and not strong >> c & 1]
    other1 = sum(1 << c for c in rest[:10])
    other2 = sum(1 << c for c in rest[10:20])
    talon = sum(1 << c for c in rest[20:])
    for seat in range(3):
        hands = [other1, other2]
        hands.insert(seat, strong)
        active = ("A", "B", "C")
        calls, winner, bid, _ = auction_calls(active, dict(zip(active, hands, strict=True)),
                                              GreekRules())
        assert winner == active[seat], calls
        level, denom, disc, _ = declare(strong | talon, bid or 0, GreekRules())
        assert (level, denom) == (10, 3)  # ten hearts, the top of the ladder
        held = [(strong | talon) & ~disc if i == seat else h for i, h in enumerate(hands)]
        _, taken = play_heuristic(held, 0, seat, 3, deck=DECK_32)
        assert taken[seat] == 10


def test_evaluation_orders_hands() -> None:
    # top honours and trump length count; a Yarborough has no defensive trick
    good = parse_cards(["AS", "KS", "QS", "JS", "TS", "AC", "KC", "AD", "KD", "AH"])
    weak = parse_cards(["7S", "8S", "9S", "7C", "8C", "9C", "7D", "8D", "9D", "7H"])
    assert declarer_tricks(good, 0) >= 9.5
    assert declarer_tricks(weak, 0) < 3
    assert defender_tricks(weak, 3) == 0
    assert misere_risk(weak) == 0 < misere_risk(good)


def test_defenders_rarely_whist_hopeless_hands() -> None:
    # greek-prefa.md 6.1-6.2: a defender without an ace or a king whists rarely (< 10%),
    # while defenders overall whist often (the bots are not simply passive)
    batch = simulate_lines("greek-prefa", 300, 10, seed=21)
    hopeless = whisted = decisions = whists = 0
    for _, _, deal in records("greek-prefa", batch):
        for player, decision in (deal.defence or {}).items():
            hand, _ = cards_mask((deal.hands or {})[player])
            decisions += 1
            whists += decision != "pass"
            if not hand & (ACES | KINGS):
                hopeless += 1
                whisted += decision != "pass"
    assert hopeless >= 50
    assert whisted / hopeless < 0.10
    assert 0.3 < whists / decisions < 0.9


def test_declarers_make_most_contracts_and_auctions_are_contested() -> None:
    # greek-prefa.md 5-7: club players make most of their contracts; not every deal is passed in
    batch = simulate_lines("greek-prefa", 300, 10, seed=22)
    played = made = passed_in = 0
    for _, _, deal in records("greek-prefa", batch):
        if deal.declarer is None:
            passed_in += 1
            continue
        if deal.tricks is None or deal.contract is None:
            continue
        played += 1
        made += deal.tricks[deal.declarer] >= int(deal.contract[:-1].rstrip("SCDHN") or 0)
    assert passed_in / 3000 < 0.6
    assert 0.5 < made / played < 0.97


def test_swabian_bettel_is_bid_with_safe_hands() -> None:
    # swabian.md 6: Bettel declarers hold low cards and make it more often than not
    batch = simulate_lines("swabian", 300, 10, seed=23)
    bettel = made = 0
    for _, _, deal in records("swabian", batch):
        if deal.contract == "6" and deal.tricks and deal.declarer:
            bettel += 1
            made += deal.tricks[deal.declarer] == 0
    assert bettel >= 20
    assert made / bettel > 0.5


def test_unbeatable_hand_bids_in_swabian_and_balkan() -> None:
    # swabian.md 3.2, balkan.md 3: eight top clubs (Eichel / Tref) and two aces never pass while
    # the auction is below the game they make; in Balkan they win it (Sans) from every seat
    from model.balkan.check import active_players
    from model.balkan.records import BalkanGame
    from model.sim.balkan import BalkanSimulator
    from model.sim.seeds import Dealer
    from model.sim.swabian import SwabianSimulator

    strong = parse_cards(["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "AS", "AH"])
    rest = [c for c in range(64) if DECK_32 >> c & 1 and not strong >> c & 1]

    class Fixed(Dealer):
        def __init__(self, seat: int) -> None:
            self.seat = seat

        def deal(self, players: int, size: int) -> tuple[list[int], int]:
            hands = [sum(1 << c for c in rest[0::2][:10]), sum(1 << c for c in rest[1::2][:10])]
            hands.insert(self.seat, strong)
            return hands, sum(1 << c for c in rest[0::2][10:] + rest[1::2][10:])

    game = BalkanGame.model_validate({"game_id": "g", "variant": "balkan",
                                      "players": ["P1", "P2", "P3"]})
    for seat in range(3):
        rec, _ = SwabianSimulator().deal("g", 1, 0, Fixed(seat))  # type: ignore[arg-type]
        me = f"P{seat + 1}"  # Swabian hands are by seat
        mine = [c["call"] for c in rec["auction"] if c["player"] == me]
        assert mine[0] != "pass", rec["auction"]
        if rec["declarer"] == me:
            assert rec["tricks"][me] >= 6
        else:  # outbid only by a game above his 5 Eichel (the neighbour's Bettel)
            assert int(rec["contract"]) > 5, rec["auction"]
        order = active_players(game, "P1")
        brec = BalkanSimulator().deal(game, "g", 1, "P1", Fixed(seat))  # type: ignore[arg-type]
        assert brec["declarer"] == order[seat], brec["auction"]
        assert brec["tricks"][order[seat]] >= 6
