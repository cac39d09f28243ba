"""Every placing move of a hand against a table: openings, new melds, lay-offs, exchanges.

Pure functions over card ids and table melds, used by the state for its legal actions and by
the checks of the options that oblige a player to use a card this turn. The rules both the
listing and ``state.apply`` decide with are written here once (``leaves_a_card``,
``opening_reaches``, ``may_exchange``); where a card fits a table meld is
``TableMeld.wanted``, which the listing indexes and ``TableMeld.lay_off_error`` reads, and
which cards free a joker is ``TableMeld.exchange_slots``, which ``exchanges`` expands and
``TableMeld.exchange_error`` checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from meldhall.games.remi.actions import Exchange, LayOff, MeldAction, MeldSpec, Open, RemiAction
from meldhall.games.remi.melds import Candidate, RunRules, find_melds, natural_suits
from meldhall.games.remi.pieces import FIRST_JOKER, RANK, SUIT
from meldhall.games.remi.table import TableMeld


@dataclass(frozen=True, slots=True)
class MoveRules:
    """What the enumeration needs from the options."""

    runs: RunRules
    opening_minimum: int = 30
    exchange_requires_open: bool = True
    two_joker_sets: bool = True


def leaves_a_card(placed: int, hand_size: int) -> bool:
    """Return True when placing ``placed`` cards from a hand of ``hand_size`` keeps one in
    the hand (the last card is always discarded, never placed)."""
    return placed < hand_size


def opening_reaches(value: int, need: int) -> bool:
    """Return True when melds worth ``value`` open against the opening minimum ``need``."""
    return value >= need


def may_exchange(opened: bool, exchange_requires_open: bool) -> bool:
    """Return True when a player may exchange a joker (before opening only when the option
    ``exchange_requires_open`` is off, R-D12)."""
    return opened or not exchange_requires_open


def spec_of(candidate: Candidate) -> MeldSpec:
    """Return the action form of a candidate meld (every joker declared)."""
    return MeldSpec(candidate.cards, candidate.declare)


def openings(candidates: Sequence[Candidate], need: int, hand_size: int) -> list[Open]:
    """Return every set of disjoint candidate melds worth at least ``need`` that leaves at
    least one card in a hand of ``hand_size`` cards, melds in candidate order."""
    out: list[Open] = []
    chosen: list[MeldSpec] = []
    facts = [(c.mask, len(c.cards), c.reading.value, spec_of(c)) for c in candidates]
    count = len(facts)

    def grow(start: int, mask: int, cards: int, value: int) -> None:
        """Add every opening that extends ``chosen`` with candidates from ``start`` on."""
        for i in range(start, count):
            bits, size, worth, spec = facts[i]
            if bits & mask or not leaves_a_card(cards + size, hand_size):
                continue
            chosen.append(spec)
            if opening_reaches(value + worth, need):
                out.append(Open(tuple(chosen)))
            grow(i + 1, mask | bits, cards + size, value + worth)
            chosen.pop()

    grow(0, 0, 0, 0)
    return out


def _by_face(hand: Sequence[int]) -> dict[tuple[int, int], list[int]]:
    out: dict[tuple[int, int], list[int]] = {}
    for c in sorted(hand):
        if c < FIRST_JOKER:
            out.setdefault((RANK[c], SUIT[c]), []).append(c)
    return out


@dataclass(frozen=True, slots=True)
class TableIndex:
    """Where cards fit on a table: per face ``(rank, suit)`` the places ``(meld, end)`` that
    take it, every place (a joker fits them all), and the melds holding a joker."""

    places: dict[tuple[int, int], list[tuple[int, str | None]]]
    anywhere: list[tuple[int, str | None]]
    with_jokers: list[int]
    freeing: frozenset[int]
    """Face keys (``card >> 1``) of the naturals that take part in freeing a joker."""


def index_table(melds: Sequence[TableMeld], runs: RunRules) -> TableIndex:
    """Return the index of a table (rebuilt whenever a meld changes)."""
    places: dict[tuple[int, int], list[tuple[int, str | None]]] = {}
    anywhere: list[tuple[int, str | None]] = []
    for index, meld in enumerate(melds):
        for end, rank, suit in meld.wanted(runs):
            anywhere.append((index, end))
            if suit >= 0:
                places.setdefault((rank, suit), []).append((index, end))
                continue
            taken = natural_suits(meld.cards)
            for s in range(4):
                if not taken >> s & 1:
                    places.setdefault((rank, s), []).append((index, end))
    with_jokers = [i for i, m in enumerate(melds) if max(m.cards) >= FIRST_JOKER]
    freeing = frozenset(
        (suit * 13 + rank - 1) for i in with_jokers for rank, suit in melds[i].freeing_faces(runs)
    )
    return TableIndex(places, anywhere, with_jokers, freeing)


def lay_offs(hand: Sequence[int], table: TableIndex) -> list[LayOff]:
    """Return every single-card lay-off of the hand onto the table (the hand keeps a card)."""
    if not leaves_a_card(1, len(hand)) or not table.anywhere:
        return []
    out: list[LayOff] = []
    places = table.places
    for card in sorted(hand):
        spots = table.anywhere if card >= FIRST_JOKER else places.get((RANK[card], SUIT[card]))
        if spots:
            out.extend(LayOff(card, index, end) for index, end in spots)  # type: ignore[arg-type]
    return out


def exchanges(
    hand: Sequence[int],
    melds: Sequence[TableMeld],
    table: TableIndex,
    runs: RunRules,
    two_joker_sets: bool,
) -> list[Exchange]:
    """Return every joker exchange the hand can make on the melds (8.1, 8.2)."""
    if not table.freeing or not any(c >> 1 in table.freeing for c in hand if c < FIRST_JOKER):
        return []
    faces = _by_face(hand)
    out: list[Exchange] = []
    for index in table.with_jokers:
        for takes, wanted in melds[index].exchange_slots(runs, two_joker_sets):
            for cards in product(*(faces.get(face, ()) for face in wanted)):
                give = tuple(sorted(cards))
                out.extend(Exchange(index, give, joker) for joker in takes)
    return out


def placing_moves(
    hand: Sequence[int],
    melds: Sequence[TableMeld],
    opened: bool,
    rules: MoveRules,
    table: TableIndex | None = None,
) -> list[RemiAction]:
    """Return every OPEN, MELD, LAY_OFF and EXCHANGE the hand can make now, in canonical
    order (each kind in the order of its enumeration). ``table`` is the index of ``melds``
    when the caller keeps one."""
    if table is None:
        table = index_table(melds, rules.runs)
    out: list[RemiAction] = []
    size = len(hand)
    if not opened:
        if size >= 4:
            candidates = find_melds(hand, rules.runs, size - 1)
            out.extend(openings(candidates, rules.opening_minimum, size))
        if may_exchange(opened, rules.exchange_requires_open):
            out.extend(exchanges(hand, melds, table, rules.runs, rules.two_joker_sets))
        return out
    if size >= 4:
        out.extend(MeldAction(spec_of(c)) for c in find_melds(hand, rules.runs, size - 1))
    out.extend(lay_offs(hand, table))
    out.extend(exchanges(hand, melds, table, rules.runs, rules.two_joker_sets))
    return out


def places_card(action: RemiAction, card: int) -> bool:
    """Return True when the action puts ``card`` from the hand onto the table."""
    if isinstance(action, Open):
        return any(card in m.cards for m in action.melds)
    if isinstance(action, MeldAction):
        return card in action.meld.cards
    if isinstance(action, LayOff):
        return action.card == card
    if isinstance(action, Exchange):
        return card in action.give
    return False
