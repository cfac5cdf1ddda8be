"""Whether a module can register a Pydantic AI tool (``analysis.screen``)."""

from __future__ import annotations

from lint_rules.analysis.screen import ModuleView

AGENT_CLASSES = frozenset({"pydantic_ai.Agent", "pydantic_ai.agent.Agent"})
TOOLSET_CLASSES = frozenset(
    {
        "pydantic_ai.FunctionToolset",
        "pydantic_ai.toolsets.FunctionToolset",
        "pydantic_ai.toolsets.function.FunctionToolset",
    }
)
TOOL_CLASSES = frozenset({"pydantic_ai.Tool", "pydantic_ai.tools.Tool"})
"""The qualified names recognition resolves to (``recognition`` imports them from here)."""


def needs_libcst(view: ModuleView) -> bool:
    """Whether the module has an attribute decorator (``@<x>.tool``, ``@<x>.tool(...)``)
    ending in ``tool`` or ``tool_plain``; calls something ending in ``tool``,
    ``tool_plain`` or ``add_function``; or calls a name that can be ``Tool`` or
    ``FunctionToolset`` — or ``Agent`` with ``tools=`` in the module ("can be": its last
    name, or a local the module imports it as, with an import of the class or a package
    on its path).

    Every rule, TRV801–TRV803, judges only ``registrations`` (``checked_registrations``,
    ``tools``), as TRV901/TRV902 do ``tools``; a registration is
    (``PydanticAiFile.registrations``)

    - ``@<owner>.tool``/``.tool_plain``, bare or called: an attribute decorator (a bare
      ``@tool`` is none);
    - a call ``<owner>.tool(fn)``, ``.tool_plain(fn)`` or ``<toolset>.add_function(fn)``;
    - ``Tool(fn, ...)``, a callee that resolves to ``TOOL_CLASSES``;
    - a function listed in ``FunctionToolset([...])`` / ``FunctionToolset(tools=[...])``
      or ``Agent(..., tools=[...])`` (also ``Agent[...](...)``): the callee resolves to the
      class, and an agent's list is its ``tools=`` keyword, one of the view's words;
    - a function another module registers, which the project index names
      (``names_file``: always parsed).

    A module that only builds and runs an agent without tools — or defines an output
    model — has none of these.
    """
    if view.decorated_by("tool", "tool_plain") and not view.attribute_decorators.isdisjoint(
        ("tool", "tool_plain")
    ):
        return True
    if view.calls("tool", "tool_plain", "add_function"):
        return True
    if view.refers(view.called, TOOL_CLASSES | TOOLSET_CLASSES):
        return True
    return view.has("tools") and view.refers(view.called, AGENT_CLASSES)
