"""qwixx-tower: the tower's software (rules engine, table service, CLI) and the pad firmware."""

__version__ = "0.1.0"
