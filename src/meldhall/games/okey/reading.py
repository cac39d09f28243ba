"""A winning hand laid out in its melds, as the end-of-hand screen shows it: the sets and runs
of the arrangement solver's winning partition (or the seven pairs), on the physical tiles.

>>> from meldhall.games.okey.hand import HandRules, ids
>>> from meldhall.games.okey.pieces import TOKENS
>>> tiles = ids("R1 R2 R3 Y7 B7 K7 B10 B11 B12 B13 Y4 Y5 Y6 Y7")
>>> [[TOKENS[t][:-1] for t in g] for g in melds_of(tiles, 41, HandRules(okey=41), "sets_runs")]
[['R1', 'R2', 'R3'], ['Y4', 'Y5', 'Y6', 'Y7'], ['Y7', 'B7', 'K7'], ['B10', 'B11', 'B12', 'B13']]
"""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.core import solver
from meldhall.games.okey.hand import SEVEN_PAIRS, HandRules, meld_rules
from meldhall.games.okey.pieces import effective_faces


def _face_of(tile: int, okey: int) -> int:
    """Return the face a physical tile counts as (a false joker: the okey face)."""
    return okey if tile >= 104 else tile >> 1


def melds_of(hand: Sequence[int], okey: int, rules: HandRules, form: str) -> list[list[int]]:
    """Return the winning ``hand`` (tile ids) as melds of tile ids, runs ascending, in the
    solver's order; seven pairs as pairs. Every tile appears once; [] when it does not win."""
    wild = [t for t in hand if t < 104 and t >> 1 == okey]
    natural = sorted((t for t in hand if t not in wild), key=lambda t: (_face_of(t, okey), t))
    if form == SEVEN_PAIRS:
        return _pairs(natural, wild, okey)
    counts, jokers = effective_faces(list(hand), okey)
    found = solver.winning_partition(counts, jokers, meld_rules(rules.wrap, rules.max_run))
    if found is None:
        return []
    out: list[list[int]] = []
    for meld in found.melds:
        group: list[int] = []
        for slot in meld.tiles:
            if slot is None:
                group.append(wild.pop())
                continue
            colour, number = slot
            face = colour * 13 + (number - 1) % 13
            tile = next(t for t in natural if _face_of(t, okey) == face)
            natural.remove(tile)
            group.append(tile)
        out.append(group)
    return out


def _pairs(natural: list[int], wild: list[int], okey: int) -> list[list[int]]:
    """Return seven pairs: equal faces together, each real joker beside a lone tile."""
    out: list[list[int]] = []
    rest = list(natural)
    while rest:
        first = rest.pop(0)
        mate = next((t for t in rest if _face_of(t, okey) == _face_of(first, okey)), None)
        if mate is not None:
            rest.remove(mate)
            out.append([first, mate])
        else:
            out.append([first, wild.pop()])
    while wild:
        out.append([wild.pop(), wild.pop()])
    return out
