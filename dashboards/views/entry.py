"""Entry: the scorer of a table enters a game as it is played (``dashboards.entry``).

First the game (variant, players in seat order, house rules from the variant's rules model and
its presets), then each deal with the variant's deal fields; every record is checked as it is
typed by ingest's own validation (its code and message shown beside the form), and a good one is
written through the ingest entry point, scored at once, and drawn in the game's sheet and
standings below. Typing a stored deal's number again corrects it: a new version that supersedes
the stored one, the earlier kept and listed under "Versions". Writing needs the club's write
token or a writer's login when one is configured (``dashboards/gate.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import polars as pl
import streamlit as st

from dashboards import entry
from dashboards.common import (
    PageError,
    draw_game,
    empty,
    guarded,
    show,
    url_choice,
    url_param,
    write_gate,
)
from dashboards.db import DatabaseError, DatabaseMissing, db_path, read_only
from dashboards.forms import ask
from dashboards.text import md, quoted
from ingest.source import Issue
from model.problems import Code
from model.variants import registered
from model.variants import variant as lookup

T = TypeVar("T")
NEW = "(new game)"


def read(fn: Callable[..., T], *args: Any, default: T) -> T:
    """``fn(con, *args)`` on a read-only connection; ``default`` while there is no database."""
    try:
        with read_only(db_path()) as con:
            return fn(con, *args)
    except DatabaseMissing:
        return default
    except DatabaseError as exc:
        raise PageError(str(exc)) from exc


def verdict(record: dict[str, Any]) -> Issue | None:
    """Ingest's verdict on a typed record: the issue, or ``None`` when it would be stored."""
    found = read(entry.check, record, default=None)
    if found is None:
        found = entry.validate(record, lambda _gid: None)
    return found if isinstance(found, Issue) else None


def said() -> None:
    """What the last write did (kept across the rerun that follows it). Its place is kept when
    there is nothing to say, so the form below does not move when the message goes."""
    slot = st.empty()
    last = st.session_state.pop("entry_said", None)
    if last is not None:
        ok, text = last
        (slot.success if ok else slot.error)(md(text))


def pick(key: str, value: Any) -> None:
    """Set widget ``key`` on the next run (a widget's value cannot change after it is drawn)."""
    st.session_state.setdefault("entry_next", {})[key] = value


def rules_form(variant_name: str) -> dict[str, Any]:
    """The house rules, each field of the rules model as a widget (defaults: the preset's)."""
    v = lookup(variant_name)
    preset = None
    if v.presets:
        preset = st.selectbox("Preset", [None, *v.presets], key=f"entry_preset_{v.name}",
                              format_func=lambda p: "(the spec's defaults)" if p is None
                              else v.presets.get(p, p),
                              help="A known club's house rules: the rules below start from "
                                   "them, and each can still be changed.")
    base = entry.preset_rules(v, preset)
    values = {f.name: ask(f, f"entry_rule_{v.name}_{preset}_{f.name}", [],
                          getattr(base, f.name, None))
              for f in entry.rule_fields(v)}
    return entry.rules_given(v, preset, values)


