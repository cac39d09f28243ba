"""Okey's rule options (okey.md section 11) as one frozen dataclass; the defaults are the
classic preset.

>>> OkeyOptions().win_points
(2, 4, 4)
>>> parse({"players": 3, "wall_end": "continue"}).players
3
>>> parse({"false_claim": "penalty(2)"}).false_claim_penalty
2
>>> parse({"max_run": 12})
Traceback (most recent call last):
...
meldhall.core.errors.OptionsError: option 'max_run' takes one of 14, 13, not 12
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from meldhall.core.errors import OptionsError, ParseError
from meldhall.core.options import parse_options
from meldhall.core.tiles import parse_okey_many

_PENALTY_RE = re.compile(r"^penalty\(([1-9][0-9]?)\)$")


def _win_points(value: Any) -> tuple[int, int, int]:
    """Return (ordinary, joker discard, seven pairs) from ``[2, 4, 4]`` or ``"2/4/4"``."""
    parts = value.split("/") if isinstance(value, str) else value
    if not isinstance(parts, Sequence) or len(parts) != 3:
        raise ValueError(f"takes three points ordinary/joker/pairs such as '2/4/4', not {value!r}")
    out: list[int] = []
    for part in parts:
        number = int(part) if isinstance(part, str) and part.isdigit() else part
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 100:
            raise ValueError(f"points must be whole numbers 1 to 100, not {part!r}")
        out.append(number)
    return (out[0], out[1], out[2])


def _token_lists(value: Any) -> tuple[str, ...]:
    """Return one tile-list string per seat from a list of strings."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise ValueError(f"takes one tile list per seat, not {value!r}")
    if not all(isinstance(v, str) for v in value):
        raise ValueError(f"every entry must be a tile list string, not {value!r}")
    return tuple(value)


@dataclass(frozen=True)
class OkeyOptions:
    """Every option of okey.md section 11, named as the spec names it.

    ``deal = "explicit"`` deals the first hand from ``explicit_indicator``,
    ``explicit_hands`` (one tile list per seat, seat order; the first player, the seat after
    ``explicit_dealer``, holds 15) and ``explicit_wall`` (draw order; ``None`` = every tile
    not named elsewhere, in id order). Tiles named nowhere are set aside for the hand.
    Later hands are dealt canonically.
    """

    players: Literal[4, 3, 2] = 4
    start_points: int = field(default=20, metadata={"range": (1, 1000)})
    win_points: tuple[int, int, int] = field(default=(2, 4, 4), metadata={"convert": _win_points})
    pairs_joker_points: Literal[8, 4] = 8
    seven_pairs: bool = True
    indicator_show: bool = True
    wrap_runs: Literal["okey", "none"] = "okey"
    max_run: Literal[14, 13] = 14
    full_run_wins_match: bool = False
    colour_double: bool = False
    wall_end: Literal["take_only_to_win", "continue"] = "take_only_to_win"
    discard_visibility: Literal["pagat", "all"] = "pagat"
    elimination: bool = False
    partnership: bool = False
    deal: Literal["canonical", "explicit"] = "canonical"
    false_claim: str = "reject"
    scoring: Literal["countdown", "countup"] = "countdown"
    explicit_indicator: str | None = None
    explicit_hands: tuple[str, ...] | None = field(default=None, metadata={"convert": _token_lists})
    explicit_wall: str | None = None
    explicit_dealer: int | None = field(default=None, metadata={"range": (0, 3)})

    @property
    def false_claim_penalty(self) -> int | None:
        """Return n of ``false_claim = "penalty(n)"``, or None when false claims are rejected."""
        m = _PENALTY_RE.match(self.false_claim)
        return int(m.group(1)) if m else None

    def validate(self) -> None:
        """Raise ``OptionsError`` for values that do not fit together; return None."""
        if self.false_claim != "reject" and self.false_claim_penalty is None:
            raise OptionsError(
                f"option 'false_claim' takes 'reject' or 'penalty(n)' with n 1 to 99, "
                f"not {self.false_claim!r}"
            )
        if self.partnership and self.players != 4:
            raise OptionsError("option 'partnership' needs 'players' = 4")
        if self.partnership and self.elimination:
            raise OptionsError("options 'partnership' and 'elimination' cannot both be on")
        if self.elimination and self.scoring == "countup":
            raise OptionsError("option 'elimination' needs 'scoring' = 'countdown'")
        if self.full_run_wins_match and (self.max_run != 14 or self.wrap_runs != "okey"):
            raise OptionsError(
                "option 'full_run_wins_match' needs 'max_run' = 14 and 'wrap_runs' = 'okey' "
                "(otherwise no 14-tile run exists)"
            )
        explicit = (
            self.explicit_indicator,
            self.explicit_hands,
            self.explicit_wall,
            self.explicit_dealer,
        )
        if self.deal == "canonical":
            if any(v is not None for v in explicit):
                raise OptionsError("options 'explicit_*' need 'deal' = 'explicit'")
            return
        if self.explicit_indicator is None or self.explicit_hands is None:
            raise OptionsError(
                "option 'deal' = 'explicit' needs 'explicit_indicator' and 'explicit_hands'"
            )
        self._validate_explicit()

    def _validate_explicit(self) -> None:
        hands = self.explicit_hands or ()
        if len(hands) != self.players:
            raise OptionsError(
                f"option 'explicit_hands' needs {self.players} tile lists (one per seat), "
                f"not {len(hands)}"
            )
        dealer = self.dealer_of_explicit
        if dealer >= self.players:
            raise OptionsError(f"option 'explicit_dealer' must be a seat below {self.players}")
        texts = [self.explicit_indicator or "", *hands, self.explicit_wall or ""]
        try:
            tiles = parse_okey_many(" ".join(t for t in texts if t))
        except ParseError as exc:
            raise OptionsError(f"explicit deal: {exc}") from exc
        indicator = tiles[0]
        if indicator.is_blank or len(self.explicit_indicator.split(" ")) != 1:  # type: ignore[union-attr]
            raise OptionsError("option 'explicit_indicator' must be one numbered tile")
        first = (dealer + 1) % self.players
        for seat, text in enumerate(hands):
            size = len(text.split(" ")) if text else 0
            want = 15 if seat == first else 14
            if size != want:
                raise OptionsError(
                    f"option 'explicit_hands': seat {seat} needs {want} tiles, not {size}"
                )

    @property
    def dealer_of_explicit(self) -> int:
        """Return the dealer of an explicit first hand (default: the last seat)."""
        return self.players - 1 if self.explicit_dealer is None else self.explicit_dealer

    def with_players(self, players: int) -> OkeyOptions:
        """Return these options for ``players`` seats (validated again)."""
        if players == self.players:
            return self
        if players not in (2, 3, 4):
            raise OptionsError(f"okey is played by 2 to 4 players, not {players}")
        changed = replace(self, players=players)  # type: ignore[arg-type]
        changed.validate()
        return changed


def parse(raw: Mapping[str, Any] | None) -> OkeyOptions:
    """Return validated options from spec names and values, or raise ``OptionsError``."""
    return parse_options(OkeyOptions, raw)


PRESET = OkeyOptions()
"""The classic preset: every default of okey.md section 11."""
