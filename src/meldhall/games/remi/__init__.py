"""Remi: Romanian card rummy with two packs and two jokers (rules/remi.md, seed 003).

``GAME`` is the engine entry point. Modules: ``pieces`` (ids, tokens, values), ``options``,
``melds`` (validation, readings, every meld of a hand), ``table`` (lay-offs and joker exchanges
on a table meld), ``legal`` (placing moves of a hand), ``actions``, ``state`` (the match),
``view`` (observation, snapshot, invariants), ``scoring``, ``best`` (the most a hand can lay
down, through the solver), ``hints`` (quick judgements for bots), ``position`` (hands in
progress for tests and puzzles) and ``vectors``.

Observation keys (``state.observation(viewer)``; ``viewer`` None is a spectator):

- the common keys of every game (``meldhall.core.observation``, docs/protocol.md):
  ``seat``, ``to_act``, ``phase``, ``hand_number``, ``match_scores``, ``hidden_counts``,
  ``over``; the keys below add to them.
- ``game`` "remi"; ``seat`` the viewer; ``phase`` "draw" | "play" | "over"; ``to_act`` (list);
  ``current`` the seat whose turn it is; ``turn`` the turn number within the hand.
- ``hand``: the viewer's cards as tokens (``"10H#1"``), sorted by id; None for a spectator.
- ``hand_counts``: cards in each seat's hand; ``known``: per seat the cards in its hand that
  everybody saw go there (taken from the discard pile, jokers freed by an exchange).
- ``stock``: cards in the stock; ``stock_rebuilds``: rebuilds this hand.
- ``discard``: the whole discard pile, bottom first; ``discard_top``.
- ``melds``: the table, one object per meld: ``id`` (the ``m<id>`` of actions), ``kind``
  ("run" | "set"), ``cards`` (runs ascending), ``jokers`` (what each joker stands for, ``6H`` or
  ``10?``), ``value``, ``owner``, ``turn``, ``closed``, ``accepts`` (the natural cards it takes,
  ``{"card": "JS", "end": "low"}``, end null for sets; a joker fits wherever it takes any);
  runs ``suit``, ``low``, ``high`` (ranks); sets ``rank``.
- ``opened`` (per seat), ``active`` (per seat: not eliminated), ``totals`` (penalty points).
- ``hand_number``, ``dealer``, ``first_player``.
- ``taken``: the card drawn from the discard pile this turn (R-D10), or None; ``must_use``: the
  card that must be placed before anything else (options ``discard_draw_must_use``,
  ``released_joker_must_be_used``), or None.
- ``last_result``: the public data of the last ``hand_over`` event (revealed ``hands``,
  ``lines`` per seat with ``cards``, ``points``, ``penalty`` and any ``kalooki``/``unopened``
  extra, ``penalties``, ``totals``, ``eliminated``, ``closer``, ``kalooki``, ``dead``,
  ``match_over``), or None.
- ``over``; ``outcome`` (the Outcome JSON once over, else None); ``options`` (every rule
  option except the explicit ``deck``).
- ``public``: what a search needs besides: ``open_at_start`` (the player to act had opened
  before this turn) and ``kalooki_ok`` (nothing this turn has ruled out a Kalooki yet).

Events: ``deal`` (public) and ``dealt`` (private cards per seat), ``draw_stock`` (the card
private), ``draw_discard``, ``open``, ``meld``, ``lay_off``, ``exchange``, ``discard``,
``stock_rebuilt``, ``hand_over``, ``match_over``.
"""

from meldhall.games.remi.game import GAME, RemiGame

__all__ = ["GAME", "RemiGame"]
