"""``python -m trickbook``: the same command line as the ``trickbook`` script."""

from trickbook.start import main

main()
