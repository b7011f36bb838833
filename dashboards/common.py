"""What every page shares: the database, cached queries, the URL-backed filters, rates and errors.

Pages call :func:`query` (``st.cache_data`` keyed by the query's name, its arguments and the
database file's modification time, so an ingest shows up on the next rerun) and never open the
database themselves. Every cache miss opens the file read-only, runs its query and closes it again
(:mod:`dashboards.db`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import duckdb
import polars as pl
import streamlit as st
from streamlit.errors import StreamlitAuthError

from dashboards import gate, queries, review
from dashboards.db import (
    FILL_IT,
    DatabaseError,
    DatabaseMissing,
    columns_lacking,
    db_path,
    db_version,
    read_only,
)
from dashboards.filters import REVERSED, Filters, from_params
from dashboards.pulya import as_img
from dashboards.rows import per_row
from dashboards.sheets import score_sheet, sheet_picture
from dashboards.stats import format_rate, with_rate
from dashboards.text import DASH, md, quoted, readable, rules_table, unit
from dashboards.uploads import WRITE_TOKEN_ENV, write_allowed, write_token_set
from model.variant import UnknownVariant
from scoring.registry import settlement
from scoring.stats import wilson

ALL = "(all)"
POSITIONS = ("dealer", "first hand", "second hand", "third hand")


class PageError(RuntimeError):
    """Shown to the user as an error box; the page stops there."""


class NothingYet(PageError):
    """No database yet, or one without tables: where every user starts, said as information
    with how to fill it (``dashboards.db.FILL_IT``), not as an error."""


@st.cache_data(show_spinner=False, max_entries=512, ttl=3600)
def _cached(name: str, db: str, version: float, args: tuple[Any, ...]) -> Any:
    fn = getattr(queries, name, None) or getattr(review, name)
    with read_only(Path(db)) as con:
        return fn(con, *args)


def query(name: str, *args: Any) -> Any:
    """Run ``queries.<name>`` (or ``review.<name>``) on the app's database, cached until the
    file changes."""
    path = db_path()
    try:
        return _cached(name, str(path), db_version(path), args)
    except DatabaseMissing as exc:
        raise NothingYet(str(exc)) from exc
    except DatabaseError as exc:
        raise PageError(str(exc)) from exc
    except duckdb.CatalogException as exc:
        raise PageError(
            f"the database {quoted(path.name)} lacks a table the dashboards read "
            f"(records.md section 2): {exc}"
        ) from exc
    except duckdb.BinderException as exc:
        raise _unbound(path, exc) from exc


def _unbound(path: Path, exc: duckdb.BinderException) -> PageError:
    """What a query that names a column the database lacks says: the columns an older
    trickbook's tables lack and what brings them up to date, or, where no declared column is
    missing, that the page's query failed (a fault of the page's, not of the data)."""
    lacking = columns_lacking(path)
    if lacking:
        more = f" and {len(lacking) - 3} more" if len(lacking) > 3 else ""
        return PageError(
            f"the database {quoted(path.name)} lacks columns the dashboards read "
            f"({', '.join(lacking[:3])}{more}): an older trickbook's database; run "
            "`trickbook score` on it once to bring it up to date")
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return PageError(
        f"this page could not read the database {quoted(path.name)} ({first}): a fault of the "
        "page, not of the data; the other pages still read it")


@contextmanager
def guarded(fill: str = FILL_IT) -> Iterator[None]:
    """Show a :class:`PageError` as a message and stop the page instead of a traceback; a
    database not there yet is said with ``fill``, how to fill it for this page."""
    try:
        yield
    except NothingYet as exc:  # the advice is ours, with its commands as code
        st.info(md(str(exc).removesuffix(FILL_IT)) + fill)
        st.stop()
    except PageError as exc:
        st.error(md(str(exc)))
        st.stop()


def _kept(key: str) -> str:
    """The session key that keeps a filter widget's value across pages.

    Streamlit forgets a widget's state when a page without that widget (or with its own copy of
    it) runs, so the value lives under a plain key and is handed back to the widget every run."""
    return f"_kept_{key}"


def _keep(key: str) -> None:
    st.session_state[_kept(key)] = st.session_state[key]


def _choice(label: str, options: list[str], key: str, wanted: str | None,
            problems: list[str], known: list[str] | None = None) -> str | None:
    """A select box of ``options`` (plus ALL). A wanted value that is not in the database
    (``known``, every value whatever the other filters; ``options`` when not given) is dropped
    and said; one that is, but has no games under the other filters (a player outside the
    chosen dates), stays chosen, with a note under the box: narrowing a filter does not lose
    another."""
    state = st.session_state
    known_set = set(options if known is None else known)
    if _kept(key) not in state:
        if wanted is not None and wanted not in known_set:
            problems.append(
                f"No {label.lower()} {md(quoted(wanted, 60))} in the database: showing all instead."
            )
            wanted = None
        state[_kept(key)] = wanted or ALL
    elif state[_kept(key)] != ALL and state[_kept(key)] not in known_set:
        state[_kept(key)] = ALL
    kept = state[_kept(key)]
    outside = kept != ALL and kept not in options
    choices = [ALL, *options, *([kept] if outside else [])]
    state[key] = kept
    picked = st.sidebar.selectbox(label, choices, key=key, on_change=_keep, args=(key,))
    if outside and picked == kept:
        st.sidebar.caption(f"No games of {md(kept)} for the other filters.")
    return None if picked == ALL else picked


def _person_wanted(name: str | None, labels: list[str], problems: list[str]) -> str | None:
    """The player a URL names: ``name`` where it is one of the ``labels``; else the label of
    the one person named so (``player=Anna`` under ``variant=greek-prefa`` is ``Anna
    (greek-prefa)``, the label that tells her from the bridge player Anna,
    ``ingest/players.py``); none where several are, said in ``problems``."""
    if name is None or name in labels:
        return name
    named = [label for label in labels
             if label.endswith(")") and label.rsplit(" (", 1)[0] == name]
    if len(named) > 1:
        problems.append(f"{md(quoted(name, 60))} names {len(named)} players ("
                        + ", ".join(md(label) for label in named)
                        + "): showing all instead; choose one in the sidebar.")
        return None
    return named[0] if named else name


def url_param(name: str) -> str | None:
    """A page's own choice as the URL the session opened on gave it (``?order=...``), once: the
    first call in a session returns it, later ones None (the widget keeps the choice from
    then on); an empty value (``?file=``) is none. Called before :func:`filters`, which
    rewrites the query string."""
    read: set[str] = st.session_state.setdefault("_url_params_read", set())
    if name in read:
        return None
    read.add(name)
    return st.query_params.get(name) or None


def keep_in_url(name: str, value: str | None, default: str | None = None) -> None:
    """A page's own choice written into the URL beside the filters (left out at its default),
    so that a reload or a shared link shows the same; called after :func:`filters`."""
    if value is None or value == default:
        st.query_params.pop(name, None)
    else:
        st.query_params[name] = value


LINK_SHOWN = 60
"""Characters of a link's value that :func:`unknown` quotes; a longer one is cut, with "…"."""


