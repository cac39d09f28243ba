"""Quick hand judgements for bots: does a card join a meld, how connected is a card, is the
top discard worth taking.

>>> from meldhall.games.remi.pieces import parse_card_list
>>> hand = parse_card_list("7H 7S 9C 10C KD")
>>> [joins_meld(c, hand, RunRules()) for c in parse_card_list("7D 8C 7C QD")]
[True, True, True, False]
>>> partner_counts(hand)
[1, 1, 1, 1, 0]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from meldhall.games.remi.best import best_value
from meldhall.games.remi.melds import RunRules
from meldhall.games.remi.pieces import FIRST_JOKER, RANK, SUIT


def _positions(rank: int, rules: RunRules) -> tuple[int, ...]:
    if rank != 1:
        return (rank,)
    if rules.wrap:
        return (1, 14)
    return (1, 14) if rules.ace_low else (14,)


def joins_meld(card: int, hand: Sequence[int], rules: RunRules) -> bool:
    """Return True when ``card`` and two cards of ``hand`` (jokers included) make a meld."""
    jokers = sum(1 for c in hand if c >= FIRST_JOKER)
    if card >= FIRST_JOKER:
        return len(hand) - jokers >= 1 and len(hand) >= 2
    if jokers >= 2:
        return True
    rank, suit = RANK[card], SUIT[card]
    suits = {SUIT[c] for c in hand if c < FIRST_JOKER and RANK[c] == rank and SUIT[c] != suit}
    if len(suits) + jokers >= 2:
        return True
    line: set[int] = set()
    for c in hand:
        if c < FIRST_JOKER and SUIT[c] == suit and c >> 1 != card >> 1:
            line.update(_positions(RANK[c], rules))
    if rules.wrap:
        line |= {p + 13 for p in line} | {p - 13 for p in line}
    for p in _positions(rank, rules):
        for lo in (p - 2, p - 1, p):
            if not rules.wrap and (lo < rules.lo_min or lo + 2 > 14):
                continue
            missing = sum(1 for q in (lo, lo + 1, lo + 2) if q != p and q not in line)
            if missing <= jokers:
                return True
    return False


def partner_counts(hand: Sequence[int]) -> list[int]:
    """Return, per card of ``hand``, how many other natural cards of the hand could share a
    meld with it: the same rank in another suit, or the same suit one or two ranks away (the
    ace next to both the 2 and the king); 0 for a joker."""
    faces = [0] * 52
    ranks = [0] * 13
    for c in hand:
        if c < FIRST_JOKER:
            faces[c >> 1] += 1
            ranks[(c >> 1) % 13] += 1
    out: list[int] = []
    for c in hand:
        if c >= FIRST_JOKER:
            out.append(0)
            continue
        face = c >> 1
        r = face % 13
        count = ranks[r] - faces[face]
        base = face - r
        for near in _NEAR[r]:
            count += faces[base + near]
        out.append(count)
    return out


_NEAR: tuple[tuple[int, ...], ...] = tuple(
    tuple(n if n < 13 else 0 for n in (r - 2, r - 1, r + 1, r + 2) if 0 <= n <= 13)
    + ((11, 12) if r == 0 else ())
    for r in range(13)
)
"""Rank indexes (0 = ace) one or two away in a run: the ace sits below the 2 and above the K."""


def worth_taking(
    top: int,
    hand: Sequence[int],
    opened: bool,
    fits_table: Callable[[int], bool],
    rules: RunRules,
    minimum: int,
) -> bool:
    """Return True when taking the top discard lets the hand place it this very turn (so a
    player who keeps taking discards keeps shrinking his hand): once open, it fits the table,
    or it makes a new meld that leaves a card in hand; before opening, the hand with it opens
    (the most its melds are worth reaches ``minimum``)."""
    if opened and fits_table(top):
        return True
    if len(hand) < 3 or not joins_meld(top, hand, rules):
        return False
    return opened or best_value([*hand, top], rules) >= minimum
