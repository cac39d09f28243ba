"""How likely the next player is to take a remi discard, from what the seat can see.

A player takes the top discard when he can place it at once: with two cards of his hand it
makes a meld (or, opened, it fits a meld of the table, which the strong bot weighs apart).
The seat does not see his hand, but it sees the cards he took face up and still holds
(``known``), how many cards he holds, and every card not yet seen. ``take_chance`` adds up,
over the pairs of faces that would complete a meld with the discard, the chance that he holds
both (a face he is known to hold: certain; else its unseen copies x his unknown cards / the
unseen cards), so a card next to cards he took from the pile counts as very likely taken.

>>> from meldhall.games.remi.pieces import parse_card_list
>>> from meldhall.games.remi.melds import RunRules
>>> unseen = [1] * 52
>>> seven_h, = parse_card_list("7H")
>>> known = parse_card_list("7S 7D")
>>> take_chance(seven_h, known, 13, unseen, 80, RunRules()) > 0.6
True
>>> take_chance(seven_h, [], 13, unseen, 80, RunRules()) < 0.2
True
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from functools import lru_cache
from itertools import combinations, permutations

from meldhall.games.remi.melds import RunRules, readings
from meldhall.games.remi.pieces import FIRST_JOKER

REFUSED_SHARE = 0.3
"""How much a pair of faces counts when it would have melded with a face he refused since
(he held neither pair then, but has drawn cards since)."""


@lru_cache(maxsize=256)
def ruled_out_pairs(refused: frozenset[int], rules: RunRules) -> frozenset[tuple[int, int]]:
    """Return the pairs of faces that make a meld with one of the ``refused`` faces."""
    return frozenset(pair for face in refused for pair in partner_pairs(face, rules))


@lru_cache(maxsize=256)
def partner_pairs(face: int, rules: RunRules) -> tuple[tuple[int, int], ...]:
    """Return the pairs of faces (``suit * 13 + rank index``, 0 = ace), lower face first,
    that make a meld of three with ``face`` under these run rules, as the game reads melds
    (``games.remi.melds.readings``): two other suits of its rank, or two cards of its suit
    around it in a run. Only faces sharing its suit or rank are tried: no other meld holds
    both."""
    card = face * 2
    kin = [f for f in range(52) if f != face and (f // 13 == face // 13 or f % 13 == face % 13)]
    return tuple(
        (a, b)
        for a, b in combinations(kin, 2)
        if any(readings(order, rules) for order in permutations((card, a * 2, b * 2)))
    )


def take_chance(
    card: int,
    known: Sequence[int],
    hand_count: int,
    unseen: Sequence[int],
    unseen_total: int,
    rules: RunRules,
    refused: Collection[int] = (),
) -> float:
    """Return about how likely (0..1) a player with ``hand_count`` cards, of which ``known``
    are seen, holds two cards that make a meld with ``card`` under the table's run
    ``rules``: ``1 - exp(-E)`` for ``E`` the expected number of such pairs he holds.
    ``unseen[f]``: unseen copies of face ``f`` (his known cards counted among them);
    ``unseen_total``: all unseen cards; ``refused``: faces he showed he could not meld
    (``remi_refusals``), so a pair that melds with one of them counts only
    ``REFUSED_SHARE``. A joker: 1 (anyone takes it)."""
    if card >= FIRST_JOKER:
        return 1.0
    known_faces = {c >> 1 for c in known if c < FIRST_JOKER}
    free = max(0, hand_count - len(known))
    pool = max(1, unseen_total - len(known))
    share = free / pool

    def holds(face: int) -> float:
        if face in known_faces:
            return 1.0
        return min(1.0, unseen[face] * share)

    ruled_out = ruled_out_pairs(frozenset(refused), rules)
    expected = math.fsum(
        holds(a) * holds(b) * (REFUSED_SHARE if (a, b) in ruled_out else 1.0)
        for a, b in partner_pairs(card >> 1, rules)
    )
    return 1.0 - math.exp(-expected)
