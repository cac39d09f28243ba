"""The Sichuan array straight from ``SichuanState``, mirroring ``sichuan.view.observation``:
the viewer's hand and drawn tile, every discard row, the melds (an active opponent's
concealed kong shows no tiles before the deal ends), the discard a claim window is open on,
the per-seat counts, missing suits, activity and totals, ``to_act`` and the phase."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from meldhall.games.sichuan.pieces import SUIT_LETTER, TOKEN
from meldhall.rl.direct.base import DirectEncoder
from meldhall.rl.observe import Encoder

if TYPE_CHECKING:
    from meldhall.games.sichuan.state import SichuanState

PHASE_NAME = {"act": "play"}
"""The engine phases the observation names otherwise (``view._PHASE_NAME``)."""


class SichuanDirect(DirectEncoder):
    """The Sichuan layout filled from the state (see the module docstring)."""

    NUMBERS = ("tiles", "wall", "active", "totals")

    def __init__(self, encoder: Encoder):
        super().__init__(encoder, TOKEN)

    def fill(
        self,
        state: SichuanState,  # type: ignore[override]
        viewer: int,
        ones: list[int],
    ) -> list[float]:
        """Append the flags of ``viewer``'s Sichuan array; return its numbers."""
        at, n, rot = self.at, self.n, self.rot[viewer]
        phase = state.phase
        groups: list[tuple[int, Iterable[int]]] = [(at["hand"], state.hands[viewer])]
        if phase == "act" and state.turn == viewer and state.drawn >= 0:
            groups.append((at["drawn"], (state.drawn,)))
        if phase == "claim":
            row = state.discards[state.window_from]
            if row:
                groups.append((at["last_discard"], (row[-1],)))
        revealed = phase == "over"
        missing = self.word["missing"]
        discards, melds, miss_at = at["discards"], at["melds"], at["missing"]
        for s, k in enumerate(rot):
            groups.append((discards + k * n, state.discards[s]))
            shown = revealed or s == viewer or not state.active[s]
            for meld in state.melds[s]:
                if shown or meld.letter != "C":
                    groups.append((melds + k * n, meld.tiles))
            if state.miss[s] >= 0:
                ones.append(miss_at + k * len(missing) + missing[SUIT_LETTER[state.miss[s]]])
        self.groups(ones, groups)
        ones += self.seat_set("to_act", state.to_act(), viewer)
        self.choice(ones, "phase", PHASE_NAME.get(phase, phase))
        tiles, wall, totals = self.scale["tiles"], self.scale["wall"], self.scale["totals"]
        return (
            [len(h) / tiles for h in state.hands]
            + [state.wall_count / wall]
            + [float(a) for a in state.active]
            + [t / totals for t in state.totals]
        )
