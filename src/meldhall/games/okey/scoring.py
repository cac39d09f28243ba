"""The score sheet of okey.md sections 8 and 9: what a win costs, the indicator show, the end
of the match, ranks and winners (with the partnership, elimination and count-up options).

>>> o = OkeyOptions()
>>> hand_points("sets_runs", False, "B", o), hand_points("seven_pairs", True, "B", o)
(2, 8)
>>> win_deltas(3, 2, [True] * 4, o)
[-2, -2, -2, 0]
>>> standing([0, 4, 7, 12], o)
Standing(over=True, ranks=(4, 3, 2, 1), winners=(2, 3), termination='score_zero')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meldhall.games.okey.hand import SEVEN_PAIRS
from meldhall.games.okey.options import OkeyOptions


def hand_points(form: str, joker_discard: bool, indicator_colour: str, options: OkeyOptions) -> int:
    """Return L, what each losing player loses (count-up: what the winner gains): 2, 4, 4 or
    8 by form and final discard, doubled by ``colour_double`` for a red or black indicator."""
    ordinary, joker, pairs = options.win_points
    if form == SEVEN_PAIRS:
        points = options.pairs_joker_points if joker_discard else pairs
    else:
        points = joker if joker_discard else ordinary
    if options.colour_double and indicator_colour in ("R", "K"):
        points *= 2
    return points


def losers_of(seat: int, active: Sequence[bool], options: OkeyOptions) -> list[int]:
    """Return the seats that pay when ``seat`` wins or shows: every other active seat, or
    only the two opponents with ``partnership``."""
    n = len(active)
    if options.partnership:
        return [s for s in range(n) if active[s] and (s - seat) % 2 == 1]
    return [s for s in range(n) if active[s] and s != seat]


def _deltas(seat: int, amount: int, active: Sequence[bool], options: OkeyOptions) -> list[int]:
    deltas = [0] * len(active)
    if options.scoring == "countup":
        deltas[seat] = amount
    else:
        for s in losers_of(seat, active, options):
            deltas[s] = -amount
    return deltas


def win_deltas(winner: int, points: int, active: Sequence[bool], options: OkeyOptions) -> list[int]:
    """Return the score change per seat of a win worth ``points`` (the winner 0 when
    counting down; count-up: only the winner gains)."""
    return _deltas(winner, points, active, options)


def show_deltas(shower: int, active: Sequence[bool], options: OkeyOptions) -> list[int]:
    """Return the score change per seat of an indicator show (gösterme): each other player
    (partnership: each opponent) −1; count-up: the shower +1."""
    return _deltas(shower, 1, active, options)


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a match stands after a hand: over or not, ranks (1 = best, ties share),
    winners (empty while it goes on) and why it ended."""

    over: bool
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    termination: str


def _competition(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Return competition ranks, the largest key first."""
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


def standing(
    scores: Sequence[int],
    options: OkeyOptions,
    *,
    active: Sequence[bool] | None = None,
    out_after: Sequence[int | None] | None = None,
    full_run_winner: int | None = None,
) -> Standing:
    """Return the standing after a hand.

    ``active`` marks the seats still playing (elimination) and ``out_after`` the hand after
    which each eliminated seat left; ``full_run_winner`` is a seat that just won with the
    14-tile run under ``full_run_wins_match``.
    """
    n = len(scores)
    live = list(active) if active is not None else [True] * n
    left = list(out_after) if out_after is not None else [None] * n
    if options.partnership:
        value = [scores[s] + scores[(s + 2) % n] for s in range(n)]
    else:
        value = list(scores)
    never = 1 << 30
    keys: list[tuple[int, ...]] = [
        (never if not options.elimination or left[s] is None else int(left[s] or 0), value[s])
        for s in range(n)
    ]
    if full_run_winner is not None:
        mates = {full_run_winner}
        if options.partnership:
            mates.add((full_run_winner + 2) % n)
        ranks = _competition([(1 if s in mates else 0, *keys[s]) for s in range(n)])
        return Standing(True, ranks, tuple(sorted(mates)), "full_run")
    ranks = _competition(keys)
    if options.elimination:
        over = sum(live) <= 1
        termination = "last_player"
    elif options.scoring == "countup":
        over = any(scores[s] >= options.start_points for s in range(n))
        termination = "target_reached"
    else:
        over = any(scores[s] <= 0 for s in range(n))
        termination = "score_zero"
    if not over:
        return Standing(False, ranks, (), "")
    best = 2 if n == 4 and not options.partnership and options.scoring == "countdown" else 1
    if options.elimination:
        best = 1
    winners = tuple(s for s in range(n) if ranks[s] <= best)
    return Standing(True, ranks, winners, termination)
