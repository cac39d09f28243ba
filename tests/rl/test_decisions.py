"""Decisions derived from a seat's last flat point equal decisions made afresh."""

from __future__ import annotations

import random

import pytest

from meldhall.core.engine import Action
from meldhall.rl.actions import Decision
from meldhall.rl.match import Match
from meldhall.rl.specs import SPECS


def _walk(decision: Decision) -> dict[tuple[int, ...], Action]:
    """Return every spelling the decision allows, token by token, with its action."""
    out: dict[tuple[int, ...], Action] = {}
    for token in decision.options():
        nxt = decision.after(token)
        if isinstance(nxt, Decision):
            out |= _walk(nxt)
        else:
            assert nxt is not None
            out[(*decision.prefix, token)] = nxt
    return out


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_decisions_of_a_random_match_equal_decisions_made_afresh(game_id: str) -> None:
    match = Match(game_id)
    match.reset(b"derive")
    size = len(match.vocab)
    rng = random.Random(game_id)
    derived = 0
    for step in range(600):
        if match.over():
            match.reset(b"derive %d" % step)
        seat = min(match.to_act())
        near = match._flat[seat]
        decision = match.decision_of(seat)
        legal = match.state.legal_actions(seat)
        afresh = Decision.of(match.vocab, list(legal))  # a list is never kept: made anew
        derived += near is not None and near[1] is not decision and match.vocab.kept(legal) is None
        assert decision.prefix == afresh.prefix
        assert decision.options() == afresh.options()
        assert decision.texts() == afresh.texts()
        assert decision.flat == afresh.flat
        assert (decision.shared_mask(size) == afresh.shared_mask(size)).all()
        assert not decision.shared_mask(size).flags.writeable
        assert _walk(decision) == _walk(afresh)
        match.apply(seat, legal[rng.randrange(len(legal))])
    if game_id == "sichuan":
        assert derived > 60, derived
