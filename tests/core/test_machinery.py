"""The engine machinery on a toy game: the conformance suite catches what it must, replay
rebuilds a match, and the fairness proof verifies a log and rejects a changed one."""

from __future__ import annotations

import random

import pytest

from meldhall.core.fairness import commitment, match_seed, verify
from meldhall.core.replay import log_to_json, replay
from meldhall.testing.conformance import check_observations, check_replay, play_random
from tests.core.toy_game import ToyGame


def test_toy_game_passes_conformance() -> None:
    game = ToyGame()
    for seed in "abcdef":
        played = play_random(game, seed, probe_every=1)  # type: ignore[arg-type]
        check_replay(game, played)  # type: ignore[arg-type]
        check_observations(game, played.state, random.Random(seed))  # type: ignore[arg-type]


def test_conformance_catches_a_leaking_observation() -> None:
    game = ToyGame(leak=True)
    played = play_random(game, "leak", stop_at=2)  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="reshuffled"):
        check_observations(game, played.state, random.Random(1))  # type: ignore[arg-type]


def _finished_match(secret: bytes) -> tuple[ToyGame, list[object], object]:
    game = ToyGame()
    seed = match_seed(secret, ["alice", "bob"])
    state = game.new_state(game.options(), 2, seed)
    log = []
    while state.outcome() is None:
        seat = min(state.to_act())
        action = state.legal_actions(seat)[0]
        state.apply(seat, action)
        log.append((seat, action))
    return game, log, state


def test_fairness_verifies_a_finished_match() -> None:
    secret = bytes(range(32))
    game, log, state = _finished_match(secret)
    args = (game, None, 2, secret.hex(), commitment(secret), ["alice", "bob"])
    report = verify(*args, log_to_json(log), state.snapshot())  # type: ignore[arg-type]
    assert report.ok, report.problem


def test_fairness_fails_on_a_changed_log_or_secret() -> None:
    secret = bytes(range(32))
    game, log, state = _finished_match(secret)
    data = log_to_json(log)  # type: ignore[arg-type]
    bad = verify(game, None, 2, "00" * 32, commitment(secret), ["alice", "bob"], data)  # type: ignore[arg-type]
    assert not bad.ok and "commitment" in bad.problem
    other = verify(
        game,
        None,
        2,
        secret.hex(),
        commitment(secret),
        ["alice", "eve"],
        data,  # type: ignore[arg-type]
        state.snapshot(),
    )
    assert not other.ok


def test_replay_rebuilds_the_same_state() -> None:
    game, log, state = _finished_match(b"k" * 32)
    again = replay(game, game.options(), 2, match_seed(b"k" * 32, ["alice", "bob"]), log)  # type: ignore[arg-type]
    assert again.snapshot() == state.snapshot()  # type: ignore[attr-defined]
