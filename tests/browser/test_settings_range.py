"""The display settings change the table visibly across their whole range, the cold half of
the colour temperature included; sound plays short generated tones once switched on; the
computer speed is kept; the settings page shows no empty box (issue 17)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server, shot

pytestmark = pytest.mark.browser

LOOK = """() => { const s = getComputedStyle(document.getElementById('settings-sample'));
  const before = getComputedStyle(document.getElementById('settings-sample'), '::before');
  const grain = getComputedStyle(document.querySelector('#settings-sample .grain'));
  return { filter: s.filter, tint: before.backgroundColor, tintAlpha: Number(before.opacity),
    grain: Number(grain.opacity) }; }"""


def _set(page: Any, name: str, value: int) -> dict[str, Any]:
    page.eval_on_selector(
        f"#set-{name}", "(e, v) => { e.value = v; e.dispatchEvent(new Event('input')); }", value
    )
    look: dict[str, Any] = page.evaluate(LOOK)
    return look


def test_every_slider_changes_the_sample_across_its_range(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/settings")
    page.wait_for_selector("#settings-sample .piece")
    filters = [_set(page, "contrast", v)["filter"] for v in (0, 25, 50, 75, 100)]
    assert len(set(filters)) == 5, filters
    cold, neutral, warm = (_set(page, "temperature", v) for v in (0, 50, 100))
    assert neutral["tintAlpha"] == 0
    assert cold["tintAlpha"] > 0.3 and warm["tintAlpha"] > 0.3
    blue = [int(x) for x in cold["tint"].strip("rgba()").split(",")[:3]]
    orange = [int(x) for x in warm["tint"].strip("rgba()").split(",")[:3]]
    assert blue[2] > blue[0] and orange[0] > orange[2]
    assert _set(page, "temperature", 25)["tintAlpha"] < cold["tintAlpha"]
    assert _set(page, "grain", 100)["grain"] >= 0.8
    assert _set(page, "grain", 0)["grain"] == 0
    shot(page, "settings-range")
    page.click("#set-reset")
    page.wait_for_function("document.querySelector('#set-contrast')?.value === '50'")


def test_sound_and_computer_speed_are_kept(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/settings")
    page.wait_for_selector("#set-sound")
    page.click("#sound-test")
    assert page.evaluate("document.body.dataset.lastSound") == "win"
    page.check("#set-sound")
    page.select_option("#set-speed", "fast")
    page.reload()
    page.wait_for_selector("#set-sound")
    assert page.is_checked("#set-sound")
    assert page.input_value("#set-speed") == "fast"
    page.uncheck("#set-sound")
    page.select_option("#set-speed", "normal")


def test_the_settings_page_shows_no_empty_box(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/settings")
    page.wait_for_selector("#settings-sample .piece")
    empty = page.evaluate(
        """() => [...document.querySelectorAll('main *')].filter((e) => {
          const r = e.getBoundingClientRect();
          const s = getComputedStyle(e);
          const painted = s.backgroundColor !== 'rgba(0, 0, 0, 0)' || s.backgroundImage !== 'none';
          return r.width > 40 && r.height > 20 && painted && !e.textContent.trim()
            && !e.querySelector('input, select, svg') && !e.closest('#settings-sample');
        }).map((e) => e.outerHTML.slice(0, 80))"""
    )
    assert empty == []
