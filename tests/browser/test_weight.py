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


def test_the_table_page_weighs_at_most_200_kb(browser: Any, server: Server) -> None:
    lines = []
    for game in available_games():
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        http: dict[str, float] = {}
        frames = [0]
        cdp.on(
            "Network.loadingFinished",
            lambda e: http.__setitem__(e["requestId"], e["encodedDataLength"]),
        )
        cdp.on(
            "Network.webSocketFrameReceived",
            lambda e: frames.__setitem__(0, frames[0] + len(e["response"]["payloadData"].encode())),
        )
        cdp.on(
            "Network.webSocketFrameSent",
            lambda e: frames.__setitem__(0, frames[0] + len(e["response"]["payloadData"].encode())),
        )
        start_match(page, server.url, game)
        page.wait_for_selector("#board .seat-panel, #board .card-slots")
        page.wait_for_load_state("networkidle")
        total = sum(http.values())
        lines.append(
            f"{game}: {total / 1024:.1f} KB over HTTP in {len(http)} requests;"
            f" WebSocket {frames[0] / 1024:.1f} KB until the table shows"
        )
        context.close()
        assert total <= LIMIT, lines[-1]
    report = ROOT / "artifacts" / "page-weight.txt"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
