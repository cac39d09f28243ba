"""The ``meldhall`` command line: exit codes and messages for bad input."""

from __future__ import annotations

import pytest

from meldhall.cli import main


def test_unknown_bench_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "nonsense"]) == 2
    assert "no bench named 'nonsense'" in capsys.readouterr().err


def test_unknown_game_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "chess", "--games", "1"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_missing_vector_file_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vectors", "/nonexistent/okey.json"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "0 passed, 1 failed"
