"""A whole Okey match (okey.md 4-9): hands dealt from the seed, the turn state machine, the
score sheet, and the next hand dealt until the match ends.

Every hand ``k`` is dealt from ``derive(seed, "hand", k)`` (streams ``shuffle`` and ``dice``;
the first dealer from its stream ``dealer``). ``apply`` validates an action completely before
changing anything, so a rejected action leaves the state exactly as it was.

Events (``Event.kind``; public data, and private data for ``Event.seat``):

- ``hand_start``: hand, dealer, first_player, indicator, okey, dice, wall_count,
  tile_counts; then one ``deal`` per seat (private: its ``hand``). Hands after the first
  are dealt inside the ``apply`` that ends the previous one.
- ``draw`` (private: ``tile``; public: wall_count), ``take_discard`` (tile, from),
  ``discard`` (tile), ``show_indicator`` (tile, deltas, scores), ``false_claim`` (tile,
  deltas, scores; option ``false_claim = penalty(n)``).
- ``hand_over``: hand, result ("win" or "no_score"), winner, final_discard, hands (the
  winner's 14 tiles, None for the others), groups (the winner's tiles in the melds of the
  reading: sets and runs, or seven pairs; [] without a winner), form, jokers,
  joker_discard, full_run, points, indicator, settlement (lines: seat, delta, reason
  "show" / "false_claim" / "win"), deltas (of the win), hand_deltas (every line of the
  hand: the win and the indicator penalties, the score sheet's row), scores, eliminated.
- ``match_over``: the outcome (scores, ranks, winners, termination).
"""

from __future__ import annotations

import random
from bisect import insort
from typing import Any

from meldhall.core.engine import JSON, Action, Event, Outcome, Seat
from meldhall.core.errors import EngineBug, refuse
from meldhall.core.rng import SeededStream, derive
from meldhall.core.tiles import parse_okey_many
from meldhall.games.okey import legal
from meldhall.games.okey.actions import (
    CODEC,
    DISCARDS,
    DRAW,
    END,
    SHOW,
    TAKE,
    WINS,
    Discard,
    DiscardWin,
    Draw,
    EndHand,
    ShowIndicator,
    TakeDiscard,
)
from meldhall.games.okey.deal import canonical_deal
from meldhall.games.okey.discards import winning_discards
from meldhall.games.okey.hand import HandRules, judge
from meldhall.games.okey.options import OkeyOptions
from meldhall.games.okey.pieces import (
    TILE_COUNT,
    TOKENS,
    effective_faces,
    face_name,
    identity_name,
    is_real_joker,
    okey_face,
)
from meldhall.games.okey.reading import melds_of
from meldhall.games.okey.scoring import hand_points, show_deltas, standing, win_deltas
from meldhall.games.okey.view import observation_of

AWAIT_TAKE = legal.AWAIT_TAKE
AWAIT_DISCARD = legal.AWAIT_DISCARD

MATCH_OVER = "match_over"
_ALONE = tuple(frozenset((seat,)) for seat in range(4))


def _tokens(tiles: list[int] | tuple[int, ...]) -> list[str]:
    return [TOKENS[t] for t in tiles]


