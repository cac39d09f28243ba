"""Pure helpers for players that see only an observation and the legal actions (bots, UI
hints): reading tokens back to tile ids, the jokers of the hand, which faces fit the table,
the value of a MELD action, and a quick upper bound on the best opening.

>>> obs = {"indicator": "R4a", "table": [{"kind": "run", "tiles": ["K6a", "R5a", "K8a"]}]}
>>> jokers = jokers_of(obs)
>>> sorted(FACE_NAME[f] for f in fitting_faces(obs["table"], jokers.eff))
['K5', 'K9']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from meldhall.games.okey_ladder.actions import Meld
from meldhall.games.okey_ladder.combos import RUN, SET, colour_mask, run_value, set_value
from meldhall.games.okey_ladder.pieces import FACE_NAME, TOKEN, WILD, Jokers, number_of

ID_OF: dict[str, int] = {token: i for i, token in enumerate(TOKEN)}
"""Tile id of every token with copy letter (``ID_OF["R5a"] == 8``)."""

FACE_INDEX: dict[str, int] = {name: f for f, name in enumerate(FACE_NAME)}
"""Face of every face name (``FACE_INDEX["R5"] == 4``)."""

__all__ = [
    "FACE_INDEX",
    "FACE_NAME",
    "ID_OF",
    "fitting_faces",
    "jokers_of",
    "meld_value",
    "meld_values",
    "opening_bound",
]


_JOKERS: dict[str, Jokers] = {}


def jokers_of(observation: Mapping[str, Any]) -> Jokers:
    """Return the jokers of the hand an observation shows."""
    indicator = observation["indicator"]
    jokers = _JOKERS.get(indicator)
    if jokers is None:
        jokers = _JOKERS[indicator] = Jokers.of(ID_OF[indicator])
    return jokers


def ids(tokens: Iterable[str]) -> list[int]:
    """Return the tile ids of tokens with copy letters."""
    return [ID_OF[t] for t in tokens]


def fitting_faces(table: Sequence[Mapping[str, Any]], eff: Sequence[int]) -> set[int]:
    """Return the faces that fit a run end or a set's missing colour on the table (10.1):
    discarding one of them costs the wrong-discard penalty."""
    out: set[int] = set()
    for combo in table:
        tiles = ids(combo["tiles"])
        if combo["kind"] == "run":
            start = next(eff[t] - i for i, t in enumerate(tiles) if eff[t] != WILD)
            if number_of(start) > 1:
                out.add(start - 1)
            if number_of(start) + len(tiles) <= 13:
                out.add(start + len(tiles))
        elif combo["kind"] == "set" and len(tiles) == 3:
            number = next(number_of(eff[t]) for t in tiles if eff[t] != WILD)
            mask = colour_mask(tiles, eff)
            out.update(c * 13 + number - 1 for c in range(4) if not mask & (1 << c))
    return out


class _Values(dict[Meld, int]):
    """Values of MELD actions under one okey, computed on first use."""

    def __init__(self, eff: Sequence[int], okey: int) -> None:
        super().__init__()
        self.eff = eff
        self.okey = okey

    def __missing__(self, meld: Meld) -> int:
        if len(self) > 50_000:
            self.clear()
        value = self[meld] = _value(meld, self.eff, self.okey)
        return value


_VALUES: dict[int, _Values] = {}


def _values(eff: Sequence[int], okey: int) -> _Values:
    table = _VALUES.get(okey)
    if table is None:
        table = _VALUES[okey] = _Values(eff, okey)
    return table


def meld_value(meld: Meld, eff: Sequence[int], okey: int) -> int:
    """Return the value of a (valid) MELD action's combination (section 6) under the okey
    face ``okey`` (remembered: the same melds come back turn after turn)."""
    return _values(eff, okey)[meld]


def meld_values(melds: Iterable[Meld], eff: Sequence[int], okey: int) -> list[int]:
    """Return the value of every (valid) MELD action of ``melds``, as ``meld_value``."""
    return list(map(_values(eff, okey).__getitem__, melds))


def _value(meld: Meld, eff: Sequence[int], okey: int) -> int:
    faces = [eff[t] for t in meld.tiles]
    naturals = [(i, f) for i, f in enumerate(faces) if f != WILD]
    if meld.kind == RUN:
        i, f = naturals[0]
        return run_value(number_of(f) - i, len(faces))
    if meld.kind == SET:
        return set_value(number_of(naturals[0][1]), len(faces))
    return number_of(naturals[0][1] if naturals else okey)


def opening_bound(melds: Iterable[Meld], eff: Sequence[int], okey: int) -> tuple[int, int]:
    """Return upper bounds (series, pairs) on the best opening among the tiles of ``melds``:
    every tile counted at the best share value / size of a combination holding it.

    A partition's value is the sum of its tiles' shares, so no opening exceeds the bound."""
    share: dict[int, float] = {}
    pair_share: dict[int, float] = {}
    values = _values(eff, okey)
    for meld in melds:
        target = pair_share if meld.kind not in (RUN, SET) else share
        per_tile = values[meld] / len(meld.tiles)
        for t in meld.tiles:
            if per_tile > target.get(t, 0.0):
                target[t] = per_tile
    return int(sum(share.values()) + 1e-9), int(sum(pair_share.values()) + 1e-9)
