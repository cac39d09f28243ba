"""Operations: /healthz, /readyz (database and Redis), /metrics in Prometheus text, the
WebSocket's allowed origins, JSON log lines naming their match, and ``meldhall db cleanup``."""

from __future__ import annotations

import json
import logging
import time
from datetime import timedelta
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meldhall.cli import main
from meldhall.server.app import create_app
from meldhall.server.logs import JsonFormatter, MatchField
from meldhall.server.settings import Settings
from meldhall.store.models import utcnow
from meldhall.store.repository import Store
from tests.server.conftest import Peer
from tests.service import servers


def _metrics(client: TestClient) -> dict[str, float]:
    text = client.get("/metrics").text
    return {
        s.name: s.value for family in text_string_to_metric_families(text) for s in family.samples
    }


def test_health_readiness_and_metrics(tmp_path: Path, toy_registered: None) -> None:
    settings = Settings(data=str(tmp_path), bot_delay=0, redis_url=servers.redis_server().url)
    with TestClient(create_app(settings=settings)) as client:
        assert client.get("/healthz").json() == {"ok": True}
        for _attempt in range(100):  # the process joins its site once Redis answered
            ready = client.get("/readyz").json()
            if ready["ok"]:
                break
            time.sleep(0.02)
        assert ready == {"ok": True, "checks": {"database": "ok", "redis": "ok", "site": "ok"}}
        before = _metrics(client)
        with client.websocket_connect("/ws") as ws:
            peer = Peer(ws)
            peer.hello()
            peer.send({"type": "start", "game": "toy"})
            state = peer.my_turn()
            peer.send(
                {"type": "act", "state_id": state["state_id"], "action": state["legal"][0]["json"]}
            )
            peer.my_turn()
            during = _metrics(client)
        assert during["meldhall_connections"] == 1 and during["meldhall_tables"] == 1
        assert during["meldhall_actions_total"] >= before.get("meldhall_actions_total", 0) + 1
        assert during["meldhall_commit_seconds_count"] > before.get(
            "meldhall_commit_seconds_count", 0
        )
        assert during["meldhall_action_seconds_count"] >= 1
        assert "meldhall_bot_decision_seconds_count" in during
        assert _metrics(client)["meldhall_connections"] == 0


def test_readiness_names_what_does_not_answer(tmp_path: Path) -> None:
    settings = Settings(data=str(tmp_path), redis_url=f"redis://127.0.0.1:{servers.free_port()}")
    with TestClient(create_app(settings=settings)) as client:
        answer = client.get("/readyz")
        assert answer.status_code == 503
        checks = answer.json()["checks"]
        assert checks["database"] == "ok" and "ConnectionError" in checks["redis"]
        assert checks["site"] == "the process has not joined its site yet (Redis)"


def test_a_page_of_another_origin_cannot_open_the_websocket(tmp_path: Path) -> None:
    settings = Settings(data=str(tmp_path), allowed_origins=("https://meld.example",))
    with TestClient(create_app(settings=settings)) as client:
        with client.websocket_connect("/ws", headers={"origin": "https://meld.example"}) as ws:
            Peer(ws).hello()
        evil = {"origin": "https://evil.example"}
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect("/ws", headers=evil) as ws,
        ):
            ws.receive_text()
        assert refused.value.code == 1008


def test_a_json_log_line_names_its_match() -> None:
    record = logging.makeLogRecord(
        {"msg": "bot %s failed", "args": (1,), "levelname": "ERROR", "name": "x", "match": "m1"}
    )
    MatchField().filter(record)
    line = json.loads(JsonFormatter().format(record))
    assert line["match"] == "m1" and line["level"] == "error" and line["message"] == "bot 1 failed"
    assert record.match_part == " match=m1"


def test_cleanup_removes_old_abandoned_matches_and_keeps_finished_ones(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store(database_url)
    info = store.session(None)
    players = [{"kind": "person", "session": info.token}, {"kind": "bot", "bot": "random"}]
    old, kept, fresh = (
        store.create_match(info.token, "remi", {}, players, "00" * 32, [""]) for _ in range(3)
    )
    store.stage_action(old.id, 0, 0, {"type": "draw_stock"})
    store.finish_match(old.id, {}, status="abandoned")
    store.finish_match(kept.id, {"scores": [1, 2]})
    store.finish_match(fresh.id, {}, status="abandoned")
    long_ago = utcnow() - timedelta(days=40)
    with store.engine.begin() as conn:
        for match in (old, kept):
            conn.exec_driver_sql(
                "UPDATE matches SET finished = %s WHERE id = %s"
                if conn.dialect.name == "postgresql"
                else "UPDATE matches SET finished = ? WHERE id = ?",
                (long_ago, match.id),
            )
    assert main(["db", "cleanup", "--older-than", "30", "--database-url", database_url]) == 0
    assert "removed 1 abandoned matches, 1 actions of those" in capsys.readouterr().out
    assert store.load_match(old.id) is None
    assert store.load_match(kept.id) is not None and store.load_match(fresh.id) is not None
    store.close()
