"""What a seat may know of an Okey match (okey.md 5.1): the observation dict sent to bots and
to the browser table.

Keys (all JSON):

- the common keys of every game (``meldhall.core.observation``, docs/protocol.md):
  ``seat``, ``to_act``, ``phase``, ``hand_number``, ``match_scores``, ``hidden_counts``,
  ``over``; the keys below add to them.
- ``game`` ("okey"), ``seat`` (the viewer, None for a spectator), ``hand_number``.
- ``phase``: "await_take" (the player to act holds 14 and takes or draws), "await_discard"
  (holds 15 and discards), "match_over". ``to_act``: list of seats; ``turn``: the seat to act
  (None when over). ``must_win``: the player to act took the last discard of an empty wall
  and may only win.
- ``dealer``, ``first_player``; ``dice``: [d1, d2, ...] of the canonical deal (None when
  explicit).
- ``indicator``: the face-up tile (token with copy, ``R4a``); ``okey``: the okey identity
  (face, ``R5``): the two tiles with that face are the real jokers, false jokers (``Ja``,
  ``Jb``) stand for it.
- ``hand``: the viewer's own tiles (the rack) as tokens in id order (None for a spectator).
- ``tile_counts``: tiles held per seat; ``wall_count``: tiles left to draw (the indicator is
  never drawn); ``set_aside_count``: tiles out of play (explicit deals only).
- ``discards``: per seat ``{"count", "top", "tiles"}``: pile size, top tile, and the whole
  pile bottom to top where the viewer may look through it (own pile and the previous
  player's, or every pile with ``discard_visibility = all``), else None.
- ``scores``: per seat; ``active``: per seat still playing (elimination); ``partners``:
  [[0, 2], [1, 3]] with ``partnership``, else None; ``scoring``: "countdown" or "countup";
  ``target``: the count-up target (None when counting down).
- ``can_show``: the viewer may show the indicator's twin now; ``shown_by``: the seat that
  showed it this hand, or None.
- ``last_hand``: the public data of the last ``hand_over`` event (winner, final discard, the
  winner's 14 tiles under ``hands``, form, jokers, points, settlement lines, deltas, scores).
- ``score_sheet``: one row per finished hand: ``{"hand", "deltas", "scores"}`` (deltas per
  seat over the whole hand, indicator shows and false-claim penalties included).
- ``over``: the match has ended; ``outcome``: the outcome JSON once it has, else None.
- ``rules``: every option of okey.md 11 by its spec name (explicit deal data left out).
- ``public``: what a search needs besides: per seat dealt into this hand (``in_hand``) and
  having moved this hand (``moved``), the takes from an empty wall (``dry_takes``) and the
  hand after which a seat dropped out (``out_after``).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from meldhall.core.engine import JSON, Seat
from meldhall.core.observation import common_keys
from meldhall.core.options import options_to_json
from meldhall.games.okey.options import OkeyOptions
from meldhall.games.okey.pieces import TOKENS, face_name

if TYPE_CHECKING:
    from meldhall.games.okey.state import OkeyState


def visible_piles(state: OkeyState, viewer: Seat | None) -> list[bool]:
    """Return, per seat, whether ``viewer`` may look through that whole discard pile."""
    if state.options.discard_visibility == "all":
        return [True] * state.n
    out = [False] * state.n
    if viewer is not None and 0 <= viewer < state.n:
        out[viewer] = True
        if state.active[viewer] and sum(state.active) > 1:
            out[state.previous_active(viewer)] = True
    return out


def observation_of(state: OkeyState, viewer: Seat | None) -> dict[str, JSON]:
    """Return the observation of ``viewer`` (None: a spectator sees public information).

    What every seat sees alike is built once per state version (``_shared``) and shared by
    the observations of that version: read them, never change them (each observation is a
    dict of its own)."""
    seated = viewer is not None and 0 <= viewer < state.n
    template, piles = _shared(state)
    full = visible_piles(state, viewer)
    observation = dict(template)
    observation["seat"] = viewer if seated else None
    observation["hand"] = (
        [TOKENS[t] for t in state.hands[viewer]] if seated and viewer is not None else None
    )
    observation["discards"] = [pile[see] for pile, see in zip(piles, full, strict=True)]
    observation["can_show"] = seated and viewer is not None and state.can_show(viewer)
    return observation


def _shared(state: OkeyState) -> tuple[dict[str, JSON], list[tuple[JSON, JSON]]]:
    """Return the observation keys every viewer of ``state`` sees alike, in the observation's
    key order (the viewer's own keys hold placeholders), and each discard pile's entry of
    ``discards`` as a viewer sees it who may not, and who may, look through the pile:
    remembered on the state for its version (``apply`` bumps it)."""
    version = state._version
    cached = state.__dict__.get("_view_cache")
    if cached is not None and cached[0] == version:
        return cached[1], cached[2]
    over = state.outcome_value is not None
    options = state.options
    template: dict[str, JSON] = {
        "game": "okey",
        **common_keys(
            seat=None,
            to_act=state.to_act(),
            phase=state.phase,
            hand_number=state.hand_no,
            match_scores=state.scores,
            hidden_counts=[len(h) for h in state.hands],
            over=over,
        ),
        "turn": None if over else state.turn,
        "must_win": state.must_win,
        "dealer": state.dealer,
        "first_player": state.first_player,
        "dice": None if state.dice is None else list(state.dice),
        "indicator": TOKENS[state.indicator],
        "okey": face_name(state.okey),
        "hand": None,
        "tile_counts": [len(h) for h in state.hands],
        "wall_count": state.wall_count(),
        "set_aside_count": len(state.set_aside),
        "discards": None,
        "scores": list(state.scores),
        "active": list(state.active),
        "partners": [[0, 2], [1, 3]] if options.partnership else None,
        "scoring": options.scoring,
        "target": options.start_points if options.scoring == "countup" else None,
        "can_show": False,
        "shown_by": state.shown_by,
        "last_hand": state.last_result,
        "score_sheet": list(state.sheet),
        "outcome": None if state.outcome_value is None else state.outcome_value.to_json(),
        "rules": public_rules(options),
        "public": {
            "in_hand": list(state.in_hand),
            "moved": list(state.moved),
            "dry_takes": state.dry_takes,
            "out_after": list(state.out_after),
        },
    }
    piles: list[tuple[JSON, JSON]] = []
    for pile in state.piles:
        top = TOKENS[pile[-1]] if pile else None
        tiles: list[JSON] = [TOKENS[t] for t in pile]
        hidden: JSON = {"count": len(pile), "top": top, "tiles": None}
        piles.append((hidden, {"count": len(pile), "top": top, "tiles": tiles}))
    state._view_cache = (version, template, piles)
    return template, piles


@cache
def public_rules(options: OkeyOptions) -> dict[str, JSON]:
    """Return the options as JSON, explicit deal data left out (it would show hidden tiles)."""
    return {
        name: value
        for name, value in options_to_json(options).items()
        if not name.startswith("explicit_")
    }
