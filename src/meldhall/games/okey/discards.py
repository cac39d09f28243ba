"""Which discards of a 15-tile hand leave a winning hand, fast enough to list DISCARD_WIN
actions on every turn.

Cheap necessary conditions come first: with no real joker every tile needs a whole set or run
among the tiles, with one joker a partner within reach, with two at most one tile may lean on
both jokers. A tile failing them must be the discard, so two such tiles rule out every discard
and the exact check (``hand.is_sets_runs``) runs only for the few candidates left.

>>> from meldhall.games.okey.hand import ids
>>> rules = HandRules(okey=41)  # indicator K2
>>> hand = ids("R1 R2 R3 Y7 B7 K7 B10 B11 B12 B13 Y4 Y5 Y6 Y7 B5")
>>> [TOKENS[t] for t in winning_discards(hand, rules)]
['B5a']
"""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.games.okey.faces import FACES, TOKENS, effective_faces
from meldhall.games.okey.hand import HandRules, is_sets_runs

__all__ = ["TOKENS", "winning_discards"]


def _positions(face: int, wrap: bool) -> tuple[int, ...]:
    number = face % 13 + 1
    return (1, 14) if number == 1 and wrap else (number,)


def _face_at(colour: int, position: int) -> int:
    return colour * 13 + (0 if position == 14 else position - 1)


_Tables = tuple[
    list[tuple[int, ...]], list[list[tuple[int, int]]], list[tuple[int, ...]], list[tuple[int, ...]]
]


def _tables(wrap: bool) -> _Tables:
    """Return per face: set partners, the two other faces of every 3-run window holding it,
    the same-colour faces within 2 positions and within 3."""
    top = 14 if wrap else 13
    set_partners: list[tuple[int, ...]] = []
    windows: list[list[tuple[int, int]]] = []
    near2: list[tuple[int, ...]] = []
    near3: list[tuple[int, ...]] = []
    for face in range(FACES):
        colour, index = divmod(face, 13)
        set_partners.append(tuple(c * 13 + index for c in range(4) if c != colour))
        wins: list[tuple[int, int]] = []
        n2: set[int] = set()
        n3: set[int] = set()
        for p in _positions(face, wrap):
            for low in range(p - 2, p + 1):
                if low >= 1 and low + 2 <= top:
                    others = [_face_at(colour, q) for q in range(low, low + 3) if q != p]
                    wins.append((others[0], others[1]))
            for q in range(p - 3, p + 4):
                if q != p and 1 <= q <= top:
                    (n2 if abs(q - p) <= 2 else n3).add(_face_at(colour, q))
        windows.append(wins)
        near2.append(tuple(sorted(n2)))
        near3.append(tuple(sorted(n2 | n3)))
    return set_partners, windows, near2, near3


_TABLES = {wrap: _tables(wrap) for wrap in (True, False)}


def _needy(counts: Sequence[int], wild: int, wrap: bool) -> list[int]:
    """Return the faces (repeated per tile) that fail the necessary condition for ``wild``
    real jokers (with two jokers: tiles that would need both)."""
    set_partners, windows, near2, near3 = _TABLES[wrap]
    out: list[int] = []
    for face in range(FACES):
        n = counts[face]
        if not n:
            continue
        partners = sum(1 for g in set_partners[face] if counts[g])
        if wild == 0:
            ok = partners >= 2 or any(counts[a] and counts[b] for a, b in windows[face])
        elif wild == 1:
            ok = partners >= 1 or any(counts[g] for g in near2[face])
        else:
            ok = partners >= 1 or any(counts[g] for g in near3[face])
        if not ok:
            out.extend([face] * n)
    return out


def _sets_runs_faces(counts: list[int], wild: int, rules: HandRules) -> set[int]:
    """Return the faces whose removal (one tile) leaves sets and runs, jokers kept."""
    needy = _needy(counts, wild, rules.wrap)
    # Without two jokers every needy tile must go; with two, one needy tile may keep both.
    spare = 1 if wild == 2 else 0
    if len(needy) > spare + 1:
        return set()
    faces = set(needy) if len(needy) > spare else {f for f in range(FACES) if counts[f]}
    out: set[int] = set()
    for face in faces:
        counts[face] -= 1
        if is_sets_runs(counts, wild, rules):
            out.add(face)
        counts[face] += 1
    return out


def winning_discards(hand: Sequence[int], rules: HandRules) -> tuple[int, ...]:
    """Return the tiles of a 15-tile hand whose discard leaves a winning hand, in hand order."""
    counts, wild = effective_faces(list(hand), rules.okey)
    faces = _sets_runs_faces(counts, wild, rules)
    joker_wins = bool(wild) and not _needy(counts, wild - 1, rules.wrap)
    if joker_wins:
        joker_wins = is_sets_runs(counts, wild - 1, rules)
    if rules.seven_pairs:
        odd = sum(c & 1 for c in counts)
        if wild and odd <= wild - 1:
            joker_wins = True
        for face in range(FACES):
            if counts[face] and (odd - 1 if counts[face] & 1 else odd + 1) <= wild:
                faces.add(face)
    if not faces and not joker_wins:
        return ()
    okey = rules.okey
    out: list[int] = []
    for t in hand:
        if t >= 104:
            if okey in faces:
                out.append(t)
        elif t >> 1 == okey:
            if joker_wins:
                out.append(t)
        elif t >> 1 in faces:
            out.append(t)
    return tuple(out)
