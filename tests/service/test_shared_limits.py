"""The rate limits of a site (server/limits.py ``SharedBuckets``): one bucket per person in
the suite's real Redis, shared by every process, and in memory while Redis is away."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest
import redis.asyncio

from meldhall.server.limits import SharedBucket, SharedBuckets
from tests.server.online_client import Client, bounded, run
from tests.service import servers
from tests.service.test_cluster import _redis_db, _site


async def _settled(*buckets: SharedBucket) -> None:
    """Wait for the top-ups the buckets have on their way."""
    for bucket in buckets:
        if bucket._topping is not None:
            await bucket._topping


def test_two_processes_share_one_burst() -> None:
    """Two processes (two Redis clients) spending one person's budget at once let through
    one burst between them, not one each."""
    url = _redis_db(7)

    async def main() -> None:
        clients = [redis.asyncio.Redis.from_url(url) for _ in range(2)]
        try:
            one, two = (SharedBuckets(c).bucket("msg:p", 0.001, 10) for c in clients)
            allowed = 0
            for _ in range(30):
                for bucket in (one, two):
                    await bucket.fill()
                    allowed += bucket.allow()
            await _settled(one, two)
            assert allowed + one.taken + two.taken == 10
            assert allowed >= 8
            assert not one.allow() and not two.allow()
        finally:
            for c in clients:
                await c.aclose()

    run(bounded(main(), 30))


def test_a_shared_bucket_fills_again_at_its_rate() -> None:
    url = _redis_db(7)

    async def main() -> None:
        client = redis.asyncio.Redis.from_url(url)
        try:
            bucket = SharedBuckets(client).bucket("chat:p", 5.0, 2)
            started = time.monotonic()
            allowed = 0
            while True:
                await bucket.fill()
                if not bucket.allow():
                    break
                allowed += 1
            # the burst, and what filled meanwhile (one token every 0.2 s)
            assert 2 <= allowed <= 2 + (time.monotonic() - started) * 5.0 + 1
            assert not bucket.allow()
            await asyncio.sleep(0.5)  # two and a half tokens' worth
            await bucket.fill()
            assert bucket.allow()
        finally:
            await client.aclose()

    run(bounded(main(), 30))


def test_shared_buckets_count_in_memory_while_redis_is_away(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> list[bool]:
        client = redis.asyncio.Redis.from_url(f"redis://127.0.0.1:{servers.free_port()}/0")
        try:
            buckets = SharedBuckets(client)
            bucket = buckets.bucket("msg:p", 0.001, 3)
            await bucket.fill()
            assert buckets.failing
            return [bucket.allow() for _ in range(5)]
        finally:
            await client.aclose()

    assert run(bounded(main(), 30)) == [True, True, True, False, False]
    assert "rate limits count in memory" in caplog.text


def test_a_bucket_needs_a_positive_rate_and_a_burst() -> None:
    buckets = SharedBuckets(redis.asyncio.Redis())
    with pytest.raises(ValueError, match="positive rate"):
        buckets.bucket("k", 0.0, 5)
    with pytest.raises(ValueError, match="at least 1"):
        buckets.bucket("k", 1.0, 0.5)


def test_one_persons_connections_to_two_processes_share_one_message_budget(
    tmp_path: Path,
) -> None:
    """A person connected to both processes of a site sends 16 messages with a budget of 10
    (one a second): some are refused (each process counting alone would let all through)."""
    one, two = _site(tmp_path, servers.postgres().new_database(), _redis_db(8))
    for server in (one, two):
        server.env.update(MELDHALL_RATE="1", MELDHALL_BURST="10")

    async def main() -> dict[str, int]:
        first = Client(one.url, "p")
        await first.connect()
        started = time.monotonic()
        second = Client(two.url, "p")
        second.token = first.token
        await second.connect()
        seen: dict[str, int] = {"lobby": 0, "rate_limited": 0}
        for client in (first, second):
            for _ in range(8):
                await client.send({"type": "lobby"})
            for _ in range(8):
                message: dict[str, Any] = await client.recv()
                while message["type"] not in ("lobby", "rejected"):
                    message = await client.recv()
                seen[message["type"] if message["type"] == "lobby" else message["code"]] += 1
            await client.close()
        seen["seconds"] = int(time.monotonic() - started) + 1
        return seen

    try:
        one.start()
        two.start()
        seen = run(bounded(main(), 60))
    finally:
        one.stop()
        two.stop()
    assert seen["lobby"] + seen["rate_limited"] == 16
    # the burst (less the tokens each connection holds), and a token a second meanwhile
    assert 8 <= seen["lobby"] <= 10 + seen["seconds"]


def test_the_relay_signs_in_to_a_redis_with_a_password(tmp_path: Path) -> None:
    """The relay's own connections (server/cluster/relay.py) use the client's password."""
    import subprocess

    from meldhall.server.cluster.relay import Envelope, Relay, raw

    port = servers.free_port()
    process = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--requirepass",
            "s3cret",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
    )

    async def main() -> list[Any]:
        for _ in range(100):
            try:
                await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.02)
        wrong = Relay(redis.asyncio.Redis.from_url(f"redis://127.0.0.1:{port}/0"), "x")
        with pytest.raises(ConnectionError):
            await wrong.start()
        await wrong.close()
        url = f"redis://:s3cret@127.0.0.1:{port}/0"
        a, b = (
            Relay(redis.asyncio.Redis.from_url(url), "a"),
            Relay(redis.asyncio.Redis.from_url(url), "b"),
        )
        got: list[Any] = []
        arrived = asyncio.Event()

        def keep(envelope: Envelope) -> None:
            got.append((envelope.origin, msgspec.json.decode(envelope.m)))
            arrived.set()

        b.handlers["out"] = keep
        await a.start()
        await b.start()
        a.send("b", Envelope(k="out", c="c", m=raw({"n": 1})))
        await asyncio.wait_for(arrived.wait(), 10)
        await a.close()
        await b.close()
        return got

    try:
        assert run(bounded(main(), 30)) == [("a", {"n": 1})]
    finally:
        process.kill()
        process.wait()


def test_a_chat_flood_is_counted_once_across_processes(tmp_path: Path) -> None:
    """A person chats 5 lines (the burst) at a table of one process, then more through a
    connection to the other (its chat relayed to the table's owner and checked there): they
    are refused, as they would be on one connection (but for what refilled meanwhile)."""
    one, two = _site(tmp_path, servers.postgres().new_database(), _redis_db(9))

    async def main() -> tuple[int, float]:
        first = Client(one.url, "p")
        await first.connect()
        table = await first.create("okey")
        second = Client(two.url, "p")
        second.token = first.token
        await second.connect()
        await second.join(table)
        started = time.monotonic()
        for n in range(5):
            await first.send({"type": "chat", "text": f"line {n}"})
            message = await first.recv()
            while message["type"] not in ("chat", "rejected"):
                message = await first.recv()
            assert message["type"] == "chat", message
        more = 0  # lines the second connection got through before its first refusal
        for n in range(3):
            await second.send({"type": "chat", "text": f"more {n}"})
            message = await second.recv()
            while message["type"] != "rejected" and message.get("text") != f"more {n}":
                message = await second.recv()
            if message["type"] == "rejected":
                assert message["code"] == "rate_limited"
                break
            more += 1
        for client in (first, second):
            await client.close()
        return more, time.monotonic() - started

    try:
        one.start()
        two.start()
        more, seconds = run(bounded(main(), 60))
    finally:
        one.stop()
        two.stop()
    assert more <= seconds * 0.5  # only what refilled meanwhile (one line every 2 s)
    assert more < 3  # a limit of its own would let all three through


def test_the_relay_connects_again_after_redis_restarts(tmp_path: Path) -> None:
    """Redis restarts: the relay's connections come back by themselves and carry on (what
    was sent while it was away is lost, as pub/sub keeps nothing)."""
    import subprocess

    from meldhall.server.cluster.relay import Envelope, Relay, raw

    port = servers.free_port()
    cmd = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    cmd += ["--dir", str(tmp_path)]
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)

    async def up() -> None:
        for _ in range(200):
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                return
            except OSError:
                await asyncio.sleep(0.02)

    async def main() -> list[Any]:
        nonlocal process
        await up()
        url = f"redis://127.0.0.1:{port}/0"
        a, b = (
            Relay(redis.asyncio.Redis.from_url(url), "a"),
            Relay(redis.asyncio.Redis.from_url(url), "b"),
        )
        got: list[Any] = []
        b.handlers["out"] = lambda envelope: got.append(msgspec.json.decode(envelope.m))
        await a.start()
        await b.start()
        a.send("b", Envelope(k="out", c="c", m=raw(1)))
        while not got:
            await asyncio.sleep(0.02)
        process.kill()
        process.wait()
        process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        await up()
        for n in range(2, 200):  # until both connections are back
            a.send("b", Envelope(k="out", c="c", m=raw(n)))
            await asyncio.sleep(0.05)
            if len(got) > 1:
                break
        await a.close()
        await b.close()
        return got

    try:
        got = run(bounded(main(), 30))
    finally:
        process.kill()
        process.wait()
    assert got[0] == 1 and len(got) > 1 and got[1:] == sorted(got[1:])
