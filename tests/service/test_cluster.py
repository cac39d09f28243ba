"""A site of two server processes on one PostgreSQL and one Redis (server/cluster/): leases
and fencing tokens, one lobby, clients of either process at any table, and the tables of a
process killed with SIGKILL taken over by the other from the stored log."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest
import redis as redis_sync
import redis.asyncio
from sqlalchemy import text
from starlette.testclient import TestClient

from meldhall.bots.base import make_bot
from meldhall.core.fairness import match_seed
from meldhall.games.registry import find_game
from meldhall.server.app import create_app
from meldhall.server.cluster.leases import Leases
from meldhall.server.cluster.relay import Envelope, Relay, raw
from meldhall.server.settings import SettingError, Settings
from meldhall.store.cleanup import cleanup
from meldhall.store.fences import fence_of, raise_fence
from meldhall.store.models import utcnow
from meldhall.store.repository import Store
from tests.server.online_client import Client, ServerProcess, bounded, run
from tests.service import servers

GAMES = ["okey", "tile-rummy", "remi", "sichuan", "okey-ladder"]
LONG_MATCHES: dict[str, dict[str, Any]] = {"sichuan": {"deals": 64}}
"""Options under which a match outlives a test that must play on after a takeover (a sichuan
match is one deal by default: random play ends it within seconds, and a finished table is
nobody's to take over)."""


def _redis_db(db: int) -> str:
    """Return the URL of an emptied database of the suite's Redis (one per test)."""
    url = servers.redis_server().url.rsplit("/", 1)[0] + f"/{db}"
    client = redis_sync.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()
    return url


# ---------------------------------------------------------------------- the store's fence


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_stale_owner_cannot_write_an_action(tmp_path: Path, backend: str) -> None:
    url = (
        f"sqlite:///{tmp_path / 'f.sqlite3'}"
        if backend == "sqlite"
        else servers.postgres().new_database()
    )
    old, new = Store(url), Store(url)
    try:
        fences_old: dict[str, int] = {}
        fences_new: dict[str, int] = {}
        old.fence_actions(fences_old)
        new.fence_actions(fences_new)
        session = old.session(None).token
        match = old.create_match(
            session, "okey", {}, [{"kind": "bot", "bot": "random"}] * 4, "ab" * 32, []
        )
        assert raise_fence(old.engine, match.id, 7, "old")
        fences_old[match.id] = 7
        old.stage_action(match.id, 0, 0, {"a": 0})
        old.commit_staged()
        assert old.refused_matches() == set()
        # a newer owner raises the fence; the old token can never come back
        assert raise_fence(new.engine, match.id, 9, "new")
        assert not raise_fence(old.engine, match.id, 7, "old")
        assert fence_of(old.engine, match.id) == 9
        old.stage_action(match.id, 1, 1, {"a": "stale"})
        old.commit_staged()
        assert old.refused_matches() == {match.id}
        fences_new[match.id] = 9
        new.stage_action(match.id, 1, 2, {"a": "new"})
        new.commit_staged()
        assert new.refused_matches() == set()
        stored = new.load_match(match.id)
        assert stored is not None and stored.log == [(0, {"a": 0}), (2, {"a": "new"})]
        with pytest.raises(ValueError, match="positive"):
            raise_fence(new.engine, match.id, 0, "x")
    finally:
        old.close()
        new.close()


# ---------------------------------------------------------------------- leases


def test_leases_are_exclusive_their_tokens_grow_and_they_expire() -> None:
    url = _redis_db(2)

    async def main() -> None:
        client = redis.asyncio.Redis.from_url(url)
        a, b = Leases(client, "a", ttl=0.3), Leases(client, "b", ttl=0.3)
        first = await a.acquire("m:1")
        assert first is not None and await a.acquire("m:1") == first
        assert await b.acquire("m:1") is None
        assert await b.owner("m:1") == "a" and await a.in_play() == ["m:1"]
        assert await a.renew() == []
        await asyncio.sleep(0.4)  # a stops renewing: the lease runs out
        assert await a.owners(["m:1", "m:2"]) == [None, None]
        second = await b.acquire("m:1")
        assert second is not None and second > first
        assert await a.renew() == ["m:1"] and "m:1" not in a.held
        await a.release("m:1")  # not a's any more: nothing happens
        assert await b.owner("m:1") == "b"
        await b.release("m:1")
        assert await b.owner("m:1") is None and await b.in_play() == []
        with pytest.raises(ValueError, match="spaces"):
            Leases(client, "a b")
        await client.aclose()

    run(main())


def test_the_relay_keeps_the_order_and_broadcasts_to_all() -> None:
    url = _redis_db(6)

    async def main() -> None:
        a = Relay(redis.asyncio.Redis.from_url(url), "a")
        b = Relay(redis.asyncio.Redis.from_url(url), "b")
        got: dict[str, list[Any]] = {"a": [], "b": []}
        done = asyncio.Event()

        def keep(name: str) -> Any:
            def handler(envelope: Envelope) -> None:
                got[name].append((envelope.k, envelope.origin, msgspec.json.decode(envelope.m)))
                if len(got["b"]) == 501 and len(got["a"]) == 1:
                    done.set()

            return handler

        for relay, name in ((a, "a"), (b, "b")):
            relay.handlers.update(out=keep(name), lobby=keep(name))
            await relay.start()
        for i in range(500):
            a.send("b", Envelope(k="out", c="c", m=raw({"n": i})))
            if i % 7 == 0:
                await asyncio.sleep(0)  # over several loop turns, so several batches
        a.broadcast(Envelope(k="lobby", key="t", m=raw(None)))
        await asyncio.wait_for(done.wait(), 10)
        assert [m for _k, _o, m in got["b"][:500]] == [{"n": i} for i in range(500)]
        assert got["b"][500] == got["a"][0] == ("lobby", "a", None)
        await a.close()
        await b.close()

    run(main())


# ---------------------------------------------------------------------- two processes


def _site(
    tmp_path: Path, database_url: str, redis_url: str, lease: float = 5.0
) -> list[ServerProcess]:
    """Return two server processes (not started) of one site, their leases ``lease`` long."""
    processes = []
    for name in ("one", "two"):
        server = ServerProcess(tmp_path / name)
        server.env.update(
            MELDHALL_DATABASE_URL=database_url,
            MELDHALL_REDIS_URL=redis_url,
            MELDHALL_LEASE_SECONDS=str(lease),
        )
        processes.append(server)
    return processes


def _replayed(store: Store, match_id: str, upto: int | None = None) -> Any:
    data = store.load_match(match_id)
    assert data is not None
    game = find_game(data.game)
    seed = match_seed(bytes.fromhex(data.secret), data.contributions)
    state = game.new_state(game.options(data.options), data.seats, seed)
    for seat, action in data.log[:upto]:
        state.apply(seat, game.action_from_json(action))
    return state


async def _busy(client: Client, until_state: int, seed: int) -> None:
    """Play this person's turns with the random bot until the state id reaches
    ``until_state`` (or the match ends, or the connection closes)."""
    assert client.match is not None
    game = find_game(client.match["game"])
    bot = make_bot(game.id, "random")
    rng = random.Random(seed)
    message = client.state or {"type": "none"}
    while client.over is None:
        if client.state is not None and client.state["state_id"] >= until_state:
            return
        if message["type"] == "state" and message["legal"]:
            legal = tuple(game.action_from_json(a["json"]) for a in message["legal"])
            await client.act(message, bot.choose(message["observation"], legal, rng).to_json())
        elif message["type"] == "state" and message["paused"]:
            await client.send({"type": "continue"})  # a hand ended: on to the next
        message = await client.recv()


def test_two_processes_one_lobby_twenty_tables_and_a_sigkill(tmp_path: Path) -> None:
    database_url = servers.postgres().new_database()
    redis_url = _redis_db(1)
    one, two = _site(tmp_path, database_url, redis_url)
    store = Store(database_url)
    tables: list[tuple[str, list[Client]]] = []
    logged: dict[str, int] = {}
    seen: dict[str, int] = {}
    solo = Client(one.url, "solo")

    async def lobby_and_tables() -> None:
        hosts = [Client((one, two)[i % 2].url, f"h{i}") for i in range(20)]
        for h in hosts:
            await h.connect()
        ids = [await h.create(GAMES[i % len(GAMES)]) for i, h in enumerate(hosts)]
        # every client of either process sees every table of the site
        for server in (one, two):
            lister = Client(server.url, "l")
            await lister.connect()
            for _attempt in range(50):
                await lister.send({"type": "lobby"})
                listed = {t["id"] for t in (await lister.until("lobby"))["tables"]}
                if set(ids) <= listed:
                    break
                await asyncio.sleep(0.1)
            assert set(ids) <= listed
            await lister.close()
        # each table's second person is a client of the other process
        for i, (h, table) in enumerate(zip(hosts, ids, strict=True)):
            guest = Client((two, one)[i % 2].url, f"g{i}")
            await guest.connect()
            await guest.join(table)
            await h.send({"type": "begin"})
            tables.append((table, [h, guest]))
        for _t, clients in tables:
            for c in clients:
                await c.until("state")
        # a solo match started on one, resumed from two: its messages are relayed
        await solo.connect()
        await solo.send({"type": "start", "game": "okey"})
        started = await solo.until("match")
        await solo.close()
        solo.url = two.url
        await solo.connect()
        await solo.send({"type": "resume", "match": started["match"]})
        assert (await solo.until("match"))["match"] == started["match"]
        await solo.until("state")

    async def kill_while_playing() -> float:
        """Return the seconds from the kill until every client of process two at a table of
        process one had that table back."""
        people = [c for _t, cs in tables for c in cs] + [solo]
        busy = [asyncio.create_task(_busy(c, 10**6, i)) for i, c in enumerate(people)]
        await asyncio.sleep(2.0)
        one.kill()
        killed = time.monotonic()
        relayed = [tables[i][1][1] for i in range(0, 20, 2)] + [solo]  # on two, one's tables
        for c in relayed:
            c.match = None

        async def back(c: Client) -> float:
            while c.match is None:  # the new owner sends the match again, then its state
                await asyncio.sleep(0.02)
            return time.monotonic() - killed

        waited = await asyncio.gather(*(back(c) for c in relayed))
        # the people of process two at its own tables hear that their partner's process died
        hosts = [tables[i][1][0] for i in range(1, 20, 2)]
        for _wait in range(200):
            if all(_partner_gone(h) for h in hosts):
                break
            await asyncio.sleep(0.05)
        assert all(_partner_gone(h) for h in hosts)
        for task in busy:
            task.cancel()
        await asyncio.gather(*busy, return_exceptions=True)
        return max(waited)

    def check_logs() -> None:
        for _t, clients in [*tables, ("solo", [solo])]:
            for c in clients:
                assert c.match is not None and c.state is not None
                match_id = c.match["match"]
                stored = store.load_match(match_id)  # a missing entry raises
                assert stored is not None
                logged[match_id] = len(stored.log)
                seen[match_id] = max(seen.get(match_id, 0), c.state["state_id"])
                # what each person last saw is in the log, exactly
                assert c.state["state_id"] <= logged[match_id]
                replayed = _replayed(store, match_id, c.state["state_id"])
                assert replayed.observation(c.match["seat"]) == c.state["observation"]
        assert len(logged) == 21

    async def play_on() -> None:
        for _t, clients in tables:
            for c in clients:
                if c.url == one.url:  # the dead process's clients come back through two
                    c.url, c.over = two.url, None
                    await c.connect()
                    assert c.match is not None
                    await c.send({"type": "resume", "match": c.match["match"]})
                    resumed = await c.until("state")
                    assert resumed["state_id"] >= seen[c.match["match"]]
        people = [c for _t, cs in tables for c in cs] + [solo]
        await asyncio.gather(*(_busy(c, logged[_match(c)] + 4, i) for i, c in enumerate(people)))
        for c in people:
            await c.close()

    async def main() -> float:
        await lobby_and_tables()
        seconds = await kill_while_playing()
        check_logs()
        await play_on()
        return seconds

    try:
        one.start()
        two.start()
        seconds = run(bounded(main(), 90))
        print(f"tables of the killed process served again after {seconds:.1f} s")
        assert seconds < 10.0
        for match_id, count in logged.items():
            data = store.load_match(match_id)
            assert data is not None
            _replayed(store, match_id)  # every stored action applies: none lost, none doubled
            assert len(data.log) > count or data.status == "over"
    finally:
        one.stop()
        two.stop()
        store.close()


def _owner(value: bytes | None) -> bytes:
    """Return the process named by a lease's value (``b""``: no lease)."""
    return (value or b"").rpartition(b" ")[0]


def _partner_gone(host: Client) -> bool:
    """Return whether a host sees the other person of its table as not connected."""
    assert host.match is not None
    people = [p for seat, p in enumerate(host.players) if p["kind"] == "person"]
    mine = host.players[host.match["seat"]]
    return any(not p["connected"] for p in people if p is not mine)


def _match(client: Client) -> str:
    assert client.match is not None
    return str(client.match["match"])


def test_a_paused_owner_is_fenced_out_and_its_clients_play_on(tmp_path: Path) -> None:
    """Process one stops (SIGSTOP) past its leases' life: process two takes its tables over;
    when one runs again, whatever it tries to store for them is refused, and its clients are
    relayed to the tables' new owner."""
    database_url = servers.postgres().new_database()
    redis_url = _redis_db(3)
    one, two = _site(tmp_path, database_url, redis_url, lease=3.0)
    store = Store(database_url)
    lease = redis_sync.Redis.from_url(redis_url)
    tables: list[tuple[str, list[Client]]] = []

    async def main() -> None:
        for i in range(4):  # every table is one's; the guests of two tables are on two
            host = Client(one.url, f"h{i}")
            guest = Client((one, two)[i % 2].url, f"g{i}")
            for c in (host, guest):
                await c.connect()
            game = GAMES[i % len(GAMES)]
            table = await host.create(game, options=LONG_MATCHES.get(game, {}))
            await guest.join(table)
            await host.send({"type": "begin"})
            for c in (host, guest):
                await c.until("state")
            tables.append((table, [host, guest]))
        people = [c for _t, cs in tables for c in cs]
        busy = [asyncio.create_task(_busy(c, 10**6, i)) for i, c in enumerate(people)]
        await asyncio.sleep(1.0)
        keys = [f"meldhall:lease:l:{t}" for t, _cs in tables]
        before = lease.mget(keys)
        assert one.proc is not None
        one.proc.send_signal(signal.SIGSTOP)
        try:
            for _wait in range(300):  # two takes every table over once one's leases ran out
                await asyncio.sleep(0.05)
                now = lease.mget(keys)
                if all(n is not None and n != b for n, b in zip(now, before, strict=True)):
                    break
            assert all(n is not None and n != b for n, b in zip(now, before, strict=True))
        finally:
            one.proc.send_signal(signal.SIGCONT)
        await asyncio.sleep(0.5)
        for task in busy:
            task.cancel()
        await asyncio.gather(*busy, return_exceptions=True)
        logged = {}
        for _t, clients in tables:
            data = store.load_match(_match(clients[0]))
            assert data is not None
            logged[data.id] = len(data.log)
        # everyone plays on at the new owner, the clients of one relayed there
        for c in people:
            c.state = None
        await asyncio.gather(*(_busy(c, logged[_match(c)] + 4, i) for i, c in enumerate(people)))
        # one never took a table back (two may have renewed late and taken its own again)
        assert {_owner(v) for v in lease.mget(keys)} == {_owner(v) for v in now}
        assert not {_owner(v) for v in now} & {_owner(v) for v in before}
        for c in people:
            assert c.match is not None and c.state is not None
            replayed = _replayed(store, _match(c), c.state["state_id"])
            assert replayed.observation(c.match["seat"]) == c.state["observation"]
            await c.close()

    try:
        one.start()
        two.start()
        run(bounded(main(), 60))
        for _t, clients in tables:
            _replayed(store, _match(clients[0]))  # every stored action applies
    finally:
        one.stop()
        two.stop()
        store.close()
        lease.close()


def test_settings_of_a_site() -> None:
    with pytest.raises(SettingError, match="--redis-url"):
        Settings(workers=2).check()
    with pytest.raises(SettingError, match=r"at least 0\.5"):
        Settings(lease_seconds=0.1).check()
    with pytest.raises(SettingError, match="in-memory"):
        Settings(redis_url="redis://x", database_url="sqlite://").check()
    assert Settings(workers=2, redis_url="redis://x").check().workers == 2


def test_one_process_of_a_site_reports_its_leases(tmp_path: Path) -> None:
    settings = Settings(
        data=str(tmp_path),
        bot_delay=0,
        database_url=servers.postgres().new_database(),
        redis_url=_redis_db(4),
    )
    with TestClient(create_app(settings=settings)) as client:
        for _attempt in range(100):
            if client.get("/readyz").json()["ok"]:
                break
            time.sleep(0.02)
        assert client.get("/readyz").json()["checks"]["site"] == "ok"
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello"}))
            assert json.loads(ws.receive_text())["type"] == "welcome"
            ws.send_text(json.dumps({"type": "start", "game": "okey"}))
            kinds = [json.loads(ws.receive_text())["type"] for _ in range(2)]
            assert kinds == ["match", "state"]
            text = client.get("/metrics").text
            assert "meldhall_leases 1.0" in text
            assert "meldhall_relayed_out_total" in text


def test_a_table_of_one_process_played_and_watched_from_the_other(tmp_path: Path) -> None:
    """Join, leave, join again, begin, watch and play a hand with the host on one process
    and the guest and the spectator on the other: every message is relayed both ways."""
    one, two = _site(tmp_path, servers.postgres().new_database(), _redis_db(5), lease=2.0)

    async def main() -> None:
        host, guest, watcher = Client(one.url, "h"), Client(two.url, "g"), Client(two.url, "w")
        for c in (host, guest, watcher):
            await c.connect()
        table = await host.create("okey")
        assert (await guest.join(table))["table"]["people"] == ["h", "g"]
        await guest.send({"type": "leave"})
        await guest.until("left")
        while (await host.until("table"))["table"]["people"] != ["h"]:
            pass  # the host hears of the join, then of the leave
        await guest.join(table)
        await guest.send({"type": "begin"})
        assert (await guest.until("rejected"))["code"] == "not_host"  # the owner judged it
        await host.send({"type": "begin"})
        for c in (host, guest):
            await c.until("state")
        await watcher.send({"type": "watch", "table": table})
        assert (await watcher.until("match"))["seat"] is None
        await asyncio.gather(host.play(rounds=1, seed=1), guest.play(rounds=1, seed=2))
        assert host.scores is not None and guest.scores is not None
        assert host.scores["rounds"] == guest.scores["rounds"] != []
        await watcher.send({"type": "act", "state_id": 0, "action": {}})
        assert (await watcher.until("rejected"))["code"] == "spectator"
        for c in (host, guest, watcher):
            await c.close()

    try:
        one.start()
        two.start()
        run(bounded(main(), 60))
    finally:
        one.stop()
        two.stop()


def test_cleanup_forgets_the_fencing_tokens_of_old_matches(database_url: str) -> None:
    store = Store(database_url)
    session = store.session(None).token
    players = [{"kind": "bot", "bot": "random"}] * 2
    old, fresh, playing = (
        store.create_match(session, "remi", {}, players, "00" * 32, []) for _ in range(3)
    )
    for token, match in enumerate((old, fresh, playing), start=1):
        assert raise_fence(store.engine, match.id, token, "p")
    store.finish_match(old.id, {"scores": [1, 2]})
    store.finish_match(fresh.id, {"scores": [1, 2]})
    with store.engine.begin() as conn:
        conn.execute(
            text("UPDATE matches SET finished = :at WHERE id = :id"),
            {"at": utcnow() - timedelta(days=40), "id": old.id},
        )
    assert cleanup(store.engine, 30)["fencing tokens"] == 1
    assert fence_of(store.engine, old.id) is None
    assert fence_of(store.engine, fresh.id) == 2 and fence_of(store.engine, playing.id) == 3
    store.close()
