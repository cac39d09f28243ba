"""Hints over HTTP: ``POST /api/hint`` asks the strong bot for the best move of the asker's
seat at a loaded table, from that seat's observation and legal actions only (the worker never
sees the State). The search runs in a worker process, never on the event loop; an online
table whose ``hints`` option is off refuses.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import multiprocessing
import random
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from meldhall.core.engine import JSON
from meldhall.server.edge import EdgeError, decode_json
from meldhall.server.lobby import COOKIE, TOKEN_HEADER


def hint_in_worker(
    game_id: str, observation: dict[str, JSON], legal: list[JSON], seed: bytes
) -> dict[str, JSON]:
    """Return the hint's JSON for an observation and its legal actions (in a worker)."""
    from meldhall.games.registry import find_game
    from meldhall.review import hint

    game = find_game(game_id)
    actions = tuple(game.action_from_json(a) for a in legal)
    return hint(game, observation, actions, random.Random(seed)).to_json()


def observation_seed(observation: dict[str, JSON]) -> bytes:
    """Return the seed of a hint's search: a digest of the observation alone, so that the
    hint cannot depend on anything the seat does not know (not even the match seed)."""
    text = json.dumps(observation, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).digest()


def _pool(request: Request) -> Executor:
    state = request.app.state
    pool = getattr(state, "hint_pool", None)
    if pool is None:
        pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        state.hint_pool = pool
    return pool


async def api_hint(request: Request) -> JSONResponse:
    """Return the strong bot's move for the asker's seat (``{"match": id}``; the asker is the
    ``X-Meldhall-Token`` header's session, or the guest cookie's)."""
    try:
        body: Any = decode_json(await request.body(), request.app.state.limits.max_depth)
    except EdgeError as exc:
        raise HTTPException(400, exc.reason) from exc
    match_id = body.get("match") if isinstance(body, dict) else None
    if not isinstance(match_id, str):
        raise HTTPException(400, 'name the match: {"match": id}')
    table = request.app.state.manager.tables.get(match_id)
    if table is None:
        raise HTTPException(404, "no such match in play here")
    session = request.headers.get(TOKEN_HEADER) or request.cookies.get(COOKIE, "")
    seat = table.seat_of(session) if session else None
    if seat is None:
        raise HTTPException(403, "only a person seated at this table may ask for a hint")
    if not getattr(table, "settings", {}).get("hints", True):
        raise HTTPException(403, "hints are off at this table")
    legal = table.state.legal_actions(seat)
    if not legal:
        raise HTTPException(409, "it is not your turn")
    state_id = table.version
    observation = table.state.observation(seat)
    seed = observation_seed(observation)
    loop = asyncio.get_running_loop()
    answer = await loop.run_in_executor(
        _pool(request),
        hint_in_worker,
        table.game.id,
        observation,
        [a.to_json() for a in legal],
        seed,
    )
    return JSONResponse({"state_id": state_id, **answer})


def hint_routes() -> list[BaseRoute]:
    """Return the routes of hints."""
    return [Route("/api/hint", api_hint, methods=["POST"])]
