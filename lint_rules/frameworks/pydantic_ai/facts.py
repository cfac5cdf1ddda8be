"""What one file contributes to the project index for the Pydantic AI rules.

Agents list tools defined in other modules: ``agent.py`` does ``from .tools import
search`` (often inside the factory that builds the agent) and ``Agent(...,
tools=[search])``; ``search`` in ``tools.py`` is then a tool, judged there. Every file
with the family's byte signal gives ``registers``: ``[function, [context, how]]`` for
each registration of an *imported* function — ``Agent(tools=[...])``,
``FunctionToolset([...])``, ``Tool(fn, ...)``, ``agent.tool(fn)`` /
``agent.tool_plain(fn)``, ``toolset.add_function(fn)`` — the function qualified as the
imports spell it, the context as :class:`~lint_rules.frameworks.pydantic_ai.recognition.Ctx`
names it, and how it is registered (with file and line, for messages). The function's
file and name are resolved by the index (``ProjectIndex.registered_in``).
"""

from __future__ import annotations

from typing import Any

from lint_rules import prefilter
from lint_rules.analysis.module import ParsedModule
from lint_rules.frameworks.pydantic_ai.recognition import recognise


def extract_module(module: ParsedModule, data: bytes) -> dict[str, Any]:
    """The ``pydantic_ai`` facts of a parsed module (``{}`` without the family's signal)."""
    if not prefilter.has_signal("pydantic_ai", data, ""):
        return {}
    registers = recognise(module).imported_registrations()
    return {"registers": [[function, value] for function, value in registers]} if registers else {}
