"""Explicit walls: the 108-tile order that deals given hands (sichuan.md 4, D3) and puts
given tiles at the front (normal draws) and the back (kong replacements) of the wall. Tests
and puzzles pass the result as the ``wall`` option.

>>> others = ["1s 2s 3s 4s 5s 6s 7s 8s 9s 6p 7p 8p 9p"] * 3
>>> hands = ["1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5p 5p", *others]
>>> wall = arrange_wall(hands, dealer=0, front="9s", back="6p")
>>> len(wall), wall[:4], wall[52], wall[53], wall[-1]
(108, ('1m#0', '2m#0', '3m#0', '4m#0'), '5p#1', '9s#3', '6p#3')
"""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.core.errors import ParseError
from meldhall.core.tiles import parse_mahjong_many, split_tokens
from meldhall.games.sichuan.pieces import SEATS, TILE_COUNT, TOKEN


def _tokens(text: str | Sequence[str]) -> list[str]:
    return split_tokens(text) if isinstance(text, str) else list(text)


def arrange_wall(
    hands: Sequence[str | Sequence[str]],
    dealer: int = 0,
    front: str | Sequence[str] = (),
    back: str | Sequence[str] = (),
) -> tuple[str, ...]:
    """Return the wall (108 tokens with copies) that deals ``hands[seat]`` to every seat
    (14 tiles for ``dealer``, 13 for the others), then draws ``front`` in order and gives
    ``back`` in order as kong replacements; the other tiles fill the middle in id order."""
    lists = [_tokens(h) for h in hands]
    if len(lists) != SEATS:
        raise ParseError(f"a deal has four hands, not {len(lists)}")
    for seat, tokens in enumerate(lists):
        want = 14 if seat == dealer else 13
        if len(tokens) != want:
            raise ParseError(f"seat {seat} is dealt {want} tiles, not {len(tokens)}")
    front_tokens = _tokens(front)
    back_tokens = _tokens(back)
    everything = [t for tokens in lists for t in tokens] + front_tokens + back_tokens
    tiles = [t.id for t in parse_mahjong_many(everything)]
    pos = 0
    by_seat: list[list[int]] = []
    for tokens in lists:
        by_seat.append(tiles[pos : pos + len(tokens)])
        pos += len(tokens)
    front_ids = tiles[pos : pos + len(front_tokens)]
    back_ids = tiles[pos + len(front_tokens) :]
    order: list[int] = []
    seats = [(dealer + i) % SEATS for i in range(SEATS)]
    taken = [0] * SEATS
    for size in (4, 4, 4, 1):
        for seat in seats:
            order += by_seat[seat][taken[seat] : taken[seat] + size]
            taken[seat] += size
    order.append(by_seat[dealer][13])
    used = set(tiles)
    middle = [t for t in range(TILE_COUNT) if t not in used]
    order += front_ids + middle + list(reversed(back_ids))
    return tuple(TOKEN[t] for t in order)
