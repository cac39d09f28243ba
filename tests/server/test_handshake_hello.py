"""A hello said in the WebSocket handshake (the ``meldhall.hello`` subprotocol, the token in
``meldhall.token.<token>``): welcomed at once, checked like a hello message, never logged; the
hello sent as a first message still works beside it (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import websockets
from starlette.testclient import TestClient

from meldhall.server.ws import HELLO_PROTOCOL, TOKEN_PROTOCOL, handshake_hello
from tests.server.conftest import Peer
from tests.server.online_client import free_port, run


def test_a_handshake_hello_is_welcomed_at_once_with_a_new_session(client: TestClient) -> None:
    with client.websocket_connect("/ws", subprotocols=[HELLO_PROTOCOL]) as ws:
        assert ws.accepted_subprotocol == HELLO_PROTOCOL
        welcome = Peer(ws).recv()
        assert welcome["type"] == "welcome" and len(welcome["token"]) > 20


def test_a_handshake_token_resumes_its_session_and_its_match(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        first = Peer(ws).hello()
        Peer(ws).send({"type": "start", "game": "toy", "contribution": "abc"})
        match = Peer(ws).until("match")
    offered = [HELLO_PROTOCOL, TOKEN_PROTOCOL + first["token"]]
    with client.websocket_connect("/ws", subprotocols=offered) as ws:
        peer = Peer(ws)
        again = peer.recv()
        assert again["type"] == "welcome" and again["token"] == first["token"]
        assert again["playing"] == {"toy": match["match"]}
        # no hello message: the handshake's opened the session
        peer.send({"type": "resume", "match": match["match"]})
        assert peer.until("match")["match"] == match["match"]


def test_a_bad_handshake_token_is_rejected_and_opens_no_session(client: TestClient) -> None:
    offered = [HELLO_PROTOCOL, TOKEN_PROTOCOL + "x" * 65]
    with client.websocket_connect("/ws", subprotocols=offered) as ws:
        peer = Peer(ws)
        refused = peer.recv()
        assert refused["type"] == "rejected" and refused["code"] == "bad_message"
        assert "token" in refused["reason"]
        peer.send({"type": "start", "game": "toy", "contribution": "abc"})
        assert peer.recv()["code"] == "no_session"
        # the first-message hello still opens one on the same socket
        assert peer.hello()["type"] == "welcome"


def test_without_the_subprotocol_the_server_waits_for_a_hello_message(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws", subprotocols=["other"]) as ws:
        assert ws.accepted_subprotocol is None
        peer = Peer(ws)
        peer.send({"type": "sync"})
        assert peer.recv()["code"] == "no_session"
        assert peer.hello()["type"] == "welcome"


def test_the_handshake_token_is_never_logged(tmp_path: Path) -> None:
    """uvicorn at the info level logs each WebSocket's URL (the probe in the query shows it
    does), never the handshake's token."""
    port = free_port()
    env = dict(os.environ, MELDHALL_DATA=str(tmp_path))
    command = [sys.executable, "-m", "uvicorn", "--factory", "meldhall.server.app:app_from_env"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "info"]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    async def hello_twice() -> str:
        url = f"ws://127.0.0.1:{port}/ws"
        for _ in range(100):
            try:
                async with websockets.connect(url) as ws:
                    await ws.send(json.dumps({"type": "hello"}))
                    token: str = json.loads(await ws.recv())["token"]
                break
            except OSError:
                await asyncio.sleep(0.1)
        offered = [HELLO_PROTOCOL, TOKEN_PROTOCOL + token]
        async with websockets.connect(f"{url}?probe=query-shown", subprotocols=offered) as ws:
            assert json.loads(await ws.recv())["token"] == token
        return token

    try:
        token = run(hello_twice())
    finally:
        proc.terminate()
        err, _ = proc.communicate(timeout=10)
    logged = err.decode()
    assert "query-shown" in logged and token not in logged


def test_handshake_hello_reads_the_offered_subprotocols() -> None:
    assert handshake_hello(["chat"]) is None
    assert handshake_hello([]) is None
    assert handshake_hello([HELLO_PROTOCOL]) == '{"type":"hello","token":null}'
    said = handshake_hello([TOKEN_PROTOCOL + "abc", HELLO_PROTOCOL])
    assert said == '{"type":"hello","token":"abc"}'
