"""Dealing a hand of Ladder Okey: the canonical Okey deal (okey.md 4.2, okey-ladder.md 4),
reused from the okey package, or the explicit deal of the options.

>>> d = deal_hand(b"seed", 1, 2)
>>> len(d.racks[2]), len(d.racks[3]), len(d.wall), d.first
(15, 14, 48, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from meldhall.core.rng import SeededStream, derive
from meldhall.games.okey.deal import canonical_deal
from meldhall.games.okey_ladder.options import LadderOptions
from meldhall.games.okey_ladder.pieces import TILE_COUNT

SEATS = 4


@dataclass(frozen=True, slots=True)
class HandDeal:
    """A dealt hand: indicator id, racks by seat (the first player's 15 tiles), the centre in
    draw order, and the first player."""

    indicator: int
    racks: tuple[tuple[int, ...], ...]
    wall: tuple[int, ...]
    first: int


def first_player(seed: bytes) -> int:
    """Return the first player of round 1, chosen from the match seed (section 4)."""
    return SeededStream(derive(seed, "first-player"), "seat").randbelow(SEATS)


def deal_hand(seed: bytes, hand_no: int, first: int) -> HandDeal:
    """Return the canonical deal of hand ``hand_no`` (from ``derive(seed, "hand", n)``)."""
    deal = canonical_deal(derive(seed, "hand", hand_no), SEATS, first)
    return HandDeal(deal.indicator, deal.hands, deal.wall, first)


def explicit_deal(options: LadderOptions) -> HandDeal:
    """Return the explicit deal of the options: the listed wall tiles first, then every
    unlisted tile in id order."""
    indicator, hands, wall = options.explicit_tiles
    racks = tuple(tuple(t.id for t in hand) for hand in hands)
    listed = {indicator.id, *(t for r in racks for t in r), *(t.id for t in wall)}
    rest = [t for t in range(TILE_COUNT) if t not in listed]
    first = 0 if options.first_player is None else options.first_player
    return HandDeal(indicator.id, racks, (*(t.id for t in wall), *rest), first)
