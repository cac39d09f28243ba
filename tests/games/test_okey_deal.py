"""The canonical deal (okey.md 4.2) and the options (11): every tile placed once, the spare,
the indicator re-rolled off a false joker, 2-4 players, determinism, and option checks."""

from __future__ import annotations

import pytest

from meldhall.core.errors import OptionsError
from meldhall.core.rng import SeededStream, seed_from_text
from meldhall.games.okey import GAME
from meldhall.games.okey.deal import canonical_deal, deal_from_order
from meldhall.games.okey.options import PRESET, OkeyOptions


@pytest.mark.parametrize(("players", "wall"), [(4, 48), (3, 62), (2, 76)])
def test_okey_deal_sizes_and_every_tile_once(players: int, wall: int) -> None:
    for k in range(20):
        deal = canonical_deal(seed_from_text(f"deal {players} {k}"), players, k % players)
        assert len(deal.wall) == wall
        assert [len(deal.hand(s)) for s in range(players)] == [
            15 if s == k % players else 14 for s in range(players)
        ]
        everything = [deal.indicator, *deal.wall, *(t for h in deal.hands for t in h)]
        assert sorted(everything) == list(range(106))
        assert deal.indicator < 104, "the indicator is a numbered tile"
        assert deal.wall[-5:] == tuple(
            t
            for t in reversed(deal.order[deal.stack * 5 : deal.stack * 5 + 5] + deal.order[105:])
            if t != deal.indicator
        )


def test_okey_deal_is_a_function_of_the_seed() -> None:
    seed = seed_from_text("same")
    assert canonical_deal(seed, 4, 1) == canonical_deal(seed, 4, 1)
    assert canonical_deal(seed, 4, 1) != canonical_deal(seed_from_text("other"), 4, 1)
    stream_deal = canonical_deal(SeededStream(seed, "all"), 4, 1)
    assert sorted(stream_deal.order) == list(range(106))


def test_okey_deal_rerolls_d2_off_a_false_joker() -> None:
    order = list(range(106))
    order[21], order[104] = order[104], order[21]  # T[21] is a false joker
    deal = deal_from_order(order, 5, [2, 2, 6, 1], 4, first_player=0)
    assert deal.d2_rolls == (2, 2, 6, 1), "T[21] and the spare T[105] are false jokers"
    assert deal.indicator == order[20]
    # the false joker went back to its place: stack S read top to bottom ends the wall
    assert deal.wall[-5:] == (105, order[24], order[23], order[22], 104)


def test_okey_deal_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="each of the 106"):
        deal_from_order(range(105), 1, [1], 4, 0)
    with pytest.raises(ValueError, match="d2"):
        deal_from_order(range(106), 1, [], 4, 0)
    with pytest.raises(ValueError, match="parameters"):
        deal_from_order(range(106), 7, [1], 4, 0)


def test_okey_options_preset_is_the_spec_defaults() -> None:
    assert GAME.options() == PRESET == OkeyOptions()
    assert (PRESET.players, PRESET.start_points, PRESET.win_points) == (4, 20, (2, 4, 4))
    assert (PRESET.pairs_joker_points, PRESET.seven_pairs, PRESET.indicator_show) == (8, True, True)
    assert (PRESET.wrap_runs, PRESET.max_run, PRESET.full_run_wins_match) == ("okey", 14, False)
    assert (PRESET.colour_double, PRESET.wall_end) == (False, "take_only_to_win")
    assert (PRESET.discard_visibility, PRESET.elimination, PRESET.partnership) == (
        "pagat",
        False,
        False,
    )
    assert (PRESET.deal, PRESET.false_claim, PRESET.scoring) == ("canonical", "reject", "countdown")
    with pytest.raises(AttributeError):
        PRESET.players = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"players": 5}, "'players'"),
        ({"seven_pairs": "on"}, "'seven_pairs'"),
        ({"win_points": [2, 4]}, "'win_points'"),
        ({"start_points": 0}, "'start_points'"),
        ({"false_claim": "penalty(x)"}, "'false_claim'"),
        ({"partnership": True, "players": 3}, "'partnership'"),
        ({"partnership": True, "elimination": True}, "cannot both"),
        ({"elimination": True, "scoring": "countup"}, "'elimination'"),
        ({"full_run_wins_match": True, "max_run": 13}, "'full_run_wins_match'"),
        ({"explicit_indicator": "R4"}, "need 'deal'"),
        ({"deal": "explicit"}, "needs 'explicit_indicator'"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_okey_options_name_the_wrong_value(raw: dict[str, object], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        GAME.options(raw)


def test_okey_options_accept_spec_values() -> None:
    options = GAME.options(
        {"win_points": "3/6/6", "false_claim": "penalty(3)", "scoring": "countup", "players": 2}
    )
    assert options.win_points == (3, 6, 6) and options.false_claim_penalty == 3
    assert GAME.options({"win_points": [2, 4, 4]}).win_points == (2, 4, 4)


def test_okey_explicit_deal_checks_its_tiles() -> None:
    with pytest.raises(OptionsError, match="seat 0 needs 15"):
        GAME.options(
            {
                "deal": "explicit",
                "explicit_indicator": "R4",
                "explicit_hands": ["R1", "", "", ""],
            }
        )
    with pytest.raises(OptionsError, match=r"named twice|more than"):
        GAME.options(
            {
                "deal": "explicit",
                "explicit_indicator": "R4a",
                "explicit_hands": ["R4a", "", "", ""],
            }
        )
