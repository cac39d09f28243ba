"""Accounts over HTTP on SQLite and PostgreSQL: claim a guest, sign in on a second browser that
sees the first one's records, refuse duplicate and confusable names with a reason, rate limit
wrong passwords, sign out, rename, delete (matches stay, the name goes); no password in a log."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from starlette.testclient import TestClient

from meldhall.server.accounts import ACCOUNT_COOKIE
from meldhall.server.lobby import COOKIE
from meldhall.server.people import SIGN_IN_PER_NAME
from meldhall.store.lobby import LobbyStore
from tests.server.conftest import browser as _browser

PASSWORD = "correct horse battery"


def _guest(c: TestClient) -> str:
    assert c.post("/api/guest", json={"name": "g"}).status_code == 200
    return str(c.cookies[COOKIE])


def _claim(c: TestClient, name: str, password: str = PASSWORD) -> Any:
    return c.post("/api/account/claim", json={"name": name, "password": password})


def _login(c: TestClient, name: str, password: str = PASSWORD) -> Any:
    return c.post("/api/account/login", json={"name": name, "password": password})


def test_claim_then_sign_in_on_a_second_browser_that_sees_the_records(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    token = _guest(client)
    LobbyStore(client.app.state.store).add_results(  # type: ignore[attr-defined]
        "match-1", "okey", [(0, token, "Ayşe", 12, 1)]
    )
    reply = _claim(client, "Ayşe")
    assert reply.status_code == 200 and reply.json()["name"] == "Ayşe"
    assert client.get("/api/account").json()["signed_in"] is True
    with _browser(client) as other:
        assert other.get("/api/account").json() == {"signed_in": False}
        _guest(other)
        signed = _login(other, "AYŞE")  # the name is found whatever its case
        assert signed.status_code == 200 and signed.json()["name"] == "Ayşe"
        assert other.cookies[COOKIE] == token
        online = other.get("/api/records").json()["online"]
        assert [r["match"] for r in online] == ["match-1"]
        assert "set-cookie" in signed.headers and "HttpOnly" in signed.headers["set-cookie"]
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert PASSWORD not in logged and token not in logged


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("alice", "name_taken"),
        ("ALICE", "name_taken"),
        ("\u0410lice", "name_taken"),  # a Cyrillic A
        ("A1ice", "name_taken"),
        ("ａｌｉｃｅ", "name_taken"),  # fullwidth, folded by NFKC
        ("al", "name_short"),
        ("x" * 25, "name_long"),
        ("<b>bob</b>", "bad_name"),
    ],
)
def test_duplicate_confusable_and_bad_names_are_refused_with_a_reason(
    client: TestClient, name: str, code: str
) -> None:
    _guest(client)
    assert _claim(client, "Alice").status_code == 200
    with _browser(client) as other:
        _guest(other)
        refused = _claim(other, name)
        assert refused.status_code in (400, 409)
        assert refused.json()["error"] == code and refused.json()["reason"]
        assert other.get("/api/account").json() == {"signed_in": False}


def test_bad_claims_change_nothing(client: TestClient) -> None:
    assert _claim(client, "Nobody").json()["error"] == "no_guest"
    _guest(client)
    assert _claim(client, "Somebody", "short").json()["error"] == "password_short"
    assert _claim(client, "Somebody", "x" * 201).json()["error"] == "password_long"
    bad = client.post("/api/account/claim", json=["not", "an", "object"])
    assert bad.status_code == 400 and bad.json()["error"] == "bad_request"
    assert client.get("/api/account").json() == {"signed_in": False}
    assert _claim(client, "Somebody").status_code == 200
    assert _claim(client, "Somebody Else").json()["error"] == "already_claimed"


def test_wrong_passwords_are_rate_limited_per_name(client: TestClient) -> None:
    _guest(client)
    _claim(client, "Mehmet")
    with _browser(client) as other:
        for _ in range(SIGN_IN_PER_NAME[0]):
            wrong = _login(other, "Mehmet", "wrong password")
            assert wrong.status_code == 401 and wrong.json()["error"] == "wrong_password"
        limited = _login(other, "Mehmet")
        assert limited.status_code == 429 and limited.json()["error"] == "rate_limited"
        assert limited.json()["retry"] > 0
        assert ACCOUNT_COOKIE not in other.cookies
    unknown = _login(client, "Nobody Here")
    assert unknown.status_code == 401 and unknown.json()["error"] == "wrong_password"


def test_sign_out_rename_and_delete(client: TestClient) -> None:
    token = _guest(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    LobbyStore(store).add_results("match-2", "remi", [(0, token, "Ion", 3, 1)])
    _claim(client, "Ion")
    with _browser(client) as other:
        _guest(other)
        _claim(other, "Maria")
        assert other.post("/api/account/name", json={"name": "ion"}).json()["error"] == "name_taken"
    renamed = client.post("/api/account/name", json={"name": "Ion Popescu"})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Ion Popescu"
    wrong = client.post("/api/account/delete", json={"password": "not it at all"})
    assert wrong.status_code == 401 and client.get("/api/account").json()["signed_in"]
    gone = client.post("/api/account/delete", json={"password": PASSWORD})
    assert gone.status_code == 200 and client.cookies[COOKIE] != token
    assert client.get("/api/account").json() == {"signed_in": False}
    assert _login(client, "Ion Popescu").json()["error"] == "wrong_password"
    (kept,) = LobbyStore(store).results_for(token)
    assert kept["match"] == "match-2" and kept["people"][0]["name"] == ""
    _claim(client, "Ion Popescu")  # the name is free again
    assert client.post("/api/account/logout", json={}).json() == {"signed_in": False}
    assert client.post("/api/account/logout", json={}).json()["error"] == "not_signed_in"
    assert client.post("/api/account/name", json={"name": "Xyz"}).status_code == 401


def test_an_operator_bans_a_name_and_its_look_alikes(
    client: TestClient, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from meldhall.cli import main

    url = ["--database-url", database_url]
    assert main(["chat", "ban", "--name", "Troll", "--reason", "abuse", *url]) == 0
    assert main(["chat", "ban", "--name", "TROLL", *url]) == 1  # one name
    assert main(["chat", "ban", *url]) == 2
    assert main(["chat", "bans", *url]) == 0
    assert "abuse" in capsys.readouterr().out
    _guest(client)
    refused = _claim(client, "Tr0ll")
    assert refused.status_code == 403 and refused.json()["error"] == "banned"
    assert main(["chat", "unban", "--name", "troll", *url]) == 0
    assert _claim(client, "Tr0ll").status_code == 200
    assert main(["chat", "reports", *url]) == 0 and capsys.readouterr().out.strip().endswith("[]")
    assert main(["chat", "handled", "--report", "12345", *url]) == 1
