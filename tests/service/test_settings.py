"""Settings: each one a ``meldhall serve`` flag and a MELDHALL_* variable (the flag wins), bad
values named, and every one in the table of docs/operations.md."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from meldhall.cli import build_parser
from meldhall.server.settings import SettingError, Settings, from_args, table_rows

DOC = Path(__file__).resolve().parents[2] / "docs" / "operations.md"


def test_a_flag_wins_over_the_variable_which_wins_over_the_default() -> None:
    env = {"MELDHALL_PORT": "9001", "MELDHALL_BOT_DELAY": "0.1", "MELDHALL_LOG_FORMAT": "JSON"}
    args = build_parser().parse_args(["serve", "--port", "9002", "--allowed-origins", "https://a/"])
    settings = from_args(args, env)
    assert settings.port == 9002 and settings.bot_delay == 0.1 and settings.log_format == "json"
    assert settings.allowed_origins == ("https://a",)
    assert settings.host == Settings().host
    assert Settings.from_env(settings.to_env()) == settings


@pytest.mark.parametrize(
    ("env", "problem"),
    [
        ({"MELDHALL_PORT": "eighty"}, "--port / MELDHALL_PORT: 'eighty'"),
        ({"MELDHALL_LOG_LEVEL": "loud"}, "not one of debug, info"),
        ({"MELDHALL_RATE": "-1"}, "must not be negative"),
        ({"MELDHALL_WORKERS": "2"}, "give --redis-url too"),
    ],
)
def test_a_bad_setting_is_named(env: dict[str, str], problem: str) -> None:
    with pytest.raises(SettingError, match=problem):
        Settings.from_env(env)


def test_the_default_database_is_sqlite_under_the_data_folder(tmp_path: Path) -> None:
    url = Settings(data=str(tmp_path)).resolved_database_url()
    assert url == f"sqlite:///{tmp_path}/meldhall.sqlite3"
    given = "postgresql+psycopg://u@h/db"
    assert Settings(database_url=given).resolved_database_url() == given


def test_every_setting_is_in_the_table_of_the_operations_guide() -> None:
    text = DOC.read_text()
    rows = table_rows()
    assert len(rows) == len(dataclasses.fields(Settings))
    for flag, env, default, meaning in rows:
        assert f"| `{flag}` | `{env}` | `{default}` | {meaning} |" in text, flag