def unknown(what: str, wanted: str | None, known: set[str], where: str,
            said: Callable[[str], str] = str, showing: str | None = None) -> None:
    """Say that the link names a ``what`` (``wanted``) that is not ``where`` (none of ``known``),
    so the page shows ``showing`` (default: every one): ``wanted`` quoted as ``said`` writes
    it, and escaped."""
    if wanted is not None and wanted not in known:
        st.warning(f"The link names the {what} {md(quoted(said(wanted), LINK_SHOWN))}, which "
                   f"is not {where}: showing {showing or f'every {what}'}.")


def url_choice(label: str, options: list[Any], key: str, wanted: str | None,
               param: str, shown: Callable[[Any], str] = str,
               in_url: Callable[[Any], Any] | None = None, help: str | None = None,
               named: tuple[str, str] | None = None) -> Any:
    """A select box of the page's own kept in the URL as ``param`` (:func:`keep_in_url`, left
    out at the first option), opened on ``wanted`` (the URL's, :func:`url_param`) where it is
    one of ``options``, else on the page's last choice in this session (:func:`_kept`: the
    widget's own state is gone once another page has run), so leaving the page and coming back
    keeps it. ``shown`` writes an option in the box; the URL keeps the option itself, or
    ``in_url`` of it (a file as the page shows it, not the server's path). ``named``: what an
    option is and where the options are, to say (:func:`unknown`) that the link names one that
    is not there, when the box opens (an old link's ``?contract=4SX`` opened another contract
    without a word)."""
    state = st.session_state
    said = in_url or (lambda option: option)
    if key not in state:
        asked = next((o for o in options if wanted is not None and said(o) == wanted), None)
        opened = next((c for c in (asked, state.get(_kept(key))) if c in options), None)
        if opened is not None:
            state[key] = opened
        if named is not None and options:
            unknown(named[0], wanted, {said(o) for o in options}, named[1],
                    showing=md(shown(options[0] if opened is None else opened)))
    value = st.selectbox(label, options, key=key, format_func=shown, help=help)
    state[_kept(key)] = value
    keep_in_url(param, None if value is None else said(value),
                default=said(options[0]) if options else None)
    return value


