#!/usr/bin/env python3
"""Microseconds per whole elicitation call, as a real MCP client sees them.

    roundtrip.py [--calls N] [--answer decline|accept] -- SERVER_COMMAND [ARGS...]

Starts SERVER_COMMAND as a stdio MCP server and connects one Python SDK client (mcp 2.3.0,
protocol 2026-07-28) to it. Each measured call is `tools/call book_table {"restaurant": "Chez
Rust"}`: the server answers `input_required` with a form, the client's elicitation handler gives
`--answer`, the client retries with it and the server completes, so one call is two JSON-RPC
exchanges. The first 5 calls warm up and are not counted. Prints one JSON line:

    {"calls": N, "median_us": ..., "p90_us": ..., "min_us": ...}

The client's own cost is in every figure and is the same for every server: compare servers
measured in one sitting, as ratios. Used by scripts/bench-whole-call and scripts/bench-compare.
"""

import argparse
import json
import os
import statistics
import sys
import time

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import ElicitResult

WARM_UP = 5
TOOL = "book_table"
ARGUMENTS = {"restaurant": "Chez Rust"}


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100, help="measured calls (default 100)")
    parser.add_argument("--answer", choices=["decline", "accept"], default="decline",
                        help="the client's answer to every form (default decline)")
    parser.add_argument("server", nargs=argparse.REMAINDER, help="-- then the stdio server's command")
    args = parser.parse_args(argv)
    command = args.server[1:] if args.server[:1] == ["--"] else args.server
    if not command:
        parser.error("give the server's command after --")
    if args.calls < 1:
        parser.error("--calls must be at least 1")
    return args.calls, args.answer, command


def summary(micros):
    ordered = sorted(micros)
    return {
        "calls": len(ordered),
        "median_us": round(statistics.median(ordered)),
        "p90_us": round(ordered[int(len(ordered) * 0.9)]),
        "min_us": round(ordered[0]),
    }


async def measure(calls, answer, command):
    async def answer_form(_context, _params):
        return ElicitResult(action=answer)

    server = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    micros = []
    async with Client(server, mode="2026-07-28", elicitation_callback=answer_form) as client:
        for call in range(WARM_UP + calls):
            started = time.perf_counter()
            await client.call_tool(TOOL, ARGUMENTS)
            elapsed = time.perf_counter() - started
            if call >= WARM_UP:
                micros.append(elapsed * 1e6)
    return micros


def main():
    calls, answer, command = parse_args(sys.argv[1:])
    micros = anyio.run(measure, calls, answer, command)
    print(json.dumps(summary(micros)))


if __name__ == "__main__":
    main()
