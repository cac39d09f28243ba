"""A running match: seats (person or bot), bot pacing, the action log and its persistence.

One ``Table`` owns one engine state. Every change goes through its asyncio lock; an accepted
action is written to the store before anything is broadcast, and a table rebuilt from the
store (``core.replay``) is exactly where it was. The table knows no rules: it asks the engine
what is legal and lets the engine judge every action.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from meldhall.bots.levels import level_of, seat_bot
from meldhall.core.engine import JSON, Action, Bot, Event, Game, State
from meldhall.core.errors import IllegalAction, MeldhallError, ParseError
from meldhall.core.fairness import match_seed
from meldhall.core.replay import log_from_json, replay
from meldhall.core.rng import derive
from meldhall.games.registry import find_game
from meldhall.store.repository import BrokenMatch, MatchData, Snapshot, Store
from meldhall.store.snapshots import code_fingerprint, entry_digest, seal, unseal
from meldhall.tables.commits import GroupCommit
from meldhall.tables.listing import legal_json, legal_text
from meldhall.tables.metrics import BOT_SECONDS
from meldhall.tables.thinking import Thinker

IN_THREADS = Thinker(None)
"""The thinker of a table made without one (tests): threads of this process."""

log = logging.getLogger(__name__)

EVENT_MEMORY = 400
"""How many past actions' events a table keeps for clients that reconnect."""

ONCE_KEYS = ("rules",)
"""Observation keys that stay the same all match long (a game's rule options): a listener's
first state message carries them, later ones leave them out (docs/protocol.md, ``state``)."""

_encode = msgspec.json.Encoder().encode

PACES = {"slow": 2.0, "normal": 1.0, "fast": 0.25}
"""The computer speeds a solo player may choose: factors of the pause before a computer move."""


