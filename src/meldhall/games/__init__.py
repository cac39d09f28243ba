"""One package per game: options, State, actions, scoring, vectors and bots.

The registry (``meldhall.games.registry``) names each game's module; each module exposes
``GAME``, an object that satisfies ``meldhall.core.engine.Game``.
"""
