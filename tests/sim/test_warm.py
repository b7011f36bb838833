"""``python -m sim.warm`` (``make install``) compiles every numba kernel of the project into
its disk cache, so that neither a first command nor a test worker compiles one (README, "Two
commands"). Checked with an empty cache (``$NUMBA_CACHE_DIR``): after the warm-up, every
compiled function but those numba inlines into their callers has its cache index."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

MISSING = """
import importlib, os, pkgutil, sys
from numba.core.registry import CPUDispatcher
for package in ("model", "scoring", "ingest", "sim"):
    for info in pkgutil.walk_packages([package], package + "."):
        if info.name != "sim.warm":
            importlib.import_module(info.name)
for name, module in list(sys.modules.items()):
    for attribute, value in vars(module).items():
        if not isinstance(value, CPUDispatcher) or value.__module__ != name:
            continue
        cached = getattr(value._cache, "_cache_file", None)  # None: compiled without a cache
        if (cached is not None and value.targetoptions.get("inline") != "always"
                and not os.path.exists(cached._index_path)):
            print(f"{name}.{attribute}")
"""
"""Prints every function of the project compiled with a disk cache that has no cache index
(after importing every module of the packages that hold kernels)."""


@pytest.mark.long
def test_the_warm_up_compiles_every_kernel(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-m", "sim.warm"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    missing = subprocess.run([sys.executable, "-c", MISSING], cwd=ROOT, env=env, check=True,
                             capture_output=True, text=True).stdout.split()
    assert missing == []
