"""Ladder Okey (``okey-ladder``, rules/okey-ladder.md): the 101-style Okey of seed 004.

Four seats, 106 tiles, the canonical Okey deal; openings of series (runs and sets) or pairs
against a rising threshold, laying off, joker exchanges, pairs pushed onto pairs openers,
penalties by the joker's colour; a match of ``rounds`` (7) hands, lowest total wins.

Modules: ``options`` (section 16), ``pieces`` (faces and jokers as ints), ``combos`` (section
6 and what table combinations accept), ``actions`` (text and JSON forms), ``legal`` (listing
legal actions), ``state`` (the match), ``scoring`` (section 12), ``opening`` (best opening by
the core solver, and an exact search over listed melds), ``hints`` (pure helpers for bots),
``vectors`` (rule vectors), ``view`` (the observation), ``position`` (explicit positions
for tests).

Observation keys (``state.observation(viewer)``; viewer None is a spectator; parts that change
rarely are shared between observations, so treat them as read-only):

- the common keys of every game (``meldhall.core.observation``, docs/protocol.md):
  ``seat``, ``to_act``, ``phase``, ``hand_number``, ``match_scores``, ``hidden_counts``,
  ``over``; the keys below add to them.
- ``game`` "okey-ladder"; ``seat`` the viewer; ``over`` True after the last round.
- ``phase``: ``take`` (draw or take the previous discard), ``must_draw`` (after returning a
  taken tile), ``act`` (meld, lay off, exchange, push pairs, recall, return, discard),
  ``over``; ``to_act`` the list of seats that may act; ``to_move`` the player whose turn it is.
- ``hand``: the viewer's tiles as tokens sorted by id (None for a spectator);
  ``hand_counts``: tiles in every hand.
- ``indicator`` (token), ``okey`` (the real jokers' face, e.g. "R5"), ``joker_colour``
  (R/K/Y/B), ``base`` (b of S17).
- ``centre``: tiles left to draw.
- ``discards``: per seat ``{"count", "tiles"}``, tiles bottom to top; a seat sees its own pile
  and the previous player's pile whole, only the top of the other two (okey.md 5.1).
- ``table``: every combination in id order: ``{"id", "owner", "kind" (run/set/pair),
  "tiles" (runs low to high), "jokers" (what each real joker stands for, "?7" while a set
  leaves its colour open), "value", "provisional"}``.
- ``fitting``: the faces (e.g. "R9") that fit a run end or a set on the table: discarding
  one is a wrong discard (10.1).
- ``opened``: per seat none/series/pairs; ``opening_values``: the value of each opening;
  ``opened_turns``: the turn of the hand each seat opened in (0: not opened, or before the
  position began).
- ``need`` (least series opening now), ``pairs_need`` (least pairs opening now).
- ``turn`` (turn number in the hand); ``taken``: the tile taken from the discard this turn
  while it is still marked (public), else None; ``ends_used``: ``[combo id, end]`` extended
  this turn; ``jokers_placed``: real jokers laid on the table this turn; ``laid``: while the
  player to move has provisional combinations, ``{"value", "need", "kind"}`` (what they are
  worth against the need that applies to them), else None.
- ``hand_no``, ``rounds``, ``first`` (first player of this hand), ``dealer`` (the seat before).
- ``public``: what a search needs besides: ``rules`` (every option but those fixing the deal),
  ``next_cid`` (the next combination id), ``prov_kind`` (the kind of this turn's provisional
  opening), ``pairs_given`` (pairs pushed to other players' openings).
- ``scores``: ``{"totals": per seat before this hand, "round": in-hand penalties of this
  hand so far, "history": one row per finished round}``.
- ``last_result``: the public ``hand_over`` data of the last finished hand, or None:
  ``hand``, ``winner`` (None: no winner), ``final_discard``, ``joker_finish``, ``from_hand``,
  ``joker_colour``, ``base``, ``opened``, ``tiles_left``, ``penalties``, ``settlement``,
  ``lines`` (``{"seat", "amount", "reason"}``), ``round``, ``totals`` (and ``jokers_left``
  with option ``joker_left_in_hand``). The faces left in the losers' racks stay hidden: the
  settlement needs only their counts (decision, spec 12).

Events (``kind``: public fields; the seat acting is ``seat``): ``deal`` (hand, first,
indicator, okey, base) and ``rack`` (private: tiles) for every seat at a new hand; ``draw``
(centre; private: tile); ``take_discard``, ``return_taken`` (tile); ``meld``, ``lay_off``,
``replace_joker``, ``give_pair`` (the combination as on the table, and the tile, joker or
recipient); ``recall`` (combination ids); ``opening`` (kind, value, need, pairs_need) or
``opening_returned`` (combination ids, value, need) at a discard; ``penalty`` (amount,
reason: wrong_discard, joker_discarded, joker_added, joker_exchanged, pair_received,
return_taken); ``wrong_discard_returned`` (tile); ``discard`` (tile); ``hand_over`` (as
``last_result``); ``match_over`` (the outcome).
"""

from meldhall.games.okey_ladder.game import GAME, LadderGame

__all__ = ["GAME", "LadderGame"]
