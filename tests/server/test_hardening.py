"""The twelve findings of issue 15, one test (or a few) each: broken matches quarantined, text
checked at the edge, resource bounds, refusals that change nothing, no token in a URL,
security headers and origin checks, verification of finished matches only, expiring
sessions and per-address caps, and restarts from snapshots."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import hashlib
import json
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any, ClassVar

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meldhall.bots.base import make_bot
from meldhall.cli import main as cli_main
from meldhall.core.fairness import match_seed
from meldhall.core.replay import log_from_json, replay
from meldhall.games.registry import find_game
from meldhall.server.app import create_app
from meldhall.server.limits import Limits
from meldhall.server.security import SecurityMiddleware
from meldhall.server.ws import Connection
from meldhall.store.lobby import LobbyData, LobbyStore
from meldhall.store.repository import DB_NAME, Snapshot, Store, utcnow
from meldhall.store.snapshots import seal, unseal
from meldhall.tables.table import Table
from tests.server.conftest import Peer
from tests.server.online_client import run

WEB = Path(__file__).resolve().parents[2] / "src" / "meldhall" / "web"
QUICK = {"countdown_seconds": 0.05, "turn_seconds": 600, "claim_seconds": 600}


def app_client(data_dir: Path, **limits: Any) -> TestClient:
    """Return a test client of an app on ``data_dir`` with these limits (bots at once)."""
    return TestClient(create_app(data_dir, bot_delay=0.0, limits=Limits(**limits)))


def until_true(check: Any, seconds: float = 5.0) -> bool:
    """Return whether ``check()`` turned true within ``seconds`` (the app runs in a thread)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return bool(check())


def play_some(peer: Peer, actions: int) -> str:
    """Start a solo toy match, play ``actions`` of its moves and return its id."""
    peer.hello()
    peer.send({"type": "start", "game": "toy"})
    match_id: str = peer.until("match")["match"]
    played = 0
    while played < actions:
        message = peer.recv()
        if message["type"] == "state" and message["legal"]:
            action = message["legal"][0]["json"]
            peer.send({"type": "act", "state_id": message["state_id"], "action": action})
            played += 1
        elif message["type"] == "state" and message["paused"]:
            peer.send({"type": "continue"})
    peer.send({"type": "sync"})
    peer.until("state")
    return match_id


def corrupt_action(data_dir: Path, match_id: str, index: int, text: str) -> None:
    """Overwrite one stored action of a match with ``text`` (as a bad disk or hand might)."""
    with sqlite3.connect(data_dir / DB_NAME) as db:
        db.execute(
            'UPDATE actions SET action = ? WHERE match_id = ? AND "index" = ?',
            (text, match_id, index),
        )


@contextlib.contextmanager
def online_match(client: TestClient) -> Iterator[tuple[Peer, Peer, str]]:
    """Yield two people at a started online toy match, one move played, and its id."""
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b = Peer(ws_a), Peer(ws_b)
        a.hello()
        b.hello()
        a.send({"type": "create", "game": "toy", "settings": QUICK, "name": "a"})
        table = a.until("table")["table"]["id"]
        b.send({"type": "join", "table": table, "name": "b"})
        match_id = a.until("match")["match"]
        b.until("match")
        states = [a.until("state"), b.until("state")]
        mover, state = next((p, m) for p, m in zip((a, b), states, strict=True) if m["legal"])
        action = state["legal"][0]["json"]
        mover.send({"type": "act", "state_id": state["state_id"], "action": action})
        mover.until("state", state_id=state["state_id"] + 1)
        yield a, b, match_id


# ---------------------------------------------------------------- 1: quarantine


def test_a_broken_online_match_is_quarantined_and_the_server_starts(
    tmp_path: Path, toy_registered: None
) -> None:
    with app_client(tmp_path) as client:
        with online_match(client) as (_a, _b, broken):
            pass
        with online_match(client) as (_a, _b, healthy):
            pass
    corrupt_action(tmp_path, broken, 0, "{not json")
    with app_client(tmp_path) as client:  # start-up replays every online match in play
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert healthy in manager.tables and broken not in manager.tables
        entry = manager.store.quarantined(broken)
        assert entry is not None and entry.action_index == 0 and "not JSON" in entry.problem
        with client.websocket_connect("/ws") as ws:
            peer = Peer(ws)
            peer.hello()
            peer.send({"type": "resume", "match": broken})
            refusal = peer.until("rejected")
            assert refusal["code"] == "match_broken" and broken in refusal["reason"]


