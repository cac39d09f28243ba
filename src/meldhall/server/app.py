"""The ASGI app: pages, the JSON API and the WebSocket. It routes messages to tables and
engines; it holds no rules."""

from __future__ import annotations

import contextlib
import os
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

from meldhall.core.engine import Game
from meldhall.core.fairness import match_seed, verify
from meldhall.core.replay import log_from_json, replay
from meldhall.server.games import available_games, games_json
from meldhall.server.lobby import COOKIE, Lobby, clean_name, guest_cookie, websocket_endpoint
from meldhall.server.memory import settle_memory
from meldhall.server.protocol import CLIENT, SERVER
from meldhall.server.static import CachedStatic, page_response
from meldhall.store.repository import Store, best_per_game
from meldhall.tables.manager import KEEP_FINISHED_SECONDS
from meldhall.tables.online import OnlineManager

WEB = Path(__file__).resolve().parent.parent / "web"


def _page(name: str) -> Response:
    return page_response(WEB, name)


def _game_or_404(request: Request) -> str:
    gid = str(request.path_params["game"])
    if gid not in available_games():
        raise HTTPException(404, f"no game {gid!r}")
    return gid


async def home(request: Request) -> Response:
    return _page("index.html")


async def table_page(request: Request) -> Response:
    _game_or_404(request)
    return _page("table.html")


async def rules_page(request: Request) -> Response:
    _game_or_404(request)
    return _page("rules.html")


async def records_page(request: Request) -> Response:
    return _page("records.html")


async def settings_page(request: Request) -> Response:
    return _page("settings.html")


async def verify_page(request: Request) -> Response:
    return _page("verify.html")


async def api_games(request: Request) -> JSONResponse:
    return JSONResponse(games_json())


async def api_schema(request: Request) -> JSONResponse:
    return JSONResponse({"client": CLIENT, "server": SERVER})


async def api_records(request: Request) -> JSONResponse:
    """Return the solo records of the session ``token`` (its best per game, all its finished
    matches), the public records, and the online matches of the browser's guest session."""
    store: Store = request.app.state.store
    token = request.query_params.get("token", "")
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
        body = await request.json()
    except ValueError as exc:
        raise HTTPException(400, "the body is not JSON") from exc
    if not isinstance(body, dict):
        raise HTTPException(400, "the body must be a JSON object")
    return body


async def api_match(request: Request) -> JSONResponse:
    """Return a finished match's proof: options, seats, revealed secret, log and outcome."""
    store: Store = request.app.state.store
    data = store.load_match(str(request.path_params["match"]))
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
    }
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
    return _page("online.html")


async def api_guest(request: Request) -> JSONResponse:
    """Start (or keep) a guest session with a display name; the token goes in an HttpOnly
    cookie that the WebSocket's hello uses."""
    store: Store = request.app.state.store
    body = await _json_body(request)
    info = store.session(request.cookies.get(COOKIE))
    response = JSONResponse({"name": clean_name(body.get("name", ""))})
    response.set_cookie(**guest_cookie(info.token))
    return response


async def api_lobby(request: Request) -> JSONResponse:
    """Return the public online tables waiting for people."""
    return JSONResponse({"tables": request.app.state.lobby.listing()})


def create_app(data_dir: str | Path = "data", *, bot_delay: float | None = None) -> Starlette:
    """Return the web app, keeping its database under ``data_dir`` (created on first run).

    ``bot_delay`` is the pause before each computer move, in seconds (default 0.8, or the
    environment variable MELDHALL_BOT_DELAY; tests set it low). A finished match stays loaded
    for MELDHALL_KEEP_FINISHED seconds (default 600)."""
    delay = bot_delay if bot_delay is not None else float(os.environ.get("MELDHALL_BOT_DELAY", 0.8))
    keep = float(os.environ.get("MELDHALL_KEEP_FINISHED", KEEP_FINISHED_SECONDS))
    store = Store.in_dir(data_dir)
    manager = OnlineManager(store, bot_delay=delay, keep_finished=keep)
    lobby = Lobby(manager)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await lobby.restore()
        store.start_checkpoints()
        settle_memory()
        yield
        await manager.close()
        store.stop_checkpoints()

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
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/static", CachedStatic(directory=WEB), name="static"),
    ]
    app = Starlette(
        routes=routes, middleware=[Middleware(GZipMiddleware, minimum_size=500)], lifespan=lifespan
    )
    app.state.data_dir = Path(data_dir)
    app.state.store = store
    app.state.manager = manager
    app.state.lobby = lobby
    return app


def app_from_env() -> Starlette:
    """Return the app for ``uvicorn --factory``: data directory from MELDHALL_DATA."""
    return create_app(os.environ.get("MELDHALL_DATA", "data"))
