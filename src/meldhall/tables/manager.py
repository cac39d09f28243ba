"""The tables of a server: created for solo matches, loaded from the store on demand."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from meldhall.bots.levels import DEFAULT_LEVEL, seat_player
from meldhall.games.registry import find_game
from meldhall.store.repository import BrokenMatch, MatchData, Quarantined, Store, stale_rules
from meldhall.tables.commits import GroupCommit
from meldhall.tables.table import Rejected, Table
from meldhall.tables.thinking import Thinker

log = logging.getLogger(__name__)


KEEP_FINISHED_SECONDS = 600.0
"""How long a finished match stays loaded (its people read the result, reconnect); later a
request for it replays it from the store again."""

UNLOAD_IDLE_SECONDS = 120.0
"""How long a solo table stays loaded after its last listener left."""


class TableManager:
    """Owns every loaded table; a table is loaded (replayed) the first time it is needed and
    unloaded ``keep_finished`` seconds after its match ends."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.8,
        keep_finished: float = KEEP_FINISHED_SECONDS,
        unload_idle: float = UNLOAD_IDLE_SECONDS,
        snapshot_every: int = 0,
        thinker: Thinker | None = None,
    ) -> None:
        """``unload_idle``: seconds a solo table stays loaded with nobody listening;
        ``snapshot_every``: actions between two stored snapshots of a table (0: none);
        ``thinker``: where the computers of every table think (default: threads of this
        process; a server passes its pool of worker processes, tables/thinking.py)."""
        self.store = store
        self.keep_finished = keep_finished
        self.unload_idle = unload_idle
        self.snapshot_every = snapshot_every
        self.unloaded: list[Callable[[str], None]] = []
        """Called with the match id of every finished table unloaded."""
        self.commits = GroupCommit(store)
        """One group commit for every table of the server."""
        self.bot_delay = bot_delay
        self.thinker = thinker
        self.tables: dict[str, Table] = {}
        self._unloading: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()

    async def get(self, match_id: str) -> Table | None:
        """Return the loaded table of a match, replaying it from the store if needed, or None
        when there is no such match; raise ``Rejected``: ``match_broken`` for a match that
        cannot be rebuilt (it is quarantined: logged, set aside, never replayed again),
        ``rules_changed`` for one started under another version of its game's rules (it stays
        stored and readable as it is)."""
        async with self._lock:
            table = self.tables.get(match_id)
            if table is not None:
                return table
            broken = self.store.quarantined(match_id)
            table = None
            if broken is None:
                try:
                    data = self.store.load_match(match_id)
                    if data is None:
                        return None
                    reason = stale_rules(data)
                    if reason is not None:  # replaying it under other rules could mislead
                        raise Rejected("rules_changed", reason)
                    table = self._make_table(data)
                except BrokenMatch as exc:
                    broken = self.quarantine(match_id, exc)
                except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
                    broken = self.quarantine(match_id, BrokenMatch(match_id, None, repr(exc)))
            if broken is not None or table is None:
                assert broken is not None
                raise Rejected(
                    "match_broken",
                    f"match {match_id} cannot be rebuilt and is set aside: {broken.summary}",
                )
            self._loaded(table)
            return table

    def quarantine(self, match_id: str, problem: BrokenMatch) -> Quarantined:
        """Set a match that cannot be rebuilt aside and log it; return its entry."""
        log.error("quarantined match %s: %s", match_id, problem)
        return self.store.quarantine(match_id, problem.index, problem.problem)

    async def start_solo(
        self,
        session: str,
        game_id: str,
        contribution: str,
        raw_options: dict[str, Any],
        level: str = DEFAULT_LEVEL,
    ) -> Table:
        """Return a new solo match: the person at seat 0, computers at ``level`` (easy,
        normal or hard) elsewhere; raise ``MeldhallError`` for an unknown level.

        Any match of the same game the session was playing is abandoned (only completed
        matches count). The seed secret is the one the session was shown as commitment."""
        game = find_game(game_id)
        game.options(raw_options)
        seats = game.default_seats
        computer = seat_player(game_id, level)
        players: list[dict[str, Any]] = [{"kind": "person", "session": session}]
        players += [dict(computer) for _ in range(seats - 1)]
        for old_id in self.store.session(session).playing.values():
            old = self.store.load_match(old_id)
            if old is not None and old.game == game_id:
                await self.abandon(old_id)
        secret = self.store.take_secret(session)
        data = self.store.create_match(
            session, game_id, dict(raw_options), players, secret, [contribution]
        )
        return await self.get(data.id) or _missing(data.id)

    async def abandon(self, match_id: str) -> None:
        """Mark a match abandoned and unload its table."""
        table = self.tables.pop(match_id, None)
        if table is not None:
            await table.stop()
        self.store.finish_match(match_id, {}, status="abandoned")

    def _make_table(self, data: MatchData) -> Table:
        """Return the table of a stored match (not yet started)."""
        return Table(
            self.store,
            data,
            bot_delay=self.bot_delay,
            commits=self.commits,
            on_finish=self.finished,
            on_idle=self.idle,
            snapshot_every=self.snapshot_every,
            thinker=self.thinker,
        )

    def _loaded(self, table: Table) -> None:
        """Keep a table just loaded and start it (a finished one is unloaded again later)."""
        self.tables[table.id] = table
        table.start()
        if table.over:
            self.finished(table)

    def idle(self, table: Table) -> None:
        """Unload a table ``unload_idle`` seconds after its last listener left, unless one
        came back meanwhile (the next request replays it from the store)."""

        def check() -> None:
            if not table.listeners and self.tables.get(table.id) is table:
                task = loop.create_task(self._unload(table))
                self._unloading.add(task)
                task.add_done_callback(self._unloading.discard)

        loop = asyncio.get_running_loop()
        loop.call_later(self.unload_idle, check)

    def finished(self, table: Table) -> None:
        """Unload a table ``keep_finished`` seconds after its match ended."""
        loop = asyncio.get_running_loop()
        loop.call_later(self.keep_finished, lambda: loop.create_task(self._unload(table)))

    async def _unload(self, table: Table) -> None:
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        table.on_idle = None
        await table.stop()
        for hook in self.unloaded:
            hook(table.id)

    async def close(self) -> None:
        """Store what is staged and stop every table's bots (server shutdown)."""
        self.commits.flush()
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()


def _missing(match_id: str) -> Table:
    raise RuntimeError(f"match {match_id} vanished from the store")
