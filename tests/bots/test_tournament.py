"""``meldhall tournament``: duplicate deals with every rotation, and a well-formed summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meldhall.cli import main
from meldhall.games.registry import find_game
from meldhall.tournament import jobs_of, play_job, run_jobs, summarize


def test_every_bot_plays_every_seat_of_every_deal() -> None:
    jobs = jobs_of(find_game("sichuan"), ["greedy", "random", "random", "random"], 3, "t", {})
    assert len(jobs) == 12
    for deal in range(3):
        rotations = [j.seat_bots() for j in jobs if j.deal == deal]
        assert len({j.seed for j in jobs if j.deal == deal}) == 1
        for seat in range(4):
            assert sorted(r[seat] for r in rotations) == [0, 1, 2, 3]


def test_results_are_reported_by_line_up_entry() -> None:
    jobs = jobs_of(find_game("sichuan"), ["greedy", "random", "random", "random"], 1, "t", {})
    results = [play_job(j) for j in jobs]
    for r in results:
        assert sum(r.firsts) == pytest.approx(1.0)
        assert sum(r.ranks) == pytest.approx(10.0)
    again = play_job(jobs[2])
    assert (again.scores, again.ranks, again.decisions) == (
        results[2].scores,
        results[2].ranks,
        results[2].decisions,
    )


def test_summary_is_well_formed_and_greedy_beats_random() -> None:
    names = ["greedy", "random", "random", "random"]
    results = run_jobs(jobs_of(find_game("sichuan"), names, 4, "t", {}), workers=1)
    summary = summarize("sichuan", names, results, 1.0)
    assert summary["deals"] == 4 and summary["games"] == 16
    greedy, random_ = summary["bots"]
    assert (greedy["name"], greedy["seats"], random_["seats"]) == ("greedy", 1, 3)
    assert greedy["first_share"] + 3 * random_["first_share"] == pytest.approx(1.0)
    assert greedy["mean_rank"] + 3 * random_["mean_rank"] == pytest.approx(10.0)
    assert greedy["first_share"] > random_["first_share"]
    for bot in summary["bots"]:
        for key in ("first_share", "mean_rank", "mean_score"):
            lo, hi = bot[f"{key}_ci"]
            assert lo <= bot[key] <= hi
        assert set(bot["decision_ms"]) >= {"median", "p99", "max"}


def test_command_writes_the_json_object(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    args = ["tournament", "okey-cards", "--bots", "greedy", "--deals", "3", "--quiet"]
    assert main([*args, "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert set(data) >= {"game", "deals", "games", "bots"}
    assert data["games"] == 3 and data["bots"][0]["name"] == "greedy"


def test_a_line_up_of_the_wrong_size_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "sichuan", "--bots", "greedy", "--deals", "1"]) == 2
    assert "one bot per seat" in capsys.readouterr().err


def test_worker_processes_give_the_same_results_in_deal_order() -> None:
    jobs = jobs_of(find_game("okey-cards"), ["greedy"], 4, "t", {})
    alone, pooled = run_jobs(jobs, workers=1), run_jobs(jobs, workers=2)
    assert [(r.deal, r.scores) for r in pooled] == [(r.deal, r.scores) for r in alone]
