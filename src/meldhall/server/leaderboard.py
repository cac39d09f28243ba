"""Leaderboards and profiles: the pages, their JSON and the rating plots (docs/people.md).

A leaderboard lists a game's best 100 accounts and the signed-in account's own place; a profile
shows, per game, an account's rating, matches, wins, mean place, best solo score, its rating
history (as listed data and as a plot drawn here in SVG) and its recent online matches, each
linked to its replay.
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from meldhall.server.accounts import signed_in
from meldhall.server.games import available_games
from meldhall.server.names import NameError_, account_name, name_key
from meldhall.server.people import People
from meldhall.server.plots import rating_svg
from meldhall.server.static import page_response
from meldhall.store.accounts import AccountData
from meldhall.store.repository import Store, best_per_game

TOP = 100


def _people(request: Request) -> People:
    people: People = request.app.state.people
    return people


def _game(request: Request) -> str:
    game = str(request.path_params["game"])
    if game not in available_games():
        raise HTTPException(404, f"no game {game!r}")
    return game


def _account(request: Request) -> AccountData:
    raw = str(request.path_params["name"])
    try:
        key = name_key(account_name(raw))
    except NameError_ as exc:
        raise HTTPException(404, f"no player {raw!r}: {exc.reason}") from exc
    account = _people(request).accounts.by_key(key)
    if account is None:
        raise HTTPException(404, f"no player {raw!r}")
    return account


async def api_leaderboard(request: Request) -> JSONResponse:
    """Return a game's leaderboard: the best ``TOP`` ratings with their places, and the
    signed-in account's own place and rating (None when not signed in or unrated)."""
    game = _game(request)
    people = _people(request)
    top = [
        {"place": i, **r.to_json()}
        for i, r in enumerate(people.ratings.leaderboard(game, TOP), start=1)
    ]
    you: dict[str, Any] | None = None
    account = signed_in(request)
    if account is not None:
        place = people.ratings.place_of(account.id, game)
        own = people.ratings.shown_ratings([account.id], game).get(account.id)
        if place is not None and own is not None:
            you = {"place": place, **own.to_json()}
    return JSONResponse({"game": game, "top": top, "you": you})


async def api_profile(request: Request) -> JSONResponse:
    """Return an account's profile: per game its rating and counts, best solo score and
    rating history; and its latest online matches."""
    account = _account(request)
    people = _people(request)
    store: Store = request.app.state.store
    best = best_per_game(store.records_of(account.solo_token)) if account.solo_token else {}
    games: list[dict[str, Any]] = []
    for rating in people.ratings.ratings_of(account.id):
        history = people.ratings.history(account.id, rating.game)
        games.append(
            {
                **rating.to_json(),
                "place": people.ratings.place_of(account.id, rating.game),
                "best_solo": best[rating.game].score if rating.game in best else None,
                "history": [
                    {
                        "match": p.match_id,
                        "place": p.place,
                        "rating": p.rating,
                        "at": p.at.isoformat(),
                    }
                    for p in history
                ],
            }
        )
    solo_only: list[dict[str, Any]] = [
        {"game": g, "best_solo": r.score, "matches": 0, "rating": None, "history": []}
        for g, r in best.items()
        if g not in {x["game"] for x in games}
    ]
    recent = request.app.state.manager.lobby_store.results_for(account.session, limit=20)
    return JSONResponse({"name": account.name, "games": games + solo_only, "recent": recent})


async def plot(request: Request) -> Response:
    """Return the SVG plot of an account's rating history in a game."""
    account = _account(request)
    game = _game(request)
    history = _people(request).ratings.history(account.id, game)
    svg = rating_svg([p.rating for p in history], f"{account.name} · {game}")
    return Response(svg, media_type="image/svg+xml")


async def leaderboard_page(request: Request) -> Response:
    return page_response(request.app.state.web, "leaderboard.html")


async def profile_page(request: Request) -> Response:
    _account(request)
    return page_response(request.app.state.web, "profile.html")


def leaderboard_routes() -> list[Route]:
    """Return the routes of leaderboards and profiles."""
    return [
        Route("/leaderboard", leaderboard_page),
        Route("/players/{name}", profile_page),
        Route("/api/leaderboard/{game}", api_leaderboard),
        Route("/api/players/{name}", api_profile),
        Route("/api/players/{name}/plot/{game}.svg", plot),
    ]
