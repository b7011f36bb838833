"""The pages' Altair charts take channel objects (``alt.X("cash:Q")``, ``tooltips(...)`` of
dashboards/common.py), never bare strings: Altair matches a bare string or a list of them against
its whole schema, about 5 ms a string, which was most of a second of the Balance page's run."""

from __future__ import annotations

import ast
from pathlib import Path

import altair as alt

from dashboards.common import tooltips

DASHBOARDS = Path(__file__).resolve().parents[2] / "dashboards"


def _bare_strings(tree: ast.AST) -> list[str]:
    """``.encode(name=...)`` arguments that are a string, or a list holding one."""
    found = []
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "encode"):
            continue
        for arg in call.keywords:
            values = arg.value.elts if isinstance(arg.value, ast.List) else [arg.value]
            if any(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in values):
                found.append(f"line {call.lineno}: {arg.arg}=")
    return found


def test_no_chart_encodes_a_bare_string() -> None:
    found = {path.relative_to(DASHBOARDS.parent).as_posix(): hits
             for path in sorted(DASHBOARDS.rglob("*.py"))
             if (hits := _bare_strings(ast.parse(path.read_text(encoding="utf-8"))))}
    assert not found, found


def test_the_check_sees_a_bare_string() -> None:
    chart = ast.parse('c.encode(y="cash:Q", tooltip=["who", alt.Tooltip("n")], x=alt.X("d:T"))')
    assert _bare_strings(chart) == ["line 1: y=", "line 1: tooltip="]


def test_tooltips_equal_the_shorthands_they_replace() -> None:
    frame = {"values": [{"who": "a", "day": "2026-01-01", "cash": 1.0}]}
    shorthand = alt.Chart(alt.Data(**frame)).mark_point().encode(
        tooltip=["who:N", "day:T", "cash:Q"]).to_dict()
    objects = alt.Chart(alt.Data(**frame)).mark_point().encode(
        tooltip=tooltips("who:N", "day:T", "cash:Q")).to_dict()
    assert objects == shorthand
