"""The release desk example (examples/release_desk) over streamable HTTP, driven by the Python
SDK's client (PyPI `mcp`) on both protocol eras, as its users would: a bearer token on the MCP
endpoint, a person who answers the forms, and, for the GitHub connection, accepts in the client
at once and opens the link 1.5 s later in a browser (cookies kept): it is sent to sign in at the
issuer (the example's fake authorization server), comes back through /signin/callback to the
confirmation page, and on Confirm goes through the (fake) GitHub and back.

    .venv/bin/python tests/interop/release_desk.py target/debug/examples/release_desk

Exits non-zero on the first step that does not hold.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

import anyio
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

ERAS = ["2026-07-28", "legacy"]


SIGN_IN_PAGE = "<h1>Sign in to the issuer</h1>"


@dataclass
class Page:
    status: int
    url: str  # where the redirects led
    text: str
    location: str | None  # of a redirect not followed


def origin_of(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def without_query(url: str) -> str:
    return url.split("?", 1)[0]


class Browser:
    """A person's browser: keeps cookies, follows redirects (its trail: where they led), posts
    the forms of the page it is on; asked to sign in at the issuer, signs in as `user`."""

    def __init__(self, user: str | None = None) -> None:
        self.user = user
        self.cookies = http.cookiejar.CookieJar()
        self.trail: list[str] = []
        self.follow = True
        browser = self

        class Redirects(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ANN001
                if not browser.follow:
                    return None
                browser.trail.append(newurl)
                return super().redirect_request(req, fp, code, msg, headers, newurl)

        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies), Redirects())

    def open(self, url: str, form: dict[str, str] | None = None, follow: bool = True) -> Page:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        request = urllib.request.Request(url, data=data)
        if form is not None:
            # The page's own form: what a browser sends with it (and not again after a redirect).
            request.add_unredirected_header("Origin", origin_of(url))
            request.add_unredirected_header("Sec-Fetch-Site", "same-origin")
        self.follow = follow
        try:
            with self.opener.open(request, timeout=10) as r:
                return Page(r.status, r.geturl(), r.read().decode(), None)
        except urllib.error.HTTPError as e:
            return Page(e.code, e.geturl(), e.read().decode(), e.headers.get("Location"))

    def signed_in(self) -> bool:
        return any(c.name == "elicit_session" for c in self.cookies)

    def visit(self, link: str) -> Page:
        """Opens the link, signing in at the issuer if sent there."""
        page = self.open(link)
        if SIGN_IN_PAGE in page.text and self.user is not None:
            return self.open(page.url, {"user": self.user})
        return page

    def confirm(self, link: str) -> Page:
        """Opens the link and presses Confirm on the page."""
        page = self.visit(link)
        marker = 'name="token" value="'
        if marker not in page.text:
            return page
        token = page.text.split(marker, 1)[1].split('"', 1)[0]
        return self.open(link, {"token": token, "decision": "confirm"})


def check(held: bool, what: str) -> None:
    if not held:
        raise AssertionError(f"did not hold: {what}")
    print(f"  ok: {what}")


class Person:
    """Answers the forms; for a link, accepts at once and comes 1.5 s later."""

    def __init__(self, browser: Browser, environment: str = "staging") -> None:
        self.browser = browser
        self.environment = environment
        self.asked: list[Any] = []
        self.links: list[str] = []
        self.pages: list[Page] = []
        self.threads: list[threading.Thread] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked.append(params)
        if params.mode == "url":
            self.links.append(params.url)

            def later(url: str = params.url) -> None:
                time.sleep(1.5)
                self.pages.append(self.browser.confirm(url))

            t = threading.Thread(target=later, daemon=True)
            t.start()
            self.threads.append(t)
            return types.ElicitResult(action="accept")
        fields = list(params.requested_schema["properties"])
        if fields == ["environment", "note"]:
            content = {"environment": self.environment, "note": "hotfix"}
        elif fields == ["confirm"]:
            content = {"confirm": True}
        elif fields == ["formal"]:
            content = {"formal": True}
        else:
            raise AssertionError(f"unexpected form {fields}")
        return types.ElicitResult(action="accept", content=content)


def text_of(result: Any) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def session(url: str, era: str, person: Person, body):
    http_client = create_mcp_http_client(headers={"Authorization": "Bearer alice-token"})
    async with http_client:
        transport = streamable_http_client(url, http_client=http_client)
        async with Client(transport, mode=era, elicitation_callback=person) as client:
            return await body(client)


async def run(origin: str, issuer: str, github: str) -> None:
    url = f"{origin}/mcp"
    # No token: refused before MCP, as the authorization spec has it.
    request = urllib.request.Request(url, data=b"{}", headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=10)
        check(False, "an unauthenticated request is refused")
    except urllib.error.HTTPError as e:
        metadata = f"{origin}/.well-known/oauth-protected-resource/mcp"
        challenge = e.headers.get("WWW-Authenticate")
        check(e.code == 401 and challenge == f'Bearer resource_metadata="{metadata}"',
              f"an unauthenticated request gets 401 with the resource metadata's URL ({challenge})")
    # The metadata the challenge points at (RFC 9728), readable without a token.
    with urllib.request.urlopen(metadata, timeout=10) as response:
        document = json.loads(response.read())
    check(document == {"resource": url, "bearer_methods_supported": ["header"]},
          f"the protected resource metadata names /mcp ({document})")
    # A token the server does not know: 401 invalid_token.
    request.add_header("Authorization", "Bearer mallory-token")
    try:
        urllib.request.urlopen(request, timeout=10)
        check(False, "an unknown token is refused")
    except urllib.error.HTTPError as e:
        check(e.code == 401 and 'error="invalid_token"' in e.headers.get("WWW-Authenticate", ""),
              "an unknown token gets 401 invalid_token")

    for era in ERAS:
        print(f"protocol {era}:")
        browser = Browser()
        person = Person(browser)
        args = {"service": "api", "version": "1.2.3"}

        result = await session(url, era, person, lambda c: c.call_tool("deploy", args))
        check(text_of(result) == "deployed api 1.2.3 to staging (hotfix)", f"staging: {text_of(result)}")

        person = Person(browser, environment="production")
        result = await session(url, era, person, lambda c: c.call_tool("deploy", args))
        check(text_of(result) == "deployed api 1.2.3 to production (hotfix)", f"production: {text_of(result)}")
        check([p.message for p in person.asked] == ["Where should it go?", "Deploy api 1.2.3 to production?"],
              "production is confirmed with the arguments in the message")

        person = Person(browser)
        prompt = await session(url, era, person,
                               lambda c: c.get_prompt("release_notes", {"service": "api"}))
        texts = [m.content.text for m in prompt.messages]
        check(texts == ["Draft formal release notes for api"], f"the prompt asked: {texts}")

        # alice's browser, signed in to no one yet, opens the link 1.5 s after the accept.
        browser = Browser("alice")
        person = Person(browser)

        async def connect(c: Client) -> Any:
            return await c.call_tool("list_repos", {})

        result = await session(url, era, person, connect)
        for t in person.threads:
            t.join(timeout=10)
        check(text_of(result) == "connected GitHub as octocat (token kept on the server: true)",
              f"GitHub connected: {text_of(result)}")
        check([p.status for p in person.pages] == [200], f"the pages: {[p.status for p in person.pages]}")
        [link] = person.links
        check(link.startswith(f"{origin}/connect?elicitation="), "the link is this app's connect page")
        trail = [without_query(u) for u in browser.trail]
        check(trail == [f"{issuer}/authorize", f"{origin}/signin/callback", f"{origin}/connect",
                        f"{github}/authorize", f"{origin}/oauth/callback"],
              f"signed in at the issuer on the way to the confirmation page, then GitHub: {trail}")
        check(browser.signed_in(), "alice's browser keeps its session")

        # The same link in bob's browser: he signs in as himself, and is refused.
        bob = Browser("bob")
        page = bob.confirm(link)
        check(f"{origin}/signin/callback" in [without_query(u) for u in bob.trail] and page.status == 404,
              f"another user's browser, signed in, is refused ({page.status})")
        # In a browser signed in to no one: sent to the issuer's sign-in page.
        page = Browser().open(link)
        check(page.status == 200 and without_query(page.url) == f"{issuer}/authorize" and SIGN_IN_PAGE in page.text,
              f"a browser signed in to no one is sent to sign in at the issuer ({page.status} {without_query(page.url)})")

        # Login CSRF: bob signs in at the issuer himself but keeps the way back (his code and
        # state), and has alice's browser open it, so that she would act as him. It holds no
        # nonce cookie of that sign-in: refused, and nobody signed in.
        attacker = Browser("bob")
        at_issuer = attacker.open(link)
        back = attacker.open(at_issuer.url, {"user": "bob"}, follow=False).location or ""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(back).query)
        check(without_query(back) == f"{origin}/signin/callback" and "code" in query and "state" in query,
              "the attacker's own sign-in gives a /signin/callback?code=…&state=… URL")
        victim = Browser("alice")
        page = victim.open(back)
        check(page.status == 403 and not victim.signed_in(),
              f"opened in a fresh browser, it is refused and signs nobody in ({page.status})")
        victim.open(link)  # a sign-in of her own under way: her own nonce cookie
        page = victim.open(back)
        check(page.status == 403 and not victim.signed_in(),
              f"opened in a browser with its own sign-in under way, refused too ({page.status})")
        page = victim.open(link)
        check(SIGN_IN_PAGE in page.text, "the victim's browser is still asked to sign in")
        # The URL itself was good: in the attacker's own browser, it signs him in.
        attacker.open(back)
        check(attacker.signed_in(), "the same URL in the browser that started it signs in")


def main() -> int:
    binary = sys.argv[1]
    server = subprocess.Popen([binary, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        lines = "".join(server.stdout.readline() for _ in range(3)) if server.stdout else ""
        origin = lines.split("MCP at ", 1)[1].split("/mcp", 1)[0]
        issuer = re.search(r"the issuer \(fake\) at (\S+),", lines)
        github = re.search(r"GitHub \(fake\) at (\S+)", lines)
        if issuer is None or github is None:
            raise AssertionError(f"the start-up lines: {lines!r}")
        anyio.run(run, origin, issuer[1], github[1])
        print("release desk: every step held")
        return 0
    except Exception as e:  # noqa: BLE001
        print(f"release desk: FAILED: {e!r}")
        return 1
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
