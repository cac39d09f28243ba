"""Static files: a page's script is served from its bundle while the bundle is current and
from the modules otherwise; the catalogs a page needs are asked for beside its scripts."""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient

from meldhall.server.static import (
    CachedStatic,
    bundled,
    catalogs_wanted,
    page_html,
    page_response,
    sources_version,
)


def _web(root: Path, *, bundle: str | None) -> Path:
    """Return a web folder with a page whose script imports a module; with ``bundle``, a
    bundle of that script whose SOURCE line is ``bundle`` ("current": today's modules)."""
    web = root / "web"
    (web / "js").mkdir(parents=True)
    (web / "i18n").mkdir()
    (web / "i18n" / "en.json").write_text("{}")
    (web / "i18n" / "tr.json").write_text("{}")
    (web / "js" / "page.js").write_text("import { x } from './part.js';\nx();\n")
    (web / "js" / "part.js").write_text("export function x() {}\n")
    (web / "page.html").write_text(
        '<html><head></head><body><script type="module" src="/static/js/page.js"></script>'
        "</body></html>"
    )
    if bundle is not None:
        (web / "dist" / "js").mkdir(parents=True)
        (web / "dist" / "js" / "page.js").write_text("function x(){}x();/* bundled */\n")
        source = sources_version(web) if bundle == "current" else bundle
        (web / "dist" / "SOURCE").write_text(source + "\n")
    return web


def _served(web: Path, path: str) -> str:
    app = Starlette(routes=[Mount("/static", CachedStatic(directory=web))])
    with TestClient(app) as client:
        response = client.get(path)
        assert response.status_code == 200
        return response.text


def test_a_current_bundle_is_served_and_preloaded_alone(tmp_path: Path) -> None:
    web = _web(tmp_path, bundle="current")
    assert bundled(web) == frozenset({"js/page.js"})
    html = page_html(web, "page.html")
    assert html.count('rel="modulepreload"') == 1 and "js/page.js" in html
    assert "bundled" in _served(web, "/static/js/page.js")
    assert "part.js" not in _served(web, "/static/js/page.js")
    assert _served(web, "/static/js/part.js").startswith("export function")


def test_a_stale_bundle_is_never_served(tmp_path: Path) -> None:
    web = _web(tmp_path, bundle="0123456789ab")
    assert bundled(web) == frozenset()
    html = page_html(web, "page.html")
    assert html.count('rel="modulepreload"') == 2
    assert "import { x }" in _served(web, "/static/js/page.js")


def test_without_a_bundle_the_modules_are_served(tmp_path: Path) -> None:
    web = _web(tmp_path, bundle=None)
    assert bundled(web) == frozenset()
    assert "import { x }" in _served(web, "/static/js/page.js")


def test_a_page_asks_for_english_and_the_browsers_language(tmp_path: Path) -> None:
    web = _web(tmp_path, bundle=None)
    assert catalogs_wanted(web, "tr-TR,tr;q=0.9") == ["en", "tr"]
    assert catalogs_wanted(web, "de-DE,de;q=0.9") == ["en"]
    assert catalogs_wanted(web, "") == ["en"]
    html = page_response(web, "page.html", None, "tr").body.decode()
    assert '<link rel="preload" href="/static/i18n/tr.json" as="fetch" crossorigin>' in html
    assert '<link rel="preload" href="/static/i18n/en.json" as="fetch" crossorigin>' in html
