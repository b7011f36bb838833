"""The shape of the code (docs/architecture.md): dependencies point one way, no module imports in a
circle, the interfaces are leaves, and a variant is named only in its own packages."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path
from re import compile as re_compile

from model.variants import REGISTERED
from tests.conftest import ROOT

PACKAGES = ("model", "scoring", "ingest", "sim", "dashboards", "trickbook")
ALLOWED: dict[str, set[str]] = {
    "model": {"model"},
    "scoring": {"model", "scoring"},
    "ingest": {"model", "ingest", "scoring"},
    "sim": {"model", "scoring", "ingest", "sim"},
    "dashboards": {"model", "scoring", "ingest", "sim", "dashboards"},
    "trickbook": set(PACKAGES),
}
"""What each package may import (the layout of the developers' guide and docs/architecture.md)."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}


@cache
def imports() -> dict[str, frozenset[str]]:
    """Module -> the modules of ours it imports (``from pkg import submodule`` counts as the
    submodule, not the package)."""
    mods = modules()
    graph: dict[str, frozenset[str]] = {}
    for name, path in mods.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name in mods)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = [f"{node.module}.{a.name}" for a in node.names]
                found.update(s for s in subs if s in mods)
                if node.module in mods and not all(s in mods for s in subs):
                    found.add(node.module)
        graph[name] = frozenset(found - {name})
    return graph


def _cycles(graph: dict[str, frozenset[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    assert _cycles(imports()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}),
             "d": frozenset({"a"})}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_dependencies_point_one_way() -> None:
    wrong = sorted(
        (name, dep) for name, deps in imports().items() for dep in deps
        if dep.split(".")[0] not in ALLOWED[name.split(".")[0]]
    )
    assert wrong == []


def test_the_interfaces_are_leaves() -> None:
    """model/variant.py and scoring/settlement.py import no variant, so every variant can import
    them and the registries can import every variant."""
    variant_packages = {v.table.name.removeprefix("deals_") for v in REGISTERED}
    for leaf in ("model.variant", "scoring.settlement", "model.schema"):
        assert not {d for d in imports()[leaf] if d.split(".")[1] in variant_packages}, leaf


def _home(path: str, variant_dirs: set[str]) -> bool:
    parts = path.split("/")
    if parts[:2] == ["sim", "random_play"]:  # its random legal-deal generator
        parts = ["sim", *parts[2:]]
    stem = parts[1].removesuffix(".py") if len(parts) > 1 else ""
    return parts[0] in ("model", "scoring", "sim") and stem in variant_dirs


def test_a_variant_is_named_only_in_its_own_packages() -> None:
    names = {v.name for v in REGISTERED}
    variant_dirs = {p.name for p in (ROOT / "model").iterdir()
                    if (p / "variant.py").is_file()}
    naming = set()
    for name, path in modules().items():
        rel = path.relative_to(ROOT).as_posix()
        if _home(rel, variant_dirs) or name in ("model.variants", "scoring.registry",
                                                 "sim.drivers"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in names:
                naming.add(rel)
    assert not naming, sorted(naming)


OPTIONAL = {"endplay", "distributed"}
"""Extras a user may not have installed (pyproject.toml: ``dds``, ``cluster``): imported where
they are used, so the rest works without them."""


def _imports_inside_functions(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import):
                    found += [a.name for a in inner.names]
                elif isinstance(inner, ast.ImportFrom) and inner.module:
                    found.append(inner.module)
    return [m for m in found if m.split(".")[0] not in OPTIONAL]


def test_imports_stand_at_the_top_of_modules() -> None:
    """Imports live at module top (docs/architecture.md); the typer commands of ``trickbook/``
    import in their bodies to keep ``--help`` fast, and optional extras are imported where used."""
    inside = {str(p.relative_to(ROOT)) for p in modules().values()
              if p.relative_to(ROOT).parts[0] != "trickbook" and _imports_inside_functions(p)}
    assert not inside, sorted(inside)


LONGEST_FUNCTION = 80
"""Lines a function may have (the developers' guide: small functions), numba kernels aside."""
_COMPILED_LATER = re_compile(r"jit\w*\([^()]*\)\((\w+)\)")
"""``numba.njit(SIGNATURE, ...)(kernel)``: a kernel compiled where it is not defined."""


def _long_functions(path: Path, root: Path = ROOT) -> list[str]:
    """The functions of ``path`` over :data:`LONGEST_FUNCTION` lines that numba does not
    compile (a ``jit`` decorator, or passed to a ``jit`` call in the module)."""
    text = path.read_text(encoding="utf-8")
    kernels = set(_COMPILED_LATER.findall(text))
    found = []
    for node in ast.walk(ast.parse(text)):
        if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and node.end_lineno is not None
                and node.end_lineno - node.lineno + 1 > LONGEST_FUNCTION
                and node.name not in kernels
                and not any("jit" in ast.unparse(d) for d in node.decorator_list)):
            found.append(f"{path.relative_to(root)}:{node.name}")
    return found


def test_functions_are_short() -> None:
    """No function over about 80 lines outside numba kernels (issue 12), in the packages and
    the benches."""
    paths = [*modules().values(), *(ROOT / "bench").rglob("*.py")]
    long = sorted(f for p in paths for f in _long_functions(p))
    assert not long, long


def test_the_length_check_finds_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LONGEST_FUNCTION))
    module = tmp_path / "probe.py"
    module.write_text(f"def long():\n{body}\n\n\n@numba.njit\ndef kernel():\n{body}\n\n\n"
                      f"def later():\n{body}\n\n\nfast = numba.njit(cache=True)(later)\n")
    assert _long_functions(module, tmp_path) == ["probe.py:long"]
