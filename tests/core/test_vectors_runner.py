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
