"""Who sits a deal out (``Variant.dealer_sits_out_at``, read by the Player page's roles) agrees
with each variant's own seat rules; everyone else at the table takes part in the deal."""

from __future__ import annotations

import pytest

from model.balkan.check import active_players as balkan_active
from model.greek.play import active_players as greek_active
from model.russian.seats import in_deal
from model.variants import REGISTERED, variant

PLAYERS = ("Ana", "Bo", "Cy", "Di")


def _game(name: str, players: tuple[str, ...]) -> object:
    rules = {"four_players": True} if len(players) == 4 else {}
    return variant(name).game_model.model_validate(
        {"record": "game", "game_id": "g", "variant": name, "players": players,
         "rules": rules})


def _sitting_out(name: str, players: tuple[str, ...], dealer: str) -> set[str]:
    """Who sits the deal out by the fact on the variant (the dealer, at its table size)."""
    at = variant(name).dealer_sits_out_at
    return {dealer} if at is not None and len(players) >= at else set()


@pytest.mark.parametrize("players", [PLAYERS[:3], PLAYERS])
@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_the_dealer_of_four_sits_out(players: tuple[str, ...], dealer: int) -> None:
    """greek-prefa.md 2 ("3 active; 4 optional (dealer sits out)") and 14 ``four_players``,
    balkan.md 1 ("3 active; with 4 the dealer sits out the deal"), russian.md 1 ("with 4 the
    dealer sits out the deal"): the seats their own rules deal in are the others."""
    name_of = players[dealer]
    dealt = {
        "greek-prefa": set(greek_active(_game("greek-prefa", players), name_of)),
        "balkan": set(balkan_active(_game("balkan", players), name_of)),
        "russian": {players[i] for i in in_deal(len(players), dealer)},
    }
    for name, active in dealt.items():
        assert set(players) - active == _sitting_out(name, players, name_of), name


def test_everyone_at_a_swabian_or_bridge_table_plays() -> None:
    """swabian.md 1 (three players, no four-player rule) and 6 ("the declarer always plays
    alone against both other players"); bridge: four hands, dummy's played by the declarer
    (bridge.md 2.3, 3): nobody sits out."""
    for name in ("swabian", "bridge-rubber", "bridge-duplicate"):
        assert variant(name).dealer_sits_out_at is None, name
    assert {v.name for v in REGISTERED if v.dealer_sits_out_at is not None} == {
        "greek-prefa", "balkan", "russian"}
