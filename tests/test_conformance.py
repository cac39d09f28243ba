"""The engine contract's conformance suite, run for every registered game."""

from __future__ import annotations

import dataclasses
import random

import pytest

from meldhall.core.engine import Action, State
from meldhall.core.errors import IllegalAction
from meldhall.games.registry import find_game, game_ids
from meldhall.testing.conformance import check_observations, check_replay, play_random


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_random_play_probes_every_action(game_id: str, seed: str) -> None:
    game = find_game(game_id)
    played = play_random(game, f"{game_id}-{seed}", probe_every=7)
    check_replay(game, played)


@pytest.mark.parametrize("game_id", game_ids())
def test_seat_counts(game_id: str) -> None:
    game = find_game(game_id)
    for seats in range(game.min_seats, game.max_seats + 1):
        played = play_random(game, f"{game_id}-seats-{seats}", seats=seats, max_hands=1)
        check_replay(game, played)


FINISHED = {"okey-cards": "GAME_OVER"}
"""A finished match is MATCH_OVER except where the game's spec names another code."""
OWN_CODES = {
    ("okey", "show"): {"SHOW_NOT_ALLOWED"},
    ("okey-cards", "draw"): {"HAND_FULL", "DECK_EMPTY"},
}
"""Bare actions whose spec names their own refusals (okey.md 4, okey-cards.md 5)."""


@pytest.mark.parametrize("game_id", game_ids())
def test_whole_match_ends_and_refusals_share_one_vocabulary(game_id: str) -> None:
    """Seeded play by the game's own random bots (which still win when they can) finishes a
    whole match, and no loser ranks ahead of a winner. On the way every game gives the same
    reason code for the same situation (docs/protocol.md, "Reason codes"): another seat's
    action NOT_YOUR_TURN, a bare action of another phase WRONG_PHASE, anything after the end
    MATCH_OVER."""
    from meldhall.bots.base import make_bot
    from meldhall.core.rng import derive, seed_from_text

    game = find_game(game_id)
    seed = seed_from_text(f"{game_id}-match")
    state = game.new_state(game.options(), game.default_seats, seed)
    bots = [make_bot(game_id, "random") for _ in range(game.default_seats)]
    rng = random.Random(derive(seed, "bots"))
    bare: dict[Action, set[object]] = {}
    last: tuple[int, Action] | None = None
    codes: set[str] = set()
    for _ in range(200_000):
        if state.outcome() is not None:
            break
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        phase = state.observation(seat)["phase"]
        for action in legal:
            if not dataclasses.fields(action):  # type: ignore[arg-type]
                bare.setdefault(action, set()).add(phase)
        for action, phases in bare.items():
            if phase not in phases:  # never listed in this phase: it belongs to others
                want = OWN_CODES.get((game_id, str(action)), {"WRONG_PHASE"})
                assert refusal(state, seat, action) in want, f"{action} in {phase}"
                codes.add("WRONG_PHASE")
        for other in set(range(state.seats)) - state.to_act():
            assert refusal(state, other, legal[0]) == "NOT_YOUR_TURN"
            codes.add("NOT_YOUR_TURN")
        action = bots[seat].choose(state.observation(seat), legal, rng)
        assert action in legal
        state.apply(seat, action)
        state.check_invariants()
        last = (seat, action)
    outcome = state.outcome()
    assert outcome is not None and last is not None
    assert refusal(state, *last) == FINISHED.get(game_id, "MATCH_OVER")
    ranks, winners = outcome.ranks, outcome.winners
    assert winners, "a finished match has a winner"
    losers = set(range(game.default_seats)) - winners
    assert all(ranks[w] <= ranks[loser] for w in winners for loser in losers)
    if game.default_seats > 1:
        assert "NOT_YOUR_TURN" in codes


def refusal(state: State, seat: int, action: Action) -> str:
    """Return the reason code with which ``state`` refuses ``action``; it must change
    nothing."""
    before = state.snapshot()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    assert state.snapshot() == before
    return info.value.code


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("stop_at", [0, 5, 23, 61, 150])
def test_observations_hide_what_they_must(game_id: str, stop_at: int) -> None:
    game = find_game(game_id)
    played = play_random(game, f"{game_id}-obs-{stop_at}", stop_at=stop_at)
    check_observations(game, played.state, random.Random(stop_at))
    check_replay(game, played)
