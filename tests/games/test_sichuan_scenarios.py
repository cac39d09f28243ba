"""The scenario vectors of sichuan.md 13.2-13.3 (VECTORS.md 6), each built from an explicit
deal and played through the engine protocol. Seats are P0..P3, P0 deals."""

from __future__ import annotations

from meldhall.games.sichuan.actions import Discard
from meldhall.games.sichuan.pieces import KIND_OF, SUIT_OF, TOKEN
from tests.games.test_sichuan_helpers import (
    act,
    deal,
    discard,
    kong_net,
    names,
    pass_all,
    rejected,
    tsumogiri,
)


def test_sichuan_T17_missing_suit_forces_discards_and_blocks_claims() -> None:
    state = deal(
        [
            "9m 5p 1s 1s 2s 3s 4p 6p 8p 8p 7s 8s 1p 4p",
            "2m 7m 5p 5p 1p 2p 3p 9s 9s 9s 4s 5s 6s",
            "3m 3p 3p 6p 7p 9p 9p 2s 2s 5s 6s 7s 4s",
            "8m 1p 2p 4p 7p 9p 3s 3s 4s 5s 6s 8s 2s",
        ],
        front="9s 1s 1s 2p",
        miss="mmmm",
    )
    discard(state, 0, "9m")
    pass_all(state)
    assert state.turn == 1 and TOKEN[state.drawn].startswith("9s")
    legal = state.legal_actions(1)
    assert all(isinstance(a, Discard) and SUIT_OF[a.tile] == 0 for a in legal)
    assert sorted(TOKEN[a.tile][:2] for a in legal if isinstance(a, Discard)) == ["2m", "7m"]
    assert rejected(state, 1, "concealed_kong 9s") == "HOLDS_MISSING_SUIT"
    assert rejected(state, 1, "win") == "HOLDS_MISSING_SUIT"
    assert rejected(state, 1, f"discard {TOKEN[state.drawn]}") == "MUST_DISCARD_MISSING_SUIT"
    discard(state, 1, "2m")
    pass_all(state)
    discard(state, 2, "3m")
    pass_all(state)
    discard(state, 3, "8m")
    pass_all(state)
    discard(state, 0, "5p")
    assert state.phase == "claim" and 1 in state.to_act()
    assert names(state.legal_actions(1)) == ["pass"]
    assert rejected(state, 1, "pung") == "HOLDS_MISSING_SUIT"


T18_HANDS = [
    "1m 1m 1m 1m 2m 2m 2m 2m 3m 4m 5m 1p 2p 3p",
    "4p 5p 6p 1s 2s 3s 4s 5s 6s 8s 8s 9p 9p",
    "4p 5p 7p 1s 2s 3s 4s 5s 6s 9s 9s 8p 8p",
    "7s 7s 7s 1p 2p 3p 4p 5p 8p 1s 2s 3s 9s",
]


def test_sichuan_T18_no_kong_on_an_empty_wall_but_pung() -> None:
    state = deal(T18_HANDS, back="6p 6p 7s", miss="smmm")
    act(state, 0, "concealed_kong 1m")
    act(state, 0, "concealed_kong 2m")
    while not (state.phase == "act" and state.turn == 1 and state.wall_count == 0):
        tsumogiri(state)
    assert TOKEN[state.drawn].startswith("7s")
    act(state, 1, f"discard {TOKEN[state.drawn]}")
    assert names(state.legal_actions(3)) == ["pung", "pass"]
    assert rejected(state, 3, "kong") == "NO_REPLACEMENT"
    pass_all(state, but=(3,))
    act(state, 3, "pung")
    assert state.turn == 3 and state.entered == "pung"
    assert all(isinstance(a, Discard) for a in state.legal_actions(3))


def test_sichuan_T18_kong_with_one_tile_left_empties_the_wall() -> None:
    state = deal(T18_HANDS, back="6p 6p 7s", miss="smmm")
    act(state, 0, "concealed_kong 1m")
    while not (state.phase == "act" and state.turn == 1 and state.wall_count == 1):
        tsumogiri(state)
    assert TOKEN[state.drawn].startswith("7s")
    act(state, 1, f"discard {TOKEN[state.drawn]}")
    assert names(state.legal_actions(3)) == ["kong", "pung", "pass"]
    pass_all(state, but=(3,))
    act(state, 3, "kong")
    assert state.wall_count == 0 and state.turn == 3 and state.entered == "replacement"
    assert state.transfers[-1] == (1, 3, 2, "kong")
    tsumogiri(state)
    assert state.result is not None and state.last_result is not None
    assert state.last_result["termination"] == "exhaustion"


