"""Russian preferans settlement (russian.md 5-8): the pulya per deal and across the game.

``reference.py`` settles deal by deal as the rulebook reads, ``kernel.py`` settles every game at
once (the registered ``SETTLEMENT``) around the numba scan of ``scan.py``, ``frames.py`` holds the
schemas and the rules cell.
"""

from scoring.russian.kernel import SETTLEMENT, RussianSettlement

__all__ = ["SETTLEMENT", "RussianSettlement"]
