"""The Sichuan array straight from ``SichuanState``, mirroring ``sichuan.view.observation``:
the viewer's hand and drawn tile, every discard row, the melds (an active opponent's
concealed kong shows no tiles before the deal ends), the discard a claim window is open on,
the per-seat counts, missing suits, activity and totals, ``to_act`` and the phase.

``fill`` writes the array afresh; ``array`` keeps one ``Board`` per viewer and changes only
the floats that differ since that viewer's last read (the environments' path)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from meldhall.core.engine import Event
from meldhall.core.errors import EngineBug
from meldhall.games.sichuan.pieces import SUIT_LETTER, TOKEN
from meldhall.rl.direct.base import DirectEncoder
from meldhall.rl.direct.board import Board
from meldhall.rl.observe import Encoder

if TYPE_CHECKING:
    from meldhall.games.sichuan.state import SichuanState

ROWS, MELDS, MISSING, BLOCKS = 4, 8, 12, 13
"""Board blocks (``board.Board``): 0-3 the hands by seat (a viewer's board shows only its
own), 4-7 the discard rows, 8-11 the melds by seat, 12 the missing suits' flag positions."""

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
        self._boards: dict[int, Board] = {}
        """The board of every viewer read so far (``array``)."""
        self._every = tuple((v, *range(ROWS, BLOCKS)) for v in range(self.seats))
        """Per viewer, the blocks a read compares when any source may have changed."""
        self._to_act_flags: tuple[dict[frozenset[int], list[int]], ...] = tuple(
            {} for _ in range(self.seats)
        )
        """Per viewer, the ``to_act`` flag positions of every seat set met so far."""

    def fill(
        self,
        state: SichuanState,  # type: ignore[override]
        viewer: int,
        ones: list[int],
    ) -> list[float]:
        """Append the flags of ``viewer``'s Sichuan array; return its numbers. (Tile ids
        are their own family positions, so a flag is a block start plus a tile id.)"""
        ones += [self.at["hand"] + t for t in state.hands[viewer]]
        ones += [
            b + t
            for b, row in zip(self._discards_at[viewer], state.discards, strict=True)
            for t in row
        ]
        for s, (b, melds) in enumerate(zip(self._melds_at[viewer], state.melds, strict=True)):
            if melds:
                ones += [b + t for t in self._shown(state, viewer, s)]
        ones += self._flags(state, viewer)
        return self._numbers(state)

    def array(
        self,
        state: SichuanState,  # type: ignore[override]
        viewer: int,
        blank: np.ndarray,
    ) -> np.ndarray:
        """Return a copy of ``viewer``'s board brought up to date with ``state``: the same
        floats as ``fill`` writes into ``blank``, comparing only the sources the applies
        since the viewer's last read may have changed (``board.Board``, ``applied``)."""
        board = self._boards.get(viewer)
        if board is None or len(board.array) != len(blank):
            board = self._boards[viewer] = Board(blank, BLOCKS, self.number_at[viewer])
        pending = board.changed(state)
        for k in self._every[viewer] if pending is None else pending:
            if k < ROWS:
                if k == viewer:
                    board.block(k, self.at["hand"], state.hands[viewer])
            elif k < MELDS:
                board.block(k, self._discards_at[viewer][k - ROWS], state.discards[k - ROWS])
            elif k < MISSING:
                board.block(
                    k, self._melds_at[viewer][k - MELDS], self._shown(state, viewer, k - MELDS)
                )
            else:
                board.block(k, 0, self._missing(state, viewer))
        board.set_flags(self._turn_flags(state, viewer))
        board.set_numbers(self._numbers(state))
        return board.array.copy()

    def applied(self, state: SichuanState, events: tuple[Event, ...]) -> None:  # type: ignore[override]
        """Note on every board which sources ``events`` may have changed: an answer in a
        claim window none, a discard the discarder's hand and row, a draw the drawer's
        hand, a pung the claimer's hand and melds and the discarder's row; any other event
        every source. Return None."""
        if not self._boards:
            return
        touched: list[int] | None = []
        for e in events:
            kind = e.kind
            if kind == "answered":
                continue
            seat = e.public.get("seat")
            if not isinstance(seat, int) or touched is None:
                touched = None
            elif kind == "discard":
                touched += (seat, ROWS + seat)
            elif kind == "draw":
                touched.append(seat)
            elif kind == "pung" and isinstance(source := e.public.get("from"), int):
                touched += (seat, MELDS + seat, ROWS + source)
            else:
                touched = None
        blocks = None if touched is None else tuple(touched)
        for board in self._boards.values():
            board.note(blocks)

    @staticmethod
    def _shown(state: SichuanState, viewer: int, seat: int) -> list[int]:
        """Return the tile ids of ``seat``'s melds that ``viewer`` sees: an active
        opponent's concealed kong shows no tiles before the deal ends."""
        melds = state.melds[seat]
        if seat == viewer or state.phase == "over" or not state.active[seat]:
            return [t for m in melds for t in m.tiles]
        return [t for m in melds if m.letter != "C" for t in m.tiles]

    def _flags(self, state: SichuanState, viewer: int) -> list[int]:
        """Return the positions of the small flag fields of ``viewer``: the missing suits,
        then ``_turn_flags``."""
        return self._missing(state, viewer) + self._turn_flags(state, viewer)

    def _missing(self, state: SichuanState, viewer: int) -> list[int]:
        """Return the flag positions of every seat's missing suit (once declared)."""
        flag = self._suit_flag
        return [
            b + flag[m] for b, m in zip(self._missing_at[viewer], state.miss, strict=True) if m >= 0
        ]

    def _turn_flags(self, state: SichuanState, viewer: int) -> list[int]:
        """Return the flag positions that change from turn to turn: the drawn tile, the
        discard a claim window is open on, ``to_act`` and the phase."""
        phase = state.phase
        out: list[int] = []
        if phase == "act":
            if state.turn == viewer and state.drawn >= 0:
                out.append(self.at["drawn"] + state.drawn)
        elif phase == "claim":
            row = state.discards[state.window_from]
            if row:
                out.append(self.at["last_discard"] + row[-1])
        to_act = state.to_act()
        seen = self._to_act_flags[viewer]
        flags = seen.get(to_act)
        if flags is None:
            at = self._to_act_at[viewer]
            flags = seen[to_act] = [at[s] for s in sorted(to_act)]
        out += flags
        phase_flag = self._phase_at.get(PHASE_NAME.get(phase, phase))
        if phase_flag is not None:
            out.append(phase_flag)
        return out

    def _numbers(self, state: SichuanState) -> list[float]:
        """Return the values of ``NUMBERS`` (per-seat ones in seat order), over their
        scales."""
        tiles, wall, totals = self._scales
        h0, h1, h2, h3 = state.hands
        a0, a1, a2, a3 = state.active
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
