"""Recognition of Pydantic AI tools, and whether each takes the run context.

**By import, never by a bare name.** An *owner* is an expression known to be a
``pydantic_ai.Agent(...)`` (also ``Agent[Deps, Out](...)``) or a
``FunctionToolset(...)``: a module-level name bound (once) to such a call, a
local of the function that binds it so, a parameter annotated with one of the
classes (``def register(agent: Agent[Deps])``), or ``self.<name>`` where every
assignment of ``self.<name>`` in the module is such a call. A project's own
``Agent`` class is none of these.

Tools are the functions

- decorated ``@owner.tool`` / ``@owner.tool(...)`` / ``@owner.tool_plain`` /
  ``@owner.tool_plain(...)``, or registered ``owner.tool(fn)`` /
  ``owner.tool_plain(fn)`` / ``toolset.add_function(fn, takes_ctx=...)``;
- given to ``Tool(fn, ...)`` / ``Tool(function=fn, ...)``;
- named in ``Agent(..., tools=[...])`` / ``FunctionToolset([...])`` /
  ``FunctionToolset(tools=[...])`` (a display, or a name bound to one).

Whether a tool takes the context (pydantic-ai-slim 1.107 and 2.68,
``_function_schema.py``): ``Agent.tool`` yes, ``tool_plain`` no,
``Tool(takes_ctx=True/False)`` as given, ``Tool(fn)`` / ``tools=[fn]`` /
``add_function(fn)`` inferred from the first parameter's annotation.
``FunctionToolset.tool`` infers it in 1.x (with a ``DeprecationWarning``) and
forces it in 2.x: only what is wrong in both versions is reported for it.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import libcst as cst

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.walk import find_indexed
from lint_rules.frameworks.pydantic_ai.screen import AGENT_CLASSES, TOOL_CLASSES, TOOLSET_CLASSES
from lint_rules.frameworks.resolution import NameResolver
from lint_rules.frameworks.tool_function import in_expected_failure

RUN_CONTEXT = frozenset(
    {
        "pydantic_ai.RunContext",
        "pydantic_ai.tools.RunContext",
        "pydantic_ai._run_context.RunContext",
    }
)
_NOT_CONTEXT_MODULES = ("typing.", "typing_extensions.", "collections.abc.", "datetime.")
_ANNOTATED = frozenset({"typing.Annotated", "typing_extensions.Annotated"})
_MAX_DEPTH = 4


class Owner(enum.Enum):
    AGENT = "Agent"
    TOOLSET = "FunctionToolset"


class Ctx(enum.Enum):
    """Whether the framework passes the run context as the first argument."""

    CONTEXT = "takes the context"
    PLAIN = "plain"
    INFERRED = "inferred from the first parameter's annotation"
    TOOLSET_TOOL = "`FunctionToolset.tool`: inferred in 1.x, the context in 2.x"
    UNKNOWN = "not known"


@dataclass
class PydanticTool:
    """One registration of a function as a Pydantic AI tool."""

    function: cst.FunctionDef
    ctx: Ctx
    how: str
    """How it is registered, for messages: ``@agent.tool_plain``, ``Tool(...)``, …"""
    node: cst.CSTNode
    """The decorator or the registering expression."""

    @property
    def name(self) -> str:
        return self.function.name.value


def parameters(function: cst.FunctionDef) -> list[cst.Param]:
    """The parameters in ``inspect.signature`` order."""
    params = function.params
    found = [*params.posonly_params, *params.params]
    if isinstance(params.star_arg, cst.Param):
        found.append(params.star_arg)
    found.extend(params.kwonly_params)
    if params.star_kwarg is not None:
        found.append(params.star_kwarg)
    return found


@dataclass
class PydanticAiFile(NameResolver[Owner]):
    """One module that may define Pydantic AI tools (the *kind* of a name: agent or
    toolset, ``frameworks/resolution.py``)."""

    project: Project | None = None

    # -- owners

    def kind_of_class(self, node: cst.BaseExpression) -> Owner | None:
        if isinstance(node, cst.Subscript):
            node = node.value  # Agent[Deps, Out]
        qualified = self.module.qualified_name(node)
        if qualified in AGENT_CLASSES:
            return Owner.AGENT
        if qualified in TOOLSET_CLASSES:
            return Owner.TOOLSET
        return None

    def kind_of_call(self, node: cst.BaseExpression | None, depth: int = 0) -> Owner | None:
        if isinstance(node, cst.Call):
            return self.kind_of_class(node.func)
        return None

    def kind_of_qualified(self, qualified: str) -> Owner | None:
        if qualified in AGENT_CLASSES:
            return Owner.AGENT
        if qualified in TOOLSET_CLASSES:
            return Owner.TOOLSET
        return None

    def _sequence(
        self, where: cst.FunctionDef | None, node: cst.BaseExpression
    ) -> cst.List | cst.Tuple | None:
        """A list/tuple display, or a name bound (once) to one."""
        if isinstance(node, (cst.List, cst.Tuple)):
            return node
        if not isinstance(node, cst.Name):
            return None
        for scope in self.enclosing_functions(where):
            local = self.local_binding(scope, node.value)
            if local is not None:
                kind, value = local
                if kind == "assigned" and isinstance(value, (cst.List, cst.Tuple)):
                    return value
                return None
        if node.value in self.module.shadowed:
            return None
        value = self.module.constants.get(node.value)
        return value if isinstance(value, (cst.List, cst.Tuple)) else None

    # -- tools

    @cached_property
    def registrations(self) -> list[PydanticTool]:
        """Every registration of a function as a tool, in source order (a function may be
        registered more than once)."""
        found: list[PydanticTool] = []
        for node in find_indexed(self.module.tree, cst.FunctionDef, nested=True):
            assert isinstance(node, cst.FunctionDef)
            for decorator in node.decorators:
                expr = decorator.decorator
                if isinstance(expr, cst.Call):
                    expr = expr.func
                if not isinstance(expr, cst.Attribute):
                    continue
                method = expr.attr.value
                if method not in ("tool", "tool_plain"):
                    continue
                owner = self.kind_in(self.function_of(node), expr.value)
                if owner is None:
                    continue
                ctx = _decorated_ctx(owner, method)
                found.append(PydanticTool(node, ctx, _how(owner, method), decorator))
        for call in find_indexed(self.module.tree, cst.Call, nested=True):
            assert isinstance(call, cst.Call)
            found.extend(self._registered_by_call(call))
        index_ = self.project.index if self.project is not None else None
        lookup = getattr(index_, "registered_in", None)
        elsewhere = lookup(self.module.path, "pydantic_ai") if lookup is not None else {}
        for name, (ctx, how) in sorted(elsewhere.items()):
            function = self.module.functions.get(name)
            if function is not None and name not in self.module.shadowed:
                found.append(PydanticTool(function, Ctx[ctx], how, function.name))
        index = self.module.index
        found.sort(key=lambda t: index.span(t.node)[0])
        return found

    def _registered_by_call(self, call: cst.Call) -> Iterator[PydanticTool]:
        where = self.function_of(call)
        for target, ctx, how, node in self._call_registrations(call, where):
            function = self.function_named(where, target.value)
            if function is not None:
                yield PydanticTool(function, ctx, how, node)

    def _call_registrations(
        self, call: cst.Call, where: cst.FunctionDef | None
    ) -> Iterator[tuple[cst.Name, Ctx, str, cst.CSTNode]]:
        """``(the name registered, its context, how, the registering node)`` of one call."""
        func = call.func
        # Tool(fn, takes_ctx=...)
        if self.module.qualified_name(func) in TOOL_CLASSES:
            target = _argument(call, 0, "function")
            if isinstance(target, cst.Name):
                ctx = _takes_ctx(call)
                how = "`Tool(...)`" if ctx is Ctx.INFERRED else f"`Tool(..., {_KWARG[ctx]})`"
                yield target, ctx, how, call
            return
        owner = self.kind_of_class(func.value if isinstance(func, cst.Subscript) else func)
        if owner is not None:
            # Agent(tools=[...]) / FunctionToolset([...])
            listed = _argument(call, 0 if owner is Owner.TOOLSET else None, "tools")
            sequence = self._sequence(where, listed) if listed is not None else None
            if sequence is None:
                return
            for element in sequence.elements:
                if isinstance(element.value, cst.Name):
                    how = f"`{owner.value}(tools=[...])`"
                    yield element.value, Ctx.INFERRED, how, element.value
            return
        # owner.tool(fn) / owner.tool_plain(fn) / toolset.add_function(fn, ...)
        if not isinstance(func, cst.Attribute):
            return
        method = func.attr.value
        if method not in ("tool", "tool_plain", "add_function"):
            return
        target = _argument(call, 0, None)
        if not isinstance(target, cst.Name):
            return
        owner = self.kind_in(where, func.value)
        if owner is None or (method == "add_function" and owner is not Owner.TOOLSET):
            return
        if method == "add_function":
            yield target, _takes_ctx(call), "`FunctionToolset.add_function`", call
        else:
            yield target, _decorated_ctx(owner, method), _how(owner, method), call

    def imported_registrations(self) -> list[tuple[str, list[str]]]:
        """For the project index: ``(function, [context, how])`` of each registration of a
        function this module imports (``Agent(tools=[search])`` after ``from .tools import
        search``, also inside the factory that imports it), ``function`` qualified as the
        imports spell it — the module-level ones, or the function's own imports."""
        found: list[tuple[str, list[str]]] = []
        for call in find_indexed(self.module.tree, cst.Call, nested=True):
            assert isinstance(call, cst.Call)
            where = self.function_of(call)
            for target, ctx, how, node in self._call_registrations(call, where):
                qualified = self._imported(where, target.value)
                if qualified is not None:
                    line = self.module.range_of(node).start.line
                    where_text = f"{os.path.basename(self.module.path)}:{line}"
                    found.append((qualified, [ctx.name, f"{how} in {where_text}"]))
        return found

    def _imported(self, where: cst.FunctionDef | None, name: str) -> str | None:
        """The qualified name ``name`` is imported as where it is used: by an import of a
        function around ``where`` (a factory's local ``from .tools import search``), else
        of the module; ``None`` when it is bound some other way."""
        for scope in self.enclosing_functions(where):
            binding = self.local_binding(scope, name)
            if binding is not None:
                return _local_import(scope, name) if binding[0] == "other" else None
        if name in self.module.shadowed:
            return None
        return self.module.imports.get(name)

    def registered(self, tool: PydanticTool) -> str:
        """How a tool is registered, with the line of a registering call (a decorator is on
        the function; a registration of another module names its file and line)."""
        if isinstance(tool.node, cst.Decorator) or tool.node is tool.function.name:
            return tool.how
        return f"{tool.how} on line {self.module.range_of(tool.node).start.line}"

    @cached_property
    def checked_registrations(self) -> list[PydanticTool]:
        """The registrations the rules judge: not those inside ``with pytest.raises(...)``
        (a test of Pydantic AI's own error)."""
        return [
            r
            for r in self.registrations
            if not in_expected_failure(self.module, r.node)
            and not in_expected_failure(self.module, r.function)
        ]

    @cached_property
    def tools(self) -> list[cst.FunctionDef]:
        """The tool functions, each once, in source order."""
        seen: dict[int, cst.FunctionDef] = {}
        for registration in self.registrations:
            seen.setdefault(id(registration.function), registration.function)
        index = self.module.index
        return sorted(seen.values(), key=lambda f: index.span(f)[0])

    def is_run_context(self, annotation: cst.BaseExpression, depth: int = 0) -> bool | None:
        """``True``: certainly ``RunContext`` / ``RunContext[...]`` (or its string form);
        ``False``: certainly something else (a builtin, a ``typing`` form, a same-module
        class, a union of those…); ``None``: not known (an alias, another module's name)."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(annotation, (cst.SimpleString, cst.ConcatenatedString)):
            text = annotation.evaluated_value if isinstance(annotation, cst.SimpleString) else None
            if not isinstance(text, str):
                return None
            try:
                parsed = cst.parse_expression(text.strip())
            except cst.ParserSyntaxError:
                return None
            return self._is_run_context_parsed(parsed, depth + 1)
        return self._is_run_context_parsed(annotation, depth)

    def _is_run_context_parsed(self, node: cst.BaseExpression, depth: int) -> bool | None:
        module = self.module
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            left = self.is_run_context(node.left, depth + 1)
            right = self.is_run_context(node.right, depth + 1)
            return False if left is False and right is False else None
        if isinstance(node, cst.Subscript):
            base = module.qualified_name(node.value)
            if base in _ANNOTATED:
                first = node.slice[0].slice if node.slice else None
                if isinstance(first, cst.Index):
                    inner = self.is_run_context(first.value, depth + 1)
                    return False if inner is False else None
                return None
            verdict = self._is_run_context_parsed(node.value, depth + 1)
            return verdict
        if isinstance(node, cst.Name):
            if node.value == "None":
                return False
            if module.is_builtin(node, node.value) and node.value not in module.constants:
                import builtins

                return False if isinstance(getattr(builtins, node.value, None), type) else None
            if (
                node.value in module.classes
                and node.value not in module.shadowed
                and node.value not in module.imports
            ):
                return False
        qualified = module.qualified_name(node)
        if qualified is None:
            return None
        if qualified in RUN_CONTEXT:
            return True
        if qualified.startswith(_NOT_CONTEXT_MODULES) and qualified not in _ANNOTATED:
            return False
        return None


_KWARG = {
    Ctx.CONTEXT: "takes_ctx=True",
    Ctx.PLAIN: "takes_ctx=False",
    Ctx.UNKNOWN: "takes_ctx=...",
    Ctx.INFERRED: "",
    Ctx.TOOLSET_TOOL: "",
}


def _decorated_ctx(owner: Owner, method: str) -> Ctx:
    if method == "tool_plain":
        return Ctx.PLAIN
    return Ctx.CONTEXT if owner is Owner.AGENT else Ctx.TOOLSET_TOOL


def _how(owner: Owner, method: str) -> str:
    return f"`@agent.{method}`" if owner is Owner.AGENT else f"`@toolset.{method}`"


def _argument(
    call: cst.Call, position: int | None, keyword: str | None
) -> cst.BaseExpression | None:
    positional = 0
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            if positional == position:
                return arg.value
            positional += 1
        elif keyword is not None and arg.keyword.value == keyword:
            return arg.value
    return None


def _takes_ctx(call: cst.Call) -> Ctx:
    for arg in call.args:
        if arg.star:
            return Ctx.UNKNOWN
        if arg.keyword is not None and arg.keyword.value == "takes_ctx":
            value = arg.value
            if isinstance(value, cst.Name) and value.value in ("True", "False"):
                return Ctx.CONTEXT if value.value == "True" else Ctx.PLAIN
            if isinstance(value, cst.Name) and value.value == "None":
                return Ctx.INFERRED
            return Ctx.UNKNOWN
    return Ctx.INFERRED


def recognise(module: ParsedModule, project: Project | None = None) -> PydanticAiFile:
    """The module's Pydantic AI facts, kept on the module for the rules of one parse."""
    if project is not None and project.index is not None:
        return module.remembered(
            _MEMO, (project, project.index), lambda: PydanticAiFile(module, project=project)
        )
    return module.remembered(_MEMO, (), lambda: PydanticAiFile(module))


_MEMO = "pydantic_ai.recognise"


def _local_import(function: cst.FunctionDef, name: str) -> str | None:
    """The qualified name a function's own ``from m import name`` (or ``import m as
    name``) binds, when that is its only binding of ``name``."""
    found: list[str] = []
    for node in find_indexed(function.body, cst.ImportFrom, cst.Import):
        if isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
            base = "." * len(node.relative) + (_dotted(node.module) if node.module else "")
            for alias in node.names:
                local = alias.asname.name if alias.asname is not None else alias.name
                if isinstance(local, cst.Name) and local.value == name:
                    sep = "" if base.endswith(".") or not base else "."
                    found.append(f"{base}{sep}{_dotted(alias.name)}")
        elif isinstance(node, cst.Import):
            for alias in node.names:
                asname = alias.asname.name if alias.asname is not None else None
                if isinstance(asname, cst.Name) and asname.value == name:
                    found.append(_dotted(alias.name))
    return found[0] if len(found) == 1 else None


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return node.value if isinstance(node, cst.Name) else ""
