"""Remi's actions (remi.md 4) with their one text form and one JSON form.

Text forms (keywords in any case; cards as tokens, ``#`` packs optional, copies assigned over
the whole action as in ``parse_cards``; a joker in a meld may carry what it stands for):

    DRAW_STOCK | DRAW_DISCARD | DISCARD 9C#1
    OPEN [10H#1 10S#1 JK#1=10?] [2C#1 3C#1 4C#1]
    MELD [5H#1 JK#1=6H 7H#1]
    LAY_OFF JS#1 m0 low          (sets: no end)
    EXCHANGE m2 give 10D#1 10C#1 take JK#1

>>> a = parse_action("lay_off js m0 LOW")
>>> str(a), a.to_json()
('LAY_OFF JS#1 m0 low', {'type': 'lay_off', 'card': 'JS#1', 'meld': 0, 'end': 'low'})
>>> action_from_json(a.to_json()) == a
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from meldhall.core.actions import BareAction, by_json_type, by_text
from meldhall.core.errors import ParseError
from meldhall.games.remi.pieces import FIRST_JOKER, MAX_CARDS, card_token, parse_card_list
from meldhall.games.remi.pieces import parse_identity as _parse_identity

End = Literal["low", "high"]

_ALL_JOKERS = MAX_CARDS - FIRST_JOKER


@dataclass(frozen=True, slots=True)
class MeldSpec:
    """A meld as an action lays it: card ids in order (runs ascending) and, per joker in card
    order, the identity it is declared to stand for (None: undeclared)."""

    cards: tuple[int, ...]
    declare: tuple[str | None, ...]

    def __str__(self) -> str:
        words: list[str] = []
        said = iter(self.declare)
        for c in self.cards:
            word = card_token(c)
            if c >= FIRST_JOKER:
                identity = next(said, None)
                if identity is not None:
                    word += f"={identity}"
            words.append(word)
        return "[" + " ".join(words) + "]"

    def to_json(self) -> dict[str, Any]:
        """Return ``{"cards": [...], "declare": [...]}`` (declare only when it holds jokers)."""
        out: dict[str, Any] = {"cards": [card_token(c) for c in self.cards]}
        if self.declare:
            out["declare"] = list(self.declare)
        return out


@dataclass(frozen=True, slots=True)
class DrawStock(BareAction):
    """Take the top card of the stock."""

    text = "DRAW_STOCK"
    json_type = "draw_stock"


@dataclass(frozen=True, slots=True)
class DrawDiscard(BareAction):
    """Take the top card of the discard pile."""

    text = "DRAW_DISCARD"
    json_type = "draw_discard"


@dataclass(frozen=True, slots=True)
class Open:
    """The first melds of a player, worth the opening minimum together (section 6)."""

    melds: tuple[MeldSpec, ...]

    def __str__(self) -> str:
        return "OPEN " + " ".join(str(m) for m in self.melds)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "open", "melds": [m.to_json() for m in self.melds]}


@dataclass(frozen=True, slots=True)
class MeldAction:
    """A new meld from the hand of an open player."""

    meld: MeldSpec

    def __str__(self) -> str:
        return f"MELD {self.meld}"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "meld", "meld": self.meld.to_json()}


@dataclass(frozen=True, slots=True)
class LayOff:
    """One card onto a meld on the table; ``end`` for runs only (section 7)."""

    card: int
    meld: int
    end: End | None

    def __str__(self) -> str:
        tail = f" {self.end}" if self.end else ""
        return f"LAY_OFF {card_token(self.card)} m{self.meld}{tail}"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {
            "type": "lay_off",
            "card": card_token(self.card),
            "meld": self.meld,
            "end": self.end,
        }


@dataclass(frozen=True, slots=True)
class Exchange:
    """Give natural card(s) to a meld and take one of its jokers (section 8)."""

    meld: int
    give: tuple[int, ...]
    take: int

    def __str__(self) -> str:
        given = " ".join(card_token(c) for c in self.give)
        return f"EXCHANGE m{self.meld} give {given} take {card_token(self.take)}"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {
            "type": "exchange",
            "meld": self.meld,
            "give": [card_token(c) for c in self.give],
            "take": card_token(self.take),
        }


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card; ends the turn (or the hand, when it is the last card)."""

    card: int

    def __str__(self) -> str:
        return f"DISCARD {card_token(self.card)}"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"type": "discard", "card": card_token(self.card)}


