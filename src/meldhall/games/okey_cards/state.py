"""One game of Okey cards in progress (okey-cards.md 4, 5, 8): deck, hand, field, score.

The game is played by one seat (0). Cards are ints 0..23 (the spec's ids) everywhere inside;
tokens (``R3``) appear only in actions, events, observations and snapshots.
"""

from __future__ import annotations

import random
from typing import Literal

from meldhall.core.engine import JSON, Event, Outcome, Seat
from meldhall.core.engine import Action as AnyAction
from meldhall.core.errors import EngineBug, refuse
from meldhall.core.tiles import OKEY_CARDS
from meldhall.games.okey_cards import legal, view
from meldhall.games.okey_cards.actions import (
    CODEC,
    Action,
    Discard,
    Draw,
    Quit,
    Select,
    Unselect,
)
from meldhall.games.okey_cards.options import OkeyCardsOptions
from meldhall.games.okey_cards.pieces import CARD_COUNT, FIELD_SLOTS, HAND_SLOTS, token
from meldhall.games.okey_cards.scoring import (
    best_total,
    classify,
    has_combination,
    points,
    reward,
)

Phase = Literal["READY", "PLAYING", "OVER"]

_DRAW = Draw()
_QUIT = Quit()
_SELECTS = tuple(Select(OKEY_CARDS[c]) for c in range(CARD_COUNT))
_UNSELECTS = tuple(Unselect(OKEY_CARDS[c]) for c in range(CARD_COUNT))
_DISCARDS = tuple(Discard(OKEY_CARDS[c]) for c in range(CARD_COUNT))
"""The actions listed, built once (actions are immutable; listing shares them)."""


