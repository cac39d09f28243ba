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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from meldhall.core.actions import VARIABLE, Codec, Coded, Form, Int, Name, Optional, Piece, Pieces
from meldhall.core.engine import JSON
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


_MELD_RE = re.compile(r"\[([^\[\]]*)\]")


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


def _card(token: str) -> int:
    return _cards([token], "a card")[0]


def _many(tokens: Sequence[str]) -> tuple[int, ...]:
    return tuple(_cards(list(tokens), "cards"))


CARD = Piece(card_token, _card)
"""A card by its token, in any case (``9C#1``; without ``#`` the lowest free pack)."""
CARDS = Pieces(CARD, _many, least=1, strict_count=True)
MELD_ID = Int("a meld", 0, None, prefix="m", fold_case=True)
"""A meld on the table: ``m0`` in the text form, ``0`` in JSON."""
END = Optional(Name("the end", ("low", "high"), index=False, fold_case=True))


@dataclass(frozen=True, slots=True)
class MeldSpecs:
    """Melds in brackets (``[5H JK=6H 7H] [2C 3C 4C]``), copies assigned over all of them;
    in JSON a list of ``{"cards": [...], "declare": [...]}`` (``one``: exactly one meld,
    a single object in JSON)."""

    one: bool = False
    width: int = VARIABLE
    least: int = 1

    def write(self, value: Any) -> list[str]:
        """Return the words of the bracketed melds."""
        melds = (value,) if self.one else value
        return " ".join(str(m) for m in melds).split()

    def read(self, words: Sequence[str]) -> Any:
        """Return the melds of the words."""
        body = " ".join(words)
        groups = [g.split() for g in _MELD_RE.findall(body)]
        if not groups or _MELD_RE.sub("", body).strip():
            raise ParseError("melds are written in brackets, [5H 6H 7H]")
        melds = _melds(groups, "melds")
        if not self.one:
            return melds
        if len(melds) != 1:
            raise ParseError("MELD lays one meld")
        return melds[0]

    def dump(self, value: Any) -> JSON:
        """Return the JSON object (or list of objects) of the melds."""
        return value.to_json() if self.one else [m.to_json() for m in value]

    def load(self, data: Any) -> Any:
        """Return the melds of their JSON form."""
        if self.one:
            return _json_melds([data], "meld")[0]
        if not isinstance(data, list) or not data:
            raise ParseError("'melds' is a non-empty list")
        return _json_melds(data, "melds")


@dataclass(frozen=True, slots=True)
class DrawStock(Coded):
    """Take the top card of the stock."""

    form = Form("DRAW_STOCK")


@dataclass(frozen=True, slots=True)
class DrawDiscard(Coded):
    """Take the top card of the discard pile."""

    form = Form("DRAW_DISCARD")


@dataclass(frozen=True, slots=True)
class Open(Coded):
    """The first melds of a player, worth the opening minimum together (section 6)."""

    melds: tuple[MeldSpec, ...]
    form = Form("OPEN", melds=MeldSpecs())


@dataclass(frozen=True, slots=True)
class MeldAction(Coded):
    """A new meld from the hand of an open player."""

    meld: MeldSpec
    form = Form("MELD", meld=MeldSpecs(one=True))


@dataclass(frozen=True, slots=True)
class LayOff(Coded):
    """One card onto a meld on the table; ``end`` for runs only (section 7)."""

    card: int
    meld: int
    end: End | None
    form = Form("LAY_OFF", card=CARD, meld=MELD_ID, end=END)


@dataclass(frozen=True, slots=True)
class Exchange(Coded):
    """Give natural card(s) to a meld and take one of its jokers (section 8)."""

    meld: int
    give: tuple[int, ...]
    take: int
    form = Form(
        "EXCHANGE",
        text="{meld} give {give} take {take}",
        together=("give", "take"),
        meld=MELD_ID,
        give=CARDS,
        take=CARD,
    )


@dataclass(frozen=True, slots=True)
class Discard(Coded):
    """Discard a card; ends the turn (or the hand, when it is the last card)."""

    card: int
    form = Form("DISCARD", card=CARD)


DRAW_STOCK = DrawStock()
DRAW_DISCARD = DrawDiscard()
DISCARDS: tuple[Discard, ...] = tuple(Discard(c) for c in range(MAX_CARDS))
"""Shared instances (actions are immutable values): ``DISCARDS[card]`` discards that card."""

RemiAction = DrawStock | DrawDiscard | Open | MeldAction | LayOff | Exchange | Discard
CODEC = Codec(
    "remi", (DrawStock, DrawDiscard, Open, MeldAction, LayOff, Exchange, Discard), fold_case=True
)
"""Remi's actions; verbs and words are read in any case."""


def parse_action(text: str) -> RemiAction:
    """Return the action of its text form, or raise ``ParseError`` naming the bad part."""
    action: RemiAction = CODEC.parse_action(text)
    return action


def action_from_json(data: Any) -> RemiAction:
    """Return the action of its JSON form, or raise ``ParseError`` naming the bad part."""
    action: RemiAction = CODEC.action_from_json(data)
    return action
