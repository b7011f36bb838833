"""The review of Russian preferans deals (docs/review.md): contracts and misère like the other
Preference games, raspasy (all pass, russian.md 7) per player, each card by the tricks it costs
the player who chose it, the two others playing against him, with the talon leads of
russian.md 4 (``raspasy_talon_lead``).

Held here: the invariant on simulated deals of every kind (contract, misère, raspasy), by the
Python sums and by the data checks ``review_invariant`` and ``review_invariant_per_player``;
the open-hand bots review at 0 cost on every card; the contract decision is correct exactly
when the contract makes open-hand (russian.md 6.2); a raspasy ending checked by hand."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from model.cards import parse_card, parse_cards
from model.russian.variant import declarer_made
from scoring.checks import CHECKS, run_checks
from sim.review import store
from sim.review.rows import (
    SELF,
    DealReview,
    card_review,
)
from sim.run import Plan, simulate
from sim.solver import Goal, TalonLead, best_cards, solve
from tests.sim.review.invariant import (
    LONG_OUT,
    failures,
    hold,
    record,
    reviews_of,
    with_wrong_cost,
)

INVARIANTS = tuple(c for c in CHECKS if c.name in ("review_invariant",
                                                   "review_invariant_per_player"))


def _kinds(reviews: list[tuple[DealReview, dict]]) -> set[str]:
    return {"raspasy" if r.declarer is None else "misere" if r.fewest else "contract"
            for r, _ in reviews}


def _hold(reviews: list[tuple[DealReview, dict]]) -> None:
    """The invariant of each deal: contract and misère by the declaring side's sum, raspasy
    per player (his value, his costs, the others' gifts, never negative)."""
    assert all({c.side for c in r.cards} == {SELF} for r, _ in reviews if r.declarer is None)
    assert failures(reviews) == []


@pytest.mark.parametrize(("rules", "games"), [({}, 12), ({"raspasy_talon_lead": False}, 12)])
def test_invariant_on_simulated_russian_deals(tmp_path: Path, rules: dict, games: int) -> None:
    """About 100 deals (five a game) in all; ``make test-long``: thousands, below."""
    db = tmp_path / "russian.duckdb"
    held, reviews = hold(db, "russian", games, 5, 31, rules)
    assert held.ended >= 4 * games
    assert _kinds(reviews) == {"contract", "misere", "raspasy"}
    assert held.costly_cards  # the heuristic bots err
    _hold(reviews)
    for r, rec in reviews[::10]:  # a deliberately wrong cost breaks it, on any deal
        assert failures([(with_wrong_cost(r), rec)]) != []
    for r, rec in reviews:  # russian.md 6.2: the contract decision, judged open-hand
        if r.declarer is not None:
            contract = r.decisions[0]
            assert contract.kind == "contract"
            assert contract.correct == declarer_made(rec, r.value_start or 0)
            # written as records write them (docs/review.md, "Decisions"): MISERE, or 7S at 7
            assert contract.choice == rec["contract"]
            assert all(code == "MISERE" if r.fewest else code.rstrip("SCDHNT")
                       == str(rec["contract"]).rstrip("SCDHNT") for code in contract.best)
    conn = duckdb.connect(str(db))
    try:
        store.write(conn, [r for r, _ in reviews])  # stored as ``analyse --play`` stores them
        assert run_checks(conn, INVARIANTS) == []
        # a changed cost of a raspasy card breaks the per-player invariant
        conn.execute("""UPDATE card_review SET cost = cost + 1 WHERE side = 'self'
                        AND (game_id, deal_no, card_no) = (SELECT (game_id, deal_no, card_no)
                            FROM card_review WHERE side = 'self' ORDER BY ALL LIMIT 1)""")
        failed = run_checks(conn, INVARIANTS)
        assert [(f.check, f.count) for f in failed] == [("review_invariant_per_player", 1)]
    finally:
        conn.close()


LONG: list[tuple[dict, int]] = [({}, 100)] * 4 + [({"raspasy_talon_lead": False}, 100)]
"""``make test-long``: runs of 100 games of five deals, 2,500 deals (the ``long`` mark)."""


@pytest.mark.long
@pytest.mark.parametrize(("run", "rules", "games"), [(i, *r) for i, r in enumerate(LONG)])
def test_invariant_on_thousands_of_russian_deals(tmp_path: Path, run: int, rules: dict,
                                                 games: int) -> None:
    held, reviews = hold(tmp_path / "russian.duckdb", "russian", games, 5, 2000 + run, rules)
    assert held.ended >= 4 * games
    assert _kinds(reviews) == {"contract", "misere", "raspasy"}
    assert held.failed == []
    record(held, LONG_OUT)


def test_open_hand_bots_review_at_zero_cost(tmp_path: Path) -> None:
    """With ``--play dd`` every card is the solver's best for its player's side, raspasy
    included (each player for himself, talon leads and all)."""
    db = tmp_path / "russian-dd.duckdb"
    simulate(Plan("russian", 4, 5, seed=37, play="dd"), db=db, workers=1)  # 19 deals
    reviews = reviews_of(db)
    assert {"contract", "raspasy"} <= _kinds(reviews)
    assert [(r.game_id, r.deal_no, c.card_no) for r, _ in reviews for c in r.cards
            if c.cost] == []
    _hold(reviews)


# A two-trick raspasy ending, first hand (seat 0) to lead; no trump (russian.md 4, 7).
FIRST = parse_cards(["AH", "7S"])
SECOND = parse_cards(["KH", "8S"])
THIRD = parse_cards(["TS", "9S"])


def test_a_raspasy_ending_checked_by_hand() -> None:
    """Led, the ace of hearts wins (the others follow or have no heart: KH, a spade) and the
    7S then loses to a higher spade: one trick. The 7S first loses to the third player's spade,
    who leads his other spade; first hand, void, discards the ace: no trick. So first hand's
    value is 0 with 7S, and AH costs him one trick. With hearts turned up from the talon he
    must lead the ace (russian.md 4): one trick, at no cost, since it is forced."""
    hands = (FIRST, SECOND, THIRD)
    values = best_cards(hands, 0, 0, None, Goal.FEWEST)
    assert values == {parse_card("7S"): 0, parse_card("AH"): 1}
    row = card_review(1, "first", True, parse_card("AH"), values, True)
    assert (row.value_before, row.value_after, row.cost, row.best_cards) == (0, 1, 1, ("7S",))
    hearts = TalonLead(0, (3,), tricks=2)
    assert best_cards(hands, 0, 0, None, Goal.FEWEST, talon_lead=hearts) == {
        parse_card("AH"): 1}
    # the third player, after 7S: both his spades beat the 8S and win, and he keeps the lead
    after = (parse_cards(["AH"]), SECOND, THIRD)
    assert solve(after, 0, 2, None, Goal.FEWEST, trick=(parse_card("7S"),)) == 2
