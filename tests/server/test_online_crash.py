"""A server killed with SIGKILL in the middle of 20 tables restarts, replays its logs, and
every table goes on; a spectator never receives a hidden tile."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

from meldhall.bots.base import make_bot
from meldhall.core.fairness import match_seed
from meldhall.games.registry import find_game
from meldhall.store.repository import Store
from tests.server.conftest import store_of
from tests.server.online_client import Client, ServerProcess, bounded, run
from tests.server.test_online import seat_table
from tests.server.test_visibility import TOKEN, tokens

GAMES = ["okey", "tile-rummy", "remi", "sichuan", "okey-ladder"]


def _replayed(store: Store, match_id: str, upto: int | None = None) -> Any:
    """Return the state of a stored match after its first ``upto`` actions (all: None)."""
    data = store.load_match(match_id)
    assert data is not None
    game = find_game(data.game)
    seed = match_seed(bytes.fromhex(data.secret), data.contributions)
    state = game.new_state(game.options(data.options), data.seats, seed)
    for seat, action in data.log[:upto]:
        state.apply(seat, game.action_from_json(action))
    return state


async def _busy(client: Client, until_state: int, seed: int) -> None:
    """Play this person's turns with the game's random bot until the table's state id
    reaches ``until_state``."""
    message = client.state or {"type": "none"}
    assert client.match is not None
    game = find_game(client.match["game"])
    bot = make_bot(game.id, "random")
    rng = random.Random(seed)
    while client.over is None:
        if client.state is not None and client.state["state_id"] >= until_state:
            return
        if message["type"] == "state" and message["legal"]:
            legal = tuple(game.action_from_json(a["json"]) for a in message["legal"])
            await client.act(message, bot.choose(message["observation"], legal, rng).to_json())
        message = await client.recv()


def _match(client: Client) -> str:
    assert client.match is not None
    return str(client.match["match"])


def test_sigkill_with_twenty_tables_then_every_table_goes_on(
    tmp_path: Path, database_url: str
) -> None:
    server = ServerProcess(tmp_path)
    server.start()
    tables: list[tuple[str, list[Client]]] = []

    async def before() -> None:
        seated = await asyncio.gather(
            *(seat_table(server, GAMES[i % len(GAMES)], 2 + i % 3) for i in range(20))
        )
        tables.extend(seated)
        people = [c for _t, cs in tables for c in cs]
        # everyone plays; the server dies while moves are in flight
        busy = [asyncio.create_task(_busy(c, 10**6, i)) for i, c in enumerate(people)]
        await asyncio.sleep(1.5)
        server.kill()
        await asyncio.gather(*busy, return_exceptions=True)

    try:
        run(bounded(before(), 60))
        store = store_of(tmp_path)
        logged: dict[str, int] = {}
        logs: dict[str, list[tuple[int, Any]]] = {}
        for _t, clients in tables:
            for c in clients:
                assert c.match is not None and c.state is not None
                match_id = c.match["match"]
                stored = store.load_match(match_id)
                assert stored is not None
                logs[match_id] = stored.log
                logged[match_id] = len(stored.log)
                # what each person last saw is in the log, exactly
                assert c.state["state_id"] <= logged[match_id]
                seen = _replayed(store, match_id, c.state["state_id"])
                assert seen.observation(c.match["seat"]) == c.state["observation"]
        assert sum(logged.values()) > 40
        server.start()

        async def after() -> None:
            for _t, clients in tables:
                for c in clients:
                    c.over = None
                    await c.connect()
                    assert c.match is not None
                    await c.send({"type": "resume", "match": c.match["match"]})
                    back = await c.until("state")
                    # bots' turns may already have gone on; the log before the kill is kept
                    assert back["state_id"] >= logged[c.match["match"]]
                    now = store.load_match(c.match["match"])
                    assert now is not None
                    assert now.log[: logged[c.match["match"]]] == logs[c.match["match"]]
                    after = _replayed(store, c.match["match"], back["state_id"])
                    assert back["observation"] == after.observation(c.match["seat"])
            people = [c for _t, cs in tables for c in cs]
            await asyncio.gather(
                *(_busy(c, logged[_match(c)] + 4, i) for i, c in enumerate(people))
            )
            for c in people:
                await c.close()

        run(bounded(after(), 60))
        grew = 0
        for match_id, count in logged.items():
            data = store.load_match(match_id)
            assert data is not None
            # a match that ended before the kill (one sichuan hand takes ~180 actions) is over
            assert len(data.log) > count or data.status == "over"
            grew += len(data.log) > count
        assert grew >= len(logged) // 2
    finally:
        server.stop()


def test_a_spectator_never_receives_a_hidden_tile(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    server.start()
    watched: dict[str, list[dict[str, Any]]] = {}

    async def main() -> None:
        games = ["okey", "tile-rummy", "remi", "sichuan"]
        seated = [await seat_table(server, g, 2) for g in games]
        for table, clients in seated:
            spectator = Client(server.url, "watcher")
            await spectator.connect()
            await spectator.send({"type": "watch", "table": table})
            match = await spectator.until("match")
            assert match["seat"] is None
            people = asyncio.gather(*(c.play(rounds=1, seed=i) for i, c in enumerate(clients)))

            async def watch(sp: Client = spectator) -> None:
                while sp.scores is None or not sp.scores["rounds"]:
                    await sp.recv()

            await asyncio.gather(people, watch())
            watched[match["match"]] = spectator.received
            await spectator.send({"type": "act", "state_id": 0, "action": {}})
            assert (await spectator.until("rejected"))["code"] == "spectator"
            for c in [*clients, spectator]:
                await c.close()

    try:
        run(bounded(main(), 90))
    finally:
        server.stop()
    store = Store.in_dir(tmp_path)
    for match_id, messages in watched.items():
        _check_spectator(store, match_id, messages)


def _check_spectator(store: Store, match_id: str, messages: list[dict[str, Any]]) -> None:
    """Replay the match: at each state a spectator was sent, no tile then in a hand and not
    yet shown publicly in that hand appears anywhere in the message."""
    data = store.load_match(match_id)
    assert data is not None
    game = find_game(data.game)
    pattern = re.compile(TOKEN[data.game])
    seed = match_seed(bytes.fromhex(data.secret), data.contributions)
    state = game.new_state(game.options(data.options), data.seats, seed)
    hidden: list[set[str]] = []
    public: set[str] = set()
    for step in range(len(data.log) + 1):
        public |= tokens(state.observation(None), pattern)
        in_hands = set().union(
            *(tokens(state.observation(s).get("hand"), pattern) for s in range(data.seats))
        )
        hidden.append(in_hands - public)
        if step == len(data.log):
            break
        seat, action = data.log[step]
        for event in state.apply(seat, game.action_from_json(action)):
            public |= tokens(event.for_viewer(None), pattern)
            if event.kind == "hand_over":
                public = set()
    states = [m for m in messages if m["type"] == "state"]
    assert states
    for message in states:
        assert message["seat"] is None and message["legal"] == []
        assert message["observation"].get("hand") is None
        at = hidden[message["state_id"]]
        events = list(message["events"])
        ends = [i for i, e in enumerate(events) if e["kind"] in ("hand_over", "match_over")]
        if ends:  # tiles of the finished hand are dealt again: check the new hand's events
            events = events[ends[-1] + 1 :]
        assert not (tokens(message["observation"], pattern) & at)
        assert not (tokens(events, pattern) & at)
