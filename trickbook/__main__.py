"""``python -m trickbook``: the same command line as the ``trickbook`` script."""

from trickbook.cli import app

app(prog_name="trickbook")
