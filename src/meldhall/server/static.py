"""The page shell and the static files with cache headers.

Every static URL a page names is versioned by the content of the web folder
(``/static/_v<hash>/js/table.js``): relative imports inside the modules resolve under the same
prefix, so one version covers a page and all its modules. Versioned files are cached for a
year; unversioned ones (the catalogs and rules fetched by the scripts) are revalidated. Each
page lists every module it needs as a ``<link rel="modulepreload">`` so the browser fetches
them at once instead of finding them import by import.

Where ``make bundle`` has built them, a page's script is served as one file (esbuild, in the
git-ignored ``web/dist``): one request instead of twenty over a slow line. A bundle is served
only while ``dist/SOURCE`` names the modules as they are now (``sources_version``), so an
edited module is never hidden behind an old bundle; without one the modules are served."""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from pathlib import Path

from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

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
ENTRY = re.compile(r"""<script type="module" src="/static/([^"]+)"></script>""")
STATIC_URL = re.compile(r"""(href|src)="/static/(?!_v)""")
OLD_PRELOAD = re.compile(r"""<link rel="modulepreload"[^>]*>\n?""")
INLINE = re.compile(r"""<script src="/static/(js/[^"]+)" data-inline></script>""")
"""A script the page carries in itself (a few hundred bytes that must run before anything
arrives: connect.js opens the WebSocket); the policy allows it by its hash alone."""


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
def web_version(web: Path) -> str:
    """Return the version of the web folder: a short hash of every file's path and content
    (the bundles included)."""
    return _digest([p for p in web.rglob("*") if p.is_file()], web)


def modules_of(web: Path, entry: str, game: str | None = None) -> list[str]:
    """Return every module (paths under `web`) that the module `entry` needs, entry first;
    a game's view imported by name is that ``game``'s alone when one is given, else every
    game's."""
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
    modules: list[str] = []
    for entry in ENTRY.findall(html):
        needed = [entry] if entry in bundled(web) else modules_of(web, entry, game)
        modules.extend(m for m in needed if m not in modules)
    links = "".join(
        f'<link rel="modulepreload" href="/static/{PREFIX}{version}/{m}">\n' for m in modules
    )
    html = html.replace("</head>", f"{links}</head>", 1)
    return STATIC_URL.sub(rf'\1="/static/{PREFIX}{version}/', html)


def catalogs_wanted(web: Path, accept_language: str) -> list[str]:
    """Return the catalogs a page will fetch: English (every page's fallback) and the
    language the browser asks for first, when meldhall has it.

    >>> catalogs_wanted(Path(__file__).parent.parent / "web", "ru-RU,ru;q=0.9,en;q=0.8")
    ['en', 'ru']
    """
    first = accept_language.split(",")[0].split(";")[0].strip()[:2].lower()
    known = first != "en" and (web / "i18n" / f"{first}.json").is_file()
    return ["en", first] if known else ["en"]


def page_response(
    web: Path, name: str, game: str | None = None, accept_language: str = ""
) -> HTMLResponse:
    """Return a page (revalidated on every visit: its static URLs carry the version) that
    asks for its catalogs at once, beside its scripts."""
    links = "".join(
        f'<link rel="preload" href="/static/i18n/{lang}.json" as="fetch" crossorigin>\n'
        for lang in catalogs_wanted(web, accept_language)
    )
    html = page_html(web, name, game).replace("</head>", f"{links}</head>", 1)
    return HTMLResponse(html, headers={"Cache-Control": REVALIDATE})


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
