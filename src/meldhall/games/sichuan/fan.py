"""The fan table (sichuan.md 7, 8, 9): every interpretation of a winning hand is scored and
the best one kept (pure functions on count arrays).

Only two fans depend on how a standard hand is split: all pungs and outside hand. Each
suit's splits are reduced, once per suit key, to the set of ``(all pungs, outside)`` flags
they can reach; the hand's flags are the combinations over its suits. The other pattern
fans (all 2/5/8, full flush, single wait, roots) depend on the tiles alone.

>>> from meldhall.games.sichuan.hand import counts_of
>>> s = score_win(counts_of("1m 1m 1m 2m 2m 2m 3m 3m 3m 9p 9p 9p 1p 1p"), ())
>>> s.form, s.fans, s.fan, s.points
('standard', {'outside': 2}, 2, 4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from meldhall.games.sichuan.hand import (
    KINDS,
    RANK_SHIFT,
    RANKS,
    is_seven_pairs,
    key_counts,
    suit_keys,
    waits,
)

Meld = tuple[str, int]
"""A declared meld as the fan table sees it: its letter (P, K, A, C) and its tile kind."""

Flags = frozenset[tuple[bool, bool]]

MELD_SIZE = {"P": 3, "K": 4, "A": 4, "C": 4}
EVENT_FANS = ("kong_replacement", "robbed_kong", "last_tile")
"""The event bonuses of section 8, left out of the ready-hand value (11.4)."""

_PRIORITY = {"seven_pairs": 4, "all_258_pungs": 3, "all_pungs": 2, "outside": 1}
"""The tie-break of D13 between interpretations of equal total fan."""

_SPLITS: dict[tuple[int, bool], Flags] = {}


def suit_splits(key: int, pair: bool) -> Flags:
    """Return the ``(all pungs, outside)`` flags reachable by splitting one suit into sets
    (and one pair when ``pair``); empty when the suit does not split.

    >>> from meldhall.games.sichuan.hand import counts_of, suit_key
    >>> sorted(suit_splits(suit_key(counts_of("1m 1m 1m 2m 2m 2m 3m 3m 3m"), 0), False))
    [(False, True), (True, False)]
    """
    if key == 0:
        return frozenset() if pair else frozenset({(True, True)})
    memo = _SPLITS.get((key, pair))
    if memo is not None:
        return memo
    c = key_counts(key)
    i = next(r for r in range(RANKS) if c[r])
    one = RANK_SHIFT[i]
    terminal = i in (0, 8)
    out: set[tuple[bool, bool]] = set()
    if c[i] >= 3:
        out |= {(p, o and terminal) for p, o in suit_splits(key - 3 * one, pair)}
    if i <= 6 and c[i + 1] and c[i + 2]:
        rest = key - one - RANK_SHIFT[i + 1] - RANK_SHIFT[i + 2]
        out |= {(False, o and i in (0, 6)) for _, o in suit_splits(rest, pair)}
    if pair and c[i] >= 2:
        out |= {(p, o and terminal) for p, o in suit_splits(key - 2 * one, False)}
    flags = frozenset(out)
    _SPLITS[(key, pair)] = flags
    return flags


def standard_flags(counts: Sequence[int]) -> Flags:
    """Return the ``(all pungs, outside)`` flags of every standard split of the concealed
    tiles (win tile included); empty when they do not split into sets and one pair."""
    keys = suit_keys(counts)
    combos: set[tuple[bool, bool]] = {(True, True)}
    pairs = 0
    for key in keys:
        pair = sum(key_counts(key)) % 3 == 2
        pairs += pair
        flags = suit_splits(key, pair)
        combos = {(p and q, o and r) for p, o in combos for q, r in flags}
        if not combos:
            return frozenset()
    return frozenset(combos) if pairs == 1 else frozenset()


@dataclass(frozen=True)
class WinScore:
    """The scored interpretation of a winning hand: its form, the fans by name (no zero
    entries), the total fan before the cap and the base points 2^min(fan, cap)."""

    form: str
    fans: Mapping[str, int] = field(default_factory=dict)
    fan: int = 0
    points: int = 1

    def to_json(self) -> dict[str, object]:
        """Return the JSON form: form, fans, fan and points."""
        return {"form": self.form, "fans": dict(self.fans), "fan": self.fan, "points": self.points}


def points_of(fan: int, cap: int | None) -> int:
    """Return the base points 2^min(fan, cap) (no cap when ``cap`` is None).

    >>> points_of(6, 5), points_of(6, None), points_of(0, 5)
    (32, 64, 1)
    """
    return 1 << (fan if cap is None or fan < cap else cap)


def hand_totals(counts: Sequence[int], melds: Sequence[Meld]) -> list[int]:
    """Return the count of every kind among all hand tiles: concealed tiles and melds."""
    total = list(counts)
    for letter, kind in melds:
        total[kind] += MELD_SIZE[letter]
    return total


def pattern_fans(counts: Sequence[int], melds: Sequence[Meld]) -> tuple[str, dict[str, int]] | None:
    """Return the best interpretation's form and pattern fans (no event bonuses) of the
    concealed tiles ``counts`` (win tile included) with ``melds``, or None when they do not
    make a winning hand. The missing suit is the caller's concern."""
    total = hand_totals(counts, melds)
    common: dict[str, int] = {}
    suits = {k // RANKS for k in range(KINDS) if total[k]}
    if len(suits) == 1:
        common["full_flush"] = 2
    if len(melds) == 4:
        common["single_wait"] = 1
    roots = sum(1 for n in total if n == 4)
    if roots:
        common["root"] = roots
    options: list[tuple[int, int, str, dict[str, int]]] = []
    if not melds and is_seven_pairs(counts):
        fans = {"seven_pairs": 2, **common}
        options.append((sum(fans.values()), _PRIORITY["seven_pairs"], "seven_pairs", fans))
    flags = standard_flags(counts)
    if flags:
        all_258 = all(k % RANKS in (1, 4, 7) for k in range(KINDS) if total[k])
        melds_outside = all(kind % RANKS in (0, 8) for _, kind in melds)
        for pungs, outside in flags:
            fans = {}
            if pungs:
                fans["all_258_pungs" if all_258 else "all_pungs"] = 3 if all_258 else 1
            if outside and melds_outside:
                fans["outside"] = 2
            priority = max((_PRIORITY[name] for name in fans), default=0)
            fans.update(common)
            options.append((sum(fans.values()), priority, "standard", fans))
    if not options:
        return None
    _, _, form, fans = max(options, key=lambda o: (o[0], o[1]))
    return form, fans


def score_win(
    counts: Sequence[int],
    melds: Sequence[Meld],
    *,
    events: Sequence[str] = (),
    extra: Mapping[str, int] | None = None,
    cap: int | None = 5,
) -> WinScore | None:
    """Return the score of a win, or None when the tiles do not win.

    ``counts`` are the concealed tiles with the winning tile, ``events`` the event bonuses
    that hold (names of ``EVENT_FANS``, +1 each), ``extra`` further named fans of variants
    (self-draw as a fan, gang shang pao, heavenly hand)."""
    found = pattern_fans(counts, melds)
    if found is None:
        return None
    form, fans = found
    for name in events:
        fans[name] = 1
    if extra:
        fans.update(extra)
    fan = sum(fans.values())
    return WinScore(form, fans, fan, points_of(fan, cap))


def ready_value(
    counts: Sequence[int],
    melds: Sequence[Meld],
    miss: int,
    *,
    cap: int | None = 5,
    allowed: Sequence[bool] | None = None,
) -> tuple[list[int], int]:
    """Return the valid waits (tile kinds) of a 13-slot hand and its maximum hand value
    (11.4: pattern fans only, capped; 0 when not ready). ``allowed[kind]`` False drops a
    wait (the ``ready_check_visible_tiles`` variant)."""
    held = hand_totals([0] * KINDS, melds)
    best = 0
    kept: list[int] = []
    for kind in waits(counts, miss, len(melds), held):
        if allowed is not None and not allowed[kind]:
            continue
        trial = list(counts)
        trial[kind] += 1
        found = pattern_fans(trial, melds)
        if found is None:  # pragma: no cover - waits() already proved the win
            continue
        kept.append(kind)
        best = max(best, points_of(sum(found[1].values()), cap))
    return kept, best
