"""The page shell and the static files with cache headers.

Every static URL a page names is versioned by the content of the web folder
(``/static/_v<hash>/js/table.js``): relative imports inside the modules resolve under the same
prefix, so one version covers a page and all its modules. Versioned files are cached for a
year (the catalogs too: i18n.js fetches them under its own version); unversioned ones (the
rules fetched by the scripts) are revalidated. Each page lists every module it needs as a
``<link rel="modulepreload">`` so the browser fetches them at once instead of finding them
import by import; what it needs only later comes at a low priority.

Where ``make bundle`` has built them, a page's script is served from its bundle (esbuild, in
the git-ignored ``web/dist``): the page's script with what it needs at once, a chunk per game
view and the parts it loads later, a few requests instead of twenty over a slow line. A page
preloads its bundle's static chunks and, when it shows one game, that game's chunks alone
(``dist/meta/<page>.json``, esbuild's metafile, says which). A bundle is served only while
``dist/SOURCE`` names the modules as they are now (``sources_version``), so an edited module is
never hidden behind an old bundle; without one the modules are served."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from functools import cache
from pathlib import Path

from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from meldhall.server.games import games_json

LONG_CACHE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
PREFIX = "_v"

# Static imports ("import x from './a.js'", "export * from '../b.js'", "import './c.js'") and
# the renderers a page loads by game id ("import(`./games/${gameId}.js`)").
STATIC_IMPORT = re.compile(
    r"""(?:import|export)\s[^'";]*?from\s*['"](\.{1,2}/[^'"]+)['"]"""
    r"""|import\s*['"](\.{1,2}/[^'"]+)['"]"""
)
GAMES_IMPORT = re.compile(r"import\(`\./games/\$\{")
LATER_IMPORT = re.compile(r"""import\(\s*['"](\.{1,2}/[^'"]+)['"]\s*\)""")
"""A module a page loads later by its literal name (``import('./board.js')``): preloaded too."""
NOW_PRELOAD = "modulepreload"
"""A module the page needs at once is fetched and compiled as soon as the head is read."""
LATER_PRELOAD = "preload"
LATER_ATTRIBUTES = ' as="script" crossorigin fetchpriority="low"'
"""A module needed only later is fetched at a low priority, never sharing the line with what
the page needs at once, and not compiled until it is imported (a plain preload: the browser
keeps the file for the module request of the same URL)."""

ENTRY = re.compile(r"""<script type="module" src="/static/([^"]+)"></script>""")
STATIC_URL = re.compile(r"""(href|src)="/static/(?!_v)""")
OLD_PRELOAD = re.compile(r"""<link rel="modulepreload"[^>]*>\n?""")
INLINE = re.compile(r"""<script src="/static/(js/[^"]+)" data-inline></script>""")
"""A script the page carries in itself (a few hundred bytes that must run before anything
arrives: connect.js opens the WebSocket); the policy allows it by its hash alone."""


LATER_SLOT = '<template id="later">'
"""Where a page wants the files it needs only later listed instead of preloaded in its head:
inert module preloads (and stylesheets, written in the slot by the page) that its script puts
in the head once its first screen is drawn, so that nothing else shares the line before
(table.html: the table's code after the seed dialog)."""


GAMES_SLOT = '<script type="application/json" id="games"></script>'
"""Where a page wants the games' list (``/api/games``) written in itself: data, not a script
(the policy runs no inline script but connect.js), one request less before its first screen."""


DIST = "dist"
"""The folder under web/ that holds the bundles, one per page script, and ``SOURCE``."""


