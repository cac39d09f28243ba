"""``meldhall db``: the schema revision of a database (``current``), its upgrade to this
version's schema (``upgrade``) and the removal of old rows (``cleanup``)."""

from __future__ import annotations

import argparse
import sys

from sqlalchemy.engine import Engine

from meldhall.store.engine import make_engine, shown_url


def add_commands(parser: argparse.ArgumentParser) -> None:
    """Add the ``db`` subcommands to the ``meldhall db`` parser."""
    sub = parser.add_subparsers(dest="db_command", required=True)
    for name, help in (
        ("upgrade", "bring the database to this meldhall's schema"),
        ("current", "print the database's schema revision"),
        ("cleanup", "remove old abandoned matches, closed lobby tables and idle sessions"),
    ):
        cmd = sub.add_parser(name, help=help)
        cmd.add_argument("--database-url", default=None, help="[MELDHALL_DATABASE_URL]")
        cmd.add_argument("--data", default=None, help="SQLite folder [MELDHALL_DATA]")
        if name == "cleanup":
            cmd.add_argument("--older-than", type=float, required=True, metavar="DAYS")


def main(args: argparse.Namespace) -> int:
    """Run one ``meldhall db`` subcommand; return the exit status."""
    from pathlib import Path

    from sqlalchemy.exc import OperationalError

    from meldhall.server.settings import Settings

    settings = Settings.from_env(database_url=args.database_url, data=args.data)
    if not settings.database_url:
        Path(settings.data).mkdir(parents=True, exist_ok=True)
    engine = make_engine(settings.resolved_database_url())
    try:
        return _run(args, engine)
    except OperationalError as exc:
        print(f"meldhall db: {shown_url(engine)} does not answer: {exc.orig}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()


def _run(args: argparse.Namespace, engine: Engine) -> int:
    from meldhall.store.cleanup import cleanup
    from meldhall.store.schema import head, revision_of, upgrade

    url = shown_url(engine)
    if args.db_command == "upgrade":
        before, after = upgrade(engine)
        print(f"{url}: revision {before or '(empty)'} -> {after}")
    elif args.db_command == "current":
        with engine.connect() as conn:
            current = revision_of(conn)
        newest = head()
        state = "up to date" if current == newest else f"this meldhall needs {newest}"
        print(f"{url}: revision {current or '(empty)'} ({state})")
    else:
        removed = cleanup(engine, args.older_than)
        print(f"{url}: removed " + ", ".join(f"{n} {what}" for what, n in removed.items()))
    return 0