DRAW_STOCK = DrawStock()
DRAW_DISCARD = DrawDiscard()
DISCARDS: tuple[Discard, ...] = tuple(Discard(c) for c in range(MAX_CARDS))
"""Shared instances (actions are immutable values): ``DISCARDS[card]`` discards that card."""

RemiAction = DrawStock | DrawDiscard | Open | MeldAction | LayOff | Exchange | Discard
_BARE: tuple[RemiAction, ...] = (DRAW_STOCK, DRAW_DISCARD)
_BARE_BY_TEXT = by_text(_BARE)
_BARE_BY_TYPE = by_json_type(_BARE)
_JSON_KEYS: dict[str, frozenset[str]] = {
    **dict.fromkeys(_BARE_BY_TYPE, frozenset()),
    "open": frozenset({"melds"}),
    "meld": frozenset({"meld"}),
    "lay_off": frozenset({"card", "meld", "end"}),
    "exchange": frozenset({"meld", "give", "take"}),
    "discard": frozenset({"card"}),
}
"""The keys besides ``"type"`` of each JSON type (``end`` may be left out)."""

_MELD_RE = re.compile(r"\[([^\[\]]*)\]")
_MELD_ID_RE = re.compile(r"^m(\d+)$")


def _check_identity(text: str, where: str) -> str:
    try:
        _parse_identity(text)
    except ParseError as exc:
        raise ParseError(f"{where}: {exc}") from exc
    return text


def _melds(groups: list[list[str]], where: str) -> tuple[MeldSpec, ...]:
    """Parse meld word groups (``JK=6H`` allowed) with copies assigned over all of them."""
    flat: list[str] = []
    said: list[str | None] = []
    for words in groups:
        if not words:
            raise ParseError(f"{where}: an empty meld")
        for word in words:
            token, sep, identity = word.partition("=")
            if sep and not token.upper().startswith("JK"):
                raise ParseError(f"{where}: only a joker carries '=': {word!r}")
            flat.append(token.upper())
            said.append(_check_identity(identity.upper(), where) if sep else None)
    ids = _cards(flat, where)
    out: list[MeldSpec] = []
    pos = 0
    for words in groups:
        cards = tuple(ids[pos : pos + len(words)])
        declare = tuple(said[pos + i] for i, c in enumerate(cards) if c >= FIRST_JOKER)
        out.append(MeldSpec(cards, declare))
        pos += len(words)
    return tuple(out)


def _cards(tokens: list[str], where: str) -> list[int]:
    try:
        return parse_card_list([t.upper() for t in tokens], _ALL_JOKERS)
    except ParseError as exc:
        raise ParseError(f"{where}: {exc}") from exc


def _meld_id(text: str, where: str) -> int:
    m = _MELD_ID_RE.match(text.lower())
    if m is None:
        raise ParseError(f"{where}: a meld is named m<number>, not {text!r}")
    return int(m.group(1))


def _end(text: str | None, where: str) -> End | None:
    if text is None:
        return None
    low = text.lower()
    if low == "low":
        return "low"
    if low == "high":
        return "high"
    raise ParseError(f"{where}: the end is low or high, not {text!r}")


