"""Every rule vector file of the repository (``vectors/``) through the runner of ``meldhall
vectors``: one test per vector, id ``<game>:<id>``. A registered game without its vector file
fails the collection (``repo_vector_files`` raises), never skips."""

from __future__ import annotations

from pathlib import Path

import pytest

from meldhall.games.registry import find_game, game_ids
from meldhall.vectors import (
    REPO_VECTORS,
    Result,
    Vector,
    VectorFileError,
    check,
    load_file,
    repo_vector_files,
)


def _vectors() -> list[Vector]:
    out: list[Vector] = []
    for path in repo_vector_files():
        out += load_file(path)
    return out


VECTORS = _vectors()


@pytest.mark.parametrize("vector", VECTORS, ids=[f"{v.game}:{v.id}" for v in VECTORS])
def test_vector(vector: Vector) -> None:
    result: Result = check(vector)
    assert result.passed, "\n".join(result.failures)


@pytest.mark.parametrize("game", game_ids())
def test_every_game_has_vectors_of_its_declared_kinds(game: str) -> None:
    kinds = {v.data.get("kind") for v in VECTORS if v.game == game}
    assert kinds, f"no vectors for {game} in {REPO_VECTORS}"
    assert kinds <= set(find_game(game).vector_kinds)


def test_a_missing_vector_file_is_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("meldhall.vectors.REPO_VECTORS", tmp_path)
    with pytest.raises(VectorFileError, match="rule vector files missing"):
        repo_vector_files()