T19_HANDS = [
    "9p 1p 2p 3p 4p 5p 6s 1s 2s 3s 4s 5s 8p 8p",
    "1p 2p 3p 4p 5p 6p 1s 2s 3s 4s 5s 6s 8s",
    "7s 7s 7s 7s 9p 9p 6p 6p 7p 7p 8s 8s 6s",
    "1p 2p 3p 5p 7p 1s 2s 3s 4s 5s 9s 9s 9s",
]


def test_sichuan_T19_no_kong_right_after_a_pung() -> None:
    state = deal(T19_HANDS, front="1m 2m 3m 1p", miss="mmmm")
    discard(state, 0, "9p")
    assert "pung" in names(state.legal_actions(2))
    pass_all(state, but=(2,))
    act(state, 2, "pung")
    assert state.turn == 2 and state.entered == "pung"
    assert all(isinstance(a, Discard) for a in state.legal_actions(2))
    assert rejected(state, 2, "concealed_kong 7s") == "KONG_AFTER_PUNG"
    assert rejected(state, 2, "win") == "WIN_AFTER_PUNG"
    discard(state, 2, "6s")
    pass_all(state)
    while state.turn != 2:
        tsumogiri(state)
    assert state.entered == "draw" and state.wall_count >= 1
    assert "concealed_kong 7s" in names(state.legal_actions(2))


def test_sichuan_T19_variant_kong_after_pung() -> None:
    state = deal(T19_HANDS, miss="mmmm", options={"kong_after_pung": True})
    discard(state, 0, "9p")
    pass_all(state, but=(2,))
    act(state, 2, "pung")
    assert "concealed_kong 7s" in names(state.legal_actions(2))
    assert "win" not in names(state.legal_actions(2))


def test_sichuan_T20_concealed_kong_cannot_be_robbed() -> None:
    state = deal(
        [
            "6p 6p 6p 6p 1m 2m 3m 4m 5m 6m 7m 8m 9m 1p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 2p 3p 9p 9p",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 4p 5p 8p 8p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 2p 3p 7p 7p",
        ],
        miss="smsm",
    )
    events = act(state, 0, "concealed_kong 6p")
    assert [e.kind for e in events][:1] == ["kong"] and "kind" not in events[0].public
    assert state.phase == "act" and state.turn == 0 and state.entered == "replacement"
    assert state.to_act() == frozenset({0})
    assert state.legal_actions(2) == ()
    assert state.scores == [6, -2, -2, -2]
    assert state.wall_count == 54
    assert state.observation(2)["melds"][0] == [
        {"type": "C", "kind": None, "tiles": [], "from": None}
    ]


T21_HANDS = [
    "6p 1p 2s 2s 3s 3s 4s 4s 5s 5s 6s 6s 7s 7s",
    "3p 1s 2s 3s 4s 5s 6s 7s 8s 9s 1p 1p 9p",
    "2p 2p 7p 7p 9p 9p 1s 1s 8s 8s 9s 9s 6p",
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 4p 5p 8p 8p",
]


def test_sichuan_T21_no_passed_win_lock() -> None:
    state = deal(T21_HANDS, front="2p 4s 5m 1s", miss="mmms")
    discard(state, 0, "1p")
    pass_all(state)
    discard(state, 1, "3p")
    assert names(state.legal_actions(3)) == ["win", "pass"]
    pass_all(state)
    tsumogiri(state, 2)
    assert state.turn == 0
    discard(state, 0, "6p")
    assert names(state.legal_actions(3)) == ["win", "pass"]
    pass_all(state, but=(3,))
    act(state, 3, "win")
    assert state.winners[0].seat == 3 and state.winners[0].by == "discard"
    assert state.scores == [-1, 0, 0, 1]


def test_sichuan_T21_variant_passed_win_lock() -> None:
    state = deal(T21_HANDS, front="2p 4s 5m 1s", miss="mmms", options={"passed_win_lock": True})
    discard(state, 0, "1p")
    pass_all(state)
    discard(state, 1, "3p")
    pass_all(state)
    discard(state, 2, "6p")
    assert names(state.legal_actions(3)) == ["pass"]
    assert rejected(state, 3, "win") == "PASSED_WIN_LOCK"
    pass_all(state)
    assert state.turn == 3 and not state.lock[3]


