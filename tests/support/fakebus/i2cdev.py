"""The kernel's i2c-dev driver (drivers/i2c/i2c-dev.c) in userspace: the ioctls on /dev/i2c-N.

A FUSE file is not a character device, so the kernel passes these ioctls on "restricted": it
hands over the command and the raw `arg`, but copies no memory (the I2C command numbers do not
encode a size). What the kernel's own driver does with `copy_from_user`, `CallerMemory` does
through /proc/PID/mem of the calling thread: it reads the caller's structs and buffers and writes
results back, so the caller's code runs exactly as on a Pi. Layouts are the 64-bit Linux ones
(struct i2c_msg, i2c_rdwr_ioctl_data, i2c_smbus_ioctl_data in include/uapi/linux/i2c-dev.h).

An address nobody answers gives EREMOTEIO, as the Pi's i2c-bcm2835 driver reports a NACK.

The bus counts the clock cycles its transactions take on the wire (`Traffic`): a start, the
address byte and each payload byte with its acknowledge bit (9 clocks), a stop. Given a clock
(`khz`, 400 for the Pi's `i2c_arm_baudrate=400000`), an ioctl returns only after its wire time,
as the Pi's driver does, so a caller is held up as long as on a real bus.
"""

from __future__ import annotations

import errno
import os
import struct
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

I2C_RETRIES, I2C_TIMEOUT, I2C_SLAVE, I2C_SLAVE_FORCE = 0x0701, 0x0702, 0x0703, 0x0706
I2C_TENBIT, I2C_FUNCS, I2C_RDWR, I2C_PEC, I2C_SMBUS = 0x0704, 0x0705, 0x0707, 0x0708, 0x0720

#: What i2c-bcm2835 offers: plain I2C, SMBus emulated over it (with PEC), protocol mangling.
FUNCS = 0x00000001 | 0x0EFF0008 | 0x00000004
RDWR_MAX_MESSAGES = 42  # I2C_RDWR_IOCTL_MAX_MSGS
MESSAGE_MAX_BYTES = 8192
I2C_M_RD, I2C_M_TEN = 0x0001, 0x0010
SMBUS_READ = 1
BLOCK_MAX = 32
QUICK, BYTE, BYTE_DATA, WORD_DATA, PROC_CALL, BLOCK_DATA, BLOCK_PROC_CALL, I2C_BLOCK_DATA = (
    0, 1, 2, 3, 4, 5, 7, 8,
)  # fmt: skip
SMBUS_SIZES = (QUICK, BYTE, BYTE_DATA, WORD_DATA, PROC_CALL, BLOCK_DATA, 6, BLOCK_PROC_CALL, 8)
SMBUS_DATA_BYTES = 34  # union i2c_smbus_data: a length byte, 32 data bytes, one for PEC

RDWR_DATA = struct.Struct("=QI4x")  # struct i2c_rdwr_ioctl_data: msgs pointer, nmsgs
MESSAGE = struct.Struct("=HHH2xQ")  # struct i2c_msg: addr, flags, len, buf pointer
#: struct i2c_smbus_ioctl_data: read_write, command, size, data pointer
SMBUS_ARGS = struct.Struct("=BB2xIQ")


class Chip(Protocol):
    """Something at an address: it takes write transactions and answers read ones."""

    def write(self, payload: bytes) -> None: ...

    def read(self, count: int) -> bytes: ...


class CallerMemory:
    """The calling thread's memory, as the kernel's copy_from_user/copy_to_user see it."""

    def __init__(self, pid: int) -> None:
        try:
            self._fd = os.open(f"/proc/{pid}/mem", os.O_RDWR)
        except OSError as error:  # no ptrace permission over the caller
            raise OSError(errno.EFAULT, f"cannot reach the caller's memory: {error}") from error

    def read(self, address: int, count: int) -> bytes:
        try:
            data = os.pread(self._fd, count, address)
        except OSError:
            data = b""
        if len(data) != count:
            raise OSError(errno.EFAULT, "bad address")
        return data

    def write(self, address: int, data: bytes) -> None:
        try:
            written = os.pwrite(self._fd, data, address)
        except OSError:
            written = -1
        if written != len(data):
            raise OSError(errno.EFAULT, "bad address")

    def close(self) -> None:
        os.close(self._fd)


