"""What the OpenAI Agents SDK rules look at in one file (openai-agents 0.24.0).

Everything is recognised through imports from ``agents`` (the SDK's import
name): ``Agent`` (also ``Agent[Ctx](...)`` and the SDK's ``SandboxAgent``),
``function_tool`` and its alias ``agents.decorators.tool``,
``ToolsToFinalOutputResult``, ``StopAtTools``, ``handoff``,
``AgentOutputSchema`` and the ``ToolOutput*`` types. ``from agents import
tool`` is the ``agents.tool`` *module*, not the decorator, and is not one.
A name bound both by an import and a local definition is unknown
(``ParsedModule.shadowed``), and when the project has its own ``agents``
package or module (a first-party ``agents/``), nothing imported from
``agents`` is the SDK.

A *behaviour function* is the callable given as ``tool_use_behavior=`` to
an ``Agent(...)`` — a top-level ``def``, a ``def`` nested in the function
that builds the agent, or a ``lambda`` — or any function annotated to return
``ToolsToFinalOutputResult``. In whole-project mode the index adds the
agents of other files that use a top-level function of this file.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from lint_rules import prefilter
from lint_rules.analysis.bindings import mentions
from lint_rules.analysis.context import StatementContext
from lint_rules.analysis.index import UNKNOWN_TYPE, UNSET, AgentUse, DeclaredType, ProjectIndex
from lint_rules.analysis.literals import string_value
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.returns import FunctionFlow, ReturnSite, analyse_function
from lint_rules.analysis.shapes import (
    UNKNOWN,
    Kind,
    Shape,
    ShapeInference,
    literal,
    returned_values,
)
from lint_rules.analysis.walk import run_visitor

PACKAGE = "agents"

# Canonical names (what shapes and rules compare) of everything recognised.
AGENT = "agents.Agent"
SANDBOX_AGENT = "agents.sandbox.SandboxAgent"
FUNCTION_TOOL = "agents.function_tool"
RESULT = "agents.ToolsToFinalOutputResult"
STOP_AT_TOOLS = "agents.StopAtTools"
HANDOFF = "agents.Handoff"
OUTPUT_SCHEMA = "agents.AgentOutputSchema"
TOOL_OUTPUTS = frozenset(
    {"agents.ToolOutputText", "agents.ToolOutputImage", "agents.ToolOutputFileContent"}
)

_CANONICAL: Mapping[str, str] = {
    "agents.Agent": AGENT,
    "agents.agent.Agent": AGENT,
    "agents.sandbox.SandboxAgent": SANDBOX_AGENT,
    "agents.sandbox.sandbox_agent.SandboxAgent": SANDBOX_AGENT,
    "agents.function_tool": FUNCTION_TOOL,
    "agents.tool.function_tool": FUNCTION_TOOL,
    "agents.decorators.function_tool": FUNCTION_TOOL,
    "agents.decorators.tool": FUNCTION_TOOL,
    "agents.ToolsToFinalOutputResult": RESULT,
    "agents.agent.ToolsToFinalOutputResult": RESULT,
    "agents.StopAtTools": STOP_AT_TOOLS,
    "agents.agent.StopAtTools": STOP_AT_TOOLS,
    "agents.handoff": HANDOFF,
    "agents.handoffs.handoff": HANDOFF,
    "agents.AgentOutputSchema": OUTPUT_SCHEMA,
    "agents.agent_output.AgentOutputSchema": OUTPUT_SCHEMA,
    **{f"agents.{n}": f"agents.{n}" for n in ("ToolOutputText", "ToolOutputImage")},
    "agents.ToolOutputFileContent": "agents.ToolOutputFileContent",
    "agents.tool.ToolOutputText": "agents.ToolOutputText",
    "agents.tool.ToolOutputImage": "agents.ToolOutputImage",
    "agents.tool.ToolOutputFileContent": "agents.ToolOutputFileContent",
}
_AGENT_CLASSES = frozenset({AGENT, SANDBOX_AGENT})
# Types whose calls become instances that keep their arguments (``handoff(...)`` returns a
# ``Handoff``; ``StopAtTools`` is a TypedDict: its call is a dict, handled apart).
_FRAMEWORK_TYPES = frozenset({AGENT, SANDBOX_AGENT, RESULT, HANDOFF, *TOOL_OUTPUTS})

# Agent's dataclass fields (``dataclasses.fields(Agent)``, openai-agents 0.24.0) and the
# extra ones of ``agents.sandbox.SandboxAgent``.
AGENT_FIELDS = (
    "name",
    "handoff_description",
    "tools",
    "mcp_servers",
    "mcp_config",
    "instructions",
    "prompt",
    "handoffs",
    "model",
    "model_settings",
    "input_guardrails",
    "output_guardrails",
    "output_type",
    "hooks",
    "tool_use_behavior",
    "reset_tool_choice",
)
SANDBOX_AGENT_FIELDS = (
    *AGENT_FIELDS,
    "default_manifest",
    "base_instructions",
    "capabilities",
    "run_as",
)

# Keywords other libraries' agents take (and British spelling), and what the SDK calls them.
INTENDED_AGENT_ARGUMENTS: Mapping[str, str] = {
    "tool_use_behaviour": "tool_use_behavior",
    "output_types": "output_type",
    "output_model": "output_type",
    "response_format": "output_type",
    "system_prompt": "instructions",
    "system_message": "instructions",
    "instruction": "instructions",
    "description": "handoff_description",
    "tool": "tools",
    "functions": "tools",
    "handoff": "handoffs",
    "guardrails": "input_guardrails",
    "settings": "model_settings",
    "mcp_server": "mcp_servers",
}
# The fields whose value the TRV3xx rules read, also under a certain misspelling.
READ_THROUGH_MISSPELLING = ("tool_use_behavior", "output_type")

BEHAVIOR_STRINGS = ("run_llm_again", "stop_on_first_tool")
STOP_AT_TOOLS_KEY = "stop_at_tool_names"

_BUILTIN_TYPES = ("str", "int", "float", "bool", "dict", "list", "tuple", "set")
_TYPING_TYPES: Mapping[str, str] = {
    "typing.Dict": "dict",
    "typing.List": "list",
    "typing.Tuple": "tuple",
    "typing.Set": "set",
}
_TYPED_DICT_BASES = frozenset({"typing.TypedDict", "typing_extensions.TypedDict"})


def has_signal(source: str, path: str) -> bool:
    return prefilter.has_signal("openai_agents", source, path)


def canonical(qualified: str | None) -> str | None:
    """The SDK object a qualified name refers to, or ``None``."""
    if qualified is None:
        return None
    return _CANONICAL.get(qualified)


def sdk_name_in(module: ParsedModule, node: cst.BaseExpression) -> str | None:
    """The canonical SDK name a module-level expression refers to (no local scopes)."""
    return canonical(module.qualified_name(node))


def framework_types(module: ParsedModule) -> dict[str, str]:
    """``framework_types`` for :class:`ShapeInference`: every way this module names them."""
    names = {q: c for q, c in _CANONICAL.items() if c in _FRAMEWORK_TYPES}
    for target in module.imports.values():
        found = canonical(target)
        if found in _FRAMEWORK_TYPES:
            names[target] = found
    return names


# ------------------------------------------------------------------ model


@dataclass
class Scope:
    """A function (or the module, ``function is None``) and its value inference."""

    module: ParsedModule = field(repr=False)
    function: cst.FunctionDef | None = field(repr=False)
    inference: ShapeInference = field(repr=False)
    lambda_params: frozenset[str] = frozenset()
    """Parameters of the enclosing lambdas, whose values are unknown."""
    nested: dict[str, cst.FunctionDef] = field(default_factory=dict, repr=False)
    """``def``s directly inside this function, by name."""

    def infer(self, node: cst.BaseExpression) -> Shape:
        if self.lambda_params and mentions(node, self.lambda_params):
            if isinstance(node, cst.Name):
                return UNKNOWN
            shape = self.inference.infer(node)
            # A display's kind is certain; what its names hold is not.
            return Shape(shape.kind, open=True) if shape.kind in _DISPLAY_KINDS else UNKNOWN
        return self.inference.infer(node)


_DISPLAY_KINDS = frozenset({Kind.DICT, Kind.LIST, Kind.TUPLE, Kind.SET, Kind.STR, Kind.BOOL})


@dataclass
class ToolEntry:
    """One element of an agent's ``tools=[...]``: its node and name (``None`` if unknown)."""

    node: cst.BaseExpression = field(repr=False)
    name: str | None


