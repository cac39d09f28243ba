"""The Remi array straight from ``RemiState``, mirroring ``remi.view.observe``: the viewer's
hand, the discard pile and its top, the melds by owner, every seat's publicly known cards,
hand and stock counts, who opened, the totals, ``to_act`` and the phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meldhall.games.remi.pieces import TOKEN
from meldhall.games.remi.view import PHASES
from meldhall.rl.direct.base import DirectEncoder
from meldhall.rl.observe import Encoder

if TYPE_CHECKING:
    from meldhall.games.remi.state import RemiState


class RemiDirect(DirectEncoder):
    """The Remi layout filled from the state (see the module docstring)."""

    NUMBERS = ("hand_counts", "stock", "opened", "totals")

    def __init__(self, encoder: Encoder):
        super().__init__(encoder, TOKEN)

    def fill(
        self,
        state: RemiState,  # type: ignore[override]
        viewer: int,
        ones: list[int],
    ) -> list[float]:
        """Append the flags of ``viewer``'s Remi array; return its numbers."""
        at, n, rot = self.at, self.n, self.rot[viewer]
        self.flags(ones, at["hand"], state.hands[viewer])
        self.flags(ones, at["discard"], state.discard)
        if state.discard:
            self.flags(ones, at["discard_top"], (state.discard[-1],))
        for meld in state.melds:
            self.flags(ones, at["melds"] + rot[meld.owner] * n, meld.cards)
        for s, known in enumerate(state.known):
            self.flags(ones, at["known"] + rot[s] * n, known)
        ones += self.seat_set("to_act", state.to_act(), viewer)
        self.choice(ones, "phase", PHASES[state.phase])
        counts, stock, opened, totals = (self.scale[k] for k in self.NUMBERS)
        return (
            [len(h) / counts for h in state.hands]
            + [len(state.stock) / stock]
            + [float(v or 0) / opened for v in state.opened]
            + [float(v or 0) / totals for v in state.totals]
        )

    def scores(self, state: RemiState) -> list[float]:  # type: ignore[override]
        """Return ``totals`` of the public observation as floats."""
        return [float(v) for v in state.totals]
