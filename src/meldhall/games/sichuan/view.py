"""What a seat may see of a Sichuan match (sichuan.md 12), the full snapshot, the engine's
invariants and the hidden-tile reshuffle.

Observation keys (JSON, tiles as tokens such as ``5p#2``, kinds as faces such as ``5p``):

- the common keys of every game (``meldhall.core.observation``, docs/protocol.md):
  ``seat``, ``to_act``, ``phase``, ``hand_number``, ``match_scores``, ``hidden_counts``,
  ``over``; the keys below add to them.
- ``game`` ``"sichuan"``; ``seat`` the viewer (None for a spectator); ``over`` True once the
  match has ended.
- ``phase``: ``"exchange"`` (variant), ``"declare"`` (choosing the missing suit), ``"play"``
  (``turn`` draws/discards/declares), ``"claim"`` (answers to a discard), ``"rob"`` (answers
  to an added kong), ``"over"``.
- ``to_act``: seats that may act now (all unanswered responders during a window).
- ``hand_number``, ``deals``: this deal (1-based) and the deals of the match; ``dealer``;
  ``turn``: the seat whose turn it is (the discarder or kong declarer during a window).
- ``wall``: tiles left in the wall.
- ``hand`` (seat viewers only): the viewer's concealed tiles, sorted; ``drawn``: the tile the
  viewer just drew (None otherwise); ``my_answer``: the viewer's answer in the open window
  (None before it answers); ``my_exchange`` and ``my_declaration``: the viewer's hidden
  choices before they are revealed; ``win_locked``: the passed-win lock (variant).
- ``tiles``: per seat, the number of concealed tiles.
- ``missing``: per seat, the declared missing suit ``"m"``/``"p"``/``"s"`` once all four are
  revealed (None before); ``declared``: per seat, whether it has chosen.
- ``discards``: per seat, its discard row in order (claimed tiles leave it);
  ``discard_log``: every discard of the deal in order as ``[seat, tile, taken]``, ``taken``
  None, ``"pung"``, ``"kong"`` or ``"win"``.
- ``melds``: per seat, a list of ``{"type": "P"|"K"|"A"|"C", "kind", "tiles", "from"}``; a
  concealed kong of an active opponent shows ``"kind": None, "tiles": []`` (D26).
- ``active``: per seat, not yet won; ``winners``: the wins in order, each with ``seat``,
  ``tile``, ``by`` (``self_draw``, ``replacement``, ``discard``, ``robbed``), ``from``,
  ``hand``, ``melds``, ``form``, ``fans``, ``fan``, ``points``.
- ``window``: None, or ``{"kind": "discard"|"robbed", "tile", "from", "waiting": [...]}``.
- ``last_discard``: ``{"seat", "tile"}`` of the latest discard still on the table, or None.
- ``scores``: per seat, this deal's net points; ``totals``: per seat, the match so far
  (before this deal); ``transfers``: every payment of this deal as
  ``[payer, receiver, amount, reason]`` (receiver -1: the pot).
- ``last_result``: the public ``hand_over`` payload of the latest finished deal (all hands
  revealed, winners, transfers, settlement, scores); each of its winners also carries
  ``bonus``, the points each payer adds to a self-drawn win. None before.
- ``rules``: every option by its spec name (the explicit wall left out); ``public``: the
  engine's public counters a search needs (``public_counters``).
"""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING

from meldhall.core.engine import JSON
from meldhall.core.errors import EngineBug
from meldhall.core.observation import common_keys
from meldhall.core.options import options_to_json
from meldhall.games.sichuan.hand import suit_keys
from meldhall.games.sichuan.pieces import KIND_NAME, KIND_OF, SEATS, SUIT_LETTER, TILE_COUNT, TOKEN

if TYPE_CHECKING:
    from meldhall.games.sichuan.options import SichuanOptions
    from meldhall.games.sichuan.state import Meld, SichuanState

_PHASE_NAME = {"act": "play"}
_ANSWER_BIT = {"win": 1, "pung": 2, "kong": 4}
"""The offer bit each answer needs (state.OFFER_*)."""


def meld_json(meld: Meld, reveal: bool) -> dict[str, JSON]:
    """Return the JSON form of a meld; an unrevealed concealed kong hides its kind."""
    hidden = meld.letter == "C" and not reveal
    return {
        "type": meld.letter,
        "kind": None if hidden else KIND_NAME[meld.kind],
        "tiles": [] if hidden else [TOKEN[t] for t in meld.tiles],
        "from": meld.source,
    }


