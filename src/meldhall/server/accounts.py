"""The account routes: claim a guest's identity, sign in and out, rename, delete, and who is
signed in (docs/people.md).

Passwords travel in JSON bodies only and are hashed with argon2id; neither a password nor a
token is ever logged or put in a URL. The sign-in secret is an HttpOnly cookie whose sha256
the store keeps. Every refusal is ``{"error": code, "reason": text}`` with a 4xx status and
changes nothing.
"""

from __future__ import annotations

import asyncio
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from meldhall.server.edge import EdgeError, decode_json
from meldhall.server.lobby import COOKIE, TOKEN_HEADER, guest_cookie
from meldhall.server.names import NameError_, account_name, name_key
from meldhall.server.people import People
from meldhall.server.static import page_response
from meldhall.store.accounts import AccountConflict, AccountData

ACCOUNT_COOKIE = "meldhall_account"
PASSWORD_MIN = 8
PASSWORD_MAX = 200
HASHER = PasswordHasher()
_DUMMY = HASHER.hash("meldhall: no such account")
"""A hash checked when a name has no account, so that a refusal takes as long either way."""


class Refusal(Exception):
    """A request refused: an error code, a reason and an HTTP status."""

    def __init__(self, code: str, reason: str, status: int = 400, **extra: Any) -> None:
        super().__init__(reason)
        self.code, self.reason, self.status, self.extra = code, reason, status, extra

    def response(self) -> JSONResponse:
        """Return the refusal as a JSON response."""
        body = {"error": self.code, "reason": self.reason, **self.extra}
        return JSONResponse(body, status_code=self.status)


def _people(request: Request) -> People:
    people: People = request.app.state.people
    return people


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = decode_json(await request.body(), request.app.state.limits.max_depth)
    except EdgeError as exc:
        raise Refusal("bad_request", exc.reason) from exc
    if not isinstance(body, dict):
        raise Refusal("bad_request", "the body must be a JSON object")
    return body


def _name(body: dict[str, Any]) -> str:
    try:
        return account_name(body.get("name"))
    except NameError_ as exc:
        raise Refusal(exc.code, exc.reason) from exc


