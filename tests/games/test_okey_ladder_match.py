"""Ladder Okey as a whole match: the deal, rounds, observations, and properties of random
play (no exception, invariants, every listed action legal and every other one rejected)."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from meldhall.bots.okey_ladder import BOTS
from meldhall.core.errors import IllegalAction
from meldhall.core.rng import derive, seed_from_text
from meldhall.games.okey.deal import canonical_deal
from meldhall.games.okey_ladder import GAME
from meldhall.games.okey_ladder.actions import Discard, LayOff, Meld, ReplaceJoker
from meldhall.games.okey_ladder.legal import meld_actions, rack_melds
from meldhall.games.okey_ladder.pieces import TOKEN, Jokers
from meldhall.games.okey_ladder.state import LadderState
from meldhall.simulate import play_match


def _bots_match(seed: str, bot: str = "random", **options: object) -> tuple[LadderState, list]:
    state = GAME.new_state(GAME.options(options or None), 4, seed_from_text(seed))
    bots = [BOTS[bot]() for _ in range(4)]
    rng = random.Random(seed)
    events = []
    while state.outcome() is None:
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        action = bots[seat].choose(state.observation(seat), legal, rng)
        assert action in legal
        events += state.apply(seat, action)
        state.check_invariants()
    return state, events


def test_the_deal_is_okeys_canonical_deal() -> None:
    seed = seed_from_text("deal")
    state = GAME.new_state(GAME.options(), 4, seed)
    first = state.first
    deal = canonical_deal(derive(seed, "hand", 1), 4, first)
    assert [sorted(deal.hand(s)) for s in range(4)] == state.racks
    assert state.jokers.indicator == deal.indicator
    assert list(reversed(state.wall)) == list(deal.wall)
    obs = state.observation(first)
    assert obs["phase"] == "act" and obs["to_act"] == [first] and obs["centre"] == 48
    assert [len(r) for r in state.racks] == [15 if s == first else 14 for s in range(4)]


def test_a_match_is_seven_rounds_with_the_first_player_rotating() -> None:
    state, events = _bots_match("seven rounds")
    overs = [e.public for e in events if e.kind == "hand_over"]
    assert [o["hand"] for o in overs] == list(range(1, 8))
    deals = [e.public for e in events if e.kind == "deal"]
    firsts = [d["first"] for d in deals]
    assert all((b - a) % 4 == 1 for a, b in itertools.pairwise(firsts))
    totals = [sum(o["round"][s] for o in overs) for s in range(4)]
    outcome = state.outcome()
    assert outcome is not None and list(outcome.scores) == totals == overs[-1]["totals"]
    assert min(totals) == min(outcome.scores[s] for s in outcome.winners)
    assert [e.kind for e in events][-1] == "match_over"
    assert state.to_act() == frozenset() and state.legal_actions(0) == ()
    for o in overs:
        assert [p + s for p, s in zip(o["penalties"], o["settlement"], strict=True)] == o["round"]


def test_rounds_option_and_explicit_first_player() -> None:
    _, events = _bots_match("short", rounds=2, first_player=3)
    deals = [e.public for e in events if e.kind == "deal"]
    assert len([e for e in events if e.kind == "hand_over"]) == 2 and deals[0]["first"] == 0


def test_observations_hide_other_racks_and_covered_discards() -> None:
    state = GAME.new_state(GAME.options(), 4, seed_from_text("hide"))
    bots = [BOTS["random"]() for _ in range(4)]
    rng = random.Random(3)
    for _ in range(90):
        seat = min(state.to_act())
        state.apply(
            seat, bots[seat].choose(state.observation(seat), state.legal_actions(seat), rng)
        )
    for viewer in [0, 1, 2, 3, None]:
        text = json.dumps(state.observation(viewer))
        hidden = list(state.wall)
        for s in range(4):
            if s != viewer:
                hidden += state.racks[s]
            if viewer is None or s not in (viewer, (viewer - 1) % 4):
                hidden += state.piles[s][:-1]
        for tile in hidden:
            assert f'"{TOKEN[tile]}"' not in text
        obs = state.observation(viewer)
        for s, pile in enumerate(obs["discards"]):
            assert pile["count"] == len(state.piles[s])
        assert obs["hand_counts"] == [len(r) for r in state.racks]
        if viewer is not None:
            assert obs["hand"] == [TOKEN[t] for t in state.racks[viewer]]
            assert len(obs["discards"][viewer]["tiles"]) == len(state.piles[viewer])
        else:
            assert obs["hand"] is None


def test_the_end_of_hand_reveals_the_settlement_not_the_racks() -> None:
    state, events = _bots_match("reveal", rounds=1)
    over = next(e for e in events if e.kind == "hand_over").public
    assert set(over) >= {"winner", "final_discard", "settlement", "lines", "tiles_left", "opened"}
    assert over["tiles_left"] == [len(r) for r in state.racks]
    text = json.dumps(state.observation(None))
    for s in range(4):
        for tile in state.racks[s]:
            assert f'"{TOKEN[tile]}"' not in text
    assert state.observation(0)["last_result"] == over and state.observation(0)["over"]


def test_simulation_with_checks_and_greedy_bots() -> None:
    bots = [BOTS["greedy"](), BOTS["random"](), BOTS["greedy"](), BOTS["random"]()]
    run = play_match(GAME, bots, seed_from_text("mixed"), check=True)
    assert run.outcome is not None and run.hands == 7 and run.events.get("opening", 0) > 0


# ---------------------------------------------------------------- properties


def _candidates(state: LadderState, seat: int) -> list[object]:
    """Return many well-formed actions, legal or not, for ``seat`` now."""
    rack = state.racks[seat]
    out: list[object] = [Discard(t) for t in rack]
    for size in (2, 3, 4):
        for tiles in itertools.combinations(rack, size):
            out += [Meld(k, tiles) for k in range(3)]
            out.append(Meld(0, tuple(reversed(tiles))))
    for combo in state.combos.values():
        for t in rack:
            out += [LayOff(t, combo.cid, end) for end in range(3)]
            for j in combo.tiles:
                out.append(ReplaceJoker(combo.cid, j, (t,)))
    return out


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(5, 160))
def test_listed_actions_are_exactly_the_legal_ones(seed: int, steps: int) -> None:
    state = GAME.new_state(GAME.options(), 4, derive(b"prop", seed))
    rng = random.Random(seed)
    bots = [BOTS["random"]() for _ in range(4)]
    for _ in range(steps):
        if state.outcome() is not None:
            return
        seat = min(state.to_act())
        state.apply(
            seat, bots[seat].choose(state.observation(seat), state.legal_actions(seat), rng)
        )
    seat = min(state.to_act())
    legal = set(state.legal_actions(seat))
    before = state.snapshot()
    for action in _candidates(state, seat):
        trial = state.copy()
        try:
            trial.apply(seat, action)
        except IllegalAction:
            assert action not in legal, f"{action} is listed but rejected"
        else:
            assert action in legal or _ascending(action) in legal, f"{action} is not listed"
    assert state.snapshot() == before


def _ascending(action: object) -> object:
    """Return a run given descending as the listing names it, low to high (6.1)."""
    if isinstance(action, Meld) and action.kind == 0:
        return Meld(0, action.tiles[::-1])
    return action


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_uniform_random_play_keeps_every_invariant(seed: int) -> None:
    state = GAME.new_state(GAME.options({"rounds": 2}), 4, derive(b"uniform", seed))
    rng = random.Random(seed)
    while state.outcome() is None:
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
        state.check_invariants()
    assert sum(state.totals) == sum(sum(row) for row in state.history)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 105), min_size=4, max_size=17, unique=True), st.data())
def test_incremental_meld_listing_matches_a_full_listing(
    tiles: list[int], data: st.DataObject
) -> None:
    indicator = data.draw(st.integers(0, 103).filter(lambda t: t not in tiles))
    state = GAME.new_state(GAME.options(), 4, b"melds")
    state.jokers = Jokers.of(indicator)
    base, extra = tiles[:-2], tiles[-2:]
    for rack in (base, base + extra[:1], base[1:] + extra, base[2:]):
        state.racks[0] = sorted(rack)
        full = meld_actions(sorted(rack), state.jokers.eff, state.jokers.okey, True, True, 14)
        assert list(rack_melds(state, 0)) == sorted(full, key=lambda m: (m.kind, m.tiles))
