"""Sichuan's fast ``apply`` of an action object the state itself listed (no re-check) is
the checked apply: over seeded random play, two states fed the same actions, one through
``apply`` with the listed objects and one through ``checked_apply`` with equal copies
parsed from their text, give the same events and snapshots at every step; and an action
that was listed before the last apply is checked again, not waved through."""

from __future__ import annotations

import random

import pytest

from meldhall.core.errors import IllegalAction
from meldhall.games.sichuan.actions import PASS, parse_action
from meldhall.games.sichuan.options import SichuanOptions
from meldhall.games.sichuan.state import SichuanState

OPTION_SETS = [{}, {"exchange_three": True, "deals": 2}]


def _options(values: dict[str, object]) -> SichuanOptions:
    from meldhall.games.registry import find_game

    return find_game("sichuan").options(values)  # type: ignore[no-any-return]


@pytest.mark.parametrize("values", OPTION_SETS)
@pytest.mark.parametrize("seed", range(6))
def test_listed_apply_equals_the_checked_apply(values: dict[str, object], seed: int) -> None:
    options = _options(values)
    fast = SichuanState(options, seed.to_bytes(2, "big"))
    checked = SichuanState(options, seed.to_bytes(2, "big"))
    rng = random.Random(seed)
    steps = 0
    while fast.outcome() is None:
        seat = min(fast.to_act())
        legal = fast.legal_actions(seat)
        # by type first, so that rare moves (kongs, wins, pungs) come up often
        kinds = sorted({type(a).__name__ for a in legal})
        kind = kinds[rng.randrange(len(kinds))]
        pick = [a for a in legal if type(a).__name__ == kind]
        action = pick[rng.randrange(len(pick))]
        copy = parse_action(str(action))
        assert copy == action
        assert fast.apply(seat, action) == checked.checked_apply(seat, copy)
        assert fast.snapshot() == checked.snapshot()
        assert fast.to_act() == checked.to_act()
        steps += 1
    assert checked.outcome() == fast.outcome()
    assert steps > 50


def test_an_action_listed_before_the_last_apply_is_checked_again() -> None:
    state = SichuanState(_options({}), b"stale")
    seat = min(state.to_act())
    first = state.legal_actions(seat)[0]
    state.apply(seat, first)
    with pytest.raises(IllegalAction):
        state.apply(seat, first)  # this seat has declared: it may not act again now
    assert seat not in state.to_act()


def test_an_unlisted_action_takes_the_checked_path() -> None:
    state = SichuanState(_options({}), b"unlisted")
    seat = min(state.to_act())
    with pytest.raises(IllegalAction):
        state.apply(seat, PASS)  # no claim window is open
