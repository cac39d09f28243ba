"""Classic Okey (rules/okey.md): ``GAME`` is the engine entry point.

Modules: ``options`` (the frozen options and the classic preset), ``deal`` (the canonical
stacks-and-dice deal, shared with okey-ladder), ``pieces`` (tile ids, faces, identities),
``hand`` (winning hands and joker identities), ``discards`` (which discards win),
``scoring`` (the score sheet), ``actions``, ``state`` (a whole match), ``view`` (the
observation and its keys), ``vectors`` (rule-vector answers), ``game``.
"""

from meldhall.games.okey.game import GAME, OkeyGame

__all__ = ["GAME", "OkeyGame"]
