"""The tower's libraries imported once, its processes forked from there: the server side of
`support.spawn`.

Started by a test worker (`python -c ...`, its standard input the worker's lifeline), it imports
the tower's modules, says "ready" and waits on an abstract Unix socket. Each request is one
connection: a JSON header (the arguments, environment, folder, session, niceness and a setup
function of `support`) with the child's standard input, output and error passed as file
descriptors. It forks; the child becomes the tower process (those descriptors as 0, 1 and 2,
that environment, fresh `sys.std*` as Python makes them at start) and runs `qwixx-tower`'s
`main` to its exit, ending as an interpreter does (atexit, flushed output, SIGINT as
KeyboardInterrupt). The parent answers with the child's pid, and later with its exit status as
`subprocess.Popen.returncode` reads it (and the CPU time it took).

A tower's own code runs as in `python -m firmware_py.app.cli`: only the interpreter's start and
the imports (half a second of CPU a tower on this machine) are shared. Nothing here keeps
threads, so a fork copies no lock held elsewhere.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import io
import json
import os
import select
import signal
import socket
import struct
import sys
import time
from typing import Any

# What `run`, `demo`, `doctor` and the other commands import before they do anything.
PRELOADED = ("firmware_py.app.cli", "firmware_py.app.service", "firmware_py.app.demo")
HEADER = struct.Struct("!I")  # the request's JSON length, then the JSON


def serve(address: str) -> None:
    """Import the tower, then fork one child per request until the worker goes away."""
    for module in PRELOADED:
        importlib.import_module(module)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind("\0" + address)
    listener.listen(64)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # (the wake-up pipe carries it)
    gc.freeze()  # what is imported stays in pages the children share
    children: dict[int, socket.socket] = {}
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    while True:
        ready = select.select([listener, wake_read, sys.stdin], [], [])[0]
        if sys.stdin in ready and not os.read(sys.stdin.fileno(), 4096):
            _end(children)  # the worker is gone: so are the towers it left
            return
        if wake_read in ready:
            os.read(wake_read, 4096)
            _report_exits(children)
        if listener in ready:
            connection = listener.accept()[0]
            request, fds = _receive(connection)
            pid = os.fork()
            if pid == 0:
                others = [listener, connection, *children.values()]  # not the child's to hold
                _become(request, fds, closing=others, pipes=[wake_read, wake_write])
            for fd in fds:
                os.close(fd)
            children[pid] = connection
            connection.sendall(json.dumps({"pid": pid}).encode() + b"\n")


def _receive(connection: socket.socket) -> tuple[dict[str, Any], list[int]]:
    data, fds, _, _ = socket.recv_fds(connection, 65536, 3)
    while len(data) < HEADER.size or len(data) < HEADER.size + HEADER.unpack_from(data)[0]:
        more = connection.recv(65536)
        if not more:
            raise EOFError("the request ended early")
        data += more
    return json.loads(data[HEADER.size :]), fds


def _report_exits(children: dict[int, socket.socket]) -> None:
    """Each child that has ended: its status to whoever asked for it."""
    while children:
        try:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        connection = children.pop(pid, None)
        if connection is not None:
            cpu = usage.ru_utime + usage.ru_stime  # (for bench/suite.py's count per test)
            answer = {"returncode": os.waitstatus_to_exitcode(status), "cpu": cpu}
            with contextlib.suppress(OSError):  # the test that asked has gone: nobody to tell
                connection.sendall(json.dumps(answer).encode() + b"\n")
            connection.close()


def _end(children: dict[int, socket.socket]) -> None:
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _become(request: dict[str, Any], fds: list[int], closing: list[socket.socket],
            pipes: list[int]) -> None:  # fmt: skip
    """In the child: the process `python -m firmware_py.app.cli ARGS` would be; never returns."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for sock in closing:
        sock.close()
    for fd in pipes:
        os.close(fd)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    for fd in fds:
        if fd > 2:
            os.close(fd)
    os.environ.clear()
    os.environ.update(request["env"])
    time.tzset()  # local time from this TZ, as a process reads it at its start
    os.chdir(request["cwd"])
    if request["new_session"]:
        os.setsid()
    if request["niceness"]:
        os.nice(request["niceness"])
    if request["setup"]:
        module, _, name = request["setup"].partition(":")
        getattr(importlib.import_module(module), name)()
    _fresh_standard_streams()
    from firmware_py.app import cli

    sys.argv = [cli.__file__, *request["args"]]
    raise SystemExit(cli.main(request["args"]))  # unwinds to the interpreter's own exit


def _fresh_standard_streams() -> None:
    """sys.stdin, sys.stdout and sys.stderr as Python makes them at start for the new 0, 1, 2:
    line buffered on a terminal, unbuffered under PYTHONUNBUFFERED, stderr always by line."""
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    encoding = os.environ.get("PYTHONIOENCODING") or sys.stdout.encoding  # (the locale's)
    errors = sys.stdout.errors  # strict, or surrogateescape in UTF-8 mode

    def stream(fd: int, mode: str, errors: str, line: bool) -> io.TextIOWrapper:
        raw = io.FileIO(fd, mode, closefd=False)
        buffered: Any = raw if unbuffered and mode == "w" else (
            io.BufferedWriter(raw) if mode == "w" else io.BufferedReader(raw))  # fmt: skip
        return io.TextIOWrapper(buffered, encoding=encoding, errors=errors,
                                line_buffering=line, write_through=unbuffered)  # fmt: skip

    sys.stdin = sys.__stdin__ = stream(0, "r", errors, False)
    sys.stdout = sys.__stdout__ = stream(1, "w", errors, os.isatty(1))
    sys.stderr = sys.__stderr__ = stream(2, "w", "backslashreplace", True)
