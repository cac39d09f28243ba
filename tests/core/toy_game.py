"""A tiny game used to test the engine machinery itself (conformance, replay, fairness).

Two or three seats take turns drawing from a seeded deck of the numbers 1..9 or passing; a
seat whose hand sums to 15 or more ends the match, the highest sum winning. Only a seat's own
hand is visible to it; everyone sees the hand sizes and the deck count.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from meldhall.core.engine import JSON, Event, Outcome, ranks_by
from meldhall.core.errors import EngineBug, IllegalAction, ParseError
from meldhall.core.options import parse_options
from meldhall.core.rng import shuffled


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"

    def to_json(self) -> JSON:
        return {"type": "draw"}


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"

    def to_json(self) -> JSON:
        return {"type": "pass"}


@dataclass(frozen=True)
class ToyOptions:
    target: int = field(default=15, metadata={"range": (5, 40)})


class ToyState:
    def __init__(self, options: ToyOptions, seats: int, seed: bytes, leak: bool = False) -> None:
        self.options = options
        self._seats = seats
        self.deck = shuffled(seed, "deck", list(range(1, 10)) * 2)
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.turn = 0
        self.passes = 0
        self.over = False
        self.leak = leak

    @property
    def seats(self) -> int:
        return self._seats

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.over else frozenset({self.turn})

    def legal_actions(self, seat: int) -> tuple[Any, ...]:
        if self.over or seat != self.turn:
            return ()
        return (Draw(), Pass()) if self.deck else (Pass(),)

    def apply(self, seat: int, action: Any) -> tuple[Event, ...]:
        if action not in self.legal_actions(seat):
            raise IllegalAction("NOT_LEGAL", f"seat {seat} cannot {action} now")
        events: list[Event] = []
        if isinstance(action, Draw):
            tile = self.deck.pop()
            self.hands[seat].append(tile)
            self.passes = 0
            events.append(Event("draw", {}, seat, {"tile": tile}))
        else:
            self.passes += 1
        if sum(self.hands[seat]) >= self.options.target or self.passes >= self._seats:
            self.over = True
            events.append(Event("hand_over", {"hands": self.hands}))
            events.append(Event("match_over", {}))
        self.turn = (self.turn + 1) % self._seats
        return tuple(events)

    def observation(self, viewer: int | None) -> dict[str, JSON]:
        visible = self.hands if self.over else None
        return {
            "hand": list(self.hands[viewer]) if viewer is not None else None,
            "sizes": [len(h) for h in self.hands],
            "deck": len(self.deck),
            "next": self.deck[-1] if self.leak and self.deck else None,
            "turn": self.turn,
            "revealed": visible,
        }

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        sums = tuple(sum(h) for h in self.hands)
        ranks = ranks_by(sums, higher_is_better=True)
        return Outcome(sums, ranks, frozenset(s for s, r in enumerate(ranks) if r == 1), "target")

    def snapshot(self) -> JSON:
        return {"deck": self.deck, "hands": self.hands, "turn": self.turn, "over": self.over}

    def check_invariants(self) -> None:
        if len(self.deck) + sum(len(h) for h in self.hands) != 18:
            raise EngineBug("tiles lost")

    def shuffled_hidden(self, viewer: int | None, rng: random.Random) -> ToyState:
        other = copy.deepcopy(self)
        if self.over:
            return other
        pool = list(other.deck)
        for s, hand in enumerate(other.hands):
            if s != viewer:
                pool += hand
        rng.shuffle(pool)
        other.deck = [pool.pop() for _ in other.deck]
        for s, hand in enumerate(other.hands):
            if s != viewer:
                other.hands[s] = [pool.pop() for _ in hand]
        return other


class ToyGame:
    id = "toy"
    title = "Toy"
    min_seats = 2
    max_seats = 3
    default_seats = 2

    def __init__(self, leak: bool = False) -> None:
        self.leak = leak

    def options(self, raw: Mapping[str, JSON] | None = None) -> ToyOptions:
        return parse_options(ToyOptions, raw)

    def new_state(self, options: ToyOptions, seats: int, seed: bytes) -> ToyState:
        return ToyState(options, seats, seed, self.leak)

    def parse_action(self, text: str) -> Any:
        if text == "draw":
            return Draw()
        if text == "pass":
            return Pass()
        raise ParseError(f"not a toy action: {text!r}")

    def action_from_json(self, data: JSON) -> Any:
        if isinstance(data, dict) and data.get("type") in ("draw", "pass"):
            return self.parse_action(data["type"])
        raise ParseError(f"not a toy action: {data!r}")

    def answer_vector(self, kind: str, data: Mapping[str, JSON], options: Any) -> dict[str, JSON]:
        raise ParseError("the toy game has no vectors")