def kept_filters(variant: str | None = None) -> Filters:
    """The shared filters as this session keeps them (:func:`filters`, drawn on another page),
    with ``variant`` chosen where given; for a page that does not draw them, to keep them in its
    URL. A session that opens on such a page takes them from its URL, as :func:`filters` would,
    so that the next page shows them too (a page switch drops the URL's)."""
    state = st.session_state
    if not state.get("_filters_read"):
        wanted, _ = from_params(st.query_params.to_dict())
        state["_filters_read"] = True
        for key, value in (("f_variant", wanted.variant), ("f_league", wanted.league),
                           ("f_player", wanted.player)):
            state[_kept(key)] = value or ALL
        state[_kept("f_from")], state[_kept("f_to")] = wanted.date_from, wanted.date_to
    if variant is not None:
        state[_kept("f_variant")] = variant

    def chosen(key: str) -> str | None:
        value = state.get(_kept(key))
        return None if value in (None, ALL) else str(value)

    return Filters(chosen("f_variant"), chosen("f_league"), state.get(_kept("f_from")),
                   state.get(_kept("f_to")), chosen("f_player"))


def filters() -> Filters:
    """Draw the shared filters in the sidebar and keep them in the URL (``st.query_params``).

    The first run of a session reads them from the URL (a bookmarked or shared view); afterwards
    the last choice is kept in the session (:func:`_kept`), so switching pages keeps the filters,
    and every run writes them back into the URL, so a reload keeps them too.
    """
    state = st.session_state
    problems: list[str] = []
    wanted = Filters()
    if not state.get("_filters_read"):
        wanted, problems = from_params(st.query_params.to_dict())
        state["_filters_read"] = True
    st.sidebar.header("Filters")
    variant = _choice("Variant", query("variants")["variant"].to_list(), "f_variant",
                      wanted.variant, problems)
    league = _choice("League", query("leagues", Filters(variant=variant))["league"].to_list(),
                     "f_league", wanted.league, problems,
                     known=query("leagues", Filters())["league"].to_list())
    date_from, date_to = _dates(wanted)
    if date_from and date_to and date_from > date_to:  # as a URL's range is (``from_params``)
        date_from, date_to = date_to, date_from
        problems.append(REVERSED)
    base = Filters(variant=variant, league=league, date_from=date_from, date_to=date_to)
    people = query("players", base)["player"].to_list()
    player = _choice("Player", people, "f_player", _person_wanted(wanted.player, people, problems),
                     problems, known=query("players", Filters())["player"].to_list())
    current = Filters(variant, league, date_from, date_to, player)
    st.query_params.from_dict(current.to_params())
    for problem in problems:
        st.warning(problem)
    return current


