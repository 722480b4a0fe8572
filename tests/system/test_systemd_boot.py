"""The kiosk under real systemd: installed as the README says, started by systemd as PID 1.

systemd boots in new PID, mount, UTS, IPC, network and cgroup namespaces (`unshare`; the cgroup
namespace rooted in a cgroup of its own, so boots from two checkouts at once never meet), on an
overlay of this machine's `/` (so nothing here is changed) with a fresh `/proc`, a read-only
`/sys`, its own cgroup2 hierarchy, tmpfs `/run`, `/tmp` and `/dev`. First, with the network,
the package goes into that overlay the README's way: a venv made by `/usr/bin/python3` with
`--system-site-packages` in /opt/qwixx-tower, the `qwixx` user with its device groups, the
configuration (every part simulated: no GPIO here) and the unchanged unit. Then systemd boots
it and the test checks, through systemd's own view (`systemctl`, `journalctl`, /proc): READY=1
and the unit's status; the hardening and the groups in force on the running tower; a tower
frozen by SIGSTOP killed by the watchdog and restarted; the unfinished game resumed; and the
device nodes a Pi gives the tower (made in the namespace's /dev, with a Pi's device groups added
to the /proc/devices that systemd reads) reachable from inside the unit under its device policy.

Needs root, util-linux's unshare and nsenter, overlayfs, systemd and a python3 that makes
venvs; it skips with the reason where any is missing. It takes about a minute and a half.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import HANG
from support.paths import ROOT
from support.wheel import UNREACHABLE, install_environment, shared_wheel

from drivers.clock import clock_synchronised
from firmware_py.app import service

UNIT = ROOT / "systemd" / "qwixx-tower.service"
SYSTEMD = "/lib/systemd/systemd"
PYTHON = "/usr/bin/python3"
GROUPS = ("gpio", "i2c", "spi", "dialout", "bluetooth", "audio")
# One worker boots systemd for all of this module's tests (--dist loadgroup).
pytestmark = pytest.mark.xdist_group("systemd-boot")
WAIT = HANG  # seconds before a step that should happen is called a hang
# Units that would reach past the namespaces into this machine's kernel or devices.
MASKED = (
    "systemd-udevd.service", "systemd-udevd-control.socket", "systemd-udevd-kernel.socket",
    "systemd-udev-trigger.service", "systemd-udev-settle.service", "systemd-sysctl.service",
    "systemd-modules-load.service", "systemd-binfmt.service", "kmod-static-nodes.service",
    "systemd-tmpfiles-setup-dev.service", "systemd-firstboot.service", "modprobe@.service",
)  # fmt: skip

# The device groups of a Raspberry Pi that this machine's kernel may lack, and for each a node
# as udev makes it there: (name in /proc/devices, its usual major, node, the node's group).
PI_DEVICES = (
    ("gpiochip", 254, "gpiochip0", "gpio"),
    ("i2c", 89, "i2c-1", "i2c"),
    ("spi", 153, "spidev0.0", "spi"),
    ("ttyACM", 166, "ttyACM0", "dialout"),
    ("ttyUSB", 188, "ttyUSB0", "dialout"),
    ("alsa", 116, "snd/controlC0", "audio"),
)

# Every part simulated (there is no GPIO here) but a main display on an I2C bus that does not
# exist: the tower warns about it, which shows the warning's priority reaching the journal.
CONFIG = """
[tower]
variant = "classic"

[[displays]]
role = "main"
chip = "ssd1306"
bus = 29
"""

INSTALL = r"""
set -eu
L=$1 WHEEL=$2
mount -t overlay overlay -o "lowerdir=/,upperdir=$L/upper,workdir=$L/work" "$L/root"
mount --rbind /dev "$L/root/dev"
mount -t proc proc "$L/root/proc"
cp "$WHEEL" "$L/unit" "$L/config.toml" "$L/root/tmp/"
chroot "$L/root" /bin/sh -eu -c '
  /usr/bin/python3 -m venv --system-site-packages /opt/qwixx-tower/.venv
  /opt/qwixx-tower/.venv/bin/pip install -q --no-compile /tmp/'"$(basename "$WHEEL")"'
  for group in gpio i2c spi dialout bluetooth audio; do groupadd -f --system "$group"; done
  useradd --system --no-create-home --groups gpio,i2c,spi,dialout,bluetooth,audio qwixx
  install -D -m 644 /tmp/config.toml /etc/qwixx-tower/config.toml
  cp /tmp/unit /etc/systemd/system/qwixx-tower.service
  for unit in '"$MASKED"'; do ln -sf /dev/null "/etc/systemd/system/$unit"; done
