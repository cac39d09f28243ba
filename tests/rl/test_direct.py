"""The direct encoders (``meldhall.rl.direct``) write exactly the arrays the JSON-based
layout (``meldhall.rl.observe``) reads from each seat's JSON observation: over seeded random
play of every game, at several seat counts and with the options that change what a seat
sees, every seat's array is compared at every step. Also: every phase and per-seat word the
JSON shows has its flag, and ``json_infos=False`` keeps the environments valid."""

from __future__ import annotations

import gc
import random
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from meldhall.core.engine import Action
from meldhall.rl import aec_env, single_agent_env
from meldhall.rl.actions import DECISION_CACHE_LIMIT, Decision
from meldhall.rl.direct.base import DirectEncoder
from meldhall.rl.direct.board import Board
from meldhall.rl.match import Match
from meldhall.rl.observe import Choice, SeatChoice
from meldhall.rl.specs import SPECS
from meldhall.terminal.board import lookup

CASES: list[tuple[str, int | None, dict[str, Any]]] = [
    ("okey", None, {}),
    ("okey", 2, {}),
    ("okey", 3, {"discard_visibility": "all"}),
    ("okey-ladder", None, {}),
    ("tile-rummy", None, {}),
    ("tile-rummy", 2, {}),
    ("remi", None, {}),
    ("remi", 3, {}),
    ("sichuan", None, {}),
    ("sichuan", None, {"exchange_three": True}),
    ("okey-cards", None, {}),
]
SEEDS = range(6)
EXTRA_SEEDS = {"sichuan": (37, 59)}
"""Seeds whose play (by type) reaches a rare position: a concealed kong on the table."""
STEPS = 250


def _pick(legal: tuple[Action, ...] | list[Action], rng: random.Random, by_type: bool) -> Action:
    """Return a random legal action, leaving out okey-cards' ``quit`` while another exists
    (it would end the game at once); ``by_type``: a random action type first, then one of
    its actions, so that rare moves (a concealed kong among thirteen discards, a meld) come
    up often."""
    keep = [a for a in legal if a.to_json().get("type") != "quit"] or list(legal)
    if by_type:
        kinds = sorted({str(a.to_json().get("type")) for a in keep})
        kind = kinds[rng.randrange(len(kinds))]
        keep = [a for a in keep if a.to_json().get("type") == kind]
    return keep[rng.randrange(len(keep))]


def _play(match: Match, seed: int) -> Any:
    """Yield after every random step of a match dealt from ``seed``."""
    match.reset(seed.to_bytes(4, "big"))
    rng = random.Random(seed)
    yield
    for _ in range(STEPS):
        if match.over():
            return
        seat = min(match.to_act())
        match.apply(seat, _pick(match.state.legal_actions(seat), rng, by_type=seed % 2 == 1))
        yield


@pytest.mark.parametrize(("game_id", "seats", "options"), CASES)
def test_direct_arrays_equal_the_json_layout(
    game_id: str, seats: int | None, options: dict[str, Any]
) -> None:
    match = Match(game_id, seats, **options)
    compared = 0
    for seed in (*SEEDS, *EXTRA_SEEDS.get(game_id, ())):
        for _ in _play(match, seed):
            for seat in range(match.seats):
                direct, by_json = match.observe(seat), match.observe_json(seat)
                if not np.array_equal(direct, by_json):
                    wrong = np.flatnonzero(direct != by_json)[:8].tolist()
                    layout = "; ".join(match.encoder.layout())
                    pytest.fail(
                        f"{game_id} seed {seed} seat {seat}: floats {wrong} differ ({layout})"
                    )
                compared += 1
    assert compared > 40 * match.seats


def test_the_direct_arrays_are_not_all_alike() -> None:
    """The comparison above is not between two empty arrays: pieces, numbers and the
    phase show in the direct array of a dealt Sichuan hand."""
    match = Match("sichuan")
    match.reset(b"seed")
    seat = min(match.to_act())
    array = match.observe(seat)[: match.encoder.size]
    at = {f.key: w for f, w in match.encoder.slices}
    assert array[at["hand"]].sum() == len(match.state.hands[seat])
    assert array[at["wall"]].item() == pytest.approx(match.state.wall_count / 108)
    assert array[at["phase"]].sum() == 1.0


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_every_word_the_json_shows_has_its_flag(game_id: str) -> None:
    """Each value a choice field meets in random play is one of its words (``over`` aside):
    a word list out of step with the engine would leave the flags silently at 0."""
    match = Match(game_id)
    fields = [f for f in match.spec.fields if isinstance(f, Choice | SeatChoice)]
    for seed in SEEDS:
        for _ in _play(match, seed):
            obs = match.view(0)
            for f in fields:
                value = lookup(obs, f.key)
                for v in value if isinstance(f, SeatChoice) else [value]:
                    assert v in (*f.words, None, "over"), f"{game_id}: {f.key} = {v!r}"


