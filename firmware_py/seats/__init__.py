"""Every door a decision comes in by from a device: pads on serial ports, phones on the web."""
