"""Action ids: every legal action spelled as a short sequence of tokens from a fixed vocabulary.

One table of whole actions would be far too large for the meld games (a meld is any
sequence of tiles), so a decision is a choice in stages: the JSON form of each legal action
is flattened into tokens (its ``"type"``, then its field values in order, a list closed by
``]``, the whole action closed by ``.``), and the agent picks one token at a time among
those that continue some legal action. Tokens every candidate shares are taken
automatically, so a decision with one branching point (a discard, pass or pung, a draw)
takes one step; a meld takes one step per tile chosen.

The vocabulary of a game, in id order: ``.`` (play the action spelled so far), ``]``
(end of a list), ``null``, ``false``, ``true``, the game's action words, its piece faces
(``R5``, ``7H``, ``5p``), its piece tokens (``R5a``, ``7H#2``, ``5p#3``), then the integers
0 .. ``INTS - 1``.

>>> vocab = Vocabulary(("discard", "draw"), ("R1",), ("R1a", "R1b"))
>>> vocab.spell({"type": "discard", "tile": "R1b"})
(5, 9, 0)
>>> [vocab.words[i] for i in (5, 9, 0)], len(vocab.words)
(['discard', 'R1b', '.'], 138)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from meldhall.core.engine import JSON, Action
from meldhall.core.errors import EngineBug

PLAY = 0
"""The token that plays the action spelled so far."""
LIST_END = 1
MARKS = (".", "]", "null", "false", "true")
INTS = 128
"""Integers 0 .. INTS - 1 have tokens (meld indices, pile depths, seats)."""


class Vocabulary:
    """The fixed token vocabulary of one game; ``spell`` turns an action's JSON into ids."""

    def __init__(self, words: Sequence[str], faces: Sequence[str], pieces: Sequence[str]):
        self.words: tuple[str, ...] = (
            *MARKS,
            *words,
            *faces,
            *pieces,
            *(str(i) for i in range(INTS)),
        )
        self.first_int = len(self.words) - INTS
        self._ids: dict[str, int] = {}
        for i, w in enumerate(self.words[: self.first_int]):
            self._ids.setdefault(w, i)

    def __len__(self) -> int:
        return len(self.words)

    def spell(self, data: JSON) -> tuple[int, ...]:
        """Return the token ids of an action's JSON form, closed by ``.``; raise
        ``EngineBug`` for a value outside the vocabulary."""
        out: list[int] = []
        self._walk(data, out)
        out.append(PLAY)
        return tuple(out)

    def _walk(self, value: JSON, out: list[int]) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key != "type":
                    self._walk(item, out)
                else:
                    out.insert(0, self._word(item))
        elif isinstance(value, list):
            for item in value:
                self._walk(item, out)
            out.append(LIST_END)
        elif value is None or isinstance(value, bool):
            out.append(self._ids[{None: "null", False: "false", True: "true"}[value]])
        elif isinstance(value, int):
            if not 0 <= value < INTS:
                raise EngineBug(f"action integer {value} outside the RL vocabulary 0..{INTS - 1}")
            out.append(self.first_int + value)
        else:
            out.append(self._word(value))

    def _word(self, value: JSON) -> int:
        token = self._ids.get(value) if isinstance(value, str) else None
        if token is None:
            raise EngineBug(f"action value {value!r} is not in the RL vocabulary")
        return token


@dataclass
class Decision:
    """One decision of one seat in progress: its legal actions spelled, and the tokens
    chosen so far (``prefix``). ``options()`` lists the tokens that may come next."""

    spelled: dict[tuple[int, ...], Action]
    prefix: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, vocab: Vocabulary, legal: Sequence[Action]) -> Decision:
        """Return a new decision over ``legal`` with the shared leading tokens taken; raise
        ``EngineBug`` when two legal actions spell the same."""
        spelled: dict[tuple[int, ...], Action] = {}
        for action in legal:
            key = vocab.spell(action.to_json())
            if key in spelled:
                raise EngineBug(f"two legal actions spell the same: {spelled[key]} and {action}")
            spelled[key] = action
        decision = cls(spelled)
        decision._advance(chosen=False)
        return decision

    def options(self) -> list[int]:
        """Return the token ids that continue some legal action, in id order."""
        n = len(self.prefix)
        prefix = tuple(self.prefix)
        return sorted({k[n] for k in self.spelled if k[:n] == prefix})

    def choose(self, token: int) -> Action | None:
        """Append ``token`` (one of ``options()``) and the tokens every candidate shares
        after it; return the action once it is spelled whole, else None."""
        self.prefix.append(token)
        return self._advance(chosen=True)

    def _advance(self, *, chosen: bool) -> Action | None:
        # Shared tokens are taken for the agent, but `.` only after it chose one itself:
        # every decision costs the agent at least one step.
        while True:
            action = self.spelled.get(tuple(self.prefix))
            if action is not None:
                return action
            options = self.options()
            if len(options) != 1 or (options[0] == PLAY and not chosen):
                return None
            self.prefix.append(options[0])
