"""The Sichuan match in progress: dealing, the missing suit, turns, claim and robbing windows,
wins, kongs, payments and the end of each deal (sichuan.md 4-11).

The state keeps every seat's concealed tiles three ways at once (tile ids, a count array of
the 27 kinds and the three suit keys of ``hand.py``) so that the win checks of every claim
window are dictionary look-ups. ``apply`` checks an action completely before changing
anything. Views for players (observation, snapshot, hidden reshuffle) are in ``view.py``.
"""

from __future__ import annotations

import copy
import random
from bisect import insort
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from meldhall.core.engine import JSON, Event, Outcome, ranks_by
from meldhall.core.errors import MATCH_OVER, EngineBug, IllegalAction
from meldhall.core.rng import SeededStream, derive, shuffled
from meldhall.games.sichuan import view
from meldhall.games.sichuan.actions import (
    ADDED_KONGS,
    CODEC,
    CONCEALED_KONGS,
    DECLARES,
    DISCARDS,
    KONG,
    PASS,
    PUNG,
    WIN,
    AddedKong,
    ConcealedKong,
    Declare,
    Discard,
    Exchange,
    Kong,
    Pass,
    Pung,
    SichuanAction,
    Win,
)
from meldhall.games.sichuan.fan import Meld as FanMeld
from meldhall.games.sichuan.fan import WinScore, ready_value, score_win
from meldhall.games.sichuan.hand import SHIFT, is_win_keys
from meldhall.games.sichuan.legal import rejection
from meldhall.games.sichuan.options import SichuanOptions
from meldhall.games.sichuan.pieces import KIND_OF, NEXT, SEATS, SUIT_OF, TILE_COUNT, TOKEN
from meldhall.games.sichuan.scoring import (
    POT,
    SeatAtEnd,
    Settlement,
    exhaustion_settlement,
)

OFFER_WIN = 1
OFFER_PUNG = 2
OFFER_KONG = 4

_SEAT_SETS: tuple[frozenset[int], ...] = tuple(
    frozenset(s for s in range(SEATS) if mask >> s & 1) for mask in range(1 << SEATS)
)
"""The frozenset of seats of every 4-bit mask (to_act without building sets)."""

_ANSWER_OF: dict[type, str] = {Win: "win", Pung: "pung", Kong: "kong", Pass: "pass"}

_ANSWERED: tuple[dict[str, Event], ...] = tuple(
    {a: Event("answered", {"seat": seat}, seat, {"answer": a}) for a in _ANSWER_OF.values()}
    for seat in range(SEATS)
)
"""The event of every seat's answer (immutable, so made once)."""

_CLAIM_LEGAL: tuple[tuple[SichuanAction, ...], ...] = tuple(
    (
        *(a for a, bit in ((WIN, OFFER_WIN), (KONG, OFFER_KONG), (PUNG, OFFER_PUNG)) if mask & bit),
        PASS,
    )
    for mask in range(8)
)
"""The legal answers in a window for every offer mask, in canonical order."""


@dataclass
class Meld:
    """A declared meld: letter P (exposed pung), K (exposed kong), A (added kong) or C
    (concealed kong), its kind, its tile ids and the seat that supplied the claimed tile."""

    letter: str
    kind: int
    tiles: list[int]
    source: int | None = None


@dataclass
class WinRecord:
    """One win: who, on which tile, how, who paid, and the scored interpretation."""

    seat: int
    tile: int
    by: str
    payer: int | None
    score: WinScore
    concealed: list[int] = field(default_factory=list)

    def to_json(self, melds: list[Meld]) -> dict[str, JSON]:
        """Return the public record of this win (its whole hand is revealed, 12)."""
        return {
            "seat": self.seat,
            "tile": TOKEN[self.tile],
            "by": self.by,
            "from": self.payer,
            "hand": [TOKEN[t] for t in sorted(self.concealed)],
            "melds": [view.meld_json(m, True) for m in melds],
            **self.score.to_json(),
        }


