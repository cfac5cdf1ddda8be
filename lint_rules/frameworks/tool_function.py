"""The interface every framework family offers the rules that hold for all of them.

A family's ``FRAMEWORK.tool_functions(module, project)`` yields the functions
its framework calls as tools in this file, each with the family's own value
inference (its framework types: ``ActionResult``, ``ToolOutputText``, …); the
TRV9xx rules (``frameworks/any_framework``) check those, with a message that
names the framework's own consequence. A new family that implements
``tool_functions`` gets TRV901 and TRV902 without further code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.returns import FunctionFlow, analyse_function
from lint_rules.analysis.shapes import ShapeInference


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
        return analyse_function(self.node, self.module.never_returning())


def plain_tool(module: ParsedModule, node: cst.FunctionDef, framework: str) -> ToolFunction:
    """A tool function inferred without framework types (a Chat Completions registry
    function is plain Python: whatever it returns is serialised by the loop)."""
    return ToolFunction(module, node, framework, ShapeInference(module, node))
