"""A small card game for the server tests: two hands, hidden hands, discards, a pause.

Each seat holds two cards from a seeded deck of 1..8 (two copies, tokens ``c3a``/``c3b``) and
on its turn plays one of them face up, then draws a replacement while the deck lasts. A hand
ends when every hand is empty; the match is two hands; the higher total of played cards wins.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from meldhall.bots.base import UniformRandomBot
from meldhall.core.engine import (
    JSON,
    Bots,
    Declared,
    Event,
    Outcome,
    Presets,
    Preview,
    TimeoutPolicy,
    VectorKinds,
    ranks_by,
)
from meldhall.core.errors import EngineBug, IllegalAction, ParseError
from meldhall.core.options import parse_options
from meldhall.core.rng import derive, shuffled

CARDS = [f"c{n}{c}" for n in range(1, 9) for c in "ab"]


@dataclass(frozen=True, slots=True)
class Play:
    card: str

    def __str__(self) -> str:
        return f"play {self.card}"

    def to_json(self) -> JSON:
        return {"type": "play", "card": self.card}


@dataclass(frozen=True)
class ToyOptions:
    hands: int = 2


class ToyState:
    def __init__(self, options: ToyOptions, seats: int, seed: bytes) -> None:
        self._seats = seats
        self.seed = seed
        self.options = options
        self.hand_no = 0
        self.totals = [0] * seats
        self.over = False
        self._deal()

    def _deal(self) -> None:
        self.deck = shuffled(derive(self.seed, "hand", self.hand_no), "deck", CARDS)
        self.hands = [[self.deck.pop(), self.deck.pop()] for _ in range(self._seats)]
        self.played: list[str] = []
        self.turn = self.hand_no % self._seats

    @property
    def seats(self) -> int:
        return self._seats

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.over else frozenset({self.turn})

    def legal_actions(self, seat: int) -> tuple[Any, ...]:
        if self.over or seat != self.turn:
            return ()
        return tuple(Play(c) for c in sorted(self.hands[seat]))

    def apply(self, seat: int, action: Any) -> tuple[Event, ...]:
        if self.over or seat != self.turn:
            raise IllegalAction("NOT_YOUR_TURN", f"seat {seat} may not act")
        if action.card not in self.hands[seat]:
            raise IllegalAction("TILE_NOT_IN_HAND", f"{action.card} is not in seat {seat}'s hand")
        hand = self.hands[seat]
        hand.remove(action.card)
        self.played.append(action.card)
        self.totals[seat] += int(action.card[1])
        events = [Event("play", {"card": action.card}, seat)]
        if self.deck:
            card = self.deck.pop()
            hand.append(card)
            events.append(Event("draw", {}, seat, {"card": card}))
        self.turn = (self.turn + 1) % self._seats
        if not any(self.hands):
            events.append(Event("hand_over", {"hand": self.hand_no, "totals": list(self.totals)}))
            self.hand_no += 1
            if self.hand_no >= self.options.hands:
                self.over = True
                events.append(Event("match_over", {"scores": list(self.totals)}))
            else:
                self._deal()
        return tuple(events)

    def observation(self, viewer: int | None) -> dict[str, JSON]:
        return {
            "game": "toy",
            "seat": viewer,
            "to_act": sorted(self.to_act()),
            "hand": sorted(self.hands[viewer]) if viewer is not None else None,
            "counts": [len(h) for h in self.hands],
            "discards": list(self.played),
            "wall": len(self.deck),
            "scores": list(self.totals),
            "hand_number": self.hand_no,
            "over": self.over,
        }

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        scores = tuple(self.totals)
        ranks = ranks_by(scores, higher_is_better=True)
        return Outcome(scores, ranks, frozenset(s for s, r in enumerate(ranks) if r == 1), "end")

    def snapshot(self) -> JSON:
        return {"deck": self.deck, "hands": self.hands, "played": self.played, "turn": self.turn}

    def check_invariants(self) -> None:
        if len(self.deck) + len(self.played) + sum(map(len, self.hands)) != len(CARDS):
            raise EngineBug("cards lost")

    def shuffled_hidden(self, viewer: int | None, rng: random.Random) -> ToyState:
        return copy.deepcopy(self)


class ToyGame(Declared):
    id = "toy"
    title = "Toy cards"
    min_seats = 2
    max_seats = 3
    default_seats = 2
    rules_version = 1
    options_type = ToyOptions
    presets: ClassVar[Presets] = {"default": {}}
    bots = Bots("tests.server.toy", ("random",), on_timeout="random")
    preview = Preview("okeycard", ("R1", "R2"))
    vector_kinds: ClassVar[VectorKinds] = {}
    higher_is_better = True
    hand_result = "totals"
    timeout = TimeoutPolicy()

    def options(self, raw: Mapping[str, JSON] | None = None) -> ToyOptions:
        return parse_options(ToyOptions, raw)

    def new_state(self, options: ToyOptions, seats: int, seed: bytes) -> ToyState:
        return ToyState(options, seats, seed)

    def parse_action(self, text: str) -> Play:
        if text.startswith("play ") and text[5:] in CARDS:
            return Play(text[5:])
        raise ParseError(f"not a toy action: {text!r}")

    def action_from_json(self, data: JSON) -> Play:
        if isinstance(data, dict) and data.get("type") == "play" and data.get("card") in CARDS:
            return Play(data["card"])
        raise ParseError(f"not a toy action: {data!r}")

    def answer_vector(self, kind: str, data: Mapping[str, JSON], options: Any) -> dict[str, JSON]:
        raise ParseError("no vectors")


GAME = ToyGame()
BOTS = {"random": UniformRandomBot}
