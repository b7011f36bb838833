"""Decision review (docs/review.md, "Decisions", sim/review/decisions.py): the Preference
contract against the variant's contracts solved open-hand, the defenders' decisions, the bridge
contract against par, a claim against the open-hand value at the claim."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from scoring.bridge.dd import analyse
from sim.review.rows import DealReview
from sim.review.run import ReviewReport
from sim.review.store import review_task
from tests.sim.review.test_cards import SEATS


def _copy(db: Path, tmp_path: Path) -> duckdb.DuckDBPyConnection:
    copy = tmp_path / "copy.duckdb"
    copy.write_bytes(db.read_bytes())
    return duckdb.connect(str(copy))


def test_greek_contract_is_correct_when_it_makes_open_hand(
    reviewed: tuple[Path, ReviewReport], tmp_path: Path
) -> None:
    """greek-prefa.md 5: a contract of n tricks is made with n tricks or more."""
    conn = _copy(reviewed[0], tmp_path)
    rows = conn.execute("""
        SELECT d.contract, r.value_choice, r.correct, r.cost, list_contains(r.best, r.choice)
        FROM decision_review r JOIN deals d USING (game_id, deal_no)
        WHERE d.variant = 'greek-prefa' AND r.kind = 'contract'""").fetchall()
    assert len(rows) >= 5
    for contract, tricks, correct, cost, best in rows:
        level = int(contract.rstrip("SCDHNT"))
        assert correct == (tricks >= level)
        assert (cost == 0) == best


def test_preference_contract_value_is_the_open_hand_result(
    reviewed: tuple[Path, ReviewReport], tmp_path: Path
) -> None:
    from sim.analysis import analyse_open_hand

    conn = _copy(reviewed[0], tmp_path)
    analyse_open_hand(conn)
    pairs = conn.execute("""SELECT o.open_hand_tricks, r.value_choice FROM open_hand o
                            JOIN decision_review r USING (game_id, deal_no)
                            WHERE r.kind = 'contract'""").fetchall()
    assert len(pairs) > 10 and all(a == b for a, b in pairs)


def test_defence_is_judged_by_the_contract_made_open_hand(
    reviewed: tuple[Path, ReviewReport], tmp_path: Path
) -> None:
    conn = _copy(reviewed[0], tmp_path)
    rows = conn.execute("""
        SELECT r.choice, r.correct, r.best, c.correct AS made_as_played, c.value_choice,
               r.value_choice
        FROM decision_review r JOIN decision_review c
             ON c.game_id = r.game_id AND c.deal_no = r.deal_no AND c.kind = 'contract'
        WHERE r.kind = 'defence'""").fetchall()
    assert len(rows) >= 5
    decisions = {choice for choice, *_ in rows}
    assert "pass" in decisions and decisions & {"play", "invite", "alone"}
    for choice, correct, best, _made, _played, _full in rows:
        defends = choice != "pass"
        assert correct == (defends == (best == ["play"]))


def test_bridge_contract_against_par_agrees_with_analyse(
    reviewed: tuple[Path, ReviewReport], tmp_path: Path
) -> None:
    """The par of ``trickbook analyse`` (dd_tables) is the decision's best value."""
    pytest.importorskip("endplay")
    conn = _copy(reviewed[0], tmp_path)
    analyse(conn)
    rows = conn.execute("""
        SELECT r.value_best, t.par_ns, d.declarer, r.value_choice, r.cost, r.correct
        FROM decision_review r JOIN deals d USING (game_id, deal_no)
        JOIN (SELECT DISTINCT game_id, deal_no, par_ns FROM dd_tables) t
             USING (game_id, deal_no)
        WHERE r.kind = 'contract'""").fetchall()
    assert len(rows) >= 10
    for best, par_ns, declarer, value, cost, correct in rows:
        assert best == (par_ns if declarer in ("N", "S") else -par_ns)
        assert cost == max(0, best - value) and correct == (value >= best)


def _claimed(rec: dict[str, Any], cards: int, tricks: int) -> DealReview:
    short = {**rec, "play": rec["play"][:cards], "tricks": tricks}
    got = review_task(("claim", 1, "bridge-duplicate", list(SEATS), "{}", json.dumps(short)))
    assert isinstance(got, DealReview)
    return got


