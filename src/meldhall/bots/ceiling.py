"""Cheating bots for tournaments only: they see the true state, so their figure is a
ceiling an honest bot cannot be expected to pass (docs/bots.md). No table ever seats one.

A ceiling bot has ``see_state(state)``, which the tournament calls before every decision
(``meldhall tournament GAME --bots ceiling,greedy,greedy,greedy``). Sichuan's plays as its
``strong`` bot, but never discards a tile any active opponent would win on (it reads their
concealed hands), so it never deals in unless every discard does.

The rummies' (okey, okey-ladder, tile-rummy, remi: ``FeedlessCeiling``) play as their
``strong`` bot but never feed: on the true state each discard is tried in a copy, the player
who moves next answers as the game's ``greedy`` bot would (what the tournament seats against
it), and a discard that ends the hand (he goes out) or, in tile-rummy and remi, one he would
take (it lands in his hand; in tile-rummy, dug out of the pile) is thrown only when every
discard does. It does not use the order of the stock: a partial ceiling, like sichuan's.

Okey-cards' (``OkeyCardsPerfect``) is the perfect-information player: it reads the deck's
order and plays the best game that order allows (a search over every choice of cards to keep,
each draw known), the figure its ``expert`` is measured against.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from meldhall.bots.clairvoyant import ClairvoyantCeiling
from meldhall.bots.okey import GreedyOkeyBot, StrongOkeyBot
from meldhall.bots.okey_cards import ExpertBot
from meldhall.bots.okey_ladder import GreedyBot as LadderGreedy
from meldhall.bots.okey_ladder_ceiling import LadderCeiling
from meldhall.bots.okey_ladder_strong import StrongBot as LadderStrong
from meldhall.bots.remi import GreedyRemiBot
from meldhall.bots.remi_strong import StrongRemiBot
from meldhall.bots.sichuan import GreedyBot as SichuanGreedy
from meldhall.bots.sichuan import _kind
from meldhall.bots.sichuan_flush import StrongBot as SichuanStrong
from meldhall.bots.tile_rummy import GreedyBot as TileRummyGreedy
from meldhall.bots.tile_rummy_strong import StrongBot as TileRummyStrong
from meldhall.core.engine import JSON, Action, Bot, State
from meldhall.core.errors import MeldhallError
from meldhall.games.okey.game import GAME as OKEY
from meldhall.games.okey_cards.pieces import CARD_IDS, cards_of, number_of
from meldhall.games.okey_cards.planner import (
    HAND_LIMIT,
    Position,
    best_keep,
    keep_options,
    submasks,
    triples_of_card,
)
from meldhall.games.okey_cards.scoring import ScoreTable, best_triple
from meldhall.games.okey_ladder.game import GAME as LADDER
from meldhall.games.registry import find_game, game_ids
from meldhall.games.sichuan.actions import Discard
from meldhall.games.sichuan.game import GAME as SICHUAN
from meldhall.games.sichuan.hand import KINDS, waits
from meldhall.games.sichuan.pieces import KIND_OF, SUIT_LETTER
from meldhall.games.tile_rummy.game import GAME as TILE_RUMMY


def opponents_waits(state: State, seat: int) -> set[int]:
    """Return the tile kinds on which some active opponent of ``seat`` would win, read from
    each opponent's own observation of the true state."""
    out: set[int] = set()
    for other in range(state.seats):
        if other == seat:
            continue
        obs = state.observation(other)
        if not obs["active"][other]:
            continue
        counts = [0] * KINDS
        for token in obs["hand"]:
            counts[_kind(token)] += 1
        miss = obs["missing"][other] or obs.get("my_declaration")
        if not miss:
            continue
        out.update(waits(counts, SUIT_LETTER.index(miss), len(obs["melds"][other])))
    return out


