"""okey-cards bots: legal whole games under every option, the planner's maths, the expert's
choices in clear positions and its edge over greedy."""

from __future__ import annotations

import random
import statistics
from itertools import permutations

import pytest

from meldhall.bots.okey_cards import BOTS
from meldhall.core.engine import Outcome
from meldhall.core.rng import derive
from meldhall.core.tiles import parse_okey_cards
from meldhall.games.okey_cards import GAME
from meldhall.games.okey_cards.actions import Draw
from meldhall.games.okey_cards.pieces import ALL_CARDS
from meldhall.games.okey_cards.planner import (
    FEATURES,
    Position,
    best_keep,
    exact_value,
    keep_options,
    position_of,
)
from meldhall.games.okey_cards.scoring import best_triple
from meldhall.games.okey_cards.weights import FIRST_DECK, WEIGHTS
from meldhall.simulate import play_match


def mask(text: str) -> int:
    return sum(1 << c.id for c in parse_okey_cards(text))


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize(
    "options",
    [{}, {"draw_mode": "single"}, {"score_table": "legacy"}, {"auto_end": False}],
)
def test_bots_play_whole_games(name: str, options: dict[str, object]) -> None:
    opts = GAME.options(options)
    for i in range(3):
        run = play_match(GAME, [BOTS[name]()], derive(b"bots", name, i), opts, check=True)
        assert run.outcome is not None
        # Bots quit only when nothing can score any more (auto_end off leaves that to them).
        assert run.outcome.termination != "quit" or not opts.auto_end


def test_position_of_matches_the_deck_count() -> None:
    state = GAME.new_state(GAME.options(), 1, b"pos")
    state.apply(0, Draw())
    obs = state.observation(0)
    pos = position_of(obs)
    assert pos.unseen.bit_count() == obs["deck_count"] == 19
    assert pos.held.bit_count() == 5 and pos.held & pos.unseen == 0


def test_weights_cover_every_deck_size_and_feature() -> None:
    assert FIRST_DECK + len(WEIGHTS) - 1 == 19
    assert all(len(row) == len(FEATURES) for per_deck in WEIGHTS for row in per_deck)


def _brute_value(unseen: list[int], held: int) -> float:
    """Expected best score over every deck order, choosing keeps with full knowledge of the
    set only (a tiny independent expectimax by deck orders)."""
    if not unseen:
        return float(best_triple(held, "current")[1])
    orders = list(permutations(unseen))
    best = 0.0
    for keep, now in keep_options(sum(1 << c for c in unseen), held, "current"):
        size = min(5 - keep.bit_count(), len(unseen))
        total = 0.0
        for order in orders:
            drawn = order[:size]
            rest = [c for c in unseen if c not in drawn]
            total += _brute_value(rest, keep | sum(1 << c for c in drawn))
        best = max(best, now + total / len(orders))
    return best


@pytest.mark.parametrize(
    ("unseen", "held"),
    [("R3", "R1 R2 B5 B6 Y1"), ("R6 B6", "R4 R5 Y6 Y8 B8"), ("R1 B2 Y3", "R2 R3 B1 Y8 B7")],
)
def test_exact_value_matches_brute_force(unseen: str, held: str) -> None:
    got = exact_value(mask(unseen), mask(held), "current", False)
    want = _brute_value([c.id for c in parse_okey_cards(unseen)], mask(held))
    assert got == pytest.approx(want)


def test_exact_value_of_a_known_endgame() -> None:
    # R3 is the last card: keep R1 R2 (and the run B5 B6 B7 can be played now, 90), draw
    # R3 for the same-colour run 1-2-3 (50).
    assert exact_value(mask("R3"), mask("R1 R2 B5 B6 B7"), "current", False) == 140


def test_expert_plays_a_big_triple_and_keeps_a_pair() -> None:
    pos = Position(
        mask("Y6 Y7 Y8 R5 B5"), (), ALL_CARDS & ~mask("Y6 Y7 Y8 R5 B5"), "current", False
    )
    keep = best_keep(pos)
    assert keep & mask("Y6 Y7 Y8") == 0


def test_expert_beats_greedy_on_the_same_decks() -> None:
    expert: list[Outcome | None] = []
    greedy: list[Outcome | None] = []
    rng = random.Random(1)
    for _ in range(120):
        seed = rng.randbytes(16)
        expert.append(play_match(GAME, [BOTS["expert"]()], seed).outcome)
        greedy.append(play_match(GAME, [BOTS["greedy"]()], seed).outcome)
    diffs = [e.scores[0] - g.scores[0] for e, g in zip(expert, greedy, strict=True) if e and g]
    assert len(diffs) == 120
    assert statistics.fmean(diffs) > 2 * statistics.stdev(diffs) / len(diffs) ** 0.5
