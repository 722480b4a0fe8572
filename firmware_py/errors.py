"""The one base of every exception the tower's own code raises (firmware_py and sheets).

`except TowerError` tells the tower's refusals and failures from a bug in it or in a library.
Each exception stays beside the code that raises it, where its fields are made and its callers
import it; this module imports nothing, so any module may import it, the sheets' loader too. The
pad's wire protocol derives from it on the tower only: on the pad that module stands alone.
The drivers, a package below the tower's, have their own base (`drivers.errors.DriverError`).
tests/test_errors.py holds every exception here to this base and to a one-line docstring.
"""


class TowerError(Exception):
    """Base class for every error raised by the qwixx-tower's own code."""