def test_a_broken_solo_match_answers_an_error_and_is_listed(
    tmp_path: Path, toy_registered: None, capsys: pytest.CaptureFixture[str]
) -> None:
    with app_client(tmp_path) as client, client.websocket_connect("/ws") as ws:
        match_id = play_some(Peer(ws), 2)
    corrupt_action(tmp_path, match_id, 1, json.dumps({"type": "play", "card": "c99z"}))
    with app_client(tmp_path) as client:
        with client.websocket_connect("/ws") as ws:
            peer = Peer(ws)
            peer.hello()
            for _ in range(2):  # the second try does not replay again: the match is set aside
                peer.send({"type": "resume", "match": match_id})
                assert peer.until("rejected")["code"] == "match_broken"
            peer.send({"type": "start", "game": "toy"})  # the connection goes on
            peer.until("match")
        answer = client.get(f"/api/matches/{match_id}")
        assert answer.status_code == 409 and "log entry 1" in answer.json()["error"]
    assert cli_main(["quarantine", "list", "--data", str(tmp_path)]) == 0
    listed = capsys.readouterr().out
    assert match_id in listed and "log entry 1" in listed
    assert cli_main(["quarantine", "export", "--data", str(tmp_path)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported[0]["match"] == match_id and "c99z" in exported[0]["log"][1][2]


# ---------------------------------------------------------------- 2 and 7: the edge


def test_a_lone_surrogate_never_reaches_the_lobby(tmp_path: Path, toy_registered: None) -> None:
    with app_client(tmp_path) as client, client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send('{"type": "create", "game": "toy", "name": "\\udc00"}')
        assert peer.until("rejected")["code"] == "bad_text"
        peer.send({"type": "lobby"})
        assert peer.until("lobby")["tables"] == []
        assert client.get("/api/lobby").status_code == 200


def test_a_stored_surrogate_name_is_cleaned_at_restart(
    tmp_path: Path, toy_registered: None
) -> None:
    store = Store.in_dir(tmp_path)
    LobbyStore(store).save(
        LobbyData("t1", "toy", {}, {}, True, "s", people=[{"session": "s", "name": "x\udc00"}])
    )
    store.engine.dispose()
    with app_client(tmp_path) as client:
        answer = client.get("/api/lobby")
        assert answer.status_code == 200 and answer.json()["tables"][0]["people"] == ["x"]


def test_a_writer_drops_a_message_it_cannot_encode_and_goes_on() -> None:
    sent: list[str] = []

    class Socket:
        scope: ClassVar[dict[str, object]] = {}  # no wire protocol: sends go through send_text

        async def send_text(self, text: str) -> None:
            sent.append(text)

    async def main() -> None:
        conn = Connection(Socket(), manager=None, store=None)  # type: ignore[arg-type]
        writer = asyncio.get_running_loop().create_task(conn._write())
        conn.out.put_nowait({"type": "lobby", "tables": ["\udc00"]})
        conn.out.put_nowait({"type": "left"})
        while not sent:
            await asyncio.sleep(0.01)
        writer.cancel()

    run(main())
    assert sent == ['{"type":"left"}']


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (b"\x00\x01binary", "binary_frame"),
        ("[" * 5000 + "]" * 5000, "too_deep"),
        ('{"type": "hello", "token": "\\ud800"}', "bad_text"),
        ('{"type": "resume", "match": "\\udfff"}', "bad_text"),
        ('{"type": "act", "state_id": 0, "action": ' + "[" * 100 + "]" * 100 + "}", "too_deep"),
        ('{"type": "sync", "x": "' + "a" * 70_000 + '"}', "too_large"),
    ],
)
def test_bad_frames_are_rejected_and_the_connection_stays(
    tmp_path: Path, toy_registered: None, frame: str | bytes, code: str
) -> None:
    with app_client(tmp_path) as client, client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        if isinstance(frame, bytes):
            ws.send_bytes(frame)
        else:
            ws.send_text(frame)
        assert peer.until("rejected")["code"] == code
        assert peer.hello()["token"]


# ---------------------------------------------------------------- 3: HTTP bodies


