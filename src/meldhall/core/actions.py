"""The action codec: every game declares its actions once, and the text form, the JSON form
and both parsers follow from the declaration.

An action is a frozen slotted dataclass that subclasses ``Coded`` and sets ``form``: the verb
(the first word of its text form), the JSON ``"type"`` when it differs from the verb, and its
fields in order, each with a ``Kind`` saying how one value is written and read (a piece, a
list of pieces, a number, a name, or a game's own structure). The text form is the verb and
the fields' words in order (or a ``text`` template with literal words); the JSON form is
``{"type": ..., field: value, ...}``. A game's ``Codec`` lists its action classes and gives
``parse_action``, ``action_from_json`` and ``check`` (the guard ``apply`` runs first).

>>> @dataclass(frozen=True, slots=True)
... class Draw(Coded):
...     '''Draw a tile.'''
...     form = Form("draw", json_type="draw_stock")
>>> TILE = Piece(("R1a", "R1b").__getitem__, ("R1a", "R1b").index)
>>> @dataclass(frozen=True, slots=True)
... class Discard(Coded):
...     '''Discard one tile.'''
...     tile: int
...     form = Form("discard", tile=TILE)
>>> codec = Codec("demo", (Draw, Discard))
>>> str(Draw()), Draw().to_json(), str(Discard(1)), Discard(1).to_json()
('draw', {'type': 'draw_stock'}, 'discard R1b', {'type': 'discard', 'tile': 'R1b'})
>>> codec.parse_action("discard R1a"), codec.action_from_json({"type": "draw_stock"})
(Discard(tile=0), Draw())
>>> codec.parse_action("discard R2")
Traceback (most recent call last):
...
meldhall.core.errors.ParseError: demo action 'discard R2': tile: 'R2' names no piece of this game
>>> try:
...     codec.check(Discard(2))
... except IllegalAction as exc:
...     print(exc.code)
MALFORMED_ACTION
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from meldhall.core.engine import JSON
from meldhall.core.errors import MALFORMED_ACTION, UNKNOWN_ACTION, IllegalAction, ParseError

Handler = Callable[[Any, int, Any, list[Any]], None]
"""A state's handler of one action class: ``handler(state, seat, action, events)`` changes
the state and appends the events, or raises ``IllegalAction`` before changing anything."""

VARIABLE = -1
"""The width of a kind that takes any number of words (at most one such field per form)."""


class Kind(Protocol):
    """How one field value is written and read: ``width`` text words (``VARIABLE``: any
    number, at least ``least``), and one JSON value."""

    @property
    def width(self) -> int:
        """Return the number of text words (``VARIABLE``: any number)."""
        ...

    @property
    def least(self) -> int:
        """Return the least number of text words of a ``VARIABLE`` kind."""
        ...

    def write(self, value: Any) -> list[str]:
        """Return the text words of ``value``."""
        ...

    def read(self, words: Sequence[str]) -> Any:
        """Return the value of its text words, or raise ``ParseError``."""
        ...

    def dump(self, value: Any) -> JSON:
        """Return the JSON value of ``value``."""
        ...

    def load(self, data: Any) -> Any:
        """Return the value of its JSON value, or raise ``ParseError``."""
        ...


def _text(data: Any, what: str) -> str:
    if not isinstance(data, str):
        raise ParseError(f"{what} is a token, not {data!r}")
    return data


def _reading(read: Callable[[str], Any], token: str) -> Any:
    """Return ``read(token)``, any failure of the game's reader turned into ``ParseError``."""
    try:
        return read(token)
    except ParseError:
        raise
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise ParseError(f"{token!r} names no piece of this game") from None


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece as one token: ``write(value)`` gives the token, ``read(token)`` the value
    (raising ``ParseError``, ``ValueError`` or ``KeyError`` for a bad token)."""

    write_token: Callable[[Any], str]
    read_token: Callable[[str], Any]
    width: int = 1
    least: int = 1

    def write(self, value: Any) -> list[str]:
        """Return ``[token]``."""
        return [self.write_token(value)]

    def read(self, words: Sequence[str]) -> Any:
        """Return the piece of its one word."""
        return _reading(self.read_token, words[0])

    def dump(self, value: Any) -> JSON:
        """Return the token."""
        return self.write_token(value)

    def load(self, data: Any) -> Any:
        """Return the piece of a token."""
        return _reading(self.read_token, _text(data, "a piece"))

    def read_many(self, tokens: Sequence[str]) -> tuple[Any, ...]:
        """Return the pieces of several tokens read one by one."""
        return tuple(_reading(self.read_token, t) for t in tokens)


@dataclass(frozen=True, slots=True)
class Pieces:
    """A tuple of pieces as tokens: ``read_many`` reads them together (copies assigned over
    the list where the game does so); ``count`` fixes their number, ``least`` bounds it in
    the text form (and in JSON with ``strict_count``)."""

    piece: Piece
    read_many: Callable[[Sequence[str]], tuple[Any, ...]] | None = None
    count: int | None = None
    least: int = 0
    strict_count: bool = False

    @property
    def width(self) -> int:
        """Return the number of words (``VARIABLE`` unless ``count`` is set)."""
        return self.count if self.count is not None else VARIABLE

    def write(self, value: Any) -> list[str]:
        """Return one token per piece."""
        token = self.piece.write_token
        return [token(v) for v in value]

    def read(self, words: Sequence[str]) -> tuple[Any, ...]:
        """Return the pieces of the words."""
        return self.read_all(words)

    def dump(self, value: Any) -> JSON:
        """Return the list of tokens."""
        token = self.piece.write_token
        return [token(v) for v in value]

    def load(self, data: Any) -> tuple[Any, ...]:
        """Return the pieces of a list of tokens."""
        if not isinstance(data, list | tuple) or not all(isinstance(t, str) for t in data):
            raise ParseError(f"pieces are a list of tokens, not {data!r}")
        if self.strict_count and len(data) < self.least:
            raise ParseError(f"at least {self.least} pieces, not {len(data)}")
        return self.read_all(data)

    def read_all(self, tokens: Sequence[str]) -> tuple[Any, ...]:
        """Return the pieces of the tokens, read together."""
        if self.read_many is None:
            return self.piece.read_many(tokens)
        try:
            return self.read_many(tokens)
        except ParseError:
            raise
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ParseError(f"{list(tokens)!r}: {exc}") from None


@dataclass(frozen=True, slots=True)
class Int:
    """A whole number ``low..high`` (None: unbounded), written ``prefix`` + digits; with
    ``digit_strings`` a JSON string of digits is read too."""

    what: str
    low: int | None = 0
    high: int | None = None
    prefix: str = ""
    digit_strings: bool = False
    fold_case: bool = False
    width: int = 1
    least: int = 1

    def write(self, value: Any) -> list[str]:
        """Return ``[prefix + digits]``."""
        return [f"{self.prefix}{value}"]

    def read(self, words: Sequence[str]) -> int:
        """Return the number of its word."""
        word = words[0].lower() if self.fold_case else words[0]
        digits = word[len(self.prefix) :] if word.startswith(self.prefix) else ""
        if not (digits.isascii() and digits.isdigit()):
            raise ParseError(f"{self.what} is written {self.prefix}<number>, not {words[0]!r}")
        return self._bounded(int(digits), words[0])

    def dump(self, value: Any) -> JSON:
        """Return the number."""
        return int(value)

    def load(self, data: Any) -> int:
        """Return the number of a JSON number (or digit string with ``digit_strings``)."""
        if self.digit_strings and isinstance(data, str) and data.isascii() and data.isdigit():
            data = int(data)
        if isinstance(data, bool) or not isinstance(data, int):
            raise ParseError(f"{self.what} is a whole number, not {data!r}")
        return self._bounded(data, data)

    def _bounded(self, number: int, shown: object) -> int:
        if (self.low is not None and number < self.low) or (
            self.high is not None and number > self.high
        ):
            span = (
                f"{'' if self.low is None else self.low}..{'' if self.high is None else self.high}"
            )
            raise ParseError(f"{self.what} is a whole number {span}, not {shown!r}")
        return number


@dataclass(frozen=True, slots=True)
class Ints:
    """A tuple of whole numbers of at least ``least`` words (any int in JSON)."""

    number: Int
    least: int = 0
    width: int = VARIABLE

    def write(self, value: Any) -> list[str]:
        """Return one word per number."""
        return [w for v in value for w in self.number.write(v)]

    def read(self, words: Sequence[str]) -> tuple[int, ...]:
        """Return the numbers of the words."""
        return tuple(self.number.read([w]) for w in words)

    def dump(self, value: Any) -> JSON:
        """Return the list of numbers."""
        return [int(v) for v in value]

    def load(self, data: Any) -> tuple[int, ...]:
        """Return the numbers of a JSON list."""
        if not isinstance(data, list | tuple):
            raise ParseError(f"{self.number.what}s are a list, not {data!r}")
        return tuple(self.number.load(v) for v in data)


@dataclass(frozen=True, slots=True)
class Name:
    """One of ``names``, kept as its index (``index``) or as the name itself; with
    ``fold_case`` read in any case (``names`` are then lower case)."""

    what: str
    names: tuple[str, ...]
    index: bool = True
    fold_case: bool = False
    width: int = 1
    least: int = 1

    def write(self, value: Any) -> list[str]:
        """Return ``[name]``."""
        return [self.dump(value)]

    def read(self, words: Sequence[str]) -> Any:
        """Return the value of its word."""
        return self.load(words[0])

    def dump(self, value: Any) -> str:
        """Return the name."""
        return self.names[value] if self.index else str(value)

    def load(self, data: Any) -> Any:
        """Return the value of a name."""
        key = data.lower() if self.fold_case and isinstance(data, str) else data
        if not isinstance(key, str) or key not in self.names:
            raise ParseError(f"{self.what} is one of {', '.join(self.names)}, not {data!r}")
        return self.names.index(key) if self.index else key


@dataclass(frozen=True, slots=True)
class Optional:
    """``kind`` or None: left out of the text form, and null or absent in JSON."""

    kind: Kind

    @property
    def width(self) -> int:
        """Return the width of the kind."""
        return self.kind.width

    @property
    def least(self) -> int:
        """Return the least width of the kind."""
        return self.kind.least

    def write(self, value: Any) -> list[str]:
        """Return no words for None."""
        return [] if value is None else self.kind.write(value)

    def read(self, words: Sequence[str]) -> Any:
        """Return the value of its words (None for none)."""
        return self.kind.read(words) if words else None

    def dump(self, value: Any) -> JSON:
        """Return null for None."""
        return None if value is None else self.kind.dump(value)

    def load(self, data: Any) -> Any:
        """Return None for null."""
        return None if data is None else self.kind.load(data)


@dataclass(frozen=True, slots=True)
class Nested:
    """An action of ``codec`` among ``allowed`` classes, written as its whole text form."""

    what: str
    allowed: tuple[type[Coded], ...]
    codec: Callable[[], Codec]
    width: int = VARIABLE
    least: int = 1

    def write(self, value: Any) -> list[str]:
        """Return the words of the action's text form."""
        return str(value).split()

    def read(self, words: Sequence[str]) -> Any:
        """Return the action of its words."""
        return self._allowed(self.codec().parse_action(" ".join(words)), words)

    def dump(self, value: Any) -> JSON:
        """Return the action's JSON form."""
        return value.to_json()

    def load(self, data: Any) -> Any:
        """Return the action of its JSON form."""
        return self._allowed(self.codec().action_from_json(data), data)

    def _allowed(self, action: Any, source: object) -> Any:
        if not isinstance(action, self.allowed):
            names = ", ".join(f.form.verb for f in self.allowed)
            raise ParseError(f"{self.what} is one of {names}, not {source!r}")
        return action


