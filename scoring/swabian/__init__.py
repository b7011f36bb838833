"""Swabian Preferanz settlement (swabian.md 7-8): ``reference.py`` reads the rules deal by deal,
``kernel.py`` settles every game at once (the registered ``SETTLEMENT``), ``frames.py`` holds the
rules reader and the output schemas."""

from scoring.swabian.kernel import SETTLEMENT

__all__ = ["SETTLEMENT"]
