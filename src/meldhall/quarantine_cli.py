"""``meldhall quarantine list|export``: the matches set aside because their stored data could
not be replayed (tables/manager.py), for an operator to study and repair."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from meldhall.store.repository import Store


def register(sub: Any) -> None:
    """Add the ``quarantine`` command to the subcommands ``sub`` of the ``meldhall`` parser."""
    cmd = sub.add_parser("quarantine", help="list or export the matches set aside")
    cmd.add_argument("action", choices=("list", "export"))
    cmd.add_argument("match", nargs="*", help="the matches to export (default: every one)")
    cmd.add_argument("--data", default="data", help="folder of the SQLite database")
    cmd.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    """Print the quarantined matches (``list``: one a line; ``export``: JSON with each
    match's stored rows as they are); return 0, or 1 when a match named is not set aside."""
    store = Store.in_dir(args.data)
    entries = {q.match_id: q for q in store.quarantine_list()}
    if args.action == "list":
        for q in entries.values():
            print(f"{q.match_id}\t{q.at}\t{q.summary}")
        return 0
    wanted = args.match or list(entries)
    missing = [m for m in wanted if m not in entries]
    if missing:
        print(f"not quarantined: {', '.join(missing)}", file=sys.stderr)
        return 1
    out = [
        {
            "match": m,
            "at": entries[m].at,
            "action_index": entries[m].action_index,
            "problem": entries[m].problem,
            **store.raw_match(m),
        }
        for m in wanted
    ]
    json.dump(out, sys.stdout, indent=1, default=str)
    print()
    return 0