'
mkdir -p "$L/root/var/lib/qwixx-tower"
cp "$L/game-000001.jsonl" "$L/game-000001.seats.json" "$L/root/var/lib/qwixx-tower/"
chroot "$L/root" chown -R qwixx:qwixx /var/lib/qwixx-tower
"""

BOOT = r"""
set -eu
L=$1
R=$L/root
mount -t overlay overlay -o "lowerdir=/,upperdir=$L/upper,workdir=$L/work" "$R"
mount -t proc proc "$R/proc"
mount --bind "$L/devices" "$R/proc/devices"  # this kernel's device groups and a Pi's
mount --bind "$R/proc/sys" "$R/proc/sys" && mount -o remount,bind,ro "$R/proc/sys"
mount -t sysfs -o ro sysfs "$R/sys"
mount -t cgroup2 cgroup2 "$R/sys/fs/cgroup"
mount -t tmpfs -o mode=755 tmpfs "$R/run"
mount -t tmpfs tmpfs "$R/tmp"
mount -t tmpfs -o mode=755 tmpfs "$R/dev"
for node in "null c 1 3" "zero c 1 5" "full c 1 7" "random c 1 8" "urandom c 1 9" "tty c 5 0"
do
  set -- $node
  mknod -m 666 "$R/dev/$1" "$2" "$3" "$4"
done
mkdir "$R/dev/pts" "$R/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$R/dev/pts"
ln -s pts/ptmx "$R/dev/ptmx"
mount -t tmpfs tmpfs "$R/dev/shm"
hostname qwixx-tower
cd "$R"
export container=qwixx-test
exec chroot . /lib/systemd/systemd --unit=qwixx-tower.service
"""


def _why_not_here() -> str | None:
    """Why systemd cannot be booted in namespaces on this machine, or None if it can."""
    if os.geteuid() != 0:
        return "booting systemd in namespaces needs root"
    for tool in ("unshare", "nsenter", "chroot", SYSTEMD, PYTHON):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    if "overlay" not in Path("/proc/filesystems").read_text():
        return "the kernel has no overlayfs"
    if " - cgroup2 " not in Path("/proc/self/mountinfo").read_text():
        return "no cgroup2 hierarchy is mounted here for systemd's cgroups"
    if not os.path.isdir("/dev/shm"):
        return "no /dev/shm to hold the overlay's upper layer"
    venv = subprocess.run([PYTHON, "-c", "import ensurepip, venv"], capture_output=True)
    if venv.returncode != 0:
        return f"{PYTHON} cannot make venvs (python3-venv is not installed)"
    probe = subprocess.run(
        ["unshare", "-m", "-p", "-f", "-u", "-i", "-n", "--cgroup", "true"],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        return f"namespaces cannot be made here: {probe.stderr.strip()}"
    return None


def with_pi_devices(devices: str) -> str:
    """/proc/devices as this kernel has it, plus a Pi's character device groups it lacks (a
    free major each): what systemd reads to turn `DeviceAllow=char-NAME` into majors. The
    kernel itself has no driver behind those majors, so a node of one opens with ENXIO when
    the device cgroup lets it through, and fails with EPERM when it does not."""
    head, _, block = devices.partition("Block devices:")
    used = {int(line.split()[0]) for line in head.splitlines() if line.strip()[:1].isdigit()}
    names = {line.split()[1] for line in head.splitlines() if line.strip()[:1].isdigit()}
    added = []
    for name, major in pi_majors(used).items():
        if name not in names:
            added.append(f"{major:3d} {name}\n")
    return head.rstrip("\n") + "\n" + "".join(added) + "\nBlock devices:" + block


def pi_majors(used: set[int]) -> dict[str, int]:
    """Each of PI_DEVICES' groups with its usual major, or a free one where that is taken."""
    free = (major for major in range(254, 0, -1) if major not in used)
    majors = {}
    for name, usual, _, _ in PI_DEVICES:
        majors[name] = usual if usual not in used else next(free)
        used.add(majors[name])
    return majors


