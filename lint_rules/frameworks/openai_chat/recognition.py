"""Recognition of hand-written Chat Completions tool loops, and the flow facts the rules use.

A module is checked when it imports ``openai`` (or a client named in
``[tool.toolret.openai-chat] extra-clients``, such as ``groq`` or
``litellm``). The facts are deliberately simple and certain:

- *tool messages*: dict displays whose literal ``"role"`` is ``"tool"``;
- *tool_calls expressions*: an attribute ``<message>.tool_calls`` (or a local
  name assigned once from one), with the message it belongs to written
  canonically (a local alias ``message = response.choices[0].message`` is
  replaced by its value, so both spellings compare equal);
- *loops* over those ``tool_calls``, what they append, and what they answer;
- *requests*: ``<client>.chat.completions.create(...)`` (and ``.parse``), or
  ``litellm.completion(...)``, with their ``messages=``, ``tools=`` and
  ``parallel_tool_calls=`` arguments;
- *schemas* (dict schemas and ``pydantic_function_tool``) reachable from
  ``tools=`` and *registries* (dict literals used to dispatch, or
  ``globals()`` dispatch).

Everything that cannot be told for certain is left unknown, and the rules say
nothing about it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from lint_rules import prefilter
from lint_rules.analysis.displays import prepare as prepare_displays
from lint_rules.analysis.index import ChatUse, ProjectIndex
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat.clients import (
    CLIENTS,
    COMPATIBLE,
    Contract,
    contract_of,
)
from lint_rules.frameworks.tool_loops import Scope as LoopScope
from lint_rules.frameworks.tool_loops import (
    appended_value,
    collect,
    dict_entry,
    display_elements,
    fixed_call_id,
    has_double_star,
    has_spread,
    is_first_index,
    keyword,
    literal_entry,
    project_client,
    scope_roots,
    sent_values,
    string_value,
)

__all__ = [
    "ChatFile",
    "Scope",
    "appended_value",
    "collect",
    "dict_entry",
    "display_elements",
    "fixed_call_id",
    "has_double_star",
    "has_spread",
    "is_first_index",
    "keyword",
    "recognise",
    "sent_values",
    "string_value",
]

PACKAGE = "openai"
PYDANTIC_FUNCTION_TOOL = frozenset(
    {"openai.pydantic_function_tool", "openai.lib._tools.pydantic_function_tool"}
)
_REQUEST_METHODS = frozenset({"create", "parse", "acreate"})
_CLIENT_FUNCTIONS = frozenset({"completion", "acompletion"})  # litellm.completion(...)
_MISTRAL_METHODS = frozenset({"complete", "complete_async", "stream", "stream_async"})
_FUNCTION_REQUESTS = frozenset(
    {"litellm.completion", "litellm.acompletion", "ollama.chat", "ollama.AsyncClient.chat"}
)
_ID_RULES = frozenset({"TRV405", "TRV406", "TRV407", "TRV408", "TRV409", "TRV410"})
"""The rules about answering every call by its id: Ollama's calls have none."""
_DUMP_METHODS = frozenset({"model_dump", "to_dict", "dict", "model_dump_json"})
_SCOPE_NODE_CLASSES: tuple[type[cst.CSTNode], ...] = (cst.Dict, cst.Call, cst.For, cst.Subscript)
"""The nodes of each scope the recognition looks at (``ChatFile.nodes``)."""


def has_signal(source: str, path: str, settings: Settings | None = None) -> bool:
    extra = prefilter.extra_imports_of("openai_chat", settings)
    return prefilter.has_signal("openai_chat", source, path, extra_imports=extra)


# ------------------------------------------------------------------ messages


def is_tool_message(node: cst.CSTNode) -> bool:
    return literal_entry(node, "role") == "tool"


def is_assistant_message(node: cst.CSTNode) -> bool:
    return literal_entry(node, "role") == "assistant"


# ------------------------------------------------------------------ per function


@dataclass
class Scope(LoopScope):
    """A scope of a Chat Completions file, with what tells a message's ``tool_calls``."""

    file: ChatFile

    def tool_calls_of(self, node: cst.BaseExpression, depth: int = 0) -> str | None:
        """The canonical message whose ``tool_calls`` this expression is, if it is one."""
        if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or):
            return self.tool_calls_of(node.left, depth)
        if isinstance(node, cst.Attribute) and node.attr.value == "tool_calls":
            return self.canonical(node.value)
        if (
            isinstance(node, cst.Subscript)
            and len(node.slice) == 1
            and isinstance(node.slice[0].slice, cst.Index)
            and string_value(node.slice[0].slice.value) == "tool_calls"
        ):
            return self.canonical(node.value)
        if depth < 4 and isinstance(node, cst.Name):
            value = self.value_of(node.value)
            if value is not None:
                return self.tool_calls_of(value, depth + 1)
        return None

    def message_of(self, node: cst.BaseExpression) -> str | None:
        """The canonical assistant message an appended expression is (``message``,
        ``message.model_dump()``, ``dict(message)``), if it is one of those forms."""
        if isinstance(node, cst.Call):
            func = node.func
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value in _DUMP_METHODS
                and func.attr.value != "model_dump_json"
            ):
                return self.canonical(func.value)
            if (
                self.file.module.is_builtin(func, "dict")
                and len(node.args) == 1
                and not node.args[0].star
            ):
                return self.canonical(node.args[0].value)
            return None
        if isinstance(node, (cst.Name, cst.Attribute, cst.Subscript)):
            return self.canonical(node)
        return None

    def carries_all_calls(self, node: cst.BaseExpression) -> str | None:
        """The message whose whole ``tool_calls`` an appended value carries, if certain."""
        if isinstance(node, cst.Dict):
            if not is_assistant_message(node):
                return None
            entry = dict_entry(node, "tool_calls")
            if entry is None:
                return None
            return self.tool_calls_of(entry.value)
        return self.message_of(node)