START_STOP_CLOCKS = 2  # a start and a stop condition, about a clock each
CLOCKS_PER_BYTE = 9  # eight data bits and the acknowledge


@dataclass
class Traffic:
    """What crossed the wire: transactions and clock cycles, in all and by address."""

    transactions: int = 0
    clocks: int = 0
    bytes: int = 0  # address bytes included

    def add(self, payload_bytes: int) -> int:
        """One transaction of `payload_bytes` after its address byte; its clock cycles."""
        clocks = START_STOP_CLOCKS + CLOCKS_PER_BYTE * (1 + payload_bytes)
        self.transactions += 1
        self.clocks += clocks
        self.bytes += 1 + payload_bytes
        return clocks


class CountedChip:
    """A chip whose transactions are counted on each of `traffics` (the bus's, its address's)."""

    def __init__(self, chip: Chip, *traffics: Traffic) -> None:
        self.chip, self.traffics = chip, traffics

    def write(self, payload: bytes) -> None:
        for traffic in self.traffics:
            traffic.add(len(payload))
        self.chip.write(payload)

    def read(self, count: int) -> bytes:
        for traffic in self.traffics:
            traffic.add(count)
        return self.chip.read(count)


@dataclass
class OpenBus:
    """One open file of the bus: the address I2C_SLAVE chose for its SMBus calls."""

    address: int | None = None