@dataclass
class AgentCall:
    """One ``Agent(...)`` (or ``SandboxAgent(...)``) of the SDK."""

    call: cst.Call = field(repr=False)
    cls: str
    scope: Scope = field(repr=False)
    label: str
    has_star_arguments: bool
    keywords: dict[str, cst.Arg] = field(repr=False)
    output_type: DeclaredType = UNSET
    output_reference: str | None = None
    """The qualified name of an imported ``output_type`` class (resolved by the index)."""
    tools: list[ToolEntry] | None = None
    """``None`` when the list is not a display (or a module constant holding one)."""
    tools_complete: bool = False
    """Every tool resolved to a name, no ``*spread``, no MCP servers: names can be compared."""
    misspelled: dict[str, str] = field(default_factory=dict)
    """Field → the misspelled keyword it is passed under (``tool_use_behaviour=``) when
    TRV310's rename is certain: the rules read the value as the field's."""

    def argument(self, keyword: str, extra: frozenset[str] = frozenset()) -> cst.Arg | None:
        """The argument for field ``keyword``, also under its certain misspelling unless
        the setting ``extra`` declares that spelling a field of its own."""
        found = self.keywords.get(keyword)
        if found is None and self.misspelled.get(keyword) not in (None, *extra):
            found = self.keywords[self.misspelled[keyword]]
        return found

    def misspellings(self, *fields: str) -> tuple[str, ...]:
        """The misspelled keywords the values of ``fields`` were read under."""
        return tuple(self.misspelled[f] for f in fields if f in self.misspelled)


