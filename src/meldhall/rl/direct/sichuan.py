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
        at, n = self.at, self.n
        missing = self.word["missing"]
        self._blocks: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
            tuple(
                (at["discards"] + k * n, at["melds"] + k * n, at["missing"] + k * len(missing))
                for k in self.rot[v]
            )
            for v in range(self.seats)
        )
        """Per viewer, per seat: where that seat's discards, melds and missing suit start."""
        self._suit_flag = tuple(missing[letter] for letter in SUIT_LETTER)
        self._phase_at = {word: at["phase"] + i for word, i in self.word["phase"].items()}

    def fill(
        self,
        state: SichuanState,  # type: ignore[override]
        viewer: int,
        ones: list[int],
    ) -> list[float]:
        """Append the flags of ``viewer``'s Sichuan array; return its numbers."""
        at, blocks = self.at, self._blocks[viewer]
        phase = state.phase
        groups: list[tuple[int, Iterable[int]]] = [(at["hand"], state.hands[viewer])]
        groups += [(b[0], row) for b, row in zip(blocks, state.discards, strict=True)]
        if phase == "act" and state.turn == viewer and state.drawn >= 0:
            groups.append((at["drawn"], (state.drawn,)))
        elif phase == "claim":
            row = state.discards[state.window_from]
            if row:
                groups.append((at["last_discard"], (row[-1],)))
        revealed = phase == "over"
        active = state.active
        for s, melds in enumerate(state.melds):
            if melds:
                base = blocks[s][1]
                shown = revealed or s == viewer or not active[s]
                groups += [(base, m.tiles) for m in melds if shown or m.letter != "C"]
        suit_flag = self._suit_flag
        ones += [b[2] + suit_flag[m] for b, m in zip(blocks, state.miss, strict=True) if m >= 0]
        self.groups(ones, groups)
        ones += self.seat_set("to_act", state.to_act(), viewer)
        flag = self._phase_at.get(PHASE_NAME.get(phase, phase))
        if flag is not None:
            ones.append(flag)
        tiles, wall, totals = self.scale["tiles"], self.scale["wall"], self.scale["totals"]
        return (
            [len(h) / tiles for h in state.hands]
            + [state.wall_count / wall]
            + [float(a) for a in active]
            + [t / totals for t in state.totals]
        )

    def scores(self, state: SichuanState) -> list[float]:  # type: ignore[override]
        """Return ``totals`` of the public observation as floats."""
        return [float(v) for v in state.totals]
