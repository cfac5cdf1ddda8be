"""Recognition of Bedrock Converse tool loops and Strands Agents tools.

botocore 1.44's service model (``bedrock-runtime/2023-09-30/service-2.json``) is the
contract: a message is ``{"role": "user" | "assistant", "content": [block, ...]}``; the
assistant's ``{"toolUse": {"toolUseId", "name", "input"}}`` blocks are answered in the
next user message by ``{"toolResult": {"toolUseId": ..., "content": [...], "status":
...}}`` blocks, whose ``content`` is a list of ``{"json": <object>}``, ``{"text": <str>}``
(or image, document, video) blocks.

A module is checked when it imports ``boto3``, ``botocore``, ``aioboto3``,
``aiobotocore`` or ``strands``, or writes a Converse request (``X.converse(...)`` /
``X.converse_stream(...)`` with ``modelId=`` or ``messages=``: botocore's methods take
keywords only, and the client may be made in another module), or reads a ``toolUse``
block (``block["toolUse"]``, ``"toolUse" in block``, ``block.get("toolUse")``): a helper
module that answers the blocks another module receives. ``{"toolResult": ...}``
displays are Bedrock's shape wherever they are written in such a module (Strands keeps
its conversation in the same shape).

Strands tools are the functions decorated with ``strands.tool`` (``@tool``,
``@tool(...)``, ``@strands.tool``), resolved through the imports: LangChain's, CrewAI's
and a project's own ``tool`` are not Strands'.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, partial

import libcst as cst

from lint_rules import prefilter
from lint_rules.analysis import displays
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.shapes import Kind, Shape, ShapeInference
from lint_rules.frameworks.tool_function import decorated_with
from lint_rules.frameworks.tool_loops import (
    Scope,
    as_display,
    bound_to,
    collect,
    derived_from,
    dict_entry,
    display_elements,
    has_double_star,
    integer_index,
    items_reaching,
    key_read,
    keyword,
    loop_over,
    module_scopes,
    next_pick,
    search_pick,
    sent_values,
    string_value,
)

PACKAGES = ("boto3", "botocore", "aioboto3", "aiobotocore", "strands")
STRANDS_TOOLS = frozenset({"strands.tool", "strands.tools.decorator.tool", "strands.tools.tool"})
_REQUEST_METHODS = frozenset({"converse", "converse_stream"})
ROLES = frozenset({"user", "assistant", "system"})
"""``ConversationRole`` of botocore 1.44.18's service model (``system`` was added to the
enum; RULES.md lists only user and assistant: a ``system`` role is not reported)."""
STATUSES = frozenset({"success", "error"})
"""``ToolResultStatus``."""


def has_signal(source: str, path: str) -> bool:
    return prefilter.has_signal("bedrock", source, path)


def is_request(call: cst.Call) -> bool:
    """``X.converse(...)`` / ``X.converse_stream(...)`` with ``modelId=``, ``messages=`` or
    ``**kwargs``."""
    func = call.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value in _REQUEST_METHODS
        and (
            keyword(call, "modelId") is not None
            or keyword(call, "messages") is not None
            or has_double_star(call)
        )
    )


@dataclass(frozen=True)
class ToolResult:
    """One ``{"toolResult": <display>}`` block."""

    scope: Scope
    block: cst.Dict
    """The block display (``{"toolResult": ...}``)."""
    result: cst.Dict
    """The ``toolResult`` display (written there, or bound once to the name there)."""


@dataclass
class BedrockFile:
    """One module that may hold Bedrock Converse or Strands code."""

    module: ParsedModule
    project: Project | None = None
    inferences: dict[int, ShapeInference] = field(default_factory=dict)
    """One shape inference per scope (``shape_of``)."""

    @cached_property
    def is_checked(self) -> bool:
        module = self.module
        if any(module.imports_module(p) for p in PACKAGES):
            return True
        return bool(self.requests) or self.reads_tool_use

    @cached_property
    def scopes(self) -> list[Scope]:
        displays.prepare(self.module)
        return module_scopes(self.module)

    @cached_property
    def requests(self) -> list[tuple[Scope, cst.Call]]:
        found = []
        for scope in self.scopes:
            for node in collect(scope.node, cst.Call):
                if isinstance(node, cst.Call) and is_request(node):
                    found.append((scope, node))
        return found

    @cached_property
    def reads_tool_use(self) -> bool:
        """A ``toolUse`` block is read: ``x["toolUse"]``, ``x.get("toolUse")``, ``"toolUse"
        in x``."""
        for node in collect(self.module.tree, cst.SimpleString, nested=True):
            if isinstance(node, cst.SimpleString) and string_value(node) == "toolUse":
                return True
        return False

    @cached_property
    def tool_results(self) -> list[ToolResult]:
        """Every ``{"toolResult": X}`` display whose ``X`` is a dict display (or a name
        bound once in the scope to one), once each."""
        found: list[ToolResult] = []
        seen: set[int] = set()
        for scope in self.scopes:
            for node in collect(scope.node, cst.Dict):
                assert isinstance(node, cst.Dict)
                entry = dict_entry(node, "toolResult")
                if entry is None:
                    continue
                value = entry.value
                if isinstance(value, cst.Name):
                    bound = scope.value_of(value.value)
                    value = bound if bound is not None else value
                value = as_display(value)
                if isinstance(value, cst.Dict) and id(value) not in seen:
                    seen.add(id(value))
                    found.append(ToolResult(scope, node, value))
        return found

    def content_blocks(self, scope: Scope, result: cst.Dict) -> list[cst.BaseExpression]:
        """The blocks known to be in a tool result's ``content``: its display's elements,
        or those of the list a name bound once holds, with what ``append``/``extend`` add
        to it in the scope."""
        entry = dict_entry(result, "content")
        if entry is None:
            return []
        value = entry.value
        if not isinstance(value, cst.Name):
            return display_elements(value)
        bound = scope.value_of(value.value)
        if bound is None:
            return []
        blocks = display_elements(bound)
        for node in collect(scope.node, cst.Call):
            assert isinstance(node, cst.Call)
            func = node.func
            if (
                isinstance(func, cst.Attribute)
                and isinstance(func.value, cst.Name)
                and func.value.value == value.value
            ):
                blocks.extend(sent_values(node))
        return [self.value_of(scope, b) for b in blocks]

    def value_of(self, scope: Scope, node: cst.BaseExpression) -> cst.BaseExpression:
        """A name's one value in the scope, else the node."""
        if isinstance(node, cst.Name):
            bound = scope.value_of(node.value)
            if bound is not None:
                return bound
        return node

    @cached_property
    def messages_sent(self) -> list[tuple[Scope, cst.Call, cst.BaseExpression]]:
        """``(scope, request, message)`` for each message known to reach a request's
        ``messages=``."""
        found = []
        for scope, request in self.requests:
            for message in items_reaching(scope, request, "messages"):
                found.append((scope, request, message))
        return found

    # -- the loop: a response, its assistant message, its toolUse blocks

    def is_response(self, scope: Scope, name: str) -> bool:
        """Every binding of ``name`` in the scope is a Converse request's result."""
        return bound_to(scope, name, is_request)

    def message_of(self, scope: Scope, node: cst.BaseExpression) -> str | None:
        """The response whose assistant message ``node`` is: ``r["output"]["message"]``
        (or with ``.get``), or a name bound once to it."""
        if isinstance(node, cst.Name):
            bound = scope.value_of(node.value)
            node = bound if bound is not None else node
        found = key_chain(node)
        if found is None or found[1] != ("output", "message"):
            return None
        return found[0] if self.is_response(scope, found[0]) else None

    def content_of(self, scope: Scope, node: cst.BaseExpression) -> str | None:
        """The response whose assistant message's blocks ``node`` iterates:
        ``r["output"]["message"]["content"]``, ``message["content"]`` of a name bound once
        to the message, a name bound once to either, or a comprehension, ``filter`` or
        ``list`` of them."""
        return derived_from(self.module, scope, node, partial(self._content, scope))

    def _content(self, scope: Scope, node: cst.BaseExpression) -> str | None:
        if isinstance(node, cst.Name):
            bound = scope.value_of(node.value)
            if bound is None or isinstance(bound, cst.Name):
                return None
            node = bound
        found = key_chain(node)
        if found is None:
            return None
        name, keys = found
        if keys == ("output", "message", "content"):
            return name if self.is_response(scope, name) else None
        if keys == ("content",):
            return self.message_of(scope, cst.Name(name))
        return None

    def tool_use_origin(
        self, scope: Scope, node: cst.BaseExpression, anchor: cst.CSTNode, depth: int = 0
    ) -> tuple[str, bool] | None:
        """``(response, looped)`` for a ``toolUse`` block (or the content block holding
        it) of a response's message: ``looped`` when a loop or comprehension over the
        message's blocks yields it, not when one block is picked (a fixed index,
        ``next(...)``, a search loop that ``break``s)."""
        if depth > 4:
            return None
        inner = key_read(node, "toolUse")
        if inner is not None:
            return self.tool_use_origin(scope, inner, anchor, depth + 1)
        module = self.module
        if isinstance(node, cst.Name):
            iterated = loop_over(scope, node.value, anchor)
            if iterated is not None:
                if isinstance(iterated, cst.Name):
                    bound = scope.value_of(iterated.value)
                    iterated = bound if bound is not None else iterated
                if isinstance(iterated, (cst.ListComp, cst.GeneratorExp)):
                    iterated = iterated.for_in.iter
                response = self.content_of(scope, iterated)
                return (response, True) if response is not None else None
            picked = search_pick(scope, node.value, anchor, ("toolUse",))
            if picked is not None:
                response = self.content_of(scope, picked[0].iter)
                return (response, False) if response is not None else None
            bound = scope.value_of(node.value)
            if bound is None:
                return None
            return self.tool_use_origin(scope, bound, anchor, depth + 1)
        if isinstance(node, cst.Subscript) and integer_index(node):
            response = self.content_of(scope, node.value)
            return (response, False) if response is not None else None
        iterated = _next_block(module, node)
        if iterated is not None:
            response = self.content_of(scope, iterated)
            return (response, False) if response is not None else None
        return None

    def answered(self, found: ToolResult, anchor: cst.CSTNode) -> tuple[str, bool] | None:
        """``(response, looped)`` of the ``toolUse`` block a tool result answers
        (``"toolUseId": block["toolUseId"]``)."""
        entry = dict_entry(found.result, "toolUseId")
        owner = key_read(entry.value, "toolUseId") if entry is not None else None
        if owner is None:
            return None
        return self.tool_use_origin(found.scope, owner, anchor)

    @cached_property
    def strands_tools(self) -> list[cst.FunctionDef]:
        """The functions decorated with Strands' ``tool``."""
        return [found.function for found in decorated_with(self.module, STRANDS_TOOLS)]


