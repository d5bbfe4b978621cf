"""The release desk example (examples/release_desk) over streamable HTTP, driven by the Python
SDK's client (PyPI `mcp`) on both protocol eras, as its users would: a bearer token on the MCP
endpoint, a person who answers the forms, and, for the GitHub connection, accepts in the client
at once and opens the link 1.5 s later in a browser (cookies kept), signs in, clicks Confirm and
goes through the provider and back.

    .venv/bin/python tests/interop/release_desk.py target/debug/examples/release_desk

Exits non-zero on the first step that does not hold.
"""

from __future__ import annotations

import http.cookiejar
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import anyio
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

ERAS = ["2026-07-28", "legacy"]


class Browser:
    """A person's browser: keeps cookies, follows redirects, posts forms from the page."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def open(self, url: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        headers = {"Origin": self.origin, "Sec-Fetch-Site": "same-origin"} if form is not None else {}
        request = urllib.request.Request(url, data=data, headers=headers)
        try:
            with self.opener.open(request, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def sign_in(self, token: str) -> None:
        status, _ = self.open(f"{self.origin}/signin", {"token": token})
        check(status == 200, f"signed in ({status})")

    def confirm(self, link: str) -> tuple[int, str]:
        """Opens the link and presses Confirm on the page."""
        status, page = self.open(link)
        marker = 'name="token" value="'
        if marker not in page:
            return status, page
        token = page.split(marker, 1)[1].split('"', 1)[0]
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
        self.pages: list[tuple[int, str]] = []
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


async def run(origin: str) -> None:
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
        browser = Browser(origin)
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

        # The link before signing in: the sign-in page (a browser of no one).
        browser = Browser(origin)
        person = Person(browser)

        async def connect(c: Client) -> Any:
            return await c.call_tool("list_repos", {})

        # The person signs in first this time round, then opens the link 1.5 s after the accept.
        browser.sign_in("alice-token")
        result = await session(url, era, person, connect)
        for t in person.threads:
            t.join(timeout=10)
        check(text_of(result) == "connected GitHub as octocat (token kept on the server: true)",
              f"GitHub connected: {text_of(result)}")
        check([status for status, _ in person.pages] == [200], f"the pages: {[s for s, _ in person.pages]}")
        [link] = person.links
        check(link.startswith(f"{origin}/connect?elicitation="), "the link is this app's connect page")

        # Another site's form posting alice's token to /signin (login CSRF): refused.
        forged = urllib.request.Request(f"{origin}/signin", data=b"token=alice-token",
                                        headers={"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
        try:
            urllib.request.urlopen(forged, timeout=10)
            check(False, "a cross-site sign-in is refused")
        except urllib.error.HTTPError as e:
            check(e.code == 403, f"a cross-site sign-in is refused ({e.code})")
        # The same link in bob's browser, and in a browser signed in to no one.
        bob = Browser(origin)
        bob.sign_in("bob-token")
        status, _ = bob.confirm(link)
        check(status == 404, f"another user's browser is refused ({status})")
        status, page = Browser(origin).open(link)
        check(status == 401 and "Sign in" in page, f"a browser signed in to no one is asked to sign in ({status})")


def main() -> int:
    binary = sys.argv[1]
    server = subprocess.Popen([binary, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline() if server.stdout else ""
        origin = line.split("MCP at ", 1)[1].split("/mcp", 1)[0]
        anyio.run(run, origin)
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