class SichuanDefence(SichuanStrong):
    """Sichuan's strong bot with perfect defence (see the module docstring): the partial
    ceiling, and what proposes the full ceiling's moves."""

    def __init__(self) -> None:
        self.state: State | None = None

    def see_state(self, state: State) -> None:
        """Remember the true state of the coming decision."""
        self.state = state

    def _turn(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if self.state is None:
            return super()._turn(obs, legal)
        deadly = opponents_waits(self.state, obs["seat"])
        safe = tuple(a for a in legal if not (isinstance(a, Discard) and KIND_OF[a.tile] in deadly))
        if not any(isinstance(a, Discard) for a in safe):
            return super()._turn(obs, legal)
        return super()._turn(obs, safe)


def is_discard(action: Action) -> bool:
    """Return whether an action is a discard (its JSON type, in any game's spelling)."""
    kind = action.to_json()["type"]
    return isinstance(kind, str) and kind.lower() == "discard"


def feeds(state: State, seat: int, discard: Action, model: Bot, takes: bool = True) -> bool:
    """Return whether ``discard`` by ``seat`` feeds the player who moves next on the true
    ``state`` (a copy is played; the state is left alone): playing as ``model``, his move
    ends the hand, or (with ``takes``) he takes the discarded piece into his hand."""
    world = state.clone()  # type: ignore[attr-defined]
    before = set(world.observation(seat)["hand"])
    world.apply(seat, discard)
    thrown = before - set(world.observation(seat)["hand"])
    movers = sorted(world.to_act())
    if not movers or world.outcome() is not None:
        return False
    mover = movers[0]
    view = world.observation(mover)
    answer = model.choose(view, world.legal_actions(mover), random.Random(0))
    events = world.apply(mover, answer)
    if any(e.kind == "hand_over" for e in events) or world.outcome() is not None:
        return True
    return takes and bool(thrown & set(world.observation(mover)["hand"]))


class FeedlessCeiling:
    """A rummy's strong bot that never feeds the next player (see the module docstring)."""

    needs_observation = True

    def __init__(self, strong: Bot, model: Bot, takes: bool = True) -> None:
        """``strong``: the bot that chooses; ``model``: how the opponents answer (greedy);
        ``takes``: whether a discard the next player takes feeds him (else only one he
        wins on)."""
        self.strong = strong
        self.model = model
        self.takes = takes
        self.state: State | None = None

    def see_state(self, state: State) -> None:
        """Remember the true state of the coming decision."""
        self.state = state

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return the strong bot's choice among the discards that feed nobody (all of
        ``legal`` when no state was seen, no discard is listed or every discard feeds)."""
        discards = [a for a in legal if is_discard(a)]
        if self.state is None or len(discards) < 2:
            return self.strong.choose(observation, legal, rng)
        seat = observation["seat"]
        assert isinstance(seat, int)
        fed = {a for a in discards if feeds(self.state, seat, a, self.model, self.takes)}
        if len(fed) == len(discards) or not fed:
            return self.strong.choose(observation, legal, rng)
        safe = tuple(a for a in legal if a not in fed)
        choice = self.strong.choose(observation, safe, rng)
        return choice if choice in safe else self.strong.choose(observation, legal, rng)


def searched(legal: Sequence[Action]) -> bool:
    """Return whether the full ceiling plays out a decision: one with a discard among its
    moves, or a small choice (draw from the stock or take, claim or pass)."""
    return len(legal) <= 4 or any(is_discard(a) for a in legal)


def full_ceiling(higher_is_better: bool, strong: Bot, model: Callable[[], Bot]) -> Bot:
    """Return the full ceiling of a game whose scores rank as ``higher_is_better`` says
    (``ClairvoyantCeiling``, bots/clairvoyant.py): the ``strong`` bot's three best moves
    played out to the end of the hand on the true state, the stock or wall order included,
    every seat of the rollout a new ``model`` bot."""
    return ClairvoyantCeiling(strong, model, higher_is_better, FULL_CANDIDATES, searched)


FULL_CANDIDATES = 3
"""How many of the strong bot's best moves the full ceilings play out."""


def okey_partial_ceiling() -> Bot:
    """Return okey's partial ceiling: its strong bot that never discards a tile the next
    player wins on (avoiding every tile he would take cost more than it saved: 23 % first
    place against 43 % over 10 deals)."""
    return FeedlessCeiling(StrongOkeyBot(), GreedyOkeyBot(), takes=False)


def okey_ceiling() -> Bot:
    """Return okey's ceiling bot: the full ceiling over its strong bot."""
    return full_ceiling(OKEY.higher_is_better, StrongOkeyBot(), GreedyOkeyBot)


