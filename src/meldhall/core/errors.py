"""The error taxonomy: every rejection of bad input is a ``MeldhallError`` (a ``ValueError``)
whose message names the input; a broken engine invariant is an ``EngineBug``.

The reason codes every game gives for the same situation (docs/protocol.md, "Reason codes");
a game whose spec names another code for one of them keeps the spec's (okey-cards: a finished
game is ``GAME_OVER``).
"""

from __future__ import annotations

from typing import Any

MATCH_OVER = "MATCH_OVER"
"""The match is over: no action applies any more."""
NOT_YOUR_TURN = "NOT_YOUR_TURN"
"""The seat may not act now."""
WRONG_PHASE = "WRONG_PHASE"
"""The action does not belong to this part of the turn."""
UNKNOWN_ACTION = "UNKNOWN_ACTION"
"""The object is none of the game's actions."""
MALFORMED_ACTION = "MALFORMED_ACTION"
"""An action of the game whose fields name no piece, seat or place (an out-of-range id)."""


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


Refusal = tuple[str, str] | None
"""Why an action is refused now, as a game's legality functions return it: ``(reason code,
message)``; None when the action is allowed."""


def refuse(refusal: Refusal) -> None:
    """Return None when ``refusal`` is None, else raise it as ``IllegalAction``.

    >>> refuse(None)
    >>> refuse(("WRONG_PHASE", "draw first"))
    Traceback (most recent call last):
    ...
    meldhall.core.errors.IllegalAction: WRONG_PHASE: draw first
    """
    if refusal is not None:
        raise IllegalAction(*refusal)


class EngineBug(RuntimeError):
    """An invariant of an engine is broken: a bug in meldhall, never a player's mistake."""
