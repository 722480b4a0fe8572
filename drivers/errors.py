"""Every exception the drivers raise, in one flat module under one base class.

Configuration errors are also `ValueError`s, so code that guards a setting with `except
ValueError` keeps working; each message names the setting and says how to fix it.
"""


class DriverError(Exception):
    """Base class for every error raised by the qwixx-tower drivers."""


class DriverConfigError(DriverError, ValueError):
    """A driver setting is unknown, of the wrong type or out of range."""


class PinBackendError(DriverConfigError):
    """The GPIO backend named in the configuration is neither simulated nor hardware."""


class ButtonConfigError(DriverConfigError):
    """A roll-button timing is not positive, or the long press is not longer than the debounce."""


class LightsConfigError(DriverConfigError):
    """The lock lights' pin map is empty, names a pin twice or has a bad blink timing."""


class UnknownColourError(DriverError, LookupError):
    """The lock lights were asked to show a colour that has no LED wired."""


class DiceConfigError(DriverConfigError):
    """Software dice were asked for fewer than two faces."""


class DisplayConfigError(DriverConfigError):
    """A display setting names an unsupported chip, size, interface or address."""


class DisplayOpenError(DriverError):
    """The display's bus or window could not be opened (I2C off, no permission, no terminal)."""


class FrameSizeError(DriverError, ValueError):
    """A frame handed to a display is not the display's size."""


class DriverClosedError(DriverError):
    """A driver was used after its close()."""


class PixelsConfigError(DriverConfigError):
    """The Pixels dice map names an unknown role or a bad id, or a setting is out of range."""


class DiceNotLandedError(DriverError, TimeoutError):
    """Not every die in play landed in time; `waiting_for` names the roles still awaited."""

    def __init__(self, message: str, *, waiting_for: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.waiting_for = waiting_for


class RollInProgressError(DriverError):
    """A roll was asked of the Pixels reader while it was still reading another."""


class BuzzerConfigError(DriverConfigError):
    """A tune holds a note the buzzer cannot play, or a duration that is not positive."""


class UnknownTuneError(DriverError, LookupError):
    """The buzzer was asked for a tune it does not know."""


class SpeechConfigError(DriverConfigError):
    """A speech setting (voice, amplitude, speed) is out of range."""


class SpeechError(DriverError):
    """espeak-ng is missing or failed to speak or render a sentence."""
