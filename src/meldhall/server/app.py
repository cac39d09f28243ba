"""The ASGI app: pages, the JSON API and the WebSocket. It routes messages to tables and
engines; it holds no rules."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket

from meldhall.core.engine import Game
from meldhall.core.fairness import match_seed, verify
from meldhall.core.replay import log_from_json, replay
from meldhall.server import ops
from meldhall.server.accounts import account_routes
from meldhall.server.chat import Chat
from meldhall.server.edge import EdgeError, decode_json
from meldhall.server.games import available_games, games_json
from meldhall.server.hints import hint_routes
from meldhall.server.leaderboard import leaderboard_routes
from meldhall.server.limits import Limits
from meldhall.server.lobby import (
    COOKIE,
    TOKEN_HEADER,
    Lobby,
    clean_name,
    guest_cookie,
    websocket_endpoint,
)
from meldhall.server.memory import settle_memory
from meldhall.server.people import People
from meldhall.server.protocol import CLIENT, SERVER
from meldhall.server.replays import replay_routes
from meldhall.server.security import AddressBook, SecurityMiddleware
from meldhall.server.settings import Settings
from meldhall.server.static import CachedStatic, inline_script_hashes, page_response
from meldhall.server.upkeep import expire_sessions_every
from meldhall.store.repository import BrokenMatch, Store, best_per_game, stale_rules
from meldhall.store.snapshots import load_key
from meldhall.tables.online import OnlineManager
from meldhall.tables.thinking import Thinker

log = logging.getLogger(__name__)

WEB = Path(__file__).resolve().parent.parent / "web"
"""The header that names a solo session to ``/api/records``."""


def _page(request: Request, name: str, game: str | None = None) -> Response:
    return page_response(WEB, name, game, request.headers.get("accept-language", ""))


def _game_or_404(request: Request) -> str:
    gid = str(request.path_params["game"])
    if gid not in available_games():
        raise HTTPException(404, f"no game {gid!r}")
    return gid


async def home(request: Request) -> Response:
    return _page(request, "index.html")


async def table_page(request: Request) -> Response:
    return _page(request, "table.html", _game_or_404(request))


async def rules_page(request: Request) -> Response:
    _game_or_404(request)
    return _page(request, "rules.html")


async def records_page(request: Request) -> Response:
    return _page(request, "records.html")


async def settings_page(request: Request) -> Response:
    return _page(request, "settings.html")


async def verify_page(request: Request) -> Response:
    return _page(request, "verify.html")


async def api_games(request: Request) -> JSONResponse:
    return JSONResponse(games_json())


async def api_schema(request: Request) -> JSONResponse:
    return JSONResponse({"client": CLIENT, "server": SERVER})


async def api_records(request: Request) -> JSONResponse:
    """Return the solo records of the session named by the ``X-Meldhall-Token`` header (its
    best per game, all its finished matches), the public records, and the online matches of
    the browser's guest session (never a token in the URL: URLs reach logs)."""
    store: Store = request.app.state.store
    token = request.headers.get(TOKEN_HEADER, "")
    mine = store.records_of(token) if token else []
    best = best_per_game(mine)
    guest = request.cookies.get(COOKIE, "")
    online = request.app.state.manager.lobby_store.results_for(guest) if guest else []
    return JSONResponse(
        {
            "best": {g: _record_json(r) for g, r in best.items()},
            "mine": [_record_json(r) for r in mine],
            "public": [_record_json(r, public=True) for r in store.public_records()],
            "online": online,
        }
    )


def _record_json(rec: Any, public: bool = False) -> dict[str, Any]:
    out = {
        "match": rec.match_id,
        "game": rec.game,
        "score": rec.score,
        "rank": rec.rank,
        "higher_is_better": rec.higher_is_better,
        "finished": rec.finished,
        "published": rec.published,
    }
    if public or rec.published:
        out["name"] = rec.display_name
    return out


async def api_publish(request: Request) -> JSONResponse:
    store: Store = request.app.state.store
    body = await _json_body(request)
    name = clean_name(body.get("name", ""), fallback="")
    if not name:
        return JSONResponse({"ok": False, "error": "empty name"}, status_code=400)
    ok = store.publish(str(body.get("match", "")), str(body.get("token", "")), name)
    return JSONResponse({"ok": ok}, status_code=200 if ok else 404)


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        body = decode_json(await request.body(), request.app.state.limits.max_depth)
    except EdgeError as exc:
        raise HTTPException(400, exc.reason) from exc
    if not isinstance(body, dict):
        raise HTTPException(400, "the body must be a JSON object")
    return body


