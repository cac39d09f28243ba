"""A meld on the table (remi.md 5, 7, 8): laying off at the ends, joker exchanges, closed sets.

Runs keep their cards in ascending order with the start position ``lo``; sets keep naturals by
suit (S, H, D, C) then jokers. Melds are never split or rearranged (R-D15); what a joker stands
for is fixed by its place (R-D8). Each rule returns a reason code, or None when it allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meldhall.core.tiles import RANKS, SUITS
from meldhall.games.remi.melds import (
    MeldKind,
    Reading,
    RunRules,
    canonical_set_order,
    joker_identities,
    natural_suits,
    run_rank,
    run_value,
)
from meldhall.games.remi.pieces import (
    FIRST_JOKER,
    RANK,
    RANK_VALUE,
    SUIT,
    TOKEN,
    face_name,
)


class TableMeld:
    """One meld on the table: kind, cards, run suit and start or set rank, who laid it and in
    which turn of the hand (R-D21)."""

    __slots__ = ("cards", "kind", "lo", "owner", "rank", "suit", "turn", "view")

    def __init__(
        self, kind: MeldKind, cards: Sequence[int], reading: Reading, owner: int, turn: int
    ) -> None:
        self.kind: MeldKind = kind
        self.cards = list(canonical_set_order(cards) if kind == "set" else cards)
        self.suit = reading.suit
        self.lo = reading.lo
        self.rank = reading.rank
        self.owner = owner
        self.turn = turn
        self.view: dict[str, Any] | None = None

    def copy(self) -> TableMeld:
        """Return an independent copy."""
        other = TableMeld.__new__(TableMeld)
        other.kind, other.cards, other.suit = self.kind, list(self.cards), self.suit
        other.lo, other.rank, other.owner, other.turn = self.lo, self.rank, self.owner, self.turn
        other.view = self.view
        return other

    def reading(self, rules: RunRules) -> Reading:
        """Return the reading of the meld as it lies now (its value included)."""
        if self.kind == "run":
            return Reading("run", 0, self.suit, self.lo, run_value(self.lo, len(self.cards), rules))
        return Reading("set", self.rank, -1, 0, RANK_VALUE[self.rank] * len(self.cards))

    @property
    def closed(self) -> bool:
        """Return True for a 4-card set holding a joker: nothing is added or taken (5.1)."""
        return self.kind == "set" and len(self.cards) == 4 and self.cards[-1] >= FIRST_JOKER

    def jokers(self) -> list[int]:
        """Return the jokers in the meld, in card order."""
        return [c for c in self.cards if c >= FIRST_JOKER]

    # ------------------------------------------------------------------ laying off

    def end_rank(self, end: str, rules: RunRules) -> int:
        """Return the rank a run takes at ``end``, or 0 when that end is closed."""
        n = len(self.cards)
        if n >= 13:
            return 0
        if end == "low":
            if rules.wrap:
                return run_rank(self.lo - 1 if self.lo > 1 else 13, 0, True)
            return 0 if self.lo - 1 < rules.lo_min else run_rank(self.lo - 1, 0, False)
        if not rules.wrap and self.lo + n > 14:
            return 0
        return run_rank(self.lo, n, rules.wrap)

    def lay_off_error(self, card: int, end: str | None, rules: RunRules) -> str | None:
        """Return why ``card`` may not be laid at ``end`` (None: it may): the card must take
        one of the places ``wanted`` lists, the one description of where a card fits that
        the listing of lay-offs reads too."""
        if (self.kind == "set") != (end is None):
            return "NO_END_FOR_SET" if end is not None else "END_REQUIRED"
        place = next((p for p in self.wanted(rules) if p[0] == end), None)
        if place is None:
            return "SET_FULL" if self.kind == "set" else "RUN_LIMIT"
        if card >= FIRST_JOKER:
            return None
        _, rank, suit = place
        if suit < 0:  # a set: its rank, in a suit it lacks
            if RANK[card] != rank:
                return "WRONG_RANK"
            return "SUIT_REPEATED" if natural_suits(self.cards) >> SUIT[card] & 1 else None
        if SUIT[card] != suit:
            return "WRONG_SUIT"
        return None if RANK[card] == rank else "WRONG_RANK"

    def lay_off(self, card: int, end: str | None, rules: RunRules) -> None:
        """Add ``card`` (already checked by ``lay_off_error``)."""
        self.view = None
        if self.kind == "set":
            self.cards = list(canonical_set_order([*self.cards, card]))
        elif end == "low":
            self.cards.insert(0, card)
            self.lo = self.lo - 1 if self.lo > 1 or not rules.wrap else 13
        else:
            self.cards.append(card)

    def places(self, rules: RunRules) -> list[tuple[str | None, int, int]]:
        """Return every natural card the meld takes as ``(end, rank, suit)``: per open end of
        a run, per missing suit of a 3-card set."""
        out: list[tuple[str | None, int, int]] = []
        for end, rank, suit in self.wanted(rules):
            if suit >= 0:
                out.append((end, rank, suit))
                continue
            taken = natural_suits(self.cards)
            out += [(end, rank, s) for s in range(4) if not taken >> s & 1]
        return out

    def wanted(self, rules: RunRules) -> list[tuple[str | None, int, int]]:
        """Return where a card can be laid off: ``(end, rank, suit)`` per open place, suit -1
        for a set's missing suits (any of them); a joker fits every place."""
        if self.kind == "set":
            if len(self.cards) >= 4:
                return []
            return [(None, self.rank, -1)]
        out: list[tuple[str | None, int, int]] = []
        for end in ("low", "high"):
            rank = self.end_rank(end, rules)
            if rank:
                out.append((end, rank, self.suit))
        return out

    # ------------------------------------------------------------------ joker exchange

    def exchange_slots(
        self, rules: RunRules, two_joker_sets: bool
    ) -> list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]:
        """Return every way to free a joker of the meld (8.1, 8.2) as ``(jokers, faces)``:
        one card of each face ``(rank, suit)`` in ``faces`` frees any one joker of
        ``jokers``. A run joker wants the card it stands for; a 3-card set with one joker
        wants both missing suits; a 3-card set with two jokers frees one for one missing
        suit when ``two_joker_sets`` allows. The one description of an exchange that the
        listing expands and ``exchange_error`` checks."""
        if self.kind == "run":
            return [
                ((c,), ((run_rank(self.lo, i, rules.wrap), self.suit),))
                for i, c in enumerate(self.cards)
                if c >= FIRST_JOKER
            ]
        jokers = tuple(self.jokers())
        if self.closed or len(self.cards) != 3 or not jokers:
            return []
        taken = natural_suits(self.cards)
        missing = tuple((self.rank, s) for s in range(4) if not taken >> s & 1)
        if len(jokers) == 1:
            return [(jokers, missing)]
        if not two_joker_sets:
            return []
        return [(jokers, (face,)) for face in missing]

    def exchange_error(
        self, give: Sequence[int], take: int, rules: RunRules, two_joker_sets: bool
    ) -> str | None:
        """Return why giving ``give`` for the joker ``take`` is not allowed (None: it is):
        the gift must be the faces of one of ``exchange_slots`` holding ``take``. A refusal
        says why: ``NO_SUCH_JOKER``, ``SET_CLOSED``, ``EXCHANGE_NEEDS_BOTH`` (fitting cards,
        but a set frees its joker only for both missing suits) or ``WRONG_CARD``."""
        if take not in self.cards or take < FIRST_JOKER:
            return "NO_SUCH_JOKER"
        if any(c >= FIRST_JOKER for c in give):
            return "WRONG_CARD"
        if self.closed:
            return "SET_CLOSED"
        faces = sorted((RANK[c], SUIT[c]) for c in give)
        slots = [f for takes, f in self.exchange_slots(rules, two_joker_sets) if take in takes]
        if any(faces == sorted(f) for f in slots):
            return None
        fitting = self.freeing_faces(rules)
        if (
            self.kind == "set"
            and len(set(faces)) == len(faces)
            and all(face in fitting for face in faces)
            and not any(len(f) == 1 for f in slots)
        ):
            return "EXCHANGE_NEEDS_BOTH"
        return "WRONG_CARD"

    def freeing_faces(self, rules: RunRules) -> list[tuple[int, int]]:
        """Return the faces ``(rank, suit)`` that take part in freeing one of the meld's
        jokers: the card a run joker stands for, the missing suits of an open set (the faces
        of ``exchange_slots`` with two-joker sets allowed)."""
        return [face for _, faces in self.exchange_slots(rules, True) for face in faces]

    def exchange(self, give: Sequence[int], take: int) -> None:
        """Put ``give`` in place of the joker ``take`` (already checked)."""
        self.view = None
        if self.kind == "run":
            self.cards[self.cards.index(take)] = give[0]
            return
        rest = [c for c in self.cards if c != take]
        self.cards = list(canonical_set_order([*rest, *give]))

    # ------------------------------------------------------------------ display

    def to_json(self, index: int, rules: RunRules) -> dict[str, Any]:
        """Return the public view of the meld (observations, events); kept until the meld
        changes, so callers must not modify it."""
        if self.view is None:
            self.view = self._view(index, rules)
        return self.view

    def _view(self, index: int, rules: RunRules) -> dict[str, Any]:
        reading = self.reading(rules)
        out: dict[str, Any] = {
            "id": index,
            "kind": self.kind,
            "cards": [TOKEN[c] for c in self.cards],
            "jokers": joker_identities(self.cards, reading, rules),
            "value": reading.value,
            "owner": self.owner,
            "turn": self.turn,
            "closed": self.closed,
            "accepts": [{"card": face_name(r, s), "end": end} for end, r, s in self.places(rules)],
        }
        if self.kind == "run":
            out["suit"] = SUITS[self.suit]
            out["low"] = RANKS[run_rank(self.lo, 0, rules.wrap) - 1]
            out["high"] = RANKS[run_rank(self.lo, len(self.cards) - 1, rules.wrap) - 1]
        else:
            out["rank"] = RANKS[self.rank - 1]
        return out
