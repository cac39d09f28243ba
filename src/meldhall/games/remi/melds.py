"""Melds of Remi (remi.md 5): validation, joker identities, values, and every meld in a hand.

A meld is a sequence of card ids in the order laid (runs ascending). Its *reading* says what it
is: a run (suit and start position) or a set (rank). Rank positions of a run are 1..14 (the ace
is 1 low or 14 high, R-D2); with the option ``run_wrap`` they go round (K-A-2). Every valid meld
holds at least one natural card (R-D7).

>>> from meldhall.games.remi.pieces import parse_card_list
>>> rules = RunRules()
>>> [r.kind for r in readings(parse_card_list("10H JK JK"), rules)]
['run', 'set']
>>> read_meld(parse_card_list("5H JK 7H"), None, rules)
Reading(kind='run', rank=0, suit=1, lo=5, value=18)
>>> read_meld(parse_card_list("KS AS 2S"), None, rules)
'INVALID_MELD'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations, product
from typing import Literal

from meldhall.games.remi.options import RemiOptions
from meldhall.games.remi.pieces import (
    FIRST_JOKER,
    RANK,
    RANK_VALUE,
    SUIT,
    face_name,
    parse_identity,
)

MeldKind = Literal["run", "set"]


@dataclass(frozen=True, slots=True)
class RunRules:
    """The options that shape runs: ace low allowed, wrap-around, the ace's value when low."""

    ace_low: bool = True
    wrap: bool = False
    ace_low_value: int = 11

    @classmethod
    def of(cls, options: RemiOptions) -> RunRules:
        """Return the run rules of a set of options."""
        return cls(options.ace_low_allowed, options.run_wrap, options.ace_value_low_run)

    @property
    def lo_min(self) -> int:
        """Return the lowest start position of a run (2 when the ace may not be low)."""
        return 1 if self.ace_low else 2


@dataclass(frozen=True, slots=True)
class Reading:
    """What a valid meld is: a run (``suit``, start position ``lo``) or a set (``rank``), and
    its value (5.4)."""

    kind: MeldKind
    rank: int
    suit: int
    lo: int
    value: int


def run_rank(lo: int, index: int, wrap: bool) -> int:
    """Return the rank 1..13 at ``index`` of a run starting at position ``lo``."""
    p = lo + index
    if wrap:
        return (p - 1) % 13 + 1
    return 1 if p == 14 else p


def position_value(rank: int, index: int, rules: RunRules) -> int:
    """Return the value of the card at ``index`` of a run: an ace that is the lowest card
    counts ``ace_low_value`` (11 by default, R-D3), every other card its value."""
    if rank == 1 and index == 0:
        return rules.ace_low_value
    return RANK_VALUE[rank]


def run_value(lo: int, length: int, rules: RunRules) -> int:
    """Return the value of a run of ``length`` cards starting at position ``lo``."""
    return sum(position_value(run_rank(lo, i, rules.wrap), i, rules) for i in range(length))


def run_start(cards: Sequence[int], rules: RunRules) -> tuple[int, int] | None:
    """Return ``(suit, lo)`` of the run these cards make in this order, or None (5.2)."""
    n = len(cards)
    if n < 3 or n > 13:
        return None
    suit = first = -1
    for i, c in enumerate(cards):
        if c >= FIRST_JOKER:
            continue
        if suit < 0:
            suit, first = SUIT[c], i
        elif SUIT[c] != suit:
            return None
    if suit < 0:
        return None
    r0 = RANK[cards[first]]
    if rules.wrap:
        candidates: tuple[int, ...] = ((r0 - 1 - first) % 13 + 1,)
    elif r0 == 1:
        candidates = (1 - first, 14 - first)
    else:
        candidates = (r0 - first,)
    for lo in candidates:
        if not rules.wrap and (lo < rules.lo_min or lo + n - 1 > 14):
            continue
        if all(
            c >= FIRST_JOKER or RANK[c] == run_rank(lo, i, rules.wrap) for i, c in enumerate(cards)
        ):
            return suit, lo
    return None


def set_rank(cards: Sequence[int]) -> int | None:
    """Return the rank of the set these cards make, or None (5.1: 3 or 4 cards, one rank,
    pairwise different suits, at least one natural)."""
    if not 3 <= len(cards) <= 4:
        return None
    rank = suits = 0
    for c in cards:
        if c >= FIRST_JOKER:
            continue
        if rank == 0:
            rank = RANK[c]
        elif RANK[c] != rank:
            return None
        bit = 1 << SUIT[c]
        if suits & bit:
            return None
        suits |= bit
    return rank or None


