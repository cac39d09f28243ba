"""The Okey array straight from ``OkeyState``, mirroring ``okey.view.observation_of``: the
viewer's hand, each discard pile's top and, where ``visible_piles`` lets the viewer look
through it, the whole pile, the indicator, tile counts, wall count, scores, ``to_act`` and
the phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meldhall.games.okey.pieces import TOKENS
from meldhall.games.okey.view import visible_piles
from meldhall.rl.direct.base import DirectEncoder
from meldhall.rl.observe import Encoder

if TYPE_CHECKING:
    from meldhall.games.okey.state import OkeyState


class OkeyDirect(DirectEncoder):
    """The Okey layout filled from the state (see the module docstring)."""

    NUMBERS = ("tile_counts", "wall_count", "scores")

    def __init__(self, encoder: Encoder):
        super().__init__(encoder, TOKENS)

    def fill(
        self,
        state: OkeyState,  # type: ignore[override]
        viewer: int,
        ones: list[int],
    ) -> list[float]:
        """Append the flags of ``viewer``'s Okey array; return its numbers."""
        at, n, rot = self.at, self.n, self.rot[viewer]
        self.flags(ones, at["hand"], state.hands[viewer])
        full = visible_piles(state, viewer)
        for s, pile in enumerate(state.piles):
            base = at["discards"] + rot[s] * n
            if full[s]:
                self.flags(ones, base, pile)
            elif pile:
                self.flags(ones, base, (pile[-1],))
        self.flags(ones, at["indicator"], (state.indicator,))
        ones += self.seat_set("to_act", state.to_act(), viewer)
        self.choice(ones, "phase", state.phase)
        counts, wall, scores = (self.scale[k] for k in self.NUMBERS)
        return (
            [len(h) / counts for h in state.hands]
            + [state.wall_count() / wall]
            + [float(v or 0) / scores for v in state.scores]
        )

    def scores(self, state: OkeyState) -> list[float]:  # type: ignore[override]
        """Return ``scores`` of the public observation as floats."""
        return [float(v) for v in state.scores]
