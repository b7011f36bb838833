"""Every worked example of swabian.md section 9 (S1-S14, [derived] there from the seed's rules in
sections 3.1, 4, 5 and 7), settled by both the vectorised kernel and the per-deal reference.

Players D (declarer), X, Y in turn order; the dealer is X unless the example names him, and the
talon of every example but S14 is not a pair.
"""

from __future__ import annotations

from typing import Any

import pytest

from model.swabian.games import REQUIRED, required
from tests.scoring.swabian.helpers import cash_of, game, settle_records


def deal(contract: int, d_tricks: int, x_tricks: int | None = None, **extra: Any) -> dict[str, Any]:
    """D declares ``contract`` and takes ``d_tricks``; the defenders share the rest (X first)."""
    rest = 10 - d_tricks
    if contract == 6 and d_tricks == 1:
        rest = 0  # Bettel stopped at the declarer's first trick (6)
    x = rest // 2 if x_tricks is None else x_tricks
    return {
        "deal_no": 1,
        "dealer": extra.pop("dealer", "X"),
        "declarer": "D",
        "contract": str(contract),
        "tricks": {"D": d_tricks, "X": x, "Y": rest - x},
        **extra,
    }


EXAMPLES: list[tuple[str, dict[str, Any], tuple[int, int, int]]] = [
    ("S1 4 Hearts 8 tricks", deal(4, 8), (12, -6, -6)),
    ("S2 4 Hearts exact", deal(4, 6), (8, -4, -4)),
    ("S3 2 Leaves one short", deal(2, 6), (-6, 3, 3)),
    ("S4 2 Leaves exact", deal(2, 7), (4, -2, -2)),
    ("S5 5 Acorns aus den Haenden 9", deal(5, 9, hand=True), (14, -7, -7)),
    ("S6 5 Acorns aus den Haenden 6", deal(5, 6, hand=True), (-12, 6, 6)),
    ("S7 Bettel won", deal(6, 0), (12, -6, -6)),
    ("S8 Bettel lost at first trick", deal(6, 1, x_tricks=0), (-12, 6, 6)),
    ("S9 Durchmarsch won", deal(7, 10), (14, -7, -7)),
    # S10: the declarer took three tricks and lost the fourth, where play stopped (6).
    (
        "S10 Durchmarsch lost at trick 4",
        {
            "deal_no": 1,
            "dealer": "X",
            "declarer": "D",
            "contract": "7",
            "tricks": {"D": 3, "X": 1, "Y": 0},
        },
        (-14, 7, 7),
    ),
    ("S11 3 Bells X contra", deal(3, 7, contra={"X": "contra"}), (12, -8, -4)),
    ("S12 3 Bells X contra D recontra", deal(3, 7, contra={"X": "recontra"}), (20, -16, -4)),
    (
        "S13 3 Bells both contra lost by 1",
        deal(3, 5, contra={"X": "contra", "Y": "contra"}),
        (-16, 8, 8),
    ),
    ("S14 4 Hearts Kunstwerk dealer Y", deal(4, 6, dealer="Y", kunstwerk=True), (6, -4, -2)),
]


@pytest.mark.parametrize("reference", [False, True], ids=["kernel", "reference"])
@pytest.mark.parametrize(
    ("record", "expected"), [e[1:] for e in EXAMPLES], ids=[e[0] for e in EXAMPLES]
)
def test_worked_example(record: dict[str, Any], expected: tuple[int, int, int], reference: bool):
    """swabian.md 9: result of D, X, Y."""
    settled = settle_records(game(), [record], reference=reference)
    assert cash_of(settled) == dict(zip("DXY", map(float, expected), strict=True))


def test_kunstwerk_by_the_dealer_himself_pays_nobody():
    """swabian.md 4: "If the winner is the dealer, no payment" ([derived])."""
    settled = settle_records(game(), [deal(4, 6, dealer="D", kunstwerk=True)])
    assert cash_of(settled) == {"D": 8.0, "X": -4.0, "Y": -4.0}


def test_kunstwerk_units_flag():
    """swabian.md 10 ``kunstwerk_units``; contra does not touch it (11 S7)."""
    g = game(rules={"kunstwerk_units": 3})
    settled = settle_records(g, [deal(4, 6, dealer="Y", kunstwerk=True, contra={"Y": "contra"})])
    assert cash_of(settled) == {"D": 12.0 - 3, "X": -4.0, "Y": -8.0 + 3}


def test_all_pass_pays_nothing():
    """swabian.md 3.2 ``all_pass = redeal`` and 11 S6: no declarer, no payment, no Kunstwerk."""
    settled = settle_records(game(), [{"deal_no": 1, "dealer": "X"}])
    assert cash_of(settled) == {"D": 0.0, "X": 0.0, "Y": 0.0}
    assert settled.transfers.height == 0


@pytest.mark.parametrize(
    ("number", "with_talon", "from_hand"),
    [(2, 7, 8), (3, 6, 7), (4, 6, 7), (5, 6, 7), (6, 0, 0), (7, 10, 10)],
)
def test_required_tricks_table(number: int, with_talon: int, from_hand: int):
    """swabian.md 3.1 table: tricks required with the talon and aus den Händen."""
    assert REQUIRED[number] == with_talon
    assert required(number, False) == with_talon
    assert required(number, True) == from_hand


def test_transfers_of_contra_and_kunstwerk_are_netted_per_pair():
    """swabian.md 5 (pairwise stakes) and 4: D owes Y the Kunstwerk, Y owes D 8 under contra;
    one transfer per pair, netted."""
    settled = settle_records(
        game(), [deal(3, 7, dealer="Y", kunstwerk=True, contra={"Y": "contra"})]
    )
    rows = {(r["payer"], r["payee"]): r["amount"] for r in settled.transfers.iter_rows(named=True)}
    assert rows == {("X", "D"): 4.0, ("Y", "D"): 6.0}


def test_deals_of_unknown_games_are_not_settled():
    """Bad input is data, not a crash: a deal whose game is missing gets no rows."""
    import polars as pl

    from model.swabian.frame import deal_row, deals_frame
    from model.swabian.records import SwabianDeal
    from scoring.swabian import SETTLEMENT
    from tests.scoring.swabian.helpers import games_frame

    g, other = game("g"), game("other")
    rows = [
        deal_row(x, SwabianDeal.model_validate({"game_id": x.game_id, **deal(4, 8)}))
        for x in (g, other)
    ]
    for how in (SETTLEMENT.settle, SETTLEMENT.settle_reference):
        settled = how(games_frame([g]), deals_frame(rows))
        assert settled.settlements["game_id"].unique().to_list() == ["g"]
        assert settled.standings.filter(pl.col("player") == "D")["cash"].to_list() == [12.0]
