"""Hand replayer: any deal that has its cards, around the table, stepped trick by trick.

Reads the canonical record (records.md 1.2: hands, talon, auction, discard, play, bridge board,
vulnerability and claim) of one deal; the model is :mod:`dashboards.replay`, the drawing
:mod:`dashboards.render`. The deal is in the URL (``?game=...&deal=N``, and ``&trick=K`` once
stepped), so every deal row of every page links here; any deal is found by game, board, player
or day, a page at a time (the count of matches is shown, nothing is cut off silently). Stepping
(buttons, or the left and right arrow keys, Home and End) runs in an ``st.fragment``: a step
redraws the table, not the page.
"""

from __future__ import annotations

import json
from typing import Any

import polars as pl
import streamlit as st

from dashboards import render
from dashboards.common import (
    WIDEN,
    empty,
    filters,
    guarded,
    kept_beside_cash,
    query,
    show,
    url_param,
)
from dashboards.replay import (
    Replay,
    build,
    call_words,
    card_label,
    cards_in_words,
    contract_words,
    no_declarer,
    repair_notes,
    why_no_play,
)
from dashboards.text import cash, md, number, quoted
from model.bridge.seats import board_vulnerable
from model.cards import iter_cards
from model.problems import counted

STEP = "replay_step"
DEAL = "replay_deal"
LABELS = "_replay_labels"
PAGE_ROWS = 200
NEW_SEARCH = "_replay_new_search"
ASKED_STEP = "_replay_asked_step"  # the address's trick, until the deal's table has said it
LISTED = "_replay_listed"  # the filters of the last list: a new list when they change


def _reset_step() -> None:
    st.session_state[STEP] = 0


def _move(delta: int, last: int) -> None:
    st.session_state[STEP] = min(last, max(0, int(st.session_state.get(STEP, 0)) + delta))


def _deal_from_url() -> None:
    """The ``game``, ``deal`` and ``trick`` of the URL the session opened on, chosen (read once,
    before the filters rewrite the query string, ``common.url_param``); an address that names
    no deal, or a deal the database does not hold, is said above the page, which opens on the
    list of deals instead (its first deal shown and put in the URL, where it has one)."""
    game, deal, trick = url_param("game"), url_param("deal"), url_param("trick") or ""
    asked = _named(game, deal)
    if not (game and deal and _is_number(deal, 9) and len(game) <= 200):
        if game or deal:
            st.warning(f"The address asks for {asked}: that names no deal (a game id and a "
                       "deal number are needed), so the page opens on the list of deals "
                       "instead.")
        return
    if query("deal_detail", game, int(deal)).is_empty():
        st.warning(f"The address asks for {asked}: the database holds no such deal, so the "
                   "page opens on the list of deals instead.")
        return
    st.session_state[DEAL] = f"{game}#{int(deal)}"
    if trick:  # said by the deal's table (:func:`_say_asked_step`), where stepping redraws it
        st.session_state[ASKED_STEP] = trick
    if _is_number(trick):
        st.session_state[STEP] = int(trick)  # past the deal's last trick: its last (_steps)


def _named(game: str | None, deal: str | None) -> str:
    """The deal an address names, as it names it: ``deal “3” of game “x”``, or what is missing
    (``game “x” and no deal number``)."""
    if game and deal:
        return f"deal {md(quoted(deal, 20))} of game {md(quoted(game, 200))}"
    if game:
        return f"game {md(quoted(game, 200))} and no deal number"
    return f"deal {md(quoted(deal or '', 20))} and no game"


def _say_asked_step(asked: str, last: int) -> None:
    """Say the address's trick (``asked``, its text) where the deal has it not: not a number
    (the deal is shown from its start), or past its ``last`` trick (its last is shown)."""
    said = f"The address asks for trick {md(quoted(asked, 20))}"
    if not _is_number(asked):
        st.warning(f"{said}, which is not a trick number: the deal is shown from its start.")
    elif int(asked) > last:
        st.warning(f"{said}, but the record has {counted(last, 'trick')}: the last one is "
                   "shown." if last else f"{said}, but the record has no play.")


