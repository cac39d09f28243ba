"""Client connections in a site: a client talks to any process, and its messages about a
table go to the process that owns the table.

The process the client is connected to (its *edge*) routes each message: the session, the
lobby listing, a new solo match and a new table are served here; ``join``/``watch`` go to the
owner of that lobby table, ``resume`` to the owner of that match (a table nobody owns is taken
over first), and the messages about the table a client sits at (``act``, ``sync``, ...) follow
it there. On the owner a ``Shadow`` connection stands for the client: the same handlers as a
connection of its own, its messages relayed back to the edge. When the table moves (its owner
died, or lost its lease), the edge sends the client's last ``join``/``watch``/``resume`` again,
to the new owner: the client gets the whole state there and plays on.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import msgspec
from starlette.websockets import WebSocket

from meldhall.server.chat import FLOOD_BURST, FLOOD_RATE
from meldhall.server.cluster.relay import Envelope, raw
from meldhall.server.limits import SharedBucket, SharedBuckets
from meldhall.server.lobby import OnlineConnection
from meldhall.server.security import AddressBook
from meldhall.tables.online import OnlineTable
from meldhall.tables.table import Rejected

if TYPE_CHECKING:
    from meldhall.server.cluster.lobby import SiteLobby
    from meldhall.server.cluster.node import Node
    from meldhall.server.cluster.tables import SiteManager

log = logging.getLogger(__name__)

HERE = frozenset({"hello", "lobby"})
"""Message types the edge serves whatever table the client is at."""
NEW_HERE = frozenset({"start", "create"})
"""Message types that open something new on the edge (leaving a table elsewhere)."""
ATTACHING = frozenset({"join", "watch", "resume"})
"""Message types that go to a table's owner, and are sent again when the table moves."""


def attach_message(conn: OnlineConnection) -> dict[str, Any] | None:
    """Return the message that attaches a client again to what ``conn`` is at here: the
    ``join`` of its lobby table, the ``watch`` of the table it watches, the ``resume`` of its
    solo match (None: nothing)."""
    if conn.waiting is not None:
        return {"type": "join", "table": conn.waiting.data.id}
    if isinstance(conn.table, OnlineTable):
        kind = "join" if conn.seat is not None else "watch"
        return {"type": kind, "table": conn.table.lobby.id}
    if conn.table is not None:
        return {"type": "resume", "match": conn.table.id}
    return None


def person_key(token: str) -> str:
    """Return the key of a session's shared rate limits (a digest: no token reaches Redis's
    key space)."""
    return hashlib.sha256(token.encode()).hexdigest()[:24]


async def share_limits(conn: OnlineConnection, buckets: SharedBuckets) -> None:
    """Give ``conn`` (said hello as a session) the site's budgets of that session: one message
    budget and one chat flood limit per person across every process (server/limits.py)."""
    assert conn.token is not None
    limit = buckets.bucket("msg:" + person_key(conn.token), conn.lobby.rate, conn.lobby.burst)
    conn.limit = limit
    await limit.fill()
    share_chat_limit(conn, buckets)


def share_chat_limit(conn: OnlineConnection, buckets: SharedBuckets) -> None:
    """Give ``conn`` the site's chat flood limit of its session (its first token is taken
    when it first chats)."""
    assert conn.token is not None
    conn.chat_limit = buckets.bucket("chat:" + person_key(conn.token), FLOOD_RATE, FLOOD_BURST)


class SiteLimited(OnlineConnection):
    """A connection whose rate limits may be the site's (``share_limits``): a token is made
    sure of (from Redis when none is held) before the budget is checked."""

    async def _handle(self, text: str) -> None:
        if isinstance(self.limit, SharedBucket):
            await self.limit.fill()
        await super()._handle(text)

    async def _on_chat(self, message: dict[str, Any]) -> None:
        if isinstance(self.chat_limit, SharedBucket):
            await self.chat_limit.fill()
        await super()._on_chat(message)


def key_here(conn: OnlineConnection) -> str | None:
    """Return the lease key of what ``conn`` is at here (None: nothing)."""
    if conn.waiting is not None:
        return "l:" + conn.waiting.data.id
    if isinstance(conn.table, OnlineTable):
        return "l:" + conn.table.lobby.id
    if conn.table is not None:
        return "m:" + conn.table.id
    return None


