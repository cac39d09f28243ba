"""The 101 Okey array straight from ``LadderState``, mirroring ``okey_ladder.view.observation``:
the viewer's rack, its own and its left neighbour's discard piles whole and every other
pile's top, the table's combinations by owner, the indicator, rack counts, the centre, who
opened how, the match totals, ``to_act`` and the phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meldhall.games.okey_ladder.pieces import TOKEN
from meldhall.games.okey_ladder.scoring import OPENED_NAMES
from meldhall.rl.direct.base import DirectEncoder
from meldhall.rl.observe import Encoder

if TYPE_CHECKING:
    from meldhall.games.okey_ladder.state import LadderState


class LadderDirect(DirectEncoder):
    """The 101 Okey layout filled from the state (see the module docstring)."""

    NUMBERS = ("hand_counts", "centre", "scores.totals")

    def __init__(self, encoder: Encoder):
        super().__init__(encoder, TOKEN)

    def fill(
        self,
        state: LadderState,  # type: ignore[override]
        viewer: int,
        ones: list[int],
    ) -> list[float]:
        """Append the flags of ``viewer``'s 101 Okey array; return its numbers."""
        at, n, seats, rot = self.at, self.n, self.seats, self.rot[viewer]
        self.flags(ones, at["hand"], state.racks[viewer])
        left = (viewer - 1) % seats
        for s, pile in enumerate(state.piles):
            base = at["discards"] + rot[s] * n
            if s in (viewer, left):
                self.flags(ones, base, pile)
            elif pile:
                self.flags(ones, base, (pile[-1],))
        for combo in state.combos.values():
            self.flags(ones, at["table"] + rot[combo.owner] * n, combo.tiles)
        self.flags(ones, at["indicator"], (state.jokers.indicator,))
        words = self.word["opened"]
        for s, kind in enumerate(state.opened):
            i = words.get(OPENED_NAMES[kind])
            if i is not None:
                ones.append(at["opened"] + rot[s] * len(words) + i)
        if not state.over:
            ones += self.seat_set("to_act", (state.to_move,), viewer)
        self.choice(ones, "phase", state.phase)
        counts, centre, totals = (self.scale[k] for k in self.NUMBERS)
        return (
            [len(r) / counts for r in state.racks]
            + [len(state.wall) / centre]
            + [float(v or 0) / totals for v in state.totals]
        )

    def scores(self, state: LadderState) -> list[float]:  # type: ignore[override]
        """Return ``scores.totals`` of the public observation as floats."""
        return [float(v) for v in state.totals]
