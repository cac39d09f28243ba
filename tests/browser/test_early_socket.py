"""The table page opens its WebSocket from the script it carries inline, before its styles and
modules arrive, under the site's real content security policy: the policy allows that script
by its hash (no violation is reported) and the table adopts the socket instead of opening a
second one. It says hello in its handshake (the token in a subprotocol), never in a message."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server

pytestmark = pytest.mark.browser

WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(e.violatedDirective));
"""


def test_the_inline_early_socket_runs_under_the_policy(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=False)
    context.add_init_script(WATCH)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    sockets: list[str] = []
    cdp.send("Network.enable")
    cdp.on("Network.webSocketCreated", lambda e: sockets.append(e["url"]))
    page.goto(f"{server.url}/play/okey")
    page.wait_for_selector("#start-match")
    assert page.evaluate("window.__violations") == []
    assert len(sockets) == 1, sockets
    assert page.evaluate("document.querySelector('head script:not([src])') !== null")
    context.close()


def test_the_early_socket_says_hello_in_its_handshake(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    offered: list[str] = []
    sent: list[str] = []
    cdp.send("Network.enable")
    cdp.on(
        "Network.webSocketWillSendHandshakeRequest",
        lambda e: offered.append(e["request"]["headers"].get("Sec-WebSocket-Protocol", "")),
    )
    cdp.on("Network.webSocketFrameSent", lambda e: sent.append(e["response"]["payloadData"]))
    page.goto(f"{server.url}/play/okey")
    page.wait_for_selector("#start-match")
    token = page.evaluate("localStorage.getItem('meldhall.token')")
    assert offered == ["meldhall.hello"] and token
    page.reload()
    page.wait_for_selector("#start-match")
    assert offered[1] == f"meldhall.hello, meldhall.token.{token}"
    assert page.evaluate("localStorage.getItem('meldhall.token')") == token
    assert not [m for m in sent if '"hello"' in m], sent
    context.close()