class OkeyState:
    """One Okey match in progress. Tiles are ids 0..105 (okey.md 2); hands are kept sorted."""

    def __init__(self, options: OkeyOptions, seats: int, seed: bytes) -> None:
        self.options = options.with_players(seats)
        self._penalty = self.options.false_claim_penalty
        self.n = seats
        self.seed = seed
        start = 0 if self.options.scoring == "countup" else self.options.start_points
        self.initial = start
        self.scores = [start] * seats
        self.active = [True] * seats
        self.out_after: list[int | None] = [None] * seats
        self.score_lines: list[tuple[int, int, int, str]] = []
        """Every score change: (hand, seat, delta, reason)."""
        self.hand_no = 0
        self.dealer = 0
        self.last_result: dict[str, JSON] | None = None
        self.sheet: list[dict[str, JSON]] = []
        """The score sheet: per finished hand its score changes (shows included) and scores."""
        self.outcome_value: Outcome | None = None
        self._version = 0
        self._wins_cache: tuple[int, tuple[int, ...]] = (-1, ())
        self._view_cache: tuple[int, dict[str, JSON], list[tuple[JSON, JSON]]] | None = None
        """What every viewer sees alike at a version (``view._shared``)."""
        # per hand (set by _deal)
        self.first_player = 0
        self.indicator = 0
        self.okey = 0
        self.rules = HandRules(okey=0)
        self.dice: list[int] | None = None
        self.hands: list[list[int]] = []
        self.wall: list[int] = []
        self.wall_pos = 0
        self.piles: list[list[int]] = []
        self.set_aside: list[int] = []
        self.centre: list[int] = []
        self.turn = 0
        self.phase = AWAIT_DISCARD
        self.moved: list[bool] = []
        self.in_hand: list[bool] = []
        """Seats dealt into the current hand (``active`` may drop seats when it ends)."""
        self.shown_by: int | None = None
        self.dry_takes = 0
        self.must_win = False
        self._deal()

    # ------------------------------------------------------------ protocol basics

    @property
    def seats(self) -> int:
        """Return the number of seats."""
        return self.n

    def to_act(self) -> frozenset[Seat]:
        """Return the seat to act (empty once the match is over)."""
        if self.outcome_value is not None:
            return frozenset()
        return _ALONE[self.turn]

    def outcome(self) -> Outcome | None:
        """Return the outcome once the match is over, else None."""
        return self.outcome_value

    # ------------------------------------------------------------ seats and the deal

    def next_active(self, seat: int) -> int:
        """Return the next seat in play order (to the right) that is still playing."""
        for step in range(1, self.n + 1):
            other = (seat + step) % self.n
            if self.active[other]:
                return other
        raise EngineBug("no active seat")

    def previous_active(self, seat: int) -> int:
        """Return the previous seat in play order that is still playing."""
        for step in range(1, self.n + 1):
            other = (seat - step) % self.n
            if self.active[other]:
                return other
        raise EngineBug("no active seat")

    def _deal(self) -> list[Event]:
        self.hand_no += 1
        hand_seed = derive(self.seed, "hand", self.hand_no)
        explicit = self.hand_no == 1 and self.options.deal == "explicit"
        if self.hand_no == 1:
            if explicit:
                self.dealer = self.options.dealer_of_explicit
            else:
                self.dealer = SeededStream(hand_seed, "dealer").randbelow(self.n)
        else:
            self.dealer = self.next_active(self.dealer)
        first = self.next_active(self.dealer)
        self.first_player = first
        self.hands = [[] for _ in range(self.n)]
        self.piles = [[] for _ in range(self.n)]
        self.centre = []
        if explicit:
            self._deal_explicit()
        else:
            order = [first]
            while len(order) < sum(self.active):
                order.append(self.next_active(order[-1]))
            deal = canonical_deal(hand_seed, len(order), 0)
            for i, seat in enumerate(order):
                self.hands[seat] = sorted(deal.hands_in_order[i])
            self.indicator = deal.indicator
            self.wall = list(deal.wall)
            self.set_aside = []
            self.dice = [deal.d1, *deal.d2_rolls]
        self.wall_pos = 0
        self.okey = okey = okey_face(self.indicator)
        o = self.options
        self.rules = HandRules(
            okey=okey, wrap=o.wrap_runs == "okey", max_run=o.max_run, seven_pairs=o.seven_pairs
        )
        self.in_hand = list(self.active)
        self.turn = first
        self.phase = AWAIT_DISCARD
        self.moved = [False] * self.n
        self.shown_by = None
        self.dry_takes = 0
        self.must_win = False
        events = [
            Event(
                "hand_start",
                {
                    "hand": self.hand_no,
                    "dealer": self.dealer,
                    "first_player": first,
                    "indicator": TOKENS[self.indicator],
                    "okey": face_name(okey),
                    "dice": self.dice,
                    "wall_count": len(self.wall),
                    "tile_counts": [len(h) for h in self.hands],
                },
            )
        ]
        events += [
            Event("deal", {}, seat, {"hand": _tokens(self.hands[seat])})
            for seat in range(self.n)
            if self.active[seat]
        ]
        return events

    def _deal_explicit(self) -> None:
        o = self.options
        hands = o.explicit_hands or ()
        texts = [o.explicit_indicator or "", *hands, o.explicit_wall or ""]
        tiles = [t.id for t in parse_okey_many(" ".join(t for t in texts if t))]
        self.indicator = tiles[0]
        pos = 1
        for seat, text in enumerate(hands):
            size = len(text.split(" ")) if text else 0
            self.hands[seat] = sorted(tiles[pos : pos + size])
            pos += size
        named = set(tiles)
        rest = [t for t in range(TILE_COUNT) if t not in named]
        if o.explicit_wall is None:
            self.wall, self.set_aside = rest, []
        else:
            self.wall, self.set_aside = tiles[pos:], rest
        self.dice = None

    # ------------------------------------------------------------ legality

    def _twin_holder_may_show(self, seat: int) -> bool:
        return (
            not self.moved[seat]
            and seat == self.turn
            and self.shown_by is None
            and self.options.indicator_show
            and (self.indicator ^ 1) in self.hands[seat]
        )

    def can_show(self, seat: int) -> bool:
        """Return True when ``seat`` may show the indicator's twin now (okey.md 4.3)."""
        return self.outcome_value is None and self._twin_holder_may_show(seat)

    def wall_count(self) -> int:
        """Return the number of tiles left to draw."""
        return len(self.wall) - self.wall_pos

    def _wins(self) -> tuple[int, ...]:
        """Return the tiles of the player to act (15 tiles) whose discard wins (cached)."""
        version, wins = self._wins_cache
        if version != self._version:
            wins = winning_discards(self.hands[self.turn], self.rules)
            self._wins_cache = (self._version, wins)
        return wins

    def _take_is_free(self) -> bool:
        """Return True when the wall is empty and the discard may still be taken without
        winning at once (``wall_end = continue``, within one extra circuit)."""
        return self.options.wall_end == "continue" and self.dry_takes < sum(self.active)

    def _take_wins(self) -> bool:
        tile = self.piles[self.previous_active(self.turn)]
        if not tile:
            return False
        return bool(winning_discards([*self.hands[self.turn], tile[-1]], self.rules))

    def legal_actions(self, seat: Seat) -> tuple[Action, ...]:
        """Return every legal action of ``seat`` now: show, draw, take, end; or show, the
        winning discards, the plain discards (tiles in id order). Exactly the actions
        ``legal`` refuses nothing (the same functions ``apply`` checks with)."""
        if legal.turn_refusal(self, seat) is not None:
            return ()
        out: list[Action] = [SHOW] if legal.show_refusal(self, seat) is None else []
        if self.phase == AWAIT_TAKE:
            if legal.draw_refusal(self, seat) is None:
                out.append(DRAW)
            if legal.take_refusal(self, seat) is None:
                out.append(TAKE)
            if legal.end_refusal(self, seat) is None:
                out.append(END)
            return tuple(out)
        # The hand's own tiles pass the tile check of win_refusal and discard_refusal; what
        # is left of those checks is asked once for the whole hand.
        if legal.discard_phase_refusal(self, seat) is None:
            out += map(WINS.__getitem__, legal.claimable(self))
            if legal.must_win_refusal(self, seat) is None:
                out += map(DISCARDS.__getitem__, self.hands[seat])
        return tuple(out)

    # ------------------------------------------------------------ applying actions

    def apply(self, seat: Seat, action: Action) -> tuple[Event, ...]:
        """Apply a legal action and return its events, or raise ``IllegalAction`` with the
        spec's reason code, leaving the state unchanged."""
        CODEC.check(action)
        refuse(legal.turn_refusal(self, seat))
        events: list[Event] = []
        _HANDLERS[type(action)](self, seat, action, events)
        self._version += 1
        return tuple(events)

    def _draw(self, seat: int, action: Draw, events: list[Event]) -> None:
        refuse(legal.draw_refusal(self, seat))
        tile = self.wall[self.wall_pos]
        self.wall_pos += 1
        insort(self.hands[seat], tile)
        self.moved[seat] = True
        self.phase = AWAIT_DISCARD
        events.append(
            Event("draw", {"wall_count": self.wall_count()}, seat, {"tile": TOKENS[tile]})
        )

    def _take(self, seat: int, action: TakeDiscard, events: list[Event]) -> None:
        refuse(legal.take_refusal(self, seat))
        source = self.previous_active(seat)
        pile = self.piles[source]
        dry = self.wall_pos >= len(self.wall)
        forced = dry and not self._take_is_free()
        tile = pile.pop()
        insort(self.hands[seat], tile)
        self.moved[seat] = True
        self.phase = AWAIT_DISCARD
        if dry:
            self.dry_takes += 1
        self.must_win = forced
        events.append(Event("take_discard", {"tile": TOKENS[tile], "from": source}, seat))

    def _show(self, seat: int, action: ShowIndicator, events: list[Event]) -> None:
        refuse(legal.show_refusal(self, seat))
        deltas = show_deltas(seat, self.active, self.options)
        self.shown_by = seat
        self._add_scores(deltas, "show")
        events.append(
            Event(
                "show_indicator",
                {"tile": TOKENS[self.indicator ^ 1], "deltas": deltas, "scores": list(self.scores)},
                seat,
            )
        )

    def _discard(self, seat: int, action: Discard, events: list[Event]) -> None:
        tile = action.tile
        refuse(legal.discard_refusal(self, seat, tile))
        events += self._put_discard(seat, tile)

    def _put_discard(self, seat: int, tile: int) -> list[Event]:
        self.hands[seat].remove(tile)
        self.piles[seat].append(tile)
        self.moved[seat] = True
        self.turn = self.next_active(seat)
        self.phase = AWAIT_TAKE
        return [Event("discard", {"tile": TOKENS[tile]}, seat)]

    def _discard_win(self, seat: int, action: DiscardWin, events: list[Event]) -> None:
        tile = action.tile
        refuse(legal.win_refusal(self, seat, tile))
        if tile not in self._wins():
            penalty = self._penalty
            assert penalty is not None  # legal.win_refusal let a false claim through
            events += self._put_discard(seat, tile)
            deltas = [0] * self.n
            deltas[seat] = -penalty
            self._add_scores(deltas, "false_claim")
            events.append(
                Event(
                    "false_claim",
                    {"tile": TOKENS[tile], "deltas": deltas, "scores": list(self.scores)},
                    seat,
                )
            )
            return
        hand = [t for t in self.hands[seat] if t != tile]
        counts, wild = effective_faces(hand, self.okey)
        joker_discard = is_real_joker(tile, self.okey)
        colour = TOKENS[self.indicator][0]

        def points_of(form: str) -> int:
            return hand_points(form, joker_discard, colour, self.options)

        verdict = judge(counts, wild, self.rules, points_of)
        if verdict is None:
            raise EngineBug(f"okey: listed winning discard {TOKENS[tile]} fails the solver")
        self.hands[seat] = hand
        self.centre = [tile]
        points = points_of(verdict.form)
        deltas = win_deltas(seat, points, self.active, self.options)
        false_jokers = [face_name(self.okey)] * sum(1 for t in hand if t >= 104)
        jokers = (
            None
            if verdict.wild_identities is None
            else sorted(false_jokers + [identity_name(i) for i in verdict.wild_identities])
        )
        revealed: list[JSON] = [None] * self.n
        revealed[seat] = _tokens(hand)
        result: dict[str, JSON] = {
            "result": "win",
            "winner": seat,
            "final_discard": TOKENS[tile],
            "hands": revealed,
            "groups": [_tokens(g) for g in melds_of(hand, self.okey, self.rules, verdict.form)],
            "form": verdict.form,
            "jokers": jokers,
            "joker_discard": joker_discard,
            "full_run": verdict.full_run,
            "points": points,
        }
        full_run = verdict.full_run and self.options.full_run_wins_match
        events += self._hand_over(result, deltas, seat if full_run else None)

    def _end_hand(self, seat: int, action: EndHand, events: list[Event]) -> None:
        refuse(legal.end_refusal(self, seat))
        result: dict[str, JSON] = {
            "result": "no_score",
            "winner": None,
            "final_discard": None,
            "hands": [None] * self.n,
            "groups": [],
            "form": None,
            "jokers": None,
            "joker_discard": False,
            "full_run": False,
            "points": 0,
        }
        events += self._hand_over(result, [0] * self.n, None)

    def _add_scores(self, deltas: list[int], reason: str) -> None:
        for s, d in enumerate(deltas):
            if d:
                self.scores[s] += d
                self.score_lines.append((self.hand_no, s, d, reason))

    def _hand_over(
        self, result: dict[str, JSON], deltas: list[int], full_run_winner: int | None
    ) -> list[Event]:
        self._add_scores(deltas, "win")
        self.must_win = False
        eliminated: list[int] = []
        if self.options.elimination:
            for s in range(self.n):
                if self.active[s] and self.scores[s] <= 0:
                    self.active[s] = False
                    self.out_after[s] = self.hand_no
                    eliminated.append(s)
        shows = [line for line in self.score_lines if line[0] == self.hand_no and line[3] != "win"]
        totals = [0] * self.n
        for hand, s, d, _ in self.score_lines:
            if hand == self.hand_no:
                totals[s] += d
        public: dict[str, JSON] = {
            "hand": self.hand_no,
            **result,
            "indicator": TOKENS[self.indicator],
            "settlement": [{"seat": s, "delta": d, "reason": reason} for _, s, d, reason in shows]
            + [{"seat": s, "delta": d, "reason": "win"} for s, d in enumerate(deltas) if d],
            "deltas": deltas,
            "hand_deltas": list(totals),
            "scores": list(self.scores),
            "eliminated": eliminated,
        }
        self.last_result = public
        self.sheet.append({"hand": self.hand_no, "deltas": totals, "scores": list(self.scores)})
        events = [Event("hand_over", public)]
        stand = standing(
            self.scores,
            self.options,
            active=self.active,
            out_after=self.out_after,
            full_run_winner=full_run_winner,
        )
        if stand.over:
            self.outcome_value = Outcome(
                tuple(self.scores), stand.ranks, frozenset(stand.winners), stand.termination
            )
            self.phase = MATCH_OVER
            events.append(Event("match_over", self.outcome_value.to_json()))
            return events
        return events + self._deal()

    # ------------------------------------------------------------ views

    def observation(self, viewer: Seat | None) -> dict[str, JSON]:
        """Return what ``viewer`` may know now (see ``view.observation_of``)."""
        return observation_of(self, viewer)

    def snapshot(self) -> JSON:
        """Return the whole state, hidden tiles included, as canonical JSON."""
        return {
            "hand_number": self.hand_no,
            "dealer": self.dealer,
            "first_player": self.first_player,
            "turn": self.turn,
            "phase": self.phase,
            "indicator": self.indicator,
            "dice": self.dice,
            "hands": [list(h) for h in self.hands],
            "wall": self.wall[self.wall_pos :],
            "piles": [list(p) for p in self.piles],
            "set_aside": sorted(self.set_aside),
            "centre": list(self.centre),
            "scores": list(self.scores),
            "active": list(self.active),
            "out_after": list(self.out_after),
            "moved": list(self.moved),
            "in_hand": list(self.in_hand),
            "shown_by": self.shown_by,
            "dry_takes": self.dry_takes,
            "must_win": self.must_win,
            "score_lines": [list(line) for line in self.score_lines],
            "last_result": self.last_result,
            "sheet": list(self.sheet),
            "outcome": None if self.outcome_value is None else self.outcome_value.to_json(),
        }

    def check_invariants(self) -> None:
        """Raise ``EngineBug`` when a tile is not in exactly one place, a hand has the wrong
        size or the scores disagree with the score lines; return None otherwise."""
        places = [self.indicator, *self.wall[self.wall_pos :], *self.set_aside, *self.centre]
        for s in range(self.n):
            places += self.hands[s]
            places += self.piles[s]
        if sorted(places) != list(range(TILE_COUNT)):
            raise EngineBug(f"okey hand {self.hand_no}: tiles not each in exactly one place")
        over = self.outcome_value is not None
        for s in range(self.n):
            size = len(self.hands[s])
            want = 14 if self.in_hand[s] else 0
            if not over and s == self.turn and self.phase == AWAIT_DISCARD:
                want = 15
            if size != want:
                raise EngineBug(f"okey hand {self.hand_no}: seat {s} holds {size}, not {want}")
            if self.hands[s] != sorted(self.hands[s]):
                raise EngineBug(f"okey: seat {s}'s hand is not kept sorted")
        totals = [self.initial] * self.n
        for _, s, d, _ in self.score_lines:
            totals[s] += d
        if totals != self.scores:
            raise EngineBug(f"okey: scores {self.scores} disagree with the score lines {totals}")
        if over != (self.phase == MATCH_OVER) or not self.in_hand[self.turn]:
            raise EngineBug(f"okey: phase {self.phase} or turn {self.turn} inconsistent")
        if self.must_win and self.phase != AWAIT_DISCARD:
            raise EngineBug("okey: must_win outside the discard phase")

    def copy(self) -> OkeyState:
        """Return an independent copy (lists copied; immutable values shared)."""
        other = object.__new__(OkeyState)
        other.__dict__.update(self.__dict__)
        other.scores = list(self.scores)
        other.active = list(self.active)
        other.out_after = list(self.out_after)
        other.score_lines = list(self.score_lines)
        other.sheet = list(self.sheet)
        other.hands = [list(h) for h in self.hands]
        other.wall = list(self.wall)
        other.piles = [list(p) for p in self.piles]
        other.set_aside = list(self.set_aside)
        other.centre = list(self.centre)
        other.moved = list(self.moved)
        other.in_hand = list(self.in_hand)
        other.dice = None if self.dice is None else list(self.dice)
        return other

    def clone(self) -> OkeyState:
        """Return an independent copy for search (the same as ``copy``)."""
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> OkeyState:
        return self.copy()

    def shuffled_hidden(self, viewer: Seat | None, rng: random.Random) -> OkeyState:
        """Return a copy in which the tiles hidden from ``viewer`` (other hands, the wall, the
        tiles set aside) are permuted among their places."""
        other = self.copy()
        hidden_hands = [s for s in range(self.n) if s != viewer]
        pool = [t for s in hidden_hands for t in other.hands[s]]
        rest = other.wall[other.wall_pos :]
        pool += rest + other.set_aside
        rng.shuffle(pool)
        pos = 0
        for s in hidden_hands:
            size = len(other.hands[s])
            other.hands[s] = sorted(pool[pos : pos + size])
            pos += size
        other.wall = other.wall[: other.wall_pos] + pool[pos : pos + len(rest)]
        pos += len(rest)
        other.set_aside = pool[pos:]
        other._version += 1
        other._wins_cache = (-1, ())
        return other


_HANDLERS = CODEC.handlers(
    {
        Draw: OkeyState._draw,
        TakeDiscard: OkeyState._take,
        ShowIndicator: OkeyState._show,
        EndHand: OkeyState._end_hand,
        Discard: OkeyState._discard,
        DiscardWin: OkeyState._discard_win,
    }
)
"""The handler of each okey action (``apply`` runs it after the codec's and turn checks)."""