def _token_or_none(tile: int | None) -> str | None:
    return None if tile is None else TOKEN[tile]


def _tokens(tiles: list[int]) -> list[str]:
    return [TOKEN[t] for t in sorted(tiles)]


def _settlement_json(state: SichuanState) -> JSON:
    st = state.settlement
    if st is None:
        return None
    return {
        "refund": [list(t) for t in st.refund],
        "pig": [list(t) for t in st.pig],
        "ready": [list(t) for t in st.ready],
    }


def hand_over(state: SichuanState, termination: str) -> dict[str, JSON]:
    """Return the public payload of the end of a deal: every hand revealed, the wins, every
    transfer line by line, the settlement steps and the scores after."""
    statuses: list[str] = []
    for s in range(SEATS):
        if not state.active[s]:
            statuses.append("won")
        elif state.settlement is None:
            statuses.append("active")
        else:
            st = state.seat_at_end(s)
            statuses.append("pig" if st.pig else "ready" if st.ready else "not_ready")
    return {
        "hand_number": state.deal_no + 1,
        "termination": termination,
        "dealer": state.dealer,
        "hands": [
            {
                "hand": _tokens(state.hands[s]),
                "melds": [meld_json(m, True) for m in state.melds[s]],
                "missing": SUIT_LETTER[state.miss[s]] if state.miss[s] >= 0 else None,
                "win_tile": _token_or_none(state.win_slot[s]),
                "status": statuses[s],
            }
            for s in range(SEATS)
        ],
        "winners": [
            {**r.to_json(state.melds[r.seat]), "bonus": state.self_draw_bonus(r.by)}
            for r in state.winners
        ],
        "transfers": [list(t) for t in state.transfers],
        "settlement": _settlement_json(state),
        "scores": list(state.scores),
        "totals": list(state.totals),
    }


def observation(state: SichuanState, viewer: int | None) -> dict[str, JSON]:
    """Return what ``viewer`` may know now (None: a spectator)."""
    over = state.result is not None
    revealed = state.phase == "over"
    in_window = state.phase in ("claim", "rob")
    obs: dict[str, JSON] = {
        "game": "sichuan",
        **common_keys(
            seat=viewer,
            to_act=state.to_act(),
            phase=_PHASE_NAME.get(state.phase, state.phase),
            hand_number=state.deal_no + 1,
            match_scores=state.totals
            if over
            else [total + deal for total, deal in zip(state.totals, state.scores, strict=True)],
            hidden_counts=[len(h) for h in state.hands],
            over=over,
        ),
        "deals": state.opts.deals,
        "dealer": state.dealer,
        "turn": None if state.phase in ("declare", "exchange", "over") else _turn(state),
        "wall": state.wall_count,
        "tiles": [len(h) for h in state.hands],
        "missing": [SUIT_LETTER[m] if m >= 0 else None for m in state.miss],
        "declared": [c >= 0 for c in state.chosen_miss],
        "discards": [[TOKEN[t] for t in row] for row in state.discards],
        "discard_log": [[seat, TOKEN[t], taken] for seat, t, taken in state.discard_log],
        "melds": [
            [meld_json(m, revealed or not state.active[s] or s == viewer) for m in state.melds[s]]
            for s in range(SEATS)
        ],
        "active": list(state.active),
        "winners": [r.to_json(state.melds[r.seat]) for r in state.winners],
        "window": None,
        "last_discard": None,
        "scores": list(state.scores),
        "totals": list(state.totals),
        "transfers": [list(t) for t in state.transfers],
        "last_result": state.last_result,
        "rules": public_rules(state.opts),
        "public": public_counters(state),
    }
    if in_window:
        obs["window"] = {
            "kind": "discard" if state.phase == "claim" else "robbed",
            "tile": TOKEN[state.window_tile],
            "from": state.window_from,
            "waiting": sorted(state.to_act()),
        }
    for s in range(SEATS):
        row = state.discards[s]
        if row and (state.phase == "claim" and s == state.window_from):
            obs["last_discard"] = {"seat": s, "tile": TOKEN[row[-1]]}
    if viewer is not None:
        obs["hand"] = _tokens(state.hands[viewer])
        acting = state.phase == "act" and state.turn == viewer
        obs["drawn"] = TOKEN[state.drawn] if acting and state.drawn >= 0 else None
        obs["my_answer"] = state.answers.get(viewer) if in_window else None
        mine = state.chosen_exchange[viewer]
        obs["my_exchange"] = None if mine is None else [TOKEN[t] for t in mine]
        choice = state.chosen_miss[viewer]
        obs["my_declaration"] = SUIT_LETTER[choice] if choice >= 0 else None
        obs["win_locked"] = state.lock[viewer]
    return obs


