"""The Swabian flags whose numbers the worked examples do not already hold, against values
computed by hand from ``../shared/spec/swabian.md`` (section named in each test); kernel and
reference both (docs/flags.md lists every flag and its test)."""

from __future__ import annotations

import pytest

from model.swabian.check import check_deal
from model.swabian.records import SwabianDeal
from tests.scoring.swabian.helpers import cash_of, game, settle_records

HAND_GAME_KUNSTWERK = {"deal_no": 1, "dealer": "X", "declarer": "D", "contract": "5",
                       "hand": True, "kunstwerk": True, "tricks": {"D": 9, "X": 1, "Y": 0}}


@pytest.mark.parametrize("reference", [False, True], ids=["kernel", "reference"])
def test_kunstwerk_on_hand_game(reference: bool) -> None:
    """4, 10 ``kunstwerk_on_hand_game``: 5 Acorns aus den Händen made with 9 tricks is S5
    (D +14, X -7, Y -7); with the talon checked and a Kunstwerk found the winner also pays the
    dealer X 2 units: D 12, X -5, Y -7. Without the flag such a record is refused."""
    g = game(rules={"kunstwerk_on_hand_game": True})
    settled = settle_records(g, [HAND_GAME_KUNSTWERK], reference=reference)
    assert cash_of(settled) == {"D": 12.0, "X": -5.0, "Y": -7.0}
    off = game()
    assert check_deal(off, SwabianDeal.model_validate({"game_id": "g", **HAND_GAME_KUNSTWERK}))


@pytest.mark.parametrize(("end", "deals", "finished"), [
    ({}, 1, True),
    ({"session_end": "fixed_deals", "session_deals": 2}, 1, False),
    ({"session_end": "fixed_deals", "session_deals": 2}, 2, True),
])
def test_session_end(end: dict[str, object], deals: int, finished: bool) -> None:
    """7, 10 ``session_end``: by agreement every recorded balance is final; with ``fixed_deals``
    the session is finished only after ``session_deals`` deals (S2 played ``deals`` times)."""
    rows = [{"deal_no": k, "dealer": "X", "declarer": "D", "contract": "4",
             "tricks": {"D": 6, "X": 2, "Y": 2}} for k in range(1, deals + 1)]
    settled = settle_records(game(rules=end), rows)
    assert cash_of(settled, deals) == {"D": 8.0, "X": -4.0, "Y": -4.0}
    assert settled.standings["finished"].to_list() == [finished] * 3
