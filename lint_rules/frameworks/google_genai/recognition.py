"""Recognition of Google Gen AI SDK (``google-genai``) function calling.

A module is checked when it imports ``google.genai`` (``from google import genai``,
``from google.genai import types``). The SDK's own constructors are recognised through
the imports, whatever the module calls them (``types.Part.from_function_response``,
``genai.types.FunctionResponse``, ``from google.genai.types import Part``):

- *function responses*: ``Part.from_function_response(name=..., response=...)``,
  ``FunctionResponse(..., response=...)``, ``Part(function_response=...)``, and dict
  displays ``{"function_response": {...}}``;
- *function calls* (the model's, echoed back): ``Part.from_function_call(...)``,
  ``FunctionCall(...)``, ``Part(function_call=...)``, ``{"function_call": {...}}``;
- *contents*: ``types.Content(role=..., parts=[...])``;
- *automatic function calling*: the plain functions listed in a
  ``GenerateContentConfig(tools=[...])`` (or a ``config={"tools": [...]}`` display)
  whose ``automatic_function_calling`` is not disabled.

The Gemini Developer API gives function calls no ``id`` (``FunctionCall.id`` is
``None`` there), so answers cannot be matched to calls by id: rules that count answers
match them by position in the model's turn.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property

import libcst as cst

from lint_rules import prefilter
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.frameworks.tool_loops import (
    Scope,
    bound_to,
    collect,
    dict_entry,
    integer_index,
    keyword,
    module_scopes,
    string_value,
    value_in,
)

PACKAGE = "google.genai"
TYPES = "google.genai.types"


def has_signal(source: str, path: str) -> bool:
    return prefilter.has_signal("google_genai", source, path)


@dataclass
class GenaiFile:
    """One module that may hold Gemini function-calling code."""

    module: ParsedModule
    project: Project | None = None

    @cached_property
    def is_checked(self) -> bool:
        """The module imports ``google.genai``, or another module of the project lists one
        of its functions for automatic function calling (*Project facts*)."""
        return self.module.imports_module(PACKAGE) or bool(self.listed_elsewhere)

    @cached_property
    def listed_elsewhere(self) -> dict[str, str]:
        """This module's functions another module lists for automatic function calling
        (``from .tools import search`` there, ``GenerateContentConfig(tools=[search])``) →
        where (``runner.py:12``)."""
        index = self.project.index if self.project is not None else None
        found = index.registered_in(self.module.path, "google_genai") if index else {}
        return {name: str(where) for name, where in found.items()}

    @cached_property
    def scopes(self) -> list[Scope]:
        return module_scopes(self.module)

    def sdk_name(self, func: cst.BaseExpression) -> str | None:
        """``Part.from_function_response`` of a callee that resolves to
        ``google.genai.types.Part.from_function_response`` (the name after ``types.``)."""
        qualified = self.module.qualified_name(func)
        if qualified is None or not qualified.startswith(TYPES + "."):
            return None
        return qualified[len(TYPES) + 1 :]

    def calls_of(self, *names: str) -> list[tuple[Scope, cst.Call]]:
        """Every call of one of the SDK's ``names`` (``"FunctionResponse"``), with its
        scope."""
        wanted = frozenset(names)
        found = []
        for scope in self.scopes:
            for node in collect(scope.node, cst.Call):
                if isinstance(node, cst.Call) and self.sdk_name(node.func) in wanted:
                    found.append((scope, node))
        return found

    @cached_property
    def afc_functions(self) -> list[tuple[cst.FunctionDef, str]]:
        """Every function of the module automatic function calling runs, with where it is
        listed (``line 12``, or ``runner.py:12`` for another module's listing)."""
        found: dict[int, tuple[cst.FunctionDef, str]] = {}
        for function, listed in self._listings:
            line = self.module.range_of(listed).start.line
            found.setdefault(id(function), (function, f"line {line}"))
        for name, where in sorted(self.listed_elsewhere.items()):
            defined = self.module.functions.get(name)
            if defined is not None and name not in self.module.shadowed:
                found.setdefault(id(defined), (defined, where))
        return list(found.values())

    def imported_listings(self) -> list[tuple[str, str]]:
        """For the project index: ``(function, where)`` of each name listed for automatic
        function calling that the module imports (qualified as its imports spell it)."""
        found = []
        for name, listed in self._listed_names:
            if name in self.module.shadowed or name in self.module.functions:
                continue
            qualified = self.module.imports.get(name)
            if qualified is not None:
                line = self.module.range_of(listed).start.line
                found.append((qualified, f"{os.path.basename(self.module.path)}:{line}"))
        return found

    @cached_property
    def _listings(self) -> list[tuple[cst.FunctionDef, cst.CSTNode]]:
        found: list[tuple[cst.FunctionDef, cst.CSTNode]] = []
        for name, listed in self._listed_names:
            function = self.module.functions.get(name)
            if function is not None and name not in self.module.shadowed:
                found.append((function, listed))
        return found

    @cached_property
    def _listed_names(self) -> list[tuple[str, cst.Name]]:
        """The names automatic function calling calls, with the node that lists each:
        listed in the ``tools=`` of a ``GenerateContentConfig(...)`` — or of a ``{"tools":
        [...]}`` display passed as a request's or ``chats.create``'s ``config=`` — whose
        ``automatic_function_calling`` cannot disable it (``tool_loops``-style reading: a
        value that is not known is taken to disable it). Names the scope binds itself are
        not module-level functions or imports, and are left out."""
        found: list[tuple[str, cst.Name]] = []
        for scope in self.scopes:
            for node in collect(scope.node, cst.Call):
                assert isinstance(node, cst.Call)
                tools: cst.BaseExpression | None = None
                if self.sdk_name(node.func) == "GenerateContentConfig":
                    if not _afc_on(keyword(node, "automatic_function_calling")):
                        continue
                    arg = keyword(node, "tools")
                    tools = arg.value if arg is not None else None
                elif _takes_config(node):
                    config = keyword(node, "config")
                    display = config.value if config is not None else None
                    if not isinstance(display, cst.Dict) or _afc_off_entry(display):
                        continue
                    entry = dict_entry(display, "tools")
                    tools = entry.value if entry is not None else None
                for value in self._listed_functions(scope, tools):
                    if value.value not in scope.assignments and value.value not in (
                        scope.parameters
                    ):
                        found.append((value.value, value))
        return found

    def _listed_functions(self, scope: Scope, tools: cst.BaseExpression | None) -> list[cst.Name]:
        """The names a ``tools=`` value lists: a list display (or a name bound once to
        one), or ``list(REGISTRY.values())`` of a dict display of names."""
        tools = self._value(scope, tools)
        if (
            isinstance(tools, cst.Call)
            and self.module.is_builtin(tools.func, "list")
            and len(tools.args) == 1
        ):
            inner = tools.args[0].value
            if (
                isinstance(inner, cst.Call)
                and not inner.args
                and isinstance(inner.func, cst.Attribute)
                and inner.func.attr.value == "values"
            ):
                registry = self._value(scope, inner.func.value)
                if isinstance(registry, cst.Dict):
                    return [
                        e.value
                        for e in registry.elements
                        if isinstance(e, cst.DictElement) and isinstance(e.value, cst.Name)
                    ]
            return []
        if not isinstance(tools, (cst.List, cst.Tuple)):
            return []
        return [
            e.value
            for e in tools.elements
            if isinstance(e, cst.Element) and isinstance(e.value, cst.Name)
        ]

    def _value(self, scope: Scope, node: cst.BaseExpression | None) -> cst.BaseExpression | None:
        return value_in(self.module, scope, node.value) if isinstance(node, cst.Name) else node

    def is_response(self, scope: Scope, name: str) -> bool:
        """Every binding of ``name`` in ``scope`` is a request's result (``r =
        client.models.generate_content(...)``, ``r = await ...``, ``r =
        chat.send_message(...)``)."""
        return bound_to(scope, name, is_request)

    def calls_of_response(self, scope: Scope, node: cst.BaseExpression) -> str | None:
        """The response name whose function calls ``node`` is: ``r.function_calls`` of a
        response made in the scope."""
        if (
            isinstance(node, cst.Attribute)
            and node.attr.value == "function_calls"
            and isinstance(node.value, cst.Name)
            and self.is_response(scope, node.value.value)
        ):
            return node.value.value
        return None

    def model_turn_of(self, scope: Scope, node: cst.BaseExpression) -> str | None:
        """The response whose model turn ``node`` is: ``r.candidates[0].content``."""
        if not (isinstance(node, cst.Attribute) and node.attr.value == "content"):
            return None
        inner = node.value
        if not (isinstance(inner, cst.Subscript) and integer_index(inner)):
            return None
        owner = inner.value
        if (
            isinstance(owner, cst.Attribute)
            and owner.attr.value == "candidates"
            and isinstance(owner.value, cst.Name)
            and self.is_response(scope, owner.value.value)
        ):
            return owner.value.value
        return None

    def kind_of_part(self, scope: Scope, node: cst.BaseExpression, depth: int = 0) -> str | None:
        """``"call"`` or ``"response"`` for a part known to hold a function call or a
        function response: the SDK's constructors, ``Part(function_call=...)``, a dict
        display with that key, or a name bound once in the scope to one of them."""
        if isinstance(node, cst.Name) and depth < 3:
            value = scope.value_of(node.value)
            return self.kind_of_part(scope, value, depth + 1) if value is not None else None
        if isinstance(node, cst.Call):
            name = self.sdk_name(node.func)
            if name in ("Part.from_function_call", "FunctionCall"):
                return "call"
            if name in ("Part.from_function_response", "FunctionResponse"):
                return "response"
            if name == "Part":
                if keyword(node, "function_call") is not None:
                    return "call"
                if keyword(node, "function_response") is not None:
                    return "response"
            return None
        if isinstance(node, cst.Dict):
            if dict_entry(node, "function_call") is not None:
                return "call"
            if dict_entry(node, "function_response") is not None:
                return "response"
        return None


_REQUEST_METHODS = frozenset({"generate_content", "generate_content_stream", "send_message"})


def is_request(call: cst.Call) -> bool:
    """``client.models.generate_content(...)`` (``_stream``, ``client.aio.models...``), or
    a chat's ``send_message(...)`` (``send_message_stream``)."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        return False
    method = func.attr.value.removesuffix("_stream")
    if method == "generate_content":
        owner = func.value
        return isinstance(owner, cst.Attribute) and owner.attr.value == "models"
    return method == "send_message"


def recognise(module: ParsedModule, project: Project | None = None) -> GenaiFile:
    return module.remembered("google_genai.file", (), lambda: GenaiFile(module, project))


def _afc_on(arg: cst.Arg | None) -> bool:
    """``automatic_function_calling=`` unset, or set to what cannot disable it."""
    return arg is None or not _disables(arg.value)


def _afc_off_entry(config: cst.Dict) -> bool:
    """A config display's ``automatic_function_calling`` entry may disable it."""
    entry = dict_entry(config, "automatic_function_calling")
    return entry is not None and _disables(entry.value)


def _disables(value: cst.BaseExpression) -> bool:
    """Whether an ``automatic_function_calling`` value may disable automatic function
    calling: anything but an ``AutomaticFunctionCallingConfig(...)`` / display whose
    ``disable`` is absent or a literal ``False``."""
    if isinstance(value, cst.Call):
        if any(a.keyword is None for a in value.args):
            return True
        found = {a.keyword.value: a.value for a in value.args if a.keyword is not None}
    elif isinstance(value, cst.Dict):
        if any(isinstance(e, cst.StarredDictElement) for e in value.elements):
            return True
        found = {
            key: e.value
            for e in value.elements
            if isinstance(e, cst.DictElement) and isinstance(key := string_value(e.key), str)
        }
    else:
        return True
    flag = found.get("disable")
    if flag is not None and not (isinstance(flag, cst.Name) and flag.value == "False"):
        return True
    # ``maximum_remote_calls=0`` calls no function either
    calls = found.get("maximum_remote_calls")
    return calls is not None and not (isinstance(calls, cst.Integer) and int(calls.value) > 0)


def _takes_config(call: cst.Call) -> bool:
    """A request or ``chats.create(...)``, which take ``config=``."""
    func = call.func
    if is_request(call):
        return True
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "create"
        and isinstance(func.value, cst.Attribute)
        and func.value.attr.value == "chats"
    )
