"""Columnar fast path for score-sheet Greek Prefa deals in JSON Lines (``docs/ingest.md``).

Per-record pydantic validation is the reference; this path only *accepts*. It takes the lines of a
batch as one polars column and accepts a line when

1. its text has the exact shape of a plain score-sheet deal, keys in the order of records.md 1.2
   (``record, game_id, deal_no, dealer[, declarer, contract, defence[, tricks]]``), ``": "`` or
   ``":"`` and ``", "`` or ``","`` as separators, no nulls, no flags, no cards, names and ids
   without quotes, backslashes or control characters (checked by one regular expression);
2. its game is a known Greek Prefa game (players, ``ten_nt``, ``all_pass = redeal``);
3. it passes, column by column, the rules ``model/greek/check.py`` applies to such a deal: every
   name is a player, a four-player dealer sits out, the defenders are exactly the two after the
   declarer, their decisions a legal pair (greek-prefa.md 6.1), tricks belong to exactly the
   players in the play and sum to ten (7), ``10NT`` only with ``ten_nt`` (5.1, 14).

Every other line goes to the pydantic path, so issues and their messages are the reference's.
``tests/ingest/test_fastpath.py`` holds, by hypothesis, that an accepted line is accepted by the
reference with the same canonical JSON, deal key and ``deals_greek`` row.
"""

from __future__ import annotations

import hashlib

import polars as pl

from model.base import GameBase
from model.greek.frame import SCHEMA as GREEK_SCHEMA
from model.greek.frame import TABLE as GREEK_TABLE
from model.greek.records import GreekGame

VARIANT = "greek-prefa"
DEALS_TABLE = GREEK_TABLE.name
# pieces of the line shapes, shared with ingest/fastpath_columns/layout.py: a name (no quotes,
# backslashes or control characters), the separators with or without their space
NAME = r'"[^"\\\x00-\x1f]+"'
SEP = r", ?"
COLON = r": ?"
DECISION = r'"(?:play|pass|invite|alone)"'
TRICK_COUNT = r"(?:10|[0-9])"
SHAPE = (
    r'^\{"record"' + COLON + r'"deal"' + SEP + r'"game_id"' + COLON + NAME + SEP
    + r'"deal_no"' + COLON + r"[1-9][0-9]{0,8}" + SEP + r'"dealer"' + COLON + NAME
    + r"(?:" + SEP + r'"declarer"' + COLON + NAME + SEP + r'"contract"' + COLON
    + r'"(?:6|7|8|9|10)(?:S|C|D|H|NT)"' + SEP + r'"defence"' + COLON
    + r"\{" + NAME + COLON + DECISION + SEP + NAME + COLON + DECISION + r"\}"
    + r"(?:" + SEP + r'"tricks"' + COLON + r"\{" + NAME + COLON + TRICK_COUNT + SEP
    + NAME + COLON + TRICK_COUNT + r"(?:" + SEP + NAME + COLON + TRICK_COUNT + r")?\})?)?\}$"
)
"""The one shape a line must have (deal_no below 10^9, so it fits the INTEGER column)."""

# Positions of the fields among the line's pieces between double quotes.
_AT = {"game_id": 7, "deal_no": 10, "dealer": 13, "declarer": 17, "contract": 21, "d1": 25,
       "v1": 27, "d2": 29, "v2": 31, "n1": 35, "t1": 36, "n2": 37, "t2": 38, "n3": 39, "t3": 40}

GAMES_SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.String(), "n": pl.Int8(), "p0": pl.String(), "p1": pl.String(),
    "p2": pl.String(), "p3": pl.String(), "ten_nt": pl.Boolean(),
}


OUTPUT_SCHEMA: dict[str, pl.DataType] = {
    "idx": pl.Int32(), "game_id": pl.String(), "deal_no": pl.Int32(),
    "dealer": pl.String(), "declarer": pl.String(), "contract": pl.String(),
    "record": pl.String(), "deal_key": pl.String(), "g_dealer": pl.Int8(),
    "g_declarer": pl.Int8(), "g_level": pl.Int8(), "g_denom": pl.Int32(), "g_mode": pl.String(),
    "g_whister": pl.Int8(), **{f"g_tricks_{i}": pl.Int8() for i in range(4)},
}
"""Columns of what :func:`accept` returns (``deals_greek`` ones prefixed ``g_``)."""