class OkeyCardsState:
    """A whole game: ``deck`` top first, 5 hand slots, 3 field slots, discards, the scored
    combinations (in order) and the score."""

    __slots__ = (
        "deck",
        "discards",
        "field",
        "hand",
        "last_result",
        "options",
        "phase",
        "played",
        "score",
        "termination",
    )

    def __init__(self, options: OkeyCardsOptions, deck: list[int]) -> None:
        self.options = options
        self.deck = deck
        self.hand: list[int | None] = [None] * HAND_SLOTS
        self.field: list[int | None] = [None] * FIELD_SLOTS
        self.discards: list[int] = []
        self.played: list[tuple[tuple[int, int, int], int]] = []
        self.score = 0
        self.phase: Phase = "READY"
        self.termination: str | None = None
        self.last_result: dict[str, JSON] | None = None

    # ------------------------------------------------------------------ queries

    @property
    def seats(self) -> int:
        """Return the number of seats (always 1)."""
        return 1

    def hand_cards(self) -> list[int]:
        """Return the cards in the hand, in slot order."""
        return [c for c in self.hand if c is not None]

    def field_cards(self) -> list[int]:
        """Return the cards on the field, in slot order."""
        return [c for c in self.field if c is not None]

    def to_act(self) -> frozenset[Seat]:
        """Return {0} while the game goes on, else the empty set."""
        return frozenset() if self.phase == "OVER" else frozenset({0})

    def legal_actions(self, seat: Seat) -> tuple[Action, ...]:
        """Return every legal action in canonical order: draw, select, unselect, discard
        (cards by id), quit."""
        if legal.turn_refusal(self, seat, None) is not None:
            return ()
        out: list[Action] = []
        hand = sorted(self.hand_cards())
        field = sorted(self.field_cards())
        if legal.draw_refusal(self) is None:
            out.append(_DRAW)
        # Cards listed from the hand and the field pass the membership checks of the
        # refusals; what is left of them (a full field) is asked once.
        if legal.field_refusal(self, None) is None:
            out += map(_SELECTS.__getitem__, hand)
        out += map(_UNSELECTS.__getitem__, field)
        out += map(_DISCARDS.__getitem__, hand)
        out.append(_QUIT)
        return tuple(out)

    def outcome(self) -> Outcome | None:
        """Return the outcome once the game is over (seat 0 ranks 1), else None."""
        if self.phase != "OVER":
            return None
        return Outcome((self.score,), (1,), frozenset({0}), self.termination or "quit")

    # ------------------------------------------------------------------ actions

    def apply(self, seat: Seat, action: AnyAction) -> tuple[Event, ...]:
        """Apply a legal action and return its events, or raise ``IllegalAction`` (reason
        codes of section 5) leaving the state unchanged."""
        CODEC.check(action)
        refuse(legal.turn_refusal(self, seat, action))
        events: list[Event] = []
        _HANDLERS[type(action)](self, seat, action, events)
        if self.outcome() is None:
            events += self._auto_end()
        return tuple(events)

    def _on_draw(self, seat: Seat, action: Draw, events: list[Event]) -> None:
        refuse(legal.draw_refusal(self))
        events.append(self._draw())

    def _on_select(self, seat: Seat, action: Select, events: list[Event]) -> None:
        refuse(legal.select_refusal(self, action))
        events += self._select(action.card.id)

    def _on_unselect(self, seat: Seat, action: Unselect, events: list[Event]) -> None:
        refuse(legal.unselect_refusal(self, action))
        self._to_hand(action.card.id)
        events.append(Event("unselect", {"card": str(action.card)}, 0))

    def _on_discard(self, seat: Seat, action: Discard, events: list[Event]) -> None:
        refuse(legal.discard_refusal(self, action))
        card = action.card.id
        self.hand[self.hand.index(card)] = None
        self.discards.append(card)
        events.append(Event("discard", {"card": str(action.card)}, 0))

    def _on_quit(self, seat: Seat, action: Quit, events: list[Event]) -> None:
        events.append(Event("quit", {"score": self.score}, 0))
        events += self._end("quit")

    def _draw(self) -> Event:
        room = HAND_SLOTS - len(self.hand_cards()) - len(self.field_cards())
        count = min(1 if self.options.draw_mode == "single" else room, len(self.deck))
        drawn = self.deck[:count]
        del self.deck[:count]
        for card in drawn:
            self.hand[self.hand.index(None)] = card
        self.phase = "PLAYING"
        return Event(
            "draw",
            {"count": count, "deck_count": len(self.deck)},
            0,
            {"cards": [token(c) for c in drawn]},
        )

    def _to_hand(self, card: int) -> None:
        self.field[self.field.index(card)] = None
        self.hand[self.hand.index(None)] = card

    def _select(self, card: int) -> list[Event]:
        slot = self.field.index(None)
        self.hand[self.hand.index(card)] = None
        self.field[slot] = card
        events = [Event("select", {"card": token(card), "slot": slot}, 0)]
        if None in self.field:
            return events
        a, b, c = (x for x in self.field if x is not None)
        combo = classify((a, b, c))
        if combo is None:
            for x in (a, b, c):
                self._to_hand(x)
            events.append(Event("invalid", {"cards": [token(x) for x in (a, b, c)]}, 0))
            return events
        value = points(combo, self.options.score_table)
        self.field = [None] * FIELD_SLOTS
        self.played.append(((a, b, c), value))
        self.score += value
        events.append(
            Event("combination", {**view.line_json((a, b, c), value), "score": self.score})
        )
        return events

    def _auto_end(self) -> list[Event]:
        if self.deck:
            return []
        left = self.hand_cards() + self.field_cards()
        if not left:
            return self._end("cards_used")
        mask = sum(1 << c for c in left)
        if self.options.auto_end and not has_combination(mask):
            return self._end("no_combination")
        return []

    def _end(self, termination: str) -> list[Event]:
        self.phase = "OVER"
        self.termination = termination
        tier = reward(self.score, self.options.reward_thresholds)
        result: dict[str, JSON] = {
            "hand_number": 1,
            "hands": [[token(c) for c in self.hand_cards() + self.field_cards()]],
            "lines": [view.line_json(cards, value) for cards, value in self.played],
            "discards": [token(c) for c in self.discards],
            "score": self.score,
            "scores": [self.score],
            "reward": tier,
            "termination": termination,
        }
        self.last_result = result
        over = {
            "scores": [self.score],
            "ranks": [1],
            "winners": [0],
            "reward": tier,
            "termination": termination,
        }
        return [Event("hand_over", result), Event("match_over", over)]

    # ------------------------------------------------------------------ views

    def observation(self, viewer: Seat | None) -> dict[str, JSON]:
        """Return what ``viewer`` may know (``view.observation``)."""
        return view.observation(self, viewer)

    def snapshot(self) -> JSON:
        """Return the whole state, hidden cards included, as canonical JSON."""
        return view.snapshot(self)

    def check_invariants(self) -> None:
        """Raise ``EngineBug`` when a card is not in exactly one place, the hand limit is
        broken or the score does not add up; return None otherwise."""
        places = [*self.deck, *self.hand_cards(), *self.field_cards(), *self.discards]
        places += [c for cards, _ in self.played for c in cards]
        if sorted(places) != list(range(CARD_COUNT)):
            raise EngineBug(f"okey-cards: cards not in exactly one place: {self.snapshot()}")
        held = len(self.hand_cards()) + len(self.field_cards())
        if held > HAND_SLOTS or None not in self.field:
            raise EngineBug(f"okey-cards: hand limit or field broken: {self.snapshot()}")
        table = self.options.score_table
        for cards, value in self.played:
            combo = classify(cards)
            if combo is None or points(combo, table) != value:
                raise EngineBug(f"okey-cards: {cards} scored {value}")
        total = sum(value for _, value in self.played)
        if self.score != total or self.score > best_total((1 << CARD_COUNT) - 1, table):
            raise EngineBug(f"okey-cards: score {self.score} but combinations sum to {total}")
        if (self.phase == "READY") != (len(self.deck) == CARD_COUNT and self.termination is None):
            raise EngineBug(f"okey-cards: phase {self.phase} with {len(self.deck)} cards left")
        if (self.phase == "OVER") != (self.termination is not None):
            raise EngineBug(f"okey-cards: phase {self.phase}, termination {self.termination}")

    def copy(self) -> OkeyCardsState:
        """Return an independent copy of the state."""
        other = OkeyCardsState(self.options, list(self.deck))
        other.hand = list(self.hand)
        other.field = list(self.field)
        other.discards = list(self.discards)
        other.played = list(self.played)
        other.score = self.score
        other.phase = self.phase
        other.termination = self.termination
        other.last_result = self.last_result
        return other

    def clone(self) -> OkeyCardsState:
        """Return an independent copy for search (the same as ``copy``)."""
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> OkeyCardsState:
        return self.copy()

    def shuffled_hidden(self, viewer: Seat | None, rng: random.Random) -> OkeyCardsState:
        """Return a copy with the deck order permuted (and, for a spectator before the end,
        the hand cards mixed into the deck), everything ``viewer`` knows unchanged."""
        other = self.copy()
        mixed = viewer is None and self.phase != "OVER"
        slots = [i for i, c in enumerate(self.hand) if c is not None] if mixed else []
        pool = [*other.deck, *(self.hand_cards() if mixed else [])]
        rng.shuffle(pool)
        other.deck = pool[: len(self.deck)]
        for i, card in zip(slots, pool[len(self.deck) :], strict=True):
            other.hand[i] = card
        return other


_HANDLERS = CODEC.handlers(
    {
        Draw: OkeyCardsState._on_draw,
        Select: OkeyCardsState._on_select,
        Unselect: OkeyCardsState._on_unselect,
        Discard: OkeyCardsState._on_discard,
        Quit: OkeyCardsState._on_quit,
    }
)
"""The handler of each okey-cards action (``apply`` runs it after the codec's checks)."""
