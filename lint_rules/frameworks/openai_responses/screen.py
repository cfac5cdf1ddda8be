"""Whether a module can hold a Responses API finding or registry tool (``analysis.screen``)."""

from __future__ import annotations

from lint_rules.analysis.screen import ModuleView
from lint_rules.frameworks.loop_screens import dispatch_registry, role_may_be


def needs_libcst(view: ModuleView) -> bool:
    """Whether the code holds the string or name ``function_call_output``,
    ``function_call`` or ``tool_calls``; or a display may have the role ``"tool"``
    (``role_may_be``); or ``tools`` and ``responses`` with ``function`` or a call of
    ``pydantic_function_tool``; or a dispatch registry may be recognised
    (``dispatch_registry``).

    Rule by rule (``recognition.ResponsesFile``):

    - TRR002, TRR003, TRR004, TRR006 judge the ``function_call_output`` items: displays
      whose ``"type"`` is that literal (written, or made by ``FunctionCallOutput(...)``,
      ``dict(...)`` or a same-module helper, whose display holds the literal or is given
      it).
    - TRR001 reads the ``tools=`` list of a request (``X.responses.create(...)``): a
      ``pydantic_function_tool(...)`` call, or a display whose ``"type"`` is the literal
      ``"function"`` with a ``"function"`` entry.
    - TRR005 reports an item of a request's ``input`` whose ``"role"`` is the literal
      ``"tool"``, or an ``"assistant"`` one with a ``"tool_calls"`` entry.
    - TRR007 reports only what adds function calls filtered out of a response's output:
      the filter, the test around it, or the ``function_call`` display, each holds the
      literal ``"function_call"`` (``_tests_function_call``, ``_calls_added``).
    - The tool functions TRV901/TRV902 judge are those of the Chat family's registries
      (``registry_tools``, in a module that sends only Responses requests):
      ``dispatch_registry``, the Chat family's own test (a screen imports only the
      standard library and ``analysis.screen``, so it is repeated here).
    """
    if view.has("function_call_output", "function_call", "tool_calls"):
        return True
    if role_may_be(view, "tool"):
        return True
    if (
        view.has("tools")
        and view.has("responses")
        and (view.has("function") or view.calls("pydantic_function_tool"))
    ):
        return True
    return dispatch_registry(view)