class Rejected(Exception):
    """A client message the table refuses; ``code`` is a protocol code (docs/protocol.md),
    ``engine_code`` the game's own reason code when the engine refused the action, ``details``
    the engine's numbers behind it (``IllegalAction.details``)."""

    def __init__(
        self,
        code: str,
        reason: str,
        engine_code: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
        self.engine_code = engine_code
        self.details = details or {}

    def to_json(self) -> dict[str, Any]:
        """Return the ``rejected`` message (docs/protocol.md): code, reason, and the engine's
        code and details where the engine refused."""
        message: dict[str, Any] = {"type": "rejected", "code": self.code, "reason": self.reason}
        if self.engine_code is not None:
            message["engine_code"] = self.engine_code
        if self.details:
            message["details"] = self.details
        return message


class Sink(Protocol):
    """Where a listener's messages go (a connection's outbox, or any ``asyncio.Queue``). A
    sink that also has ``put_bytes`` (``ws.Outbox``) takes the ``state`` messages of
    ``Table.send_states`` as their JSON text."""

    def put_nowait(self, item: dict[str, Any], /) -> None:
        """Take one message to send, without waiting."""


@dataclass
class Listener:
    """A client watching the table from one seat; messages for it go into ``queue``."""

    seat: int | None
    queue: Sink
    seen: int = -1
    """The state id of the last state message sent to it."""
    told_once: bool = False
    """Whether a state message with the ``ONCE_KEYS`` of the observation was sent to it."""


@dataclass
class _History:
    """The events each accepted action caused, by the state id it produced (consecutive ids:
    the entry of state id ``v`` stands at index ``v - first``)."""

    entries: list[tuple[int, tuple[Event, ...]]] = field(default_factory=list)

    def add(self, version: int, events: tuple[Event, ...]) -> None:
        self.entries.append((version, events))
        if len(self.entries) > 2 * EVENT_MEMORY:
            del self.entries[:EVENT_MEMORY]

    def forget_after(self, version: int) -> None:
        """Drop the entries of the state ids after ``version`` (actions that were undone)."""
        del self.entries[len(self.entries) - len(self.after(version)) :]

    def after(self, version: int) -> list[tuple[int, tuple[Event, ...]]]:
        """Return the remembered entries of the state ids after ``version``."""
        if not self.entries:
            return []
        return self.entries[max(0, version + 1 - self.entries[0][0]) :]

    def since(self, version: int, viewer: int | None) -> list[dict[str, JSON]]:
        """Return what ``viewer`` may see of the events after state id ``version``."""
        return [e.for_viewer(viewer) for _v, events in self.after(version) for e in events]


class Table:
    """One match in play, rebuilt from its stored data."""

    def __init__(
        self,
        store: Store,
        data: MatchData,
        *,
        bot_delay: float = 0.8,
        on_finish: Callable[[Table], None] | None = None,
        on_idle: Callable[[Table], None] | None = None,
        commits: GroupCommit | None = None,
        snapshot_every: int = 0,
        thinker: Thinker | None = None,
    ) -> None:
        """Rebuild the table of ``data``: from its latest snapshot when one fits its log,
        then its log's actions; raise ``BrokenMatch`` naming the entry that does not parse
        or apply. ``on_idle`` is called when the last listener leaves; a snapshot is stored
        every ``snapshot_every`` actions (0: never). ``thinker`` decides the computers' moves
        (default: in threads; a server passes its pool of worker processes)."""
        self.store = store
        self.commits = commits or GroupCommit(store)
        self.data = data
        self.game: Game = find_game(data.game)
        self.options = self.game.options(data.options)
        self.seed = match_seed(bytes.fromhex(data.secret), data.contributions)
        self.snapshot_every = snapshot_every
        self.state: State = self._replayed_log(data)
        self.version = len(data.log)
        self.paused = data.paused
        self.last_hand = data.last_hand
        self.bot_delay = bot_delay
        self.thinker = thinker or IN_THREADS
        self.pace = 1.0
        self.on_finish = on_finish
        self.on_idle = on_idle
        self.lock = asyncio.Lock()
        self.listeners: list[Listener] = []
        self.history = _History()
        self.bots: dict[int, Bot] = {
            seat: seat_bot(data.game, p["bot"])
            for seat, p in enumerate(data.players)
            if p.get("kind") == "bot"
        }
        self.person_seats = [s for s, p in enumerate(data.players) if p.get("kind") == "person"]
        self._wake = asyncio.Event()
        self._runner: asyncio.Task[None] | None = None
        self._stopping = False
        """Set by ``stop``: the bots' task ends at its next step even if a cancellation
        was lost (3.11's ``wait_for`` can swallow one that meets a finished decision)."""

    # ------------------------------------------------------------------ rebuilding

    def _replayed_log(self, data: MatchData) -> State:
        """Return the state after the stored log (see ``__init__``)."""
        state: State | None = None
        start = 0
        snapshot = self.store.snapshot(data.id) if self.snapshot_every else None
        if snapshot is not None and 0 < snapshot.index <= len(data.log):
            last = snapshot.index - 1
            state = self._from_snapshot(
                snapshot.state, snapshot.log_digest == entry_digest(last, *data.log[last])
            )
            if state is not None:
                start = snapshot.index
        if state is None:
            state = self.game.new_state(self.options, data.seats, self.seed)
        for index in range(start, len(data.log)):
            seat, raw = data.log[index]
            self._replay_entry(state, data.id, index, seat, raw)
        return state

    def _replay_entry(self, state: State, match_id: str, index: int, seat: Any, raw: Any) -> None:
        """Apply one stored log entry; raise ``BrokenMatch`` when it does not parse or apply."""
        try:
            if not isinstance(seat, int):
                raise ParseError(f"seat {seat!r} is no number")
            events = state.apply(seat, self.game.action_from_json(raw))
        except (MeldhallError, TypeError, KeyError, IndexError) as exc:
            raise BrokenMatch(match_id, index, f"seat {seat} action {raw!r}: {exc}") from exc
        self._replayed(events)

    def _from_snapshot(self, blob: bytes, fits: bool) -> State | None:
        """Return the state of a snapshot when it ``fits`` the log and is ours (else None:
        the log is replayed)."""
        if not fits:
            log.warning("match %s: a snapshot of another log is ignored", self.data.id)
            return None
        value = unseal(blob, self.store.snapshot_key)
        if not isinstance(value, dict) or value.get("code") != self._code():
            log.warning("match %s: a snapshot of other code or another server is ignored", self.id)
            return None
        self._restore_extra(value.get("extra"))
        state: State = value["state"]
        return state

    def _code(self) -> str:
        """Return the fingerprint of the code this table's states come from."""
        return code_fingerprint(type(self.game).__module__)

    def _replayed(self, events: tuple[Event, ...]) -> None:
        """Take note of the events of one replayed log entry (subclasses keep what they
        need)."""

    def _snapshot_extra(self) -> Any:
        """Return what a subclass keeps beside the state in a snapshot."""
        return None

    def _restore_extra(self, extra: Any) -> None:
        """Take back what ``_snapshot_extra`` kept."""

    def _keep_snapshot(self, last: str) -> None:
        """Store a snapshot of the state now, ``last`` the digest of the log entry it follows
        (the store commits the actions before it); a snapshot that cannot be stored is only
        logged (the log is what counts)."""
        value = {"state": self.state, "extra": self._snapshot_extra(), "code": self._code()}
        blob = seal(value, self.store.snapshot_key)
        try:
            self.store.save_snapshot(self.id, Snapshot(self.version, last, blob))
        except Exception:
            log.exception("match %s: the snapshot at %d could not be stored", self.id, self.version)

    # ------------------------------------------------------------------ facts

    @property
    def id(self) -> str:
        """Return the match id."""
        return self.data.id

    @property
    def over(self) -> bool:
        """Return whether the match has ended."""
        return self.state.outcome() is not None

    def seat_of(self, session: str) -> int | None:
        """Return the seat a session plays at this table, or None."""
        for seat, p in enumerate(self.data.players):
            if p.get("kind") == "person" and p.get("session") == session:
                return seat
        return None

    def players_json(self) -> list[dict[str, JSON]]:
        """Return what every client may know of the seats: person or bot, and the bot's
        name and level (the seat panel shows the level)."""
        return [
            {"kind": "bot", "bot": p.get("bot"), "level": level_of(self.game.id, p)}
            if p["kind"] == "bot"
            else {"kind": "person"}
            for p in self.data.players
        ]

    def match_json(self, seat: int | None) -> dict[str, JSON]:
        """Return the ``match`` message: who sits where and the seed commitment."""
        return {
            "type": "match",
            "match": self.id,
            "game": self.game.id,
            "seat": seat,
            "seats": self.data.seats,
            "players": self.players_json(),
            "commitment": self.data.commitment,
            "contributions": list(self.data.contributions),
            "options": dict(self.data.options),
        }

    def frame_json(self) -> dict[str, JSON]:
        """Return the parts of the ``state`` message that every listener shares: state id,
        seats to act, pause and the last hand's result."""
        return {
            "type": "state",
            "match": self.id,
            "state_id": self.version,
            "to_act": sorted(self.state.to_act()),
            "paused": self.paused,
            "last_hand": self.last_hand,
        }

    def state_json(
        self,
        listener: Listener,
        events: list[dict[str, JSON]],
        frame: dict[str, JSON] | None = None,
    ) -> dict[str, JSON]:
        """Return the ``state`` message for one listener: ``frame`` (see ``frame_json``) with
        its seat's observation and legal actions and the events it has not seen. The
        observation's ``ONCE_KEYS`` are in the first state message a listener gets only."""
        shared = self.frame_json() if frame is None else frame
        seat = listener.seat
        legal = legal_json(self._legal(seat, shared))
        return {
            **shared,
            "seat": seat,
            "observation": self._observation(listener),
            "legal": legal,
            "events": events,
        }

    def _state_text(
        self,
        listener: Listener,
        events: list[dict[str, JSON]],
        frame: dict[str, JSON],
        head: bytes,
    ) -> bytes:
        """Return the JSON text of ``state_json(listener, events, frame)``, the same bytes its
        encoding makes, from ``head`` (the text of ``frame`` without its closing brace): the
        frame encoded once for every listener, the legal list from remembered texts."""
        seat = listener.seat
        legal = legal_text(self._legal(seat, frame))
        observation = self._observation(listener)
        return b"".join(
            (
                head,
                b',"seat":',
                _encode(seat),
                b',"observation":',
                _encode(observation),
                b',"legal":',
                legal,
                b',"events":',
                _encode(events),
                b"}",
            )
        )

    def _legal(self, seat: int | None, frame: dict[str, JSON]) -> tuple[Action, ...]:
        """Return the actions of ``seat``'s state message: its legal actions when the
        frame's ``to_act`` lists it, else none."""
        to_act = frame["to_act"]
        if seat is not None and isinstance(to_act, list) and seat in to_act:
            return self.state.legal_actions(seat)
        return ()

    def _observation(self, listener: Listener) -> dict[str, JSON]:
        """Return the observation of the state message going to ``listener`` now: its
        seat's, without the ``ONCE_KEYS`` after its first (noted as sent)."""
        observation = self.state.observation(listener.seat)
        if listener.told_once:
            for key in ONCE_KEYS:
                observation.pop(key, None)
        else:
            listener.told_once = True
        return observation

    def over_json(self) -> dict[str, JSON]:
        """Return the ``match_over`` message: outcome and revealed seed secret."""
        outcome = self.state.outcome()
        assert outcome is not None
        return {
            "type": "match_over",
            "match": self.id,
            "outcome": outcome.to_json(),
            "secret": self.data.secret,
            "commitment": self.data.commitment,
            "contributions": list(self.data.contributions),
        }

    # ------------------------------------------------------------------ listeners

    def attach(self, seat: int | None, queue: Sink, since: int | None = None) -> Listener:
        """Return a new listener for a seat sending into ``queue``, and queue its first
        messages (match, state with the events after state id ``since``, match over)."""
        self.commits.flush()  # a newcomer sees only stored states, and everyone before it
        listener = Listener(seat, queue)
        self.listeners.append(listener)
        listener.queue.put_nowait(self.match_json(seat))
        events = self.history.since(since, seat) if since is not None else []
        self._send_state(listener, events)
        if self.over:
            listener.queue.put_nowait(self.over_json())
        return listener

    def detach(self, listener: Listener) -> None:
        """Stop sending to a listener (the last one gone, ``on_idle`` hears of it)."""
        with contextlib.suppress(ValueError):
            self.listeners.remove(listener)
        if not self.listeners and self.on_idle is not None:
            self.on_idle(self)

    def resync(self, listener: Listener) -> None:
        """Queue the current state for one listener again (the whole observation)."""
        self.commits.flush()
        listener.told_once = False
        self._send_state(listener, [])

    def _send_state(
        self,
        listener: Listener,
        events: list[dict[str, JSON]],
        frame: dict[str, JSON] | None = None,
    ) -> None:
        listener.queue.put_nowait(self.state_json(listener, events, frame))
        listener.seen = self.version

    def _broadcast(self) -> None:
        """Send everyone the state once the actions it follows from are stored."""
        self.commits.send_when_stored(self)

    def send_states(self) -> None:
        """Send every listener the state and the events it has not seen (called once the
        actions behind them are stored)."""
        frame = self.frame_json()
        over = self.over
        head: bytes | None = None
        for listener in list(self.listeners):
            events = self.history.since(listener.seen, listener.seat)
            put_bytes = getattr(listener.queue, "put_bytes", None)
            if put_bytes is None:
                self._send_state(listener, events, frame)
            else:
                if head is None:
                    head = _encode(frame)[:-1]
                put_bytes(self._state_text(listener, events, frame, head))
                listener.seen = self.version
            if over:
                listener.queue.put_nowait(self.over_json())

    # ------------------------------------------------------------------ acting

    async def act(self, seat: int, action_json: JSON, state_id: int) -> None:
        """Apply a person's action, or raise ``Rejected`` leaving everything unchanged."""
        async with self.lock:
            if self.over:
                raise Rejected("match_over", "the match is over")
            if state_id != self.version:
                raise Rejected(
                    "stale_state", f"state id {state_id} is not the current {self.version}"
                )
            if seat not in self.state.to_act():
                raise Rejected("not_your_turn", f"seat {seat} may not act now")
            try:
                action = self.game.action_from_json(action_json)
            except MeldhallError as exc:
                raise Rejected("illegal_action", str(exc), "PARSE_ERROR") from exc
            resumed, self.paused = self.paused, False  # acting ends the pause between hands
            try:
                self._apply(seat, action)
            except Rejected:
                self.paused = resumed
                raise
            if resumed and not self.paused:
                self.store.set_pause(self.id, False, None)
        self._wake_bots()

    def appraise(self, seat: int, action_json: JSON, state_id: int) -> dict[str, JSON]:
        """Return the ``appraisal`` message of an action ``seat`` weighs before making it
        (the game's ``appraise``: its events or the rules' refusal), or raise ``Rejected``;
        nothing at the table changes."""
        if state_id != self.version:
            raise Rejected("stale_state", f"state id {state_id} is not the current {self.version}")
        try:
            action = self.game.action_from_json(action_json)
        except MeldhallError as exc:
            raise Rejected("illegal_action", str(exc), "PARSE_ERROR") from exc
        data = action.to_json()
        kind = data.get("type") if isinstance(data, dict) else None
        if kind not in self.game.appraisable:
            raise Rejected("not_appraisable", f"{self.game.id} does not weigh {kind!r} actions")
        verdict = self.game.appraise(self.state, seat, action)
        return {
            "type": "appraisal",
            "match": self.id,
            "state_id": state_id,
            "action": data,
            **verdict,
        }

    async def resume_play(self) -> None:
        """End the pause after a hand: the bots go on."""
        async with self.lock:
            if self.paused:
                self._set_pause(False)
                self._broadcast()
        self._wake_bots()

    def set_pace(self, pace: str) -> None:
        """Set the computers' speed (a key of ``PACES``) of a table with one person; a table
        of several people keeps its pace (Rejected ``not_solo``)."""
        if pace not in PACES:
            raise Rejected("bad_message", f"pace must be one of {', '.join(PACES)}, not {pace!r}")
        if len(self.person_seats) > 1:
            raise Rejected("not_solo", "only a solo player sets the computers' speed")
        self.pace = PACES[pace]

    def _apply(self, seat: int, action: Action) -> None:
        try:
            events = self.state.apply(seat, action)
        except IllegalAction as exc:
            raise Rejected("illegal_action", exc.reason or exc.code, exc.code, exc.details) from exc
        try:
            self.commits.stage(self.id, self.version, seat, action.to_json())
        except Exception as exc:
            self._rebuild()
            raise Rejected("server_error", "the action could not be stored") from exc
        self.version += 1
        self.history.add(self.version, events)
        if self.snapshot_every and self.version % self.snapshot_every == 0:
            self._keep_snapshot(entry_digest(self.version - 1, seat, action.to_json()))
        for event in events:
            if event.kind == "hand_over" and self.person_seats:
                self.last_hand = event.for_viewer(None)
                self.paused = True
                self.store.set_pause(self.id, True, self.last_hand)
        if self.over:
            self._finish()
        self._broadcast()

    def _set_pause(self, paused: bool) -> None:
        self.paused = paused
        self.store.set_pause(self.id, paused, None)

    def _rebuild(self) -> None:
        data = self.store.load_match(self.id)
        assert data is not None
        log = log_from_json(self.game, [[s, a] for s, a in data.log])
        self.state = replay(self.game, self.options, data.seats, self.seed, log)
        self.version = len(log)
        self.paused, self.last_hand = data.paused, data.last_hand
        self.history.forget_after(self.version)

    def lost(self) -> None:
        """The actions staged since the last commit could not be stored: go back to the
        stored log and tell everyone (the people whose moves were lost play them again)."""
        self._rebuild()
        for listener in self.listeners:
            listener.queue.put_nowait(
                {
                    "type": "rejected",
                    "code": "server_error",
                    "reason": "the last moves could not be stored; the table goes back",
                }
            )
        self.send_states()

    def _finish(self) -> None:
        outcome = self.state.outcome()
        assert outcome is not None
        self.paused = False
        self.store.finish_match(self.id, outcome.to_json())
        higher = self.game.higher_is_better
        for seat in self.person_seats:
            self.store.add_record(
                self.id,
                self.data.owner,
                self.game.id,
                outcome.scores[seat],
                outcome.ranks[seat],
                higher,
            )
        if self.on_finish is not None:
            self.on_finish(self)

    # ------------------------------------------------------------------ bots

    def start(self) -> None:
        """Start the task that plays the bots' turns."""
        if self._runner is None and self.bots:
            self._stopping = False
            self._runner = asyncio.get_running_loop().create_task(self._run_bots())

    async def stop(self) -> None:
        """Stop the bots' task."""
        if self._runner is not None:
            self._stopping = True
            self._wake.set()
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
            self._runner = None

    def _wake_bots(self) -> None:
        """Wake the computers' task if a computer is to play now."""
        if self._bot_turn() is not None:
            self._wake.set()

    def _bot_turn(self) -> int | None:
        """Return the bot seat to play next: none while paused or while a person may act
        (in a window where several seats answer, the people answer first)."""
        if self.over or self.paused:
            return None
        movers = sorted(self.state.to_act())
        if any(s in self.person_seats for s in movers):
            return None
        return next((s for s in movers if s in self.bots), None)

    async def _think(
        self, seat: int, bot: Bot, obs: dict[str, JSON], legal: tuple[Action, ...], version: int
    ) -> Action:
        """Return the action of the computer at ``seat`` for state id ``version``, decided
        off the event loop by the table's thinker (tables/thinking.py: a forced move at once,
        the greedy choice when the bot overruns its budget or fails); the bot keeps what it
        remembered while deciding."""
        rng = random.Random(derive(self.seed, "bot", version, seat))
        with BOT_SECONDS.time():
            decision = await self.thinker.decide(self.game.id, bot, obs, legal, rng)
        if self.bots.get(seat) is bot:
            self.bots[seat] = decision.bot
        return decision.action

    async def _run_bots(self) -> None:
        while not self.over and not self._stopping:
            seat = self._bot_turn()
            if seat is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            await asyncio.sleep(self.bot_delay * self.pace)
            async with self.lock:
                seat = self._bot_turn()
                if seat is None:
                    continue
                version = self.version
                legal = self.state.legal_actions(seat)
                bot = self.bots[seat]
                obs = self.state.observation(seat) if bot.needs_observation else {}
            action = await self._think(seat, bot, obs, legal, version)
            async with self.lock:
                if self._stopping or self.version != version or seat not in self.state.to_act():
                    continue
                try:
                    self._apply(seat, action)
                except Rejected:
                    fallback = self.state.legal_actions(seat)
                    if not fallback:
                        raise
                    self._apply(seat, fallback[0])
