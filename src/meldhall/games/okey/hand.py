"""Winning hands of okey.md section 6 on count arrays: sets and runs, seven pairs, the
identity of every joker, and which discards of a 15-tile hand win.

Counts are indexed by face (``colour × 13 + number − 1``); false jokers are already counted
as the okey face and ``wild`` is the number of real jokers (``faces.effective_faces``).
Run positions are 1..13, and 14 (the number 1 above 13) when runs wrap.

>>> from meldhall.games.okey.pieces import effective_faces
>>> counts, wild = effective_faces(ids("R1 R2 R3 Y7 B7 K7 B10 B11 B12 B13 Y4 Y5 Y6 Y7"), 41)
>>> judge(counts, wild, HandRules(okey=41)).form
'sets_runs'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from meldhall.core import solver
from meldhall.core.solver import MeldRules
from meldhall.core.tiles import OKEY_COLOURS, parse_okey_many
from meldhall.games.okey.pieces import FACES, Identity
from meldhall.games.okey.split import fits

SETS_RUNS = "sets_runs"
SEVEN_PAIRS = "seven_pairs"


@dataclass(frozen=True, slots=True)
class HandRules:
    """What makes a winning hand: the okey face, wrap-around runs (12-13-1), the longest
    run (14 allows 1-2-...-13-1) and whether seven pairs win."""

    okey: int
    wrap: bool = True
    max_run: int = 14
    seven_pairs: bool = True

    @property
    def top(self) -> int:
        """Return the highest run position: 14 when runs wrap, else 13."""
        return 14 if self.wrap else 13


@dataclass(frozen=True, slots=True)
class Verdict:
    """A winning reading of 14 tiles: its ``form`` (``sets_runs`` or ``seven_pairs``, the
    more valuable when both exist, 6.4), what each real joker stands for when every reading of
    that form agrees (else None), and whether the tiles also read as one 14-tile run."""

    form: str
    wild_identities: tuple[Identity, ...] | None
    full_run: bool


def ids(text: str) -> list[int]:
    """Return the tile ids of a token list (tests and doctests)."""
    return [t.id for t in parse_okey_many(text)]


# ---------------------------------------------------------------- sets and runs


def _number(position: int) -> int:
    return 1 if position == 14 else position


def readings(counts: Sequence[int], wild: int, rules: HandRules) -> Iterator[tuple[Identity, ...]]:
    """Yield, for every way to split all the tiles into sets and runs, what the real jokers
    stand for (one identity per joker; open set colours as ``None``)."""
    work = list(counts)
    yield from _readings(work, wild, 0, (), rules)


def _readings(
    counts: list[int], wild: int, start: int, idents: tuple[Identity, ...], rules: HandRules
) -> Iterator[tuple[Identity, ...]]:
    i = start
    while i < FACES and counts[i] == 0:
        i += 1
    if i == FACES:
        if wild == 0:
            yield idents
        return
    colour, number = divmod(i, 13)
    number += 1
    counts[i] -= 1
    yield from _sets(counts, wild, i, colour, number, idents, rules)
    yield from _run_down(counts, wild, i, colour, number, number, 1, idents, rules)
    if number == 1 and rules.wrap:
        yield from _run_down(counts, wild, i, colour, 14, 14, 1, idents, rules)
    counts[i] += 1


def _sets(
    counts: list[int],
    wild: int,
    i: int,
    colour: int,
    number: int,
    idents: tuple[Identity, ...],
    rules: HandRules,
) -> Iterator[tuple[Identity, ...]]:
    # Colours below ``colour`` hold no tiles any more (``i`` is the first face left).
    others = [c for c in range(colour + 1, 4) if counts[c * 13 + number - 1]]
    for mask in range(1 << len(others)):
        chosen = [others[b] for b in range(len(others)) if mask >> b & 1]
        naturals = 1 + len(chosen)
        for jokers in range(min(wild, 4 - naturals) + 1):
            if naturals + jokers < 3:
                continue
            if naturals + jokers == 4 and jokers == 1:
                missing = ({0, 1, 2, 3} - {colour, *chosen}).pop()
                added: tuple[Identity, ...] = ((OKEY_COLOURS[missing], number),)
            else:
                added = ((None, number),) * jokers
            for c in chosen:
                counts[c * 13 + number - 1] -= 1
            yield from _readings(counts, wild - jokers, i, idents + added, rules)
            for c in chosen:
                counts[c * 13 + number - 1] += 1


def _run_down(
    counts: list[int],
    wild: int,
    i: int,
    colour: int,
    top: int,
    low: int,
    length: int,
    idents: tuple[Identity, ...],
    rules: HandRules,
) -> Iterator[tuple[Identity, ...]]:
    """Runs holding position ``top`` as their fixed tile and ``low..top`` filled: extend up,
    then extend down one position and recurse."""
    yield from _run_up(counts, wild, i, colour, top + 1, length, idents, rules)
    q = low - 1
    if q < 1 or length >= rules.max_run:
        return
    face = colour * 13 + q - 1
    if counts[face]:
        counts[face] -= 1
        yield from _run_down(counts, wild, i, colour, top, q, length + 1, idents, rules)
        counts[face] += 1
    if wild:
        ident = ((OKEY_COLOURS[colour], q),)
        yield from _run_down(counts, wild - 1, i, colour, top, q, length + 1, idents + ident, rules)


def _run_up(
    counts: list[int],
    wild: int,
    i: int,
    colour: int,
    q: int,
    length: int,
    idents: tuple[Identity, ...],
    rules: HandRules,
) -> Iterator[tuple[Identity, ...]]:
    if length >= 3:
        yield from _readings(counts, wild, i, idents, rules)
    if q > rules.top or length >= rules.max_run:
        return
    number = _number(q)
    face = colour * 13 + number - 1
    if counts[face]:
        counts[face] -= 1
        yield from _run_up(counts, wild, i, colour, q + 1, length + 1, idents, rules)
        counts[face] += 1
    if wild:
        ident = ((OKEY_COLOURS[colour], number),)
        yield from _run_up(counts, wild - 1, i, colour, q + 1, length + 1, idents + ident, rules)


@cache
def meld_rules(wrap: bool, max_run: int) -> MeldRules:
    """Return the arrangement solver's rules for okey sets and runs: runs of 3 up to
    ``max_run`` on positions 1..14 (14 being the 1 above 13) or 1..13, sets of 3 or 4."""
    if wrap:
        return MeldRules(run_line="ace_high", max_run=max_run)
    return MeldRules(run_line="plain", max_run=13)


def fits_sets_runs(counts: Sequence[int], wild: int, rules: HandRules) -> bool:
    """Return True when the fast search of ``split`` finds sets and runs (it scans the
    discards of every turn; ``is_sets_runs`` is the solver's answer)."""
    return fits(counts, wild, top=rules.top, max_run=rules.max_run)


def is_sets_runs(counts: Sequence[int], wild: int, rules: HandRules) -> bool:
    """Return True when every tile fits into sets and runs (6.1, 6.2), by the core
    arrangement solver (``readings`` enumerates the same splits one by one)."""
    return solver.is_winning(counts, wild, meld_rules(rules.wrap, rules.max_run))


def unique_identities(
    counts: Sequence[int], wild: int, rules: HandRules
) -> tuple[Identity, ...] | None:
    """Return what the real jokers stand for when every sets-and-runs reading agrees
    (identities sorted), else None (also when there is no reading)."""
    found: set[tuple[Identity, ...]] = set()
    for idents in readings(counts, wild, rules):
        found.add(tuple(sorted(idents, key=_ident_key)))
        if len(found) > 1:
            return None
    return found.pop() if found else None


def _ident_key(ident: Identity) -> tuple[str, int]:
    return (ident[0] or "?", ident[1])


def is_full_run(counts: Sequence[int], wild: int, rules: HandRules) -> bool:
    """Return True when the 14 tiles read as the one-colour run 1-2-...-13-1."""
    if not rules.wrap or rules.max_run < 14:
        return False
    for colour in range(4):
        row = counts[colour * 13 : colour * 13 + 13]
        if sum(row) + wild != 14 or sum(counts) != sum(row):
            continue
        need = sum(max(0, (2 if n == 0 else 1) - row[n]) for n in range(13))
        if all(row[n] <= (2 if n == 0 else 1) for n in range(13)) and need <= wild:
            return True
    return False


# ---------------------------------------------------------------- seven pairs


def is_seven_pairs(counts: Sequence[int], wild: int) -> bool:
    """Return True when 14 tiles make seven pairs: same effective colour and number, a real
    joker pairing with anything (6.3)."""
    return sum(c & 1 for c in counts) <= wild and sum(counts) + wild == 14


def pair_identities(counts: Sequence[int], wild: int) -> tuple[Identity, ...] | None:
    """Return what the real jokers stand for in seven pairs when that is fixed (each joker
    pairs a lone tile), else None (two jokers free to pair each other or split a pair)."""
    lone = [f for f in range(FACES) if counts[f] & 1]
    if len(lone) != wild:
        return None
    return tuple(sorted(((OKEY_COLOURS[f // 13], f % 13 + 1) for f in lone), key=_ident_key))


# ---------------------------------------------------------------- the verdict


def winning_readings(counts: Sequence[int], wild: int, rules: HandRules) -> tuple[Verdict, ...]:
    """Return every winning reading of 14 tiles (seven pairs first, then sets and runs);
    empty when they are not a winning hand."""
    if sum(counts) + wild != 14:
        return ()
    full_run = is_full_run(counts, wild, rules)
    out: list[Verdict] = []
    if rules.seven_pairs and is_seven_pairs(counts, wild):
        out.append(Verdict(SEVEN_PAIRS, pair_identities(counts, wild), full_run))
    if full_run or is_sets_runs(counts, wild, rules):
        out.append(Verdict(SETS_RUNS, unique_identities(counts, wild, rules), full_run))
    return tuple(out)


def judge(
    counts: Sequence[int], wild: int, rules: HandRules, value: Callable[[str], int] | None = None
) -> Verdict | None:
    """Return the scored reading of 14 tiles, or None when they are not a winning hand.

    When both readings exist the one that ``value`` (points by form) rates higher is scored
    (6.4); on equal points, or without ``value``, seven pairs."""
    readings = winning_readings(counts, wild, rules)
    if not readings:
        return None
    if value is None:
        return readings[0]
    return max(readings, key=lambda v: (value(v.form), v.form == SEVEN_PAIRS))
