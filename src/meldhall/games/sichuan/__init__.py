"""Sichuan "blood battle" mahjong (rules/sichuan.md, seed 002): 108 tiles, the missing suit,
pung and kongs (no chow), multiple winners, play on until three have won or the wall is
exhausted, and the exhaustion settlement.

Modules: ``hand`` (win check and waits on count arrays), ``shanten``, ``fan`` (the fan
table), ``scoring`` (payments), ``options``, ``actions``, ``state`` (the match),
``legal`` (rejection codes), ``view`` (observation keys are documented there), ``deal``
(explicit walls for tests), ``vectors``.

>>> from meldhall.core.rng import seed_from_text
>>> state = GAME.new_state(GAME.options({"dealer": "seat0"}), 4, seed_from_text("demo"))
>>> sorted(state.to_act()), [str(a) for a in state.legal_actions(0)]
([0, 1, 2, 3], ['declare m', 'declare p', 'declare s'])
"""

from meldhall.games.sichuan.game import GAME, SichuanGame

__all__ = ["GAME", "SichuanGame"]
