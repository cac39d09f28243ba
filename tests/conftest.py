"""Shared fixtures: where the rule vectors live."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED_VECTORS = ROOT.parent / "shared" / "vectors"
REPO_VECTORS = ROOT / "vectors"


def vector_files() -> list[Path]:
    """Return every vector file of the repo and of ../shared/vectors (when present)."""
    files = sorted(REPO_VECTORS.glob("*.json"))
    if SHARED_VECTORS.is_dir():
        files += sorted(SHARED_VECTORS.glob("*.json"))
    return files