@pytest.mark.parametrize("game_id", ["sichuan", "remi"])
def test_env_without_json_infos_passes_the_checkers(game_id: str) -> None:
    env = aec_env(game_id, max_steps=150, json_infos=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env, num_cycles=150)
        check_env(single_agent_env(game_id, max_steps=100, json_infos=False))
    env.reset(seed=1)
    assert env.infos[env.agent_selection] == {}
    shown = aec_env(game_id)
    shown.reset(seed=1)
    assert shown.infos[shown.agent_selection]["observation"]["game"] == game_id
    _, info = single_agent_env(game_id, json_infos=False).reset(seed=1)
    assert set(info) == {"action_mask"}


def test_a_decision_made_again_from_the_same_legal_tuple_starts_afresh() -> None:
    match = Match("sichuan")
    match.reset(b"x")
    seat = min(match.to_act())
    legal = match.state.legal_actions(seat)
    first = Decision.of(match.vocab, legal)
    options, prefix = list(first.options()), list(first.prefix)
    assert len(options) > 1
    first.mask(len(match.vocab))[:] = 0
    assert first.after(options[-1]) is not None
    assert first.after(-1) is None
    assert id(legal) in match.vocab.decisions
    again = Decision.of(match.vocab, legal)
    assert list(again.prefix) == prefix and again.options() == options
    assert again.mask(len(match.vocab)).sum() == len(options)


def test_fresh_decisions_do_not_pile_up() -> None:
    """Decisions over fresh legal tuples (a hand's discards, new every turn) are not kept
    alive for long: after many matches of random play the live decision points stay
    within a bound (each one kept is work for every later garbage collection)."""
    env = aec_env("sichuan", json_infos=False, fresh_arrays=False)
    rng = random.Random(5)
    fresh = 0
    for seed in range(30):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            fresh += env.match.state.phase == "act"
            ids = obs["action_mask"].nonzero()[0]
            env.step(int(ids[rng.randrange(len(ids))]))
    gc.collect()
    alive = sum(1 for o in gc.get_objects() if type(o) is Decision)
    assert fresh > 1500
    assert alive < min(1000, 4 * DECISION_CACHE_LIMIT), (alive, fresh)


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_direct_scores_equal_the_json_scores(game_id: str) -> None:
    """The scores rewards are paid from, read from the state, equal the public JSON's at
    the game's score key at every step (hand ends included)."""
    match = Match(game_id)
    for seed in SEEDS:
        for _ in _play(match, seed):
            assert match.current_scores() == match.json_scores()


