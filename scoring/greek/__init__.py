"""Greek Prefa settlement (greek-prefa.md 8-11, 14, 15): ``reference.py`` reads the rules deal by
deal, ``kernel.py`` settles every game at once (the registered ``SETTLEMENT``) on the arrays of
``arrays.py`` (with ``nine.py``, ``scan.py`` and ``pot.py``), ``frames.py`` holds the schemas."""

from scoring.greek.kernel import SETTLEMENT, deal_arrays, game_arrays

__all__ = ["SETTLEMENT", "deal_arrays", "game_arrays"]
