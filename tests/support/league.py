"""`qwixx-tower league` as a process, for the tests and the benches: its file written for the
test's broker (the listener's login), its page on a free port of 127.0.0.1, its output read
line by line (`support.lines`); stopped (SIGTERM), killed (SIGKILL) and started again in place,
its SQLite file kept. It is forked from the worker's pre-imported parent, as towers are."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from support import HANG, spawn
from support.lines import Lines
from support.mosquitto import LISTENER, LISTENER_PASSWORD, Broker
from support.tower import ReadySocket

PAGE_LINE = re.compile(r"The league's page is at (http://\S+/)")
ON_THE_BUS = "the league hears the towers on the MQTT broker"


@contextlib.contextmanager
def reading(database: Path) -> Iterator[sqlite3.Connection]:
    """The league's file read beside it, as another reader would, closed after (`with
    sqlite3.connect()` only ends a transaction). Opened as a connection that could write
    (`mode=rw`) and told it may not (`query_only`): one opened read-only (`mode=ro`) after the
    league stopped made the file's -wal and -shm and could not remove them, and they were left
    beside a file the league had closed cleanly; this one, the last to close, removes them."""
    db = sqlite3.connect(f"file:{database}?mode=rw", uri=True)
    try:
        db.execute("PRAGMA query_only = ON")
        yield db
    finally:
        db.close()


class League:
    """One league for `broker`, keeping its file in `folder`."""

    def __init__(self, folder: Path, broker: Broker, *options: str, league: str = "") -> None:
        """`league`: more lines of its [league] section ("catch_up = 1")."""
        folder.mkdir(parents=True, exist_ok=True)
        self.folder, self.options = folder, list(options)
        self.ready = ReadySocket()  # systemd's end: where it says READY=1
        self.database = folder / "league.sqlite"
        password = folder / "password"
        password.write_text(LISTENER_PASSWORD + "\n")
        self.config = folder / "league.toml"
        self.config.write_text(
            f'[mqtt]\nhost = "localhost"\nport = {broker.port}\nca_file = "{broker.pki.ca}"\n'
            f'username = "{LISTENER}"\npassword_file = "{password}"\ntower_id = "cafe"\n'
            f'[league]\nhost = "127.0.0.1"\nport = 0\ndatabase = "{self.database}"\n{league}'
        )
        self.start()

    def start(self, *more: str) -> League:
        command = [*spawn.TOWER, "league", "--config", str(self.config), *self.options, *more]
        self.ready.forget()
        self.process = spawn.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            stdin=subprocess.DEVNULL, env={**os.environ, "NOTIFY_SOCKET": self.ready.name},
        )  # fmt: skip
        assert self.process.stdout is not None
        self.output = Lines(self.process.stdout)
        found = self.output.first(PAGE_LINE.pattern, 0, HANG)
        assert found is not None, f"the league never said where its page is: {self.output.text}"
        self.url = found[1].group(1)
        return self

    def wait_ready(self) -> None:
        """Until it tells systemd READY=1 (its page listens)."""
        self.ready.wait(self.process, HANG, lambda: self.output.text)

    def wait_on_the_bus(self, connections: int = 1) -> None:
        said = self.output.wait_until(
            lambda lines: sum(ON_THE_BUS in line for line in lines) >= connections, HANG
        )
        assert said, f"the league never got on the bus: {self.output.text}"

    def games(self) -> list[str]:
        """The ids of the games its file holds (read beside it, as another reader would)."""
        with reading(self.database) as db:
            return [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]

    def towers_online(self) -> list[str]:
        with reading(self.database) as db:
            return [row[0] for row in db.execute("SELECT tower FROM towers WHERE online")]

    def counts(self) -> dict[str, int]:
        with reading(self.database) as db:
            return dict(db.execute("SELECT what, count FROM counts").fetchall())

    def get(self, path: str) -> tuple[int, str]:
        """The page at `path`: its status and its text."""
        try:
            with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=HANG) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def stop(self) -> int:
        """SIGTERM, as systemctl stops it; its exit status."""
        if self.process.poll() is None:
            self.process.terminate()
        return int(self.process.wait(timeout=HANG))

    def pause(self) -> None:
        """SIGSTOP: it reads nothing (as a league on a busy Pi falls behind) until `go_on`."""
        self.process.send_signal(signal.SIGSTOP)

    def go_on(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        """Its plug pulled (SIGKILL)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=HANG)

    def __enter__(self) -> League:
        return self

    def __exit__(self, *_: object) -> None:
        self.kill()
        self.ready.close()


def results_of(heard: list) -> dict[str, dict]:
    """A listener's result messages by game id."""
    return {json.loads(m.payload)["id"]: json.loads(m.payload) for m in heard}
