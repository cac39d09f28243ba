"""Four accounts play a one-hand remi match online against uvicorn (real sockets; the random
bot's seeded choices for every person): each gets a rating, in the order of their places."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest

from meldhall.server.lobby import COOKIE
from tests.server.conftest import new_database
from tests.server.online_client import Client, ServerProcess, bounded, run

ONE_HAND = {"match_end": "fixed_hands", "match_hands": 1}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path)
    srv.env["MELDHALL_DATABASE_URL"] = new_database("sqlite", tmp_path)
    srv.start()
    yield srv
    srv.stop()


def _post(base: str, path: str, body: Any, cookie: str = "") -> tuple[int, Any, SimpleCookie]:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "cookie": cookie},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            jar: SimpleCookie = SimpleCookie()
            for header in reply.headers.get_all("set-cookie") or []:
                jar.load(header)
            return reply.status, json.loads(reply.read()), jar
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), SimpleCookie()


def _account(base: str, name: str) -> str:
    """Return the session token of a new account (a guest claimed)."""
    _status, _body, jar = _post(base, "/api/guest", {"name": name})
    token = jar[COOKIE].value
    status, body, _ = _post(
        base, "/api/account/claim", {"name": name, "password": "p" * 12}, f"{COOKIE}={token}"
    )
    assert status == 200, body
    return token


def test_four_accounts_get_ratings_in_the_order_of_their_places(server: ServerProcess) -> None:
    names = ["Alp", "Bora", "Cem", "Deniz"]
    tokens = [_account(server.http, n) for n in names]

    async def main() -> dict[str, Any]:
        clients = [Client(server.url, f"typed {n}") for n in names]
        for client, token in zip(clients, tokens, strict=True):
            client.token = token
            await client.connect()
        table = await clients[0].create("remi", options=ONE_HAND)
        for client in clients[1:]:
            await client.join(table)
        for client in clients:
            await client.until("state")
        assert [p["name"] for p in clients[0].players] == names  # account names, not typed ones
        await asyncio.gather(*(c.play(rounds=99, seed=i) for i, c in enumerate(clients)))
        over = clients[0].over
        assert over is not None
        for client in clients:
            await client.close()
        return {"ranks": over["outcome"]["ranks"], "seats": [c.match["seat"] for c in clients]}

    result = run(bounded(main(), 120))
    place = {names[i]: result["ranks"][seat] for i, seat in enumerate(result["seats"])}
    with urllib.request.urlopen(f"{server.http}/api/leaderboard/remi", timeout=10) as reply:
        board = json.loads(reply.read())["top"]
    assert sorted(r["name"] for r in board) == sorted(names)
    assert all(r["matches"] == 1 and r["provisional"] for r in board)
    # the better place, the higher the rating; equal places, equal ratings
    for a in board:
        for b in board:
            if place[a["name"]] < place[b["name"]]:
                assert a["rating"] > b["rating"], (place, board)
            elif place[a["name"]] == place[b["name"]]:
                assert a["rating"] == b["rating"], (place, board)
