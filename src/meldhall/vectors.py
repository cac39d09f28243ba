"""The rule test-vector runner (VECTORS.md section 3), shared by ``meldhall vectors`` and pytest."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meldhall.core.errors import MeldhallError
from meldhall.games.registry import find_game, game_ids

REPO_VECTORS = Path(__file__).resolve().parents[2] / "vectors"
"""The repository's copy of the rule vectors (vectors/README.md says where they come from)."""

VECTOR_KEYS = frozenset({"id", "kind", "options", "input", "expect", "note"})


@dataclass(frozen=True)
class Vector:
    """One vector of a file, with where it came from."""

    file: str
    game: str
    data: Mapping[str, Any]

    @property
    def id(self) -> str:
        """Return the vector's id (or a placeholder when it has none)."""
        return str(self.data.get("id", "?"))


@dataclass(frozen=True)
class Result:
    """The failures of one vector (empty: passed)."""

    vector: Vector
    failures: tuple[str, ...]

    @property
    def passed(self) -> bool:
        """Return True when the vector passed."""
        return not self.failures


class VectorFileError(MeldhallError):
    """A vector file that does not parse or names an unknown game."""


def repo_vector_files() -> list[Path]:
    """Return the vector file of every registered game in the repository's ``vectors/``
    (``<game id>.json``), or raise ``VectorFileError`` naming a game whose file is absent."""
    files = [REPO_VECTORS / f"{game}.json" for game in game_ids()]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise VectorFileError(f"rule vector files missing: {', '.join(missing)}")
    return files


def load_file(path: str | Path) -> list[Vector]:
    """Return the vectors of one file, or raise ``VectorFileError``."""
    name = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise VectorFileError(f"{name}: cannot read: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("vectors"), list):
        raise VectorFileError(f'{name}: not {{"game": ..., "vectors": [...]}}')
    game = data.get("game")
    if game not in game_ids():
        raise VectorFileError(f"{name}: unknown game {game!r}")
    return [
        Vector(name, str(game), v if isinstance(v, dict) else {"_bad": v}) for v in data["vectors"]
    ]


def _normalise(value: Any, as_set: bool) -> Any:
    if as_set and isinstance(value, list):
        return sorted(value, key=lambda v: json.dumps(v, sort_keys=True))
    return value


def _equal(expected: Any, got: Any) -> bool:
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        return all(e is None or _equal(e, g) for e, g in zip(expected, got, strict=True))
    if isinstance(expected, dict) and isinstance(got, dict):
        return expected.keys() == got.keys() and all(_equal(expected[k], got[k]) for k in expected)
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(expected) is type(got) and expected == got
    return bool(type(expected) is type(got) and expected == got)


def check(vector: Vector) -> Result:
    """Return the result of asking the engine one vector's question."""
    v = vector.data

    def fail(reason: str) -> Result:
        return Result(vector, (f"{vector.file} {vector.id}: {reason}",))

    extra = set(v) - VECTOR_KEYS
    if extra:
        return fail(f"unknown keys {sorted(extra)}")
    for key in ("id", "kind", "input", "expect"):
        if key not in v:
            return fail(f"missing required key {key!r}")
    kind = v["kind"]
    game = find_game(vector.game)
    if kind not in game.vector_kinds:
        return fail(f"kind {kind!r} is not used by {vector.game}")
    if not isinstance(v["input"], dict) or not isinstance(v["expect"], dict):
        return fail("input and expect must be objects")
    try:
        options = game.options(v.get("options"))
        got = game.answer_vector(kind, v["input"], options)
    except MeldhallError as exc:
        return fail(str(exc))
    except Exception as exc:  # an engine crash fails the vector, with its reason
        return fail(f"engine raised {type(exc).__name__}: {exc}")
    sets = game.vector_kinds[kind]
    failures: list[str] = []
    for key, expected in v["expect"].items():
        if key not in got:
            failures.append(
                f"{vector.file} {vector.id} {key}: expected {json.dumps(expected)}, "
                "got nothing (not computed)"
            )
            continue
        e, g = _normalise(expected, key in sets), _normalise(got[key], key in sets)
        if not _equal(e, g):
            failures.append(
                f"{vector.file} {vector.id} {key}: "
                f"expected {json.dumps(expected)}, got {json.dumps(got[key])}"
            )
    return Result(vector, tuple(failures))


def run_files(paths: list[str]) -> Iterator[Result | str]:
    """Yield a ``Result`` per vector, or a message for a file that cannot be used."""
    for path in paths:
        try:
            vectors = load_file(path)
        except VectorFileError as exc:
            yield str(exc)
            continue
        seen: set[str] = set()
        for vector in vectors:
            if vector.id in seen:
                yield Result(vector, (f"{vector.file} {vector.id}: duplicate id",))
                continue
            seen.add(vector.id)
            yield check(vector)


def main(paths: list[str]) -> int:
    """Run vector files, print failures and ``N passed, M failed``; return the exit status."""
    passed = failed = 0
    for item in run_files(paths):
        if isinstance(item, str):
            print(item)
            failed += 1
        elif item.passed:
            passed += 1
        else:
            for line in item.failures:
                print(line)
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
