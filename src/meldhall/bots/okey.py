"""Okey bots: ``random``, ``greedy`` and ``strong``. All see only the observation and the
legal actions.

- ``random`` shows the indicator and wins whenever a listed DISCARD_WIN is a real win (when
  false claims are rejected, every listed one is), else picks uniformly among the rest.
- ``greedy`` wins at once with the most valuable winning discard, takes the previous discard
  when it wins or joins a natural set or run, and otherwise discards the least useful tile
  by a count of its partners in the hand, never a real joker, preferring tiles the next
  player threw away (defence).
- ``strong`` plays as ``greedy`` but measures a hand by its distance to a win (the fewest tile
  exchanges that make it a winning hand of sets and runs, or of seven pairs, by the core
  solver): it discards the tile that leaves the hand nearest a win (among the least useful
  few; usefulness and defence break ties) and takes the previous discard only when that
  brings the hand nearer a win.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from meldhall.core.engine import JSON, Action, Bot
from meldhall.core.solver import distance_to_win, most_pairs
from meldhall.games.okey.actions import (
    Discard,
    DiscardWin,
    EndHand,
    ShowIndicator,
    TakeDiscard,
)
from meldhall.games.okey.discards import winning_discards
from meldhall.games.okey.hand import (
    SETS_RUNS,
    SEVEN_PAIRS,
    HandRules,
    is_seven_pairs,
    meld_rules,
)
from meldhall.games.okey.options import PRESET
from meldhall.games.okey.pieces import OKEY_TILE_IDS, effective_faces, okey_face
from meldhall.games.okey.scoring import hand_points


class RandomOkeyBot:
    """Uniformly random, but shows the indicator and takes listed wins."""

    needs_observation = False

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return SHOW, a winning discard, or a uniformly random other action."""
        first = legal[0]
        if isinstance(first, ShowIndicator):
            return first
        wins = 0
        while wins < len(legal) and isinstance(legal[wins], DiscardWin):
            wins += 1
        others = len(legal) - wins
        # With ``false_claim = penalty(n)`` every tile is listed as DISCARD_WIN: no real win
        # can be told apart without the observation, so the random bot then never claims.
        if wins and (wins < others or not others):
            return legal[rng.randrange(wins)]
        return legal[wins + rng.randrange(others)]


def _rules(observation: Mapping[str, JSON]) -> HandRules:
    """Return the winning-hand rules the observation announces."""
    okey = okey_face(OKEY_TILE_IDS[str(observation["indicator"])])
    rules = observation.get("rules")
    if not isinstance(rules, dict):
        return HandRules(okey=okey)
    return HandRules(
        okey=okey,
        wrap=rules.get("wrap_runs") == "okey",
        max_run=int(rules.get("max_run", 14)),
        seven_pairs=bool(rules.get("seven_pairs", True)),
    )


def _hand_ids(observation: Mapping[str, JSON]) -> list[int]:
    tokens = observation.get("hand") or []
    assert isinstance(tokens, list)
    return [OKEY_TILE_IDS[str(t)] for t in tokens]


def _win_value(hand: Sequence[int], tile: int, rules: HandRules, colour: str) -> int:
    """Return what winning by discarding ``tile`` is worth (the tile is a listed win)."""
    counts, wild = effective_faces([t for t in hand if t != tile], rules.okey)
    form = SEVEN_PAIRS if is_seven_pairs(counts, wild) else SETS_RUNS
    joker = tile < 104 and tile >> 1 == rules.okey
    return hand_points(form, joker, colour, PRESET)


def _neighbours(
    wrap: bool,
) -> tuple[tuple[tuple[int, ...], tuple[tuple[int, float, int], ...]], ...]:
    """Return per face: the faces of the same number in the other colours, and the run
    neighbours within two positions as (face, weight, bit)."""
    out = []
    for face in range(52):
        colour, index = divmod(face, 13)
        partners = tuple(c * 13 + index for c in range(4) if c != colour)
        near = []
        for bit, delta, weight in ((1, -2, 1.5), (2, -1, 3.0), (4, 1, 3.0), (8, 2, 1.5)):
            number = index + 1 + delta
            if wrap and number == 14:
                number = 1
            if 1 <= number <= 13:
                near.append((colour * 13 + number - 1, weight, bit))
        out.append((partners, tuple(near)))
    return tuple(out)


_NEIGHBOURS = {wrap: _neighbours(wrap) for wrap in (True, False)}