def answered_id(
    scope: Scope, message: cst.Dict
) -> tuple[cst.DictElement, cst.BaseExpression] | None:
    """A tool message's ``tool_call_id`` entry and the value it reads, a name assigned
    once in ``scope`` replaced by that value (``call_id = call.id``)."""
    entry = dict_entry(message, "tool_call_id")
    if entry is None:
        return None
    value = entry.value
    if isinstance(value, cst.Name):
        alias = scope.value_of(value.value)
        value = alias if alias is not None else value
    return entry, value


# ------------------------------------------------------------------ loops


@dataclass
class ToolCallsLoop:
    """A ``for`` loop over a message's ``tool_calls``, or over a name (a parameter, a
    name bound more than once) whose tool messages answer ``<loop variable>.id``; also
    through the builtin ``enumerate`` (``for i, call in enumerate(...)``: ``call``)."""

    node: cst.For
    scope: Scope
    message: str | None
    """The canonical message whose ``tool_calls`` are iterated; ``None`` when only the
    answers tell that the loop is over tool calls (whose, is not known)."""
    variable: str | None

    @cached_property
    def tool_messages(self) -> list[cst.Dict]:
        return [
            n
            for n in collect(self.node.body, cst.Dict)
            if isinstance(n, cst.Dict) and is_tool_message(n)
        ]

    @property
    def is_answer_loop(self) -> bool:
        return bool(self.tool_messages)


# ------------------------------------------------------------------ schemas, registries


@dataclass
class Schema:
    """One tool schema: its name (and the node that spells it) and its fields, if known."""

    name: str | None
    name_node: cst.CSTNode
    properties: tuple[str, ...] | None = None
    required: tuple[str, ...] | None = None


@dataclass
class Registry:
    """A dict literal ``{"name": function, ...}`` used to dispatch tool calls (or globals())."""

    name: str
    node: cst.Dict | None
    entries: list[tuple[str, cst.BaseExpression, cst.BaseExpression]]
    """``(key, key node, value node)`` for every entry with a literal key."""
    closed: bool
    complete: bool
    """Every key is a literal (no ``**spread``, no computed key)."""
    dispatches: list[cst.Call] = field(default_factory=list)
    """``fn(**args)`` calls of registered functions."""
    guarded: bool = False
    """A missing tool is handled (``in`` test, ``.get`` with a default, ``None`` check,
    a ``try`` whose handler catches the ``KeyError``): an "unknown tool" reply, not a
    crash."""
    is_globals: bool = False
    imported: str | None = None
    """The qualified name of a registry imported from another module (its entries are
    there: the project index knows them, flake8 does not)."""


@dataclass(frozen=True)
class FirstCallHelper:
    """A same-module function that answers only the first call of what it is given."""

    function: cst.FunctionDef
    position: int | None
    """The parameter's position for a positional argument (``None``: keyword only)."""
    parameter: str
    given: str
    """``"message"`` (it reads ``p.tool_calls[0]``) or ``"tool_calls"`` (``p[0]``)."""


@dataclass(frozen=True)
class Signature:
    """What ``fn(**args)`` needs of a function: the keyword names it accepts, the
    parameters it requires, whether it takes ``**kwargs``, whether it is decorated."""

    accepted: tuple[str, ...]
    required: tuple[str, ...]
    kwargs: bool
    decorated: bool

    @classmethod
    def of(cls, function: cst.FunctionDef) -> Signature:
        params = function.params
        return cls(
            accepted=tuple(p.name.value for p in (*params.params, *params.kwonly_params)),
            required=tuple(
                p.name.value
                for p in (*params.posonly_params, *params.params, *params.kwonly_params)
                if p.default is None
            ),
            kwargs=isinstance(params.star_kwarg, cst.Param),
            decorated=bool(function.decorators),
        )

    def to_json(self) -> list[object]:
        return [list(self.accepted), list(self.required), self.kwargs, self.decorated]

    @classmethod
    def from_json(cls, raw: object) -> Signature | None:
        if not isinstance(raw, list) or len(raw) != 4:
            return None
        accepted, required, kwargs, decorated = raw
        return cls(tuple(accepted), tuple(required), bool(kwargs), bool(decorated))

    def mismatch(self, name: str | None, properties: Sequence[str]) -> str | None:
        """Why ``fn(**args)`` with a schema's fields raises ``TypeError``, if it does."""
        if self.kwargs:
            return None
        for field_name in properties:
            if field_name not in self.accepted:
                return (
                    f"does not accept `{field_name}`, a field of tool `{name}`'s schema: "
                    "`TypeError` when the model passes it"
                )
        for param in self.required:
            if param not in properties:
                return (
                    f"requires `{param}`, which tool `{name}`'s schema does not have: "
                    "`TypeError: missing argument` on every call"
                )
        return None


# ------------------------------------------------------------------ the file


