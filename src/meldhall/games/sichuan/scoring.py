"""Who pays whom: the payments of a win (10.1) and the exhaustion settlement (11), as pure
functions over seat statuses. A transfer is ``(payer, receiver, amount)``; the receiver
``POT`` (-1) is the pot of the ``flower_pig_payees = "pot"`` variant.

>>> win_transfers(3, 32, "self_draw", None, [True] * 4, bonus=1)
[(0, 3, 33), (1, 3, 33), (2, 3, 33)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Transfer = tuple[int, int, int]
"""One payment: (payer, receiver, amount)."""

POT = -1
"""The receiver of a penalty lost to the pot (flower_pig_payees = "pot")."""

SELF_DRAWN = ("self_draw", "replacement")
"""Ways of winning that are self-draws (each active opponent pays)."""


def win_transfers(
    winner: int, base: int, by: str, payer: int | None, active: Sequence[bool], *, bonus: int
) -> list[Transfer]:
    """Return the payments of one win (10.1): on a discard or a robbed kong ``payer`` pays
    ``base``; on a self-draw each active opponent pays ``base + bonus``."""
    if by in SELF_DRAWN:
        return [(s, winner, base + bonus) for s in range(len(active)) if s != winner and active[s]]
    if payer is None:
        raise ValueError(f"a win by {by} needs the seat that pays")
    return [(payer, winner, base)]


def nets(transfers: Sequence[Transfer], seats: int) -> list[int]:
    """Return each seat's net change from a list of transfers (the pot is no seat).

    >>> nets([(0, 1, 2), (2, 1, 2), (3, -1, 5)], 4)
    [-2, 4, -2, -5]
    """
    out = [0] * seats
    for payer, receiver, amount in transfers:
        out[payer] -= amount
        if receiver != POT:
            out[receiver] += amount
    return out


@dataclass(frozen=True)
class SeatAtEnd:
    """One seat at exhaustion: a winner, or an active player who is a flower pig, ready
    (with its maximum hand value) or neither."""

    won: bool
    pig: bool = False
    ready: bool = False
    value: int = 0


@dataclass(frozen=True)
class Settlement:
    """The exhaustion settlement, step by step (D25: refund, then pig, then ready check)."""

    refund: tuple[Transfer, ...]
    pig: tuple[Transfer, ...]
    ready: tuple[Transfer, ...]

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        """Return every transfer in the order of the steps."""
        return self.refund + self.pig + self.ready


def exhaustion_settlement(
    seats: Sequence[SeatAtEnd],
    kong_payments: Sequence[Transfer],
    *,
    pig_penalty: int = 32,
    pig_payees: str = "all_non_pigs",
    refund_recipients: str = "all_payers",
) -> Settlement:
    """Return the settlement of section 11 for the seats at exhaustion.

    Step 1: every active player who is not ready (pigs included) returns each kong payment
    it received, to every original payer (``refund_recipients = "active_payers"``: only to
    payers still active). Step 2: every pig pays ``pig_penalty`` to every non-pig, winners
    included (``"active_non_pigs"``: active ones only; ``"pot"``: once, to the pot).
    Step 3: every active player neither ready nor a pig pays every active ready player that
    player's maximum hand value."""
    n = len(seats)
    refund: list[Transfer] = []
    for seat, st in enumerate(seats):
        if st.won or st.ready:
            continue
        owed = [0] * n
        for payer, receiver, amount in kong_payments:
            if receiver == seat and (refund_recipients == "all_payers" or not seats[payer].won):
                owed[payer] += amount
        refund += [(seat, payer, owed[payer]) for payer in range(n) if owed[payer]]
    pig: list[Transfer] = []
    for seat, st in enumerate(seats):
        if st.won or not st.pig:
            continue
        if pig_payees == "pot":
            pig.append((seat, POT, pig_penalty))
            continue
        for other, ot in enumerate(seats):
            if other == seat or ot.pig or (ot.won and pig_payees == "active_non_pigs"):
                continue
            pig.append((seat, other, pig_penalty))
    ready: list[Transfer] = []
    for seat, st in enumerate(seats):
        if st.won or st.pig or st.ready:
            continue
        for other, ot in enumerate(seats):
            if other != seat and not ot.won and ot.ready:
                ready.append((seat, other, ot.value))
    return Settlement(tuple(refund), tuple(pig), tuple(ready))
