"""The remembered ``legal`` lists of state messages (tables/listing.py) are exactly the forms
the actions give, for every game, across tables, past the memory's bound."""

from __future__ import annotations

import random
from dataclasses import dataclass

import msgspec
import pytest

from meldhall.core.engine import JSON
from meldhall.games.registry import find_game, game_ids
from meldhall.tables import listing
from meldhall.tables.listing import legal_json, legal_text


def _fresh(actions: list) -> list[dict[str, JSON]]:
    return [{"json": a.to_json(), "text": str(a)} for a in actions]


@pytest.mark.parametrize("game_id", game_ids())
def test_remembered_lists_are_the_actions_forms(game_id: str) -> None:
    game = find_game(game_id)
    rng = random.Random(7)
    for deal in range(2):  # the second deal meets actions the first remembered
        state = game.new_state(game.options({}), game.default_seats, bytes([deal]) * 32)
        for _ in range(120):
            if state.outcome() is not None:
                break
            seat = min(state.to_act())
            legal = list(state.legal_actions(seat))
            assert legal_json(legal) == _fresh(legal)
            assert legal_text(legal) == msgspec.json.encode(_fresh(legal))
            state.apply(seat, rng.choice(legal))


def test_the_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "REMEMBERED", 5)
    monkeypatch.setattr(listing, "_forms", {})
    monkeypatch.setattr(listing, "_texts", {})
    game = find_game("okey")
    state = game.new_state(game.options({}), 4, b"\x01" * 32)
    legal = list(state.legal_actions(min(state.to_act())))
    assert len(legal) > 5
    for _ in range(3):
        assert legal_json(legal) == _fresh(legal)
        assert legal_text(legal) == msgspec.json.encode(_fresh(legal))
        assert len(listing._forms) <= 5 and len(listing._texts) <= 5


@dataclass(frozen=True)
class _Unhashable:
    tiles: list[int]

    def to_json(self) -> JSON:
        return {"type": "meld", "tiles": list(self.tiles)}

    def __str__(self) -> str:
        return "m:" + ",".join(map(str, self.tiles))


def test_an_action_that_cannot_be_hashed_is_formed_each_time() -> None:
    action = _Unhashable([3, 4, 5])
    expected = [{"json": {"type": "meld", "tiles": [3, 4, 5]}, "text": "m:3,4,5"}]
    assert legal_json([action]) == expected
    assert legal_text([action]) == legal_text([action]) == msgspec.json.encode(expected)