def _is_number(text: str, digits: int | None = None) -> bool:
    """A whole number of ASCII digits (``str.isdigit`` takes ``²`` too), at most ``digits`` of
    them when given."""
    return text.isascii() and text.isdigit() and (digits is None or len(text) <= digits)


def _new_search() -> None:
    st.session_state[NEW_SEARCH] = True


def _label(r: dict[str, Any]) -> str:
    """A deal in the list: game, deal, board, variant, day, then its declarer and contract (each
    where it has one: a raspasy deal has neither, a conceded preliminary bid no contract)."""
    board = f" · board {r['board']}" if r.get("board") is not None else ""
    day = f" · {r['started_at']:%Y-%m-%d}" if r.get("started_at") else ""
    contract = call_words(r["contract"], r["variant"]) if r["contract"] else ""
    declared = " ".join(part for part in (r["declarer"] or "no declarer", contract) if part)
    return f"{r['game_id']} · deal {r['deal_no']}{board} · {r['variant']}{day} · {declared}"


def _label_off_the_page(key: str) -> str:
    """The label of a deal not on the list's page (opened by a link), as the list writes it."""
    found = _deal_key(key)
    detail = query("deal_detail", *found) if found else None
    if detail is None or detail.is_empty():
        return key.replace("#", " · deal ")
    row = detail.row(0, named=True)
    return _label({**row, "board": json.loads(row["record"]).get("board")})


def _deal_key(value: object) -> tuple[str, int] | None:
    """``(game_id, deal_no)`` of a select-box key ``game#n``; None for anything else."""
    game_id, mark, deal_no = str(value).rpartition("#")
    return (game_id, int(deal_no)) if mark and game_id and deal_no.isdigit() else None


