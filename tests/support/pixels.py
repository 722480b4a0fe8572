"""A fake Bluetooth scanner that plays Pixels dice, its advertisements built byte by byte."""

import struct

# Roll states as numbered by pixels-js PixelRollStateValues (not taken from the module under test).
ROLLED, HANDLING, ROLLING, CROOKED, ON_FACE = 1, 2, 3, 4, 5
SYSTEMIC_GAMES = 0x0D39  # company id, pixels-js PixelsBluetoothIds.systemicGamesCompanyId
DIE_SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
BUILD_TIMESTAMP = 1_700_000_000
D6_ONYX_BLACK = 0x21  # design & colour byte: die type d6 (2) << 4 | colorway onyx black (1)
DICE = {
    "white 1": 0x1A2B_0001,
    "white 2": 0x1A2B_0002,
    "red": 0x1A2B_0003,
    "yellow": 0x1A2B_0004,
    "green": 0x1A2B_0005,
    "blue": 0x1A2B_0006,
}


class FakeScanner:
    """The radio, played by the test: each die is at address "die-<role>"."""

    def __init__(self):
        self.listener = None
        self.stops = 0

    async def start(self, listener):
        self.listener = listener

    async def stop(self):
        self.stops += 1

    def advertise(self, die_id, state, face, battery=90, charging=False):
        """Deliver an advertisement laid out as CommunicationsProtocol.md describes."""
        battery_byte = battery | (0x80 if charging else 0)
        manufacturer = bytes([6, D6_ONYX_BLACK, state, face - 1, battery_byte])
        service = struct.pack("<II", die_id, BUILD_TIMESTAMP)
        return self.listener.on_advertisement(
            address(die_id), {SYSTEMIC_GAMES: manufacturer}, {DIE_SERVICE: service}
        )

    def roll(self, role, face):
        """A proper throw of the die in `role`: picked up, rolling, landed on `face`."""
        for state in (HANDLING, ROLLING):
            self.advertise(DICE[role], state, face)
        self.advertise(DICE[role], ROLLED, face)

    def notify(self, role, data):
        self.listener.on_notification(address(DICE[role]), data)

    def link(self, role, connected):
        self.listener.on_link(address(DICE[role]), connected)


def address(die_id):
    return f"die-{die_id:08x}"
