"""Helpers for the Sichuan scenario tests: explicit deals and scripted play."""

from __future__ import annotations

from typing import Any

from meldhall.core.engine import Event
from meldhall.core.errors import IllegalAction
from meldhall.core.tiles import parse_kind
from meldhall.games.sichuan import GAME
from meldhall.games.sichuan.actions import DISCARDS, PASS, SichuanAction
from meldhall.games.sichuan.deal import arrange_wall
from meldhall.games.sichuan.pieces import KIND_OF
from meldhall.games.sichuan.state import SichuanState


def deal(
    hands: list[str],
    *,
    front: str = "",
    back: str = "",
    miss: str = "ssss",
    options: dict[str, Any] | None = None,
) -> SichuanState:
    """Return a match dealt from explicit hands (P0 deals 14) after the four declarations."""
    wall = arrange_wall(hands, dealer=0, front=front, back=back)
    opts = GAME.options({"dealer": "seat0", "wall": list(wall), **(options or {})})
    state = GAME.new_state(opts, 4, b"scenario")
    for seat, suit in enumerate(miss):
        state.apply(seat, GAME.parse_action(f"declare {suit}"))
    state.check_invariants()
    return state


def act(state: SichuanState, seat: int, text: str) -> tuple[Event, ...]:
    """Apply the action written ``text`` for ``seat``, check invariants, return events."""
    events = state.apply(seat, GAME.parse_action(text))
    state.check_invariants()
    return events


def tile_of(state: SichuanState, seat: int, face: str) -> int:
    """Return the id of one tile of ``face`` in the seat's concealed hand."""
    kind = parse_kind(face)
    return next(t for t in sorted(state.hands[seat]) if KIND_OF[t] == kind)


def discard(state: SichuanState, seat: int, face: str) -> tuple[Event, ...]:
    """Discard one tile of ``face`` from the seat's hand."""
    events = state.apply(seat, DISCARDS[tile_of(state, seat, face)])
    state.check_invariants()
    return events


def pass_all(state: SichuanState, but: tuple[int, ...] = ()) -> list[Event]:
    """Answer PASS for every waiting responder except ``but``; return the events."""
    events: list[Event] = []
    for seat in sorted(state.to_act()):
        if seat not in but:
            events += state.apply(seat, PASS)
            state.check_invariants()
    return events


def tsumogiri(state: SichuanState, steps: int = 1) -> None:
    """Play ``steps`` turns in which the player on turn discards the tile it just drew and
    every responder passes."""
    for _ in range(steps):
        assert state.phase == "act" and state.drawn >= 0, state.phase
        state.apply(state.turn, DISCARDS[state.drawn])
        pass_all(state)
        state.check_invariants()


def names(actions: tuple[SichuanAction, ...]) -> list[str]:
    """Return the text forms of actions."""
    return [str(a) for a in actions]


def rejected(state: SichuanState, seat: int, text: str) -> str:
    """Return the reason code of an illegal action, checking that nothing changed."""
    before = state.snapshot()
    try:
        state.apply(seat, GAME.parse_action(text))
    except IllegalAction as exc:
        assert state.snapshot() == before
        return exc.code
    raise AssertionError(f"{text} by seat {seat} was accepted")


def kong_net(state: SichuanState) -> list[int]:
    """Return the net of the kong payments so far."""
    net = [0, 0, 0, 0]
    for payer, receiver, amount, reason in state.transfers:
        if reason == "kong":
            net[payer] -= amount
            net[receiver] += amount
    return net
