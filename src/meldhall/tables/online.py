"""Online tables: two to four people and computers at one match, with turn clocks, seats held
for disconnected people (a computer plays them after a delay, the person reclaims them on
return), a shared score table and presence.

``OnlineTable`` extends the solo ``Table``: every action still goes through the same lock, is
judged by the engine and is written to the store before it is broadcast. It knows no rules:
the clock's default action comes from tables/clock.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from typing import Any

from meldhall.bots.levels import level_bot, level_of
from meldhall.core.engine import JSON, Event
from meldhall.core.rng import derive
from meldhall.store.lobby import LobbyData, LobbyStore
from meldhall.store.repository import MatchData, Store
from meldhall.tables.clock import default_action, table_settings
from meldhall.tables.commits import GroupCommit
from meldhall.tables.manager import TableManager
from meldhall.tables.table import Listener, Rejected, Sink, Table
from meldhall.tables.thinking import Thinker

ResultHook = Callable[[str, str, list[tuple[str, int]]], object]
"""What hears of a finished online match: its id, its game and each person's (session, place)."""


class OnlineTable(Table):
    """A match played by people over the network, computers in the empty seats."""

    def __init__(
        self,
        store: Store,
        data: MatchData,
        lobby: LobbyData,
        lobby_store: LobbyStore,
        *,
        bot_delay: float = 0.8,
        on_finish: Callable[[Table], None] | None = None,
        commits: GroupCommit | None = None,
        snapshot_every: int = 0,
        thinker: Thinker | None = None,
    ) -> None:
        self.rounds: list[dict[str, JSON]] = []
        """Every finished round's public result (filled while the log is replayed)."""
        super().__init__(
            store,
            data,
            bot_delay=bot_delay,
            on_finish=on_finish,
            commits=commits,
            snapshot_every=snapshot_every,
            thinker=thinker,
        )
        self.lobby = lobby
        self.lobby_store = lobby_store
        self.settings = table_settings(lobby.settings)
        self.connected: dict[int, int] = {seat: 0 for seat in self.person_seats}
        self.standins: set[int] = set()
        """The person seats a computer plays for now (their person away)."""
        self._live_seats = frozenset(self.person_seats)
        """The person seats a person plays now (``_live``; kept as ``standins`` changes)."""
        self._scored = self.version
        self.deadline: float | None = None
        """When the running clock runs out (event loop time), or None."""
        self._clock_seats: tuple[int, ...] = ()
        self._clock_kind: str | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._clock_round = 0
        self._away: dict[int, asyncio.Task[None]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self.result_hooks: list[ResultHook] = []
        """Called with (match id, game id, [(session, place)]) of the people seats when the
        match ends (the server rates it: server/people.py)."""

    def _replayed(self, events: tuple[Event, ...]) -> None:
        self.rounds.extend(e.for_viewer(None) for e in events if e.kind == "hand_over")

    def _snapshot_extra(self) -> Any:
        unscored = self.history.after(self._scored)
        later = [e.for_viewer(None) for _v, ev in unscored for e in ev if e.kind == "hand_over"]
        return [*self.rounds, *later]

    def _restore_extra(self, extra: Any) -> None:
        self.rounds = list(extra or [])

    # ------------------------------------------------------------------ what clients see

    def players_json(self) -> list[dict[str, JSON]]:
        """Return every seat: person (display name, connected, whether a computer plays it
        for now, an account's rating) or computer (always labelled as one)."""
        out: list[dict[str, JSON]] = []
        for seat, p in enumerate(self.data.players):
            if p["kind"] == "bot":
                level = level_of(self.game.id, p)
                out.append({"kind": "bot", "bot": p.get("bot"), "level": level, "computer": True})
            else:
                person: dict[str, JSON] = {
                    "kind": "person",
                    "name": str(p.get("name", "")),
                    "connected": self.connected.get(seat, 0) > 0,
                    "computer_plays": seat in self.standins,
                }
                if p.get("rating") is not None:  # an account's rating when the match began
                    person["rating"] = p["rating"]
                out.append(person)
        return out

    def scores_json(self) -> dict[str, JSON]:
        """Return the shared score table: every finished round's public result and the
        current round's scores."""
        observation = self.state.observation(None)
        return {
            "type": "scores",
            "match": self.id,
            "rounds": list(self.rounds),
            "current": {
                "hand_number": observation.get("hand_number"),
                "scores": observation.get("scores"),
            },
        }

    def match_json(self, seat: int | None) -> dict[str, JSON]:
        """Return the ``match`` message (see ``Table.match_json``) with the lobby table's id."""
        return {**super().match_json(seat), "table": self.lobby.id}

    def send_all(self, message: dict[str, JSON]) -> None:
        """Queue one message for every listener of the table."""
        for listener in list(self.listeners):
            listener.queue.put_nowait(message)

    def _notice(self, kind: str, seat: int) -> None:
        self.send_all({"type": "notice", "match": self.id, "kind": kind, "seat": seat})

    def _send_players(self) -> None:
        self.send_all({"type": "players", "match": self.id, "players": self.players_json()})

    def attach(self, seat: int | None, queue: Sink, since: int | None = None) -> Listener:
        """Return a listener (see ``Table.attach``); a person coming back reclaims the seat
        from the computer that played it, and everyone hears who is connected."""
        listener = super().attach(seat, queue, since)
        queue.put_nowait(self.scores_json())
        if seat is not None and seat in self.connected:
            self.connected[seat] += 1
            if self.connected[seat] == 1:
                self._back(seat)
        self._send_players()
        return listener

    def detach(self, listener: Listener) -> None:
        """Stop sending to a listener; a person's seat left without a connection is held and
        a computer plays it after ``takeover_seconds``."""
        if listener not in self.listeners:
            return
        super().detach(listener)
        seat = listener.seat
        if seat is not None and seat in self.connected:
            self.connected[seat] -= 1
            if self.connected[seat] == 0 and not self.over:
                self._away[seat] = asyncio.get_running_loop().create_task(self._take_over(seat))
        self._send_players()

    def _back(self, seat: int) -> None:
        away = self._away.pop(seat, None)
        if away is not None:
            away.cancel()
        if seat in self.standins:
            self._stand_in(seat, False)
            self.bots.pop(seat, None)
            self._notice("reclaimed", seat)
            self._changed()

    async def _take_over(self, seat: int) -> None:
        await asyncio.sleep(self.settings["takeover_seconds"])
        async with self.lock:
            if self.connected.get(seat, 0) == 0 and not self.over:
                self._stand_in(seat, True)
                self.bots[seat] = level_bot(self.game.id, self.settings["bots"])
                self._notice("computer_plays", seat)
                self._send_players()
        self._away.pop(seat, None)
        self._changed()

    # ------------------------------------------------------------------ turns

    def _changed(self) -> None:
        """Wake the computers and set the clock after a change that sent no state (a seat
        taken over or reclaimed): everyone hears of a changed clock."""
        if self._arm_clock():
            self.send_all(self._clock_json())
        self._wake_bots()

    def send_states(self) -> None:
        """Send the score table first when a hand has ended, then everyone's state (with the
        clock, set for the new state)."""
        rounds = len(self.rounds)
        for _version, events in self.history.after(self._scored):
            self.rounds.extend(e.for_viewer(None) for e in events if e.kind == "hand_over")
        self._scored = self.version
        if len(self.rounds) != rounds:
            self.send_all(self.scores_json())
        self._arm_clock()
        super().send_states()
        self._wake_bots()

    def frame_json(self) -> dict[str, JSON]:
        """Return the shared parts of the ``state`` message (see ``Table.frame_json``) with
        the running clock."""
        return {**super().frame_json(), "clock": self._clock_view()}

    def _rebuild(self) -> None:
        super()._rebuild()
        self._scored = min(self._scored, self.version)

    def _stand_in(self, seat: int, on: bool) -> None:
        """Have a computer play a person's ``seat`` for now (``on``), or stop."""
        if on:
            self.standins.add(seat)
        else:
            self.standins.discard(seat)
        self._live_seats = frozenset(self.person_seats) - self.standins

    def _live(self) -> frozenset[int]:
        """Return the person seats a person plays now (not a stand-in computer)."""
        return self._live_seats

    def _bot_turn(self) -> int | None:
        if self.over or self.paused:
            return None
        movers = self.state.to_act()
        if not self._live_seats.isdisjoint(movers):
            return None
        return min((s for s in movers if s in self.bots), default=None)

    def start(self) -> None:
        """Start the computers' task and the clock."""
        loop = asyncio.get_running_loop()
        if self._runner is None:
            self._runner = loop.create_task(self._run_bots())
        self._arm_clock()
        for seat in self.person_seats:
            if self.connected[seat] == 0 and seat not in self._away and not self.over:
                self._away[seat] = loop.create_task(self._take_over(seat))

    async def stop(self) -> None:
        """Stop the computers, the clock and the takeover timers."""
        await super().stop()
        self._stop_timer()
        tasks = list(self._away.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._away.clear()

    async def _run_bots(self) -> None:
        while not self.over:
            seat = self._bot_turn()
            if seat is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
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
                if self.version != version or self._bot_turn() != seat:
                    continue
                self._apply(seat, action)

    # ------------------------------------------------------------------ clock

    def _clock_seconds(self) -> tuple[float | None, list[int], str | None]:
        """Return the clock the table needs now: its seconds, the seats it waits for and its
        kind (``pause``, ``claim``, ``turn``), or no seconds when nobody is waited for."""
        if self.over:
            return None, [], None
        if self.paused:
            return self.settings["hand_pause_seconds"], [], "pause"
        movers = sorted(self.state.to_act())
        live = self._live()
        waiting = [s for s in movers if s in live]
        if not waiting:
            return None, [], None
        kind = "claim" if len(movers) > 1 else "turn"
        own = self.game.turn_seconds(self.state) if kind == "turn" else None
        return own or self.settings[f"{kind}_seconds"], waiting, kind

    def _arm_clock(self) -> bool:
        """Set the clock for the current state and return whether it changed. A seat that
        goes on acting in the same turn (draw, then discard) keeps its deadline, as do the
        seats still to answer a claim window after others answered."""
        seconds, seats, kind = self._clock_seconds()
        if seconds is None:
            changed = self.deadline is not None
            self._stop_timer()
            self._clock_seats, self._clock_kind = (), None
            return changed
        same_turn = (
            self.deadline is not None
            and kind == self._clock_kind != "pause"
            and set(seats) <= set(self._clock_seats)
        )
        if same_turn and tuple(seats) == self._clock_seats:
            return False
        self._clock_seats, self._clock_kind = tuple(seats), kind
        if same_turn:
            return True
        self._stop_timer()
        loop = self._event_loop()
        self.deadline = loop.time() + seconds
        self._clock_round += 1
        self._timer = loop.call_at(self.deadline, self._run_out, self._clock_round)
        return True

    def _event_loop(self) -> asyncio.AbstractEventLoop:
        """Return the running event loop, asked for once (on Python 3.11 each
        ``asyncio.get_running_loop`` makes a ``getpid`` system call; the clock asks for it
        every action)."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self.deadline = None

    def _run_out(self, clock_round: int) -> None:
        asyncio.get_running_loop().create_task(self._expire(clock_round))

    async def _expire(self, clock_round: int) -> None:
        async with self.lock:
            if clock_round == self._clock_round and self.deadline is not None:
                self.deadline = None
                self._time_out()
                if self.deadline is None:
                    self._arm_clock()

    def _clock_view(self) -> dict[str, JSON] | None:
        """Return the running clock as clients see it: the seats it waits for, the seconds
        left and whether it is the pause between hands; None when no clock runs."""
        if self.deadline is None:
            return None
        left = max(0.0, self.deadline - self._event_loop().time())
        return {
            "seats": list(self._clock_seats),
            "seconds": round(left, 2),
            "paused": self._clock_kind == "pause",
        }

    def _clock_json(self) -> dict[str, JSON]:
        """Return the ``clock`` message: the running clock (no seats and 0 seconds when none
        runs) at the current state id."""
        view = self._clock_view() or {"seats": [], "seconds": 0.0, "paused": self.paused}
        return {"type": "clock", "match": self.id, "state_id": self.version, **view}

    def _time_out(self) -> None:
        if self.paused:
            self._set_pause(False)
            self._broadcast()
            return
        _seconds, seats, _kind = self._clock_seconds()
        for seat in seats:
            if seat in self.state.to_act():
                self._notice("timeout", seat)
                self._play_default(seat)

    def _play_default(self, seat: int) -> None:
        """Play the default action of a timed-out seat; after a draw it goes on to discard
        the drawn tile (one timed-out turn is one default move)."""
        for _step in range(2):
            entries = self.history.after(self.version - 1)
            drawn = self.game.timeout.drawn_piece(entries[0][1], seat) if entries else None
            rng = random.Random(derive(self.seed, "timeout", self.version, seat))
            action = default_action(self.game.id, self.state, seat, rng, drawn)
            try:
                self._apply(seat, action)
            except Rejected:
                return
            if (
                not self.game.timeout.is_draw(action)
                or self.state.to_act() != {seat}
                or self.paused
            ):
                return

    # ------------------------------------------------------------------ the end

    def _finish(self) -> None:
        outcome = self.state.outcome()
        assert outcome is not None
        self.paused = False
        self._stop_timer()
        self.store.finish_match(self.id, outcome.to_json())
        rows = [
            (
                seat,
                str(self.data.players[seat].get("session", "")),
                str(self.data.players[seat].get("name", "")),
                outcome.scores[seat],
                outcome.ranks[seat],
            )
            for seat in self.person_seats
        ]
        self.lobby_store.add_results(self.id, self.game.id, rows)
        for hook in self.result_hooks:
            hook(self.id, self.game.id, [(session, rank) for _s, session, _n, _sc, rank in rows])
        self.lobby.status = "over"
        self.lobby_store.save(self.lobby)
        if self.on_finish is not None:
            self.on_finish(self)


class OnlineManager(TableManager):
    """The solo manager plus online tables: a match started from a lobby table is loaded as an
    ``OnlineTable``; ``restore`` reloads every online match in play after a restart."""

    def __init__(
        self, store: Store, *, clock_floors: dict[str, float] | None = None, **options: Any
    ) -> None:
        """Take the ``options`` of ``TableManager`` and ``clock_floors``: the least value of
        each table clock option a new lobby table may ask for (tables/clock.py)."""
        super().__init__(store, **options)
        self.clock_floors = dict(clock_floors or {})
        self.lobby_store = LobbyStore(store)
        self.online: dict[str, LobbyData] = {}
        """Lobby tables in play, by match id."""
        self.result_hooks: list[ResultHook] = []
        """What every online table calls when its match ends (see ``OnlineTable``)."""

    def register(self, lobby: LobbyData) -> None:
        """Mark a lobby table's match as online (its table is an ``OnlineTable``)."""
        assert lobby.match_id is not None
        self.online[lobby.match_id] = lobby

    def _make_table(self, data: MatchData) -> Table:
        """Return the table of a stored match: an ``OnlineTable`` for a lobby table's match."""
        lobby = self.online.get(data.id)
        if lobby is None:
            return super()._make_table(data)
        table = OnlineTable(
            self.store,
            data,
            lobby,
            self.lobby_store,
            bot_delay=self.bot_delay,
            commits=self.commits,
            on_finish=self.finished,
            snapshot_every=self.snapshot_every,
            thinker=self.thinker,
        )
        table.result_hooks = self.result_hooks
        return table