def key_chain(node: cst.BaseExpression) -> tuple[str, tuple[str, ...]] | None:
    """``("r", ("output", "message"))`` of ``r["output"]["message"]`` (also
    ``r.get("output", {}).get("message")``): string keys read from a name."""
    keys: list[str] = []
    while True:
        if isinstance(node, cst.Name):
            return node.value, tuple(reversed(keys))
        owner = key_read_any(node)
        if owner is None:
            return None
        node, key = owner
        keys.append(key)


def key_read_any(node: cst.BaseExpression) -> tuple[cst.BaseExpression, str] | None:
    """``(X, "k")`` of ``X["k"]`` or ``X.get("k", ...)``."""
    if (
        isinstance(node, cst.Subscript)
        and len(node.slice) == 1
        and isinstance(node.slice[0].slice, cst.Index)
    ):
        key = string_value(node.slice[0].slice.value)
        return (node.value, key) if key is not None else None
    if (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "get"
        and node.args
        and node.args[0].keyword is None
        and not node.args[0].star
    ):
        key = string_value(node.args[0].value)
        return (node.func.value, key) if key is not None else None
    return None


def _next_block(module: ParsedModule, node: cst.BaseExpression) -> cst.BaseExpression | None:
    """What ``next(...)`` picks the first block of: ``X`` of ``next(b["toolUse"] for b in X
    if ...)``, else what ``tool_loops.next_pick`` finds."""
    if (
        isinstance(node, cst.Call)
        and module.is_builtin(node.func, "next")
        and node.args
        and isinstance(node.args[0].value, cst.GeneratorExp)
    ):
        generator = node.args[0].value
        target, element = generator.for_in.target, key_read(generator.elt, "toolUse")
        if (
            generator.for_in.inner_for_in is None
            and isinstance(target, cst.Name)
            and isinstance(element, cst.Name)
            and element.value == target.value
        ):
            return generator.for_in.iter
    return next_pick(module, node)


