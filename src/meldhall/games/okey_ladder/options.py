"""The options of Ladder Okey (rules/okey-ladder.md section 16), defaults as the seed's preset.

Spellings of the values the spec describes in words:

- ``pairs_factor``: a number (1.5); pairs_need = ceil(factor × need), computed exactly.
- ``bases``: the base per joker colour, ``{"R": 400, "K": 500, "Y": 600, "B": 800}``, also
  accepted as four numbers in that order or as the text ``"R 400, K 500, Y 600, B 800"``.
- ``winner_credit``: ``"b / 10"`` (default) or a whole number (a fixed credit before the
  multipliers).
- ``wrong_discard``: ``"returned"`` (default: 100 × m, the tile returns) or
  ``"charged_and_stands"``.
- ``pair_gift_amount``: ``"per_number"`` (default: 10 × n × m(recipient) × m(giver)) or a
  whole number charged per pair.
- ``pairs_per_turn_limit``: ``null`` (none) or a whole number.
- ``return_taken_penalty``: a whole number a, charged a × m (0 by default; 100 in 101 books).
- ``joker_left_in_hand``: ``0`` (default), ``"base"`` (b × m per real joker left in a
  loser's hand) or a whole number charged × m per joker.
- ``deal = "explicit"`` with ``indicator`` (token), ``hands`` (four tile lists in seat order,
  the first player's of 15 tiles), optional ``wall`` (tiles drawn first, in order; the unlisted
  tiles follow in id order) and ``first_player``. It deals the first hand; later hands are
  canonical deals from the seed.

>>> opts = parse_ladder_options({"pairs_factor": 2, "threshold_mode": "fixed"})
>>> opts.pairs_need(17), opts.base("B")
(34, 800)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property
from typing import Any, Literal

from meldhall.core.errors import OptionsError, ParseError
from meldhall.core.options import parse_options
from meldhall.core.tiles import OkeyTile, parse_okey_many, split_tokens

BASE_COLOURS = "RKYB"
"""The colour order of ``bases`` (the order of S17: red, black, yellow, blue)."""


def _factor(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"takes a number such as 1.5, not {value!r}")
    if not 1 <= value <= 10:
        raise ValueError(f"takes a number from 1 to 10, not {value!r}")
    return float(value)


def _bases(value: Any) -> tuple[int, ...]:
    if isinstance(value, str):
        pairs: dict[str, Any] = {}
        for part in value.split(","):
            bits = part.split()
            if len(bits) != 2 or not bits[1].isdigit():
                raise ValueError(
                    f"cannot read {part.strip()!r}; write 'R 400, K 500, Y 600, B 800'"
                )
            pairs[bits[0]] = int(bits[1])
        value = pairs
    if isinstance(value, Mapping):
        if set(value) != set(BASE_COLOURS):
            raise ValueError(f"needs exactly the colours R, K, Y, B, not {sorted(value)}")
        value = [value[c] for c in BASE_COLOURS]
    if not isinstance(value, list | tuple) or len(value) != 4:
        raise ValueError(f"takes four bases (R, K, Y, B), not {value!r}")
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"bases are whole numbers >= 0, not {v!r}")
    return tuple(value)


def _hands(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"takes a list of four tile lists, not {value!r}")
    return tuple(value)


@dataclass(frozen=True)
class LadderOptions:
    """Every rule option of okey-ladder.md 16 plus the explicit-deal fields."""

    first_threshold: int = field(default=17, metadata={"range": (0, 10_000)})
    pairs_factor: float = field(default=1.5, metadata={"convert": _factor})
    threshold_mode: Literal["ladder", "fixed"] = "ladder"
    bases: tuple[int, ...] = field(default=(400, 500, 600, 800), metadata={"convert": _bases})
    winner_credit: int | str = field(default="b / 10", metadata={"range": (0, 100_000)})
    tile_penalty: int = field(default=10, metadata={"range": (0, 10_000)})
    wrong_discard: Literal["returned", "charged_and_stands"] = "returned"
    finish_from_hand_factor: int = field(default=4, metadata={"range": (1, 100)})
    multiply_unopened_and_credit: bool = True
    joker_event_sign: Literal["penalty", "credit"] = "penalty"
    pair_gift_amount: int | str = field(default="per_number", metadata={"range": (0, 100_000)})
    pairs_per_turn_limit: int | None = field(default=None, metadata={"range": (1, 100)})
    layoff_in_opening_turn: bool = False
    return_taken_penalty: int = field(default=0, metadata={"range": (0, 100_000)})
    one_go_finish_ignores_threshold: bool = True
    joker_left_in_hand: int | str = field(default=0, metadata={"range": (0, 100_000)})
    rounds: int = field(default=7, metadata={"range": (1, 100)})
    deal: Literal["canonical", "explicit"] = "canonical"
    indicator: str = ""
    hands: tuple[str, ...] = field(default=(), metadata={"convert": _hands})
    wall: str = ""
    first_player: int | None = field(default=None, metadata={"range": (0, 3)})

    def validate(self) -> None:
        """Check the options that depend on each other; raise ``OptionsError``."""
        if isinstance(self.winner_credit, str) and self.winner_credit.replace(" ", "") != "b/10":
            raise OptionsError(
                f"option 'winner_credit' takes 'b / 10' or a whole number, "
                f"not {self.winner_credit!r}"
            )
        if self.winner_credit == "b / 10" and any(b % 10 for b in self.bases):
            raise OptionsError("option 'bases' must be multiples of 10 with winner_credit b / 10")
        if isinstance(self.pair_gift_amount, str) and self.pair_gift_amount != "per_number":
            raise OptionsError(
                f"option 'pair_gift_amount' takes 'per_number' or a whole number, "
                f"not {self.pair_gift_amount!r}"
            )
        if isinstance(self.joker_left_in_hand, str) and self.joker_left_in_hand != "base":
            raise OptionsError(
                f"option 'joker_left_in_hand' takes 0, 'base' or a whole number, "
                f"not {self.joker_left_in_hand!r}"
            )
        if self.deal == "canonical":
            if self.indicator or self.hands or self.wall:
                raise OptionsError("options 'indicator', 'hands' and 'wall' need deal = 'explicit'")
            return
        self.explicit_tiles  # noqa: B018 - parses and checks the explicit deal

    @cached_property
    def explicit_tiles(
        self,
    ) -> tuple[OkeyTile, tuple[tuple[OkeyTile, ...], ...], tuple[OkeyTile, ...]]:
        """Return the explicit deal as (indicator, four hands, wall prefix), or raise
        ``OptionsError`` naming what is wrong."""
        if len(self.hands) != 4:
            raise OptionsError("option 'hands' takes four tile lists (seats 0..3)")
        if not self.indicator:
            raise OptionsError("option 'indicator' is required with deal = 'explicit'")
        texts = [self.indicator, *self.hands, self.wall]
        try:
            lists = [split_tokens(t) for t in texts]
            every = parse_okey_many([tok for part in lists for tok in part])
        except ParseError as exc:
            raise OptionsError(f"explicit deal: {exc}") from exc
        groups: list[list[OkeyTile]] = []
        for part in lists:
            groups.append(every[: len(part)])
            every = every[len(part) :]
        if len(groups[0]) != 1 or groups[0][0].is_blank:
            raise OptionsError("option 'indicator' takes one numbered tile")
        indicator = groups[0][0]
        first = 0 if self.first_player is None else self.first_player
        for seat, hand in enumerate(groups[1:5]):
            want = 15 if seat == first else 14
            if len(hand) != want:
                raise OptionsError(
                    f"option 'hands': seat {seat} needs {want} tiles, not {len(hand)}"
                )
        hands = tuple(tuple(h) for h in groups[1:5])
        return indicator, hands, tuple(groups[5])

    def pairs_need(self, need: int) -> int:
        """Return the least pairs opening allowed when a series opening needs ``need``:
        ceil(pairs_factor × need)."""
        return _pairs_need(self.pairs_factor, need)

    def need_after_pairs(self, value: int) -> int:
        """Return the series need after a pairs opening of ``value``: the least need whose
        pairs requirement exceeds ``value`` (floor(2P/3) + 1 with the factor 1.5)."""
        ratio = Fraction(value) / Fraction(str(self.pairs_factor))
        return ratio.numerator // ratio.denominator + 1

    def base(self, colour: str) -> int:
        """Return the base b of a joker colour letter (S17)."""
        return self.bases[BASE_COLOURS.index(colour)]

    def credit(self, base: int) -> int:
        """Return the winner's credit before multipliers (S19: b / 10)."""
        return base // 10 if isinstance(self.winner_credit, str) else self.winner_credit


@cache
def _pairs_need(factor: float, need: int) -> int:
    product = Fraction(str(factor)) * need
    return -((-product.numerator) // product.denominator)


def parse_ladder_options(raw: Mapping[str, Any] | None) -> LadderOptions:
    """Return validated options (``OptionsError`` names a wrong option)."""
    opts = parse_options(LadderOptions, raw)
    if isinstance(opts.winner_credit, str) and opts.winner_credit != "b / 10":
        object.__setattr__(opts, "winner_credit", "b / 10")
    return opts
