"""Pad firmware (MicroPython) and the pad <-> tower wire protocol it shares with the tower."""
