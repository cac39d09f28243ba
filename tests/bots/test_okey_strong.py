"""Okey's acceptance bot (bots/okey_strong.py): the unseen count, the accepting faces against
the brute-force definition, a discard the distance bot gets wrong."""

from __future__ import annotations

import random
from pathlib import Path

from meldhall.bots import okey_strong
from meldhall.bots.okey import StrongOkeyBot, distance
from meldhall.bots.okey_strong import AcceptanceOkeyBot, accepting_faces, unseen_faces
from meldhall.core.rng import seed_from_text
from meldhall.games.okey import GAME
from meldhall.games.okey.actions import DRAW, SHOW, TAKE, Discard, DiscardWin
from meldhall.games.okey.explicit import explicit_options
from meldhall.games.okey.hand import HandRules
from meldhall.games.okey.pieces import FACES, OKEY_TILE_IDS, face_name

RULES = HandRules(okey=OKEY_TILE_IDS["K3a"] >> 1)
"""The indicator K2: K3 is the okey."""


def tiles(text: str) -> list[int]:
    """Return the tile ids of space-separated tokens."""
    return [OKEY_TILE_IDS[t] for t in text.split()]


def lowering_faces(hand: list[int], rules: HandRules) -> set[int]:
    """Return by brute force the faces (not the okey) whose tile, drawn into ``hand``, lets
    one tile out leave it nearer a win."""
    now = distance(hand, rules)
    out = set()
    for face in range(FACES):
        tile = 2 * face if 2 * face not in hand else 2 * face + 1
        if face == rules.okey or tile in hand:
            continue
        for i in range(len(hand)):
            if distance([*hand[:i], *hand[i + 1 :], tile], rules) < now:
                out.add(face)
                break
    return out


def test_accepting_faces_are_the_faces_that_lower_the_distance_one_away() -> None:
    hand = tiles("R1a Y3a Y7a B7a K7a B10a B11a B12a B13a Y4a Y5a Y6a Y7b R13a")
    assert distance(hand, RULES) == 1
    got = accepting_faces(hand, RULES, 1)
    assert sorted(face_name(f) for f in got) == ["K13", "R12", "Y13"]
    assert got == lowering_faces(hand, RULES)
    rng = random.Random(7)
    base = tiles("R1a R2a R3a Y7a B7a K7a B10a B11a B12a B13a Y4a Y5a Y6a Y7b")
    checked = 0
    while checked < 6:
        hand = list(base)
        hand[rng.randrange(14)] = rng.choice([t for t in range(104) if t not in hand])
        now = distance(hand, RULES)
        if now == 1:
            assert accepting_faces(hand, RULES, 1) - {RULES.okey} == lowering_faces(hand, RULES)
            checked += 1


def test_unseen_faces_count_the_rack_and_the_indicator() -> None:
    state = GAME.new_state(
        GAME.options(explicit_options("K2a", {0: "R1a R1b Y5a Ja"})), 4, seed_from_text("unseen")
    )
    unseen = unseen_faces(state.observation(0), RULES.okey)
    assert unseen[OKEY_TILE_IDS["R1a"] >> 1] == 0
    assert unseen[OKEY_TILE_IDS["Y5a"] >> 1] == 1
    assert unseen[OKEY_TILE_IDS["K2a"] >> 1] == 1
    assert unseen[RULES.okey] == 1  # one false joker seen, the real jokers not counted
    assert unseen[OKEY_TILE_IDS["B9a"] >> 1] == 2


def test_acceptance_keeps_the_wider_wait_where_the_distance_bot_does_not() -> None:
    # one away either way: without R1 the hand waits on K13 and Y13 (4 tiles), without R2
    # it also waits on R12 (R12 R13 R1), 6 tiles
    hand = "R1a R2a Y3a Y7a B7a K7a B10a B11a B12a B13a Y4a Y5a Y6a Y7b R13a"
    state = GAME.new_state(
        GAME.options(explicit_options("K2a", {0: hand})), 4, seed_from_text("okey bots")
    )
    obs, legal = state.observation(0), state.legal_actions(0)
    assert StrongOkeyBot().choose(obs, legal, random.Random(1)) == Discard(OKEY_TILE_IDS["R1a"])
    assert AcceptanceOkeyBot().choose(obs, legal, random.Random(1)) == Discard(OKEY_TILE_IDS["R2a"])


def test_acceptance_bot_sees_only_the_observation() -> None:
    source = Path(okey_strong.__file__).read_text()
    assert "games.okey.state" not in source and "OkeyState" not in source


def test_acceptance_bot_shows_the_twin_and_takes_a_win() -> None:
    show = GAME.new_state(
        GAME.options(explicit_options("B8a", {0: "B8b"})), 4, seed_from_text("okey bots")
    )
    assert (
        AcceptanceOkeyBot().choose(show.observation(0), show.legal_actions(0), random.Random(1))
        == SHOW
    )
    hand = "R1a R2a R3a Y7a B7a K7a B10a B11a B12a B13a Y4a Y5a Y6a Y7b B5a"
    win = GAME.new_state(
        GAME.options(explicit_options("K2a", {0: hand})), 4, seed_from_text("okey bots")
    )
    action = AcceptanceOkeyBot().choose(win.observation(0), win.legal_actions(0), random.Random(1))
    assert action == DiscardWin(OKEY_TILE_IDS["B5a"])


def test_acceptance_takes_a_discard_that_widens_the_wait() -> None:
    # one away before and after: B9 makes B9 B10 B11, so the hand waits on more tiles
    hand = "R1a R2a R3a Y7a B7a K7a B10a B11a Y13b B13a Y4a Y5a Y6a Y7b"
    options = GAME.options(explicit_options("K2a", {0: "B9b", 1: hand}, dealer=3))
    state = GAME.new_state(options, 4, seed_from_text("okey bots"))
    state.apply(0, Discard(OKEY_TILE_IDS["B9b"]))
    obs, legal = state.observation(1), state.legal_actions(1)
    assert StrongOkeyBot().choose(obs, legal, random.Random(1)) == DRAW
    assert AcceptanceOkeyBot().choose(obs, legal, random.Random(1)) == TAKE