async def api_match(request: Request) -> JSONResponse:
    """Return a finished match's proof: options, seats, revealed secret, log and outcome."""
    store: Store = request.app.state.store
    match_id = str(request.path_params["match"])
    broken = store.quarantined(match_id)
    if broken is None:
        try:
            data = store.load_match(match_id)
        except BrokenMatch as exc:
            broken = request.app.state.manager.quarantine(match_id, exc)
    if broken is not None:
        return JSONResponse({"match": match_id, "error": broken.summary}, status_code=409)
    if data is None:
        raise HTTPException(404, "no such match")
    out: dict[str, Any] = {
        "match": data.id,
        "game": data.game,
        "status": data.status,
        "commitment": data.commitment,
        "options": data.options,
        "seats": data.seats,
        "contributions": data.contributions,
        "rules_version": data.rules_version,
    }
    reason = stale_rules(data)
    if reason is not None:
        out["read_only"] = reason
    if data.status == "over":
        out.update(secret=data.secret, log=[[s, a] for s, a in data.log], outcome=data.outcome)
    return JSONResponse(out)


async def api_verify(request: Request) -> JSONResponse:
    """Verify a match from a proof: commitment, revealed secret, contributions and log."""
    body = await _json_body(request)
    games = available_games()
    game = games.get(str(body.get("game")))
    if game is None:
        return JSONResponse({"ok": False, "problem": "unknown game"})
    try:
        result = verify(
            game,
            body.get("options") or {},
            int(body.get("seats", game.default_seats)),
            str(body.get("secret", "")),
            str(body.get("commitment", "")),
            [str(c) for c in body.get("contributions", [])],
            body.get("log", []),
        )
    except (TypeError, ValueError) as exc:
        return JSONResponse({"ok": False, "problem": f"the proof cannot be read: {exc}"})
    if not result.ok:
        return JSONResponse({"ok": False, "problem": result.problem, "outcome": None})
    outcome = replayed_outcome(game, body)
    if outcome is None:
        return JSONResponse(
            {"ok": False, "problem": "the log does not reach the end of the match", "outcome": None}
        )
    claimed = body.get("outcome")
    if claimed is not None and claimed != outcome:
        return JSONResponse(
            {"ok": False, "problem": "the replay ends in another result", "outcome": outcome}
        )
    return JSONResponse({"ok": True, "problem": "", "outcome": outcome})


def replayed_outcome(game: Game, proof: dict[str, Any]) -> dict[str, Any] | None:
    """Return the outcome a verified proof's log replays to (None: the match is not over)."""
    seed = match_seed(bytes.fromhex(proof["secret"]), [str(c) for c in proof["contributions"]])
    options = game.options(proof.get("options") or {})
    seats = int(proof.get("seats", game.default_seats))
    state = replay(game, options, seats, seed, log_from_json(game, proof.get("log", [])))
    outcome = state.outcome()
    return outcome.to_json() if outcome is not None else None


async def online_page(request: Request) -> Response:
    return _page(request, "online.html")


async def api_guest(request: Request) -> JSONResponse:
    """Start (or keep) a guest session with a display name; the token goes in an HttpOnly
    cookie that the WebSocket's hello uses."""
    store: Store = request.app.state.store
    limits: Limits = request.app.state.limits
    body = await _json_body(request)
    token = request.cookies.get(COOKIE)
    address = request.client.host if request.client else ""
    refusal = request.app.state.addresses.session_refusal(address, store.has_session(token))
    if refusal is not None:
        return JSONResponse({"error": refusal}, status_code=429)
    info = store.session(token)
    response = JSONResponse({"name": clean_name(body.get("name", ""))})
    secure = limits.secure_cookies or request.url.scheme == "https"
    response.set_cookie(**guest_cookie(info.token, secure=secure))
    return response


async def api_lobby(request: Request) -> JSONResponse:
    """Return the public online tables waiting for people."""
    return JSONResponse({"tables": request.app.state.lobby.listing()})