def okey_ladder_partial_ceiling() -> Bot:
    """Return okey-ladder's partial ceiling: its strong bot that never discards a tile the
    next player ends the hand with (avoiding takes too did no better: 30 % against 32.5 %
    over 10 deals)."""
    return FeedlessCeiling(LadderStrong(), LadderGreedy(), takes=False)


def okey_ladder_ceiling() -> Bot:
    """Return okey-ladder's ceiling bot: the full ceiling over its strong bot, which never
    recalls while it may discard (``LadderCeiling``)."""
    return LadderCeiling(
        LadderStrong(), LadderGreedy, LADDER.higher_is_better, FULL_CANDIDATES, searched
    )


def tile_rummy_partial_ceiling() -> Bot:
    """Return tile-rummy's partial ceiling (``FeedlessCeiling`` over its strong bot)."""
    return FeedlessCeiling(TileRummyStrong(), TileRummyGreedy())


def tile_rummy_ceiling() -> Bot:
    """Return tile-rummy's ceiling bot: the full ceiling over its strong bot."""
    return full_ceiling(TILE_RUMMY.higher_is_better, TileRummyStrong(), TileRummyGreedy)


class SichuanCeiling(ClairvoyantCeiling):
    """Sichuan's ceiling bot (the name its declaration gives): the full ceiling over its
    strong bot with perfect defence (``SichuanDefence``), every rollout seat sichuan's
    greedy bot."""

    def __init__(self) -> None:
        super().__init__(
            SichuanDefence(),
            SichuanGreedy,
            SICHUAN.higher_is_better,
            FULL_CANDIDATES,
            searched,
        )


def remi_ceiling() -> Bot:
    """Return remi's ceiling bot (``FeedlessCeiling`` over its strong bot)."""
    return FeedlessCeiling(StrongRemiBot(), GreedyRemiBot())


def _mask(cards: Sequence[int]) -> int:
    out = 0
    for card in cards:
        out |= 1 << card
    return out


class DeckSolver:
    """The best play of one okey-cards deck whose order is known (top first): ``value(i,
    held)`` is the most points still to come with the cards ``held`` (a bitmask) when the
    first ``i`` cards of the deck have been drawn. Each turn comes down to the cards to keep
    (``games/okey_cards/planner.py``): every subset of at most four of the held cards that can
    still score is tried, the best triple of the others played, the hand drawn up from the
    top. Positions are remembered, so a whole game costs one search."""

    def __init__(self, deck: Sequence[int], table: ScoreTable, single_draw: bool) -> None:
        self.deck = tuple(deck)
        self.table = table
        self.single_draw = single_draw
        n = len(self.deck)
        self.suffix = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            self.suffix[i] = self.suffix[i + 1] | 1 << self.deck[i]
        self.triples = [[mask for mask, _ in ts] for ts in triples_of_card(table)]
        self.memo: dict[int, int] = {}
        self.triple_points: dict[int, int] = {}
        self.keeps: dict[int, list[tuple[int, int, int]]] = {}
        self.caps: dict[int, int] = {}
        self.led = [
            [
                (mask, value)
                for mask, value in ts
                if number_of(card) == min(map(number_of, cards_of(mask)))
            ]
            for card, ts in enumerate(triples_of_card(table))
        ]

    def best_now(self, cards: int) -> int:
        """Return the points of the best triple among ``cards`` (0 for none)."""
        points = self.triple_points.get(cards)
        if points is None:
            points = self.triple_points[cards] = best_triple(cards, self.table)[1]
        return points

    def live(self, held: int, unseen: int) -> int:
        """Return the held cards that still belong to a triple inside held and unseen."""
        remaining = held | unseen
        out = 0
        rest = held
        while rest:
            low = rest & -rest
            rest ^= low
            if any(mask & remaining == mask for mask in self.triples[low.bit_length() - 1]):
                out |= low
        return out

    def options(self, live: int) -> list[tuple[int, int, int]]:
        """Return every (keep, let go, room) for held live cards: keep at most four."""
        found = self.keeps.get(live)
        if found is None:
            found = [
                (keep, live & ~keep, HAND_LIMIT - keep.bit_count())
                for keep in submasks(live)
                if keep.bit_count() < HAND_LIMIT
            ]
            self.keeps[live] = found
        return found

    def after(self, i: int, keep: int, room: int) -> int:
        """Return the points to come after keeping ``keep`` and drawing from card ``i``."""
        j = min(len(self.deck), i + (min(1, room) if self.single_draw else room))
        return self.value(j, keep | (self.suffix[i] & ~self.suffix[j]))

    def value(self, i: int, held: int) -> int:
        """Return the most points still to come (see the class docstring)."""
        unseen = self.suffix[i]
        if not unseen:
            return self.best_now(held)
        live = self.live(held, unseen)
        key = i << 24 | live
        found = self.memo.get(key)
        if found is not None:
            return found
        n, single, suffix, points = (
            len(self.deck),
            self.single_draw,
            self.suffix,
            self.triple_points,
        )
        tries = []
        for keep, rest, room in self.options(live):
            now = points.get(rest)
            if now is None:
                now = self.best_now(rest)
            j = min(n, i + (min(1, room) if single else room))
            tries.append((now + self.cap(keep | unseen), now, j, keep | (unseen & ~suffix[j])))
        tries.sort(reverse=True)
        best = 0
        for most, now, j, after in tries:
            if most <= best:
                break  # no later option can do better: the value stays exact
            total = now + self.value(j, after)
            if total > best:
                best = total
        self.memo[key] = best
        return best

    def cap(self, cards: int) -> int:
        """Return the most points disjoint triples among ``cards`` can score (order and hand
        limit ignored): an upper bound on what they will still score."""
        found = self.caps.get(cards)
        if found is not None:
            return found
        best = 0
        if cards:
            low = min(cards_of(cards), key=lambda c: (number_of(c), c))
            best = self.cap(cards & ~(1 << low))
            for mask, value in self.led[low]:
                if mask & cards == mask:
                    best = max(best, value + self.cap(cards & ~mask))
        self.caps[cards] = best
        return best


