"""Builders and stand-ins shared by the tests, imported as `support.NAME` (pyproject.toml puts
tests/ on the path): a test module never imports another test module."""

import os

# Seconds a test waits for something that should happen before it calls it a hang: only a hang
# takes this long, even on a machine as busy as a shared CI runner (QWIXX_TEST_HANG to change).
HANG = float(os.environ.get("QWIXX_TEST_HANG", "180"))
