"""Match files: written by simulate, replayed, verified; a changed file names its first
differing action."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meldhall.bots.base import make_bot
from meldhall.cli import main
from meldhall.core.errors import ParseError
from meldhall.core.matchfile import MatchFile, check_file, from_json, record
from meldhall.core.rng import seed_from_text
from meldhall.games.registry import find_game, game_ids
from meldhall.simulate import play_match

GAMES = {gid: find_game(gid) for gid in game_ids()}


def recorded(game_id: str) -> MatchFile:
    """Return the match file of one whole seeded match between greedy bots."""
    game = GAMES[game_id]
    seats = game.default_seats
    seed = seed_from_text(f"matchfile {game_id}")
    run = play_match(game, [make_bot(game_id, "greedy") for _ in range(seats)], seed, record=True)
    return record(game, {}, seats, run.log, seed=seed)


@pytest.fixture(scope="module", params=["okey", "sichuan"])
def okey_file(request: pytest.FixtureRequest) -> MatchFile:
    return recorded(request.param)


def test_a_recorded_match_verifies_through_its_json(okey_file: MatchFile) -> None:
    file, game = from_json(json.loads(json.dumps(okey_file.to_json())), GAMES)
    result = check_file(file, game)
    assert result.ok, result.problem
    assert result.outcome == okey_file.outcome is not None
    assert len(file.checks) == len(file.log)


def test_a_changed_action_is_named(okey_file: MatchFile) -> None:
    data = okey_file.to_json()
    game = GAMES[data["game"]]
    # Swap two different actions of the log: the first of them no longer replays the same.
    log = data["log"]
    i = next(i for i in range(5, len(log) - 1) if log[i] != log[i + 1])
    log[i], log[i + 1] = log[i + 1], log[i]
    result = check_file(from_json(data, GAMES)[0], game)
    assert not result.ok
    assert result.action_index == i
    assert f"action {i} " in result.problem


def test_a_changed_digest_is_named(okey_file: MatchFile) -> None:
    data = okey_file.to_json()
    data["checks"][7] = "000000000000"
    result = check_file(from_json(data, GAMES)[0], GAMES[data["game"]])
    assert (result.ok, result.action_index) == (False, 7)
    assert "other events" in result.problem


def test_a_file_of_other_rules_is_refused_with_its_version(okey_file: MatchFile) -> None:
    data = okey_file.to_json()
    data["rules_version"] = 999
    result = check_file(from_json(data, GAMES)[0], GAMES[data["game"]])
    assert not result.ok and "rules version 999" in result.problem


def test_a_cut_short_log_does_not_verify(okey_file: MatchFile) -> None:
    data = okey_file.to_json()
    data["log"] = data["log"][:10]
    data["checks"] = data["checks"][:10]
    data["outcome"] = None
    result = check_file(from_json(data, GAMES)[0], GAMES[data["game"]])
    assert not result.ok
    assert "not over" in result.problem


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"seats": "four"}, "'seats'"),
        ({"seats": 9}, "played by"),
        ({"seed": "xyz"}, "'seed'"),
        ({"checks": [1, 2]}, "'checks'"),
        ({"format": "other/2"}, "format"),
        ({"rules_version": "2"}, "'rules_version'"),
    ],
)
def test_a_malformed_file_names_its_field(change: dict[str, object], named: str) -> None:
    data = {"game": "okey", "seats": 4, "seed": "00", "log": [], **change}
    with pytest.raises(ParseError, match=named):
        from_json(data, GAMES)


def test_simulate_saves_files_that_replay_and_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "files"
    assert main(["simulate", "okey-cards", "--games", "2", "--quiet", "--save", str(folder)]) == 0
    paths = sorted(folder.glob("*.json"))
    assert len(paths) == 2
    capsys.readouterr()
    assert main(["replay", str(paths[0])]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("Okey") and "seat 0" in shown and "hand over" in shown
    assert main(["verify", str(paths[0])]) == 0
    assert capsys.readouterr().out.startswith("verified: ")
    data = json.loads(paths[1].read_text())
    data["checks"][0] = "ffffffffffff"
    paths[1].write_text(json.dumps(data))
    assert main(["verify", str(paths[1])]) == 1
    assert "action 0 " in capsys.readouterr().out
