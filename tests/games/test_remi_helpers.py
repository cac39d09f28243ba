"""Helpers for the Remi tests: explicit deals, positions, playing action texts, rejections.

``deal`` builds a new match whose first hand comes from an explicit deck: seat i receives the
cards named for it, padded with "filler" cards chosen to make no meld with the rest of its hand
(no rank twice, no two neighbours of one suit); seat 0 plays first; then come the upcard and
the stock (top first).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from meldhall.core.engine import Event
from meldhall.core.errors import IllegalAction
from meldhall.games.remi import GAME
from meldhall.games.remi.position import build_position
from meldhall.games.remi.state import RemiState

SEED = b"remi-test"

_ORDER = ["2", "6", "10", "3", "7", "J", "4", "8", "Q", "5", "9", "K", "A"]
_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
FILLERS = [f"{r}{s}" for r in _ORDER for s in "SHDC"]
"""Faces that fill hands, in the order they are tried."""


def _face(token: str) -> str:
    return token.partition("=")[0].partition("#")[0]


def _rank_suit(face: str) -> tuple[int, str]:
    return _RANKS.index(face[:-1]) + 1, face[-1]


def _close(a: str, b: str, distance: int) -> bool:
    """Return True when two faces share a rank, or a suit within ``distance`` ranks (the ace
    next to the 2 and the king)."""
    if a == "JK" or b == "JK":
        return False
    (ra, sa), (rb, sb) = _rank_suit(a), _rank_suit(b)
    if ra == rb:
        return True
    gap = abs(ra - rb)
    if 1 in (ra, rb):
        gap = min(gap, 14 - max(ra, rb))
    return sa == sb and gap <= distance


def _fill(cards: list[str], named: set[str], used: set[str], size: int) -> None:
    """Add filler tokens to ``cards`` until it has ``size`` cards: first faces close to
    nothing in the hand, then faces sharing no rank and no neighbour (no meld without a
    joker), then any free face."""
    for distance in (2, 1, -1):
        for face in FILLERS:
            if len(cards) >= size:
                return
            if face in named or any(
                distance >= 0 and _close(face, _face(c), distance) for c in cards
            ):
                continue
            for copy in (1, 2):
                if f"{face}#{copy}" not in used:
                    used.add(f"{face}#{copy}")
                    cards.append(f"{face}#{copy}")
                    break


def deal(hands: Sequence[str], upcard: str = "AD", stock: str = "", **options: Any) -> RemiState:
    """Return a new match dealt from an explicit deck (see the module docstring)."""
    n = len(hands)
    size = options.get("hand_size", 13)
    named = {_face(t) for text in (*hands, upcard, stock) for t in text.split()}
    used: set[str] = set()
    full: list[list[str]] = []
    for seat, text in enumerate(hands):
        cards = text.split()
        _fill(cards, named, used, size)
        assert len(cards) == size, f"seat {seat}: not enough filler cards"
        full.append(cards)
    deck = [full[s][i] for i in range(size) for s in range(n)] + [upcard, *stock.split()]
    opts = GAME.options({"deck": deck, "first_dealer": n - 1, **options})
    return GAME.new_state(opts, n, SEED)


def position(**kwargs: Any) -> RemiState:
    """Return ``build_position`` with default options (``options`` to change them)."""
    options = GAME.options(kwargs.pop("options", None))
    return build_position(options, SEED, **kwargs)


def play(state: RemiState, seat: int, *texts: str) -> list[Event]:
    """Apply action texts for ``seat`` in order and return all their events."""
    events: list[Event] = []
    for text in texts:
        events += state.apply(seat, GAME.parse_action(text))
    return events


def kinds(events: Sequence[Event]) -> list[str]:
    """Return the kinds of events."""
    return [e.kind for e in events]


def rejected(state: RemiState, seat: int, text: str, code: str) -> None:
    """Assert the action is not listed, is rejected with ``code`` and changes nothing."""
    action = GAME.parse_action(text)
    assert action not in state.legal_actions(seat)
    before = state.snapshot()
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, action)
    assert caught.value.code == code, str(caught.value)
    assert state.snapshot() == before


def hand_of(state: RemiState, seat: int) -> list[str]:
    """Return the seat's hand as its observation shows it."""
    hand = state.observation(seat)["hand"]
    assert isinstance(hand, list)
    return hand


def meld_view(state: RemiState, index: int) -> dict[str, Any]:
    """Return meld ``m<index>`` as observations show it."""
    melds = state.observation(None)["melds"]
    assert isinstance(melds, list)
    view: dict[str, Any] = melds[index]
    return view


def pass_turn(state: RemiState, seat: int) -> None:
    """Let ``seat`` draw from the stock and discard the card it drew."""
    events = state.apply(seat, GAME.parse_action("DRAW_STOCK"))
    card = events[0].private
    assert card is not None
    state.apply(seat, GAME.parse_action(f"DISCARD {card['card']}"))


def test_deal_pads_hands_with_fillers_that_make_no_meld() -> None:
    state = deal(["10H 10S JK", "5H 6H"])
    hand = hand_of(state, 0)
    assert len(hand) == 13 and {"10H#1", "10S#1", "JK#1"} <= set(hand)
    assert state.current == 0 and state.observation(None)["discard_top"] == "AD#1"
    filler_only = deal(["", ""])
    play(filler_only, 0, "DRAW_STOCK")
    assert not [a for a in filler_only.legal_actions(0) if not str(a).startswith("DISCARD")]


def test_position_places_every_card_once() -> None:
    state = position(hands=["KD 2C", "7D"], discard="4C 9H", melds=[("5H JK=6H 7H", 1)])
    state.check_invariants()
    assert state.observation(None)["stock"] == 106 - 3 - 2 - 3
