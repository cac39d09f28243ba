"""Account names: what a name may be, and its confusable key.

Two names are the same name when their keys are equal: the key is the name after NFKC, with
every character replaced by the plainest look-alike the Unicode confusables list
gives it (a Cyrillic ``а`` is a Latin ``a``, ``l`` and ``1`` are one, ``0`` and ``o``), then
case-folded. So
"Alice", "alice", "ALICE", "Аlice" (Cyrillic А) and "A1ice" all have one key. (``i``, ``I``,
``l`` and ``1`` are all one: "AIice" is "Alice" too.)
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import confusables

from meldhall.core.errors import MeldhallError

NAME_MIN = 3
NAME_MAX = 24
"""The least and most characters of an account name."""


class NameError_(MeldhallError):
    """A name that cannot be an account name; ``code`` says why (for the page's catalog)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def account_name(raw: object) -> str:
    """Return ``raw`` as an account name (NFKC, trimmed, inner spaces squeezed); raise
    ``NameError_`` when it is too short, too long, or holds anything but letters, digits,
    spaces and ``-_.``.

    >>> account_name("  Ali   Veli ")
    'Ali Veli'
    """
    if not isinstance(raw, str):
        raise NameError_("bad_name", "the name must be text")
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if len(name) < NAME_MIN:
        raise NameError_("name_short", f"a name has at least {NAME_MIN} characters")
    if len(name) > NAME_MAX:
        raise NameError_("name_long", f"a name has at most {NAME_MAX} characters")
    for ch in name:
        if not (ch.isalnum() or ch in " -_."):
            raise NameError_(
                "bad_name", f"a name holds letters, digits, spaces and -_. only, not {ch!r}"
            )
    return name


def name_key(name: str) -> str:
    """Return the confusable key of a name: equal keys are one name.

    >>> name_key("Alice") == name_key("ALICE") == name_key("\\u0410lice") == name_key("A1ice")
    True
    >>> name_key("Bob") == name_key("B0b") == name_key("\\u0412\\u043eb")
    True
    >>> name_key("Alice") == name_key("Alicia")
    False
    """
    text = unicodedata.normalize("NFKC", name)
    return "".join(_plain(ch) for ch in text).casefold()


@functools.cache
def _representatives() -> dict[str, str]:
    """Return the representative of every character the Unicode confusables list likens to
    an ASCII letter or digit: the least ASCII letter or digit of that look-alike class
    (``l``, ``I``, ``1`` and ``|`` are all ``1``)."""
    data = confusables.confusables_data
    out: dict[str, str] = {}
    for key, entries in data.items():
        if not (len(key) == 1 and key.isascii() and key.isalnum()):
            continue
        members = {key} | {e["c"] for e in entries if len(e["c"]) == 1}
        rep = min(c for c in members if c.isascii() and c.isalnum())
        for c in members:
            out[c] = min(out.get(c, rep), rep)
    for key, entries in data.items():  # a look-alike listed under a non-ASCII key
        if key in out:
            continue
        near = [out[e["c"]] for e in entries if e["c"] in out]
        if near:
            out[key] = min(near)
    for upper in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":  # a letter's two cases are one: "o" is "O"
        lower = upper.lower()
        rep = min(out.get(lower, lower), out.get(upper, upper)).casefold()
        out[lower] = out[upper] = rep
    for _ in range(2):  # a representative that has a representative of its own
        out = {c: out.get(r, r) for c, r in out.items()}
    return out


def _plain(ch: str) -> str:
    """Return the representative of a character's look-alikes (its case fold when it has
    none)."""
    reps = _representatives()
    return reps.get(ch) or reps.get(ch.casefold()) or ch.casefold()
