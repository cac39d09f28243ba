"""The error taxonomy: every rejection of bad input is a ``MeldhallError`` (a ``ValueError``)
whose message names the input; a broken engine invariant is an ``EngineBug``."""

from __future__ import annotations

from typing import Any


class MeldhallError(ValueError):
    """Bad input from outside: a token, an option, a message, an action."""


class ParseError(MeldhallError):
    """Text that cannot be read as what it should be (a tile token, an action, a file)."""


class OptionsError(MeldhallError):
    """An unknown option, or a value an option does not take."""


class IllegalAction(MeldhallError):
    """A well-formed action that the rules do not allow now.

    ``code`` is the reason code the game's spec names (``WRONG_PHASE``, ``NOT_YOUR_TURN``...);
    the state that raised it is left exactly as it was. ``details`` holds the numbers behind
    the refusal where the rules count something (``{"value": 15, "need": 30}``), so that a
    table can say them in words; it is empty otherwise.

    >>> e = IllegalAction("WRONG_PHASE", "seat 1 cannot discard before drawing")
    >>> e.code, str(e), e.details
    ('WRONG_PHASE', 'WRONG_PHASE: seat 1 cannot discard before drawing', {})
    >>> IllegalAction("OPENING_TOO_LOW", "15 < 30").with_details(value=15, need=30).details
    {'value': 15, 'need': 30}
    """

    def __init__(self, code: str, message: str = "") -> None:
        self.code = code
        self.reason = message
        self.details: dict[str, Any] = {}
        super().__init__(f"{code}: {message}" if message else code)

    def with_details(self, **details: Any) -> IllegalAction:
        """Return this refusal with ``details`` added (JSON values: numbers, strings, lists)."""
        self.details.update(details)
        return self


class EngineBug(RuntimeError):
    """An invariant of an engine is broken: a bug in meldhall, never a player's mistake."""
