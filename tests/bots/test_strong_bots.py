"""The strong bots of okey-ladder, tile-rummy, remi and sichuan: what each judges better
than greedy (live partners, the public pile, danger, the value of a wait), and that each
plays whole matches with listed actions from the JSON observation alone."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

from meldhall.bots import ceiling as ceiling_module
from meldhall.bots.base import make_bot, strongest_bot_name
from meldhall.bots.ceiling import (
    DeckSolver,
    FeedlessCeiling,
    OkeyCardsPerfect,
    SichuanDefence,
    ceiling_bot,
    feeds,
    is_discard,
    opponents_waits,
)
from meldhall.bots.okey_ladder_strong import usefulness
from meldhall.bots.remi_feed import partner_pairs, take_chance
from meldhall.bots.remi_strong import live_partners
from meldhall.bots.sichuan_flush import wait_value
from meldhall.bots.tile_rummy import _View as RummyView
from meldhall.bots.tile_rummy_strong import StrongBot as RummyStrong
from meldhall.bots.tile_rummy_strong import _completions
from meldhall.core.errors import MeldhallError
from meldhall.core.rng import derive
from meldhall.games.okey_cards.pieces import CARD_IDS
from meldhall.games.okey_ladder.hints import FACE_INDEX, ID_OF
from meldhall.games.okey_ladder.pieces import WILD
from meldhall.games.registry import find_game, game_ids
from meldhall.games.remi.actions import DRAW_STOCK
from meldhall.games.remi.actions import Discard as RemiDiscard
from meldhall.games.remi.melds import RunRules
from meldhall.games.remi.pieces import TOKEN, parse_card_list
from meldhall.games.sichuan.actions import Discard as SichuanDiscard
from meldhall.games.sichuan.hand import counts_of
from meldhall.games.sichuan.pieces import KIND_OF
from meldhall.games.tile_rummy.pieces import parse_tile
from meldhall.simulate import play_match

GAMES = ["okey-ladder", "tile-rummy", "remi", "sichuan"]


@pytest.mark.parametrize("game_id", GAMES)
def test_strong_is_the_strongest_and_plays_a_whole_match(game_id: str) -> None:
    assert strongest_bot_name(game_id) == "strong"
    game = find_game(game_id)
    bots = [make_bot(game_id, "strong" if s % 2 == 0 else "greedy") for s in range(4)]
    run = play_match(game, bots, derive(b"strong-bots", game_id), check=True)
    assert run.outcome is not None


@pytest.mark.parametrize("game_id", GAMES)
def test_strong_needs_only_the_json_observation(game_id: str) -> None:
    game = find_game(game_id)
    state = game.new_state(game.options(), 4, derive(b"strong-json", game_id))
    bot, rng = make_bot(game_id, "strong"), random.Random(2)
    for _ in range(400):
        if state.outcome() is not None:
            break
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        action = bot.choose(json.loads(json.dumps(state.observation(seat))), legal, rng)
        assert action in legal
        state.apply(seat, action)


def test_remi_counts_only_live_partners() -> None:
    hand = parse_card_list("7H 7S KD")
    unseen = [2] * 52
    live = live_partners(hand, unseen)
    assert live[hand[0]] == 4 and live[hand[2]] == 0  # 7D and 7C twice each; KD alone
    diamond, club = parse_card_list("7D 7C")
    unseen[diamond >> 1] = 0
    unseen[club >> 1] = 0
    assert live_partners(hand, unseen)[hand[0]] == 0  # every third seven is seen


def test_remi_runs_count_both_ends_and_the_ace_high() -> None:
    hand = parse_card_list("QH KH")
    ace, jack = parse_card_list("AH JH")
    unseen = [2] * 52
    assert live_partners(hand, unseen)[hand[0]] == 4
    unseen[ace >> 1] = 0
    assert live_partners(hand, unseen)[hand[0]] == 2
    unseen[jack >> 1] = 0
    assert live_partners(hand, unseen)[hand[0]] == 0


def test_remi_take_chance_reads_the_next_players_known_cards_and_both_aces() -> None:
    seven, ace = parse_card_list("7H AH")
    unseen = [1] * 52
    rules = RunRules()
    alone = take_chance(seven, [], 13, unseen, 80, rules)
    assert 0.0 < alone < 0.3
    assert take_chance(seven, parse_card_list("7S 7D"), 13, unseen, 80, rules) > 0.6
    assert take_chance(seven, parse_card_list("8H 9H"), 13, unseen, 80, rules) > 0.6
    assert take_chance(seven, [], 0, unseen, 80, rules) == 0.0  # nothing in hand to meld with
    ace_pairs = set(partner_pairs(ace >> 1, rules))
    two, three, queen, king = (c >> 1 for c in parse_card_list("2H 3H QH KH"))
    assert {(two, three), (queen, king)} <= ace_pairs  # A-2-3 and Q-K-A, never K-A-2
    assert (two, king) not in ace_pairs


def test_remi_partner_pairs_follow_the_tables_run_options() -> None:
    ace, king = (c >> 1 for c in parse_card_list("AH KH"))
    two, three, queen = (c >> 1 for c in parse_card_list("2H 3H QH"))
    assert (two, king) in partner_pairs(ace, RunRules(wrap=True))  # K-A-2 goes round
    assert (ace, two) in partner_pairs(king, RunRules(wrap=True))
    assert (ace, two) not in partner_pairs(king, RunRules())
    no_low = partner_pairs(ace, RunRules(ace_low=False))
    assert (two, three) not in no_low and (queen, king) in no_low
    wrapped = take_chance(ace * 2, parse_card_list("2H KH"), 13, [1] * 52, 80, RunRules(wrap=True))
    assert wrapped > 0.6


def test_remi_strong_holds_back_the_card_the_next_player_took_partners_for() -> None:
    game = find_game("remi")
    for deal in range(20):
        state = game.new_state(game.options(), 4, derive(b"remi-feed", deal))
        seat = min(state.to_act())
        state.apply(seat, DRAW_STOCK)
        legal = state.legal_actions(seat)
        discards = [a for a in legal if isinstance(a, RemiDiscard)]
        if len(discards) != len(legal):
            continue  # it could open: not the position this test wants
        obs = json.loads(json.dumps(state.observation(seat)))
        bot = make_bot("remi", "strong")
        first = bot.choose(obs, legal, random.Random(0))
        assert isinstance(first, RemiDiscard)
        card = first.card
        if card >= 104:
            continue
        suit, rank = divmod(card >> 1, 13)
        partners = [s * 13 + rank for s in range(4) if s != suit][:2]
        tokens = [TOKEN[2 * f] for f in partners]
        if any(t in obs["hand"] or t in obs["discard"] for t in tokens):
            continue
        after = (seat + 1) % 4
        obs["known"][after] = tokens  # he took two cards of its rank from the pile
        second = make_bot("remi", "strong").choose(obs, legal, random.Random(0))
        assert second != first
        return
    raise AssertionError("no position found to test")


def _rummy_view(hand: list[str]) -> RummyView:
    game = find_game("tile-rummy")
    obs = dict(game.new_state(game.options(), 4, b"rummy-view").observation(0))
    obs["hand"], obs["melds"] = hand, []
    return RummyView(obs)


def test_tile_rummy_never_throws_onto_a_partner_in_the_pile() -> None:
    view = _rummy_view(["B7a", "R7a", "K2a"])
    bot = RummyStrong()
    seven = parse_tile("B7a")
    clean = bot._discard_score(view, seven, set())
    bot._pile = [parse_tile("B6a")]
    assert bot._discard_score(view, seven, set()) < clean
    assert sorted(_completions(parse_tile("B6a") >> 1, seven >> 1)) == [
        parse_tile("B5a") >> 1,
        parse_tile("B8a") >> 1,
    ]


def test_okey_ladder_keeps_high_tiles_before_opening_and_drops_dead_partners() -> None:
    eff = [t >> 1 if t < 104 else WILD for t in range(106)]
    hand = [ID_OF[t] for t in ("R2a", "R13a", "B5a", "B6a")]
    before = usefulness(hand, eff, {}, opened=False)
    assert before[ID_OF["R13a"]] > before[ID_OF["R2a"]]
    after = usefulness(hand, eff, {}, opened=True)
    assert after[ID_OF["R13a"]] == pytest.approx(after[ID_OF["R2a"]], abs=0.02)
    dead = {FACE_INDEX["B4"]: 2, FACE_INDEX["B7"]: 2}
    assert usefulness(hand, eff, dead, opened=True)[ID_OF["B5a"]] < after[ID_OF["B5a"]]


def test_sichuan_values_a_flush_wait_above_a_plain_one() -> None:
    view = SimpleNamespace(miss=2, visible=[0] * 27)
    flush = counts_of("1m 2m 3m 4m 5m 6m 7m 8m 9m 1m 1m 5m 5m")
    plain = counts_of("1m 2m 3m 4m 5m 6m 7m 8m 9m 1m 1m 5p 5p")
    assert wait_value(view, flush, [], 5) > wait_value(view, plain, [], 5) > 0  # type: ignore[arg-type]


def test_the_sichuan_ceiling_never_deals_in_while_a_safe_discard_exists() -> None:
    game = find_game("sichuan")
    bots = [SichuanDefence(), *(make_bot("sichuan", "greedy") for _ in range(3))]
    for deal in range(3):
        state = game.new_state(game.options(), 4, derive(b"ceiling", deal))
        rng = random.Random(deal)
        while state.outcome() is None:
            seat = min(state.to_act())
            legal = state.legal_actions(seat)
            bot = bots[seat]
            if seat == 0:
                bot.see_state(state)  # type: ignore[attr-defined]
            action = bot.choose(state.observation(seat), legal, rng)
            if seat == 0 and isinstance(action, SichuanDiscard):
                deadly = opponents_waits(state, 0)
                kinds = {KIND_OF[a.tile] for a in legal if isinstance(a, SichuanDiscard)}
                assert KIND_OF[action.tile] not in deadly or kinds <= deadly
            state.apply(seat, action)


def test_every_game_has_a_ceiling_bot_and_one_without_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for game_id in game_ids():
        assert hasattr(ceiling_bot(game_id), "see_state")
    plain = SimpleNamespace(bots=SimpleNamespace(ceiling=None))
    monkeypatch.setattr(ceiling_module, "find_game", lambda g: plain if g == "x" else find_game(g))
    with pytest.raises(MeldhallError, match="x has no ceiling bot; the games with one: okey, "):
        ceiling_bot("x")


@pytest.mark.parametrize(
    ("game_id", "takes"),
    [("okey", False), ("okey-ladder", False), ("tile-rummy", True), ("remi", True)],
)
def test_a_rummy_ceiling_never_feeds_while_a_discard_that_does_not_exists(
    game_id: str, takes: bool
) -> None:
    game = find_game(game_id)
    partial = getattr(ceiling_module, f"{game_id.replace('-', '_')}_partial_ceiling", None)
    ceiling = partial() if partial else ceiling_bot(game_id)
    assert isinstance(ceiling, FeedlessCeiling) and ceiling.takes is takes
    bots = [ceiling, *(make_bot(game_id, "greedy") for _ in range(3))]
    model = make_bot(game_id, "greedy")
    state = game.new_state(game.options(), 4, derive(b"ceiling", game_id))
    rng = random.Random(0)
    checked = avoided = 0
    for _ in range(600):
        if state.outcome() is not None:
            break
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        if seat == 0:
            ceiling.see_state(state)
        action = bots[seat].choose(state.observation(seat), legal, rng)
        if seat == 0 and is_discard(action):
            fed = {a for a in legal if is_discard(a) and feeds(state, 0, a, model, takes)}
            everything = {a for a in legal if is_discard(a)}
            assert action not in fed or fed == everything
            checked += 1
            avoided += bool(fed) and fed != everything
        state.apply(seat, action)
    assert checked > 10
    if takes:
        assert avoided > 0  # a feeding discard did come up and was avoided


def test_the_okey_cards_perfect_player_scores_what_its_search_promises() -> None:
    game = find_game("okey-cards")
    state = game.new_state(game.options(), 1, derive(b"perfect", 0))
    perfect = ceiling_bot("okey-cards")
    assert isinstance(perfect, OkeyCardsPerfect)
    deck = [CARD_IDS[t] for t in state.snapshot()["deck"]]  # type: ignore[index, union-attr]
    promised = DeckSolver(deck, state.options.score_table, False).value(0, 0)  # type: ignore[attr-defined]
    expert = play_solo(game, make_bot("okey-cards", "expert"), state.clone())  # type: ignore[attr-defined]
    assert play_solo(game, perfect, state) == promised >= expert


def play_solo(game: Any, bot: Any, state: Any) -> int:
    """Return the final score of a one-seat okey-cards game played out by ``bot``."""
    rng = random.Random(0)
    while state.outcome() is None:
        if hasattr(bot, "see_state"):
            bot.see_state(state)
        state.apply(0, bot.choose(state.observation(0), state.legal_actions(0), rng))
    score: int = state.outcome().scores[0]
    return score
