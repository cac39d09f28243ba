"""One match of Tile Rummy 500 in progress (rules sections 3-12).

The state is a whole match: when a round ends it scores it, emits ``hand_over``, deals the
next round from ``derive(seed, "hand", n)`` and emits ``match_over`` at the end. ``apply``
checks an action fully (``checks``) before it changes anything; a rejection raises
``IllegalAction`` with a reason code of ``checks.CODES`` and leaves the state as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from meldhall.core.engine import JSON, Event, Outcome, ranks_by
from meldhall.core.engine import Action as EngineAction
from meldhall.core.errors import IllegalAction
from meldhall.core.rng import SeededStream, derive, shuffled
from meldhall.games.tile_rummy import checks, view
from meldhall.games.tile_rummy.actions import (
    CODEC,
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
from meldhall.games.tile_rummy.checks import fail
from meldhall.games.tile_rummy.legal import (
    Acceptors,
    add_actions,
    feed_refusal,
    meld_actions,
    opening_need,
    take_actions,
    take_target_refusal,
    takeable_depths,
)
from meldhall.games.tile_rummy.melds import Pool, Shape
from meldhall.games.tile_rummy.options import TileRummyOptions
from meldhall.games.tile_rummy.pieces import TILE_COUNT, parse_tile, token, tokens, value_table
from meldhall.games.tile_rummy.rearrange import rearrange_actions
from meldhall.games.tile_rummy.scoring import match_winner, round_parts, round_winners
from meldhall.games.tile_rummy.solving import rules_of
from meldhall.games.tile_rummy.table import PILE, STOCK, TABLE, TableMeld

_DISCARDS = tuple(Discard(t) for t in range(TILE_COUNT))


def _meld_copy(meld: TableMeld) -> TableMeld:
    """Return a copy of a table meld (its tile list copied, the rest shared)."""
    other = object.__new__(TableMeld)
    other.id, other.owner, other.shape, other.tiles = meld.id, meld.owner, meld.shape, meld.tiles[:]
    other.accepts, other.checked = meld.accepts, meld.checked
    other._json, other._value = meld._json, meld._value
    return other


class TileRummyState:
    """A match in progress; see the package docstring for the observation's keys."""

    def __init__(self, options: TileRummyOptions, seats: int, seed: bytes) -> None:
        options.check_seats(seats)
        self.options = options
        self.n = seats
        self.seed = seed
        self.values = value_table(options.tile_values, options.smiley_value)
        self.wrap = options.wrap
        self.rules = rules_of(options)
        self.round = 0
        self.first = (
            options.first_player
            if options.first_player is not None
            else SeededStream(derive(seed, "first"), "first").randbelow(seats)
        )
        self.racks: list[list[int]] = [[] for _ in range(seats)]
        self.loc = [STOCK] * TILE_COUNT
        self.stock: list[int] = []
        """The stock, the next tile to draw last."""
        self.pile: list[int] = []
        """The discard pile, bottom first."""
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
        self._owned: set[int] = set()
        """Ids of the melds only this state holds; the others may be shared with a clone."""
        self._new_round([])

    # ------------------------------------------------------------------ protocol

    @property
    def seats(self) -> int:
        """Return the number of seats."""
        return self.n

    def to_act(self) -> frozenset[int]:
        """Return the seat to act (empty once the match is over)."""
        return frozenset() if self.phase == "over" else frozenset((self.turn,))

    def outcome(self) -> Outcome | None:
        """Return the outcome once the match is over: the match scores (``match_scores``)
        and the match winner."""
        if self.phase != "over" or self.winner is None:
            return None
        scores = self.match_scores()
        return Outcome(
            scores,
            ranks_by(scores, higher_is_better=True),
            frozenset((self.winner,)),
            "points" if self.options.match_mode == "points" else "round_wins",
        )

    def match_scores(self) -> tuple[int, ...]:
        """Return the match score per seat: round wins, or points with match_mode points."""
        if self.options.match_mode == "points":
            return tuple(self.totals)
        return tuple(self.round_wins)

    def expiry_action(self, seat: int) -> Timeout | None:
        """Return the action the table plays when ``seat``'s turn clock runs out: ``Timeout``
        (T-D18: the engine completes the turn, the next one is skipped) when the match has
        the option ``turn_timer``, else None (the table's own default move applies)."""
        return Timeout() if self.options.turn_timer and seat == self.turn else None

    def observation(self, viewer: int | None) -> dict[str, JSON]:
        """Return what ``viewer`` may know (None: a spectator); see ``view.observation``."""
        return view.observation(self, viewer)

    def snapshot(self) -> JSON:
        """Return the whole state, hidden tiles included, as canonical JSON."""
        return view.snapshot(self)

    def check_invariants(self) -> None:
        """Raise ``EngineBug`` when an invariant is broken (see ``view.check_invariants``)."""
        view.check_invariants(self)

    def shuffled_hidden(self, viewer: int | None, rng: random.Random) -> TileRummyState:
        """Return a copy with the tiles hidden from ``viewer`` dealt anew among their places."""
        return view.shuffled_hidden(self, viewer, rng)

    def clone(self) -> TileRummyState:
        """Return an independent copy for search: lists copied, melds shared until one side
        changes one (``_own_meld``), immutable values and the legal-action cache (a tuple for
        this very position) shared."""
        other = object.__new__(TileRummyState)
        other.__dict__.update(self.__dict__)
        other.racks = [list(r) for r in self.racks]
        other.loc = list(self.loc)
        other.stock = list(self.stock)
        other.pile = list(self.pile)
        other.melds = dict(self.melds)
        self._owned = set()
        other._owned = set()
        other.opened = list(self.opened)
        other.skip = list(self.skip)
        other.round_wins = list(self.round_wins)
        other.totals = list(self.totals)
        other.history = list(self.history)
        other._accept = None
        return other

    def reset_caches(self) -> None:
        """Forget the cached legal actions and table places (after outside edits)."""
        self._legal = None
        self._accept = None

    # ------------------------------------------------------------------ facts

    def can_draw(self) -> bool:
        """Return True when DRAW_STOCK is possible (a stock tile, or a rebuild to come)."""
        if self.stock:
            return True
        return (
            self.options.stock_exhausted == "reshuffle" and not self.rebuilt and len(self.pile) > 1
        )

    def has_melds(self, seat: int) -> bool:
        """Return True when ``seat`` owns a meld on the table."""
        return any(m.owner == seat for m in self.melds.values())

    def table_points(self) -> list[int]:
        """Return the points of the melds each seat owns (fed tiles included)."""
        out = [0] * self.n
        for meld in self.melds.values():
            out[meld.owner] += meld.value(self.values)
        return out

    # ------------------------------------------------------------------ dealing

    def _new_round(self, events: list[Event]) -> None:
        """Deal the next round (section 3) and append its events."""
        opts = self.options
        self.round += 1
        if self.round > 1:
            self.first = (self.first + 1) % self.n
        if self.round == 1 and opts.wall:
            order = [parse_tile(t) for t in opts.wall]
        else:
            hand_seed = derive(self.seed, "hand", self.round)
            attempt = 0
            order = shuffled(hand_seed, "wall/0", list(range(TILE_COUNT)))
            while order[0] >= 104:
                attempt += 1
                order = shuffled(hand_seed, f"wall/{attempt}", list(range(TILE_COUNT)))
        self.pile = [order[0]]
        rest = order[1:]
        dealt = opts.hand_size // 7 * self.n
        self.racks = [[] for _ in range(self.n)]
        for k in range(dealt):
            self.racks[(self.first + k) % self.n] += rest[7 * k : 7 * k + 7]
        self.stock = rest[7 * dealt :][::-1]
        self.melds = {}
        self.loc = [STOCK] * TILE_COUNT
        for seat, rack in enumerate(self.racks):
            rack.sort()
            for t in rack:
                self.loc[t] = seat
        self.loc[order[0]] = PILE
        self.opened = [False] * self.n
        self.rebuilt = False
        self.phase = "draw"
        self.turn = self.first
        self.reset_caches()
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

    # ------------------------------------------------------------------ legal actions

    def _may_place(self, seat: int, taking: bool = False) -> Callable[[int], bool]:
        """Return the test whether ``seat`` may add to a meld of a given owner now (with
        ``taking``, the tile taken from the pile): ``legal.feed_refusal`` and
        ``legal.take_target_refusal``, the rules ``apply``'s checks raise."""
        has_own = self.has_melds(seat)
        others = feed_refusal(self, seat, -1, has_own) is None
        if taking:
            others = others and take_target_refusal(self, seat, False) is None
        return lambda owner: owner == seat or others

    def _keep_meld(self, seat: int) -> Callable[[tuple[int, ...]], bool]:
        """Return the test a new meld passes: ``legal.opening_need`` while not opened."""
        minimum = opening_need(self, seat)
        if minimum == 0:
            return lambda tiles: True
        values = self.values
        return lambda tiles: sum(values[t] for t in tiles) >= minimum

    def _acceptors(self) -> Acceptors:
        if self._accept is None:
            self._accept = Acceptors([(m.id, m.owner, m.accepts) for m in self.melds.values()])
        return self._accept

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Return the listed actions of ``seat`` in canonical order: the draw (or END_ROUND)
        then takes by pile index, then takes used by a rearrangement by pile index; or new
        melds, adds, rearrangements, then discards.

        MELD, ADD and TAKE_DISCARD name one copy per interchangeable choice (the lowest
        ids); REARRANGE lists, per own meld, the solver's recombination with rack tiles
        (``rearrange``). ``apply`` accepts every legal action, listed or not."""
        if self.phase == "over" or seat != self.turn:
            return ()
        if self._legal is None:
            self._legal = tuple(self._list_actions(seat))
        return self._legal

    def _list_actions(self, seat: int) -> list[Action]:
        rack = self.racks[seat]
        out: list[Action] = []
        keep = self._keep_meld(seat)
        if self.phase == "draw":
            out.append(DRAW if self.can_draw() else END_ROUND)
            takes = take_actions(
                rack,
                self.pile,
                self._acceptors(),
                self.wrap,
                takeable_depths(self),
                self._may_place(seat, taking=True),
                keep,
            )
            out += takes
            out += self._rearranging_takes(seat, {a.index for a in takes})
            return out
        pool = Pool(rack)
        out += meld_actions(pool, self.wrap, keep)
        out += add_actions(rack, self._acceptors(), self._may_place(seat))
        own = [(m.id, m.shape, m.tiles) for m in self.melds.values() if m.owner == seat]
        if own:
            out += rearrange_actions(own, rack, pool, self.wrap, self.rules)
        out += [_DISCARDS[t] for t in rack]
        return out

    def _rearranging_takes(self, seat: int, used: set[int]) -> list[TakeDiscard]:
        """Return a TAKE_DISCARD whose use is a rearrangement of own melds (the solver's, as
        in the play phase) for every pile depth not in ``used`` (no meld or add takes that
        tile), kept only when ``apply``'s own checks accept it."""
        own = [(m.id, m.shape, m.tiles) for m in self.melds.values() if m.owner == seat]
        if not own:
            return []
        out: list[TakeDiscard] = []
        for index in takeable_depths(self):
            if index in used:
                continue
            target = self.pile[index - 1]
            tiles = sorted([*self.racks[seat], *self.pile[index - 1 :]])
            for use in rearrange_actions(own, tiles, Pool(tiles), self.wrap, self.rules):
                action = TakeDiscard(index, use)
                if target in use.placed() and self._accepts_take(seat, action):
                    out.append(action)
        return out

    def _accepts_take(self, seat: int, action: TakeDiscard) -> bool:
        """Return True when ``apply`` would accept this take (the same checks)."""
        try:
            taken = checks.check_take(self, seat, action)
            checks.check_use(self, seat, action.use, taken)
        except IllegalAction:
            return False
        return True

    # ------------------------------------------------------------------ apply

    def apply(self, seat: int, action: EngineAction) -> tuple[Event, ...]:
        """Apply a legal action and return its events, or raise ``IllegalAction`` (nothing
        changes then; an object that is no tile-rummy action is rejected too)."""
        CODEC.check(action, self._legal or ())
        events: list[Event] = []
        _HANDLERS[type(action)](self, seat, action, events)
        return tuple(events)

    def _on_draw(self, seat: int, action: Draw, events: list[Event]) -> None:
        checks.check_turn(self, seat, "draw", action)
        if not self.can_draw():
            raise fail("STOCK_EMPTY", f"seat {seat}: the stock is empty")
        self._draw(seat, events)

    def _on_end_round(self, seat: int, action: EndRound, events: list[Event]) -> None:
        checks.check_turn(self, seat, "draw", action)
        if self.can_draw():
            raise fail("STOCK_NOT_EMPTY", f"seat {seat}: the stock still has tiles")
        events.append(Event("end_round", {"seat": seat}))
        self._end_round(None, events)

    def _on_discard(self, seat: int, action: Discard, events: list[Event]) -> None:
        checks.check_turn(self, seat, "play", action)
        checks.check_tiles(self, seat, (action.tile,), checks.NOTHING)
        self._discard(seat, action.tile, events)

    def _on_take(self, seat: int, action: TakeDiscard, events: list[Event]) -> None:
        checks.check_turn(self, seat, "draw", action)
        taken = checks.check_take(self, seat, action)
        checked = checks.check_use(self, seat, action.use, taken)
        self._take(seat, action, events)
        self._place(seat, action.use, checked, events)

    def _on_use(self, seat: int, action: Use, events: list[Event]) -> None:
        checks.check_turn(self, seat, "play", action)
        checked = checks.check_use(self, seat, action, checks.NOTHING)
        self._place(seat, action, checked, events)

    def _draw(self, seat: int, events: list[Event]) -> None:
        self._legal = None
        if not self.stock:
            top = self.pile[-1]
            old = self.pile[:-1]
            order = shuffled(derive(self.seed, "hand", self.round), "rebuild", old)
            self.stock = order[::-1]
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

    def _take(self, seat: int, action: TakeDiscard, events: list[Event]) -> None:
        self._legal = None
        taken = self.pile[action.index - 1 :]
        del self.pile[action.index - 1 :]
        rack = self.racks[seat]
        for t in taken:
            self.loc[t] = seat
            rack.append(t)
        rack.sort()
        self.phase = "play"
        events.append(
            Event(
                "take_discard",
                {
                    "seat": seat,
                    "index": action.index,
                    "tiles": tokens(taken),
                    "use": action.use.to_json(),
                },
            )
        )

    def _discard(self, seat: int, tile: int, events: list[Event]) -> None:
        self._legal = None
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

    def _to_table(self, seat: int, tiles: Iterable[int]) -> None:
        rack = self.racks[seat]
        for t in tiles:
            if self.loc[t] == seat:
                rack.remove(t)
            self.loc[t] = TABLE

    def _new_meld(self, seat: int, shape: Shape, tiles: list[int]) -> TableMeld:
        meld = TableMeld(self.next_meld, seat, shape, tiles, self.wrap)
        self.next_meld += 1
        self.melds[meld.id] = meld
        self._owned.add(meld.id)
        return meld

    def _own_meld(self, meld_id: int) -> TableMeld:
        """Return the meld of that id, copied first if a clone may share it."""
        meld = self.melds[meld_id]
        if meld_id not in self._owned:
            meld = self.melds[meld_id] = _meld_copy(meld)
            self._owned.add(meld_id)
        return meld

    def _place(self, seat: int, use: Use, checked: Any, events: list[Event]) -> None:
        """Carry out a checked MELD, ADD or REARRANGE; end the round if the rack is empty."""
        self.reset_caches()
        if isinstance(use, Meld):
            self._to_table(seat, use.tiles)
            meld = self._new_meld(seat, checked, list(use.tiles))
            self.opened[seat] = True
            events.append(Event("meld", {"seat": seat, "meld": meld.to_json(self.values)}))
        elif isinstance(use, Add):
            self._to_table(seat, (use.tile,))
            meld = self._own_meld(checked.id)
            meld.grow(use.tile, use.end, self.wrap)
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
            self._to_table(seat, use.placed())
            new = [
                self._new_meld(seat, shape, list(m.tiles))
                for shape, m in zip(checked, use.melds, strict=True)
            ]
            for feed in use.feeds:
                self._own_meld(feed.meld).grow(feed.tile, feed.end, self.wrap)
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
        """Complete the turn of a player whose clock ran out (T-D18)."""
        if self.phase == "over":
            raise fail("MATCH_OVER", f"seat {seat}: the match is over")
        if seat != self.turn:
            raise fail("NOT_YOUR_TURN", f"seat {seat}: it is seat {self.turn}'s turn")
        if not self.options.turn_timer:
            raise fail("TIMER_OFF", f"seat {seat}: {action}: this match has no turn timer")
        events.append(Event("timeout", {"seat": seat}))
        if self.phase == "draw":
            if not self.can_draw():
                self._end_round(None, events)
                return
            self._draw(seat, events)
        tile = max(self.racks[seat], key=lambda t: (self.values[t], -t))
        self.skip[seat] = True
        self._discard(seat, tile, events)

    # ------------------------------------------------------------------ end of round

    def _end_round(self, went_out: int | None, events: list[Event]) -> None:
        """Score the round (11), record it, and deal the next round or end the match (12)."""
        self.reset_caches()
        opts = self.options
        table = self.table_points()
        rack = [sum(self.values[t] for t in r) for r in self.racks]
        parts = round_parts(table, rack, went_out, opts.losers_subtract_rack)
        scores = [sum(p.values()) for p in parts]
        winners = round_winners(scores, went_out, opts.tie_rule)
        for q in winners:
            self.round_wins[q] += 1
        if not winners:
            self.void_rounds += 1
        for q in range(self.n):
            self.totals[q] += scores[q]
        result: dict[str, JSON] = {
            "round": self.round,
            "went_out": went_out,
            "blocked": went_out is None,
            "racks": [tokens(r) for r in self.racks],
            "table_points": table,
            "rack_points": rack,
            "parts": list(parts),
            "scores": scores,
            "round_winners": list(winners),
            "round_wins": list(self.round_wins),
            "totals": list(self.totals),
            "lines": _lines(table, rack, scores, went_out, opts.losers_subtract_rack),
        }
        self.history.append(result)
        events.append(Event("hand_over", result))
        self.winner = match_winner(self.round_wins, self.totals, opts.match_mode)
        if self.winner is None:
            self._new_round(events)
            return
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


def _lines(
    table: list[int], rack: list[int], scores: list[int], went_out: int | None, subtract: bool
) -> list[str]:
    """Return the settlement of a round, one line per seat."""
    out = []
    for q, score in enumerate(scores):
        parts = [f"table {table[q]}"]
        if q == went_out:
            parts += [f"rack of seat {o} {r}" for o, r in enumerate(rack) if o != q]
            text = " + ".join(parts)
        elif subtract:
            text = f"table {table[q]} - own rack {rack[q]}"
        else:
            text = parts[0]
        out.append(f"seat {q}: {text} = {score}")
    return out


_HANDLERS = CODEC.handlers(
    {
        Draw: TileRummyState._on_draw,
        EndRound: TileRummyState._on_end_round,
        Discard: TileRummyState._on_discard,
        TakeDiscard: TileRummyState._on_take,
        Meld: TileRummyState._on_use,
        Add: TileRummyState._on_use,
        Rearrange: TileRummyState._on_use,
        Timeout: TileRummyState._timeout,
    }
)
"""The handler of each tile-rummy action (``apply`` runs it after the codec's check)."""
