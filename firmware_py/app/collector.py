"""Python's cycle collector while `run` starts: paused, then the start's objects set aside.

The start makes some 90,000 objects that live as long as the tower (modules, classes, the
table, its parts), and the collector would go through them again and again as they come: here
124 collections before READY=1, 0.07 s of the start's 0.6 s of CPU. Paused for the start and
then told that everything alive is there to stay (`gc.freeze`, as Python's documentation
suggests for a long-lived process's start), it never looks at them again: nor later, in a
full collection during a roll (0.06 s here, on a Zero 2 W's share of a core several times that).
The few objects the start dropped in cycles (1,900 of the 90,000) are set aside with them.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_while_starting() -> Iterator[None]:
    """The collector paused until `started`, and on again once the block ends whatever
    happened (a caller that goes on after the tower, as a test's run in its process does)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def started() -> None:
    """The tower has started: what is alive now stays, and is no longer looked at."""
    gc.freeze()
    gc.enable()
