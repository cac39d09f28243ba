"""meldhall: meld games with verifiable dealing.

>>> from meldhall.games.registry import find_game
>>> find_game("okey").id
'okey'
"""

__version__ = "0.1.0"
