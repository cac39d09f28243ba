"""``meldhall bench bots``: solo tables of computers at a level, measured as a server runs them."""

from __future__ import annotations

from pathlib import Path

from meldhall.bench.bots import measure
from meldhall.store.repository import Store
from tests.server.online_client import run


def test_solo_tables_of_computers_play_and_their_cost_is_measured(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    try:
        result = run(measure("remi", "hard", 1.5, store))
    finally:
        store.close()
    assert result.actions > 20 and result.decided.get("bot", 0) > 10
    assert result.server_cpu > 0 and result.worker_cpu > 0  # the worker did the thinking
    assert len(result.walls) == result.decided["bot"] + result.decided.get("fallback", 0)
    assert result.cpu_per_action() > 0 and result.tables_per_core() > 1