@dataclass
class ChatFile:
    """One module that may hold a Chat Completions tool loop."""

    module: ParsedModule
    project: Project | None = None

    def is_checked(self, settings: Settings) -> bool:
        """Whether the module imports ``openai`` or a configured extra client, or a
        request's client is one made in another module of the project (``client =
        get_client()`` with ``get_client`` in ``llm.py``)."""
        if self.module.imports_module(PACKAGE):
            return True
        clients = self.clients(settings)
        if any(self.module.imports_module(name) for name in clients[1:]):
            return True
        return self._project_clients(clients)

    def _project_clients(self, clients: tuple[str, ...]) -> bool:
        key = ("chat.project-clients", clients)
        known = self.module.memo.get(str(key))
        if known is None:
            known = self.module.memo[str(key)] = any(
                project_client(self.module, call, 3, clients)
                for call in self.module.index.find(self.module.tree, (cst.Call,), nested=True)
                if isinstance(call, cst.Call) and _completions_request(call)
            )
        return bool(known)

    def clients(self, settings: Settings) -> tuple[str, ...]:
        return (PACKAGE, *COMPATIBLE, *settings.openai_chat.extra_clients)

    @cached_property
    def contract(self) -> Contract:
        """The contract of the client the module imports (``openai_chat.clients``)."""
        return contract_of({name for name in CLIENTS if self.module.imports_module(name)})

    def checks(self, code: str, settings: Settings) -> bool:
        """Whether rule ``code`` applies to this module: it is checked, and the rule's
        mistake is one for the module's client (Ollama's calls have no ids to answer;
        TRV411 is Ollama's alone)."""
        if not self.is_checked(settings):
            return False
        if code == "TRV411":
            return self.contract is CLIENTS["ollama"]
        return self.contract.ids or code not in _ID_RULES

    # -- whole-project facts (``toolret check``'s index; flake8 has none)

    @property
    def index(self) -> ProjectIndex | None:
        return self.project.index if self.project is not None else None

    def registry_uses(self, settings: Settings) -> dict[str, list[ChatUse]]:
        """This module's registries dispatched by loops of other files (that import one
        of the configured clients)."""
        if self.index is None:
            return {}
        clients = self.clients(settings)
        found: dict[str, list[ChatUse]] = {}
        for name, uses in self.index.chat_uses_of_registries(self.module.path).items():
            counted = [u for u in uses if u.counts_for(clients)]
            if counted and name not in self.module.shadowed:
                found[name] = counted
        return found

    def function_uses(self, settings: Settings) -> dict[str, list[ChatUse]]:
        """This module's functions that loops of other files dispatch to."""
        if self.index is None:
            return {}
        clients = self.clients(settings)
        found: dict[str, list[ChatUse]] = {}
        for name, uses in self.index.chat_uses_of_functions(self.module.path).items():
            counted = [u for u in uses if u.counts_for(clients)]
            if counted:
                found[name] = counted
        return found

    def signature(self, value: cst.BaseExpression) -> Signature | None:
        """The signature of a registered function: a top-level ``def`` of this module, or
        (whole-project mode) the imported function a name refers to."""
        name = value.value if isinstance(value, cst.Name) else None
        if name is None or name in self.module.shadowed:
            return None
        function = self.module.functions.get(name)
        if function is not None:
            return Signature.of(function)
        if self.index is None or name not in self.module.imports:
            return None
        raw = self.index.chat_signatures.get(self.module.path, {}).get(name)
        return Signature.from_json(raw)

    def imported_keys(self, registry: Registry) -> tuple[frozenset[str], bool] | None:
        """The keys of an imported registry and whether it is closed, if the index knows."""
        if self.index is None or registry.imported is None:
            return None
        raw = self.index.chat_registry_keys.get(self.module.path, {}).get(registry.imported)
        if raw is None:
            return None
        keys, closed = raw
        return frozenset(keys), bool(closed)

    # -- dispatch facts shared by the rules and the index

    def keywords_only(self, registry: Registry) -> bool:
        """Every dispatch of the registry is ``fn(**args)`` (and there is one)."""
        calls = registry.dispatches
        return bool(calls) and all(_keywords_only(call) for call in calls)

    def serialised_plainly(self, registry: Registry) -> bool:
        """Some dispatch result goes to ``json.dumps`` without ``default=``/``cls=``,
        none with."""
        plain = False
        for scope in self.scopes:
            for call in collect(scope.node, cst.Call):
                assert isinstance(call, cst.Call)
                if self.module.qualified_name(call.func) != "json.dumps" or not call.args:
                    continue
                argument = call.args[0].value
                if isinstance(argument, cst.Await):
                    argument = argument.expression
                if isinstance(argument, cst.Name):
                    value = scope.value_of(argument.value)
                    argument = value if value is not None else argument
                    if isinstance(argument, cst.Await):
                        argument = argument.expression
                if argument not in registry.dispatches:
                    continue
                if keyword(call, "default") is not None or keyword(call, "cls") is not None:
                    return False
                if any(a.star for a in call.args):
                    return False
                plain = True
        return plain

    # -- scopes

    @cached_property
    def scopes(self) -> list[Scope]:
        return [Scope(self, node) for node in scope_roots(self.module)]

    def scope_nodes(self, scope: Scope) -> list[cst.CSTNode]:
        return collect(scope.node, *_SCOPE_NODE_CLASSES)

    @cached_property
    def _by_scope(self) -> list[tuple[Scope, list[cst.CSTNode]]]:
        return [(scope, self.scope_nodes(scope)) for scope in self.scopes]

    @cached_property
    def _by_class(self) -> dict[type[cst.CSTNode], list[tuple[Scope, cst.CSTNode]]]:
        found: dict[type[cst.CSTNode], list[tuple[Scope, cst.CSTNode]]] = {}
        for scope, nodes in self._by_scope:
            for node in nodes:
                found.setdefault(node.__class__, []).append((scope, node))
        return found

    def nodes(self, *types: type[cst.CSTNode]) -> Iterator[tuple[Scope, cst.CSTNode]]:
        """The nodes of ``types`` of every scope, scope by scope in source order."""
        if len(types) == 1 and types[0] in _SCOPE_NODE_CLASSES:
            yield from self._by_class.get(types[0], ())
            return
        for scope, nodes in self._by_scope:
            for node in nodes:
                if isinstance(node, types):
                    yield scope, node

    @cached_property
    def _calls_of(self) -> dict[int, list[cst.Call]]:
        """``id`` of a callee expression → the calls of it (``f`` of ``f(x)``)."""
        found: dict[int, list[cst.Call]] = {}
        for _, call in self._by_class.get(cst.Call, ()):
            assert isinstance(call, cst.Call)
            found.setdefault(id(call.func), []).append(call)
        return found

    # -- messages

    @cached_property
    def tool_messages(self) -> list[tuple[Scope, cst.Dict]]:
        return [
            (s, n)
            for s, n in self.nodes(cst.Dict)
            if isinstance(n, cst.Dict) and is_tool_message(n)
        ]

    @cached_property
    def loops(self) -> list[ToolCallsLoop]:
        found = []
        for scope, node in self.nodes(cst.For):
            assert isinstance(node, cst.For)
            iterable, variable = self._iterated(node)
            message = scope.tool_calls_of(iterable)
            if message is not None:
                found.append(ToolCallsLoop(node, scope, message, variable))
                continue
            loop = ToolCallsLoop(node, scope, None, variable)
            if (
                variable is not None
                and isinstance(iterable, cst.Name)
                and iterable.value != variable
                and _answers_loop_variable(loop)
            ):
                found.append(loop)  # for call in tool_calls: ... "tool_call_id": call.id
        return found

    def _iterated(self, node: cst.For) -> tuple[cst.BaseExpression, str | None]:
        """What a loop iterates and the name each item is bound to: ``(X, "call")`` of
        ``for call in X`` and of ``for i, call in enumerate(X)`` (also ``start=``), the
        builtin ``enumerate`` only; the loop variable is ``None`` for any other target."""
        target, iterable = node.target, node.iter
        if isinstance(target, cst.Name):
            return iterable, target.value
        if (
            isinstance(target, cst.Tuple)
            and len(target.elements) == 2
            and all(
                isinstance(e, cst.Element) and isinstance(e.value, cst.Name)
                for e in target.elements
            )
            and isinstance(iterable, cst.Call)
            and self.module.is_builtin(iterable.func, "enumerate")
            and 1 <= len(iterable.args) <= 2
            and not any(arg.star for arg in iterable.args)
            and iterable.args[0].keyword is None
            and all(
                arg.keyword is None or arg.keyword.value == "start" for arg in iterable.args[1:]
            )
        ):
            item = target.elements[1].value
            assert isinstance(item, cst.Name)
            return iterable.args[0].value, item.value
        return iterable, None

    # -- requests

    @cached_property
    def request_sites(self) -> list[tuple[Scope, cst.Call]]:
        found = []
        for scope, node in self.nodes(cst.Call):
            assert isinstance(node, cst.Call)
            if self._is_request(node):
                found.append((scope, node))
        return found

    @property
    def requests(self) -> list[cst.Call]:
        return [call for _, call in self.request_sites]

    def sent_messages(self, scope: Scope) -> list[tuple[cst.Call, str]]:
        """The assistant messages a scope sends with all their ``tool_calls``, with the
        call that sends each: appended, inserted or ``extend``-ed to a list, or written
        as an element of a request's ``messages=[...]`` display (``messages=[*messages,
        message, *tool_messages]``)."""
        found = []
        for call in collect(scope.node, cst.Call):
            assert isinstance(call, cst.Call)
            for value in sent_values(call):
                carried = scope.carries_all_calls(value)
                if carried is not None:
                    found.append((call, carried))
        for owner, request in self.request_sites:
            arg = keyword(request, "messages") if owner is scope else None
            if arg is None:
                continue
            for value in display_elements(arg.value):
                carried = scope.carries_all_calls(value)
                if carried is not None:
                    found.append((request, carried))
        return found

    # -- helpers that answer only the first call

    @cached_property
    def first_call_helpers(self) -> dict[str, FirstCallHelper]:
        """Top-level functions that are given a message (or its ``tool_calls``) and answer
        only its first call: every use of the parameter is ``message.tool_calls[0]``
        (``tool_calls[0]``), a truth test of it, or a plain attribute of the message, and
        a tool message answers that first call's id. Decorated, redefined and generator
        functions are not summarised (what runs at the call site is not certain)."""
        found: dict[str, FirstCallHelper] = {}
        by_node = {id(scope.node): scope for scope in self.scopes}
        answering = {id(scope) for scope, _ in self.tool_messages}
        top_level = self.scopes[0]
        for name, function in self.module.functions.items():
            scope = by_node.get(id(function))
            if (
                scope is None
                or id(scope) not in answering
                or function.decorators
                or name in top_level.assignments
                or name in self.module.shadowed
                or self._defined_more_than_once(name)
                or collect(function, cst.Yield)
            ):
                continue
            # only a parameter read as `p[0]` or `p.tool_calls[0]` can qualify
            read_first = {
                name
                for node in collect(function.body, cst.Subscript, nested=True)
                if isinstance(node, cst.Subscript) and is_first_index(node)
                for name in (_first_of(node.value),)
                if name is not None
            }
            if not read_first:
                continue
            params = function.params
            positional = [*params.posonly_params, *params.params]
            for index, param in enumerate([*positional, *params.kwonly_params]):
                if param.name.value not in read_first:
                    continue
                given = _first_call_only(scope, self, param.name.value)
                if given is not None:
                    at = index if index < len(positional) else None
                    found[name] = FirstCallHelper(function, at, param.name.value, given)
                    break
        return found

    def _defined_more_than_once(self, name: str) -> bool:
        return (
            sum(
                1
                for scope in self.scopes
                if isinstance(scope.node, cst.FunctionDef) and scope.node.name.value == name
            )
            > 1
        )

    def helper_first_call(self, scope: Scope, call: cst.Call) -> str | None:
        """The canonical message whose first call only a same-module helper answers at
        this call site (``answer_first(message)``, ``answer_first(message.tool_calls)``)."""
        func = call.func
        if not isinstance(func, cst.Name):
            return None
        helper = self.first_call_helpers.get(func.value)
        if (
            helper is None
            or func.value in scope.assignments
            or func.value in scope.parameters
            or any(arg.star for arg in call.args)
        ):
            return None
        given: cst.BaseExpression | None = None
        for position, arg in enumerate(call.args):
            named = arg.keyword.value if arg.keyword is not None else None
            if named == helper.parameter or (named is None and position == helper.position):
                given = arg.value
        if given is None:
            return None
        if helper.given == "tool_calls":
            return scope.tool_calls_of(given)
        if isinstance(given, (cst.Name, cst.Attribute, cst.Subscript)):
            return scope.canonical(given)
        return None

    def _is_request(self, call: cst.Call) -> bool:
        func = call.func
        if isinstance(func, cst.Name):  # from litellm import completion / from ollama import chat
            qualified = self.module.qualified_name(func)
            return qualified in _FUNCTION_REQUESTS
        if not isinstance(func, cst.Attribute):
            return False
        method = func.attr.value
        if method in _REQUEST_METHODS:
            inner = func.value
            if isinstance(inner, cst.Attribute) and inner.attr.value == "completions":
                return True
        if method in _CLIENT_FUNCTIONS:
            qualified = self.module.qualified_name(func)
            return qualified is not None and qualified.split(".", 1)[0] != PACKAGE
        inner = func.value
        if (
            method in _MISTRAL_METHODS
            and isinstance(inner, cst.Attribute)
            and inner.attr.value == "chat"
            and self.module.imports_module("mistralai")
        ):
            return True  # client.chat.complete(...): Mistral
        if method == "chat" and self.module.imports_module("ollama"):
            qualified = self.module.qualified_name(func)
            # ollama.chat(...), or a client's: Client().chat(...), client.chat(messages=...)
            return qualified == "ollama.chat" or (
                qualified is None and keyword(call, "messages") is not None
            )
        return False

    @cached_property
    def parallel_calls_limited(self) -> bool:
        """A request passes ``parallel_tool_calls=`` other than a literal ``True``, or
        ``**kwargs``: the model may be limited to one call per response."""
        for _, node in self.nodes(cst.Call):
            assert isinstance(node, cst.Call)
            arg = keyword(node, "parallel_tool_calls")
            if arg is not None and not (
                isinstance(arg.value, cst.Name) and arg.value.value == "True"
            ):
                return True
        for _, node in self.nodes(cst.Dict):
            assert isinstance(node, cst.Dict)
            entry = dict_entry(node, "parallel_tool_calls")
            if entry is not None and not (
                isinstance(entry.value, cst.Name) and entry.value.value == "True"
            ):
                return True
        return any(has_double_star(r) for r in self.requests)

    @cached_property
    def request_message_lists(self) -> set[str]:
        """Source text of every name / attribute passed as ``messages=`` to a request."""
        found: set[str] = set()
        for request in self.requests:
            arg = keyword(request, "messages")
            if arg is None:
                continue
            value = arg.value
            if isinstance(value, (cst.Name, cst.Attribute)):
                found.add(self.module.code_for(value).strip())
            elif isinstance(value, (cst.List, cst.BinaryOperation)):
                for part in collect(value, cst.Name, cst.Attribute):
                    if isinstance(part, (cst.Name, cst.Attribute)):
                        found.add(self.module.code_for(part).strip())
        return found

    @cached_property
    def request_message_displays(self) -> set[cst.CSTNode]:
        """Dict displays written directly in a request's ``messages=`` list."""
        found: set[cst.CSTNode] = set()
        for request in self.requests:
            arg = keyword(request, "messages")
            if arg is not None:
                found.update(collect(arg.value, cst.Dict))
        return found

    # -- schemas

    @cached_property
    def schemas(self) -> list[Schema] | None:
        """Every tool schema passed as ``tools=`` to a request; ``None`` when any of them
        cannot be told (a spread, a generated list, an unresolved name)."""
        found: list[Schema] = []
        any_tools = False
        for scope, node in self.nodes(cst.Call):
            assert isinstance(node, cst.Call)
            if not self._is_request(node):
                continue
            arg = keyword(node, "tools")
            if arg is None:
                continue
            any_tools = True
            schemas = self._schema_list(scope, arg.value)
            if schemas is None:
                return None
            found.extend(schemas)
        return found if any_tools else None

    def _resolve(self, scope: Scope, node: cst.BaseExpression) -> cst.BaseExpression | None:
        depth = 0
        while isinstance(node, cst.Name) and depth < 4:
            value = scope.value_of(node.value) if node.value in scope.assignments else None
            if value is None and node.value not in scope.assignments:
                value = self.module.constants.get(node.value)
            if value is None:
                return None
            node, depth = value, depth + 1
        return node

    def _schema_list(self, scope: Scope, node: cst.BaseExpression) -> list[Schema] | None:
        resolved = self._resolve(scope, node)
        if not isinstance(resolved, (cst.List, cst.Tuple)):
            return None
        found = []
        for element in resolved.elements:
            if isinstance(element, cst.StarredElement):
                return None
            schema = self._schema(scope, element.value)
            if schema is None:
                return None
            found.append(schema)
        return found

    def _schema(self, scope: Scope, node: cst.BaseExpression) -> Schema | None:
        resolved = self._resolve(scope, node)
        if isinstance(resolved, cst.Call):
            return self._pydantic_schema(resolved)
        if not isinstance(resolved, cst.Dict) or has_spread(resolved):
            return None
        function = dict_entry(resolved, "function")
        if function is None:
            return None
        body = self._resolve(scope, function.value)
        if not isinstance(body, cst.Dict) or has_spread(body):
            return None
        name_entry = dict_entry(body, "name")
        if name_entry is None:
            return None
        name_value = self._resolve(scope, name_entry.value)
        name = string_value(name_value)
        if name is None:
            return None
        properties: tuple[str, ...] | None = None
        required: tuple[str, ...] | None = None
        parameters = dict_entry(body, "parameters")
        if parameters is not None:
            params = self._resolve(scope, parameters.value)
            if isinstance(params, cst.Dict) and not has_spread(params):
                properties, required = _schema_fields(params)
        else:
            properties, required = (), ()
        return Schema(name, name_entry.value, properties, required)

    def _pydantic_schema(self, call: cst.Call) -> Schema | None:
        if self.module.qualified_name(call.func) not in PYDANTIC_FUNCTION_TOOL:
            return None
        if not call.args or call.args[0].keyword is not None or call.args[0].star:
            return None
        model = call.args[0].value
        name_arg = keyword(call, "name")
        if name_arg is not None:
            name = string_value(name_arg.value)
            if name is None:
                return None
            name_node: cst.CSTNode = name_arg.value
        elif isinstance(model, cst.Name):
            name, name_node = model.value, model
        else:
            return None
        fields = None
        if isinstance(model, cst.Name) and model.value in self.module.classes:
            fields = _model_fields(self.module.classes[model.value])
        # strict schemas require every field (openai/lib/_pydantic.py:57)
        return Schema(name, name_node, fields, fields)

    # -- registries

    @cached_property
    def registries(self) -> list[Registry]:
        found: dict[str, Registry] = {}
        for scope, node in self.nodes(cst.Subscript, cst.Call):
            target = _dispatch_target(node)
            if target is None:
                continue
            if isinstance(target, cst.Call):  # globals()[name]
                if self.module.is_builtin(target.func, "globals"):
                    registry = found.get("globals()")
                    if registry is None:
                        registry = found["globals()"] = self._globals_registry()
                    self._note_dispatch(scope, node, registry)
                continue
            if not isinstance(target, cst.Name):
                continue
            name = target.value
            registry = found.get(name)
            if registry is None:
                built = self.dict_registry(scope, name) or self._imported_registry(scope, name)
                if built is None:
                    continue
                registry = found[name] = built
            self._note_dispatch(scope, node, registry)
        # an imported mapping is a registry only when what it looks up is called
        return [r for r in found.values() if r.imported is None or r.dispatches]

    def _imported_registry(self, scope: Scope, name: str) -> Registry | None:
        """``from tools import REGISTRY`` used to dispatch: its entries are in another file."""
        module = self.module
        if name in scope.assignments or name in module.local_names or name in module.shadowed:
            return None
        if isinstance(scope.node, cst.FunctionDef):
            params = scope.node.params
            every = (*params.posonly_params, *params.params, *params.kwonly_params)
            if any(p.name.value == name for p in every):
                return None
        qualified = module.imports.get(name)
        if qualified is None or "." not in qualified:
            return None  # ``import tools`` binds a module, not a mapping
        return Registry(name, None, [], closed=False, complete=False, imported=qualified)

    def _globals_registry(self) -> Registry:
        entries: list[tuple[str, cst.BaseExpression, cst.BaseExpression]] = [
            (name, fn.name, fn.name) for name, fn in self.module.functions.items()
        ]
        return Registry("globals()", None, entries, closed=False, complete=True, is_globals=True)

    def dict_registry(self, scope: Scope, name: str) -> Registry | None:
        owner = scope if name in scope.assignments else None
        if owner is not None:
            values = owner.assignments[name]
            if len(values) != 1:
                return None
            value = values[0]
        else:
            value = self.module.constants.get(name)
            owner = self.scopes[0]
        if not isinstance(value, cst.Dict):
            return None
        entries = []
        complete = True
        for element in value.elements:
            if not isinstance(element, cst.DictElement):
                complete = False
                continue
            key = string_value(element.key)
            if key is None:
                complete = False
                continue
            entries.append((key, element.key, element.value))
        values_ok = all(isinstance(v, (cst.Name, cst.Attribute, cst.Lambda)) for _, _, v in entries)
        callables = [
            v
            for _, _, v in entries
            if isinstance(v, cst.Name)
            and (v.value in self.module.functions or v.value in self.module.imports)
        ]
        if not entries or not values_ok or not callables:
            return None  # a dict of data, not of functions
        closed = complete and not self.extended(name, owner)
        return Registry(name, value, entries, closed=closed, complete=complete)

    def extended(self, name: str, owner: Scope) -> bool:
        """``registry[...] = f``, ``registry.update(...)``, ``|=``, passed to a call…"""
        return name in self._extended_names

    @cached_property
    def _extended_names(self) -> frozenset[str]:
        """The names ``extended`` is true of, for the whole module at once."""
        found: set[str] = set()
        for _, node in self.nodes(cst.Call):
            assert isinstance(node, cst.Call)
            func = node.func
            if (
                isinstance(func, cst.Attribute)
                and isinstance(func.value, cst.Name)
                and func.attr.value not in ("get", "keys", "items", "values")
            ):
                found.add(func.value.value)
            found.update(a.value.value for a in node.args if isinstance(a.value, cst.Name))
        for target_node in collect(
            self.module.tree, cst.AssignTarget, cst.AugAssign, cst.Del, nested=True
        ):
            assert isinstance(target_node, (cst.AssignTarget, cst.AugAssign, cst.Del))
            target = target_node.target
            for sub in collect(target, cst.Subscript):
                assert isinstance(sub, cst.Subscript)
                if isinstance(sub.value, cst.Name):
                    found.add(sub.value.value)
            if isinstance(target_node, cst.AugAssign) and isinstance(target, cst.Name):
                found.add(target.value)
        return frozenset(found)

    @cached_property
    def compared_names(self) -> frozenset[str]:
        """String literals a value is compared with (``name == "get_time"``, ``name in
        ("a", "b")``, ``case "get_time":``): tools dispatched by an ``if``/``match``
        beside the registry."""
        found: set[str] = set()
        for node in collect(self.module.tree, cst.Comparison, cst.MatchValue, nested=True):
            if isinstance(node, cst.MatchValue):
                parts: list[cst.BaseExpression] = [node.value]
            else:
                assert isinstance(node, cst.Comparison)
                parts = [node.left, *(c.comparator for c in node.comparisons)]
            for part in parts:
                values = (
                    [e.value for e in part.elements]
                    if isinstance(part, (cst.List, cst.Tuple, cst.Set))
                    else [part]
                )
                for value in values:
                    text = string_value(value)
                    if text is not None:
                        found.add(text)
        return frozenset(found)

    @cached_property
    def dispatches_dynamically(self) -> bool:
        """The module can run a tool without a registry entry: ``getattr(obj, name)`` with
        a computed name, or an MCP-style ``session.call_tool(name, ...)``."""
        for _, node in self.nodes(cst.Call):
            assert isinstance(node, cst.Call)
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "call_tool":
                return True
            if (
                self.module.is_builtin(func, "getattr")
                and len(node.args) >= 2
                and string_value(node.args[1].value) is None
            ):
                return True
        return False

    def _note_dispatch(self, scope: Scope, node: cst.CSTNode, registry: Registry) -> None:
        """Record the call of a looked-up function, and whether a missing name is handled."""
        if isinstance(node, cst.Call) and len(node.args) > 1:
            registry.guarded = True  # .get(name, default)
        parent_calls = list(self._calls_of.get(id(node), ()))
        registry.dispatches.extend(parent_calls)
        # fn = registry.get(name) / registry[name]; ... fn(**args)
        for name, values in scope.assignments.items():
            if len(values) == 1 and values[0] is node:
                for candidate in collect(scope.node, cst.Call):
                    if (
                        isinstance(candidate, cst.Call)
                        and isinstance(candidate.func, cst.Name)
                        and candidate.func.value == name
                    ):
                        registry.dispatches.append(candidate)
                if _is_tested(scope, name):
                    registry.guarded = True
        if _in_handled_try(self.module, scope.node, node):
            registry.guarded = True
        if registry.name != "globals()" and _membership_tested(self.module.tree, registry.name):
            registry.guarded = True