def test_a_large_body_is_refused_before_it_is_read() -> None:
    reads = 0
    answers: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the app must not run")

    async def receive() -> dict[str, Any]:
        nonlocal reads
        reads += 1
        return {"type": "http.request", "body": b"x" * 65_536, "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        answers.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/guest",
        "headers": [(b"content-length", b"200000000"), (b"content-type", b"application/json")],
    }
    run(SecurityMiddleware(app, Limits())(scope, receive, send))
    assert answers[0]["status"] == 413 and reads == 0
    del scope["headers"][0]  # no length told: refused once the body grows past the limit
    answers.clear()
    run(SecurityMiddleware(app, Limits())(scope, receive, send))
    assert answers[0]["status"] == 413 and reads == 2


def test_large_and_non_json_bodies_get_413_and_415(tmp_path: Path, toy_registered: None) -> None:
    with app_client(tmp_path) as client:
        big = client.post("/api/verify", json={"log": ["x" * 100_000]})
        assert big.status_code == 413
        plain = client.post(
            "/api/guest", content=b'{"name": "a"}', headers={"content-type": "text/plain"}
        )
        assert plain.status_code == 415 and "set-cookie" not in plain.headers


# ---------------------------------------------------------------- 4: solo tables unloaded


def test_solo_tables_nobody_listens_to_are_unloaded(tmp_path: Path, toy_registered: None) -> None:
    with app_client(tmp_path, solo_grace_seconds=0.05) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        with client.websocket_connect("/ws") as ws:
            peer = Peer(ws)
            for _ in range(5):  # hello, start, hello, start: each start leaves a table behind
                peer.hello()
                peer.send({"type": "start", "game": "toy"})
                match_id = peer.until("match")["match"]
            assert until_true(lambda: list(manager.tables) == [match_id])
        assert until_true(lambda: not manager.tables)


# ---------------------------------------------------------------- 5: clock minimums


def test_clocks_have_sane_minimums(tmp_path: Path, toy_registered: None) -> None:
    with app_client(tmp_path) as client, client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        for settings in ({"turn_seconds": 0.01}, {"claim_seconds": 0.01}):
            peer.send({"type": "create", "game": "toy", "settings": settings})
            refusal = peer.until("rejected")
            assert refusal["code"] == "bad_options" and "between" in refusal["reason"]


# ---------------------------------------------------------------- 6: refusals change nothing


def test_a_refused_start_or_create_leaves_the_table_as_it_was(
    tmp_path: Path, toy_registered: None
) -> None:
    with app_client(tmp_path) as client, client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        play_some(peer, 1)
        for bad in (
            {"type": "start", "game": "toy", "options": {"hands": "many"}},
            {"type": "create", "game": "okey-cards"},
            {"type": "create", "game": "toy", "options": {"nope": 1}},
        ):
            peer.send(bad)
            assert peer.until("rejected")["code"] == "bad_options"
            peer.send({"type": "sync"})
            assert peer.until("state")["match"]  # still at its table
        peer.send({"type": "create", "game": "toy", "settings": QUICK})
        table = peer.until("table")["table"]["id"]
        peer.send({"type": "create", "game": "okey-cards"})
        assert peer.until("rejected")["code"] == "bad_options"
        peer.send({"type": "begin"})  # still the host of its waiting table
        assert peer.until("rejected")["code"] == "need_players"
        assert client.get("/api/lobby").json()["tables"][0]["id"] == table


# ---------------------------------------------------------------- 8: no token in a URL


def test_the_records_token_travels_in_a_header(tmp_path: Path, toy_registered: None) -> None:
    with app_client(tmp_path) as client:
        with client.websocket_connect("/ws") as ws:
            token = Peer(ws).hello()["token"]
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        person = [{"kind": "person", "session": token}]
        match = store.create_match(token, "toy", {}, person, "00" * 32, [])
        store.add_record(match.id, token, "toy", 5, 1, True)
        assert client.get("/api/records", params={"token": token}).json()["mine"] == []
        mine = client.get("/api/records", headers={"x-meldhall-token": token}).json()["mine"]
        assert [r["match"] for r in mine] == [match.id]
    assert "token=" not in (WEB / "js" / "records.js").read_text()


# ---------------------------------------------------------------- 9: headers and origins


def test_pages_carry_security_headers(tmp_path: Path, toy_registered: None) -> None:
    with app_client(tmp_path) as client:
        for path in ("/", "/play/toy", "/api/games", "/static/js/page.js"):
            headers = client.get(path).headers
            policy = headers["content-security-policy"]
            assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
            assert "unsafe-inline" not in policy
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "no-referrer"


