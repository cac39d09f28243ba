"""The end of a hand and of a match for a terminal: the ``hand_over`` event, compactly.

>>> from rich.console import Console
>>> console = Console(width=100, color_system=None)
>>> with console.capture() as cap:
...     console.print(*settlement("sichuan", {"kind": "hand_over", "termination": "exhaustion",
...         "hands": [{"hand": ["1m#0", "1m#1"], "status": "ready"}], "scores": [2, -2]}, 0),
...         sep="\\n")
>>> print(cap.get())
hand over
  termination: exhaustion
  you: 1m 1m  (ready)
  scores: 2, -2
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from meldhall.core.engine import JSON
from meldhall.terminal.board import pieces, seat_name
from meldhall.terminal.pieces import family_of

_SKIP = {"kind", "hands", "racks", "lines", "hand", "hand_number", "round", "dealer"}


def _hand_line(game_id: str, seat: int, hand: JSON, viewer: int) -> Text:
    family = family_of(game_id)
    line = Text(f"  {seat_name(seat, viewer)}: ")
    if isinstance(hand, dict):
        line.append(pieces(family, hand.get("hand") or []))
        for meld in hand.get("melds") or []:
            line.append("  [").append(pieces(family, meld.get("tiles", []))).append("]")
        if hand.get("status"):
            line.append(f"  ({hand['status']})")
    else:
        line.append(pieces(family, hand or []) if isinstance(hand, list) else Text("hidden"))
    return line


def _value(value: JSON) -> str:
    if isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
        return ", ".join("–" if v is None else str(v) for v in value)
    return str(value)


def settlement(game_id: str, event: Mapping[str, JSON], viewer: int) -> list[Text]:
    """Return the lines of a ``hand_over`` event as ``viewer`` sees it: the revealed
    hands, the settlement lines, then every other field with a short value."""
    out = [Text("hand over", style="bold")]
    for key, value in event.items():
        if key not in _SKIP and value not in (None, [], {}) and len(_value(value)) <= 80:
            if key in ("scores", "totals", "deltas", "settlement", "penalties"):
                continue
            out.append(Text(f"  {key}: {_value(value)}"))
    hands = event.get("hands", event.get("racks"))
    if isinstance(hands, list):
        out.extend(_hand_line(game_id, s, h, viewer) for s, h in enumerate(hands))
    for line in event.get("lines") or []:
        if isinstance(line, dict):
            text = ", ".join(f"{k} {_value(v)}" for k, v in line.items() if k != "cards")
            out.append(Text(f"  {text}"))
        else:
            out.append(Text(f"  {line}"))
    for key in ("settlement", "penalties", "deltas", "scores", "totals"):
        if isinstance(event.get(key), list):
            out.append(Text(f"  {key}: {_value(event[key])}"))
    return out
