"""Tile Rummy 500 (rules/tile-rummy.md, seed 001): Rummy 500 play on the 106-tile set.

Actions (text form; JSON in ``actions``): ``draw``, ``end``, ``discard R7a``,
``meld run R11a Sa R13a``, ``add R4a 3 low`` (``add Y5a 7`` for a set),
``rearrange 3 5 | run R5a R6a R7a | set K5a Y5a B5a | feed R1a 7 high``,
``take 3 meld run K5a K6a K7a`` (pile index 1 = bottom), and ``timeout`` (sent by the table's
clock when option ``turn_timer`` is on; never listed). A rejected action raises
``IllegalAction`` with one of the reason codes of ``checks.CODES`` and changes nothing.

Observation keys (``state.observation(viewer)``; viewer None = spectator):

- the common keys of every game (``meldhall.core.observation``, docs/protocol.md):
  ``seat``, ``to_act``, ``phase``, ``hand_number``, ``match_scores``, ``hidden_counts``,
  ``over``; the keys below add to them.
- ``game`` "tile-rummy"; ``seat`` the viewer; ``phase`` "draw" (AWAIT_DRAW), "play"
  (AWAIT_PLAY) or "over"; ``to_act`` list of seats; ``turn`` the seat whose turn it is;
  ``round`` round number from 1; ``first_player`` who began this round.
- ``hand`` (seat viewers only): the viewer's rack as tokens, by tile id.
- ``rack_counts`` tiles per rack; ``stock_count``; ``can_draw`` (DRAW_STOCK possible);
  ``pile`` the discard pile bottom to top (all public, T-D6).
- ``melds``: every meld on the table in the order laid: ``id``, ``owner``, ``kind``
  ("run"/"set"), ``tiles`` (runs ascending), ``jokers`` (what each Smiley stands for, ``?5``
  while a set leaves its colour open), ``value``, ``start`` (run position 0..14) or ``number``.
- ``table_points`` per seat (melds owned, fed tiles included); ``scores`` the match score per
  seat (round wins, or points with match_mode "points"); ``round_wins``; ``totals`` (sum of
  round scores); ``void_rounds``; ``opened`` (laid a meld this round); ``skip_next``
  (turn forfeited by a timeout).
- ``last_round``: the public data of the last ``hand_over`` event (racks revealed,
  ``table_points``, ``rack_points``, ``parts`` (each score as table + collected racks +
  own rack lost), ``scores``, ``round_winners``, ``lines``), or None.
- ``over``; ``outcome`` (``Outcome.to_json()`` once over); ``rules`` (the options a table
  needs: values, run wrap, discard rules, opening minimum, match mode, timer).
- ``public``: what a search needs besides (``view.public_history``): every option but the
  explicit wall, every finished round's result, the next meld id, the stock rebuilt.
"""

from meldhall.games.tile_rummy.game import GAME, TileRummyGame

__all__ = ["GAME", "TileRummyGame"]
