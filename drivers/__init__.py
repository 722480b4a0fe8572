"""Hardware drivers: roll button, dice, displays, lock lights, pad links; the system clock's
state (`clock.py`: whether a time server sets it).

Each kind of hardware has a small interface, a real backend and a simulated one chosen by
configuration. Drivers move dice values, frames, pixels and LED states; they know no Qwixx rules.
`drivers.simulated` holds devices to test code against: a pad on a pseudo-terminal, Pixels dice.
"""