_MESSAGE_ATTRIBUTES = frozenset({"content", "role", "refusal", "tool_calls"})


def _first_call_only(scope: Scope, chat: ChatFile, parameter: str) -> str | None:
    """``"message"`` when every use of the parameter is ``p.tool_calls[0]``, a truth test
    of ``p.tool_calls``, or a plain attribute (``p.content``); ``"tool_calls"`` when every
    use is ``p[0]`` or a truth test of ``p`` — and a tool message answers that first
    call's id. ``None`` otherwise (the parameter is rebound, passed on, iterated…)."""
    if parameter in scope.assignments:
        return None
    function = scope.node
    assert isinstance(function, cst.FunctionDef)
    uses = [
        n
        for n in collect(function.body, cst.Name, nested=True)
        if isinstance(n, cst.Name) and n.value == parameter
    ]
    if not uses:
        return None
    tests = [
        test.expression
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
        else test
        for node in collect(function.body, cst.If, cst.While, nested=True)
        if isinstance(node, (cst.If, cst.While))
        for test in (node.test,)
    ]
    firsts = [
        n
        for n in collect(function.body, cst.Subscript, nested=True)
        if isinstance(n, cst.Subscript) and is_first_index(n)
    ]
    attributes = [
        n
        for n in collect(function.body, cst.Attribute, nested=True)
        if isinstance(n, cst.Attribute)
        and isinstance(n.value, cst.Name)
        and n.value.value == parameter
    ]
    if attributes:
        given = "message"
        calls = [a for a in attributes if a.attr.value == "tool_calls"]
        first = [s for s in firsts if any(s.value is a for a in calls)]
        tested = [t for t in tests if any(t is a for a in calls)]
        if (
            len(attributes) != len(uses)
            or any(a.attr.value not in _MESSAGE_ATTRIBUTES for a in attributes)
            or len(calls) != len(first) + len(tested)
        ):
            return None
    else:
        given = "tool_calls"
        first = [s for s in firsts if any(s.value is u for u in uses)]
        tested = [t for t in tests if any(t is u for u in uses)]
        if len(uses) != len(first) + len(tested):
            return None
    if not first:
        return None
    for owner, message in chat.tool_messages:
        if owner is not scope:
            continue
        entry = dict_entry(message, "tool_call_id")
        value = entry.value if entry is not None else None
        read = fixed_call_id(value) if value is not None else None
        if isinstance(read, cst.Name):
            read = scope.value_of(read.value)
        if read is not None and any(read is s for s in first):
            return given
    return None