def new_game(entered: list[str]) -> None:
    """The form of a new game (``entered``: the games entered on this page, the Game box's)."""
    started: datetime = st.session_state.setdefault(
        "entry_started", datetime.now(UTC).replace(second=0, microsecond=0))
    names = [v.name for v in registered()]
    name = st.selectbox("Variant", names, key="entry_variant")
    game_id = st.text_input("Game id", value=f"table-{started:%Y%m%d-%H%M}",
                            max_chars=entry.GAME_ID_CHARS,
                            key="entry_game_id").strip()
    typed = st.text_input("Players, in seat order, separated by commas", key="entry_players",
                          placeholder="Anna, Boris, Chris")
    players, blank = entry.players_of(typed), entry.blank_seats(typed)
    league = st.text_input("League (optional)", key="entry_league").strip() or None
    with st.expander("House rules"):
        rules = entry.seated(lookup(name), rules_form(name), players)
    record = entry.game_record(lookup(name), game_id, players, rules, started, league)
    issue = verdict(record)
    if not game_id:
        st.info("Type the game's id: any name the table will know it by.")
    elif not players:
        st.info("Type the players to check the game line.")
    elif blank:
        seats = " and ".join(str(seat) for seat in blank)
        st.error(f"The name of the player in seat {seats} is blank: type it, or remove its "
                 "comma.")
    elif issue is not None and issue.code is Code.GAME_CONFLICT:
        other = " and ".join(read(entry.differing_from_stored, record, default=[]))
        st.error(f"A game {md(quoted(game_id))} is stored already"
                 f"{f', with {other}' if other else ''}: choose another id"
                 + (", or choose that game above to enter its deals." if game_id in entered
                    else ". It was not entered on this page but read from a file or "
                    "simulated: its deals come from there."))
    elif issue is not None:
        st.error(md(entry.message(issue, lookup(name))))
    else:
        st.success("The game line is valid: start the game to enter its deals.")
        if alike := entry.alike_names(players):
            st.warning(f"{md(alike)} differ only in capitals: they are two players to the "
                       "records. If they are one, type the name once.")
    if st.button("Start the game", key="entry_start", type="primary",
                 disabled=issue is not None or bool(blank)):
        written = entry.write(db_path(), record)
        st.session_state["entry_said"] = (written.ok, written.text)
        if written.ok:
            pick("entry_game", game_id)
            del st.session_state["entry_started"]  # the next new game gets its own time
        st.rerun()


def deal_form(game: dict[str, Any]) -> None:
    """The next deal (or a stored one, to correct it), checked as it is typed."""
    gid, players, v = game["game_id"], list(game["players"]), lookup(game["variant"])
    none: dict[int, dict[str, Any]] = {}
    stored = read(entry.stored_deals, gid, default=none)
    coming = max(stored, default=0) + 1
    if "entry_deal_no" not in st.session_state:  # a value given and kept in the state: a warning
        st.session_state["entry_deal_no"] = coming
    no = int(st.number_input("Deal", min_value=1, step=1, key="entry_deal_no"))
    before = stored.get(no, {})
    slot = st.empty()  # a place kept for the note, so the form does not move with it
    if before:
        slot.info(f"Deal {no} is stored: saving it again stores a new version that supersedes "
                  "it (the stored one is kept as an earlier version).")
    elif no > coming:
        missing = f"Deal {coming} is" if no == coming + 1 else f"Deals {coming} to {no - 1} are"
        slot.warning(f"{missing} not entered yet: deal {no} leaves a gap in the sheet until "
                     f"{'it is' if no == coming + 1 else 'they are'} entered.")
    form, check = st.columns([3, 2])
    values: dict[str, Any] = {}
    with form:
        fields = entry.deal_fields(v)
        flags = [f for f in fields if f.kind == "flag" and not f.per_player]
        for f in [f for f in fields if f.kind not in entry.CARD_KINDS and f not in flags]:
            start = before.get(f.name)
            if start is None and f.name == "dealer":
                start = players[(no - 1) % len(players)]
            if start is None and f.name == "board":  # a duplicate session's boards in order
                start = no
            asked = ([p for p in players if p != values.get("declarer")]
                     if f.name in v.by_defenders else None)
            if asked is None or values.get("declarer") is not None:  # defenders of a contract
                values[f.name] = ask(f, f"entry_d{no}_{f.name}", players, start, asked=asked)
        for f, col in zip(flags, st.columns(len(flags)) if flags else [], strict=True):
            values[f.name] = ask(f, f"entry_d{no}_{f.name}", players, before.get(f.name), col)
        with st.expander("Cards (optional)", expanded=any(
                before.get(f.name) for f in fields if f.kind in entry.CARD_KINDS)):
            st.caption("Cards as the records name them (AS, 10H or TH ...), separated by spaces; "
                       "the auction and the play as player and call or card, in order, "
                       "separated by commas. Left blank, the deal is stored without them; "
                       "typed, they are checked as an ingested file's are.")
            for f in [f for f in fields if f.kind in entry.CARD_KINDS]:
                values[f.name] = ask(f, f"entry_d{no}_{f.name}", players, before.get(f.name))
    record = entry.deal_record(gid, no, values)
    issue = verdict(record)
    idle: list[str] = []
    if issue is not None and issue.code is Code.TRICK_COUNT:  # a passer's 0 typed
        lighter, zeros = entry.without_zero_tricks(record)
        if zeros and verdict(lighter) is None:
            record, issue, idle = lighter, None, zeros
    # a new deal as first drawn (its dealer, or board, and nothing typed): what it lacks is
    # said as what to type, not as an error (a Russian deal without a declarer is raspasy,
    # which needs everyone's tricks)
    blank = None if before else st.session_state.setdefault(f"entry_blank_{gid}_{no}", record)
    with check:
        if issue is not None and record == blank:
            lacks = entry.message(issue, v)
            st.info(f"Type deal {no}: its declarer, contract and tricks. "
                    f"{md(lacks[:1].upper() + lacks[1:])}.")
        elif issue is not None:
            said = entry.message(issue, v)
            blank = entry.blank_boxes(fields, values, said)
            st.error(md(f"{said.rstrip('.')}. {blank}" if blank else said))
            st.caption("Nothing is stored while the deal has a problem.")
        elif record == blank:  # valid untouched: a deal nobody declared, if that is what it was
            st.info(f"Type deal {no}: its declarer, contract and tricks; saved as it is, it is "
                    "a deal nobody declared.")
        else:
            nobody = "" if record.get("declarer") else ": nobody declared"
            left_out = (f" The 0 tricks of {md(', '.join(idle))}, who did not play, are left "
                        "out." if idle else "")
            st.success(f"Deal {no} is valid{nobody}.{left_out}")
        if st.button(f"Save deal {no}", key="entry_save", type="primary",
                     disabled=issue is not None):
            written = entry.write(db_path(), record)
            st.session_state["entry_said"] = (written.ok, written.text)
            if written.ok:
                pick("entry_deal_no", max(coming, no + 1))  # on to the next new deal
            st.rerun()


