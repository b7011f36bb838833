"""The pulya drawn as a picture (dashboards/pulya.py, russian.md 5): on the League page beside the
table form, for the three- and four-player Russian games of ``data/samples/russian``; each
player's pool, hill and whists in the picture are the table form's numbers."""

from __future__ import annotations

import base64
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import polars as pl
import pytest

from dashboards import queries as q
from dashboards.db import read_only
from dashboards.pulya import SHOWN, pulya_svg, record
from dashboards.sheets import score_sheet, sheet_picture
from tests.dashboards.test_pages import open_tab, page

SVG = "{http://www.w3.org/2000/svg}"
SAMPLE_GAMES = ("nevsky/2026-11-22/sochi", "nevsky/2026-11-22/leningrad")
"""A Sochi game of three and a Leningrad game of four (``data/samples/russian/league.jsonl``)."""


def titles(svg: str) -> dict[str, str]:
    """``<title>`` of every band -> the band's text (the SVG must parse as XML)."""
    root = ET.fromstring(svg)
    out = {}
    for text in root.iter(f"{SVG}text"):
        title = text.find(f"{SVG}title")
        if title is not None and title.text:
            out[title.text] = "".join(text.itertext()).removeprefix(title.text)
    return out


def value(shown: dict[str, str], label: str) -> float:
    """The number at the end of the band titled ``label ...``."""
    [title] = [t for t in shown if re.fullmatch(re.escape(label) + r" -?[0-9.]+", t)]
    return float(title.rsplit(" ", 1)[1])


