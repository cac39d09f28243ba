"""What the RL adapter knows about each game: its action words, its observation layout and
where its scores stand (docs/rl.md shows the same tables).

Rewards come from score changes: whenever a hand (or the match) ends, each seat is paid
``sign * (its score now - its score at the last hand end) / scale``, read from the public
observation at ``score``; at the end of a match every winner of a game with two or more
seats gets ``+1`` more. Every other step pays 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from meldhall.rl.observe import (
    Choice,
    Field,
    Number,
    OwnedPieces,
    Pieces,
    SeatChoice,
    SeatNumbers,
    SeatPieces,
    SeatSet,
)


@dataclass(frozen=True)
class GameSpec:
    """The adapter's facts of one game: the words its actions' JSON forms use, the fields
    of its observation array, and its score (key, +1 when higher is better, scale)."""

    words: tuple[str, ...]
    fields: tuple[Field, ...]
    score: str
    sign: int
    scale: float


def _common(*fields: Field, phases: tuple[str, ...]) -> tuple[Field, ...]:
    return (*fields, SeatSet("to_act"), Choice("phase", phases))


SPECS: dict[str, GameSpec] = {
    "okey": GameSpec(
        ("draw", "take_discard", "show_indicator", "end_hand", "discard", "discard_win"),
        _common(
            Pieces("hand"),
            SeatPieces("discards"),
            Pieces("indicator"),
            SeatNumbers("tile_counts", 15.0),
            Number("wall_count", 106.0),
            SeatNumbers("scores", 20.0),
            phases=("await_take", "await_discard"),
        ),
        "scores",
        1,
        4.0,
    ),
    "okey-ladder": GameSpec(
        (
            "draw",
            "take",
            "return",
            "recall",
            "discard",
            "meld",
            "layoff",
            "replace",
            "give",
            "run",
            "set",
            "pair",
            "low",
            "high",
        ),
        _common(
            Pieces("hand"),
            SeatPieces("discards"),
            OwnedPieces("table"),
            Pieces("indicator"),
            SeatNumbers("hand_counts", 21.0),
            Number("centre", 106.0),
            SeatChoice("opened", ("none", "series", "pairs")),
            SeatNumbers("scores.totals", 1000.0),
            phases=("act", "take", "must_draw"),
        ),
        "scores.totals",
        -1,
        100.0,
    ),
    "tile-rummy": GameSpec(
        (
            "draw",
            "end",
            "timeout",
            "discard",
            "meld",
            "add",
            "rearrange",
            "take",
            "run",
            "set",
            "low",
            "high",
        ),
        _common(
            Pieces("hand"),
            Pieces("pile"),
            OwnedPieces("melds"),
            SeatNumbers("rack_counts", 14.0),
            Number("stock_count", 106.0),
            SeatNumbers("opened"),
            SeatNumbers("totals", 500.0),
            phases=("draw", "play"),
        ),
        "totals",
        1,
        100.0,
    ),
    "remi": GameSpec(
        (
            "draw_stock",
            "draw_discard",
            "open",
            "meld",
            "lay_off",
            "exchange",
            "discard",
            "low",
            "high",
        ),
        _common(
            Pieces("hand"),
            Pieces("discard"),
            Pieces("discard_top"),
            OwnedPieces("melds"),
            SeatPieces("known"),
            SeatNumbers("hand_counts", 14.0),
            Number("stock", 106.0),
            SeatNumbers("opened"),
            SeatNumbers("totals", 100.0),
            phases=("draw", "play"),
        ),
        "totals",
        -1,
        50.0,
    ),
    "sichuan": GameSpec(
        (
            "declare",
            "exchange",
            "discard",
            "concealed_kong",
            "added_kong",
            "win",
            "pung",
            "kong",
            "pass",
            "m",
            "p",
            "s",
        ),
        _common(
            Pieces("hand"),
            Pieces("drawn"),
            SeatPieces("discards"),
            SeatPieces("melds"),
            Pieces("last_discard"),
            SeatNumbers("tiles", 14.0),
            Number("wall", 108.0),
            SeatChoice("missing", ("m", "p", "s")),
            SeatNumbers("active"),
            SeatNumbers("totals", 100.0),
            phases=("exchange", "declare", "play", "claim", "rob"),
        ),
        "totals",
        1,
        10.0,
    ),
    "okey-cards": GameSpec(
        ("draw", "select", "unselect", "discard", "quit"),
        (
            Pieces("hand_slots"),
            Pieces("field"),
            Pieces("discards"),
            Pieces("played"),
            Number("deck_count", 24.0),
            Number("score", 400.0),
            Choice("phase", ("ready", "playing")),
        ),
        "scores",
        1,
        100.0,
    ),
}
"""The adapter's facts of every game, by game id."""
