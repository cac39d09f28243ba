"""Fair dealing: commit to a server secret, mix in the players' seeds, reveal at the end.

1. Before the match the server draws a 32-byte secret and publishes
   ``commitment = sha256(secret)`` (hex).
2. Players may contribute seed texts after seeing the commitment.
3. The match seed is ``HMAC-SHA256(key=secret, msg=contribution_1 0x00 contribution_2 ...)``.
   The server cannot steer it (it committed first); no player can (the secret is unknown).
4. When the match ends the secret is revealed. ``verify`` checks the commitment, rebuilds the
   match seed, replays every action and compares what the log recorded with what the replay
   produces: any changed tile or action fails.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meldhall.core.engine import JSON, Game
from meldhall.core.errors import IllegalAction, MeldhallError
from meldhall.core.replay import log_from_json, replay


def commitment(secret: bytes) -> str:
    """Return the public commitment of a secret: its sha256 as hex.

    >>> commitment(b"")[:16]
    'e3b0c44298fc1c14'
    """
    return hashlib.sha256(secret).hexdigest()


def match_seed(secret: bytes, contributions: Sequence[str] = ()) -> bytes:
    """Return the match seed from the server secret and the players' seed texts."""
    msg = b"\x00".join(c.encode() for c in contributions)
    return hmac.digest(secret, b"meldhall-match\x00" + msg, "sha256")


@dataclass(frozen=True)
class Verification:
    """What ``verify`` found: ``ok`` and, when not, the first problem in words."""

    ok: bool
    problem: str = ""
    final_snapshot: JSON = None


def verify(
    game: Game,
    options: Mapping[str, Any] | None,
    seats: int,
    secret_hex: str,
    commitment_hex: str,
    contributions: Sequence[str],
    log: JSON,
    recorded_snapshot: JSON = None,
) -> Verification:
    """Return whether a finished match's revealed secret and log are consistent.

    Checks that the secret matches the commitment published at the start, that every logged
    action replays legally from the deal, and (when given) that the replay ends in exactly the
    recorded final state.
    """
    try:
        secret = bytes.fromhex(secret_hex)
    except ValueError:
        return Verification(False, "the revealed secret is not hex")
    if commitment(secret) != commitment_hex:
        return Verification(False, "the revealed secret does not match the commitment")
    try:
        actions = log_from_json(game, log)
        state = replay(
            game, game.options(options), seats, match_seed(secret, contributions), actions
        )
    except IllegalAction as exc:
        return Verification(False, f"the log does not replay: {exc}")
    except MeldhallError as exc:
        return Verification(False, f"the log cannot be read: {exc}")
    snap = state.snapshot()
    if recorded_snapshot is not None and snap != recorded_snapshot:
        return Verification(False, "the replayed match differs from the recorded one", snap)
    return Verification(True, "", snap)