class EdgeConnection(SiteLimited):
    """A client's connection to this process, its table messages routed to their owner."""

    def __init__(
        self,
        socket: WebSocket,
        manager: SiteManager,
        lobby: SiteLobby,
        node: Node,
        addresses: AddressBook | None = None,
    ) -> None:
        super().__init__(socket, manager, lobby, addresses)
        self.node = node
        self.cid = secrets.token_hex(8)
        self.focus: str | None = None
        """The process that serves this client's table (None: this one)."""
        self.focus_key: str | None = None
        """The lease key of the table this client is at (or joining)."""
        self.attached: dict[str, Any] | None = None
        """The last ``join``, ``watch`` or ``resume`` message: sent again if the table moves."""

    async def run(self) -> None:
        """Serve the connection; the owner of its table hears when it closes."""
        self.node.connections[self.cid] = self
        try:
            await super().run()
        finally:
            self.node.connections.pop(self.cid, None)
            if self.focus is not None:
                self.node.relay.send(self.focus, Envelope(k="bye", c=self.cid))

    async def _on_hello(self, message: dict[str, Any]) -> None:
        """Open the session (see ``Connection._on_hello``); its rate limits are the site's."""
        before = self.token
        await super()._on_hello(message)
        if self.token is not None and self.token != before:
            await share_limits(self, self.node.buckets)

    async def _dispatch(self, kind: str, message: dict[str, Any]) -> None:
        """Serve a checked message here, or relay it to the owner of its table."""
        try:
            target = await self._route(kind, message)
        except Rejected as exc:
            self.out.put_nowait(exc.to_json())
            return
        except Exception:  # Redis or the database away: the client may try again
            log.exception("a %s message could not be routed", kind)
            self._reject("server_error", "the site cannot reach that table now; try again")
            return
        if target is None:
            await super()._dispatch(kind, message)
        else:
            self.node.relay.send(
                target,
                Envelope(k="msg", c=self.cid, t=self.token or "", a=self.address, m=raw(message)),
            )

    async def _route(self, kind: str, message: dict[str, Any]) -> str | None:
        """Return the process that serves ``message`` (None: this one), moving the client's
        focus when the message takes it to another table."""
        if kind in HERE:
            return None
        if kind in NEW_HERE:
            self._refocus(None, None)
            self.attached = None
            return None
        if kind in ATTACHING:
            if kind == "resume":
                key = await self.node.key_of_match(str(message["match"]))
            else:
                key = "l:" + str(message["table"])
            if key is None:  # no such match: this process says so
                return None
            owner = await self.node.owner_for(key)
            target = None if owner == self.node.process else owner
            self._refocus(target, key)
            self.attached = dict(message)
            return target
        return self.focus

    def _refocus(self, target: str | None, key: str | None) -> None:
        """Move the client's focus to the table of ``key`` served by ``target``: the process
        it was relayed to forgets it, or it leaves what it sat at here."""
        if self.focus is not None and self.focus != target:
            self.node.relay.send(self.focus, Envelope(k="drop", c=self.cid))
        elif self.focus is None and target is not None:
            self._leave_all()
        self.focus, self.focus_key = target, key

    def deliver(self, origin: str, message: msgspec.Raw) -> None:
        """Send the client a message relayed from ``origin`` (dropped unless that process
        serves the client's table now)."""
        if origin == self.focus:
            self.out.put_nowait(message)

    async def reattach(self, message: dict[str, Any] | None = None) -> None:
        """The client's table moved: send ``message`` (default: its last ``join``, ``watch``
        or ``resume``) again, to wherever the table is served now."""
        message = message or self.attached
        if message is None or self.closed:
            return
        if self.focus is None:
            self._leave_all()
        await self._dispatch(str(message["type"]), message)


class Shadow(SiteLimited):
    """A client connected to another process, at a table of this one: its messages come over
    the relay and its messages go back the same way."""

    def __init__(
        self,
        manager: SiteManager,
        lobby: SiteLobby,
        node: Node,
        origin: str,
        cid: str,
        token: str,
        address: str,
    ) -> None:
        socket: Any = SimpleNamespace(client=SimpleNamespace(host=address), cookies={})
        super().__init__(socket, manager, lobby)
        self.node = node
        self.origin = origin
        self.cid = cid
        self.token = token
        self.out = RemoteSink(node, origin, cid)  # type: ignore[assignment]

    async def handle(self, message: dict[str, Any]) -> None:
        """Serve one message the client sent (checked by its edge)."""
        await self._dispatch(str(message["type"]), message)

    def close(self, drop_seat: bool) -> None:
        """Forget the client: it left (``drop_seat``: hold its lobby seat as a closed
        connection's), or it moved on to another process's table."""
        self.closed = drop_seat
        if drop_seat and self.waiting is not None:
            waiting, self.waiting = self.waiting, None
            self._leave_table()
            self.lobby.drop(self, waiting.data.id)
        else:
            self._leave_all()


class RemoteSink:
    """A shadow's outbox: each message goes to the client's edge over the relay."""

    def __init__(self, node: Node, origin: str, cid: str) -> None:
        self.node = node
        self.origin = origin
        self.cid = cid
        self.closed = False

    def put_nowait(self, item: dict[str, Any] | msgspec.Raw) -> None:
        """Relay one message to the client."""
        payload = item if isinstance(item, msgspec.Raw) else raw(item)
        self.node.relay.send(self.origin, Envelope(k="out", c=self.cid, m=payload))


def schedule(coro: Any) -> None:
    """Run a coroutine in a task of its own, logging what it raises."""
    task = asyncio.get_running_loop().create_task(coro)
    _tasks.add(task)
    task.add_done_callback(_done)


_tasks: set[asyncio.Task[Any]] = set()


def _done(task: asyncio.Task[Any]) -> None:
    _tasks.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.error("a site task failed", exc_info=task.exception())
