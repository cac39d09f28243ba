"""The Sichuan array straight from ``SichuanState``, mirroring ``sichuan.view.observation``:
the viewer's hand and drawn tile, every discard row, the melds (an active opponent's
concealed kong shows no tiles before the deal ends), the discard a claim window is open on,
the per-seat counts, missing suits, activity and totals, ``to_act`` and the phase.

``fill`` writes the array afresh; ``array`` keeps one ``Board`` per viewer and changes only
the floats that differ since that viewer's last read (the environments' path), and
``applied`` writes each discard and draw into the boards as it happens."""

from __future__ import annotations

from array import array
from bisect import insort
from typing import TYPE_CHECKING

import numpy as np

from meldhall.core.engine import Event
from meldhall.core.errors import EngineBug
from meldhall.games.sichuan.pieces import SUIT_LETTER, TOKEN
from meldhall.rl.direct.base import NO_TOKENS, DirectEncoder
from meldhall.rl.direct.board import Board
from meldhall.rl.observe import Encoder

if TYPE_CHECKING:
    from meldhall.games.sichuan.state import SichuanState

ROWS, MELDS, MISSING, BLOCKS = 4, 8, 12, 13
"""Board blocks (``board.Board``): 0-3 the hands by seat (a viewer's board shows only its
own), 4-7 the discard rows, 8-11 the melds by seat, 12 the missing suits' flag positions."""

