"""The tile-rummy array straight from ``TileRummyState``, mirroring ``tile_rummy.view
.observation``: the viewer's rack, the discard pile, the melds by owner, rack and stock
counts, who opened, the totals, ``to_act`` and the phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meldhall.games.tile_rummy.pieces import TOKENS
from meldhall.rl.direct.base import DirectEncoder
from meldhall.rl.observe import Encoder

if TYPE_CHECKING:
    from meldhall.games.tile_rummy.state import TileRummyState


class TileRummyDirect(DirectEncoder):
    """The tile-rummy layout filled from the state (see the module docstring)."""

    NUMBERS = ("rack_counts", "stock_count", "opened", "totals")

    def __init__(self, encoder: Encoder):
        super().__init__(encoder, TOKENS)

    def fill(
        self,
        state: TileRummyState,  # type: ignore[override]
        viewer: int,
        ones: list[int],
    ) -> list[float]:
        """Append the flags of ``viewer``'s tile-rummy array; return its numbers."""
        at, n, rot = self.at, self.n, self.rot[viewer]
        self.flags(ones, at["hand"], state.racks[viewer])
        self.flags(ones, at["pile"], state.pile)
        for meld in state.melds.values():
            self.flags(ones, at["melds"] + rot[meld.owner] * n, meld.tiles)
        ones += self.seat_set("to_act", state.to_act(), viewer)
        self.choice(ones, "phase", state.phase)
        counts, stock, opened, totals = (self.scale[k] for k in self.NUMBERS)
        return (
            [len(r) / counts for r in state.racks]
            + [len(state.stock) / stock]
            + [float(v or 0) / opened for v in state.opened]
            + [float(v or 0) / totals for v in state.totals]
        )

    def scores(self, state: TileRummyState) -> list[float]:  # type: ignore[override]
        """Return ``totals`` of the public observation as floats."""
        return [float(v) for v in state.totals]
