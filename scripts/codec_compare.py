#!/usr/bin/env python3
"""Dump what the action codecs of every game do, to compare two versions of the code.

For seeded random matches of every game it records, for every action listed at every step,
its text form, JSON form and repr, and what ``parse_action`` and ``action_from_json`` make of
those forms and of many mangled variants of them (case changed, copy letters dropped, a word
dropped, added or moved, a JSON key dropped, added or given the wrong type). Each line is a
JSON record; run it under the old and the new code and diff the two files:

    PYTHONPATH=/tmp/old/src .venv/bin/python scripts/codec_compare.py > old.jsonl
    .venv/bin/python scripts/codec_compare.py > new.jsonl
    .venv/bin/python scripts/codec_compare.py --diff old.jsonl new.jsonl

Error messages are kept apart from results: ``--diff`` counts results that differ (a
behaviour change) and, separately, refusals whose message changed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from typing import Any

GAMES = ("okey", "okey-ladder", "tile-rummy", "remi", "sichuan", "okey-cards")
EXTRA_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "sichuan": [{"exchange_three": True}],
}
"""Options besides the defaults whose matches list other actions."""
EXTRA_TEXTS: dict[str, list[str]] = {
    "okey": ["win R5a", "win Jb", "end", "show", "discard J"],
    "okey-ladder": [
        "layoff R6a 3 high",
        "layoff R6a 0 set",
        "layoff R6a 2 low",
        "replace 3 R5a K7b",
        "replace 3 Ja K7b R7a",
        "give 1 Y9a Y9b",
        "meld run K13a K12a K11a",
        "meld pair R1a R1b",
        "meld set R7a R7b",
    ],
    "tile-rummy": [
        "end",
        "timeout",
        "add R4a 3",
        "add R4a 3 high",
        "take 1 add R4a 3 low",
        "take 2 rearrange 1 2 | run R1a R2a R3a | feed R4a 2 low",
        "rearrange 1 | set K5a Y5a B5a",
        "take 1 meld set K5a Y5a B5a",
    ],
    "remi": [
        "EXCHANGE m2 give 10D#1 take JK#1",
        "EXCHANGE m2 give 10D 10C take JK",
        "exchange m0 give 5h take jk#2",
        "LAY_OFF JS m0",
        "OPEN [10H 10S JK=10?] [2C 3C 4C]",
        "OPEN [10H 10S JK#2=10C] [2C 3C JK]",
        "MELD [5H JK=6H 7H]",
        "MELD [5H JK 7H] [8H 9H 10H]",
        "OPEN [5H 5H 5H]",
        "DISCARD JK",
    ],
    "sichuan": ["concealed_kong 5p", "added_kong 9s", "win", "kong", "exchange 1m#0 2m#0 3m#0"],
    "okey-cards": ["select R8", "unselect Y1", "discard B2", "quit", "draw"],
}
"""Text forms of actions that random matches seldom list."""


def outcome(parse: Any, form: Any) -> dict[str, Any]:
    """Return what ``parse`` makes of ``form``: the action's forms, or the refusal."""
    try:
        action = parse(form)
    except Exception as exc:
        return {"error": type(exc).__name__, "message": str(exc)}
    try:
        return {"ok": [type(action).__name__, repr(action), str(action), action.to_json()]}
    except Exception as exc:
        return {"ok": [type(action).__name__, repr(action)], "unwritable": type(exc).__name__}


def text_variants(text: str, rng: random.Random) -> Iterator[str]:
    """Yield mangled variants of a text form."""
    words = text.split()
    yield text
    yield text.upper()
    yield text.lower()
    yield "  " + text.replace(" ", "   ") + " "
    yield " ".join(w.rstrip("ab") if len(w) > 2 else w for w in words)
    yield " ".join(w.split("#")[0] for w in words)
    yield " ".join(words[:-1])
    yield " ".join([*words, words[-1]])
    yield " ".join([*words, "x"])
    yield " ".join(words[:1] + words[2:])
    if len(words) > 2:
        i, j = rng.sample(range(len(words)), 2)
        swapped = list(words)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        yield " ".join(swapped)
        yield " ".join([words[0], *reversed(words[1:])])
    yield ""
    yield text.replace("|", "")
    yield text.replace("[", "").replace("]", "")
    yield text.replace("m", "M")


