"""Hand maths on count arrays: the win check, waits and suit keys (pure functions).

A hand is a count array over the 27 tile kinds (``1m`` = 0 ... ``9s`` = 26, as
``MahjongTile.kind``). Each suit's nine counts pack into one *suit key*, the integer whose
byte ``r`` is the count of rank ``r + 1``, so adding a tile of kind ``k`` adds ``SHIFT[k]``
to the key of suit ``k // 9``. Per-suit answers (can it split into sets, into sets and one
pair, are all counts even) are computed once per key and cached, so a whole-hand check is
three dictionary look-ups.

>>> counts = counts_of("1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5p 5p")
>>> is_win(counts), is_win(counts, melds=0)
(True, True)
>>> [kind_name(k) for k in waits(counts_of("1m 1m 1m 1m 2m 3m 4m 5p 6p 7p 8p 8p 8p"), miss=2)]
['4m']
"""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.core.tiles import kind_name, parse_kind, split_tokens

KINDS = 27
SUITS = 3
RANKS = 9
SUIT_LETTERS = "mps"

SHIFT: tuple[int, ...] = tuple(1 << (8 * (k % RANKS)) for k in range(KINDS))
"""What a tile of kind ``k`` adds to the key of its suit."""

RANK_SHIFT: tuple[int, ...] = tuple(1 << (8 * r) for r in range(RANKS))
"""What a tile of rank ``r + 1`` adds to a suit key."""

SETS = 1
"""Suit flag: the suit's tiles split into sets (pungs and chows) only."""
PAIR = 2
"""Suit flag: the suit's tiles split into sets and exactly one pair."""
EVEN = 4
"""Suit flag: every count of the suit is even (0, 2 or 4): seven-pairs material."""

_FLAGS: dict[int, int] = {}

_ODD_BITS = sum(RANK_SHIFT)
"""The low bit of every count byte of a suit key: a key with none of them set has only
even counts."""


def counts_of(text: str | Sequence[str]) -> list[int]:
    """Return the count array of a list of tile faces (``"1m 1m 5p"``).

    >>> counts_of("1m 1m 5p")[:2], counts_of("5p")[13]
    ([2, 0], 1)
    """
    counts = [0] * KINDS
    for face in split_tokens(text) if isinstance(text, str) else text:
        counts[parse_kind(face.split("#")[0])] += 1
    return counts


def suit_key(counts: Sequence[int], suit: int) -> int:
    """Return the key of one suit of a count array."""
    return int.from_bytes(bytes(counts[RANKS * suit : RANKS * suit + RANKS]), "little")


def suit_keys(counts: Sequence[int]) -> list[int]:
    """Return the three suit keys of a count array (m, p, s)."""
    b = bytes(counts)
    return [
        int.from_bytes(b[0:9], "little"),
        int.from_bytes(b[9:18], "little"),
        int.from_bytes(b[18:27], "little"),
    ]


def key_counts(key: int) -> list[int]:
    """Return the nine counts of a suit key.

    >>> key_counts(suit_key(counts_of("1m 1m 9m"), 0))
    [2, 0, 0, 0, 0, 0, 0, 0, 1]
    """
    return list(key.to_bytes(RANKS, "little"))


def _splits_into_sets(c: Sequence[int]) -> bool:
    """Return True when nine counts split into pungs and chows only.

    Three equal chows are three pungs, so some split has fewer than three chows starting
    at each rank; going up from rank 1, the tiles left at a rank after the chows started
    below it then fix the chows starting there (their number mod 3). No search is needed.
    """
    before = twice_before = 0
    for i in range(RANKS):
        left = c[i] - before - twice_before
        if left < 0:
            return False
        start = left % 3
        if start and i >= 7:
            return False
        twice_before, before = before, start
    return True


def suit_flags(key: int) -> int:
    """Return the flags (``SETS``, ``PAIR``, ``EVEN``) of one suit key, cached.

    >>> suit_flags(0) == SETS | EVEN, suit_flags(suit_key(counts_of("1m 1m"), 0)) == PAIR | EVEN
    (True, True)
    """
    flags = _FLAGS.get(key)
    if flags is not None:
        return flags
    c = key_counts(key)
    total = sum(c)
    flags = 0 if key & _ODD_BITS else EVEN
    if total % 3 == 0:
        if _splits_into_sets(c):
            flags |= SETS
    elif total % 3 == 2:
        # Sets keep sum(rank x count) = 0 mod 3, so a pair of rank p needs 2p = that sum.
        weight = sum(i * n for i, n in enumerate(c)) % 3
        for p in range((2 * weight) % 3, RANKS, 3):
            if c[p] >= 2:
                c[p] -= 2
                found = _splits_into_sets(c)
                c[p] += 2
                if found:
                    flags |= PAIR
                    break
    _FLAGS[key] = flags
    return flags


