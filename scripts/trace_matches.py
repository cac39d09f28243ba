#!/usr/bin/env python3
"""Trace seeded random matches step by step, or compare two traces.

A trace is JSON lines, one per step of every match: the seats to act and, for each, every
listed action (its text and JSON forms, and whether both parse back to it), the observation of
every seat and of a spectator, the action taken and its events as every viewer sees them. A
refactor that keeps behaviour produces an identical trace from the same arguments.

    trace_matches.py --matches 200 --out /tmp/after.jsonl.gz
    trace_matches.py --compare /tmp/before.jsonl.gz /tmp/after.jsonl.gz --ignore-keys clock

Only the public engine API is used (``find_game``, ``options``, ``new_state``,
``legal_actions``, ``apply``, ``observation``, ``parse_action``, ``action_from_json``,
``Event.for_viewer``), so the same script runs against an older checkout:
``PYTHONPATH=/old/src trace_matches.py ...``. The registry is imported from
``--registry-import`` when given, else from the first of ``meldhall.games.registry`` and
``meldhall.core.registry`` that exists.

Matches: match ``i`` of a game has the seat count ``counts[i % len(counts)]`` for the counts
2..4 the game allows, is dealt from seed ``sha256("trace/<seed>/<game>/<i>")``, and every step
a random generator seeded with the same path picks a seat among those to act, a verb of its
listed actions (``--avoid`` verbs only when alone) and one action of that verb; a match stops
after ``--max-steps`` steps.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any

REGISTRY_MODULES = ("meldhall.games.registry", "meldhall.core.registry")
SPECTATOR = "spectator"


def load_registry(name: str | None) -> tuple[Callable[[str], Any], tuple[str, ...]]:
    """Return ``find_game`` and the game ids of the registry module ``name`` (or the first
    importable one of ``REGISTRY_MODULES``)."""
    for module_name in (name,) if name else REGISTRY_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        return module.find_game, tuple(module.game_ids())
    raise SystemExit(f"no registry module among {name or ', '.join(REGISTRY_MODULES)}")


def open_text(path: str, mode: str) -> IO[str]:
    """Return the file at ``path`` opened as text; ``.gz`` paths are gzip streams."""
    if path == "-":
        return sys.stdout if "w" in mode else sys.stdin
    if path.endswith(".gz"):
        return gzip.open(path, mode + "t", encoding="utf-8")  # type: ignore[return-value]
    return open(path, mode, encoding="utf-8")


def drop_keys(value: Any, keys: frozenset[str]) -> Any:
    """Return ``value`` without the dict keys in ``keys``, at every depth."""
    if not keys:
        return value
    if isinstance(value, dict):
        return {k: drop_keys(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, list):
        return [drop_keys(v, keys) for v in value]
    return value


def listed(game: Any, action: Any) -> dict[str, Any]:
    """Return the text and JSON forms of a listed action and whether each parses back."""
    text, data = str(action), action.to_json()
    return {
        "text": text,
        "json": data,
        "text_parses": _parses(lambda: game.parse_action(text), action),
        "json_parses": _parses(lambda: game.action_from_json(data), action),
    }


def _parses(parse: Callable[[], Any], action: Any) -> bool | str:
    """Return True when ``parse()`` gives ``action`` back, else what went wrong."""
    try:
        back = parse()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return True if back == action else f"parsed as {back!r}"


def seat_counts(game: Any) -> list[int]:
    """Return the seat counts 2..4 that ``game`` allows."""
    counts = [n for n in range(2, 5) if game.min_seats <= n <= game.max_seats]
    return counts or [game.default_seats]


def pick(actions: tuple[Any, ...], rng: random.Random, avoid: frozenset[str]) -> Any:
    """Return a random action: first a random verb (the first word of the text form; verbs in
    ``avoid`` only when nothing else is listed), then a random action of that verb."""
    by_verb: dict[str, list[Any]] = {}
    for action in actions:
        by_verb.setdefault(str(action).split(" ", 1)[0], []).append(action)
    verbs = sorted(v for v in by_verb if v not in avoid) or sorted(by_verb)
    return rng.choice(by_verb[rng.choice(verbs)])


def trace_match(
    game: Any,
    index: int,
    seed_text: str,
    max_steps: int,
    ignore: frozenset[str],
    avoid: frozenset[str],
) -> Iterator[dict[str, Any]]:
    """Yield the trace lines of match ``index`` of ``game``: one per step, then its end."""
    counts = seat_counts(game)
    seats = counts[index % len(counts)]
    path = f"trace/{seed_text}/{game.id}/{index}"
    seed = hashlib.sha256(path.encode()).digest()
    rng = random.Random(path)
    state = game.new_state(game.options(), seats, seed)
    viewers: list[int | None] = [*range(seats), None]
    head = {"game": game.id, "match": index, "seats": seats}
    step = 0
    while state.outcome() is None and step < max_steps:
        movers = sorted(state.to_act())
        legal = {seat: state.legal_actions(seat) for seat in movers}
        line: dict[str, Any] = {
            **head,
            "step": step,
            "to_act": movers,
            "legal": {str(s): [listed(game, a) for a in acts] for s, acts in legal.items()},
            "obs": {_name(v): drop_keys(state.observation(v), ignore) for v in viewers},
        }
        choices = [s for s in movers if legal[s]]
        if not choices:
            line["stuck"] = True
            yield line
            return
        seat = rng.choice(choices)
        action = pick(legal[seat], rng, avoid)
        events = state.apply(seat, action)
        line["seat"] = seat
        line["action"] = {"text": str(action), "json": action.to_json()}
        line["events"] = {
            _name(v): [drop_keys(e.for_viewer(v), ignore) for e in events] for v in viewers
        }
        yield line
        step += 1
    outcome = state.outcome()
    yield {
        **head,
        "step": step,
        "end": True,
        "outcome": outcome.to_json() if outcome is not None else None,
        "obs": {_name(v): drop_keys(state.observation(v), ignore) for v in viewers},
    }


def _name(viewer: int | None) -> str:
    return SPECTATOR if viewer is None else str(viewer)


def write_trace(args: argparse.Namespace) -> None:
    """Write the trace of ``args.matches`` matches of every chosen game to ``args.out``."""
    find_game, ids = load_registry(args.registry_import)
    chosen = args.games.split(",") if args.games else list(ids)
    ignore = frozenset(filter(None, args.ignore_keys.split(",")))
    avoid = frozenset(filter(None, args.avoid.split(",")))
    with open_text(args.out, "w") as out:
        for game_id in chosen:
            game = find_game(game_id)
            steps = 0
            for index in range(args.matches):
                for line in trace_match(game, index, args.seed, args.max_steps, ignore, avoid):
                    out.write(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n")
                    steps += 1
            print(f"{game_id}: {args.matches} matches, {steps} lines", file=sys.stderr)


def differences(a: Any, b: Any, where: str = "") -> Iterator[str]:
    """Yield the paths at which ``a`` and ``b`` differ, with both values (shortened)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                left, right = a.get(key, "<absent>"), b.get(key, "<absent>")
                yield f"{where}.{key}: {_short(left)} != {_short(right)}"
            else:
                yield from differences(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from differences(x, y, f"{where}[{i}]")
    elif a != b:
        yield f"{where}: {_short(a)} != {_short(b)}"


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def compare(args: argparse.Namespace) -> int:
    """Print how many steps of two traces agree and the first differences; return 1 when
    they differ, else 0."""
    ignore = frozenset(filter(None, args.ignore_keys.split(",")))
    path_a, path_b = args.compare
    compared = 0
    per_game: dict[str, list[int]] = {}
    first: dict[tuple[str, int], list[str]] = {}
    with open_text(path_a, "r") as fa, open_text(path_b, "r") as fb:
        for raw_a, raw_b in zip(_matches(fa), _matches(fb), strict=False):
            key_a, lines_a = raw_a
            key_b, lines_b = raw_b
            if key_a != key_b:
                print(f"traces out of step: {key_a} against {key_b}")
                return 1
            counts = per_game.setdefault(key_a[0], [0, 0, 0])
            counts[0] += 1
            same = 0
            for line_a, line_b in zip(lines_a, lines_b, strict=False):
                a, b = drop_keys(line_a, ignore), drop_keys(line_b, ignore)
                if a != b:
                    first[key_a] = [f"step {a.get('step')}{d}" for d in differences(a, b)]
                    break
                same += 1
            else:
                if len(lines_a) != len(lines_b):
                    first[key_a] = [f"lengths {len(lines_a)} != {len(lines_b)}"]
            compared += same
            counts[1] += same
            if key_a in first:
                counts[2] += 1
    print(f"steps compared identical: {compared}")
    for game_id, (matches, same, differ) in per_game.items():
        print(f"{game_id}: {matches} matches, {same} identical steps, {differ} matches differ")
    for (game_id, index), diffs in list(first.items())[: args.max_diffs]:
        print(f"-- {game_id} match {index}: first difference")
        for d in diffs[:8]:
            print(f"   {d}")
    return 1 if first else 0


def _matches(lines: IO[str]) -> Iterator[tuple[tuple[str, int], list[dict[str, Any]]]]:
    """Yield ((game, match), lines) for every match of a trace file, in file order."""
    key: tuple[str, int] | None = None
    group: list[dict[str, Any]] = []
    for raw in _whole_lines(lines):
        line = json.loads(raw)
        line_key = (line["game"], line["match"])
        if key is not None and line_key != key:
            yield key, group
            group = []
        key = line_key
        group.append(line)
    if key is not None:
        yield key, group


def _whole_lines(lines: IO[str]) -> Iterator[str]:
    """Yield the complete lines of a trace; a trace still being written (a truncated gzip
    stream, a last line without its end) ends before the broken part."""
    try:
        for raw in lines:
            if not raw.endswith("\n"):
                return
            yield raw
    except EOFError:
        return


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="", help="comma-separated game ids (default all)")
    parser.add_argument("--matches", type=int, default=200, help="matches per game")
    parser.add_argument("--seed", default="meldhall", help="seed text of every match")
    parser.add_argument("--max-steps", type=int, default=600, help="steps per match at most")
    parser.add_argument("--avoid", default="quit", help="verbs a bot picks only when alone")
    parser.add_argument("--out", default="-", help="trace file (.gz: compressed)")
    parser.add_argument("--ignore-keys", default="", help="observation keys to drop, a,b")
    parser.add_argument("--registry-import", default=None, help="registry module to import")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two traces")
    parser.add_argument("--max-diffs", type=int, default=20, help="matches to show")
    args = parser.parse_args(argv)
    if args.compare:
        return compare(args)
    write_trace(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
