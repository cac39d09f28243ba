"""People in the browser: a guest claims an account, a second browser signs in and sees the
first one's records; two browsers chat at a waiting table (an XSS payload shown literally, a
quick phrase in the reader's language, one muting the other, the flood limit) and on at the
table; the
leaderboard and a profile with its server-drawn rating plot render."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from meldhall.server.chat import FLOOD_BURST
from meldhall.server.names import name_key
from meldhall.store.accounts import AccountStore
from meldhall.store.lobby import LobbyStore
from meldhall.store.ratings import RatingStore
from tests.browser.conftest import Server, shot
from tests.browser.test_a11y import check

pytestmark = pytest.mark.browser

XSS = '<img src=x onerror="alert(1)"><b>bold</b>'
EVIL = "<img src=x onerror=alert(2)>"
"""A guest name (at most 32 characters) that would run as HTML."""
NAME = "Ayla Test"
PASSWORD = "a long test password"


@pytest.fixture
def browsers(browser: Any) -> Iterator[Any]:
    """Return a factory of fresh browsers (own cookies and storage); no page error and no
    script dialog may happen in any."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make() -> Any:
        context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("dialog", lambda d: (errors.append(f"script dialog: {d.message}"), d.dismiss()))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


def _guest_name(page: Any, url: str, name: str) -> None:
    page.goto(f"{url}/online")
    page.fill("#guest-name", name)
    page.click("#guest-save")
    page.wait_for_function("n => localStorage.getItem('meldhall.online.name') === n", arg=name)


def _say(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")


def _open_chat_at_table(page: Any) -> None:
    page.click("#chat-button")
    page.wait_for_selector("#chat-dialog #chat-text")


def test_accounts_chat_leaderboard_and_profile(browsers: Any, server: Server) -> None:
    url = server.url
    problems: dict[str, list[str]] = {}
    ayla = browsers()
    _guest_name(ayla, url, "ayla")
    ayla.goto(f"{url}/account")
    ayla.wait_for_selector("#claim")
    check(ayla, "account (signed out)", problems)
    ayla.fill("#claim-name", NAME)
    ayla.fill("#claim-password", PASSWORD)
    ayla.click("#claim-submit")
    ayla.wait_for_selector("#signed-in")
    assert NAME in ayla.inner_text("#signed-in")
    check(ayla, "account (signed in)", problems)

    # a refusal is shown with its reason, in the page's language
    other = browsers()
    other.goto(f"{url}/account")
    other.fill("#claim-name", "AYLA test")
    other.fill("#claim-password", PASSWORD)
    other.click("#claim-submit")
    other.wait_for_selector("#account-error:not([hidden])")
    assert "taken" in other.inner_text("#account-error")

    # the chat of a waiting table, between two browsers
    _guest_name(ayla, url, "ayla")
    ayla.select_option("#create-game", "okey")
    ayla.click("#create-table")
    ayla.wait_for_selector("#waiting #chat")
    assert ayla.inner_text("#people .person-name") == NAME  # the account's name, not "ayla"
    table_id = str(ayla.get_attribute("#waiting", "data-table"))
    guest = browsers()
    _guest_name(guest, url, EVIL)
    guest.goto(f"{url}/online?table={table_id}")
    guest.wait_for_selector("#waiting #chat")
    _say(ayla, XSS)
    guest.wait_for_selector("#chat-log li .chat-text")
    assert guest.inner_text("#chat-log li .chat-text") == XSS
    assert guest.inner_text("#chat-log li .chat-name") == NAME
    assert guest.locator("#chat-log img, #chat-log b").count() == 0
    guest.click("#chat [data-quick='well_played']")
    ayla.wait_for_selector("#chat-log li:nth-child(2)")
    assert ayla.inner_text("#chat-log li:nth-child(2) .chat-text") == "Well played!"
    assert ayla.inner_text("#chat-log li:nth-child(2) .chat-name") == EVIL
    shot(ayla, "chat-waiting")
    check(ayla, "waiting room chat", problems)
    # Ayla mutes the guest: the guest's lines go, and new ones never come
    ayla.click("#chat-log li:nth-child(2) .chat-mute")
    ayla.wait_for_selector("#chat-status:has-text('Muted')")
    assert ayla.locator("#chat-log li").count() == 1
    _say(guest, "can you read this")
    guest.wait_for_selector("#chat-log li:has-text('can you read this')")
    _say(ayla, "still here")
    guest.wait_for_selector("#chat-log li:has-text('still here')")
    ayla.wait_for_selector("#chat-log li:has-text('still here')")
    assert ayla.locator("#chat-log li:has-text('can you read this')").count() == 0
    # the flood limit: the panel says to wait
    for i in range(int(FLOOD_BURST) + 2):
        _say(guest, f"flood {i}")
    guest.wait_for_selector("#chat-status:has-text('Too many messages')")
    # the same room at the table: behind the toolbar's chat button, which marks new messages
    ayla.click("#begin-table")
    for page in (ayla, guest):
        page.wait_for_selector(".rack .piece", timeout=20_000)
    _open_chat_at_table(ayla)
    _say(ayla, "good game so far")
    guest.wait_for_selector("#chat-button.unread")
    _open_chat_at_table(guest)
    guest.wait_for_selector("#chat-dialog #chat-log li:has-text('good game so far')")
    assert guest.locator("#chat-dialog #chat-log li:has-text('still here')").count() == 1
    check(guest, "table chat", problems)
    guest.click("#chat-dialog [data-close]")

    # ratings: Ayla and another account played rated matches; a result of Ayla's guest
    store = server.store()
    accounts = AccountStore(store)
    mine = accounts.by_key(name_key(NAME))
    assert mine is not None
    rival = accounts.claim("rival-session", "Rival", name_key("Rival"), "x", None)
    ratings = RatingStore(store)
    for match in range(4):
        ratings.rate_match(f"rated-{match}", "okey", [(mine.id, 1), (rival.id, 2)])
    LobbyStore(store).add_results("rated-0", "okey", [(0, mine.session, NAME, 10, 1)])
    store.close()

    # a second browser signs in and sees the first one's online records
    second = browsers()
    second.goto(f"{url}/account")
    second.fill("#sign-in-name", NAME.upper())
    second.fill("#sign-in-password", PASSWORD)
    second.click("#sign-in-submit")
    second.wait_for_selector("#signed-in")
    second.goto(f"{url}/records")
    second.wait_for_selector("#online-results tbody tr")

    second.goto(f"{url}/leaderboard?game=okey")
    second.wait_for_selector("#leaderboard-table tbody tr")
    rows = second.locator("#leaderboard-table tbody tr").all_inner_texts()
    assert rows[0].startswith(f"1\t{NAME}") and rows[1].startswith("2\tRival")
    assert "provisional" in rows[0]
    assert "1" in second.inner_text("#my-place")
    shot(second, "leaderboard")
    check(second, "leaderboard", problems)
    second.click(f"#leaderboard-table a:has-text('{NAME}')")
    second.wait_for_selector(".profile-game[data-game='okey'] img.rating-plot")
    assert second.inner_text("#profile-name") == NAME
    second.wait_for_function(
        "() => document.querySelector('img.rating-plot').complete"
        " && document.querySelector('img.rating-plot').naturalWidth > 0"
    )
    svg = second.evaluate(
        "async () => (await fetch(document.querySelector('img.rating-plot').src)).text()"
    )
    assert "<polyline" in svg and svg.count("<circle") == 4
    shot(second, "profile")
    check(second, "profile", problems)
    assert not problems, problems
