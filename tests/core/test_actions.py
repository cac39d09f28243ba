"""The shared action shapes keep the value semantics the games rely on."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError

import pytest

from meldhall.core.actions import BareAction, TileAction, by_json_type, by_text
from meldhall.games.okey import actions as okey
from meldhall.games.remi import actions as remi
from meldhall.games.sichuan import actions as sichuan

# okey has two bare and two one-tile actions, with the same or different text and JSON type.
Draw, Take = okey.Draw, okey.TakeDiscard
Discard, Win = okey.Discard, okey.DiscardWin


def test_bare_actions_are_equal_by_class_and_hash_alike() -> None:
    assert Draw() == Draw() and hash(Draw()) == hash(Draw())
    draw: object = Draw()
    assert draw != Take() and Take() != draw
    assert {Draw(), Draw(), Take()} == {Draw(), Take()}
    assert {Draw(): 1}[Draw()] == 1


def test_tile_actions_compare_class_and_tile() -> None:
    assert Discard(1) == Discard(1) and hash(Discard(1)) == hash(Discard(1))
    assert Discard(1) != Discard(2)
    win: object = Win(1)
    assert Discard(1) != win
    assert len({Discard(0), Discard(0), Win(0)}) == 2


def test_forms() -> None:
    assert (str(Take()), Take().to_json()) == ("take", {"type": "take_discard"})
    assert (str(Win(8)), Win(8).to_json()) == ("win R5a", {"type": "discard_win", "tile": "R5a"})
    assert list(Win(8).to_json()) == ["type", "tile"]
    assert repr(Take()) == "TakeDiscard()" and repr(Discard(1)) == "Discard(tile=1)"


def test_actions_are_frozen_slotted_and_pickle() -> None:
    for action in (Take(), Discard(1), okey.DISCARDS[3], sichuan.PASS, remi.DRAW_STOCK):
        assert not hasattr(action, "__dict__")
        # A field-less frozen slotted dataclass refuses with TypeError (as before the shapes).
        with pytest.raises((FrozenInstanceError, TypeError)):
            setattr(action, "tile", 2)  # noqa: B010
        assert pickle.loads(pickle.dumps(action)) == action


def test_lookup_tables() -> None:
    assert by_text([Draw(), Take()]) == {"draw": Draw(), "take": Take()}
    assert by_json_type([Draw(), Take()]) == {"draw": Draw(), "take_discard": Take()}


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
