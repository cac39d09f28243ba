"""Pages and the JSON API: game list, records (only completed matches), publishing under an
escaped name, and the verification of a finished match from its log."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.testclient import TestClient

from meldhall.server.app import WEB, clean_name
from meldhall.server.static import bundled
from tests.server.conftest import Peer


def _finish_a_match(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        token = peer.hello()["token"]
        peer.send({"type": "start", "game": "toy", "contribution": "seed text"})
        match_id = peer.until("match")["match"]
        while True:
            message = peer.recv()
            if message["type"] == "match_over":
                return token, match_id, message
            if message["type"] == "state" and message["legal"]:
                action = message["legal"][0]["json"]
                peer.send({"type": "act", "state_id": message["state_id"], "action": action})
            elif message["type"] == "state" and message["paused"]:
                peer.send({"type": "continue"})


def test_pages_answer(client: TestClient) -> None:
    for path in ("/", "/play/toy", "/rules/toy", "/records", "/settings", "/verify/x"):
        assert client.get(path).status_code == 200, path
    assert client.get("/play/chess").status_code == 404
    games = client.get("/api/games").json()
    assert "toy" in [g["id"] for g in games]


GAME_VIEWS = ("/okey", "/okey-ladder", "/okey-cards", "/tile-rummy", "/remi", "/sichuan")
"""The chunk names of the games' views in a split bundle (``chunks/table/okey-HASH.js``)."""


def test_a_table_page_preloads_its_own_game_view_only(client: TestClient) -> None:
    """The table page's modules load side by side: its head preloads what the seed dialog
    needs; its ``later`` template lists the table's modules and board.css, of the game views
    only its game's (the others would share a slow line)."""
    html = client.get("/play/okey").text
    head, _, body = html.partition("</head>")
    later_part = body.split('<template id="later">', 1)[1].split("</template>", 1)[0]
    module = r'<link rel="modulepreload" href="/static/[^/]+/js/([^"]+)"'
    preloads, later = re.findall(module, head), re.findall(module, later_part)
    assert 'href="/static/_v' in later_part and "css/board.css" in later_part
    assert "board.css" not in head and 'as="script"' not in head
    if "js/table.js" in bundled(WEB):  # make bundle built it, split in chunks
        assert preloads[0] == "table.js"
        views = [name for name in later if name.rsplit("-", 1)[0].endswith(GAME_VIEWS)]
        assert [name.rsplit("/", 1)[1].rsplit("-", 1)[0] for name in views] == ["okey"]
        assert any(name.startswith("chunks/table/board-") for name in later)
        return
    assert {"table.js", "net.js"} <= set(preloads) and "board.js" not in preloads
    assert {"board.js", "games/okey.js"} <= set(later)
    assert [p for p in later if p.startswith("games/")] == ["games/okey.js"]
    online = client.get("/online").text
    assert "js/games/sichuan.js" in online and "js/games/okey.js" in online


def test_records_publish_and_verify(client: TestClient) -> None:
    token, match_id, over = _finish_a_match(client)
    records = client.get("/api/records", headers={"x-meldhall-token": token}).json()
    assert records["best"]["toy"]["score"] == over["outcome"]["scores"][0]
    assert records["public"] == []
    name = "<b>me</b>\x07"
    answer = client.post("/api/publish", json={"token": "other", "match": match_id, "name": name})
    assert answer.status_code == 404
    answer = client.post("/api/publish", json={"token": token, "match": match_id, "name": name})
    assert answer.json() == {"ok": True}
    public = client.get("/api/records").json()["public"]
    assert public[0]["name"] == "<b>me</b>"  # stored as text; every page shows it as text
    proof = client.get(f"/api/matches/{match_id}").json()
    assert proof["secret"] == over["secret"] and proof["log"]
    verdict = client.post("/api/verify", json=proof).json()
    assert verdict == {"ok": True, "problem": "", "outcome": over["outcome"]}
    forged = dict(proof, log=[[1 - proof["log"][0][0], proof["log"][0][1]], *proof["log"][1:]])
    assert client.post("/api/verify", json=forged).json()["ok"] is False
    wrong = dict(proof, secret="00" * 32)
    assert "commitment" in client.post("/api/verify", json=wrong).json()["problem"]


def test_an_unfinished_match_keeps_its_secret(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        peer = Peer(ws)
        peer.hello()
        peer.send({"type": "start", "game": "toy"})
        match_id = peer.until("match")["match"]
    proof = client.get(f"/api/matches/{match_id}").json()
    assert "secret" not in proof and "log" not in proof


def test_clean_name() -> None:
    assert clean_name("  Ada\nLovelace  ") == "AdaLovelace"
    assert len(clean_name("x" * 100)) == 32


def test_records_list_the_guests_online_matches(client: TestClient) -> None:
    assert client.post("/api/guest", json={"name": "Ann"}).status_code == 200
    guest = client.cookies.get("meldhall_session")
    assert guest
    lobby_store = client.app.state.manager.lobby_store  # type: ignore[attr-defined]
    rows = [(0, guest, "Ann", 12, 1), (2, "someone else", "<b>Bo</b>", -3, 2)]
    lobby_store.add_results("m-online", "okey", rows)
    online = client.get("/api/records").json()["online"]
    assert [(m["match"], m["game"], m["seat"], m["score"], m["rank"]) for m in online] == [
        ("m-online", "okey", 0, 12, 1)
    ]
    assert online[0]["people"] == [
        {"seat": 0, "name": "Ann", "score": 12, "rank": 1},
        {"seat": 2, "name": "<b>Bo</b>", "score": -3, "rank": 2},
    ]
    client.cookies.clear()
    assert client.get("/api/records").json()["online"] == []


def test_the_table_page_carries_the_games_list(client: TestClient) -> None:
    """The table page has the games' list written in it (no request before its seed dialog),
    the same as ``/api/games``, as data the policy never runs; the other pages fetch it."""
    html = client.get("/play/okey").text
    written = html.split('<script type="application/json" id="games">', 1)[1].split("</script>")[0]
    assert json.loads(written) == client.get("/api/games").json()
    assert "<" not in written and "/api/games" not in html
    assert 'id="games"' not in client.get("/").text
