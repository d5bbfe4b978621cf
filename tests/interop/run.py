#!/usr/bin/env python3
"""Interop tests: the real Python MCP client (`mcp` 2.3.0) against the demo server.

    python tests/interop/run.py [-k SUBSTRING] [--keep]

Every scenario spawns `target/debug/demo-server` (or $DEMO_SERVER) behind `tee.py`, drives it
with `mcp.Client` over stdio (or with raw JSON-RPC lines) and then asserts on the JSON-RPC
messages captured in that run's tee log, not only on the final text. Each client run has its
own log under a temporary directory; a failing scenario prints its logs. Exits 1 if any
scenario fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import traceback
import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Awaitable, Callable

import anyio
from mcp import Client, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SERVER = Path(os.environ.get("DEMO_SERVER", ROOT / "target" / "debug" / "demo-server"))
TEE = HERE / "tee.py"
PY = sys.executable

MODERN = "2026-07-28"
LEGACY = "2025-11-25"
PV_KEY = "io.modelcontextprotocol/protocolVersion"
CAPS_KEY = "io.modelcontextprotocol/clientCapabilities"
INFO_KEY = "io.modelcontextprotocol/clientInfo"

TOOLS = {"book_table", "cancel_reservation", "connect_account", "plan_trip", "export_reservations"}
BOOKING_ORDER = ["date", "time", "guests", "seating", "extras", "email"]
# Keys the restricted elicitation schema allows on a property (2025-11-25 == 2026-07-28).
ALLOWED_PROPERTY_KEYS = {
    "type", "title", "description", "minLength", "maxLength", "format", "default",
    "minimum", "maximum", "enum", "enumNames", "oneOf", "items", "minItems", "maxItems",
}

BOOKING_FULL = {
    "date": "2026-12-24",
    "time": "20:00",
    "guests": 4,
    "seating": "terrace",
    "extras": ["high_chair", "birthday_cake"],
    "email": "ada@example.com",
}
BOOKING_FULL_TEXT = (
    "accept: table for 4 at Chez Rust on 2026-12-24 at 20:00, seating terrace, "
    "extras high_chair + birthday_cake, confirmation to ada@example.com"
)
BOOKING_MIN = {"date": "2027-01-02"}
BOOKING_MIN_TEXT = "accept: table for 2 at Chez Rust on 2027-01-02 at 19:30, seating indoor"
# Too many guests and a broken email: asked again, saying so.
BOOKING_BAD = {"date": "2026-12-24", "time": "20:00", "guests": 40, "email": "ada@"}
BOOKING_REASKED_MESSAGE = (
    "Book a table at Chez Rust\n\nPlease correct and send again:\n"
    "- Guests must be at most 12\n- Email must be a valid email address"
)
BOOKING_CORRECTED_TEXT = (
    "accept: table for 4 at Chez Rust on 2026-12-24 at 20:00, seating indoor, "
    "confirmation to ada@example.com"
)
DATES = {"start": "2026-12-24", "nights": 2}
TRAVELERS = {"adults": 2, "children": 1}
TRIP_TEXT = "accept: 2 nights in Rome from 2026-12-24 for 2 adults and 1 children"
CONNECT_TEXT = "accept: connected github as demo-user@github"
# What elicit-axum records when the person presses Cancel on the page (route.rs CANCELLED), as
# connect_account reports a failed page outcome (examples/src/demo/server.rs).
PAGE_CANCELLED_TEXT = "accept: connecting github failed: the user cancelled on the confirmation page"
EXPIRED_TEXT = "accept: the github link expired before it was used"
# The pace of URL mode for the scenarios that let a hold pass or a link expire (demo-server's
# ELICIT_URL_HOLD_SECS / ELICIT_STATE_TTL_SECS; unset: 30 s hold, 600 s lifetime).
SHORT_HOLD = {"ELICIT_URL_HOLD_SECS": "1"}
SHORT_LIFE = {"ELICIT_URL_HOLD_SECS": "1", "ELICIT_STATE_TTL_SECS": "4"}
CLIENT_MAX_ROUNDS = 10  # mcp's DEFAULT_INPUT_REQUIRED_MAX_ROUNDS (as the TS SDK's)


# --------------------------------------------------------------------------------------------
# The captured wire
# --------------------------------------------------------------------------------------------


def same_id(a: Any, b: Any) -> bool:
    """JSON-RPC ids match only with the same JSON type (0 is not "0", 1 is not true)."""
    return type(a) is type(b) and a == b


class Wire:
    """One tee log: `C->S {json}` / `S->C {json}` lines, in order."""

    def __init__(self, path: Path):
        self.path = path
        self.entries: list[tuple[str, dict[str, Any], str]] = []
        if path.exists():
            for n, line in enumerate(path.read_text().splitlines(), 1):
                direction, _, raw = line.partition(" ")
                assert direction in ("C->S", "S->C"), f"{path.name}:{n}: bad log line {line[:80]!r}"
                try:
                    msg = json.loads(raw)
                except json.JSONDecodeError as e:
                    raise AssertionError(f"{path.name}:{n}: {direction} line is not JSON ({e}): {raw[:200]!r}")
                assert msg.get("jsonrpc") == "2.0", f"{path.name}:{n}: not JSON-RPC 2.0: {raw[:200]}"
                self.entries.append((direction, msg, raw))

    def text(self) -> str:
        return self.path.read_text() if self.path.exists() else "(no log)\n"

    # --- selection -------------------------------------------------------------------------
    def msgs(self, direction: str | None = None) -> list[tuple[int, dict[str, Any], str]]:
        return [(i, m, r) for i, (d, m, r) in enumerate(self.entries) if direction in (None, d)]

    def requests(self, direction: str, method: str | None = None) -> list[tuple[int, dict[str, Any], str]]:
        return [
            (i, m, r)
            for i, m, r in self.msgs(direction)
            if "method" in m and "id" in m and (method is None or m["method"] == method)
        ]

    def notifications(self, direction: str, method: str | None = None) -> list[tuple[int, dict[str, Any]]]:
        return [
            (i, m)
            for i, m, _ in self.msgs(direction)
            if "method" in m and "id" not in m and (method is None or m["method"] == method)
        ]

    def response(self, direction: str, rid: Any, after: int = -1) -> tuple[int, dict[str, Any], str]:
        found = [
            (i, m, r)
            for i, m, r in self.msgs(direction)
            if i > after and "method" not in m and "id" in m and same_id(m["id"], rid)
        ]
        assert found, f"no {direction} response with id {rid!r} (after entry {after})"
        assert len(found) == 1, f"{len(found)} {direction} responses with id {rid!r}"
        return found[0]

    def tool_calls(self, name: str) -> list[dict[str, Any]]:
        """The client's tools/call requests for `name`, each with its response."""
        out = []
        for i, req, raw in self.requests("C->S", "tools/call"):
            if req["params"].get("name") != name:
                continue
            j, resp, resp_raw = self.response("S->C", req["id"], after=i)
            out.append({"i": i, "req": req, "raw": raw, "j": j, "resp": resp, "resp_raw": resp_raw})
        return out

    # --- whole-session checks --------------------------------------------------------------
    def check_all_answered(self) -> None:
        """Every request in either direction got exactly one response with its exact id."""
        for direction, back in (("C->S", "S->C"), ("S->C", "C->S")):
            for i, req, _ in self.requests(direction):
                self.response(back, req["id"], after=i)
        for direction, back in (("S->C", "C->S"), ("C->S", "S->C")):
            asked = [m["id"] for _, m, _ in self.requests(back)]
            for _, m, raw in self.msgs(direction):
                if "method" not in m:
                    assert any(same_id(m.get("id"), a) for a in asked), f"{direction} response to nothing: {raw[:200]}"

    def check_modern(self) -> None:
        """A 2026-07-28 session: no handshake, envelope everywhere, MRTR only, no back-channel."""
        assert self.entries, "empty log"
        assert not self.requests("C->S", "initialize"), "client sent initialize on a 2026-07-28 session"
        for _, m, _ in self.requests("C->S"):
            meta = (m.get("params") or {}).get("_meta") or {}
            assert meta.get(PV_KEY) == MODERN, f"request without the 2026 envelope: {m}"
            assert CAPS_KEY in meta, f"request without clientCapabilities: {m}"
        srv_reqs = self.requests("S->C")
        assert not srv_reqs, f"server sent a server->client request on a 2026 session: {srv_reqs[0][2][:300]}"
        assert not self.notifications("S->C", "notifications/elicitation/complete"), (
            "notifications/elicitation/complete on a 2026 session"
        )
        for _, m, raw in self.msgs("S->C"):
            if "result" in m:
                assert m["result"].get("resultType") in ("complete", "input_required"), (
                    f"2026 result without a valid resultType: {raw[:300]}"
                )
                assert "elicitationId" not in raw, f"elicitationId on a 2026 session: {raw[:300]}"
        self.check_all_answered()

    def check_legacy_completion(self) -> None:
        """A legacy URL flow: one elicitation/create, answered, then exactly one
        notifications/elicitation/complete for its elicitationId, after the answer."""
        self.check_legacy()
        [(i, req, _)] = self.requests("S->C", "elicitation/create")
        eid = req["params"]["elicitationId"]
        k, _, _ = self.response("C->S", req["id"], after=i)
        done = self.notifications("S->C", "notifications/elicitation/complete")
        assert [n["params"]["elicitationId"] for _, n in done] == [eid], done
        assert done[0][0] > k

    def check_legacy(self) -> None:
        """A 2025-11-25 session: initialize first, server->client requests, no MRTR."""
        assert self.entries, "empty log"
        d, first, _ = self.entries[0]
        assert d == "C->S" and first.get("method") == "initialize", f"first message is not initialize: {first}"
        assert first["params"]["protocolVersion"] == LEGACY
        _, init, _ = self.response("S->C", first["id"])
        assert init["result"]["protocolVersion"] == LEGACY, f"initialize answered {init}"
        assert init["result"]["serverInfo"]["name"], init
        for _, m, raw in self.msgs("S->C"):
            if "result" in m:
                assert m["result"].get("resultType") != "input_required", f"input_required on legacy: {raw[:300]}"
                assert "inputRequests" not in m["result"], f"inputRequests on legacy: {raw[:300]}"
        for _, m, _ in self.requests("C->S"):
            assert PV_KEY not in ((m.get("params") or {}).get("_meta") or {}), f"envelope on legacy: {m}"
        self.check_all_answered()

    def check_tools_list_answered(self, modern: bool) -> None:
        """The Python client re-lists tools after a successful call; that must be answered."""
        lists = self.requests("C->S", "tools/list")
        assert lists, "the client sent no tools/list after the call"
        for i, req, _ in lists:
            _, resp, _ = self.response("S->C", req["id"], after=i)
            assert "result" in resp, f"tools/list failed: {resp}"
            names = {t["name"] for t in resp["result"]["tools"]}
            assert names == TOOLS, f"tools/list returned {sorted(names)}"
            if modern:
                r = resp["result"]
                assert r.get("resultType") == "complete", r.keys()
                assert isinstance(r.get("ttlMs"), int) and isinstance(r.get("cacheScope"), str), (
                    "2026 tools/list needs ttlMs and cacheScope"
                )


