"""The pad firmware's entry point: pick the board (a Pico, or the unix port in tests) and run.

On a Pico, MicroPython runs this file at every start. The USB cable is both the REPL and the
pad's data line, and the tower's frames carry 0x03 bytes (every heartbeat does): while Ctrl-C
is on, such a byte stops the firmware with KeyboardInterrupt and leaves the pad in the REPL. So
the first thing `main()` does, before compiling anything else, is turn Ctrl-C off; a tower that
is already talking when the pad is plugged in is then harmless.

`qwixx-tower pad install` copies this file compiled, as padmain.mpy, with a main.py of three
lines that turns Ctrl-C off and imports it (padinstall.TINY_MAIN).

Hold the undo button while plugging the pad in to skip the firmware and leave the REPL free,
e.g. for `qwixx-tower pad install`: Ctrl-C is turned back on for it (only on that path). That
check needs only board_pico and comes before the rest of the firmware is loaded, so a broken
copy of the rest can always be replaced.
"""

import micropython

CTRL_C = 3


def main():
    micropython.kbd_intr(-1)  # first of all: 0x03 on the cable is data, never Ctrl-C
    import gc
    import sys

    add_own_folder_to_path(sys)
    if sys.platform == "rp2" and maintenance(sys):
        return
    load_modules(gc)
    board = make_board(sys)
    gc.collect()
    sys.modules["padapp"].run(board, sys.modules["padscreen"].render)


def maintenance(sys):
    """True (Ctrl-C on again, the REPL left to mpremote) if undo is held at start."""
    import board_pico

    if not board_pico.maintenance_requested():
        return False
    micropython.kbd_intr(CTRL_C)
    print("qwixx pad: undo held at start, staying in the REPL")
    return True


def add_own_folder_to_path(sys):
    path = globals().get("__file__", "")
    here = path.rsplit("/", 1)[0] if "/" in path else ""
    if here and here not in sys.path:
        sys.path.insert(0, here)


def load_modules(gc):
    """Import the firmware one module at a time, collecting in between: compiling a module
    from source takes several times its final size, and the garbage of one compile must not
    add to the next one's peak."""
    for name in ("protocol", "towerlink", "padapp", "padscreen"):
        gc.collect()
        __import__(name)
    gc.collect()


def make_board(sys):
    if sys.platform == "rp2":
        import board_pico

        return board_pico.Board()
    import board_unix

    return board_unix.Board()


main()
