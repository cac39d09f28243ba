"""The REARRANGE actions listed for a player (rules section 7).

Every legal rearrangement is accepted by ``apply``; the list names, for each of the player's
own melds, the solver's best recombination of that meld with the rack tiles that can work
with it (``max_placed_with_table``), when it places at least one rack tile. A quick test on
bit masks decides first whether a rack tile can join the meld only by recombining it:

- a run: a rack tile of its colour inside it, where both halves keep 3 tiles (a split); a
  removable end tile (run of 4+) that makes a set with rack tiles;
- a 4-tile set: a member that makes a run with rack tiles of its colour;
- a Smiley in the meld that a rack tile can replace, or that can leave it (end of a long run,
  4-tile set): the freed Smiley may join rack tiles.
"""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.core.solver import MeldRules
from meldhall.games.tile_rummy.actions import Meld, Rearrange
from meldhall.games.tile_rummy.melds import Pool, Shape, line
from meldhall.games.tile_rummy.pieces import SMILEY_A, pos_number
from meldhall.games.tile_rummy.solving import physical, rearranged

OwnMeld = tuple[int, Shape, list[int]]

SMILEYS = -1
"""In a gate's answer: the rack's Smileys are worth trying too."""
WHOLE_RACK = -2
"""In a gate's answer: try the whole rack (a Smiley of the meld may be freed)."""


def _bits(lo: int, hi: int) -> int:
    """Return a mask of the positions lo..hi (empty when lo > hi)."""
    return ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1) if lo <= hi else 0


def _positions(number: int, wrap: bool) -> tuple[int, ...]:
    if wrap and number == 13:
        return (13, 0)
    if wrap and number == 1:
        return (1, 14)
    return (number,)


def _run_partners(pool: Pool, colour: int, number: int, wrap: bool) -> tuple[int, bool]:
    """Return the rack positions of ``colour`` that make a 3-run with a tile of ``number``
    (as a mask, 0 when there are none) and whether that needs a rack Smiley."""
    lo, hi = line(wrap)
    mask = pool.pos_masks[colour]
    jokers = len(pool.smileys)
    found = 0
    needs_smiley = False
    for p in _positions(number, wrap):
        for s in (p - 2, p - 1, p):
            if s < lo or s + 2 > hi:
                continue
            window = _bits(s, s + 2) & ~(1 << p)
            have = mask & window
            gaps = (window & ~have).bit_count()
            if gaps <= jokers and have:
                found |= have
                needs_smiley |= gaps > 0
    return found, needs_smiley


def _run_gate(shape: Shape, tiles: list[int], pool: Pool, wrap: bool) -> list[int] | None:
    """Return the rack faces worth trying with an own run (or SMILEYS, WHOLE_RACK), or None."""
    colour, start, length = shape.colour, shape.key, len(tiles)
    faces: list[int] = []
    inner = pool.pos_masks[colour] & _bits(start + 2, start + length - 3)
    base = colour * 13 - 1
    while inner:
        low = inner & -inner
        inner ^= low
        faces.append(base + pos_number(low.bit_length() - 1))
    if length >= 4:
        for t in (tiles[0], tiles[-1]):
            if t >= SMILEY_A:
                return [WHOLE_RACK]
            number = (t >> 1) % 13 + 1
            others = pool.num_masks[number] & ~(1 << colour)
            count = others.bit_count()
            if count >= 2 or (count == 1 and pool.smileys):
                faces += [c * 13 + number - 1 for c in range(4) if others >> c & 1]
                if count == 1:
                    faces.append(SMILEYS)
    for i, t in enumerate(tiles):
        if t >= SMILEY_A and pool.counts[base + pos_number(start + i)]:
            return [WHOLE_RACK]
    return faces or None


def _set_gate(shape: Shape, tiles: list[int], pool: Pool, wrap: bool) -> list[int] | None:
    """Return the rack faces worth trying with an own set (or SMILEYS, WHOLE_RACK), or None."""
    number = shape.key
    present = 0
    smileys = 0
    for t in tiles:
        if t >= SMILEY_A:
            smileys += 1
        else:
            present |= 1 << ((t >> 1) // 13)
    if smileys and (len(tiles) == 4 or pool.num_masks[number] & ~present):
        return [WHOLE_RACK]
    if len(tiles) < 4:
        return None
    faces: list[int] = []
    for colour in range(4):
        found, needs_smiley = _run_partners(pool, colour, number, wrap)
        if needs_smiley:
            faces.append(SMILEYS)
        while found:
            low = found & -found
            found ^= low
            faces.append(colour * 13 - 1 + pos_number(low.bit_length() - 1))
    return faces or None


def rearrange_actions(
    own: Sequence[OwnMeld], rack: Sequence[int], pool: Pool, wrap: bool, rules: MeldRules
) -> list[Rearrange]:
    """Return one REARRANGE per own meld that the solver can recombine with rack tiles."""
    out: list[Rearrange] = []
    for meld_id, shape, tiles in own:
        gate = _run_gate if shape.kind == "run" else _set_gate
        faces = gate(shape, tiles, pool, wrap)
        if faces is None:
            continue
        wanted = set(faces)
        if WHOLE_RACK in wanted:
            chosen = list(rack)
        else:
            chosen = [t for t in rack if (SMILEYS if t >= SMILEY_A else t >> 1) in wanted]
        key_table = tuple(sorted(-1 if t >= SMILEY_A else t >> 1 for t in tiles))
        key_rack = tuple(sorted(-1 if t >= SMILEY_A else t >> 1 for t in chosen))
        solved = rearranged(key_table, key_rack, rules)
        if solved is None:
            continue
        melds = physical(solved, tiles, chosen, wrap)
        if melds is None:
            continue
        out.append(Rearrange((meld_id,), tuple(Meld(kind, ids) for kind, ids in melds)))
    return out
