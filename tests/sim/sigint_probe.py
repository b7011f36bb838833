"""Imported by a fork server as its ``preload`` (``tests/sim/test_pool.py``): writes how the
importing process answers Ctrl-C to the file named by ``SIGINT_PROBE``."""

import os
import signal

if (path := os.environ.get("SIGINT_PROBE")) is not None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("ignored" if signal.getsignal(signal.SIGINT) is signal.SIG_IGN else "answered")
