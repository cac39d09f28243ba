"""The Sichuan array straight from ``SichuanState``, mirroring ``sichuan.view.observation``:
the viewer's hand and drawn tile, every discard row, the melds (an active opponent's
concealed kong shows no tiles before the deal ends), the discard a claim window is open on,
the per-seat counts, missing suits, activity and totals, ``to_act`` and the phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meldhall.core.errors import EngineBug
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
        if not self.same:
            raise EngineBug("sichuan: tile ids are not the mahjong family's token order")
        at, n = self.at, self.n
        missing = self.word["missing"]
        self._discards_at = tuple(
            tuple(at["discards"] + k * n for k in self.rot[v]) for v in range(self.seats)
        )
        self._melds_at = tuple(
            tuple(at["melds"] + k * n for k in self.rot[v]) for v in range(self.seats)
        )
        self._missing_at = tuple(
            tuple(at["missing"] + k * len(missing) for k in self.rot[v]) for v in range(self.seats)
        )
        self._to_act_at = tuple(
            tuple(at["to_act"] + k for k in self.rot[v]) for v in range(self.seats)
        )
        """Per viewer, per seat: where that seat's discards, melds, missing suit and
        ``to_act`` flag start."""
        self._suit_flag = tuple(missing[letter] for letter in SUIT_LETTER)
        self._phase_at = {word: at["phase"] + i for word, i in self.word["phase"].items()}
        self._scales = (self.scale["tiles"], self.scale["wall"], self.scale["totals"])

    def fill(
        self,
        state: SichuanState,  # type: ignore[override]
        viewer: int,
        ones: list[int],
    ) -> list[float]:
        """Append the flags of ``viewer``'s Sichuan array; return its numbers. (Tile ids
        are their own family positions, so a flag is a block start plus a tile id.)"""
        at = self.at
        phase = state.phase
        hand = at["hand"]
        ones += [hand + t for t in state.hands[viewer]]
        discards = state.discards
        ones += [
            b + t for b, row in zip(self._discards_at[viewer], discards, strict=True) for t in row
        ]
        if phase == "act":
            if state.turn == viewer and state.drawn >= 0:
                ones.append(at["drawn"] + state.drawn)
        elif phase == "claim":
            row = discards[state.window_from]
            if row:
                ones.append(at["last_discard"] + row[-1])
        revealed = phase == "over"
        active = state.active
        melds_at = self._melds_at[viewer]
        for s, melds in enumerate(state.melds):
            if melds:
                b = melds_at[s]
                shown = revealed or s == viewer or not active[s]
                ones += [b + t for m in melds if shown or m.letter != "C" for t in m.tiles]
        flag = self._suit_flag
        ones += [
            b + flag[m] for b, m in zip(self._missing_at[viewer], state.miss, strict=True) if m >= 0
        ]
        to_act = self._to_act_at[viewer]
        ones += [to_act[s] for s in state.to_act()]
        phase_flag = self._phase_at.get(PHASE_NAME.get(phase, phase))
        if phase_flag is not None:
            ones.append(phase_flag)
        tiles, wall, totals = self._scales
        h0, h1, h2, h3 = state.hands
        a0, a1, a2, a3 = active
        t0, t1, t2, t3 = state.totals
        return [
            len(h0) / tiles,
            len(h1) / tiles,
            len(h2) / tiles,
            len(h3) / tiles,
            state.wall_count / wall,
            float(a0),
            float(a1),
            float(a2),
            float(a3),
            t0 / totals,
            t1 / totals,
            t2 / totals,
            t3 / totals,
        ]

    def scores(self, state: SichuanState) -> list[float]:  # type: ignore[override]
        """Return ``totals`` of the public observation as floats."""
        return [float(v) for v in state.totals]