class I2cBus:
    """An I2C adapter with `chips` by 7-bit address; `ioctl` answers as i2c-dev does."""

    def __init__(self, chips: Mapping[int, Chip], khz: float | None = None) -> None:
        self.chips = dict(chips)
        self.khz = khz
        self.traffic = Traffic()
        self.by_address: dict[int, Traffic] = {}

    def ioctl(self, handle: OpenBus, command: int, arg: int, memory: CallerMemory) -> int:
        """The result of ioctl(fd, command, arg); an OSError carries the errno to return."""
        clocks_before = self.traffic.clocks
        try:
            return self._ioctl(handle, command, arg, memory)
        finally:
            if self.khz:  # the caller waits while the bytes cross the wire
                time.sleep((self.traffic.clocks - clocks_before) / (self.khz * 1000))

    def state(self) -> dict[str, object]:
        """The traffic as plain data: in all, and by address ("0x3c": {...})."""
        return {
            "khz": self.khz,
            **vars(self.traffic),
            "by_address": {f"{a:#04x}": vars(t) for a, t in sorted(self.by_address.items())},
        }

    def _ioctl(self, handle: OpenBus, command: int, arg: int, memory: CallerMemory) -> int:
        if command in (I2C_SLAVE, I2C_SLAVE_FORCE):
            if not 0 <= arg <= 0x7F:  # no 10-bit addresses on this adapter
                raise OSError(errno.EINVAL, "not a 7-bit address")
            handle.address = arg  # choosing an address sends nothing on the wire
            return 0
        if command == I2C_FUNCS:
            memory.write(arg, struct.pack("=Q", FUNCS))
            return 0
        if command == I2C_RDWR:
            return self._rdwr(arg, memory)
        if command == I2C_SMBUS:
            return self._smbus(handle, arg, memory)
        if command == I2C_TENBIT:
            if arg:
                raise OSError(errno.EINVAL, "no 10-bit addresses on this adapter")
            return 0
        if command in (I2C_PEC, I2C_RETRIES, I2C_TIMEOUT):
            return 0
        raise OSError(errno.ENOTTY, "not an I2C ioctl")

    def _chip(self, address: int | None) -> Chip:
        if address is None:
            raise OSError(errno.EREMOTEIO, "no acknowledgement")
        traffics = (self.traffic, self.by_address.setdefault(address, Traffic()))
        chip = self.chips.get(address)
        if chip is None:  # the address byte went out; nobody acknowledged it
            for traffic in traffics:
                traffic.add(0)
            raise OSError(errno.EREMOTEIO, "no acknowledgement")
        return CountedChip(chip, *traffics)

    def _rdwr(self, arg: int, memory: CallerMemory) -> int:
        """I2C_RDWR: each message to its own address, reads copied back; the count on success."""
        pointer, count = RDWR_DATA.unpack(memory.read(arg, RDWR_DATA.size))
        if count > RDWR_MAX_MESSAGES:
            raise OSError(errno.EINVAL, "too many messages")
        raw = memory.read(pointer, MESSAGE.size * count) if count else b""
        messages = [MESSAGE.unpack_from(raw, MESSAGE.size * i) for i in range(count)]
        if any(length > MESSAGE_MAX_BYTES or flags & I2C_M_TEN for _, flags, length, _ in messages):
            raise OSError(errno.EINVAL, "message too long or 10-bit")
        for address, flags, length, buffer in messages:
            chip = self._chip(address)
            if flags & I2C_M_RD:
                memory.write(buffer, chip.read(length))
            else:
                chip.write(memory.read(buffer, length))
        return count

    def _smbus(self, handle: OpenBus, arg: int, memory: CallerMemory) -> int:
        """I2C_SMBUS, emulated over plain I2C messages as i2c_smbus_xfer_emulated does."""
        read_write, register, size, pointer = SMBUS_ARGS.unpack(memory.read(arg, SMBUS_ARGS.size))
        if size not in SMBUS_SIZES or read_write not in (0, 1):
            raise OSError(errno.EINVAL, "not an SMBus transfer")
        reading = read_write == SMBUS_READ
        needs_data = not (size == QUICK or (size == BYTE and not reading))
        if needs_data and not pointer:
            raise OSError(errno.EINVAL, "no data buffer")
        data = bytearray(memory.read(pointer, SMBUS_DATA_BYTES) if needs_data else bytes(1))
        chip = self._chip(handle.address)
        answer = _smbus_transfer(chip, reading, register, size, data)
        if answer is not None:
            memory.write(pointer, bytes(answer))
        return 0


def _smbus_transfer(
    chip: Chip, reading: bool, register: int, size: int, data: bytearray
) -> bytearray | None:
    """One SMBus transfer as I2C messages; the data union to copy back after a read."""
    if size == QUICK:
        if reading:
            chip.read(0)
        else:
            chip.write(b"")
        return None
    if size == BYTE:
        if not reading:
            chip.write(bytes([register]))
            return None
        data[0] = chip.read(1)[0]
        return data
    if size in (BYTE_DATA, WORD_DATA, PROC_CALL):
        length = 1 if size == BYTE_DATA else 2
        if reading and size != PROC_CALL:
            chip.write(bytes([register]))
        else:
            chip.write(bytes([register, *data[:length]]))
            if size != PROC_CALL:
                return None
        data[:length] = chip.read(length)
        return data
    if size == I2C_BLOCK_DATA:
        length = data[0]
        if not 1 <= length <= BLOCK_MAX:
            raise OSError(errno.EINVAL, "block length must be 1 to 32")
        if not reading:
            chip.write(bytes([register, *data[1 : 1 + length]]))
            return None
        chip.write(bytes([register]))
        data[1 : 1 + length] = chip.read(length)
        return data
    if size == BLOCK_DATA and not reading and 1 <= data[0] <= BLOCK_MAX:
        chip.write(bytes([register, *data[: 1 + data[0]]]))
        return None
    raise OSError(errno.EOPNOTSUPP, "this adapter cannot do that SMBus transfer")
