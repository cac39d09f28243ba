"""Ladder Okey bots: they see only JSON observations and the legal actions; the random bot
still opens and lays off when it can; the greedy bot plays the best immediate move."""

from __future__ import annotations

import json
import random
from typing import Any

from meldhall.bots.base import make_bot, strongest_bot_name
from meldhall.bots.okey_ladder import BOTS
from meldhall.bots.okey_ladder_ceiling import SEARCHES_PER_TURN, LadderCeiling
from meldhall.core.engine import Bot
from meldhall.core.rng import seed_from_text
from meldhall.games.okey_ladder import GAME
from meldhall.games.okey_ladder.actions import Discard, LayOff, Recall
from meldhall.games.okey_ladder.position import build_position
from meldhall.games.okey_ladder.state import LadderState
from meldhall.simulate import play_match


def _choose(bot: Bot, state: LadderState, seed: int = 0) -> Any:
    seat = min(state.to_act())
    obs = json.loads(json.dumps(state.observation(seat)))
    action = bot.choose(obs, state.legal_actions(seat), random.Random(seed))
    assert action in state.legal_actions(seat)
    return action


def _play_turn(bot: Bot, state: LadderState) -> list[str]:
    """Let ``bot`` play until its turn ends; return its actions as text."""
    seat = min(state.to_act())
    done: list[str] = []
    while state.outcome() is None and seat in state.to_act():
        action = _choose(bot, state, len(done))
        done.append(str(action))
        state.apply(seat, action)
        if isinstance(action, Discard) and (seat not in state.to_act() or state.phase != "act"):
            break
    return done


def test_registry() -> None:
    assert set(BOTS) == {"random", "greedy", "strong"}
    assert strongest_bot_name("okey-ladder") == "strong"
    assert make_bot("okey-ladder", "random").needs_observation


def _opening_position() -> LadderState:
    return build_position(
        indicator="K2",
        racks=["R11 R12 R13 K9 Y9 B9 Y1 K5 B3", "B1 B2", "Y5 Y6", "K7 K8"],
    )


def test_random_bot_opens_when_it_can() -> None:
    for name in ("random", "greedy"):
        state = _opening_position()
        done = _play_turn(BOTS[name](), state)
        assert sorted(done[:2]) == ["meld run R11a R12a R13a", "meld set Y9a B9a K9a"], name
        assert state.observation(None)["opened"][0] == "series"


def test_random_bot_does_not_lay_an_opening_too_low() -> None:
    state = build_position(indicator="K2", racks=["R1 R2 R3 K9 Y9 B12", "B1", "Y5", "K7"])
    assert _play_turn(BOTS["random"](), state)[0].startswith("discard")


def test_random_bot_lays_off_when_it_can() -> None:
    state = build_position(
        indicator="K2",
        racks=["B3 Y12 K5", "B1 B2", "Y5 Y6", "K7 K8"],
        table=[(0, "set", "R9 Y9 K9"), (1, "run", "B4 B5 B6")],
        opened=["series", "series", "none", "none"],
    )
    action = _choose(BOTS["random"](), state)
    assert isinstance(action, LayOff) and str(action) == "layoff B3a 2 low"


def test_bots_avoid_fitting_discards_and_jokers() -> None:
    state = build_position(
        indicator="R4",
        racks=["R5 B7 Y12 K1", "B1 B2", "Y5 Y6", "K3 K8"],
        table=[(1, "run", "B4 B5 B6")],
        opened=["none", "series", "none", "none"],
    )
    for name in ("random", "greedy"):
        for seed in range(5):
            assert str(_choose(BOTS[name](), state, seed)) in ("discard Y12a", "discard K1a")


def test_a_pair_and_a_last_discard_finish_in_one_go() -> None:
    state = build_position(
        indicator="R4",
        racks=["R5 B7 Y12", "B1 B2", "Y5 Y6", "K3 K8"],
        table=[(1, "run", "B4 B5 B6")],
        opened=["none", "series", "none", "none"],
        options={"rounds": 1},
    )
    done = _play_turn(BOTS["random"](), state)
    assert len(done) == 2 and done[1].startswith("discard") and state.outcome() is not None


def test_bots_return_a_taken_tile_they_cannot_use() -> None:
    state = build_position(
        indicator="B2",
        racks=["R1 Y7", "B1 B5", "Y5 Y6", "K3 K12"],
        table=[(0, "run", "Y1 Y2 Y3")],
        opened=["series", "none", "none", "none"],
        phase="take",
        piles=["", "", "", "K10"],
    )
    state.apply(0, GAME.parse_action("take"))
    for name in ("random", "greedy"):
        assert str(_choose(BOTS[name](), state)) == "return"


def test_greedy_takes_a_discard_for_a_new_combination() -> None:
    state = build_position(
        indicator="B2",
        racks=["R10 Y10 Y1", "B1 B5", "Y5 Y6", "K3 K12"],
        table=[(0, "run", "R1 R2 R3")],
        opened=["series", "none", "none", "none"],
        phase="take",
        piles=["", "", "", "K10"],
    )
    greedy = BOTS["greedy"]()
    assert str(_choose(greedy, state)) == "take"
    state.apply(0, GAME.parse_action("take"))
    assert str(_choose(greedy, state)) == "meld set R10a Y10a K10a"
    state = build_position(
        indicator="B2",
        racks=["R10 Y10 Y1", "B1 B5", "Y5 Y6", "K3 K12"],
        table=[(0, "run", "R1 R2 R3")],
        opened=["series", "none", "none", "none"],
        phase="take",
        piles=["", "", "", "B13"],
    )
    assert str(_choose(BOTS["greedy"](), state)) == "draw"