class BootedTower:
    """systemd as PID 1 in its namespaces, and ways to look inside them."""

    def __init__(self, layers: Path) -> None:
        self.layers = layers
        self.cgroup = own_cgroup(layers.name)
        self.unshare = subprocess.Popen(
            ["unshare", "-m", "-p", "-f", "-u", "-i", "-n", "--cgroup",
             "--propagation", "private", "sh", "-c", BOOT, "boot", str(layers)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=lambda: (self.cgroup / "cgroup.procs").write_text(str(os.getpid())),
        )  # fmt: skip
        self.pid = self._systemd_pid()

    def _systemd_pid(self) -> int:
        """systemd's PID out here: unshare's one child, once it runs systemd."""
        deadline = time.monotonic() + WAIT
        children = Path(f"/proc/{self.unshare.pid}/task/{self.unshare.pid}/children")
        while time.monotonic() < deadline:
            assert self.unshare.poll() is None, self.unshare.stderr.read().decode()
            for pid in children.read_text().split():
                with contextlib.suppress(OSError):  # a child that is just exec'ing or gone
                    if os.readlink(f"/proc/{pid}/exe").endswith("/lib/systemd/systemd"):
                        return int(pid)
            time.sleep(0.1)
        raise AssertionError("systemd never started")

    def run(self, *command: str) -> subprocess.CompletedProcess[str]:
        """`command` inside the tower's namespaces and root, as systemd sees them."""
        return subprocess.run(
            ["nsenter", "-t", str(self.pid), "-m", "-p", "-u", "-i", "-n", "-r", "-w", *command],
            capture_output=True,
            text=True,
            timeout=HANG,
            check=False,
        )

    def unit(self) -> dict[str, str]:
        shown = self.run(
            "systemctl", "show", "qwixx-tower.service",
            "--property=ActiveState,SubState,StatusText,MainPID,NRestarts,Result",
        )  # fmt: skip
        return dict(line.split("=", 1) for line in shown.stdout.splitlines() if "=" in line)

    def journal(self) -> str:
        return self.run("journalctl", "-u", "qwixx-tower", "--no-pager", "-o", "cat").stdout

    def until(self, what: str, condition) -> None:
        deadline = time.monotonic() + WAIT
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what} never happened; unit {self.unit()}\n{self.journal()}")
            time.sleep(0.25)

    def game_lines(self) -> list[str]:
        log = self.layers / "upper" / "var" / "lib" / "qwixx-tower" / "game-000001.jsonl"
        try:
            return log.read_text().splitlines()
        except FileNotFoundError:
            return []

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)  # PID 1 of its namespace: all in it go too
        self.unshare.wait(timeout=WAIT)
        for cgroup in sorted(self.cgroup.rglob("*/"), key=lambda p: -len(p.parts)):
            with contextlib.suppress(OSError):
                cgroup.rmdir()  # systemd's cgroups, deepest first, once their processes are gone
        with contextlib.suppress(OSError):
            self.cgroup.rmdir()


def own_cgroup(name: str) -> Path:
    """A cgroup of this machine's cgroup2 hierarchy for one boot: systemd's cgroup namespace is
    rooted there, so its system.slice/qwixx-tower.service is its own. (Rooted at the hierarchy's
    root instead, two boots at once, from two checkouts, would share that cgroup, and each
    systemd's device policy and kills would reach the other's tower.)"""
    mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    root = next(
        Path(line.split()[4]) for line in mounts if line.split(" - ")[1].startswith("cgroup2 ")
    )
    cgroup = root / f"qwixx-test-{name}"
    cgroup.mkdir()
    return cgroup


