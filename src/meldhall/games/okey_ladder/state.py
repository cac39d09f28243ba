"""The state of a Ladder Okey match (okey-ladder.md 4-13): one object for the whole match.

A hand runs TAKE → ACT → (discard) → next player, with MUST_DRAW after RETURN_TAKEN. When a
hand ends the state emits ``hand_over``, adds the round to the score table and deals the next
hand itself (first player: the seat after the previous one); after the last round it emits
``match_over``. Every ``apply`` validates fully before it changes anything.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Iterable
from typing import Any

from meldhall.core.engine import JSON, Event, Outcome
from meldhall.core.errors import MATCH_OVER, EngineBug, IllegalAction
from meldhall.games.okey_ladder import legal, view
from meldhall.games.okey_ladder.actions import (
    CODEC,
    Discard,
    Draw,
    GivePair,
    LayOff,
    Meld,
    Recall,
    ReplaceJoker,
    ReturnTaken,
    TakeDiscard,
)
from meldhall.games.okey_ladder.combos import (
    COMBO_IDS,
    GROUP,
    HIGH,
    KIND_NAMES,
    LOW,
    PAIR,
    RUN,
    SET,
    Combo,
    colour_mask,
    shape,
)
from meldhall.games.okey_ladder.deal import SEATS, HandDeal, deal_hand, explicit_deal, first_player
from meldhall.games.okey_ladder.options import LadderOptions
from meldhall.games.okey_ladder.pieces import (
    FACE_NAME,
    TILE_COUNT,
    TOKEN,
    WILD,
    Jokers,
    colour_of,
    number_of,
)
from meldhall.games.okey_ladder.scoring import (
    NONE,
    OPENED_NAMES,
    PAIRS,
    SERIES,
    match_ranks,
    multiplier,
    pair_charge,
    settle,
    table_charge,
)

TAKE, MUST_DRAW, ACT, OVER = "take", "must_draw", "act", "over"
WRONG_DISCARD = 100
"""The wrong-discard penalty before the pairs multiplier (S20)."""


def _illegal(code: str, seat: int, action: object, why: str) -> IllegalAction:
    return IllegalAction(code, f"seat {seat}, {action}: {why}")


class LadderState:
    """A whole match of Ladder Okey; see the package docstring for the observation."""

    def __init__(self, options: LadderOptions, seed: bytes, *, deal: bool = True) -> None:
        self.options = options
        self.seed = seed
        self.totals = [0] * SEATS
        self.history: list[list[int]] = []
        self.hand_no = 0
        self.last_result: dict[str, JSON] | None = None
        self.over = False
        self.version = 0
        self._legal: tuple[int, int, tuple[Any, ...]] | None = None
        self.table_version = 0
        self._facts: dict[str, JSON] | None = None
        self.score_version = 0
        self._public_cache: tuple[tuple[int, int, int], dict[str, JSON]] | None = None
        self._table_view: tuple[int, list[dict[str, JSON]], frozenset[int], list[str]] | None = None
        self._json_cache: dict[tuple[int | bool, ...], dict[str, object]] = {}
        self.meld_cache: list[legal.MeldCache | None] = [None] * SEATS
        self.ends_cache: legal.TableCache | None = None
        self.first = 0
        self.jokers = Jokers.of(0)
        self.base = 0
        self.racks: list[list[int]] = [[] for _ in range(SEATS)]
        self.wall: list[int] = []  # reversed: the next tile is the last element
        self.piles: list[list[int]] = [[] for _ in range(SEATS)]
        self.combos: dict[int, Combo] = {}
        self.next_cid = 1
        self.opened = [NONE] * SEATS
        self.opened_turn = [0] * SEATS
        self.opening_value = [0] * SEATS
        self.need = options.first_threshold
        self.penalties = [0] * SEATS
        self.turn = 0
        self.to_move = 0
        self.phase = ACT
        self.taken = -1
        self.provisional: list[int] = []
        self.prov_kind = NONE
        self.ends_used: set[tuple[int, int]] = set()
        self.jokers_placed: set[int] = set()
        self.pairs_given = 0
        if deal:
            first = options.first_player
            if first is None:
                first = first_player(seed)
            hand = explicit_deal(options) if options.deal == "explicit" else None
            self._start_hand(hand or deal_hand(seed, 1, first))

    # ------------------------------------------------------------------ protocol basics

    @property
    def seats(self) -> int:
        """Return the number of seats (always 4)."""
        return SEATS

    def to_act(self) -> frozenset[int]:
        """Return the seat to act (empty once the match is over)."""
        return frozenset() if self.over else frozenset((self.to_move,))

    def outcome(self) -> Outcome | None:
        """Return the outcome after the last round: lowest total first."""
        if not self.over:
            return None
        ranks, winners = match_ranks(self.totals)
        return Outcome(tuple(self.totals), ranks, winners, "rounds")

    def legal_actions(self, seat: int) -> tuple[Any, ...]:
        """Return every legal action of ``seat`` in canonical order (cached per version)."""
        cache = self._legal
        if cache is not None and cache[0] == self.version and cache[1] == seat:
            return cache[2]
        actions = () if self.over or seat != self.to_move else legal.actions(self)
        self._legal = (self.version, seat, actions)
        return actions

    # ------------------------------------------------------------------ derived facts

    def requirement(self, kind: int) -> int:
        """Return what an opening of ``kind`` (SERIES or PAIRS) needs now (7.2)."""
        return self.need if kind == SERIES else self.options.pairs_need(self.need)

    def provisional_value(self) -> int:
        """Return the total value of the turn's provisional combinations."""
        return sum(self.combos[c].value() for c in self.provisional)

    def provisional_reaches(self) -> bool:
        """Return True when the turn's provisional combinations reach the requirement of
        their opening type (7.2): the one "value >= requirement" test of the game."""
        return self.provisional_value() >= self.requirement(self.prov_kind)

    def pairs_limit_reached(self) -> bool:
        """Return True when this turn pushed as many pairs as ``pairs_per_turn_limit``
        allows (9.4); the listing and the check of GIVE_PAIR both ask this."""
        limit = self.options.pairs_per_turn_limit
        return limit is not None and self.pairs_given >= limit

    def opening_stands(self, seat: int) -> bool:
        """Return True when a discard now lets the provisional opening stand: it reaches the
        requirement, or it finishes in one go (``one_go_finish_ignores_threshold``)."""
        finishing = len(self.racks[seat]) == 1 and self.options.one_go_finish_ignores_threshold
        return finishing or self.provisional_reaches()

    def discard_refusal(self, seat: int, tile: int) -> IllegalAction | None:
        """Return why ``seat`` may discard no tile now (8.1), or None: an unused taken tile,
        or a too-low opening that holds the taken tile (it would go back to the rack)."""
        if self.taken < 0:
            return None
        if self.taken in self.racks[seat]:
            return _illegal(
                "TAKEN_TILE_UNUSED", seat, Discard(tile), "use the taken tile in a new combination"
            )
        holds_taken = any(self.taken in self.combos[c].tiles for c in self.provisional)
        if holds_taken and not self.opening_stands(seat):
            return _illegal(
                "OPENING_TOO_LOW_WITH_TAKEN_TILE",
                seat,
                Discard(tile),
                "the opening is too low and holds the taken tile",
            ).with_details(value=self.provisional_value(), need=self.requirement(self.prov_kind))
        return None

    def may_work_table(self, seat: int) -> bool:
        """Return True when ``seat`` may lay off, exchange jokers or push pairs (7.4): an
        opening from an earlier turn, or (``layoff_in_opening_turn``) one made or reached
        in this turn."""
        status = self.opened[seat]
        if status != NONE:
            return self.opened_turn[seat] < self.turn or self.options.layoff_in_opening_turn
        return (
            self.options.layoff_in_opening_turn
            and bool(self.provisional)
            and self.provisional_reaches()
        )

    def effective_status(self, seat: int) -> int:
        """Return ``seat``'s opening status, counting a provisional opening that table work
        would settle now (``layoff_in_opening_turn``)."""
        if self.opened[seat] == NONE and self.may_work_table(seat):
            return self.prov_kind
        return self.opened[seat]

    def table_view(self) -> tuple[list[dict[str, JSON]], frozenset[int], list[str]]:
        """Return the table's public JSON, the faces that fit it (10.1) and their names,
        cached until the table changes."""
        view = self._table_view
        if view is None or view[0] != self.table_version:
            eff = self.jokers.eff
            faces = frozenset(f for c in self.combos.values() for _, f in c.accepts(eff))
            table = [self._combo_json(c) for c in self.combos.values()]
            view = (self.table_version, table, faces, [FACE_NAME[f] for f in sorted(faces)])
            self._table_view = view
        return view[1], view[2], view[3]

    def _combo_json(self, combo: Combo) -> dict[str, object]:
        """Return the public JSON of a table combination, shared while it is unchanged."""
        key = (self.jokers.okey, combo.cid, combo.owner, combo.kind, combo.start, *combo.tiles)
        key += (combo.provisional,)
        found = self._json_cache.get(key)
        if found is None:
            if len(self._json_cache) > 4096:
                self._json_cache.clear()
            found = self._json_cache[key] = combo.to_json(self.jokers.eff)
        return found

    def keeps_discard(self, seat: int, tiles: Iterable[int]) -> bool:
        """Return True when laying ``tiles`` leaves ``seat`` a tile it may discard: one
        besides an unused taken tile, which cannot be discarded (8: no action may leave the
        player without a tile to discard)."""
        laid = set(tiles)
        rack = self.racks[seat]
        blocked = self.taken if self.taken in rack and self.taken not in laid else -1
        return any(t not in laid and t != blocked for t in rack)

    def fits(self, tile: int, skip: Iterable[int] = ()) -> bool:
        """Return True when ``tile`` fits a run end or a set's missing colour on the table
        (10.1), ignoring combinations ``skip``; real jokers never count here."""
        eff = self.jokers.eff
        f = eff[tile]
        if f == WILD:
            return False
        skipped = set(skip)
        if not skipped:
            return f in self.table_view()[1]
        for combo in self.combos.values():
            if combo.cid not in skipped and any(face == f for _, face in combo.accepts(eff)):
                return True
        return False

    # ------------------------------------------------------------------ apply

    def apply(self, seat: int, action: Any) -> tuple[Event, ...]:
        """Apply ``action`` for ``seat`` and return its events, or raise ``IllegalAction``
        (the state unchanged)."""
        CODEC.check(action, self._legal[2] if self._legal is not None else ())
        handler = _HANDLERS[type(action)]
        if self.over:
            raise _illegal(MATCH_OVER, seat, action, "the match is over")
        if seat != self.to_move:
            raise _illegal("NOT_YOUR_TURN", seat, action, f"seat {self.to_move} is to act")
        events: list[Event] = []
        handler(self, seat, action, events)
        self.version += 1
        return tuple(events)

    def _need_phase(self, seat: int, action: object, *phases: str) -> None:
        if self.phase not in phases:
            raise _illegal("WRONG_PHASE", seat, action, f"not allowed in phase {self.phase}")

    def _in_hand(self, seat: int, action: object, tiles: Iterable[int]) -> list[int]:
        tiles = list(tiles)
        rack = self.racks[seat]
        for t in tiles:
            if not 0 <= t < TILE_COUNT or t not in rack:
                token = TOKEN[t] if 0 <= t < TILE_COUNT else str(t)
                raise _illegal("TILE_NOT_IN_HAND", seat, action, f"{token} is not in the hand")
        if len(set(tiles)) != len(tiles):
            raise _illegal("INVALID_COMBINATION", seat, action, "a tile is named twice")
        return tiles

    def _draw(self, seat: int, action: Draw, events: list[Event]) -> None:
        self._need_phase(seat, action, TAKE, MUST_DRAW)
        if not self.wall:
            raise _illegal("CENTRE_EMPTY", seat, action, "the centre is empty")
        tile = self.wall.pop()
        insort(self.racks[seat], tile)
        self.phase = ACT
        events.append(Event("draw", {"centre": len(self.wall)}, seat, {"tile": TOKEN[tile]}))

    def _take(self, seat: int, action: TakeDiscard, events: list[Event]) -> None:
        self._need_phase(seat, action, TAKE)
        pile = self.piles[(seat - 1) % SEATS]
        if not pile:
            raise _illegal("NO_DISCARD_TO_TAKE", seat, action, "the previous pile is empty")
        tile = pile.pop()
        insort(self.racks[seat], tile)
        self.taken = tile
        self.phase = ACT
        events.append(Event("take_discard", {"tile": TOKEN[tile]}, seat))

    def _return(self, seat: int, action: ReturnTaken, events: list[Event]) -> None:
        self._need_phase(seat, action, ACT)
        tile = self.taken
        if tile < 0 or tile not in self.racks[seat]:
            raise _illegal("NOTHING_TO_RETURN", seat, action, "no taken tile in the hand")
        self.racks[seat].remove(tile)
        self.piles[(seat - 1) % SEATS].append(tile)
        self.taken = -1
        self.phase = MUST_DRAW
        events.append(Event("return_taken", {"tile": TOKEN[tile]}, seat))
        amount = self.options.return_taken_penalty * multiplier(self.opened[seat])
        if amount:
            self._charge(seat, amount, "return_taken", events)

    def _recall(self, seat: int, action: Recall, events: list[Event]) -> None:
        self._need_phase(seat, action, ACT)
        if not self.provisional:
            raise _illegal("NOTHING_TO_RECALL", seat, action, "no provisional combination")
        returned = self._return_provisional(seat)
        events.append(Event("recall", {"combos": returned}, seat))

    def _return_provisional(self, seat: int) -> list[int]:
        self.table_version += 1
        rack = self.racks[seat]
        cids = self.provisional
        for cid in cids:
            for t in self.combos.pop(cid).tiles:
                insort(rack, t)
                self.jokers_placed.discard(t)
        self.provisional = []
        self.prov_kind = NONE
        return cids

    def _meld(self, seat: int, action: Meld, events: list[Event]) -> None:
        self._need_phase(seat, action, ACT)
        tiles = self._in_hand(seat, action, action.tiles)
        kind = action.kind
        if kind not in (RUN, SET, PAIR):
            raise _illegal("INVALID_COMBINATION", seat, action, "unknown kind")
        wants = PAIRS if kind == PAIR else SERIES
        status = self.opened[seat]
        if status == NONE and self.prov_kind not in (NONE, wants):
            raise _illegal("MIXED_OPENING", seat, action, "an opening is either series or pairs")
        if status not in (NONE, wants):
            raise _illegal("OPENING_TYPE_LOCKED", seat, action, f"opened {OPENED_NAMES[status]}")
        start = shape(kind, tiles, self.jokers.eff, self.jokers.okey)
        if start < 0 and kind == RUN:  # given descending (6.1): stored ascending
            start = shape(kind, tiles[::-1], self.jokers.eff, self.jokers.okey)
            tiles = tiles[::-1]
        if start < 0:
            raise _illegal("INVALID_COMBINATION", seat, action, f"not a {KIND_NAMES[kind]}")
        if not self.keeps_discard(seat, tiles):
            raise _illegal("MUST_KEEP_DISCARD_TILE", seat, action, "keep a tile to discard")
        combo = self._new_combo(seat, seat, kind, tiles, start, provisional=status == NONE)
        if status == NONE:
            self.provisional.append(combo.cid)
            self.prov_kind = wants
        events.append(Event("meld", {"combo": combo.to_json(self.jokers.eff)}, seat))

    def _new_combo(
        self, owner: int, actor: int, kind: int, tiles: list[int], start: int, provisional: bool
    ) -> Combo:
        rack = self.racks[actor]
        for t in tiles:
            rack.remove(t)
            if self.jokers.eff[t] == WILD:
                self.jokers_placed.add(t)
        combos, cid = self.combos, self.next_cid
        in_order = not combos or cid > next(reversed(combos))
        combo = combos[cid] = Combo(cid, owner, kind, tiles, start, provisional)
        if not in_order:  # a reused id (below): the table stays in id order
            ordered = sorted(combos.items())
            combos.clear()
            combos.update(ordered)
        self.table_version += 1
        self.next_cid = cid + 1
        if self.next_cid > COMBO_IDS or self.next_cid in combos:
            # Returned openings spend ids too, without end in a stuck hand: past the range,
            # the smallest id no combination holds (the table holds at most 53).
            self.next_cid = next(i for i in range(1, COMBO_IDS + 1) if i not in combos)
        return combo

    def _table_work(self, seat: int, action: object) -> None:
        if not self.may_work_table(seat):
            raise _illegal(
                "NOT_OPENED_BEFORE_THIS_TURN", seat, action, "needs an opening from an earlier turn"
            )

    def _combo(self, seat: int, action: object, cid: int) -> Combo:
        combo = self.combos.get(cid)
        if combo is None:
            raise _illegal("INVALID_COMBINATION", seat, action, f"no combination {cid}")
        return combo

    def _not_taken(self, seat: int, action: object, tiles: Iterable[int]) -> None:
        if self.taken >= 0 and self.taken in tiles:
            raise _illegal(
                "TAKEN_TILE_NEW_COMBINATION_ONLY",
                seat,
                action,
                "the taken tile may only go into a new combination",
            )

    def _settle_early(self, seat: int, events: list[Event]) -> None:
        """With ``layoff_in_opening_turn``, table work fixes a provisional opening that
        already reaches its requirement."""
        if self.opened[seat] == NONE:
            self._open(seat, events)

    def layoff_check(self, seat: int, action: LayOff) -> tuple[Combo, int]:
        """Return the combination and the number the tile stands for, or raise."""
        self._need_phase(seat, action, ACT)
        self._in_hand(seat, action, (action.tile,))
        combo = self._combo(seat, action, action.combo)
        self._table_work(seat, action)
        self._not_taken(seat, action, (action.tile,))
        eff = self.jokers.eff
        end = action.end
        if combo.kind == PAIR:
            raise _illegal("INVALID_COMBINATION", seat, action, "a pair takes no tile")
        if (combo.kind == RUN) != (end in (LOW, HIGH)):
            raise _illegal("INVALID_COMBINATION", seat, action, "no such end on this combination")
        if combo.kind == RUN:
            low = number_of(combo.start)
            high = low + len(combo.tiles) - 1
            if (end == LOW and low == 1) or (end == HIGH and high == 13):
                raise _illegal("RUN_LIMIT", seat, action, "the run cannot grow past 1 or 13")
            want = combo.start - 1 if end == LOW else combo.start + len(combo.tiles)
            number = number_of(want)
        else:
            if len(combo.tiles) == 4:
                raise _illegal("GROUP_FULL", seat, action, "the set has four tiles")
            want = -1
            number = combo.start
        if (combo.cid, end) in self.ends_used:
            raise _illegal("END_ALREADY_EXTENDED", seat, action, "one tile per end per turn")
        f = eff[action.tile]
        if f != WILD:
            if combo.kind == RUN:
                ok = f == want
            else:
                mask = colour_mask(combo.tiles, eff)
                ok = number_of(f) == number and not mask & (1 << colour_of(f))
            if not ok:
                raise _illegal("INVALID_COMBINATION", seat, action, "the tile does not fit")
        if not self.keeps_discard(seat, (action.tile,)):
            raise _illegal("MUST_KEEP_DISCARD_TILE", seat, action, "keep a tile to discard")
        return combo, number

    def _layoff(self, seat: int, action: LayOff, events: list[Event]) -> None:
        combo, number = self.layoff_check(seat, action)
        self._settle_early(seat, events)
        self.table_version += 1
        tile = action.tile
        self.racks[seat].remove(tile)
        if action.end == LOW:
            combo.tiles.insert(0, tile)
            combo.start -= 1
        elif action.end == HIGH:
            combo.tiles.append(tile)
        else:
            combo.tiles.append(tile)
            combo.tiles.sort()
        self.ends_used.add((combo.cid, action.end))
        wild = self.jokers.eff[tile] == WILD
        events.append(
            Event(
                "lay_off",
                {"tile": TOKEN[tile], "combo": combo.to_json(self.jokers.eff)},
                seat,
            )
        )
        if wild:
            self.jokers_placed.add(tile)
            if combo.owner != seat:
                amount = table_charge(
                    self.options, number, self.opened[combo.owner], self.opened[seat]
                )
                self._charge(combo.owner, amount, "joker_added", events)

    def replace_check(self, seat: int, action: ReplaceJoker) -> tuple[Combo, int]:
        """Return the combination and the joker's slot, or raise."""
        self._need_phase(seat, action, ACT)
        combo = self._combo(seat, action, action.combo)
        self._table_work(seat, action)
        eff = self.jokers.eff
        joker = action.joker
        if joker not in combo.tiles or eff[joker] != WILD:
            raise _illegal("INVALID_COMBINATION", seat, action, "no such joker in the combination")
        if joker in self.jokers_placed:
            raise _illegal(
                "JOKER_PLACED_THIS_TURN", seat, action, "a joker laid this turn stays this turn"
            )
        tiles = self._in_hand(seat, action, action.tiles)
        self._not_taken(seat, action, tiles)
        slot = combo.tiles.index(joker)
        if combo.kind != SET:
            identity = combo.slot_face(slot, eff)
            if len(tiles) != 1 or eff[tiles[0]] != identity:
                raise _illegal(
                    "WRONG_REPLACEMENT_TILE",
                    seat,
                    action,
                    f"give the one tile the joker stands for ({FACE_NAME[identity]})",
                )
            return combo, slot
        mask = colour_mask(combo.tiles, eff)
        for t in tiles:
            f = eff[t]
            if f == WILD or number_of(f) != combo.start or mask & (1 << colour_of(f)):
                raise _illegal(
                    "WRONG_REPLACEMENT_TILE", seat, action, f"{TOKEN[t]} does not fit the set"
                )
            mask |= 1 << colour_of(f)
        required = 1 if len(combo.tiles) == 4 else 2
        if len(tiles) < required:
            raise _illegal(
                "GROUP_MUST_COMPLETE_FOUR_COLOURS",
                seat,
                action,
                "after the exchange the set must hold four colours",
            )
        if len(tiles) > required:
            raise _illegal("WRONG_REPLACEMENT_TILE", seat, action, "too many tiles for the set")
        if required == 2 and (combo.cid, GROUP) in self.ends_used:
            raise _illegal("END_ALREADY_EXTENDED", seat, action, "the set grew this turn")
        return combo, slot

    def _replace(self, seat: int, action: ReplaceJoker, events: list[Event]) -> None:
        combo, slot = self.replace_check(seat, action)
        self._settle_early(seat, events)
        self.table_version += 1
        number = combo.joker_number(slot)
        rack = self.racks[seat]
        for t in action.tiles:
            rack.remove(t)
        if combo.kind == SET:
            if len(action.tiles) == 2:
                self.ends_used.add((combo.cid, GROUP))
            combo.tiles.remove(action.joker)
            combo.tiles.extend(action.tiles)
            combo.tiles.sort()
        else:
            combo.tiles[slot] = action.tiles[0]
        insort(rack, action.joker)
        events.append(
            Event(
                "replace_joker",
                {"joker": TOKEN[action.joker], "combo": combo.to_json(self.jokers.eff)},
                seat,
            )
        )
        if combo.owner != seat:
            amount = table_charge(self.options, number, self.opened[combo.owner], self.opened[seat])
            self._charge(combo.owner, amount, "joker_exchanged", events)

    def give_check(self, seat: int, action: GivePair) -> int:
        """Return the face of the pushed pair, or raise."""
        self._need_phase(seat, action, ACT)
        self._table_work(seat, action)
        if self.effective_status(seat) != SERIES:
            raise _illegal("OPENING_TYPE_LOCKED", seat, action, "only series openers push pairs")
        to = action.to
        if to == seat or not 0 <= to < SEATS or self.opened[to] != PAIRS:
            raise _illegal(
                "RECIPIENT_NOT_PAIRS_OPENER", seat, action, f"seat {to} has not opened pairs"
            )
        tiles = self._in_hand(seat, action, action.tiles)
        face = shape(PAIR, tiles, self.jokers.eff, self.jokers.okey)
        if face < 0:
            raise _illegal("INVALID_COMBINATION", seat, action, "not a pair")
        if self.pairs_limit_reached():
            limit = self.options.pairs_per_turn_limit
            raise _illegal("PAIRS_PER_TURN_LIMIT", seat, action, f"at most {limit} pairs a turn")
        if not self.keeps_discard(seat, tiles):
            raise _illegal("MUST_KEEP_DISCARD_TILE", seat, action, "keep a tile to discard")
        return face

    def _give(self, seat: int, action: GivePair, events: list[Event]) -> None:
        face = self.give_check(seat, action)
        self._settle_early(seat, events)
        to = action.to
        combo = self._new_combo(to, seat, PAIR, sorted(action.tiles), face, provisional=False)
        self.pairs_given += 1
        events.append(Event("give_pair", {"to": to, "combo": combo.to_json(self.jokers.eff)}, seat))
        number = number_of(face)
        gift = pair_charge(self.options, number, self.opened[to], self.opened[seat])
        self._charge(to, gift, "pair_received", events)
        for t in action.tiles:
            if self.jokers.eff[t] == WILD:
                amount = table_charge(self.options, number, self.opened[to], self.opened[seat])
                self._charge(to, amount, "joker_added", events)

    def _charge(self, seat: int, amount: int, reason: str, events: list[Event]) -> None:
        self.score_version += 1
        self.penalties[seat] += amount
        events.append(Event("penalty", {"amount": amount, "reason": reason}, seat))

    def _open(self, seat: int, events: list[Event]) -> None:
        self.table_version += 1
        kind = self.prov_kind
        value = self.provisional_value()
        for cid in self.provisional:
            self.combos[cid].provisional = False
        self.provisional = []
        self.prov_kind = NONE
        self.opened[seat] = kind
        self.opened_turn[seat] = self.turn
        self.opening_value[seat] = value
        if self.options.threshold_mode == "ladder":
            after = value + 1 if kind == SERIES else self.options.need_after_pairs(value)
            self.need = max(self.need, after)  # only a one-go finish opens below the need
        events.append(
            Event(
                "opening",
                {
                    "kind": OPENED_NAMES[kind],
                    "value": value,
                    "need": self.need,
                    "pairs_need": self.requirement(PAIRS),
                },
                seat,
            )
        )

    def discard_plan(self, seat: int, tile: int) -> tuple[bool, bool, str]:
        """Return (opening stands, wrong discard charged, outcome) for discarding ``tile``,
        or raise: outcome is ``"stands"``, ``"returned"`` or ``"finish"`` (8.1)."""
        rack = self.racks[seat]
        refusal = self.discard_refusal(seat, tile)
        if refusal is not None:
            raise refusal
        opens = True
        returned: list[int] = []
        if self.provisional:
            opens = self.opening_stands(seat)
            if not opens:
                returned = [t for c in self.provisional for t in self.combos[c].tiles]
        if len(rack) + len(returned) == 1:
            return opens, False, "finish"
        if self.jokers.eff[tile] == WILD:
            return opens, False, "stands"
        skip = self.provisional if not opens else ()
        if not self.fits(tile, skip):
            return opens, False, "stands"
        if self.options.wrong_discard == "charged_and_stands":
            return opens, True, "stands"
        for t in (*rack, *returned):
            if t != tile and self.jokers.eff[t] != WILD and not self.fits(t, skip):
                return opens, True, "returned"
        return opens, True, "stands"

    def _discard(self, seat: int, action: Discard, events: list[Event]) -> None:
        self._need_phase(seat, action, ACT)
        tile = action.tile
        self._in_hand(seat, action, (tile,))
        opens, wrong, outcome = self.discard_plan(seat, tile)
        if self.provisional:
            if opens:
                self._open(seat, events)
            else:
                value = self.provisional_value()
                required = self.requirement(self.prov_kind)
                cids = self._return_provisional(seat)
                events.append(
                    Event(
                        "opening_returned", {"combos": cids, "value": value, "need": required}, seat
                    )
                )
        m = multiplier(self.opened[seat])
        if outcome != "finish" and self.jokers.eff[tile] == WILD:
            self._charge(seat, self.base * m, "joker_discarded", events)
        if wrong:
            self._charge(seat, WRONG_DISCARD * m, "wrong_discard", events)
            if outcome == "returned":
                events.append(Event("wrong_discard_returned", {"tile": TOKEN[tile]}, seat))
                return
        self.racks[seat].remove(tile)
        self.piles[seat].append(tile)
        events.append(Event("discard", {"tile": TOKEN[tile]}, seat))
        if outcome == "finish":
            self._end_hand(seat, tile, events)
        elif not self.wall:
            self._end_hand(None, -1, events)
        else:
            self.to_move = (seat + 1) % SEATS
            self.turn += 1
            self.phase = TAKE
            self._reset_turn()

    def _reset_turn(self) -> None:
        self.taken = -1
        self.provisional = []
        self.prov_kind = NONE
        self.ends_used = set()
        self.jokers_placed = set()
        self.pairs_given = 0

    # ------------------------------------------------------------------ hands

    def _start_hand(self, deal: HandDeal) -> list[Event]:
        self.hand_no += 1
        self.first = deal.first
        self.jokers = Jokers.of(deal.indicator)
        self.base = self.options.base(self.jokers.colour)
        self.racks = [sorted(r) for r in deal.racks]
        self.wall = list(reversed(deal.wall))
        self.piles = [[] for _ in range(SEATS)]
        self.combos = {}
        self.table_version += 1
        self.next_cid = 1
        self.opened = [NONE] * SEATS
        self.opened_turn = [0] * SEATS
        self.opening_value = [0] * SEATS
        self.need = self.options.first_threshold
        self.penalties = [0] * SEATS
        self.turn = 1
        self.to_move = deal.first
        self.phase = ACT
        self._reset_turn()
        public = {
            "hand": self.hand_no,
            "first": deal.first,
            "indicator": TOKEN[deal.indicator],
            "okey": FACE_NAME[self.jokers.okey],
            "base": self.base,
        }
        events = [Event("deal", public)]
        events += [
            Event("rack", {}, s, {"tiles": [TOKEN[t] for t in self.racks[s]]}) for s in range(SEATS)
        ]
        return events

    def _end_hand(self, winner: int | None, last: int, events: list[Event]) -> None:
        eff = self.jokers.eff
        joker_finish = winner is not None and eff[last] == WILD
        from_hand = winner is not None and (
            self.opened_turn[winner] == self.turn
            and all(self.opened[s] == NONE for s in range(SEATS) if s != winner)
        )
        jokers_left = [sum(1 for t in r if eff[t] == WILD) for r in self.racks]
        tiles_left = [len(r) for r in self.racks]
        result = settle(
            self.options,
            self.base,
            winner,
            self.opened,
            tiles_left,
            joker_finish=joker_finish,
            from_hand=from_hand,
            jokers_left=jokers_left,
        )
        rounds = [p + s for p, s in zip(self.penalties, result.amounts, strict=True)]
        self.score_version += 1
        self.history.append(rounds)
        self.totals = [a + b for a, b in zip(self.totals, rounds, strict=True)]
        public: dict[str, JSON] = {
            "hand": self.hand_no,
            "winner": winner,
            "final_discard": TOKEN[last] if last >= 0 else None,
            "joker_finish": joker_finish,
            "from_hand": from_hand,
            "joker_colour": self.jokers.colour,
            "base": self.base,
            "opened": [OPENED_NAMES[s] for s in self.opened],
            "tiles_left": tiles_left,
            "penalties": list(self.penalties),
            "settlement": result.amounts,
            "lines": result.lines,
            "round": rounds,
            "totals": list(self.totals),
        }
        if self.options.joker_left_in_hand != 0:
            public["jokers_left"] = jokers_left
        self.last_result = public
        events.append(Event("hand_over", public))
        if self.hand_no >= self.options.rounds:
            self.over = True
            self.phase = OVER
            outcome = self.outcome()
            assert outcome is not None
            events.append(Event("match_over", outcome.to_json()))
            return
        first = (self.first + 1) % SEATS
        events.extend(self._start_hand(deal_hand(self.seed, self.hand_no + 1, first)))

    # ------------------------------------------------------------------ views

    def observation(self, viewer: int | None) -> dict[str, JSON]:
        """Return what ``viewer`` may see (``view.observation``; the package docstring lists
        the keys). Observations share their rarely changing parts: treat them as read-only."""
        return view.observation(self, viewer)

    def laid_json(self) -> dict[str, JSON] | None:
        """Return what the turn's provisional combinations are worth against the need that
        applies to them (``{"value", "need", "kind"}``), or None when nothing is laid."""
        if not self.provisional:
            return None
        return {
            "value": self.provisional_value(),
            "need": self.requirement(self.prov_kind),
            "kind": OPENED_NAMES[self.prov_kind],
        }

    def snapshot(self) -> JSON:
        """Return the whole state, hidden tiles included, as canonical JSON."""
        return {
            "hand_no": self.hand_no,
            "first": self.first,
            "indicator": self.jokers.indicator,
            "racks": [list(r) for r in self.racks],
            "wall": list(reversed(self.wall)),
            "piles": [list(p) for p in self.piles],
            "combos": [
                [c.cid, c.owner, c.kind, list(c.tiles), c.start, c.provisional]
                for c in self.combos.values()
            ],
            "next_cid": self.next_cid,
            "opened": list(self.opened),
            "opened_turn": list(self.opened_turn),
            "opening_value": list(self.opening_value),
            "need": self.need,
            "penalties": list(self.penalties),
            "totals": list(self.totals),
            "history": [list(r) for r in self.history],
            "turn": self.turn,
            "to_move": self.to_move,
            "phase": self.phase,
            "taken": self.taken,
            "provisional": list(self.provisional),
            "prov_kind": self.prov_kind,
            "ends_used": sorted(list(e) for e in self.ends_used),
            "jokers_placed": sorted(self.jokers_placed),
            "pairs_given": self.pairs_given,
            "last_result": self.last_result,
            "over": self.over,
        }

    def copy(self) -> LadderState:
        """Return an independent copy (the legal-action cache is not shared)."""
        other = LadderState.__new__(LadderState)
        other.__dict__.update(self.__dict__)
        other.totals = list(self.totals)
        other.history = [list(r) for r in self.history]
        other.racks = [list(r) for r in self.racks]
        other.wall = list(self.wall)
        other.piles = [list(p) for p in self.piles]
        other.combos = {cid: c.copy() for cid, c in self.combos.items()}
        other.opened = list(self.opened)
        other.opened_turn = list(self.opened_turn)
        other.opening_value = list(self.opening_value)
        other.penalties = list(self.penalties)
        other.provisional = list(self.provisional)
        other.ends_used = set(self.ends_used)
        other.jokers_placed = set(self.jokers_placed)
        other._legal = None
        other.meld_cache = list(self.meld_cache)
        return other

    def clone(self) -> LadderState:
        """Return an independent copy for search (the same as ``copy``)."""
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> LadderState:
        return self.copy()

    def shuffled_hidden(self, viewer: int | None, rng: random.Random) -> LadderState:
        """Return a copy whose tiles hidden from ``viewer`` (other racks except a publicly
        taken tile, the centre, the covered parts of piles the viewer may not look through)
        are permuted among their places."""
        other = self.copy()
        places: list[tuple[list[int], int, int]] = []  # (list, start, stop)
        for s, rack in enumerate(other.racks):
            if s == viewer:
                continue
            places.append((rack, 0, len(rack)))
        places.append((other.wall, 0, len(other.wall)))
        for s, pile in enumerate(other.piles):
            if viewer is not None and (s == viewer or s == (viewer - 1) % SEATS):
                continue
            places.append((pile, 0, max(len(pile) - 1, 0)))
        kept = self.taken if self.taken >= 0 and self.to_move != viewer else -1
        pool = [t for lst, a, b in places for t in lst[a:b] if t != kept]
        rng.shuffle(pool)
        for lst, a, b in places:
            for i in range(a, b):
                if lst[i] != kept:
                    lst[i] = pool.pop()
        for s in range(SEATS):
            other.racks[s].sort()
        return other

    def check_invariants(self) -> None:
        """Raise ``EngineBug`` if a tile is lost or doubled, a combination is invalid, or
        scores and statuses disagree."""
        seen = [self.jokers.indicator, *self.wall]
        for r in self.racks:
            seen += r
        for p in self.piles:
            seen += p
        eff, okey = self.jokers.eff, self.jokers.okey
        for cid, c in self.combos.items():
            seen += c.tiles
            if cid != c.cid or not 0 < cid <= COMBO_IDS or cid == self.next_cid:
                raise EngineBug(f"okey-ladder: combination id {cid} out of range or reused")
            if shape(c.kind, c.tiles, eff, okey) != c.start:
                raise EngineBug(f"okey-ladder: combination {cid} is invalid: {c.tiles}")
            if c.provisional != (cid in self.provisional):
                raise EngineBug(f"okey-ladder: combination {cid} provisional flag wrong")
            if c.provisional and (c.owner != self.to_move or self.opened[c.owner] != NONE):
                raise EngineBug(f"okey-ladder: provisional combination {cid} of an opener")
        if sorted(seen) != list(range(TILE_COUNT)):
            raise EngineBug("okey-ladder: tiles lost or doubled")
        for s in range(SEATS):
            owns = any(c.owner == s and not c.provisional for c in self.combos.values())
            if owns != (self.opened[s] != NONE):
                raise EngineBug(f"okey-ladder: seat {s} opening status disagrees with the table")
            if not self.over and not self.racks[s]:
                raise EngineBug(f"okey-ladder: seat {s} has an empty rack during play")
        sums = [sum(r[s] for r in self.history) for s in range(SEATS)]
        if sums != self.totals or len(self.history) != self.hand_no - (0 if self.over else 1):
            raise EngineBug("okey-ladder: totals disagree with the score table")
        if self.need < self.options.first_threshold:
            raise EngineBug("okey-ladder: the threshold fell below the first threshold")
        if self.taken >= 0 and self.taken in seen[: 1 + len(self.wall)]:
            raise EngineBug("okey-ladder: the taken tile is in the centre")


_HANDLERS = CODEC.handlers(
    {
        Draw: LadderState._draw,
        TakeDiscard: LadderState._take,
        ReturnTaken: LadderState._return,
        Recall: LadderState._recall,
        Meld: LadderState._meld,
        LayOff: LadderState._layoff,
        ReplaceJoker: LadderState._replace,
        GivePair: LadderState._give,
        Discard: LadderState._discard,
    }
)