@dataclass
class Behaviour:
    """A behaviour function and the agents known to use it."""

    node: cst.FunctionDef | cst.Lambda = field(repr=False)
    scope: Scope = field(repr=False)
    uses: list[AgentUse] = field(default_factory=list)
    annotated: bool = False
    """Annotated to return ``ToolsToFinalOutputResult``: a behaviour whoever uses it."""

    def uses_under(self, extra: frozenset[str]) -> list[AgentUse]:
        """The uses that stand when the setting ``extra`` (``extra-agent-arguments``)
        declares some misspelled keywords real fields: a use read through one is gone."""
        return [use for use in self.uses if not extra.intersection(use.misspelled)]

    def is_behaviour_under(self, extra: frozenset[str]) -> bool:
        return self.annotated or not self.uses or bool(self.uses_under(extra))

    @property
    def name(self) -> str:
        return self.node.name.value if isinstance(self.node, cst.FunctionDef) else "<lambda>"

    @cached_property
    def returned(self) -> list[tuple[cst.CSTNode, Shape]]:
        """Each returned value (``a if c else b`` twice) with its shape; the fall-through is
        the function's name with ``None``. Empty for generators."""
        if isinstance(self.node, cst.Lambda):
            return [(e, self.scope.infer(e)) for e in returned_values(self.node.body)]
        flow = _flow(self.scope.module, self.node)
        found: list[tuple[cst.CSTNode, Shape]] = []
        for site in flow.sites:
            if site.value is None:
                node: cst.CSTNode = site.statement if site.statement is not None else self.node.name
                found.append((node, literal(Kind.NONE, None)))
                continue
            for expr in returned_values(site.value):
                found.append((expr, self.scope.infer(expr)))
        return found


@dataclass
class ResultCall:
    """One ``ToolsToFinalOutputResult(...)``; ``owner`` is the function whose own body builds it."""

    call: cst.Call = field(repr=False)
    scope: Scope = field(repr=False)
    owner: cst.FunctionDef | cst.Lambda | None = field(repr=False)
    is_final: cst.Arg | None = field(repr=False)
    final_output: cst.Arg | None = field(repr=False)
    has_star_arguments: bool = False

    def shape(self, arg: cst.Arg | None) -> Shape | None:
        return None if arg is None else self.scope.infer(arg.value)


@dataclass
class FunctionTool:
    """A function the SDK turns into a tool (``@function_tool``, ``function_tool(fn)``)."""

    node: cst.FunctionDef = field(repr=False)
    scope: Scope = field(repr=False)
    options: dict[str, cst.Arg] = field(default_factory=dict, repr=False)
    tool_name: str | None = None

    @cached_property
    def flow(self) -> FunctionFlow:
        return _flow(self.scope.module, self.node)

    @cached_property
    def returned(self) -> list[tuple[ReturnSite, cst.CSTNode, Shape]]:
        found: list[tuple[ReturnSite, cst.CSTNode, Shape]] = []
        for site in self.flow.sites:
            if site.value is None:
                node = site.statement if site.statement is not None else self.node.name
                found.append((site, node, literal(Kind.NONE, None)))
                continue
            for expr in returned_values(site.value):
                found.append((site, expr, self.scope.infer(expr)))
        return found