@pytest.fixture(scope="module")
def tower(tmp_path_factory) -> Iterator[BootedTower]:
    reason = _why_not_here()
    if reason is not None:
        pytest.skip(reason)
    wheel = shared_wheel(tmp_path_factory)
    layers = Path(tempfile.mkdtemp(prefix="qwixx-systemd-", dir="/dev/shm"))  # not on "/"
    try:
        for name in ("upper", "work", "root"):
            (layers / name).mkdir()
        shutil.copy(UNIT, layers / "unit")
        (layers / "config.toml").write_text(CONFIG)
        (layers / "devices").write_text(with_pi_devices(Path("/proc/devices").read_text()))
        # A kiosk never starts a game by itself: the game under way is one the journal holds
        # (computer players, who play it on), as after a power cut.
        (layers / "game-000001.jsonl").write_text(
            '{"event": "start", "variant": "classic", "players": ["Ann", "Ben", "Cleo"]}\n'
        )
        (layers / "game-000001.seats.json").write_text(
            json.dumps([{"name": n, "kind": "computer", "pad": ""} for n in ("Ann", "Ben", "Cleo")])
        )
        env = dict(install_environment(), MASKED=" ".join(MASKED))
        installed = subprocess.run(
            ["unshare", "-m", "--propagation", "private",
             "sh", "-c", INSTALL, "install", str(layers), str(wheel)],
            capture_output=True, text=True, timeout=900, env=env, check=False,
        )  # fmt: skip
        if installed.returncode != 0 and any(w in installed.stderr for w in UNREACHABLE):
            pytest.skip(f"the package index is unreachable: {installed.stderr.strip()[-300:]}")
        assert installed.returncode == 0, installed.stdout + installed.stderr
        booted = BootedTower(layers)
        try:
            yield booted
        finally:
            booted.stop()
    finally:
        shutil.rmtree(layers, ignore_errors=True)


def test_systemd_starts_the_tower_and_hears_it_is_ready(tower):
    tower.until("READY=1", lambda: tower.unit().get("ActiveState") == "active")
    unit = tower.unit()
    assert unit["SubState"] == "running"
    assert unit["StatusText"] == "the tower is ready"  # sent with READY=1
    assert unit["NRestarts"] == "0"


def test_the_running_tower_has_its_groups_and_no_privileges(tower):
    tower.until("READY=1", lambda: tower.unit().get("ActiveState") == "active")
    pid = tower.unit()["MainPID"]
    status = dict(
        line.split(":", 1) for line in tower.run("cat", f"/proc/{pid}/status").stdout.splitlines()
    )
    uid = tower.run("id", "-u", "qwixx").stdout.strip()
    assert status["Uid"].split()[0] == uid
    gids = {tower.run("getent", "group", group).stdout.split(":")[2] for group in GROUPS}
    assert gids <= set(status["Groups"].split())
    assert int(status["CapBnd"], 16) == 0 and int(status["CapEff"], 16) == 0
    assert status["NoNewPrivs"].strip() == "1"
    assert status["Seccomp"].strip() == "2"  # SystemCallFilter= in force
    mounts = tower.run("cat", f"/proc/{pid}/mountinfo").stdout.splitlines()
    root = next(line.split() for line in mounts if line.split()[4] == "/")
    assert "ro" in root[5].split(",")  # ProtectSystem=strict
    state = next(line.split() for line in mounts if line.split()[4] == "/var/lib/qwixx-tower")
    assert "rw" in state[5].split(",")  # StateDirectory= stays writable


def test_a_frozen_tower_is_killed_by_the_watchdog_and_resumes_its_game(tower):
    tower.until("READY=1", lambda: tower.unit().get("ActiveState") == "active")
    tower.until("a game under way", lambda: len(tower.game_lines()) >= 3)
    first = tower.unit()
    played = tower.game_lines()
    frozen = tower.run("kill", "-STOP", first["MainPID"])
    assert frozen.returncode == 0, frozen.stderr
    tower.until("the restart", lambda: tower.unit().get("NRestarts") == "1")
    tower.until("READY=1 again", lambda: tower.unit().get("ActiveState") == "active")
    assert tower.unit()["MainPID"] != first["MainPID"]
    assert "Watchdog timeout" in tower.run("journalctl", "--no-pager", "-o", "cat").stdout
    tower.until("the game going on", lambda: len(tower.game_lines()) > len(played))
    assert tower.game_lines()[: len(played)] == played  # the same game, carried on
    assert "resumed game-000001.jsonl" in tower.journal()