@dataclass(frozen=True, slots=True)
class Record:
    """A value of a ``Coded`` class without its verb: the fields of its form, as the JSON
    object of those fields (no ``"type"``) and as its words in the text form."""

    cls: type[Coded]
    width: int = VARIABLE
    least: int = 0

    def write(self, value: Any) -> list[str]:
        """Return the words of its fields."""
        return self.cls.form.words(value)

    def read(self, words: Sequence[str]) -> Any:
        """Return the value of its words."""
        return self.cls(**self.cls.form.read_words(list(words)))

    def dump(self, value: Any) -> JSON:
        """Return the object of its fields."""
        return self.cls.form.fields_json(value)

    def load(self, data: Any) -> Any:
        """Return the value of an object of its fields."""
        if not isinstance(data, Mapping):
            raise ParseError(f"a {self.cls.form.verb} is an object, not {data!r}")
        return self.cls(**self.cls.form.load_fields(data, strict=False))


@dataclass(frozen=True, slots=True)
class Records:
    """A tuple of ``Record`` values: a JSON list of objects (text forms are the game's)."""

    record: Record
    width: int = VARIABLE
    least: int = 0

    def write(self, value: Any) -> list[str]:
        """Return the words of every record (a game's text template separates them)."""
        return [w for v in value for w in self.record.write(v)]

    def read(self, words: Sequence[str]) -> tuple[Any, ...]:  # pragma: no cover - see Form.text
        """Records have no text form of their own."""
        raise ParseError("a list of records is read by its action's text form")

    def dump(self, value: Any) -> JSON:
        """Return the list of objects."""
        return [self.record.dump(v) for v in value]

    def load(self, data: Any) -> tuple[Any, ...]:
        """Return the records of a JSON list."""
        if not isinstance(data, list | tuple):
            raise ParseError(f"a list of {self.record.cls.form.verb}s, not {data!r}")
        return tuple(self.record.load(v) for v in data)