def svg_of_img(img: str) -> str:
    """The SVG inside an ``<img>`` of ``pulya.as_img``."""
    [data] = re.findall(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', img)
    return base64.b64decode(data).decode("utf-8")


def _svg_of(at: object) -> str:
    bodies = [str(h.proto.body) for h in at.get("html")]  # type: ignore[attr-defined]
    [img] = [b for b in bodies if "data:image/svg+xml" in b]
    return svg_of_img(img)


@pytest.mark.parametrize("game_id", SAMPLE_GAMES)
def test_league_page_draws_the_pulya_with_the_table_numbers(
        game_id: str, demo_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = open_tab(page("league", demo_path, monkeypatch, variant="russian"), "league_section",
                  "Score sheet")
    at.selectbox(key="league_game").set_value(game_id).run()
    assert not at.exception
    shown = titles(_svg_of(at))
    # drawn at its own size above the sheet, not in a column beside it (6 px figures there)
    assert not [h for c in at.columns for h in c.get("html") if "svg" in str(h.proto.body)]
    with read_only(demo_path) as con:
        info = q.game_info(con, game_id).row(0, named=True)
        rows = q.game_sheet(con, game_id)
        pairwise = q.game_pairwise(con, game_id)
    players = list(info["players"])
    total = score_sheet(rows, "russian", players).row(-1, named=True)
    assert total["dealer"] == "total"
    assert value(shown, "pool target") == 10  # the game's pool_target
    for p in players:
        assert value(shown, f"{p} pool") == total[f"{p} pool"]
        assert value(shown, f"{p} hill") == total[f"{p} hill"]
        on = {o: value(shown, f"{p} whists on {o}") for o in players if o != p}
        assert sum(on.values()) == total[f"{p} whists"]
        for o, v in on.items():
            wrote = pairwise.filter((pl.col("writer") == p) & (pl.col("against") == o))
            assert v == wrote["amount"].sum()
    assert sum(total[f"{p} whists"] for p in players) > 0  # the fields are not all empty
    assert len([t for t in shown if " whists on " in t]) == len(players) * (len(players) - 1)


def _rows(players: list[str]) -> tuple[pl.DataFrame, pl.DataFrame]:
    # two deals: the first player makes 6S (pool 2), then fails 7H by two (hill 8); the next
    # whists 4 then 2 more against him (russian.md 6.2 Sochi: c = 2 and 4)
    a, b = players[0], players[1]
    rows = pl.DataFrame({
        "deal_no": [1] * len(players) + [2] * len(players),
        "player": players * 2,
        "pool_delta": [2] + [0] * (len(players) - 1) + [0] * len(players),
        "pool_after": [2] + [0] * (len(players) - 1) + [2] + [0] * (len(players) - 1),
        "hill_delta": [0] * len(players) + [8] + [0] * (len(players) - 1),
        "hill_after": [0] * len(players) + [8] + [0] * (len(players) - 1),
    })
    pairwise = pl.DataFrame({"deal_no": [1, 2], "writer": [b, b], "against": [a, a],
                             "amount": [4, 2]})
    return rows, pairwise


@pytest.mark.parametrize("players", [["<b>A&B</b>", 'Bo "x"', "C'c"],
                                     ["N<", "E>", "S&", "W\""]])
def test_pulya_escapes_names_three_and_four_players(players: list[str]) -> None:
    rows, pairwise = _rows(players)
    svg = pulya_svg(rows, pairwise, players, 20)
    assert "<b>" not in svg
    shown = titles(svg)  # parses: every name escaped
    a, b = players[0], players[1]
    assert value(shown, f"{a} pool") == 2 and shown[f"{a} pool 2"] == "2"
    assert value(shown, f"{a} hill") == 8
    assert shown[f"{b} whists on {a} 6"] == "4.6"  # the running record, as players write it
    assert value(shown, f"{a} whists on {b}") == 0
    assert len([t for t in shown if " whists on " in t]) == len(players) * (len(players) - 1)
    names = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")
             if t.get("class") == "player"]
    assert names == players


def test_long_record_keeps_the_last_values() -> None:
    assert record([2, 4, 6]) == "2.4.6"
    assert record(list(range(1, 10))) == "…" + ".".join(map(str, range(10 - SHOWN, 10)))
    assert record([1200, 1300, 1456, 1501], room=10) == "…1456.1501"  # as many as fit
    assert record([1200, 1300, 1456, 1501], room=9) == "…1501"
    assert record([1200, 1300, 1456, 1501], room=2) == "…1501"  # the value now, always
    assert record([]) == "0"


@pytest.mark.parametrize("players", [["A", "B", "C"], ["N", "E", "S", "W"]])
def test_a_long_record_fits_its_field_and_ends_on_the_value_now(players: list[str]) -> None:
    """Whists of four digits and a hill over many deals: each band's text, as wide as about
    0.6 em a character and as high as its font, stays inside its field (between its circles
    and its sector's rays), also in the sectors at the side, where a band's depth limits a
    level line; fewer values are shown where six would not fit; the last is the value now."""
    a, b = players[0], players[1]
    deals = list(range(1, 41))
    rows = pl.DataFrame({"deal_no": [d for d in deals for _ in players],
                         "player": players * len(deals),
                         "pool_delta": [1] * len(deals) * len(players),
                         "pool_after": [float(d) for d in deals for _ in players],
                         "hill_delta": [1] * len(deals) * len(players),
                         "hill_after": [float(100 * d) for d in deals for _ in players]})
    pairwise = pl.DataFrame({"deal_no": deals * 2, "writer": [b] * len(deals) + [a] * len(deals),
                             "against": [a] * len(deals) + [b] * len(deals),
                             "amount": [1237.5] * len(deals) * 2})
    svg = pulya_svg(rows, pairwise, players, 20)
    n = len(players)
    fields = {"pool": (34, 110, math.pi / n), "hill": (110, 170, math.pi / n),
              "whists": (170, 236, math.pi / (n * (n - 1)))}  # pulya.RADII, sectors
    centre = 260
    for text in ET.fromstring(svg).iter(f"{SVG}text"):
        cls, title = text.get("class"), text.find(f"{SVG}title")
        if cls not in fields or title is None or not title.text:
            continue
        inner, outer, half = fields[cls]
        x, y, size = (float(text.get(k, 0)) for k in ("x", "y", "font-size"))
        mid = math.atan2(y - centre, x - centre)
        shown = "".join(text.itertext()).removeprefix(title.text)
        wide = len(shown) * 0.6 * size / 2
        for cx, cy in ((x + dx, y + dy) for dx in (-wide, wide) for dy in (-size / 2, size / 2)):
            r = math.hypot(cx - centre, cy - centre)
            turn = (math.atan2(cy - centre, cx - centre) - mid + math.pi) % (2 * math.pi) - math.pi
            assert inner <= r <= outer and abs(turn) <= half, (title.text, shown, size)
    whists = titles(svg)[f"{b} whists on {a} 49500"]
    assert whists.startswith("…") and whists.endswith("49500")
    assert titles(svg)[f"{a} hill 4000"].endswith("4000")


def test_no_picture_for_other_sheets() -> None:
    rows, pairwise = _rows(["A", "B", "C"])
    assert sheet_picture("greek-prefa", rows.with_columns(kassa_after=pl.lit(1)), pairwise,
                         ["A", "B", "C"], "{}") is None
    assert sheet_picture("russian", rows, pairwise, ["A", "B", "C"], '{"pool_target": 30}')
