#!/usr/bin/env python3
"""Which test fails when a game ignores one of its options? (docs/validation.md, "Options")

For every option of every game this runs the game's rule tests and the rule vectors with the
option forced to its default (every options object is built with the default value of that
one field, before its own checks and derived values) and prints a Markdown row per option
with the first test that fails. "none" means no test notices when the option is ignored.

    .venv/bin/python scripts/option_audit.py [--games okey,remi] [--options a,b]

Each game runs in one process (pytest is run once per option, modules imported once), so
the table costs about one test run per option. Tests that parse options (names starting
with "test_bad", or holding one of ``PARSE_TESTS``) are left out: they read option values
back rather than play them.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

import pytest

TEST_FILES = {
    "okey": "tests/games/test_okey_[dhms]*.py",
    "okey-ladder": "tests/games/test_okey_ladder_*.py",
    "tile-rummy": "tests/games/test_tile_rummy_*.py",
    "remi": "tests/games/test_remi_*.py",
    "sichuan": "tests/games/test_sichuan_*.py",
    "okey-cards": "tests/games/test_okey_cards*.py",
}
"""The rule tests of each game (the okey pattern leaves the other okey-family games out)."""

PARSE_TESTS = (
    "options_preset",
    "default_options",
    "option_spellings",
    "options_accept",
    "options_name",
)
"""Name fragments of the tests that parse options (a forced default trivially fails them)."""

FORCED: dict[str, Any] = {}
"""The field forced now and its default (empty: nothing forced)."""


def patch(cls: Any) -> None:
    """Make ``cls`` build every instance with ``FORCED``'s field at its default."""
    original = cls.__init__
    names = [f.name for f in dataclasses.fields(cls) if f.init]

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        name = FORCED.get("name")
        if name in names:
            position = names.index(name)
            if len(args) > position:
                args = (*args[:position], FORCED["default"], *args[position + 1 :])
            else:
                kwargs[name] = FORCED["default"]
        original(self, *args, **kwargs)

    cls.__init__ = init


def default_of(field: Any) -> Any:
    """Return the default value of a dataclass field."""
    if field.default is dataclasses.MISSING:
        return field.default_factory()
    return field.default


class FirstFailure:
    """A pytest plugin that remembers the first failing test."""

    def __init__(self) -> None:
        self.failed: str | None = None

    def pytest_runtest_logreport(self, report: Any) -> None:
        """Record the node id of the first failed test phase."""
        if report.failed and self.failed is None:
            self.failed = report.nodeid


def main(argv: list[str] | None = None) -> int:
    """Print the option table; return 1 when an option has no failing test."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(TEST_FILES))
    parser.add_argument("--options", default="", help="only these option names, a,b")
    args = parser.parse_args(argv)
    from meldhall.games.registry import find_game

    only = set(filter(None, args.options.split(",")))
    untested = 0
    print("| game | option | first test that fails when the option is ignored |", file=sys.stderr)
    print("| --- | --- | --- |", file=sys.stderr, flush=True)
    for game_id in args.games.split(","):
        options = find_game(game_id).options()
        patch(type(options))
        files = sorted(str(p) for p in Path().glob(TEST_FILES[game_id]))
        for field in dataclasses.fields(options):
            if only and field.name not in only:
                continue
            FORCED.update(name=field.name, default=default_of(field))
            plugin = FirstFailure()
            leave_out = " and ".join(f"not {name}" for name in ("test_bad", *PARSE_TESTS))
            pick = ["-k", leave_out, "--no-header", "-o", "addopts="]
            pytest.main([*files, "tests/test_vectors.py", "-x", "-q", *pick], plugins=[plugin])
            FORCED.clear()
            untested += plugin.failed is None
            found = f"`{plugin.failed}`" if plugin.failed else "none"
            print(f"| {game_id} | `{field.name}` | {found} |", file=sys.stderr, flush=True)
    return 1 if untested else 0


if __name__ == "__main__":
    sys.exit(main())
