"""Explicit positions in the middle of a hand (tests, puzzles, the scenario vectors).

``build_position`` places every tile where it is told (racks, table combinations, discard
piles, the first centre tiles) and the rest of the 106 at the end of the centre in id order.
Seats given as opened opened in an earlier turn.

>>> s = build_position(
...     indicator="R4",
...     racks=["K7 R1 R9", "B1 B2", "Y1 Y2", "K1 K2"],
...     table=[(0, "set", "B9 Y9 K9"), (3, "run", "K4 K5 K6")],
...     opened=["series", "none", "none", "series"],
... )
>>> [str(a) for a in s.legal_actions(0)][:2]
['layoff R9a 1 set', 'layoff K7a 2 high']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meldhall.core.errors import OptionsError, ParseError
from meldhall.core.tiles import parse_okey_many, split_tokens
from meldhall.games.okey_ladder.combos import KIND_NAMES, Combo, shape
from meldhall.games.okey_ladder.options import parse_ladder_options
from meldhall.games.okey_ladder.pieces import TILE_COUNT, Jokers
from meldhall.games.okey_ladder.scoring import OPENED_NAMES
from meldhall.games.okey_ladder.state import ACT, LadderState


def build_position(
    *,
    indicator: str,
    racks: Sequence[str],
    table: Sequence[tuple[int, str, str]] = (),
    opened: Sequence[str] = ("none", "none", "none", "none"),
    to_move: int = 0,
    phase: str = ACT,
    need: int | None = None,
    wall: str = "",
    piles: Sequence[str] = ("", "", "", ""),
    penalties: Sequence[int] = (0, 0, 0, 0),
    options: Mapping[str, Any] | None = None,
    first: int = 0,
    seed: bytes = b"position",
) -> LadderState:
    """Return a state at turn 2 of hand 1 with ``to_move`` to act in ``phase``.

    ``table`` lists (owner, kind, tiles) with runs low to high; ``opened`` gives each seat's
    status (openers opened in turn 1); ``need`` defaults to the first threshold."""
    opts = parse_ladder_options(options)
    groups = [indicator, *racks, *(t for _, _, t in table), wall, *piles]
    lists = [split_tokens(g) for g in groups]
    try:
        every = [t.id for t in parse_okey_many([tok for part in lists for tok in part])]
    except ParseError as exc:
        raise OptionsError(f"position: {exc}") from exc
    parts: list[list[int]] = []
    for part in lists:
        parts.append(every[: len(part)])
        every = every[len(part) :]
    state = LadderState(opts, seed, deal=False)
    state.hand_no = 1
    state.jokers = Jokers.of(parts[0][0])
    state.base = opts.base(state.jokers.colour)
    state.racks = [sorted(r) for r in parts[1:5]]
    state.piles = [list(p) for p in parts[-4:]]
    listed = {t for part in parts for t in part}
    centre = parts[5 + len(table)] + [t for t in range(TILE_COUNT) if t not in listed]
    state.wall = list(reversed(centre))
    for (owner, kind, _), tiles in zip(table, parts[5 : 5 + len(table)], strict=True):
        k = KIND_NAMES.index(kind)
        start = shape(k, tiles, state.jokers.eff, state.jokers.okey)
        if start < 0:
            raise OptionsError(f"position: {kind} {tiles} is not valid")
        if k != 0:
            tiles = sorted(tiles)
        state.combos[state.next_cid] = Combo(state.next_cid, owner, k, tiles, start, False)
        state.next_cid += 1
    state.opened = [OPENED_NAMES.index(o) for o in opened]
    for seat, status in enumerate(state.opened):
        owned = [c.value() for c in state.combos.values() if c.owner == seat]
        if bool(status) != bool(owned):
            raise OptionsError(f"position: seat {seat} must own a combination exactly if opened")
        state.opening_value[seat] = sum(owned)
    state.need = opts.first_threshold if need is None else need
    state.penalties = list(penalties)
    state.turn = 2
    state.first = first
    state.to_move = to_move
    state.phase = phase
    return state
