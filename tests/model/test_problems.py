"""model/problems.py: how messages say values and counts."""

from __future__ import annotations

import pytest

from model.problems import by_player, counted


@pytest.mark.parametrize(("n", "shown"), [(0, "0 deals"), (1, "1 deal"), (2, "2 deals"),
                                          (1200, "1,200 deals")])
def test_counted(n: int, shown: str) -> None:
    assert counted(n, "deal") == shown


def test_by_player() -> None:
    assert by_player({"Anna": 5, "Boris": 3}) == "Anna 5, Boris 3"
    assert by_player(None) == by_player({}) == "none"
