"""Whether a module can hold anything the OpenAI Agents SDK rules read (``analysis.screen``)."""

from __future__ import annotations

from lint_rules.analysis.screen import ModuleView

AGENT_CLASSES = frozenset(
    {
        "agents.Agent",
        "agents.agent.Agent",
        "agents.sandbox.SandboxAgent",
        "agents.sandbox.sandbox_agent.SandboxAgent",
    }
)
RESULT = frozenset({"agents.ToolsToFinalOutputResult", "agents.agent.ToolsToFinalOutputResult"})
FUNCTION_TOOL = frozenset(
    {
        "agents.function_tool",
        "agents.tool.function_tool",
        "agents.decorators.function_tool",
        "agents.decorators.tool",
    }
)
"""The qualified names ``recognition._CANONICAL`` reads as these objects (a test keeps
them equal)."""


def needs_libcst(view: ModuleView) -> bool:
    """Whether the module calls ``Agent``/``SandboxAgent``, ``ToolsToFinalOutputResult`` or
    ``function_tool``, decorates with ``function_tool`` (or ``agents.decorators.tool``), or
    names ``ToolsToFinalOutputResult`` anywhere (an annotation, also a string one) — each
    by a name that can refer to the SDK's object: its last name (or a local the module
    imports it as) with an import of the object or of a package on its path.

    The family's context (``recognition.AgentsFile``) exists only when it holds an agent,
    a behaviour function, a ``ToolsToFinalOutputResult(...)`` or a function tool
    (``is_empty``), each recognised through the imports (``sdk_name``: a qualified name
    of ``_CANONICAL``); the agents of other files that use a function of this one come
    from the project index (``names_file``: such a module is always parsed).

    - TRV301, TRV302, TRV310, TRV311 judge the ``Agent(...)``/``SandboxAgent(...)`` calls
      (``context.agents``), also ``Agent[Ctx](...)``: a call whose last name is the
      class's, or the local it is imported as.
    - TRV303, TRV305, TRV312 judge behaviour functions: the ``tool_use_behavior=`` of an
      agent (an ``Agent`` call), or a function annotated to return
      ``ToolsToFinalOutputResult`` (a name, an attribute or a string naming it or its
      imported alias: one of the view's words).
    - TRV304, TRV306, TRV307 judge ``ToolsToFinalOutputResult(...)`` calls.
    - TRV308, TRV309 and TRV901/TRV902 judge the function tools: ``@function_tool``,
      ``@function_tool(...)``, ``function_tool(fn)`` (``agents.decorators.tool`` too).
    """
    return (
        view.refers(view.called, AGENT_CLASSES | RESULT | FUNCTION_TOOL)
        or view.refers(view.decorators, FUNCTION_TOOL)
        or view.refers(view.words, RESULT)
    )
