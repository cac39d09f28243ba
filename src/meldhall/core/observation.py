"""The observation base: the keys every game's observation carries, with one meaning in every
game (docs/protocol.md, "Observations"). Each game's ``view`` builds them with
``common_keys`` and adds its own keys beside them.

>>> common_keys(seat=1, to_act=[1], phase="play", hand_number=2, match_scores=[3, -3],
...             hidden_counts=[13, 14], over=False)["hidden_counts"]
[13, 14]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

from meldhall.core.engine import Seat
from meldhall.core.errors import EngineBug


class CommonKeys(TypedDict):
    """The common observation keys and their types."""

    seat: Seat | None
    """The viewer's seat; None for a spectator."""
    to_act: list[Seat]
    """The seats that may act now, ascending (several in a claim window, none when over)."""
    phase: str
    """The step the hand is in, a lower-case name from the game's own list."""
    hand_number: int
    """The hand (round, deal) being played, from 1."""
    match_scores: list[int]
    """Each seat's match score so far, what the outcome ranks (``/api/games`` says whether
    higher is better); the current hand counts only what it has already settled."""
    hidden_counts: list[int]
    """Each seat's number of concealed pieces (its hand or rack)."""
    over: bool
    """True once the match is over."""


COMMON_KEYS: tuple[str, ...] = tuple(CommonKeys.__annotations__)


def common_keys(
    *,
    seat: Seat | None,
    to_act: Iterable[Seat],
    phase: str,
    hand_number: int,
    match_scores: Iterable[int],
    hidden_counts: Iterable[int],
    over: bool,
) -> CommonKeys:
    """Return the common observation keys, or raise ``EngineBug`` when they disagree with
    their definition (an upper-case phase, per-seat lists of different lengths)."""
    scores, counts = list(match_scores), list(hidden_counts)
    if phase != phase.lower():
        raise EngineBug(f"phase {phase!r} is not lower case")
    if len(scores) != len(counts):
        raise EngineBug(f"match_scores {scores} and hidden_counts {counts} differ in length")
    return {
        "seat": seat,
        "to_act": sorted(to_act),
        "phase": phase,
        "hand_number": hand_number,
        "match_scores": scores,
        "hidden_counts": counts,
        "over": over,
    }