def test_the_towers_warnings_are_warnings_in_the_journal(tower):
    tower.until("READY=1", lambda: tower.unit().get("ActiveState") == "active")
    tower.until("the news of a game", lambda: "Ann" in tower.journal())  # printed: info
    warnings = tower.run(
        "journalctl", "-u", "qwixx-tower", "-p", "warning", "--no-pager", "-o", "cat"
    ).stdout
    assert "the main display does not answer" in warnings
    assert "<4>" not in warnings  # journald read the prefix as the priority
    assert "Ann" not in warnings  # the news is no warning


def test_the_tower_reads_its_clocks_state_under_its_unit(tower):
    """The namespaces share this machine's kernel clock, so the tower under its unit must say
    what the probe says here; under ProtectClock= its reading was refused (systemd issue
    26413) and the tower said nothing of a clock no time server sets."""
    tower.until("READY=1", lambda: tower.unit().get("ActiveState") == "active")
    synchronised = clock_synchronised()
    assert synchronised is not None, "this machine's kernel refused adjtimex(2) to the test"
    said = {True: service.CLOCK_SET, False: service.CLOCK_UNSET}[synchronised]
    tower.until("the clock's line", lambda: said in tower.journal())
    if not synchronised:
        warnings = tower.run(
            "journalctl", "-u", "qwixx-tower", "-p", "warning", "--no-pager", "-o", "cat"
        ).stdout
        assert said in warnings


PROBE = """
import errno, os, sys
for path in sys.argv[1:]:
    try:
        os.close(os.open(path, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY))
        print(path, "opened")
    except OSError as error:
        print(path, errno.errorcode[error.errno])
"""
# As the tower: in its unit's cgroup (the device policy), its mount namespace, its user.
AS_THE_TOWER = """
echo $$ > /sys/fs/cgroup/system.slice/qwixx-tower.service/cgroup.procs
pid=$1; shift
exec nsenter -t "$pid" -m -r -w setpriv --reuid="$(id -u qwixx)" --regid="$(id -g qwixx)" \\
    --init-groups "$@"
"""
AS_ITS_USER = """
pid=$1; shift
exec nsenter -t "$pid" -m -r -w setpriv --reuid="$(id -u qwixx)" --regid="$(id -g qwixx)" \\
    --init-groups "$@"
"""


def test_the_devices_a_pi_gives_the_tower_are_reachable_under_its_device_policy(tower):
    """DevicePolicy=closed lets through only what DeviceAllow= names: the GPIO chip, I2C, SPI,
    the pads' serial ports and sound, made as a Pi's udev makes them (root, the device's group,
    0660), open for the tower's user in the tower's cgroup (ENXIO: allowed, but no driver here).
    The control: a device the unit does not allow (major 60, for local use, 0666) is refused
    there, and gets as far as its missing driver for the same user outside the unit."""
    tower.until("READY=1", lambda: tower.unit().get("ActiveState") == "active")
    known = tower.run("cat", "/proc/devices").stdout.partition("Block")[0]  # as systemd reads
    nodes = []
    for name, _, node, group in PI_DEVICES:
        major = next(line.split()[0] for line in known.splitlines() if line.split()[1:] == [name])
        path = f"/dev/{node}"
        made = tower.run("sh", "-c", f"mkdir -p $(dirname {path}) && mknod -m 660 {path} c "
                         f"{major} 0 && chgrp {group} {path}")  # fmt: skip
        assert made.returncode == 0, made.stderr
        nodes.append(path)
    made = tower.run("mknod", "-m", "666", "/dev/not-allowed", "c", "60", "0")  # for local use
    assert made.returncode == 0, made.stderr
    pid = tower.unit()["MainPID"]
    python = ("/usr/bin/python3", "-c", PROBE)
    inside = tower.run("sh", "-c", AS_THE_TOWER, "probe", pid, *python, *nodes, "/dev/not-allowed")
    assert inside.returncode == 0, inside.stderr
    opened = dict(line.split() for line in inside.stdout.splitlines())
    assert {path: opened[path] for path in nodes} == dict.fromkeys(nodes, "ENXIO")
    assert opened["/dev/not-allowed"] == "EPERM"
    outside = tower.run("sh", "-c", AS_ITS_USER, "probe", pid, *python, "/dev/not-allowed")
    assert outside.stdout.split() == ["/dev/not-allowed", "ENXIO"], outside.stderr
