"""A whole Remi match (remi.md 3-12): deals, turns, the table, scoring and the match end.

The state is mutable; ``apply`` checks an action completely before it changes anything and
raises ``IllegalAction`` with a reason code otherwise. Reason codes: ``MATCH_OVER``,
``NOT_YOUR_TURN``, ``WRONG_PHASE``, ``CARD_NOT_IN_HAND``, ``DUPLICATE_CARD``,
``INVALID_MELD``, ``DECLARATION_MISMATCH``, ``ALREADY_OPEN``, ``OPENING_TOO_LOW``,
``OPEN_FIRST`` (a MELD before opening), ``NOT_OPEN`` (lay-off or exchange before opening),
``LAST_CARD_MUST_REMAIN``, ``NO_SUCH_MELD``, ``END_REQUIRED``, ``NO_END_FOR_SET``,
``RUN_LIMIT``, ``WRONG_SUIT``, ``WRONG_RANK``, ``SUIT_REPEATED``, ``SET_FULL``,
``NO_SUCH_JOKER``, ``SET_CLOSED``, ``WRONG_CARD``, ``EXCHANGE_NEEDS_BOTH``,
``TAKEN_CARD_REDISCARD`` (R-D10), ``JOKER_DISCARD`` (option), ``TAKEN_CARD_UNUSABLE``,
``TAKEN_CARD_UNUSED``, ``JOKER_UNUSABLE``, ``JOKER_UNUSED`` (the must-use options).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from meldhall.core.engine import Event, Outcome, ranks_by
from meldhall.core.errors import MATCH_OVER, EngineBug, IllegalAction, OptionsError
from meldhall.core.options import options_to_json
from meldhall.core.rng import SeededStream, derive, shuffled
from meldhall.games.remi.actions import (
    CODEC,
    DISCARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    Discard,
    DrawDiscard,
    DrawStock,
    Exchange,
    LayOff,
    MeldAction,
    MeldSpec,
    Open,
    RemiAction,
)
from meldhall.games.remi.legal import (
    MoveRules,
    TableIndex,
    index_table,
    leaves_a_card,
    may_exchange,
    opening_reaches,
    places_card,
    placing_moves,
)
from meldhall.games.remi.melds import (
    Reading,
    RunRules,
    read_meld,
)
from meldhall.games.remi.options import RemiOptions
from meldhall.games.remi.pieces import FIRST_JOKER, RANK, SUIT, TOKEN, card_token, parse_card_list
from meldhall.games.remi.scoring import HandResult, match_end, settle
from meldhall.games.remi.table import TableMeld
from meldhall.games.remi.view import DRAW, OVER, PLAY, check_state, observe, snapshot_of


def _tokens(cards: Sequence[int]) -> list[str]:
    return [TOKEN[c] for c in cards]


class RemiState:
    """One Remi match in progress (see the package docstring for its observation)."""

    def __init__(self, options: RemiOptions, seats: int, seed: bytes) -> None:
        if not 2 <= seats <= options.players:
            raise OptionsError(f"remi is played by 2 to {options.players} players, not {seats}")
        self.options = options
        self.runs = RunRules.of(options)
        self.moves = MoveRules(
            self.runs,
            options.opening_minimum,
            options.exchange_requires_open,
            options.set_two_joker_exchange,
        )
        self.n = seats
        self.seed = seed
        self.totals = [0] * seats
        self.history: list[list[int]] = []
        self.active = [True] * seats
        self.hand_no = 0
        if isinstance(options.first_dealer, int):
            if options.first_dealer >= seats:
                raise OptionsError(f"option 'first_dealer' {options.first_dealer} is not a seat")
            self.dealer = options.first_dealer
        else:
            self.dealer = SeededStream(derive(seed, "dealer")).randbelow(seats)
        self.last_result: dict[str, Any] | None = None
        self._outcome: Outcome | None = None
        self._legal: tuple[RemiAction, ...] | None = None
        self._table: TableIndex | None = None
        self._table_view: list[dict[str, Any]] | None = None
        self.options_view = options_to_json(options)
        del self.options_view["deck"]
        self.hands: list[list[int]] = []
        self.known: list[set[int]] = []
        self.stock: list[int] = []
        self.discard: list[int] = []
        self.melds: list[TableMeld] = []
        self.opened: list[bool] = []
        self.phase = DRAW
        self.current = self.first = 0
        self.turn = 0
        self.taken = self.pending = -1
        self.open_at_start = False
        self.kalooki_ok = True
        self.rebuilds = 0
        self._deal()

    # ------------------------------------------------------------------ protocol basics

    @property
    def seats(self) -> int:
        """Return the number of seats."""
        return self.n

    def to_act(self) -> frozenset[int]:
        """Return the seat to act (empty once the match is over)."""
        return frozenset() if self.phase == OVER else frozenset((self.current,))

    def outcome(self) -> Outcome | None:
        """Return the outcome once the match is over, else None."""
        return self._outcome

    def next_active(self, seat: int) -> int:
        """Return the next seat after ``seat`` still in the match (3.1)."""
        for step in range(1, self.n + 1):
            other = (seat + step) % self.n
            if self.active[other]:
                return other
        raise EngineBug("remi: no seat left in the match")

    # ------------------------------------------------------------------ dealing

    def _deck(self) -> list[int]:
        ids = list(range(self.options.total_cards))
        hand_seed = derive(self.seed, "hand", self.hand_no)
        if self.hand_no == 1 and self.options.deck:
            prefix = parse_card_list(self.options.deck, self.options.jokers)
            placed = set(prefix)
            return prefix + shuffled(hand_seed, "deck", [c for c in ids if c not in placed])
        return shuffled(hand_seed, "deck", ids)

    def _deal(self) -> list[Event]:
        """Deal the next hand (section 3) and return its events."""
        self.hand_no += 1
        deck = self._deck()
        first = self.next_active(self.dealer)
        order = [first]
        while (seat := self.next_active(order[-1])) != first:
            order.append(seat)
        self.hands = [[] for _ in range(self.n)]
        pos = 0
        for _ in range(self.options.hand_size):
            for seat in order:
                self.hands[seat].append(deck[pos])
                pos += 1
        self.discard = [deck[pos]]
        self.stock = deck[pos + 1 :][::-1]
        self.known = [set() for _ in range(self.n)]
        self.melds = []
        self.table_changed()
        self.opened = [False] * self.n
        self.first = first
        self.turn = 0
        self.rebuilds = 0
        self.start_turn(first)
        events = [
            Event(
                "deal",
                {
                    "hand": self.hand_no,
                    "dealer": self.dealer,
                    "first": first,
                    "upcard": card_token(self.discard[0]),
                    "stock": len(self.stock),
                },
            )
        ]
        events += [
            Event("dealt", {}, seat, {"cards": _tokens(sorted(self.hands[seat]))}) for seat in order
        ]
        return events

    def start_turn(self, seat: int) -> None:
        """Begin ``seat``'s turn: it is to draw; nothing taken or owed yet."""
        self.current = seat
        self.phase = DRAW
        self.turn += 1
        self.taken = self.pending = -1
        self.open_at_start = self.opened[seat]
        self.kalooki_ok = True

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int) -> tuple[RemiAction, ...]:
        """Return every legal action of ``seat`` now, in canonical order: draws; or OPEN,
        MELD, LAY_OFF, EXCHANGE, then DISCARD (each by card ids)."""
        if self.phase == OVER or seat != self.current:
            return ()
        if self._legal is None:
            self._legal = tuple(
                self._draw_actions() if self.phase == DRAW else self._play_actions()
            )
        return self._legal

    def _draw_actions(self) -> list[RemiAction]:
        out: list[RemiAction] = [DRAW_STOCK]
        if not self.options.discard_draw_must_use or self._usable(
            self.discard[-1], [*self.hands[self.current], self.discard[-1]], self.melds
        ):
            out.append(DRAW_DISCARD)
        return out

    def _play_actions(self) -> list[RemiAction]:
        if self._table is None:
            self._table = index_table(self.melds, self.runs)
        moves = self._placing(self.hands[self.current], self.melds, self._table)
        if self.pending >= 0:
            return [m for m in moves if places_card(m, self.pending)]
        moves.extend([DISCARDS[c] for c in sorted(self._discardable())])
        return moves

    def _placing(
        self,
        hand: Sequence[int],
        melds: Sequence[TableMeld],
        table: TableIndex | None = None,
        check_jokers: bool = True,
    ) -> list[RemiAction]:
        """Return the placing moves of the player to act with ``hand`` on ``melds``; with
        ``released_joker_must_be_used``, only exchanges whose joker can then be placed."""
        moves = placing_moves(hand, melds, self.opened[self.current], self.moves, table)
        if self.options.released_joker_must_be_used and check_jokers:
            moves = [
                m
                for m in moves
                if not isinstance(m, Exchange) or self._joker_usable(m, hand, melds)
            ]
        return moves

    def _discardable(self) -> list[int]:
        hand = self.hands[self.current]
        cards = hand
        if self.options.no_rediscard_taken_card and len(hand) > 1:
            cards = [c for c in hand if c != self.taken]
        if not self.options.joker_discard_allowed:
            naturals = [c for c in cards if c < FIRST_JOKER]
            if naturals:
                cards = naturals
        return cards

    def _usable(self, card: int, hand: Sequence[int], melds: Sequence[TableMeld]) -> bool:
        """Return True when some placing move of ``hand`` on ``melds`` places ``card``."""
        return any(places_card(m, card) for m in self._placing(hand, melds))

    def _joker_usable(
        self, action: Exchange, hand: Sequence[int], melds: Sequence[TableMeld]
    ) -> bool:
        """Return True when, after the exchange, some placing move places the freed joker (a
        joker is never given in an exchange, so exchanges need no look further)."""
        after = list(melds)
        after[action.meld] = after[action.meld].copy()
        after[action.meld].exchange(action.give, action.take)
        rest = [c for c in hand if c not in action.give] + [action.take]
        moves = self._placing(rest, after, check_jokers=False)
        return any(places_card(m, action.take) for m in moves)

    # ------------------------------------------------------------------ apply

    def apply(self, seat: int, action: Any) -> tuple[Event, ...]:
        """Apply a legal action and return its events, or raise ``IllegalAction``."""
        CODEC.check(action, self._legal or ())
        if self.phase == OVER:
            raise IllegalAction(MATCH_OVER, f"seat {seat}: the match is over")
        if seat != self.current:
            raise IllegalAction("NOT_YOUR_TURN", f"seat {seat}: it is seat {self.current}'s turn")
        events: list[Event] = []
        _HANDLERS[type(action)](self, seat, action, events)
        self._legal = None
        return tuple(events)

    def _fail(self, code: str, seat: int, action: object, why: str) -> IllegalAction:
        return IllegalAction(code, f"seat {seat} {action}: {why}")

    def _need_play(self, seat: int, action: RemiAction) -> None:
        if self.phase != PLAY:
            raise IllegalAction("WRONG_PHASE", f"seat {seat} must draw first, not {action}")

    def _draw(self, seat: int, action: DrawStock | DrawDiscard, events: list[Event]) -> None:
        if self.phase != DRAW:
            raise self._fail("WRONG_PHASE", seat, action, "already drawn this turn")
        if isinstance(action, DrawStock):
            card = self.stock.pop()
            self.hands[seat].append(card)
            self.phase = PLAY
            events.append(Event("draw_stock", {"seat": seat}, seat, {"card": card_token(card)}))
            return
        top = self.discard[-1]
        if self.options.discard_draw_must_use and not self._usable(
            top, [*self.hands[seat], top], self.melds
        ):
            raise self._fail("TAKEN_CARD_UNUSABLE", seat, action, "the top discard fits nowhere")
        self.discard.pop()
        self.hands[seat].append(top)
        self.known[seat].add(top)
        self.taken = top
        if self.options.discard_draw_must_use:
            self.pending = top
        self.phase = PLAY
        events.append(Event("draw_discard", {"seat": seat, "card": card_token(top)}))

    def _check_pending(self, seat: int, action: RemiAction) -> None:
        if self.pending >= 0 and not places_card(action, self.pending):
            code = "TAKEN_CARD_UNUSED" if self.pending == self.taken else "JOKER_UNUSED"
            why = f"{card_token(self.pending)} must be placed first"
            raise self._fail(code, seat, action, why)

    def _own(self, seat: int, action: object, cards: Sequence[int]) -> None:
        if len(set(cards)) != len(cards):
            raise self._fail("DUPLICATE_CARD", seat, action, "a card is named twice")
        hand = self.hands[seat]
        for c in cards:
            if c not in hand:
                raise self._fail("CARD_NOT_IN_HAND", seat, action, f"no {card_token(c)} in hand")

    def _reading(self, seat: int, action: object, spec: MeldSpec) -> Reading:
        declare = spec.declare if any(d is not None for d in spec.declare) else None
        found = read_meld(spec.cards, declare, self.runs)
        if isinstance(found, str):
            raise self._fail(found, seat, action, f"{spec} is not a valid meld")
        return found

    def _place(
        self, seat: int, action: Open | MeldAction | LayOff | Exchange, events: list[Event]
    ) -> None:
        self._need_play(seat, action)
        self._check_pending(seat, action)
        if isinstance(action, Open | MeldAction):
            events += self._lay_melds(seat, action)
        elif isinstance(action, LayOff):
            events += self._lay_off(seat, action)
        else:
            events += self._exchange(seat, action)

    def _lay_melds(self, seat: int, action: Open | MeldAction) -> list[Event]:
        is_open = isinstance(action, Open)
        if is_open and self.opened[seat]:
            raise self._fail("ALREADY_OPEN", seat, action, "already open; use MELD")
        if not is_open and not self.opened[seat]:
            raise self._fail("OPEN_FIRST", seat, action, "the first melds are laid by OPEN")
        specs = action.melds if isinstance(action, Open) else (action.meld,)
        cards = [c for s in specs for c in s.cards]
        self._own(seat, action, cards)
        found = [self._reading(seat, action, s) for s in specs]
        if not leaves_a_card(len(cards), len(self.hands[seat])):
            raise self._fail("LAST_CARD_MUST_REMAIN", seat, action, "one card must stay")
        value = sum(r.value for r in found)
        if is_open and not opening_reaches(value, self.options.opening_minimum):
            need = self.options.opening_minimum
            raise self._fail("OPENING_TOO_LOW", seat, action, f"{value} < {need}").with_details(
                value=value, need=need
            )
        laid: list[dict[str, Any]] = []
        for spec, reading in zip(specs, found, strict=True):
            meld = TableMeld(reading.kind, spec.cards, reading, seat, self.turn)
            self.melds.append(meld)
            laid.append(meld.to_json(len(self.melds) - 1, self.runs))
        self._take_from_hand(seat, cards)
        self.table_changed()
        if is_open:
            self.opened[seat] = True
            return [Event("open", {"seat": seat, "melds": laid, "value": value})]
        return [Event("meld", {"seat": seat, "meld": laid[0]})]

    def _table_meld(self, seat: int, action: LayOff | Exchange) -> TableMeld:
        if action.meld >= len(self.melds):
            raise self._fail("NO_SUCH_MELD", seat, action, f"no meld m{action.meld}")
        return self.melds[action.meld]

    def _lay_off(self, seat: int, action: LayOff) -> list[Event]:
        if not self.opened[seat]:
            raise self._fail("NOT_OPEN", seat, action, "lay-offs only after opening")
        self._own(seat, action, [action.card])
        meld = self._table_meld(seat, action)
        if not leaves_a_card(1, len(self.hands[seat])):
            raise self._fail("LAST_CARD_MUST_REMAIN", seat, action, "one card must stay")
        error = meld.lay_off_error(action.card, action.end, self.runs)
        if error is not None:
            raise self._fail(error, seat, action, f"{card_token(action.card)} does not fit")
        meld.lay_off(action.card, action.end, self.runs)
        self.table_changed()
        if meld.turn != self.turn:
            self.kalooki_ok = False
        self._take_from_hand(seat, [action.card])
        view = meld.to_json(action.meld, self.runs)
        public = {"seat": seat, "card": card_token(action.card), "end": action.end, "meld": view}
        return [Event("lay_off", public)]

    def _exchange(self, seat: int, action: Exchange) -> list[Event]:
        if not may_exchange(self.opened[seat], self.options.exchange_requires_open):
            raise self._fail("NOT_OPEN", seat, action, "exchanges only after opening (R-D12)")
        self._own(seat, action, action.give)
        meld = self._table_meld(seat, action)
        error = meld.exchange_error(
            action.give, action.take, self.runs, self.options.set_two_joker_exchange
        )
        if error is not None:
            raise self._fail(error, seat, action, "the exchange does not fit this meld")
        if self.options.released_joker_must_be_used and not self._joker_usable(
            action, self.hands[seat], self.melds
        ):
            raise self._fail("JOKER_UNUSABLE", seat, action, "the freed joker would fit nowhere")
        meld.exchange(action.give, action.take)
        self.table_changed()
        self._take_from_hand(seat, action.give)
        self.hands[seat].append(action.take)
        self.known[seat].add(action.take)
        self.kalooki_ok = False
        if self.options.released_joker_must_be_used:
            self.pending = action.take
        public = {
            "seat": seat,
            "gave": _tokens(action.give),
            "took": card_token(action.take),
            "meld": meld.to_json(action.meld, self.runs),
        }
        return [Event("exchange", public)]

    def _take_from_hand(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
            self.known[seat].discard(c)
            if c == self.pending:
                self.pending = -1

    def _discard(self, seat: int, action: Discard, events: list[Event]) -> None:
        self._need_play(seat, action)
        self._check_pending(seat, action)
        card = action.card
        self._own(seat, action, [card])
        if card not in self._discardable():
            if card == self.taken and self.options.no_rediscard_taken_card:
                raise self._fail("TAKEN_CARD_REDISCARD", seat, action, "taken this turn (R-D10)")
            raise self._fail("JOKER_DISCARD", seat, action, "jokers may not be discarded")
        self._take_from_hand(seat, [card])
        self.discard.append(card)
        events.append(Event("discard", {"seat": seat, "card": card_token(card)}))
        if not self.hands[seat]:
            kalooki = not self.open_at_start and self.kalooki_ok
            events += self._end_hand(seat, kalooki)
        else:
            events += self._enter_draw(self.next_active(seat))

    # ------------------------------------------------------------------ stock and hand end

    def _enter_draw(self, seat: int) -> list[Event]:
        self.start_turn(seat)
        if self._stuck():
            return self._end_hand(None, False)
        if self.stock:
            return []
        limit = self.options.max_stock_rebuilds
        if len(self.discard) <= 1 or (isinstance(limit, int) and self.rebuilds >= limit):
            return self._end_hand(None, False)
        top = self.discard.pop()
        label = f"rebuild-{self.rebuilds + 1}"
        self.stock = shuffled(derive(self.seed, "hand", self.hand_no), label, self.discard)
        self.discard = [top]
        self.rebuilds += 1
        return [Event("stock_rebuilt", {"stock": len(self.stock), "rebuilds": self.rebuilds})]

    def _stuck(self) -> bool:
        """Return True when nobody can ever place a card again (a dead hand, like an empty
        deck, R-D16): every player holds at most two cards, too few for a new meld that
        leaves one in hand, and no card off the table fits a meld on it or frees a joker."""
        if any(len(h) > 2 for h, on in zip(self.hands, self.active, strict=True) if on):
            return False
        if self._table is None:
            self._table = index_table(self.melds, self.runs)
        faces = set(self._table.places)
        for meld in self.melds:
            faces.update(meld.freeing_faces(self.runs))
        for place in (*self.hands, self.stock, self.discard):
            for c in place:
                if self._table.anywhere if c >= FIRST_JOKER else (RANK[c], SUIT[c]) in faces:
                    return False
        return True

    def _end_hand(self, closer: int | None, kalooki: bool) -> list[Event]:
        seats = [s for s in range(self.n) if self.active[s]]
        result: HandResult = settle(
            [self.hands[s] if self.active[s] else [] for s in range(self.n)],
            closer,
            kalooki,
            self.opened,
            self.active,
            self.options,
        )
        self.history.append(result.penalties)
        self.totals = [t + p for t, p in zip(self.totals, result.penalties, strict=True)]
        end = match_end(self.totals, self.active, len(self.history), self.options)
        if self.options.match_end == "elimination":
            for s in end.eliminated:
                self.active[s] = False
        public: dict[str, Any] = {
            "hand": self.hand_no,
            "closer": closer,
            "kalooki": kalooki,
            "dead": closer is None,
            "hands": [_tokens(sorted(self.hands[s])) for s in range(self.n)],
            "lines": [line for line in result.lines if line["seat"] in seats],
            "penalties": result.penalties,
            "totals": list(self.totals),
            "eliminated": list(end.eliminated),
            "match_over": end.over,
        }
        self.last_result = public
        events = [Event("hand_over", public)]
        if end.over:
            self.phase = OVER
            self._legal = None
            self._outcome = Outcome(
                tuple(self.totals),
                ranks_by(self.totals, higher_is_better=False),
                frozenset(end.winners),
                self.options.match_end,
            )
            return [*events, Event("match_over", self._outcome.to_json())]
        self.dealer = self.next_active(self.dealer)
        return events + self._deal()

    # ------------------------------------------------------------------ views

    def table_changed(self) -> None:
        """Forget what was derived from the table (its index and its public view)."""
        self._table = self._table_view = None

    def table_json(self) -> list[dict[str, Any]]:
        """Return the public view of every meld on the table (kept until the table changes;
        callers must not modify it)."""
        if self._table_view is None:
            self._table_view = [m.to_json(i, self.runs) for i, m in enumerate(self.melds)]
        return self._table_view

    def observation(self, viewer: int | None) -> dict[str, Any]:
        """Return what ``viewer`` may know now (None: a spectator); keys in the package
        docstring."""
        return observe(self, viewer)

    def snapshot(self) -> dict[str, Any]:
        """Return the whole state, hidden cards included, in canonical JSON form."""
        return snapshot_of(self)

    def check_invariants(self) -> None:
        """Raise ``EngineBug`` when a card is not in exactly one place, a meld on the table is
        not valid as recorded, or counts and totals disagree."""
        check_state(self)

    def copy(self) -> RemiState:
        """Return an independent copy of the state."""
        other = RemiState.__new__(RemiState)
        other.__dict__.update(self.__dict__)
        other.totals = list(self.totals)
        other.history = [list(h) for h in self.history]
        other.active = list(self.active)
        other.hands = [list(h) for h in self.hands]
        other.known = [set(k) for k in self.known]
        other.stock = list(self.stock)
        other.discard = list(self.discard)
        other.melds = [m.copy() for m in self.melds]
        other.opened = list(self.opened)
        other._legal = None
        other._table = other._table_view = None
        return other

    def clone(self) -> RemiState:
        """Return an independent copy for search (the same as ``copy``)."""
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> RemiState:
        return self.copy()

    def shuffled_hidden(self, viewer: int | None, rng: random.Random) -> RemiState:
        """Return a copy in which the cards hidden from ``viewer`` (other hands except their
        publicly known cards, and the stock) are permuted among their places."""
        other = self.copy()
        slots: list[tuple[list[int], int]] = []
        for s in range(self.n):
            if s == viewer:
                continue
            hand = other.hands[s]
            slots += [(hand, i) for i, c in enumerate(hand) if c not in other.known[s]]
        slots += [(other.stock, i) for i in range(len(other.stock))]
        cards = [place[i] for place, i in slots]
        rng.shuffle(cards)
        for (place, i), c in zip(slots, cards, strict=True):
            place[i] = c
        return other

    def expiry_action(self, seat: int) -> RemiAction | None:
        """Return the action the engine plays when ``seat``'s turn timer runs out (option
        ``turn_timer``, remi.md 14): draw from the stock, else discard the highest-value card
        (ties: lowest id); while a card must be used, the first legal action. None with the
        timer off (the table's own default move applies)."""
        legal = self.legal_actions(seat)
        if not legal:
            raise IllegalAction("NOT_YOUR_TURN", f"seat {seat} is not to act")
        if self.options.turn_timer == "off":
            return None
        if self.phase == DRAW:
            return DrawStock()
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            return legal[0]
        penalty = self.options.joker_hand_penalty
        from meldhall.games.remi.pieces import hand_value

        return min(discards, key=lambda a: (-hand_value(a.card, penalty), a.card))


_HANDLERS = CODEC.handlers(
    {
        DrawStock: RemiState._draw,
        DrawDiscard: RemiState._draw,
        Open: RemiState._place,
        MeldAction: RemiState._place,
        LayOff: RemiState._place,
        Exchange: RemiState._place,
        Discard: RemiState._discard,
    }
)
"""The handler of each remi action (``apply`` runs it after the codec's and turn checks)."""
