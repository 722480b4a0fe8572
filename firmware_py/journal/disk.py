"""Files on the tower's disk, handled so that none can hang, crash or half-write the tower.

Reading takes regular files only (a FIFO would wait forever, a directory has no bytes), and
only up to a size that file may have (a file of gigabytes, left by a damaged card or a careless
copy, would fill a Pi's memory at every start). Writes
are durable (fsynced, with their directory). What cannot be read is set aside into
``quarantine/`` beside it, for inspection. Why a write failed is said in a player's words.
"""

from __future__ import annotations

import errno
import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

QUARANTINE = "quarantine"  # what could not be read, kept for inspection
NOTE_MOST = 1_000_000  # bytes: the tower's notes are a few kB at most; larger is none of its own


@dataclass(frozen=True)
class SetAside:
    """A file of the state directory that could not be read: why, and where it went (None: it
    could not be moved and stays where it was, skipped)."""

    name: str
    reason: str
    moved_to: Path | None


def set_aside(path: Path, reason: str) -> SetAside:
    """Move `path` (a file, or a directory where a file belongs) into quarantine/ beside it,
    under a name not taken yet, for inspection. When it cannot be moved (a read-only disk) it
    stays where it is: the SetAside says so with `moved_to` None."""
    log.warning("%s could not be read: %s", path.name, reason)
    folder = path.parent / QUARANTINE
    try:
        folder.mkdir(exist_ok=True)
        target = _free_name(folder, path.name)
        os.rename(path, target)
        fsync_directory(folder)
        fsync_directory(path.parent)
    except OSError as error:
        log.warning("%s stays where it is, skipped: %s", path.name, error)
        return SetAside(path.name, reason, None)
    log.warning("%s is kept in %s for inspection", path.name, folder)
    return SetAside(path.name, reason, target)


def plain_reason(error: BaseException, directory: Path | None = None) -> str:
    """Why saving failed, in words a player understands, from the OSError behind `error`;
    `directory` (the state directory) is named where it is the problem."""
    cause: BaseException | None = error
    while cause is not None and not isinstance(cause, OSError):
        cause = cause.__cause__
    if cause is None:
        return str(error)
    where = str(directory) if directory is not None else "the disk"
    reasons = {
        errno.ENOSPC: "the disk is full",
        errno.EDQUOT: "the disk quota is used up",
        errno.EROFS: f"{where} is read-only",
        errno.EIO: "the disk fails (input/output error)",
        errno.EACCES: f"the tower has no permission for {where}",
        errno.EPERM: f"the tower has no permission for {where}",
        errno.EEXIST: f"{where} is not a directory",
        errno.ENOTDIR: f"{where} is not a directory",
    }
    words = reasons.get(cause.errno) if isinstance(cause.errno, int) else None
    return words or (cause.strerror or str(cause)).lower()


def read_regular(path: Path, most: int = NOTE_MOST) -> bytes:
    """The bytes of a regular file of at most `most` bytes; OSError for anything else (reading
    a FIFO would wait forever, a directory has no bytes, a larger file is none the tower
    wrote)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "it is a directory, not a file", str(path))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "it is not a regular file", str(path))
        return read_all(fd, most)
    finally:
        os.close(fd)


def read_all(fd: int, most: int = NOTE_MOST) -> bytes:
    """Everything in the regular file open as `fd`, from its start (nothing for a device);
    OSError (EFBIG) for more than `most` bytes, checked before reading and while reading (a
    file may grow meanwhile)."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        return b""
    if info.st_size > most:
        raise too_large(info.st_size, most)
    chunks, offset = [], 0
    while chunk := os.pread(fd, min(1 << 16, most + 1 - offset), offset):
        chunks.append(chunk)
        offset += len(chunk)
        if offset > most:
            raise too_large(os.fstat(fd).st_size, most)
    return b"".join(chunks)


def too_large(size: int, most: int) -> OSError:
    """The error of a file larger than `most` bytes, in words."""
    return OSError(errno.EFBIG, f"it is too large ({amount(size)}; at most {amount(most)})")


def amount(size: int) -> str:
    """A number of bytes as people read it: "870 bytes", "64 kB", "16 MB", "2.1 GB"."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if size >= scale:
            shown = f"{size / scale:.1f}".removesuffix(".0")
            return f"{shown} {unit}"
    return f"{size} bytes"


def not_a_file(path: Path | str) -> str:
    """Why `path` cannot be one of the journal's files ("" when it is a regular file)."""
    return looked_at(path)[0]


def looked_at(path: Path | str) -> tuple[str, int]:
    """Why `path` cannot be one of the journal's files ("" when it is a regular file), and its
    size (-1 when it is not a regular file): one look for both."""
    try:
        info = os.stat(path)
    except OSError as error:  # a link to nowhere, ...
        return error.strerror or "it cannot be opened", -1
    if stat.S_ISDIR(info.st_mode):
        return "it is a directory, not a file", -1
    return ("", info.st_size) if stat.S_ISREG(info.st_mode) else ("it is not a regular file", -1)


def stat_of(path: Path) -> os.stat_result | None:
    """What is at `path` now (None: nothing)."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def identity(info: os.stat_result) -> tuple[int, int]:
    """Which file a stat result is of (device, inode): the same path may name another later."""
    return info.st_dev, info.st_ino


def write_all(fd: int, data: bytes) -> None:
    """Every byte of `data` to `fd` (a write may take only part); OSError when the disk refuses."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def truncate(path: Path, size: int) -> None:
    """Cut the file `path` to `size` bytes, durably."""
    with open(path, "r+b") as file:
        file.truncate(size)
        file.flush()
        os.fsync(file.fileno())


def fsync_directory(directory: Path) -> None:
    """Make the names in `directory` durable (a new, renamed or removed file survives a power
    cut)."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_quietly(path: Path) -> None:
    """Remove `path` if it can be (a file the tower made and no longer wants); else log it."""
    try:
        path.unlink()
    except OSError:
        log.warning("could not remove %s", path)


def _free_name(folder: Path, name: str) -> Path:
    """`folder/name`, or with a count before the suffix when that is taken already."""
    target = folder / name
    stem, dot, suffix = name.partition(".")
    count = 1
    while os.path.lexists(target):
        target = folder / f"{stem}.{count}{dot}{suffix}"
        count += 1
    return target