def _dates(wanted: Filters) -> tuple[date | None, date | None]:
    """The date range, in a sidebar expander (open at first when the session began with a
    date): its two date boxes are drawn, and the browser loads their code, only while it is
    open, so a first page does not pay for them; closed, the kept range applies and is named
    under it."""
    state = st.session_state
    for key, value in (("f_from", wanted.date_from), ("f_to", wanted.date_to)):
        if _kept(key) not in state:
            state[_kept(key)] = value
    kept = state[_kept("f_from")], state[_kept("f_to")]
    # Open at first when the session began with a date (``expanded`` is part of the widget's
    # identity: it must not change while the user types dates in).
    opened = state.setdefault("_dates_open_first", any(kept))
    box = st.sidebar.expander("Dates", expanded=opened, key="f_dates", on_change="rerun")
    if not box.open:
        if any(kept):
            st.sidebar.caption(f"Games from {kept[0] or 'the first'} to {kept[1] or 'the last'}")
        return kept
    low, high = query("date_span")
    with box:
        return (_date_input("From", "f_from", low, high), _date_input("To", "f_to", low, high))


def _date_input(label: str, key: str, low: date | None, high: date | None) -> date | None:
    st.session_state[key] = st.session_state[_kept(key)]
    value = st.date_input(label, key=key, min_value=date(1900, 1, 1),
                          max_value=date(2100, 12, 31), on_change=_keep, args=(key,),
                          help=f"games from {low} to {high}" if low else None)
    return value if isinstance(value, date) else None


def rates(frame: pl.DataFrame, hits: str, n: str) -> pl.DataFrame:
    """The frame with ``rate``, its Wilson 95% bounds and a readable ``rate (n, CI)`` column."""
    out = with_rate(frame, hits, n)
    text = [
        "— (not a rate)" if h is None else format_rate(int(h), int(k or 0))
        for h, k in zip(out[hits], out[n], strict=True)
    ]
    return out.with_columns(pl.Series("rate (n, 95% CI)", text, pl.String))


def rate_metric(container: Any, label: str, hits: int, n: int, help: str | None = None) -> None:
    """A metric showing the rate, with its n and Wilson 95% interval written under it."""
    if n <= 0:
        container.metric(label, "—", help=help)
        container.caption("n=0: nothing to count")
        return
    low, high = wilson(hits, n)
    container.metric(label, f"{100 * hits / n:.0f}%", help=help)
    container.caption(f"n={n:,} · 95% CI {100 * low:.0f}–{100 * high:.0f}%")


def position_name(position: int) -> str:
    return POSITIONS[position] if 0 <= position < len(POSITIONS) else f"seat +{position}"


def player_link(f: Filters, person: str) -> str:
    """The Player page of ``person`` (his label) under the filters ``f`` (relative, as
    :func:`deal_link`)."""
    return "player?" + urlencode({**f.to_params(), "player": person})


def deal_link(game_id: str, deal_no: int, f: Filters | None = None) -> str:
    """The replayer's address of one deal under the filters ``f`` (relative, so it works behind
    any host or proxy): a link opened in a new tab starts a session from its URL alone, and
    without them the sidebar there read "(all)"."""
    return "replayer?" + urlencode({**(f.to_params() if f else {}), "game": game_id,
                                    "deal": int(deal_no)})


REPLAY_COLUMN = {"replay": st.column_config.LinkColumn("replay", width="medium",
                                                      display_text="open in the replayer")}
"""How a table shows the ``replay`` column of :func:`replay_links`."""


def replay_links(frame: pl.DataFrame, f: Filters | None) -> pl.Series:
    """The ``replay`` column of ``frame``: each row's :func:`deal_link` (columns ``game_id``,
    ``deal_no``), empty for a deal recorded without its cards where the frame says which
    (``has_cards``): the replayer has nothing to show of one."""
    if "has_cards" not in frame.columns:
        return per_row(frame, "replay", ("game_id", "deal_no"),
                       lambda game, deal: deal_link(game, deal, f))
    return per_row(frame, "replay", ("game_id", "deal_no", "has_cards"),
                   lambda game, deal, cards: deal_link(game, deal, f) if cards else "")