def _documented_layouts() -> dict[str, list[str]]:
    """Return, per game, the field rows of its table in docs/rl.md as ``layout()`` lines."""
    text = (Path(__file__).parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    out: dict[str, list[str]] = {}
    game = None
    for line in text.splitlines():
        if line.startswith("### "):
            game = line[4:].strip()
            out[game] = []
        row = re.match(r"^\| (\[\d+:\d+\]) \| (.*) \|$", line)
        if game is not None and row and "decision spelled" not in row.group(2):
            out[game].append(f"{row.group(1)} {row.group(2).replace('`', '')}")
    return out


def test_the_documented_layouts_are_the_layouts() -> None:
    documented = _documented_layouts()
    for game_id in sorted(SPECS):
        assert documented.get(game_id) == Match(game_id).encoder.layout(), game_id


@pytest.mark.parametrize("seed", range(4))
def test_sichuan_boards_equal_a_fresh_fill_under_random_reads(seed: int) -> None:
    """The kept boards (``SichuanDirect.array``) equal a fresh fill (``DirectEncoder.array``)
    whichever seats are read when: a seat read after many steps unread, reads across new
    matches, and reads of another state object (a hidden reshuffle) and back, with the
    decision section counting tokens spelled so far (one standing twice among them)."""
    match = Match("sichuan")
    rng = random.Random(seed)
    blank = match._blank

    spellings: list[list[int]] = [[], [5], [5, 40], [40, 40, 1], [2]]

    def check(seat: int) -> None:
        spelled = spellings[rng.randrange(len(spellings))]
        kept = match.direct.array(match.state, seat, blank, spelled)
        expected = DirectEncoder.array(match.direct, match.state, seat, blank, spelled)
        assert expected[match.encoder.size :].sum() == len(spelled)
        if not np.array_equal(kept, expected):
            wrong = np.flatnonzero(kept != expected)[:8].tolist()
            pytest.fail(f"seed {seed} seat {seat}: floats {wrong} differ")

    reads = 0
    for episode in range(3):
        for _ in _play(match, 100 * seed + episode):
            for seat in range(match.seats):
                if rng.random() < 0.3:
                    check(seat)
                    reads += 1
            if rng.random() < 0.05:
                original = match.state
                seat = rng.randrange(match.seats)
                match.state = original.shuffled_hidden(seat, rng)
                check(seat)
                match.state = original
                check(seat)
    assert reads > 100


@pytest.mark.parametrize("game_id", ["sichuan", "okey"])
def test_shared_arrays_pass_the_checker_and_equal_fresh_ones(game_id: str) -> None:
    """With ``fresh_arrays=False`` the env hands out read-only arrays that equal, at every
    step of a seeded random episode, what an env with fresh arrays gives; a fresh array
    read earlier keeps its values after later steps."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(aec_env(game_id, max_steps=150, fresh_arrays=False), num_cycles=150)
    shared = aec_env(game_id, max_steps=300, json_infos=False, fresh_arrays=False)
    fresh = aec_env(game_id, max_steps=300, json_infos=False)
    shared.reset(seed=3)
    fresh.reset(seed=3)
    rng = random.Random(3)
    first = fresh.last()[0]
    kept = {k: v.copy() for k, v in first.items()}
    steps = 0
    for agent in shared.agent_iter():
        obs, _, terminated, truncated, _ = shared.last()
        expected, *_ = fresh.last()
        assert fresh.agent_selection == agent
        for key in ("observation", "action_mask"):
            assert not obs[key].flags.writeable
            assert np.array_equal(obs[key], expected[key]), (agent, key, steps)
        with pytest.raises(ValueError):
            obs["observation"][0] = 1.0
        if terminated or truncated:
            shared.step(None)
            fresh.step(None)
            continue
        ids = obs["action_mask"].nonzero()[0]
        action = int(ids[rng.randrange(len(ids))])
        shared.step(action)
        fresh.step(action)
        steps += 1
    assert steps > 100
    assert all(np.array_equal(first[k], v) for k, v in kept.items())


@pytest.mark.parametrize("seed", range(3))
def test_a_board_block_shows_exactly_its_pieces_after_any_change(seed: int) -> None:
    """``Board.block`` flags exactly the pieces it is given, whatever the change from the
    last call: one piece appended, popped, inserted or removed in a sorted list, one piece
    added out of order, or several pieces changed at once."""
    rng = random.Random(seed)
    board = Board(np.zeros(40, dtype=np.float32), 1, ())
    pieces: list[int] = []
    for _ in range(400):
        spare = [p for p in range(30) if p not in pieces]
        move = rng.randrange(6)
        if move == 0 and spare:
            pieces = [*pieces, rng.choice(spare)]
        elif move == 1 and pieces:
            pieces = pieces[:-1]
        elif move == 2 and spare:
            pieces = sorted([*pieces, rng.choice(spare)])
        elif move == 3 and pieces:
            gone = rng.choice(pieces)
            pieces = sorted(p for p in pieces if p != gone)
        elif move == 4 and spare and pieces:
            pieces = [*pieces[:1], rng.choice(spare), *pieces[1:]]
        else:
            pieces = rng.sample(range(30), rng.randrange(12))
        board.block(0, 5, pieces)
        assert np.flatnonzero(board.array).tolist() == sorted(5 + p for p in pieces)
        assert sorted(board.blocks[0]) == sorted(pieces)
        assert board.blocks[0] is not pieces
