"""The shape every game package shares (docs/architecture.md): the same modules with the same
roles, a complete declaration ``GAME``, and no game named anywhere outside ``games/`` and the
per-game bot modules."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from meldhall.core.engine import Bots, Game, Preview, TimeoutPolicy
from meldhall.games.registry import GAME_MODULES, find_game, game_ids

SRC = Path(__file__).resolve().parent.parent / "src" / "meldhall"

REQUIRED = frozenset(
    {
        "__init__",
        "game",
        "options",
        "pieces",
        "actions",
        "legal",
        "state",
        "view",
        "scoring",
        "vectors",
    }
)
"""The modules every game package has (their roles: docs/architecture.md)."""

OPTIONAL = frozenset({"deal", "position", "hints"})
"""Modules a package has when it needs them, always with the same role."""

SYNONYMS = frozenset(
    {"faces", "tiles", "cards", "tables", "views", "answers", "settlement", "reasons", "listing"}
)
"""Old names of required roles: a module with one of these names has drifted."""

NO_GAME_NAMES = ("core", "tables", "server", "store", "bots")
"""The layers that know no game by id (bots: outside the per-game bot modules)."""


def _package_dir(game_id: str) -> Path:
    return SRC / Path(*GAME_MODULES[game_id].split(".")[1:])


@pytest.mark.parametrize("game_id", game_ids())
def test_every_package_has_the_required_modules(game_id: str) -> None:
    modules = {p.stem for p in _package_dir(game_id).glob("*.py")}
    assert modules >= REQUIRED, f"{game_id} lacks {sorted(REQUIRED - modules)}"
    assert not modules & SYNONYMS, f"{game_id} has old module names {sorted(modules & SYNONYMS)}"


@pytest.mark.parametrize("game_id", game_ids())
def test_the_game_module_declares_everything_the_platform_reads(game_id: str) -> None:
    game: Game = importlib.import_module(f"{GAME_MODULES[game_id]}.game").GAME
    assert game is find_game(game_id)
    assert game.id == game_id and game.title
    assert game.rules_version >= 1
    assert 1 <= game.min_seats <= game.default_seats <= game.max_seats
    assert isinstance(game.bots, Bots) and game.bots.names
    assert game.bots.on_timeout in game.bots.names
    assert isinstance(game.preview, Preview) and game.preview.pieces
    assert isinstance(game.timeout, TimeoutPolicy)
    assert isinstance(game.higher_is_better, bool) and game.hand_result
    assert game.vector_kinds
    for name, raw in game.presets.items():
        assert isinstance(game.options(raw), game.options_type), name
    assert game.seating(1, game.default_seats) == [0]


def _constants(path: Path) -> list[tuple[int, str]]:
    """Return the string constants of a module that are code, not text (docstrings, whose
    statements are bare strings, are left out), with their lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    text = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in text
    ]


def test_no_layer_outside_games_names_a_game() -> None:
    ids = set(game_ids())
    bot_modules = {GAME_MODULES[g].rsplit(".", 1)[1] for g in game_ids()}
    found = []
    for layer in NO_GAME_NAMES:
        for path in sorted((SRC / layer).rglob("*.py")):
            if layer == "bots" and path.stem in bot_modules:
                continue
            found += [
                f"{path.relative_to(SRC)}:{line}: {text!r}"
                for line, text in _constants(path)
                if text.strip() in ids
            ]
    assert not found, "game ids outside games/:\n" + "\n".join(found)
