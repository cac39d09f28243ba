"""``meldhall play GAME``: a person plays in the terminal against bots."""

from __future__ import annotations

import argparse
import json
import os
import random

from meldhall.bots.base import make_bot, strongest_bot_name
from meldhall.core.errors import IllegalAction
from meldhall.core.rng import derive, seed_from_text
from meldhall.games.registry import find_game


def main(args: argparse.Namespace) -> int:
    """Play one match: seat 0 is the person, the other seats bots; return the exit status."""
    game = find_game(args.game)
    seats = args.seats or game.default_seats
    seed = seed_from_text(args.seed) if args.seed else os.urandom(32)
    state = game.new_state(game.options(), seats, seed)
    bot_name = args.bot or strongest_bot_name(game.id)
    bots = {s: make_bot(game.id, bot_name) for s in range(1, seats)}
    rng = random.Random(derive(seed, "bots"))
    while state.outcome() is None:
        movers = sorted(state.to_act())
        if 0 in movers:
            legal = state.legal_actions(0)
            print(json.dumps(state.observation(0), indent=1, ensure_ascii=False))
            for i, action in enumerate(legal):
                print(f"  {i:3d}  {action}")
            answer = input("your move (number, or action text, q to quit)> ").strip()
            if answer == "q":
                return 0
            try:
                action = legal[int(answer)] if answer.isdigit() else game.parse_action(answer)
                events = state.apply(0, action)
            except (IllegalAction, ValueError, IndexError) as exc:
                print(f"  not possible: {exc}")
                continue
        else:
            seat = movers[0]
            legal = state.legal_actions(seat)
            bot = bots[seat]
            obs = state.observation(seat) if bot.needs_observation else {}
            action = bot.choose(obs, legal, rng)
            events = state.apply(seat, action)
            print(f"seat {seat}: {action}")
        for event in events:
            if event.kind in ("hand_over", "match_over"):
                print(json.dumps(event.for_viewer(0), ensure_ascii=False))
    outcome = state.outcome()
    print("match over:", outcome.to_json() if outcome else None)
    return 0
