"""Static files: a page's script is served from its bundle while the bundle is current and
from the modules otherwise; the catalogs a page needs are asked for beside its scripts."""

from __future__ import annotations

import json
import re
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient

from meldhall.server.static import (
    CachedStatic,
    bundled,
    catalogs_wanted,
    modules_of,
    page_html,
    page_response,
    sources_version,
    web_version,
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


def test_a_page_asks_for_the_browsers_language_first_then_english(tmp_path: Path) -> None:
    web = _web(tmp_path, bundle=None)
    assert catalogs_wanted(web, "tr-TR,tr;q=0.9") == ["tr", "en"]
    assert catalogs_wanted(web, "de-DE,de;q=0.9") == ["en"]
    assert catalogs_wanted(web, "") == ["en"]
    html = page_response(web, "page.html", None, "tr").body.decode()
    for lang, priority in (("tr", "high"), ("en", "low")):
        href = f"/static/_v{web_version(web)}/i18n/{lang}.json"
        link = (
            f'<link rel="preload" href="{href}" as="fetch" crossorigin fetchpriority="{priority}">'
        )
        assert link in html
    assert html.index("/i18n/tr.json") < html.index("/i18n/en.json")
    english = page_response(web, "page.html", None, "en-GB").body.decode()
    assert (
        english.count('rel="preload"') == 1
        and 'en.json" as="fetch" crossorigin fetchpriority="high"' in english
    )


def _split_web(root: Path) -> Path:
    """Return a web folder whose page script is bundled in chunks, as ``make bundle`` splits
    it: the script, a chunk it imports at once, a part it loads later and two game views."""
    web = _web(root, bundle=None)
    (web / "js" / "games").mkdir()
    (web / "js" / "later.js").write_text("export const y = 1;\n")
    for game in ("one", "two"):
        (web / "js" / "games" / f"{game}.js").write_text("export const v = 1;\n")
    dist = web / "dist" / "js"
    (dist / "chunks" / "page").mkdir(parents=True)
    names = ["page.js", "chunks/page/now-A.js", "chunks/page/later-B.js"]
    names += ["chunks/page/one-C.js", "chunks/page/two-D.js", "chunks/page/shared-E.js"]
    for name in names:
        (dist / name).write_text(f"/* {name} */\n")

    def out(entry: str | None, *imports: tuple[str, str]) -> dict[str, object]:
        listed = [{"path": f"dist/js/{p}", "kind": k} for p, k in imports]
        return {"imports": listed, **({"entryPoint": entry} if entry else {})}

    outputs = {
        "dist/js/page.js": out(
            "js/page.js",
            ("chunks/page/now-A.js", "import-statement"),
            ("chunks/page/later-B.js", "dynamic-import"),
            ("chunks/page/one-C.js", "dynamic-import"),
            ("chunks/page/two-D.js", "dynamic-import"),
        ),
        "dist/js/chunks/page/now-A.js": out(None),
        "dist/js/chunks/page/later-B.js": out("js/later.js"),
        "dist/js/chunks/page/one-C.js": out(
            "js/games/one.js", ("chunks/page/shared-E.js", "import-statement")
        ),
        "dist/js/chunks/page/two-D.js": out(
            "js/games/two.js", ("chunks/page/shared-E.js", "import-statement")
        ),
        "dist/js/chunks/page/shared-E.js": out(None),
    }
    (web / "dist" / "meta").mkdir()
    (web / "dist" / "meta" / "page.json").write_text(json.dumps({"outputs": outputs}))
    (web / "dist" / "SOURCE").write_text(sources_version(web) + "\n")
    return web


def _preloads(html: str) -> list[tuple[str, bool]]:
    """Return the module preloads of a page: each path under the version and whether it is
    only fetched, at a low priority, for later (else fetched and compiled at once)."""
    now = '<link rel="modulepreload" href="/static/_v\\w+/([^"]+)">'
    later = '<link rel="preload" href="/static/_v\\w+/([^"]+)" as="script" crossorigin'
    later += ' fetchpriority="low">'
    found = re.findall(f"{now}|{later}", html)
    assert len(found) == html.count("<link"), html
    return [(a or b, not a) for a, b in found]


def test_a_split_bundle_preloads_its_chunks_and_the_games_view_alone(tmp_path: Path) -> None:
    web = _split_web(tmp_path)
    now = [("js/page.js", False), ("js/chunks/page/now-A.js", False)]
    later = [("js/chunks/page/later-B.js", True)]
    one = [("js/chunks/page/one-C.js", True), ("js/chunks/page/shared-E.js", True)]
    assert _preloads(page_html(web, "page.html", "one")) == now + later + one
    assert "two-D" not in page_html(web, "page.html", "one")
    every = [*one, ("js/chunks/page/two-D.js", True)]
    assert _preloads(page_html(web, "page.html")) == now + later + every
    assert _served(web, "/static/js/chunks/page/one-C.js") == "/* chunks/page/one-C.js */\n"


def test_modules_loaded_later_are_preloaded_after_the_others(tmp_path: Path) -> None:
    web = _web(tmp_path, bundle=None)
    (web / "js" / "games").mkdir()
    (web / "js" / "games" / "one.js").write_text("export const v = 1;\n")
    (web / "js" / "later.js").write_text("export const y = import(`./games/${id}.js`);\n")
    (web / "js" / "page.js").write_text("import { x } from './part.js';\nimport('./later.js');\n")
    assert modules_of(web, "js/page.js", later=False) == ["js/page.js", "js/part.js"]
    assert _preloads(page_html(web, "page.html", "one")) == [
        ("js/page.js", False),
        ("js/part.js", False),
        ("js/later.js", True),
        ("js/games/one.js", True),
    ]


def test_a_page_with_a_later_template_lists_what_it_needs_later_there(tmp_path: Path) -> None:
    """A page with ``<template id="later">`` preloads in its head only what it needs at once;
    what it needs later is listed in the template (module preloads to put in the head, after
    what the page wrote there), all under the version."""
    web = _split_web(tmp_path)
    (web / "page.html").write_text(
        '<html><head></head><body><script type="module" src="/static/js/page.js"></script>'
        '<template id="later"><link rel="stylesheet" href="/static/css/b.css"></template>'
        "</body></html>"
    )
    html = page_html(web, "page.html", "one")
    head, _, body = html.partition("</head>")
    later = body.split('<template id="later">', 1)[1].split("</template>", 1)[0]
    assert _preloads(head) == [("js/page.js", False), ("js/chunks/page/now-A.js", False)]
    module = '<link rel="modulepreload" href="/static/_v\\w+/([^"]+)">'
    assert re.findall(module, later) == [
        "js/chunks/page/later-B.js",
        "js/chunks/page/one-C.js",
        "js/chunks/page/shared-E.js",
    ]
    assert later.endswith('css/b.css">') and 'href="/static/_v' in later.split("\n")[-1]
    assert "two-D" not in html
    catalogs = page_response(web, "page.html", "one").body.decode()
    assert catalogs.index("i18n/en.json") < catalogs.index("</head>")


def test_catalogs_are_cached_under_the_version(tmp_path: Path) -> None:
    web = _web(tmp_path, bundle=None)
    app = Starlette(routes=[Mount("/static", CachedStatic(directory=web))])
    with TestClient(app) as client:
        versioned = client.get(f"/static/_v{web_version(web)}/i18n/en.json")
        plain = client.get("/static/i18n/en.json")
    assert versioned.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert plain.headers["cache-control"] == "no-cache"
