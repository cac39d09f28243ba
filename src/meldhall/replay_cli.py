"""``meldhall replay FILE`` and ``meldhall verify FILE``: a match file move by move, and its
check (the first action whose replay differs is named)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from meldhall.core.engine import JSON, Event, Game
from meldhall.core.errors import MeldhallError, ParseError
from meldhall.core.matchfile import MatchFile, StepRefused, check_file, from_json, steps
from meldhall.games.registry import find_game, game_ids


def read_match_file(path: str) -> tuple[MatchFile, Game]:
    """Return the match file at ``path`` and its game, or raise ``ParseError`` naming it."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ParseError(f"{path}: not a readable JSON file ({exc})") from exc
    return from_json(data, {gid: find_game(gid) for gid in game_ids()})


def event_notes(events: Iterable[Event], action_kind: str) -> list[str]:
    """Return the lines worth printing under an action: the events other than the action's
    own, and at a hand's end its settlement lines and totals."""
    notes: list[str] = []
    for event in events:
        if event.kind == "hand_over":
            notes.extend(_hand_over_lines(event.public))
        elif event.kind not in (action_kind, "draw", "deal"):
            notes.append(f"{event.kind}{_short(event.public)}")
    return notes


def _hand_over_lines(public: Mapping[str, JSON]) -> list[str]:
    lines = [str(line) for line in public.get("lines") or [] if isinstance(line, str)]
    totals = public.get("totals", public.get("scores"))
    return ["hand over", *lines, *([f"totals: {totals}"] if totals is not None else [])]


def _short(public: Mapping[str, JSON]) -> str:
    text = json.dumps(dict(public), ensure_ascii=False, separators=(",", ":"))
    return "" if text == "{}" else " " + (text if len(text) <= 100 else text[:97] + "...")


def print_replay(file: MatchFile, game: Game, only_hand: int | None) -> int:
    """Print every action (of one hand, when given) with its hand, index, seat and notes;
    return the exit status (1 when an action does not replay)."""
    print(f"{game.title}: {file.seats} seats, {len(file.log)} actions")
    for seat, player in enumerate(file.players):
        print(f"  seat {seat}: {_player_name(player)}")
    hand = 1
    try:
        for step in steps(file, game):
            if only_hand is None or only_hand == hand:
                kind = str(step.action.to_json().get("type", ""))
                print(f"h{hand} {step.index:>5}  seat {step.seat}  {step.action}")
                for note in event_notes(step.events, kind):
                    print(f"{'':>15}{note}")
            hand += sum(1 for e in step.events if e.kind == "hand_over")
    except StepRefused as exc:
        print(f"stopped: {exc}")
        return 1
    if file.outcome is not None:
        print(f"outcome: {json.dumps(file.outcome)}")
    return 0


def _player_name(player: JSON) -> str:
    if isinstance(player, Mapping):
        if player.get("kind") == "bot":
            return f"computer ({player.get('bot', '?')})"
        return str(player.get("name") or "person")
    return str(player)


def replay_main(args: argparse.Namespace) -> int:
    """Run ``meldhall replay``; return the exit status."""
    file, game = read_match_file(args.file)
    return print_replay(file, game, args.hand)


def verify_main(args: argparse.Namespace) -> int:
    """Run ``meldhall verify``: print ``ok`` with the outcome, or the first problem; return
    0 when the file verifies, 1 otherwise."""
    try:
        file, game = read_match_file(args.file)
    except MeldhallError as exc:
        print(f"not verified: {exc}")
        return 1
    result = check_file(file, game)
    if result.ok:
        print(f"verified: {len(file.log)} actions replay to {json.dumps(result.outcome)}")
        return 0
    print(f"not verified: {result.problem}")
    return 1


def review_main(args: argparse.Namespace) -> int:
    """Run ``meldhall review``: the seat's decisions the strong bot disputes, the biggest
    losses, and the closing summary line; with ``--json`` the whole review as JSON."""
    from meldhall.progress import progress_bar
    from meldhall.review import review_match

    file, game = read_match_file(args.file)
    if not 0 <= args.seat < file.seats:
        raise ParseError(f"--seat {args.seat}: the match has seats 0-{file.seats - 1}")
    with progress_bar(args.quiet) as progress:
        task = progress.add_task(f"review seat {args.seat}", total=len(file.log))
        review = review_match(
            file,
            game,
            args.seat,
            on_progress=lambda done, total: progress.update(task, completed=done),
        )
    for d in review.decisions:
        if not d.agrees:
            loss = "not estimated" if d.loss is None else f"{d.loss:+.2f} for {d.best}"
            print(f"h{d.hand} {d.step:>5}  played {d.played}, {review.bot} plays {d.best}: {loss}")
    if args.json:
        Path(args.json).write_text(json.dumps(review.to_json(), indent=1), encoding="utf-8")
    print(review.summary_line())
    return 0
