"""tile-rummy's answers to vector questions beyond the shared file: best, declarations, the
tie and match options (VECTORS.md 4)."""

from __future__ import annotations

import pytest

from meldhall.core.errors import ParseError
from meldhall.games.tile_rummy import GAME


def answer(kind: str, data: dict[str, object], **options: object) -> dict[str, object]:
    return GAME.answer_vector(kind, data, GAME.options(options))


@pytest.mark.parametrize(
    ("tiles", "options", "value", "count"),
    [
        ("R12 R13 R1 K1 Y1", {}, 21, 3),
        ("R12 R13 R1 K1 Y1", {"tile_values": "face"}, 26, 3),
        ("R1 R2 R3 K1 Y1 B1", {}, 9, 6),
        ("S R5 K5", {"smiley_value": 30}, 40, 3),
        ("R12 R13 R1", {"run_wrap": "none"}, 0, 0),
        ("", {}, 0, 0),
    ],
)
def test_best(tiles: str, options: dict[str, object], value: int, count: int) -> None:
    assert answer("best", {"tiles": tiles}, **options) == {"value": value, "count": count}


def test_meld_declarations() -> None:
    assert answer("meld", {"tiles": "R11 S R13", "declare": ["R12"]})["valid"] is True
    assert answer("meld", {"tiles": "R11 S R13", "declare": ["K12"]}) == {"valid": False}
    assert answer("meld", {"tiles": "R5 K5 S", "declare": ["Y5"]})["jokers"] == ["?5"]
    assert answer("meld", {"tiles": "S R1 S", "type": "set"})["jokers"] == ["?1", "?1"]


def test_tie_rules() -> None:
    tie = {"scores": [60, 60, 20], "went_out": 1}
    assert answer("score", tie)["round_winner"] == 1
    assert answer("score", tie, tie_rule="void")["round_winner"] is None
    both = answer("score", {"scores": [60, 50, 60], "went_out": 1}, tie_rule="all")
    assert both["round_winners"] == [0, 2] and both["round_winner"] is None


def test_match_modes() -> None:
    assert answer("score", {"round_wins": [3, 1], "void_rounds": 0}) == {
        "match_over": True,
        "match_winner": 0,
    }
    points = {"round_wins": [0, 0, 0], "void_rounds": 0, "totals": [510, 480, 530]}
    assert answer("score", points, match_mode="points")["match_winner"] == 2
    tied = {"round_wins": [0, 0], "void_rounds": 0, "totals": [510, 510]}
    assert answer("score", tied, match_mode="points")["match_over"] is False


def test_bad_score_inputs() -> None:
    with pytest.raises(ParseError):
        answer("score", {"seats": [{"melds": ["R1 R2 R4"], "rack": ""}, {"rack": ""}]})
    with pytest.raises(ParseError):
        answer("score", {"scores": [1, 2], "went_out": 5})
    with pytest.raises(ParseError):
        answer("score", {"round_wins": [1, 1, 1]}, players=2)
    with pytest.raises(ParseError):
        answer("hand", {})
