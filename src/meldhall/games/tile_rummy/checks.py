"""The legality checks of every action (rules sections 4, 6, 7, 8): each raises
``IllegalAction`` with a reason code of ``CODES`` and changes nothing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from meldhall.core.errors import IllegalAction
from meldhall.games.tile_rummy.actions import Add, Meld, Rearrange, TakeDiscard, Use
from meldhall.games.tile_rummy.legal import (
    feed_refusal,
    opening_need,
    take_target_refusal,
    takeable_depths,
)
from meldhall.games.tile_rummy.melds import Shape, fits, judge
from meldhall.games.tile_rummy.pieces import token, tokens
from meldhall.games.tile_rummy.table import TableMeld, grown

if TYPE_CHECKING:
    from meldhall.games.tile_rummy.state import TileRummyState

CODES = {
    "MATCH_OVER": "the match is over",
    "NOT_YOUR_TURN": "another player is to act",
    "WRONG_PHASE": "the action does not belong to this part of the turn",
    "STOCK_EMPTY": "the stock is empty",
    "STOCK_NOT_EMPTY": "END_ROUND only when the stock is empty",
    "NOT_IN_RACK": "the tile is not in the player's rack",
    "DUPLICATE_TILE": "a tile is named twice",
    "INVALID_MELD": "not a valid set or run",
    "NO_SUCH_MELD": "no meld on the table has that id",
    "DOES_NOT_FIT": "the tile does not fit that end of that meld",
    "NOT_YOUR_MELD": "only the owner rearranges a meld",
    "FEED_OWN_MELD": "a feed goes to another player's meld",
    "TABLE_TILE_TO_RACK": "every tile of a dissolved meld must be placed again",
    "NOTHING_DISSOLVED": "a rearrangement dissolves at least one own meld",
    "BAD_PILE_INDEX": "no pile tile at that index (or only the top may be taken)",
    "TARGET_NOT_PLACED": "the taken tile must be placed at once",
    "TARGET_NOT_OWN": "the taken tile must go to the player's own melds",
    "OPENING_TOO_LOW": "the first meld is worth less than the opening minimum",
    "NOT_OPENED": "the player has not opened yet",
    "NO_OWN_MELD": "feeding needs a meld of one's own first",
    "TIMER_OFF": "this match has no turn timer",
}
"""Every reason code the engine raises, with its meaning."""

NOTHING: frozenset[int] = frozenset()


def fail(code: str, message: str) -> IllegalAction:
    """Return the rejection with a reason code of ``CODES``."""
    assert code in CODES
    return IllegalAction(code, message)


def check_turn(state: TileRummyState, seat: int, phase: str, action: object) -> None:
    """Reject unless ``seat`` is to act in ``phase``."""
    if state.phase == "over":
        raise fail("MATCH_OVER", f"seat {seat}: {action}: the match is over")
    if seat != state.turn:
        raise fail("NOT_YOUR_TURN", f"seat {seat}: {action}: it is seat {state.turn}'s turn")
    if state.phase != phase:
        raise fail("WRONG_PHASE", f"seat {seat}: {action}: not in the {state.phase} phase")


def check_tiles(
    state: TileRummyState, seat: int, tiles: Iterable[int], extra: frozenset[int]
) -> None:
    """Reject unless the tiles are distinct and each in the rack (or in ``extra``)."""
    seen: set[int] = set()
    loc = state.loc
    for t in tiles:
        if t in seen:
            raise fail("DUPLICATE_TILE", f"seat {seat}: {token(t)} is named twice")
        seen.add(t)
        if loc[t] != seat and t not in extra:
            raise fail("NOT_IN_RACK", f"seat {seat} does not hold {token(t)}")


def check_meld(state: TileRummyState, seat: int, meld: Meld, extra: frozenset[int]) -> Shape:
    """Return the shape of a new meld from the rack, or reject it."""
    check_tiles(state, seat, meld.tiles, extra)
    shape = judge(meld.kind, meld.tiles, state.wrap)
    if shape is None:
        raise fail("INVALID_MELD", f"seat {seat}: {meld.body()} is not a valid {meld.kind}")
    minimum = opening_need(state, seat)
    if minimum:
        value = sum(state.values[t] for t in meld.tiles)
        if value < minimum:
            raise fail(
                "OPENING_TOO_LOW", f"seat {seat}: opening meld worth {value} < {minimum}"
            ).with_details(value=value, need=minimum)
    return shape


def _check_feed_rights(state: TileRummyState, seat: int, owner: int, has_own: bool) -> None:
    refusal = feed_refusal(state, seat, owner, has_own)
    if refusal is not None:
        raise fail(*refusal)


def check_add(state: TileRummyState, seat: int, add: Add, extra: frozenset[int]) -> TableMeld:
    """Return the meld an ADD goes to, or reject it."""
    check_tiles(state, seat, (add.tile,), extra)
    meld = state.melds.get(add.meld)
    if meld is None:
        raise fail("NO_SUCH_MELD", f"seat {seat}: no meld {add.meld}")
    _check_feed_rights(state, seat, meld.owner, state.has_melds(seat))
    if not fits(meld.shape, meld.tiles, add.tile, add.end, state.wrap):
        where = f" at the {add.end} end" if add.end else ""
        raise fail(
            "DOES_NOT_FIT", f"seat {seat}: {token(add.tile)} does not fit meld {add.meld}{where}"
        )
    return meld


def check_rearrange(
    state: TileRummyState, seat: int, action: Rearrange, extra: frozenset[int]
) -> list[Shape]:
    """Return the shapes of a REARRANGE's new melds, or reject it (section 7)."""
    dissolve = action.dissolve
    if not dissolve:
        raise fail("NOTHING_DISSOLVED", f"seat {seat}: {action} dissolves no meld")
    if len(set(dissolve)) != len(dissolve):
        raise fail("NO_SUCH_MELD", f"seat {seat}: a meld is dissolved twice")
    freed: set[int] = set()
    for meld_id in dissolve:
        meld = state.melds.get(meld_id)
        if meld is None:
            raise fail("NO_SUCH_MELD", f"seat {seat}: no meld {meld_id}")
        if meld.owner != seat:
            raise fail("NOT_YOUR_MELD", f"seat {seat}: meld {meld_id} belongs to seat {meld.owner}")
        freed.update(meld.tiles)
    placed = action.placed()
    check_tiles(state, seat, placed, extra | frozenset(freed))
    back = freed.difference(placed)
    if back:
        names = " ".join(tokens(sorted(back)))
        raise fail("TABLE_TILE_TO_RACK", f"seat {seat}: {names} would go back to the rack")
    shapes: list[Shape] = []
    for new in action.melds:
        shape = judge(new.kind, new.tiles, state.wrap)
        if shape is None:
            raise fail("INVALID_MELD", f"seat {seat}: {new.body()} is not a valid {new.kind}")
        shapes.append(shape)
    has_own = bool(action.melds) or any(
        m.owner == seat and m.id not in dissolve for m in state.melds.values()
    )
    trial: dict[int, tuple[Shape, list[int]]] = {}
    for feed in action.feeds:
        meld = state.melds.get(feed.meld)
        if meld is None or feed.meld in dissolve:
            raise fail("NO_SUCH_MELD", f"seat {seat}: no meld {feed.meld} to feed")
        if meld.owner == seat:
            raise fail("FEED_OWN_MELD", f"seat {seat}: meld {feed.meld} is his own")
        _check_feed_rights(state, seat, meld.owner, has_own)
        shape, tiles = trial.get(feed.meld, (meld.shape, meld.tiles))
        if not fits(shape, tiles, feed.tile, feed.end, state.wrap):
            raise fail(
                "DOES_NOT_FIT", f"seat {seat}: {token(feed.tile)} does not fit meld {feed.meld}"
            )
        trial[feed.meld] = grown(shape, tiles, feed.tile, feed.end)
    return shapes