def create_app(
    data_dir: str | Path | None = None,
    *,
    bot_delay: float | None = None,
    settings: Settings | None = None,
    limits: Limits | None = None,
) -> Starlette:
    """Return the web app of ``settings`` (default: the ``MELDHALL_*`` environment, with
    ``data_dir`` and ``bot_delay`` over it when given; server/settings.py lists them), within
    ``limits`` (server/limits.py; default: its ``MELDHALL_*`` variables; the settings'
    allowed origins, when given, replace the limits').

    The database is created on first use; an existing one at an older schema revision is
    refused (``SchemaError`` names the command that upgrades it)."""
    if settings is None:
        data = str(data_dir) if data_dir is not None else None
        settings = Settings.from_env(data=data, bot_delay=bot_delay)
    limits = limits or Limits.from_env()
    if settings.allowed_origins:
        limits = dataclasses.replace(limits, allowed_origins=settings.allowed_origins)
    Path(settings.data).mkdir(parents=True, exist_ok=True)  # the database or its snapshot key
    store = Store(settings.resolved_database_url(), load_key(Path(settings.data)))
    tables: dict[str, Any] = {
        "bot_delay": settings.bot_delay,
        "keep_finished": settings.keep_finished,
        "unload_idle": limits.solo_grace_seconds,
        "snapshot_every": limits.snapshot_every,
        "clock_floors": limits.clock_floors(),
        "thinker": Thinker(settings.bot_workers),
    }
    node = None
    if settings.redis_url:  # one process of a site (server/cluster/)
        node, manager, lobby = site_parts(settings, limits, store, tables)
    else:
        manager = OnlineManager(store, **tables)
        lobby = Lobby(manager, limits, rate=settings.rate, burst=settings.burst)
    people = People(store, chat_on=settings.chat == "on")
    lobby.people = people
    lobby.chat = Chat(people, lobby.connections)
    manager.result_hooks.append(people.rate)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if node is not None:
            await node.start()
        else:
            await lobby.restore()
        store.start_checkpoints()
        settle_memory()
        upkeep = asyncio.get_running_loop().create_task(expire_sessions_every(store, limits))
        yield
        upkeep.cancel()
        await manager.close()
        if node is not None:
            await node.close()
        store.close()

    routes = [
        Route("/", home),
        Route("/play/{game}", table_page),
        Route("/rules/{game}", rules_page),
        Route("/records", records_page),
        Route("/settings", settings_page),
        Route("/verify/{match}", verify_page),
        Route("/api/games", api_games),
        Route("/api/protocol", api_schema),
        Route("/api/records", api_records),
        Route("/api/publish", api_publish, methods=["POST"]),
        Route("/api/matches/{match}", api_match),
        Route("/api/verify", api_verify, methods=["POST"]),
        Route("/api/guest", api_guest, methods=["POST"]),
        Route("/api/lobby", api_lobby),
        Route("/online", online_page),
        *replay_routes(settings.spectator_delay),
        *hint_routes(),
        *account_routes(),
        *leaderboard_routes(),
        WebSocketRoute("/ws", counted_websocket),
        Route("/healthz", ops.healthz),
        Route("/readyz", ops.readyz),
        Route("/metrics", ops.metrics),
        Mount("/static", CachedStatic(directory=WEB), name="static"),
    ]
    middleware = [
        Middleware(SecurityMiddleware, limits=limits, script_hashes=inline_script_hashes(WEB)),
        Middleware(GZipMiddleware, minimum_size=500),
    ]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.limits = limits
    app.state.addresses = AddressBook(limits)
    app.state.settings = settings
    app.state.data_dir = Path(settings.data)
    app.state.connections = 0
    app.state.store = store
    app.state.manager = manager
    app.state.lobby = lobby
    app.state.people = people
    app.state.web = WEB
    app.state.node = node
    app.state.metrics = ops.app_registry(app.state)
    return app


async def counted_websocket(socket: WebSocket) -> None:
    """Serve a WebSocket (its origin was checked by ``SecurityMiddleware``), counting the
    open connections for the metrics."""
    state = socket.app.state
    state.connections += 1
    try:
        if state.node is not None:
            await state.node.serve(socket, state.addresses)
        else:
            await websocket_endpoint(socket)
    finally:
        state.connections -= 1


def site_parts(
    settings: Settings, limits: Limits, store: Store, tables: dict[str, Any]
) -> tuple[Any, OnlineManager, Lobby]:
    """Return the node, tables and lobby of one process of a site on ``settings.redis_url``
    (server/cluster/)."""
    from meldhall.server.cluster.lobby import SiteLobby
    from meldhall.server.cluster.node import Node
    from meldhall.server.cluster.tables import SiteManager

    node = Node(settings.redis_url, store, ttl=settings.lease_seconds)
    manager = SiteManager(store, node, **tables)
    lobby = SiteLobby(manager, node, limits, rate=settings.rate, burst=settings.burst)
    node.attach(manager, lobby)
    return node, manager, lobby


def app_from_env() -> Starlette:
    """Return the app for ``uvicorn --factory``: every setting from the MELDHALL_* variables."""
    return create_app(settings=Settings.from_env())