NOT_AMOUNTS = frozenset({"season", "year", "deal", "deal_no", "board", "line", "version",
                         "seed", "rank", "card_no", "trick", "#"})
"""Number columns that name a thing rather than count or measure it: shown without thousands
separators (season 2026, not 2,026)."""


def kept_beside_cash(variant: str) -> tuple[str, str] | None:
    """The column and the name of what ``variant``'s settlement keeps beside the cash
    (``Settlement.ledger``: the Greek kassa, ``("kassa_delta", "kassa")``), or ``None`` where it
    keeps nothing, or the variant is not one this version knows."""
    try:
        return settlement(variant).ledger
    except (KeyError, UnknownVariant):
        return None


def show(frame: pl.DataFrame, key: str, missing: dict[str, str] | None = None,
         labels: dict[str, str] | None = None, numbers: tuple[str, ...] = (),
         **config: Any) -> None:
    """A table as a user reads it (:func:`dashboards.text.readable`: human labels, no None or
    NaN, numbers rounded; amounts with the reader's thousands separators, as the pages' own
    figures have them, still sorted as numbers), without the index. The columns in ``numbers``
    stay numbers where some are missing (the table draws those as a dash); such a table goes
    to the browser as Arrow, since pandas would make an integer column with gaps a float one."""
    shown = readable(frame, missing=missing, labels=labels, numbers=numbers)
    config.setdefault("placeholder", DASH)
    columns = dict(config.pop("column_config", None) or {})
    for name, title in zip(frame.columns, shown.columns, strict=True):
        if (shown[title].dtype.is_numeric() and name not in NOT_AMOUNTS
                and title not in NOT_AMOUNTS and title not in columns):
            columns[title] = st.column_config.NumberColumn(title, format="localized")
    st.dataframe(shown.to_arrow() if numbers else shown, hide_index=True, key=key,
                 column_config=columns, **config)


WIDEN = "widen the date range or choose another league, variant or player"
"""What a page that finds nothing for the filters asks of a user who set some."""
NO_GAMES = ("The database holds no games yet: add files on the Upload page or a score sheet on "
            "the Entry page.")
"""Said by a page that finds nothing where no filter could be the cause (:func:`empty`)."""


def empty(message: str, of_games: bool = False) -> None:
    """An empty state that says what is missing; ``of_games``: the page found no games or deals
    for the filters, which the database may not hold at all (then :data:`NO_GAMES` says so)."""
    st.info(NO_GAMES if of_games and query("variants").is_empty() else message)


def draw_game(game_id: str, key: str, f: Filters | None = None) -> None:
    """One game: its players, rules, score sheet (drawn as its players draw it,
    :mod:`dashboards.sheets`) and standings; ``key`` prefixes the tables' keys, ``f`` the
    filters its rows' replayer links keep."""
    info = query("game_info", game_id)
    if info.is_empty():
        empty(f"The game {md(game_id)} is no longer in the database.")
        return
    game = info.row(0, named=True)
    players = list(game["players"])
    started = f"{game['started_at']:%Y-%m-%d %H:%M} UTC" if game["started_at"] else "undated"
    st.caption(f"{md(game['variant'])} · {', '.join(md(p) for p in players)} (turn order) · "
               f"{started}")
    with st.expander("Rules of this game"):
        show(rules_table(game["rules"], game["variant"]), f"{key}_rules")
    rows = query("game_sheet", game_id)
    if rows.is_empty():  # no sheet and no standings: an empty table would read "empty"
        empty("This game has no settled deals yet: its score sheet is empty.")
        return
    sheet = score_sheet(rows, game["variant"], players)
    carded = set(rows.filter(pl.col("has_cards"))["deal_no"].to_list())
    sheet = sheet.with_columns(per_row(
        sheet, "replay", ("deal",), lambda n: deal_link(game_id, n, f) if n in carded else ""),
    ).select("replay", pl.exclude("replay"))  # first, as on My deals: a wide sheet cut it off
    st.caption(f"Money in {unit(game['variant'])}; open a deal recorded with its cards in the "
               "replayer from its row.")
    picture = sheet_picture(game["variant"], rows, query("game_pairwise", game_id), players,
                            game["rules"])
    if picture is not None:  # at its own size above the sheet: beside it, it was too small
        st.html(as_img(picture, f"the pulya of {game_id}"))  # to read (6 px figures)
        st.caption("Pool (inside), hill and the whists written on each opponent, each "
                   "value after a change; the pool target in the centre.")
    show(sheet, f"{key}_sheet", missing={"replay": ""}, column_config=REPLAY_COLUMN)
    show(query("game_standings", game_id), f"{key}_game_standings",
         labels={"cash": f"cash ({unit(game['variant'])})"})


