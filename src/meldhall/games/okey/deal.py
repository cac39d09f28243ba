"""The canonical deal of okey.md 4.2: 21 stacks of five, a spare, two dice, the indicator,
and 15/14 tiles dealt stack by stack. okey-ladder reuses exactly this routine.

``canonical_deal(source, players, first_player)`` shuffles the 106 tile ids and rolls the dice
from a seed (or a ``SeededStream``); ``deal_from_order(order, d1, d2_rolls, players,
first_player)`` does the physical procedure for a given shuffle and given rolls (tests and the
fairness check).

>>> deal = deal_from_order(range(106), 5, [2], 4, first_player=1)
>>> deal.stack, deal.indicator, deal.hands[1][:5], len(deal.wall)
(4, 21, (29, 28, 27, 26, 25), 48)
>>> deal.wall[-6:]
(15, 105, 24, 23, 22, 20)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from meldhall.core.rng import SeededStream

STACKS = 21
STACK_SIZE = 5
TILES = 106
SPARE = 105
"""Index in the shuffled order of the spare tile."""


@dataclass(frozen=True, slots=True)
class Deal:
    """One dealt hand.

    ``order`` is the shuffle T; ``d1`` and ``d2_rolls`` the dice (every d2 roll, the last
    one chose the indicator); ``stack`` the selected stack S; ``hands_in_order`` the hands in
    play order from the first player (each in the order the tiles were taken); ``wall`` the
    draw order, whose last five tiles are stack S.
    """

    order: tuple[int, ...]
    d1: int
    d2_rolls: tuple[int, ...]
    stack: int
    indicator: int
    hands_in_order: tuple[tuple[int, ...], ...]
    wall: tuple[int, ...]
    first_player: int
    players: int

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Return the hands by seat 0..players-1 (the first player holds 15 tiles)."""
        return tuple(self.hand(seat) for seat in range(self.players))

    def hand(self, seat: int) -> tuple[int, ...]:
        """Return the tiles dealt to ``seat`` (seats 0..players-1 in play order)."""
        return self.hands_in_order[(seat - self.first_player) % self.players]


def deal_from_order(
    order: Iterable[int], d1: int, d2_rolls: Iterable[int], players: int, first_player: int
) -> Deal:
    """Return the deal of okey.md 4.2 steps 2-7 for the shuffle ``order`` (106 tile ids),
    the roll ``d1`` and the d2 rolls to use in turn (re-rolled while the chosen tile is a
    false joker). Raises ``ValueError`` for bad input or when the d2 rolls run out."""
    t = tuple(order)
    if sorted(t) != list(range(TILES)):
        raise ValueError("the order must hold each of the 106 tile ids once")
    if not 1 <= d1 <= 6 or not 2 <= players <= 4 or not 0 <= first_player < players:
        raise ValueError(f"bad deal parameters d1={d1}, players={players}, first={first_player}")
    s = d1 - 1
    selected = [*t[s * STACK_SIZE : s * STACK_SIZE + STACK_SIZE], t[SPARE]]  # bottom to top
    rolls: list[int] = []
    rolls_iter: Iterator[int] = iter(d2_rolls)
    while True:
        d2 = next(rolls_iter, None)
        if d2 is None or not 1 <= d2 <= 6:
            raise ValueError(f"need a d2 roll 1..6, got {d2}")
        rolls.append(d2)
        if selected[d2 - 1] < 104:
            break
    indicator = selected.pop(rolls[-1] - 1)
    sequence: list[int] = []
    for k in range(1, STACKS):
        stack = (s + k) % STACKS
        sequence.extend(reversed(t[stack * STACK_SIZE : stack * STACK_SIZE + STACK_SIZE]))
    sequence.extend(reversed(selected))
    hands: list[list[int]] = [[] for _ in range(players)]
    pos = 0
    for _ in range(2):
        for hand in hands:
            hand.extend(sequence[pos : pos + 5])
            pos += 5
    hands[0].extend(sequence[pos : pos + 5])
    pos += 5
    for hand in hands[1:]:
        hand.extend(sequence[pos : pos + 4])
        pos += 4
    return Deal(
        order=t,
        d1=d1,
        d2_rolls=tuple(rolls),
        stack=s,
        indicator=indicator,
        hands_in_order=tuple(tuple(h) for h in hands),
        wall=tuple(sequence[pos:]),
        first_player=first_player,
        players=players,
    )


def canonical_deal(source: bytes | SeededStream, players: int, first_player: int) -> Deal:
    """Return the canonical deal from a hand seed (the tiles shuffled by its stream
    ``"shuffle"``, the dice rolled by its stream ``"dice"``) or from one stream used for both
    (shuffle first, then d1, then the d2 rolls)."""
    if isinstance(source, SeededStream):
        shuffle_stream = dice = source
    else:
        shuffle_stream = SeededStream(source, "shuffle")
        dice = SeededStream(source, "dice")
    order = list(range(TILES))
    shuffle_stream.shuffle(order)
    d1 = dice.roll()
    return deal_from_order(order, d1, iter(dice.roll, 0), players, first_player)
