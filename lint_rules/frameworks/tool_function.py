"""The interface every framework family offers the rules that hold for all of them.

A family's ``FRAMEWORK.tool_functions(module, project)`` yields the functions
its framework calls as tools in this file, each with the family's own value
inference (its framework types: ``ActionResult``, ``ToolOutputText``, …); the
TRV9xx rules (``frameworks/any_framework``) check those, with a message that
names the framework's own consequence. A new family that implements
``tool_functions`` gets TRV901 and TRV902 without further code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.returns import FunctionFlow, analyse_function
from lint_rules.analysis.shapes import ShapeInference
from lint_rules.analysis.walk import find_indexed


@dataclass(eq=False)
class ToolFunction:
    """A function a framework calls as a tool, as its family recognised it."""

    module: ParsedModule = field(repr=False)
    node: cst.FunctionDef = field(repr=False)
    framework: str
    """The family's key (``polyai``, ``browser_use``, ``openai_agents``, ``openai_chat``)."""
    inference: ShapeInference = field(repr=False)

    @property
    def name(self) -> str:
        return self.node.name.value

    @property
    def is_async(self) -> bool:
        return self.node.asynchronous is not None

    @cached_property
    def flow(self) -> FunctionFlow:
        return analyse_function(self.node, self.module)


@dataclass(frozen=True)
class Decorated:
    """A function with a decorator that resolves to a framework's."""

    function: cst.FunctionDef
    decorator: cst.Decorator
    called: bool
    """``@tool(...)``; ``False`` for a bare ``@tool``."""


def decorated_with(module: ParsedModule, qualified: frozenset[str]) -> list[Decorated]:
    """Every function of the module (at any depth) decorated, bare or called, with a
    decorator whose qualified name through the imports is one of ``qualified``
    (``strands.tool``, ``claude_agent_sdk.tool``, ``anthropic.beta_tool``): another
    library's decorator of the same name never matches. The first such decorator counts."""
    found = []
    for function in find_indexed(module.tree, cst.FunctionDef, nested=True):
        assert isinstance(function, cst.FunctionDef)
        for decorator in function.decorators:
            target = decorator.decorator
            called = isinstance(target, cst.Call)
            if isinstance(target, cst.Call):
                target = target.func
            if module.qualified_name(target) in qualified:
                found.append(Decorated(function, decorator, called))
                break
    return found


def plain_tool(module: ParsedModule, node: cst.FunctionDef, framework: str) -> ToolFunction:
    """A tool function inferred without framework types (a Chat Completions registry
    function is plain Python: whatever it returns is serialised by the loop)."""
    return ToolFunction(module, node, framework, ShapeInference(module, node))


_ELIDED = re.compile(r"#[^\n]*(?:\.\.\.|…)")
"""A comment that elides code (``# ... do work ...``)."""


def may_fall_through(module: ParsedModule, function: cst.FunctionDef) -> bool:
    """Whether reaching the end of a function is a real way it returns ``None``: not a
    stub or elided example (a bare ``...`` statement or a comment with ``...`` anywhere
    in its body, or a body of only a docstring and ``pass``), and not a ``match`` as its
    last statement (its cases may be exhaustive over the types it matches)."""
    body = function.body
    if isinstance(body, cst.SimpleStatementSuite):
        return not all(_is_placeholder(x) for x in body.body)
    for node in find_indexed(body, cst.Expr):
        if isinstance(node, cst.Expr) and isinstance(node.value, cst.Ellipsis):
            return False
    if _ELIDED.search(module.code_for(body)):
        return False  # "# ... do work ...": elided code
    if not isinstance(body, cst.IndentedBlock):
        return True
    statements = list(body.body)
    if statements and isinstance(statements[-1], cst.Match):
        return False
    return not all(
        isinstance(s, cst.SimpleStatementLine) and all(_is_placeholder(x) for x in s.body)
        for s in statements
    )


def _is_placeholder(node: cst.BaseSmallStatement) -> bool:
    """``pass``, ``...`` or a docstring."""
    if isinstance(node, cst.Pass):
        return True
    return isinstance(node, cst.Expr) and isinstance(
        node.value, (cst.Ellipsis, cst.SimpleString, cst.ConcatenatedString)
    )


def in_expected_failure(module: ParsedModule, node: cst.CSTNode) -> bool:
    """Inside ``with pytest.raises(...):`` — a test that expects the framework's error."""
    index = module.index
    at = index.span(node)[0]
    for found in find_indexed(module.tree, cst.With, nested=True):
        assert isinstance(found, cst.With)
        start, end = index.span(found)
        if start <= at < end and any(
            isinstance(item.item, cst.Call)
            and module.qualified_name(item.item.func) == "pytest.raises"
            for item in found.items
        ):
            return True
    return False
