"""Mount a Pico's littlefs image with MicroPython's own VfsLfs2 and list it.

usage: micropython -X heapsize=8M lfs_mount_check.py IMAGE

Mounted as the rp2 port's _boot.py mounts its flash (vfs.VfsLfs2(bdev, progsize=256)), from a
block device in RAM. Prints each file's name and size, then `done`.
"""

import os
import sys

import vfs

BLOCK = 4096


class RamBlocks:
    """A block device over the image's bytes (the extended interface VfsLfs2 uses)."""

    def __init__(self, data):
        self.data = bytearray(data)

    def readblocks(self, number, buffer, offset=0):
        start = number * BLOCK + offset
        buffer[:] = self.data[start : start + len(buffer)]

    def writeblocks(self, number, buffer, offset=0):
        start = number * BLOCK + offset
        self.data[start : start + len(buffer)] = buffer

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return len(self.data) // BLOCK
        if op == 5:  # block size
            return BLOCK
        if op == 6:  # erase
            self.data[arg * BLOCK : (arg + 1) * BLOCK] = b"\xff" * BLOCK
        return 0


with open(sys.argv[1], "rb") as image:
    vfs.mount(vfs.VfsLfs2(RamBlocks(image.read()), progsize=256), "/flash")
for name in sorted(os.listdir("/flash")):
    print(name, os.stat("/flash/" + name)[6])
print("done")