QUIET = frozenset({"answered", "declared", "exchange_chosen"})
"""The events that change nothing the array shows but ``to_act`` (compared at every read):
an answer in a claim window, a missing suit or an exchange chosen while others still choose
(the choices show once every seat has chosen, by the events that follow the last one)."""

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
        self._to_act_start = at["to_act"]
        self._to_act_rows: tuple[dict[frozenset[int], memoryview], ...] = tuple(
            {} for _ in range(self.seats)
        )
        """Per viewer, the floats of its ``to_act`` field for every seat set met so far."""
        self._drawn_at, self._last_discard_at = at["drawn"], at["last_discard"]
        self._hand_at = at["hand"]
        self._tiles_scale, self._wall_scale = self.scale["tiles"], self.scale["wall"]
        if self.NUMBERS[:2] != ("tiles", "wall"):
            raise EngineBug("sichuan: the numbers do not start with the tile counts and the wall")

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
        spelled: tuple[int, ...] = NO_TOKENS,
        fresh: bool = True,
    ) -> np.ndarray:
        """Return a copy of ``viewer``'s board brought up to date with ``state`` (not
        ``fresh``: the board's read-only view itself, which the next read of ``viewer``
        changes): the same floats as ``fill`` writes into ``blank`` (then ``spelled``
        counted), comparing only the sources the applies since the viewer's last read may
        have changed (``board.Board``, ``applied``): with none (answers in a claim window),
        only the ``to_act`` row and the spelled tokens."""
        board = self._boards.get(viewer)
        if board is None or board.blank is not blank:
            board = self._boards[viewer] = Board(blank, BLOCKS, self.number_at[viewer])
        pending = board.pending
        if state is not board.state:
            board.state = state
            pending = None
        if pending is None or pending:
            board.pending = set()
            self._refresh(board, state, viewer, pending)
        to_act = state.to_act()
        row = self._to_act_rows[viewer].get(to_act)
        if row is None:
            row = self._to_act_row(viewer, to_act)
        if row is not board.to_act:
            at = self._to_act_start
            board.view[at : at + self.seats] = row
            board.to_act = row
        if spelled != board.spelled:
            board.spell(self.size, spelled)
        return board.array.copy() if fresh else board.shared

    def _refresh(
        self, board: Board, state: SichuanState, viewer: int, pending: set[int] | None
    ) -> None:
        """Bring the blocks in ``pending`` (None: every block and every number), the
        numbers they carry and the turn flags of ``viewer``'s board up to date with
        ``state``; return None. A hand in ``pending`` (a draw, a discard, a claim) moves its
        seat's tile count and may move the wall; the seats' activity and totals change only
        with events that leave ``pending`` None."""
        view = board.view
        blocks = board.blocks
        if pending is None:
            for k in self._every[viewer]:
                self._block(board, state, viewer, k)
            for p, value in zip(board.number_at, self._numbers(state), strict=True):
                view[p] = value
        else:
            counts = board.number_at
            hand_moved = False
            for k in pending:
                if k < ROWS:
                    hand = state.hands[k]
                    view[counts[k]] = len(hand) / self._tiles_scale
                    hand_moved = True
                    if k == viewer and hand != blocks[k]:
                        board.block(k, self._hand_at, hand)
                elif k < MELDS:
                    row = state.discards[k - ROWS]
                    if row != blocks[k]:
                        board.block(k, self._discards_at[viewer][k - ROWS], row)
                else:
                    self._block(board, state, viewer, k)
            if hand_moved:
                view[counts[ROWS]] = state.wall_count / self._wall_scale
        board.set_turn(self._turn(state, viewer))

    def _block(self, board: Board, state: SichuanState, viewer: int, k: int) -> None:
        """Bring block ``k`` of ``viewer``'s board up to date with ``state``; return None."""
        if k < ROWS:
            if k == viewer:
                board.block(k, self._hand_at, state.hands[k])
        elif k < MELDS:
            board.block(k, self._discards_at[viewer][k - ROWS], state.discards[k - ROWS])
        elif k < MISSING:
            board.block(k, self._melds_at[viewer][k - MELDS], self._shown(state, viewer, k - MELDS))
        else:
            board.block(k, 0, self._missing(state, viewer))

    def _to_act_row(self, viewer: int, to_act: frozenset[int]) -> memoryview:
        """Return (and keep) the floats of the ``to_act`` field of ``viewer`` for the seats
        ``to_act``."""
        floats = [0.0] * self.seats
        for s in to_act:
            floats[self.rot[viewer][s]] = 1.0
        row = self._to_act_rows[viewer][to_act] = memoryview(array("f", floats))
        return row

    def applied(self, state: SichuanState, events: tuple[Event, ...]) -> None:  # type: ignore[override]
        """Bring every board up to date with ``events`` or note which sources they may have
        changed: a ``QUIET`` event changes none (the ``to_act`` row is compared at every
        read); a discard or a draw alone (quiet events aside) is written into the boards
        at once (``_discarded``, ``_drew``); otherwise a discard notes the discarder's hand
        and row, a draw the drawer's hand, a pung the claimer's hand and melds and the
        discarder's row, the missing suits (once all are declared) their flags, and any
        other event every source. Any noted event also makes the
        next read compare the turn flags and the numbers. Return None."""
        if not events or (len(events) == 1 and events[0].kind in QUIET):
            return
        last = events[-1]
        touched: list[int] | None = []
        moves = [e for e in events if e.kind not in QUIET]
        if len(moves) == 1:
            if last.kind == "discard" and self._discarded(state, last):
                return
            if last.kind == "draw" and self._drew(state, last):
                return
        for e in moves:
            kind = e.kind
            if kind == "missing_suits":
                if touched is not None:
                    touched.append(MISSING)
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
        if touched is None:
            for board in self._boards.values():
                board.pending = None
        elif touched:
            for board in self._boards.values():
                pending = board.pending
                if pending is not None:
                    pending.update(touched)

    def _discarded(self, state: SichuanState, event: Event) -> bool:
        """Write the discard ``event`` (the last change of ``state``) into every board read
        on ``state`` whose sources are known: the tile onto the discarder's row, off its
        hand (on its own board), its tile count and the turn flags. Blocks a board has
        pending are left to its next read. Return False, nothing written, when the state's
        last discard is not the event's tile."""
        seat = event.public.get("seat")
        if not isinstance(seat, int):
            return False
        row = state.discards[seat]
        if not row or TOKEN[row[-1]] != event.public.get("tile"):
            return False
        tile = row[-1]
        k = ROWS + seat
        count = len(state.hands[seat]) / self._tiles_scale
        turn = self._turn(state, -1)
        for viewer, board in self._boards.items():
            pending = board.pending
            if pending is None or board.state is not state:
                continue
            view = board.view
            if k not in pending:
                view[self._discards_at[viewer][seat] + tile] = 1.0
                board.blocks[k].append(tile)
            view[board.number_at[seat]] = count
            if viewer == seat and seat not in pending:
                hand = board.blocks[seat]
                if tile in hand:
                    hand.remove(tile)
                    view[self._hand_at + tile] = 0.0
                else:
                    pending.add(seat)
            board.set_turn(turn)
        return True

    def _drew(self, state: SichuanState, event: Event) -> bool:
        """Write the draw ``event`` (the last change of ``state``) into every board read on
        ``state`` whose sources are known: the tile into the drawer's hand (on its own
        board), its tile count, the wall and the turn flags. Blocks a board has pending are
        left to its next read. Return False, nothing written, when the state's drawn tile is
        not the event's."""
        seat = event.public.get("seat")
        tile = state.drawn
        if (
            not isinstance(seat, int)
            or tile < 0
            or event.private is None
            or TOKEN[tile] != event.private.get("tile")
        ):
            return False
        count = len(state.hands[seat]) / self._tiles_scale
        wall = state.wall_count / self._wall_scale
        turn, own_turn = self._turn(state, -1), self._turn(state, seat)
        for viewer, board in self._boards.items():
            pending = board.pending
            if pending is None or board.state is not state:
                continue
            view = board.view
            counts = board.number_at
            view[counts[seat]] = count
            view[counts[ROWS]] = wall
            if viewer == seat and seat not in pending:
                hand = board.blocks[seat]
                if tile in hand:
                    pending.add(seat)
                else:
                    insort(hand, tile)
                    view[self._hand_at + tile] = 1.0
            board.set_turn(own_turn if viewer == seat else turn)
        return True

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
        the turn flags (``_turn``), then the ``to_act`` flags."""
        return (
            self._missing(state, viewer)
            + self._turn(state, viewer)
            + [self._to_act_at[viewer][s] for s in sorted(state.to_act())]
        )

    def _missing(self, state: SichuanState, viewer: int) -> list[int]:
        """Return the flag positions of every seat's missing suit (once declared)."""
        flag = self._suit_flag
        return [
            b + flag[m] for b, m in zip(self._missing_at[viewer], state.miss, strict=True) if m >= 0
        ]

    def _turn(self, state: SichuanState, viewer: int) -> list[int]:
        """Return the flag positions that change from turn to turn, ``to_act`` aside: the
        drawn tile, the discard a claim window is open on and the phase (the same for every
        viewer but the seat whose turn it is: ``viewer`` -1 gives theirs)."""
        phase = state.phase
        out: list[int] = []
        if phase == "act":
            if state.turn == viewer and state.drawn >= 0:
                out.append(self._drawn_at + state.drawn)
        elif phase == "claim":
            row = state.discards[state.window_from]
            if row:
                out.append(self._last_discard_at + row[-1])
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