@dataclass
class AgentsFile:
    """Everything the TRV3xx rules check in one file."""

    module: ParsedModule = field(repr=False)
    agents: list[AgentCall] = field(default_factory=list)
    behaviours: list[Behaviour] = field(default_factory=list)
    results: list[ResultCall] = field(default_factory=list)
    tools: list[FunctionTool] = field(default_factory=list)
    cross_file_uses: list[tuple[cst.Arg, str, DeclaredType, str]] = field(default_factory=list)
    """``(tool_use_behavior=, imported name, type, label)`` for the index."""

    def behaviour_of(self, owner: cst.CSTNode | None) -> Behaviour | None:
        for behaviour in self.behaviours:
            if behaviour.node is owner:
                return behaviour
        return None

    @property
    def is_empty(self) -> bool:
        return not (self.agents or self.behaviours or self.results or self.tools)


def recognise(module: ParsedModule, project: Project | None = None) -> AgentsFile:
    """The agents, tools and behaviours of a module, kept on the module for its project
    and index: the index facts, the rules and the TRV9xx rules of one parse share it."""
    index = project.index if project is not None else None
    return module.remembered(_MEMO, (project, index), lambda: _recognise(module, project, index))


_MEMO = "openai_agents.recognise"
_IMPORT_PATH_CHANGES = ("sys.path.insert", "sys.path.append", "site.addsitedir")


def _imports_from_elsewhere(module: ParsedModule) -> bool:
    """The module puts a literal directory on the import path (``sys.path.insert(0,
    "/tmp/anthropic-quickstarts")``): its ``agents`` may be another checkout's package.
    A computed one (``os.path.dirname(__file__)``, the script's own folder) is how
    scripts import their siblings, and leaves the SDK the SDK."""
    for call in module.calls_to(*_IMPORT_PATH_CHANGES):
        if any(
            isinstance(arg.value, (cst.SimpleString, cst.ConcatenatedString)) for arg in call.args
        ):
            return True
    return False


def _recognise(
    module: ParsedModule, project: Project | None, index: ProjectIndex | None
) -> AgentsFile:
    result = AgentsFile(module)
    named = index is not None and index.names_file("openai_agents", module.path)
    imports_sdk = module.imports_module(PACKAGE)
    if imports_sdk and project is not None and project.is_first_party(module.path, PACKAGE):
        imports_sdk = False  # the project's own ``agents`` package: not the SDK
    if imports_sdk and _imports_from_elsewhere(module):
        # ``sys.path.insert(0, "/tmp/anthropic-quickstarts")`` before ``from agents.agent
        # import Agent`` (Anthropic's cookbook): which ``agents`` is imported is not known
        imports_sdk = False
    if not imports_sdk and not named:
        return result
    finder = _Finder(module, result, index, sdk=imports_sdk)
    if imports_sdk:
        run_visitor(module.tree, finder)
        finder.finish()
    if index is not None:
        finder.add_cross_file_uses(index.uses_in(module.path))
    return result


# ------------------------------------------------------------------ internals


def _flow(module: ParsedModule, function: cst.FunctionDef) -> FunctionFlow:
    return analyse_function(function, module)


def _keywords(call: cst.Call) -> tuple[dict[str, cst.Arg], bool]:
    keywords: dict[str, cst.Arg] = {}
    star = False
    for arg in call.args:
        if arg.star:
            star = True
        elif arg.keyword is not None:
            keywords.setdefault(arg.keyword.value, arg)
    return keywords, star


def _string(node: cst.BaseExpression | None) -> str | None:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = string_value(node)
        return value if isinstance(value, str) else None
    return None


def _is_none(node: cst.BaseExpression | None) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _root(node: cst.BaseExpression) -> cst.Name | None:
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node if isinstance(node, cst.Name) else None


