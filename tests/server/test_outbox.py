"""A connection's outbox: messages leave in order, and a client that falls too far behind is
closed instead of the server's memory growing without end."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, ClassVar

import pytest

from meldhall.server.ws import Connection, Outbox, OutboxOverflow
from tests.server.online_client import run


def test_messages_leave_in_order_all_at_once() -> None:
    async def main() -> None:
        box = Outbox(limit=10)
        box.put_nowait({"n": 1})
        box.put_nowait({"n": 2})
        assert await box.take() == [{"n": 1}, {"n": 2}]
        later = asyncio.get_running_loop().call_later(0.01, box.put_nowait, {"n": 3})
        assert await box.take() == [{"n": 3}]
        later.cancel()

    run(main())


def test_an_outbox_past_its_limit_drops_everything_and_says_so() -> None:
    async def main() -> None:
        box = Outbox(limit=3)
        for n in range(4):
            box.put_nowait({"n": n})
        with pytest.raises(OutboxOverflow):
            await box.take()

    run(main())


def test_a_message_goes_out_at_once_while_the_writer_waits_with_nothing_before_it() -> None:
    async def main() -> None:
        box = Outbox(limit=10)
        sent: list[Any] = []
        box.direct = lambda message: sent.append(message) is None
        box.put_nowait({"n": 0})  # no writer waits yet: it waits for the writer
        assert sent == [] and await box.take() == [{"n": 0}]
        writer = asyncio.ensure_future(box.take())
        await asyncio.sleep(0)  # the writer waits
        box.put_nowait({"n": 1})
        box.put_nowait({"n": 2})
        assert sent == [{"n": 1}, {"n": 2}] and not writer.done()
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer
        box.put_nowait({"n": 3})  # the writer is gone
        assert sent == [{"n": 1}, {"n": 2}]

    run(main())


def test_a_message_that_cannot_go_at_once_keeps_the_later_ones_behind_it() -> None:
    async def main() -> None:
        box = Outbox(limit=10)
        sent: list[Any] = []
        ready = False
        box.direct = lambda message: ready and sent.append(message) is None
        writer = asyncio.ensure_future(box.take())
        await asyncio.sleep(0)
        box.put_nowait({"n": 1})  # refused (the client's buffer is full): it waits
        ready = True
        box.put_nowait({"n": 2})  # could go, but must not pass the first
        assert sent == [] and await writer == [{"n": 1}, {"n": 2}]

    run(main())


class SlowSocket:
    """A client that stops reading: a send waits until ``reads`` is set."""

    scope: ClassVar[dict[str, object]] = {}  # no wire protocol: sends go through send_text

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None
        self.reads = asyncio.Event()

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await self.reads.wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = code


def test_a_client_that_falls_behind_is_closed() -> None:
    async def main() -> None:
        socket: Any = SlowSocket()
        conn = Connection(socket, manager=None, store=None)  # type: ignore[arg-type]
        conn.out = Outbox(limit=5)
        writer = asyncio.get_running_loop().create_task(conn._write())
        conn.out.put_nowait({"n": 0})
        await asyncio.sleep(0.01)  # the writer waits for the client to read
        for n in range(1, 8):
            conn.out.put_nowait({"n": n})
        assert conn.out.overflowed
        socket.reads.set()  # the client reads again: it is told to reconnect
        await asyncio.wait_for(writer, 5)
        assert socket.sent == ['{"n":0}'] and socket.closed == 1013

    run(main())