def parse_action(text: str) -> RemiAction:
    """Return the action of its text form, or raise ``ParseError`` naming the bad part."""
    where = f"remi action {text!r}"
    words = text.split()
    if not words:
        raise ParseError(f"{where}: empty")
    verb, rest = words[0].upper(), words[1:]
    if verb in _BARE_BY_TEXT and not rest:
        return _BARE_BY_TEXT[verb]
    if verb == "DISCARD" and len(rest) == 1:
        return Discard(_cards(rest, where)[0])
    if verb in ("OPEN", "MELD"):
        body = text.split(None, 1)[1] if rest else ""
        groups = [g.split() for g in _MELD_RE.findall(body)]
        if not groups or _MELD_RE.sub("", body).strip():
            raise ParseError(f"{where}: melds are written in brackets, [5H 6H 7H]")
        melds = _melds(groups, where)
        if verb == "OPEN":
            return Open(melds)
        if len(melds) != 1:
            raise ParseError(f"{where}: MELD lays one meld")
        return MeldAction(melds[0])
    if verb == "LAY_OFF" and len(rest) in (2, 3):
        end = _end(rest[2] if len(rest) == 3 else None, where)
        return LayOff(_cards(rest[:1], where)[0], _meld_id(rest[1], where), end)
    if verb == "EXCHANGE" and len(rest) >= 5 and rest[1].lower() == "give":
        if rest[-2].lower() != "take":
            raise ParseError(f"{where}: EXCHANGE m<id> give <cards> take <joker>")
        ids = _cards([*rest[2:-2], rest[-1]], where)
        return Exchange(_meld_id(rest[0], where), tuple(ids[:-1]), ids[-1])
    raise ParseError(f"{where}: not a remi action")


def _json_meld(data: Any, where: str) -> tuple[list[str], list[str | None]]:
    if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
        raise ParseError(f"{where}: a meld is {{'cards': [...], 'declare': [...]}}")
    cards = data["cards"]
    if not all(isinstance(c, str) for c in cards):
        raise ParseError(f"{where}: cards are tokens")
    declare = data.get("declare", [])
    if not isinstance(declare, list) or not all(d is None or isinstance(d, str) for d in declare):
        raise ParseError(f"{where}: declare is a list of identities or null")
    jokers = sum(1 for c in cards if c.upper().startswith("JK"))
    if declare and len(declare) != jokers:
        raise ParseError(f"{where}: declare needs one entry per joker")
    return cards, declare or [None] * jokers


def _json_melds(items: list[Any], where: str) -> tuple[MeldSpec, ...]:
    groups: list[list[str]] = []
    for item in items:
        cards, declare = _json_meld(item, where)
        said = iter(declare)
        groups.append(
            [
                c + (f"={d}" if c.upper().startswith("JK") and (d := next(said)) else "")
                for c in cards
            ]
        )
    return _melds(groups, where)


def action_from_json(data: Any) -> RemiAction:
    """Return the action of its JSON form, or raise ``ParseError`` naming the bad part."""
    where = f"remi action {data!r}"
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise ParseError(f"{where}: an action is an object with a 'type'")
    kind = data["type"]
    keys = set(data) - {"type"}
    expected = _JSON_KEYS.get(kind)
    if expected is None:
        raise ParseError(f"{where}: unknown action type {kind!r}")
    if keys - expected or (expected - keys - {"end"}):
        raise ParseError(f"{where}: {kind} takes the keys {sorted(expected)}")
    if kind in _BARE_BY_TYPE:
        return _BARE_BY_TYPE[kind]
    if kind == "discard":
        return Discard(_cards([_str(data["card"], where)], where)[0])
    if kind == "open":
        if not isinstance(data["melds"], list) or not data["melds"]:
            raise ParseError(f"{where}: 'melds' is a non-empty list")
        return Open(_json_melds(data["melds"], where))
    if kind == "meld":
        return MeldAction(_json_melds([data["meld"]], where)[0])
    meld = data["meld"]
    if isinstance(meld, bool) or not isinstance(meld, int) or meld < 0:
        raise ParseError(f"{where}: 'meld' is a meld number")
    if kind == "lay_off":
        end = data.get("end")
        if end is not None and not isinstance(end, str):
            raise ParseError(f"{where}: 'end' is 'low', 'high' or null")
        return LayOff(_cards([_str(data["card"], where)], where)[0], meld, _end(end, where))
    give = data["give"]
    if not isinstance(give, list) or not give:
        raise ParseError(f"{where}: 'give' is a non-empty list of cards")
    ids = _cards([*(_str(c, where) for c in give), _str(data["take"], where)], where)
    return Exchange(meld, tuple(ids[:-1]), ids[-1])


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ParseError(f"{where}: {value!r} is not a card token")
    return value
