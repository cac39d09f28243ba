"""The table page transfers at most 200 KB in total (HTML, CSS, modules, catalog, game
renderer: everything loaded until the table is on screen), measured from Chromium's network
events on a fresh, uncached context. The figures are written to artifacts/page-weight.txt."""

from __future__ import annotations

from typing import Any

import pytest

from meldhall.server.games import available_games
from tests.browser.conftest import ROOT, Server, start_match

pytestmark = pytest.mark.browser

LIMIT = 200 * 1024


class Meter:
    """Counts what one page receives: HTTP bytes on the wire and WebSocket payload bytes."""

    def __init__(self, cdp: Any) -> None:
        self.http: dict[str, float] = {}
        self.socket = 0
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.on("Network.loadingFinished", self._loaded)
        cdp.on("Network.webSocketFrameReceived", self._frame)
        cdp.on("Network.webSocketFrameSent", self._frame)

    def _loaded(self, event: dict[str, Any]) -> None:
        self.http[event["requestId"]] = event["encodedDataLength"]

    def _frame(self, event: dict[str, Any]) -> None:
        self.socket += len(event["response"]["payloadData"].encode())


def test_the_table_page_weighs_at_most_200_kb(browser: Any, server: Server) -> None:
    lines = []
    for game in available_games():
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        page = context.new_page()
        meter = Meter(context.new_cdp_session(page))
        start_match(page, server.url, game)
        page.wait_for_selector("#board .seat-panel, #board .card-slots")
        page.wait_for_load_state("networkidle")
        total = sum(meter.http.values())
        lines.append(
            f"{game}: {total / 1024:.1f} KB over HTTP in {len(meter.http)} requests;"
            f" WebSocket {meter.socket / 1024:.1f} KB until the table shows"
        )
        context.close()
        assert total <= LIMIT, lines[-1]
    report = ROOT / "artifacts" / "page-weight.txt"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
