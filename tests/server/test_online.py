"""Online play over real WebSockets against uvicorn on 127.0.0.1: lobby, seating, whole hands
of every multi-player game with two, three and four people, clocks, disconnects, spectators
and seat authority."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meldhall.server.games import available_games
from tests.server.conftest import DATABASES, new_database
from tests.server.online_client import Client, ServerProcess, bounded, run

GAMES = [gid for gid, g in available_games().items() if g.max_seats > 1]
SEATS = {2: [0, 2], 3: [0, 1, 2], 4: [0, 1, 2, 3]}


@pytest.fixture(scope="module", params=DATABASES)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    data_dir = tmp_path_factory.mktemp("online")
    srv = ServerProcess(data_dir)
    srv.env["MELDHALL_DATABASE_URL"] = new_database(request.param, data_dir)
    srv.start()
    yield srv
    srv.stop()


async def seat_table(
    server: ServerProcess, game: str, people: int, **extra: Any
) -> tuple[str, list[Client]]:
    """Return a table id and its people, seated and playing (the last one to join fills the
    table, or the host starts it)."""
    clients = [Client(server.url, f"p{i}") for i in range(people)]
    for c in clients:
        await c.connect()
    table = await clients[0].create(game, **extra)
    for c in clients[1:]:
        await c.join(table)
    if people < 4:
        await clients[0].send({"type": "begin"})
    for c in clients:
        await c.until("state")
    return table, clients


async def _play_hand(server: ServerProcess, game: str, people: int) -> None:
    _table, clients = await seat_table(server, game, people)
    for i, c in enumerate(clients):
        assert c.match is not None and c.match["seat"] == SEATS[people][i]
        kinds = [p["kind"] for p in c.players]
        assert [s for s, k in enumerate(kinds) if k == "person"] == SEATS[people]
        assert all(p["computer"] for p in c.players if p["kind"] == "bot")
        assert [p["name"] for p in c.players if p["kind"] == "person"] == [
            f"p{j}" for j in range(people)
        ]
    await asyncio.gather(*(c.play(rounds=1, seed=i) for i, c in enumerate(clients)))
    scores = [c.scores for c in clients]
    assert all(s is not None and len(s["rounds"]) >= 1 for s in scores)
    assert scores[0] is not None
    first = scores[0]["rounds"][0]
    assert all(s is not None and s["rounds"][0] == first for s in scores)
    for c in clients:
        await c.close()


def test_whole_hands_with_two_three_and_four_people(server: ServerProcess) -> None:
    async def main() -> None:
        await bounded(
            asyncio.gather(*(_play_hand(server, g, n) for g in GAMES for n in (2, 3, 4))), 90
        )

    run(main())


def test_lobby_lists_public_tables_and_hides_private_ones(server: ServerProcess) -> None:
    async def main() -> None:
        host, other = Client(server.url, "<b>host</b>"), Client(server.url, "x")
        await host.connect()
        await other.connect()
        public = await host.create("okey")
        private_host = Client(server.url, "y")
        await private_host.connect()
        private = await private_host.create("remi", public=False)
        await other.send({"type": "lobby"})
        listing = (await other.until("lobby"))["tables"]
        ids = [t["id"] for t in listing]
        assert public in ids and private not in ids
        mine = next(t for t in listing if t["id"] == public)
        assert mine["host"] == "<b>host</b>" and mine["people"] == ["<b>host</b>"]
        joined = await other.join(private)
        assert joined["table"]["people"] == ["y", "x"]
        await other.send({"type": "leave"})
        await other.until("left")
        told = await private_host.until("table")
        while told["table"]["people"] != ["y"]:
            assert told["table"]["people"] == ["y", "x"]
            told = await private_host.until("table")
        with urllib.request.urlopen(server.http + "/api/lobby", timeout=5) as r:
            assert public in [t["id"] for t in json.load(r)["tables"]]
        for c in (host, other, private_host):
            await c.close()

    run(bounded(main(), 30))


def test_bad_lobby_requests_are_rejected(server: ServerProcess) -> None:
    async def main() -> None:
        a, b = Client(server.url, "a"), Client(server.url, "b")
        await a.connect()
        await b.connect()
        await a.send({"type": "create", "game": "okey-cards"})
        assert (await a.until("rejected"))["code"] == "bad_options"
        await a.send({"type": "create", "game": "okey", "settings": {"turn_seconds": -1}})
        assert (await a.until("rejected"))["code"] == "bad_options"
        table = await a.create("okey")
        await a.send({"type": "begin"})
        assert (await a.until("rejected"))["code"] == "need_players"
        await b.join(table)
        await b.send({"type": "begin"})
        assert (await b.until("rejected"))["code"] == "not_host"
        await b.send({"type": "join", "table": "nope"})
        assert (await b.until("rejected"))["code"] == "no_table"
        await a.close()
        await b.close()

    run(bounded(main(), 30))


def test_disconnect_computer_takeover_and_reclaim(server: ServerProcess) -> None:
    async def main() -> None:
        table, (a, b) = await seat_table(
            server, "okey", 2, settings={"takeover_seconds": 0.2, "turn_seconds": 30}
        )
        b_seat = b.match["seat"] if b.match else None
        assert b_seat == 2
        await b.close()
        while not a.players[2]["computer_plays"]:
            await a.recv()
        assert a.players[2]["connected"] is False
        assert any(n["kind"] == "computer_plays" and n["seat"] == 2 for n in a.notices)
        # the table goes on: person a plays, the computer plays seat 2
        start = a.state["state_id"] if a.state else 0
        while a.state is None or a.state["state_id"] < start + 12:
            message = await a.recv()
            if message["type"] == "state" and message["legal"]:
                await a.act(message, message["legal"][0]["json"])
        await b.connect()
        await b.join(table)
        back = await b.until("state")
        assert back["seat"] == 2 and back["observation"]["hand"]
        while a.players[2]["computer_plays"] or not a.players[2]["connected"]:
            await a.recv()
        assert any(n["kind"] == "reclaimed" and n["seat"] == 2 for n in a.notices)
        await a.close()
        await b.close()

    run(bounded(main(), 40))


def test_the_clock_plays_a_default_action_and_tells_everyone(server: ServerProcess) -> None:
    async def main() -> None:
        _table, (a, b) = await seat_table(
            server, "sichuan", 2, settings={"turn_seconds": 0.3, "claim_seconds": 0.3}
        )
        timeouts: list[dict[str, Any]] = []
        while len(timeouts) < 2:
            message = await b.recv()
            if message["type"] == "notice" and message["kind"] == "timeout":
                timeouts.append(message)
            if message["type"] == "clock":
                assert message["seconds"] <= 0.3
            if message["type"] == "state" and message["clock"] is not None:
                assert message["clock"]["seconds"] <= 0.3
        assert {n["seat"] for n in timeouts} <= {0, 2}
        while b.state is None or b.state["state_id"] == 0:  # the timed-out moves are played
            await b.until("state")
        await a.close()
        await b.close()

    run(bounded(main(), 30))


def test_seat_authority(server: ServerProcess) -> None:
    async def main() -> None:
        _t1, (a, b) = await seat_table(server, "remi", 2)
        _t2, (c, d) = await seat_table(server, "remi", 2)
        seen = a.state
        while seen is None or not set(seen["to_act"]) & {0, 2}:
            seen = await a.until("state")
        if 2 in seen["to_act"]:
            a, b = b, a  # the person whose turn it is plays the part of a
        state = a.state
        while state is None or state["state_id"] != seen["state_id"]:
            state = await a.until("state")
        action = state["legal"][0]["json"]
        sid = state["state_id"]
        tries: list[tuple[dict[str, Any], str]] = [
            ({"seat": 2 - a.match["seat"] if a.match else 0}, "not_your_seat"),
            ({"match": c.match["match"] if c.match else ""}, "not_your_table"),
            ({"state_id": sid + 3}, "stale_state"),
        ]
        for extra, code in tries:
            await a.send({"type": "act", "state_id": sid, "action": action, **extra})
            assert (await a.until("rejected"))["code"] == code
        await b.act(state, action)
        assert (await b.until("rejected"))["code"] == "not_your_turn"
        assert c.match is not None
        await a.send({"type": "resume", "match": c.match["match"]})
        assert (await a.until("rejected"))["code"] == "not_your_seat"
        await a.send({"type": "resume", "match": state["match"]})
        await a.send({"type": "sync"})
        after = await a.until("state")
        assert after["state_id"] == sid and after["observation"] == state["observation"]
        for cl in (a, b, c, d):
            await cl.close()

    run(bounded(main(), 30))


def test_flooding_is_rejected_as_rate_limited(server: ServerProcess) -> None:
    async def main() -> None:
        a = Client(server.url, "a")
        await a.connect()
        for _ in range(400):
            await a.send({"type": "lobby"})
        codes = set()
        for _ in range(400):
            message = await a.recv()
            if message["type"] == "rejected":
                codes.add(message["code"])
        assert codes == {"rate_limited"}
        await a.close()

    run(bounded(main(), 30))


def test_guest_cookie_is_http_only_and_names_the_session(server: ServerProcess) -> None:
    request = urllib.request.Request(
        server.http + "/api/guest",
        data=json.dumps({"name": "Ann\x07"}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=5) as r:
        cookie = r.headers["set-cookie"]
        assert json.load(r)["name"] == "Ann"
    assert "HttpOnly" in cookie and cookie.startswith("meldhall_session=")


def test_a_waiting_table_holds_a_reloading_persons_place(server: ServerProcess) -> None:
    async def main() -> None:
        host, guest = Client(server.url, "host"), Client(server.url, "guest")
        await host.connect()
        await guest.connect()
        table = await host.create("okey", settings={"hold_seconds": 0.5})
        told = await guest.join(table)
        assert told["table"]["you"] == 1 and not told["table"]["you_host"]
        await host.close()  # a reload: the place is held
        await host.connect()
        back = await host.join(table)
        assert back["table"]["people"] == ["host", "guest"] and back["table"]["you_host"]
        assert back["table"]["host_index"] == 0
        await guest.close()  # gone for good: the place is given up after hold_seconds
        told = await host.until("table")
        assert told["table"]["people"] == ["host"] and told["table"]["you"] == 0
        await host.close()

    run(bounded(main(), 30))


def test_tables_in_play_are_listed_to_watch(server: ServerProcess) -> None:
    async def main() -> None:
        table, (a, b) = await seat_table(server, "remi", 2)
        assert a.match is not None and a.match["table"] == table
        watcher = Client(server.url, "w")
        await watcher.connect()
        await watcher.send({"type": "lobby"})
        listed = {t["id"]: t for t in (await watcher.until("lobby"))["tables"]}
        assert listed[table]["status"] == "playing"
        await watcher.send({"type": "watch", "table": table})
        assert (await watcher.until("match"))["seat"] is None
        for c in (a, b, watcher):
            await c.close()

    run(bounded(main(), 30))


def test_a_rematch_seats_the_same_people_at_a_new_table(server: ServerProcess) -> None:
    async def main() -> None:
        old, (a, b) = await seat_table(server, "sichuan", 2)  # one hand is the whole match
        await a.send({"type": "rematch"})
        assert (await a.until("rejected"))["code"] == "not_over"
        await asyncio.gather(a.play(rounds=99, seed=1), b.play(rounds=99, seed=2))
        assert a.over is not None and b.over is not None
        await a.send({"type": "rematch"})
        offer = await b.until("rematch")
        assert offer["name"] == "p0" and offer["seat"] == 0 and offer["table"] != old
        mine = await a.until("table")
        assert mine["table"]["id"] == offer["table"] and mine["table"]["you_host"]
        await b.send({"type": "rematch"})  # the second asker joins the same table
        joined = await b.until("table")
        assert joined["table"]["id"] == offer["table"] and joined["table"]["people"] == [
            "p0",
            "p1",
        ]
        await a.send({"type": "begin"})
        a.match = b.match = None
        while a.match is None or b.match is None:
            await asyncio.gather(a.until("match"), b.until("match"))
        assert (a.match["seat"], b.match["seat"]) == (0, 2)
        assert a.match["table"] == offer["table"]
        for c in (a, b):
            await c.close()

    run(bounded(main(), 60))


def test_a_finished_table_is_unloaded_after_a_while(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path, keep_finished=0.5)
    srv.start()

    async def main() -> None:
        table, (a, b) = await seat_table(srv, "sichuan", 2)
        match = a.match["match"] if a.match else ""
        await asyncio.gather(a.play(rounds=99, seed=1), b.play(rounds=99, seed=2))
        await a.close()
        await a.connect()
        await a.join(table)  # right after the end: the result again
        assert (await a.until("match_over"))["match"] == match
        await asyncio.sleep(1.0)  # unloaded: the lobby forgot the table, the store did not
        await a.send({"type": "join", "table": table})
        assert (await a.until("rejected"))["code"] == "no_table"
        await a.send({"type": "resume", "match": match})
        assert (await a.until("match_over"))["match"] == match
        for c in (a, b):
            await c.close()

    try:
        run(bounded(main(), 60))
    finally:
        srv.stop()


def test_the_table_option_bots_sets_the_computers_level(server: ServerProcess) -> None:
    async def main() -> None:
        _table, (a, b) = await seat_table(server, "remi", 2, settings={"bots": "easy"})
        for c in (a, b):
            computers = [p for p in c.players if p["kind"] == "bot"]
            assert len(computers) == 2
            assert all(p["level"] == "easy" and p["bot"] == "easy" for p in computers)
        await a.close()
        await b.close()
        _table, (c, d) = await seat_table(server, "remi", 2)
        assert {p["level"] for p in c.players if p["kind"] == "bot"} == {"hard"}
        await c.close()
        await d.close()

    run(bounded(main(), 40))