def test_a_claim_is_checked_open_hand(reviewed: tuple[Path, ReviewReport]) -> None:
    pytest.importorskip("endplay")
    conn = duckdb.connect(str(reviewed[0]), read_only=True)
    try:
        (text,) = conn.execute("""SELECT record::VARCHAR FROM deals
                                  WHERE variant = 'bridge-duplicate' AND declarer IS NOT NULL
                                  ORDER BY game_id, deal_no LIMIT 1""").fetchone() or ("",)
    finally:
        conn.close()
    rec = json.loads(text)
    fair = _claimed(rec, 30, 0)
    assert fair.claimed and len(fair.cards) == 30
    due = fair.value_end
    right = _claimed(rec, 30, due)
    claim = [d for d in right.decisions if d.kind == "claim"]
    assert len(claim) == 1 and claim[0].correct and claim[0].cost == 0
    if due > 0:
        short = next(d for d in _claimed(rec, 30, due - 1).decisions if d.kind == "claim")
        assert not short.correct and short.cost == 1


def test_contracts_are_written_as_records_write_them(
    reviewed: tuple[Path, ReviewReport], tmp_path: Path
) -> None:
    """A Preference contract decision names the contract played as recorded and its best ones
    in the same codes (docs/review.md, "Decisions"; the Player page showed the solver's names,
    ``H``, ``sanac``): each best code is one of the variant's solver contracts, of the played
    one's goal, at the played level where the game has levels (greek-prefa.md 5, russian.md 2)."""
    from sim.analysis import solver_contract_name, solver_contracts

    conn = _copy(reviewed[0], tmp_path)
    rows = conn.execute("""
        SELECT d.variant, d.contract, r.choice, r.best FROM decision_review r
        JOIN deals d USING (game_id, deal_no)
        WHERE r.kind = 'contract' AND d.variant NOT LIKE 'bridge%'""").fetchall()
    variants = {variant for variant, *_ in rows}
    assert {"greek-prefa", "balkan", "swabian"} <= variants  # Russian: test_russian.py
    for variant, contract, choice, best in rows:
        assert choice == contract
        played = solver_contracts(variant)[solver_contract_name(variant, contract)]
        for code in best:
            name = solver_contract_name(variant, code)
            assert name is not None, (variant, code)
            assert solver_contracts(variant)[name].goal is played.goal
            if variant == "greek-prefa":
                assert code.rstrip("SCDHNT") == contract.upper().rstrip("SCDHNT")


def test_a_review_in_the_solver_s_names_is_made_again(
    reviewed: tuple[Path, ReviewReport], tmp_path: Path
) -> None:
    """No review just written is stale; one whose contract decision names the solver's contract
    (``H``: as an older trickbook wrote it) is forgotten and made again by the next run, which
    reviews that deal only (sim/review/store.py, forget_stale)."""
    from sim.review.run import review_database
    from sim.review.store import STALE

    conn = _copy(reviewed[0], tmp_path)
    assert conn.execute(f"SELECT count(*) FROM ({STALE})").fetchone() == (0,)
    before = conn.execute("SELECT count(*) FROM card_review").fetchone()
    game_id, deal_no, contract = conn.execute("""
        SELECT game_id, deal_no, d.contract FROM decision_review r
        JOIN deals d USING (game_id, deal_no)
        WHERE r.kind = 'contract' AND d.variant = 'greek-prefa' ORDER BY ALL LIMIT 1""").fetchone()
    conn.execute("""UPDATE decision_review SET choice = ?, best = [?]
                    WHERE game_id = ? AND deal_no = ? AND kind = 'contract'""",
                 [contract.lstrip("0123456789"), "S", game_id, deal_no])
    report = review_database(conn, workers=1)
    assert report.reviewed == 1
    assert conn.execute("""SELECT choice FROM decision_review WHERE game_id = ? AND deal_no = ?
                           AND kind = 'contract'""", [game_id, deal_no]).fetchone() == (contract,)
    assert conn.execute("SELECT count(*) FROM card_review").fetchone() == before