def test_sichuan_T22_dealer_wins_on_the_dealt_tiles() -> None:
    state = deal(
        [
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5p 5p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 1p 1p 9p 9p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 6p 6p 7p 7p",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 8p 8p 6p 7p",
        ],
        miss="smmm",
    )
    assert names(state.legal_actions(0))[0] == "win"
    act(state, 0, "win")
    win = state.winners[0]
    assert (win.seat, win.by, win.score.fan, win.score.points) == (0, "self_draw", 0, 1)
    assert dict(win.score.fans) == {}
    assert state.scores == [6, -2, -2, -2]
    assert state.turn == 1 and state.phase == "act"


def test_sichuan_T23_discard_win_and_the_next_draw() -> None:
    state = deal(
        [
            "7p 6p 6p 8p 8p 1s 2s 3s 4s 5s 6s 7s 8s 9s",
            "5p 1p 1s 2s 3s 4s 5s 6s 7s 8s 9s 9p 9p",
            "1p 3p 6p 7p 9p 1s 2s 3s 4s 5s 6s 7s 8s",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 4p 5p",
        ],
        front="1p",
        miss="mmms",
    )
    discard(state, 0, "7p")
    pass_all(state)
    discard(state, 1, "5p")
    pass_all(state, but=(3,))
    events = act(state, 3, "win")
    assert [e.public["amount"] for e in events if e.kind == "payment"] == [1]
    assert state.scores == [0, -1, 0, 1]
    assert state.turn == 0 and state.phase == "act"
    assert any(e.kind == "draw" and e.public["seat"] == 0 for e in events)


def test_sichuan_T24_several_winners_beat_a_pung() -> None:
    state = deal(
        [
            "5p 6p 7p 8p 1s 1s 2s 2s 3s 3s 4s 4s 6s 6s",
            "1m 1m 3m 3m 5m 5m 7m 7m 2p 2p 4p 4p 5p",
            "5p 5p 1p 1p 6p 7p 8p 5s 5s 7s 7s 8s 9s",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 3p 4p 9p 9p",
        ],
        miss="msms",
    )
    discard(state, 0, "5p")
    assert names(state.legal_actions(1)) == ["win", "pass"]
    assert names(state.legal_actions(2)) == ["pung", "pass"]
    assert names(state.legal_actions(3)) == ["win", "pass"]
    act(state, 1, "win")
    act(state, 2, "pung")
    events = act(state, 3, "win")
    assert [w.seat for w in state.winners] == [1, 3]
    assert [(w.score.form, dict(w.score.fans), w.score.points) for w in state.winners] == [
        ("seven_pairs", {"seven_pairs": 2}, 4),
        ("standard", {}, 1),
    ]
    payments = [
        (e.public["from"], e.public["to"], e.public["amount"])
        for e in events
        if e.kind == "payment"
    ]
    assert payments == [(0, 1, 4), (0, 3, 1)]
    assert state.scores == [-5, 4, 0, 1]
    assert not state.melds[2]
    assert state.turn == 0 and state.phase == "act"
    assert state.win_slot[1] is not None and state.win_slot[3] is None


def test_sichuan_T27_kong_payments_with_a_winner_out() -> None:
    state = deal(
        [
            "7s 5p 5p 1p 1p 6p 3s 3s 4s 6s 8s 9s 9s 7p",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 9p 9p",
            "7s 7s 7s 1s 2s 4s 5s 1s 2s 5s 6s 6p 7p",
            "8p 8p 8p 8p 5p 1p 3p 6p 7p 2m 4m 1m 3m",
        ],
        front="9m 3p 8m 7m 5p",
        back="4p 6p 2s",
        miss="msms",
    )
    discard(state, 0, "7s")
    pass_all(state, but=(2,))
    act(state, 2, "kong")  # (a)
    assert kong_net(state) == [-2, 0, 2, 0]
    discard(state, 2, "4p")
    pass_all(state, but=(1,))
    act(state, 1, "win")  # (b)
    assert not state.active[1] and state.turn == 2
    tsumogiri(state)
    assert state.turn == 3
    act(state, 3, "concealed_kong 8p")  # (c)
    assert kong_net(state) == [-4, 0, 0, 4]
    discard(state, 3, "5p")
    pass_all(state, but=(0,))
    act(state, 0, "pung")
    discard(state, 0, "6p")
    pass_all(state)
    tsumogiri(state, 2)
    assert state.turn == 0 and TOKEN[state.drawn].startswith("5p")
    act(state, 0, "added_kong 5p")  # (d)
    assert state.phase == "rob" and state.to_act() == frozenset({2, 3})
    pass_all(state)
    assert [m.letter for m in state.melds[0]] == ["A"]
    assert kong_net(state) == [-2, 0, -1, 3]
    assert state.entered == "replacement" and state.turn == 0


