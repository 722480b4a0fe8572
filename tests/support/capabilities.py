"""File modes that apply to root as to anyone: for a tower that must meet a read-only file."""

from __future__ import annotations

import ctypes

CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2
PR_CAPBSET_DROP = 24
LINUX_CAPABILITY_VERSION_3 = 0x20080522


class _Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _Data(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]  # fmt: skip


def without_dac_override() -> None:
    """In the tower's process before it runs (a `preexec_fn`): root loses the capabilities
    that let it read and write whatever a file's mode says, now (its effective and permitted
    sets: a forked tower runs no exec) and in any program it starts (the bounding set)."""
    libc = ctypes.CDLL(None, use_errno=True)
    dropped = (1 << CAP_DAC_OVERRIDE) | (1 << CAP_DAC_READ_SEARCH)
    header, data = _Header(LINUX_CAPABILITY_VERSION_3, 0), (_Data * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "cannot read the capabilities")
    data[0].effective &= ~dropped
    data[0].permitted &= ~dropped
    data[0].inheritable &= ~dropped
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "cannot drop a capability")
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "cannot drop a capability")
