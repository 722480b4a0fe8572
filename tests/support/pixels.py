"""The tests' table of Pixels dice: the Pixel id bound to each role. The dice themselves, and a
radio that plays them, are the package's simulated ones (drivers/simulated/pixels.py)."""

DICE = {
    "white 1": 0x1A2B_0001,
    "white 2": 0x1A2B_0002,
    "red": 0x1A2B_0003,
    "yellow": 0x1A2B_0004,
    "green": 0x1A2B_0005,
    "blue": 0x1A2B_0006,
}