def public_rules(options: SichuanOptions) -> dict[str, JSON]:
    """Return the options as JSON, the explicit wall left out (it would show hidden tiles)."""
    return {k: v for k, v in options_to_json(options).items() if k != "wall"}


def public_counters(state: SichuanState) -> dict[str, JSON]:
    """Return the public engine counters a search needs to go on from this position (the
    ``public`` key): draws per seat, the kong payments log, kongs made, how the turn began
    (``entered``), the discard came after a kong / from an empty wall, no claim or kong yet
    (``clean``), the first win (seats, payer) and the seats that answered the open window."""
    first = state.first_win
    return {
        "draws": list(state.draws_done),
        "kong_log": [list(e) for e in state.kong_log],
        "kongs_made": state.kongs_made,
        "entered": state.entered,
        "after_kong": state.after_kong,
        "wall_was_empty": state.wall_was_empty,
        "clean": state.clean,
        "first_win": None if first is None else [list(first[0]), first[1]],
        "answered": sorted(state.answers) if state.phase in ("claim", "rob") else [],
    }


def _turn(state: SichuanState) -> int:
    return state.window_from if state.phase in ("claim", "rob") else state.turn


def unseen_allowed(state: SichuanState, seat: int) -> list[bool]:
    """Return, per kind, whether some copy is not visible to ``seat`` (the
    ``ready_check_visible_tiles = "exclude"`` variant): visible are its own tiles, every
    discard row, every meld but an active opponent's concealed kong, and winners' hands."""
    seen = [0] * 27
    for t in state.hands[seat]:
        seen[KIND_OF[t]] += 1
    for s in range(SEATS):
        for t in state.discards[s]:
            seen[KIND_OF[t]] += 1
        for m in state.melds[s]:
            if m.letter != "C" or s == seat or not state.active[s]:
                seen[m.kind] += len(m.tiles)
        if not state.active[s] and s != seat:
            for t in state.hands[s]:
                seen[KIND_OF[t]] += 1
        slot = state.win_slot[s]
        if slot is not None:
            seen[KIND_OF[slot]] += 1
    return [n < 4 for n in seen]


def snapshot(state: SichuanState) -> JSON:
    """Return the whole state (hidden tiles included) in a canonical JSON form."""
    return {
        "deal_no": state.deal_no,
        "dealer": state.dealer,
        "phase": state.phase,
        "wall": state.wall[state.front : state.back],
        "front": state.front,
        "hands": [sorted(h) for h in state.hands],
        "melds": [[[m.letter, m.kind, list(m.tiles), m.source] for m in ms] for ms in state.melds],
        "discards": [list(d) for d in state.discards],
        "discard_log": [list(e) for e in state.discard_log],
        "miss": list(state.miss),
        "chosen_miss": list(state.chosen_miss),
        "chosen_exchange": [None if c is None else list(c) for c in state.chosen_exchange],
        "active": list(state.active),
        "winners": [[r.seat, r.tile, r.by, r.payer, r.score.to_json()] for r in state.winners],
        "win_slot": list(state.win_slot),
        "scores": list(state.scores),
        "totals": list(state.totals),
        "pot": state.pot,
        "transfers": [list(t) for t in state.transfers],
        "kong_log": [list(e) for e in state.kong_log],
        "lock": list(state.lock),
        "draws_done": list(state.draws_done),
        "discards_made": list(state.discards_made),
        "clean": state.clean,
        "turn": state.turn,
        "entered": state.entered,
        "drawn": state.drawn,
        "window": [state.window_from, state.window_tile, state.after_kong, state.wall_was_empty],
        "postponed": state.postponed,
        "responders": list(state.responders),
        "answers": sorted([s, a] for s, a in state.answers.items()),
        "offers": sorted([s, o] for s, o in state.offers.items()),
        "to_act": sorted(state.to_act()),
        "result": None if state.result is None else state.result.to_json(),
    }


def _slots(state: SichuanState, seat: int) -> int:
    return len(state.hands[seat]) + 3 * len(state.melds[seat])


