"""`qwixx-tower doctor` says, part by part, what answers and what does not."""

from __future__ import annotations

import io
from itertools import takewhile

import pytest

from firmware_py.app import paths
from firmware_py.app.config import SIMULATED, parse_config
from firmware_py.app.doctor import report, run_checks


def doctor(config, tmp_path) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = report(run_checks(config, tmp_path), out)
    return status, out.getvalue().splitlines()


@pytest.fixture
def kiosk_config(monkeypatch, tmp_path):
    """Where doctor looks for the kiosk's configuration file: in `tmp_path`, not yet there."""
    path = tmp_path / "etc" / "config.toml"
    monkeypatch.setattr(paths, "CONFIG_FILE", path)
    return path


def test_a_simulated_tower_is_all_well(tmp_path, kiosk_config):
    status, lines = doctor(SIMULATED, tmp_path)
    assert status == 0
    assert lines[0] == "[ok] no configuration file: every part is simulated"
    assert any(line.startswith("[ok] roll button on GPIO17 (simulated): answers") for line in lines)
    assert any(
        line.startswith("[ok] main display (simulated): drew a test pattern") for line in lines
    )
    assert lines[-1] == "everything answers"


def test_doctor_without_config_on_a_kiosk_says_it_checked_no_real_part(tmp_path, kiosk_config):
    """A maker on the kiosk who leaves out --config was told "everything answers" of a
    simulated tower, a dark display and all."""
    kiosk_config.parent.mkdir()
    kiosk_config.write_text("[button]\npin = 17\n")
    status, lines = doctor(SIMULATED, tmp_path)
    assert status == 1
    assert lines[0] == (
        "[!!] no configuration file given: every part is simulated, not this machine's "
        f"(doctor --config {kiosk_config} checks them)"
    )
    assert lines[-1] == "1 part(s) need attention"


def test_a_display_on_a_missing_i2c_bus_and_an_absent_pad_are_named(tmp_path):
    config = parse_config(
        {
            "displays": [{"role": "main", "chip": "sh1106", "bus": 29, "address": 0x3D}],
            "pads": {"ports": [str(tmp_path / "qwixx-pad-*")]},
        }
    )
    status, lines = doctor(config, tmp_path)
    assert status == 1
    display = next(line for line in lines if "main display" in line)
    assert display.startswith("[!!] main display (sh1106 at 0x3d, I2C bus 29): ")  # and the hint
    assert "29" in display
    pads = next(line for line in lines if line.startswith("[!!] pads"))
    assert "is a pad plugged in?" in pads
    assert lines[-1] == "2 part(s) need attention"


def test_an_unwritable_journal_directory_is_reported(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    status, lines = doctor(SIMULATED, blocker / "games")
    assert status == 1
    assert any(line.startswith("[!!] game journal") and "cannot write" in line for line in lines)


def test_doctor_shows_where_phones_join_with_a_qr_code_to_scan(tmp_path):
    """Issue 24: doctor never showed where phones join."""
    import zxingcpp
    from PIL import Image

    config = parse_config({"web": {"enabled": True, "host": "127.0.0.1", "port": 8088}})
    status, lines = doctor(config, tmp_path)
    assert status == 0
    start = lines.index("[ok] phones join at http://127.0.0.1:8088/ (code on the main display)")
    qr = list(takewhile(lambda line: not line.startswith("["), lines[start + 1 :]))
    picture = Image.new("L", (len(qr[0]) + 8, 2 * len(qr) + 8), 0)
    for y, line in enumerate(qr):  # half blocks, light modules drawn as on a dark terminal
        for x, char in enumerate(line):
            top, bottom = char in "▀█", char in "▄█"
            picture.putpixel((x + 4, 2 * y + 4), 255 if top else 0)
            picture.putpixel((x + 4, 2 * y + 5), 255 if bottom else 0)
    big = picture.resize((picture.width * 8, picture.height * 8), Image.Resampling.NEAREST)
    assert [found.text for found in zxingcpp.read_barcodes(big)] == ["http://127.0.0.1:8088/"]


def test_doctor_shows_the_qr_codes_link_with_the_key_the_tower_keeps(tmp_path):
    """Once the tower has made its key (the link a printed QR code holds), doctor shows that
    link: the same the main display shows, to print; it writes none itself."""
    from firmware_py.seats.phones.join_key import kept_join_key

    config = parse_config({"web": {"enabled": True, "host": "127.0.0.1", "port": 8088}})
    key = kept_join_key(tmp_path)
    status, lines = doctor(config, tmp_path)
    assert status == 0
    assert f"[ok] phones join at http://127.0.0.1:8088/?code={key}" in lines
    assert kept_join_key(tmp_path) == key


def test_a_problem_both_displays_share_is_said_once(tmp_path):
    """Issue 39: two displays on a bus that is not there were two lines of one problem."""
    both = [{"role": role, "chip": "sh1106", "bus": 29, "address": address}
            for role, address in (("main", 0x3C), ("options", 0x3D))]  # fmt: skip
    status, lines = doctor(parse_config({"displays": both}), tmp_path)
    said = [line for line in lines if line[5:].startswith(("main", "options"))]
    assert len(said) == 1, lines
    assert said[0].startswith("[!!] main and options displays (both on I2C bus 29): cannot open")
    assert "/dev/i2c-29" in said[0]
    assert status == 1 and lines[-1] == "1 part(s) need attention"


def test_phones_on_a_host_the_tower_cannot_listen_on_are_one_sentence(tmp_path):
    """Issue 39: doctor said [ok] where `run` then could not listen (192.0.2.1 is no address of
    this machine: TEST-NET-1)."""
    config = parse_config({"web": {"enabled": True, "host": "192.0.2.1", "port": 8088}})
    status, lines = doctor(config, tmp_path)
    (phones,) = [line for line in lines if line[5:].startswith("phones")]
    assert phones == (
        "[!!] phones: the tower cannot listen on 192.0.2.1 port 8088 (Cannot assign requested "
        'address): set [web] host to an address of this machine, or "0.0.0.0" for all'
    )
    assert status == 1


def test_a_phones_port_in_use_is_no_problem_the_tower_takes_another(tmp_path):
    """The running tower holds its port while doctor checks (and another program's port
    makes `run` take a free one): doctor still shows where phones join."""
    import socket

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        config = parse_config({"web": {"enabled": True, "host": "127.0.0.1", "port": port}})
        status, lines = doctor(config, tmp_path)
    assert f"[ok] phones join at http://127.0.0.1:{port}/ (code on the main display)" in lines
    assert status == 0


def test_every_line_of_a_simulated_tower_fits_an_80_column_terminal(tmp_path):
    """A newcomer runs doctor in an 80x24 terminal: no check's line wraps (the lock lights'
    was 91 columns)."""
    _, lines = doctor(SIMULATED, tmp_path)
    wide = [line for line in lines if len(line) > 80 and not line.startswith("[ok] game journal")]
    assert wide == []  # (the journal's line names its directory, as long as its path is)
    lights = next(line for line in lines if "lock lights" in line)
    assert (
        lights == "[ok] lock lights on GPIO5/6/13/19 (red/yellow/green/blue, simulated): switched"
    )
