"""`qwixx-tower run` as a person meets it: a real process on a pseudo-terminal of a given size,
whose output goes through pyte (a VT100 terminal emulator), so a test reads what is on screen,
types keys, and counts what scrolled off."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pyte

from support import HANG, spawn

LEAVE_ALTERNATE_SCREEN = b"\x1b[?1049l"


def begun(data: bytes, sequence: bytes) -> int:
    """How many bytes at the end of `data` are the beginning of `sequence` (0: none)."""
    for size in range(min(len(sequence) - 1, len(data)), 0, -1):
        if data.endswith(sequence[:size]):
            return size
    return 0


class BeforeLeaving:
    """Of the tower's output, what pyte (which has no alternate screen) draws: every byte
    before the tower leaves its alternate screen; what it prints after that (its last news)
    goes to the terminal's main screen, which pyte would scroll. The kernel hands a terminal's
    bytes to its reader in pieces cut anywhere (on a busy machine, a full buffer cuts them
    inside an escape sequence): a piece that ends with the beginning of the sequence that
    leaves is held back until the next piece says whether the sequence is complete."""

    def __init__(self) -> None:
        self.left = False  # the tower left its alternate screen: nothing more is drawn
        self._held = b""  # the end of the last piece: perhaps the start of the leaving

    def take(self, piece: bytes) -> bytes:
        """What of `piece` (the next bytes the tower wrote) to draw."""
        if self.left:
            return b""
        data = self._held + piece
        drawn, mark, _ = data.partition(LEAVE_ALTERNATE_SCREEN)
        if mark:
            self.left, self._held = True, b""
            return drawn
        cut = len(data) - begun(data, LEAVE_ALTERNATE_SCREEN)
        self._held = data[cut:]
        return data[:cut]


class TowerTerminal:
    """The tower running in a terminal of `columns` x `lines`."""

    def __init__(
        self,
        args: list[str],
        *,
        columns: int = 80,
        lines: int = 24,
        command: str = "run",
        log_here: bool = False,
    ) -> None:
        """`log_here`: the tower's standard error is this terminal too, as when a person
        runs it (else a pipe, so that a test reads only what the tower draws)."""
        self._screen = pyte.HistoryScreen(columns, lines, history=100_000)
        self._stream = pyte.ByteStream(self._screen)
        self._undrawn = bytearray()  # written, not yet drawn: pyte draws when a test looks
        self.raw = b""  # every byte the tower wrote
        self._before_leaving = BeforeLeaving()  # what of the bytes pyte draws
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        env = dict(os.environ, COLUMNS=str(columns), LINES=str(lines), TERM="xterm")
        self.process = spawn.Popen(
            [sys.executable, "-m", "firmware_py.app.cli", command, *args],
            stdin=slave, stdout=slave, stderr=slave if log_here else subprocess.PIPE, env=env,
            start_new_session=True,
        )  # fmt: skip
        os.close(slave)
        self.master = master

    @property
    def screen(self) -> pyte.HistoryScreen:
        """The terminal's screen as the tower's output so far has drawn it (drawn only when
        a test looks: a test that reads only the bytes spends no time emulating)."""
        if self._undrawn:
            self._stream.feed(bytes(self._undrawn))
            self._undrawn.clear()
        return self._screen

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def read(self, seconds: float = 0.1) -> None:
        """Take in what the tower wrote within `seconds`."""
        self._read(seconds, to_the_end=False)

    def read_to_end(self, timeout: float = HANG) -> None:
        """Take in everything the ended tower wrote: the kernel hands a terminal's bytes to
        its reader later (later still on a busy machine), so a quiet moment does not mean the
        end; the end is when the terminal says its far end has closed."""
        self._read(timeout, to_the_end=True)

    def _read(self, seconds: float, *, to_the_end: bool) -> None:
        """Read for up to `seconds`; stop early when the tower's end is closed, and (unless
        `to_the_end`) at the first quiet moment."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if select.select([self.master], [], [], left)[0]:
                if not self._take():
                    return  # the tower's end is closed
            elif not to_the_end:
                return  # a quiet moment

    def _take(self) -> bool:
        """Read what is waiting on the terminal; False once the tower's end is closed."""
        try:
            data = os.read(self.master, 65536)
        except OSError:  # every holder of the tower's end has closed it (EIO)
            return False
        if not data:
            return False
        self.raw += data
        self._undrawn += self._before_leaving.take(data)
        return True

    @property
    def left(self) -> bool:
        """The tower left its alternate screen (pyte has none): nothing more is drawn."""
        return self._before_leaving.left

    def wait_for(self, words: str, timeout: float = HANG) -> str:
        """Read until `words` are on screen; the screen's text then."""
        deadline = time.monotonic() + timeout
        while words not in self.text():
            assert time.monotonic() < deadline, f"never showed {words!r}:\n{self.text()}"
            self.read(0.05)
        return self.text()

    def wait_for_end(self, timeout: float = HANG) -> int:
        """Read (a terminal nobody reads blocks its writer) until the tower ends by itself;
        its exit status."""
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            assert time.monotonic() < deadline, f"the tower did not end:\n{self.text()}"
            self.read(0.05)
        self.read_to_end()
        return self.process.returncode

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def scrolled_lines(self) -> int:
        """Lines the tower pushed off the top of the screen (into the terminal's scrollback)."""
        return len(self.screen.history.top)

    def stop(self) -> int:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.read_to_end()
        os.close(self.master)
        return self.process.returncode


def carried_on_at_80x24(tmp_path, game) -> TowerTerminal:
    """The tower in an 80x24 terminal, carrying on `game` (a `support.rules.recording_game`)
    from its journal with Ann at the keyboard."""
    from firmware_py.journal.journal import Journal
    from firmware_py.seating import KEYBOARD, SeatSpec

    journal = Journal(tmp_path)
    start, *events = game.log
    with journal.begin(start) as game_log:
        for event in events:
            game_log.append(event)
        journal.note_seats(game_log.path, [SeatSpec("Ann", KEYBOARD)])
    return TowerTerminal(["--state-dir", str(tmp_path), "--pace", "4"], columns=80, lines=24)
