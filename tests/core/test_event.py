"""``core.engine.Event``: immutable, compared by value, copied and pickled whole."""

from __future__ import annotations

import copy
import pickle

import pytest

from meldhall.core.engine import Event


def _drawn() -> Event:
    return Event("draw", {"seat": 1}, seat=1, private={"tile": "R5a"})


def test_fields_and_defaults() -> None:
    event = Event("pass")
    assert (event.kind, event.public, event.seat, event.private) == ("pass", {}, None, None)
    assert Event("pass").public is not event.public


def test_fields_cannot_be_assigned_or_deleted() -> None:
    event = _drawn()
    with pytest.raises(AttributeError, match="kind"):
        event.kind = "discard"
    with pytest.raises(AttributeError, match="seat"):
        del event.seat
    with pytest.raises(AttributeError):
        event.extra = 1
    assert event == _drawn()


def test_equality_by_value() -> None:
    assert _drawn() == _drawn()
    assert _drawn() != Event("draw", {"seat": 1}, seat=1, private={"tile": "R5b"})
    assert _drawn() != Event("draw", {"seat": 1}, seat=2, private={"tile": "R5a"})
    assert _drawn() != ("draw", {"seat": 1}, 1, {"tile": "R5a"})
    with pytest.raises(TypeError):
        hash(_drawn())


def test_copy_and_pickle_keep_every_field() -> None:
    event = _drawn()
    for other in (copy.copy(event), copy.deepcopy(event), pickle.loads(pickle.dumps(event))):
        assert other == event
        assert repr(other) == repr(event)
    assert repr(event) == (
        "Event(kind='draw', public={'seat': 1}, seat=1, private={'tile': 'R5a'})"
    )


def test_for_viewer_shows_private_only_to_its_seat() -> None:
    event = _drawn()
    assert event.for_viewer(1)["tile"] == "R5a"
    assert "tile" not in event.for_viewer(0)
    assert "tile" not in event.for_viewer(None)
