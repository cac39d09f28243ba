"""Stored table states: a match reloads from its latest snapshot and replays only the actions
after it, so a restart stays fast however long the logs grow.

A snapshot is the pickled state, signed with HMAC-SHA256 under a key of this server (a file
in the data directory, or one per process): a snapshot not signed with it is never unpickled,
only ignored (the table then replays its whole log). Each snapshot carries the sha256 of the
log entry it follows and a fingerprint of the game's code; one of another log or of other
code is ignored too.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import importlib
import json
import os
import pickle
import secrets
from pathlib import Path
from typing import Any

KEY_FILE = "snapshot.key"


def load_key(data_dir: str | Path | None) -> bytes:
    """Return the signing key kept in ``data_dir`` (made on first use, readable by the owner
    only), or a key of this process alone when there is no data directory."""
    if data_dir is None:
        return secrets.token_bytes(32)
    path = Path(data_dir) / KEY_FILE
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(secrets.token_bytes(32))
    return path.read_bytes()


def seal(value: Any, key: bytes) -> bytes:
    """Return ``value`` pickled and signed."""
    body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return hmac.new(key, body, hashlib.sha256).digest() + body


def unseal(blob: bytes, key: bytes) -> Any | None:
    """Return the value of a sealed snapshot, or None when its signature is not ours or it
    no longer unpickles (the code changed)."""
    mac, body = blob[:32], blob[32:]
    if not hmac.compare_digest(mac, hmac.new(key, body, hashlib.sha256).digest()):
        return None
    try:
        return pickle.loads(body)
    except Exception:  # classes renamed or moved since it was stored: the log is replayed
        return None


@functools.cache
def code_fingerprint(module: str) -> str:
    """Return the sha256 of the sources of ``module``'s package and of ``meldhall.core``: a
    snapshot stored by other code than the running one is not used (its pickled objects may
    no longer mean the same)."""
    digest = hashlib.sha256()
    for name in (module, "meldhall.core"):
        folder = Path(importlib.import_module(name).__file__ or ".").parent
        for source in sorted(folder.glob("*.py")):
            digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()


def entry_digest(index: int, seat: int, action: Any) -> str:
    """Return the sha256 of a log entry (its index, seat and action in canonical JSON): a
    snapshot after ``index + 1`` actions names the last of them so, and is used only when
    the stored log holds that very entry there (entries, once stored, never change)."""
    text = json.dumps([index, seat, action], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
