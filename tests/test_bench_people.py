"""The people bench runs on a few accounts and prints every figure."""

from __future__ import annotations

import pytest

from meldhall.cli import main


def test_the_people_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "people", "--cases", "8", "--batches", "1"]) == 0
    out = capsys.readouterr().out
    for figure in ("argon2 hash", "rate a 4-account match", "leaderboard top 100 of 8"):
        assert figure in out
