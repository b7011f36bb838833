"""Bridge scoring: duplicate (Law 77), rubber (Laws 72-74), Chicago, matchpoints and IMPs.

``reference.py`` scores by the Laws deal by deal, ``kernel.py`` settles every game at once (and
holds the registered ``RUBBER`` and ``DUPLICATE``), ``frames.py`` reads and writes the frames;
``event.py`` compares duplicate boards across tables, ``dd.py`` holds the double-dummy analysis.
"""

from scoring.bridge.kernel import DUPLICATE, RUBBER

__all__ = ["DUPLICATE", "RUBBER"]
