"""Replays of stored matches over HTTP: the replay page, the frames a replay steps through
and the match file to download.

A frame is what one seat saw after ``step`` actions: its observation, whose turn it was, the
events of the step's action as that seat saw them. A finished match can be watched from any
seat; a match in play only as a spectator (public information) and ``delay`` actions behind.
The server holds no rules here: it replays the stored log through the engine.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from meldhall.core.engine import JSON, Event, Game, Seat, State
from meldhall.core.errors import MeldhallError
from meldhall.core.matchfile import MatchFile, check_file, from_json, record, start_state, steps
from meldhall.core.replay import log_from_json
from meldhall.server.edge import EdgeError, decode_json
from meldhall.server.games import available_games
from meldhall.server.reviews import ReviewJobs
from meldhall.store.repository import MatchData, Store
from meldhall.store.reviews import ReviewStore

WEB = Path(__file__).resolve().parent.parent / "web"

MAX_FRAMES = 200
"""The most frames one request returns."""


def public_players(players: list[dict[str, Any]]) -> list[JSON]:
    """Return the players of a stored match without their session tokens."""
    return [
        {"kind": "bot", "bot": p.get("bot")}
        if p.get("kind") == "bot"
        else {"kind": "person", "name": str(p.get("name", ""))}
        for p in players
    ]


def file_of(data: MatchData) -> MatchFile:
    """Return the match file (secret included: server side only) of a stored match."""
    return MatchFile(
        game=data.game,
        options=data.options,
        seats=data.seats,
        players=public_players(data.players),
        log=[],
        secret=data.secret,
        commitment=data.commitment,
        contributions=data.contributions,
        rules_version=data.rules_version,
        outcome=data.outcome,
    )


def _stored(request: Request) -> tuple[MatchData, Game]:
    store: Store = request.app.state.store
    data = store.load_match(str(request.path_params["match"]))
    if data is None:
        raise HTTPException(404, "no such match")
    game = available_games().get(data.game)
    if game is None:
        raise HTTPException(404, f"the game {data.game!r} of this match is not offered here")
    return data, game


def _log_of(data: MatchData, game: Game, visible: int) -> MatchFile:
    try:
        log = log_from_json(game, [[s, a] for s, a in data.log[:visible]])
    except MeldhallError as exc:
        raise HTTPException(409, f"this match's log cannot be read: {exc}") from exc
    return replace(file_of(data), log=log)


def recorded_file(data: MatchData, game: Game) -> MatchFile:
    """Return the whole match file of a stored match (its digests by replaying it), or raise
    ``HTTPException`` 409 when its log does not replay."""
    base = _log_of(data, game, len(data.log))
    try:
        return record(
            game,
            base.options,
            base.seats,
            base.log,
            players=base.players,
            secret=base.secret,
            contributions=base.contributions,
        )
    except MeldhallError as exc:
        raise HTTPException(409, f"this match does not replay: {exc}") from exc


def visible_actions(data: MatchData, delay: int) -> int:
    """Return how many actions of a match a replay may show: all once it is over, else all
    but the last ``delay``."""
    return len(data.log) if data.status != "playing" else max(0, len(data.log) - delay)


def frame(
    step: int,
    state: State,
    viewer: Seat | None,
    events: tuple[Event, ...],
    hand: int,
    actor: Seat | None = None,
    action: str = "",
) -> dict[str, JSON]:
    """Return one frame of a replay: the state after ``step`` actions as ``viewer`` saw it."""
    hand_over = next((e.for_viewer(None) for e in events if e.kind == "hand_over"), None)
    return {
        "step": step,
        "hand": hand,
        "actor": actor,
        "action": action,
        "to_act": sorted(state.to_act()),
        "observation": state.observation(viewer),
        "events": [e.for_viewer(viewer) for e in events],
        "hand_over": hand_over,
    }


def replay_frames(
    file: MatchFile, game: Game, viewer: Seat | None, start: int, count: int
) -> tuple[list[dict[str, JSON]], list[int]]:
    """Return the frames ``start`` .. ``start + count - 1`` (frame 0 is the deal) and the
    step at which each hand starts."""
    frames: list[dict[str, JSON]] = []
    hand_starts = [0]
    if start == 0:
        frames.append(frame(0, start_state(file, game), viewer, (), 1))
    for step in steps(file, game):
        at = step.index + 1
        if start <= at < start + count:
            frames.append(
                frame(
                    at,
                    step.state,
                    viewer,
                    step.events,
                    len(hand_starts),
                    step.seat,
                    str(step.action),
                )
            )
        if any(e.kind == "hand_over" for e in step.events):
            hand_starts.append(at)
    return frames, hand_starts


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise HTTPException(400, f"{name} must be a whole number, not {raw[:20]!r}") from None
    if not low <= value <= high:
        raise HTTPException(400, f"{name} must be between {low} and {high}")
    return value


def _reviews(request: Request) -> tuple[ReviewJobs, ReviewStore]:
    """Return the app's review jobs and stored reviews (made on first use); a finished review
    is stored from the event loop, never from the job's thread."""
    state = request.app.state
    if getattr(state, "review_jobs", None) is None:
        stored = ReviewStore(state.store)
        loop = asyncio.get_running_loop()

        def keep(key: tuple[str, int], review: dict[str, JSON]) -> None:
            loop.call_soon_threadsafe(stored.save, key[0], key[1], review)

        state.review_store, state.review_jobs = stored, ReviewJobs(keep)
    return state.review_jobs, state.review_store


