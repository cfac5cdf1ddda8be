"""Whether a module can hold a Claude Agent SDK tool handler (``analysis.screen``)."""

from __future__ import annotations

from lint_rules.analysis.screen import ModuleView

TOOL = frozenset({"claude_agent_sdk.tool"})
"""``recognition.TOOL``: the decorator factory, the only name the family recognises."""


def needs_libcst(view: ModuleView) -> bool:
    """Whether a decorator or a callee of the module can be ``claude_agent_sdk.tool``: its
    last name is ``tool`` (or a local the module imports it as), and an import binds it,
    ``claude_agent_sdk`` or (the view's spelling of ``import claude_agent_sdk.x``) the
    package.

    Every rule, TRC001–TRC006, judges only the module's handlers
    (``ClaudeSdkFile.handlers``, also ``returned_displays``), and TRV901/TRV902 the called
    ones: the functions decorated with a decorator that resolves through the imports to
    ``claude_agent_sdk.tool`` (``decorated_with``: ``@tool(...)``, a bare ``@tool``,
    ``@sdk.tool(...)``), and the functions wrapped by a call of it (``x = tool(name,
    description, schema)(function)``: the inner call's callee is ``tool``, one of the
    module's callees). A module that only builds ``ClaudeAgentOptions``, a client or a
    ``query`` — or uses LangChain's, CrewAI's or its own ``tool`` — has none.
    """
    return view.refers(view.decorators, TOOL) or view.refers(view.called, TOOL)
