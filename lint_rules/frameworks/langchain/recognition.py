"""Recognition of LangChain tools and what LangGraph's ``ToolNode`` does with them.

A tool is recognised by import, never by the bare name ``tool`` (CrewAI, Agno
and many projects have their own ``@tool``):

- a function decorated with ``langchain_core.tools.tool`` (also through its
  re-exports ``langchain.tools.tool`` and, in langchain 0.x,
  ``langchain.agents.tool``), bare or called (``@tool("name",
  description=..., response_format=...)``);
- a same-module function given to ``StructuredTool.from_function(...)``;
- the ``_run`` / ``_arun`` methods of a class deriving directly from
  ``BaseTool`` (or from ``StructuredTool``).

What the tool is told (its ``response_format``, whether a ``description`` or
an ``args_schema`` is given) is read from the decorator's or call's literal
arguments, or the class's attribute; anything not literal is not known.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from lint_rules.analysis.bindings import bound_names, root_name
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.shapes import ShapeInference
from lint_rules.analysis.walk import find_indexed
from lint_rules.frameworks.langchain.screen import BASE_TOOLS, STRUCTURED_TOOL, TOOL_DECORATORS
from lint_rules.frameworks.resolution import FlowCache
from lint_rules.frameworks.tool_function import in_expected_failure
from lint_rules.frameworks.tool_loops import string_value

COMMAND = frozenset({"langgraph.types.Command", "langgraph.graph.state.Command"})
TOOL_MESSAGE = frozenset(
    {
        "langchain_core.messages.ToolMessage",
        "langchain_core.messages.tool.ToolMessage",
        "langchain.messages.ToolMessage",
        "langchain.schema.messages.ToolMessage",
    }
)
OTHER_MESSAGES = frozenset(
    {
        f"{module}.{name}"
        for module in ("langchain_core.messages", "langchain.messages")
        for name in ("AIMessage", "HumanMessage", "SystemMessage")
    }
)
REMOVE_MESSAGE = frozenset(
    {"langchain_core.messages.RemoveMessage", "langchain.messages.RemoveMessage"}
)
INJECTED_TOOL_CALL_ID = frozenset(
    {
        "langchain_core.tools.InjectedToolCallId",
        "langchain_core.tools.base.InjectedToolCallId",
        "langchain.tools.InjectedToolCallId",
    }
)
ARTIFACT = "content_and_artifact"


@dataclass
class LangChainTool:
    """One function LangChain calls as a tool."""

    function: cst.FunctionDef
    how: str
    """``decorator`` (``@tool``), ``from_function`` or ``base_tool`` (``_run``/``_arun``)."""
    anchor: cst.CSTNode
    """Where a finding about the declaration points: the decorator or the call."""
    keywords: dict[str, cst.BaseExpression] = field(default_factory=dict)
    """The literal keyword arguments of the decorator / call (or class attributes)."""
    unknown_arguments: bool = False
    """``**kwargs`` or arguments that could set anything."""

    @property
    def name(self) -> str:
        return self.function.name.value

    def response_format(self) -> str | None:
        """The literal ``response_format``; ``"content"`` when not given; ``None`` when
        not known."""
        value = self.keywords.get("response_format")
        if value is None:
            return None if self.unknown_arguments else "content"
        return string_value(value)


@dataclass
class LangChainFile(FlowCache):
    project: Project | None = None

    _bound: dict[int, frozenset[str]] = field(default_factory=dict, repr=False)

    def is_tool_decorator(self, node: cst.BaseExpression, where: cst.CSTNode) -> bool:
        """Whether ``node`` is LangChain's ``tool`` where it is used: through imports,
        and not rebound by a function around ``where`` (``def make(): def tool(fn): ...``)."""
        if self.module.qualified_name(node) not in TOOL_DECORATORS:
            return False
        root = root_name(node)
        scope = self.module.index.enclosing_scope(where)
        while scope is not None:
            if isinstance(scope, cst.FunctionDef):
                bound = self._bound.get(id(scope))
                if bound is None:
                    bound = self._bound[id(scope)] = bound_names(scope)
                if root in bound:
                    return False
            scope = self.module.index.enclosing_scope(scope)
        return True

    def qualified(self, node: cst.BaseExpression) -> str | None:
        return self.module.qualified_name(node)

    @cached_property
    def tools(self) -> list[LangChainTool]:
        found: list[LangChainTool] = []
        seen: set[int] = set()
        for node in find_indexed(self.module.tree, cst.FunctionDef, nested=True):
            assert isinstance(node, cst.FunctionDef)
            for decorator in node.decorators:
                tool = self._decorated(node, decorator)
                if tool is not None and id(node) not in seen:
                    seen.add(id(node))
                    found.append(tool)
                    break
        for call in find_indexed(self.module.tree, cst.Call, nested=True):
            assert isinstance(call, cst.Call)
            tool = self._from_function(call)
            if tool is not None and id(tool.function) not in seen:
                seen.add(id(tool.function))
                found.append(tool)
        for cls in find_indexed(self.module.tree, cst.ClassDef, nested=True):
            assert isinstance(cls, cst.ClassDef)
            for tool in self._base_tool_methods(cls):
                if id(tool.function) not in seen:
                    seen.add(id(tool.function))
                    found.append(tool)
        return sorted(found, key=lambda t: self.module.index.span(t.function)[0])

    def _decorated(
        self, function: cst.FunctionDef, decorator: cst.Decorator
    ) -> LangChainTool | None:
        expr = decorator.decorator
        if isinstance(expr, cst.Call):
            if not self.is_tool_decorator(expr.func, function):
                return None
            keywords, unknown = _keywords(expr)
            positional = [a for a in expr.args if a.keyword is None and not a.star]
            if positional and string_value(positional[0].value) is None:
                unknown = True  # ``tool(fn)``-style use as a decorator: not read
            return LangChainTool(function, "decorator", decorator, keywords, unknown)
        if self.is_tool_decorator(expr, function):
            return LangChainTool(function, "decorator", decorator)
        return None

    def _from_function(self, call: cst.Call) -> LangChainTool | None:
        func = call.func
        if not (
            isinstance(func, cst.Attribute)
            and func.attr.value == "from_function"
            and self.qualified(func.value) in STRUCTURED_TOOL
        ):
            return None
        keywords, unknown = _keywords(call)
        target = keywords.get("func", keywords.get("coroutine"))
        if target is None:
            positional = [a for a in call.args if a.keyword is None and not a.star]
            target = positional[0].value if positional else None
        if not isinstance(target, cst.Name):
            return None
        function = self.module.functions.get(target.value)
        if function is None or target.value in self.module.shadowed:
            return None
        return LangChainTool(function, "from_function", call, keywords, unknown)

    def _base_tool_methods(self, cls: cst.ClassDef) -> list[LangChainTool]:
        bases = [arg.value for arg in cls.bases if arg.keyword is None]
        if not any(self.qualified(b) in BASE_TOOLS for b in bases):
            return []
        attributes: dict[str, cst.BaseExpression] = {}
        methods: list[cst.FunctionDef] = []
        if not isinstance(cls.body, cst.IndentedBlock):
            return []
        for statement in cls.body.body:
            if isinstance(statement, cst.FunctionDef):
                if statement.name.value in ("_run", "_arun"):
                    methods.append(statement)
                continue
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if (
                    isinstance(small, cst.AnnAssign)
                    and isinstance(small.target, cst.Name)
                    and small.value is not None
                ):
                    attributes[small.target.value] = small.value
                elif isinstance(small, cst.Assign):
                    for target in small.targets:
                        if isinstance(target.target, cst.Name):
                            attributes[target.target.value] = small.value
        # a subclass of another tool class may change what ``_run`` returns: only direct
        # subclasses of the library's classes are read
        return [LangChainTool(m, "base_tool", m.name, attributes) for m in methods]

    @cached_property
    def checked_tools(self) -> list[LangChainTool]:
        """The tools the rules judge: not those defined inside ``with pytest.raises(...)``
        (a test of LangChain's own error)."""
        return [t for t in self.tools if not in_expected_failure(self.module, t.function)]

    def inference(self, function: cst.FunctionDef) -> ShapeInference:
        return ShapeInference(self.module, function)

    def in_class_body(self, function: cst.FunctionDef) -> bool:
        return isinstance(self.module.index.enclosing_scope(function), cst.ClassDef)


def _keywords(call: cst.Call) -> tuple[dict[str, cst.BaseExpression], bool]:
    found: dict[str, cst.BaseExpression] = {}
    unknown = False
    for arg in call.args:
        if arg.star:
            unknown = True
        elif arg.keyword is not None:
            found[arg.keyword.value] = arg.value
    return found, unknown


def recognise(module: ParsedModule, project: Project | None = None) -> LangChainFile:
    return module.remembered(_MEMO, (), lambda: LangChainFile(module))


_MEMO = "langchain.recognise"