def json_variants(data: Any, rng: random.Random) -> Iterator[Any]:
    """Yield mangled variants of a JSON form."""
    yield data
    yield json.loads(json.dumps(data))
    yield [data]
    yield {k: v for k, v in data.items() if k != "type"}
    yield {**data, "extra": 1}
    for key in data:
        if key == "type":
            continue
        yield {k: v for k, v in data.items() if k != key}
        for bad in (None, True, 7, "x", [], {}, [7], ["x"], -1, "7"):
            yield {**data, key: bad}
        value = data[key]
        if isinstance(value, list) and value:
            yield {**data, key: value[:-1]}
            yield {**data, key: [*value, value[-1]]}
            if isinstance(value[0], dict):
                for inner in value[0]:
                    yield {**data, key: [{k: v for k, v in value[0].items() if k != inner}]}
                    yield {**data, key: [{**value[0], inner: None}]}
        if isinstance(value, dict):
            for inner in value:
                yield {**data, key: {k: v for k, v in value.items() if k != inner}}
                yield {**data, key: {**value, inner: 3}}
        if isinstance(value, str):
            yield {**data, key: value.lower()}
            yield {**data, key: value.rstrip("ab").split("#")[0]}
    yield {**data, "type": str(data.get("type", "")).upper()}


def records(matches: int, steps: int) -> Iterator[dict[str, Any]]:
    """Yield one record per (game, form) probed."""
    from meldhall.games.registry import find_game

    for gid in GAMES:
        game = find_game(gid)
        seen: set[str] = set()
        for opts_raw in [{}, *EXTRA_OPTIONS.get(gid, [])]:
            options = game.options(opts_raw)
            for m in range(matches):
                rng = random.Random(f"{gid}-{m}-{json.dumps(opts_raw)}")
                state = game.new_state(options, game.default_seats, f"codec-{m}".encode())
                for _ in range(steps):
                    if state.outcome() is not None:
                        break
                    seat = min(state.to_act())
                    legal = state.legal_actions(seat)
                    for action in legal:
                        text = str(action)
                        if text in seen:
                            continue
                        seen.add(text)
                        data = action.to_json()
                        yield {"game": gid, "repr": repr(action), "text": text, "json": data}
                        for v in text_variants(text, rng):
                            yield {"game": gid, "text_in": v, **outcome(game.parse_action, v)}
                        for d in json_variants(data, rng):
                            yield {"game": gid, "json_in": d, **outcome(game.action_from_json, d)}
                    state.apply(seat, rng.choice(legal))
        for text in EXTRA_TEXTS.get(gid, []):
            rng = random.Random(text)
            result = outcome(game.parse_action, text)
            yield {"game": gid, "text_in": text, **result}
            if "ok" not in result or len(result["ok"]) < 4:
                continue
            for v in text_variants(text, rng):
                yield {"game": gid, "text_in": v, **outcome(game.parse_action, v)}
            for d in json_variants(result["ok"][3], rng):
                yield {"game": gid, "json_in": d, **outcome(game.action_from_json, d)}


def diff(old_path: str, new_path: str) -> int:
    """Print the differing records; return 1 when a result differs."""
    with open(old_path) as f_old, open(new_path) as f_new:
        old = f_old.readlines()
        new = f_new.readlines()
    if len(old) != len(new):
        print(f"record counts differ: {len(old)} and {len(new)}")
        return 1
    results = messages = 0
    for a, b in zip(old, new, strict=True):
        ra, rb = json.loads(a), json.loads(b)
        if ra == rb:
            continue
        ma, mb = ra.pop("message", None), rb.pop("message", None)
        if ra != rb:
            results += 1
            if results <= 20:
                print("RESULT", a.strip(), "\n    ->", b.strip())
        elif ma != mb:
            messages += 1
            if messages <= 10:
                print("MESSAGE", ma, "\n    ->", mb)
    print(f"{len(old)} records: {results} results differ, {messages} refusal messages differ")
    return 1 if results else 0


def main(argv: list[str] | None = None) -> int:
    """Dump the records, or compare two dumps."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"))
    args = parser.parse_args(argv)
    if args.diff:
        return diff(*args.diff)
    count = 0
    for record in records(args.matches, args.steps):
        sys.stdout.write(json.dumps(record, sort_keys=True) + "\n")
        count += 1
    print(f"{count} records", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
