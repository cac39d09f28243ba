"""The engine contract every game implements (DESIGN.md, "The engine contract").

A match is a pure function of (game, options, seats, seed, actions). A ``State`` is one
match in progress; ``apply`` either changes it and returns the events it caused, or raises
``IllegalAction`` and leaves it exactly as it was. Observations are JSON-ready dicts holding
only what a seat may know; ``None`` as viewer is a spectator (public information only).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

from meldhall.core.errors import IllegalAction

Seat = int
JSON = Any
"""A value made of dicts, lists, str, int, float, bool and None."""


@runtime_checkable
class Action(Protocol):
    """A typed, immutable move. ``str(action)`` is its one short text form."""

    def to_json(self) -> JSON:
        """Return the one canonical JSON form of this action."""
        ...


class Event:
    """Something that happened. ``public`` is what every viewer learns; ``private`` (with
    ``seat``) is what only that seat learns, e.g. which tile it drew from the wall.

    Immutable and compared by value like a frozen dataclass, but built by plain slot writes
    (a frozen dataclass's ``__init__`` goes through ``object.__setattr__`` per field, and
    engines build events at nearly every apply)."""

    __slots__ = ("kind", "private", "public", "seat")

    kind: str
    public: Mapping[str, JSON]
    seat: Seat | None
    private: Mapping[str, JSON] | None

    def __init__(
        self,
        kind: str,
        public: Mapping[str, JSON] | None = None,
        seat: Seat | None = None,
        private: Mapping[str, JSON] | None = None,
    ):
        _set_kind(self, kind)
        _set_public(self, {} if public is None else public)
        _set_seat(self, seat)
        _set_private(self, private)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of an Event")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of an Event")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Event:
            return NotImplemented
        return _fields(self) == _fields(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Event(kind={self.kind!r}, public={self.public!r}, seat={self.seat!r}, "
            f"private={self.private!r})"
        )

    def __reduce__(self) -> tuple[type[Event], tuple[Any, ...]]:
        return Event, _fields(self)

    def for_viewer(self, viewer: Seat | None) -> dict[str, JSON]:
        """Return the JSON form of this event as ``viewer`` may see it (None: spectator)."""
        out: dict[str, JSON] = {"kind": self.kind, **self.public}
        if self.seat is not None:
            out.setdefault("seat", self.seat)
        if self.private is not None and viewer is not None and viewer == self.seat:
            out.update(self.private)
        return out


def _fields(event: Event) -> tuple[Any, ...]:
    return (event.kind, event.public, event.seat, event.private)


_set_kind, _set_public, _set_seat, _set_private = (
    Event.__dict__[name].__set__ for name in ("kind", "public", "seat", "private")
)
"""The slots' own setters (what ``Event.__init__`` writes through, past ``__setattr__``)."""


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


Presets = Mapping[str, Mapping[str, JSON]]
"""Named option sets of a game: spec option names to values (``{}``: every default)."""
VectorKinds = Mapping[str, frozenset[str]]
"""Rule-vector kinds of a game, each with the expect fields compared as sorted lists."""


@dataclass(frozen=True, slots=True)
class Bots:
    """A game's computer players: the module exposing ``BOTS`` (name -> factory), their names
    from weakest to strongest, and the one that plays a timed-out seat when the timeout
    policy lists no safe action."""

    module: str
    names: tuple[str, ...]
    on_timeout: str
    easy_slips: int = 4
    """The level ``easy`` plays a random move on about one decision in this many."""
    ceiling: str | None = None
    """The dotted path of a cheating bot for tournaments only (it sees the true state:
    bots/ceiling.py), when the game has one."""

    @property
    def strongest(self) -> str:
        """Return the name of the strongest bot (solo and online tables seat it)."""
        return self.names[-1]


@dataclass(frozen=True, slots=True)
class Preview:
    """The pieces the home page shows for a game: the piece family its renderer draws
    (``okey``, ``card``, ``mahjong``, ``okeycard``) and a few tokens."""

    family: str
    pieces: tuple[str, ...]
    blank: str = "J"
    """The okey family's token letter for the two numberless tiles (okey's false jokers
    ``J``, tile rummy's Smileys ``S``); the terminal writes them with it."""

    def to_json(self) -> JSON:
        """Return the JSON form ``/api/games`` sends."""
        return {"family": self.family, "pieces": list(self.pieces)}


@dataclass(frozen=True, slots=True)
class TimeoutPolicy:
    """Which listed action a seat whose clock ran out plays: a listed action of a type in
    ``passes`` first (a claim window), then one of a type in ``draws`` (from the wall, never
    the discards), then the discard of the piece it just drew. ``piece`` names the field
    that carries the piece in a draw event's private part and in a discard action."""

    passes: frozenset[str] = frozenset()
    draws: frozenset[str] = frozenset()
    discard: str = "discard"
    piece: str = "tile"

    def drawn_piece(self, events: Iterable[Event], seat: Seat) -> str | None:
        """Return the token of the piece ``seat`` drew among ``events``, or None."""
        for event in events:
            if event.kind in self.draws and event.seat == seat and event.private:
                piece = event.private.get(self.piece)
                if isinstance(piece, str):
                    return piece
        return None

    def is_draw(self, action: Action) -> bool:
        """Return True when ``action`` draws from the wall (the turn goes on to a discard)."""
        return _field(action, "type") in self.draws

    def choose(self, legal: tuple[Action, ...], drawn: str | None) -> Action | None:
        """Return the safe action among ``legal`` (see the class), or None when none fits."""
        for wanted in (self.passes, self.draws):
            for action in legal:
                if _field(action, "type") in wanted:
                    return action
        if drawn is not None:
            for action in legal:
                if _field(action, "type") == self.discard and _field(action, self.piece) == drawn:
                    return action
        return None


