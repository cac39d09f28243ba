"""The arrangement solver: exact answers on count arrays for every rummy.

Hands are count arrays: ``counts[colour * rules.numbers + number - 1]`` tiles of each face,
plus a number of WILD jokers (okey false jokers are not wild: count them as the okey identity).
``MeldRules`` switches the run line, run and set lengths, the natural tiles a meld needs and
the value scheme (``TileSum``, ``LadderValue``). Every answer is exact (checked against a
brute-force reference by tests/core/test_solver*.py).

Questions: ``is_winning``, ``winning_partition`` (the most valuable one), ``best_partition``
(most value or most tiles), ``best_opening`` (openings against a threshold), ``best_pairs``
(okey-ladder pairs), ``max_placed_with_table`` (rearranging a table), ``tiles_left``,
``distance_to_win``.

Details beyond SOLVER_API.md:
- ``MeldRules.min_natural`` (default 1): natural tiles every meld holds; ``loose_jokers``
  (default True): False is rummikub-solver's convention (no joker the meld could do without);
  ``RUMMIKUB_SOLVER_CONVENTION`` is that rule set.
- With ``TileSum`` values a long run may come back split into shorter runs with the same tiles
  and value; with ``LadderValue`` (not additive) runs of every length are weighed. With
  ``LadderValue`` the top h of a run ending in a high 1 is 14; three 13s are worth 17 (S5).
- Melds are found once per (natural tiles, jokers) with the most valuable reading: a joker in
  ``stands_for`` is the reading chosen; a set leaves a joker's colour ``None`` unless the set
  holds every colour.
- ``best_opening(counts, jokers, rules, need, objective)`` returns ``(Solution, reached)``.
- ``best_pairs(..., joker_identity)``: what two jokers paired together stand for.
- ``max_placed_with_table`` raises ValueError when the table alone cannot be placed; it, like
  ``tiles_left`` and ``is_winning``, counts tiles only (ties: any partition), which lets it cut
  branches (branch and bound); ``winning_partition`` is the most valuable partition.
- ``distance_to_win`` counts brought-in tiles as wild (see its docstring).
- How: a memoised search over one packed int per hand, slots number by number, trying only
  the melds the hand holds (``search``, ``universe``); melds are compiled once per rule set.
  The most-tiles question on 24 tiles or more is cut by the dual prices of its LP relaxation
  (``bound``, HiGHS): the same answers, far fewer states.
- Limits: at most 7 tiles of one face and 127 jokers in one question.

>>> counts = [0] * RUMMIKUB.kinds
>>> for colour in range(3):
...     counts[colour * 13 + 6] = 1          # the 7 of three colours
>>> counts[12] = counts[11] = 1              # 12 and 13 of colour 0
>>> best_partition(counts, 1, RUMMIKUB).value  # 7 7 7 and J 12 13 (the joker an 11)
57
>>> is_winning(counts, 1, RUMMIKUB), tiles_left(counts, 0, RUMMIKUB)
(True, 2)
"""

from meldhall.core.solver.melds import Meld, MeldKind, Solution
from meldhall.core.solver.queries import (
    best_opening,
    best_pairs,
    best_partition,
    distance_to_win,
    is_winning,
    max_placed_with_table,
    most_pairs,
    tiles_left,
    winning_partition,
)
from meldhall.core.solver.rules import (
    RUMMIKUB,
    RUMMIKUB_SOLVER_CONVENTION,
    LadderValue,
    MeldRules,
    MeldValue,
    RunLine,
    TileSum,
)

__all__ = [
    "RUMMIKUB",
    "RUMMIKUB_SOLVER_CONVENTION",
    "LadderValue",
    "Meld",
    "MeldKind",
    "MeldRules",
    "MeldValue",
    "RunLine",
    "Solution",
    "TileSum",
    "best_opening",
    "best_pairs",
    "best_partition",
    "distance_to_win",
    "is_winning",
    "max_placed_with_table",
    "most_pairs",
    "tiles_left",
    "winning_partition",
]