def _password(body: dict[str, Any]) -> str:
    password = body.get("password")
    if not isinstance(password, str):
        raise Refusal("bad_password", "the password must be text")
    if len(password) < PASSWORD_MIN:
        raise Refusal("password_short", f"a password has at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise Refusal("password_long", f"a password has at most {PASSWORD_MAX} characters")
    return password


def _not_banned(people: People, key: str, address: str) -> None:
    if people.chat.banned("name", key) or people.chat.banned("address", address):
        raise Refusal("banned", "this name or address is banned by the operator", 403)


def _count_claim(people: People, address: str, key: str) -> None:
    """Count a claim or rename of ``key`` from ``address``; raise ``Refusal`` (counting
    nothing) when either made too many lately."""
    wait = max(people.claims.wait(address), people.claim_names.wait(key))
    if wait:
        raise Refusal(
            "rate_limited", "too many accounts or names lately", 429, retry=round(wait, 1)
        )
    people.claims.count(address)
    people.claim_names.count(key)


def signed_in(request: Request) -> AccountData | None:
    """Return the account the request's sign-in cookie belongs to, or None."""
    return _people(request).accounts.signed_in(request.cookies.get(ACCOUNT_COOKIE))


def _secure(request: Request) -> bool:
    return bool(request.app.state.limits.secure_cookies or request.url.scheme == "https")


def _account_cookie(secret: str, secure: bool) -> dict[str, Any]:
    return {**guest_cookie(secret, secure), "key": ACCOUNT_COOKIE}


def _me(account: AccountData, people: People) -> dict[str, Any]:
    return {
        "signed_in": True,
        "name": account.name,
        "ratings": [r.to_json() for r in people.ratings.ratings_of(account.id)],
    }


def _route(handler: Any) -> Any:
    async def endpoint(request: Request) -> JSONResponse:
        try:
            result: JSONResponse = await handler(request)
            return result
        except Refusal as refusal:
            return refusal.response()

    endpoint.__name__ = handler.__name__
    endpoint.__doc__ = handler.__doc__
    return endpoint


async def claim(request: Request) -> JSONResponse:
    """Claim the browser's guest session as an account with a name and a password; the
    guest's online results (and the solo records of the ``X-Meldhall-Token`` session) are the
    account's from now on."""
    people = _people(request)
    body = await _body(request)
    name, password = _name(body), _password(body)
    session = request.cookies.get(COOKIE)
    store = request.app.state.store
    if not session or not store.has_session(session):
        raise Refusal("no_guest", "start a guest session first (open the online page)")
    address = _address(request)
    key = name_key(name)
    _not_banned(people, key, address)
    _count_claim(people, address, key)
    digest = await asyncio.to_thread(HASHER.hash, password)
    solo = request.headers.get(TOKEN_HEADER) or None
    if solo is not None and not store.has_session(solo):
        solo = None
    try:
        account = people.accounts.claim(session, name, key, digest, solo)
    except AccountConflict as exc:
        raise Refusal(exc.code, exc.reason, 409) from exc
    secret = people.accounts.sign_in(account.id)
    response = JSONResponse(_me(account, people))
    response.set_cookie(**_account_cookie(secret, _secure(request)))
    return response


async def sign_in(request: Request) -> JSONResponse:
    """Sign in with a name and a password: the browser's guest session becomes the
    account's (its records and matches follow); failures are rate limited per name and per
    address."""
    people = _people(request)
    body = await _body(request)
    name = _name(body)
    password = body.get("password")
    if not isinstance(password, str) or len(password) > PASSWORD_MAX:
        raise Refusal("bad_password", "the password must be text")
    key, address = name_key(name), _address(request)
    _not_banned(people, key, address)
    wait = max(people.sign_in_name.wait(key), people.sign_in_address.wait(address))
    if wait:
        raise Refusal(
            "rate_limited",
            f"too many failed sign-ins; try again in {wait:.0f} seconds",
            429,
            retry=round(wait, 1),
        )
    account = people.accounts.by_key(key)
    ok = await asyncio.to_thread(_verify, account.password_hash if account else _DUMMY, password)
    if account is None or not ok:
        people.sign_in_name.count(key)
        people.sign_in_address.count(address)
        raise Refusal("wrong_password", "no account has this name and password", 401)
    people.sign_in_name.clear(key)
    earlier = request.cookies.get(ACCOUNT_COOKIE)
    if earlier:  # signed in before (maybe as another account): that sign-in ends
        people.accounts.sign_out(earlier)
    secret = people.accounts.sign_in(account.id)
    response = JSONResponse({**_me(account, people), "solo_token": account.solo_token})
    secure = _secure(request)
    response.set_cookie(**_account_cookie(secret, secure))
    response.set_cookie(**guest_cookie(account.session, secure))
    return response


def _verify(digest: str, password: str) -> bool:
    try:
        return HASHER.verify(digest, password)
    except (VerificationError, InvalidHashError):
        return False


async def sign_out(request: Request) -> JSONResponse:
    """Sign this browser out: its sign-in is forgotten and it plays as a new guest."""
    people = _people(request)
    secret = request.cookies.get(ACCOUNT_COOKIE)
    if not secret or not people.accounts.sign_out(secret):
        raise Refusal("not_signed_in", "this browser is not signed in", 401)
    response = JSONResponse({"signed_in": False})
    response.delete_cookie(ACCOUNT_COOKIE, path="/")
    fresh = request.app.state.store.session(None)
    response.set_cookie(**guest_cookie(fresh.token, _secure(request)))
    return response


def _required(request: Request) -> AccountData:
    account = signed_in(request)
    if account is None:
        raise Refusal("not_signed_in", "sign in first", 401)
    return account


async def me(request: Request) -> JSONResponse:
    """Return who is signed in on this browser: name and ratings, or ``signed_in: false``."""
    account = signed_in(request)
    if account is None:
        return JSONResponse({"signed_in": False})
    return JSONResponse(_me(account, _people(request)))


async def rename(request: Request) -> JSONResponse:
    """Change the signed-in account's name (same rules as a claim)."""
    people = _people(request)
    account = _required(request)
    name = _name(await _body(request))
    key, address = name_key(name), _address(request)
    _not_banned(people, key, address)
    _count_claim(people, address, key)
    try:
        account = people.accounts.rename(account.id, name, key)
    except AccountConflict as exc:
        raise Refusal(exc.code, exc.reason, 409) from exc
    return JSONResponse(_me(account, people))


async def delete(request: Request) -> JSONResponse:
    """Delete the signed-in account (its password again in the body): its matches stay,
    anonymised; the name is free again; the browser plays as a new guest."""
    people = _people(request)
    account = _required(request)
    password = (await _body(request)).get("password")
    ok = isinstance(password, str) and await asyncio.to_thread(
        _verify, account.password_hash, password
    )
    if not ok:
        raise Refusal("wrong_password", "the password does not match", 401)
    people.accounts.delete(account.id)
    response = JSONResponse({"signed_in": False, "deleted": True})
    response.delete_cookie(ACCOUNT_COOKIE, path="/")
    fresh = request.app.state.store.session(None)
    response.set_cookie(**guest_cookie(fresh.token, _secure(request)))
    return response


async def account_page(request: Request) -> Response:
    return page_response(request.app.state.web, "account.html")


def account_routes() -> list[Route]:
    """Return the routes of accounts (the page ``/account``, the API under ``/api/account``)."""
    return [
        Route("/account", account_page),
        Route("/api/account", _route(me)),
        Route("/api/account/claim", _route(claim), methods=["POST"]),
        Route("/api/account/login", _route(sign_in), methods=["POST"]),
        Route("/api/account/logout", _route(sign_out), methods=["POST"]),
        Route("/api/account/name", _route(rename), methods=["POST"]),
        Route("/api/account/delete", _route(delete), methods=["POST"]),
    ]
