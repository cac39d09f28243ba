"""One match seen through the RL adapter: token decisions, arrays, masks and rewards.

Both environments (``aec.py``, ``single.py``) drive a ``Match``; it plays the game through
its public API (``find_game``, ``new_state``, ``legal_actions``, ``apply``, ``observation``,
``outcome`` and the actions' JSON forms). The observation arrays are filled straight from the
state by the game's direct encoder (``meldhall.rl.direct``: what the seat's JSON observation
shows, nothing else), equal to the layout read from the JSON (``observe_json``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
import numpy as np

from meldhall.core.engine import JSON, Action, Event, State
from meldhall.core.errors import EngineBug, MeldhallError
from meldhall.rl.actions import Decision, Vocabulary
from meldhall.rl.direct import direct_encoder
from meldhall.rl.observe import Encoder, Shape
from meldhall.rl.specs import SPECS, GameSpec
from meldhall.terminal.board import lookup
from meldhall.terminal.pieces import family_of, find_game

ENDS = frozenset({"hand_over", "match_over"})
"""The event kinds after which rewards are paid."""


class IllegalActionId(MeldhallError, ValueError):
    """An action id that does not continue any legal action now."""


def _score_of(obs: Mapping[str, JSON], key: str) -> list[float]:
    value = lookup(obs, key)
    if value is None:
        raise EngineBug(f"the observation has no score at {key!r}")
    return [float(v) for v in value] if isinstance(value, list) else [float(value)]


class Match:
    """A match of ``game_id`` under ``options`` with ``seats`` seats, dealt on ``reset``."""

    def __init__(self, game_id: str, seats: int | None = None, **options: Any):
        self.game = find_game(game_id)
        if game_id not in SPECS:
            raise MeldhallError(f"no RL adapter for game {game_id!r}")
        self.spec: GameSpec = SPECS[game_id]
        self.options = self.game.options(options)
        self.seats = seats or self.game.default_seats
        if not self.game.min_seats <= self.seats <= self.game.max_seats:
            raise MeldhallError(
                f"{game_id} is played by {self.game.min_seats} to {self.game.max_seats} seats, "
                f"not {self.seats}"
            )
        family = family_of(game_id)
        self.vocab = Vocabulary(self.spec.words, family.faces, family.tokens)
        self._vocab_size = len(self.vocab)
        self.no_rewards: tuple[float, ...] = (0.0,) * self.seats
        """What ``step`` and ``apply`` return when no seat is paid (compare it by identity)."""
        self.encoder = Encoder(self.spec.fields, Shape(family, self.seats))
        self.direct = direct_encoder(game_id, self.encoder)
        self.obs_size = self.encoder.size + len(self.vocab)
        self._blank = np.zeros(self.obs_size, dtype=np.float32)
        self._no_mask = np.zeros(self._vocab_size, dtype=np.int8)
        self._no_mask.flags.writeable = False
        """The read-only mask of a seat that may not act (``read`` without ``fresh``)."""
        self.state: State = self.game.new_state(self.options, self.seats, b"unset")
        self.decision: Decision | None = None
        self.decider: int | None = None
        self._flat: list[tuple[Sequence[Action], Decision] | None] = [None] * self.seats
        """Each seat's last flat first point made for a fresh legal tuple, with the tuple
        (what its next such decision is derived from)."""
        self.scores = [0.0] * self.seats
        self.last_events: tuple[Event, ...] = ()
        self._views: dict[int | None, dict[str, JSON]] = {}

    def reset(self, seed: bytes) -> None:
        """Deal a new match from ``seed``."""
        self.state = self.game.new_state(self.options, self.seats, seed)
        self._views = {}
        self.decision = None
        self.decider = None
        self._flat = [None] * self.seats
        self.scores = self.current_scores()
        self.last_events = ()

    def view(self, seat: int | None) -> dict[str, JSON]:
        """Return the engine's JSON observation of ``seat`` now (one object per step: read
        it, do not change it)."""
        data = self._views.get(seat)
        if data is None:
            data = self._views[seat] = self.state.observation(seat)
        return data

    def over(self) -> bool:
        """Return True once the match has an outcome."""
        return self.state.outcome() is not None

    def to_act(self) -> frozenset[int]:
        """Return the seats that may act now."""
        return self.state.to_act()

    def decision_of(self, seat: int) -> Decision:
        """Return the decision in progress of ``seat`` (begun on first use: the point kept
        for its legal tuple, else one derived from the seat's last flat point, else one made
        afresh)."""
        if self.decision is None or self.decider != seat:
            legal = self.state.legal_actions(seat)
            vocab = self.vocab
            decision = vocab.kept(legal)
            if decision is None:
                near = self._flat[seat]
                if near is None:
                    decision = Decision.of(vocab, legal)
                elif near[0] is legal:
                    decision = near[1]
                else:
                    decision = near[1].derived(vocab, legal) or Decision.of(vocab, legal)
                if decision.flat:
                    self._flat[seat] = (legal, decision)
            self.decision = decision
            self.decider = seat
        return self.decision

    def mask(self, seat: int) -> np.ndarray:
        """Return the int8 action mask of ``seat``: 1 for every token that continues a
        legal action (all 0 when the seat may not act)."""
        if seat in self.state.to_act():
            return self.decision_of(seat).mask(self._vocab_size)
        return np.zeros(self._vocab_size, dtype=np.int8)

    def observe(self, seat: int) -> np.ndarray:
        """Return the float32 observation array of ``seat``: the layout of its game, then
        how many times each token stands in its decision spelled so far."""
        state = self.state
        if seat in state.to_act():
            return self.direct.array(state, seat, self._blank, self.decision_of(seat).prefix)
        return self.direct.array(state, seat, self._blank)

    def read(self, seat: int, fresh: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Return ``(observe(seat), mask(seat))`` (one look at the turn and the decision
        for both: what an environment reads at every step). Not ``fresh``: both may be
        read-only arrays kept by the match, valid until its next step (no copy made)."""
        state = self.state
        if seat in state.to_act():
            decision = self.decision
            if decision is None or self.decider != seat:
                decision = self.decision_of(seat)
            size = self._vocab_size
            return (
                self.direct.array(state, seat, self._blank, decision.prefix, fresh),
                decision.mask(size) if fresh else decision.shared_mask(size),
            )
        return (
            self.direct.array(state, seat, self._blank, fresh=fresh),
            np.zeros(self._vocab_size, dtype=np.int8) if fresh else self._no_mask,
        )

    def observe_json(self, seat: int) -> np.ndarray:
        """Return the same array as ``observe``, laid out from the seat's JSON observation
        (the reference the direct encoders are checked against; slower)."""
        out = np.zeros(self.obs_size, dtype=np.float32)
        self.encoder.encode(self.view(seat), seat, out[: self.encoder.size])
        return self._spelled(seat, out)

    def _spelled(self, seat: int, out: np.ndarray) -> np.ndarray:
        if seat in self.state.to_act():
            for token in self.decision_of(seat).prefix:
                out[self.encoder.size + token] += 1.0
        return out

    def step(self, seat: int, token: int) -> Sequence[float]:
        """Choose ``token`` for ``seat``; apply the action once it is spelled whole. Return
        every seat's reward (``no_rewards`` itself when every one is 0); raise
        ``IllegalActionId`` (nothing changed) for a token that continues no legal action."""
        decision = self.decision
        if decision is None or self.decider != seat:
            decision = self.decision_of(seat)
        nxt = decision.next.get(token)
        if nxt is None:
            nxt = decision.after(token)
            if nxt is None:
                raise IllegalActionId(
                    f"seat {seat}: action id {token} ({self._word(token)}) continues no legal "
                    f"action; possible: {', '.join(self._word(t) for t in decision.options())}"
                )
        if nxt.__class__ is Decision:
            self.decision = nxt
            return self.no_rewards
        return self.apply(seat, nxt)  # type: ignore[arg-type]

    def apply(self, seat: int, action: Action) -> Sequence[float]:
        """Apply a legal engine action (a bot's, or one spelled whole); return every seat's
        reward (``no_rewards`` itself when every one is 0)."""
        self.decision = None
        if self._views:
            self._views = {}
        state = self.state
        events = self.last_events = state.apply(seat, action)
        self.direct.applied(state, events)
        for e in events:
            if e.kind in ENDS:
                return self._rewards()
        return self.no_rewards

    def _word(self, token: int) -> str:
        return self.vocab.words[token] if 0 <= token < len(self.vocab) else "outside the space"

    def current_scores(self) -> list[float]:
        """Return the scores the rewards are paid from, read from the state by the direct
        encoder (one per seat)."""
        values = self.direct.scores(self.state)
        return values if len(values) == self.seats else values * self.seats

    def json_scores(self) -> list[float]:
        """Return the scores the rewards are paid from, read from the public JSON
        observation at the game's ``score`` key (what the direct ``scores`` must equal)."""
        values = _score_of(self.view(None), self.spec.score)
        return values if len(values) == self.seats else values * self.seats

    def _rewards(self) -> list[float]:
        """Return every seat's reward at a hand or match end (see docs/rl.md)."""
        now = self.current_scores()
        rewards = [
            self.spec.sign * (a - b) / self.spec.scale
            for a, b in zip(now, self.scores, strict=True)
        ]
        self.scores = now
        outcome = self.state.outcome()
        if outcome is not None and self.seats > 1:
            for s in outcome.winners:
                rewards[s] += 1.0
        return rewards

    def json_observation(self, seat: int) -> dict[str, JSON]:
        """Return the engine's JSON observation of ``seat`` as a fresh copy (the caller may
        keep or change it)."""
        data: dict[str, JSON] = msgspec.json.decode(msgspec.json.encode(self.view(seat)))
        return data
