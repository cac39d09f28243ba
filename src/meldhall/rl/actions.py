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
(``R5``, ``7H``, ``5p``), its piece tokens (``R5a``, ``7H#2``, ``5p#3``), the integers
0 .. ``INTS - 1``, then the multiples ``64+`` .. ``4032+`` that spell a larger integer.

>>> vocab = Vocabulary(("discard", "draw"), ("R1",), ("R1a", "R1b"))
>>> vocab.spell({"type": "discard", "tile": "R1b"})
(5, 9, 0)
>>> [vocab.words[i] for i in (5, 9, 0)], len(vocab.words)
(['discard', 'R1b', '.'], 137)
>>> [vocab.words[i] for i in vocab.spell({"type": "draw", "index": 130})]
['draw', '128+', '2', '.']
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from meldhall.core.engine import JSON, Action
from meldhall.core.errors import EngineBug

PLAY = 0
"""The token that plays the action spelled so far."""
LIST_END = 1
MARKS = (".", "]", "null", "false", "true")
INTS = 64
"""Integers 0 .. INTS - 1 have one token each; a larger one (up to INTS² - 1) is spelled
as two: ``INTS × q`` then ``r``, for q, r = divmod(n, INTS)."""
CACHE_LIMIT = 100_000
"""Spelled actions remembered per vocabulary before the memory starts again."""
ID_CACHE_LIMIT = 4096
"""Action objects (and legal tuples) remembered by identity before that memory starts again:
engines that keep one object per action (Sichuan's discards, every game's fixed answers)
are spelled without hashing the action at all."""
DECISION_CACHE_LIMIT = 256
"""Decisions remembered by the identity of their legal tuple before that memory starts
again. Kept small: a fixed tuple (an engine's claim answers) is met again within a few
decisions, a fresh one (a hand's discards) never, and every fresh decision kept alive is
work for the garbage collector until the memory is cleared."""
DERIVE_LIMIT = 6
"""Actions gone and come, together, up to which ``Decision.derived`` changes a flat point
(a seat's discards after its discard and draw: 2; after a claimed pung: 3) instead of
leaving the new decision to be built afresh."""


class Vocabulary:
    """The fixed token vocabulary of one game; ``spell`` turns an action's JSON into ids."""

    def __init__(self, words: Sequence[str], faces: Sequence[str], pieces: Sequence[str]):
        self.words: tuple[str, ...] = (
            *MARKS,
            *words,
            *faces,
            *pieces,
            *(str(i) for i in range(INTS)),
            *(f"{INTS * q}+" for q in range(1, INTS)),
        )
        self.first_int = len(self.words) - 2 * INTS + 1
        self._ids: dict[str, int] = {}
        self._spelled: dict[Action, tuple[int, ...]] = {}
        self._by_id: dict[int, tuple[Action, tuple[int, ...]]] = {}
        self.decisions: dict[int, tuple[Sequence[Action], Decision]] = {}
        """Fresh decisions by the identity of their legal tuple (``Decision.of``)."""
        for i, w in enumerate(self.words[: self.first_int]):
            self._ids.setdefault(w, i)

    def __len__(self) -> int:
        return len(self.words)

    def kept(self, legal: Sequence[Action]) -> Decision | None:
        """Return the first point kept for the very object ``legal`` (``Decision.of``), or
        None."""
        hit = self.decisions.get(id(legal))
        return hit[1] if hit is not None and hit[0] is legal else None

    def spell_action(self, action: Action) -> tuple[int, ...]:
        """Return ``spell(action.to_json())``, remembered per action (actions are values)
        and per action object (the same object is found without hashing it)."""
        hit = self._by_id.get(id(action))
        if hit is not None and hit[0] is action:
            return hit[1]
        key = self._spelled.get(action)
        if key is None:
            if len(self._spelled) >= CACHE_LIMIT:
                self._spelled.clear()
            key = self._spelled[action] = self.spell(action.to_json())
        if len(self._by_id) >= ID_CACHE_LIMIT:
            self._by_id.clear()
        self._by_id[id(action)] = (action, key)
        return key

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
            if not 0 <= value < INTS * INTS:
                raise EngineBug(
                    f"action integer {value} outside the RL vocabulary 0..{INTS**2 - 1}"
                )
            high, low = divmod(value, INTS)
            if high:
                out.append(self.first_int + INTS + high - 1)
            out.append(self.first_int + low)
        else:
            out.append(self._word(value))

    def _word(self, value: JSON) -> int:
        token = self._ids.get(value) if isinstance(value, str) else None
        if token is None:
            raise EngineBug(f"action value {value!r} is not in the RL vocabulary")
        return token


class Decision:
    """One point of one seat's decision: the tokens chosen so far (``prefix``) and the legal
    actions they still allow. ``options()`` lists the tokens that may come next; ``after``
    gives what one of them leads to (the next point, or the action once spelled whole).

    A point never changes: ``after`` makes the point a token leads to once and keeps it in
    ``next``, so a decision met again (the same legal tuple: ``of``) walks points already
    made, their options and masks included. A first point whose every option has one
    spelling (a hand's discards) is *flat*: its ``next`` holds every option's action from
    the start, and ``derived`` makes the point of a legal tuple that differs from it by a
    few actions by changing a copy of it."""

    __slots__ = ("_ids", "_live", "_mask", "_options", "next", "prefix", "spelled")

    def __init__(
        self,
        spelled: dict[tuple[int, ...], Action],
        prefix: tuple[int, ...],
        live: list[tuple[int, ...]],
        options: list[int],
    ):
        self.spelled = spelled
        self.prefix = prefix
        self._live = live
        self._options = options
        self._mask: np.ndarray | None = None
        self.next: dict[int, Decision | Action] = {}
        """What each token chosen here so far led to (``after``)."""
        self._ids: dict[int, tuple[int, ...]] | None = None
        """A flat point's spellings by the identity of their actions (None: not flat)."""

    @classmethod
    def of(cls, vocab: Vocabulary, legal: Sequence[Action]) -> Decision:
        """Return the first point of a decision over ``legal`` with the shared leading tokens
        taken; raise ``EngineBug`` when two legal actions spell the same. A legal tuple seen
        before (the same object: engines keep fixed answers and cache their listings) gives
        the point made for it then."""
        kept = vocab.kept(legal)
        if kept is not None:
            return kept
        spell = vocab.spell_action
        known = vocab._by_id.get
        keys = [k[1] if (k := known(id(a))) is not None and k[0] is a else spell(a) for a in legal]
        spelled = dict(zip(keys, legal, strict=True))
        if len(spelled) != len(legal):
            raise EngineBug(f"two legal actions spell the same among {[str(a) for a in legal]}")
        first = _point(spelled, [], keys, chosen=False)
        if not isinstance(first, Decision):
            raise EngineBug(f"a decision over {[str(a) for a in legal]} needs no choice")
        if len(first._options) == len(keys) > 1:
            n = len(first.prefix)
            first.next = dict(zip([k[n] for k in keys], legal, strict=True))
            first._ids = dict(zip(map(id, legal), keys, strict=True))
        if isinstance(legal, tuple):
            if len(vocab.decisions) >= DECISION_CACHE_LIMIT:
                vocab.decisions.clear()
            vocab.decisions[id(legal)] = (legal, first)
        return first

    @property
    def flat(self) -> bool:
        """Return True for a first point whose every option has one spelling (``derived``
        works from it)."""
        return self._ids is not None

    def derived(self, vocab: Vocabulary, legal: Sequence[Action]) -> Decision | None:
        """Return the first point of a decision over ``legal`` made from this flat point
        (equal to ``Decision.of(vocab, legal)``: the actions gone dropped, the actions come
        added, two bytes of the mask changed), or None when that is not known to be equal:
        this point not flat, more than ``DERIVE_LIMIT`` actions changed, an action come
        never spelled (``spell_action``), outside the prefix or sharing its option."""
        ids = self._ids
        if ids is None or len(legal) < 2:
            return None
        now = set(map(id, legal))
        gone = ids.keys() - now
        came = now - ids.keys()
        if len(gone) + len(came) > DERIVE_LIMIT or len(now) != len(legal):
            return None
        prefix = self.prefix
        n = len(prefix)
        nxt = self.next.copy()
        spelled = self.spelled.copy()
        keys = ids.copy()
        flip: list[int] = []
        for i in gone:
            key = keys.pop(i)
            del nxt[key[n]], spelled[key]
            flip.append(key[n])
        known = vocab._by_id.get
        for i in came:
            hit = known(i)  # its action is the live one of that identity: the entry holds it
            if hit is None:
                return None
            action, key = hit
            if len(key) <= n or key[n] in nxt or key[:n] != prefix:
                return None
            nxt[key[n]] = spelled[key] = action
            keys[i] = key
            flip.append(key[n])
        first = Decision(spelled, prefix, list(map(keys.__getitem__, map(id, legal))), sorted(nxt))
        first.next = nxt
        first._ids = keys
        if self._mask is not None:
            mask = first._mask = self._mask.copy()
            for token in flip:
                mask[token] ^= 1
            mask.flags.writeable = False
        return first

    def options(self) -> list[int]:
        """Return the token ids that continue some legal action, in id order."""
        return self._options

    def mask(self, size: int) -> np.ndarray:
        """Return a fresh int8 array of ``size`` with 1 at every id of ``options()`` (a
        copy of ``shared_mask``)."""
        return self.shared_mask(size).copy()

    def shared_mask(self, size: int) -> np.ndarray:
        """Return the read-only int8 array of ``size`` with 1 at every id of ``options()``,
        made once per point (every call gives the same array)."""
        mask = self._mask
        if mask is None or mask.size != size:
            flags = bytearray(size)
            for token in self._options:
                flags[token] = 1
            mask = self._mask = np.frombuffer(bytes(flags), dtype=np.int8)  # read-only
        return mask

    def texts(self) -> list[str]:
        """Return the text form of every legal action the prefix still allows."""
        return [str(self.spelled[k]) for k in self._live]

    def after(self, token: int) -> Decision | Action | None:
        """Return what choosing ``token`` leads to, with the tokens every candidate shares
        after it taken: the next point, the action once it is spelled whole, or None when
        ``token`` is not among ``options()``."""
        nxt = self.next.get(token)
        if nxt is None:
            if token not in self._options:
                return None
            n = len(self.prefix)
            live = self._live
            if len(self._options) > 1:
                live = [k for k in live if k[n] == token]
            nxt = self.next[token] = _point(self.spelled, [*self.prefix, token], live, chosen=True)
        return nxt


def _point(
    spelled: dict[tuple[int, ...], Action],
    prefix: list[int],
    live: list[tuple[int, ...]],
    *,
    chosen: bool,
) -> Decision | Action:
    """Return the point reached from ``prefix`` (with ``live`` the spellings it allows)
    once the tokens every candidate shares are taken, or the action spelled whole. Shared
    tokens are taken for the agent, but ``.`` only after it chose one itself (``chosen``):
    every decision costs the agent at least one step."""
    n = len(prefix)
    if len(live) == 1:
        only = live[0]
        if chosen or n == len(only):
            return spelled[only]
        return Decision(spelled, only[:-1], live, [PLAY])
    while True:
        shared = live[0][n]
        for k in live:
            if k[n] != shared:
                return Decision(spelled, tuple(prefix), live, sorted({k[n] for k in live}))
        if shared == PLAY and not chosen:
            return Decision(spelled, tuple(prefix), live, [PLAY])
        prefix.append(shared)
        n += 1
