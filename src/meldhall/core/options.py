"""Rule options as frozen dataclasses: one field per option of a spec, defaults as the preset.

``parse_options`` checks names and values against the dataclass's type hints: a ``Literal``
takes only its listed values, ``bool`` only true/false, ``int`` only whole numbers inside the
``range`` given in the field's metadata.

>>> from dataclasses import dataclass, field
>>> from typing import Literal
>>> @dataclass(frozen=True)
... class Demo:
...     players: int = field(default=4, metadata={"range": (2, 4)})
...     mode: Literal["a", "b"] = "a"
>>> parse_options(Demo, {"players": 3})
Demo(players=3, mode='a')
>>> parse_options(Demo, {"mode": "c"})
Traceback (most recent call last):
...
meldhall.core.errors.OptionsError: option 'mode' takes one of 'a', 'b', not 'c'

A ``Literal`` may mix types (``Literal[25, 0, "double"]``); ``True`` never passes for ``1``.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, get_args, get_origin

from meldhall.core.errors import OptionsError

OptionsT = TypeVar("OptionsT")


def _check(name: str, hint: Any, value: Any, meta: Mapping[str, Any]) -> Any:
    origin = get_origin(hint)
    if origin is Literal:
        allowed = get_args(hint)
        if not any(type(value) is type(a) and value == a for a in allowed):
            listed = ", ".join(repr(a) for a in allowed)
            raise OptionsError(f"option {name!r} takes one of {listed}, not {value!r}")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise OptionsError(f"option {name!r} is on or off (true/false), not {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionsError(f"option {name!r} takes a whole number, not {value!r}")
        low, high = meta.get("range", (None, None))
        if (low is not None and value < low) or (high is not None and value > high):
            raise OptionsError(f"option {name!r} takes {low} to {high}, not {value}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise OptionsError(f"option {name!r} takes text, not {value!r}")
        return value
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        if value is None and type(None) in get_args(hint):
            return None
        errors = []
        for arm in get_args(hint):
            if arm is type(None):
                continue
            try:
                return _check(name, arm, value, meta)
            except OptionsError as exc:
                errors.append(str(exc))
        raise OptionsError(errors[0] if errors else f"option {name!r}: bad value {value!r}")
    convert = meta.get("convert")
    if convert is not None:
        try:
            return convert(value)
        except (TypeError, ValueError) as exc:
            raise OptionsError(f"option {name!r}: {exc}") from exc
    return value


def parse_options(cls: type[OptionsT], raw: Mapping[str, Any] | None) -> OptionsT:
    """Return ``cls`` built from ``raw`` (spec option names to values), defaults elsewhere.

    Raises ``OptionsError`` naming the option for an unknown name or a wrong value.
    """
    if raw is None:
        return cls()
    if not isinstance(raw, Mapping):
        raise OptionsError(f"options must be a mapping of names to values, not {raw!r}")
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for name, value in raw.items():
        f = fields.get(name)
        if f is None:
            known = ", ".join(fields)
            raise OptionsError(f"unknown option {name!r}; this game has: {known}")
        values[name] = _check(name, hints[name], value, f.metadata)
    options = cls(**values)
    validate = getattr(options, "validate", None)
    if callable(validate):
        validate()
    return options


def options_to_json(options: Any) -> dict[str, Any]:
    """Return the JSON-ready mapping of every option of a frozen options dataclass."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out
