"""Single combinations (okey-ladder.md 6) and the listing of every MELD of a rack, checked
against a brute force over the rack's subsets and orders."""

from __future__ import annotations

import itertools
import random

import pytest

from meldhall.core.tiles import parse_okey_many
from meldhall.games.okey_ladder.actions import Meld
from meldhall.games.okey_ladder.combos import COMBO_IDS, PAIR, RUN, SET, shape
from meldhall.games.okey_ladder.legal import meld_actions, melds_with
from meldhall.games.okey_ladder.pieces import Jokers


def _brute(rack: list[int], jokers: Jokers, largest: int) -> set[Meld]:
    out: set[Meld] = set()
    for size in range(2, largest + 1):
        for tiles in itertools.combinations(rack, size):
            for kind in (SET, PAIR):
                if shape(kind, tiles, jokers.eff, jokers.okey) >= 0:
                    out.add(Meld(kind, tiles))
            for order in set(itertools.permutations(tiles)):
                if shape(RUN, order, jokers.eff, jokers.okey) >= 0:
                    out.add(Meld(RUN, order))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_listing_equals_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    indicator = rng.randrange(104)
    jokers = Jokers.of(indicator)
    pool = [t for t in range(106) if t != indicator and t not in jokers.real]
    rack = sorted(rng.sample(pool, 9) + list(jokers.real[: seed % 3]))
    listed = meld_actions(rack, jokers.eff, jokers.okey, True, True, 5)
    assert len(set(listed)) == len(listed)
    assert set(listed) == _brute(rack, jokers, 5)
    for tile in rack:
        if jokers.eff[tile] >= 0:
            full = {m for m in meld_actions(rack, jokers.eff, 0, True, True, 13) if tile in m.tiles}
            assert set(melds_with(tile, rack, jokers.eff)) == full


def test_dense_rack_with_both_copies_and_jokers() -> None:
    jokers = Jokers.of(parse_okey_many("K2")[0].id)
    rack = sorted(t.id for t in parse_okey_many("R3 R3 R4 R4 R5 R6 Y5 B5 K3 K3"))
    listed = meld_actions(rack, jokers.eff, jokers.okey, True, True, 5)
    assert set(listed) == _brute(rack, jokers, 5)


def test_combination_ids_stay_in_the_codec_range_however_long_the_hand() -> None:
    """Melding and recalling spends an id a combination (a stuck hand repeats it without
    end): once the ids reach the top of the codec's range, a new combination takes the
    smallest id the table does not hold, so every listed move still parses back."""
    from meldhall.bots.base import make_bot
    from meldhall.games.registry import find_game

    game = find_game("okey-ladder")
    state = game.new_state(game.options({}), 4, b"ids past the range")
    state.next_cid = COMBO_IDS - 1  # as if thousands of combinations had been laid and recalled
    bots = [make_bot("okey-ladder", "greedy") for _ in range(4)]
    rng = random.Random(7)
    held: set[int] = set()
    while state.hand_no == 1:
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        for action in legal:
            assert game.action_from_json(action.to_json()) == action
            assert game.parse_action(str(action)) == action
        held.update(state.combos)
        assert list(state.combos) == sorted(state.combos)  # the table in id order
        state.apply(seat, bots[seat].choose(state.observation(seat), legal, rng))
        state.check_invariants()
    assert {COMBO_IDS - 1, COMBO_IDS, 1, 2} <= held
    assert max(held) == COMBO_IDS