def _choose() -> tuple[str, int] | None:
    """The search, the page of matching deals and the chosen deal.

    A deal keeps the label it was first shown with for the whole session: the browser names
    the choice by its label, so a label that changed between two runs (a deal from the URL or
    an earlier search that then shows up on the page) would no longer be found."""
    f = filters()
    c1, c2 = st.columns([3, 1])
    search = c1.text_input("Find a deal", key="replay_search", max_chars=200,
                           placeholder="game, board or deal number, player, day (YYYY-MM-DD)",
                           on_change=_new_search)
    total = query("card_deal_count", f, search)
    pages = max(1, -(-total // PAGE_ROWS))
    page_no = int(c2.number_input(f"Page (of {pages})", 1, pages, 1, key="replay_page"))
    deals = query("card_deals", f, search, PAGE_ROWS, (page_no - 1) * PAGE_ROWS)
    labels: dict[str, str] = st.session_state.setdefault(LABELS, {})
    keys = []
    for r in deals.iter_rows(named=True):
        keys.append(f"{r['game_id']}#{r['deal_no']}")
        labels.setdefault(keys[-1], _label(r))
    chosen = _chosen(labels)
    new_filters = st.session_state.get(LISTED, f) != f
    st.session_state[LISTED] = f
    new_search = st.session_state.pop(NEW_SEARCH, False) and search
    if (new_search or new_filters) and keys and chosen not in keys:
        chosen = st.session_state[DEAL] = keys[0]  # a new list that finds deals opens the first
        _reset_step()
    if chosen and chosen not in keys:  # a deal from the URL or an earlier page stays choosable
        keys.insert(0, chosen)
        if chosen not in labels:
            labels[chosen] = _label_off_the_page(chosen)
    if not keys:
        who = f"for {md(f.player)}" if f.player else "for these filters"
        why = ("only deals recorded with hands and play can be replayed (score-sheet records "
               "have no cards)")
        empty(f"No deals with cards {who}{' matching the search' if search else ''}: "
              + (f"{WIDEN}; {why}." if f.to_params() else f"{why}."), of_games=True)
        return None
    if total:
        st.caption(f"{counted(total, 'deal')} with cards {'matches' if total == 1 else 'match'};"
                   " this page shows "
                   f"{(page_no - 1) * PAGE_ROWS + 1:,} to {min(total, page_no * PAGE_ROWS):,}.")
    else:
        st.caption(f"No deal with cards {'matches the search' if search else 'for these filters'}"
                   "; only the deal open is listed.")
    picked = st.selectbox("Deal", keys, key=DEAL, format_func=labels.__getitem__,
                          on_change=_reset_step)
    return _deal_key(picked) or _deal_key(keys[0])


def _chosen(labels: dict[str, str]) -> str | None:
    """The deal chosen in the session, as a key of ``labels``; a value the browser sent back
    as a label is turned into its key, anything else is forgotten."""
    state = st.session_state
    value = state.get(DEAL)
    if value is None or value in labels or _deal_key(value):
        return value
    key = next((k for k, label in labels.items() if label == value), None)
    if key is None:
        del state[DEAL]
    else:
        state[DEAL] = key
    return key


VULNERABLE_WORDS = {"None": "nobody", "NS": "N-S", "EW": "E-W", "All": "both sides"}


def vulnerability(record: dict[str, Any]) -> str:
    """Who is vulnerable: the record's PBN value, else from a duplicate board's number (bridge.md
    6); rubber vulnerability comes from the rubber's state, not the record."""
    value = record.get("vulnerable")
    board = record.get("board")
    if value is None and isinstance(board, int) and board >= 1:
        value = board_vulnerable(board)
    return VULNERABLE_WORDS.get(str(value), "not recorded") if value else "not recorded"


def _headline(row: dict[str, Any], record: dict[str, Any], replay: Replay) -> None:
    parts = [md(row["variant"])]
    if record.get("board") is not None:
        parts.append(f"board {md(record['board'])}")
    parts.append(f"dealer {md(row['dealer'])}")
    if replay.partnerships:
        parts.append(f"vulnerable: {vulnerability(record)}")
    if row.get("event"):
        parts.append(md(row["event"]))
    if row.get("started_at"):
        parts.append(f"{row['started_at']:%Y-%m-%d}")
    st.caption(" · ".join(parts))


def _result(row: dict[str, Any], record: dict[str, Any], replay: Replay) -> None:
    result = query("deal_result", row["game_id"], int(row["deal_no"]))
    if not row["declarer"]:
        text = f"No declarer: {md(no_declarer(record, row['variant']))}."
        if isinstance(taken := record.get("tricks"), dict) and taken:
            text += " Tricks taken: " + ", ".join(f"{md(p)} {n}" for p, n in taken.items())
    else:
        made = result["made"][0] if result.height else None
        tricks = result["declarer_tricks"][0] if result.height else None
        verdict = {True: "made", False: "down"}.get(made, "result not scored")
        took = f", {counted(tricks, 'trick')}" if tricks is not None else ""
        contract = contract_words(record, row["variant"]) or "no contract"
        text = f"**{md(contract)}** by {md(row['declarer'])}: {verdict}{took}"
    if replay.claim is not None:
        text += f" · claimed: the declarer's side takes {counted(replay.claim, 'trick')} in all"
    st.markdown(text)
    if result.height:
        if replay.partnerships and result["score_ns"][0] is not None:
            st.caption(f"Score N-S {number(result['score_ns'][0], True)}")
        kept = kept_beside_cash(row["variant"])

        def beside(r: dict[str, Any]) -> str:  # a made Greek contract may cost chips: the kassa
            if kept is None or not r.get(kept[0]):
                return ""
            return f" ({kept[1]} {number(r[kept[0]], True)})"

        st.caption("Settled: " + ", ".join(
            f"{md(r['player'])} {cash(r['cash'], row['variant'])}{beside(r)}"
            for r in result.iter_rows(named=True)))


def _repaired(notes: list[tuple[str, str]], what: str) -> None:
    """The fixes a reader made to ``what`` of this deal when it was read (docs/ingest.md
    "Repairs"; all of them listed on the Data quality page), in words, escaped."""
    if notes:
        st.caption(f"Repaired when its file was read ({what}): " + "; ".join(
            f"**{md(words)}**" + (f" ({md(message)})" if message else "")
            for words, message in notes))


def _steps(last: int) -> int:
    """Start / Back / Forward / End (also the keys Home, left and right arrows, End:
    Streamlit's button shortcuts) and the slider; the number of tricks shown."""
    st.session_state[STEP] = min(int(st.session_state.get(STEP, 0)), last)
    b1, b2, b3, b4 = st.columns(4)
    b1.button("Start", key="replay_start", on_click=_reset_step, shortcut="Home")
    b2.button("◀ Back", key="replay_back", on_click=_move, args=(-1, last), shortcut="Left")
    b3.button("Forward ▶", key="replay_next", on_click=_move, args=(1, last), shortcut="Right")
    b4.button("End", key="replay_end", on_click=_move, args=(last, last), shortcut="End")
    return int(st.slider("Tricks played", 0, last, key=STEP))


@st.fragment
def _table(replay: Replay, variant: str, no_play: str) -> None:
    """The hands around the table, stepped trick by trick (:func:`_steps`); a step reruns this
    fragment alone, not the page. A deal without play has nothing to step: its hands as dealt
    and why it was not played (``no_play``)."""
    last = replay.steps
    asked = st.session_state.pop(ASKED_STEP, None)
    if asked is not None:
        _say_asked_step(asked, last)
    step = _steps(last) if last else 0
    if step:  # the position is in the address too: a reload or a shared link shows it
        st.query_params["trick"] = str(step)
    else:
        st.query_params.pop("trick", None)
    held = replay.hands_at(step)
    if last:
        taken = replay.taken_by_side(step)
        st.markdown(f"**After {step} of {counted(last, 'trick')}** · taken: "
                    + ", ".join(f"{md(p)} {n}" for p, n in taken.items()))
    else:
        st.markdown(f"**The hands as dealt** · no play: {md(no_play)}.")
    roles = {replay.declarer: "declarer", replay.dummy: "dummy",
             **dict.fromkeys(replay.sitting_out if last else (), "sits out")}
    seats = [render.seat_html(p, held.get(p, 0), variant, roles.get(p, ""))
             for p in replay.players]
    centre = "<em>no card played yet</em>"
    if step > 0:
        trick = replay.tricks[step - 1]
        if trick.winner:
            won = f"won by {render.escape(trick.winner)}"
        elif replay.claim is not None:
            won = "play stopped: claim"
        else:
            won = "play stopped here"
        centre = f"Trick {step} · {won}<br>" + render.trick_html(trick.cards, trick.winner,
                                                                  variant)
    elif last == 0:
        centre = "<em>no play</em>"
    st.html(render.table_html(seats, centre))
    if step == last > 0 and replay.claim is None and any(
            cards for p, cards in held.items() if p not in replay.sitting_out):
        st.caption(f"The record's play ends after trick {last}, with cards still in hand: "
                   "the rest was not played (the outcome was settled) or not recorded.")
    if replay.discard:
        st.caption("The declarer is shown holding the talon, less his discard.")


def _tricks(replay: Replay, variant: str, costs: dict[int, int]) -> pl.DataFrame:
    """Every trick; a card the review of play found costly is marked with the tricks it lost
    (``costs``: card number in play order, from 1 -> cost)."""
    numbers = iter(range(1, 1 + sum(len(t.cards) for t in replay.tricks)))

    def shown(player: str, c: int) -> str:
        cost = costs.get(next(numbers), 0)
        return f"{player}: {card_label(c, variant)}" + (f" (−{cost})" if cost else "")

    return pl.DataFrame({
        "trick": list(range(1, replay.steps + 1)),
        "cards": [" ".join(shown(p, c) for p, c in t.cards) for t in replay.tricks],
        "winner": [t.winner or ("claim" if replay.claim is not None else "not finished")
                   for t in replay.tricks],
    }, schema={"trick": pl.Int64, "cards": pl.String, "winner": pl.String})


def _tricks_taken(result: int | None) -> str:
    return "not recorded" if result is None else counted(result, "trick")


def _cost_is(first: dict[str, Any]) -> str:
    """What a card's cost means in this deal (docs/review.md): the declarer of a misère or a
    Bettel plays for the fewest tricks, so his side's loss is a trick taken."""
    if first.get("fewest"):
        return ("The declarer plays for the fewest tricks: a card's cost is the tricks more it "
                "made him take against best play (his cards), or the tricks fewer (the "
                "defence's).")
    return "A card's cost is the tricks its side lost against best play."


def _review(review: pl.DataFrame, variant: str) -> None:
    """The review of play of the deal (docs/review.md): every card with its cost, the best cards
    on request."""
    if review.is_empty():
        st.caption("Not reviewed open-hand yet (`trickbook analyse --play`).")
        return
    with st.expander("Review of play (open-hand)"):
        first = review.row(0, named=True)
        if first["value_start"] is None:  # all-pass play: valued per player (side 'self')
            st.caption("Every player for himself, each playing for the fewest tricks: a card's "
                       "cost is the tricks more it made the player who chose it take against "
                       "best play, the two others playing against him.")
        else:
            st.caption(f"Open-hand value at the start: {counted(first['value_start'], 'trick')}"
                       " for the "
                       f"declaring side; recorded result: {_tricks_taken(first['result'])}"
                       + (" (claimed)" if first["claimed"] else "") + ". " + _cost_is(first))
        best = st.toggle("Show the best cards", key="replay_best_cards")
        table = cards_in_words(review.with_columns(pl.lit(variant).alias("variant")))
        columns = ["card_no", "player", "side", "card", "cost", *(["best"] if best else [])]
        show(table.select(columns), "replay_review", labels={"card_no": "#"})


st.title("Hand replayer")
with guarded():
    _deal_from_url()
    chosen = _choose()
    if chosen is None:
        st.stop()
    game_id, deal_no = chosen
    detail = query("deal_detail", game_id, deal_no)
    if detail.is_empty():
        empty(f"No deal {deal_no} of game {md(game_id)} in the database.")
        st.stop()
    row = detail.row(0, named=True)
    params = {k: v for k, v in st.query_params.to_dict().items() if k not in ("game", "deal")}
    st.query_params.from_dict({**params, "game": game_id, "deal": str(deal_no)})
    record = json.loads(row["record"])
    replay = build(record, row["variant"], list(row["players"]))
    for problem in replay.problems:
        st.warning(md(problem))
    st.html(render.CSS)
    _headline(row, record, replay)
    _result(row, record, replay)
    fixes = repair_notes(query("deal_repairs", game_id, deal_no))
    _repaired(fixes.pop("deal", []), "the deal")
    if not row["has_cards"]:  # a link or an address can name a deal recorded without them
        _repaired(fixes.pop("auction", []) + fixes.pop("play", []), "the deal")
        empty("This deal was recorded without its cards (a score sheet or a traveller): "
              "there is nothing to replay, only its result above.")
        st.stop()
    _table(replay, row["variant"], why_no_play(record, row["variant"]))
    _repaired(fixes.get("play", []), "its play")
    left, right = st.columns(2)
    with left:
        st.markdown("**Auction**")
        st.html(render.auction_html(replay.players, replay.auction_grid()))
        _repaired(fixes.get("auction", []), "its auction")
    if replay.talon or replay.discard:
        with right:
            st.markdown("**Talon** and **discard**")
            st.html(render.cards_html(sorted(iter_cards(replay.talon), reverse=True),
                                      row["variant"]) + " &nbsp;·&nbsp; "
                    + render.cards_html(sorted(iter_cards(replay.discard), reverse=True),
                                        row["variant"]))
    if not replay.steps:  # no play: no tricks to list, no card to review
        st.stop()
    review = query("deal_review", game_id, deal_no)
    costs = {int(n): int(c) for n, c in zip(review["card_no"], review["cost"], strict=True)
             } if not review.is_empty() else {}
    with st.expander("All tricks"):
        if any(costs.values()):
            st.caption("(−n): the card cost its side n tricks against open-hand best play "
                       "(the review below says which way).")
        show(_tricks(replay, row["variant"], costs), "replay_tricks")
    _review(review, row["variant"])
