"""The shared action shapes keep the value semantics the games rely on."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass

import pytest

from meldhall.core.actions import BareAction, TileAction, by_json_type, by_text
from meldhall.games.okey import actions as okey
from meldhall.games.remi import actions as remi
from meldhall.games.sichuan import actions as sichuan


@dataclass(frozen=True, slots=True)
class Draw(BareAction):
    """Draw a tile."""

    text = "draw"
    json_type = "draw_stock"


@dataclass(frozen=True, slots=True)
class Pass(BareAction):
    """Let it go."""

    text = json_type = "pass"


@dataclass(frozen=True, slots=True)
class Discard(TileAction):
    """Discard a tile."""

    verb = json_type = "discard"
    tokens = ("R1a", "R1b", "R2a")


@dataclass(frozen=True, slots=True)
class Win(TileAction):
    """Win on a tile."""

    verb = "win"
    json_type = "discard_win"
    tokens = Discard.tokens


def test_bare_actions_are_equal_by_class_and_hash_alike() -> None:
    assert Draw() == Draw() and hash(Draw()) == hash(Draw())
    draw: object = Draw()
    assert draw != Pass() and Pass() != draw
    assert {Draw(), Draw(), Pass()} == {Draw(), Pass()}
    assert {Draw(): 1}[Draw()] == 1


def test_tile_actions_compare_class_and_tile() -> None:
    assert Discard(1) == Discard(1) and hash(Discard(1)) == hash(Discard(1))
    assert Discard(1) != Discard(2)
    win: object = Win(1)
    assert Discard(1) != win
    assert len({Discard(0), Discard(0), Win(0)}) == 2


def test_forms() -> None:
    assert (str(Draw()), Draw().to_json()) == ("draw", {"type": "draw_stock"})
    assert (str(Win(2)), Win(2).to_json()) == ("win R2a", {"type": "discard_win", "tile": "R2a"})
    assert list(Win(2).to_json()) == ["type", "tile"]
    assert repr(Pass()) == "Pass()" and repr(Discard(1)) == "Discard(tile=1)"


def test_actions_are_frozen_slotted_and_pickle() -> None:
    for action in (Pass(), Discard(1), okey.DRAW, okey.DISCARDS[3], sichuan.PASS):
        assert not hasattr(action, "__dict__")
        with pytest.raises((dataclasses.FrozenInstanceError, AttributeError, TypeError)):
            setattr(action, "tile", 2)  # noqa: B010
        assert pickle.loads(pickle.dumps(action)) == action


def test_lookup_tables() -> None:
    assert by_text([Draw(), Pass()]) == {"draw": Draw(), "pass": Pass()}
    assert by_json_type([Draw(), Pass()]) == {"draw_stock": Draw(), "pass": Pass()}


@pytest.mark.parametrize(
    ("module", "text", "data"),
    [
        (okey, "take", {"type": "take_discard"}),
        (okey, "win R5a", {"type": "discard_win", "tile": "R5a"}),
        (remi, "DRAW_DISCARD", {"type": "draw_discard"}),
        (sichuan, "discard 5p#2", {"type": "discard", "tile": "5p#2"}),
        (sichuan, "pass", {"type": "pass"}),
    ],
)
def test_game_actions_keep_their_forms(module: object, text: str, data: dict[str, str]) -> None:
    action = module.parse_action(text)  # type: ignore[attr-defined]
    assert action == module.action_from_json(data)  # type: ignore[attr-defined]
    assert (str(action), action.to_json()) == (text, data)
    assert isinstance(action, BareAction | TileAction)
