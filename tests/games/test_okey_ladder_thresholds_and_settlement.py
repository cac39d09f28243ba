"""okey-ladder: options the audit (``scripts/option_audit.py``) found that no test set to
another value: the opening thresholds, the bases, the per-tile penalty and the winner's
credit. Each test fails when its option is ignored."""

from __future__ import annotations

from meldhall.games.okey_ladder import GAME
from meldhall.games.okey_ladder.scoring import NONE, SERIES, settle


def observed(raw: dict[str, object]) -> dict[str, object]:
    """Return the observation of seat 0 at the start of a match under ``raw`` options."""
    return GAME.new_state(GAME.options(raw), 4, b"ladder options").observation(0)


def test_first_threshold_and_pairs_factor_set_the_first_needs() -> None:
    assert (observed({})["need"], observed({})["pairs_need"]) == (17, 26)
    raised = observed({"first_threshold": 40})
    assert (raised["need"], raised["pairs_need"]) == (40, 60)
    doubled = observed({"pairs_factor": 2})
    assert (doubled["need"], doubled["pairs_need"]) == (17, 34)


def test_bases_set_the_hand_base_by_joker_colour() -> None:
    assert observed({})["base"] in (400, 500, 600, 800)
    small = {"R": 10, "K": 20, "Y": 30, "B": 40}
    assert observed({"bases": small})["base"] in (10, 20, 30, 40)


def test_tile_penalty_prices_the_tiles_left_without_a_winner() -> None:
    opened = [SERIES, SERIES, NONE, SERIES]
    default = settle(GAME.options({}), 600, None, opened, [3, 1, 0, 2]).amounts
    seven = settle(GAME.options({"tile_penalty": 7}), 600, None, opened, [3, 1, 0, 2]).amounts
    assert default == [30, 10, 600, 20]
    assert seven == [21, 7, 600, 14]


def test_winner_credit_is_the_winners_line() -> None:
    opened = [SERIES, SERIES, NONE, SERIES]
    tenth = settle(GAME.options({}), 600, 0, opened, [0, 1, 0, 2]).amounts
    fixed = settle(GAME.options({"winner_credit": 25}), 600, 0, opened, [0, 1, 0, 2]).amounts
    assert (tenth[0], fixed[0]) == (-60, -25)
    assert tenth[1:] == fixed[1:]
