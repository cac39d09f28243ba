"""Direct encoders: every game's observation array filled straight from its engine state.

``direct_encoder(game_id, encoder)`` returns the game's ``DirectEncoder`` bound to the same
layout as ``encoder`` (``meldhall.rl.observe``, which reads the JSON observation); both
write identical arrays (tests/rl/test_direct.py), the direct one without building the JSON.
"""

from __future__ import annotations

from collections.abc import Callable

from meldhall.core.errors import MeldhallError
from meldhall.rl.direct.base import DirectEncoder
from meldhall.rl.direct.okey import OkeyDirect
from meldhall.rl.direct.okey_cards import OkeyCardsDirect
from meldhall.rl.direct.okey_ladder import LadderDirect
from meldhall.rl.direct.remi import RemiDirect
from meldhall.rl.direct.sichuan import SichuanDirect
from meldhall.rl.direct.tile_rummy import TileRummyDirect
from meldhall.rl.observe import Encoder

__all__ = ["DIRECT", "DirectEncoder", "direct_encoder"]

DIRECT: dict[str, Callable[[Encoder], DirectEncoder]] = {
    "okey": OkeyDirect,
    "okey-ladder": LadderDirect,
    "tile-rummy": TileRummyDirect,
    "remi": RemiDirect,
    "sichuan": SichuanDirect,
    "okey-cards": OkeyCardsDirect,
}
"""The direct encoder class of every game, by game id."""


def direct_encoder(game_id: str, encoder: Encoder) -> DirectEncoder:
    """Return the direct encoder of ``game_id`` for ``encoder``'s layout; raise
    ``MeldhallError`` for a game without one."""
    make = DIRECT.get(game_id)
    if make is None:
        raise MeldhallError(f"no direct RL encoder for game {game_id!r}")
    return make(encoder)