def write_gate(key: str, action: str, done: str) -> None:
    """Stop the page unless the user may write (:mod:`dashboards.gate`): nothing configured, a
    logged-in writer (Streamlit's login), or the club's write token typed into the password box
    ``key``. ``action`` names what is asked for (``Adding files``), ``done`` what cannot happen
    without it (``uploaded``). A token accepted is kept for the session (:func:`_token_kept`)."""
    user = st.user.to_dict()
    state = gate.login(user, gate.writers(_secrets() if "is_logged_in" in user else None))
    token = write_token_set()
    if state == "writer" or (_token_kept(key) if token else state == "off"):
        if state == "writer":
            st.caption(f"Writing as {md(str(user.get('email') or user.get('name') or ''))}.")
        return
    if state == "out":
        st.info(f"{action} needs a club member's login"
                + (" or the club's write token" if token else "")
                + "; every page can be viewed without it.")
        st.button("Log in", key=f"{key}_login", type="primary", on_click=_log_in, args=(key,))
        failed = st.session_state.pop(f"{key}_login_failed", None)
        if failed:
            st.error(f"The login is not available: {md(failed)}")
    elif state == "not a writer":
        st.warning(f"{md(str(user.get('email') or 'This account'))} is not among the club's "
                   f"writers ({gate.WRITERS_ENV}): nothing can be {done} with it.")
        st.button("Log out", key=f"{key}_logout", on_click=st.logout)
    if token:
        _token_box(key, action, done)
    st.stop()


def _token_kept(key: str) -> bool:
    """Whether the club's write token was typed into the box ``key`` in this session. An accepted
    token is kept under a key of its own: once the page opens, the box is no longer drawn, and
    Streamlit drops an undrawn widget's state at the end of the run, which asked for the token
    again at the user's next click."""
    kept = f"{key}_accepted"
    if write_allowed(st.session_state.get(key)):
        st.session_state[kept] = st.session_state[key]
    return write_allowed(st.session_state.get(kept))


def _token_box(key: str, action: str, done: str) -> None:
    st.text_input("Club write token", type="password", key=key,
                  help=f"{action} needs this club's write token ({WRITE_TOKEN_ENV})")
    if st.session_state.get(key):
        st.error(f"That is not the club's write token: nothing can be {done}.")
    else:
        st.info(f"{action} needs the club's write token; every page can be viewed without it.")


def _secrets() -> dict[str, Any]:
    """``secrets.toml`` as a plain mapping (empty without one)."""
    try:
        return st.secrets.to_dict()
    except FileNotFoundError:
        return {}


def _log_in(key: str) -> None:
    """``st.login`` with the ``[auth]`` provider; why it cannot start (Authlib missing, an
    incomplete ``[auth]``) is said on the page instead of a traceback."""
    try:
        st.login()
    except StreamlitAuthError as exc:
        st.session_state[f"{key}_login_failed"] = str(exc)
