"""The people tables on SQLite and PostgreSQL: accounts claim guest sessions once per name,
deletion keeps matches and removes the name, ratings follow results, chat reports keep their
context, and migration 0004 goes down and up again."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect

from meldhall.server.names import name_key
from meldhall.store.accounts import AccountConflict, AccountStore
from meldhall.store.chat import ChatStore
from meldhall.store.engine import make_engine
from meldhall.store.lobby import LobbyStore
from meldhall.store.ratings import PROVISIONAL, RatingStore
from meldhall.store.repository import Store
from meldhall.store.schema import upgrade


def test_migration_0004_goes_down_to_0003_and_up_again(database_url: str) -> None:
    engine = make_engine(database_url)
    upgrade(engine, to="0004")
    assert inspect(engine).has_table("accounts")
    from alembic import command

    from meldhall.store.schema import alembic_config

    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0003")
    assert not inspect(engine).has_table("accounts")
    assert not inspect(engine).has_table("chat_messages")
    assert upgrade(engine, to="0004") == ("0003", "0004")
    assert inspect(engine).has_table("bans")
    engine.dispose()


def test_a_name_is_claimed_once_and_deleting_keeps_the_matches(database_url: str) -> None:
    store = Store(database_url)
    accounts = AccountStore(store)
    alice = accounts.claim("tok-a", "Alice", name_key("Alice"), "h", None)
    with pytest.raises(AccountConflict) as taken:
        accounts.claim("tok-b", "\u0410lice", name_key("\u0410lice"), "h", None)
    assert taken.value.code == "name_taken"
    with pytest.raises(AccountConflict) as again:
        accounts.claim("tok-a", "Bob", name_key("Bob"), "h", None)
    assert again.value.code == "already_claimed"
    LobbyStore(store).add_results("m1", "okey", [(0, "tok-a", "Alice", 5, 1), (1, "x", "X", 1, 2)])
    secret = accounts.sign_in(alice.id)
    assert accounts.signed_in(secret) == alice
    assert accounts.delete(alice.id)
    assert accounts.signed_in(secret) is None and accounts.by_key(name_key("alice")) is None
    (result,) = LobbyStore(store).results_for("tok-a")
    assert [p["name"] for p in result["people"]] == ["", "X"]
    accounts.claim("tok-c", "alice", name_key("alice"), "h", None)  # the name is free again
    store.close()


def test_four_accounts_get_ratings_in_the_order_of_their_results(database_url: str) -> None:
    store = Store(database_url)
    accounts = AccountStore(store)
    ids = [
        accounts.claim(f"t{i}", f"P{i}layer", name_key(f"P{i}layer"), "h", None).id
        for i in range(4)
    ]
    ratings = RatingStore(store)
    for match in range(PROVISIONAL + 1):
        # seeded places: player 0 first in most matches, player 3 last
        order = [0, 1, 2, 3] if match % 3 else [1, 0, 2, 3]
        assert ratings.rate_match(
            f"m{match}", "okey", [(ids[s], p + 1) for p, s in enumerate(order)]
        )
    assert not ratings.rate_match("m0", "okey", [(ids[0], 1), (ids[1], 2)])  # rated once
    assert not ratings.rate_match("solo", "okey", [(ids[0], 1)])  # one account: not rated
    board = ratings.leaderboard("okey")
    assert [r.account_id for r in board] == ids
    assert board[0].rating > board[1].rating > board[2].rating > board[3].rating
    assert not board[0].provisional and board[0].matches == PROVISIONAL + 1
    assert board[3].wins == 0 and board[3].mean_place == 4.0
    assert [ratings.place_of(i, "okey") for i in ids] == [1, 2, 3, 4]
    history = ratings.history(ids[0], "okey")
    assert len(history) == PROVISIONAL + 1 and history[-1].rating == board[0].rating
    store.close()


def test_a_drawn_match_lists_the_tied_players_by_name_on_every_database(
    database_url: str,
) -> None:
    store = Store(database_url)
    accounts = AccountStore(store)
    names = ["Zeki", "Ayla", "Mert"]
    ids = {n: accounts.claim(f"s-{n}", n, name_key(n), "h", None).id for n in names}
    ratings = RatingStore(store)
    assert ratings.rate_match("draw", "okey", [(ids[n], 1) for n in names])  # all share first
    board = ratings.leaderboard("okey")
    assert [r.name for r in board] == ["Ayla", "Mert", "Zeki"]
    assert len({r.rating for r in board}) == 1
    assert [ratings.place_of(ids[n], "okey") for n in names] == [1, 1, 1]
    store.close()


def test_chat_reports_keep_their_context_and_bans_are_kept(database_url: str) -> None:
    store = Store(database_url)
    chat = ChatStore(store)
    sent = [chat.add("room", "s", "a1", "Ann", "1.2.3.4", f"m{i}", None) for i in range(15)]
    assert [m.text for m in chat.recent("room", 3)] == ["m12", "m13", "m14"]
    chat.report(sent[12], "reporter")
    (report,) = chat.reports()
    assert [c["text"] for c in report["context"]] == [f"m{i}" for i in range(2, 13)]
    assert report["context"][-1]["address"] == "1.2.3.4"
    chat.mute("me", "a1", True)
    assert chat.muted_by("me") == {"a1"}
    chat.mute("me", "a1", False)
    assert chat.muted_by("me") == set()
    assert chat.ban("name", "a1ice") and not chat.ban("name", "a1ice")
    assert chat.banned("name", "a1ice") and not chat.banned("address", "a1ice")
    with pytest.raises(ValueError, match="name or an address"):
        chat.ban("email", "x")
    assert chat.unban("name", "a1ice") and not chat.banned("name", "a1ice")
    store.close()


def test_a_match_is_rated_among_its_accounts_only(database_url: str) -> None:
    from meldhall.server.people import People

    store = Store(database_url)
    people = People(store)
    ids = [
        people.accounts.claim(f"s{i}", f"Acc{i}x", name_key(f"Acc{i}x"), "h", None).id
        for i in range(4)
    ]
    # seeded results of four-seat matches: a guest ("g") always wins, the accounts follow in
    # the order s0 > s1 > s2 > s3; the guest's place does not count
    for match in range(3):
        places = [("g", 1), ("s0", 2), ("s1", 3), ("s2", 4)] if match else [("s0", 1), ("s3", 2)]
        assert people.rate(f"m{match}", "remi", places)
    assert not people.rate("guests", "remi", [("g", 1), ("s0", 2)])  # one account only
    board = people.ratings.leaderboard("remi")
    order = [r.account_id for r in board]
    assert order[0] == ids[0] and order.index(ids[1]) < order.index(ids[2])
    first = people.ratings.ratings_of(ids[0])[0]
    assert first.wins == 3 and first.mean_place == 1.0  # first among the accounts each time
    assert people.seat_ratings("remi", ["s0", "g"]) == [
        {"rating": first.rating, "provisional": True},
        None,
    ]
    store.close()


def test_a_claimed_session_never_expires(database_url: str) -> None:
    from datetime import timedelta

    from meldhall.store.models import utcnow

    store = Store(database_url)
    claimed, guest = store.session(None).token, store.session(None).token
    AccountStore(store).claim(claimed, "Keeper", name_key("Keeper"), "h", None)
    later = utcnow() + timedelta(days=400)
    assert store.expire_sessions(timedelta(days=90), timedelta(hours=24), later) == 1
    assert store.has_session(claimed) and not store.has_session(guest)
    store.close()
