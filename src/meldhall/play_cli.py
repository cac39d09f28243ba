"""``meldhall play GAME``: a person plays in the terminal against bots.

Each decision shows a compact table (``meldhall.terminal.board``), the last moves and a
numbered menu of the legal moves; the person answers with a number or a move's text form,
``?`` for the rules summary, ``q`` to quit. The end of every hand shows its settlement.
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections import deque
from collections.abc import Sequence
from importlib import resources

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from meldhall.bots.base import make_bot, strongest_bot_name
from meldhall.core.engine import Action, Event, Game, State
from meldhall.core.errors import IllegalAction, MeldhallError
from meldhall.core.rng import derive, seed_from_text
from meldhall.terminal.board import board, seat_name
from meldhall.terminal.pieces import find_game
from meldhall.terminal.settlement import settlement

PROMPT = "your move (number or text, ? rules, q quit)> "
LAST_MOVES = 6


def rules_summary(game_id: str) -> list[str]:
    """Return the lines of a game's short rules (the lead and the "on the table" sections
    of its English rules page), or one line saying there is none."""
    path = resources.files("meldhall") / "web" / "rules" / f"{game_id}.en.json"
    if not path.is_file():
        return [f"no rules summary for {game_id}"]
    page = json.loads(path.read_text(encoding="utf-8"))
    lines = [page.get("lead", "")]
    for section in page.get("table", []):
        lines.append(section.get("title", ""))
        lines.extend(f"  - {item}" for item in section.get("items", []))
    return lines


def menu(legal: Sequence[Action]) -> Columns:
    """Return the legal moves numbered from 0, laid out in columns."""
    return Columns(
        [Text(f"{i:>3}  {action}") for i, action in enumerate(legal)],
        column_first=True,
        padding=(0, 3),
    )


def parse_answer(game: Game, legal: Sequence[Action], answer: str) -> Action:
    """Return the legal action a menu number or a text form names; raise ``ValueError``
    (``IllegalAction`` and ``ParseError`` are ones) naming the problem otherwise."""
    if answer.isdigit():
        if int(answer) >= len(legal):
            raise ValueError(f"no move numbered {answer}; the menu has 0 to {len(legal) - 1}")
        return legal[int(answer)]
    action = game.parse_action(answer)
    if action not in legal:
        raise ValueError(f"{answer!r} is not one of the legal moves now")
    return action


class Session:
    """One match in the terminal: the person's seat, the bots, the last moves."""

    def __init__(self, game: Game, state: State, seat: int, bot: str, seed: bytes):
        self.game = game
        self.state = state
        self.seat = seat
        self.bots = {s: make_bot(game.id, bot) for s in range(state.seats) if s != seat}
        self.rng = random.Random(derive(seed, "bots"))
        self.console = Console(highlight=False)
        self.moves: deque[str] = deque(maxlen=LAST_MOVES)

    def run(self) -> int:
        """Play until the match ends or the person quits; return the exit status."""
        while self.state.outcome() is None:
            if self.seat in self.state.to_act():
                if not self._person():
                    return 0
            else:
                self._bot(min(self.state.to_act()))
        outcome = self.state.outcome()
        if outcome is not None:
            ranks = " · ".join(
                f"{seat_name(s, self.seat)} {score} (rank {rank})"
                for s, (score, rank) in enumerate(zip(outcome.scores, outcome.ranks, strict=True))
            )
            self.console.print(Text(f"match over ({outcome.termination}): {ranks}", style="bold"))
        return 0

    def _show(self, legal: Sequence[Action]) -> None:
        console = self.console
        console.rule(style="dim")
        for line in board(self.game.id, self.state.observation(self.seat)):
            console.print(line)
        if self.moves:
            console.print(Text("last moves: ", style="dim").append(" · ".join(self.moves)))
        console.print(menu(legal))

    def _person(self) -> bool:
        legal = self.state.legal_actions(self.seat)
        self._show(legal)
        while True:
            try:
                answer = self.console.input(PROMPT).strip()
            except EOFError:
                return False
            if answer == "q":
                return False
            if answer == "?":
                for line in rules_summary(self.game.id):
                    self.console.print(line)
                continue
            if not answer:
                continue
            try:
                action = parse_answer(self.game, legal, answer)
                events = self.state.apply(self.seat, action)
            except (IllegalAction, ValueError) as exc:
                self.console.print(Text(f"not possible: {exc}", style="yellow"))
                continue
            self._record(self.seat, action, events)
            return True

    def _bot(self, seat: int) -> None:
        bot = self.bots[seat]
        legal = self.state.legal_actions(seat)
        obs = self.state.observation(seat) if bot.needs_observation else {}
        action = bot.choose(obs, legal, self.rng)
        self._record(seat, action, self.state.apply(seat, action))

    def _record(self, seat: int, action: Action, events: Sequence[Event]) -> None:
        self.moves.append(f"{seat_name(seat, self.seat)}: {action}")
        for event in events:
            if event.kind == "hand_over":
                self.console.rule(style="dim")
                for line in settlement(self.game.id, event.for_viewer(self.seat), self.seat):
                    self.console.print(line)
                self.moves.clear()


def main(args: argparse.Namespace) -> int:
    """Play one match: seat ``--seat`` is the person, the other seats bots of strength
    ``--bots`` (default: the strongest the game has); return the exit status."""
    game = find_game(args.game)
    seats = args.seats or game.default_seats
    seat = getattr(args, "seat", 0)
    if not 0 <= seat < seats:
        raise MeldhallError(f"--seat must be 0 to {seats - 1} for {seats} seats, not {seat}")
    seed = seed_from_text(args.seed) if args.seed else os.urandom(32)
    state = game.new_state(game.options(), seats, seed)
    return Session(game, state, seat, args.bot or strongest_bot_name(game.id), seed).run()
