"""Settings and language survive a reload; in every language the table and rules pages show
no string that is not in that language's catalog (names, numbers, tiles and codes are marked
as raw text)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from meldhall.server.games import available_games
from tests.browser.conftest import Server, shot, start_match

pytestmark = pytest.mark.browser

LANGS = ["en", "tr", "ru", "ro", "zh"]

UNTRANSLATED = r"""
async (lang) => {
  const load = (l) => fetch(`/static/i18n/${l}.json`).then((r) => r.json());
  const [mine, en] = await Promise.all([load(lang), load('en')]);
  const exact = new Set(Object.values(mine));
  const english = new Set(Object.entries(en).filter(([k, v]) => mine[k] !== v).map(([, v]) => v));
  const escape = (v) => v.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  const template = (v) => new RegExp('^' + escape(v).replace(/\{\w+\}/g, '[\\s\\S]*') + '$');
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const host = node.parentElement;
    if (!text || !/\p{L}/u.test(text) || !host) continue;
    if (host.closest('[data-raw], script, style')) continue;
    if (!host.getClientRects().length) continue;
    const keyed = host.closest('[data-i18n]');
    const key = keyed ? keyed.dataset.i18n : null;
    const shown = keyed ? keyed.textContent.trim() : '';
    const forms = (k) => k === key || k.startsWith(`${key}.`) || k.startsWith(`${key}_you`);
    const variants = Object.keys(mine).filter(forms);
    const ok = exact.has(text) || variants.some((k) => template(mine[k]).test(shown));
    if (!ok || english.has(text)) bad.push(text);
  }
  return bad;
}
"""


def set_language(page: Any, url: str, lang: str) -> None:
    """Choose a language on the settings page (kept in the browser)."""
    page.goto(f"{url}/settings")
    page.select_option("#set-lang", lang)
    page.wait_for_load_state()
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")


def test_settings_and_language_survive_a_reload(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/settings")
    for name, value in (("contrast", 70), ("grain", 20), ("temperature", 35)):
        page.eval_on_selector(
            f"#set-{name}",
            "(e, v) => { e.value = v; e.dispatchEvent(new Event('input')); }",
            value,
        )
    page.select_option("#set-lang", "tr")
    page.wait_for_function("document.documentElement.lang === 'tr'")
    page.reload()
    page.wait_for_function("document.documentElement.lang === 'tr'")
    assert page.input_value("#set-contrast") == "70"
    assert page.input_value("#set-grain") == "20"
    assert page.input_value("#set-temperature") == "35"
    catalog = json.loads(page.evaluate("fetch('/static/i18n/tr.json').then(r => r.text())"))
    assert page.inner_text("header.site nav a[href='/records']") == catalog["nav.records"]
    start_match(page, server.url, "okey")
    felt = page.eval_on_selector("#felt", "e => getComputedStyle(e).filter")
    assert "contrast(1.2)" in felt
    assert "sepia" in felt
    shot(page, "okey-table-tr-settings")
    page.goto(f"{server.url}/settings")
    page.click("#set-reset")
    page.wait_for_function("document.querySelector('#set-contrast')?.value === '50'")
    page.select_option("#set-lang", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")


@pytest.mark.parametrize("lang", LANGS)
def test_no_untranslated_string_on_table_and_rules_pages(
    page: Any, server: Server, lang: str
) -> None:
    set_language(page, server.url, lang)
    problems: dict[str, list[str]] = {}
    for path in ("/", "/records", "/settings"):
        page.goto(server.url + path)
        page.wait_for_selector("main#page > *")
        problems[path] = page.evaluate(UNTRANSLATED, lang)
    for game in available_games():
        page.goto(f"{server.url}/rules/{game}")
        page.wait_for_selector("#panel-table")
        problems[f"rules {game}"] = page.evaluate(UNTRANSLATED, lang)
        page.click("#tab-full")
        problems[f"rules {game} full"] = page.evaluate(UNTRANSLATED, lang)
        start_match(page, server.url, game)
        page.wait_for_selector("#board .seat-panel, #board .card-slots")
        problems[f"table {game}"] = page.evaluate(UNTRANSLATED, lang)
        page.click("#scores-button")
        problems[f"scores {game}"] = page.evaluate(UNTRANSLATED, lang)
        page.click("[data-close]")
        shot(page, f"{game}-table-{lang}")
    assert not {k: v for k, v in problems.items() if v}