def test_served_inline_scripts_are_allowed_by_their_hash_alone(
    tmp_path: Path, toy_registered: None
) -> None:
    with app_client(tmp_path) as client:
        response = client.get("/play/toy")
        policy = response.headers["content-security-policy"]
        scripts = re.findall(r"<script>(.*?)</script>", response.text, re.S)
        assert scripts, "the table page carries its early socket inline"
        for script in scripts:
            digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in policy
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy


def test_no_page_has_inline_script_style_or_handlers() -> None:
    # a script the server fills in names its file (data-inline): its hash is in the policy;
    # a JSON data block (the games' list the server writes in the table page) is never run
    inline = re.compile(
        r"<script(?![^>]*\b(?:src=|type=\"application/json\"))|<style|\sstyle=|\son[a-z]+=", re.I
    )
    for page in WEB.glob("*.html"):
        assert not inline.search(page.read_text()), page.name
    markup = re.compile(r"""\son[a-z]+=["']|style=["']|setAttribute\(["']style|cssText""")
    for module in WEB.glob("js/**/*.js"):  # styles only through the CSSOM (el() in i18n.js)
        found = markup.findall(module.read_text())
        assert found == (["cssText"] if module.name == "i18n.js" else []), module


def test_cross_site_posts_and_sockets_are_refused(tmp_path: Path, toy_registered: None) -> None:
    evil = {"origin": "https://evil.example"}
    with app_client(tmp_path, allowed_origins=("https://friend.example",)) as client:
        answer = client.post("/api/guest", json={"name": "x"}, headers=evil)
        assert answer.status_code == 403 and "set-cookie" not in answer.headers
        own = client.post("/api/guest", json={"name": "x"}, headers={"origin": "http://testserver"})
        assert own.status_code == 200
        friend = {"origin": "https://friend.example"}
        assert client.post("/api/guest", json={"name": "x"}, headers=friend).status_code == 200
        with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws", headers=evil):
            pass
        with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
            assert Peer(ws).hello()["token"]


def test_the_cookie_is_secure_when_asked(tmp_path: Path, toy_registered: None) -> None:
    with app_client(tmp_path) as client:
        assert "secure" not in client.post("/api/guest", json={}).headers["set-cookie"].lower()
    with app_client(tmp_path, secure_cookies=True) as client:
        assert "secure" in client.post("/api/guest", json={}).headers["set-cookie"].lower()


# ---------------------------------------------------------------- 10: verify finished matches


def test_verify_needs_the_whole_log(tmp_path: Path, toy_registered: None) -> None:
    with app_client(tmp_path) as client:
        with client.websocket_connect("/ws") as ws:
            peer = Peer(ws)
            match_id = play_some(peer, 1)
            while (message := peer.recv())["type"] != "match_over":
                if message["type"] == "state" and message["legal"]:
                    action = message["legal"][0]["json"]
                    peer.send({"type": "act", "state_id": message["state_id"], "action": action})
                elif message["type"] == "state" and message["paused"]:
                    peer.send({"type": "continue"})
        proof = client.get(f"/api/matches/{match_id}").json()
        assert client.post("/api/verify", json=proof).json()["ok"] is True
        for log in (proof["log"][:3], []):
            cut = {k: v for k, v in proof.items() if k != "outcome"} | {"log": log}
            verdict = client.post("/api/verify", json=cut).json()
            assert verdict["ok"] is False and "end of the match" in verdict["problem"]


# ---------------------------------------------------------------- 11: expiry and caps


def test_sessions_expire_and_new_ones_are_capped(tmp_path: Path, toy_registered: None) -> None:
    with app_client(tmp_path, sessions_per_minute=3) as client:
        with client.websocket_connect("/ws") as ws:
            peer = Peer(ws)
            tokens = [peer.hello()["token"] for _ in range(3)]
            peer.send({"type": "hello"})
            assert peer.until("rejected")["code"] == "too_many_sessions"
            assert peer.hello(tokens[0])["token"] == tokens[0]  # a known session is no new one
        assert client.post("/api/guest", json={}).status_code == 429
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        store.create_match(
            tokens[1], "toy", {}, [{"kind": "person", "session": tokens[1]}], "00" * 32, []
        )
    later = utcnow() + timedelta(hours=25)
    assert store.expire_sessions(timedelta(days=90), timedelta(hours=24), later) == 1
    assert not store.has_session(tokens[2]) and store.has_session(tokens[0])
    much_later = utcnow() + timedelta(days=91)
    assert store.expire_sessions(timedelta(days=90), timedelta(hours=24), much_later) == 1
    assert store.has_session(tokens[1])  # its match is still in play


