"""The engine contract every game implements (DESIGN.md, "The engine contract").

A match is a pure function of (game, options, seats, seed, actions). A ``State`` is one
match in progress; ``apply`` either changes it and returns the events it caused, or raises
``IllegalAction`` and leaves it exactly as it was. Observations are JSON-ready dicts holding
only what a seat may know; ``None`` as viewer is a spectator (public information only).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Seat = int
JSON = Any
"""A value made of dicts, lists, str, int, float, bool and None."""


@runtime_checkable
class Action(Protocol):
    """A typed, immutable move. ``str(action)`` is its one short text form."""

    def to_json(self) -> JSON:
        """Return the one canonical JSON form of this action."""
        ...


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``public`` is what every viewer learns; ``private`` (with
    ``seat``) is what only that seat learns, e.g. which tile it drew from the wall."""

    kind: str
    public: Mapping[str, JSON] = field(default_factory=dict)
    seat: Seat | None = None
    private: Mapping[str, JSON] | None = None

    def for_viewer(self, viewer: Seat | None) -> dict[str, JSON]:
        """Return the JSON form of this event as ``viewer`` may see it (None: spectator)."""
        out: dict[str, JSON] = {"kind": self.kind, **self.public}
        if self.seat is not None:
            out.setdefault("seat", self.seat)
        if self.private is not None and viewer is not None and viewer == self.seat:
            out.update(self.private)
        return out


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a match as data: final scores, ranks (1 = best, ties share) and winners."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: frozenset[Seat]
    termination: str

    def to_json(self) -> JSON:
        """Return the JSON form of the outcome."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": sorted(self.winners),
            "termination": self.termination,
        }


def ranks_by(values: tuple[int, ...] | list[int], *, higher_is_better: bool) -> tuple[int, ...]:
    """Return competition ranks (1 = best, equal values share a rank).

    >>> ranks_by([5, 9, 5, 1], higher_is_better=True)
    (2, 1, 2, 4)
    """
    sign = -1 if higher_is_better else 1
    return tuple(1 + sum(1 for w in values if sign * w < sign * v) for v in values)


class State(Protocol):
    """One match in progress (mutable; ``apply`` is atomic)."""

    @property
    def seats(self) -> int:
        """Return the number of seats."""
        ...

    def to_act(self) -> frozenset[Seat]:
        """Return the seats that may act now (several in a claim window, none when over)."""
        ...

    def legal_actions(self, seat: Seat) -> tuple[Action, ...]:
        """Return every legal action of ``seat`` now, in a canonical order."""
        ...

    def apply(self, seat: Seat, action: Action) -> tuple[Event, ...]:
        """Apply a legal action and return its events, or raise ``IllegalAction``.

        Every game emits an event of kind ``hand_over`` when a hand ends (with the revealed
        hands and the settlement) and ``match_over`` when the match ends."""
        ...

    def observation(self, viewer: Seat | None) -> dict[str, JSON]:
        """Return what ``viewer`` may know now, JSON-ready (None: a spectator)."""
        ...

    def outcome(self) -> Outcome | None:
        """Return the outcome once the match is over, else None."""
        ...

    def snapshot(self) -> JSON:
        """Return the whole state (hidden tiles included) in a canonical JSON form; two
        states are equal exactly when their snapshots are."""
        ...

    def check_invariants(self) -> None:
        """Raise ``EngineBug`` when an invariant is broken (every piece in exactly one place,
        counts and scores consistent); return None otherwise."""
        ...

    def shuffled_hidden(self, viewer: Seat | None, rng: random.Random) -> State:
        """Return a copy in which the pieces hidden from ``viewer`` (other hands, the wall)
        are permuted among their places, everything ``viewer`` knows unchanged."""
        ...


class Bot(Protocol):
    """A computer player: it sees an observation and the legal actions, never the State."""

    needs_observation: bool

    def choose(
        self, observation: Mapping[str, JSON], legal: tuple[Action, ...], rng: random.Random
    ) -> Action:
        """Return one of ``legal``."""
        ...


class Game(Protocol):
    """The static facts and entry points of one game; each game module exposes ``GAME``.

    Optional: ``summarize(outcomes: Sequence[Outcome], options) -> list[str]``, lines that
    ``meldhall simulate`` prints after its table (e.g. the okey-cards reward tiers).
    """

    id: str
    title: str
    min_seats: int
    max_seats: int
    default_seats: int

    def options(self, raw: Mapping[str, JSON] | None = None) -> Any:
        """Return the validated, frozen options for a mapping of spec option names to values
        (missing names take the default preset), or raise ``OptionsError``."""
        ...

    def new_state(self, options: Any, seats: int, seed: bytes) -> State:
        """Return the state of a new match dealt from ``seed``."""
        ...

    def parse_action(self, text: str) -> Action:
        """Return the action of its text form, or raise ``ParseError``."""
        ...

    def action_from_json(self, data: JSON) -> Action:
        """Return the action of its JSON form, or raise ``ParseError``."""
        ...

    def answer_vector(self, kind: str, data: Mapping[str, JSON], options: Any) -> dict[str, JSON]:
        """Return every expect field (VECTORS.md 4) this game computes for a vector question."""
        ...
