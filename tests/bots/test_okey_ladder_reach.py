"""Ladder Okey's strong bot (the reach bot): before opening it keeps the discard that leaves an
opening reachable over the coming draws, where the keep score alone would throw it."""

from __future__ import annotations

import json
import random

from meldhall.bots.okey_ladder import BOTS
from meldhall.bots.okey_ladder_reach import ReachBot, reach_counts
from meldhall.bots.okey_ladder_strong import StrongBot
from meldhall.core.engine import Bot
from meldhall.core.rng import seed_from_text
from meldhall.games.okey_ladder import GAME
from meldhall.games.okey_ladder.hints import ID_OF, ids, jokers_of
from meldhall.games.okey_ladder.position import build_position
from meldhall.games.okey_ladder.sample import unseen_tiles
from meldhall.games.okey_ladder.state import LadderState
from meldhall.simulate import play_match


def _near_opening() -> LadderState:
    """Seat 0, unopened, need 17: R11 R12 R13 (12) and Y9 B9 (an R9 or K9 makes 9 more);
    the loose Y12 opens nothing with one more tile, but the strong bot keeps it (high)."""
    return build_position(
        indicator="K2",
        racks=["R11 R12 R13 Y9 B9 Y12", "B1 B2", "Y5 Y6", "K7 K8"],
    )


def _discard(bot: Bot, state: LadderState, seed: int) -> str:
    obs = json.loads(json.dumps(state.observation(0)))
    action = bot.choose(obs, state.legal_actions(0), random.Random(seed))
    assert action in state.legal_actions(0)
    return str(action)


def test_the_strong_bot_is_the_reach_bot() -> None:
    assert type(BOTS["strong"]()) is ReachBot


def test_reach_counts_tell_a_live_discard_from_a_dead_one() -> None:
    obs = json.loads(json.dumps(_near_opening().observation(0)))
    jokers = jokers_of(obs)
    hand = ids(obs["hand"])
    faces = [jokers.eff[ID_OF[t]] for t in ("Y9a", "Y12a")]
    only_r9 = [ID_OF["R9a"]]
    counts = reach_counts(hand, faces, only_r9, jokers, (17, 26), random.Random(0), 5, 1)
    assert counts == [0, 5]


def test_reach_counts_add_the_futures_that_reach_a_raised_need() -> None:
    """With K9 and R10 drawn, the hand without Y12 makes R10-R13 (13) and Y9 B9 K9 (9): 22
    reaches the need 17 and a raised need of 22, not one of 23; without Y9 it makes 13."""
    obs = json.loads(json.dumps(_near_opening().observation(0)))
    jokers = jokers_of(obs)
    hand = ids(obs["hand"])
    faces = [jokers.eff[ID_OF[t]] for t in ("Y9a", "Y12a")]
    drawn = [ID_OF["K9a"], ID_OF["R10a"]]

    def counts(raised: list[tuple[int, int]]) -> list[int]:
        return reach_counts(hand, faces, drawn, jokers, (17, 26), random.Random(0), 5, 2, raised)

    assert counts([]) == [0, 5]
    assert counts([(22, 33)]) == [0, 10]
    assert counts([(23, 35)]) == [0, 5]
    assert counts([(22, 33), (23, 35)]) == [0, 10]


def test_unseen_tiles_leave_out_what_the_seat_sees() -> None:
    obs = json.loads(json.dumps(_near_opening().observation(0)))
    unseen = unseen_tiles(obs)
    assert len(unseen) == 106 - 6 - 1
    assert ID_OF["Y9a"] not in unseen and ID_OF["Y9b"] in unseen


def test_reach_bot_keeps_the_tiles_an_opening_needs() -> None:
    state = _near_opening()
    assert _discard(StrongBot(), state, 0) == "discard Y9a"
    for seed in range(3):
        assert _discard(ReachBot(samples=200, draws=1), state, seed) == "discard Y12a"


def test_reach_bot_plays_a_whole_match_with_checks() -> None:
    bots = [ReachBot(), StrongBot(), StrongBot(), StrongBot()]
    run = play_match(GAME, bots, seed_from_text("reach"), check=True)
    assert run.outcome is not None and run.hands == 7