def versions(game_id: str) -> None:
    found = read(entry.versions, game_id, entry.folder_of(db_path()), default=None)
    if found is None or found.is_empty():
        return
    corrected = found.filter(pl.col("version") > 1)["deal"].unique()
    st.subheader("Versions")
    if corrected.is_empty():
        st.caption("No deal has been corrected: each is stored as first typed.")
        return
    st.caption("Every version of the corrected deals: the stored one and the earlier ones it "
               "supersedes (kept in the ingest log and the uploads folder).")
    show(found.filter(pl.col("deal").is_in(corrected.to_list())), "entry_versions",
         labels={"entered_at": "entered (UTC)", "changed": "changed from the version before",
                 "as_typed": "as typed"})


st.title("Entry")
st.markdown("Enter a game as it is played: the game and its players first, then each deal. "
            "Every deal is checked as you type with the same rules and messages as an ingested "
            "file; a deal with a problem stores nothing. Saved deals are scored at once.")
write_gate("entry_token", "Entering games", "entered")
for key, value in st.session_state.pop("entry_next", {}).items():
    st.session_state[key] = value
with guarded():
    games = read(entry.entry_games, default=None)
    ids = [] if games is None else games["game_id"].to_list()
    chosen = url_choice("Game", [NEW, *ids], "entry_game", url_param("game"), "game",
                        named=("game", "among the games entered on this page"))
    if st.session_state.get("entry_for") != chosen:  # another game: its deals start afresh
        for key in [k for k in st.session_state if str(k).startswith("entry_d")]:
            del st.session_state[key]
        st.session_state["entry_for"] = chosen
    said()
    if chosen == NEW or games is None:
        st.subheader("New game")
        if not ids:
            empty("No game has been entered on this page yet: start one here.")
        new_game(ids)
        st.stop()
    game = games.filter(pl.col("game_id") == chosen).row(0, named=True)
    st.subheader(f"Deal of {md(chosen)}")
    deal_form(game)
    st.subheader("Score sheet")
    draw_game(chosen, "entry")
    versions(chosen)
