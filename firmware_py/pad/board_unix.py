"""The pad's board on the MicroPython unix port: a pseudo-terminal for the cable, text for the rest.

    micropython main.py [PORT [IDENT]]      (or QWIXX_PAD_PORT, QWIXX_PAD_IDENT)

The data channel is the terminal device PORT (a pty's slave side), set raw and read without
waiting. Buttons are lines on standard input, played in order on the pad's clock:

    down NAME | up NAME          press or let go (NAME: red yellow green blue pass undo)
    tap NAME                     down, TAP_MS later up, then GAP_MS rest
    hold NAME [MS]               down, MS (default HOLD_MS) later up, then GAP_MS rest
    mem                          print "mem FREE ALLOCATED" (bytes of the heap)
    quit                         stop (so does the end of standard input)

Standard output: `screen|LINE0|...|LINE7` whenever the screen changes, `led 1` / `led 0` when
the status LED does, `mem ...` when asked, `error ...` for an error the loop survived.
QWIXX_PAD_BEAT_MS sets the heartbeat (and retry) period, so tests need not wait whole seconds.
It mirrors board_pico.Board exactly: ident, timing, ticks_ms, random16, read, write, buttons,
show, led, wait, running, report.
"""

import gc
import os
import select
import sys
import termios
import time

import padapp

REOPEN_MS = 200  # how often to try a port that is not there (yet)
READ_SIZE = 512
VMIN, VTIME = 6, 5  # their indices among termios' control characters, on Linux


class Board:
    """The unix port's stand-in for a Pico pad."""

    def __init__(self, argv=None):
        args = sys.argv[1:] if argv is None else argv
        self.path = args[0] if args else os.getenv("QWIXX_PAD_PORT")
        if not self.path:
            raise SystemExit("usage: micropython main.py PORT [IDENT] (or set QWIXX_PAD_PORT)")
        given = args[1] if len(args) > 1 else os.getenv("QWIXX_PAD_IDENT")
        self.ident = given or "pad-unix"
        beat = os.getenv("QWIXX_PAD_BEAT_MS")
        self.timing = {"beat_ms": int(beat), "retry_ms": int(beat)} if beat else {}
        self.port = None
        self.raw = 0  # buttons down, bit i for padapp.BUTTONS[i]
        self.steps = []  # button steps still to play: [delay ms, button or -1, down]
        self.step_at = 0
        self._real_at = time.ticks_ms()  # the real clock when the pad's clock was last read
        self._clock = self._real_at  # the pad's clock (ticks_ms)
        self._changed_at = time.ticks_add(self._clock, -padapp.DEBOUNCE_MS)  # last level change
        self._led = None
        self._stopped = False
        self._opened_at = None
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self._open(self.ticks_ms())

    # --- time and identity ---

    def ticks_ms(self):
        """The pad's clock: the real one, except that while a finger is on the buttons (steps
        still to play) it moves at most LOOP_MS between two looks. A Pico's loop looks every
        LOOP_MS; a loaded machine can hold this process up for seconds, and a hold of pass
        would then be seen only after its release, and pass nothing. Here the pad sees every
        press as a Pico would, only later."""
        real = time.ticks_ms()
        advance = time.ticks_diff(real, self._real_at)
        self._real_at = real
        if self.steps:
            advance = min(advance, padapp.LOOP_MS)
        self._clock = time.ticks_add(self._clock, advance)
        return self._clock

    def random16(self):
        data = os.urandom(2)
        return data[0] | data[1] << 8

    # --- the data channel ---

    def _open(self, now):
        """Open the port raw, reads returning at once (VMIN 0, VTIME 0); retry later if absent."""
        self._opened_at = now
        try:
            port = open(self.path, "r+b")  # noqa: SIM115 (open while the board lives)
        except OSError:
            return
        fd = port.fileno()
        termios.setraw(fd)
        attrs = termios.tcgetattr(fd)
        attrs[6][VMIN] = 0
        attrs[6][VTIME] = 0
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
        self.port = port
        self.poller.register(port, select.POLLIN)

    def _close(self):
        port, self.port = self.port, None
        if port is not None:
            self.poller.unregister(port)
            try:  # noqa: SIM105 (MicroPython has no contextlib)
                port.close()
            except OSError:
                pass

    def read(self):
        """What has arrived on the line (b"" for nothing); a vanished port is reopened."""
        now = self.ticks_ms()
        if self.port is None:
            if time.ticks_diff(now, self._opened_at) >= REOPEN_MS:
                self._open(now)
            return b""
        try:
            return self.port.read(READ_SIZE) or b""
        except OSError:
            self._close()
            return b""

    def write(self, data):
        """Send bytes; while the port is gone they are lost, as on a USB cable."""
        if self.port is None:
            return
        try:
            self.port.write(data)
        except OSError:
            self._close()

    # --- buttons ---

    def buttons(self, now):
        """The raw button levels now, after playing the steps that are due. A level stays at
        least DEBOUNCE_MS of the pad's time, as under a real finger: when the loop was held up
        (a loaded machine), the steps come late rather than a tap coming and going unseen."""
        self._read_commands(now)
        while self.steps and time.ticks_diff(now, self.step_at) >= self.steps[0][0]:
            if time.ticks_diff(now, self._changed_at) < padapp.DEBOUNCE_MS:
                break
            delay, button, down = self.steps.pop(0)
            self.step_at = time.ticks_add(self.step_at, delay)
            if button >= 0:
                self.raw = self.raw | 1 << button if down else self.raw & ~(1 << button)
                self._changed_at = now
        return self.raw

    def _read_commands(self, now):
        while self._stdin_ready():
            line = sys.stdin.readline()
            if not line:
                self._stopped = True
                return
            self._command(line.split(), now)

    def _stdin_ready(self):
        return any(obj is sys.stdin for obj, _ in self.poller.poll(0))

    def _command(self, words, now):
        if not words:
            return
        verb = words[0]
        if verb == "quit":
            self._stopped = True
        elif verb == "mem":
            gc.collect()
            print("mem", gc.mem_free(), gc.mem_alloc())
        elif verb in ("down", "up", "tap", "hold") and len(words) > 1:
            self._queue(verb, words, now)
        else:
            print("error unknown command:", " ".join(words))

    def _queue(self, verb, words, now):
        if words[1] not in padapp.BUTTONS:
            print("error no button", words[1])
            return
        button = padapp.BUTTONS.index(words[1])
        if not self.steps:
            self.step_at = now
        if verb in ("down", "up"):
            self.steps.append([0, button, verb == "down"])
            return
        held = padapp.TAP_MS if verb == "tap" else padapp.HOLD_MS
        if verb == "hold" and len(words) > 2:
            held = int(words[2])
        self.steps.append([0, button, True])
        self.steps.append([held, button, False])
        self.steps.append([padapp.GAP_MS, -1, False])

    # --- screen, LED, the loop ---

    def show(self, lines):
        print("screen|" + "|".join(line.replace("|", "/") for line in lines))

    def led(self, on):
        if on != self._led:
            self._led = on
            print("led", 1 if on else 0)

    def wait(self, ms):
        """Sleep up to `ms`, less if a button step falls due; wake on input from either side."""
        if self.steps:
            now = self.ticks_ms()
            due = self.steps[0][0] - time.ticks_diff(now, self.step_at)
            settled = padapp.DEBOUNCE_MS - time.ticks_diff(now, self._changed_at)
            ms = max(0, min(ms, max(due, settled)))
        self.poller.poll(ms)

    def running(self):
        return not self._stopped

    def report(self, error):
        print("error", repr(error))
        sys.print_exception(error, sys.stderr)
