"""Rule switches of the arrangement solver: which melds exist and what they are worth.

A rule set is a frozen, hashable value; everything compiled from it is cached per rule set.

>>> RUMMIKUB.numbers, RUMMIKUB.run_line, RUMMIKUB.value.tile_value(13, top=False)
(13, 'plain', 13)
>>> LadderValue().run_value(top=7, length=7), LadderValue().set_value(13, size=4)
(10, 18)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

RunLine = Literal["plain", "ace_high", "both_ends"]


@dataclass(frozen=True, slots=True)
class TileSum:
    """A meld is worth the sum of its tile values.

    ``values[n - 1]`` is the value of number ``n``. A joker counts the tile it stands for, or
    ``joker_value`` when given (tile-rummy's Smiley). ``ace_high_value`` is the value of a 1
    standing at the top position of an ``ace_high``/``both_ends`` line (``None``: ``values[0]``).
    """

    values: tuple[int, ...] = tuple(range(1, 14))
    ace_high_value: int | None = None
    joker_value: int | None = None

    additive = True
    """Splitting a run into two runs keeps its value (the solver may return long runs split)."""

    def tile_value(self, number: int, *, top: bool) -> int:
        """Return the value of a natural tile of ``number`` (``top``: a 1 above the 13)."""
        if top and self.ace_high_value is not None:
            return self.ace_high_value
        return self.values[number - 1]

    def slot_value(self, number: int, *, top: bool, joker: bool) -> int:
        """Return the value of one meld slot standing for ``number``."""
        if joker and self.joker_value is not None:
            return self.joker_value
        return self.tile_value(number, top=top)


@dataclass(frozen=True, slots=True)
class LadderValue:
    """okey-ladder values (okey-ladder.md 6): a run is worth (h − 1) + (L − 3) with h its top
    position (14 for a 1 above the 13) and L its length; a group its number (three 13s:
    ``thirteens``, 17 by S5), + 1 with four tiles; a pair its number."""

    thirteens: int = 17

    additive = False
    """Long runs are worth more than their parts: the solver keeps them whole."""

    def run_value(self, *, top: int, length: int) -> int:
        """Return the value of a run whose top position is ``top``."""
        return (top - 1) + (length - 3)

    def set_value(self, number: int, *, size: int) -> int:
        """Return the value of a group of ``size`` tiles of ``number``."""
        base = self.thirteens if number == 13 else number
        return base + (1 if size >= 4 else 0)


MeldValue = TileSum | LadderValue


@dataclass(frozen=True, slots=True)
class MeldRules:
    """Which runs and sets are melds, and how melds are worth points.

    ``run_line``: ``plain`` runs inside 1..numbers; ``ace_high`` adds position numbers + 1
    standing for the number 1 (okey 12-13-1, remi Q-K-A); ``both_ends`` adds position 0 standing
    for ``numbers`` too (tile-rummy 13-1-2 or 12-13-1, never both in one run).
    ``min_natural``: natural tiles every meld must hold (remi R-D7, tile-rummy T-D9).
    ``loose_jokers``: False forbids a joker where the meld stays valid without it (a run longer
    than ``min_run`` has natural tiles at both ends; a set larger than ``min_set`` holds no
    joker): rummikub-solver's convention, used by ``meldhall bench solver``.
    """

    colours: int = 4
    numbers: int = 13
    run_line: RunLine = "plain"
    min_run: int = 3
    max_run: int = 13
    min_set: int = 3
    max_set: int = 4
    value: MeldValue = field(default_factory=TileSum)
    min_natural: int = 1
    loose_jokers: bool = True
    _hash: int = field(init=False, repr=False, compare=False)
    """The hash of the fields, computed once: rules key the solver's caches on every question."""

    def __hash__(self) -> int:
        return self._hash

    def __post_init__(self) -> None:
        if self.colours < 1 or self.numbers < 1:
            raise ValueError(f"need colours and numbers >= 1, got {self.colours}, {self.numbers}")
        if not 1 <= self.min_run <= self.max_run:
            raise ValueError(f"need 1 <= min_run <= max_run, got {self.min_run}, {self.max_run}")
        if not 1 <= self.min_set <= self.max_set:
            raise ValueError(f"need 1 <= min_set <= max_set, got {self.min_set}, {self.max_set}")
        if isinstance(self.value, TileSum) and len(self.value.values) != self.numbers:
            raise ValueError(f"TileSum needs {self.numbers} values, got {len(self.value.values)}")
        fields = (self.colours, self.numbers, self.run_line, self.min_run, self.max_run)
        rest = (self.min_set, self.max_set, self.value, self.min_natural, self.loose_jokers)
        object.__setattr__(self, "_hash", hash(fields + rest))

    @property
    def kinds(self) -> int:
        """Return the length of a count array: colours × numbers."""
        return self.colours * self.numbers

    def positions(self) -> range:
        """Return the positions of the run line (position p stands for ``number_at(p)``)."""
        if self.run_line == "plain":
            return range(1, self.numbers + 1)
        if self.run_line == "ace_high":
            return range(1, self.numbers + 2)
        return range(0, self.numbers + 2)

    def number_at(self, position: int) -> int:
        """Return the number standing at a run-line position."""
        if position == 0:
            return self.numbers
        if position == self.numbers + 1:
            return 1
        return position


RUMMIKUB = MeldRules()
"""Standard Rummikub: 4 colours, 1..13, no wrap, runs 3..13, groups 3..4, tiles at face value,
jokers worth the tile they stand for."""

RUMMIKUB_SOLVER_CONVENTION = MeldRules(max_run=5, loose_jokers=False)
"""The meld family of the rummikub-solver package (runs of 3..5, every joker needed); long runs
are sums of these, so this differs from RUMMIKUB only where a joker extends a meld."""
