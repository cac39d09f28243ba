"""The okey winner's hand laid out in its melds (end-of-hand screen): every tile once, each
meld a set or run of three or more, or a pair of seven pairs."""

from __future__ import annotations

import pytest

from meldhall.games.okey.hand import HandRules, ids, judge
from meldhall.games.okey.pieces import TOKENS, effective_faces, okey_face
from meldhall.games.okey.reading import melds_of

HANDS = [
    ("R1 R2 R3 Y7 B7 K7 B10 B11 B12 B13 Y4 Y5 Y6 Y7", "K13"),
    ("K5 K5 Y9 Y9 B3 B3 R8 R8 K11 K11 R2 R2 Y2 B1", "B13"),
    ("Y9 B9 K9 B1 B2 B3 B4 K12 K13 K1 Y3 Y4 R7 Y6", "R6"),
    ("J K3 K4 Y3 Y4 Y5 B8 K8 R8 R10 R11 R12 R13 R1", "K1"),
]
"""(hand, indicator): sets and runs; seven pairs with a real joker (B1) beside the lone Y2;
a real joker (R7) standing for Y5 in a run; a false joker standing for the okey (K2) and a
run wrapping 13-1."""


@pytest.mark.parametrize(("hand", "indicator"), HANDS)
def test_the_winning_hand_comes_back_in_its_melds(hand: str, indicator: str) -> None:
    okey = okey_face(ids(indicator)[0])
    tiles = ids(hand)
    rules = HandRules(okey=okey)
    counts, wild = effective_faces(tiles, okey)
    verdict = judge(counts, wild, rules)
    if verdict is None:
        pytest.fail(f"{hand} does not win with indicator {indicator}")
    melds = melds_of(tiles, okey, rules, verdict.form)
    assert sorted(t for m in melds for t in m) == sorted(tiles)
    least, most = (2, 2) if verdict.form == "seven_pairs" else (3, 14)
    for meld in melds:
        assert least <= len(meld) <= most, [TOKENS[t] for t in meld]
