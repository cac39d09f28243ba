"""``meldhall chat ban|unban|bans|reports|handled``: an operator's moderation of the table chat
and of accounts (docs/people.md). A banned name (and every name that looks like it) can neither
chat nor claim or sign in to an account; a banned address can do neither either. A running
server sees a ban at once (it asks the database)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from meldhall.server.names import name_key
from meldhall.store.chat import ChatStore
from meldhall.store.repository import Store


def register(sub: Any) -> None:
    """Add the ``chat`` command to the subcommands ``sub`` of the ``meldhall`` parser."""
    cmd = sub.add_parser("chat", help="moderation: ban names and addresses, read reports")
    cmd.add_argument("action", choices=("ban", "unban", "bans", "reports", "handled"))
    target = cmd.add_mutually_exclusive_group()
    target.add_argument("--name", default=None, help="a name to (un)ban (look-alikes too)")
    target.add_argument("--address", default=None, help="a client address to (un)ban")
    target.add_argument("--report", type=int, default=None, help="the report handled")
    cmd.add_argument("--reason", default="", help="why (kept with the ban)")
    cmd.add_argument("--all", action="store_true", help="reports: the handled ones too")
    cmd.add_argument("--database-url", default=None, help="[MELDHALL_DATABASE_URL]")
    cmd.add_argument("--data", default=None, help="SQLite folder [MELDHALL_DATA]")
    cmd.set_defaults(func=main)


def _target(args: argparse.Namespace) -> tuple[str, str] | None:
    if args.name is not None and args.name.strip():
        return "name", name_key(args.name.strip())
    if args.address is not None and args.address.strip():
        return "address", args.address.strip()
    return None


def main(args: argparse.Namespace) -> int:
    """Run one moderation action; return 0, 1 when there was nothing to do (a ban that
    exists, an unban or a report that does not), 2 for a missing target."""
    from meldhall.server.settings import Settings

    settings = Settings.from_env(database_url=args.database_url, data=args.data)
    store = Store(settings.resolved_database_url())
    try:
        return _run(args, ChatStore(store))
    finally:
        store.close()


def _run(args: argparse.Namespace, chat: ChatStore) -> int:
    if args.action == "bans":
        for ban in chat.bans():
            print(f"{ban['kind']}\t{ban['value']}\t{ban['at']}\t{ban['reason']}")
        return 0
    if args.action == "reports":
        json.dump(chat.reports(include_handled=args.all), sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    if args.action == "handled":
        if args.report is None:
            print("meldhall chat handled: give --report ID", file=sys.stderr)
            return 2
        if not chat.handle(args.report):
            print(f"no report {args.report}", file=sys.stderr)
            return 1
        print(f"report {args.report} handled")
        return 0
    target = _target(args)
    if target is None:
        print(
            f"meldhall chat {args.action}: give --name NAME or --address ADDRESS", file=sys.stderr
        )
        return 2
    kind, value = target
    if args.action == "ban":
        done = chat.ban(kind, value, args.reason)
        print(f"banned {kind} {value}" if done else f"{kind} {value} was banned already")
    else:
        done = chat.unban(kind, value)
        print(f"unbanned {kind} {value}" if done else f"{kind} {value} was not banned")
    return 0 if done else 1
