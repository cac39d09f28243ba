"""okey-cards: the vectorised value model equals the planner's, the information-relaxation
bound is exact with the true values and never below the perfect-information optimum without
charges, and the bench's game loop scores what the engine scores."""

from __future__ import annotations

import random

import numpy as np
import pytest

from meldhall.bench.cards_bound import deck_of, play_keeps
from meldhall.bots.ceiling import DeckSolver
from meldhall.bots.okey_cards import BOTS
from meldhall.bots.okey_cards_bound import PenalizedDeckSolver, dual_bound
from meldhall.bots.okey_cards_lookahead import lookahead_keep
from meldhall.bots.okey_cards_values import ModelValues, model_rows
from meldhall.core.errors import MeldhallError
from meldhall.core.rng import derive
from meldhall.games.okey_cards import GAME
from meldhall.games.okey_cards.pieces import ALL_CARDS
from meldhall.games.okey_cards.planner import (
    FIRST_DECK,
    Position,
    best_keep,
    exact_value,
    keep_features,
    keep_values,
)
from meldhall.games.okey_cards.weights import WEIGHTS
from meldhall.simulate import play_match


def _position(rng: random.Random, unseen_count: int) -> tuple[int, int]:
    cards = rng.sample(range(24), 5 + unseen_count)
    held = sum(1 << c for c in cards[:5])
    unseen = sum(1 << c for c in cards[5:])
    return held, unseen


def _dealt(rng: random.Random, unseen_count: int) -> tuple[int, list[int]]:
    """Return a held hand and the unseen cards in one random deck order."""
    held, unseen = _position(rng, unseen_count)
    rest = [c for c in range(24) if unseen >> c & 1]
    rng.shuffle(rest)
    return held, rest


@pytest.mark.parametrize("unseen_count", [4, 9, 19])
def test_the_batched_model_values_a_hand_as_the_planner_does(unseen_count: int) -> None:
    rng = random.Random(unseen_count)
    values = ModelValues("current")
    for _ in range(20):
        held, unseen = _position(rng, unseen_count)
        pos = Position(held, (), unseen, "current", False)
        want = max(v for v, _ in keep_values(pos))
        assert values.hand_value(unseen, held) == pytest.approx(want, abs=1e-9)


def test_the_batched_model_values_a_kept_set_as_the_planner_does() -> None:
    rng = random.Random(7)
    for _ in range(30):
        held, unseen = _position(rng, 12)
        keep = held & ~(1 << rng.choice([c for c in range(24) if held >> c & 1]))
        row = keep_features(unseen, keep, [keep], "current")[0]
        deck = unseen.bit_count()
        weights = WEIGHTS[min(deck, FIRST_DECK + len(WEIGHTS) - 1) - FIRST_DECK][4]
        want = sum(a * b for a, b in zip(weights, row, strict=True))
        got = model_rows(
            unseen | keep,
            deck,
            np.array([unseen]),
            np.array([keep]),
            np.array([keep]),
            "current",
        )
        assert float(got[0]) == pytest.approx(want, abs=1e-9)


def test_with_the_true_values_the_bound_is_the_honest_optimum_on_every_order() -> None:
    # Charges priced by the exact expectimax (every position of six unseen cards or fewer)
    # leave the deck-knowing player exactly the honest optimum, whatever the order.
    rng = random.Random(3)
    values = ModelValues("current", exact_deck=6)
    for _ in range(2):
        held, unseen = _position(rng, 6)
        honest = exact_value(unseen, held, "current", False)
        rest = [c for c in range(24) if unseen >> c & 1]
        for _ in range(6):
            rng.shuffle(rest)
            bound = PenalizedDeckSolver(rest, "current", values).bound(0, held)
            assert bound == pytest.approx(honest, abs=1e-9)


class _NoCharge(ModelValues):
    def after_card(self, unseen: int, kept: int) -> dict[int, float]:
        return {c: 0.0 for c in range(24) if unseen >> c & 1}


def test_without_charges_the_bound_is_the_perfect_information_optimum() -> None:
    rng = random.Random(5)
    for _ in range(3):
        held, rest = _dealt(rng, 10)
        perfect = DeckSolver(rest, "current", False).value(0, held)
        bound = PenalizedDeckSolver(rest, "current", _NoCharge("current")).bound(0, held)
        assert bound == perfect


def test_a_charge_is_zero_on_average_over_the_next_card() -> None:
    rng = random.Random(9)
    values = ModelValues("current")
    for kept_count in (0, 2, 4):
        held, unseen = _position(rng, 14)
        kept = sum(1 << c for c in [c for c in range(24) if held >> c & 1][:kept_count])
        rest = [c for c in range(24) if unseen >> c & 1]
        charges = []
        for first in rest:
            order = [first] + [c for c in rest if c != first]
            charges.append(PenalizedDeckSolver(order, "current", values).charge(0, kept))
        assert sum(charges) == pytest.approx(0.0, abs=1e-9)
        assert max(charges) > 0.5  # the model does tell the cards apart


class _EveryDecision(DeckSolver):
    """The solver before pruning: every decision tried at every position."""

    def value(self, i: int, held: int) -> int:
        unseen = self.suffix[i]
        if not unseen:
            return self.best_now(held)
        key = i << 24 | self.live(held, unseen)
        if key not in self.memo:
            best = 0
            for keep, rest, room in self.options(self.live(held, unseen)):
                j = min(len(self.deck), i + room)
                after = keep | (unseen & ~self.suffix[j])
                best = max(best, self.best_now(rest) + self.value(j, after))
            self.memo[key] = best
        return self.memo[key]


def test_the_pruned_perfect_solver_finds_the_same_optimum() -> None:
    rng = random.Random(11)
    for _ in range(6):
        held, rest = _dealt(rng, 10)
        unseen = sum(1 << c for c in rest)
        pruned = DeckSolver(rest, "current", False)
        assert pruned.value(0, held) == _EveryDecision(rest, "current", False).value(0, held)
        assert pruned.cap(held | unseen) >= pruned.value(0, held)
    deck = deck_of("tournament", 0)
    assert DeckSolver(deck, "current", False).value(0, 0) == 390  # the unpruned solver's


def test_a_deck_that_is_not_the_24_cards_is_refused() -> None:
    with pytest.raises(MeldhallError, match="each of the 24 cards once"):
        dual_bound([0, 1, 2], "current")


def test_the_bench_plays_the_decks_the_engine_plays() -> None:
    values = ModelValues("current")
    for deal in range(2):
        deck = deck_of("tournament", deal)
        assert sum(1 << c for c in deck) == ALL_CARDS
        seed = derive(b"tournament", "deal", deal)
        engine = play_match(GAME, [BOTS["expert"]()], seed).outcome
        assert engine is not None
        score = play_keeps(deck, lambda pos: lookahead_keep(pos, values), "current")
        assert engine.scores[0] == score
        assert 0 < play_keeps(deck, best_keep, "current") <= 560


def test_the_scale_multiplies_the_model_values_and_spares_the_exact_ones() -> None:
    rng = random.Random(13)
    whole, half = ModelValues("current"), ModelValues("current", scale=0.5)
    held, unseen = _position(rng, 12)
    kept = held & -held
    for card, value in whole.after_card(unseen, kept).items():
        assert half.after_card(unseen, kept)[card] == pytest.approx(0.5 * value)
    held, unseen = _position(rng, 3)
    assert half.after_card(unseen, held & -held) == whole.after_card(unseen, held & -held)
