"""The action codec: declared actions keep the value semantics the games rely on, and their
text and JSON forms and both parsers follow from the declaration."""

from __future__ import annotations

import importlib
import pickle
from dataclasses import FrozenInstanceError, dataclass

import pytest

from meldhall.core.actions import (
    Codec,
    Coded,
    Form,
    Int,
    Name,
    Optional,
    Piece,
    Pieces,
)
from meldhall.core.errors import MALFORMED_ACTION, UNKNOWN_ACTION, IllegalAction, ParseError
from meldhall.games.okey import actions as okey
from meldhall.games.registry import GAME_MODULES
from meldhall.games.remi import actions as remi
from meldhall.games.sichuan import actions as sichuan

# okey has two bare and two one-tile actions, with the same or different text and JSON type.
Draw, Take = okey.Draw, okey.TakeDiscard
Discard, Win = okey.Discard, okey.DiscardWin

TOKENS = ("R1a", "R1b", "R2a", "R2b")
TILE = Piece(TOKENS.__getitem__, TOKENS.index)
SEAT = Int("a seat", 0, 3, prefix="s")


@dataclass(frozen=True, slots=True)
class Lay(Coded):
    """A toy action with every basic kind, a literal word and an optional last field."""

    tile: int
    to: int
    end: str | None
    form = Form(
        "lay",
        text="{tile} on {to} {end}",
        tile=TILE,
        to=SEAT,
        end=Optional(Name("an end", ("low", "high"), index=False)),
    )


@dataclass(frozen=True, slots=True)
class Put(Coded):
    """A toy action with a list of pieces before a literal word."""

    tiles: tuple[int, ...]
    to: int
    form = Form("put", text="{tiles} on {to}", tiles=Pieces(TILE, least=1), to=SEAT)


@dataclass(frozen=True, slots=True)
class Stop(Coded):
    """A toy bare action whose JSON type differs from its verb."""

    form = Form("stop", json_type="stop_now")


TOY = Codec("toy", (Lay, Put, Stop))


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
        # A field-less frozen slotted dataclass refuses with TypeError.
        with pytest.raises((FrozenInstanceError, TypeError)):
            setattr(action, "tile", 2)  # noqa: B010
        assert pickle.loads(pickle.dumps(action)) == action


def test_a_declared_action_has_both_forms_from_its_declaration() -> None:
    lay = Lay(1, 2, "low")
    assert str(lay) == "lay R1b on s2 low"
    assert lay.to_json() == {"type": "lay", "tile": "R1b", "to": 2, "end": "low"}
    assert TOY.parse_action(str(lay)) == lay == TOY.action_from_json(lay.to_json())
    short = Lay(0, 0, None)
    assert str(short) == "lay R1a on s0"
    assert TOY.parse_action("lay R1a on s0") == short
    assert TOY.action_from_json({"type": "lay", "tile": "R1a", "to": 0}) == short
    put = Put((0, 3), 1)
    assert (str(put), put.to_json()) == (
        "put R1a R2b on s1",
        {"type": "put", "tiles": ["R1a", "R2b"], "to": 1},
    )
    assert TOY.parse_action(str(put)) == put == TOY.action_from_json(put.to_json())
    assert (str(Stop()), Stop().to_json()) == ("stop", {"type": "stop_now"})
    assert TOY.parse_action("stop") is TOY.action_from_json({"type": "stop_now"})


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("", "empty"),
        ("jump", "not an action"),
        ("stop now", "takes no words"),
        ("lay R1a at s0", "written"),  # the literal word is wrong
        ("lay R1a s0", "written"),  # the literal word is missing
        ("lay R1a on s0 low high", "written"),
        ("put on s0", "more words"),  # no tile in the list
        ("put R1a R2a s0", "written"),
        ("lay R9a on s0", "tile"),
        ("lay R1a on 0", "s<number>"),
        ("lay R1a on s4", "0..3"),
        ("lay R1a on s1 middle", "end"),
    ],
)
def test_a_bad_text_is_refused_naming_the_problem(text: str, names: str) -> None:
    with pytest.raises(ParseError, match=names):
        TOY.parse_action(text)


@pytest.mark.parametrize(
    ("data", "names"),
    [
        ([], "object"),
        ({"tile": "R1a"}, "type"),
        ({"type": "jump"}, "not an action type"),
        ({"type": "stop_now", "tile": "R1a"}, "keys"),
        ({"type": "lay", "tile": "R1a"}, "keys"),  # "to" is missing
        ({"type": "lay", "tile": "R1a", "to": 0, "x": 1}, "keys"),
        ({"type": "lay", "tile": 1, "to": 0}, "token"),
        ({"type": "put", "tiles": "R1b", "to": 0}, "list"),
        ({"type": "put", "tiles": ["R1b", 2], "to": 0}, "list"),
        ({"type": "lay", "tile": "R1a", "to": True}, "whole number"),
        ({"type": "lay", "tile": "R1a", "to": 0, "end": 3}, "end"),
    ],
)
def test_a_bad_json_form_is_refused_naming_the_problem(data: object, names: str) -> None:
    with pytest.raises(ParseError, match=names):
        TOY.action_from_json(data)


def test_check_refuses_foreign_and_malformed_actions() -> None:
    TOY.check(Lay(0, 0, None))
    TOY.check(Lay(0, 0, None))  # a second time from the checked set
    for bad in (Lay(9, 0, None), Lay(-1, 0, None), Lay(0, 7, None), Put((), 0), Put((5,), 0)):
        with pytest.raises(IllegalAction) as refused:
            TOY.check(bad)
        assert refused.value.code == MALFORMED_ACTION
    with pytest.raises(IllegalAction) as foreign:
        TOY.check(Draw())
    assert foreign.value.code == UNKNOWN_ACTION
    with pytest.raises(IllegalAction) as unhashable:
        TOY.check(Put([1], 0))  # type: ignore[arg-type]
    assert unhashable.value.code == MALFORMED_ACTION


def test_handlers_must_cover_exactly_the_actions() -> None:
    def handle(state: object, seat: int, action: object, events: list[object]) -> None:
        return None

    table = {Lay: handle, Put: handle, Stop: handle}
    assert TOY.handlers(table) == table
    with pytest.raises(TypeError, match="Stop"):
        TOY.handlers({Lay: handle, Put: handle})
    with pytest.raises(TypeError, match="Draw"):
        TOY.handlers({**table, Draw: handle})


def test_an_ambiguous_declaration_is_refused() -> None:
    with pytest.raises(TypeError, match="variable width"):
        Form("x", a=Pieces(TILE), b=Pieces(TILE))
    with pytest.raises(TypeError, match="ambiguous"):
        Form("x", a=Pieces(TILE), b=Optional(TILE))


def test_every_game_declares_its_actions_with_the_codec() -> None:
    for gid, package in GAME_MODULES.items():
        codec = importlib.import_module(f"{package}.actions").CODEC
        assert isinstance(codec, Codec) and codec.actions
        # One dispatch shape: apply runs the handler of the action's class.
        handlers = importlib.import_module(f"{package}.state")._HANDLERS
        assert set(handlers) == set(codec.actions), gid
        for cls in codec.actions:
            assert issubclass(cls, Coded), f"{gid}: {cls.__name__} is not declared"
        verbs = [cls.form.verb for cls in codec.actions]
        types = [cls.form.json_type for cls in codec.actions]
        assert len(set(verbs)) == len(verbs) and len(set(types)) == len(types), gid


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
    assert isinstance(action, Coded)
