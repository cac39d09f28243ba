"""The Okey cards array straight from ``OkeyCardsState``, mirroring ``okey_cards.view
.observation``: the player's hand slots, the field, the discards, the scored lines, the
deck count, the score and the phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meldhall.games.okey_cards.pieces import TOKENS
from meldhall.rl.direct.base import DirectEncoder
from meldhall.rl.observe import Encoder

if TYPE_CHECKING:
    from meldhall.games.okey_cards.state import OkeyCardsState


class OkeyCardsDirect(DirectEncoder):
    """The Okey cards layout filled from the state (see the module docstring)."""

    NUMBERS = ("deck_count", "score")

    def __init__(self, encoder: Encoder):
        super().__init__(encoder, TOKENS)

    def fill(
        self,
        state: OkeyCardsState,  # type: ignore[override]
        viewer: int,
        ones: list[int],
    ) -> list[float]:
        """Append the flags of the player's Okey cards array; return its numbers."""
        at = self.at
        if viewer == 0:
            self.flags(ones, at["hand_slots"], [c for c in state.hand if c is not None])
        self.flags(ones, at["field"], [c for c in state.field if c is not None])
        self.flags(ones, at["discards"], state.discards)
        for cards, _value in state.played:
            self.flags(ones, at["played"], cards)
        self.choice(ones, "phase", state.phase.lower())
        deck, score = self.scale["deck_count"], self.scale["score"]
        return [len(state.deck) / deck, float(state.score or 0) / score]

    def scores(self, state: OkeyCardsState) -> list[float]:  # type: ignore[override]
        """Return ``scores`` of the public observation as floats."""
        return [float(v) for v in (state.score,)]