class _Finder(StatementContext):
    """One walk: agents, behaviour functions, results, function tools (``StatementContext``:
    calls inside ``with pytest.raises(...)`` are skipped, ``x = Agent(...)`` targets kept)."""

    def __init__(
        self, module: ParsedModule, result: AgentsFile, index: ProjectIndex | None, *, sdk: bool
    ) -> None:
        super().__init__(module)
        self.result = result
        self.index = index
        self.sdk = sdk
        self.types = framework_types(module)
        self.module_scope = Scope(module, None, ShapeInference(module, None, self.types))
        self.stack: list[tuple[cst.FunctionDef | cst.Lambda, Scope]] = []
        self.scopes: dict[int, Scope] = {}
        self.pending_behaviours: list[tuple[AgentCall, cst.BaseExpression]] = []
        self.rebound: dict[str, bool] = {}
        self.tool_calls: dict[str, tuple[cst.Call, Scope]] = {}
        """Top-level function name → ``function_tool(fn, ...)`` call that wraps it."""

    # -- names

    def sdk_name(self, node: cst.BaseExpression) -> str | None:
        """The canonical SDK name ``node`` refers to, unless rebound where it is used."""
        if not self.sdk:
            return None
        found = canonical(self.module.qualified_name(node))
        if found is None:
            return None  # cheap test first: most calls are not the SDK's
        root = _root(node)
        if root is None or self._bound_locally(root.value):
            return None
        return found

    def _bound_locally(self, name: str) -> bool:
        if not self.stack or not self._maybe_rebound(name):
            return False
        for node, scope in reversed(self.stack):
            if isinstance(node, cst.Lambda):
                if name in scope.lambda_params:
                    return True
                continue
            if scope.inference.local_name_is_bound(name):
                return True
        return False

    def _maybe_rebound(self, name: str) -> bool:
        """Whether a line of the file could bind ``name`` inside a function (a cheap text
        test that spares the binding analysis of every function for names no function
        rebinds: assignments, ``def``/``class``/``as``/``for`` targets, imports, parameters
        of a signature, on its line or a line of their own, and of a lambda). It may say
        yes for a line that binds nothing (the binding analysis then answers); it must
        never say no for a line that binds ``name``."""
        known = self.rebound.get(name)
        if known is None:
            n = re.escape(name)
            pattern = re.compile(
                "|".join(
                    (
                        rf"^[ \t]+{n}\s*(?::[^=\n]*)?(?:[-+*/%&|^@]|//|>>|<<|\*\*)?=(?!=)",
                        rf"^[ \t]+\w+(?:[ \t]*,[ \t]*\w+)*[ \t]*,[ \t]*{n}\b[^=\n]*=(?!=)",
                        rf"\b(?:def|class|as|for|global|nonlocal)\s+{n}\b",
                        rf"^[ \t]+(?:from\s+\S+\s+)?import\b[^\n]*\b{n}\b",
                        rf"\b{n}\s*:=",
                        rf"\bdef\s+\w+\s*\([^)]*\b{n}\b",
                        # A parameter on a line of its own in a long signature.
                        rf"^[ \t]*\*{{0,2}}{n}\b[ \t]*(?:[:,)=]|$)",
                        rf"\blambda\b[^:\n]*\b{n}\b",
                    )
                ),
                re.MULTILINE,
            )
            known = self.rebound[name] = pattern.search(self.module.source) is not None
        return known

    @property
    def scope(self) -> Scope:
        return self.stack[-1][1] if self.stack else self.module_scope

    @property
    def owner(self) -> cst.FunctionDef | cst.Lambda | None:
        return self.stack[-1][0] if self.stack else None

    # -- scopes

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        outer = self.scope
        if self.stack and isinstance(self.stack[-1][0], cst.FunctionDef):
            outer.nested.setdefault(node.name.value, node)
        scope = Scope(self.module, node, ShapeInference(self.module, node, self.types))
        self.scopes[id(node)] = scope
        tool_options = self._function_tool_decorator(node)
        if tool_options is not None:
            self.result.tools.append(FunctionTool(node, scope, tool_options))
        if self._returns_result(node):
            self._add_behaviour(node, scope).annotated = True
        self.stack.append((node, scope))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        params = frozenset(
            p.name.value
            for p in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)
        )
        outer = self.scope
        scope = Scope(
            self.module,
            outer.function,
            outer.inference,
            lambda_params=outer.lambda_params | params,
        )
        self.scopes[id(node)] = scope
        self.stack.append((node, scope))

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self.stack.pop()

    # -- calls

    def visit_Call(self, node: cst.Call) -> None:
        if self.expecting_errors:
            return  # ``with pytest.raises(TypeError): Agent(tool_use_behavior=123)``
        func = node.func
        if isinstance(func, cst.Subscript):  # Agent[Context](...)
            func = func.value
        found = self.sdk_name(func)
        if found in _AGENT_CLASSES:
            self._agent(node, found)
        elif found == RESULT and not isinstance(node.func, cst.Subscript):
            self._result(node)
        elif found == FUNCTION_TOOL and node.args and node.args[0].keyword is None:
            first = node.args[0].value
            if isinstance(first, cst.Name) and not node.args[0].star:
                self.tool_calls.setdefault(first.value, (node, self.scope))

    def _agent(self, node: cst.Call, cls: str) -> None:
        keywords, star = _keywords(node)
        fields = SANDBOX_AGENT_FIELDS if cls == SANDBOX_AGENT else AGENT_FIELDS
        renames = certain_renames(keywords, fields)
        agent = AgentCall(
            call=node,
            cls=cls,
            scope=self.scope,
            label=self._label(node, keywords),
            has_star_arguments=star,
            keywords=keywords,
            misspelled={
                target: keyword
                for keyword, target in renames.items()
                if target in READ_THROUGH_MISSPELLING
            },
        )
        agent.output_type, agent.output_reference = self._output_type(agent.argument("output_type"))
        self._tools(agent)
        self.result.agents.append(agent)
        behaviour = agent.argument("tool_use_behavior")
        if behaviour is not None:
            self.pending_behaviours.append((agent, behaviour.value))

    def _label(self, node: cst.Call, keywords: Mapping[str, cst.Arg]) -> str:
        name_arg = keywords.get("name")
        if name_arg is None and node.args and node.args[0].keyword is None:
            name_arg = node.args[0]
        name = _string(name_arg.value) if name_arg is not None else None
        if name is not None:
            return f'agent "{name}"'
        variable = self.assigned_to(node)
        return f"agent `{variable}`" if variable else "the agent"

    def _result(self, node: cst.Call) -> None:
        keywords, star = _keywords(node)
        positional = [a for a in node.args if a.keyword is None and not a.star]
        is_final = keywords.get("is_final_output") or (positional[0] if positional else None)
        final = keywords.get("final_output") or (positional[1] if len(positional) > 1 else None)
        self.result.results.append(
            ResultCall(
                call=node,
                scope=self.scope,
                owner=self.owner,
                is_final=is_final,
                final_output=final,
                has_star_arguments=star,
            )
        )

    # -- function tools

    def _function_tool_decorator(self, node: cst.FunctionDef) -> dict[str, cst.Arg] | None:
        for decorator in node.decorators:
            expr = decorator.decorator
            if isinstance(expr, cst.Call):
                if self.sdk_name(expr.func) == FUNCTION_TOOL:
                    return _keywords(expr)[0]
            elif self.sdk_name(expr) == FUNCTION_TOOL:
                return {}
        return None

    def _returns_result(self, node: cst.FunctionDef) -> bool:
        if node.returns is None:
            return False
        annotation = node.returns.annotation
        if isinstance(annotation, cst.SimpleString):
            text = _string(annotation)
            if text is None or not text.isidentifier():
                return False
            return canonical(self.module.imports.get(text)) == RESULT and text not in (
                self.module.shadowed
            )
        return self.sdk_name(annotation) == RESULT

    # -- tools of an agent

    def _tools(self, agent: AgentCall) -> None:
        arg = agent.keywords.get("tools")
        if arg is None:
            return
        value = arg.value
        if isinstance(value, cst.Name) and not self._bound_locally(value.value):
            constant = self.module.constants.get(value.value)
            value = constant if constant is not None else value
        if not isinstance(value, (cst.List, cst.Tuple)):
            return
        entries: list[ToolEntry] = []
        complete = not agent.has_star_arguments
        for element in value.elements:
            if isinstance(element, cst.StarredElement):
                complete = False
                continue
            name = self._tool_name(element.value)
            complete = complete and name is not None
            entries.append(ToolEntry(element.value, name))
        servers = agent.keywords.get("mcp_servers")
        if servers is not None and not (
            isinstance(servers.value, (cst.List, cst.Tuple)) and not servers.value.elements
        ):
            complete = False
        agent.tools = entries
        agent.tools_complete = complete

    def _tool_name(self, node: cst.BaseExpression) -> str | None:
        """The name the SDK gives a tool: ``name_override`` or the function's name."""
        if isinstance(node, cst.Name):
            if self._bound_locally(node.value) or node.value in self.module.shadowed:
                return None
            function = self.module.functions.get(node.value)
            if function is not None:
                options = self._function_tool_decorator(function)
                return None if options is None else _override(options, function.name.value)
            constant = self.module.constants.get(node.value)
            if isinstance(constant, cst.Call):
                return self._tool_name(constant)
            return None
        if isinstance(node, cst.Call):
            if self.sdk_name(node.func) == FUNCTION_TOOL and node.args:
                first = node.args[0]
                if first.keyword is None and isinstance(first.value, cst.Name):
                    return _override(_keywords(node)[0], first.value.value)
                return None
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "as_tool":
                keywords, _ = _keywords(node)
                name_arg = keywords.get("tool_name")
                if name_arg is None and node.args and node.args[0].keyword is None:
                    name_arg = node.args[0]
                return _string(name_arg.value) if name_arg is not None else None
        return None

    # -- output types

    def _output_type(self, arg: cst.Arg | None) -> tuple[DeclaredType, str | None]:
        if arg is None or _is_none(arg.value):
            return UNSET, None
        declared, reference = declared_type(self.module, arg.value, self.sdk_name)
        if reference is None:
            return declared, None
        resolved = None
        if self.index is not None:
            resolved = self.index.resolved_type(self.module.path, reference)
        if resolved is None:
            return DeclaredType("unknown", declared.display), reference
        kind, identity, item = resolved.kind, resolved.identity, resolved.item
        if kind in ("unset", "str"):
            kind = "unknown"
        return DeclaredType(kind, declared.display, identity, item), reference

    # -- behaviours

    def _add_behaviour(self, node: cst.FunctionDef | cst.Lambda, scope: Scope) -> Behaviour:
        existing = self.result.behaviour_of(node)
        if existing is not None:
            return existing
        behaviour = Behaviour(node, scope)
        self.result.behaviours.append(behaviour)
        return behaviour

    def finish(self) -> None:
        """After the walk: pair agents with behaviour functions, add ``function_tool(fn)``s."""
        decorated = {id(tool.node) for tool in self.result.tools}
        for name, (call, _scope) in self.tool_calls.items():
            function = self.module.functions.get(name)
            if function is None or name in self.module.shadowed or id(function) in decorated:
                continue
            scope = self.scopes.get(id(function))
            if scope is not None:
                self.result.tools.append(FunctionTool(function, scope, _keywords(call)[0]))
                decorated.add(id(function))
        self.pair_behaviours()

    def pair_behaviours(self) -> None:
        for agent, value in self.pending_behaviours:
            node = self._behaviour_node(agent, value)
            if node is None:
                reference = self._imported_reference(agent, value)
                if reference is not None:
                    arg = agent.argument("tool_use_behavior")
                    assert arg is not None
                    self.result.cross_file_uses.append(
                        (arg, reference, agent.output_type, agent.label)
                    )
                continue
            scope = self.scopes.get(id(node))
            if scope is None:
                continue
            behaviour = self._add_behaviour(node, scope)
            misspelled = agent.misspellings("tool_use_behavior", "output_type")
            behaviour.uses.append(AgentUse(agent.label, agent.output_type, misspelled=misspelled))

    def _behaviour_node(
        self, agent: AgentCall, value: cst.BaseExpression
    ) -> cst.FunctionDef | cst.Lambda | None:
        if isinstance(value, cst.Lambda):
            return value
        if not isinstance(value, cst.Name):
            return None
        name = value.value
        function = agent.scope.function
        if function is not None and agent.scope.inference.local_name_is_bound(name):
            return agent.scope.nested.get(name)  # a nested def (else a local: unknown)
        if name in self.module.shadowed:
            return None
        return self.module.functions.get(name)

    def _imported_reference(self, agent: AgentCall, value: cst.BaseExpression) -> str | None:
        root = _root(value)
        if root is None or isinstance(value, cst.Subscript):
            return None
        if agent.scope.function is not None and agent.scope.inference.local_name_is_bound(
            root.value
        ):
            return None
        qualified = self.module.qualified_name(value)
        if qualified is None or qualified == PACKAGE or qualified.startswith(PACKAGE + "."):
            return None
        return qualified

    def add_cross_file_uses(self, uses: Mapping[str, list[AgentUse]]) -> None:
        for name, agents in uses.items():
            function = self.module.functions.get(name)
            if function is None or name in self.module.shadowed:
                continue
            scope = self.scopes.get(id(function))
            if scope is None:
                scope = Scope(
                    self.module, function, ShapeInference(self.module, function, self.types)
                )
                self.scopes[id(function)] = scope
            behaviour = self._add_behaviour(function, scope)
            behaviour.uses.extend(agents)


