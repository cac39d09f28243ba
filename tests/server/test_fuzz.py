"""A bounded fuzz of the WebSocket over real sockets (uvicorn on 127.0.0.1): malformed,
binary, deep, huge and surrogate-laden frames, and every client message type with random
fields. Each fuzzed frame is followed by a ``sync`` probe; what arrives between them is what
the frame caused. Wanted: no exception in the server's log, no connection dropped without a
close code, every refusal with a known code and a reason, and no refused frame that changed
the state."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from meldhall.server.protocol import CLIENT, check_server
from tests.server.online_client import ServerProcess, bounded, run

CLIENTS = 6
FRAMES = 150
"""Fuzzed frames per client (900 in all: some seconds)."""
CODES = re.compile(r"^[a-z_]+$")
JUNK: list[Any] = [
    None,
    True,
    -1,
    0,
    2**70,
    1.5,
    "",
    "x" * 80,
    "okey-cards",
    "\udc00",
    [],
    [1, [2]],
    {},
    {"a": {"b": None}},
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Path]]:
    data = tmp_path_factory.mktemp("fuzz")
    log = data / "server.log"
    srv = ServerProcess(data)
    srv.env["MELDHALL_RATE"] = srv.env["MELDHALL_BURST"] = "100000"  # probes are many
    with open(log, "wb") as out:  # the server's stderr (its log) goes to a file of its own
        saved = os.dup(2)
        os.dup2(out.fileno(), 2)
        try:
            srv.start()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
    yield srv, log
    srv.stop()


def fuzzed_field(schema: dict[str, Any], rng: random.Random) -> Any:
    """Return a value for a field: mostly one of its schema's kind, sometimes junk."""
    if rng.random() < 0.4:
        return rng.choice(JUNK)
    kind = schema.get("type")
    kinds = [kind] if isinstance(kind, str) else list(kind or ["string"])
    pick = rng.choice(kinds)
    if pick == "integer":
        return rng.choice([0, 1, 5, 10**9, -3])
    if pick == "string":
        return rng.choice(["okey-cards", "okey", "nope", "x" * rng.randrange(70), "d:5p"])
    if pick == "object":
        return rng.choice([{}, {"hands": 1}, {"turn_seconds": 0.01}, {"zzz": [1]}])
    if pick == "boolean":
        return rng.random() < 0.5
    return None


def fuzzed_message(rng: random.Random) -> dict[str, Any]:
    """Return a message of a random client type with random fields (known and unknown)."""
    kind = rng.choice(sorted(CLIENT))
    props: dict[str, Any] = dict(CLIENT[kind]["properties"])
    message: dict[str, Any] = {"type": kind}
    for name, schema in props.items():
        if name != "type" and rng.random() < 0.8:
            message[name] = fuzzed_field(schema, rng)
    if rng.random() < 0.1:
        message[rng.choice(["x", "seat", "ref"])] = rng.choice(JUNK)
    if kind == "start":  # a solo match of one seat: no computer moves between two probes
        message["game"] = rng.choice(["okey-cards", 3, "x", "okey-cards\udc00"])
    return message


def fuzzed_frame(rng: random.Random) -> str | bytes:
    """Return one frame: malformed, binary, deep, huge, surrogate-laden, or a random message."""
    roll = rng.random()
    if roll < 0.1:
        return rng.randbytes(rng.randrange(1, 64))
    if roll < 0.2:
        text = json.dumps(fuzzed_message(rng))
        return text[: rng.randrange(len(text))]
    if roll < 0.3:
        depth = rng.choice([13, 50, 1_000, 20_000])
        return '{"type": "act", "state_id": 0, "action": ' + "[" * depth + "]" * depth + "}"
    if roll < 0.35:
        return '{"type": "sync", "pad": "' + "a" * rng.choice([64_001, 200_000]) + '"}'
    if roll < 0.5:
        text = json.dumps(fuzzed_message(rng))
        return text.replace('"', '"\\ud83d', 1) if rng.random() < 0.5 else text + "\\udfff"
    message = fuzzed_message(rng)
    text = json.dumps(message, ensure_ascii=False)
    return text if text.isascii() or not re.search("[\ud800-\udfff]", text) else json.dumps(message)


async def fuzz_client(url: str, seed: int) -> dict[str, int]:
    """Send ``FRAMES`` fuzzed frames, each followed by a probe; return the counts seen."""
    rng = random.Random(seed)
    counts = {"frames": 0, "refused": 0, "changed_by_refusal": 0, "bad_refusal": 0, "dropped": 0}
    ws = await websockets.connect(url, max_size=2**22)
    try:
        await ws.send(json.dumps({"type": "hello"}))
        await ws.send(json.dumps({"type": "start", "game": "okey-cards"}))
        before = await probe(ws)
        for _ in range(FRAMES):
            await ws.send(fuzzed_frame(rng))
            counts["frames"] += 1
            caused = await until_probe(ws)
            after = caused.pop()
            refusals = [m for m in caused if m["type"] == "rejected"]
            for refusal in refusals:
                if not (CODES.match(refusal["code"]) and refusal["reason"]):
                    counts["bad_refusal"] += 1
            if refusals and len(refusals) == len(caused):
                counts["refused"] += 1
                if view(after) != view(before):
                    counts["changed_by_refusal"] += 1
            before = after
    except websockets.ConnectionClosed as exc:
        if exc.rcvd is None:
            counts["dropped"] += 1
    finally:
        await ws.close()
    return counts


async def probe(ws: Any) -> dict[str, Any]:
    """Return the answer to a ``sync``: a state, or a refusal when not at a table."""
    return (await until_probe(ws))[-1]


async def until_probe(ws: Any) -> list[dict[str, Any]]:
    """Send a ``sync`` and return every message up to its answer (the answer last)."""
    await ws.send(json.dumps({"type": "sync", "probe": 1}))  # an unknown field: a refusal
    seen: list[dict[str, Any]] = []
    while True:
        message = json.loads(await ws.recv())
        check_server(message)
        seen.append(message)
        if message["type"] == "rejected" and "'probe'" in message["reason"]:
            break
    await ws.send(json.dumps({"type": "sync"}))
    while True:
        message = json.loads(await ws.recv())
        check_server(message)
        if message["type"] == "state" or (
            message["type"] == "rejected" and message["code"] == "no_match"
        ):
            seen[-1] = message
            return seen
        seen.insert(-1, message)


def view(message: dict[str, Any]) -> Any:
    """Return what a probe's answer says of the connection's state."""
    if message["type"] != "state":
        return ("no table",)
    return (message["match"], message["state_id"], json.dumps(message["observation"]))


def test_fuzzed_frames_hurt_nothing(server: tuple[ServerProcess, Path]) -> None:
    srv, log = server

    async def main() -> list[dict[str, int]]:
        return await asyncio.gather(*(fuzz_client(srv.url, seed) for seed in range(CLIENTS)))

    results = run(bounded(main(), 120))
    total = {k: sum(r[k] for r in results) for k in results[0]}
    assert total["frames"] == CLIENTS * FRAMES
    assert total["refused"] > total["frames"] // 2
    assert total["dropped"] == 0 and total["bad_refusal"] == 0
    assert total["changed_by_refusal"] == 0
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and "Exception in ASGI application" not in text, text[-3000:]
