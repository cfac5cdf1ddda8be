"""Whether a module can hold a Gemini finding or automatic-function-calling tool
(``analysis.screen``)."""

from __future__ import annotations

import ast

from lint_rules.analysis.screen import ModuleView


def needs_libcst(view: ModuleView) -> bool:
    """Whether a call ends in ``from_function_response`` or ``FunctionResponse`` (an
    alias counts under its imported name), or the code holds the string or name
    ``function_response``; or the code holds ``tools`` with a call of
    ``GenerateContentConfig`` or the name ``config``, and lists a function it defines
    (``_lists_own_function``).

    Rule by rule (``recognition.GenaiFile``):

    - TRG002 and TRG003 start from the answers, calls of the SDK's
      ``Part.from_function_response`` / ``FunctionResponse`` resolved through the
      imports (``calls_of``): the callee ends in that name (``types.FunctionResponse``,
      ``Part.from_function_response``, an alias of the class).
    - TRG001 judges those calls' ``response=``, and the ``"response"`` of a
      ``{"function_response": {...}}`` display.
    - TRG004 reports a list holding both a function call part and a function response
      part (``kind_of_part``): the response part is one of those calls, a
      ``Part(function_response=...)``, or a display with a ``"function_response"`` key.
    - TRG101, and TRV901/TRV902 (``tool_functions``), judge the functions automatic
      function calling runs (``afc_functions``): the module's own ``def``s listed in
      the ``tools=`` of a ``GenerateContentConfig(...)``, or under a ``"tools"`` key of a
      display passed as ``config=`` — each an element of a list or tuple display, or a
      value of a dict display (``list(REGISTRY.values())``: ``_listed_functions``).
      Those listed by another module are a fact naming this file, which the screen
      never skips.
    """
    if view.calls("from_function_response", "FunctionResponse") or view.has("function_response"):
        return True
    return (
        view.functions
        and view.has("tools")
        and (view.calls("GenerateContentConfig") or view.has("config"))
        and _lists_own_function(view)
    )


def _lists_own_function(view: ModuleView) -> bool:
    """Whether the name of a ``def`` of the module (at any depth: a superset of
    ``ParsedModule.functions``) is an element of a list or tuple display, or a value of
    a dict display (not starred: ``*tools`` is not read)."""
    defined: set[str] = set()
    listed: set[str] = set()
    for node in view.nodes:
        kind = type(node)
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            defined.add(node.name)  # type: ignore[attr-defined]
        elif kind is ast.List or kind is ast.Tuple:
            listed.update(e.id for e in node.elts if type(e) is ast.Name)  # type: ignore[attr-defined]
        elif kind is ast.Dict:
            listed.update(v.id for v in node.values if type(v) is ast.Name)  # type: ignore[attr-defined]
    return not defined.isdisjoint(listed)
