"""Match files: one JSON document that holds a whole match, to download, replay and verify.

A match file is the fairness proof (docs/fairness.md) plus what a replay needs: the game and
its rules version, options, seats, the players, either the revealed secret with its commitment
and the players' contributions or (for simulated matches) the seed itself, the action log, and
one short digest per action of the events it caused. The digests let a verifier name the first
action whose replay differs from what was recorded, not only say that the end differs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from meldhall.core.engine import JSON, Event, Game, Seat, State
from meldhall.core.errors import IllegalAction, MeldhallError, ParseError
from meldhall.core.fairness import commitment, match_seed
from meldhall.core.replay import LogEntry, log_from_json, log_to_json

FORMAT = "meldhall-match/1"


def events_digest(events: Sequence[Event]) -> str:
    """Return a 12-hex-digit digest of events in full (private parts included).

    >>> events_digest(())
    '4f53cda18c2b'
    """
    canonical = [
        {"kind": e.kind, "public": dict(e.public), "seat": e.seat, "private": e.private}
        for e in events
    ]
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class MatchFile:
    """A whole match as data; ``to_json``/``from_json`` are its one file form."""

    game: str
    options: Mapping[str, JSON]
    seats: int
    players: Sequence[JSON]
    log: Sequence[LogEntry]
    checks: Sequence[str] = ()
    secret: str = ""
    commitment: str = ""
    contributions: Sequence[str] = ()
    seed: str = ""
    rules_version: int = 1
    outcome: JSON = None
    extra: Mapping[str, JSON] = field(default_factory=dict)

    def match_seed(self) -> bytes:
        """Return the seed the match was dealt from (from the secret, or the seed itself)."""
        if self.secret:
            return match_seed(bytes.fromhex(self.secret), list(self.contributions))
        return bytes.fromhex(self.seed)

    def to_json(self) -> dict[str, JSON]:
        """Return the file's JSON form (what a download holds)."""
        out: dict[str, JSON] = {
            "format": FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": dict(self.options),
            "seats": self.seats,
            "players": list(self.players),
        }
        if self.secret:
            out.update(
                secret=self.secret,
                commitment=self.commitment,
                contributions=list(self.contributions),
            )
        else:
            out["seed"] = self.seed
        out.update(log=log_to_json(self.log), checks=list(self.checks), outcome=self.outcome)
        out.update(self.extra)
        return out


