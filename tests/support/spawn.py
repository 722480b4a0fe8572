"""Tower processes for tests, forked from one pre-imported parent (`support.zygote`).

`Popen` and `run` take what `subprocess.Popen` and `subprocess.run` take. A command that is
`[sys.executable, "-m", "firmware_py.app.cli", ...]` (or that behind `nice -n N`) becomes a real
process forked from this worker's zygote: its own pid, signals, standard streams, environment,
folder and exit status, as `python -m` would give it, without the half second of CPU that
starting Python and importing the tower costs each time (several hundred towers a run). Any other
command, and every command when QWIXX_TEST_FORK=0, goes to `subprocess` unchanged.

What only a fresh interpreter shows (the installed `qwixx-tower` script, imports at start) is
tested with `subprocess` itself, on purpose.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from support import HANG
from support.zygote import HEADER

TOWER = [sys.executable, "-m", "firmware_py.app.cli"]
TESTS = str(Path(__file__).resolve().parent.parent)
FORKING = os.environ.get("QWIXX_TEST_FORK", "1") != "0"

TAIL_LINES = 40  # of each output, said when a process hangs
FORKED_CPU: list[float] = []  # CPU seconds of each forked tower that ended (bench/suite.py)

_zygote: subprocess.Popen | None = None
_address = ""
_starting = threading.Lock()


def Popen(args: Sequence[str], **options: Any) -> subprocess.Popen | Forked:
    """`subprocess.Popen(args, **options)`, forked from the zygote when `args` run the tower."""
    tower = _tower_arguments(list(args))
    if tower is None or not FORKING:
        return subprocess.Popen(args, **options)
    niceness, arguments = tower
    return Forked(list(args), arguments, niceness, **options)


def run(args: Sequence[str], *, input: str | bytes | None = None, timeout: float | None = None,
        check: bool = False, capture_output: bool = False,
        **options: Any) -> subprocess.CompletedProcess:  # fmt: skip
    """`subprocess.run`, through `Popen` above."""
    if capture_output:
        options.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if input is not None:
        options["stdin"] = subprocess.PIPE
    with Popen(args, **options) as process:
        try:
            out, err = process.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
            raise Hung(list(args), timeout or 0, out, err) from None
        status = process.poll()
    assert status is not None
    if check and status:
        raise subprocess.CalledProcessError(status, args, out, err)
    return subprocess.CompletedProcess(args, status, out, err)


class Hung(subprocess.TimeoutExpired):
    """A process that did not end in time, with the end of what it wrote before it was killed:
    a rare hang under load says where it stood."""

    def __str__(self) -> str:
        said = [f"{super().__str__()}; it was killed. The end of what it wrote:"]
        for name, text in (("stdout", self.output), ("stderr", self.stderr)):
            if isinstance(text, bytes):
                text = text.decode("utf-8", "replace")
            said += [f"--- {name}", *(text or "").splitlines()[-TAIL_LINES:]]
        return "\n".join(said)


def _tower_arguments(args: list[str]) -> tuple[int, list[str]] | None:
    """(niceness, the tower's own arguments) when `args` run the tower, else None."""
    niceness = 0
    if args[:2] == ["nice", "-n"] and len(args) > 3:
        niceness, args = int(args[2]), args[3:]
    if args[: len(TOWER)] != TOWER:
        return None
    return niceness, args[len(TOWER) :]


def _zygote_address() -> str:
    """This worker's zygote, started at the first tower; it ends when the worker does."""
    global _zygote, _address
    with _starting:
        if _zygote is None or _zygote.poll() is not None:
            _address = f"qwixx-zygote-{os.getpid()}-{time.monotonic_ns()}"
            code = f"import sys; sys.path.insert(0, {TESTS!r}); "
            code += f"from support.zygote import serve; serve({_address!r})"
            _zygote = subprocess.Popen(
                [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                cwd=TESTS, text=True,
            )  # fmt: skip
            assert _zygote.stdout is not None
            said = _zygote.stdout.readline()
            assert said == "ready\n", f"the tower's zygote did not start: {said!r}"
            atexit.register(_zygote.kill)
        return _address


class Forked:
    """A tower process forked by the zygote, used as a `subprocess.Popen` is."""

    def __init__(self, args: list[str], arguments: list[str], niceness: int, *,
                 stdin: Any = None, stdout: Any = None, stderr: Any = None, text: bool = False,
                 universal_newlines: bool = False, encoding: str | None = None,
                 errors: str | None = None, env: dict[str, str] | None = None,
                 cwd: str | os.PathLike[str] | None = None, start_new_session: bool = False,
                 preexec_fn: Callable[[], None] | None = None,
                 bufsize: int = -1) -> None:  # fmt: skip
        self.args = args
        self.returncode: int | None = None
        text = text or universal_newlines or encoding is not None or errors is not None
        self._text = (encoding or "utf-8", errors or "strict") if text else None
        self.stdin: IO[Any] | None = None
        self.stdout: IO[Any] | None = None
        self.stderr: IO[Any] | None = None
        theirs: list[int] = []  # the child's 0, 1 and 2
        opened: list[int] = []  # descriptors opened here for the child, closed once sent
        for target, given in enumerate((stdin, stdout, stderr)):
            fd, ours = self._child_end(target, given, theirs, opened)
            theirs.append(fd)
            if ours is not None:
                setattr(self, ("stdin", "stdout", "stderr")[target], ours)
        request = {
            "args": arguments, "env": dict(os.environ if env is None else env),
            "cwd": os.fspath(cwd) if cwd is not None else os.getcwd(),
            "new_session": start_new_session, "niceness": niceness,
            "setup": _named(preexec_fn),
        }  # fmt: skip
        self._connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._connection.connect("\0" + _zygote_address())
            body = json.dumps(request).encode()
            socket.send_fds(self._connection, [HEADER.pack(len(body)) + body], theirs)
        finally:
            for fd in opened:
                os.close(fd)
        self._answers = self._connection.makefile("rb")
        self._status_lock = threading.Lock()
        self._readers: list[threading.Thread] | None = None  # communicate's, once started
        self._output: dict[str, Any] = {}  # what they read: "out" and "err"
        self.pid: int = json.loads(self._answers.readline())["pid"]

    def _child_end(self, target: int, given: Any, earlier: list[int],
                   opened: list[int]) -> tuple[int, IO[Any] | None]:  # fmt: skip
        """The descriptor the child gets as `target`, and our end of it when it is a pipe."""
        if given is None:
            return target, None
        if given is subprocess.STDOUT:
            return earlier[1], None
        if given is subprocess.DEVNULL:
            opened.append(os.open(os.devnull, os.O_RDWR))
            return opened[-1], None
        if given is subprocess.PIPE:
            read, write = os.pipe()
            ours, theirs = (write, read) if target == 0 else (read, write)
            opened.append(theirs)
            return theirs, self._wrap(ours, "w" if target == 0 else "r")
        return (given if isinstance(given, int) else given.fileno()), None

    def _wrap(self, fd: int, mode: str) -> IO[Any]:
        raw = open(fd, mode + "b")  # noqa: SIM115 (ours to close, at __exit__)
        if self._text is None:
            return raw
        encoding, errors = self._text
        return io.TextIOWrapper(raw, encoding=encoding, errors=errors, write_through=True)

    def poll(self) -> int | None:
        if self.returncode is None and select.select([self._connection], [], [], 0)[0]:
            self._read_status()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            if not select.select([self._connection], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            self._read_status()
        assert self.returncode is not None
        return self.returncode

    def _read_status(self) -> None:
        with self._status_lock:
            if self.returncode is None:
                line = self._answers.readline()
                # (no line: the zygote itself ended, and killed its children on the way out)
                answer = json.loads(line) if line else {"returncode": -9, "cpu": 0.0}
                self.returncode = answer["returncode"]
                FORKED_CPU.append(answer["cpu"])

    def send_signal(self, signal_number: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signal_number)

    def terminate(self) -> None:
        self.send_signal(15)

    def kill(self) -> None:
        self.send_signal(9)

    def communicate(self, input: str | bytes | None = None,
                    timeout: float | None = None) -> tuple[Any, Any]:  # fmt: skip
        """Write `input`, read both outputs to their end, wait: as `Popen.communicate` (called
        again after a timeout, it goes on reading where the first call's readers are)."""
        if self._readers is None:
            self._readers = self._start_readers()
            if self.stdin is not None:
                if input:
                    with contextlib.suppress(BrokenPipeError):
                        self.stdin.write(input)
                self.stdin.close()
        deadline = None if timeout is None else time.monotonic() + timeout
        for reader in self._readers:
            reader.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
            if reader.is_alive():
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
        self.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return self._output.get("out"), self._output.get("err")

    def _start_readers(self) -> list[threading.Thread]:
        readers = [
            threading.Thread(target=lambda n=name, s=stream: self._output.__setitem__(n, s.read()))
            for name, stream in (("out", self.stdout), ("err", self.stderr)) if stream is not None
        ]  # fmt: skip
        for reader in readers:
            reader.daemon = True
            reader.start()
        return readers

    def __enter__(self) -> Forked:
        return self

    def __exit__(self, *_: object) -> None:
        for stream in (self.stdout, self.stderr, self.stdin):
            if stream is not None:
                stream.close()
        self.wait(HANG)
        self._answers.close()
        self._connection.close()


def _named(function: Callable[[], None] | None) -> str | None:
    """A set-up function by its import name (the child imports it): `support.x:name`."""
    if function is None:
        return None
    assert function.__module__.startswith("support."), "set-up functions live in support"
    return f"{function.__module__}:{function.__qualname__}"


def qwixx_tower(*args: str) -> subprocess.CompletedProcess[str]:
    """`qwixx-tower ARGS` run to its end (as a person types it), its output as text."""
    return run(
        [sys.executable, "-m", "firmware_py.app.cli", *args],
        capture_output=True,
        text=True,
        check=False,
    )
