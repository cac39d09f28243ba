"""Deterministic randomness from seed bytes.

Algorithm (documented in docs/fairness.md): a stream labelled ``label`` under seed ``s`` is the
concatenation of the blocks ``HMAC-SHA256(key=s, msg=label || 0x00 || counter)`` for
``counter = 0, 1, 2, ...`` as 8-byte big-endian integers. Integers below ``n`` are drawn from
successive 8-byte big-endian words by rejection sampling (no modulo bias), and a list is
shuffled by Fisher-Yates from the last position down. Every later reshuffle, hand or die roll
uses its own derived seed, so no draw depends on how many numbers another part consumed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

_WORD = 8
_SPACE = 1 << 64


def derive(seed: bytes, *labels: str | int) -> bytes:
    """Return the 32-byte sub-seed of ``seed`` for a path of labels.

    >>> derive(b"s", "hand", 1) == derive(b"s", "hand", 1) != derive(b"s", "hand", 2)
    True
    """
    msg = "/".join(str(label) for label in labels).encode()
    return hmac.digest(seed, b"derive\x00" + msg, "sha256")


class SeededStream:
    """A reproducible stream of random integers from a seed and a label."""

    __slots__ = ("_buf", "_counter", "_key", "_label", "_pos")

    def __init__(self, seed: bytes, label: str = "") -> None:
        self._key = seed
        self._label = label.encode() + b"\x00"
        self._counter = 0
        self._buf = b""
        self._pos = 0

    def _word(self) -> int:
        if self._pos + _WORD > len(self._buf):
            block = self._label + self._counter.to_bytes(8, "big")
            self._buf = hmac.digest(self._key, block, "sha256")
            self._counter += 1
            self._pos = 0
        word = int.from_bytes(self._buf[self._pos : self._pos + _WORD], "big")
        self._pos += _WORD
        return word

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in ``0 .. n-1``.

        >>> s = SeededStream(b"seed", "dice")
        >>> all(0 <= s.randbelow(6) < 6 for _ in range(100))
        True
        """
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, got {n}")
        limit = _SPACE - (_SPACE % n)
        while True:
            word = self._word()
            if word < limit:
                return word % n

    def roll(self, sides: int = 6) -> int:
        """Return a die roll ``1 .. sides``."""
        return self.randbelow(sides) + 1

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place by Fisher-Yates, last position first."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]


def shuffled(seed: bytes, label: str, items: list[T]) -> list[T]:
    """Return a new list: ``items`` shuffled by the stream ``label`` of ``seed``.

    >>> shuffled(b"x", "wall", list(range(5))) == shuffled(b"x", "wall", list(range(5)))
    True
    """
    out = list(items)
    SeededStream(seed, label).shuffle(out)
    return out


def seed_from_text(text: str) -> bytes:
    """Return the 32-byte seed that a human-readable seed text stands for (tests, CLI)."""
    return hashlib.sha256(text.encode()).digest()