def check_take(state: TileRummyState, seat: int, action: TakeDiscard) -> frozenset[int]:
    """Return the tiles a TAKE_DISCARD takes, or reject it (section 8; the use is checked
    by ``check_use`` with these tiles)."""
    if action.index not in takeable_depths(state):
        raise fail("BAD_PILE_INDEX", f"seat {seat}: cannot take pile tile {action.index}")
    target = state.pile[action.index - 1]
    use = action.use
    if isinstance(use, Meld):
        placed, own = target in use.tiles, True
    elif isinstance(use, Add):
        placed = use.tile == target
        meld = state.melds.get(use.meld)
        own = meld is None or meld.owner == seat
    else:
        placed = target in use.placed()
        own = any(target in m.tiles for m in use.melds)
    if not placed:
        raise fail("TARGET_NOT_PLACED", f"seat {seat}: {use} does not place {token(target)}")
    if take_target_refusal(state, seat, own) is not None:
        raise fail("TARGET_NOT_OWN", f"seat {seat}: {token(target)} must join his own melds")
    if opening_need(state, seat) and not isinstance(use, Meld):
        raise fail("NOT_OPENED", f"seat {seat} must open with a meld first")
    return frozenset(state.pile[action.index - 1 :])


def check_use(
    state: TileRummyState, seat: int, use: Use, extra: frozenset[int]
) -> Shape | TableMeld | list[Shape]:
    """Return what a MELD, ADD or REARRANGE needs to be applied, or reject it."""
    if isinstance(use, Meld):
        return check_meld(state, seat, use, extra)
    if isinstance(use, Add):
        return check_add(state, seat, use, extra)
    return check_rearrange(state, seat, use, extra)
