"""A Pico in a box: main.py booted as the rp2 port boots it, under the MicroPython unix port.

usage: micropython pico_boot_checks.py PAD_DIR

Prints `pass NAME` or `FAIL NAME: ERROR` per check, then `done` (tests/pad/test_pad_firmware_boot.py
reads it). The firmware files run unchanged; what the rp2 port would give them is stood in for
through sys.modules: `sys` (platform "rp2", the USB serial as stdin and stdout), `machine` (pins,
I2C with an SSD1306 that keeps what is drawn, the watchdog, an 8-byte unique_id as an RP2040's),
`micropython` (kbd_intr), `time` and `select` on a clock that moves only when the pad waits.

The USB serial behaves as the rp2 port's: the tower's bytes arrive from the moment USB is up,
before main.py has done anything, and a 0x03 among them raises KeyboardInterrupt while the
interrupt character is 3 (ports/rp2 checks every received byte against it), which it is when
main.py starts. Bytes arrive whenever the firmware imports a module, touches the hardware or
waits, so a firmware that compiles anything before turning Ctrl-C off is interrupted.

A scripted tower at the other end answers hello (ok, or a refusal for as long as the check
says), sends a heartbeat every beat and, in a session, the STATE of a pad without a seat.
"""

import builtins
import sys

real_sys = sys
PAD_DIR = sys.argv[1]
sys.path.insert(0, PAD_DIR)

import framebuf  # noqa: E402
import protocol  # noqa: E402  (the tower's copy: loaded before the box opens)

UNIQUE_ID = b"\xe6\x61\x4c\x31\x85\xa6\x1f\x2b"  # machine.unique_id() of an RP2040: 8 bytes
IDENT = "pad-e6614c3185a61f2b"
BEAT_MS = 1000
FIRMWARE_MODULES = ("towerlink", "padapp", "padlinks", "padscreen", "board_pico", "board_unix")
JOIN_STATE = {"phase": 0, "flags": protocol.MAY_JOIN, "text": "press any button to join"}


class Unplugged(BaseException):
    """The box is done: the check pulls the cable (not an Exception: the pad's loop lets it by)."""


class Clock:
    def __init__(self):
        self.now = 0


class Tower:
    """The tower's end of the USB cable, and the cable itself (the pad's stdin and stdout)."""

    def __init__(self, box, refusals=0, refusal_status=10, refusal_text=""):
        self.box = box
        self.incoming = bytearray()  # tower -> pad, not yet read
        self.decoder = protocol.FrameDecoder()
        self.heard = []  # (time, message) from the pad
        self.refusals = refusals  # hellos to refuse before one is accepted
        self.refusal_status = refusal_status
        self.refusal_text = refusal_text
        self.seq = 0
        self.next_beat = 0  # USB is up at boot: the tower beats at once

    def arrive(self):
        """What the tower has sent by now reaches the pad's USB buffer."""
        while self.box.clock.now >= self.next_beat:
            self.send("heartbeat", {"state": 0})
            self.next_beat += BEAT_MS

    def send(self, name, fields):
        self.seq = protocol.next_seq(self.seq)
        data = protocol.encode(name, self.seq, fields)
        self.incoming += data
        if self.box.interrupt_char >= 0 and self.box.interrupt_char in data:
            raise KeyboardInterrupt  # as the rp2 port's USB receive does with Ctrl-C on

    # the pad's sys.stdin.buffer and sys.stdout.buffer

    def read(self, size=-1):
        size = len(self.incoming) if size < 0 else size
        data = bytes(self.incoming[:size])
        self.incoming = self.incoming[size:]
        return data

    def readinto(self, buffer):
        """Blocks on the rp2 port until the buffer is full: here, it must be there already."""
        size = len(buffer)
        assert len(self.incoming) >= size, "a read that would block the pad"
        buffer[:size] = self.incoming[:size]
        self.incoming = self.incoming[size:]
        return size

    def write(self, data):
        for message in self.decoder.feed(data):
            self.heard.append((self.box.clock.now, message))
            if message.name == "hello":
                self.answer_hello()
        return len(data)

    def answer_hello(self):
        if self.refusals:
            self.refusals -= 1
            fields = {"status": self.refusal_status, "text": self.refusal_text}
        else:
            fields = {"status": protocol.OK}
        fields["protocol"] = protocol.PROTOCOL_VERSION
        self.send("hello_ack", fields)
        if fields["status"] == protocol.OK:
            self.send("state", JOIN_STATE)

    def hellos(self):
        return [at for at, message in self.heard if message.name == "hello"]