def _override(options: Mapping[str, cst.Arg], default: str) -> str | None:
    arg = options.get("name_override")
    if arg is None or _is_none(arg.value):
        return default
    return _string(arg.value)


def declared_type(
    module: ParsedModule,
    node: cst.BaseExpression,
    sdk_name: Callable[[cst.BaseExpression], str | None],
) -> tuple[DeclaredType, str | None]:
    """``output_type=`` as a :class:`DeclaredType`; for an imported class, also its
    qualified name (the index resolves it: ``kind`` is then a placeholder)."""
    display = module.code_for(node).strip()
    if isinstance(node, cst.Call) and sdk_name(node.func) == OUTPUT_SCHEMA:
        if not node.args or node.args[0].keyword is not None or node.args[0].star:
            return DeclaredType("unknown", display), None
        inner, reference = declared_type(module, node.args[0].value, sdk_name)
        if inner.kind in ("unset", "str"):
            # AgentOutputSchema(str) is not ``str``: the runner passes values through.
            return DeclaredType("unknown", display), None
        return DeclaredType(inner.kind, display, inner.identity, inner.item), reference
    item: str | None = None
    base = node
    if isinstance(node, cst.Subscript):
        base = node.value
        elements = node.slice
        if len(elements) == 1 and isinstance(elements[0].slice, cst.Index):
            inner_node = elements[0].slice.value
            if (
                isinstance(inner_node, cst.Name)
                and module.is_builtin(inner_node, inner_node.value)
                and inner_node.value in ("str", "int", "float", "bool")
            ):
                item = inner_node.value
    if isinstance(base, cst.Name) and module.is_builtin(base, base.value):
        if base.value in _BUILTIN_TYPES:
            kind = base.value
            if kind in ("str", "int", "float", "bool") and base is not node:
                return DeclaredType("unknown", display), None
            return DeclaredType(kind, display, item=item if kind in ("list", "set") else None), None
        return DeclaredType("unknown", display), None
    qualified = module.qualified_name(base)
    if qualified is not None and qualified in _TYPING_TYPES:
        kind = _TYPING_TYPES[qualified]
        return DeclaredType(kind, display, item=item if kind in ("list", "set") else None), None
    if base is not node:
        return DeclaredType("unknown", display), None
    if isinstance(node, cst.Name) and node.value in module.classes:
        if node.value in module.shadowed:
            return DeclaredType("unknown", display), None
        kind = class_kind(module, node.value)
        identity = f"{module.path}::{node.value}" if kind == "class" else None
        return DeclaredType(kind, display, identity), None
    if qualified is not None and not qualified.startswith(("typing", "pydantic", PACKAGE + ".")):
        return DeclaredType("unknown", display), qualified
    return DeclaredType("unknown", display), None