def check_invariants(state: SichuanState) -> None:
    """Raise ``EngineBug`` when a tile is not in exactly one place, a count array, suit key
    or missing-suit count disagrees with the tiles, a hand has the wrong number of slots,
    or the points do not balance."""
    places: list[int] = list(state.wall[state.front : state.back])
    for s in range(SEATS):
        places += state.hands[s]
        places += state.discards[s]
        for m in state.melds[s]:
            places += m.tiles
        slot = state.win_slot[s]
        if slot is not None:
            places.append(slot)
    if state.phase == "rob":
        places.append(state.window_tile)
    if sorted(places) != list(range(TILE_COUNT)):
        raise EngineBug(f"tiles are not each in exactly one place ({len(places)} placed)")
    for s in range(SEATS):
        if state.hands[s] != sorted(state.hands[s]):
            raise EngineBug(f"seat {s}: concealed tiles are not kept in id order")
        counts = [0] * 27
        for t in state.hands[s]:
            counts[KIND_OF[t]] += 1
        if counts != state.counts[s]:
            raise EngineBug(f"seat {s}: count array disagrees with its tiles")
        if suit_keys(counts) != state.keys[s]:
            raise EngineBug(f"seat {s}: suit keys disagree with its tiles")
        miss = state.miss[s]
        held = sum(counts[9 * miss : 9 * miss + 9]) if miss >= 0 else 0
        if held != state.miss_held[s]:
            raise EngineBug(f"seat {s}: missing-suit count {state.miss_held[s]}, holds {held}")
        acting = (state.phase == "act" and s == state.turn) or (
            state.phase in ("declare", "exchange") and s == state.dealer
        )
        want = 14 if acting else 13
        if _slots(state, s) != want and state.phase != "over":
            raise EngineBug(f"seat {s} has {_slots(state, s)} tile slots, not {want}")
        for m in state.melds[s]:
            if {KIND_OF[t] for t in m.tiles} != {m.kind} or len(m.tiles) != (
                3 if m.letter == "P" else 4
            ):
                raise EngineBug(f"seat {s}: malformed meld {m}")
    if sum(state.scores) + state.pot != 0:
        raise EngineBug(f"scores {state.scores} and pot {state.pot} do not balance")
    net = [0] * SEATS
    for payer, receiver, amount, _ in state.transfers:
        net[payer] -= amount
        if receiver >= 0:
            net[receiver] += amount
    if net != state.scores:
        raise EngineBug(f"scores {state.scores} disagree with the transfers {net}")
    if state.phase == "claim" and state.discards[state.window_from][-1] != state.window_tile:
        raise EngineBug("the discard under claim is not on its row")
    if len(state.winners) != sum(1 for a in state.active if not a):
        raise EngineBug("winners and active flags disagree")


def shuffled_hidden(state: SichuanState, viewer: int | None, rng: random.Random) -> SichuanState:
    """Return a copy in which the tiles hidden from ``viewer`` (the wall's order and the
    concealed tiles of active opponents, except a concealed kong and tiles already chosen
    for an exchange) are permuted among their places. Offers in an open window are worked
    out again for the new hands, and a hidden answer they no longer allow becomes a pass."""
    other = copy.deepcopy(state)
    if state.phase == "over":
        seats: list[int] = []
    else:
        seats = [s for s in range(SEATS) if s != viewer and state.active[s]]
    fixed = {t for c in state.chosen_exchange if c is not None for t in c}
    pool: list[int] = list(state.wall[state.front : state.back])
    for s in seats:
        pool += [t for t in state.hands[s] if t not in fixed]
    rng.shuffle(pool)
    pos = 0
    size = state.back - state.front
    other.wall[state.front : state.back] = pool[:size]
    pos = size
    for s in seats:
        old = state.hands[s]
        new: list[int] = []
        for t in old:
            if t in fixed:
                new.append(t)
            else:
                new.append(pool[pos])
                pos += 1
        if state.turn == s and state.drawn in old:
            other.drawn = new[old.index(state.drawn)]
        other.hands[s] = sorted(new)
        other._recount(s)
        miss = other.miss[s]
        other.miss_held[s] = sum(other.counts[s][9 * miss : 9 * miss + 9]) if miss >= 0 else 0
    if state.phase in ("claim", "rob"):
        for s in seats:
            if s in other.offers:
                other.offers[s] = mask = other.offer_mask(s)
                answer = other.answers.get(s)
                if answer is not None and answer != "pass" and not mask & _ANSWER_BIT[answer]:
                    other.answers[s] = "pass"
    other._legal = {}
    return other
