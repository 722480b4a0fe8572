"""The pad firmware's entry point: pick the board (a Pico, or the unix port in tests) and run.

On a Pico, MicroPython runs this file at every start. Hold the undo button while plugging the pad
in to skip the firmware and leave the REPL free, e.g. for `qwixx-tower pad install` (the firmware
ignores Ctrl-C on the cable, so nothing else can stop it). That check comes first, before any
other firmware file is even compiled, so a broken copy can always be replaced.
"""

import gc
import sys

ON_PICO = sys.platform == "rp2"


def add_own_folder_to_path():
    path = globals().get("__file__", "")
    here = path.rsplit("/", 1)[0] if "/" in path else ""
    if here and here not in sys.path:
        sys.path.insert(0, here)


def load_modules():
    """Import the firmware one module at a time, collecting in between: compiling a module
    from source takes several times its final size, and the garbage of one compile must not
    add to the next one's peak."""
    for name in ("protocol", "towerlink", "padapp", "padscreen"):
        gc.collect()
        __import__(name)
    gc.collect()


def make_board():
    if ON_PICO:
        import board_pico

        return board_pico.Board()
    import board_unix

    return board_unix.Board()


def main():
    add_own_folder_to_path()
    if ON_PICO:
        import board_pico

        if board_pico.maintenance_requested():
            print("qwixx pad: undo held at start, staying in the REPL")
            return
    load_modules()
    board = make_board()
    gc.collect()
    sys.modules["padapp"].run(board, sys.modules["padscreen"].render)


main()
