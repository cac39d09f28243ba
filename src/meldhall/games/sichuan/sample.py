"""Sampled worlds for search: a full Sichuan State built from one seat's observation alone.

``sample(observation, rng)`` deals the tiles the seat cannot see (the wall, active opponents'
concealed tiles, their unrevealed concealed kongs) at random into a State whose observation for
that seat is the one given. Hidden choices take a value consistent with what the seat knows:
an opponent's undeclared missing suit, chosen exchange and answer in an open window are drawn
or set to "pass"; a passed-win lock of an opponent is off. Future deals come from a seed drawn
from ``rng``. The sample depends on the observation and ``rng`` only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from meldhall.core.engine import JSON
from meldhall.core.errors import MeldhallError
from meldhall.core.options import parse_options
from meldhall.games.sampling import TokenIds, seated_viewer
from meldhall.games.sichuan.actions import Exchange
from meldhall.games.sichuan.fan import WinScore
from meldhall.games.sichuan.options import SichuanOptions
from meldhall.games.sichuan.pieces import KIND_NAME, KIND_OF, SEATS, SUIT_LETTER, TILE_COUNT, TOKEN
from meldhall.games.sichuan.state import _SEAT_SETS, Meld, SichuanState, WinRecord

_KIND = {name: kind for kind, name in enumerate(KIND_NAME)}
_PHASE = {"play": "act"}


_ID = TokenIds(TOKEN)


def sample(observation: Mapping[str, JSON], rng: random.Random) -> SichuanState:
    """Return a State consistent with a seat's observation, hidden tiles dealt from ``rng``;
    raise ``MeldhallError`` for a spectator's observation or a match that is over."""
    obs: Any = observation
    viewer = seated_viewer(observation, "sichuan")
    pub = obs["public"]
    state: SichuanState = object.__new__(SichuanState)
    state.opts = parse_options(SichuanOptions, obs["rules"])
    state.seed = rng.randbytes(32)
    state.deal_no = obs["hand_number"] - 1
    state.totals = list(obs["totals"])
    state.dealer = obs["dealer"]
    state.last_result = obs["last_result"]
    state.result = None
    state.settlement = None
    phase = _PHASE.get(obs["phase"], obs["phase"])
    state.phase = phase
    state.miss = [-1 if m is None else SUIT_LETTER.index(m) for m in obs["missing"]]
    state.active = list(obs["active"])
    state.discards = [_ID.many(row) for row in obs["discards"]]
    state.discard_log = [(s, _ID[t], taken) for s, t, taken in obs["discard_log"]]
    state.scores = list(obs["scores"])
    state.pot = -sum(state.scores)
    state.transfers = [(a, b, c, d) for a, b, c, d in obs["transfers"]]
    state.kong_log = [list(e) for e in pub["kong_log"]]
    state.kongs_made = pub["kongs_made"]
    state.draws_done = list(pub["draws"])
    state.discards_made = [0] * SEATS
    for s, _, _ in state.discard_log:
        state.discards_made[s] += 1
    state.clean = pub["clean"]
    first = pub["first_win"]
    state.first_win = None if first is None else (list(first[0]), first[1])
    state.entered = pub["entered"]
    state.after_kong = pub["after_kong"]
    state.wall_was_empty = pub["wall_was_empty"]
    state.postponed = False
    state.lock = [False] * SEATS
    state.lock[viewer] = obs["win_locked"]

    seen: set[int] = set()
    seen.update(t for row in state.discards for t in row)
    hands: list[list[int] | None] = [None] * SEATS
    hands[viewer] = _ID.many(obs["hand"])
    seen.update(hands[viewer] or ())
    state.winners = []
    state.win_slot = [None] * SEATS
    for w in obs["winners"]:
        tile = _ID[w["tile"]]
        concealed = _ID.many(w["hand"])
        score = WinScore(w["form"], dict(w["fans"]), w["fan"], w["points"])
        state.winners.append(WinRecord(w["seat"], tile, w["by"], w["from"], score, concealed))
        if tile not in seen:
            state.win_slot[w["seat"]] = tile
            seen.add(tile)
        if w["seat"] != viewer:
            hands[w["seat"]] = concealed
            seen.update(concealed)
    window = obs["window"]
    state.window_tile = -1 if window is None else _ID[window["tile"]]
    state.window_from = -1 if window is None else window["from"]
    if window is not None and window["kind"] == "robbed":
        seen.add(state.window_tile)
    state.melds = [[] for _ in range(SEATS)]
    hidden_kongs: list[tuple[int, Meld]] = []
    for s, melds in enumerate(obs["melds"]):
        for m in melds:
            if m["kind"] is None:
                meld = Meld("C", -1, [])
                hidden_kongs.append((s, meld))
            else:
                meld = Meld(m["type"], _KIND[m["kind"]], _ID.many(m["tiles"]), m["from"])
                seen.update(meld.tiles)
            state.melds[s].append(meld)
    unseen = [t for t in range(TILE_COUNT) if t not in seen]
    rng.shuffle(unseen)
    for s, meld in hidden_kongs:
        meld.kind = _draw_kong(unseen, state.miss[s], rng)
        meld.tiles = list(range(4 * meld.kind, 4 * meld.kind + 4))
        unseen = [t for t in unseen if KIND_OF[t] != meld.kind]
    for s in range(SEATS):
        if hands[s] is None:
            size = obs["tiles"][s]
            hands[s], unseen = unseen[:size], unseen[size:]
    state.wall = unseen
    state.front, state.back = 0, len(unseen)
    if len(unseen) != obs["wall"]:
        raise MeldhallError(f"sichuan sample: {len(unseen)} tiles left for a wall of {obs['wall']}")
    state.hands = [sorted(h or ()) for h in hands]
    state.counts, state.keys = [], []
    for s in range(SEATS):
        state._recount(s)
    state.miss_held = [
        sum(state.counts[s][9 * m : 9 * m + 9]) if m >= 0 else 0 for s, m in enumerate(state.miss)
    ]
    _hidden_choices(state, obs, viewer, rng)
    _turn_and_window(state, obs, viewer, rng)
    return state