def _field(data: Mapping[str, JSON], name: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ParseError(f"match file: field {name!r} is missing or not {_kind_name(kind)}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "text", int: "a whole number", list: "a list", dict: "an object"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _hex(data: Mapping[str, JSON], name: str) -> str:
    value = _field(data, name, str)
    try:
        bytes.fromhex(value)
    except ValueError:
        raise ParseError(f"match file: field {name!r} is not hexadecimal") from None
    return str(value)


def from_json(data: JSON, games: Mapping[str, Game]) -> tuple[MatchFile, Game]:
    """Return the match file of a JSON document and its game, or raise ``ParseError`` naming
    the first field that is missing or malformed (a proof without ``format`` is accepted)."""
    if not isinstance(data, dict):
        raise ParseError("match file: the document is not a JSON object")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise ParseError(f"match file: format {fmt!r} is not {FORMAT!r}")
    game_id = _field(data, "game", str)
    game = games.get(game_id)
    if game is None:
        raise ParseError(f"match file: unknown game {game_id!r}")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ParseError("match file: field 'options' is not an object")
    seats = _field(data, "seats", int)
    if not game.min_seats <= seats <= game.max_seats:
        raise ParseError(f"match file: {game_id} is played by {game.min_seats}-{game.max_seats}")
    checks = data.get("checks") or []
    if not isinstance(checks, list) or not all(isinstance(c, str) for c in checks):
        raise ParseError("match file: field 'checks' is not a list of digests")
    secret = _hex(data, "secret") if "secret" in data else ""
    seed = "" if secret else _hex(data, "seed")
    contributions = data.get("contributions") or []
    if not isinstance(contributions, list) or not all(isinstance(c, str) for c in contributions):
        raise ParseError("match file: field 'contributions' is not a list of texts")
    rules_version = data.get("rules_version", 1)
    if not isinstance(rules_version, int):
        raise ParseError("match file: field 'rules_version' is not a whole number")
    known = {"format", "game", "rules_version", "options", "seats", "players", "secret"}
    known |= {"commitment", "contributions", "seed", "log", "checks", "outcome"}
    file = MatchFile(
        game=game_id,
        options=options,
        seats=seats,
        players=list(data.get("players") or []),
        log=log_from_json(game, data.get("log", [])),
        checks=checks,
        secret=secret,
        commitment=str(data.get("commitment", "")),
        contributions=contributions,
        seed=seed,
        rules_version=rules_version,
        outcome=data.get("outcome"),
        extra={k: v for k, v in data.items() if k not in known},
    )
    return file, game


class StepRefused(IllegalAction):
    """An action of a match file that does not apply; ``index`` is its place in the log."""

    def __init__(self, index: int, seat: Seat, action: Any, cause: IllegalAction) -> None:
        super().__init__(cause.code, f"action {index} (seat {seat}, {action}): {cause.reason}")
        self.index = index


@dataclass(frozen=True)
class Step:
    """One replayed action: its index, who played it, the events and the state after it."""

    index: int
    seat: Seat
    action: Any
    events: tuple[Event, ...]
    state: State


def start_state(file: MatchFile, game: Game) -> State:
    """Return the match of the file as dealt, before its first action."""
    return game.new_state(game.options(file.options), file.seats, file.match_seed())


def steps(file: MatchFile, game: Game) -> Iterator[Step]:
    """Yield every action of the file replayed from the deal, with the state after it;
    raise ``StepRefused`` naming the index of an action that does not apply."""
    state = start_state(file, game)
    for index, (seat, action) in enumerate(file.log):
        try:
            events = state.apply(seat, action)
        except IllegalAction as exc:
            raise StepRefused(index, seat, action, exc) from exc
        yield Step(index, seat, action, tuple(events), state)


def record(
    game: Game,
    options: Mapping[str, JSON],
    seats: int,
    log: Sequence[LogEntry],
    *,
    players: Sequence[JSON] = (),
    seed: bytes = b"",
    secret: str = "",
    contributions: Sequence[str] = (),
) -> MatchFile:
    """Return the match file of a log, its per-action digests computed by replaying it
    (from ``secret`` and ``contributions`` when given, else from ``seed``)."""
    draft = MatchFile(
        game=game.id,
        options=dict(options),
        seats=seats,
        players=list(players),
        log=list(log),
        secret=secret,
        commitment=commitment(bytes.fromhex(secret)) if secret else "",
        contributions=list(contributions),
        seed=seed.hex(),
        rules_version=game.rules_version,
    )
    checks: list[str] = []
    last: State | None = None
    for step in steps(draft, game):
        checks.append(events_digest(step.events))
        last = step.state
    outcome = last.outcome() if last is not None else None
    return replace(draft, checks=checks, outcome=outcome.to_json() if outcome else None)


@dataclass(frozen=True)
class FileCheck:
    """What checking a match file found: ``ok``, the first problem in words, and the index of
    the first action that differs (None where the problem is not one action's)."""

    ok: bool
    problem: str = ""
    action_index: int | None = None
    outcome: JSON = None


def check_file(file: MatchFile, game: Game, *, finished_only: bool = True) -> FileCheck:
    """Return whether a match file is consistent: the secret has its commitment, every action
    replays legally with the events its digest recorded, and the replay ends in the recorded
    outcome (a match that is not over fails when ``finished_only``)."""
    if file.rules_version != game.rules_version:
        return FileCheck(
            False,
            f"the match was played under {game.title} rules version {file.rules_version}; "
            f"this server plays version {game.rules_version}",
        )
    if file.secret and commitment(bytes.fromhex(file.secret)) != file.commitment:
        return FileCheck(False, "the revealed secret does not match the commitment")
    if file.checks and len(file.checks) != len(file.log):
        return FileCheck(
            False, f"the file has {len(file.log)} actions but {len(file.checks)} digests"
        )
    last: State | None = None
    try:
        game.options(file.options)
        for step in steps(file, game):
            if file.checks and events_digest(step.events) != file.checks[step.index]:
                return FileCheck(
                    False,
                    f"action {step.index} (seat {step.seat}, {step.action}) replays to other "
                    "events than the file recorded",
                    step.index,
                )
            last = step.state
    except StepRefused as exc:
        return FileCheck(False, f"the log does not replay: {exc.reason}", exc.index)
    except MeldhallError as exc:
        return FileCheck(False, f"the file cannot be replayed: {exc}")
    end = last.outcome() if last is not None else None
    outcome = end.to_json() if end is not None else None
    if outcome is None and finished_only:
        return FileCheck(False, "the match is not over: only a finished match verifies")
    if file.outcome is not None and file.outcome != outcome:
        return FileCheck(False, "the replay ends in another result than the file records")
    return FileCheck(True, "", None, outcome)