class TextForm(Protocol):
    """A game's own text grammar for one action (after the verb)."""

    def write(self, action: Any) -> list[str]:
        """Return the words after the verb."""
        ...

    def read(self, words: list[str]) -> dict[str, Any]:
        """Return the field values of the words after the verb, or raise ``ParseError``."""
        ...


@dataclass(frozen=True, slots=True)
class _Slot:
    name: str
    kind: Kind | None  # None: a literal word


class Form:
    """The declaration of one action: ``verb``, ``json_type`` (default: the verb, lower
    case), its fields with their kinds (in order), and optionally a ``text`` template of the
    words after the verb (``"{meld} give {give} take {take}"``; default: the fields in
    order) or a game's ``TextForm``. ``together`` names piece fields whose tokens are read
    in one call of the first one's reader (copies assigned over all of them)."""

    def __init__(
        self,
        verb: str,
        *,
        json_type: str | None = None,
        text: str | TextForm | None = None,
        together: tuple[str, ...] = (),
        **fields: Kind,
    ) -> None:
        self.verb = verb
        self.json_type = json_type if json_type is not None else verb.lower()
        self.fields: dict[str, Kind] = fields
        self.together = together
        self.grammar: TextForm | None = None
        if text is None or isinstance(text, str):
            words = (text or " ".join(f"{{{n}}}" for n in fields)).split()
            self.slots = tuple(
                _Slot(w[1:-1], fields[w[1:-1]]) if w.startswith("{") else _Slot(w, None)
                for w in words
            )
        else:
            self.grammar, self.slots = text, ()
        self._fixed = sum(s.kind.width for s in self.slots if s.kind and s.kind.width > 0)
        self._fixed += sum(1 for s in self.slots if s.kind is None)
        variable = [s for s in self.slots if s.kind and s.kind.width == VARIABLE]
        if len(variable) > 1:
            raise TypeError(f"{verb}: at most one field of variable width per text form")
        self._variable = variable[0] if variable else None
        last = self.slots[-1].kind if self.slots else None
        self._optional_last = isinstance(last, Optional)
        if self._optional_last and self._variable is not None:
            raise TypeError(f"{verb}: an optional last field beside a list is ambiguous")
        self._keys = frozenset(fields)
        self._required = frozenset(n for n, k in fields.items() if not isinstance(k, Optional))
        self.fold_case = False

    def words(self, action: Any) -> list[str]:
        """Return the words of the action's fields (its text form without the verb)."""
        if self.grammar is not None:
            return self.grammar.write(action)
        out: list[str] = []
        for slot in self.slots:
            if slot.kind is None:
                out.append(slot.name)
            else:
                out += slot.kind.write(getattr(action, slot.name))
        return out

    def text(self, action: Any) -> str:
        """Return the action's text form."""
        return " ".join([self.verb, *self.words(action)])

    def fields_json(self, action: Any) -> dict[str, JSON]:
        """Return the JSON object of the action's fields (no ``"type"``)."""
        return {name: kind.dump(getattr(action, name)) for name, kind in self.fields.items()}

    def to_json(self, action: Any) -> dict[str, JSON]:
        """Return the action's JSON form."""
        return {"type": self.json_type, **self.fields_json(action)}

    def read_words(self, words: list[str]) -> dict[str, Any]:
        """Return the field values of the words after the verb, or raise ``ParseError``."""
        if self.grammar is not None:
            return self.grammar.read(words)
        count = len(words)
        spare = count - self._fixed
        variable = self._variable
        if variable is not None:
            if spare < variable.kind.least:  # type: ignore[union-attr]
                raise ParseError(f"{self.verb} takes more words: {self.usage()}")
        elif spare != 0 and not (spare == -1 and self._optional_last):
            raise ParseError(f"{self.verb} is written {self.usage()}")
        raw: dict[str, list[str]] = {}
        pos = 0
        for slot in self.slots:
            kind = slot.kind
            if kind is None:
                word = words[pos] if pos < count else ""
                if (word.lower() if self.fold_case else word) != slot.name:
                    raise ParseError(f"{self.verb} is written {self.usage()}")
                pos += 1
                continue
            width = spare if slot is variable else kind.width
            raw[slot.name] = words[pos : pos + width]
            pos += width
        return self._values(raw)

    def _values(self, raw: dict[str, list[str]]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        if self.together:
            joint = [w for n in self.together for w in raw[n]]
            first = self.fields[self.together[0]]
            if isinstance(first, Pieces):
                pieces = list(first.read_all(joint))
            elif isinstance(first, Piece):
                pieces = list(first.read_many(joint))
            else:
                raise TypeError(f"{self.verb}: fields read together are pieces")
            for name in self.together:
                kind, n = self.fields[name], len(raw[name])
                taken, pieces = pieces[:n], pieces[n:]
                values[name] = tuple(taken) if isinstance(kind, Pieces) else taken[0]
        for name, words in raw.items():
            if name in values:
                continue
            try:
                values[name] = self.fields[name].read(words)
            except ParseError as exc:
                raise ParseError(f"{name}: {exc}") from None
        return values

    def load_fields(self, data: Mapping[str, Any], *, strict: bool = True) -> dict[str, Any]:
        """Return the field values of a JSON object, or raise ``ParseError`` (with ``strict``
        the object holds exactly ``"type"`` and the fields, optional ones may be absent)."""
        keys = data.keys() - {"type"} if strict else data.keys() & self._keys
        if strict and (keys - self._keys or self._required - keys):
            raise ParseError(f"{self.json_type} takes the keys {sorted(self._keys)}")
        if not strict and self._required - keys:
            raise ParseError(f"{self.verb} takes the keys {sorted(self._keys)}")
        values: dict[str, Any] = {}
        if self.together:
            for name in self.together:
                value = data[name]
                if not isinstance(self.fields[name], Pieces):
                    value = [value]
                elif not isinstance(value, list) or not value:
                    raise ParseError(f"{name} is a non-empty list of tokens, not {value!r}")
                if not all(isinstance(t, str) for t in value):
                    raise ParseError(f"{name}: pieces are tokens, not {data[name]!r}")
            raw = {
                name: (data[name] if isinstance(self.fields[name], Pieces) else [data[name]])
                for name in self.together
            }
            values.update(self._values(raw))
        for name, kind in self.fields.items():
            if name in values:
                continue
            try:
                values[name] = kind.load(data.get(name))
            except ParseError as exc:
                raise ParseError(f"{name}: {exc}") from None
        return values

    def usage(self) -> str:
        """Return the shape of the text form: ``layoff <tile> <combo> <end>``."""
        return " ".join([self.verb, *(f"<{s.name}>" if s.kind else s.name for s in self.slots)])


@dataclass(frozen=True, slots=True)
class Coded:
    """The base of every declared action: its text form and JSON form follow from ``form``.
    Subclasses are frozen slotted dataclasses: equal when of the same class with equal
    fields, hashable, immutable."""

    form: ClassVar[Form]

    def __str__(self) -> str:
        return self.form.text(self)

    def to_json(self) -> JSON:
        """Return the JSON form: ``{"type": ..., field: value, ...}``."""
        return self.form.to_json(self)


@dataclass
class Codec:
    """A game's actions: ``parse_action`` and ``action_from_json`` read their forms and
    ``check`` guards ``apply``. With ``fold_case`` verbs and literal words are read in any
    case; with ``types_as_text`` a JSON type is read as a text verb too."""

    game: str
    actions: tuple[type[Coded], ...]
    fold_case: bool = False
    types_as_text: bool = False
    _by_verb: dict[str, type[Coded]] = field(init=False, repr=False)
    _by_type: dict[str, type[Coded]] = field(init=False, repr=False)
    _bare: dict[str, Coded] = field(init=False, repr=False)
    _checked: set[Coded] = field(init=False, repr=False, default_factory=set)
    _types: frozenset[type] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        fold = str.upper if self.fold_case else str
        self._by_verb = {fold(cls.form.verb): cls for cls in self.actions}
        self._by_type = {cls.form.json_type: cls for cls in self.actions}
        self._types = frozenset(self.actions)
        if self.types_as_text:
            self._by_verb = {**{fold(t): c for t, c in self._by_type.items()}, **self._by_verb}
        self._bare = {cls.form.json_type: cls() for cls in self.actions if not cls.form.fields}
        for cls in self.actions:
            cls.form.fold_case = self.fold_case

    def parse_action(self, text: str) -> Any:
        """Return the action of its text form, or raise ``ParseError`` naming the text."""
        if not isinstance(text, str):
            raise ParseError(f"an action of {self.game} is text, not {text!r}")
        words = text.split()
        if not words:
            raise ParseError(f"an empty text is not an action of {self.game}")
        cls = self._by_verb.get(words[0].upper() if self.fold_case else words[0])
        if cls is None:
            raise ParseError(f"not an action of {self.game}: {text!r}")
        if not cls.form.fields:
            if len(words) > 1:
                raise ParseError(f"{self.game} action {text!r}: {cls.form.verb} takes no words")
            return self._bare[cls.form.json_type]
        try:
            return cls(**cls.form.read_words(words[1:]))
        except ParseError as exc:
            raise ParseError(f"{self.game} action {text!r}: {exc}") from None

    def action_from_json(self, data: Any) -> Any:
        """Return the action of its JSON form, or raise ``ParseError`` naming the data."""
        if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
            raise ParseError(f'an action of {self.game} is an object with a "type", not {data!r}')
        cls = self._by_type.get(data["type"])
        if cls is None:
            raise ParseError(f"not an action type of {self.game}: {data['type']!r}")
        try:
            if not cls.form.fields:
                cls.form.load_fields(data)
                return self._bare[cls.form.json_type]
            return cls(**cls.form.load_fields(data))
        except ParseError as exc:
            raise ParseError(f"{self.game} action {data!r}: {exc}") from None

    def check(self, action: object, listed: Sequence[object] = ()) -> None:
        """Return None when ``action`` is of one of the game's action classes (exactly: the
        handlers are looked up by class) whose fields all name a
        piece or place (its text form reads back as the same action); else raise
        ``IllegalAction`` with ``UNKNOWN_ACTION`` or ``MALFORMED_ACTION``, never another
        exception. ``listed``: actions the state listed, which read back by construction (the
        conformance tests check it): the very object of one of them passes without the
        text round trip."""
        if type(action) not in self._types:
            raise IllegalAction(UNKNOWN_ACTION, f"not an action of {self.game}: {action!r}")
        try:
            if action in self._checked:
                return
        except TypeError:  # a field holding an unhashable value
            raise IllegalAction(MALFORMED_ACTION, f"{action!r} holds an unhashable value") from None
        for known in listed:
            if known is action:
                return
        try:
            back = self.parse_action(str(action))
        except Exception as exc:  # any failure to write or read it back means a broken field
            message = str(exc).split(": ", 1)[-1] if isinstance(exc, ParseError) else str(exc)
            raise IllegalAction(MALFORMED_ACTION, f"{action!r}: {message}") from None
        if back != action:
            raise IllegalAction(MALFORMED_ACTION, f"{action!r} names no piece or place")
        if len(self._checked) > 50_000:
            self._checked.clear()
        self._checked.add(back)

    def handlers(self, table: Mapping[type, Handler]) -> dict[type, Handler]:
        """Return ``table`` (action class to the state's handler) once it names exactly the
        game's action classes: the one dispatch shape of every game's ``apply``, which runs
        ``handlers[type(action)](state, seat, action, events)`` after ``check``."""
        missing = [c.__name__ for c in self.actions if c not in table]
        extra = [c.__name__ for c in table if c not in self.actions]
        if missing or extra:
            raise TypeError(f"{self.game} handlers: missing {missing}, not actions {extra}")
        return dict(table)

    def verbs(self) -> Iterable[str]:
        """Return the text verbs of the game's actions."""
        return (cls.form.verb for cls in self.actions)