def usefulness(hand: Sequence[int], okey: int, wrap: bool = True) -> dict[int, float]:
    """Return a score per tile of ``hand``: how much it helps towards sets, runs or pairs
    (real jokers score highest)."""
    counts: dict[int, int] = {}
    wild = 0
    for t in hand:
        if t < 104 and t >> 1 == okey:
            wild += 1
        else:
            face = okey if t >= 104 else t >> 1
            counts[face] = counts.get(face, 0) + 1
    chase_pairs = sum(n // 2 for n in counts.values()) + wild >= 5
    pair_bonus, single_malus = (6.0, -2.0) if chase_pairs else (0.5, 0.0)
    table = _NEIGHBOURS[wrap]
    face_score: dict[int, float] = {}
    for face, n in counts.items():
        partners, near = table[face]
        others = (partners[0] in counts) + (partners[1] in counts) + (partners[2] in counts)
        score = 2.0 * others + (4.0 if others >= 2 else 0.0)
        bits = 0
        for other, weight, bit in near:
            if other in counts:
                score += weight
                bits |= bit
        if bits & 6 == 6 or bits & 12 == 12 or bits & 3 == 3:
            score += 4.0
        face_score[face] = score + (pair_bonus if n >= 2 else single_malus)
    return {
        t: 1000.0 if t < 104 and t >> 1 == okey else face_score[okey if t >= 104 else t >> 1]
        for t in hand
    }


class GreedyOkeyBot:
    """Wins at once when it can, else keeps the tiles with the most partners."""

    needs_observation = True

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the best immediate move (see the module docstring)."""
        if isinstance(legal[0], ShowIndicator):
            return legal[0]
        rules = _rules(observation)
        hand = _hand_ids(observation)
        wins = [a for a in legal if isinstance(a, DiscardWin)]
        discards: list[Action] = [a for a in legal if isinstance(a, Discard)]
        if wins and discards and len(wins) >= len(discards):
            # every tile listed (false claims are penalised, not rejected): check them
            real = set(winning_discards(hand, rules))
            wins = [a for a in wins if a.tile in real]
        if wins:
            colour = str(observation["indicator"])[0]
            return max(wins, key=lambda a: (_win_value(hand, a.tile, rules, colour), -a.tile))
        if discards:
            return self._discard(observation, hand, rules, discards, rng)
        return self._take_or_draw(observation, hand, rules, legal)

    def _take_or_draw(
        self,
        observation: Mapping[str, JSON],
        hand: list[int],
        rules: HandRules,
        legal: tuple[Action, ...],
    ) -> Action:
        take = next((a for a in legal if isinstance(a, TakeDiscard)), None)
        if take is not None:
            tile = _offered(observation)
            if tile is not None and self._wants(hand, tile, rules):
                return take
        rest = [a for a in legal if not isinstance(a, (TakeDiscard, EndHand))]
        if rest:
            return rest[0]
        return take if take is not None else legal[-1]

    @staticmethod
    def _wants(hand: list[int], tile: int, rules: HandRules) -> bool:
        """Return whether to take ``tile``: it wins, it is a real joker, or it has many
        partners in the hand."""
        if _always_take(hand, tile, rules):
            return True
        grown = [*hand, tile]
        scores = usefulness(grown, rules.okey, rules.wrap)
        return scores[tile] >= 7.0 and scores[tile] > min(scores.values())

    @staticmethod
    def _discard(
        observation: Mapping[str, JSON],
        hand: list[int],
        rules: HandRules,
        discards: list[Action],
        rng: random.Random,
    ) -> Action:
        scores = usefulness(hand, rules.okey, rules.wrap)
        safe = _next_players_faces(observation)
        best: list[Action] = []
        low = float("inf")
        for action in discards:
            assert isinstance(action, Discard)
            t = action.tile
            face = rules.okey if t >= 104 else t >> 1
            value = scores[t] - (0.75 if face in safe else 0.0)
            if value < low - 1e-9:
                low, best = value, [action]
            elif abs(value - low) < 1e-9:
                best.append(action)
        return best[rng.randrange(len(best))]


CANDIDATES = 6
"""How many of the least useful tiles the strong bot measures exactly before discarding."""


def distance(hand: Sequence[int], rules: HandRules) -> int:
    """Return the fewest tile exchanges that make ``hand`` (14 tiles) a winning hand: sets and
    runs by the core solver, or seven pairs when the rules allow them."""
    counts, wild = effective_faces(list(hand), rules.okey)
    best = distance_to_win(counts, wild, meld_rules(rules.wrap, rules.max_run))
    if rules.seven_pairs:
        best = min(best, max(0, 7 - most_pairs(counts, wild)))
    return best


class StrongOkeyBot(GreedyOkeyBot):
    """Plays towards the nearest win: discards and takes by the distance to a winning hand."""

    @staticmethod
    def _wants(hand: list[int], tile: int, rules: HandRules) -> bool:
        """Return whether to take ``tile``: it wins, it is a real joker, or it brings the
        hand nearer a win."""
        if _always_take(hand, tile, rules):
            return True
        now = distance(hand, rules)
        after = _nearest([*hand, tile], rules, allowed=set(hand))
        return now > 0 and after is not None and after[0] < now

    @staticmethod
    def _discard(
        observation: Mapping[str, JSON],
        hand: list[int],
        rules: HandRules,
        discards: list[Action],
        rng: random.Random,
    ) -> Action:
        listed = {a.tile: a for a in discards if isinstance(a, Discard)}
        safe = _next_players_faces(observation)
        found = _nearest(hand, rules, allowed=set(listed), safe=safe, rng=rng)
        if found is None:
            return GreedyOkeyBot._discard(observation, hand, rules, discards, rng)
        return listed[found[1]]


def _nearest(
    hand: list[int],
    rules: HandRules,
    *,
    allowed: set[int],
    safe: set[int] | None = None,
    rng: random.Random | None = None,
) -> tuple[int, int] | None:
    """Return (distance to a win after the discard, the tile to discard) for the best discard
    of a 15-tile hand among its least useful few of the ``allowed`` tiles, never a real joker
    (None when none is allowed); ties go to the least useful tile (a face the next player
    threw away counts as less useful), then to ``rng``'s pick."""
    scores = usefulness(hand, rules.okey, rules.wrap)
    safe = safe or set()
    ranked: dict[int, tuple[float, int]] = {}
    for t in hand:
        if t not in allowed or scores[t] >= 1000.0:
            continue
        face = rules.okey if t >= 104 else t >> 1
        value = scores[t] - (0.75 if face in safe else 0.0)
        if face not in ranked or value < ranked[face][0]:
            ranked[face] = (value, t)
    candidates = sorted(ranked.values())[:CANDIDATES]
    if not candidates:
        return None
    best: list[tuple[int, float, int]] = []
    for value, t in candidates:
        rest = list(hand)
        rest.remove(t)
        best.append((distance(rest, rules), value, t))
    low = min(best)[:2]
    ties = [t for d, v, t in best if (d, v) == low]
    tile = ties[rng.randrange(len(ties))] if rng is not None and len(ties) > 1 else ties[0]
    return low[0], tile


def _always_take(hand: list[int], tile: int, rules: HandRules) -> bool:
    """Return whether the offered ``tile`` wins with ``hand`` or is a real joker."""
    return bool(winning_discards([*hand, tile], rules)) or (tile < 104 and tile >> 1 == rules.okey)


def _offered(observation: Mapping[str, JSON]) -> int | None:
    """Return the tile the viewer may take (the previous player's top discard), if any."""
    seat = observation.get("seat")
    piles = observation.get("discards")
    active = observation.get("active")
    if not isinstance(seat, int) or not isinstance(piles, list) or not isinstance(active, list):
        return None
    n = len(piles)
    for step in range(1, n + 1):
        prev = (seat - step) % n
        if active[prev]:
            pile = piles[prev]
            if isinstance(pile, dict) and pile.get("top"):
                return OKEY_TILE_IDS[str(pile["top"])]
            return None
    return None


def _next_players_faces(observation: Mapping[str, JSON]) -> set[int]:
    """Return the faces the next player has shown it does not need (its visible discards)."""
    seat = observation.get("seat")
    piles = observation.get("discards")
    if not isinstance(seat, int) or not isinstance(piles, list) or not piles:
        return set()
    pile = piles[(seat + 1) % len(piles)]
    if not isinstance(pile, dict):
        return set()
    tokens = pile.get("tiles") or ([pile["top"]] if pile.get("top") else [])
    assert isinstance(tokens, list)
    okey = okey_face(OKEY_TILE_IDS[str(observation["indicator"])])
    out = set()
    for token in tokens:
        t = OKEY_TILE_IDS[str(token)]
        out.add(okey if t >= 104 else t >> 1)
    return out


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomOkeyBot,
    "greedy": GreedyOkeyBot,
    "strong": StrongOkeyBot,
}
"""The okey bots by name."""

__all__ = [
    "BOTS",
    "SEVEN_PAIRS",
    "GreedyOkeyBot",
    "RandomOkeyBot",
    "StrongOkeyBot",
    "distance",
    "usefulness",
]
