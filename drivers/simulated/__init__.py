"""Simulated devices, for your own tests of code that talks to the tower's hardware.

As gpiozero ships its `MockFactory` beside its real pin factories, these play the far end of a
driver without the device: `pad.PtyPad`, a pad on a pseudo-terminal speaking the pad wire
protocol (for `drivers.padlink.PadLink`, the pad hub, a whole tower), and `pixels`, Pixels dice
(`PixelsDie`) and a radio that delivers them to `drivers.pixels.PixelsReader` without Bluetooth
(`SimulatedScanner`). docs/development.md, "Simulated devices for your own tests", shows them
in use.
"""