def supports(frame_schema: dict[str, pl.DataType]) -> bool:
    """The fast path writes exactly the ``deals_greek`` columns it knows; a changed frame schema
    switches it off (everything then takes the reference path)."""
    return dict(frame_schema) == dict(GREEK_SCHEMA)


def game_row(game: GameBase) -> dict[str, object] | None:
    """The fast path's view of a game, or ``None`` when its deals must take the reference path."""
    if not isinstance(game, GreekGame) or game.rules.all_pass != "redeal":
        return None
    p = list(game.players) + [None] * (4 - len(game.players))
    return {"game_id": game.game_id, "n": len(game.players), "p0": p[0], "p1": p[1], "p2": p[2],
            "p3": p[3], "ten_nt": game.rules.ten_nt != "forbidden"}


def _seat(name: str) -> pl.Expr:
    col = pl.col(name)
    return (pl.when(col == pl.col("p0")).then(0).when(col == pl.col("p1")).then(1)
            .when(col == pl.col("p2")).then(2).when(col == pl.col("p3")).then(3)
            .otherwise(None).cast(pl.Int8))


def _q(x: str | pl.Expr) -> list[pl.Expr]:
    """A JSON string of ``x`` (no escaping needed: the shape excludes quotes, backslashes and
    control characters)."""
    return [pl.lit('"'), pl.col(x) if isinstance(x, str) else x, pl.lit('"')]


def _canonical() -> pl.Expr:
    """records.md canonical JSON as ``model.identity.canonical_json`` writes it: keys sorted,
    defaults left out, no spaces."""
    d_lo = pl.min_horizontal("d1", "d2")
    d_hi = pl.max_horizontal("d1", "d2")
    v_lo = pl.when(pl.col("d1") == d_lo).then(pl.col("v1")).otherwise(pl.col("v2"))
    v_hi = pl.when(pl.col("d1") == d_lo).then(pl.col("v2")).otherwise(pl.col("v1"))

    def tricks_of(name: pl.Expr) -> pl.Expr:
        return (pl.when(pl.col("n1") == name).then(pl.col("t1"))
                .when(pl.col("n2") == name).then(pl.col("t2")).otherwise(pl.col("t3"))
                .cast(pl.String))

    names = ["n1", "n2", "n3"]
    lo = pl.min_horizontal(names)
    hi = pl.max_horizontal(names)
    mid = (pl.when((pl.col("n1") != lo) & (pl.col("n1") != hi)).then(pl.col("n1"))
           .when((pl.col("n2") != lo) & (pl.col("n2") != hi)).then(pl.col("n2"))
           .otherwise(pl.col("n3")))
    three = pl.concat_str([pl.lit(',"tricks":{'), *_q(lo), pl.lit(":"), tricks_of(lo),
                           pl.lit(","), *_q(mid), pl.lit(":"), tricks_of(mid), pl.lit(","),
                           *_q(hi), pl.lit(":"), tricks_of(hi), pl.lit("}")])
    two = pl.concat_str([pl.lit(',"tricks":{'), *_q(lo), pl.lit(":"), tricks_of(lo),
                         pl.lit(","), *_q(hi), pl.lit(":"), tricks_of(hi), pl.lit("}")])
    tricks = (pl.when(pl.col("n_tricks") == 3).then(three)
              .when(pl.col("n_tricks") == 2).then(two).otherwise(pl.lit("")))
    deal_no = pl.col("deal_no").cast(pl.String)
    none = pl.concat_str([pl.lit('{"deal_no":'), deal_no, pl.lit(',"dealer":'), *_q("dealer"),
                          pl.lit(',"game_id":'), *_q("game_id"), pl.lit("}")])
    played = pl.concat_str([
        pl.lit('{"contract":'), *_q("contract"), pl.lit(',"deal_no":'), deal_no,
        pl.lit(',"dealer":'), *_q("dealer"), pl.lit(',"declarer":'), *_q("declarer"),
        pl.lit(',"defence":{'), *_q(d_lo), pl.lit(":"), *_q(v_lo), pl.lit(","), *_q(d_hi),
        pl.lit(":"), *_q(v_hi), pl.lit('},"game_id":'), *_q("game_id"), tricks, pl.lit("}"),
    ])
    return pl.when(pl.col("declarer").is_null()).then(none).otherwise(played)


