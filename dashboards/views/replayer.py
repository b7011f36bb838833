"""Hand replayer: any deal that has its cards, drawn as cards, stepped trick by trick.

Reads the canonical record (records.md 1.2: hands, talon, auction, discard, play) of one deal;
the model is :mod:`dashboards.replay`, the drawing :mod:`dashboards.render`.
"""

from __future__ import annotations

import json

import streamlit as st

from dashboards import render
from dashboards.common import empty, filters, guarded, query
from dashboards.replay import build, card_label
from model.cards import iter_cards

STEP = "replay_step"


def _reset_step() -> None:
    st.session_state[STEP] = 0


def _move(delta: int, last: int) -> None:
    st.session_state[STEP] = min(last, max(0, int(st.session_state.get(STEP, 0)) + delta))


st.title("Hand replayer")
with guarded():
    f = filters()
    deals = query("card_deals", f)
    if deals.is_empty():
        who = f"for {f.player}" if f.player else "for these filters"
        empty(f"No deals with cards {who}: only deals recorded with hands and play can be "
              "replayed (score-sheet records have no cards).")
        st.stop()
    keys = [f"{r['game_id']}#{r['deal_no']}" for r in deals.iter_rows(named=True)]
    labels = {
        f"{r['game_id']}#{r['deal_no']}":
            f"{r['game_id']} · deal {r['deal_no']} · {r['variant']} · "
            f"{r['declarer'] or 'no declarer'} {r['contract'] or ''}"
        for r in deals.iter_rows(named=True)
    }
    picked = st.selectbox("Deal", keys, key="replay_deal", format_func=lambda k: labels[k],
                          on_change=_reset_step)
    game_id, _, deal_no = str(picked).rpartition("#")
    detail = query("deal_detail", game_id, int(deal_no))
    if detail.is_empty():
        empty("This deal is no longer in the database.")
        st.stop()
    row = detail.row(0, named=True)
    record = json.loads(row["record"])
    replay = build(record, row["variant"], list(row["players"]))
    for problem in replay.problems:
        st.warning(problem)
    st.html(render.CSS)
    st.caption(f"{row['variant']} · dealer {row['dealer']} · declarer "
               f"{row['declarer'] or 'none'} · contract {row['contract'] or 'none'}")

    left, right = st.columns([2, 1])
    with right:
        st.markdown("**Auction**")
        if replay.auction:
            st.dataframe([{"player": p, "call": c} for p, c in replay.auction],
                         hide_index=True, key="replay_auction")
        else:
            st.caption("not recorded")
        st.markdown("**Talon**")
        st.html(render.cards_html(sorted(iter_cards(replay.talon), reverse=True), row["variant"]))
        st.markdown("**Discard**")
        st.html(render.cards_html(sorted(iter_cards(replay.discard), reverse=True),
                                  row["variant"]))

    last = replay.steps
    if STEP not in st.session_state or st.session_state[STEP] > last:
        st.session_state[STEP] = 0
    with left:
        b1, b2, b3 = st.columns(3)
        b1.button("◀ Back", key="replay_back", on_click=_move, args=(-1, last),
                  disabled=last == 0)
        b2.button("Forward ▶", key="replay_next", on_click=_move, args=(1, last),
                  disabled=last == 0)
        b3.button("Start", key="replay_start", on_click=_reset_step)
        step = int(st.slider("Tricks played", 0, max(last, 1), key=STEP, disabled=last == 0))
        taken = replay.taken_at(step)
        held = replay.hands_at(step)
        if replay.discard:
            st.caption("The declarer is shown holding the talon, less his discard.")
        st.markdown(f"**After {step} of {last} tricks** · taken: "
                    + ", ".join(f"{p} {n}" for p, n in taken.items()))
        html = "".join(
            render.hand_html(p, held.get(p, 0), row["variant"],
                             "declarer" if p == replay.declarer else "")
            for p in replay.players
        )
        st.html(html)
        if step > 0:
            trick = replay.tricks[step - 1]
            st.markdown(f"**Trick {step}** · won by {trick.winner or '(incomplete)'}")
            st.html(render.trick_html(trick.cards, trick.winner, row["variant"]))
        elif last == 0:
            empty("This deal has no recorded play: only the hands can be shown.")
    with st.expander("All tricks"):
        st.dataframe(
            [{"trick": i + 1, "cards": " ".join(f"{p}:{c}" for p, c in
                                               ((p, card_label(c, row["variant"]))
                                                for p, c in t.cards)),
              "winner": t.winner} for i, t in enumerate(replay.tricks)],
            hide_index=True, key="replay_tricks",
        )
