"""The ASGI app: pages and the WebSocket. It routes to tables and engines; it holds no rules."""

from __future__ import annotations

import html
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from meldhall.core.registry import find_game, game_ids


def _home(request: Request) -> HTMLResponse:
    rows = []
    for gid in game_ids():
        game = find_game(gid)
        rows.append(
            f'<li><a href="/rules/{html.escape(gid)}">{html.escape(game.title)}</a> '
            f"<code>{html.escape(gid)}</code></li>"
        )
    body = (
        "<!doctype html><html lang=en><meta charset=utf-8><title>meldhall</title>"
        "<h1>meldhall</h1><p>Meld games with dealing anyone can verify.</p>"
        f"<ul id=games>{''.join(rows)}</ul></html>"
    )
    return HTMLResponse(body)


def _games_json(request: Request) -> JSONResponse:
    out = []
    for gid in game_ids():
        game = find_game(gid)
        out.append({"id": gid, "title": game.title, "seats": [game.min_seats, game.max_seats]})
    return JSONResponse(out)


def create_app(data_dir: str | Path = "data") -> Starlette:
    """Return the web app, keeping its database under ``data_dir``."""
    Path(data_dir).mkdir(parents=True, exist_ok=True)
    routes = [Route("/", _home), Route("/api/games", _games_json)]
    app = Starlette(routes=routes)
    app.state.data_dir = Path(data_dir)
    return app
