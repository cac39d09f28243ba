"""Tiles and cards: canonical ids, every token notation of VECTORS.md, copies."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meldhall.core.errors import ParseError
from meldhall.core.tiles import (
    CARDS,
    MAHJONG_TILES,
    OKEY_CARDS,
    OKEY_TILES,
    kind_name,
    okey_tokens,
    parse_card,
    parse_cards,
    parse_kind,
    parse_mahjong,
    parse_mahjong_many,
    parse_okey,
    parse_okey_card,
    parse_okey_cards,
    parse_okey_many,
    split_tokens,
)


def test_canonical_ids_index_their_tuples() -> None:
    for family in (OKEY_TILES, CARDS, MAHJONG_TILES, OKEY_CARDS):
        assert [p.id for p in family] == list(range(len(family)))
    assert (len(OKEY_TILES), len(CARDS), len(MAHJONG_TILES), len(OKEY_CARDS)) == (106, 106, 108, 24)


@pytest.mark.parametrize(
    ("token", "tile_id"),
    [("R1", 0), ("R1b", 1), ("Y1", 26), ("B13b", 77), ("K13b", 103), ("J", 104), ("Jb", 105)],
)
def test_okey_ids_follow_the_spec(token: str, tile_id: int) -> None:
    """okey.md 2: id = colour x 26 + (number - 1) x 2 + copy, R=0 Y=1 B=2 K=3."""
    assert parse_okey(token).id == tile_id


def test_sichuan_ids_follow_the_spec() -> None:
    """sichuan.md 3: 1m copy 0 is id 0, 9s copy 3 is id 107."""
    assert parse_mahjong("1m#0").id == 0
    assert parse_mahjong("9s#3").id == 107
    assert parse_kind("5p") == 13 and kind_name(13) == "5p"


def test_okey_card_ids_follow_the_spec() -> None:
    """okey-cards.md 2: R=0, B=1, Y=2; id = colour x 8 + number - 1."""
    assert parse_okey_card("B8").id == 15
    assert parse_okey_card("Y1").id == 16


@given(st.sampled_from(OKEY_TILES))
def test_okey_tokens_round_trip(tile: object) -> None:
    assert parse_okey(str(tile)) == tile


@given(st.sampled_from(CARDS))
def test_card_tokens_round_trip(card: object) -> None:
    assert parse_card(str(card)) == card


@given(st.sampled_from(MAHJONG_TILES))
def test_mahjong_tokens_round_trip(tile: object) -> None:
    assert parse_mahjong(str(tile)) == tile


def test_smileys_use_their_own_letter() -> None:
    assert parse_okey("Sb", blank="S").id == 105
    with pytest.raises(ParseError, match="'S'"):
        parse_okey("S")


def test_unsuffixed_tokens_take_free_copies() -> None:
    assert [t.copy for t in parse_okey_many("R3 R3")] == [0, 1]
    assert [t.copy for t in parse_okey_many("R3 R3a")] == [1, 0]
    assert [c.pack for c in parse_cards("JK JK#1")] == [2, 1]
    assert len({t.id for t in parse_mahjong_many("5p 5p 5p 5p")}) == 4


@pytest.mark.parametrize(
    ("parse", "text", "problem"),
    [
        (parse_okey_many, "R3 R3 R3", "needs more than"),
        (parse_okey_many, "R3a R3a", "named twice"),
        (parse_okey_many, "R14", "not a tile token"),
        (parse_okey_many, "J*", "real joker"),
        (parse_cards, "1H", "not a card token"),
        (parse_mahjong_many, "5p 5p 5p 5p 5p", "needs more than"),
        (parse_okey_cards, "R9", "not an okey card token"),
        (parse_okey_cards, "R1 R1", "needs more than"),
    ],
)
def test_bad_tokens_are_named(parse: object, text: str, problem: str) -> None:
    with pytest.raises(ParseError, match=problem):
        parse(text)  # type: ignore[operator]


def test_tile_lists_need_single_spaces() -> None:
    with pytest.raises(ParseError, match="single spaces"):
        split_tokens("R1  R2")


def test_stars_are_kept_for_the_game_to_check() -> None:
    assert [t.star for t in okey_tokens("R5* R5")] == [True, False]
