"""Recognition of the Claude Agent SDK's in-process tools (``claude_agent_sdk``).

claude-agent-sdk 0.2.190 (``__init__.py``): ``@tool(name, description,
input_schema)`` wraps an ``async`` handler taking one args dict;
``create_sdk_mcp_server`` awaits it and reads ``result.get("content", [])`` and
``result.get("is_error", False)``, converting each content item by its ``"type"``
(``text``, ``image``; ``resource_link`` and ``resource`` flattened to text; anything else
dropped).

A *handler* is a function decorated with ``tool`` resolved through the module's imports
to ``claude_agent_sdk.tool`` (``from claude_agent_sdk import tool``, ``import
claude_agent_sdk as sdk`` … ``@sdk.tool(...)``): LangChain's, CrewAI's, Strands' and a
project's own ``tool`` are other decorators of the same name, never this one. A handler
defined inside a test function (``def test_...``) is not judged: the test builds the
shape it wants the SDK to handle.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from lint_rules import prefilter
from lint_rules.analysis.bindings import local_bindings
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.returns import FunctionFlow, analyse_function
from lint_rules.analysis.shapes import ShapeInference, returned_values
from lint_rules.analysis.walk import find_indexed
from lint_rules.frameworks.tool_function import Decorated, decorated_with

PACKAGE = "claude_agent_sdk"
TOOL = "claude_agent_sdk.tool"


def has_signal(source: str, path: str) -> bool:
    return prefilter.has_signal("claude_agent_sdk", source, path)


@dataclass(frozen=True)
class Handler:
    """One function the SDK's ``tool`` makes a tool of: decorated (``@tool(...)``, or a
    bare ``@tool``: ``called`` is ``False``), or wrapped by a call (``x = tool("name",
    "description", schema)(function)``: no ``decorator``)."""

    function: cst.FunctionDef
    decorator: cst.Decorator | None
    called: bool

    @classmethod
    def of(cls, found: Decorated) -> Handler:
        return cls(found.function, found.decorator, found.called)


@dataclass
class ClaudeSdkFile:
    """One module that may define Claude Agent SDK tools."""

    module: ParsedModule
    project: Project | None = None
    _flows: dict[int, FunctionFlow] = field(default_factory=dict, repr=False)
    _inferences: dict[int, ShapeInference] = field(default_factory=dict, repr=False)

    @cached_property
    def handlers(self) -> list[Handler]:
        """The module's handlers, but those defined inside a test function (``def
        test_...``): a test builds a handler of the shape it wants to see the SDK
        handle (the SDK's own tests return blocks it must drop)."""
        if not self.module.imports_module(PACKAGE):
            return []
        found = [Handler.of(d) for d in decorated_with(self.module, frozenset({TOOL}))]
        seen = {id(h.function) for h in found}
        for wrapped in self._wrapped():
            if id(wrapped) not in seen:
                seen.add(id(wrapped))
                found.append(Handler(wrapped, None, True))
        return [h for h in found if not self._in_test(h.function)]

    def _wrapped(self) -> list[cst.FunctionDef]:
        """The module-level functions wrapped by a call of ``tool(...)``: ``x =
        tool("name", "description", schema)(function)``."""
        module = self.module
        found = []
        for call in find_indexed(module.tree, cst.Call, nested=True):
            assert isinstance(call, cst.Call)
            inner = call.func
            if (
                isinstance(inner, cst.Call)
                and module.qualified_name(inner.func) == TOOL
                and len(call.args) == 1
                and call.args[0].keyword is None
                and not call.args[0].star
                and isinstance(call.args[0].value, cst.Name)
            ):
                name = call.args[0].value.value
                function = module.functions.get(name)
                if function is not None and name not in module.shadowed:
                    found.append(function)
        return found

    def _in_test(self, function: cst.FunctionDef) -> bool:
        scope = self.module.index.enclosing_scope(function)
        while scope is not None:
            if isinstance(scope, cst.FunctionDef) and scope.name.value.startswith("test"):
                return True
            scope = self.module.index.enclosing_scope(scope)
        return False

    def flow(self, function: cst.FunctionDef) -> FunctionFlow:
        """The handler's return sites (an imported helper that always raises ends it:
        ``analyse_function`` reads the project's summaries)."""
        found = self._flows.get(id(function))
        if found is None:
            found = self._flows[id(function)] = analyse_function(function, self.module)
        return found

    def inference(self, function: cst.FunctionDef) -> ShapeInference:
        found = self._inferences.get(id(function))
        if found is None:
            found = self._inferences[id(function)] = ShapeInference(self.module, function)
        return found


def returned_displays(file: ClaudeSdkFile) -> Iterator[tuple[Handler, cst.Dict]]:
    """The dict displays each handler returns: written in the ``return``, or bound once
    to the returned name in the handler (each display once)."""
    seen: set[int] = set()
    for handler in file.handlers:
        flow = file.flow(handler.function)
        for site in flow.sites:
            if site.value is None:
                continue
            for value in returned_values(site.value):
                display = _display_of(handler.function, value)
                if display is not None and id(display) not in seen:
                    seen.add(id(display))
                    yield handler, display


def _display_of(function: cst.FunctionDef, value: cst.BaseExpression) -> cst.Dict | None:
    if isinstance(value, cst.Dict):
        return value
    if isinstance(value, cst.Name):
        bound = local_bindings(function).get(value.value)
        if bound is not None and bound[0] == "assigned" and isinstance(bound[1], cst.Dict):
            return bound[1]
    return None


def recognise(module: ParsedModule, project: Project | None = None) -> ClaudeSdkFile:
    return module.remembered("claude_agent_sdk.file", (), lambda: ClaudeSdkFile(module, project))
