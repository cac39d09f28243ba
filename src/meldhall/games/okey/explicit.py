"""Explicit deals (option ``deal = "explicit"``) for tests, puzzles and replays: build the
option values from the tiles that matter and fill the rest.

>>> raw = explicit_options("B8", {2: "B8"}, wall="R1 R2")
>>> raw["explicit_indicator"], raw["explicit_hands"][2].split(" ")[0], raw["explicit_wall"]
('B8a', 'B8b', 'R1a R2a')
>>> [len(h.split(" ")) for h in raw["explicit_hands"]]
[15, 14, 14, 14]
"""

from __future__ import annotations

from collections.abc import Mapping

from meldhall.core.engine import JSON
from meldhall.core.tiles import parse_okey_many
from meldhall.games.okey.deal import Deal
from meldhall.games.okey.pieces import TILE_COUNT, TOKENS, okey_face


def explicit_options(
    indicator: str,
    hands: Mapping[int, str],
    *,
    wall: str | None = None,
    players: int = 4,
    dealer: int | None = None,
) -> dict[str, JSON]:
    """Return the raw options of an explicit first hand.

    ``hands`` gives some tiles of some seats; every hand is filled up to its size (15 for the
    first player, the seat after ``dealer``, default the last seat; 14 for the others) with
    unnamed tiles spread over faces (faces 0, 7, 14, ... so that fillers make no pairs,
    sets or runs together), never a real joker, a false joker or the indicator's twin.
    ``wall`` is the draw order (None: every tile left, in id order; tiles named nowhere are
    set aside).
    """
    dealer = players - 1 if dealer is None else dealer
    first = (dealer + 1) % players
    texts = [indicator, *(hands.get(s, "") for s in range(players)), wall or ""]
    tiles = parse_okey_many(" ".join(t for t in texts if t))
    named = {t.id for t in tiles}
    ind = tiles[0].id
    okey = okey_face(ind)
    avoid = {ind ^ 1, 2 * okey, 2 * okey + 1, 104, 105}
    spare = sorted(
        (t for t in range(TILE_COUNT) if t not in named and t not in avoid),
        key=lambda t: (t & 1, (t >> 1) * 7 % 52),
    )
    pos = 1
    out_hands: list[str] = []
    for seat in range(players):
        text = hands.get(seat, "")
        size = len(text.split(" ")) if text else 0
        own = [t.id for t in tiles[pos : pos + size]]
        pos += size
        want = 15 if seat == first else 14
        while len(own) < want:
            own.append(spare.pop(0))
        out_hands.append(" ".join(TOKENS[t] for t in own))
    raw: dict[str, JSON] = {
        "players": players,
        "deal": "explicit",
        "explicit_indicator": TOKENS[ind],
        "explicit_hands": out_hands,
        "explicit_dealer": dealer,
    }
    if wall is not None:
        raw["explicit_wall"] = " ".join(TOKENS[t.id] for t in tiles[pos:])
    return raw


def deal_options(deal: Deal, dealer: int) -> dict[str, JSON]:
    """Return the raw options that replay a ``Deal`` (seats 0..players-1) as an explicit
    first hand whose dealer is ``dealer``."""
    return {
        "players": deal.players,
        "deal": "explicit",
        "explicit_indicator": TOKENS[deal.indicator],
        "explicit_hands": [" ".join(TOKENS[t] for t in hand) for hand in deal.hands],
        "explicit_wall": " ".join(TOKENS[t] for t in deal.wall),
        "explicit_dealer": dealer,
    }
