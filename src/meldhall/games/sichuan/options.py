"""The rule options of sichuan.md 14, the defaults being the game of the spec.

>>> from meldhall.core.options import parse_options
>>> parse_options(SichuanOptions, {"fan_cap": 3}).pig_penalty()
8
>>> parse_options(SichuanOptions, {"fan_cap": 0})
Traceback (most recent call last):
...
meldhall.core.errors.OptionsError: option 'fan_cap' takes 1 to 13, not 0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from meldhall.core.errors import OptionsError, ParseError
from meldhall.core.tiles import parse_mahjong_many, split_tokens


def _tile_list(value: Any) -> tuple[str, ...]:
    """Return a tile list option as a tuple of tokens (a string or a list of tokens)."""
    if isinstance(value, str):
        tokens = split_tokens(value)
    elif isinstance(value, Sequence) and all(isinstance(t, str) for t in value):
        tokens = list(value)
    else:
        raise ValueError(f"a tile list is a string of tokens or a list of tokens, not {value!r}")
    try:
        parse_mahjong_many(tokens)
    except ParseError as exc:
        raise ValueError(str(exc)) from exc
    return tuple(tokens)


@dataclass(frozen=True)
class SichuanOptions:
    """Every rule option of sichuan.md 14 (defaults: the spec's game), the number of deals
    of a match, and an explicit wall for tests and puzzles.

    - ``fan_cap``: the cap on fan (1..13) or ``"none"``; base points are 2^min(fan, cap).
    - ``flower_pig_penalty``: ``"cap"`` (2^fan_cap, 32) or a fixed number of points.
    - ``flower_pig_payees``: ``"all_non_pigs"`` (D22), ``"active_non_pigs"``, or ``"pot"``
      (the penalty is lost to the pot once, Novikov).
    - ``refund_recipients``: ``"all_payers"`` (D21) or ``"active_payers"``.
    - ``settle_on_three_winners``: run the exhaustion settlement at three winners too.
    - ``exchange_three``: before dingque each player passes 3 tiles of one suit in a seeded
      random direction.
    - ``dealer``: ``"random"`` (D1), ``"seat0"``, or ``"rotation"`` (Novikov's rotation over
      several deals: the first winner deals next, after a multiple win the discarder, after
      no win the dealer stays).
    - ``self_draw_bonus``: ``"point"`` (+1 point per payer after the cap, D16), ``"fan"``
      (+1 fan) or ``"none"``.
    - ``kong_after_pung``: allow concealed and added kongs right after claiming a pung.
    - ``postponed_kong_pays``: an added kong whose fourth tile was held from earlier pays.
    - ``gang_shang_pao``: a win on the discard right after a kong: ``"none"`` (D11),
      ``"fan"`` (+1 fan), ``"transfer"`` (the discarder's latest kong income goes to the
      winner) or ``"fan_and_transfer"``.
    - ``passed_win_lock``: after passing a win on a discard (or a robbed kong), no such win
      until the player's next draw.
    - ``multiple_winners``: several winners on one tile; off: only the first in seat order.
    - ``missing_suit_strictness``: ``"strict"`` (D5) or ``"relaxed"`` (pung and kong of the
      other suits allowed while holding the missing suit).
    - ``heavenly_earthly_hand``: the dealer's win on the dealt tiles, and a non-dealer's win
      on its first draw or on the dealer's first discard before any claim or kong, score as
      capped.
    - ``ready_check_visible_tiles``: ``"ignore"`` (D23) or ``"exclude"`` (waits whose every
      copy is visible to the player do not count).
    - ``deals``: deals in a match (the spec's game is one deal).
    - ``wall``: an explicit order of all 108 tiles (tokens; dealt as section 4); empty: the
      seeded shuffle.
    """

    fan_cap: int | Literal["none"] = field(default=5, metadata={"range": (1, 13)})
    flower_pig_penalty: int | Literal["cap"] = field(default="cap", metadata={"range": (0, 8192)})
    flower_pig_payees: Literal["all_non_pigs", "active_non_pigs", "pot"] = "all_non_pigs"
    refund_recipients: Literal["all_payers", "active_payers"] = "all_payers"
    settle_on_three_winners: bool = False
    exchange_three: bool = False
    dealer: Literal["random", "seat0", "rotation"] = "random"
    self_draw_bonus: Literal["point", "fan", "none"] = "point"
    kong_after_pung: bool = False
    postponed_kong_pays: bool = True
    gang_shang_pao: Literal["none", "fan", "transfer", "fan_and_transfer"] = "none"
    passed_win_lock: bool = False
    multiple_winners: bool = True
    missing_suit_strictness: Literal["strict", "relaxed"] = "strict"
    heavenly_earthly_hand: bool = False
    ready_check_visible_tiles: Literal["ignore", "exclude"] = "ignore"
    deals: int = field(default=1, metadata={"range": (1, 64)})
    wall: tuple[str, ...] = field(default=(), metadata={"convert": _tile_list})

    def validate(self) -> None:
        """Raise ``OptionsError`` for options that contradict each other."""
        if self.fan_cap == "none" and self.flower_pig_penalty == "cap":
            raise OptionsError(
                "option 'flower_pig_penalty' is 'cap' but 'fan_cap' is 'none': give a number"
            )
        if self.fan_cap == "none" and self.heavenly_earthly_hand:
            raise OptionsError(
                "option 'heavenly_earthly_hand' scores as capped: it needs a fan_cap"
            )
        if self.dealer == "rotation" and self.deals < 2:
            raise OptionsError("option 'dealer' = 'rotation' needs 'deals' of 2 or more")
        if self.wall and len(self.wall) != 108:
            raise OptionsError(f"option 'wall' lists all 108 tiles, not {len(self.wall)}")
        if self.wall and self.deals != 1:
            raise OptionsError("option 'wall' fixes one deal: 'deals' must be 1")

    @property
    def cap(self) -> int | None:
        """Return the fan cap as a number, or None for no cap."""
        return None if self.fan_cap == "none" else self.fan_cap

    def pig_penalty(self) -> int:
        """Return the flower-pig penalty in points."""
        if self.flower_pig_penalty == "cap":
            return 1 << (self.cap or 0)
        return self.flower_pig_penalty

    def wall_ids(self) -> list[int]:
        """Return the explicit wall as tile ids (front first), or [] for a seeded shuffle."""
        return [t.id for t in parse_mahjong_many(self.wall)]
