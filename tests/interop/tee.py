#!/usr/bin/env python3
"""A stdio tee for MCP servers: logs every JSON-RPC line that passes through.

    python tee.py LOGFILE -- COMMAND [ARGS...]

The MCP client spawns this script instead of the server. It starts COMMAND, copies the
client's stdin to the server's stdin and the server's stdout to its own stdout, line by line,
and appends each line to LOGFILE as ``C->S {json}`` (client to server) or ``S->C {json}``
(server to client). The server's stderr is passed through untouched. Lines are forwarded
byte-for-byte; the log holds them stripped of the trailing newline.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading


def main() -> int:
    argv = sys.argv[1:]
    if len(argv) < 3 or argv[1] != "--":
        print("usage: tee.py LOGFILE -- COMMAND [ARGS...]", file=sys.stderr)
        return 2
    logfile, command = argv[0], argv[2:]
    log = open(logfile, "ab", buffering=0)
    lock = threading.Lock()

    def record(direction: bytes, line: bytes) -> None:
        body = line.rstrip(b"\r\n")
        if not body.strip():
            return
        with lock:
            log.write(direction + b" " + body + b"\n")

    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def forward_signal(signum, _frame):
        try:
            child.send_signal(signum)
        except ProcessLookupError:
            pass

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, forward_signal)

    def client_to_server() -> None:
        src = sys.stdin.buffer
        assert child.stdin is not None
        try:
            for line in iter(src.readline, b""):
                record(b"C->S", line)
                child.stdin.write(line)
                child.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        finally:
            try:
                child.stdin.close()  # EOF to the server: the client hung up
            except OSError:
                pass

    def server_to_client() -> None:
        assert child.stdout is not None
        out = sys.stdout.buffer
        try:
            for line in iter(child.stdout.readline, b""):
                record(b"S->C", line)
                out.write(line)
                out.flush()
        except (BrokenPipeError, OSError):
            pass
        finally:
            try:
                out.close()
            except OSError:
                pass

    threading.Thread(target=client_to_server, daemon=True).start()
    pump = threading.Thread(target=server_to_client, daemon=True)
    pump.start()
    code = child.wait()
    pump.join(timeout=2)
    log.close()
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main())