def raw_string_field(raw_line: str, field: str) -> str:
    """The raw JSON text of a string field (to compare byte-for-byte, not after decoding)."""
    found = re.findall(r'"' + re.escape(field) + r'":("(?:[^"\\]|\\.)*")', raw_line)
    assert len(found) == 1, f"{len(found)} raw {field!r} fields in {raw_line[:200]}"
    return found[0]


def text_of(result: Any) -> str:
    """The text of a CallToolResult (model) or of a raw result dict."""
    content = result["content"] if isinstance(result, dict) else [c.model_dump() for c in result.content]
    assert content and content[0]["type"] == "text", f"no text content: {content}"
    return content[0]["text"]


# --------------------------------------------------------------------------------------------
# The scripted user (the elicitation callback)
# --------------------------------------------------------------------------------------------


# The person's browser: it keeps cookies (the demo's landing page ties each link to the
# browser that opened it first, by a cookie set with one redirect) and follows redirects.
BROWSER = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def look(url: str) -> tuple[int, str | None]:
    """Only looks at a link (GET, which records nothing): the status and the page's CSRF
    token (None when the page is not the confirmation form)."""
    try:
        with BROWSER.open(url, timeout=10) as r:
            html = r.read().decode()
            status = r.status
    except urllib.error.HTTPError as e:
        return e.code, None
    marker = 'name="token" value="'
    if marker not in html:
        return status, None
    return status, html.split(marker, 1)[1].split('"', 1)[0]


