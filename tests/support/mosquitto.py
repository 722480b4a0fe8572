"""Debian's mosquitto, started by a test on a free port of 127.0.0.1, as a house's broker is set
up: TLS with a certificate from a CA the test makes (`Pki`, with openssl), a password file
(mosquitto_passwd), no anonymous clients. It can be killed (as a power cut kills it) and started
again on the same port. `SilentBroker` accepts connections and never answers.

Without mosquitto the tests that need it are skipped with the reason, except under CI
(CI=true): there `./dev` installs it, and a missing broker is a failure, not a skip.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from support import HANG

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
USER, PASSWORD = "tower", "dice-and-sheets"  # the tower's login; the tests' listener has its own
LISTENER, LISTENER_PASSWORD = "listener", "reads-everything"


def need_mosquitto() -> None:
    """Skip without Debian's mosquitto (sudo apt install mosquitto); under CI, fail."""
    if os.access(MOSQUITTO, os.X_OK) and os.access(PASSWD, os.X_OK) and shutil.which("openssl"):
        return
    why = "Debian's mosquitto and openssl are needed (sudo apt install mosquitto openssl)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why}: ./dev installs them for CI")
    pytest.skip(why)


@dataclass(frozen=True)
class Pki:
    """A CA made for the test, and the broker's certificate it signed (for localhost and
    127.0.0.1), in `folder`."""

    folder: Path

    @property
    def ca(self) -> Path:
        return self.folder / "ca.crt"

    @property
    def certificate(self) -> Path:
        return self.folder / "broker.crt"

    @property
    def key(self) -> Path:
        return self.folder / "broker.key"

    @classmethod
    def make(cls, folder: Path) -> Pki:
        folder.mkdir(parents=True, exist_ok=True)
        pki = cls(folder)
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        _openssl(
            "req",
            "-x509",
            *ec,
            "-keyout",
            folder / "ca.key",
            "-out",
            pki.ca,
            "-days",
            "2",
            "-subj",
            "/CN=qwixx test CA",
        )
        _openssl(
            "req", *ec, "-keyout", pki.key, "-out", folder / "broker.csr", "-subj", "/CN=localhost"
        )
        names = folder / "names.ext"
        names.write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
        _openssl(
            "x509",
            "-req",
            "-in",
            folder / "broker.csr",
            "-CA",
            pki.ca,
            "-CAkey",
            folder / "ca.key",
            "-CAcreateserial",
            "-out",
            pki.certificate,
            "-days",
            "2",
            "-extfile",
            names,
        )
        return pki


def _openssl(*args: object) -> None:
    subprocess.run(["openssl", *map(str, args)], check=True, capture_output=True, timeout=HANG)


MAX_PACKET = 1_048_576  # bytes: docs/league.md's broker refuses larger packets


class Broker:
    """One mosquitto with TLS and a password file on a free port (kept across restarts)."""

    def __init__(self, folder: Path, pki: Pki, port: int | None = None, limits: str = "",
                 packet_limit: bool = True) -> None:  # fmt: skip
        """`limits`: lines of mosquitto.conf beside the test's own ("max_queued_messages 2");
        `packet_limit`: docs/league.md's max_packet_size (False: a broker set up without it)."""
        need_mosquitto()
        self.limits = limits
        self.packet_limit = packet_limit
        self.folder, self.pki = folder, pki
        folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        passwords = folder / "passwords"
        for user, word in ((USER, PASSWORD), (LISTENER, LISTENER_PASSWORD)):
            create = ["-c"] if user == USER else []
            subprocess.run(
                [PASSWD, "-b", *create, str(passwords), user, word],
                check=True,
                capture_output=True,
                timeout=HANG,
            )
        self.passwords = passwords
        self.config = folder / "mosquitto.conf"
        self.port_given = port is not None  # (a port of its own may move if another takes it)

    def _write_config(self) -> None:
        limit = f"max_packet_size {MAX_PACKET}\n" if self.packet_limit else ""  # docs/league.md
        self.config.write_text(
            f"per_listener_settings false\nallow_anonymous false\n{limit}"
            f"password_file {self.passwords}\npersistence false\nuser root\n"
            "log_dest stderr\nlog_type error\nlog_type warning\n"
            f"listener {self.port} 127.0.0.1\ncafile {self.pki.ca}\n"
            f"certfile {self.pki.certificate}\nkeyfile {self.pki.key}\n{self.limits}"
        )

    def start(self) -> Broker:
        """Start it and wait until it takes connections. A free port another program took
        between being found and mosquitto's start (mosquitto ends at once) is traded for
        another, unless the port was given (a broker started again keeps its port)."""
        for _ in range(5):
            self._write_config()
            if self._launched():
                return self
            assert not self.port_given, (
                f"mosquitto could not listen on {self.port}: {self.logged()}"
            )
            self.port = free_port()
        raise AssertionError(f"mosquitto never listened: {self.logged()}")

    def _launched(self) -> bool:
        """Started, taking connections, and still running a moment later (it is mosquitto
        that takes them, not another program on the port)."""
        self.log = open(self.folder / "mosquitto.log", "ab")  # noqa: SIM115 (closed in kill)
        self.process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.config)], stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + HANG
        while not _accepts(self.port) and self.process.poll() is None:
            assert time.monotonic() < deadline, "mosquitto never took a connection"
            time.sleep(0.02)
        time.sleep(0.2)
        if self.process.poll() is None:
            return True
        self.kill()
        return False

    def kill(self) -> None:
        """Pull its plug (SIGKILL): no goodbye to anyone."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=HANG)
        if self.process is not None:
            self.log.close()
        self.process = None

    def logged(self) -> str:
        return (self.folder / "mosquitto.log").read_text(errors="replace")[-3000:]

    def mqtt_section(
        self, *, tower_id: str = "t1", password: str = PASSWORD, extra: str = ""
    ) -> str:
        """The tower's [mqtt] section for this broker, its password in a file beside it."""
        password_file = self.folder / f"password-{tower_id}"
        password_file.write_text(password + "\n")
        return (
            f'[mqtt]\nhost = "localhost"\nport = {self.port}\nca_file = "{self.pki.ca}"\n'
            f'username = "{USER}"\npassword_file = "{password_file}"\n'
            f'tower_id = "{tower_id}"\n{extra}'
        )

    def __enter__(self) -> Broker:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.kill()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


class SilentBroker:
    """A port that accepts every connection and never says a word (nor reads one)."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.port = int(self.server.getsockname()[1])
        self.held: list[socket.socket] = []
        self.accepted = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            self.held.append(connection)
            self.accepted += 1

    def close(self) -> None:
        self.server.close()
        for connection in self.held:
            connection.close()


def guest_client(broker: Broker, name: str = "guest", queue: int = 0) -> mqtt.Client:
    """A device on the house's network that knows the broker's password (no ACL narrows it
    here), connected, its network loop running; `queue`: how many messages its client holds
    unsent at most (0: no bound; a flood at full speed wants one)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{name}-{uuid.uuid4()}")
    client.username_pw_set(LISTENER, LISTENER_PASSWORD)
    client.tls_set(ca_certs=str(broker.pki.ca))
    client.max_queued_messages_set(queue)
    ready = threading.Event()
    client.on_connect = lambda *args: ready.set()
    client.connect("localhost", broker.port)
    client.loop_start()
    assert ready.wait(HANG), "the guest never connected to mosquitto"
    return client