def class_kind(module: ParsedModule, name: str, seen: frozenset[str] = frozenset()) -> str:
    """``class`` when instances are certainly no builtin value (a pydantic model, a dataclass
    or plain class with known bases), ``typeddict``, else ``unknown``."""
    cls = module.classes.get(name)
    if cls is None or name in seen or name in module.shadowed:
        return "unknown"
    if any(k.keyword is not None for k in cls.keywords) and not _only_total(cls):
        return "unknown"  # a metaclass may make anything of it
    kinds = set()
    for base in cls.bases:
        if base.star or base.keyword is not None:
            return "unknown"
        qualified = module.qualified_name(base.value)
        if qualified in _TYPED_DICT_BASES:
            kinds.add("typeddict")
        elif qualified in ("pydantic.BaseModel", "pydantic.main.BaseModel"):
            kinds.add("class")
        elif isinstance(base.value, cst.Name) and base.value.value in module.classes:
            kinds.add(class_kind(module, base.value.value, seen | {name}))
        elif isinstance(base.value, cst.Name) and module.is_builtin(base.value, "object"):
            kinds.add("class")
        else:
            return "unknown"
    if not kinds:
        return "class"
    return kinds.pop() if len(kinds) == 1 else "unknown"


def _only_total(cls: cst.ClassDef) -> bool:
    return all(k.keyword is None or k.keyword.value == "total" for k in cls.keywords)


