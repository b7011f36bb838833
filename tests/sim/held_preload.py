"""Imported by a fork server as its ``preload`` (``tests/sim/test_pool.py``): creates the file
named by ``HELD_PRELOAD`` (the server is importing), then waits until the file named by
``HELD_RELEASE`` exists: a fork server whose imports take as long as the test wants."""

import os
import time
from pathlib import Path

if (held := os.environ.get("HELD_PRELOAD")) is not None:
    Path(held).touch()
    release = Path(os.environ["HELD_RELEASE"])
    while not release.exists():
        time.sleep(0.05)
