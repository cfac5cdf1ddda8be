"""A home-made agent framework whose API looks like Pydantic AI's: not checked."""

from __future__ import annotations

from collections.abc import Callable


class RunContext:
    pass


class Agent:
    def __init__(self, name: str, tools: list[Callable[..., object]] | None = None) -> None:
        self.name = name
        self.tools = list(tools or [])

    def tool(self, fn: Callable[..., object]) -> Callable[..., object]:
        self.tools.append(fn)
        return fn

    tool_plain = tool


class Record:
    def __init__(self, value: str) -> None:
        self.value = value


agent = Agent("support")


@agent.tool
def lookup(order_id: str) -> Record:
    return Record(order_id)


@agent.tool
def today() -> str:
    return "2026-01-01"


@agent.tool_plain
def branch_hours(ctx, city: str, context: RunContext) -> str:
    return city