def _first_of(node: cst.BaseExpression) -> str | None:
    """``p`` of ``p`` or ``p.tool_calls`` (what ``[0]`` is taken of)."""
    if isinstance(node, cst.Attribute) and node.attr.value == "tool_calls":
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def _answers_loop_variable(loop: ToolCallsLoop) -> bool:
    """Whether a tool message of the loop takes its ``tool_call_id`` from the loop
    variable (``call.id``, ``call["id"]``, or a name assigned once from one): what tells
    a loop over a parameter, or over a name bound more than once, is over tool calls."""
    for message in loop.tool_messages:
        found = answered_id(loop.scope, message)
        if found is None:
            continue
        owner = fixed_call_id(found[1])
        if isinstance(owner, cst.Name) and owner.value == loop.variable:
            return True
    return False


def _keywords_only(call: cst.Call) -> bool:
    """``fn(**args)``: exactly one ``**`` argument."""
    return len(call.args) == 1 and call.args[0].star == "**"


def _dispatch_target(node: cst.CSTNode) -> cst.BaseExpression | None:
    """The mapping of ``mapping[name]`` / ``mapping.get(name)`` with a non-literal name."""
    if isinstance(node, cst.Subscript):
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return None
        index = node.slice[0].slice.value
        if isinstance(index, (cst.SimpleString, cst.Integer, cst.ConcatenatedString)):
            return None
        return node.value
    if isinstance(node, cst.Call):
        func = node.func
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value == "get"
            and 1 <= len(node.args) <= 2
            and not isinstance(node.args[0].value, (cst.SimpleString, cst.Integer))
        ):
            return func.value
    return None