class SichuanState:
    """One Sichuan match (one deal by default; ``deals`` of them with that option)."""

    seats = SEATS

    def __init__(self, options: SichuanOptions, seed: bytes) -> None:
        self.opts = options
        self.seed = seed
        self.deal_no = 0
        self.totals = [0] * SEATS
        self.dealer = 0
        self.last_result: dict[str, JSON] | None = None
        self.result: Outcome | None = None
        self._start_deal(self._first_dealer())

    # ------------------------------------------------------------------ dealing

    def _first_dealer(self) -> int:
        if self.opts.dealer == "seat0":
            return 0
        return SeededStream(derive(self.seed, "hand", 0), "dealer").randbelow(SEATS)

    def _start_deal(self, dealer: int) -> list[Event]:
        """Deal a new hand (sichuan.md 4) and return the private deal events."""
        deal_seed = derive(self.seed, "hand", self.deal_no)
        explicit = self.opts.wall_ids()
        self.wall: list[int] = explicit or shuffled(deal_seed, "wall", list(range(TILE_COUNT)))
        self.dealer = dealer
        self.hands: list[list[int]] = [[] for _ in range(SEATS)]
        pos = 0
        order = [(dealer + i) % SEATS for i in range(SEATS)]
        for size in (4, 4, 4, 1):
            for seat in order:
                self.hands[seat].extend(self.wall[pos : pos + size])
                pos += size
        self.hands[dealer].append(self.wall[pos])
        for hand in self.hands:
            hand.sort()
        self.drawn = self.wall[pos]
        self.front = pos + 1
        self.back = TILE_COUNT
        self.counts: list[list[int]] = []
        self.keys: list[list[int]] = []
        for seat in range(SEATS):
            self._recount(seat)
        self.miss = [-1] * SEATS
        self.miss_held = [0] * SEATS
        self.chosen_miss = [-1] * SEATS
        self.chosen_exchange: list[tuple[int, int, int] | None] = [None] * SEATS
        self.melds: list[list[Meld]] = [[] for _ in range(SEATS)]
        self.discards: list[list[int]] = [[] for _ in range(SEATS)]
        self.discard_log: list[tuple[int, int, str | None]] = []
        self.active = [True] * SEATS
        self.winners: list[WinRecord] = []
        self.win_slot: list[int | None] = [None] * SEATS
        self.scores = [0] * SEATS
        self.pot = 0
        self.transfers: list[tuple[int, int, int, str]] = []
        self.kong_log: list[list[int]] = []
        self.kongs_made = 0
        self.settlement: Settlement | None = None
        self.lock = [False] * SEATS
        self.draws_done = [0] * SEATS
        self.discards_made = [0] * SEATS
        self.clean = True
        self.first_win: tuple[list[int], int | None] | None = None
        self.turn = dealer
        self.entered = "deal"
        self.window_tile = -1
        self.window_from = -1
        self.after_kong = False
        self.wall_was_empty = False
        self.postponed = False
        self.responders: list[int] = []
        self.answers: dict[int, str] = {}
        self.offers: dict[int, int] = {}
        self.waiting = 0
        self.claimed = False
        self.phase = "exchange" if self.opts.exchange_three else "declare"
        self._to_act = frozenset(range(SEATS))
        self._legal: dict[int, tuple[SichuanAction, ...]] = {}
        return [
            Event(
                "deal",
                {"hand_number": self.deal_no + 1, "dealer": dealer, "wall": self.wall_count},
                seat,
                {"hand": [TOKEN[t] for t in self.hands[seat]]},
            )
            for seat in range(SEATS)
        ]

    def _recount(self, seat: int) -> None:
        counts = [0] * 27
        for t in self.hands[seat]:
            counts[KIND_OF[t]] += 1
        b = bytes(counts)
        keys = [int.from_bytes(b[i : i + 9], "little") for i in (0, 9, 18)]
        if seat < len(self.counts):
            self.counts[seat] = counts
            self.keys[seat] = keys
        else:
            self.counts.append(counts)
            self.keys.append(keys)

    @property
    def wall_count(self) -> int:
        """Return the number of tiles left in the wall."""
        return self.back - self.front

    # ------------------------------------------------------------------ tile moves

    def _take(self, seat: int, tile: int) -> None:
        kind = KIND_OF[tile]
        insort(self.hands[seat], tile)
        self.counts[seat][kind] += 1
        self.keys[seat][kind // 9] += SHIFT[kind]
        if kind // 9 == self.miss[seat]:
            self.miss_held[seat] += 1

    def _give(self, seat: int, tile: int) -> None:
        kind = KIND_OF[tile]
        self.hands[seat].remove(tile)
        self.counts[seat][kind] -= 1
        self.keys[seat][kind // 9] -= SHIFT[kind]
        if kind // 9 == self.miss[seat]:
            self.miss_held[seat] -= 1

    def _tiles_of_kind(self, seat: int, kind: int) -> list[int]:
        return [t for t in self.hands[seat] if KIND_OF[t] == kind]

    # ------------------------------------------------------------------ protocol

    def to_act(self) -> frozenset[int]:
        """Return the seats that may act now."""
        return self._to_act

    def outcome(self) -> Outcome | None:
        """Return the outcome once the match is over."""
        return self.result

    def legal_actions(self, seat: int) -> tuple[SichuanAction, ...]:
        """Return every legal action of ``seat`` now, in canonical order."""
        cached = self._legal.get(seat)
        if cached is not None:
            return cached
        if seat not in self._to_act:
            out: tuple[SichuanAction, ...] = ()
        elif self.phase == "claim" or self.phase == "rob":
            out = _CLAIM_LEGAL[self.offers[seat]]
        elif self.phase == "act":
            out = self._act_legal(seat)
        elif self.phase == "declare":
            out = DECLARES
        else:
            out = self._exchange_legal(seat)
        self._legal[seat] = out
        return out

    def _may_kong(self, seat: int) -> bool:
        if self.wall_count < 1:
            return False
        if self.entered == "pung" and not self.opts.kong_after_pung:
            return False
        return self.miss_held[seat] == 0 or self.opts.missing_suit_strictness == "relaxed"

    def _self_win(self, seat: int) -> bool:
        if self.entered == "pung" or self.miss_held[seat]:
            return False
        k = self.keys[seat]
        return is_win_keys(k[0], k[1], k[2], len(self.melds[seat]))

    def _kong_kinds(self, seat: int) -> tuple[list[int], list[int]]:
        counts = self.counts[seat]
        miss = self.miss[seat]
        concealed = (
            [k for k in range(27) if counts[k] == 4 and k // 9 != miss] if 4 in counts else []
        )
        added = [m.kind for m in self.melds[seat] if m.letter == "P" and counts[m.kind]]
        return concealed, sorted(added)

    def _act_legal(self, seat: int) -> tuple[SichuanAction, ...]:
        out: list[SichuanAction] = []
        if self._self_win(seat):
            out.append(WIN)
        if self._may_kong(seat):
            concealed, added = self._kong_kinds(seat)
            out += [CONCEALED_KONGS[k] for k in concealed]
            out += [ADDED_KONGS[k] for k in added]
        hand = self.hands[seat]
        if self.miss_held[seat]:
            miss = self.miss[seat]
            out += [DISCARDS[t] for t in hand if SUIT_OF[t] == miss]
        elif out:
            out += map(DISCARDS.__getitem__, hand)
        else:
            return tuple(map(DISCARDS.__getitem__, hand))
        return tuple(out)

    def _exchange_legal(self, seat: int) -> tuple[SichuanAction, ...]:
        hand = self.hands[seat]
        out: list[SichuanAction] = []
        for suit in range(3):
            tiles = [t for t in hand if SUIT_OF[t] == suit]
            out += [Exchange(c) for c in combinations(tiles, 3)]
        return tuple(out)

    # ------------------------------------------------------------------ apply

    def apply(self, seat: int, action: Any) -> tuple[Event, ...]:
        """Apply a legal action of ``seat`` and return its events, or raise
        ``IllegalAction`` (leaving the state unchanged). The very object of an action the
        state listed for ``seat`` since the last apply is legal by construction (listed
        only while the seat may act and the match goes on) and is applied without the
        checks (tests/games/sichuan: identical to the checked path over seeded play)."""
        listed = self._legal.get(seat)
        if listed is not None:
            for candidate in listed:
                if candidate is action:
                    return self._run(seat, action)
        return self.checked_apply(seat, action)

    def checked_apply(self, seat: int, action: Any) -> tuple[Event, ...]:
        """Return ``apply(seat, action)`` after checking ``action`` in full (the path of
        any action not listed by this state: parsed, built by hand, or from a replay)."""
        CODEC.check(action)
        if self.result is not None:
            raise IllegalAction(MATCH_OVER, f"the match is over; seat {seat} cannot {action}")
        if seat not in self._to_act:
            raise IllegalAction("NOT_YOUR_TURN", f"seat {seat} may not act now ({self.phase})")
        legal = self._legal.get(seat) or self.legal_actions(seat)
        for candidate in legal:
            if candidate is action:
                break
        else:
            if action not in legal:
                raise IllegalAction(*rejection(self, seat, action))
        return self._run(seat, action)

    def _run(self, seat: int, action: SichuanAction) -> tuple[Event, ...]:
        """Run the handler of a legal ``action`` of ``seat``; return its events."""
        events: list[Event] = []
        _HANDLERS[type(action)](self, seat, action, events)
        self._legal = {}
        return tuple(events)

    # ------------------------------------------------------------------ handlers (apply)

    def _on_win(self, seat: int, action: Win, events: list[Event]) -> None:
        if self.phase == "act":
            self._self_draw_win(seat, events)
        else:
            self._answer(seat, action, events)

    def _on_discard(self, seat: int, action: Discard, events: list[Event]) -> None:
        self._discard(seat, action.tile, events)

    def _on_concealed_kong(self, seat: int, action: ConcealedKong, events: list[Event]) -> None:
        self._concealed_kong(seat, action.kind, events)

    def _on_added_kong(self, seat: int, action: AddedKong, events: list[Event]) -> None:
        self._added_kong(seat, action.kind, events)

    # ------------------------------------------------------------------ exchange, dingque

    def _exchange(self, seat: int, action: Any, events: list[Event]) -> None:
        self.chosen_exchange[seat] = action.tiles
        events.append(
            Event("exchange_chosen", {"seat": seat}, seat, {"tiles": action.to_json()["tiles"]})
        )
        waiting = frozenset(s for s in range(SEATS) if self.chosen_exchange[s] is None)
        self._to_act = waiting
        if waiting:
            return
        step = SeededStream(derive(self.seed, "hand", self.deal_no), "exchange").randbelow(3) + 1
        passed = [list(t or ()) for t in self.chosen_exchange]
        dealer_kept = self.drawn not in passed[self.dealer]
        for s in range(SEATS):
            for t in passed[s]:
                self._give(s, t)
        for s in range(SEATS):
            to = (s + step) % SEATS
            for t in passed[s]:
                self._take(to, t)
        if not dealer_kept:
            self.drawn = max(passed[(self.dealer - step) % SEATS])
        events.append(Event("exchanged", {"direction": step}))
        for s in range(SEATS):
            got = passed[(s - step) % SEATS]
            events.append(Event("received", {"seat": s}, s, {"tiles": [TOKEN[t] for t in got]}))
        self.phase = "declare"
        self._to_act = frozenset(range(SEATS))

    def _declare(self, seat: int, action: Any, events: list[Event]) -> None:
        self.chosen_miss[seat] = action.suit
        events.append(Event("declared", {"seat": seat}, seat, {"suit": "mps"[action.suit]}))
        waiting = frozenset(s for s in range(SEATS) if self.chosen_miss[s] < 0)
        self._to_act = waiting
        if waiting:
            return
        self.miss = list(self.chosen_miss)
        for s in range(SEATS):
            base = 9 * self.miss[s]
            self.miss_held[s] = sum(self.counts[s][base : base + 9])
        events.append(Event("missing_suits", {"suits": ["mps"[m] for m in self.miss]}))
        self._begin_turn(self.dealer, "deal")

    # ------------------------------------------------------------------ turns

    def _begin_turn(self, seat: int, entered: str) -> None:
        self.phase = "act"
        self.turn = seat
        self.entered = entered
        self._to_act = _SEAT_SETS[1 << seat]

    def _next_active(self, seat: int) -> int:
        for s in NEXT[seat]:
            if self.active[s]:
                return s
        raise EngineBug(f"no active seat after {seat}")  # pragma: no cover

    def _draw(self, seat: int, events: list[Event]) -> None:
        """DRAW(seat): the front tile, or the end of the deal when the wall is empty."""
        if self.front >= self.back:
            self._end_deal("exhaustion", events)
            return
        tile = self.wall[self.front]
        self.front += 1
        self._take(seat, tile)
        self.drawn = tile
        self.lock[seat] = False
        self.draws_done[seat] += 1
        events.append(
            Event(
                "draw", {"seat": seat, "wall": self.back - self.front}, seat, {"tile": TOKEN[tile]}
            )
        )
        self._begin_turn(seat, "draw")

    def _replace(self, seat: int, events: list[Event]) -> None:
        """REPLACE(seat): the back tile after a kong."""
        self.back -= 1
        tile = self.wall[self.back]
        self._take(seat, tile)
        self.drawn = tile
        self.lock[seat] = False
        events.append(
            Event(
                "replacement",
                {"seat": seat, "wall": self.back - self.front},
                seat,
                {"tile": TOKEN[tile]},
            )
        )
        self._begin_turn(seat, "replacement")

    def _discard(self, seat: int, tile: int, events: list[Event]) -> None:
        self._give(seat, tile)
        self.discards[seat].append(tile)
        self.discard_log.append((seat, tile, None))
        self.discards_made[seat] += 1
        self.after_kong = self.entered == "replacement"
        self.wall_was_empty = self.front >= self.back
        self.drawn = -1
        events.append(Event("discard", {"seat": seat, "tile": TOKEN[tile]}))
        self._open_window("claim", seat, tile)

    def _open_window(self, phase: str, source: int, tile: int) -> None:
        self.phase = phase
        self.window_from = source
        self.window_tile = tile
        active = self.active
        responders = [s for s in NEXT[source] if active[s]]
        self.responders = responders
        self.offers = self.offer_masks(responders)
        self.answers = {}
        self.claimed = False
        waiting = 0
        for s in responders:
            waiting |= 1 << s
        self.waiting = waiting
        self._to_act = _SEAT_SETS[waiting]

    def offer_mask(self, seat: int) -> int:
        """Return what ``seat`` may answer in the open window (OFFER_* bits; PASS always)."""
        return self.offer_masks((seat,))[seat]

    def offer_masks(self, seats: Iterable[int]) -> dict[int, int]:
        """Return what each of ``seats`` may answer in the open window, by seat in the order
        given (OFFER_* bits; PASS always)."""
        kind = KIND_OF[self.window_tile]
        suit = kind // 9
        shift = SHIFT[kind]
        claim = self.phase == "claim"
        relaxed = self.opts.missing_suit_strictness == "relaxed"
        kong = self.front < self.back
        miss_held, lock, keys, melds = self.miss_held, self.lock, self.keys, self.melds
        masks: dict[int, int] = {}
        for seat in seats:
            mask = 0
            held = miss_held[seat]
            if not held and not lock[seat]:
                k = keys[seat]
                if suit == 0:
                    ok = is_win_keys(k[0] + shift, k[1], k[2], len(melds[seat]))
                elif suit == 1:
                    ok = is_win_keys(k[0], k[1] + shift, k[2], len(melds[seat]))
                else:
                    ok = is_win_keys(k[0], k[1], k[2] + shift, len(melds[seat]))
                if ok:
                    mask = OFFER_WIN
            if claim and (not held or (relaxed and suit != self.miss[seat])):
                n = self.counts[seat][kind]
                if n >= 2:
                    mask |= OFFER_PUNG
                    if n == 3 and kong:
                        mask |= OFFER_KONG
            masks[seat] = mask
        return masks

    def _answer(self, seat: int, action: Any, events: list[Event]) -> None:
        answer = _ANSWER_OF[type(action)]
        self.answers[seat] = answer
        if answer != "pass":
            self.claimed = True
        if answer != "win" and self.opts.passed_win_lock and self.offers[seat] & OFFER_WIN:
            self.lock[seat] = True
        events.append(_ANSWERED[seat][answer])
        waiting = self.waiting & ~(1 << seat)
        self.waiting = waiting
        self._to_act = _SEAT_SETS[waiting]
        if waiting:
            return
        if not self.claimed:
            if self.phase == "rob":
                self._complete_added_kong(events)
            else:
                self._draw(self._next_active(self.window_from), events)
            return
        winners = [s for s in self.responders if self.answers[s] == "win"]
        if winners and not self.opts.multiple_winners:
            winners = winners[:1]
        if self.phase == "rob":
            if winners:
                self._resolve_wins("robbed", self.window_from, winners, events)
            else:
                self._complete_added_kong(events)
            return
        if winners:
            self._resolve_wins("discard", self.window_from, winners, events)
            return
        claimer = next((s for s in self.responders if self.answers[s] in ("pung", "kong")), None)
        if claimer is None:
            self._draw(self._next_active(self.window_from), events)
        elif self.answers[claimer] == "kong":
            self._claim_meld(claimer, "K", events)
        else:
            self._claim_meld(claimer, "P", events)

    # ------------------------------------------------------------------ melds and kongs

    def _claim_meld(self, seat: int, letter: str, events: list[Event]) -> None:
        tile = self.window_tile
        source = self.window_from
        kind = KIND_OF[tile]
        self.discards[source].pop()
        self.discard_log[-1] = (source, tile, "kong" if letter == "K" else "pung")
        own = self._tiles_of_kind(seat, kind)[: 3 if letter == "K" else 2]
        for t in own:
            self._give(seat, t)
        self.melds[seat].append(Meld(letter, kind, sorted([*own, tile]), source))
        self.clean = False
        events.append(
            Event(
                "kong" if letter == "K" else "pung",
                {
                    "seat": seat,
                    "type": letter,
                    "kind": TOKEN[tile][:2],
                    "from": source,
                    "tile": TOKEN[tile],
                },
            )
        )
        if letter == "K":
            self._pay_kong(seat, [(source, 2)], "K", events)
            self._replace(seat, events)
        else:
            self.drawn = -1
            self._begin_turn(seat, "pung")

    def _concealed_kong(self, seat: int, kind: int, events: list[Event]) -> None:
        tiles = self._tiles_of_kind(seat, kind)
        for t in tiles:
            self._give(seat, t)
        self.melds[seat].append(Meld("C", kind, tiles))
        self.clean = False
        events.append(
            Event("kong", {"seat": seat, "type": "C"}, seat, {"kind": TOKEN[tiles[0]][:2]})
        )
        payers = [(s, 2) for s in NEXT[seat] if self.active[s]]
        self._pay_kong(seat, payers, "C", events)
        self._replace(seat, events)

    def _added_kong(self, seat: int, kind: int, events: list[Event]) -> None:
        tile = self._tiles_of_kind(seat, kind)[0]
        self.postponed = tile != self.drawn
        self._give(seat, tile)
        self.clean = False
        events.append(
            Event("added_kong", {"seat": seat, "kind": TOKEN[tile][:2], "tile": TOKEN[tile]})
        )
        self._open_window("rob", seat, tile)

    def _complete_added_kong(self, events: list[Event]) -> None:
        seat = self.window_from
        tile = self.window_tile
        meld = next(m for m in self.melds[seat] if m.letter == "P" and m.kind == KIND_OF[tile])
        meld.letter = "A"
        meld.tiles = sorted([*meld.tiles, tile])
        self.window_tile = -1
        events.append(
            Event("kong", {"seat": seat, "type": "A", "kind": TOKEN[tile][:2], "tile": TOKEN[tile]})
        )
        pays = self.opts.postponed_kong_pays or not self.postponed
        payers = [(s, 1) for s in NEXT[seat] if self.active[s]] if pays else []
        self._pay_kong(seat, payers, "A", events)
        self._replace(seat, events)

    def _pay_kong(
        self, seat: int, payers: list[tuple[int, int]], letter: str, events: list[Event]
    ) -> None:
        self.kongs_made += 1
        for payer, amount in payers:
            self.kong_log.append([payer, seat, amount, self.kongs_made, 0])
            self._transfer(payer, seat, amount, "kong", events)

    def _transfer(
        self, payer: int, receiver: int, amount: int, reason: str, events: list[Event]
    ) -> None:
        self.scores[payer] -= amount
        if receiver == POT:
            self.pot += amount
        else:
            self.scores[receiver] += amount
        self.transfers.append((payer, receiver, amount, reason))
        events.append(
            Event("payment", {"from": payer, "to": receiver, "amount": amount, "reason": reason})
        )

    # ------------------------------------------------------------------ wins

    def _fan_melds(self, seat: int) -> list[FanMeld]:
        return [(m.letter, m.kind) for m in self.melds[seat]]

    def _variant_fans(self, seat: int, by: str, payer: int | None) -> dict[str, int]:
        extra: dict[str, int] = {}
        opts = self.opts
        if by in ("self_draw", "replacement") and opts.self_draw_bonus == "fan":
            extra["self_draw"] = 1
        if (
            by == "discard"
            and self.after_kong
            and opts.gang_shang_pao in ("fan", "fan_and_transfer")
        ):
            extra["gang_shang_pao"] = 1
        if opts.heavenly_earthly_hand and self.clean and opts.cap is not None:
            if seat == self.dealer and self.entered == "deal" and by == "self_draw":
                extra["heavenly_hand"] = opts.cap
            elif seat != self.dealer and (
                (by == "self_draw" and self.draws_done[seat] == 1 and not self.discards_made[seat])
                or (
                    by == "discard"
                    and payer == self.dealer
                    and self.discards_made[self.dealer] == 1
                    and not any(self.draws_done)
                )
            ):
                extra["earthly_hand"] = opts.cap
        return extra

    def _score(
        self, seat: int, counts: list[int], by: str, payer: int | None, last: bool
    ) -> WinScore:
        events: list[str] = []
        if by == "replacement":
            events.append("kong_replacement")
        if by == "robbed":
            events.append("robbed_kong")
        if last:
            events.append("last_tile")
        extra = self._variant_fans(seat, by, payer)
        score = score_win(
            counts, self._fan_melds(seat), events=events, extra=extra, cap=self.opts.cap
        )
        if score is None:
            raise EngineBug(f"seat {seat} was allowed a win that does not score")
        return score

    def _self_draw_win(self, seat: int, events: list[Event]) -> None:
        by = "replacement" if self.entered == "replacement" else "self_draw"
        tile = self.drawn
        last = self.entered != "deal" and self.front >= self.back
        score = self._score(seat, self.counts[seat], by, None, last)
        self._give(seat, tile)
        self.win_slot[seat] = tile
        record = WinRecord(seat, tile, by, None, score, list(self.hands[seat]))
        self._record_wins([record], None, events)

    def _resolve_wins(self, by: str, payer: int, winners: list[int], events: list[Event]) -> None:
        tile = self.window_tile
        kind = KIND_OF[tile]
        last = by == "discard" and self.wall_was_empty
        records = []
        for s in winners:
            counts = list(self.counts[s])
            counts[kind] += 1
            score = self._score(s, counts, by, payer, last)
            records.append(WinRecord(s, tile, by, payer, score, list(self.hands[s])))
        if by == "discard":
            self.discards[payer].pop()
            self.discard_log[-1] = (payer, tile, "win")
        self.win_slot[winners[0]] = tile
        self.window_tile = -1
        self._record_wins(records, payer, events)

    def self_draw_bonus(self, by: str) -> int:
        """Return the points each payer adds to a win made ``by`` this way (D16: one point
        on a self-draw with ``self_draw_bonus = "point"``, else 0)."""
        point = self.opts.self_draw_bonus == "point"
        return 1 if point and by in ("self_draw", "replacement") else 0

    def _record_wins(
        self, records: list[WinRecord], payer: int | None, events: list[Event]
    ) -> None:
        bonus = 1 if self.opts.self_draw_bonus == "point" else 0
        if self.first_win is None:
            self.first_win = ([r.seat for r in records], payer)
        for r in records:
            events.append(Event("win", r.to_json(self.melds[r.seat])))
            if r.by in ("self_draw", "replacement"):
                for s in NEXT[r.seat]:
                    if self.active[s]:
                        self._transfer(s, r.seat, r.score.points + bonus, "win", events)
            else:
                assert payer is not None
                self._transfer(payer, r.seat, r.score.points, "win", events)
        if (
            records[0].by == "discard"
            and self.after_kong
            and self.opts.gang_shang_pao
            in (
                "transfer",
                "fan_and_transfer",
            )
        ):
            self._hu_jiao_zhuan_yi(records[0].seat, events)
        for r in records:
            self.active[r.seat] = False
        self.winners += records
        if len(self.winners) >= 3:
            self._end_deal("three_winners", events)
        else:
            self._draw(self._next_active(records[-1].seat), events)

    def _hu_jiao_zhuan_yi(self, winner: int, events: list[Event]) -> None:
        """Move the discarder's latest kong income to the (first) winner."""
        source = self.window_from
        mine = [e for e in self.kong_log if e[1] == source]
        if not mine:
            return
        latest = mine[-1][3]
        amount = 0
        for entry in mine:
            if entry[3] == latest and not entry[4]:
                entry[4] = 1
                amount += entry[2]
        if amount:
            self._transfer(source, winner, amount, "gang_shang_pao", events)

    # ------------------------------------------------------------------ end of a deal

    def _end_deal(self, termination: str, events: list[Event]) -> None:
        self.phase = "over"
        self._to_act = frozenset()
        if termination == "exhaustion" or self.opts.settle_on_three_winners:
            self._settle(events)
        for s in range(SEATS):
            self.totals[s] += self.scores[s]
        payload = view.hand_over(self, termination)
        self.last_result = payload
        events.append(Event("hand_over", payload))
        if self.deal_no + 1 < self.opts.deals:
            dealer = self._next_dealer()
            self.deal_no += 1
            events += self._start_deal(dealer)
            return
        scores = tuple(self.totals)
        ranks = ranks_by(scores, higher_is_better=True)
        ending = termination if self.opts.deals == 1 else "deals_played"
        self.result = Outcome(
            scores, ranks, frozenset(s for s in range(SEATS) if ranks[s] == 1), ending
        )
        events.append(Event("match_over", self.result.to_json()))

    def _next_dealer(self) -> int:
        if self.opts.dealer == "seat0":
            return 0
        if self.opts.dealer == "random":
            return SeededStream(derive(self.seed, "hand", self.deal_no + 1), "dealer").randbelow(
                SEATS
            )
        if self.first_win is None:
            return self.dealer
        seats, payer = self.first_win
        return seats[0] if len(seats) == 1 or payer is None else payer

    def seat_at_end(self, seat: int) -> SeatAtEnd:
        """Return the exhaustion status of a seat: winner, pig, ready (with value) or not."""
        if not self.active[seat]:
            return SeatAtEnd(won=True)
        if self.miss_held[seat]:
            return SeatAtEnd(won=False, pig=True)
        allowed = (
            view.unseen_allowed(self, seat)
            if self.opts.ready_check_visible_tiles == "exclude"
            else None
        )
        kinds, value = ready_value(
            self.counts[seat],
            self._fan_melds(seat),
            self.miss[seat],
            cap=self.opts.cap,
            allowed=allowed,
        )
        return SeatAtEnd(won=False, ready=bool(kinds), value=value)

    def _settle(self, events: list[Event]) -> None:
        statuses = [self.seat_at_end(s) for s in range(SEATS)]
        payments = [(e[0], e[1], e[2]) for e in self.kong_log if not e[4]]
        settlement = exhaustion_settlement(
            statuses,
            payments,
            pig_penalty=self.opts.pig_penalty(),
            pig_payees=self.opts.flower_pig_payees,
            refund_recipients=self.opts.refund_recipients,
        )
        self.settlement = settlement
        for reason, lines in (
            ("refund", settlement.refund),
            ("pig", settlement.pig),
            ("ready", settlement.ready),
        ):
            for payer, receiver, amount in lines:
                self._transfer(payer, receiver, amount, reason, events)

    # ------------------------------------------------------------------ views

    def observation(self, viewer: int | None) -> dict[str, JSON]:
        """Return what ``viewer`` may know (sichuan.md 12); see ``view.observation``."""
        return view.observation(self, viewer)

    def snapshot(self) -> JSON:
        """Return the whole state, hidden tiles included, as canonical JSON."""
        return view.snapshot(self)

    def check_invariants(self) -> None:
        """Raise ``EngineBug`` when a tile is not in exactly one place or a count is off."""
        view.check_invariants(self)

    def shuffled_hidden(self, viewer: int | None, rng: random.Random) -> SichuanState:
        """Return a copy with the tiles hidden from ``viewer`` permuted among their places."""
        return view.shuffled_hidden(self, viewer, rng)

    def clone(self) -> SichuanState:
        """Return an independent copy for search: lists, dicts and melds copied; options,
        win records, the settlement and the last result (never changed once made) shared."""
        other = copy.copy(self)
        other.wall = list(self.wall)
        other.hands = [list(h) for h in self.hands]
        other.counts = [list(c) for c in self.counts]
        other.keys = [list(k) for k in self.keys]
        other.melds = [
            [Meld(m.letter, m.kind, list(m.tiles), m.source) for m in ms] for ms in self.melds
        ]
        other.discards = [list(d) for d in self.discards]
        for name in (
            "miss",
            "miss_held",
            "chosen_miss",
            "chosen_exchange",
            "discard_log",
            "active",
            "winners",
            "win_slot",
            "scores",
            "transfers",
            "lock",
            "draws_done",
            "discards_made",
            "responders",
            "totals",
        ):
            setattr(other, name, list(getattr(self, name)))
        other.kong_log = [list(k) for k in self.kong_log]
        other.answers = dict(self.answers)
        other.offers = dict(self.offers)
        other._legal = dict(self._legal)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> SichuanState:
        """Return an independent copy (actions and options are immutable and shared)."""
        other = copy.copy(self)
        for name in (
            "wall",
            "hands",
            "counts",
            "keys",
            "miss",
            "miss_held",
            "chosen_miss",
            "chosen_exchange",
            "discards",
            "discard_log",
            "active",
            "winners",
            "win_slot",
            "scores",
            "transfers",
            "kong_log",
            "lock",
            "draws_done",
            "discards_made",
            "responders",
            "answers",
            "offers",
            "totals",
            "melds",
            "last_result",
            "first_win",
            "settlement",
        ):
            setattr(other, name, copy.deepcopy(getattr(self, name), memo))
        other._legal = {}
        return other


_HANDLERS = CODEC.handlers(
    {
        Exchange: SichuanState._exchange,
        Declare: SichuanState._declare,
        Discard: SichuanState._on_discard,
        ConcealedKong: SichuanState._on_concealed_kong,
        AddedKong: SichuanState._on_added_kong,
        Win: SichuanState._on_win,
        Pung: SichuanState._answer,
        Kong: SichuanState._answer,
        Pass: SichuanState._answer,
    }
)
"""The handler of each sichuan action (``apply`` runs it once the action is listed)."""