def http_get(url: str, decision: str = "confirm") -> int:
    """Opens a link as the user's browser would: the landing route's confirmation page, then
    its form posted back with the page's token and `decision` (the button pressed: confirm or
    cancel, elicit-axum's confirm.rs), from the page's own origin."""
    status, token = look(url)
    if token is None:
        return status
    parts = urllib.parse.urlsplit(url)
    form = urllib.parse.urlencode({"token": token, "decision": decision}).encode()
    headers = {
        "Origin": f"{parts.scheme}://{parts.netloc}",
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    request = urllib.request.Request(url, data=form, headers=headers, method="POST")
    try:
        with BROWSER.open(request, timeout=10) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def form_key(schema: dict[str, Any]) -> str:
    props = list(schema.get("properties", {}))
    for key, first in (("booking", "date"), ("dates", "start"), ("travelers", "adults"), ("confirm", "confirm")):
        if props and props[0] == first:
            return key
    raise AssertionError(f"unknown form: {props}")


class User:
    """Answers each elicitation by policy; records what it was asked.

    `actions` maps a question (booking/dates/travelers/confirm/connect) to accept, decline or
    cancel (default: accept). On accepting a URL request it opens the page with an HTTP GET
    and presses `decision` before returning (`defer_url` seconds later in the background
    instead, if set). With `opens=False` the person never opens any link (the client still
    accepts each time it is asked).
    """

    def __init__(self, actions: dict[str, str] | None = None, booking: dict[str, Any] | None = None,
                 defer_url: float | None = None, decision: str = "confirm", opens: bool = True):
        self.actions = actions or {}
        self.booking = booking or BOOKING_FULL
        self.defer_url = defer_url
        self.decision = decision
        self.opens = opens
        self.asked: list[Any] = []
        self.asked_at: list[float] = []
        self.pages: list[int] = []
        self.threads: list[threading.Thread] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked.append(params)
        self.asked_at.append(time.monotonic())
        if params.mode == "url":
            action = self.actions.get("connect", "accept")
            if action == "accept" and self.opens:
                if self.defer_url is None:
                    self.pages.append(await anyio.to_thread.run_sync(http_get, params.url, self.decision))
                else:
                    def later(url: str = params.url) -> None:
                        time.sleep(self.defer_url or 0)
                        self.pages.append(http_get(url, self.decision))
                    t = threading.Thread(target=later, daemon=True)
                    t.start()
                    self.threads.append(t)
            return types.ElicitResult(action=action)
        key = form_key(params.requested_schema)
        action = self.actions.get(key, "accept")
        if action != "accept":
            return types.ElicitResult(action=action)
        content = {"booking": self.booking, "dates": DATES, "travelers": TRAVELERS, "confirm": {"confirm": True}}[key]
        return types.ElicitResult(action="accept", content=content)

    def join(self) -> None:
        for t in self.threads:
            t.join(timeout=10)


class CorrectsOnce:
    """A user who mistypes the booking once, then fixes what the server says is wrong.

    The first answer has too many guests and a broken email. The second takes the re-asked
    form as a client that pre-fills `default`s shows it, and changes only the bad fields.
    """

    def __init__(self) -> None:
        self.asked: list[Any] = []
        self.corrected: dict[str, Any] = {}

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked.append(params)
        if len(self.asked) == 1:
            return types.ElicitResult(action="accept", content=dict(BOOKING_BAD))
        props = params.requested_schema["properties"]
        content = {name: p["default"] for name, p in props.items() if "default" in p}
        content.update(guests=4, email="ada@example.com")
        self.corrected = content
        return types.ElicitResult(action="accept", content=content)


# --------------------------------------------------------------------------------------------
# Running clients through the tee
# --------------------------------------------------------------------------------------------


def server_env(extra: dict[str, str] | None) -> dict[str, str] | None:
    """The server's environment for a scenario that sets `extra`: this process's environment
    (PATH, RUST_LOG, ...) without any ELICIT_* of the caller's shell (so a scenario's pace is
    its own), plus `extra`. None (the SDK's default inherited variables) when `extra` is None.
    The SDK merges this over its default environment."""
    if extra is None:
        return None
    env = {k: v for k, v in os.environ.items() if not k.startswith("ELICIT_")}
    env.update(extra)
    return env


class Scenario:
    def __init__(self, name: str, tmp: Path):
        self.name = name
        self.dir = tmp / re.sub(r"[^A-Za-z0-9_.-]+", "_", name)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.logs: list[Path] = []
        self.notes: list[str] = []

    def log_path(self, label: str) -> Path:
        p = self.dir / f"{label}.log"
        self.logs.append(p)
        return p

    def tee_argv(self, log: Path) -> list[str]:
        return [str(TEE), str(log), "--", str(SERVER)]

    async def client(self, label: str, mode: str, user: Any,
                     body: Callable[[Client], Awaitable[Any]],
                     env: dict[str, str] | None = None) -> tuple[Any, Wire]:
        """Runs `body(client)` against a fresh server; returns its value and the wire log.
        `env`: extra environment for the server (e.g. ELICIT_URL_HOLD_SECS), see server_env."""
        log = self.log_path(label)
        params = StdioServerParameters(command=PY, args=self.tee_argv(log), cwd=str(ROOT),
                                       env=server_env(env))
        errlog = open(self.dir / f"{label}.stderr", "w")
        try:
            transport = stdio_client(params, errlog=errlog)
            async with Client(transport, mode=mode, elicitation_callback=user) as client:
                value = await body(client)
        finally:
            errlog.close()
        return value, Wire(log)


SCENARIOS: list[tuple[str, Callable[[Scenario], Awaitable[None]]]] = []


def scenario(name: str):
    def register(fn):
        SCENARIOS.append((name, fn))
        return fn
    return register


def call(name: str, args: dict[str, Any]) -> Callable[[Client], Awaitable[Any]]:
    async def body(client: Client) -> Any:
        return await client.call_tool(name, args)
    return body


def modes_label(mode: str) -> str:
    return "legacy" if mode == "legacy" else "2026"


# --------------------------------------------------------------------------------------------
# Shape checks shared by both eras
# --------------------------------------------------------------------------------------------


def check_restricted_schema(schema: dict[str, Any]) -> None:
    assert schema["type"] == "object", schema
    assert set(schema) <= {"type", "properties", "required", "$schema"}, f"extra root keys: {sorted(schema)}"
    for name, prop in schema["properties"].items():
        extra = set(prop) - ALLOWED_PROPERTY_KEYS
        assert not extra, f"property {name!r} has keys outside the restricted schema: {sorted(extra)}"
        assert prop["type"] in ("string", "number", "integer", "boolean", "array"), prop


def check_booking_params(params: dict[str, Any]) -> None:
    assert params.get("mode") == "form", f"mode is {params.get('mode')!r}"
    assert params["message"] == "Book a table at Chez Rust", params["message"]
    schema = params["requestedSchema"]
    check_restricted_schema(schema)
    props = schema["properties"]
    assert list(props) == BOOKING_ORDER, f"property order {list(props)}"
    assert schema.get("required") == ["date"], f"required {schema.get('required')}"
    assert props["date"]["type"] == "string" and props["date"]["format"] == "date", props["date"]
    assert props["time"]["type"] == "string" and props["time"]["default"] == "19:30", props["time"]
    g = props["guests"]
    assert (g["type"], g["minimum"], g["maximum"], g["default"]) == ("integer", 1, 12, 2), g
    s = props["seating"]
    assert s["type"] == "string" and s["default"] == "indoor", s
    assert [o["const"] for o in s["oneOf"]] == ["indoor", "terrace", "bar"], s
    assert all(isinstance(o.get("title"), str) for o in s["oneOf"]), s
    e = props["extras"]
    assert e["type"] == "array" and e["default"] == [], e
    assert [o["const"] for o in e["items"]["anyOf"]] == ["high_chair", "birthday_cake", "step_free_access"], e
    assert props["email"]["type"] == "string" and props["email"]["format"] == "email", props["email"]


def reasked_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The booking form's schema as re-asked after BOOKING_BAD: the date and time that passed
    pre-filled as defaults and no longer required (the form required only the date); the
    guests and email that failed as the form had them."""
    expected = json.loads(json.dumps(schema))
    expected["properties"]["date"]["default"] = BOOKING_BAD["date"]
    expected["properties"]["time"]["default"] = BOOKING_BAD["time"]
    assert expected.pop("required") == ["date"]
    return expected


def reasked_params(params: dict[str, Any]) -> dict[str, Any]:
    """The `elicitation/create` params of the booking form re-asked after BOOKING_BAD."""
    return {
        "mode": "form",
        "message": BOOKING_REASKED_MESSAGE,
        "requestedSchema": reasked_schema(params["requestedSchema"]),
    }


def without_meta(params: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if k != "_meta"}


def check_confirm_params(params: dict[str, Any]) -> None:
    assert params.get("mode") == "form"
    schema = params["requestedSchema"]
    check_restricted_schema(schema)
    assert list(schema["properties"]) == ["confirm"] and schema["properties"]["confirm"]["type"] == "boolean"
    assert schema.get("required") == ["confirm"]
    assert "R1" in params["message"], params["message"]


def check_url_params(params: dict[str, Any], legacy: bool) -> None:
    assert params.get("mode") == "url", params
    assert isinstance(params.get("message"), str) and params["message"], params
    assert params["url"].startswith("http://127.0.0.1:"), params["url"]
    if legacy:
        assert isinstance(params.get("elicitationId"), str) and params["elicitationId"], (
            f"2025-11-25 URL mode needs an elicitationId: {params}"
        )
    else:
        assert "elicitationId" not in params, f"2026 URL request carries an elicitationId: {params}"


# --------------------------------------------------------------------------------------------
# 2026-07-28 (MRTR) flows
# --------------------------------------------------------------------------------------------


def check_mrtr_round(w: Wire, tool: str, keys: set[str], responses: dict[str, dict[str, Any]],
                     final_prefix: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """One input_required round then one retry that completes. Returns (first params, inputRequests)."""
    calls = w.tool_calls(tool)
    assert len(calls) == 2, f"expected 2 tools/call for {tool} (call + one retry), got {len(calls)}"
    first, retry = calls
    fp = first["req"]["params"]
    assert "inputResponses" not in fp and "requestState" not in fp, f"first call carries MRTR fields: {fp}"
    res = first["resp"].get("result")
    assert res is not None, f"first call failed: {first['resp']}"
    assert res["resultType"] == "input_required", f"first result is {res.get('resultType')!r}"
    reqs = res["inputRequests"]
    assert set(reqs) == keys, f"inputRequests keys {sorted(reqs)} != {sorted(keys)}"
    for k, r in reqs.items():
        assert r["method"] == "elicitation/create", f"{k}: method {r['method']!r}"
        assert set(r) <= {"method", "params"}, f"{k}: embedded request has extra keys {sorted(r)}"
    state = res.get("requestState")
    assert isinstance(state, str) and state, f"requestState is {state!r}"
    assert state.isascii() and state.isprintable(), "requestState is not printable ASCII"
    # The retry: a fresh id, same name and arguments, the answers, the state byte-for-byte.
    rp = retry["req"]["params"]
    assert not same_id(retry["req"]["id"], first["req"]["id"]), "retry reused the JSON-RPC id"
    assert rp["name"] == fp["name"] and rp["arguments"] == fp["arguments"], "retry changed name/arguments"
    assert rp["inputResponses"] == responses, f"inputResponses {rp['inputResponses']} != {responses}"
    assert rp["requestState"] == state, "retry did not echo requestState"
    assert raw_string_field(retry["raw"], "requestState") == raw_string_field(first["resp_raw"], "requestState"), (
        "requestState not echoed byte-for-byte"
    )
    done = retry["resp"].get("result")
    assert done is not None, f"retry failed: {retry['resp']}"
    assert done["resultType"] == "complete", f"retry result is {done.get('resultType')!r}"
    assert "inputRequests" not in done and "requestState" not in done, done
    assert text_of(done).startswith(final_prefix), f"final text {text_of(done)!r}"
    return fp, reqs


def asked_offsets(user: Any) -> str:
    """When the callback was asked, in seconds after its first asking."""
    return ",".join(f"+{t - user.asked_at[0]:.1f}" for t in user.asked_at)


def check_url_rounds(w: Wire, user: Any) -> list[dict[str, Any]]:
    """connect_account on 2026 with the link asked again: every result but the last is an
    input_required round asking the URL question (never a round without inputRequests), each
    retry accepts and echoes the round before's requestState byte-for-byte, and the last of at
    most CLIENT_MAX_ROUNDS calls in all (well inside the client's limit: it would retry ten
    times, 11 calls) is complete. The callback was called once per round."""
    calls = w.tool_calls("connect_account")
    assert 2 <= len(calls) <= CLIENT_MAX_ROUNDS, f"{len(calls)} tools/call (at most {CLIENT_MAX_ROUNDS})"
    fp = calls[0]["req"]["params"]
    assert "inputResponses" not in fp and "requestState" not in fp, f"first call carries MRTR fields: {fp}"
    states = []
    for n, c in enumerate(calls[:-1]):
        res = c["resp"].get("result")
        assert res is not None, f"call {n} failed: {c['resp']}"
        assert res["resultType"] == "input_required", f"call {n}: {res.get('resultType')!r}"
        reqs = res.get("inputRequests")
        assert reqs, f"call {n}: an input_required round without inputRequests: {c['resp_raw'][:300]}"
        assert set(reqs) == {"connect"}, f"call {n}: inputRequests {sorted(reqs)}"
        assert reqs["connect"]["method"] == "elicitation/create", reqs
        check_url_params(reqs["connect"]["params"], legacy=False)
        assert isinstance(res.get("requestState"), str) and res["requestState"], res
        states.append(res["requestState"])
    assert len(set(states)) == len(states), "a round repeated an earlier requestState"
    for n, (prev, cur) in enumerate(zip(calls, calls[1:]), 1):
        rp = cur["req"]["params"]
        assert not same_id(cur["req"]["id"], prev["req"]["id"]), f"retry {n} reused the JSON-RPC id"
        assert rp["name"] == fp["name"] and rp["arguments"] == fp["arguments"], f"retry {n} changed the call"
        assert rp["inputResponses"] == {"connect": {"action": "accept"}}, rp["inputResponses"]
        assert raw_string_field(cur["raw"], "requestState") == raw_string_field(prev["resp_raw"], "requestState"), (
            f"retry {n} did not echo the previous round's requestState byte-for-byte"
        )
    done = calls[-1]["resp"].get("result")
    assert done is not None, f"the last call failed: {calls[-1]['resp']}"
    assert done["resultType"] == "complete", done
    assert "inputRequests" not in done and "requestState" not in done, done
    assert len(user.asked) == len(calls) - 1, f"callback asked {len(user.asked)} times for {len(calls)} calls"
    urls = [c["resp"]["result"]["inputRequests"]["connect"]["params"]["url"] for c in calls[:-1]]
    assert [p.url for p in user.asked] == urls, "the callback was not given each round's link"
    return calls


class ComesAfterHolds:
    """Accepts every URL question at once. The person opens the FIRST link `delay` seconds
    after the first accept (and not before the client was asked `asked_before` times, at most
    10 s more: on 2026 the hold passing is what is tested, not the timer) and confirms, once.
    A link asked again is only looked at (GET, which records nothing)."""

    def __init__(self, delay: float, asked_before: int):
        self.delay = delay
        self.asked_before = asked_before
        self.asked: list[Any] = []
        self.asked_at: list[float] = []
        self.urls: list[str] = []
        self.pages: list[int] = []
        self.later_looks: list[tuple[int, bool]] = []
        self.confirmed_after: float | None = None
        self.threads: list[threading.Thread] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        assert params.mode == "url", params
        self.asked.append(params)
        self.asked_at.append(time.monotonic())
        self.urls.append(params.url)
        if len(self.asked) == 1:
            t = threading.Thread(target=self._person, args=(params.url, self.asked_at[0]), daemon=True)
            t.start()
            self.threads.append(t)
        else:
            status, token = await anyio.to_thread.run_sync(look, params.url)
            self.later_looks.append((status, token is not None))
        return types.ElicitResult(action="accept")

    def _person(self, url: str, accepted_at: float) -> None:
        time.sleep(self.delay)
        deadline = time.monotonic() + 10
        while len(self.asked) < self.asked_before and time.monotonic() < deadline:
            time.sleep(0.05)
        self.confirmed_after = time.monotonic() - accepted_at
        self.pages.append(http_get(url, "confirm"))

    def join(self) -> None:
        for t in self.threads:
            t.join(timeout=15)


def register_modern_and_legacy() -> None:
    for mode in ("legacy", MODERN):
        m = modes_label(mode)
        legacy = mode == "legacy"

        # --- book_table ----------------------------------------------------------------------
        def book(action: str, booking: dict[str, Any], expect: str, mode: str = mode, legacy: bool = legacy):
            async def run(sc: Scenario) -> None:
                user = User({"booking": action}, booking=booking)
                result, w = await sc.client("client", mode, user, call("book_table", {"restaurant": "Chez Rust"}))
                text = text_of(result)
                assert text == expect if action == "accept" else text.startswith(expect), f"text {text!r}"
                assert not result.is_error
                assert len(user.asked) == 1 and user.asked[0].mode == "form"
                answer = {"action": action, **({"content": booking} if action == "accept" else {})}
                if legacy:
                    w.check_legacy()
                    [call_] = w.tool_calls("book_table")
                    elic = w.requests("S->C", "elicitation/create")
                    assert len(elic) == 1, f"{len(elic)} elicitation/create requests"
                    i, req, _ = elic[0]
                    assert call_["i"] < i < call_["j"], "elicitation/create not sent during the tools/call"
                    check_booking_params(req["params"])
                    _, reply, _ = w.response("C->S", req["id"], after=i)
                    assert reply["result"] == answer, reply
                    assert text_of(call_["resp"]["result"]) == text
                else:
                    w.check_modern()
                    _, reqs = check_mrtr_round(w, "book_table", {"booking"}, {"booking": answer}, action + ":")
                    check_booking_params(reqs["booking"]["params"])
                w.check_tools_list_answered(modern=not legacy)
            return run

        scenario(f"{m}: book_table accept (all fields)")(book("accept", BOOKING_FULL, BOOKING_FULL_TEXT))
        scenario(f"{m}: book_table accept (date only, defaults apply)")(book("accept", BOOKING_MIN, BOOKING_MIN_TEXT))
        scenario(f"{m}: book_table decline")(book("decline", BOOKING_FULL, "decline:"))
        scenario(f"{m}: book_table cancel")(book("cancel", BOOKING_FULL, "cancel:"))

        # --- book_table: an invalid answer is asked again ------------------------------------
        async def book_corrected(sc: Scenario, mode: str = mode, legacy: bool = legacy) -> None:
            user = CorrectsOnce()
            result, w = await sc.client("client", mode, user, call("book_table", {"restaurant": "Chez Rust"}))
            assert not result.is_error, result
            assert text_of(result) == BOOKING_CORRECTED_TEXT, text_of(result)
            assert len(user.asked) == 2, f"asked {len(user.asked)} times"
            # What the callback got the second time: the same form, its message saying what was
            # wrong with each bad field (by title), the values that passed pre-filled.
            first, again = user.asked
            assert again.message == BOOKING_REASKED_MESSAGE, again.message
            assert again.requested_schema == reasked_schema(first.requested_schema), json.dumps(
                again.requested_schema
            )
            check_restricted_schema(again.requested_schema)
            # The same on the wire, exactly, and the corrected answer as the client sent it.
            corrected = {"action": "accept", "content": user.corrected}
            if legacy:
                w.check_legacy()
                [call_] = w.tool_calls("book_table")
                elic = w.requests("S->C", "elicitation/create")
                assert len(elic) == 2, f"{len(elic)} elicitation/create requests"
                for i, _, _ in elic:
                    assert call_["i"] < i < call_["j"], "elicitation/create not sent during the tools/call"
                asked, reasked = (without_meta(e[1]["params"]) for e in elic)
                check_booking_params(asked)
                assert reasked == reasked_params(asked), json.dumps(reasked)
            else:
                w.check_modern()
                calls = w.tool_calls("book_table")
                assert len(calls) == 3, f"expected call, retry, retry; got {len(calls)} tools/call"
                r1, r2, r3 = (c["resp"]["result"] for c in calls)
                assert r1["resultType"] == r2["resultType"] == "input_required"
                assert list(r2["inputRequests"]) == ["booking"], r2["inputRequests"]
                asked = r1["inputRequests"]["booking"]["params"]
                check_booking_params(asked)
                reasked = r2["inputRequests"]["booking"]["params"]
                assert reasked == reasked_params(asked), json.dumps(reasked)
                assert r2["requestState"] != r1["requestState"]
                retry = calls[2]["req"]["params"]
                assert retry["requestState"] == r2["requestState"]
                assert retry["inputResponses"] == {"booking": corrected}, retry["inputResponses"]
                assert r3["resultType"] == "complete", r3
            w.check_tools_list_answered(modern=not legacy)
        scenario(f"{m}: book_table invalid answer asked again, then corrected")(book_corrected)

        # --- connect_account (URL mode) ------------------------------------------------------
        def connect(action: str, expect: str, mode: str = mode, legacy: bool = legacy):
            async def run(sc: Scenario) -> None:
                user = User({"connect": action})
                result, w = await sc.client("client", mode, user, call("connect_account", {"service": "github"}))
                text = text_of(result)
                assert text == expect if action == "accept" else text.startswith(expect), f"text {text!r}"
                assert len(user.asked) == 1 and user.asked[0].mode == "url"
                assert user.pages == ([200] if action == "accept" else []), f"landing page answered {user.pages}"
                if legacy:
                    assert user.asked[0].elicitation_id, "callback got no elicitation_id on legacy"
                    w.check_legacy()
                    [call_] = w.tool_calls("connect_account")
                    elic = w.requests("S->C", "elicitation/create")
                    assert len(elic) == 1, f"{len(elic)} elicitation/create requests"
                    i, req, _ = elic[0]
                    assert call_["i"] < i < call_["j"]
                    check_url_params(req["params"], legacy=True)
                    eid = req["params"]["elicitationId"]
                    k, reply, _ = w.response("C->S", req["id"], after=i)
                    assert reply["result"] == {"action": action}, reply
                    done = w.notifications("S->C", "notifications/elicitation/complete")
                    if action == "accept":
                        assert len(done) == 1, f"{len(done)} notifications/elicitation/complete"
                        n, note = done[0]
                        assert note["params"]["elicitationId"] == eid, f"completion for {note['params']} != {eid}"
                        assert n > k, "completion notification before the client accepted"
                    else:
                        assert not done, "notifications/elicitation/complete after a " + action
                else:
                    assert user.asked[0].elicitation_id is None
                    w.check_modern()
                    _, reqs = check_mrtr_round(w, "connect_account", {"connect"},
                                               {"connect": {"action": action}}, action + ":")
                    check_url_params(reqs["connect"]["params"], legacy=False)
                w.check_tools_list_answered(modern=not legacy)
            return run

        scenario(f"{m}: connect_account accept (page opened)")(connect("accept", CONNECT_TEXT))
        scenario(f"{m}: connect_account decline")(connect("decline", "decline:"))
        scenario(f"{m}: connect_account cancel")(connect("cancel", "cancel:"))

        # URL accepted at once, the person opens the page 3 s later (longer than the client's ten
        # empty rounds would last) and presses Confirm or Cancel: legacy waits, 2026 holds the
        # retry. Cancel on the page is an outcome too: the flow failed, and legacy tells the
        # client the elicitation completed.
        def connect_late(decision: str, expect: str, mode: str = mode, legacy: bool = legacy):
            async def run(sc: Scenario) -> None:
                user = User(defer_url=3.0, decision=decision)
                t0 = time.monotonic()
                result, w = await sc.client("client", mode, user, call("connect_account", {"service": "github"}))
                took = time.monotonic() - t0
                user.join()
                assert text_of(result) == expect, text_of(result)
                assert not result.is_error, result
                assert user.pages == [200], f"landing page answered {user.pages}"
                assert len(user.asked) == 1, f"callback asked {len(user.asked)} times"
                assert took >= 3.0, f"finished in {took:.1f}s, before the person opened the page"
                if legacy:
                    w.check_legacy_completion()
                else:
                    w.check_modern()
                    # The link, then the retry with the accept, held until the person decided.
                    calls = w.tool_calls("connect_account")
                    assert len(calls) == 2, f"the retry was not held: {len(calls)} calls"
                    link, retry = calls
                    assert link["resp"]["result"]["resultType"] == "input_required", link
                    assert retry["req"]["params"]["inputResponses"] == {"connect": {"action": "accept"}}
                    assert retry["req"]["params"]["requestState"] == link["resp"]["result"]["requestState"], \
                        "stale requestState echoed"
                    assert retry["resp"]["result"]["resultType"] == "complete"
                w.check_tools_list_answered(modern=not legacy)
            return run
        scenario(f"{m}: connect_account accept, person confirms 3 s later")(connect_late("confirm", CONNECT_TEXT))
        scenario(f"{m}: connect_account accept, person cancels on the page 3 s later")(
            connect_late("cancel", PAGE_CANCELLED_TEXT))

        # The person never comes: the client accepts every time it is asked, nobody opens the
        # link. 2026: each held retry passes its 1 s hold and the link is asked again, until the
        # link expires (4 s) and the tool ends with the expired text, within the client's ten
        # rounds. Legacy: the call waits until the link expires.
        async def connect_never(sc: Scenario, mode: str = mode, legacy: bool = legacy) -> None:
            user = User(opens=False)
            ended: list[float] = []

            async def body(client: Client) -> Any:
                result = await client.call_tool("connect_account", {"service": "github"})
                ended.append(time.monotonic())
                return result

            result, w = await sc.client("client", mode, user, body, env=SHORT_LIFE)
            # From the first asking (the link was minted just before) to the expired result.
            took = ended[0] - user.asked_at[0]
            assert text_of(result) == EXPIRED_TEXT, text_of(result)
            assert not result.is_error, result
            assert user.pages == [], user.pages
            assert took >= 2.0, f"expired {took:.1f}s after the first asking, the link lives 4 s"
            if legacy:
                assert len(user.asked) == 1, f"callback asked {len(user.asked)} times"
                w.check_legacy()
                [call_] = w.tool_calls("connect_account")
                elic = w.requests("S->C", "elicitation/create")
                assert len(elic) == 1, f"{len(elic)} elicitation/create requests"
                i, req, _ = elic[0]
                assert call_["i"] < i < call_["j"]
                check_url_params(req["params"], legacy=True)
                assert w.response("C->S", req["id"], after=i)[1]["result"] == {"action": "accept"}
                assert not w.notifications("S->C", "notifications/elicitation/complete"), (
                    "notifications/elicitation/complete for a link that expired unused"
                )
                # Nothing else from the server during the call: no other request or notification.
                during = [m for n, m, _ in w.msgs("S->C") if call_["i"] < n < call_["j"] and "method" in m]
                assert [m["method"] for m in during] == ["elicitation/create"], during
                sc.notes.append(f"1 elicitation/create, expired {took:.2f}s after the accept")
            else:
                w.check_modern()
                calls = check_url_rounds(w, user)
                assert len(calls) >= 3, f"{len(calls)} tools/call: the link was never asked again"
                sc.notes.append(f"{len(calls)} tools/call ({len(calls) - 2} asked again), "
                                f"asked at {asked_offsets(user)}, expired after {took:.2f}s "
                                f"({ended[0] - user.asked_at[-1]:.2f}s after the last asking)")
            w.check_tools_list_answered(modern=not legacy)
        scenario(f"{m}: connect_account accept, person never comes: link expires (hold 1 s, life 4 s)")(connect_never)

        # The hold (1 s) passes before the person comes: 2026 asks the same link again (the
        # client's callback is called again, and accepts at once each time); the person opens
        # the FIRST link 2.5 s after the first accept and confirms. Legacy: one wait.
        async def connect_after_hold(sc: Scenario, mode: str = mode, legacy: bool = legacy) -> None:
            user = ComesAfterHolds(delay=2.5, asked_before=1 if legacy else 3)
            after: list[tuple[int, bool]] = []

            async def body(client: Client) -> Any:
                result = await client.call_tool("connect_account", {"service": "github"})
                # While the server still runs: what the first and the last link show now.
                for u in (user.urls[0], user.urls[-1]):
                    status, token = await anyio.to_thread.run_sync(look, u)
                    after.append((status, token is not None))
                return result

            result, w = await sc.client("client", mode, user, body, env=SHORT_HOLD)
            user.join()
            assert text_of(result) == CONNECT_TEXT, text_of(result)
            assert not result.is_error, result
            assert user.pages == [200], f"landing page answered {user.pages}"
            assert user.confirmed_after is not None and user.confirmed_after >= 2.5, user.confirmed_after
            # A later link (same flow, asked again): its page is the confirmation form too.
            assert all(seen == (200, True) for seen in user.later_looks), f"later links: {user.later_looks}"
            # After the flow is done, neither link shows the confirmation form again.
            assert not any(form for _, form in after), f"a link still offers the form after completion: {after}"
            if legacy:
                assert len(user.asked) == 1, f"callback asked {len(user.asked)} times"
                w.check_legacy_completion()
                sc.notes.append(f"confirmed {user.confirmed_after:.1f}s after the accept; "
                                f"the link after completion: GET {after[0][0]}")
            else:
                w.check_modern()
                calls = check_url_rounds(w, user)
                again = len(calls) - 2
                assert again >= 2, f"the link was asked again {again} times (expected >= 2)"
                sc.notes.append(
                    f"{len(calls)} tools/call ({again} asked again), asked at {asked_offsets(user)}, "
                    f"confirmed {user.confirmed_after:.1f}s after the first accept, "
                    f"{len(set(user.urls))} distinct URLs of {len(user.urls)}; later links GET "
                    f"{sorted({st for st, _ in user.later_looks})} with the form before, first/last link GET "
                    f"{[st for st, _ in after]} without it after completion"
                )
            w.check_tools_list_answered(modern=not legacy)
        scenario(f"{m}: connect_account accept, hold passes (1 s), person confirms 2.5 s later")(connect_after_hold)

        # --- cancel_reservation --------------------------------------------------------------
        async def cancel_res(sc: Scenario, mode: str = mode, legacy: bool = legacy) -> None:
            user = User()
            result, w = await sc.client("client", mode, user, call("cancel_reservation", {"reservation_id": "R1"}))
            assert text_of(result) == "accept: reservation R1 cancelled", text_of(result)
            answer = {"action": "accept", "content": {"confirm": True}}
            if legacy:
                w.check_legacy()
                [(i, req, _)] = w.requests("S->C", "elicitation/create")
                check_confirm_params(req["params"])
                assert w.response("C->S", req["id"], after=i)[1]["result"] == answer
            else:
                w.check_modern()
                _, reqs = check_mrtr_round(w, "cancel_reservation", {"confirm"}, {"confirm": answer}, "accept:")
                check_confirm_params(reqs["confirm"]["params"])
            w.check_tools_list_answered(modern=not legacy)
        scenario(f"{m}: cancel_reservation accept")(cancel_res)

        # --- plan_trip -----------------------------------------------------------------------
        async def trip(sc: Scenario, mode: str = mode, legacy: bool = legacy) -> None:
            user = User()
            result, w = await sc.client("client", mode, user, call("plan_trip", {"destination": "Rome"}))
            assert text_of(result) == TRIP_TEXT, text_of(result)
            assert sorted(form_key(p.requested_schema) for p in user.asked) == ["dates", "travelers"]
            answers = {"dates": {"action": "accept", "content": DATES},
                       "travelers": {"action": "accept", "content": TRAVELERS}}
            if legacy:
                w.check_legacy()
                [call_] = w.tool_calls("plan_trip")
                elic = w.requests("S->C", "elicitation/create")
                assert len(elic) == 2, f"{len(elic)} elicitation/create requests"
                for i, req, _ in elic:
                    assert call_["i"] < i < call_["j"]
                    check_restricted_schema(req["params"]["requestedSchema"])
                    key = form_key(req["params"]["requestedSchema"])
                    assert w.response("C->S", req["id"], after=i)[1]["result"] == answers[key]
            else:
                w.check_modern()
                # ONE InputRequiredResult carrying both questions, ONE retry with both answers.
                _, reqs = check_mrtr_round(w, "plan_trip", {"dates", "travelers"}, answers, "accept:")
                for key, r in reqs.items():
                    assert r["params"]["mode"] == "form"
                    check_restricted_schema(r["params"]["requestedSchema"])
                    assert form_key(r["params"]["requestedSchema"]) == key
            w.check_tools_list_answered(modern=not legacy)
        scenario(f"{m}: plan_trip accept (two questions, one round)")(trip)


register_modern_and_legacy()


# --------------------------------------------------------------------------------------------
# Clients without the elicitation capability
# --------------------------------------------------------------------------------------------


def link_in(text: str) -> str:
    """The link in a `connect_account` result for a client without URL mode."""
    urls = [w for w in text.split() if w.startswith("http://127.0.0.1:")]
    assert len(urls) == 1, f"expected one link in {text!r}"
    assert text.startswith("Connect your account in the browser to continue: open "), text
    assert "then ask me to continue" in text and "works once" in text, text
    return urls[0]


def register_no_capability() -> None:
    for mode in ("legacy", MODERN, "auto"):
        async def run(sc: Scenario, mode: str = mode) -> None:
            async def body(client: Client) -> dict[str, Any]:
                out: dict[str, Any] = {}
                try:
                    await client.call_tool("book_table", {"restaurant": "Chez Rust"})
                    out["book_table"] = None
                except MCPError as e:
                    out["book_table"] = e.error
                # connect_account uses ask_or_link: the link comes back as the tool's text; the
                # user opens it, and the same call then connects the account.
                first = await client.call_tool("connect_account", {"service": "github"})
                url = link_in(text_of(first))
                out["page"] = await anyio.to_thread.run_sync(http_get, url)
                out["second"] = text_of(await client.call_tool("connect_account", {"service": "github"}))
                out["third"] = text_of(await client.call_tool("connect_account", {"service": "github"}))
                return out

            out, w = await sc.client("client", mode, None, body)
            err = out["book_table"]
            assert err is not None, "book_table succeeded without the capability"
            assert err.code == -32021, f"book_table: code {err.code} ({err.message})"
            assert err.data == {"requiredCapabilities": {"elicitation": {"form": {}}}}, f"book_table: data {err.data}"
            assert out["page"] == 200, out
            assert out["second"] == CONNECT_TEXT, out
            link_in(out["third"])  # single use: the next call needs a new link
            if mode == "legacy":
                w.check_legacy()
                init = w.requests("C->S", "initialize")[0][1]
                assert "elicitation" not in init["params"]["capabilities"], init
            else:
                w.check_modern()
            assert not w.requests("S->C", "elicitation/create"), "elicitation/create sent to an incapable client"
            [c] = w.tool_calls("book_table")
            if mode != "legacy":
                assert c["req"]["params"]["_meta"][CAPS_KEY] == {}, c["req"]["params"]["_meta"]
            err = c["resp"].get("error")
            assert err and err["code"] == -32021, c["resp"]
            calls = w.tool_calls("connect_account")
            assert len(calls) == 3, calls
            for c in calls:
                assert c["resp"]["result"].get("isError") in (None, False), c["resp"]
                assert c["resp"]["result"].get("resultType", "complete") == "complete", c["resp"]
        scenario(f"{modes_label(mode) if mode != 'auto' else 'auto'}: no elicitation capability: forms -32021, connect through the link")(run)


register_no_capability()


# --------------------------------------------------------------------------------------------
# mode="auto": server/discover
# --------------------------------------------------------------------------------------------


@scenario("auto: server/discover answered promptly, then MRTR")
async def auto_discover(sc: Scenario) -> None:
    user = User()
    t0 = time.monotonic()
    connected: dict[str, float] = {}

    async def body(client: Client) -> Any:
        connected["at"] = time.monotonic() - t0
        connected["version"] = client.protocol_version  # type: ignore[assignment]
        return await client.call_tool("book_table", {"restaurant": "Chez Rust"})

    result, w = await sc.client("client", "auto", user, body)
    total = time.monotonic() - t0
    assert connected["at"] < 3.0, f"connecting took {connected['at']:.1f}s (discover not answered promptly?)"
    assert total < 6.0, f"the whole run took {total:.1f}s"
    assert connected["version"] == MODERN, f"negotiated {connected['version']!r}"
    assert text_of(result) == BOOKING_FULL_TEXT
    _, first, _ = w.entries[0]
    assert first["method"] == "server/discover", f"first request is {first.get('method')}"
    assert first["params"]["_meta"][PV_KEY] == MODERN
    _, resp, _ = w.response("S->C", first["id"])
    res = resp.get("result")
    assert res is not None, f"server/discover failed: {resp}"
    assert MODERN in res["supportedVersions"], res["supportedVersions"]
    assert res["resultType"] == "complete"
    assert isinstance(res.get("ttlMs"), int) and isinstance(res.get("cacheScope"), str), res.keys()
    assert "tools" in res["capabilities"], res["capabilities"]
    w.check_modern()
    check_mrtr_round(w, "book_table", {"booking"}, {"booking": {"action": "accept", "content": BOOKING_FULL}},
                     "accept:")
    w.check_tools_list_answered(modern=True)
    sc.notes.append(f"connected in {connected['at'] * 1000:.0f} ms")


# --------------------------------------------------------------------------------------------
# Raw JSON-RPC lines (ids 0 and strings), without the Python client
# --------------------------------------------------------------------------------------------


class Raw:
    """A server behind the tee, spoken to with hand-written JSON-RPC lines."""

    def __init__(self, sc: Scenario, label: str):
        self.sc = sc
        self.log = sc.log_path(label)
        self.stderr_path = sc.dir / f"{label}.stderr"
        self.proc: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> "Raw":
        self.stderr = open(self.stderr_path, "w")
        self.proc = await asyncio.create_subprocess_exec(
            PY, *self.sc.tee_argv(self.log), cwd=str(ROOT),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=self.stderr)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        assert self.proc
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        self.stderr.close()

    async def send(self, msg: dict[str, Any]) -> None:
        assert self.proc and self.proc.stdin
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        await self.proc.stdin.drain()

    async def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        assert self.proc and self.proc.stdout
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        assert line, "server closed stdout"
        return json.loads(line)

    async def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Sends a request; returns the response with the SAME id (fails on anything else)."""
        await self.send(msg)
        resp = await self.recv()
        assert "method" not in resp, f"expected the response to {msg['id']!r}, got a request: {resp}"
        assert same_id(resp.get("id"), msg["id"]), f"sent id {msg['id']!r}, response id {resp.get('id')!r}"
        return resp

    async def close(self, timeout: float = 5.0) -> int:
        """Closes stdin (the client hangs up); returns the exit status of the tee (= server's)."""
        assert self.proc and self.proc.stdin
        self.proc.stdin.close()
        return await asyncio.wait_for(self.proc.wait(), timeout)


def envelope(caps: dict[str, Any]) -> dict[str, Any]:
    return {PV_KEY: MODERN, INFO_KEY: {"name": "raw-interop", "version": "0"}, CAPS_KEY: caps}


@scenario("raw 2026: ids 0 and strings echoed (discover, tools/call, retry, tools/list)")
async def raw_modern_ids(sc: Scenario) -> None:
    form = envelope({"elicitation": {}})  # bare elicitation = form only
    async with Raw(sc, "raw") as s:
        r = await s.request({"jsonrpc": "2.0", "id": "server-discover-probe-1", "method": "server/discover",
                             "params": {"_meta": form}})
        assert MODERN in r["result"]["supportedVersions"], r
        r = await s.request({"jsonrpc": "2.0", "id": 0, "method": "tools/call",
                             "params": {"name": "cancel_reservation", "arguments": {"reservation_id": "R9"},
                                        "_meta": form}})
        res = r["result"]
        assert res["resultType"] == "input_required" and set(res["inputRequests"]) == {"confirm"}, res
        state = res["requestState"]
        r = await s.request({"jsonrpc": "2.0", "id": "abc", "method": "tools/call",
                             "params": {"name": "cancel_reservation", "arguments": {"reservation_id": "R9"},
                                        "_meta": form, "requestState": state,
                                        "inputResponses": {"confirm": {"action": "accept",
                                                                       "content": {"confirm": True}}}}})
        assert r["result"]["resultType"] == "complete", r
        assert text_of(r["result"]) == "accept: reservation R9 cancelled", r
        r = await s.request({"jsonrpc": "2.0", "id": "list-1", "method": "tools/list", "params": {"_meta": form}})
        assert {t["name"] for t in r["result"]["tools"]} == TOOLS
        # Also integer ids other than 0, and an empty string id.
        r = await s.request({"jsonrpc": "2.0", "id": 42, "method": "tools/list", "params": {"_meta": form}})
        assert "result" in r
        r = await s.request({"jsonrpc": "2.0", "id": "", "method": "tools/list", "params": {"_meta": form}})
        assert "result" in r
        # A form-only client (bare elicitation:{}) asking for the URL tool: the link as text.
        r = await s.request({"jsonrpc": "2.0", "id": "url-1", "method": "tools/call",
                             "params": {"name": "connect_account", "arguments": {"service": "github"},
                                        "_meta": form}})
        assert r["result"]["resultType"] == "complete" and "requestState" not in r["result"], r
        link_in(text_of(r["result"]))
        # A tampered requestState, and a state replayed for other arguments, are JSON-RPC errors.
        answers = {"confirm": {"action": "accept", "content": {"confirm": True}}}
        r = await s.request({"jsonrpc": "2.0", "id": "tampered", "method": "tools/call",
                             "params": {"name": "cancel_reservation", "arguments": {"reservation_id": "R9"},
                                        "_meta": form, "requestState": state + "-TAMPERED",
                                        "inputResponses": answers}})
        assert "error" in r and r["error"]["code"] == -32602, f"tampered requestState accepted: {r}"
        r = await s.request({"jsonrpc": "2.0", "id": "replay", "method": "tools/call",
                             "params": {"name": "cancel_reservation", "arguments": {"reservation_id": "R10"},
                                        "_meta": form, "requestState": state, "inputResponses": answers}})
        # The state is bound to R9's arguments: for R10 it is the uniform requestState error.
        assert r.get("error", {}).get("code") == -32602, f"R9's confirmation reached R10: {r}"
        code = await s.close()
    w = Wire(s.log)
    w.check_modern()
    assert code == 0, f"server exited with status {code} after stdin closed"


@scenario("raw legacy: ids 0 and strings echoed, server->client request answered by id")
async def raw_legacy_ids(sc: Scenario) -> None:
    async with Raw(sc, "raw") as s:
        r = await s.request({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                             "params": {"protocolVersion": LEGACY, "capabilities": {"elicitation": {}},
                                        "clientInfo": {"name": "raw-interop", "version": "0"}}})
        assert r["result"]["protocolVersion"] == LEGACY, r
        await s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        await s.send({"jsonrpc": "2.0", "id": "abc", "method": "tools/call",
                      "params": {"name": "cancel_reservation", "arguments": {"reservation_id": "R9"}}})
        ask = await s.recv()
        assert ask.get("method") == "elicitation/create", f"expected elicitation/create, got {ask}"
        assert ask["params"].get("mode", "form") == "form" and "requestedSchema" in ask["params"], ask
        await s.send({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"confirm": True}}})
        r = await s.recv()
        assert same_id(r.get("id"), "abc"), f"response id {r.get('id')!r}, sent 'abc'"
        assert text_of(r["result"]) == "accept: reservation R9 cancelled", r
        r = await s.request({"jsonrpc": "2.0", "id": "list-0", "method": "tools/list"})
        assert {t["name"] for t in r["result"]["tools"]} == TOOLS
        # Bare elicitation:{} is form only: the URL tool answers with the link as text.
        r = await s.request({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                             "params": {"name": "connect_account", "arguments": {"service": "github"}}})
        assert same_id(r.get("id"), 7) and "result" in r, r
        link_in(text_of(r["result"]))
        code = await s.close()
    w = Wire(s.log)
    w.check_legacy()
    assert code == 0, f"server exited with status {code} after stdin closed"


