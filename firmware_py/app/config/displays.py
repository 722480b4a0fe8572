"""The [[displays]] tables of the configuration file: one per display, each its own role, no
two at one I2C address on one bus."""

from __future__ import annotations

from drivers.display_device import DisplayConfig, bus_name
from drivers.errors import DisplayConfigError
from firmware_py.app.config.settings import ConfigError
from firmware_py.app.config.values import TomlTable, TomlValues

DISPLAY_CHIPS = ("ssd1306", "sh1106", "ssd1309")
DISPLAY_EMULATORS = ("pygame", "asciiblock")  # luma.emulator, to watch a display without one
DISPLAY_ROLES = ("main", "options")
WITHOUT_SCREEN = "Without one, take this [[displays]] table out and the display is simulated"
I2C_ADDRESSES = (0x3C, 0x3D)
DISPLAY_KEYS = (
    "role", "chip", "interface", "bus", "bus_device", "address", "device", "dc", "reset", "rotate"
)  # fmt: skip


class DisplaysChecker(TomlValues):
    """[[displays]]: the display driver's settings by role."""

    def displays(self, data: TomlTable) -> dict[str, DisplayConfig]:
        tables = data.get("displays", [])
        if not isinstance(tables, list):
            raise self.fail("", "displays", "must be [[displays]] tables, one per display")
        displays: dict[str, DisplayConfig] = {}
        for index, table in enumerate(tables):
            role, config = self.display(table, f"displays.{index}")
            if role in displays:
                raise self.fail(
                    "displays", "role", f"two displays show {role!r}; give each its own"
                )
            displays[role] = config
        self.addresses_apart(displays)
        return displays

    def addresses_apart(self, displays: dict[str, DisplayConfig]) -> None:
        """Two displays at one I2C address on one bus would both draw every frame."""
        seen: dict[tuple[str, int], str] = {}
        for role, config in displays.items():
            if config.interface != "i2c" or not config.is_chip:
                continue
            place = (bus_name(config), config.i2c_address)
            if place in seen:
                raise self.fail(
                    "displays", "address",
                    f"the {seen[place]} and {role} displays are both at {place[1]:#x} on I2C "
                    f"bus {place[0]}: set one board to the other address (0x3C or 0x3D) or put "
                    "it on another bus",
                )  # fmt: skip
            seen[place] = role

    def display(self, table: TomlTable, section: str) -> tuple[str, DisplayConfig]:
        """One [[displays]] table: its role, and the display driver's settings."""
        self.known_keys(table, section, DISPLAY_KEYS)
        role = self.choice(table, section, "role", DISPLAY_ROLES, None)
        interface = self.choice(table, section, "interface", ("i2c", "spi"), "i2c")
        address = self.integer(table, section, "address", 0, 0x7F, 0x3C)
        if interface == "i2c" and address not in I2C_ADDRESSES:
            raise self.fail(section, "address", f"{address:#x} is not 0x3C or 0x3D (e.g. 0x3C)")
        chips = DISPLAY_CHIPS + DISPLAY_EMULATORS
        try:
            return role, DisplayConfig(
                driver=self.choice(table, section, "chip", chips, "ssd1306"),
                interface=interface,
                i2c_port=self.integer(table, section, "bus", 0, 31, 1),
                i2c_device=self.bus_device(table, section),
                i2c_address=address,
                spi_device=self.integer(table, section, "device", 0, 1, 0),
                gpio_dc=self.integer(table, section, "dc", 0, 27, 24),
                gpio_rst=self.integer(table, section, "reset", 0, 27, 25),
                rotate=self.integer(table, section, "rotate", 0, 3, 0),
                where=f"[{section}]",
                setting="chip",
                without_screen=WITHOUT_SCREEN,
            )
        except DisplayConfigError as error:
            raise ConfigError(f"{self.source}: {error}") from error

    def bus_device(self, table: TomlTable, section: str) -> str:
        """`bus_device`: the I2C bus's device file when it is not /dev/i2c-<bus>; "" if unset."""
        value = table.get("bus_device", "")
        if not isinstance(value, str) or (value and not value.startswith("/")):
            raise self.fail(
                section, "bus_device", f'must be a device file such as "/dev/i2c-1", not {value!r}'
            )
        return value