def instance_identity(module: ParsedModule, shape: Shape) -> str | None:
    """``path::Name`` of a local class instance, for comparing with a declared class."""
    if shape.kind is Kind.INSTANCE and shape.local_class is not None:
        return f"{module.path}::{shape.local_class.name.value}"
    return None


def certain_renames(
    keywords: Mapping[str, cst.Arg], fields: tuple[str, ...], extra: frozenset[str] = frozenset()
) -> dict[str, str]:
    """Keyword → field for the unknown keywords TRV310 renames: a suggestion exists, no
    other unknown keyword suggests the same field, and the field is not passed too."""
    known = frozenset(fields) | extra
    unknown = [k for k in keywords if k not in known]
    targets = [suggest(k, fields, INTENDED_AGENT_ARGUMENTS) for k in unknown]
    return {
        keyword: target
        for keyword, target in zip(unknown, targets, strict=True)
        if target is not None and targets.count(target) == 1 and target not in keywords
    }


def suggest(word: str, choices: tuple[str, ...], intended: Mapping[str, str]) -> str | None:
    found = intended.get(word.lower())
    if found is not None:
        return found
    matches = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return matches[0] if matches else None


__all__ = [
    "AGENT_FIELDS",
    "BEHAVIOR_STRINGS",
    "SANDBOX_AGENT_FIELDS",
    "STOP_AT_TOOLS_KEY",
    "UNKNOWN_TYPE",
    "AgentCall",
    "AgentsFile",
    "Behaviour",
    "FunctionTool",
    "ResultCall",
    "certain_renames",
    "recognise",
]
