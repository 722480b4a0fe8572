"""`qwixx-tower run --plain` as a process, for the tests and the benches: one helper whatever the
tower is started with, read the same way.

The tower is forked from this worker's pre-imported parent (`support.spawn`; `fork=False` execs
it, for a bench that times the start). Its news is read line by line by a thread (`support.lines`)
as it comes, so a line read ahead while the tower then pauses (as it does when its disk is full)
is still seen at once; its standard error goes with the news or is read apart
(`stderr_apart`). It is started as systemd starts it: READY=1 is heard on a private notify
socket (an abstract one: nothing on disk). A test waits for what it expects (READY=1, a line, the
exit) with `support.HANG` as the only bound, for a hang.

Given a `folder`, the tower keeps its games in folder/state and reads folder/config.toml,
written here from `pads` (simulated pads, `drivers.simulated.pad.PtyPad`) and `web`: the web
server on 127.0.0.1 at a port the test holds, so the tower takes a free one (as it does when
another program holds its port) and says which, and towers side by side never meet.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from support import HANG, spawn
from support.capabilities import without_dac_override
from support.journal import EVENT_NEWS
from support.lines import Lines

if TYPE_CHECKING:
    from drivers.simulated.pad import PtyPad

JOIN_LINE = re.compile(r"Phones join at (http://\S+)")
TICKS = os.sysconf("SC_CLK_TCK")  # /proc's unit of CPU time


class Tower:
    """One `qwixx-tower run --plain`: `args` as given, after the options named here."""

    def __init__(self, *args: str, folder: Path | None = None, state: Path | None = None,
                 pace: float | None = None, games: int | None = None,
                 pads: Sequence[PtyPad] = (), web: bool = False, keyboard: bool = False,
                 stderr_apart: bool = False, modes_apply: bool = False, niceness: int = 0,
                 open_files: str = "", table: str = "", env: Mapping[str, str] | None = None,
                 fork: bool = True, enter: Callable[[], None] | None = None,
                 sections: str = "") -> None:  # fmt: skip
        """`folder`: its configuration and state there (above); `state`: its state directory;
        `pace` and `games`: as the command line's; `keyboard`: its standard input is a
        terminal (`press`, `type`); `modes_apply`: as root, file modes hold for it as for any
        user (it loses CAP_DAC_OVERRIDE); `niceness`: it runs that much nicer; `open_files`:
        "SOFT:HARD", the limit of open files it starts with (it is then exec'd, not forked);
        `table`: lines of its configuration's [table] section ("absent_grace = 1"); `env`: its
        whole environment (this process's by default); `enter`: called in the new process
        before it runs the tower (a bench's cgroup), with `fork=False`;
        `sections`: more of its config.toml (an [mqtt] section)."""
        self.state = state or (folder / "state" if folder else None)
        self.pads = list(pads)
        self._ready = ReadySocket()
        self._held = held_port() if web else None  # the configured port: the tower takes another
        config = folder / "config.toml" if folder else None
        if config is not None:
            web_port = self._held.getsockname()[1] if self._held else None
            config.write_text(configuration(self.pads, web_port, table) + sections)
        self.command = tower_command(args, config, self.state, pace, games, niceness)
        if open_files:
            self.command = ["prlimit", f"--nofile={open_files}", "--", *self.command]
        self._keyboard = os.openpty() if keyboard else None
        self._stderr_apart = stderr_apart
        self._setup = without_dac_override if modes_apply and os.geteuid() == 0 else enter
        self._env = {**(os.environ if env is None else env), "NOTIFY_SOCKET": self._ready.name,
                     "PYTHONUNBUFFERED": "1"}  # fmt: skip
        self._popen: Callable[..., Any] = spawn.Popen if fork else subprocess.Popen
        self.start()

    def start(self) -> None:
        """Start the tower (again, once the last one has ended: a restart)."""
        self.url = ""
        self._waited = 0  # lines before this index were read by an earlier `wait_for`
        self._ready.forget()
        stdin = self._keyboard[1] if self._keyboard else subprocess.DEVNULL
        stderr = subprocess.PIPE if self._stderr_apart else subprocess.STDOUT
        self.process = self._popen(
            self.command, stdin=stdin, stdout=subprocess.PIPE, stderr=stderr, text=True,
            env=self._env, preexec_fn=self._setup,
        )  # fmt: skip
        self._output = Lines(_pipe(self.process.stdout))
        self._errors = Lines(_pipe(self.process.stderr)) if self._stderr_apart else None

    # ---- what it says -----------------------------------------------------------------------

    @property
    def lines(self) -> list[str]:
        """Every line it has printed so far (with its standard error, unless read apart)."""
        return self._output.lines

    @property
    def output(self) -> str:
        return self._output.text

    @property
    def errors(self) -> str:
        """What it said on standard error, when read apart."""
        return self._errors.text if self._errors else ""

    def said(self, words: str) -> bool:
        """`words` said: in its news, or in its log (a warning is said once, in the log)."""
        apart = self._errors.lines if self._errors else []
        return any(words in line for line in [*self.lines, *apart])

    def events(self) -> list[str]:
        """The lines that announce a game's event (each printed once it is saved)."""
        return [line for line in self.lines if EVENT_NEWS.match(line)]

    # ---- waiting for it -------------------------------------------------------------------

    def wait_ready(self, timeout: float = HANG) -> None:
        """Until it tells systemd READY=1: its journal read back, its doors open."""
        self._ready.wait(self.process, timeout, lambda: self.output)

    def wait_for(self, pattern: str, timeout: float = HANG) -> re.Match[str]:
        """The first line from now on (after the line an earlier wait found) that matches
        `pattern`, a regular expression; waits for it."""
        found = self._output.first(pattern, self._waited, timeout)
        if found is None:
            ended = "ended before saying" if self._output.ended else "never said"
            raise AssertionError(f"the tower {ended} {pattern!r}:\n{self._said_so_far()}")
        index, match = found
        self._waited = index + 1
        return match

    def wait_until(self, wanted: Callable[[list[str]], object], timeout: float = HANG) -> None:
        """Until `wanted(lines)` is true: asked at each line, and often, as it may look at the
        disk too. After `timeout` the tower is killed, and the test fails with what it said."""
        if self._output.wait_until(wanted, timeout, every=0.05):
            return
        assert not self._output.ended, f"the tower ended early: {self.finish()}"
        self.kill()
        raise AssertionError(f"the tower never got there; it said: {self.lines[-10:]}"
                             f"\nand on standard error: {self.errors[-3000:]}")  # fmt: skip

    def quiet_for(self, seconds: float, pattern: str) -> str | None:
        """A line matching `pattern` printed within `seconds` from now, or None: for what must
        not happen by itself (the window is the tower's pace many times over, not a guess of
        how long something takes)."""
        found = self._output.first(pattern, self._waited, seconds)
        return found[1].string if found else None

    def read_for(self, seconds: float) -> None:
        """Let it speak for `seconds` (its news read meanwhile): a window for what must not
        happen. It must not end meanwhile."""
        self._output.wait_until(lambda lines: False, seconds)
        assert not self._output.ended, f"the tower ended early: {self.finish()}"

    def wait_for_exit(self, timeout: float = HANG) -> int:
        """Its exit status, once it ends by itself (after --games N); all it printed read."""
        status: int = self.process.wait(timeout=timeout)
        self._read_to_the_end(timeout)
        return status

    def finish(self, timeout: float = HANG) -> str:
        """Wait for its end (its games played); what it said on standard error."""
        self.wait_for_exit(timeout)
        return self.errors

    # ---- the web server, for phones -------------------------------------------------------

    def join_url(self) -> str:
        """The address phones join at (with the table code), as the tower printed it."""
        if not self.url:
            self.url = self.wait_for(JOIN_LINE.pattern).group(1)
        return self.url

    @property
    def ws_url(self) -> str:
        base = self.join_url().split("?")[0].rstrip("/")
        return base.replace("http://", "ws://") + "/ws"

    @property
    def code(self) -> str:
        """The code in the join address (what the QR code holds: the table's key)."""
        return self.join_url().rsplit("code=", 1)[1]

    def typed_code(self) -> str:
        """The four-digit table code a person types, as the tower last printed it."""
        if re.fullmatch(r"\d{4}", self.code):
            return self.code  # a tower whose join address carries the typed code itself

        def newest(lines: list[str]) -> str | None:
            codes = [found.group(1) for line in lines
                     if (found := re.search(r"[Tt]able code (\d{4})\b", line))]  # fmt: skip
            return codes[-1] if codes else None

        code = self._output.wait_until(newest, HANG)
        assert code is not None, f"the tower never printed its table code: {self.lines[-10:]}"
        return code

    # ---- its keyboard, and its end --------------------------------------------------------

    def type(self, line: str) -> None:
        """`line` and Enter at its terminal (with `keyboard`): a keyboard seat's answer."""
        assert self._keyboard is not None, "start the tower with keyboard=True"
        os.write(self._keyboard[0], f"{line}\n".encode())

    def press(self) -> None:
        """Enter at its terminal: the simulated roll button is pressed."""
        self.type("")

    def hold(self) -> None:
        """h and Enter at its terminal: the roll button is held (the menu)."""
        self.type("h")

    def stop(self) -> str:
        """SIGTERM, as `systemctl stop` sends; everything it printed."""
        if self.process.poll() is None:
            self.process.terminate()
        self.wait_for_exit()
        return self.output

    def interrupt(self) -> int:
        """Ctrl-C (SIGINT); the exit status, once it has ended."""
        self.process.send_signal(signal.SIGINT)
        return int(self.process.wait(timeout=HANG))

    def kill(self) -> None:
        """Pull the plug (SIGKILL): nothing gets to run after this moment."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._read_to_the_end(HANG)

    # ---- for the benches ------------------------------------------------------------------

    def cpu_seconds(self) -> float:
        """CPU time it has used so far (user and system), from /proc."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def resident_mb(self, key: str = "VmRSS") -> float:
        """Its resident memory now (or, with "VmHWM", at its peak), in MB, from /proc."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def __enter__(self) -> Tower:
        return self

    def __exit__(self, *_: object) -> None:
        """Killed if still running; its socket, terminal and pads closed and unplugged."""
        self.kill()
        self._ready.close()
        if self._held is not None:
            self._held.close()
        for fd in self._keyboard or ():
            os.close(fd)
        for pad in self.pads:
            pad.unplug()

    def _read_to_the_end(self, timeout: float) -> None:
        self._output.join(timeout)
        if self._errors is not None:
            self._errors.join(timeout)

    def _said_so_far(self) -> str:
        apart = ["(on standard error:)", self.errors] if self._errors else []
        return "\n".join([*self.lines, *apart])


class ReadySocket:
    """systemd's end of a notify socket: where a tower says READY=1."""

    def __init__(self) -> None:
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        address = f"qwixx-test-{os.getpid()}-{id(self)}"
        self._socket.bind("\0" + address)
        self.name = "@" + address  # as $NOTIFY_SOCKET names an abstract socket

    def forget(self) -> None:
        """Drop what an earlier tower said: a restarted tower's READY=1 is its own."""
        self._socket.setblocking(False)
        try:
            while self._socket.recv(4096):
                pass
        except BlockingIOError:
            pass

    def wait(self, process: Any, timeout: float, printed: Callable[[], str]) -> None:
        """Until READY=1 comes; fails (with what `printed` gives) if `process` ends first."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"the tower never said READY=1; it printed:\n{printed()}"
            assert process.poll() is None, f"the tower ended before READY=1:\n{printed()}"
            self._socket.settimeout(min(left, 0.5))
            try:
                message = self._socket.recv(4096).decode()
            except TimeoutError:
                continue
            if "READY=1" in message.split("\n"):
                return

    def close(self) -> None:
        self._socket.close()


def tower_command(args: Iterable[str], config: Path | None, state: Path | None,
                  pace: float | None, games: int | None, niceness: int) -> list[str]:  # fmt: skip
    """The command line: `python -m firmware_py.app.cli run --plain`, the options given, then
    `args` (which win over them, as a later option does)."""
    command = [sys.executable, "-m", "firmware_py.app.cli", "run", "--plain"]
    for option, value in (("--pace", pace), ("--games", games), ("--config", config),
                          ("--state-dir", state)):  # fmt: skip
        if value is not None:
            command += [option, str(value)]
    niced = ["nice", "-n", str(niceness)] if niceness else []  # (spawn forks it all the same)
    return [*niced, *command, *args]


def configuration(pads: Sequence[PtyPad], web_port: int | None, table: str = "") -> str:
    """The tower's config.toml: `pads` in [pads], the web server on 127.0.0.1 at `web_port`
    (None: no [web], so no web server), and `table`'s lines in [table]."""
    ports = ", ".join(f'"{pad.path}"' for pad in pads)
    text = f"[pads]\nports = [{ports}]\n"
    if web_port is not None:
        text += f'[web]\nhost = "127.0.0.1"\nport = {web_port}\n'
    if table:
        text += f"[table]\n{table}\n"
    return text


def held_port() -> socket.socket:
    """A port of 127.0.0.1 taken and listened on, so that nothing else can have it."""
    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    held.listen()
    return held


def _pipe(stream: IO[str] | None) -> IO[str]:
    assert stream is not None  # a pipe was asked for
    return stream
