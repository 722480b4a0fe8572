"""Builders and stand-ins shared by the tests, imported as `support.NAME` (pyproject.toml puts
tests/ on the path): a test module never imports another test module."""

import os

# Seconds a test waits for something that should happen before it calls it a hang: only a hang
# takes this long, even on a machine as busy as a shared CI runner (QWIXX_TEST_HANG to change).
HANG = float(os.environ.get("QWIXX_TEST_HANG", "180"))

# The tower never makes a TLS connection, yet aiohttp loads the machine's CA certificates twice
# as it is imported (for client contexts): about 0.06 s of CPU at each of the suite's several
# hundred tower starts. The suite points OpenSSL at empty stores (tests/conftest.py); whatever
# reaches a package index (pip) gets the environment without them: `with_certificates(env)`.
EMPTY_CERTIFICATE_STORES = ("SSL_CERT_FILE", "SSL_CERT_DIR")
# The stores the suite found in its environment (they may point at the machine's own), given
# back to what reaches a package index.
MACHINE_CERTIFICATE_STORES = {
    name: os.environ[name] for name in EMPTY_CERTIFICATE_STORES if name in os.environ
}


def with_certificates(env: dict[str, str]) -> dict[str, str]:
    """`env` with the certificate stores the suite found, not its empty ones: for pip and
    npm, which may reach a package index over TLS."""
    kept = {name: value for name, value in env.items() if name not in EMPTY_CERTIFICATE_STORES}
    return {**kept, **MACHINE_CERTIFICATE_STORES}
