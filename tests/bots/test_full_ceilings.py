"""The full ceilings (bots/clairvoyant.py): the strong bot's best few moves played out to the
end of the hand on the true state, stock and wall order included. Each game's ceiling keeps
the strong bot's own choice unless another move's hand ends strictly better, and it never
changes the state it is shown."""

from __future__ import annotations

import copy
import random

import pytest

from meldhall.bots.base import make_bot
from meldhall.bots.ceiling import ceiling_bot
from meldhall.bots.clairvoyant import ClairvoyantCeiling, hand_value, play_out
from meldhall.core.engine import Action, State
from meldhall.core.rng import derive
from meldhall.games.registry import find_game

FULL = ["okey", "okey-ladder", "tile-rummy", "sichuan"]


def rollout_value(game_id: str, state: State, seat: int, move: Action) -> float:
    """Return the value the ceiling's rollout gives ``move`` (played on a copy)."""
    world = state.clone()  # type: ignore[attr-defined]
    events = world.apply(seat, move)
    higher = find_game(game_id).higher_is_better
    if any(e.kind == "hand_over" for e in events) or world.outcome() is not None:
        return hand_value(world, seat, higher)
    models = [make_bot(game_id, "greedy") for _ in range(world.seats)]
    return play_out(world, seat, models, higher)


@pytest.mark.parametrize("game_id", FULL)
def test_the_full_ceiling_keeps_a_move_that_ends_the_hand_no_worse_than_strong(
    game_id: str,
) -> None:
    game = find_game(game_id)
    ceiling = ceiling_bot(game_id)
    assert isinstance(ceiling, ClairvoyantCeiling)
    state = game.new_state(game.options(), 4, derive(b"full-ceiling", game_id))
    others = [make_bot(game_id, "greedy") for _ in range(4)]
    rng = random.Random(0)
    searched = differed = 0
    for _ in range(250):
        if state.outcome() is not None or searched >= 12:
            break
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        obs = state.observation(seat)
        if seat != 0:
            state.apply(seat, others[seat].choose(obs, legal, rng))
            continue
        proposer = copy.deepcopy(ceiling.strong, {id(state): state})
        ceiling.see_state(state)
        see = getattr(proposer, "see_state", None)
        if see is not None:
            see(state)
        own = proposer.choose(obs, legal, random.Random(1))
        snapshot = state.snapshot()
        action = ceiling.choose(obs, legal, random.Random(1))
        assert state.snapshot() == snapshot  # the true state is left alone
        assert action in legal
        if len(legal) > 1 and ceiling.worth_searching(legal):  # type: ignore[misc]
            searched += 1
            if action != own:
                differed += 1
                assert rollout_value(game_id, state, 0, action) > rollout_value(
                    game_id, state, 0, own
                )
        state.apply(seat, action)
    assert searched >= 5


def test_the_full_ceiling_without_a_state_plays_as_its_strong_bot() -> None:
    game = find_game("tile-rummy")
    state = game.new_state(game.options(), 4, derive(b"full-ceiling", "blind"))
    ceiling = ceiling_bot("tile-rummy")
    assert isinstance(ceiling, ClairvoyantCeiling)
    strong = make_bot("tile-rummy", "strong")
    seat = min(state.to_act())
    obs, legal = state.observation(seat), state.legal_actions(seat)
    assert ceiling.choose(obs, legal, random.Random(3)) == strong.choose(
        obs, legal, random.Random(3)
    )


def test_a_ceiling_needs_one_candidate_at_least() -> None:
    with pytest.raises(ValueError, match="candidates must be at least 1, got 0"):
        ClairvoyantCeiling(make_bot("remi", "strong"), lambda: make_bot("remi", "greedy"), False, 0)


class _FullListOnly:
    """A proposer that cannot choose among a part of the listed moves (it raises)."""

    needs_observation = True

    def __init__(self, full: int) -> None:
        self.full = full

    def choose(self, observation: object, legal: tuple[Action, ...], rng: object) -> Action:
        if len(legal) < self.full:
            raise ValueError("no discard left")
        return legal[-1]


def test_a_proposer_that_cannot_choose_among_fewer_moves_keeps_its_own_choice() -> None:
    game = find_game("remi")
    state = game.new_state(game.options(), 4, derive(b"full-ceiling", "picky"))
    seat = min(state.to_act())
    legal = state.legal_actions(seat)
    assert len(legal) >= 2
    ceiling = ClairvoyantCeiling(
        _FullListOnly(len(legal)),
        lambda: make_bot("remi", "greedy"),
        game.higher_is_better,
    )
    ceiling.see_state(state)
    assert ceiling.choose(state.observation(seat), legal, random.Random(0)) == legal[-1]