def is_win_keys(k0: int, k1: int, k2: int, melds: int) -> bool:
    """Return True when concealed tiles with these suit keys complete a hand that has
    ``melds`` declared melds (the keys must hold 14 - 3 x melds tiles)."""
    f0 = _FLAGS.get(k0)
    if f0 is None:
        f0 = suit_flags(k0)
    f1 = _FLAGS.get(k1)
    if f1 is None:
        f1 = suit_flags(k1)
    f2 = _FLAGS.get(k2)
    if f2 is None:
        f2 = suit_flags(k2)
    if f0 & 3 and f1 & 3 and f2 & 3:
        return True
    return melds == 0 and bool(f0 & f1 & f2 & EVEN)


def is_win(counts: Sequence[int], melds: int = 0) -> bool:
    """Return True when the concealed ``counts`` (14 - 3 x melds tiles) complete a hand:
    the standard form (sets and one pair), or seven pairs (no melds; four of a kind are two
    pairs). The missing suit is the caller's concern (see ``is_sichuan_win``)."""
    b = bytes(counts)
    return is_win_keys(
        int.from_bytes(b[0:9], "little"),
        int.from_bytes(b[9:18], "little"),
        int.from_bytes(b[18:27], "little"),
        melds,
    )


def is_standard_win(counts: Sequence[int]) -> bool:
    """Return True when the counts split into sets and exactly one pair (standard form)."""
    b = bytes(counts)
    return bool(
        suit_flags(int.from_bytes(b[0:9], "little")) & 3
        and suit_flags(int.from_bytes(b[9:18], "little")) & 3
        and suit_flags(int.from_bytes(b[18:27], "little")) & 3
    )


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Return True when 14 tiles form seven pairs (every count 0, 2 or 4)."""
    return sum(counts) == 14 and all(n % 2 == 0 for n in counts)


def is_sichuan_win(counts: Sequence[int], melds: int, miss: int) -> bool:
    """Return True when the concealed counts complete a hand and hold no tile of the
    missing suit ``miss`` (0 m, 1 p, 2 s)."""
    if any(counts[RANKS * miss : RANKS * miss + RANKS]):
        return False
    return is_win(counts, melds)


def waits(counts: Sequence[int], miss: int, melds: int = 0, held: Sequence[int] = ()) -> list[int]:
    """Return the valid waits (sichuan.md 11.1) of a 13-slot hand, as tile kinds.

    ``counts`` are the concealed tiles, ``melds`` the number of declared melds and ``held``
    (optional) a count array of the tiles in those melds: a kind whose four copies are all in
    the player's concealed tiles and melds is no wait (a fifth copy). The missing suit never
    waits, and a hand holding a missing-suit tile has no waits."""
    base = RANKS * miss
    if any(counts[base : base + RANKS]):
        return []
    keys = suit_keys(counts)
    # One added tile changes one suit: the others must already be complete.
    open_suits = [s for s in range(SUITS) if not suit_flags(keys[s]) & (SETS | PAIR)]
    candidates: set[int] = set()
    for suit in open_suits if len(open_suits) == 1 else range(SUITS) if not open_suits else ():
        candidates.update(range(RANKS * suit, RANKS * suit + RANKS))
    odd = [k for k in range(KINDS) if counts[k] % 2]
    if melds == 0 and len(odd) == 1:
        candidates.add(odd[0])
    out: list[int] = []
    for kind in sorted(candidates):
        suit = kind // RANKS
        if suit == miss or counts[kind] + (held[kind] if held else 0) >= 4:
            continue
        trial = list(keys)
        trial[suit] += RANK_SHIFT[kind % RANKS]
        if is_win_keys(trial[0], trial[1], trial[2], melds):
            out.append(kind)
    return out


def describe(counts: Sequence[int]) -> str:
    """Return the faces of a count array, space separated, in kind order.

    >>> describe(counts_of("5p 1m 1m"))
    '1m 1m 5p'
    """
    return " ".join(kind_name(k) for k in range(KINDS) for _ in range(counts[k]))


def clear_caches() -> None:
    """Empty the per-suit tables (benchmarks measure a cold start with it)."""
    _FLAGS.clear()
