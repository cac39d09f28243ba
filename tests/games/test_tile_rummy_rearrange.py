"""REARRANGE (rules 7) as a property: every rearrangement the engine accepts leaves only valid
melds and moves no tile back to a rack; every rejected one changes nothing; every listed one
(the solver's) is accepted and places rack tiles."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldhall.core.errors import IllegalAction
from meldhall.games.tile_rummy.actions import Add, Meld, Rearrange
from meldhall.games.tile_rummy.melds import HIGH, LOW, Pool, assign, judge_any, templates
from meldhall.games.tile_rummy.pieces import SMILEY_A, parse_tile, tokens
from meldhall.games.tile_rummy.position import build_position
from meldhall.games.tile_rummy.solving import meld_rules, physical, rearranged
from meldhall.games.tile_rummy.state import TileRummyState


def random_position(rng: random.Random) -> TileRummyState:
    """Return a play-phase position: seat 0 and seat 1 own random valid melds, seat 0 holds
    tiles near them (many rearrangements possible)."""
    tiles = list(range(106))
    rng.shuffle(tiles)
    colour = rng.randrange(4)
    near = [t for t in tiles if t >= SMILEY_A or (t >> 1) // 13 == colour]
    pool_tiles = (near[:14] + tiles[:26])[:34]
    pool = Pool(list(dict.fromkeys(pool_tiles)))
    found = templates(pool, True)
    rng.shuffle(found)
    used: set[int] = set()
    melds: list[tuple[int, str, str]] = []
    for template in found[:40]:
        chosen = assign(template, pool)
        if used.isdisjoint(chosen) and len(melds) < 5:
            used.update(chosen)
            melds.append((0 if len(melds) < 3 else 1, template[0], " ".join(tokens(chosen))))
    free = [t for t in dict.fromkeys(pool_tiles) if t not in used]
    rack0 = free[: rng.randrange(3, 12)]
    rest = [t for t in range(106) if t not in used and t not in rack0]
    return build_position(racks=[" ".join(tokens(rack0)), " ".join(tokens(rest[:5]))], melds=melds)


def proposal(state: TileRummyState, rng: random.Random) -> Rearrange:
    """Return a rearrangement of seat 0's melds: the solver's, perturbed, or random."""
    own = [m for m in state.melds.values() if m.owner == 0]
    dissolve = rng.sample(own, rng.randrange(1, len(own) + 1)) if own else []
    table = [t for m in dissolve for t in m.tiles]
    rack = list(state.racks[0])
    hand = rng.sample(rack, rng.randrange(0, len(rack) + 1))
    groups: list[tuple[str, tuple[int, ...]]] = []
    faces = (
        tuple(sorted(-1 if t >= SMILEY_A else t >> 1 for t in table)),
        tuple(sorted(-1 if t >= SMILEY_A else t >> 1 for t in hand)),
    )
    mode = rng.randrange(3)
    try:
        solved = rearranged(faces[0], faces[1], meld_rules("writer", 10, True))
    except ValueError:
        solved = None
    if mode < 2 and solved:
        groups = physical(solved, table, hand, True) or []
    if not groups or mode == 2:
        mixed = table + hand
        rng.shuffle(mixed)
        groups = []
        while mixed:
            size = min(len(mixed), rng.randrange(3, 6))
            part, mixed = mixed[:size], mixed[size:]
            part.sort(key=lambda t: (t >= SMILEY_A, (t >> 1) % 13))
            groups.append(("run" if rng.random() < 0.5 else "set", tuple(part)))
    if mode == 1 and groups:
        kind, tiles = groups.pop(rng.randrange(len(groups)))
        cut = rng.randrange(len(tiles) + 1)
        groups.append((kind, tiles[:cut] + tiles[cut + 1 :]))
    feeds: list[Add] = []
    others = [m for m in state.melds.values() if m.owner != 0]
    if others and groups and rng.random() < 0.3:
        kind, tiles = groups.pop()
        target = rng.choice(others)
        feeds = [Add(t, target.id, rng.choice([LOW, HIGH, None])) for t in tiles[:1]]
        groups.append((kind, tiles[1:]))
    melds = tuple(Meld(kind, tiles) for kind, tiles in groups if tiles)
    return Rearrange(tuple(m.id for m in dissolve), melds, tuple(feeds))


def check_accepted(before: TileRummyState, after: TileRummyState, action: Rearrange) -> None:
    after.check_invariants()
    rack_before, rack_after = set(before.racks[0]), set(after.racks[0])
    assert rack_after <= rack_before, "a tile went back to the rack"
    assert rack_before - rack_after == set(action.placed()) - {
        t for m in action.dissolve for t in before.melds[m].tiles
    }
    for meld_id in action.dissolve:
        assert meld_id not in after.melds
        assert all(after.loc[t] == 6 for t in before.melds[meld_id].tiles)
    for meld in after.melds.values():
        assert judge_any(meld.tiles, True) is not None
    fed = {f.meld for f in action.feeds}
    for meld in before.melds.values():
        if meld.owner != 0 and meld.id not in fed:
            assert after.melds[meld.id].tiles == meld.tiles


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_accepted_rearrangements_keep_the_table_valid(seed: int) -> None:
    rng = random.Random(seed)
    state = random_position(rng)
    for _ in range(4):
        action = proposal(state, rng)
        before = state.snapshot()
        earlier = copy.deepcopy(state)
        try:
            state.apply(0, action)
        except IllegalAction:
            assert state.snapshot() == before
            continue
        if state.round != 1:
            return
        check_accepted(earlier, state, action)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_listed_rearrangements_apply_and_place_rack_tiles(seed: int) -> None:
    rng = random.Random(seed)
    state = random_position(rng)
    listed = [a for a in state.legal_actions(0) if isinstance(a, Rearrange)]
    for action in listed:
        trial = copy.deepcopy(state)
        rack = len(trial.racks[0])
        trial.apply(0, action)
        assert len(trial.racks[0]) < rack or trial.round == 2
        if trial.round == 1:
            check_accepted(state, trial, action)


def test_a_listed_split_inserts_a_rack_duplicate() -> None:
    state = build_position(racks=["R5b K9a", "B1a"], melds=[(0, "run", "R3a R4a R5a R6a R7a R8a")])
    (action,) = [a for a in state.legal_actions(0) if isinstance(a, Rearrange)]
    state.apply(0, action)
    assert sorted(tuple(tokens(m.tiles)) for m in state.melds.values()) == [
        ("R3a", "R4a", "R5a"),
        ("R5b", "R6a", "R7a", "R8a"),
    ]


def listed(state: TileRummyState) -> list[Rearrange]:
    return [a for a in state.legal_actions(0) if isinstance(a, Rearrange)]


def test_a_listed_set_member_joins_a_run() -> None:
    state = build_position(racks=["R6a R7a K9a", "B1a"], melds=[(0, "set", "R5a K5a Y5a B5a")])
    (action,) = listed(state)
    assert sorted(m.kind for m in action.melds) == ["run", "set"]
    state.apply(0, action)
    assert state.racks[0] == [parse_tile("K9a")]


def test_a_listed_run_end_joins_a_set_with_a_smiley() -> None:
    state = build_position(racks=["K8a Sa B1a", "B2a"], melds=[(0, "run", "R5a R6a R7a R8a")])
    (action,) = listed(state)
    state.apply(0, action)
    assert state.racks[0] == [parse_tile("B1a")]
    assert sorted(tuple(tokens(m.tiles)) for m in state.melds.values()) == [
        ("R5a", "R6a", "R7a"),
        ("R8a", "K8a", "Sa"),
    ]


def test_a_listed_smiley_is_freed_by_its_tile() -> None:
    state = build_position(racks=["R5b K9a Y9a B1a", "B2a"], melds=[(0, "run", "R4a Sa R6a")])
    (action,) = listed(state)
    state.apply(0, action)
    assert state.racks[0] == [parse_tile("B1a")]


def test_a_smiley_freed_by_rearranging_may_be_fed_to_another_players_meld() -> None:
    # Decision (docs/validation.md): the seed lets leftover tiles of a recombination be fed
    # to other players' melds and forbids only taking someone else's Smiley. Once fed, the
    # Smiley is in seat 1's meld, and seat 0 may not recombine it back.
    state = build_position(
        racks=["R6 Y1 B9", "Y2 Y3 Y4"],
        melds=[(0, "run", "R3 R4 R5 Sa"), (1, "run", "K7 K8 K9")],
    )
    run = Meld("run", tuple(parse_tile(t) for t in ("R3a", "R4a", "R5a", "R6a")))
    feed = Rearrange((1,), (run,), (Add(SMILEY_A, 2, HIGH),))
    state.apply(0, feed)
    assert SMILEY_A in state.melds[2].tiles and state.melds[2].owner == 1
    back = Rearrange((2,), (Meld("run", tuple(state.melds[2].tiles)),))
    before = state.snapshot()
    with pytest.raises(IllegalAction) as info:
        state.apply(0, back)
    assert info.value.code == "NOT_YOUR_MELD" and state.snapshot() == before
