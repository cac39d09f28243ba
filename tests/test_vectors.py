"""Every rule vector file (repo and ../shared/vectors) through the runner of ``meldhall vectors``:
one test per vector, id ``<game>:<id>``."""

from __future__ import annotations

import pytest

from meldhall.vectors import Result, Vector, check, load_file
from tests.conftest import vector_files


def _vectors() -> list[Vector]:
    out: list[Vector] = []
    for path in vector_files():
        out += load_file(path)
    return out


VECTORS = _vectors()


@pytest.mark.parametrize(
    "vector", VECTORS, ids=[f"{v.game}:{v.id}@{v.file.rsplit('/', 2)[-2]}" for v in VECTORS]
)
def test_vector(vector: Vector) -> None:
    result: Result = check(vector)
    assert result.passed, "\n".join(result.failures)


def test_vector_files_exist() -> None:
    assert VECTORS, "no vector files found"