class Stream:
    def __init__(self, buffer):
        self.buffer = buffer


class FakeSys:
    """The rp2 port's sys, as far as the firmware looks: the rest is the unix port's."""

    platform = "rp2"

    def __init__(self, tower):
        self.stdin = Stream(tower)
        self.stdout = Stream(tower)

    def __getattr__(self, name):
        return getattr(real_sys, name)


class Micropython:
    def __init__(self, box):
        self.box = box

    def kbd_intr(self, char):
        self.box.kbd_intr_calls.append((char, list(self.box.imported)))
        self.box.interrupt_char = char
        self.box.tick()


class Time:
    def __init__(self, box):
        self.box = box

    def ticks_ms(self):
        self.box.tick()
        return self.box.clock.now

    def ticks_diff(self, new, old):
        return new - old

    def ticks_add(self, ticks, delta):
        return ticks + delta

    def sleep_ms(self, ms):
        self.box.wait(ms)


class Select:
    POLLIN = 1

    def __init__(self, box):
        self.box = box

    def poll(self):
        return Poller(self.box)


class Poller:
    def __init__(self, box):
        self.box = box

    def register(self, obj, mask=1):
        pass

    def ipoll(self, timeout=-1):
        self.box.tick()
        return [(None, 1)] if self.box.tower.incoming else []

    def poll(self, timeout=-1):
        self.box.wait(timeout)
        return [(None, 1)] if self.box.tower.incoming else []


class Machine:
    """Pins (buttons up, or undo held down), the I2C bus with its SSD1306, the watchdog."""

    def __init__(self, box):
        self.box = box
        machine = self

        class Pin:
            IN, OUT, PULL_UP = 0, 1, 2

            def __init__(self, number, mode=0, pull=None):
                machine.box.tick()
                self.number = number

            def value(self, level=None):
                if level is None:
                    return 0 if self.number in machine.box.held_pins else 1
                return None

        self.Pin = Pin

    def I2C(self, bus, sda=None, scl=None, freq=0):
        return self.box.oled

    def WDT(self, timeout=0):
        return Watchdog()

    def unique_id(self):
        return UNIQUE_ID


class Watchdog:
    def feed(self):
        pass


class Oled:
    """An SSD1306 on the bus: the 128 bytes last written to each page."""

    def __init__(self):
        self.pages = [None] * 8
        self._page = 0
        self._expect_page = False

    def writeto(self, address, data):
        byte = data[1]
        if self._expect_page:
            self._page, self._expect_page = byte, False
        elif byte == 0x22:
            self._expect_page = True

    def writevto(self, address, parts):
        self.pages[self._page] = bytes(parts[1])

    def shows(self, index, text):
        return self.pages[index] == rendered(text)


def rendered(text):
    page = bytearray(128)
    framebuf.FrameBuffer(page, 128, 8, framebuf.MONO_VLSB).text(text, 0, 0, 1)
    return bytes(page)