T28_HANDS = [
    "6p 6p 1s 1s 2s 3s 4s 5s 7p 8p 9p 9s 9s 2p",
    "6p 1p 1p 2p 3p 7s 7s 8s 8s 5s 6s 4s 3s",
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 4p 5p 8p 8p",
    "1p 2p 3p 7p 8p 9p 2s 2s 4s 5s 6s 8s 9p",
]


def test_sichuan_T28_robbing_an_added_kong() -> None:
    state = deal(T28_HANDS, front="1s 1m 2m 3m 6p", miss="mmsm")
    discard(state, 0, "2p")
    pass_all(state)
    discard(state, 1, "6p")
    assert names(state.legal_actions(2)) == ["win", "pass"]
    pass_all(state, but=(0,))
    act(state, 0, "pung")
    discard(state, 0, "7p")
    pass_all(state)
    tsumogiri(state, 3)
    assert state.turn == 0 and TOKEN[state.drawn].startswith("6p")
    act(state, 0, "added_kong 6p")
    assert names(state.legal_actions(2)) == ["win", "pass"]
    assert names(state.legal_actions(1)) == ["pass"]
    assert rejected(state, 2, "pung") == "WRONG_PHASE"
    pass_all(state, but=(2,))
    events = act(state, 2, "win")
    win = state.winners[0]
    assert (win.seat, win.by, win.payer, win.score.points) == (2, "robbed", 0, 2)
    assert dict(win.score.fans) == {"robbed_kong": 1}
    assert KIND_OF[win.tile] == KIND_OF[state.win_slot[2] or 0]
    assert [e.public["amount"] for e in events if e.kind == "payment"] == [2]
    assert kong_net(state) == [0, 0, 0, 0]
    assert [(m.letter, len(m.tiles)) for m in state.melds[0]] == [("P", 3)]
    assert len(state.hands[0]) + 3 * len(state.melds[0]) == 13
    assert state.scores == [-2, 0, 2, 0]
    assert state.turn == 3 and state.phase == "act"


def test_sichuan_T28_two_players_rob_one_kong() -> None:
    state = deal(
        [
            "6p 6p 1p 1p 3p 9p 9p 5p 7p 4s 4s 5s 5s 9s",
            "1s 2s 3s 4s 5s 6s 7s 8s 9s 7p 8p 2p 2p",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 4p 5p 8p 8p",
            "6p 1p 2p 3p 7p 7p 1s 2s 3s 6s 7s 8s 9p",
        ],
        front="1m 5s 4p 2m 6s 3m 6p",
        miss="mmsm",
    )
    discard(state, 0, "9s")
    pass_all(state)
    tsumogiri(state, 2)
    discard(state, 3, "6p")
    pass_all(state, but=(0,))
    act(state, 0, "pung")
    discard(state, 0, "1p")
    pass_all(state)
    tsumogiri(state, 3)
    act(state, 0, "added_kong 6p")
    act(state, 3, "pass")
    act(state, 2, "win")
    events = act(state, 1, "win")
    assert [w.seat for w in state.winners] == [1, 2]
    payments = [
        (e.public["from"], e.public["to"], e.public["amount"])
        for e in events
        if e.kind == "payment"
    ]
    assert payments == [(0, 1, 2), (0, 2, 2)]
    assert state.scores == [-4, 2, 2, 0]
    assert state.turn == 3


T29_HANDS = [
    "2p 3p 4p 6p 7p 8p 2s 3s 4s 6s 6s 4p 8s 9s",
    "1p 2p 3p 5p 5p 6p 7p 2s 3s 4s 6s 8s 4p",
    "2p 3p 5p 5p 6p 7p 8p 9p 4s 7s 8s 1s 2s",
    "5s 5s 5s 1s 2s 3s 7s 8s 9s 1p 1p 9p 9p",
]


def test_sichuan_T29_concealed_kong_then_win_on_the_replacement() -> None:
    state = deal(T29_HANDS, front="1m 2m 5s", back="1p", miss="mmmm")
    discard(state, 0, "9s")
    pass_all(state)
    tsumogiri(state, 2)
    assert state.turn == 3
    act(state, 3, "concealed_kong 5s")
    assert state.scores == [-2, -2, -2, 6]
    assert names(state.legal_actions(3))[0] == "win"
    act(state, 3, "win")
    win = state.winners[0]
    assert (win.by, dict(win.score.fans), win.score.points) == (
        "replacement",
        {"root": 1, "kong_replacement": 1},
        4,
    )
    assert state.scores == [-7, -7, -7, 21]


