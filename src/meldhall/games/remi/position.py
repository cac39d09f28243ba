"""Hands in progress built from a description (tests and puzzles), e.g. remi.md R39's empty
stock, which no deal reaches by play."""

from __future__ import annotations

from collections.abc import Sequence

from meldhall.core.errors import EngineBug, OptionsError, ParseError
from meldhall.games.remi.melds import read_meld
from meldhall.games.remi.options import RemiOptions
from meldhall.games.remi.pieces import parse_card_list
from meldhall.games.remi.state import RemiState
from meldhall.games.remi.table import TableMeld
from meldhall.games.remi.view import PHASES


def build_position(
    options: RemiOptions,
    seed: bytes,
    *,
    hands: Sequence[str],
    discard: str,
    stock: str = "",
    melds: Sequence[tuple[str, int]] = (),
    opened: Sequence[bool] = (),
    current: int = 0,
    phase: str = "draw",
    rest: int | None = None,
    totals: Sequence[int] = (),
    dealer: int | None = None,
) -> RemiState:
    """Return a hand in progress (tests and puzzles): ``hands`` per seat, the ``discard``
    pile (bottom first), the ``stock`` (top first), ``melds`` on the table as
    ``(cards, owner)`` (jokers may be declared: ``5H JK=6H 7H``), who has ``opened`` (by
    default the owners of melds), and
    ``current`` about to draw (``phase`` "draw") or having drawn ("play"), the match
    ``totals`` so far (one earlier hand) and the ``dealer``. Cards named nowhere go to the
    hand of seat ``rest``, or to the bottom of the stock when None.
    Raises ``OptionsError`` for a position that breaks the rules of the state."""
    state = RemiState(options, len(hands), seed)
    groups = [*hands, discard, stock, *(text for text, _ in melds)]
    split = [[w.partition("=")[0] for w in text.split()] for text in groups]
    try:
        ids = parse_card_list([w for words in split for w in words], options.jokers)
    except ParseError as exc:
        raise OptionsError(f"position: {exc}") from exc
    parts: list[list[int]] = []
    for words in split:
        parts.append(ids[: len(words)])
        ids = ids[len(words) :]
    n = len(hands)
    state.hands = parts[:n]
    state.discard = parts[n]
    state.stock = parts[n + 1][::-1]
    state.melds = []
    for (text, owner), cards in zip(melds, parts[n + 2 :], strict=True):
        declare = [w.partition("=")[2] or None for w in text.split() if w.startswith("JK")]
        reading = read_meld(cards, declare, state.runs)
        if isinstance(reading, str):
            raise OptionsError(f"position: [{text}] is not a meld ({reading})")
        state.melds.append(TableMeld(reading.kind, cards, reading, owner, 0))
    used = {c for part in parts for c in part}
    others = [c for c in range(options.total_cards) if c not in used]
    if rest is None:
        state.stock[:0] = others[::-1]
    else:
        state.hands[rest] += others
    owners = {owner for _, owner in melds}
    state.opened = list(opened) if opened else [s in owners for s in range(state.n)]
    if totals:
        state.totals = list(totals)
        state.history = [list(totals)]
    if dealer is not None:
        state.dealer = dealer
    state.known = [set() for _ in range(state.n)]
    state.table_changed()
    state.start_turn(current)
    state.turn = 1
    state.phase = PHASES.index(phase)
    try:
        state.check_invariants()
    except EngineBug as exc:
        raise OptionsError(f"position: {exc}") from exc
    return state
