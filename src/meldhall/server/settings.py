"""The server's settings: one frozen dataclass, each field a ``meldhall serve`` flag and a
``MELDHALL_*`` environment variable (a flag wins over the variable, the variable over the
default). docs/operations.md lists them in one table; a new setting is one field here with its
``help`` and, where the text form needs it, a ``parse`` function.

>>> Settings.from_env({"MELDHALL_PORT": "9000", "MELDHALL_ALLOWED_ORIGINS": "https://a.b"}).port
9000
>>> Settings().resolved_database_url().startswith("sqlite:///")
True
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meldhall.core.errors import MeldhallError

LOG_LEVELS = ("debug", "info", "warning", "error")
LOG_FORMATS = ("text", "json")


class SettingError(MeldhallError):
    """A setting whose value cannot be used; the message names the setting and the value."""


def _origins(text: str) -> tuple[str, ...]:
    return tuple(o.strip().rstrip("/") for o in text.split(",") if o.strip())


def _choice(choices: tuple[str, ...]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        value = text.strip().lower()
        if value not in choices:
            raise ValueError(f"not one of {', '.join(choices)}")
        return value

    return parse


def _positive(kind: Callable[[str], Any]) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        value = kind(text)
        if value < 0:
            raise ValueError("must not be negative")
        return value

    return parse


def _setting(default: Any, help: str, parse: Callable[[str], Any] | None = None) -> Any:
    return field(default=default, metadata={"help": help, "parse": parse})


@dataclass(frozen=True)
class Settings:
    """Everything an operator sets about one ``meldhall serve`` process."""

    data: str = _setting("data", "folder of the SQLite database (when no database URL is set)")
    database_url: str = _setting(
        "",
        "SQLAlchemy URL of the database, e.g. postgresql+psycopg://u:p@host/db (default: "
        "SQLite under the data folder)",
    )
    redis_url: str = _setting(
        "", "Redis URL of the site that several processes share (default: none: one process)"
    )
    host: str = _setting("127.0.0.1", "address to listen on")
    port: int = _setting(8000, "TCP port to listen on", _positive(int))
    workers: int = _setting(
        1, "server processes on this host (above 1 needs --redis-url)", _positive(int)
    )
    log_level: str = _setting(
        "info", "least level logged: " + ", ".join(LOG_LEVELS), _choice(LOG_LEVELS)
    )
    log_format: str = _setting(
        "text", "log lines as text or as one JSON object each", _choice(LOG_FORMATS)
    )
    allowed_origins: tuple[str, ...] = _setting(
        (), "comma-separated origins whose pages may open the WebSocket (default: any)", _origins
    )
    keep_finished: float = _setting(
        600.0, "seconds a finished match stays loaded", _positive(float)
    )
    rate: float = _setting(
        100.0, "messages a connection may send a second on average", _positive(float)
    )
    burst: float = _setting(200.0, "messages a connection may send at once", _positive(float))
    bot_delay: float = _setting(0.8, "seconds before each computer move", _positive(float))
    bot_workers: int = _setting(
        0, "processes the computers think in (0: one per core)", _positive(int)
    )
    chat: str = _setting("on", "table chat on or off", _choice(("on", "off")))
    lease_seconds: float = _setting(
        5.0,
        "with --redis-url: seconds a table's lease lives unrenewed (a dead process's tables "
        "are taken over after about this long)",
        _positive(float),
    )
    spectator_delay: int = _setting(
        0, "actions a replay of a match in play stays behind it", _positive(int)
    )

    def resolved_database_url(self) -> str:
        """Return the database URL to use: ``database_url``, or the SQLite file of ``data``."""
        from meldhall.store.repository import DB_NAME

        if self.database_url:
            return self.database_url
        return f"sqlite:///{(Path(self.data) / DB_NAME).resolve()}"

    def check(self) -> Settings:
        """Return these settings, or raise ``SettingError`` for a combination that cannot
        work."""
        if self.workers > 1 and not self.redis_url:
            raise SettingError(
                f"--workers {self.workers}: several processes share their lobby and tables "
                "through Redis; give --redis-url too (or --workers 1)"
            )
        if self.lease_seconds < 0.5:
            raise SettingError(
                f"--lease-seconds {self.lease_seconds:g}: at least 0.5 (a lease is renewed "
                "five times in its life, over the network)"
            )
        if self.redis_url and self.resolved_database_url() in ("sqlite://", "sqlite:///:memory:"):
            raise SettingError(
                "--redis-url: the processes of a site share one database; an in-memory "
                "SQLite database cannot be shared (give --database-url)"
            )
        return self

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **given: Any) -> Settings:
        """Return the settings of the ``MELDHALL_*`` variables of ``environ`` (default: the
        process's), the keyword arguments ``given`` taking precedence."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if given.get(f.name) is not None:
                values[f.name] = given[f.name]
            elif env_name(f.name) in env:
                values[f.name] = _parse(f, env[env_name(f.name)])
        return cls(**values).check()

    def to_env(self) -> dict[str, str]:
        """Return the ``MELDHALL_*`` variables that give these settings back (how ``meldhall
        serve`` hands them to its worker processes)."""
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[env_name(f.name)] = ",".join(value) if isinstance(value, tuple) else str(value)
        return out


def env_name(name: str) -> str:
    """Return the environment variable of a setting (``bot_delay``: ``MELDHALL_BOT_DELAY``)."""
    return "MELDHALL_" + name.upper()


def flag_name(name: str) -> str:
    """Return the ``meldhall serve`` flag of a setting (``bot_delay``: ``--bot-delay``)."""
    return "--" + name.replace("_", "-")


def _parse(f: dataclasses.Field[Any], text: str) -> Any:
    parse = f.metadata["parse"] or str
    try:
        return parse(text)
    except ValueError as exc:
        raise SettingError(f"{flag_name(f.name)} / {env_name(f.name)}: {text!r}: {exc}") from None


def _flag_type(f: dataclasses.Field[Any]) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            return _parse(f, text)
        except SettingError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add one flag per setting to ``parser`` (each defaults to None: not given)."""
    for f in dataclasses.fields(Settings):
        parser.add_argument(
            flag_name(f.name),
            dest=f.name,
            default=None,
            type=_flag_type(f),
            help=f"{f.metadata['help']} [{env_name(f.name)}]",
        )


def from_args(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> Settings:
    """Return the settings of parsed flags (see ``add_arguments``) over the environment."""
    given = {f.name: getattr(args, f.name, None) for f in dataclasses.fields(Settings)}
    return Settings.from_env(environ, **given)


def table_rows() -> list[tuple[str, str, str, str]]:
    """Return the rows of the settings table in docs/operations.md: flag, variable, default,
    meaning."""
    rows = []
    for f in dataclasses.fields(Settings):
        default = f.default
        shown = ",".join(default) if isinstance(default, tuple) else str(default)
        rows.append((flag_name(f.name), env_name(f.name), shown or "(none)", f.metadata["help"]))
    return rows