def _draw_kong(unseen: list[int], miss: int, rng: random.Random) -> int:
    """Return a kind all four of whose tiles are unseen (never the seat's missing suit)."""
    free = [0] * 27
    for t in unseen:
        free[KIND_OF[t]] += 1
    kinds = [k for k in range(27) if free[k] == 4 and k // 9 != miss]
    if not kinds:
        raise MeldhallError("sichuan sample: no kind left for a hidden concealed kong")
    return kinds[rng.randrange(len(kinds))]


def _three(tiles: list[int]) -> tuple[int, int, int]:
    a, b, c = tiles
    return a, b, c


def _hidden_choices(
    state: SichuanState, obs: Mapping[str, Any], viewer: int, rng: random.Random
) -> None:
    """Set the missing-suit and exchange choices: the viewer's own, and for opponents a
    choice drawn from their sampled tiles where the observation says they made one."""
    phase = state.phase
    state.chosen_miss = list(state.miss)
    state.chosen_exchange = [None] * SEATS
    waiting = set(obs["to_act"])
    if phase == "declare":
        for s in range(SEATS):
            if s == viewer:
                mine = obs["my_declaration"]
                state.chosen_miss[s] = -1 if mine is None else SUIT_LETTER.index(mine)
            elif obs["declared"][s]:
                state.chosen_miss[s] = rng.randrange(3)
    mine = obs["my_exchange"]
    state.chosen_exchange[viewer] = None if mine is None else _three(_ID.many(mine))
    if phase == "exchange":
        for s in range(SEATS):
            if s != viewer and s not in waiting:
                options = state._exchange_legal(s)
                choice = options[rng.randrange(len(options))]
                assert isinstance(choice, Exchange)
                state.chosen_exchange[s] = choice.tiles


def _turn_and_window(
    state: SichuanState, obs: Mapping[str, Any], viewer: int, rng: random.Random
) -> None:
    """Set the turn, the tile just drawn and the open window (offers from the sampled hands;
    an opponent's hidden answer is a pass)."""
    phase = state.phase
    waiting = frozenset(obs["to_act"])
    state._to_act = waiting
    state._legal = {}
    state.turn = obs["turn"] if obs["turn"] is not None else state.dealer
    state.responders, state.answers, state.offers = [], {}, {}
    state.waiting, state.claimed = 0, False
    state.drawn = -1
    if phase in ("declare", "exchange"):
        hand = state.hands[state.dealer]
        state.drawn = _ID[obs["drawn"]] if state.dealer == viewer and obs.get("drawn") else hand[-1]
    elif phase == "act" and state.entered in ("draw", "replacement", "deal"):
        if state.turn == viewer:
            state.drawn = -1 if obs["drawn"] is None else _ID[obs["drawn"]]
        else:
            hand = state.hands[state.turn]
            state.drawn = hand[rng.randrange(len(hand))]
    if phase in ("claim", "rob"):
        source = state.window_from
        state.responders = [s for s in ((source + i) % SEATS for i in (1, 2, 3)) if state.active[s]]
        state.offers = state.offer_masks(state.responders)
        for s in pub_answered(obs):
            answer = obs["my_answer"] if s == viewer else "pass"
            state.answers[s] = answer
            state.claimed = state.claimed or answer != "pass"
        state.waiting = sum(1 << s for s in state.responders if s not in state.answers)
        state._to_act = _SEAT_SETS[state.waiting]


def pub_answered(obs: Mapping[str, Any]) -> list[int]:
    """Return the seats that have answered the open window."""
    answered: list[int] = obs["public"]["answered"]
    return answered
