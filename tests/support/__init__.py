"""Builders and stand-ins shared by the tests, imported as `support.NAME` (pyproject.toml puts
tests/ on the path): a test module never imports another test module."""
