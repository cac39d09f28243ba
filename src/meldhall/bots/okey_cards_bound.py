"""An upper bound on the best honest okey-cards player: the information-relaxation dual bound.

The perfect-information player (``ceiling.DeckSolver``) knows the deck order, so its mean score
bounds every honest player from above, but loosely. Brown, Smith & Sun (2010, "Information
relaxations and duality in stochastic dynamic programs") tighten it with a penalty: the
deck-knowing search maximises the points minus a charge for each card drawn,

    charge(card c drawn onto kept cards K, unseen U) = f(U - c, K + c) - mean over c' in U of
                                                        f(U - c', K + c'),

for any function ``f`` of the position. An honest player does not know which card of U comes
next, and each card is equally likely, so its expected charge is 0 whatever it does: its mean
score equals its mean of points minus charges, which is at most the mean, over decks, of the
deck-knowing maximum of points minus charges. That maximum's mean is therefore an upper bound
on every honest player; with ``f`` the true value of the honest game the bound would equal the
honest optimum. Here ``f`` is the expert's own value model (``ModelValues``: exact expectimax
with at most three cards unseen, the fitted model before that).

The search tries the planner's decisions only (keep at most four held cards that can still
score, play the best triple of the others): an honest player loses nothing by it (a card no
triple can use is worth nothing held, and keeping it only delays the card that would fill its
place), so the honest optimum is among the policies bounded.
"""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.bots.ceiling import DeckSolver
from meldhall.bots.okey_cards_values import ModelValues
from meldhall.core.errors import MeldhallError
from meldhall.games.okey_cards.scoring import ScoreTable


class PenalizedDeckSolver(DeckSolver):
    """``DeckSolver`` maximising points minus the charges of the module docstring:
    ``value(i, held)`` is the most (points - charges) still to come; with ``values`` the
    model that prices each drawn card. Fill draws only (the model was fitted for them)."""

    def __init__(self, deck: Sequence[int], table: ScoreTable, values: ModelValues) -> None:
        super().__init__(deck, table, False)
        self.values = values
        self.charges: dict[int, float] = {}
        self.bound_memo: dict[int, float] = {}

    def charge(self, p: int, kept: int) -> float:
        """Return the charge for drawing card ``p`` of the deck onto ``kept``."""
        key = p << 24 | kept
        found = self.charges.get(key)
        if found is not None:
            return found
        priced = self.values.after_card(self.suffix[p], kept)
        value = priced[self.deck[p]] - sum(priced.values()) / len(priced)
        self.charges[key] = value
        return value

    def draw_charge(self, i: int, keep: int, j: int) -> float:
        """Return the charges of drawing cards ``i`` .. ``j - 1`` onto ``keep``."""
        total = 0.0
        kept = keep
        for p in range(i, j):
            total += self.charge(p, kept)
            kept |= 1 << self.deck[p]
        return total

    def bound(self, i: int, held: int) -> float:
        """Return the most points minus charges still to come from card ``i`` with ``held``."""
        unseen = self.suffix[i]
        if not unseen:
            return float(self.best_now(held))
        live = self.live(held, unseen)
        key = i << 24 | live
        found = self.bound_memo.get(key)
        if found is not None:
            return found
        best = float("-inf")
        n, suffix = len(self.deck), self.suffix
        for keep, rest, room in self.options(live):
            j = min(n, i + room)
            total = (
                self.best_now(rest)
                - self.draw_charge(i, keep, j)
                + self.bound(j, keep | (unseen & ~suffix[j]))
            )
            if total > best:
                best = total
        self.bound_memo[key] = best
        return best


def dual_bound(deck: Sequence[int], table: ScoreTable, values: ModelValues | None = None) -> float:
    """Return the deck-knowing maximum of points minus charges for one deck (top first); its
    mean over uniformly shuffled decks bounds every honest player's mean score. Raise
    ``MeldhallError`` for a deck that is not the 24 cards."""
    if sorted(deck) != list(range(24)):
        raise MeldhallError(f"a deck must hold each of the 24 cards once, got {list(deck)}")
    solver = PenalizedDeckSolver(deck, table, values or ModelValues(table))
    return solver.bound(0, 0)