@scenario("raw: discover-only probe process (TS v2 style) answered, server exits on EOF")
async def raw_probe_only(sc: Scenario) -> None:
    async with Raw(sc, "probe") as s:
        t0 = time.monotonic()
        r = await s.request({"jsonrpc": "2.0", "id": "server-discover-probe-1", "method": "server/discover",
                             "params": {"_meta": envelope({})}})
        assert time.monotonic() - t0 < 3.0
        assert MODERN in r["result"]["supportedVersions"], r
        code = await s.close()  # must exit (within 5 s), not hang
    Wire(s.log).check_modern()
    err = s.stderr_path.read_text().strip().splitlines()
    assert code == 0, f"server exited with status {code} after a discover-only session: {err[-1] if err else ''}"


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


async def run_one(name: str, fn: Callable[[Scenario], Awaitable[None]], tmp: Path,
                  timeout: float) -> tuple[bool, Scenario, float]:
    sc = Scenario(name, tmp)
    t0 = time.monotonic()
    ok = True
    try:
        await asyncio.wait_for(fn(sc), timeout)
    except BaseException as e:  # noqa: BLE001 - report everything, including ExceptionGroups
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        ok = False
        dt = time.monotonic() - t0
        print(f"FAIL  {name}  ({dt:.1f}s)")
        if isinstance(e, asyncio.TimeoutError):
            print(f"      timed out after {timeout:.0f}s")
        print("".join(traceback.format_exception(e)).rstrip().replace("\n", "\n      "), end="\n")
        for log in sc.logs:
            print(f"  --- {log.relative_to(tmp)}")
            print(Wire(log).text() if log.exists() else "(no log written)\n", end="")
            err = log.with_suffix(".stderr")
            if err.exists() and err.read_text().strip():
                print(f"  --- {err.relative_to(tmp)}")
                print(err.read_text(), end="")
        return ok, sc, dt
    dt = time.monotonic() - t0
    note = f"  [{'; '.join(sc.notes)}]" if sc.notes else ""
    print(f"ok    {name}  ({dt:.1f}s){note}")
    return ok, sc, dt


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-k", action="append", default=[], help="only scenarios whose name contains this")
    ap.add_argument("--keep", action="store_true", help="keep the temporary log directory")
    ap.add_argument("--timeout", type=float, default=30.0, help="per-scenario timeout in seconds")
    args = ap.parse_args()
    assert SERVER.is_file(), f"{SERVER} is missing (cargo build -p elicit-examples --bin demo-server)"
    chosen = [(n, f) for n, f in SCENARIOS if not args.k or any(k in n for k in args.k)]
    tmp = Path(tempfile.mkdtemp(prefix="elicit-interop-"))
    t0 = time.monotonic()
    passed, failed, notes = 0, [], []
    for name, fn in chosen:
        ok, sc, _ = await run_one(name, fn, tmp, args.timeout)
        if ok:
            passed += 1
        else:
            failed.append(name)
        notes += [f"{name}: {n}" for n in sc.notes if "exited with status" in n]
    dt = time.monotonic() - t0
    if notes:
        print("\nnotes (not failures):")
        for n in notes:
            print(f"  - {n}")
    print(f"\ninterop: {passed} passed, {len(failed)} failed, {len(chosen)} scenarios in {dt:.1f}s")
    for name in failed:
        print(f"  FAILED: {name}")
    if args.keep or failed:
        print(f"logs: {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed or not chosen else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