def accept(lines: list[str], games: pl.DataFrame) -> pl.DataFrame:
    """The lines this path accepts: ``idx`` (position in ``lines``), the ``deals`` columns
    (``game_id, deal_no, dealer, declarer, contract, record, deal_key``) and the ``deals_greek``
    columns (prefixed ``g_``). ``games`` has the columns of ``GAMES_SCHEMA``."""
    text = pl.Series("text", lines, dtype=pl.String)
    frame = pl.DataFrame({"idx": pl.arange(0, len(lines), eager=True, dtype=pl.Int32),
                          "text": text}).filter(pl.col("text").str.contains(SHAPE))
    if frame.height == 0 or games.height == 0:
        return pl.DataFrame(schema=OUTPUT_SCHEMA)
    parts = pl.col("parts")
    cols = {k: parts.list.get(i, null_on_oob=True) for k, i in _AT.items()}
    strip = ": ,}"
    lazy = frame.lazy().with_columns(parts=pl.col("text").str.split('"')).with_columns(
        quotes=parts.list.len() - 1, **cols
    ).drop("parts").with_columns(
        pl.col("deal_no").str.strip_chars(strip).cast(pl.Int32),
        *(pl.col(t).str.strip_chars(strip).cast(pl.Int8, strict=False) for t in ("t1", "t2", "t3")),
    )
    # the number of quotes tells the shape: dealer only 14, defence 32, two tricks 38, three 40
    shape = pl.col("quotes")
    lazy = lazy.with_columns(
        declarer=pl.when(shape >= 32).then(pl.col("declarer")),
        contract=pl.when(shape >= 32).then(pl.col("contract")),
        n_tricks=pl.when(shape == 40).then(3).when(shape == 38).then(2).otherwise(0),
    ).with_columns(
        n3=pl.when(pl.col("n_tricks") == 3).then(pl.col("n3")),
        t3=pl.when(pl.col("n_tricks") == 3).then(pl.col("t3")),
    ).join(games.lazy(), on="game_id", how="inner")
    lazy = lazy.with_columns(
        dealer_s=_seat("dealer"), declarer_s=_seat("declarer"), d1_s=_seat("d1"),
        d2_s=_seat("d2"), n1_s=_seat("n1"), n2_s=_seat("n2"), n3_s=_seat("n3"),
    )
    n = pl.col("n").cast(pl.Int16)
    dealer = pl.col("dealer_s").cast(pl.Int16)
    k = (pl.col("declarer_s").cast(pl.Int16) - dealer - 1) % n
    lazy = lazy.with_columns(
        k=k, r_s=((dealer + 1 + (k + 1) % 3) % n), l_s=((dealer + 1 + (k + 2) % 3) % n),
        v_lo=pl.min_horizontal("v1", "v2"), v_hi=pl.max_horizontal("v1", "v2"),
    )
    mode = (pl.when(pl.col("declarer").is_null()).then(pl.lit("none"))
            .when(pl.col("v_lo") == "pass").then(pl.lit("pass"))
            .when(pl.col("v_lo") == "invite").then(pl.lit("invite"))
            .when(pl.col("v_lo") == "alone").then(pl.lit("alone")).otherwise(pl.lit("both")))
    whister = (pl.when(pl.col("v1").is_in(["invite", "alone"])).then(pl.col("d1_s"))
               .otherwise(pl.col("d2_s")))
    lazy = lazy.with_columns(mode=mode, whister_s=pl.when(mode.is_in(["invite", "alone"]))
                               .then(whister))
    pair_ok = (pl.col("v_lo").is_in(["alone", "invite", "pass"]) & (pl.col("v_hi") == "pass")) | (
        (pl.col("v_lo") == "play") & (pl.col("v_hi") == "play"))
    defenders_ok = ((pl.col("d1_s") == pl.col("r_s")) & (pl.col("d2_s") == pl.col("l_s"))) | (
        (pl.col("d1_s") == pl.col("l_s")) & (pl.col("d2_s") == pl.col("r_s")))

    def active(seat: str) -> pl.Expr:  # a seat dealt in (four players: not the dealer)
        sits_out = (pl.col("n") == 4) & (pl.col(seat) == pl.col("dealer_s"))
        return pl.col(seat).is_not_null() & ~sits_out

    three = (pl.col("n_tricks") == 3) & active("n1_s") & active("n2_s") & active("n3_s") & (
        pl.col("n1_s") != pl.col("n2_s")) & (pl.col("n1_s") != pl.col("n3_s")) & (
        pl.col("n2_s") != pl.col("n3_s")) & (
        pl.col("t1").cast(pl.Int16) + pl.col("t2") + pl.col("t3") == 10)
    two = (pl.col("n_tricks") == 2) & (
        ((pl.col("n1_s") == pl.col("declarer_s")) & (pl.col("n2_s") == pl.col("whister_s")))
        | ((pl.col("n2_s") == pl.col("declarer_s")) & (pl.col("n1_s") == pl.col("whister_s")))
    ) & (pl.col("t1").cast(pl.Int16) + pl.col("t2") == 10)
    tricks_ok = (pl.when(pl.col("mode") == "pass").then(pl.col("n_tricks") == 0)
                 .when(pl.col("mode") == "alone").then(two).otherwise(three))
    contract_ok = (pl.col("contract") != "10NT") | pl.col("ten_nt")
    none_ok = pl.col("declarer").is_null() & (pl.col("quotes") == 14)
    played_ok = (pl.col("declarer_s").is_not_null() & active("declarer_s") & contract_ok
                 & pair_ok & defenders_ok & tricks_ok)
    lazy = lazy.filter(active("dealer_s") | (pl.col("n") == 4)).filter(
        pl.col("dealer_s").is_not_null() & (none_ok | played_ok.fill_null(False)))
    nt = pl.col("contract").str.ends_with("NT")
    level = pl.col("contract").str.strip_chars_end("SCDHNT").cast(pl.Int8)
    denom = (pl.when(nt).then(4).when(pl.col("contract").str.ends_with("S")).then(0)
             .when(pl.col("contract").str.ends_with("C")).then(1)
             .when(pl.col("contract").str.ends_with("D")).then(2)
             .when(pl.col("contract").str.ends_with("H")).then(3))

    def tricks_at(seat: int) -> pl.Expr:
        return (pl.when(pl.col("n1_s") == seat).then(pl.col("t1"))
                .when(pl.col("n2_s") == seat).then(pl.col("t2"))
                .when(pl.col("n3_s") == seat).then(pl.col("t3")).otherwise(None))

    frame = lazy.with_columns(record=_canonical(), g_level=level, g_denom=denom,
                              **{f"g_tricks_{i}": tricks_at(i) for i in range(4)}).collect()
    if frame.height == 0:
        return pl.DataFrame(schema=OUTPUT_SCHEMA)
    content = frame.select(pl.concat_str([pl.col("game_id"), pl.lit("\x00"), pl.col("record")])
                           .cast(pl.Binary)).to_series().to_list()
    sha256 = hashlib.sha256
    keys = pl.Series("deal_key", [sha256(c).hexdigest() for c in content], dtype=pl.String)
    return frame.with_columns(keys.str.head(32)).select(
        "idx", "game_id", "deal_no", "dealer", "declarer", "contract", "record",
        "deal_key", g_dealer="dealer_s", g_declarer="declarer_s", g_level="g_level",
        g_denom="g_denom", g_mode="mode", g_whister="whister_s",
        **{f"g_tricks_{i}": f"g_tricks_{i}" for i in range(4)},
    ).cast(pl.Schema(OUTPUT_SCHEMA))


def greek_rows(accepted: pl.DataFrame) -> pl.DataFrame:
    """The ``deals_greek`` frame of accepted lines (``model/greek/frame.py`` SCHEMA)."""
    return accepted.select(
        "game_id", "deal_no", dealer="g_dealer", declarer="g_declarer", level="g_level",
        denom="g_denom", mode="g_mode", whister="g_whister",
        **{f"tricks_{i}": f"g_tricks_{i}" for i in range(4)},
        four_aces=pl.lit(False), preliminary=pl.lit(False),
    ).cast(pl.Schema(GREEK_SCHEMA))