def test_connections_tables_and_silence_are_capped(tmp_path: Path, toy_registered: None) -> None:
    capped = app_client(tmp_path, connections_per_address=2, tables_per_address=1)
    with capped as client, client.websocket_connect("/ws") as one:  # noqa: SIM117
        with client.websocket_connect("/ws") as two, client.websocket_connect("/ws") as three:
            closed = three.receive()
            assert closed["type"] == "websocket.close" and closed["code"] == 1008
            a, b = Peer(one), Peer(two)
            a.hello()
            b.hello()
            a.send({"type": "create", "game": "toy", "settings": QUICK})
            a.until("table")
            b.send({"type": "create", "game": "toy", "settings": QUICK})
            assert b.until("rejected")["code"] == "too_many_tables"
            a.send({"type": "create", "game": "toy", "settings": QUICK})  # moves its own table
            a.until("table")
    with app_client(tmp_path, hello_seconds=0.1) as client, client.websocket_connect("/ws") as ws:
        closed = ws.receive()
        assert closed["code"] == 1008 and "hello" in closed["reason"]


# ---------------------------------------------------------------- 12: snapshots


def test_a_table_reloads_from_its_snapshot(
    tmp_path: Path, toy_registered: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with app_client(tmp_path, snapshot_every=3) as client, client.websocket_connect("/ws") as ws:
        match_id = play_some(Peer(ws), 3)
    store = Store.in_dir(tmp_path)
    snapshot = store.snapshot(match_id)
    data = store.load_match(match_id)
    assert snapshot is not None and data is not None
    assert snapshot.index >= 3 and snapshot.index % 3 == 0
    head = dataclasses.replace(data, log=data.log[: snapshot.index])
    sealed = unseal(snapshot.state, store.snapshot_key)
    assert sealed["state"].snapshot() == state_after(head)  # checked against the log
    replayed: list[int] = []
    entry = Table._replay_entry

    def counted(self: Table, state: Any, match: str, index: int, seat: Any, raw: Any) -> None:
        replayed.append(index)
        entry(self, state, match, index, seat, raw)

    monkeypatch.setattr(Table, "_replay_entry", counted)
    table = Table(store, data, snapshot_every=3)
    assert table.state.snapshot() == state_after(data)
    assert replayed == list(range(snapshot.index, len(data.log)))
    for forged in (
        Snapshot(snapshot.index, "0" * 64, snapshot.state),  # another log
        Snapshot(snapshot.index, snapshot.log_digest, b"x" * 32 + snapshot.state[32:]),
    ):
        store.save_snapshot(match_id, forged)
        replayed.clear()
        assert Table(store, data, snapshot_every=3).state.snapshot() == state_after(data)
        assert replayed == list(range(len(data.log)))  # ignored: the whole log is replayed


def state_after(data: Any) -> Any:
    """Return the snapshot of the state a full replay of ``data``'s log reaches."""
    game = find_game(data.game)
    seed = match_seed(bytes.fromhex(data.secret), data.contributions)
    log = log_from_json(game, [[s, a] for s, a in data.log])
    return replay(game, game.options(data.options), data.seats, seed, log).snapshot()


@pytest.mark.parametrize("game_id", ["okey", "okey-ladder", "tile-rummy", "remi", "sichuan"])
def test_a_sealed_state_plays_on_like_its_replay(game_id: str) -> None:
    game = find_game(game_id)
    options = game.options({})
    state = game.new_state(options, game.default_seats, b"s" * 32)
    bot, rng = make_bot(game_id, "random"), random.Random(7)
    for step in range(120):
        if state.outcome() is not None:
            break
        seat = sorted(state.to_act())[0]
        state.apply(seat, bot.choose(state.observation(seat), state.legal_actions(seat), rng))
        if step == 60:
            copy = unseal(seal(state, b"k" * 32), b"k" * 32)
            assert copy.snapshot() == state.snapshot()
            copy_rng, main_rng = random.Random(8), random.Random(8)
            for _ in range(40):
                if state.outcome() is not None:
                    break
                seat = sorted(state.to_act())[0]
                action = bot.choose(state.observation(seat), state.legal_actions(seat), main_rng)
                bot.choose(copy.observation(seat), copy.legal_actions(seat), copy_rng)
                state.apply(seat, action)
                copy.apply(seat, action)
                assert copy.snapshot() == state.snapshot()
            break
    assert unseal(seal(state, b"k" * 32), b"other key" * 4) is None
