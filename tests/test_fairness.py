"""The fairness proof on every real game: a finished match verifies from its revealed secret,
and changing any tile named in its log (or the secret) makes the verification fail."""

from __future__ import annotations

import json
import random

import pytest

from meldhall.bots.base import make_bot
from meldhall.core.fairness import commitment, match_seed, verify
from meldhall.core.replay import log_to_json
from meldhall.games.registry import find_game, game_ids

SECRET = bytes(range(32))
CONTRIBUTIONS = ["alice", "bob"]


def _played(game_id: str, actions: int = 120) -> tuple[list[object], object]:
    game = find_game(game_id)
    state = game.new_state(game.options(), game.default_seats, match_seed(SECRET, CONTRIBUTIONS))
    bots = [make_bot(game_id, "random") for _ in range(game.default_seats)]
    rng = random.Random(7)
    log = []
    for _ in range(actions):
        if state.outcome() is not None:
            break
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        bot = bots[seat]
        action = bot.choose(state.observation(seat) if bot.needs_observation else {}, legal, rng)
        state.apply(seat, action)
        log.append((seat, action))
    return log_to_json(log), state.snapshot()  # type: ignore[arg-type]


def _tile_fields(entry: object) -> list[tuple[dict[str, object], str]]:
    """Return (object, key) pairs of an action's JSON that name a single tile or card."""
    found: list[tuple[dict[str, object], str]] = []
    if isinstance(entry, dict):
        for key, value in entry.items():
            if key in ("tile", "card") and isinstance(value, str):
                found.append((entry, key))
            else:
                found += _tile_fields(value)
    elif isinstance(entry, list):
        for value in entry:
            found += _tile_fields(value)
    return found


@pytest.mark.parametrize("game_id", game_ids())
def test_a_match_verifies_and_a_changed_tile_does_not(game_id: str) -> None:
    game = find_game(game_id)
    log, snapshot = _played(game_id)
    args = (game, None, game.default_seats, SECRET.hex(), commitment(SECRET), CONTRIBUTIONS)
    report = verify(*args, log, snapshot)
    assert report.ok, report.problem

    fields = _tile_fields(log)
    assert fields, f"{game_id}: no action of the log names a tile"
    tokens = sorted({str(obj[key]) for obj, key in fields})
    changed = 0
    for index in range(len(fields)):
        tampered = json.loads(json.dumps(log))
        obj, key = _tile_fields(tampered)[index]
        for other in tokens:
            if other != obj[key]:
                obj[key] = other
                break
        else:
            continue
        assert not verify(*args, tampered, snapshot).ok, f"{game_id}: changed tile {index} passed"
        changed += 1
    assert changed > 0

    wrong_secret = bytes(32).hex()
    bad = verify(
        game, None, game.default_seats, wrong_secret, commitment(SECRET), CONTRIBUTIONS, log
    )
    assert not bad.ok and "commitment" in bad.problem