class OkeyCardsPerfect(ExpertBot):
    """Okey-cards' perfect-information player (see the module docstring); without a state
    seen (or one that disagrees with the observation) it plays as the ``expert``."""

    def __init__(self) -> None:
        super().__init__()
        self.deck: tuple[int, ...] = ()
        self.solver: DeckSolver | None = None

    def see_state(self, state: State) -> None:
        """Read the order of the cards left in the deck (top first) from the true state."""
        snapshot = state.snapshot()
        assert isinstance(snapshot, dict)
        self.deck = tuple(CARD_IDS[t] for t in snapshot["deck"])

    def keep(self, pos: Position, rng: random.Random) -> int:
        """Return the held cards to keep: the choice of most points to come, the deck known
        (ties to the smaller bitmask)."""
        if _mask(self.deck) != pos.unseen:
            return best_keep(pos)
        solver = self.solver
        if solver is None or solver.deck[len(solver.deck) - len(self.deck) :] != self.deck:
            solver = self.solver = DeckSolver(self.deck, pos.table, pos.single_draw)
        i = len(solver.deck) - len(self.deck)

        def value(option: tuple[int, int]) -> tuple[int, int]:
            keep, now = option
            room = HAND_LIMIT - keep.bit_count()
            return now + solver.after(i, keep, room), -keep

        return max(keep_options(pos.unseen, pos.held, pos.table), key=value)[0]


def okey_cards_perfect() -> Bot:
    """Return okey-cards' ceiling bot, the perfect-information player."""
    return OkeyCardsPerfect()


def ceiling_bot(game_id: str) -> Bot:
    """Return a new ceiling bot of a game (its declared ``bots.ceiling``), or raise
    ``MeldhallError`` naming the games that have one."""
    path = find_game(game_id).bots.ceiling
    if path is None:
        having = [g for g in game_ids() if find_game(g).bots.ceiling]
        raise MeldhallError(
            f"{game_id} has no ceiling bot; the games with one: {', '.join(having)}"
        )
    module, name = path.rsplit(".", 1)
    factory: Callable[[], Bot] = getattr(importlib.import_module(module), name)
    return factory()