def _is_tested(scope: Scope, name: str) -> bool:
    """Whether a name is tested for truth or ``None`` (``if fn:``, ``if fn is None``)."""
    for node in collect(
        scope.node, cst.If, cst.While, cst.IfExp, cst.BooleanOperation, cst.Comparison, cst.Assert
    ):
        test = getattr(node, "test", None)
        parts: Sequence[cst.CSTNode]
        if isinstance(node, cst.BooleanOperation):
            parts = (node.left, node.right)
        elif isinstance(node, cst.Comparison):
            parts = (node.left,)
        elif test is not None:
            parts = (test,)
        else:
            continue
        for part in parts:
            if isinstance(part, cst.UnaryOperation):
                part = part.expression
            if isinstance(part, cst.Name) and part.value == name:
                return True
            if (
                isinstance(part, cst.Comparison)
                and isinstance(part.left, cst.Name)
                and part.left.value == name
            ):
                return True
    return False


def _membership_tested(tree: cst.Module, name: str) -> bool:
    for node in collect(tree, cst.Comparison, nested=True):
        assert isinstance(node, cst.Comparison)
        for target in node.comparisons:
            if isinstance(target.operator, (cst.In, cst.NotIn)):
                comparator = target.comparator
                if isinstance(comparator, cst.Call) and isinstance(comparator.func, cst.Attribute):
                    comparator = comparator.func.value
                if isinstance(comparator, cst.Name) and comparator.value == name:
                    return True
    return False


