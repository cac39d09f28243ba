"""Explicit positions for tests, puzzles and the rule scenarios (VECTORS.md 6).

>>> state = build_position(racks=["R4 K9", "K1 K2"], melds=[(1, "run", "R5 R6 R7")], turn=0)
>>> [m["tiles"] for m in state.observation(0)["melds"]], state.observation(0)["hand"]
([['R5a', 'R6a', 'R7a']], ['R4a', 'K9a'])
"""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.core.errors import ParseError
from meldhall.core.tiles import parse_okey_many, split_tokens
from meldhall.games.tile_rummy.melds import judge
from meldhall.games.tile_rummy.options import TileRummyOptions
from meldhall.games.tile_rummy.pieces import TILE_COUNT
from meldhall.games.tile_rummy.state import TileRummyState
from meldhall.games.tile_rummy.table import PILE, STOCK, TABLE, TableMeld


def build_position(
    *,
    racks: Sequence[str],
    melds: Sequence[tuple[int, str, str]] = (),
    pile: str = "",
    stock: str = "",
    rest: str = "stock",
    turn: int = 0,
    phase: str = "play",
    options: TileRummyOptions | None = None,
    seed: bytes = b"position",
) -> TileRummyState:
    """Return round 1 of a match set to an explicit position.

    ``racks`` one tile list per seat; ``melds`` (owner, kind, tiles) in the order laid (ids
    1, 2, ...); ``pile`` bottom to top; ``stock`` in draw order. Tokens are read together, so
    ``R5 R5`` names both copies. Every tile not named goes to the end of the stock
    (``rest="stock"``) or to the bottom of the pile (``rest="pile"``).
    """
    opts = options or TileRummyOptions()
    state = TileRummyState(opts, len(racks), seed)
    fields = [*racks, *(m[2] for m in melds), pile, stock]
    words = [split_tokens(f) for f in fields]
    flat = [t.id for t in parse_okey_many([w for ws in words for w in ws], blank="S")]
    lists: list[list[int]] = []
    k = 0
    for ws in words:
        lists.append(flat[k : k + len(ws)])
        k += len(ws)
    named = set(flat)
    others = [t for t in range(TILE_COUNT) if t not in named]
    n = len(racks)
    state.racks = [sorted(lists[s]) for s in range(n)]
    state.loc = [STOCK] * TILE_COUNT
    for s, rack in enumerate(state.racks):
        for t in rack:
            state.loc[t] = s
    state.melds = {}
    state.opened = [False] * n
    for i, (owner, kind, _text) in enumerate(melds):
        tiles = lists[n + i]
        shape = judge(kind, tiles, opts.wrap)
        if shape is None:
            raise ParseError(f"not a valid {kind}: {_text!r}")
        state.melds[i + 1] = TableMeld(i + 1, owner, shape, list(tiles), opts.wrap)
        state.opened[owner] = True
        for t in tiles:
            state.loc[t] = TABLE
    state.next_meld = len(melds) + 1
    pile_tiles = lists[n + len(melds)]
    stock_tiles = lists[n + len(melds) + 1]
    if rest == "pile":
        pile_tiles = others + pile_tiles
    elif rest == "stock":
        stock_tiles = stock_tiles + others
    else:
        raise ParseError(f"rest is 'stock' or 'pile', not {rest!r}")
    state.pile = pile_tiles
    state.stock = stock_tiles[::-1]
    for t in state.pile:
        state.loc[t] = PILE
    state.turn = turn
    state.first = turn
    state.phase = phase
    state.reset_caches()
    state.check_invariants()
    return state