class Box:
    """One boot of main.py in the box, until `until_ms` on its clock."""

    def __init__(self, until_ms=5000, held_pins=(), snap_at=(), **tower):
        self.clock = Clock()
        self.until_ms = until_ms
        self.snap_at = snap_at  # times to keep the display's pages at, in `snaps`
        self.snaps = {}
        self.held_pins = held_pins
        self.interrupt_char = 3  # pyexec turns Ctrl-C on before it runs main.py
        self.kbd_intr_calls = []  # (char, firmware modules imported before the call)
        self.imported = []
        self.interrupted_at = None
        self.oled = Oled()
        self.tower = Tower(self, **tower)
        self.returned = False

    def tick(self):
        self.tower.arrive()

    def wait(self, ms):
        if self.clock.now >= self.until_ms:
            raise Unplugged
        before = self.clock.now
        self.clock.now += max(ms, 0)
        for at in self.snap_at:
            if before < at <= self.clock.now:
                self.snaps[at] = list(self.oled.pages)
        self.tick()

    def boot(self):
        fakes = {
            "sys": FakeSys(self.tower),
            "micropython": Micropython(self),
            "machine": Machine(self),
            "time": Time(self),
            "select": Select(self),
        }
        saved = {name: real_sys.modules.get(name) for name in fakes}
        for name in FIRMWARE_MODULES:
            real_sys.modules.pop(name, None)
        real_sys.modules.update(fakes)
        real_import = builtins.__import__

        def noting_import(name, *args):
            if name in FIRMWARE_MODULES or name == "protocol":
                self.imported.append(name)
                self.tick()  # compiling takes time: bytes keep arriving
            return real_import(name, *args)

        builtins.__import__ = noting_import
        try:
            with open(PAD_DIR + "/main.py") as source:
                code = source.read()
            exec(code, {"__name__": "__main__", "__file__": PAD_DIR + "/main.py"})
            self.returned = True
        except Unplugged:
            pass
        except KeyboardInterrupt:
            self.interrupted_at = self.clock.now
        finally:
            builtins.__import__ = real_import
            for name, module in saved.items():
                if module is None:
                    real_sys.modules.pop(name, None)
                else:
                    real_sys.modules[name] = module
        return self


# --- checks ---


def check_ctrl_c_is_off_before_any_firmware_module_is_compiled():
    box = Box().boot()
    assert box.interrupted_at is None, "KeyboardInterrupt at " + str(box.interrupted_at) + " ms"
    first = box.kbd_intr_calls[0]
    assert first == (-1, []), "Ctrl-C must go off first: " + repr(box.kbd_intr_calls)
    assert 3 not in [char for char, _ in box.kbd_intr_calls], "and stay off"


def check_the_pad_keeps_answering_a_tower_whose_frames_carry_ctrl_c():
    box = Box(until_ms=5000).boot()
    assert box.interrupted_at is None, "KeyboardInterrupt at " + str(box.interrupted_at) + " ms"
    hello = [m for _, m in box.tower.heard if m.name == "hello"][0]  # noqa: RUF015
    assert hello["ident"] == IDENT, hello["ident"]
    beats = [at for at, m in box.tower.heard if m.name == "heartbeat"]
    assert len(beats) >= 4 and beats[-1] >= 4000, beats


def check_the_screen_shows_the_whole_ident_of_a_pico():
    box = Box(until_ms=2000).boot()
    assert box.oled.shows(0, "qwixx pad"), "title"
    assert box.oled.shows(1, "pad-") and box.oled.shows(2, "e6614c3185a61f2b"), "the ident"
    assert box.oled.shows(3, "press any button") and box.oled.shows(4, "to join")


def check_undo_held_at_start_leaves_the_repl_with_ctrl_c_on():
    box = Box(held_pins=(15,)).boot()
    assert box.returned and box.interrupted_at is None
    assert [char for char, _ in box.kbd_intr_calls] == [-1, 3], box.kbd_intr_calls
    assert box.tower.heard == [], "the firmware did not start"
    assert "padapp" not in box.imported, box.imported


def check_a_refused_hello_is_said_again_with_backoff_and_the_reason_shown():
    reason = "another pad with this ident is connected"
    box = Box(until_ms=40000, snap_at=(20000,), refusals=5, refusal_text=reason).boot()
    hellos = box.tower.hellos()
    gaps = [hellos[i + 1] - hellos[i] for i in range(len(hellos) - 1)]
    assert [round(gap / 1000) for gap in gaps[:5]] == [1, 2, 4, 8, 16], gaps
    assert len(hellos) == 6, "accepted at the sixth: no more hellos " + repr(hellos)
    refused = box.snaps[20000]
    words = ["tower says no:", "another pad with", "this ident is", "connected", "will try again"]
    for index, line in enumerate(words):
        assert refused[3 + index] == rendered(line), "line " + str(3 + index) + " " + line
    assert box.oled.shows(1, "pad-") and box.oled.shows(2, "e6614c3185a61f2b")
    assert box.oled.shows(3, "press any button"), "accepted after the fifth refusal"


CHECKS = [value for name, value in sorted(globals().items()) if name.startswith("check_")]

for check in CHECKS:
    try:
        check()
        print("pass", check.__name__)
    except Exception as error:
        print("FAIL", check.__name__ + ":", type(error).__name__, error)
print("done")
