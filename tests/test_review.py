"""Reviews and hints: the strong bot judges a seat from its observation alone."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from meldhall.bots.base import make_bot
from meldhall.bots.search import Budget
from meldhall.cli import main
from meldhall.core.matchfile import MatchFile, record, start_state
from meldhall.core.rng import seed_from_text
from meldhall.games.registry import find_game, game_ids
from meldhall.review import hint, review_match
from meldhall.simulate import play_match

TINY = Budget(seconds=0.0, min_rounds=2, max_rounds=2)


def greedy_match(game_id: str, text: str) -> MatchFile:
    """Return the match file of one seeded match between greedy bots."""
    game = find_game(game_id)
    seed = seed_from_text(text)
    bots = [make_bot(game_id, "greedy") for _ in range(game.default_seats)]
    run = play_match(game, bots, seed, record=True)
    return record(game, {}, game.default_seats, run.log, seed=seed)


def test_a_review_judges_every_decision_with_a_choice() -> None:
    game = find_game("sichuan")
    file = greedy_match("sichuan", "review")
    review = review_match(file, game, 1, budget=TINY)
    state = start_state(file, game)
    expected = []
    for index, (seat, action) in enumerate(file.log):
        if seat == 1 and len(state.legal_actions(1)) > 1:
            expected.append((index, str(action)))
        state.apply(seat, action)
    assert [(d.step, d.played) for d in review.decisions] == expected
    for d in review.decisions:
        assert (d.loss == 0.0) if d.agrees else (d.loss is not None and d.worlds == 2)
    line = review.summary_line()
    assert line.startswith(f"review: {len(expected)} decisions, ")
    assert " % agree with " in line and ", biggest loss " in line
    assert json.loads(json.dumps(review.to_json()))["seat"] == 1


def test_meldhall_review_prints_the_summary_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "files"
    assert main(["simulate", "okey-cards", "--games", "1", "--quiet", "--save", str(folder)]) == 0
    path = next(folder.glob("*.json"))
    capsys.readouterr()
    out = tmp_path / "review.json"
    assert main(["review", str(path), "--seat", "0", "--quiet", "--json", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("review: ")
    assert json.loads(out.read_text())["decisions"]
    assert main(["review", str(path), "--seat", "3", "--quiet"]) == 2


@pytest.mark.parametrize("game_id", game_ids())
def test_a_hint_depends_on_the_observation_alone(game_id: str) -> None:
    """Two true states with the same observation give the same hint for the same rng."""
    game = find_game(game_id)
    state = game.new_state(game.options(), game.default_seats, seed_from_text("hint"))
    mover = random.Random(3)
    for step in range(30):
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        if step > 12 and len(legal) > 1:
            break
        state.apply(seat, mover.choice([a for a in legal if str(a) != "quit"] or legal))
    seat = min(state.to_act())
    other = state.shuffled_hidden(seat, random.Random(9))
    observation = state.observation(seat)
    assert other.observation(seat) == observation
    first = hint(game, observation, state.legal_actions(seat), random.Random(1), TINY)
    second = hint(game, other.observation(seat), other.legal_actions(seat), random.Random(1), TINY)
    assert first.to_json() == second.to_json()
    assert first.action in state.legal_actions(seat)
