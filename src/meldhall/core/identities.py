"""Identities in rule vectors (VECTORS.md 2): what a joker stands for, written as a face
without copy suffix (``K7``, ``6H``, ``5p``), with ``?`` where the colour or suit is open.

>>> identity_matches("?5", "B5"), identity_matches("B5", "?5"), identity_matches("10?", "10H")
(True, True, True)
>>> identity_matches("R5", "B5"), identity_matches("?5", "?6"), identity_matches("?5", "?15")
(False, False, False)
"""

from __future__ import annotations


def identity_matches(said: str, real: str) -> bool:
    """Return True when a declared identity and the identity the tiles give can be the same
    face: equal, or equal but for a ``?`` (an open colour or suit) on either side."""
    if len(said) != len(real):
        return False
    return all(a == b or "?" in (a, b) for a, b in zip(said, real, strict=True))


def settled(said: str, real: str) -> str:
    """Return the more precise of two matching identities (the one without ``?``)."""
    return said if "?" in real else real
