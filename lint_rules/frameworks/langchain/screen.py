"""Whether a module can hold a LangChain tool (``analysis.screen``)."""

from __future__ import annotations

from lint_rules.analysis.screen import ModuleView

TOOL_DECORATORS = frozenset(
    {
        "langchain_core.tools.tool",
        "langchain_core.tools.convert.tool",
        "langchain.tools.tool",
        "langchain.agents.tool",
    }
)
STRUCTURED_TOOL = frozenset(
    {
        "langchain_core.tools.StructuredTool",
        "langchain_core.tools.structured.StructuredTool",
        "langchain.tools.StructuredTool",
    }
)
BASE_TOOLS = frozenset(
    {
        "langchain_core.tools.BaseTool",
        "langchain_core.tools.base.BaseTool",
        "langchain.tools.BaseTool",
        *STRUCTURED_TOOL,
    }
)
"""``recognition``'s qualified names (a test keeps them equal)."""


def needs_libcst(view: ModuleView) -> bool:
    """Whether the module can define a LangChain tool: a decorator that can be LangChain's
    ``tool``; a ``from_function`` call with a name that can be ``StructuredTool``; or a
    class based on a name that can be ``BaseTool``/``StructuredTool`` with a ``_run`` or
    ``_arun``. "Can be": the last name is the object's (or a local the module imports it
    as), and an import binds the object or a package on its path.

    Every rule, TRV701–TRV706, judges only ``LangChainFile.checked_tools``, and
    TRV901/TRV902 ``tools``; a tool is (``LangChainFile.tools``)

    - a function decorated, bare or called, with a decorator whose qualified name through
      the imports is in ``TOOL_DECORATORS`` (never a bare ``tool``: CrewAI's, Agno's);
    - a same-module function given to ``<StructuredTool>.from_function(...)``: the
      callee's last name is ``from_function``, its receiver names ``StructuredTool``;
    - the ``_run``/``_arun`` methods, defined in the class body, of a class with a base
      in ``BASE_TOOLS``.

    A module that builds a chain, a graph, a prompt or a model — most modules that import
    ``langchain`` or ``langgraph`` — has none of these.
    """
    if view.refers(view.decorators, TOOL_DECORATORS):
        return True
    if view.calls("from_function") and view.refers(view.words, STRUCTURED_TOOL):
        return True
    return view.has("_run", "_arun") and view.refers(view.bases, BASE_TOOLS)
