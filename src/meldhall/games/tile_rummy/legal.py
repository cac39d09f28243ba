"""The canonical lists of MELD, ADD and TAKE_DISCARD actions a player has (rules 6 and 8),
and the rules both those lists and ``apply``'s checks (``checks.py``) decide with, written
once: the opening minimum (``opening_need``), who may add to whose melds
(``feed_refusal``), which pile tiles may be taken (``takeable_depths``, T-D rules) and
where a taken tile may go (``take_target_refusal``).

Copies of one face are interchangeable for every rule (2), so each list names one
representative: the lowest ids of the player's tiles (the target tile itself when taking
from the discard pile). ``apply`` accepts every copy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from meldhall.core.errors import Refusal
from meldhall.games.tile_rummy.actions import Add, Meld, TakeDiscard
from meldhall.games.tile_rummy.melds import Pool, assign, line, templates

if TYPE_CHECKING:
    from meldhall.games.tile_rummy.state import TileRummyState

Entry = tuple[int, str | None, int]
"""A place that takes a tile: (meld id, end, owner)."""


def opening_need(state: TileRummyState, seat: int) -> int:
    """Return the value a new meld of ``seat`` must reach: the opening minimum while
    ``seat`` has not opened (section 6), else 0."""
    minimum = state.options.initial_meld_minimum
    return minimum if minimum and not state.opened[seat] else 0


def feed_refusal(state: TileRummyState, seat: int, owner: int, has_own: bool) -> Refusal:
    """Return why ``seat`` may not add a tile to a meld of ``owner`` now, or None: one's own
    melds always; another player's only after opening and, with
    ``feed_requires_own_meld``, while ``has_own`` (a meld of one's own)."""
    if owner == seat:
        return None
    if opening_need(state, seat):
        return "NOT_OPENED", f"seat {seat} must open before feeding"
    if state.options.feed_requires_own_meld and not has_own:
        return "NO_OWN_MELD", f"seat {seat} has no meld of his own to feed from"
    return None


def takeable_depths(state: TileRummyState) -> range:
    """Return the pile positions (1 = the bottom tile) a player may take from now: any
    depth with ``discard_take_any_depth`` (section 8: the tile and every tile above it come
    along), else only the top tile; empty when the pile is."""
    top = len(state.pile)
    return range(1 if state.options.discard_take_any_depth else max(top, 1), top + 1)


def take_target_refusal(state: TileRummyState, seat: int, own: bool) -> Refusal:
    """Return why a tile taken from the pile may not go where it goes (``own``: into one of
    the player's own melds), or None (``discard_target_use = own``, section 8)."""
    if state.options.discard_target_use == "own" and not own:
        return "TARGET_NOT_OWN", f"seat {seat}: the taken tile must join his own melds"
    return None


class Acceptors:
    """Every place on the table a tile may be added, by face (-1: a Smiley), from each
    meld's (face, end) list (``melds.accepting``)."""

    __slots__ = ("by_face",)

    def __init__(self, melds: Sequence[tuple[int, int, list[tuple[int, str | None]]]]) -> None:
        by_face: dict[int, list[Entry]] = {}
        for meld_id, owner, accepts in melds:
            for face, end in accepts:
                if face in by_face:
                    by_face[face].append((meld_id, end, owner))
                else:
                    by_face[face] = [(meld_id, end, owner)]
        self.by_face = by_face

    def places(self, tile: int) -> list[Entry]:
        """Return the places that take this tile."""
        return self.by_face.get(-1 if tile >= 104 else tile >> 1, [])


def meld_actions(pool: Pool, wrap: bool, keep: Callable[[tuple[int, ...]], bool]) -> list[Meld]:
    """Return a MELD for every meld the pool forms (one copy choice each) that ``keep``
    accepts (the opening minimum)."""
    out = []
    for template in templates(pool, wrap):
        tiles = assign(template, pool)
        if keep(tiles):
            out.append(Meld(template[0], tiles))
    return out


def add_actions(
    rack: Sequence[int], acceptors: Acceptors, may_place: Callable[[int], bool]
) -> list[Add]:
    """Return an ADD for every (tile face, place) of the rack; ``may_place(owner)`` says
    whether the player may add to that owner's melds now."""
    out = []
    last_face = -2
    for t in rack:
        face = -1 if t >= 104 else t >> 1
        if face == last_face:
            continue
        last_face = face
        for meld_id, end, owner in acceptors.places(t):
            if may_place(owner):
                out.append(Add(t, meld_id, end))
    return out


def _may_form(pool: Pool, tile: int, wrap: bool) -> bool:
    """Return False when no meld of the pool can hold ``tile`` (a quick test, bit masks)."""
    if pool.smileys or tile >= 104:
        return True
    colour, n = divmod(tile >> 1, 13)
    n += 1
    if (pool.num_masks[n] & ~(1 << colour)).bit_count() >= 2:
        return True
    mask = pool.pos_masks[colour]
    lo, hi = line(wrap)
    spots = [n]
    if wrap and n == 13:
        spots.append(0)
    elif wrap and n == 1:
        spots.append(14)
    for p in spots:
        for s in (p - 2, p - 1, p):
            if lo <= s <= hi - 2 and (mask >> s) & 7 == 7:
                return True
    return False


def take_actions(
    rack: Sequence[int],
    pile: Sequence[int],
    acceptors: Acceptors,
    wrap: bool,
    depths: range,
    may_place: Callable[[int], bool],
    keep: Callable[[tuple[int, ...]], bool],
) -> list[TakeDiscard]:
    """Return TAKE_DISCARD actions for every pile depth of ``depths`` (``takeable_depths``),
    with every MELD holding the target and every ADD of the target (section 8)."""
    pool = Pool(rack)
    per_index: list[list[TakeDiscard]] = []
    for i in range(len(pile), 0, -1):
        if i < depths.start:
            break
        target = pile[i - 1]
        pool.add(target)
        if i not in depths:
            continue
        found: list[TakeDiscard] = []
        if _may_form(pool, target, wrap):
            must = -1 if target >= 104 else target >> 1
            for template in templates(pool, wrap, must):
                tiles = assign(template, pool, target)
                if keep(tiles):
                    found.append(TakeDiscard(i, Meld(template[0], tiles)))
        for meld_id, end, owner in acceptors.places(target):
            if may_place(owner):
                found.append(TakeDiscard(i, Add(target, meld_id, end)))
        per_index.append(found)
    out: list[TakeDiscard] = []
    for found in reversed(per_index):
        out += found
    return out
