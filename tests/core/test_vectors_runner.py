"""The vector runner itself: bad files and bad vectors fail with a reason, comparisons follow
VECTORS.md section 3 (sets sorted, null entries not compared, exact types)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meldhall.vectors import _equal, main, run_files


def _write(tmp_path: Path, data: object, name: str = "v.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def test_unreadable_and_unknown_files_count_as_one_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = _write(tmp_path, "{not json", "broken.json")
    unknown = _write(tmp_path, {"game": "chess", "vectors": []}, "unknown.json")
    assert main([broken, unknown]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "cannot read" in out[0] and "unknown game 'chess'" in out[1]
    assert out[-1] == "0 passed, 2 failed"


@pytest.mark.parametrize(
    ("vector", "reason"),
    [
        ({"id": "X1", "kind": "hand", "input": {}, "expect": {}, "extra": 1}, "unknown keys"),
        ({"id": "X1", "kind": "hand", "input": {}}, "missing required key 'expect'"),
        ({"id": "X1", "kind": "meld", "input": {}, "expect": {}}, "kind 'meld' is not used"),
    ],
)
def test_malformed_vectors_fail_with_a_reason(
    tmp_path: Path, vector: dict[str, object], reason: str
) -> None:
    path = _write(tmp_path, {"game": "okey", "vectors": [vector]})
    (result,) = list(run_files([path]))
    assert not isinstance(result, str)
    assert not result.passed and reason in result.failures[0]


def test_comparison_rules() -> None:
    assert _equal([0, None, 2], [0, 5, 2])
    assert not _equal([0, 1], [0, 1, 2])
    assert not _equal(1, True)
    assert not _equal(2, 2.0)
    assert _equal({"a": [1]}, {"a": [1]})
    assert not _equal({"a": 1}, {"a": 1, "b": 2})


# ---------------------------------------------------------------- meld answers (VECTORS.md 4.1)

MELD_FIELDS = {
    "okey-ladder": {"valid", "type", "value", "jokers"},
    "tile-rummy": {"valid", "type", "value", "jokers"},
    "remi": {"valid", "type", "value", "jokers", "closed"},
    "okey-cards": {"valid", "type", "value", "jokers"},
}
"""The expect fields 4.1 defines for a valid meld of each game (remi also ``closed``)."""


def _meld(game_id: str, data: dict[str, object]) -> dict[str, object]:
    from meldhall.games.registry import find_game

    game = find_game(game_id)
    return dict(game.answer_vector("meld", data, game.options()))


@pytest.mark.parametrize(
    ("game_id", "tiles"),
    [
        ("okey-ladder", "R5 R6 R7"),
        ("tile-rummy", "R5 R6 R7"),
        ("remi", "5H 6H 7H"),
        ("okey-cards", "R1 Y2 B3"),
    ],
)
def test_a_meld_answer_has_every_field_and_a_wrong_size_is_invalid(
    game_id: str, tiles: str
) -> None:
    got = _meld(game_id, {"tiles": tiles})
    assert MELD_FIELDS[game_id] <= set(got) and got["valid"] is True
    assert got["jokers"] == []
    for wrong in (tiles.split()[0], " ".join(tiles.split()[:2])):
        assert _meld(game_id, {"tiles": wrong})["valid"] is False


@pytest.mark.parametrize(
    ("game_id", "data", "jokers"),
    [
        ("okey-ladder", {"tiles": "R5 Y5 B5 R4a*", "indicator": "R3", "declare": ["?5"]}, ["K5"]),
        ("okey-ladder", {"tiles": "R5 Y5 R4a*", "indicator": "R3", "declare": ["?5"]}, ["?5"]),
        ("okey-ladder", {"tiles": "R5 Y5 R4a*", "indicator": "R3", "declare": ["B5"]}, ["B5"]),
        ("tile-rummy", {"tiles": "R5 Y5 B5 S", "declare": ["?5"]}, ["K5"]),
        ("tile-rummy", {"tiles": "R5 Y5 S", "declare": ["?5"]}, ["?5"]),
        ("remi", {"tiles": "5H 5S 5D JK", "declare": ["5?"]}, ["5C"]),
        ("remi", {"tiles": "5H 5S JK", "declare": ["5?"]}, ["5?"]),
    ],
)
def test_a_declared_open_identity_is_accepted(
    game_id: str, data: dict[str, object], jokers: list[str]
) -> None:
    # VECTORS.md 2: "?" stands for a colour or suit the declaration leaves open.
    got = _meld(game_id, data)
    assert got["valid"] is True and got["jokers"] == jokers
