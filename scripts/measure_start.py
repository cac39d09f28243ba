"""Measure how long a table's start dialog takes to be ready on a throttled mid-phone profile.

Usage: .venv/bin/python scripts/measure_start.py [--game okey] [--runs 5]

Starts meldhall under uvicorn on a free loopback port (a fresh data directory), opens
/play/<game> in Debian's Chromium with a cold cache, CPU slowed 4x and the network at
1.6 Mbps down, 750 kbps up and 150 ms round trips (Chrome DevTools Protocol), and prints the
time from navigation start until the Start button of the seed dialog is on screen; then the
same with a warm cache (the versioned modules come from the browser's cache)."""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
PROFILE = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1_600_000 / 8,
    "uploadThroughput": 750_000 / 8,
}
CPU_SLOWDOWN = 4
TIMELINE = False
TIMELINE_JS = """
(() => performance.getEntries()
  .filter((e) => e.entryType === 'navigation' || e.entryType === 'resource')
  .map((e) => `${Math.round(e.startTime)}-${Math.round(e.responseEnd)} ms  `
    + e.name.replace(location.origin, ''))
  .join('\\n') + '\\n' + window.__ws.join('\\n') + `\\nready ${Math.round(window.__ready)} ms`)()
"""
READY = """
(() => {
  const mark = () => {
    const b = document.getElementById('start-match');
    if (!b || !b.getClientRects().length || window.__ready !== undefined) return;
    window.__ready = performance.now();
  };
  new MutationObserver(mark).observe(document, { childList: true, subtree: true });
  window.__ws = [];
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    window.__ws.push(`created ${Math.round(performance.now())}`);
    ws.addEventListener('open', () => window.__ws.push(`open ${Math.round(performance.now())}`));
    ws.addEventListener('message', (e) => {
      window.__ws.push(`message ${Math.round(performance.now())} ${String(e.data).slice(0, 20)}`);
    });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  document.addEventListener('DOMContentLoaded', () => {
    window.__ws.push(`domcontentloaded ${Math.round(performance.now())}`);
  });
})();
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(port: int, data_dir: str) -> subprocess.Popen[bytes]:
    """Return a uvicorn process serving meldhall once it answers."""
    env = dict(os.environ, MELDHALL_DATA=data_dir)
    cmd = [sys.executable, "-m", "uvicorn", "--factory", "meldhall.server.app:app_from_env"]
    cmd += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("the server did not start")


def ready_ms(page: Any, url: str) -> float:
    """Return the milliseconds from navigation start until the Start button shows."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", PROFILE)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.goto(url, wait_until="commit")
    page.wait_for_function("window.__ready !== undefined", timeout=60_000)
    value: float = page.evaluate("window.__ready")
    if TIMELINE:
        print(page.evaluate(TIMELINE_JS))
    cdp.detach()
    return value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="okey")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--timeline", action="store_true", help="print each load's resource timings"
    )
    args = parser.parse_args()
    global TIMELINE
    TIMELINE = args.timeline
    port = free_port()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as data_dir:
        server = start_server(port, data_dir)
        try:
            url = f"http://127.0.0.1:{port}/play/{args.game}"
            cold: list[float] = []
            warm: list[float] = []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless"])
                for _ in range(args.runs):
                    context = browser.new_context(
                        viewport={"width": 844, "height": 390}, bypass_csp=True
                    )
                    context.add_init_script(READY)
                    page = context.new_page()
                    cold.append(ready_ms(page, url))
                    warm.append(ready_ms(page, url))
                    context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"profile: CPU x{CPU_SLOWDOWN}, 1.6 Mbps down, 750 kbps up, 150 ms RTT; {args.game}")
    # the figures stretch with what else the machine runs: say how busy it was
    load = f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    print(f"machine: {os.cpu_count()} cores, load average {load}")
    print(f"cold cache: median {statistics.median(cold):.0f} ms  (runs: {fmt(cold)})")
    print(f"warm cache: median {statistics.median(warm):.0f} ms  (runs: {fmt(warm)})")
    return 0


def fmt(values: list[float]) -> str:
    return ", ".join(f"{v:.0f}" for v in values)


if __name__ == "__main__":
    raise SystemExit(main())