def replay_routes(delay: int = 0) -> list[BaseRoute]:
    """Return the routes of replays; a match in play is shown ``delay`` actions behind."""

    async def replay_page(request: Request) -> Response:
        return FileResponse(
            WEB / "replay.html", media_type="text/html", headers={"Cache-Control": "no-cache"}
        )

    async def api_frames(request: Request) -> JSONResponse:
        """Return the match's facts and a run of its frames for one viewer."""
        data, game = _stored(request)
        over = data.status != "playing"
        visible = visible_actions(data, delay)
        viewer: Seat | None = None
        raw_seat = request.query_params.get("seat", "")
        if raw_seat not in ("", "spectator"):
            if not over:
                raise HTTPException(403, "a match in play is replayed for spectators only")
            viewer = _int_param(request, "seat", 0, 0, data.seats - 1)
        start = _int_param(request, "start", 0, 0, visible)
        count = _int_param(request, "count", 50, 1, MAX_FRAMES)
        file = _log_of(data, game, visible)
        try:
            frames, hands = replay_frames(file, game, viewer, start, count)
        except MeldhallError as exc:
            raise HTTPException(409, f"this match does not replay: {exc}") from exc
        return JSONResponse(
            {
                "match": data.id,
                "game": data.game,
                "status": data.status,
                "seats": data.seats,
                "players": public_players(data.players),
                "commitment": data.commitment,
                "contributions": data.contributions,
                "steps": visible,
                "hands": hands,
                "viewer": viewer,
                "frames": frames,
            }
        )

    async def api_replay_file(request: Request) -> JSONResponse:
        """Return the facts and a run of frames of an uploaded match file (``{"file": {...},
        "seat": N, "start": k, "count": c}``): a downloaded match opened again, any seat's
        view (the file holds the revealed secret)."""
        try:
            body = decode_json(await request.body(), request.app.state.limits.max_depth)
        except EdgeError as exc:
            raise HTTPException(400, exc.reason) from exc
        if not isinstance(body, dict):
            raise HTTPException(400, "the body must be a JSON object")
        try:
            file, game = from_json(body.get("file"), available_games())
        except MeldhallError as exc:
            raise HTTPException(400, str(exc)) from exc
        seat, start, count = body.get("seat"), body.get("start", 0), body.get("count", 50)
        for name, value, low, high in (
            ("seat", seat, 0, file.seats - 1),
            ("start", start, 0, len(file.log)),
            ("count", count, 1, MAX_FRAMES),
        ):
            if value is None and name == "seat":
                continue
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise HTTPException(400, f"{name} must be a whole number from {low} to {high}")
        try:
            frames, hands = replay_frames(file, game, seat, start, count)
        except MeldhallError as exc:
            raise HTTPException(409, f"this match file does not replay: {exc}") from exc
        return JSONResponse(
            {
                "match": None,
                "game": file.game,
                "status": "over" if file.outcome is not None else "playing",
                "seats": file.seats,
                "players": list(file.players),
                "commitment": file.commitment,
                "contributions": list(file.contributions),
                "steps": len(file.log),
                "hands": hands,
                "viewer": seat,
                "frames": frames,
            }
        )

    async def api_file(request: Request) -> Response:
        """Return the match file of a finished match, as a download."""
        data, game = _stored(request)
        if data.status == "playing":
            raise HTTPException(409, "the match is still in play: its file comes when it ends")
        file = recorded_file(data, game)
        body = json.dumps(file.to_json(), ensure_ascii=False)
        name = f"meldhall-{data.game}-{data.id}.json"
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def api_verify_file(request: Request) -> JSONResponse:
        """Check an uploaded match file: the first problem, and the first action that differs."""
        try:
            body = decode_json(await request.body(), request.app.state.limits.max_depth)
            file, game = from_json(body, available_games())
        except (EdgeError, MeldhallError) as exc:
            return JSONResponse({"ok": False, "problem": str(exc), "action_index": None})
        result = check_file(file, game)
        return JSONResponse(
            {
                "ok": result.ok,
                "problem": result.problem,
                "action_index": result.action_index,
                "outcome": result.outcome,
                "game": file.game,
                "actions": len(file.log),
            }
        )

    async def verify_file_page(request: Request) -> Response:
        return FileResponse(
            WEB / "verify.html", media_type="text/html", headers={"Cache-Control": "no-cache"}
        )

    async def api_review(request: Request) -> JSONResponse:
        """Return a seat's review of a finished match: stored, under way (with progress), or
        none yet; a POST starts it (``{"seat": N}``)."""
        data, game = _stored(request)
        if data.status == "playing":
            raise HTTPException(409, "a match is reviewed once it is over")
        if request.method == "POST":
            try:
                body = decode_json(await request.body(), request.app.state.limits.max_depth)
            except EdgeError as exc:
                raise HTTPException(400, exc.reason) from exc
            seat = body.get("seat") if isinstance(body, dict) else None
        else:
            seat = _int_param(request, "seat", 0, 0, data.seats - 1)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < data.seats:
            raise HTTPException(400, f"seat must be a whole number from 0 to {data.seats - 1}")
        jobs, stored = _reviews(request)
        review = stored.load(data.id, seat)
        if review is not None:
            return JSONResponse({"state": "done", "review": review, "done": 1, "total": 1})
        job = jobs.status((data.id, seat))
        if job is None and request.method == "POST":
            file = recorded_file(data, game)
            job = jobs.start((data.id, seat), file.to_json())
        return JSONResponse(job.to_json() if job else {"state": "none", "done": 0, "total": 0})

    return [
        Route("/api/review/{match}", api_review, methods=["GET", "POST"]),
        Route("/verify", verify_file_page),
        Route("/replay", replay_page),
        Route("/replay/{match}", replay_page),
        Route("/api/replay-file", api_replay_file, methods=["POST"]),
        Route("/api/verify-file", api_verify_file, methods=["POST"]),
        Route("/api/replay/{match}", api_frames),
        Route("/api/matches/{match}/file", api_file),
    ]
