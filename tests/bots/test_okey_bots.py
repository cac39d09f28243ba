"""The okey bots: legal choices only, wins taken, the most valuable win preferred, jokers
kept, and greedy beating random."""

from __future__ import annotations

import random
from pathlib import Path

from meldhall.bots.base import make_bot, strongest_bot_name
from meldhall.bots.okey import BOTS, GreedyOkeyBot, RandomOkeyBot, StrongOkeyBot, distance
from meldhall.core.rng import seed_from_text
from meldhall.games.okey import GAME
from meldhall.games.okey.actions import DRAW, SHOW, TAKE, Discard, DiscardWin
from meldhall.games.okey.explicit import explicit_options
from meldhall.games.okey.hand import HandRules
from meldhall.games.okey.pieces import OKEY_TILE_IDS
from meldhall.games.okey.state import OkeyState
from meldhall.games.registry import find_game
from meldhall.simulate import play_match

C1 = "R1a R2a R3a Y7a B7a K7a B10a B11a B12a B13a Y4a Y5a Y6a Y7b"


def state_of(raw: dict[str, object], **extra: object) -> OkeyState:
    """Return a new match from raw options."""
    options = GAME.options({**raw, **extra})
    return GAME.new_state(options, options.players, seed_from_text("okey bots"))


def choose(bot: object, state: OkeyState, seat: int) -> object:
    """Return the bot's choice for ``seat`` from its observation and the legal actions."""
    obs = state.observation(seat) if bot.needs_observation else {}  # type: ignore[attr-defined]
    return bot.choose(obs, state.legal_actions(seat), random.Random(1))  # type: ignore[attr-defined]


def test_okey_bots_registered() -> None:
    assert set(BOTS) >= {"random", "greedy", "strong"}
    assert isinstance(make_bot("okey", "greedy"), GreedyOkeyBot)
    assert strongest_bot_name("okey") == "strong"


def test_okey_bots_see_only_the_observation() -> None:
    source = Path(__import__("meldhall.bots.okey", fromlist=["x"]).__file__).read_text()
    assert "games.okey.state" not in source and "OkeyState" not in source


def test_okey_bots_always_choose_a_listed_action() -> None:
    game = find_game("okey")
    for name in ("random", "greedy", "strong"):
        bots = [make_bot("okey", name) for _ in range(4)]
        run = play_match(game, bots, seed_from_text(f"bots-{name}"), check=True)
        assert run.outcome is not None


def test_okey_bots_show_the_indicator_twin() -> None:
    state = state_of(explicit_options("B8a", {0: "B8b"}))
    for bot in (RandomOkeyBot(), GreedyOkeyBot(), StrongOkeyBot()):
        assert choose(bot, state, 0) == SHOW


def test_okey_bots_take_a_win() -> None:
    state = state_of(explicit_options("K2a", {0: C1 + " B5a"}))
    for bot in (RandomOkeyBot(), GreedyOkeyBot(), StrongOkeyBot()):
        assert choose(bot, state, 0) == DiscardWin(OKEY_TILE_IDS["B5a"])


def test_okey_greedy_prefers_the_joker_discard() -> None:
    # ind=K2: K3 is the okey; discarding it wins double, discarding B13 also wins (K3 = B13)
    state = state_of(explicit_options("K2a", {0: C1 + " K3a"}))
    wins = [a for a in state.legal_actions(0) if isinstance(a, DiscardWin)]
    assert len(wins) > 1
    assert choose(GreedyOkeyBot(), state, 0) == DiscardWin(OKEY_TILE_IDS["K3a"])


def test_okey_bots_do_not_claim_false_wins_under_penalty() -> None:
    state = state_of(explicit_options("K2a", {0: "K3a"}), false_claim="penalty(1)")
    for bot in (RandomOkeyBot(), GreedyOkeyBot()):
        action = choose(bot, state, 0)
        assert isinstance(action, Discard)
    greedy = choose(GreedyOkeyBot(), state, 0)
    assert greedy != Discard(OKEY_TILE_IDS["K3a"]), "greedy keeps its real joker"


def test_okey_greedy_takes_a_winning_discard() -> None:
    winner = "R1a R2a R3a Y7a B7a K7a B10a B11a B12a Y4a Y5a Y6a Y7b R9a"
    state = state_of(explicit_options("K2a", {0: "B13a", 1: winner}, dealer=3))
    state.apply(0, Discard(OKEY_TILE_IDS["B13a"]))
    assert choose(GreedyOkeyBot(), state, 1) == TAKE
    other = state_of(explicit_options("K2a", {0: "K13b", 1: winner}, dealer=3))
    other.apply(0, Discard(OKEY_TILE_IDS["K13b"]))
    assert choose(GreedyOkeyBot(), other, 1) == DRAW


def test_okey_greedy_beats_random() -> None:
    game = find_game("okey")
    wins = {"greedy": 0, "random": 0}
    names = ["greedy", "random", "greedy", "random"]
    for i in range(6):
        order = names if i % 2 == 0 else names[1:] + names[:1]
        bots = [make_bot("okey", n) for n in order]
        run = play_match(game, bots, seed_from_text(f"duel {i}"))
        assert run.outcome is not None
        for seat in run.outcome.winners:
            wins[order[seat]] += 1
    assert wins["greedy"] > wins["random"], wins


def test_okey_distance_counts_the_exchanges_to_a_win() -> None:
    rules = HandRules(okey=OKEY_TILE_IDS["K3a"] >> 1)
    won = [OKEY_TILE_IDS[t] for t in C1.split()]
    assert distance(won, rules) == 0
    one_off = [*won[:-1], OKEY_TILE_IDS["R9a"]]  # Y7b out, R9 in: one exchange from the win
    assert distance(one_off, rules) == 1


def test_okey_strong_discards_the_tile_that_keeps_a_win_nearest() -> None:
    # C1 with a stray R9: every other discard breaks a meld, R9 leaves the win
    state = state_of(explicit_options("K2a", {0: C1 + " R9a"}))
    action = choose(StrongOkeyBot(), state, 0)
    assert action in (DiscardWin(OKEY_TILE_IDS["R9a"]), Discard(OKEY_TILE_IDS["R9a"]))


def test_okey_strong_takes_only_a_discard_that_brings_it_nearer() -> None:
    near = "R1a R2a R3a Y7a B7a K7a B10a B11a B12a Y4a Y5a Y6a R9a K11a"
    state = state_of(explicit_options("K2a", {0: "B13a", 1: near}, dealer=3))
    state.apply(0, Discard(OKEY_TILE_IDS["B13a"]))  # B13 ends the blue run: nearer
    assert choose(StrongOkeyBot(), state, 1) == TAKE
    other = state_of(explicit_options("K2a", {0: "K13b", 1: near}, dealer=3))
    other.apply(0, Discard(OKEY_TILE_IDS["K13b"]))
    assert choose(StrongOkeyBot(), other, 1) == DRAW
