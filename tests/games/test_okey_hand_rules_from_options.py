"""okey: the hand-shape options reach a match through its options object (found untested by
``scripts/option_audit.py``: the hand tests build the solver's rules directly). Each test
fails when its option is ignored."""

from __future__ import annotations

from meldhall.core.rng import seed_from_text
from meldhall.games.okey import GAME
from meldhall.games.okey.actions import DiscardWin
from meldhall.games.okey.explicit import explicit_options
from meldhall.games.okey.pieces import OKEY_TILE_IDS
from meldhall.games.okey.state import OkeyState

SEED = seed_from_text("okey hand options")


def first_hand(indicator: str, hand: str, **extra: object) -> OkeyState:
    """Return a match in which seat 0 holds ``hand`` (15 tiles) and acts first."""
    options = GAME.options({**explicit_options(indicator, {0: hand}), **extra})
    return GAME.new_state(options, options.players, SEED)


def wins(state: OkeyState, tile: str) -> bool:
    """Return True when discarding ``tile`` to win is listed for seat 0."""
    return DiscardWin(OKEY_TILE_IDS[tile]) in state.legal_actions(0)


def test_seven_pairs_off_lists_no_pairs_win() -> None:
    pairs = "R3a R3b Y8a Y8b K11a K11b B1a B1b R12a R12b Y5a Y5b K2a K2b"
    assert wins(first_hand("B6a", pairs + " B9a"), "B9a")
    assert not wins(first_hand("B6a", pairs + " B9a", seven_pairs=False), "B9a")


def test_wrap_runs_none_lists_no_win_with_12_13_1() -> None:
    hand = "Y12a Y13a Y1a R5a R6a R7a B9a Y9a K9a K4a K5a K6a K7a K8a B3a"
    assert wins(first_hand("K2a", hand), "B3a")
    off = first_hand("K2a", hand, wrap_runs="none", max_run=13)
    assert not wins(off, "B3a")


def test_max_run_13_reads_fourteen_in_a_row_as_no_full_run() -> None:
    hand = "Y1a Y2a Y3a Y4a Y5a Y6a Y7a Y8a Y9a Y10a Y11a Y12a Y13a Y1b R7a"
    long = first_hand("K13a", hand)
    short = first_hand("K13a", hand, max_run=13)
    events_long = long.apply(0, DiscardWin(OKEY_TILE_IDS["R7a"]))
    events_short = short.apply(0, DiscardWin(OKEY_TILE_IDS["R7a"]))
    full = [next(e for e in ev if e.kind == "hand_over").public["full_run"]
            for ev in (events_long, events_short)]  # fmt: skip
    assert full == [True, False]


def test_explicit_dealer_decides_who_holds_fifteen_and_acts_first() -> None:
    for dealer, first in ((None, 0), (1, 2), (2, 3)):
        options = GAME.options(explicit_options("B6a", {}, dealer=dealer))
        state = GAME.new_state(options, options.players, SEED)
        assert state.to_act() == frozenset({first}), dealer
        assert len(state.hands[first]) == 15
