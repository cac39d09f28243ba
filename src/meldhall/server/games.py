"""Which registered games this server can offer: those whose engine and bots import."""

from __future__ import annotations

import logging

from meldhall.bots.base import bots_of
from meldhall.bots.levels import DEFAULT_LEVEL, LEVELS
from meldhall.core.engine import Game
from meldhall.games.registry import find_game, game_ids

log = logging.getLogger(__name__)

_READY: dict[str, Game] = {}


def available_games() -> dict[str, Game]:
    """Return the playable games by id, in menu order (a game whose module does not import
    yet is left out and tried again on the next call)."""
    for gid in game_ids():
        if gid in _READY:
            continue
        try:
            game = find_game(gid)
            bots_of(gid)
        except Exception as exc:  # a game still being written must not take the server down
            log.debug("game %s is not available: %s", gid, exc)
            continue
        _READY[gid] = game
    return {gid: _READY[gid] for gid in game_ids() if gid in _READY}


def games_json() -> list[dict[str, object]]:
    """Return the game list the pages show, read from each game's declaration."""
    return [
        {
            "id": gid,
            "title": game.title,
            "seats": [game.min_seats, game.max_seats],
            "default_seats": game.default_seats,
            "bots": list(game.bots.names),
            "levels": list(LEVELS),
            "default_level": DEFAULT_LEVEL,
            "preview": game.preview.to_json(),
            "rules_version": game.rules_version,
            "higher_is_better": game.higher_is_better,
            "min_meld": game.min_meld,
        }
        for gid, game in available_games().items()
    ]