def readings(cards: Sequence[int], rules: RunRules) -> list[Reading]:
    """Return every valid reading of the cards in this order: the run first, then the set."""
    out: list[Reading] = []
    run = run_start(cards, rules)
    if run is not None:
        out.append(Reading("run", 0, run[0], run[1], run_value(run[1], len(cards), rules)))
    rank = set_rank(cards)
    if rank is not None:
        out.append(Reading("set", rank, -1, 0, RANK_VALUE[rank] * len(cards)))
    return out


def natural_suits(cards: Sequence[int]) -> int:
    """Return the bit mask of the suits of the natural cards."""
    mask = 0
    for c in cards:
        if c < FIRST_JOKER:
            mask |= 1 << SUIT[c]
    return mask


def joker_identities(cards: Sequence[int], reading: Reading, rules: RunRules) -> list[str]:
    """Return what each joker stands for, in card order: ``6H`` in a run; in a set the rank
    with ``?`` unless a 4-card set leaves one suit only (5.1, R-D8)."""
    out: list[str] = []
    if reading.kind == "run":
        for i, c in enumerate(cards):
            if c >= FIRST_JOKER:
                out.append(face_name(run_rank(reading.lo, i, rules.wrap), reading.suit))
        return out
    jokers = sum(1 for c in cards if c >= FIRST_JOKER)
    suit = -1
    if len(cards) == 4 and jokers == 1:
        missing = 0b1111 & ~natural_suits(cards)
        suit = missing.bit_length() - 1
    return [face_name(reading.rank, suit)] * jokers


def _declarations_fit(
    cards: Sequence[int], declare: Sequence[str | None], reading: Reading, rules: RunRules
) -> bool:
    identities = joker_identities(cards, reading, rules)
    if len(declare) != len(identities):
        return False
    taken = natural_suits(cards)
    for said, meant in zip(declare, identities, strict=True):
        if said is None or said == meant:
            continue
        if reading.kind == "run":
            return False
        rank, suit = parse_identity(said)
        if rank != reading.rank or (suit >= 0 and taken >> suit & 1):
            return False
    return True


def read_meld(
    cards: Sequence[int],
    declare: Sequence[str | None] | None,
    rules: RunRules,
    kind: MeldKind | None = None,
) -> Reading | str:
    """Return the reading of a meld as laid, or a reason code: ``INVALID_MELD`` (no valid
    reading), ``DECLARATION_MISMATCH`` (valid, but not as the jokers are declared, R17).

    ``declare`` holds one identity or None per joker, in card order (None: undeclared).
    Among the readings that fit, the one of highest value wins, a run before a set on a tie.
    """
    found = [r for r in readings(cards, rules) if kind is None or r.kind == kind]
    if not found:
        return "INVALID_MELD"
    if declare is not None:
        found = [r for r in found if _declarations_fit(cards, declare, r, rules)]
        if not found:
            return "DECLARATION_MISMATCH"
    return max(found, key=lambda r: (r.value, r.kind == "run"))


def canonical_set_order(cards: Sequence[int]) -> tuple[int, ...]:
    """Return a set's cards in canonical order: naturals by suit (S, H, D, C), then jokers."""
    return tuple(sorted(cards))


@dataclass(frozen=True, slots=True)
class Candidate:
    """A valid meld that can be made from a hand: its cards in canonical order, its reading,
    its joker identities and the bit mask of its card ids."""

    cards: tuple[int, ...]
    reading: Reading
    declare: tuple[str, ...]
    mask: int


def _mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def find_melds(hand: Sequence[int], rules: RunRules, max_cards: int = 13) -> list[Candidate]:
    """Return every valid meld of at most ``max_cards`` cards that the hand can lay, each
    physical choice of copies and jokers apart, in a canonical order (sets, then runs)."""
    if max_cards < 3:
        return []
    faces = spare = 0
    for c in hand:
        if c >= FIRST_JOKER:
            spare += 1
        else:
            faces |= 1 << (c >> 1)  # bit suit × 13 + rank − 1, shared by both copies
    a, b, c, d = suits = [faces >> shift & 0x1FFF for shift in (0, 13, 26, 39)]
    if spare >= 2:
        set_bits = a | b | c | d
    elif spare == 1:
        set_bits = a & (b | c | d) | b & (c | d) | c & d
    else:
        set_bits = a & b & (c | d) | c & d & (a | b)
    run_suits = [s for s in range(4) if suits[s] and _may_run(suits[s] << 1, spare, rules)]
    out: list[Candidate] = []
    if not set_bits and not run_suits:
        return out
    jokers: list[int] = []
    by_face: dict[int, list[int]] = {}
    for card in sorted(hand):
        if card >= FIRST_JOKER:
            jokers.append(card)
        elif (key := card >> 1) in by_face:
            by_face[key].append(card)
        else:
            by_face[key] = [card]
    rank = 0
    while set_bits:
        if set_bits & 1:
            present = sum(1 << s for s in range(4) if suits[s] >> rank & 1)
            _find_sets(rank + 1, present, by_face, jokers, min(max_cards, 4), out)
        set_bits >>= 1
        rank += 1
    for suit in run_suits:
        base = suit * 13 - 1
        have = [_NONE] + [by_face.get(base + r, _NONE) for r in range(1, 14)]
        _find_runs(suit, have, jokers, rules, min(max_cards, 13), out)
    return out


