"""Fixtures of the service tests: the databases under test (SQLite and the suite's throwaway
PostgreSQL, tests/service/servers.py) and the services stopped at the session's end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.conftest import DATABASES, database_url, new_database, toy_registered
from tests.service import servers

__all__ = ["DATABASES", "database_url", "new_database", "toy_registered"]


@pytest.fixture(scope="session", autouse=True)
def _services_stopped_too() -> Iterator[None]:
    yield
    servers.stop_all()
