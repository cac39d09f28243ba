"""One match of Tile Rummy 500 in progress (rules sections 3-12).

The state is a whole match: when a round ends it scores it, emits ``hand_over``, deals the
next round from ``derive(seed, "hand", n)`` and emits ``match_over`` at the end. ``apply``
checks an action fully before it changes anything; a rejection raises ``IllegalAction`` with
one of the reason codes in ``CODES`` and leaves the state as it was.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from typing import Any

from meldhall.core.engine import JSON, Event, Outcome, ranks_by
from meldhall.core.errors import EngineBug, IllegalAction
from meldhall.core.rng import SeededStream, derive, shuffled
from meldhall.games.tile_rummy.actions import (
    DRAW,
    END_ROUND,
    Action,
    Add,
    Discard,
    Draw,
    EndRound,
    Meld,
    Rearrange,
    TakeDiscard,
    Timeout,
    Use,
)
from meldhall.games.tile_rummy.faces import TILE_COUNT, parse_tile, token, tokens, value_table
from meldhall.games.tile_rummy.listing import Acceptors, add_actions, meld_actions, take_actions
from meldhall.games.tile_rummy.melds import (
    LOW,
    Pool,
    Shape,
    accepting,
    fits,
    joker_identities,
    judge,
)
from meldhall.games.tile_rummy.options import TileRummyOptions
from meldhall.games.tile_rummy.rearrange import rearrange_actions
from meldhall.games.tile_rummy.scoring import match_winner, round_scores, round_winners

STOCK = 4
PILE = 5
TABLE = 6

CODES = {
    "MATCH_OVER": "the match is over",
    "NOT_YOUR_TURN": "another player is to act",
    "WRONG_PHASE": "the action does not belong to this part of the turn",
    "STOCK_EMPTY": "the stock is empty",
    "STOCK_NOT_EMPTY": "END_ROUND only when the stock is empty",
    "NOT_IN_RACK": "the tile is not in the player's rack",
    "DUPLICATE_TILE": "a tile is named twice",
    "INVALID_MELD": "not a valid set or run",
    "NO_SUCH_MELD": "no meld on the table has that id",
    "DOES_NOT_FIT": "the tile does not fit that end of that meld",
    "NOT_YOUR_MELD": "only the owner rearranges a meld",
    "FEED_OWN_MELD": "a feed goes to another player's meld",
    "TABLE_TILE_TO_RACK": "every tile of a dissolved meld must be placed again",
    "NOTHING_DISSOLVED": "a rearrangement dissolves at least one own meld",
    "BAD_PILE_INDEX": "no pile tile at that index (or only the top may be taken)",
    "TARGET_NOT_PLACED": "the taken tile must be placed at once",
    "TARGET_NOT_OWN": "the taken tile must go to the player's own melds",
    "OPENING_TOO_LOW": "the first meld is worth less than the opening minimum",
    "NOT_OPENED": "the player has not opened yet",
    "NO_OWN_MELD": "feeding needs a meld of one's own first",
    "TIMER_OFF": "this match has no turn timer",
}
"""Every reason code ``apply`` raises, with its meaning."""


class TableMeld:
    """A meld on the table: id, owner, shape and tiles (runs ascending)."""

    __slots__ = ("accepts", "id", "owner", "shape", "tiles")

    def __init__(
        self, meld_id: int, owner: int, shape: Shape, tiles: list[int], wrap: bool
    ) -> None:
        self.id = meld_id
        self.owner = owner
        self.shape = shape
        self.tiles = tiles
        self.accepts = accepting(shape, tiles, wrap)

    def to_json(self, values: tuple[int, ...]) -> dict[str, JSON]:
        """Return the public JSON form of the meld (observation, events)."""
        out: dict[str, JSON] = {
            "id": self.id,
            "owner": self.owner,
            "kind": self.shape.kind,
            "tiles": tokens(self.tiles),
            "jokers": joker_identities(self.shape, self.tiles),
            "value": sum(values[t] for t in self.tiles),
        }
        if self.shape.kind == "run":
            out["start"] = self.shape.key
        else:
            out["number"] = self.shape.key
        return out


def _fail(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


class TileRummyState:
    """A match in progress; see the package docstring for the observation's keys."""

    def __init__(self, options: TileRummyOptions, seats: int, seed: bytes) -> None:
        options.check_seats(seats)
        self.options = options
        self.n = seats
        self.seed = seed
        self.values = value_table(options.tile_values, options.smiley_value)
        self.wrap = options.wrap
        self.round = 0
        self.first = (
            options.first_player
            if options.first_player is not None
            else SeededStream(derive(seed, "first"), "first").randbelow(seats)
        )
        self.racks: list[list[int]] = [[] for _ in range(seats)]
        self.loc = [STOCK] * TILE_COUNT
        self.stock: list[int] = []
        self.pile: list[int] = []
        self.melds: dict[int, TableMeld] = {}
        self.next_meld = 1
        self.turn = 0
        self.phase = "draw"
        self.opened = [False] * seats
        self.skip = [False] * seats
        self.rebuilt = False
        self.round_wins = [0] * seats
        self.totals = [0] * seats
        self.void_rounds = 0
        self.history: list[dict[str, JSON]] = []
        self.winner: int | None = None
        self._legal: tuple[Action, ...] | None = None
        self._accept: Acceptors | None = None
        self._new_round([])

    # ------------------------------------------------------------------ protocol basics

    @property
    def seats(self) -> int:
        """Return the number of seats."""
        return self.n

    def to_act(self) -> frozenset[int]:
        """Return the seat to act (empty once the match is over)."""
        return frozenset() if self.phase == "over" else frozenset((self.turn,))

    def outcome(self) -> Outcome | None:
        """Return the outcome once the match is over: match scores are round wins (or
        points with ``match_mode`` points), the winner the match winner."""
        if self.phase != "over" or self.winner is None:
            return None
        scores = self._match_scores()
        return Outcome(
            scores,
            ranks_by(scores, higher_is_better=True),
            frozenset((self.winner,)),
            "points" if self.options.match_mode == "points" else "round_wins",
        )

    def _match_scores(self) -> tuple[int, ...]:
        if self.options.match_mode == "points":
            return tuple(self.totals)
        return tuple(self.round_wins)

    # ------------------------------------------------------------------ dealing

    def _new_round(self, events: list[Event]) -> None:
        """Deal the next round (section 3) and append its events."""
        opts = self.options
        self.round += 1
        if self.round > 1:
            self.first = (self.first + 1) % self.n
        hand_seed = derive(self.seed, "hand", self.round)
        if self.round == 1 and opts.wall:
            order = [parse_tile(t) for t in opts.wall]
        else:
            attempt = 0
            while True:
                order = shuffled(hand_seed, f"wall/{attempt}", list(range(TILE_COUNT)))
                if order[0] < 104:
                    break
                attempt += 1
        self.pile = [order[0]]
        rest = order[1:]
        stacks = [rest[7 * j : 7 * j + 7] for j in range(15)]
        per_player = opts.hand_size // 7
        self.racks = [[] for _ in range(self.n)]
        for k in range(per_player * self.n):
            self.racks[(self.first + k) % self.n] += stacks[k]
        for rack in self.racks:
            rack.sort()
        self.stock = list(reversed(rest[7 * per_player * self.n :]))
        self.melds = {}
        self._accept = None
        self.loc = [STOCK] * TILE_COUNT
        for seat, rack in enumerate(self.racks):
            for t in rack:
                self.loc[t] = seat
        self.loc[order[0]] = PILE
        self.opened = [False] * self.n
        self.rebuilt = False
        self.phase = "draw"
        self.turn = self.first
        events.append(
            Event(
                "deal",
                {
                    "round": self.round,
                    "first_player": self.first,
                    "pile": tokens(self.pile),
                    "stock": len(self.stock),
                },
            )
        )
        self._skip_turns(events)

    def _skip_turns(self, events: list[Event]) -> None:
        """Pass over players whose turn is forfeited by a timeout (T-D18)."""
        while self.skip[self.turn]:
            self.skip[self.turn] = False
            events.append(Event("turn_skipped", {"seat": self.turn}))
            self.turn = (self.turn + 1) % self.n

    def reset_caches(self) -> None:
        """Forget the cached legal actions and table acceptors (after outside edits)."""
        self._legal = None
        self._accept = None

    # ------------------------------------------------------------------ legal actions

    def _can_draw(self) -> bool:
        if self.stock:
            return True
        return (
            self.options.stock_exhausted == "reshuffle" and not self.rebuilt and len(self.pile) > 1
        )

    def _own_melds(self, seat: int) -> list[TableMeld]:
        return [m for m in self.melds.values() if m.owner == seat]

    def _may_place(self, seat: int, target_rule: bool = False) -> Any:
        """Return the test whether ``seat`` may add to a meld of a given owner now."""
        opts = self.options
        closed = opts.initial_meld_minimum > 0 and not self.opened[seat]
        no_own = opts.feed_requires_own_meld and not any(
            m.owner == seat for m in self.melds.values()
        )
        own_only = target_rule and opts.discard_target_use == "own"

        def may(owner: int) -> bool:
            if owner == seat:
                return True
            return not (closed or no_own or own_only)

        return may

    def _keep_meld(self, seat: int) -> Any:
        minimum = self.options.initial_meld_minimum
        if minimum == 0 or self.opened[seat]:
            return lambda tiles: True
        values = self.values
        return lambda tiles: sum(values[t] for t in tiles) >= minimum

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Return every listed action of ``seat`` in canonical order: the draw, END_ROUND,
        takes by pile index; or new melds, adds, rearrangements, discards (by tile id).

        MELD, ADD and TAKE_DISCARD name one copy per interchangeable choice (the lowest ids);
        REARRANGE lists the solver's rearrangements that place rack tiles. ``apply`` accepts
        every legal action, listed or not."""
        if self.phase == "over" or seat != self.turn:
            return ()
        if self._legal is None:
            self._legal = tuple(self._list_actions(seat))
        return self._legal

    def _acceptors(self) -> Acceptors:
        if self._accept is None:
            self._accept = Acceptors([(m.id, m.owner, m.accepts) for m in self.melds.values()])
        return self._accept

    def _list_actions(self, seat: int) -> list[Action]:
        rack = self.racks[seat]
        out: list[Action] = []
        keep = self._keep_meld(seat)
        if self.phase == "draw":
            out.append(DRAW if self._can_draw() else END_ROUND)
            out += take_actions(
                rack,
                self.pile,
                self._acceptors(),
                self.wrap,
                not self.options.discard_take_any_depth,
                self._may_place(seat, target_rule=True),
                keep,
            )
            return out
        out += meld_actions(Pool(rack), self.wrap, keep)
        out += add_actions(rack, self._acceptors(), self._may_place(seat))
        own = self._own_melds(seat)
        if own:
            out += rearrange_actions(
                [(m.id, m.shape, m.tiles) for m in own],
                rack,
                self.wrap,
                [(m.id, m.shape, m.tiles) for m in self.melds.values() if m.owner != seat],
            )
        out += [_DISCARDS[t] for t in rack]
        return out

    # ------------------------------------------------------------------ checks

    def _check_turn(self, seat: int, phase: str, action: Action) -> None:
        if self.phase == "over":
            raise _fail("MATCH_OVER", f"seat {seat}: {action}: the match is over")
        if seat != self.turn:
            raise _fail("NOT_YOUR_TURN", f"seat {seat}: {action}: it is seat {self.turn}'s turn")
        if self.phase != phase:
            raise _fail("WRONG_PHASE", f"seat {seat}: {action}: not in the {self.phase} phase")

    def _check_tiles(self, seat: int, tiles: Iterable[int], extra: frozenset[int]) -> None:
        seen: set[int] = set()
        for t in tiles:
            if t in seen:
                raise _fail("DUPLICATE_TILE", f"seat {seat}: {token(t)} is named twice")
            seen.add(t)
            if self.loc[t] != seat and t not in extra:
                raise _fail("NOT_IN_RACK", f"seat {seat} does not hold {token(t)}")

    def _check_meld(self, seat: int, meld: Meld, extra: frozenset[int]) -> Shape:
        self._check_tiles(seat, meld.tiles, extra)
        shape = judge(meld.kind, meld.tiles, self.wrap)
        if shape is None:
            raise _fail("INVALID_MELD", f"seat {seat}: {meld.body()} is not a valid {meld.kind}")
        minimum = self.options.initial_meld_minimum
        if minimum and not self.opened[seat]:
            value = sum(self.values[t] for t in meld.tiles)
            if value < minimum:
                raise _fail(
                    "OPENING_TOO_LOW", f"seat {seat}: opening meld worth {value} < {minimum}"
                )
        return shape

    def _check_feed_rights(self, seat: int, owner: int, has_own: bool) -> None:
        opts = self.options
        if owner == seat:
            return
        if opts.initial_meld_minimum and not self.opened[seat]:
            raise _fail("NOT_OPENED", f"seat {seat} must open before feeding")
        if opts.feed_requires_own_meld and not has_own:
            raise _fail("NO_OWN_MELD", f"seat {seat} has no meld of his own to feed from")

    def _check_add(self, seat: int, add: Add, extra: frozenset[int]) -> TableMeld:
        self._check_tiles(seat, (add.tile,), extra)
        meld = self.melds.get(add.meld)
        if meld is None:
            raise _fail("NO_SUCH_MELD", f"seat {seat}: no meld {add.meld}")
        self._check_feed_rights(seat, meld.owner, bool(self._own_melds(seat)))
        if not fits(meld.shape, meld.tiles, add.tile, add.end, self.wrap):
            where = f" at the {add.end} end" if add.end else ""
            raise _fail(
                "DOES_NOT_FIT",
                f"seat {seat}: {token(add.tile)} does not fit meld {add.meld}{where}",
            )
        return meld

    def _check_rearrange(self, seat: int, action: Rearrange, extra: frozenset[int]) -> list[Shape]:
        dissolve = action.dissolve
        if not dissolve:
            raise _fail("NOTHING_DISSOLVED", f"seat {seat}: {action} dissolves no meld")
        if len(set(dissolve)) != len(dissolve):
            raise _fail("NO_SUCH_MELD", f"seat {seat}: a meld is dissolved twice")
        freed: set[int] = set()
        for meld_id in dissolve:
            meld = self.melds.get(meld_id)
            if meld is None:
                raise _fail("NO_SUCH_MELD", f"seat {seat}: no meld {meld_id}")
            if meld.owner != seat:
                raise _fail(
                    "NOT_YOUR_MELD", f"seat {seat}: meld {meld_id} belongs to seat {meld.owner}"
                )
            freed.update(meld.tiles)
        placed = action.placed()
        self._check_tiles(seat, placed, extra | frozenset(freed))
        back = freed.difference(placed)
        if back:
            names = " ".join(tokens(sorted(back)))
            raise _fail("TABLE_TILE_TO_RACK", f"seat {seat}: {names} would go back to the rack")
        shapes: list[Shape] = []
        for new in action.melds:
            shape = judge(new.kind, new.tiles, self.wrap)
            if shape is None:
                raise _fail("INVALID_MELD", f"seat {seat}: {new.body()} is not a valid {new.kind}")
            shapes.append(shape)
        has_own = bool(action.melds) or any(
            m.owner == seat and m.id not in dissolve for m in self.melds.values()
        )
        trial: dict[int, tuple[Shape, list[int]]] = {}
        for feed in action.feeds:
            meld = self.melds.get(feed.meld)
            if meld is None or feed.meld in dissolve:
                raise _fail("NO_SUCH_MELD", f"seat {seat}: no meld {feed.meld} to feed")
            if meld.owner == seat:
                raise _fail("FEED_OWN_MELD", f"seat {seat}: meld {feed.meld} is his own")
            self._check_feed_rights(seat, meld.owner, has_own)
            shape, tiles = trial.get(feed.meld, (meld.shape, meld.tiles))
            if not fits(shape, tiles, feed.tile, feed.end, self.wrap):
                raise _fail(
                    "DOES_NOT_FIT", f"seat {seat}: {token(feed.tile)} does not fit meld {feed.meld}"
                )
            trial[feed.meld] = _grown(shape, tiles, feed.tile, feed.end)
        return shapes

    def _check_take(self, seat: int, action: TakeDiscard) -> frozenset[int]:
        m = len(self.pile)
        if not 1 <= action.index <= m or (
            not self.options.discard_take_any_depth and action.index != m
        ):
            raise _fail("BAD_PILE_INDEX", f"seat {seat}: cannot take pile tile {action.index}")
        target = self.pile[action.index - 1]
        use = action.use
        if isinstance(use, Meld):
            placed, own = target in use.tiles, True
        elif isinstance(use, Add):
            placed = use.tile == target
            meld = self.melds.get(use.meld)
            own = meld is None or meld.owner == seat
        else:
            placed = target in use.placed()
            own = any(target in m.tiles for m in use.melds)
        if not placed:
            raise _fail("TARGET_NOT_PLACED", f"seat {seat}: {use} does not place {token(target)}")
        if self.options.discard_target_use == "own" and not own:
            raise _fail("TARGET_NOT_OWN", f"seat {seat}: {token(target)} must join his own melds")
        if (
            self.options.initial_meld_minimum
            and not self.opened[seat]
            and not isinstance(use, Meld)
        ):
            raise _fail("NOT_OPENED", f"seat {seat} must open with a meld first")
        return frozenset(self.pile[action.index - 1 :])

    def _check_use(self, seat: int, use: Use, extra: frozenset[int]) -> Any:
        if isinstance(use, Meld):
            return self._check_meld(seat, use, extra)
        if isinstance(use, Add):
            return self._check_add(seat, use, extra)
        return self._check_rearrange(seat, use, extra)

    # ------------------------------------------------------------------ apply

    def apply(self, seat: int, action: Action) -> tuple[Event, ...]:
        """Apply a legal action and return its events, or raise ``IllegalAction`` (nothing
        changes then)."""
        events: list[Event] = []
        if isinstance(action, Draw):
            self._check_turn(seat, "draw", action)
            if not self._can_draw():
                raise _fail("STOCK_EMPTY", f"seat {seat}: the stock is empty")
            self._legal = None
            self._draw(seat, events)
        elif isinstance(action, EndRound):
            self._check_turn(seat, "draw", action)
            if self._can_draw():
                raise _fail("STOCK_NOT_EMPTY", f"seat {seat}: the stock still has tiles")
            self._legal = None
            events.append(Event("end_round", {"seat": seat}))
            self._end_round(None, events)
        elif isinstance(action, Discard):
            self._check_turn(seat, "play", action)
            self._check_tiles(seat, (action.tile,), frozenset())
            self._legal = None
            self._discard(seat, action.tile, events)
        elif isinstance(action, TakeDiscard):
            self._check_turn(seat, "draw", action)
            taken = self._check_take(seat, action)
            checked = self._check_use(seat, action.use, taken)
            self._legal = None
            index = action.index
            for t in self.pile[index - 1 :]:
                self.loc[t] = seat
                self.racks[seat].append(t)
            self.racks[seat].sort()
            events.append(
                Event(
                    "take_discard",
                    {
                        "seat": seat,
                        "index": index,
                        "tiles": tokens(self.pile[index - 1 :]),
                        "use": action.use.to_json(),
                    },
                )
            )
            del self.pile[index - 1 :]
            self.phase = "play"
            self._place(seat, action.use, checked, events)
        elif isinstance(action, Meld | Add | Rearrange):
            self._check_turn(seat, "play", action)
            checked = self._check_use(seat, action, frozenset())
            self._legal = None
            self._place(seat, action, checked, events)
        elif isinstance(action, Timeout):
            self._timeout(seat, action, events)
        else:
            raise _fail("WRONG_PHASE", f"seat {seat}: {action!r} is not a tile-rummy action")
        return tuple(events)

    def _draw(self, seat: int, events: list[Event]) -> None:
        if not self.stock:
            top = self.pile[-1]
            old = self.pile[:-1]
            order = shuffled(derive(self.seed, "hand", self.round), "rebuild", old)
            self.stock = list(reversed(order))
            for t in old:
                self.loc[t] = STOCK
            self.pile = [top]
            self.rebuilt = True
            events.append(Event("stock_rebuilt", {"stock": len(self.stock)}))
        tile = self.stock.pop()
        self.loc[tile] = seat
        rack = self.racks[seat]
        rack.append(tile)
        rack.sort()
        self.phase = "play"
        events.append(
            Event("draw", {"seat": seat, "stock": len(self.stock)}, seat, {"tile": token(tile)})
        )

    def _discard(self, seat: int, tile: int, events: list[Event]) -> None:
        self.racks[seat].remove(tile)
        self.loc[tile] = PILE
        self.pile.append(tile)
        events.append(Event("discard", {"seat": seat, "tile": token(tile)}))
        if not self.racks[seat]:
            self._end_round(seat, events)
            return
        self.turn = (seat + 1) % self.n
        self.phase = "draw"
        self._skip_turns(events)

    def _take_from_rack(self, seat: int, tiles: Iterable[int]) -> None:
        rack = self.racks[seat]
        for t in tiles:
            if self.loc[t] == seat:
                rack.remove(t)
            self.loc[t] = TABLE

    def _new_meld(self, seat: int, shape: Shape, tiles: list[int]) -> TableMeld:
        meld = TableMeld(self.next_meld, seat, shape, tiles, self.wrap)
        self.next_meld += 1
        self.melds[meld.id] = meld
        return meld

    def _add_to(self, meld: TableMeld, tile: int, end: str | None) -> None:
        meld.shape, meld.tiles = _grown(meld.shape, meld.tiles, tile, end)
        meld.accepts = accepting(meld.shape, meld.tiles, self.wrap)

    def _place(self, seat: int, use: Use, checked: Any, events: list[Event]) -> None:
        self._accept = None
        if isinstance(use, Meld):
            self._take_from_rack(seat, use.tiles)
            meld = self._new_meld(seat, checked, list(use.tiles))
            self.opened[seat] = True
            events.append(Event("meld", {"seat": seat, "meld": meld.to_json(self.values)}))
        elif isinstance(use, Add):
            self._take_from_rack(seat, (use.tile,))
            meld = checked
            self._add_to(meld, use.tile, use.end)
            events.append(
                Event(
                    "add",
                    {
                        "seat": seat,
                        "tile": token(use.tile),
                        "end": use.end,
                        "feed": meld.owner != seat,
                        "meld": meld.to_json(self.values),
                    },
                )
            )
        else:
            for meld_id in use.dissolve:
                del self.melds[meld_id]
            self._take_from_rack(seat, use.placed())
            new = [
                self._new_meld(seat, shape, list(m.tiles))
                for shape, m in zip(checked, use.melds, strict=True)
            ]
            for feed in use.feeds:
                self._add_to(self.melds[feed.meld], feed.tile, feed.end)
            events.append(
                Event(
                    "rearrange",
                    {
                        "seat": seat,
                        "dissolved": list(use.dissolve),
                        "melds": [m.to_json(self.values) for m in new],
                        "feeds": [
                            {"tile": token(f.tile), "meld": f.meld, "end": f.end} for f in use.feeds
                        ],
                    },
                )
            )
        if not self.racks[seat]:
            self._end_round(seat, events)

    def _timeout(self, seat: int, action: Timeout, events: list[Event]) -> None:
        if self.phase == "over":
            raise _fail("MATCH_OVER", f"seat {seat}: the match is over")
        if seat != self.turn:
            raise _fail("NOT_YOUR_TURN", f"seat {seat}: it is seat {self.turn}'s turn")
        if not self.options.turn_timer:
            raise _fail("TIMER_OFF", f"seat {seat}: {action}: this match has no turn timer")
        self._legal = None
        events.append(Event("timeout", {"seat": seat}))
        if self.phase == "draw":
            if not self._can_draw():
                self._end_round(None, events)
                return
            self._draw(seat, events)
        rack = self.racks[seat]
        tile = max(rack, key=lambda t: (self.values[t], -t))
        self.skip[seat] = True
        self._discard(seat, tile, events)

    # ------------------------------------------------------------------ end of round

    def _table_points(self) -> list[int]:
        out = [0] * self.n
        for meld in self.melds.values():
            out[meld.owner] += sum(self.values[t] for t in meld.tiles)
        return out

    def _end_round(self, went_out: int | None, events: list[Event]) -> None:
        """Score the round (11), record it, and deal the next round or end the match."""
        opts = self.options
        table = self._table_points()
        rack = [sum(self.values[t] for t in r) for r in self.racks]
        scores = round_scores(table, rack, went_out, opts.losers_subtract_rack)
        winners = round_winners(scores, went_out, opts.tie_rule)
        for q in winners:
            self.round_wins[q] += 1
        if not winners:
            self.void_rounds += 1
        for q in range(self.n):
            self.totals[q] += scores[q]
        lines = []
        for q in range(self.n):
            parts = [f"table {table[q]}"]
            if q == went_out:
                parts += [f"rack of seat {o} {rack[o]}" for o in range(self.n) if o != q]
            elif opts.losers_subtract_rack:
                parts.append(f"minus own rack {rack[q]}")
            lines.append(f"seat {q}: " + " + ".join(parts) + f" = {scores[q]}")
        result: dict[str, JSON] = {
            "round": self.round,
            "went_out": went_out,
            "blocked": went_out is None,
            "racks": [tokens(r) for r in self.racks],
            "table_points": table,
            "rack_points": rack,
            "scores": scores,
            "round_winners": list(winners),
            "round_wins": list(self.round_wins),
            "totals": list(self.totals),
            "lines": lines,
        }
        self.history.append(result)
        events.append(Event("hand_over", result))
        self.winner = match_winner(self.round_wins, self.totals, opts.match_mode)
        if self.winner is not None:
            self.phase = "over"
            events.append(
                Event(
                    "match_over",
                    {
                        "winner": self.winner,
                        "round_wins": list(self.round_wins),
                        "totals": list(self.totals),
                    },
                )
            )
            return
        self._new_round(events)

    # ------------------------------------------------------------------ views

    def observation(self, viewer: int | None) -> dict[str, JSON]:
        """Return what ``viewer`` may know (None: a spectator); keys in the package docs."""
        outcome = self.outcome()
        obs: dict[str, JSON] = {
            "game": "tile-rummy",
            "seat": viewer,
            "phase": self.phase,
            "to_act": sorted(self.to_act()),
            "turn": self.turn,
            "round": self.round,
            "first_player": self.first,
            "rack_counts": [len(r) for r in self.racks],
            "stock_count": len(self.stock),
            "pile": tokens(self.pile),
            "melds": [m.to_json(self.values) for m in self.melds.values()],
            "table_points": self._table_points(),
            "scores": list(self._match_scores()),
            "round_wins": list(self.round_wins),
            "totals": list(self.totals),
            "void_rounds": self.void_rounds,
            "opened": list(self.opened),
            "skip_next": list(self.skip),
            "can_draw": self._can_draw(),
            "last_round": self.history[-1] if self.history else None,
            "over": self.phase == "over",
            "outcome": outcome.to_json() if outcome else None,
            "rules": {
                "tile_values": self.options.tile_values,
                "smiley_value": self.options.smiley_value,
                "run_wrap": self.options.run_wrap,
                "discard_target_use": self.options.discard_target_use,
                "discard_take_any_depth": self.options.discard_take_any_depth,
                "initial_meld_minimum": self.options.initial_meld_minimum,
                "feed_requires_own_meld": self.options.feed_requires_own_meld,
                "losers_subtract_rack": self.options.losers_subtract_rack,
                "match_mode": self.options.match_mode,
                "turn_timer": self.options.turn_timer,
            },
        }
        if viewer is not None:
            obs["hand"] = tokens(self.racks[viewer])
        return obs

    def snapshot(self) -> JSON:
        """Return the whole state, hidden tiles included, as canonical JSON."""
        return {
            "round": self.round,
            "first": self.first,
            "turn": self.turn,
            "phase": self.phase,
            "racks": [tokens(r) for r in self.racks],
            "stock": tokens(self.stock[::-1]),
            "pile": tokens(self.pile),
            "melds": [m.to_json(self.values) for m in self.melds.values()],
            "next_meld": self.next_meld,
            "opened": list(self.opened),
            "skip": list(self.skip),
            "rebuilt": self.rebuilt,
            "round_wins": list(self.round_wins),
            "totals": list(self.totals),
            "void_rounds": self.void_rounds,
            "history": self.history,
            "winner": self.winner,
        }

    def check_invariants(self) -> None:
        """Raise ``EngineBug`` unless every tile is in exactly one place, every meld is valid
        and the scores agree with the rounds played."""
        seen = [0] * TILE_COUNT
        for seat, rack in enumerate(self.racks):
            if rack != sorted(rack):
                raise EngineBug(f"tile-rummy: rack {seat} is not sorted")
            for t in rack:
                seen[t] += 1
                if self.loc[t] != seat:
                    raise EngineBug(f"tile-rummy: {token(t)} in rack {seat}, loc {self.loc[t]}")
        for place, tiles in ((STOCK, self.stock), (PILE, self.pile)):
            for t in tiles:
                seen[t] += 1
                if self.loc[t] != place:
                    raise EngineBug(f"tile-rummy: {token(t)} misplaced (loc {self.loc[t]})")
        for meld in self.melds.values():
            if judge(meld.shape.kind, meld.tiles, self.wrap) != meld.shape:
                raise EngineBug(f"tile-rummy: meld {meld.id} {tokens(meld.tiles)} is invalid")
            if meld.id >= self.next_meld or not 0 <= meld.owner < self.n:
                raise EngineBug(f"tile-rummy: meld {meld.id} has a bad id or owner")
            for t in meld.tiles:
                seen[t] += 1
                if self.loc[t] != TABLE:
                    raise EngineBug(f"tile-rummy: {token(t)} on the table, loc {self.loc[t]}")
        if any(c != 1 for c in seen):
            raise EngineBug(f"tile-rummy: tiles not in exactly one place: {seen}")
        totals = [sum(int(h["scores"][q]) for h in self.history) for q in range(self.n)]
        if totals != self.totals:
            raise EngineBug(f"tile-rummy: totals {self.totals} != sum of rounds {totals}")
        wins = sum(len(h["round_winners"]) for h in self.history)
        voids = sum(1 for h in self.history if not h["round_winners"])
        if wins != sum(self.round_wins) or voids != self.void_rounds:
            raise EngineBug("tile-rummy: round wins disagree with the rounds played")
        if len(self.history) != self.round - (0 if self.phase == "over" else 1):
            raise EngineBug("tile-rummy: round counter disagrees with the rounds played")
        if (self.phase == "over") != (self.winner is not None):
            raise EngineBug("tile-rummy: match over without a winner (or the reverse)")

    def shuffled_hidden(self, viewer: int | None, rng: random.Random) -> TileRummyState:
        """Return a copy in which the other racks and the stock are dealt anew from their
        own tiles (sizes kept), everything ``viewer`` knows unchanged."""
        other = copy.deepcopy(self)
        other.reset_caches()
        hidden_seats = [s for s in range(self.n) if s != viewer]
        pool = [t for s in hidden_seats for t in other.racks[s]] + other.stock
        rng.shuffle(pool)
        k = 0
        for s in hidden_seats:
            size = len(other.racks[s])
            other.racks[s] = sorted(pool[k : k + size])
            for t in other.racks[s]:
                other.loc[t] = s
            k += size
        other.stock = pool[k:]
        for t in other.stock:
            other.loc[t] = STOCK
        return other


def _grown(shape: Shape, tiles: list[int], tile: int, end: str | None) -> tuple[Shape, list[int]]:
    """Return the shape and tiles of a meld after ``tile`` joined it at ``end``."""
    if end == LOW:
        return Shape("run", shape.key - 1, shape.colour), [tile, *tiles]
    return shape, [*tiles, tile]


_DISCARDS = tuple(Discard(t) for t in range(TILE_COUNT))