def _field(action: Action, key: str) -> object:
    """Return the field ``key`` of an action's JSON form (None when it has none)."""
    data = action.to_json()
    return data.get(key) if isinstance(data, dict) else None


def opposite_seating(people: int, seats: int) -> list[int]:
    """Return the seats people take at a table: two people at four seats sit opposite each
    other, otherwise they fill the seats in order (computers take the rest, seed 004).

    >>> opposite_seating(2, 4), opposite_seating(3, 4), opposite_seating(4, 4)
    ([0, 2], [0, 1, 2], [0, 1, 2, 3])
    """
    if not 1 <= people <= seats:
        raise ValueError(f"{people} people cannot sit at {seats} seats")
    if people == 2 and seats == 4:
        return [0, 2]
    return list(range(people))


class Game(Protocol):
    """The declaration of one game: everything the platform knows about it. Each game
    package's ``game`` module exposes ``GAME``; ``meldhall.games.registry`` finds it, and no
    other layer keeps a table about a game (docs/architecture.md).

    Optional: ``summarize(outcomes: Sequence[Outcome], options) -> list[str]``, lines that
    ``meldhall simulate`` prints after its table (e.g. the okey-cards reward tiers).
    """

    id: str
    title: str
    rules_version: int
    """Starts at 1; bumped when a rule fix changes what a stored action log means."""
    min_seats: int
    max_seats: int
    default_seats: int
    options_type: type
    presets: ClassVar[Presets]
    """Named option sets (spec option names to values); ``{}`` is every default."""
    bots: Bots
    preview: Preview
    vector_kinds: ClassVar[VectorKinds]
    """The rule-vector kinds the game answers (VECTORS.md 4), each with its expect fields
    compared as sorted lists (repeats count)."""
    higher_is_better: bool
    """Whether a larger match score is better (records rank by it)."""
    hand_result: str
    """The field of the ``hand_over`` event the end-of-hand screen states per seat."""
    timeout: TimeoutPolicy

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

    def timeout_action(self, state: Any, seat: Seat, drawn: str | None) -> Action | None:
        """Return the action a seat whose clock ran out plays, one of those listed (``drawn``:
        the piece it has just drawn, if any), or None when the game leaves it to a bot."""
        ...

    def turn_seconds(self, state: Any) -> float | None:
        """Return the seconds of a turn's clock the match's options set (a game option such
        as ``turn_timer``), or None when the table's own clock applies."""
        ...

    def seating(self, people: int, seats: int) -> list[int]:
        """Return the seats ``people`` people take at a table of ``seats`` (in join order)."""
        ...

    min_meld: int
    """The fewest pieces a meld holds (0: the game lays no melds from a rack)."""

    appraisable: frozenset[str]
    """The action types a seat may weigh before making them (``appraise``)."""

    def appraise(self, state: Any, seat: Seat, action: Action) -> dict[str, JSON]:
        """Return what ``action`` would do for ``seat`` now, ``state`` left unchanged."""
        ...


class Declared:
    """The shared behaviour of the six declarations: the timeout policy applied to the listed
    actions, and people seated opposite each other. A game overrides either when its spec
    says otherwise."""

    timeout: TimeoutPolicy

    def timeout_action(self, state: Any, seat: Seat, drawn: str | None) -> Action | None:
        """Return the safe listed action of ``timeout`` (see ``TimeoutPolicy.choose``)."""
        legal: tuple[Action, ...] = state.legal_actions(seat)
        return self.timeout.choose(legal, drawn)

    def turn_seconds(self, state: Any) -> float | None:
        """Return None: the table's own turn clock applies unless a game's options set one."""
        return None

    def seating(self, people: int, seats: int) -> list[int]:
        """Return ``opposite_seating(people, seats)``."""
        return opposite_seating(people, seats)

    min_meld: int = 0
    """The fewest pieces a meld holds (0: the game lays no melds from a rack): the page
    offers to lay a selection at least this large, and the rules refuse any that is not a
    meld with their own reason."""

    appraisable: frozenset[str] = frozenset()
    """The action types a player weighs while choosing them (remi: what an opening is
    worth against its need); none unless a game declares them."""

    def appraise(self, state: Any, seat: Seat, action: Action) -> dict[str, JSON]:
        """Return what ``action`` would do for ``seat`` now, ``state`` left unchanged:
        ``{"ok": True, "events": [...]}`` (its events as ``seat`` sees them) or ``{"ok":
        False, "code": ..., "reason": ..., "details": {...}}`` (the rules' refusal with its
        numbers). It is tried on a copy whose hidden pieces are shuffled, so it tells
        nothing hidden."""
        trial = state.shuffled_hidden(seat, random.Random(0))
        try:
            events: tuple[Event, ...] = trial.apply(seat, action)
        except IllegalAction as refused:
            reason = refused.reason or refused.code
            return {"ok": False, "code": refused.code, "reason": reason, "details": refused.details}
        return {"ok": True, "events": [event.for_viewer(seat) for event in events]}
