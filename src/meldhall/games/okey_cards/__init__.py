"""Okey cards (``okey-cards``, rules/okey-cards.md): the one-player Okey card game.

24 cards (1-8 in red, blue, yellow), a hand of five, three field slots; three cards on the field
that form a set or a run score, discards are gone for good; the game ends when nothing can
score any more, and the final score earns a bronze, silver or gold chest.

Modules: ``pieces`` (card ids, tokens, bitmasks), ``options``, ``scoring`` (combinations,
score tables, reward tiers), ``actions``, ``state`` (the game), ``view`` (the observation),
``vectors`` (rule-vector answers), ``game`` (the declaration); ``planner`` and ``weights``
(the bots' planning maths), ``summary`` (simulation summaries).

Actions (text form / JSON form): ``draw`` / ``{"type": "draw"}``, ``select R3``,
``unselect R3``, ``discard R3`` / ``{"type": "select", "card": "R3"}``, ``quit``.
Reason codes: GAME_OVER, DECK_EMPTY, HAND_FULL, NOT_IN_HAND, NOT_ON_FIELD, FIELD_FULL (and
NOT_YOUR_TURN for a seat other than 0).

Observation keys (``state.observation(viewer)``; viewer 0 is the player, None a spectator):

- the common keys of every game (``meldhall.core.observation``, docs/protocol.md):
  ``seat``, ``to_act``, ``phase``, ``hand_number``, ``match_scores``, ``hidden_counts``,
  ``over``; the keys below add to them.
- ``game`` "okey-cards"; ``seat`` the viewer; ``phase`` "ready", "playing" or "over";
  ``to_act`` [0] or [] when over; ``hand_number`` 1; ``first`` 0; ``over`` bool.
- ``hand`` (player only): the hand cards as tokens in slot order; ``hand_slots`` (player only):
  the five hand slots, a token or null; ``hand_count``: cards in the hand.
- ``field``: the three field slots, a token or null (cards chosen for the next combination).
- ``deck_count``: cards left in the deck; ``discards``: discarded cards in order.
- ``played``: the combinations scored, in order, each ``{"cards", "type" ("set"/"run"),
  "same_colour", "points"}``.
- ``score``, ``scores`` ([score]); ``reward``: the tier the score reaches now ("bronze",
  "silver", "gold"); ``reward_thresholds`` [silver, gold].
- ``score_table`` ("current"/"legacy"), ``draw_mode`` ("fill"/"single"), ``confirm_discard``
  (ask before a discard: display only), ``auto_end``.
- ``last_result``: null, or when over the ``hand_over`` event's data: ``hands`` (the cards left,
  revealed), ``lines`` (the combinations), ``discards``, ``score``, ``scores``, ``reward``,
  ``termination`` ("cards_used", "no_combination" or "quit").

>>> from meldhall.core.rng import seed_from_text
>>> state = GAME.new_state(GAME.options(), 1, seed_from_text("doc"))
>>> [str(a) for a in state.legal_actions(0)]
['draw', 'quit']
>>> _ = state.apply(0, GAME.parse_action("draw"))
>>> obs = state.observation(0)
>>> obs["phase"], len(obs["hand"]), obs["deck_count"]
('playing', 5, 19)
"""

from __future__ import annotations

from meldhall.games.okey_cards.game import GAME, OkeyCardsGame

__all__ = ["GAME", "OkeyCardsGame"]
