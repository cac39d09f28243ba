"""What every game's sampler (``games/<pkg>/sample.py``) shares: reading the viewer's seat
and turning the observation's piece tokens back into ids."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from meldhall.core.engine import JSON
from meldhall.core.errors import MeldhallError


def seated_viewer(observation: Mapping[str, JSON], game_id: str) -> int:
    """Return the seat whose observation this is, or raise ``MeldhallError`` for a
    spectator's observation or a match that is over (nothing is left to sample)."""
    viewer = observation.get("seat")
    if not isinstance(viewer, int) or observation.get("over"):
        raise MeldhallError(f"{game_id} sample: needs a seated viewer in a match not over")
    return viewer


class TokenIds:
    """The id of every piece token of a game (``TokenIds(TOKEN)["R5a"]``)."""

    def __init__(self, tokens: Sequence[str]) -> None:
        self.by_token = {token: piece for piece, token in enumerate(tokens)}

    def __getitem__(self, token: str) -> int:
        return self.by_token[token]

    def many(self, tokens: Sequence[str]) -> list[int]:
        """Return the ids of a list of tokens, in order."""
        by_token = self.by_token
        return [by_token[t] for t in tokens]