def test_sichuan_T30_kong_then_a_win_on_the_next_discard() -> None:
    state = deal(
        [
            "8s 8s 8s 1p 2p 6p 7p 2s 3s 5s 6s 7s 1s 9s",
            "1p 2p 6p 7p 8p 2s 3s 4s 5s 6s 7s 9s 9s",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 3p 5p 9p 9p",
            "8s 1p 2p 6p 7p 8p 1s 2s 3s 4s 4s 5s 7p",
        ],
        front="1m 6s 9p",
        back="4p",
        miss="mmsm",
    )
    discard(state, 0, "1p")
    pass_all(state)
    tsumogiri(state, 2)
    discard(state, 3, "8s")
    assert names(state.legal_actions(0)) == ["kong", "pung", "pass"]
    pass_all(state, but=(0,))
    act(state, 0, "kong")
    assert state.scores == [2, 0, 0, -2]
    discard(state, 0, "4p")
    pass_all(state, but=(2,))
    act(state, 2, "win")
    win = state.winners[0]
    assert (win.by, win.payer, dict(win.score.fans), win.score.points) == ("discard", 0, {}, 1)
    assert state.scores == [1, 0, 1, -2]


def test_sichuan_T31_three_winners_on_one_discard_end_the_hand() -> None:
    state = deal(
        [
            "6p 1s 1s 2s 2s 3s 3s 4s 4s 5s 5s 6s 6s 7s",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 4p 5p 9p 9p",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 7p 8p 2p 2p",
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 7p 3p 3p",
        ],
        miss="msss",
    )
    discard(state, 0, "6p")
    for seat in (3, 1, 2):
        events = act(state, seat, "win")
    assert [w.seat for w in state.winners] == [1, 2, 3]
    assert all(w.score.points == 1 for w in state.winners)
    assert state.scores == [-3, 1, 1, 1]
    assert state.settlement is None
    kinds = [e.kind for e in events]
    assert kinds[-2:] == ["hand_over", "match_over"]
    assert state.last_result is not None and state.last_result["termination"] == "three_winners"
    assert state.result is not None and state.to_act() == frozenset()


T32_HANDS = [
    "7s 1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 3p 9p 9p",
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 6p 8p 8p",
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 2p 2p 6p 7p",
    "9s 9s 9s 9s 4p 1s 3s 5s 7s 1p 3p 6p 8p",
]


def _play_t32(options: dict[str, object] | None = None) -> list[str]:
    state = deal(T32_HANDS, front="5s 6s 2s 5p", back="4s", miss="sssm", options=options)
    discard(state, 0, "7s")
    pass_all(state)
    tsumogiri(state, 2)
    act(state, 3, "concealed_kong 9s")
    assert state.scores == [-2, -2, -2, 6]
    discard(state, 3, "4p")
    act(state, 2, "pass")
    act(state, 1, "win")
    act(state, 0, "win")
    assert [w.seat for w in state.winners] == [0, 1] and state.turn == 2
    act(state, 2, "win")
    status = state.seat_at_end(3)
    assert not status.ready and not status.pig
    assert state.result is not None
    return [reason for _, _, _, reason in state.transfers]


def test_sichuan_T32_three_winners_no_settlement() -> None:
    reasons = _play_t32()
    assert "refund" not in reasons and "ready" not in reasons and "pig" not in reasons
    assert reasons.count("kong") == 3


def test_sichuan_T32_variant_settle_on_three_winners() -> None:
    reasons = _play_t32({"settle_on_three_winners": True})
    assert reasons.count("refund") == 3


def test_sichuan_self_draw_fan_counts_a_win_on_the_kong_replacement() -> None:
    # Option self_draw_bonus="fan" (section 14): a win on a kong's replacement tile is a
    # self-draw (D16), so it earns the self-draw fan on top of T29's fans.
    state = deal(
        T29_HANDS, front="1m 2m 5s", back="1p", miss="mmmm", options={"self_draw_bonus": "fan"}
    )
    discard(state, 0, "9s")
    pass_all(state)
    tsumogiri(state, 2)
    act(state, 3, "concealed_kong 5s")
    act(state, 3, "win")
    win = state.winners[0]
    assert (win.by, dict(win.score.fans), win.score.points) == (
        "replacement",
        {"root": 1, "kong_replacement": 1, "self_draw": 1},
        8,
    )