def _digest(paths: list[Path], root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@cache
def sources_version(web: Path) -> str:
    """Return a short hash of every module under web/js (what a bundle is built from)."""
    return _digest([p for p in (web / "js").rglob("*.js") if p.is_file()], web)


@cache
def bundled(web: Path) -> frozenset[str]:
    """Return the page scripts (``js/table.js``...) that have a current bundle in ``dist``:
    none when ``dist/SOURCE`` is missing or names other modules than today's."""
    source = web / DIST / "SOURCE"
    if not source.is_file() or source.read_text().strip() != sources_version(web):
        return frozenset()
    return frozenset(p.relative_to(web / DIST).as_posix() for p in (web / DIST).rglob("*.js"))


@cache
def bundle_graph(web: Path, entry: str) -> dict[str, tuple[list[str], list[str], str | None]]:
    """Return the files of the bundle of a page script (``js/table.js``), read from its
    metafile: each file (a path under ``dist``) with the files it imports statically, those it
    imports later by a literal dynamic import (not the game views chosen by name), and the
    module it is the entry of (``js/games/okey.js`` for a game's chunk, else None). Empty when
    the bundle has no metafile (the entry is then one file)."""
    meta = web / DIST / "meta" / f"{Path(entry).stem}.json"
    if not meta.is_file():
        return {}
    outputs = json.loads(meta.read_text(encoding="utf-8"))["outputs"]
    prefix = f"{DIST}/"
    views = f"{Path(entry).parent.as_posix()}/games/"
    sources = {path: output.get("entryPoint") for path, output in outputs.items()}
    graph: dict[str, tuple[list[str], list[str], str | None]] = {}
    for path, output in outputs.items():
        if not path.startswith(prefix) or not path.endswith(".js"):
            continue
        now: list[str] = []
        later: list[str] = []
        for i in output.get("imports", []):
            target = i["path"]
            if not target.startswith(prefix):
                continue
            if i.get("kind") == "import-statement":
                now.append(target.removeprefix(prefix))
            elif i.get("kind") == "dynamic-import" and not (sources.get(target) or "").startswith(
                views
            ):
                later.append(target.removeprefix(prefix))
        graph[path.removeprefix(prefix)] = (now, later, sources[path])
    return graph


def bundle_files(web: Path, entry: str, game: str | None = None) -> list[tuple[str, bool]]:
    """Return the bundle files a page script needs, entry first, each with whether it is
    needed only later: first the entry and what it imports at once, then what it imports
    later by name and the game views' chunks (only ``game``'s when one is given), with what
    those import."""
    graph = bundle_graph(web, entry)
    seen: list[tuple[str, bool]] = []

    def walk(root: str, later: bool) -> list[str]:
        todo, lazy = [root], []
        while todo:
            path = todo.pop(0)
            if path in (p for p, _ in seen):
                continue
            seen.append((path, later))
            now, after, _ = graph.get(path, ([], [], None))
            todo.extend(now)
            lazy.extend(after)
        return lazy

    lazy = walk(entry, False)
    views = f"{Path(entry).parent.as_posix()}/games/"
    wanted = f"{views}{game}.js" if game is not None else None
    for path, (_, _, source) in graph.items():
        if source is not None and source.startswith(views) and wanted in (None, source):
            lazy.append(path)
    while lazy:
        lazy.extend(walk(lazy.pop(0), True))
    return seen


@cache
def web_version(web: Path) -> str:
    """Return the version of the web folder: a short hash of every file's path and content
    (the bundles included)."""
    return _digest([p for p in web.rglob("*") if p.is_file()], web)


def modules_of(web: Path, entry: str, game: str | None = None, later: bool = True) -> list[str]:
    """Return every module (paths under `web`) that the module `entry` needs, entry first:
    at once, and with ``later`` also what it loads later (a literal ``import('./x.js')``, and
    a game's view imported by name: that ``game``'s alone when one is given, else every
    game's)."""
    seen: list[str] = []
    todo = [entry]
    while todo:
        rel = todo.pop(0)
        if rel in seen or not (web / rel).is_file():
            continue
        seen.append(rel)
        source = (web / rel).read_text(encoding="utf-8")
        base = Path(rel).parent
        for match in STATIC_IMPORT.finditer(source):
            target = match.group(1) or match.group(2)
            todo.append(_join(base, target))
        if not later:
            continue
        todo.extend(_join(base, target) for target in LATER_IMPORT.findall(source))
        if GAMES_IMPORT.search(source):
            games = (web / base / "games").glob("*.js" if game is None else f"{game}.js")
            todo.extend(sorted(p.relative_to(web).as_posix() for p in games))
    return seen


def _join(base: Path, target: str) -> str:
    parts: list[str] = list(base.parts)
    for part in target.split("/"):
        if part == "..":
            parts = parts[:-1]
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def _inline_text(web: Path, rel: str) -> str:
    """Return the text of a script a page carries inline, its comment lines left out."""
    lines = (web / rel).read_text(encoding="utf-8").splitlines(keepends=True)
    text = "".join(line for line in lines if not line.lstrip().startswith("//"))
    if "</script" in text.lower():
        raise ValueError(f"{rel} cannot be inlined: it contains </script")
    return text


@cache
def inline_script_hashes(web: Path) -> tuple[str, ...]:
    """Return the CSP hash sources (``'sha256-...'``) of every script a page under `web`
    carries inline: the only inline scripts the policy allows."""
    names = sorted({rel for page in web.glob("*.html") for rel in INLINE.findall(page.read_text())})
    hashes = []
    for rel in names:
        digest = hashlib.sha256(_inline_text(web, rel).encode()).digest()
        hashes.append(f"'sha256-{base64.b64encode(digest).decode()}'")
    return tuple(hashes)


@cache
def page_html(web: Path, name: str, game: str | None = None) -> str:
    """Return a page's HTML with versioned static URLs, its inline scripts filled in, and a
    module preload for every module its scripts need (of the game views, only ``game``'s
    when the page shows one game)."""
    version = web_version(web)
    html = OLD_PRELOAD.sub("", (web / name).read_text(encoding="utf-8"))
    html = INLINE.sub(lambda m: f"<script>{_inline_text(web, m.group(1))}</script>", html)
    modules: dict[str, bool] = {}
    for entry in ENTRY.findall(html):
        if entry in bundled(web):
            needed = bundle_files(web, entry, game)
        else:
            now = modules_of(web, entry, game, later=False)
            needed = [(m, m not in now) for m in modules_of(web, entry, game)]
        for module, later in needed:
            modules[module] = modules.get(module, True) and later
    ordered = sorted(modules.items(), key=lambda item: item[1])
    if LATER_SLOT in html:
        # the page itself asks for what it needs later, once its first screen is drawn
        now = [m for m, later in ordered if not later]
        later_links = "".join(
            _preload(f"/static/{PREFIX}{version}/{m}", False) for m, later in ordered if later
        )
        html = html.replace(LATER_SLOT, f"{LATER_SLOT}\n{later_links}", 1)
        ordered = [(m, False) for m in now]
    # what the page needs only later yields the line to what it needs at once
    links = "".join(_preload(f"/static/{PREFIX}{version}/{m}", later) for m, later in ordered)
    html = html.replace("</head>", f"{links}</head>", 1)
    return STATIC_URL.sub(rf'\1="/static/{PREFIX}{version}/', html)


def _preload(url: str, later: bool) -> str:
    """Return the preload link of a module the page needs at once, or only later."""
    if later:
        return f'<link rel="{LATER_PRELOAD}" href="{url}"{LATER_ATTRIBUTES}>\n'
    return f'<link rel="{NOW_PRELOAD}" href="{url}">\n'


def catalogs_wanted(web: Path, accept_language: str) -> list[str]:
    """Return the catalogs a page will fetch: the language the browser asks for first, when
    meldhall has it, then English (every page's fallback, fetched after it).

    >>> catalogs_wanted(Path(__file__).parent.parent / "web", "ru-RU,ru;q=0.9,en;q=0.8")
    ['ru', 'en']
    """
    first = accept_language.split(",")[0].split(";")[0].strip()[:2].lower()
    known = first != "en" and (web / "i18n" / f"{first}.json").is_file()
    return [first, "en"] if known else ["en"]


def page_response(
    web: Path, name: str, game: str | None = None, accept_language: str = ""
) -> HTMLResponse:
    """Return a page (revalidated on every visit: its static URLs carry the version) that
    asks for its catalogs under the version of its scripts (as i18n.js fetches them), before
    its scripts: its language's at a high priority, English after it at a low one; with the
    games' list written in it where it has a ``GAMES_SLOT``."""
    version = web_version(web)
    links = "".join(
        f'<link rel="preload" href="/static/{PREFIX}{version}/i18n/{lang}.json" as="fetch"'
        f' crossorigin fetchpriority="{"low" if i else "high"}">\n'
        for i, lang in enumerate(catalogs_wanted(web, accept_language))
    )
    html = page_html(web, name, game)
    if GAMES_SLOT in html:
        games = json.dumps(games_json(), separators=(",", ":")).replace("<", "\\u003c")
        html = html.replace(GAMES_SLOT, GAMES_SLOT.replace("></", f">{games}</"), 1)
    first = html.find('<link rel="modulepreload"', 0, max(html.find("</head>"), 0))
    at = first if first >= 0 else max(html.find("</head>"), 0)
    return HTMLResponse(html[:at] + links + html[at:], headers={"Cache-Control": REVALIDATE})


class CachedStatic(StaticFiles):
    """Static files with Cache-Control: a year for versioned URLs, revalidation otherwise."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        """Return the file response of a path, its version prefix (if any) removed."""
        head, _, rest = path.replace("\\", "/").partition("/")
        versioned = head.startswith(PREFIX) and bool(rest)
        wanted = rest if versioned else path
        if wanted in bundled(Path(str(self.directory))):
            wanted = f"{DIST}/{wanted}"
        response = await super().get_response(wanted, scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = LONG_CACHE if versioned else REVALIDATE
        return response


if __name__ == "__main__":  # make bundle: the SOURCE line of the bundles it builds
    print(sources_version(Path(__file__).resolve().parent.parent / "web"))
