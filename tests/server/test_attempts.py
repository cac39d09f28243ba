"""The sliding window behind the sign-in and claim limits."""

from __future__ import annotations

from meldhall.server.people import Attempts, author_id


def test_attempts_are_limited_within_their_window_and_forgotten_after() -> None:
    window = Attempts(most=3, seconds=60.0)
    for at in (0.0, 10.0, 20.0):
        assert window.wait("k", now=at) == 0.0
        window.count("k", now=at)
    assert window.wait("k", now=30.0) == 30.0  # the first attempt leaves the window at 60
    assert window.wait("other", now=30.0) == 0.0  # keys are apart
    assert window.wait("k", now=60.0) == 0.0
    window.clear("k")
    assert window.wait("k", now=61.0) == 0.0 and "k" not in window._at


def test_an_author_id_names_no_session() -> None:
    assert author_id("token-a") != author_id("token-b")
    assert "token-a" not in author_id("token-a") and len(author_id("token-a")) == 16
