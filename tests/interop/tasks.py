"""The real Python SDK client drives a task of the demo server through its question.

`export_reservations` answers a 2026-07-28 call that declares the tasks extension
(`io.modelcontextprotocol/tasks`, SEP-2663) with a task. The client here is the SDK's own
`Client` with a `ClientExtension` for tasks (the SDK's extension surface: a `ResultClaim` for
`resultType: "task"` whose resolver polls `tasks/get`, shows each question to the person through
the same elicitation callback a call uses, and answers with `tasks/update`). Checked: the task
handle, the question on `tasks/get`, the empty ack of `tasks/update`, the final result; and the
same tool asked in the call on 2025-11-25.

    .venv/bin/python tests/interop/tasks.py    # after `cargo build -p elicit-examples --bin demo-server`
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any, ClassVar, Literal

from mcp import Client, StdioServerParameters, types
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.stdio import stdio_client
from mcp_types import Request, RequestParams, Result
from pydantic import ConfigDict

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SERVER = Path(os.environ.get("DEMO_SERVER", ROOT / "target" / "debug" / "demo-server"))
TASKS = "io.modelcontextprotocol/tasks"


class Loose(Result):
    """A result read as it came (the task's fields, `inputRequests`, `result`)."""

    model_config = ConfigDict(extra="allow")
    result_type: str | None = None


class CreatedTask(Result):
    model_config = ConfigDict(extra="allow")
    result_type: Literal["task"] = "task"
    task_id: str
    status: str


class TaskIdParams(RequestParams):
    task_id: str


class UpdateParams(RequestParams):
    task_id: str
    input_responses: dict[str, Any]


class GetTask(Request[TaskIdParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    name_param: ClassVar[str | None] = "taskId"


class UpdateTask(Request[UpdateParams, Literal["tasks/update"]]):
    method: Literal["tasks/update"] = "tasks/update"
    name_param: ClassVar[str | None] = "taskId"


SEEN: dict[str, list[Any]] = {"gets": [], "acks": [], "created": []}


class Person:
    """Answers the export question: include the cancelled reservations."""

    def __init__(self) -> None:
        self.asked: list[Any] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked.append(params)
        return types.ElicitResult(action="accept", content={"include_cancelled": True})


class Tasks(ClientExtension):
    identifier = TASKS

    def __init__(self, person: Person) -> None:
        self.person = person

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreatedTask, resolve=self.follow)]

    async def follow(self, created: CreatedTask, ctx: ClaimContext) -> types.CallToolResult:
        SEEN["created"].append(created.model_dump(by_alias=True, exclude_none=True))
        answered: set[str] = set()
        for _ in range(500):
            got = await ctx.session.send_request(GetTask(params=TaskIdParams(task_id=created.task_id)), Loose)
            got = got.model_dump(by_alias=True, exclude_none=True)
            SEEN["gets"].append(got)
            if got["status"] == "completed":
                return types.CallToolResult.model_validate(got["result"])
            if got["status"] in ("failed", "cancelled"):
                raise RuntimeError(f"the task ended {got['status']}: {got}")
            if got["status"] == "input_required":
                responses = {}
                for key, request in got["inputRequests"].items():
                    if key in answered:
                        continue
                    params = types.ElicitRequestFormParams.model_validate(request["params"])
                    answer = await self.person(None, params)
                    responses[key] = answer.model_dump(by_alias=True, exclude_none=True)
                if responses:
                    ack = await ctx.session.send_request(
                        UpdateTask(params=UpdateParams(task_id=created.task_id, input_responses=responses)), Loose
                    )
                    SEEN["acks"].append(ack.model_dump(by_alias=True, exclude_none=True))
                    answered.update(responses)
                    continue
            await asyncio.sleep(min(got.get("pollIntervalMs", 50), 50) / 1000)
        raise RuntimeError("the task never completed")


def text(result: types.CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


async def run(mode: str) -> str:
    person = Person()
    params = StdioServerParameters(command=str(SERVER), args=[], cwd=str(ROOT))
    async with Client(stdio_client(params), mode=mode, elicitation_callback=person,
                      extensions=[Tasks(person)]) as client:
        result = await client.call_tool("export_reservations", {})
    assert [p.message for p in person.asked] == ["Include the cancelled reservations in the export?"], person.asked
    return text(result)


async def main() -> int:
    failed = 0
    for mode, expected in [
        ("2026-07-28", "accept: reservations exported with the cancelled ones (in a task)"),
        ("legacy", "accept: reservations exported with the cancelled ones (in a call)"),
    ]:
        SEEN.update(gets=[], acks=[], created=[])
        try:
            got = await run(mode)
            assert got == expected, got
            if mode == "2026-07-28":
                [created] = SEEN["created"]
                assert created["resultType"] == "task" and created["status"] == "working", created
                waiting = [g for g in SEEN["gets"] if g["status"] == "input_required"]
                assert waiting and list(waiting[0]["inputRequests"]) == ["export_options"], waiting
                assert SEEN["acks"] == [{"resultType": "complete"}], SEEN["acks"]
            else:
                assert not SEEN["created"], SEEN["created"]
            print(f"PASS python tasks {mode}: {got}")
        except Exception as e:  # noqa: BLE001 - report and go on to the next mode
            failed += 1
            print(f"FAIL python tasks {mode}: {type(e).__name__}: {e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
