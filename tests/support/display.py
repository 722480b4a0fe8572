"""An I2C bus whose wire can come loose, for display tests."""

import errno


class LooseBus:
    """An I2C bus (the smbus calls luma's `i2c` makes) whose jumper wire can be pulled out."""

    def __init__(self) -> None:
        self.plugged = True
        self.attempts = 0
        self.commands: list[list[int]] = []
        self.data: list[int] = []

    def write_i2c_block_data(self, address: int, mode: int, values: list[int]) -> None:
        self.attempts += 1
        if not self.plugged:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if mode == 0x00:
            self.commands.append(list(values))
        else:
            self.data.extend(values)

    def close(self) -> None:
        pass

    def initialised(self) -> bool:
        """True if a chip init sequence went over: display off first, charge pump on in it."""
        return any(
            command[0] == DISPLAYOFF and _contains(command, [CHARGEPUMP, 0x14])
            for command in self.commands
        )


DISPLAYOFF = 0xAE
CHARGEPUMP = 0x8D


def _contains(values, run):
    return any(values[i : i + len(run)] == run for i in range(len(values)))
