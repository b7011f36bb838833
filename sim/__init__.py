"""Simulated hand histories: seedable deals, bots at every seat, complete canonical records.

``sim.drivers`` maps a variant name to its driver; a driver turns a game index and the run's
seed into one game line and its deal records (``docs/simulation.md``).
"""


class SimulationError(ValueError):
    """A run the simulator cannot make (unknown variant or play mode, house rules it does not
    play, bad rules); the message quotes the input."""