def test_greedy_finishes_with_a_joker_and_in_one_go() -> None:
    state = build_position(
        indicator="R3",
        racks=["R5 Y5 R4", "B1 B5", "Y6 Y8", "K3 K12"],
        table=[(0, "run", "R6 R7 R8"), (1, "run", "Y2 Y3 Y4")],
        opened=["series", "series", "none", "none"],
        options={"rounds": 1},
    )
    done = _play_turn(BOTS["greedy"](), state)
    assert done[-1] == "discard R4a" and state.outcome() is not None
    hands = [
        "R1 R2 R3 Y1 Y2 Y3 K2 K3 K4 B1 B2 B3 B4 B5 K9",
        "R5 R6 R7 R8 Y5 Y6 Y7 Y8 B7 B8 B9 B10 K11 K12",
        "R11 R12 R13 Y11 Y12 Y13 B11 B12 B13 K5 K6 K7 K8 Y9",
        "R4 Y4 B6 K1 R1 R2 R3 Y1 Y2 Y3 K13 K10 B6 Y10",
    ]
    opts = GAME.options({"deal": "explicit", "indicator": "R9", "hands": hands, "rounds": 1})
    state = GAME.new_state(opts, 4, seed_from_text("one go"))
    done = _play_turn(BOTS["greedy"](), state)
    assert done[-1] == "discard K9a" and len(done) == 5 and state.outcome() is not None


def test_bots_play_whole_matches_with_checks() -> None:
    for names in (["random"] * 4, ["greedy"] * 4):
        bots = [BOTS[n]() for n in names]
        run = play_match(GAME, bots, seed_from_text("+".join(names)), check=True)
        assert run.outcome is not None and run.hands == 7
        assert run.events.get("opening", 0) >= 7


def test_greedy_beats_random() -> None:
    wins = 0
    for i in range(4):
        bots = [BOTS["greedy"](), BOTS["random"](), BOTS["greedy"](), BOTS["random"]()]
        if i % 2:
            bots = bots[1:] + bots[:1]
        run = play_match(GAME, bots, seed_from_text(f"duel {i}"), GAME.options({"rounds": 2}))
        assert run.outcome is not None
        greedy = [s for s in range(4) if isinstance(bots[s], BOTS["greedy"])]
        best = min(range(4), key=lambda s: run.outcome.scores[s])  # type: ignore[union-attr]
        wins += best in greedy
    assert wins >= 3


def test_a_new_greedy_bot_finishes_an_opening_laid_before_it() -> None:
    """A new bot in the middle of a turn (a ceiling's rollout) lays the rest of an opening
    it did not plan rather than discard it back into its hand."""
    state = _opening_position()
    state.apply(0, _choose(BOTS["greedy"](), state))
    assert state.laid_json() is not None and state.opened[0] == 0
    done = _play_turn(BOTS["greedy"](), state)
    assert done[-1].startswith("discard") and state.opened[0] != 0


def test_a_new_greedy_bot_recalls_an_opening_it_cannot_finish() -> None:
    state = _opening_position()
    state.apply(0, GAME.parse_action("meld set K9 Y9 B9"))
    state.apply(0, GAME.parse_action("recall"))
    state.apply(0, GAME.parse_action("meld run R11 R12 R13"))
    state.racks[0].remove(GAME.parse_action("discard K9").tile)  # the set can no longer be laid
    state.piles[0].append(GAME.parse_action("discard K9").tile)
    assert str(_choose(BOTS["greedy"](), state)) == "recall"


class _Recaller:
    """A strong bot stand-in that recalls whenever it may, else plays the first move."""

    needs_observation = True

    def choose(self, observation: Any, legal: tuple[Any, ...], rng: random.Random) -> Any:
        return next((a for a in legal if isinstance(a, Recall)), legal[0])


def test_the_ladder_ceiling_bounds_the_work_of_a_turn() -> None:
    """The full ceiling never weighs a recall while it may discard (a search could lay and
    recall without end); after a recall, or its share of decisions in a turn, the strong bot
    plays the rest of the turn."""
    state = _opening_position()
    state.apply(0, GAME.parse_action("meld run R11 R12 R13"))
    legal = state.legal_actions(0)
    obs = state.observation(0)
    assert any(isinstance(a, Recall) for a in legal) and any(isinstance(a, Discard) for a in legal)
    ceiling = LadderCeiling(_Recaller(), BOTS["greedy"], False, 3, None)
    for _ in range(SEARCHES_PER_TURN):
        assert not isinstance(ceiling.choose(obs, legal, random.Random(0)), Recall)
    assert isinstance(ceiling.choose(obs, legal, random.Random(0)), Recall)
    no_discard = tuple(a for a in legal if not isinstance(a, Discard))
    ceiling = LadderCeiling(_Recaller(), BOTS["greedy"], False, 3, None)
    assert isinstance(ceiling.choose(obs, no_discard, random.Random(0)), Recall)
    assert isinstance(ceiling.choose(obs, legal, random.Random(0)), Recall)
    later = {**obs, "turn": obs["turn"] + 1}
    assert not isinstance(ceiling.choose(later, legal, random.Random(0)), Recall)
