"""One tower at a time on a state directory (and one league on its file).

Two towers on one directory (`run --config /etc/qwixx-tower/config.toml` typed beside the
service, whose configuration names the same `state_dir`) would both carry on the unfinished
game and append to its log, each taking the other's lines for damage. The first takes an
advisory lock (flock) on `tower.lock` there for its life; the kernel lets it go when the
process ends however it ends, so a lock file left by a pulled plug holds nothing. Where no lock
can be had (a directory not writable yet: the journal says that in its own words), the tower
starts without one: nothing on disk may stop a start. The league takes one beside its file the
same way (a second league would push the first off the broker, its client id being the same,
and `--rebuild` would empty the file under it).
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

LOCK = "tower.lock"
HOLDER_UNKNOWN = "?"  # a holder that wrote no process number (yet)
_HELD: list[int] = []  # the locks' descriptors, kept open for the life of the process


def hold_state_dir(state_dir: Path) -> str | None:
    """The state directory's lock taken for this tower; None when it is ours (or none can
    be had), else the words that say which tower holds it."""
    return hold(
        state_dir / LOCK,
        f"another tower is running on {state_dir}",
        "(Ctrl-C in its terminal, or sudo systemctl stop qwixx-tower for the kiosk's), or give "
        "this one its own --state-dir",
    )


def hold(lock: Path, running: str, how_to_stop: str) -> str | None:
    """`held_by`, in words: None when the lock is ours (or none can be had), else "RUNNING
    (process N): stop it first HOW_TO_STOP"."""
    holder = held_by(lock)
    if holder is None:
        return None
    process = f" (process {holder})" if holder != HOLDER_UNKNOWN else ""
    return f"{running}{process}: stop it first {how_to_stop}"


def held_by(lock: Path) -> str | None:
    """Take the lock file `lock` (its folder made) for the life of this process; None when it
    is ours, or when none can be had; else the process number of the one that holds it."""
    fd = _opened(lock)
    if fd is None:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        holder = _holder(fd)
        os.close(fd)
        if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
            return None  # a file system without locks: started as before
        return holder
    _note_holder(fd)
    _HELD.append(fd)
    return None


def _opened(lock: Path) -> int | None:
    """The lock file open (made when missing), or read-only where this user may not write
    it (a maker's `run` beside the service's directory: flock takes either), else None."""
    flags = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        return os.open(lock, os.O_RDWR | os.O_CREAT | flags, 0o644)
    except PermissionError:
        pass
    except OSError:
        return None
    try:
        return os.open(lock, os.O_RDONLY | flags)
    except OSError:
        return None


def _holder(fd: int) -> str:
    """The process number the holder wrote, if it reads as one."""
    try:
        text = os.pread(fd, 16, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return HOLDER_UNKNOWN
    return text if text.isdigit() else HOLDER_UNKNOWN


def _note_holder(fd: int) -> None:
    """Our process number in the lock file, for the words of a process that finds it held."""
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError:
        pass  # (a full disk: the lock holds all the same)
