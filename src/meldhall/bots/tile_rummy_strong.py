"""Tile Rummy's ``strong`` bot: the greedy bot with a guarded discard (docs/bots.md).

It plays like ``greedy`` (bots/tile_rummy.py) except how it judges a discard and a take:

- **The pile is public**: any player may dig a tile out of the pile with every tile above it
  when he uses it at once. A discard that makes a meld with tiles already in the pile (B7
  thrown onto a pile holding B6) hands the pile to whoever holds the third tile, so every
  pile tile that partners the discard counts against it (``PILE_GIFT``), and a tile another
  player's meld takes counts more than it does for ``greedy`` (``MELD_GIFT``).
- **Dead tiles go first**: a rack partner helps only while a tile that completes the meld
  is still unseen; a tile whose partners are dead counts as a loose tile.
- **Dump onto the table when a player is about to go out**: once another player holds
  ``DANGER_TILES`` tiles or fewer, every rack point is likely to be collected by him, so
  feeding a tile to the meld of a player who is not about to go out counts as a gain
  (``DANGER_FEED`` a point; greedy and this bot otherwise feed only to go out). Feeding the
  threatening player's own meld still counts nothing: it gives him the points at once.
- **Loads are welcome**: rack tiles cost only when somebody else goes out, while every tile
  taken is one more to meld from, so a take that places its tile counts the tiles it brings
  as a small gain (``TAKEN_LOAD`` below zero; greedy charges them 0.3 a point).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from meldhall.bots.tile_rummy import GOING_OUT, GreedyBot, _View
from meldhall.core.engine import JSON, Action
from meldhall.games.tile_rummy.actions import Add, Use
from meldhall.games.tile_rummy.pieces import SMILEY_A, parse_tile

PILE_GIFT = 6.0
"""What each pile tile that makes a meld with the discard counts against it."""
MELD_GIFT = 16.0
"""What a discard that another player's meld takes counts against it (greedy: 10)."""
TAKEN_LOAD = -0.15
"""Charge per point of the extra tiles a take brings; below zero it is a gain (measured:
0.3 gave 32 %, 0.0 35.8 %, -0.15 37.7 % first place against three greedy, 150 deals)."""
DANGER_TILES = 2
"""A player holding this many tiles or fewer is about to go out."""
DANGER_FEED = 0.5
"""What feeding a tile to a safe player's meld is worth per point while a player is about
to go out (paired, 150 deals of seed ``tune``: +8.3 points of first place, CI [+4.4, +12.3])."""


def seen_faces(obs: Mapping[str, JSON]) -> list[int]:
    """Return per face (tile >> 1) how many of its copies the seat sees: its rack, the pile
    and the melds on the table."""
    seen = [0] * 52
    tokens: list[str] = []
    for key in ("hand", "pile"):
        value = obs.get(key) or []
        assert isinstance(value, list)
        tokens.extend(str(t) for t in value)
    melds = obs.get("melds") or []
    assert isinstance(melds, list)
    for meld in melds:
        tokens.extend(meld["tiles"])
    for token in tokens:
        tile = parse_tile(token)
        if tile < SMILEY_A:
            seen[tile >> 1] += 1
    return seen


def threats(obs: Mapping[str, JSON]) -> set[int]:
    """Return the other seats holding ``DANGER_TILES`` tiles or fewer (about to go out)."""
    counts = obs.get("rack_counts") or []
    assert isinstance(counts, list)
    return {s for s, c in enumerate(counts) if s != obs["seat"] and int(c) <= DANGER_TILES}


def _partners(a: int, b: int) -> bool:
    """Return True when faces ``a`` and ``b`` could share a meld: the same number in another
    colour, or the same colour one or two numbers apart."""
    ca, na = divmod(a, 13)
    cb, nb = divmod(b, 13)
    return (ca == cb and 0 < abs(na - nb) <= 2) or (na == nb and ca != cb)


def _completions(a: int, b: int) -> list[int]:
    """Return the faces that make a meld of three with partner faces ``a`` and ``b``."""
    ca, na = divmod(a, 13)
    cb, nb = divmod(b, 13)
    if na == nb:
        return [c * 13 + na for c in range(4) if c not in (ca, cb)]
    lo, hi = min(na, nb), max(na, nb)
    if hi - lo == 2:
        return [ca * 13 + lo + 1]
    return [ca * 13 + n for n in (lo - 1, hi + 1) if 0 <= n <= 12]


class StrongBot(GreedyBot):
    """``greedy`` with a guarded discard and cheaper loads (module docstring)."""

    taken_load = TAKEN_LOAD

    def __init__(self) -> None:
        self._pile: list[int] = []
        self._seen: list[int] = [0] * 52
        self._threats: set[int] = set()

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the greedy choice with this bot's discard judgement and load charge."""
        pile = observation.get("pile") or []
        assert isinstance(pile, list)
        self._pile = [parse_tile(str(t)) for t in pile]
        self._seen = seen_faces(observation)
        self._threats = threats(observation)
        return super().choose(observation, legal, rng)

    def _placement(self, view: _View, use: Use, rack_size: int, taken: Sequence[int] = ()) -> float:
        """Return greedy's score of a placement, except that a feed to a safe player's meld
        while another player is about to go out gains ``DANGER_FEED`` a point (0 for a feed
        to a threatening player's meld)."""
        score = super()._placement(view, use, rack_size, taken)
        if not self._threats or not isinstance(use, Add) or score >= GOING_OUT / 2:
            return score
        owner = view.owner.get(use.meld)
        if owner == view.seat:
            return score
        if owner in self._threats:
            return 0.0
        return DANGER_FEED * view.values[use.tile]

    def _discard_score(self, view: _View, tile: int, foreign: set[int]) -> float:
        """Return how good a discard is: high value, little live use to the bot, no gift to
        a meld on the table or through the pile."""
        if tile >= SMILEY_A:
            return -100.0
        face = tile >> 1
        help_ = 0.0
        for other in view.rack:
            if other == tile or other >= SMILEY_A or not _partners(face, other >> 1):
                continue
            live = sum(2 - self._seen[f] for f in _completions(face, other >> 1))
            if live <= 0:
                continue
            near = 3 - abs((other >> 1) % 13 - face % 13) if face // 13 == (other >> 1) // 13 else 2
            help_ += max(near, 1)
        pile_partners = sum(1 for p in self._pile if p < SMILEY_A and _partners(face, p >> 1))
        gift = (MELD_GIFT if face in foreign else 0.0) + PILE_GIFT * pile_partners
        return view.values[tile] - 4 * help_ - gift