_CATCHES_KEY_ERROR = frozenset({"KeyError", "LookupError", "Exception", "BaseException"})


def _in_handled_try(module: ParsedModule, root: cst.CSTNode, node: cst.CSTNode) -> bool:
    """The lookup is in the body of a ``try`` with a handler that can catch its
    ``KeyError``: a bare ``except``, or one naming ``KeyError``, ``LookupError``,
    ``Exception`` or ``BaseException`` (alone or in a tuple)."""
    for found in collect(root, cst.Try):
        assert isinstance(found, cst.Try)
        if not any(_catches_key_error(module, h) for h in found.handlers):
            continue
        if any(n is node for n in collect(found.body, type(node))):
            return True
    return False


def _catches_key_error(module: ParsedModule, handler: cst.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    caught = handler.type
    names = [e.value for e in caught.elements] if isinstance(caught, cst.Tuple) else [caught]
    for name in names:
        if (
            isinstance(name, cst.Name)
            and name.value in _CATCHES_KEY_ERROR
            and module.is_builtin(name, name.value)
        ):
            return True
    return False


def _schema_fields(params: cst.Dict) -> tuple[tuple[str, ...] | None, tuple[str, ...] | None]:
    props_entry = dict_entry(params, "properties")
    if props_entry is None:
        return (), ()
    props = props_entry.value
    if not isinstance(props, cst.Dict) or has_spread(props):
        return None, None
    names = []
    for element in props.elements:
        key = string_value(element.key) if isinstance(element, cst.DictElement) else None
        if key is None:
            return None, None
        names.append(key)
    required_entry = dict_entry(params, "required")
    required: tuple[str, ...] | None = ()
    if required_entry is not None:
        value = required_entry.value
        if isinstance(value, (cst.List, cst.Tuple)):
            items = [string_value(e.value) for e in value.elements]
            required = None if any(i is None for i in items) else tuple(i for i in items if i)
        else:
            required = None
    return tuple(names), required


def _model_fields(cls: cst.ClassDef) -> tuple[str, ...] | None:
    """Field names of a plain pydantic model class body (``name: type [= default]``)."""
    if not isinstance(cls.body, cst.IndentedBlock):
        return None
    if len(cls.bases) != 1:
        return None  # inherited fields are not visible here
    names = []
    for stmt in cls.body.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    annotation = small.annotation.annotation
                    text = cst.Module([]).code_for_node(annotation)
                    if "ClassVar" in text:
                        continue
                    if not small.target.value.startswith("_"):
                        names.append(small.target.value)
    return tuple(names)


def recognise(module: ParsedModule, project: Project | None = None) -> ChatFile:
    """The module's Chat Completions facts. Without a project index (the project is then
    only a way to reach one) the answer is kept on the module, so the index facts and
    the rules of one parse share its lazily computed parts."""
    prepare_displays(module)
    if project is not None and project.index is not None:
        return module.remembered(_MEMO, (project, project.index), lambda: ChatFile(module, project))
    return module.remembered(_MEMO, (), lambda: ChatFile(module))


_MEMO = "openai_chat.recognise"


def _completions_request(call: cst.Call) -> bool:
    """``<x>.completions.create(...)`` (``.parse``, ``.stream``)."""
    func = call.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value in _REQUEST_METHODS
        and isinstance(func.value, cst.Attribute)
        and func.value.attr.value == "completions"
    )
