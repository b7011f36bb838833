"""``make bench``: run every ``bench/bench_*.py`` (each has ``run() -> None``) or those named.

Each benchmark prints ratios against a baseline measured in the same run (vectorised kernel vs its
reference, fast path vs pydantic, ...), never a bare time compared with a fixed number.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def main(argv: list[str]) -> None:
    here = Path(__file__).parent
    known = sorted(p.stem.removeprefix("bench_") for p in here.glob("bench_*.py"))
    if unknown := [name for name in argv if name not in known]:
        sys.exit(f"usage: python -m bench [NAME ...]; unknown {', '.join(unknown)}; "
                 f"the benchmarks are {', '.join(known)}")
    for name in argv or known:
        print(f"\n== bench {name} ==", flush=True)
        importlib.import_module(f"bench.bench_{name}").run()


if __name__ == "__main__":
    main(sys.argv[1:])
