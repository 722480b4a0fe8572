"""`doctor` names what a maker must copy into the configuration: each plugged-in pad's ident
(for `[pads] names`), read without opening the port the running tower holds, and the ids of
the Pixels dice it hears (for `[dice.pixels]`).

The kernel's sysfs tree is laid out in a temporary directory the way Linux shows a Pico on
USB: the tty's device is the USB interface, whose parent device has the serial number
MicroPython gives it (the hex of the Pico's unique id). The dice advertise through the Pixels
driver tests' radio.
"""

from __future__ import annotations

import io
import os

import pytest

from drivers.simulated.pixels import ROLLED, SimulatedScanner
from firmware_py.app import doctor
from firmware_py.app.config import parse_config
from firmware_py.app.doctor import report, run_checks

SERIAL = "e6614c311b7a2f2e"  # a Pico's 8-byte unique id, as MicroPython's USB serial number


TERMINALS: list[tuple[int, int]] = []  # the pseudo-terminals standing in for ports, held open


def plug_pico(tmp_path, tty: str, serial: str):
    """A terminal as /dev/<tty> (a pseudo-terminal behind it), its /dev/qwixx-pad-<serial>
    link (the udev rule's), and the terminal's sysfs entry."""
    dev = tmp_path / "dev"
    dev.mkdir(exist_ok=True)
    TERMINALS.append(os.openpty())
    terminal = os.ttyname(TERMINALS[-1][1])
    (dev / tty).symlink_to(terminal)
    link = dev / f"qwixx-pad-{serial}"
    link.symlink_to(dev / tty)
    usb = tmp_path / "sys" / "devices" / "usb1" / f"1-{tty[-1]}"
    (usb / f"1-{tty[-1]}:1.0").mkdir(parents=True)
    (usb / "serial").write_text(serial + "\n")
    ttys = tmp_path / "sys" / "class" / "tty" / os.path.basename(terminal)
    ttys.mkdir(parents=True)
    (ttys / "device").symlink_to(usb / f"1-{tty[-1]}:1.0")
    return link


def test_doctor_lists_each_pads_ident_and_whose_it_is(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor, "SYS_CLASS_TTY", str(tmp_path / "sys" / "class" / "tty"))
    ann = plug_pico(tmp_path, "ttyACM0", SERIAL)
    other = plug_pico(tmp_path, "ttyACM1", "E6614C3100000001")  # older MicroPython: upper case
    config = parse_config(
        {"pads": {"ports": [str(tmp_path / "dev" / "qwixx-pad-*")],
                  "names": {f"pad-{SERIAL}": "Ann"}}}
    )  # fmt: skip
    out = io.StringIO()
    report(run_checks(config, tmp_path / "games"), out)
    pads = next(line for line in out.getvalue().splitlines() if line.startswith("[ok] pads"))
    assert f"{ann} (pad-{SERIAL}, Ann)" in pads
    assert f"{other} (pad-e6614c3100000001, not in [pads] names)" in pads


def test_doctor_says_a_device_that_is_not_a_serial_port_is_none(tmp_path):
    """/dev/null or /dev/zero in [pads] ports (a typo, a guess) were "[ok] pads: 2 found"; the
    tower then logged "Inappropriate ioctl for device" and no pad ever joined."""
    (tmp_path / "pad.txt").write_text("")
    config = parse_config({"pads": {"ports": ["/dev/zero", str(tmp_path / "pad.txt")]}})
    out = io.StringIO()
    report(run_checks(config, tmp_path / "games"), out)
    pads = next(line for line in out.getvalue().splitlines() if "pads:" in line)
    assert pads == (f"[!!] pads: not serial ports: /dev/zero, {tmp_path / 'pad.txt'} "
                    "(a pad's is a device such as /dev/ttyACM0)")  # fmt: skip


def test_a_port_without_a_usb_serial_is_listed_without_an_ident(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor, "SYS_CLASS_TTY", str(tmp_path / "nowhere"))
    (tmp_path / "ttyS0").write_bytes(b"")
    assert doctor.pad_ident(str(tmp_path / "ttyS0")) is None


# ---- Pixels dice: doctor listens and names what it hears ------------------------------------


class AdvertisingDice(SimulatedScanner):
    """The radio with dice that advertise as soon as anyone listens (each still, on face 3)."""

    def __init__(self, die_ids):
        super().__init__()
        self.die_ids = die_ids

    async def start(self, listener):
        await super().start(listener)
        for die_id in self.die_ids:
            self.advertise(die_id, ROLLED, 3)


def pixels_config(**dice):
    return parse_config({"dice": {"source": "pixels", "pixels": dice}})


def test_doctor_names_the_pixels_dice_it_hears_and_their_roles(monkeypatch):
    monkeypatch.setattr(doctor, "PIXELS_LISTEN", 0.01)
    config = pixels_config(**{"white 1": 0x1A2B0001, "white 2": 0x1A2B0002})
    radio = AdvertisingDice([0x1A2B0001, 0x1A2B0002, 0x0C0FFEE0])
    ok, words = doctor._dice(config, radio)
    assert ok
    assert "0x1a2b0001 (white 1), 0x1a2b0002 (white 2)" in words
    assert "0x0c0ffee0 (not in [dice.pixels])" in words  # a new die shows its id to bind it
    assert radio.stops == 1


def test_a_bound_die_not_heard_is_named_with_what_to_do(monkeypatch):
    monkeypatch.setattr(doctor, "PIXELS_LISTEN", 0.01)
    config = pixels_config(**{"white 1": 0x1A2B0001, "white 2": 0x1A2B0002})
    ok, words = doctor._dice(config, AdvertisingDice([0x1A2B0001]))
    assert not ok
    assert "not heard: white 2 (0x1a2b0002)" in words and "roll them" in words


def test_without_bluetooth_doctor_says_to_switch_it_on_in_one_line(monkeypatch):
    """This machine's real radio: bleak, BlueZ's D-Bus. Where there is none, one sentence."""
    if os.path.exists("/run/dbus/system_bus_socket"):
        pytest.skip("this machine has a D-Bus system bus: Bluetooth may well be there")
    monkeypatch.setattr(doctor, "PIXELS_LISTEN", 0.01)
    ok, words = doctor._dice(pixels_config(**{"white 1": 1, "white 2": 2}))
    assert not ok
    assert words.startswith("dice: Bluetooth cannot be used (")
    assert "sudo rfkill unblock bluetooth" in words and "\n" not in words