def recognise(module: ParsedModule, project: Project | None = None) -> BedrockFile:
    return module.remembered("bedrock.file", (), lambda: BedrockFile(module, project))


def shape_of(file: BedrockFile, scope: Scope, value: cst.BaseExpression) -> Shape:
    """What ``value`` is known to be where ``scope`` computes it (one inference per scope:
    it reads the function's bindings once)."""
    inference = file.inferences.get(id(scope.node))
    if inference is None:
        function = scope.node if isinstance(scope.node, cst.FunctionDef) else None
        inference = ShapeInference(file.module, function)
        file.inferences[id(scope.node)] = inference
    return inference.infer(value)


def known_kind(shape: Shape) -> str | None:
    """``a `str```, ``a dict``, … for a shape of a known scalar or container kind."""
    return _KIND_NAMES.get(shape.kind)


_KIND_NAMES = {
    Kind.STR: "a `str`",
    Kind.BYTES: "`bytes`",
    Kind.INT: "an `int`",
    Kind.FLOAT: "a `float`",
    Kind.BOOL: "a `bool`",
    Kind.NONE: "`None`",
    Kind.LIST: "a `list`",
    Kind.TUPLE: "a `tuple`",
    Kind.SET: "a `set`",
    Kind.DICT: "a dict",
}