_NONE: list[int] = []


def _may_run(ranks: int, spare: int, rules: RunRules) -> bool:
    """Return False when no run of three can be made in a suit (a quick test on rank bits)."""
    if spare >= 2:
        return True
    if rules.wrap:
        line = ranks | ranks << 13
    else:
        line = ranks | (ranks >> 1 & 1) << 14
        if not rules.ace_low:
            line &= ~2
    a, b, c = line, line >> 1, line >> 2
    if spare == 0:
        return bool(a & b & c)
    return bool(a & b | a & c | b & c)


def _find_sets(
    rank: int,
    suit_bits: int,
    by_face: dict[int, list[int]],
    jokers: list[int],
    most: int,
    out: list[Candidate],
) -> None:
    suits = [s for s in range(4) if suit_bits >> s & 1]
    for k in range(1, min(4, len(suits), most) + 1):
        for j in range(max(0, 3 - k), min(len(jokers), most - k) + 1):
            reading = Reading("set", rank, -1, 0, RANK_VALUE[rank] * (k + j))
            for combo in combinations(suits, k):
                ident = face_name(rank, -1)
                if k + j == 4 and j == 1:
                    missing = 0b1111 & ~sum(1 << s for s in combo)
                    ident = face_name(rank, missing.bit_length() - 1)
                for naturals in product(*(by_face[s * 13 + rank - 1] for s in combo)):
                    for used in combinations(jokers, j):
                        cards = (*naturals, *used)
                        out.append(Candidate(cards, reading, (ident,) * j, _mask(cards)))


_LINE = {
    False: tuple([0, *range(1, 14), 1]),
    True: tuple([0, *((p - 1) % 13 + 1 for p in range(1, 27))]),
}
"""Rank at each run position: positions 1..14 (14 the high ace), or 1..26 going round."""


def _find_runs(
    suit: int,
    have: list[list[int]],
    jokers: list[int],
    rules: RunRules,
    most: int,
    out: list[Candidate],
) -> None:
    spare = len(jokers)
    wrap = rules.wrap
    line = _LINE[wrap]
    top = 13 + 13 if wrap else 14
    starts = range(1, 14) if wrap else range(rules.lo_min, 13)
    low_ace = rules.ace_low_value - 11
    for lo in starts:
        gaps = naturals = value = 0
        ranks: list[int] = []
        for p in range(lo, min(lo + most, top + 1)):
            r = line[p]
            ranks.append(r)
            value += RANK_VALUE[r]
            if have[r]:
                naturals += 1
            else:
                gaps += 1
                if gaps > spare:
                    break
            if len(ranks) >= 3 and naturals:
                worth = value + low_ace if ranks[0] == 1 else value
                reading = Reading("run", 0, suit, lo, worth)
                _emit_run(have, jokers, ranks, gaps, reading, out)


def _emit_run(
    have: list[list[int]],
    jokers: list[int],
    ranks: list[int],
    gaps: int,
    reading: Reading,
    out: list[Candidate],
) -> None:
    """Add every way to lay the run window ``ranks``: each gap a joker, each other place a
    natural of that rank (either copy) or, while jokers are left, a joker; one natural at
    least."""
    if not gaps and len(jokers) == 0 and all(len(have[r]) == 1 for r in ranks):
        cards = tuple(have[r][0] for r in ranks)
        out.append(Candidate(cards, reading, (), _mask(cards)))
        return
    present = [i for i, r in enumerate(ranks) if have[r]]
    spare = min(len(jokers) - gaps, len(present) - 1)
    for extra in range(spare + 1):
        for swapped in combinations(present, extra):
            wild = {i for i, r in enumerate(ranks) if not have[r]}.union(swapped)
            declare = tuple(face_name(r, reading.suit) for i, r in enumerate(ranks) if i in wild)
            choices = [have[r] for i, r in enumerate(ranks) if i not in wild]
            for naturals in product(*choices):
                for used in permutations(jokers, len(wild)):
                    built: list[int] = []
                    nat = iter(naturals)
                    jok = iter(used)
                    for i in range(len(ranks)):
                        built.append(next(jok) if i in wild else next(nat))
                    out.append(Candidate(tuple(built), reading, declare, _mask(built)))
