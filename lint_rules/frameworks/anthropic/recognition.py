"""Recognition of hand-written Anthropic Messages tool loops, and ``@beta_tool`` functions.

A module is checked when it imports ``anthropic``. The facts are the Chat
Completions family's, with Anthropic's key names and roles
(``frameworks/tool_loops.py`` holds what the two share):

- *requests*: ``<client>.messages.create(...)`` / ``.stream(...)`` (also under
  ``.beta``), with their ``messages=`` argument;
- *tool results*: dict displays whose literal ``"type"`` is ``"tool_result"``;
- *flow*: where such a block goes — into a list display, a comprehension, a
  list's ``append``/``extend``/``insert``, a message's ``"content"``, a
  name, a ``return`` of a same-module function — until it reaches a list that
  is passed as ``messages=`` to a request, or something not known (then it is
  not said to reach one, and the rules that need it say nothing);
- *responses*: names bound to a request's result (or a stream's
  ``get_final_message()``), the ``tool_use`` blocks read from their
  ``content`` and what answers them.

Everything that cannot be told for certain is left unknown.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from lint_rules import prefilter
from lint_rules.analysis.displays import prepare as prepare_displays
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import Project
from lint_rules.analysis.shapes import ShapeInference
from lint_rules.frameworks.tool_function import decorated_with
from lint_rules.frameworks.tool_loops import Scope as LoopScope
from lint_rules.frameworks.tool_loops import (
    collect,
    derived_from,
    dict_entry,
    fixed_call_id,
    has_double_star,
    integer_index,
    keyword,
    literal_entry,
    next_pick,
    project_client,
    scope_roots,
    search_pick,
    string_value,
)

PACKAGE = "anthropic"
BETA_TOOL_DECORATORS = frozenset(
    {
        "anthropic.beta_tool",
        "anthropic.beta_async_tool",
        "anthropic.lib.tools.beta_tool",
        "anthropic.lib.tools.beta_async_tool",
        "anthropic.lib.tools._beta_functions.beta_tool",
        "anthropic.lib.tools._beta_functions.beta_async_tool",
    }
)
"""The SDK's tool-runner decorators (anthropic 0.x and 2.x)."""
_REQUEST_METHODS = frozenset({"create", "stream", "parse"})
_RESPONSE_WRAPPERS = frozenset({"with_raw_response", "with_streaming_response"})
_NOT_ANTHROPIC_OWNERS = frozenset({"threads"})
"""``client.beta.threads.messages.create`` is OpenAI's Assistants API."""
_ADD_METHODS = frozenset({"append", "extend", "insert"})
_MAX_DEPTH = 8


def has_signal(source: str, path: str) -> bool:
    return prefilter.has_signal("anthropic", source, path)


def is_tool_result(node: cst.CSTNode) -> bool:
    return literal_entry(node, "type") == "tool_result"


def is_text_block(node: cst.CSTNode) -> bool:
    """A text content block (``{"type": "text", ...}``) or a string."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return True
    return literal_entry(node, "type") == "text"


def role_of(node: cst.Dict) -> tuple[cst.DictElement, str] | None:
    entry = dict_entry(node, "role")
    if entry is None:
        return None
    role = string_value(entry.value)
    return (entry, role) if role is not None else None


@dataclass
class Scope(LoopScope):
    """One function (or the module body) of an Anthropic file."""

    file: AnthropicFile

    @cached_property
    def names(self) -> dict[str, list[cst.Name]]:
        """Every ``Name`` read or written in the scope, by its value."""
        found: dict[str, list[cst.Name]] = {}
        for node in collect(self.node, cst.Name):
            assert isinstance(node, cst.Name)
            found.setdefault(node.value, []).append(node)
        return found


@dataclass(frozen=True)
class Use:
    """How an expression is used by the node that holds it."""

    kind: str
    """``element`` (of a display), ``comprehension`` (its element), ``entry`` (a dict
    value, ``key`` says which), ``added`` (appended, extended or inserted to
    ``target``), ``messages`` (a request's ``messages=``), ``assigned`` (to
    ``target``), ``returned``, ``awaited``, ``concatenated`` (an operand of ``+``),
    ``chosen`` (a branch of ``a if c else b``), ``other``."""
    holder: cst.CSTNode
    key: str | None = None
    target: cst.BaseExpression | None = None


@dataclass
class Reach:
    """What following a value found: the message dicts it is the content of, and
    whether it reaches a request's ``messages``."""

    reaches: bool = False
    messages: list[cst.Dict] = field(default_factory=list)


@dataclass
class AnthropicFile:
    """One module that may hold an Anthropic Messages tool loop or ``@beta_tool``s."""

    module: ParsedModule
    project: Project | None = None

    @cached_property
    def is_checked(self) -> bool:
        """The module imports ``anthropic``, or a request's client is an Anthropic client
        made in another module of the project (``client = get_client()``)."""
        if self.module.imports_module(PACKAGE):
            return True
        return any(
            project_client(self.module, call, 2, (PACKAGE,)) for _, call in self.request_sites
        )

    # -- scopes

    @cached_property
    def scopes(self) -> list[Scope]:
        return [Scope(self, node) for node in scope_roots(self.module)]

    @cached_property
    def _scope_of_node(self) -> dict[int, Scope]:
        return {id(scope.node): scope for scope in self.scopes}

    def scope_of(self, node: cst.CSTNode) -> Scope | None:
        """The function (or module body) whose own code holds ``node``; ``None`` inside
        a lambda or directly in a class body."""
        enclosing = self.module.index.enclosing_scope(node)
        if enclosing is None:
            return self.scopes[0]
        if isinstance(enclosing, cst.FunctionDef):
            return self._scope_of_node.get(id(enclosing))
        return None

    # -- requests

    @cached_property
    def request_sites(self) -> list[tuple[Scope, cst.Call]]:
        found = []
        for scope in self.scopes:
            for call in collect(scope.node, cst.Call):
                assert isinstance(call, cst.Call)
                if is_request(call):
                    found.append((scope, call))
        return found

    @cached_property
    def request_lists(self) -> frozenset[str]:
        """The canonical text of every name or attribute passed as ``messages=`` (also as
        a part of a display or a ``+``) to a request."""
        found: set[str] = set()
        for scope, request in self.request_sites:
            arg = keyword(request, "messages")
            if arg is None:
                continue
            for part in _message_list_parts(arg.value):
                found.add(scope.canonical(part))
                found.add(self.module.code_for(part).strip())
        return frozenset(found)

    def scope_request_lists(self, scope: Scope) -> frozenset[str]:
        """``request_lists`` of the requests made in ``scope`` only."""
        found: set[str] = set()
        for owner, request in self.request_sites:
            arg = keyword(request, "messages") if owner is scope else None
            if arg is not None:
                found.update(scope.canonical(p) for p in _message_list_parts(arg.value))
        return frozenset(found)

    @cached_property
    def parallel_limited(self) -> bool:
        """A request may make the model use one tool at a time: ``disable_parallel_tool_use``
        set to anything but a literal ``False``, a ``tool_choice=`` that is not a dict
        display, or a request with ``**kwargs``."""
        for scope in self.scopes:
            for node in collect(scope.node, cst.Dict):
                assert isinstance(node, cst.Dict)
                entry = dict_entry(node, "disable_parallel_tool_use")
                if entry is not None and not (
                    isinstance(entry.value, cst.Name) and entry.value.value == "False"
                ):
                    return True
            for node in collect(scope.node, cst.Call):
                assert isinstance(node, cst.Call)
                arg = keyword(node, "disable_parallel_tool_use")
                if arg is not None:
                    return True
        for _, request in self.request_sites:
            if has_double_star(request):
                return True
            choice = keyword(request, "tool_choice")
            if choice is not None and not isinstance(choice.value, cst.Dict):
                return True
        return False

    @cached_property
    def server_threads(self) -> bool:
        """A request may continue a server-held thread (anthropic 2.x beta ``thread=``, or
        ``**kwargs`` that may carry it): its history need not repeat the assistant turn."""
        for _, request in self.request_sites:
            if has_double_star(request):
                return True
            arg = keyword(request, "thread")
            if arg is not None and not (
                isinstance(arg.value, cst.Name) and arg.value.value in ("False", "None")
            ):
                return True
        return False

    # -- tool results and their flow

    @cached_property
    def tool_results(self) -> list[tuple[Scope, cst.Dict]]:
        found = []
        for scope in self.scopes:
            for node in collect(scope.node, cst.Dict):
                if is_tool_result(node):
                    assert isinstance(node, cst.Dict)
                    found.append((scope, node))
        return found

    @cached_property
    def _uses(self) -> dict[int, Use]:
        """``id`` of an expression → how the node holding it uses it (the forms the flow
        follows), for every scope's own code."""
        uses: dict[int, Use] = {}
        for scope in self.scopes:
            nodes = collect(
                scope.node,
                cst.List,
                cst.Tuple,
                cst.ListComp,
                cst.GeneratorExp,
                cst.Dict,
                cst.Call,
                cst.Assign,
                cst.AnnAssign,
                cst.AugAssign,
                cst.Return,
                cst.Await,
                cst.BinaryOperation,
                cst.IfExp,
            )
            for node in nodes:
                _record_uses(node, uses)
        return uses

    def use_of(self, node: cst.CSTNode) -> Use | None:
        found = self._uses.get(id(node))
        if found is None:  # a display stand-in is used where its call is
            original = self.module.index.original(node)
            if original is not node:
                found = self._uses.get(id(original))
        return found

    def follow(self, scope: Scope, node: cst.CSTNode) -> Reach:
        """Where a value goes (see the module's docstring)."""
        reach = Reach()
        self._follow(scope, node, reach, set(), 0)
        return reach

    def _follow(
        self, scope: Scope, node: cst.CSTNode, reach: Reach, seen: set[int], depth: int
    ) -> None:
        if depth > _MAX_DEPTH or id(node) in seen:
            return
        seen.add(id(node))
        use = self.use_of(node)
        if use is None:
            return
        kind = use.kind
        if kind in ("element", "comprehension", "awaited", "concatenated", "chosen"):
            self._follow(scope, use.holder, reach, seen, depth + 1)
        elif kind == "entry":
            holder = use.holder
            assert isinstance(holder, cst.Dict)
            if use.key == "content" and role_of(holder) is not None:
                reach.messages.append(holder)
                self._follow(scope, holder, reach, seen, depth + 1)
        elif kind == "messages":
            reach.reaches = True
        elif kind in ("added", "assigned"):
            assert use.target is not None
            self._follow_target(scope, use.target, reach, seen, depth + 1)
        elif kind == "returned":
            function = scope.node
            if isinstance(function, cst.FunctionDef):
                for call_scope, call in self.calls_of(function):
                    self._follow(call_scope, call, reach, seen, depth + 1)

    def _follow_target(
        self,
        scope: Scope,
        target: cst.BaseExpression,
        reach: Reach,
        seen: set[int],
        depth: int,
    ) -> None:
        text = scope.canonical(target)
        if text in self.request_lists or self.module.code_for(target).strip() in self.request_lists:
            reach.reaches = True
            return
        if isinstance(target, cst.Name):
            for use in scope.names.get(target.value, ()):
                if use is not target:
                    self._follow(scope, use, reach, seen, depth)
        elif (
            isinstance(target, cst.Subscript)
            and isinstance(target.value, cst.Name)
            and len(target.slice) == 1
            and isinstance(target.slice[0].slice, cst.Index)
            and string_value(target.slice[0].slice.value) == "content"
        ):
            # message["content"].append(block): the content of the message a name holds
            message = scope.value_of(target.value.value)
            if isinstance(message, cst.Dict) and role_of(message) is not None:
                reach.messages.append(message)
                self._follow_target(scope, target.value, reach, seen, depth)
        elif isinstance(target, cst.Attribute) and _is_self_attribute(target):
            for other in self._self_attributes.get(target.attr.value, ()):
                owner = self.scope_of(other)
                if other is not target and owner is not None:
                    self._follow(owner, other, reach, seen, depth)

    @cached_property
    def _self_attributes(self) -> dict[str, list[cst.Attribute]]:
        found: dict[str, list[cst.Attribute]] = {}
        for node in collect(self.module.tree, cst.Attribute, nested=True):
            assert isinstance(node, cst.Attribute)
            if _is_self_attribute(node):
                found.setdefault(node.attr.value, []).append(node)
        return found

    def calls_of(self, function: cst.FunctionDef) -> Iterator[tuple[Scope, cst.Call]]:
        """The calls of a same-module function: ``f(...)`` of a top-level function (in the
        module) or of a nested one (in the function that defines it), ``self.f(...)`` of
        a method (any class of the module: names are not resolved)."""
        name = function.name.value
        enclosing = self.module.index.enclosing_scope(function)
        if isinstance(enclosing, cst.ClassDef):
            for scope in self.scopes:
                for call in collect(scope.node, cst.Call):
                    assert isinstance(call, cst.Call)
                    func = call.func
                    if (
                        isinstance(func, cst.Attribute)
                        and _is_self_attribute(func)
                        and func.attr.value == name
                    ):
                        yield scope, call
            return
        if enclosing is None:
            if self.module.functions.get(name) is not function:
                return
            root: cst.CSTNode = self.module.tree
        elif isinstance(enclosing, cst.FunctionDef):
            root = enclosing
        else:
            return
        for call in collect(root, cst.Call, nested=True):
            assert isinstance(call, cst.Call)
            func = call.func
            if not isinstance(func, cst.Name) or func.value != name:
                continue
            caller = self.scope_of(call)
            if (
                caller is not None
                and name not in caller.assignments
                and name not in caller.parameters
            ):
                yield caller, call

    # -- responses

    @cached_property
    def responses(self) -> dict[int, dict[str, list[cst.CSTNode]]]:
        """``id`` of a scope → the names every binding of which, in it, is a response of a
        request (``r = client.messages.create(...)``, ``r = await ...``,
        ``r = stream.get_final_message()``), with their binding statements."""
        found: dict[int, dict[str, list[cst.CSTNode]]] = {}
        for scope in self.scopes:
            for name, values in scope.assignments.items():
                if all(_is_response(value) for value in values):
                    found.setdefault(id(scope), {})[name] = scope.binders[name]
        return found

    def single_binding(self, scope: Scope, response: str) -> cst.CSTNode | None:
        """The statement binding a response name bound once in the scope."""
        binders = self.responses.get(id(scope), {}).get(response, [])
        return binders[0] if len(binders) == 1 else None

    def response_of(self, scope: Scope, node: cst.BaseExpression) -> str | None:
        """The response name whose ``content`` ``node`` is (``r.content``), if it is."""
        if (
            isinstance(node, cst.Attribute)
            and node.attr.value == "content"
            and isinstance(node.value, cst.Name)
            and node.value.value in self.responses.get(id(scope), {})
        ):
            return node.value.value
        return None

    # -- which tool_use block a result answers

    def derived_from(self, scope: Scope, node: cst.BaseExpression, depth: int = 0) -> str | None:
        """The response whose ``content`` blocks ``node`` iterates: ``r.content`` itself, or
        a name assigned once to a comprehension, ``filter(...)`` or ``list(...)`` of them."""
        return derived_from(self.module, scope, node, lambda n: self.response_of(scope, n), depth)

    def answered(self, scope: Scope, block: cst.Dict) -> Answer | None:
        """Which ``tool_use`` block a ``tool_result`` answers, when it is read from a
        response of the scope: each block of a loop (or comprehension) over the
        response's ``content``, or one fixed block (``r.content[0]``, ``next(...)``,
        ``tool_uses[0]``)."""
        entry = dict_entry(block, "tool_use_id")
        if entry is None:
            return None
        return self.answer_of(scope, entry.value, block)

    def answer_of(
        self, scope: Scope, value: cst.BaseExpression, anchor: cst.CSTNode
    ) -> Answer | None:
        """``answered`` for an id expression of ``scope`` at ``anchor`` (the block, or the
        call of a helper that builds it)."""
        if isinstance(value, cst.Name):
            alias = scope.value_of(value.value)
            value = alias if alias is not None else value
        picked = next_pick(self.module, value)  # next(b.id for b in r.content if ...)
        if picked is not None:
            response = self.derived_from(scope, picked)
            return Answer("fixed", response, value) if response is not None else None
        owner = fixed_call_id(value)
        if owner is None:
            return None
        if isinstance(owner, cst.Subscript):
            return self._fixed(scope, owner)
        if not isinstance(owner, cst.Name):
            return None
        comprehension = self._comprehension_over(anchor, owner.value)
        if comprehension is not None:
            response = self.derived_from(scope, comprehension.iter)
            return Answer("loop", response, comprehension) if response is not None else None
        binders = scope.binders.get(owner.value, [])
        loops = [b for b in binders if isinstance(b, cst.For) and self.contains(b.body, anchor)]
        if loops:
            loop = loops[-1]
            iterable = loop.iter
            if (
                isinstance(iterable, cst.Call)
                and self.module.is_builtin(iterable.func, "enumerate")
                and iterable.args
            ):
                iterable = iterable.args[0].value
            response = self.derived_from(scope, iterable)
            return Answer("loop", response, loop) if response is not None else None
        chosen = scope.value_of(owner.value)
        if isinstance(chosen, cst.Subscript):
            return self._fixed(scope, chosen)
        picked = next_pick(self.module, chosen) if chosen is not None else None
        if picked is not None:
            assert chosen is not None
            response = self.derived_from(scope, picked)
            return Answer("fixed", response, chosen) if response is not None else None
        search = search_pick(scope, owner.value, anchor) if chosen is None else None
        if search is not None:  # for b in r.content: if b.type == "tool_use": x = b; break
            loop, exit_ = search
            response = self.derived_from(scope, loop.iter)
            return Answer("fixed", response, exit_) if response is not None else None
        return None

    @cached_property
    def answers(self) -> list[tuple[Scope, cst.CSTNode, cst.Dict, Answer]]:
        """Every ``tool_result`` whose ``tool_use_id`` is known to answer blocks of a
        response: ``(scope, anchor, block, answer)``, the anchor being the block itself,
        or — for a same-module helper that builds the block from a parameter
        (``def tool_result(tool_use_id, output): return {...}``) — each call of the
        helper, in the caller's scope, with the id it is given."""
        found: list[tuple[Scope, cst.CSTNode, cst.Dict, Answer]] = []
        for scope, block in self.tool_results:
            answer = self.answered(scope, block)
            if answer is not None:
                found.append((scope, block, block, answer))
                continue
            entry = dict_entry(block, "tool_use_id")
            function = scope.node
            if entry is not None and isinstance(function, cst.FunctionDef):
                found.extend(self._first_of_parameter(scope, function, block, entry.value))
            if (
                entry is None
                or not isinstance(entry.value, cst.Name)
                or not isinstance(function, cst.FunctionDef)
                or entry.value.value not in scope.parameters
                or entry.value.value in scope.assignments
            ):
                continue
            if not self._returned(block):
                continue  # only a helper that returns the block (or a message of it)
            for caller, call in self.calls_of(function):
                given = _argument(function, call, entry.value.value)
                if given is None:
                    continue
                answer = self.answer_of(caller, given, call)
                if answer is not None:
                    found.append((caller, call, block, answer))
        return found

    def _first_of_parameter(
        self, scope: Scope, function: cst.FunctionDef, block: cst.Dict, value: cst.BaseExpression
    ) -> Iterator[tuple[Scope, cst.CSTNode, cst.Dict, Answer]]:
        """A helper given the blocks (``def answer(blocks): block = blocks[0]; return
        {... "tool_use_id": block.id ...}``) answers one block of what each call gives
        it: a fixed answer, at the call."""
        parameter = self._picked_parameter(scope, value)
        if parameter is None or not self._returned(block):
            return
        for caller, call in self.calls_of(function):
            given = _argument(function, call, parameter)
            response = self.derived_from(caller, given) if given is not None else None
            if response is not None:
                yield caller, call, block, Answer("fixed", response, call)

    def _picked_parameter(self, scope: Scope, value: cst.BaseExpression) -> str | None:
        """The parameter one item of which an id expression reads: ``p[0].id``, ``b.id``
        with ``b = p[-1]`` or ``b = next(x for x in p if ...)``, ``next(x.id for x in p)``;
        the parameter never rebound."""
        if isinstance(value, cst.Name):
            alias = scope.value_of(value.value)
            value = alias if alias is not None else value
        picked = next_pick(self.module, value)
        if picked is None:
            owner = fixed_call_id(value)
            if isinstance(owner, cst.Name):
                chosen = scope.value_of(owner.value)
                owner = chosen if chosen is not None else owner
                picked = next_pick(self.module, owner) if chosen is not None else None
            if picked is None and isinstance(owner, cst.Subscript) and integer_index(owner):
                picked = owner.value
        if (
            isinstance(picked, cst.Name)
            and picked.value in scope.parameters
            and picked.value not in scope.assignments
        ):
            return picked.value
        return None

    def _returned(self, block: cst.Dict) -> bool:
        """The block is returned, itself or inside the list or message it is written in."""
        node: cst.CSTNode = block
        for _ in range(6):
            use = self.use_of(node)
            if use is None:
                return False
            if use.kind == "returned":
                return True
            if use.kind not in ("element", "comprehension", "chosen") and not (
                use.kind == "entry" and use.key == "content"
            ):
                return False
            node = use.holder
        return False

    def _fixed(self, scope: Scope, node: cst.Subscript) -> Answer | None:
        if not integer_index(node):
            return None
        response = self.derived_from(scope, node.value)
        return Answer("fixed", response, node) if response is not None else None

    def _comprehension_over(self, anchor: cst.CSTNode, name: str) -> cst.CompFor | None:
        use = self.use_of(anchor)
        while use is not None and use.kind == "chosen":
            use = self.use_of(use.holder)
        if use is None or use.kind != "comprehension":
            return None
        holder = use.holder
        assert isinstance(holder, (cst.ListComp, cst.GeneratorExp))
        clause: cst.CompFor | None = holder.for_in
        while clause is not None:
            if isinstance(clause.target, cst.Name) and clause.target.value == name:
                return clause
            clause = clause.inner_for_in
        return None

    def contains(self, outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
        start, end = self.module.index.span(outer)
        return start <= self.module.index.span(inner)[0] < end

    def position(self, node: cst.CSTNode) -> int:
        return self.module.index.span(node)[0]

    def assistant_turns(self, scope: Scope) -> list[cst.Dict]:
        """The scope's message dicts whose role is ``"assistant"``."""
        found = []
        for node in collect(scope.node, cst.Dict):
            assert isinstance(node, cst.Dict)
            role = role_of(node)
            if role is not None and role[1] == "assistant":
                found.append(node)
        return found

    def sends_whole_content(self, scope: Scope, response: str) -> bool:
        """An assistant message of the scope carries every block of the response:
        ``{"role": "assistant", "content": r.content}`` (also through a name, or a
        comprehension over the blocks without a condition)."""
        for turn in self.assistant_turns(scope):
            entry = dict_entry(turn, "content")
            if entry is None:
                continue
            value = entry.value
            if isinstance(value, cst.Name):
                alias = scope.value_of(value.value)
                value = alias if alias is not None else value
            if isinstance(value, (cst.ListComp, cst.GeneratorExp)):
                if value.for_in.ifs or value.for_in.inner_for_in is not None:
                    continue
                value = value.for_in.iter
            if self.response_of(scope, value) == response:
                return True
        return False

    # -- beta tools

    @cached_property
    def beta_tools(self) -> list[cst.FunctionDef]:
        """Functions decorated with the SDK's ``@beta_tool`` / ``@beta_async_tool`` (also
        called with arguments), at any depth."""
        return [found.function for found in decorated_with(self.module, BETA_TOOL_DECORATORS)]

    def inference(self, function: cst.FunctionDef | None) -> ShapeInference:
        return ShapeInference(self.module, function)


@dataclass(frozen=True)
class Answer:
    """What a ``tool_result`` answers: ``loop`` (every block a loop or comprehension
    visits) or ``fixed`` (one block, picked by ``node``), of ``response``'s content."""

    kind: str
    response: str
    node: cst.CSTNode


def is_request(call: cst.Call) -> bool:
    """``<x>.messages.create(...)`` / ``.stream(...)`` / ``.parse(...)``, also through
    ``.with_raw_response`` (not OpenAI's ``beta.threads.messages``)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in _REQUEST_METHODS:
        return False
    owner = func.value
    if isinstance(owner, cst.Attribute) and owner.attr.value in _RESPONSE_WRAPPERS:
        owner = owner.value
    if not isinstance(owner, cst.Attribute) or owner.attr.value != "messages":
        return False
    above = owner.value
    return not (isinstance(above, cst.Attribute) and above.attr.value in _NOT_ANTHROPIC_OWNERS)


def _argument(function: cst.FunctionDef, call: cst.Call, name: str) -> cst.BaseExpression | None:
    """The expression a call passes for a parameter (by position or keyword), if plain."""
    if any(arg.star for arg in call.args):
        return None
    params = function.params
    positional = [p.name.value for p in (*params.posonly_params, *params.params)]
    if isinstance(call.func, cst.Attribute) and positional[:1] in (["self"], ["cls"]):
        positional = positional[1:]
    for position, arg in enumerate(call.args):
        if arg.keyword is not None:
            if arg.keyword.value == name:
                return arg.value
        elif position < len(positional) and positional[position] == name:
            return arg.value
    return None


def _is_response(value: cst.BaseExpression | None) -> bool:
    if isinstance(value, cst.Await):
        value = value.expression
    return isinstance(value, cst.Call) and (is_request(value) or _is_final_message(value))


def _is_final_message(call: cst.Call) -> bool:
    func = call.func
    return isinstance(func, cst.Attribute) and func.attr.value == "get_final_message"


def _is_self_attribute(node: cst.Attribute) -> bool:
    return isinstance(node.value, cst.Name) and node.value.value in ("self", "cls")


def _message_list_parts(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The names and attributes a ``messages=`` value is made of: itself, the starred
    elements of a display, the operands of ``+``."""
    if isinstance(value, (cst.Name, cst.Attribute)):
        return [value]
    if isinstance(value, (cst.List, cst.Tuple)):
        return [
            e.value
            for e in value.elements
            if isinstance(e, cst.StarredElement) and isinstance(e.value, (cst.Name, cst.Attribute))
        ]
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        return _message_list_parts(value.left) + _message_list_parts(value.right)
    return []


def _record_uses(node: cst.CSTNode, uses: dict[int, Use]) -> None:
    if isinstance(node, (cst.List, cst.Tuple)):
        for item in node.elements:
            uses[id(item.value)] = Use("element", node)
    elif isinstance(node, (cst.ListComp, cst.GeneratorExp)):
        uses[id(node.elt)] = Use("comprehension", node)
    elif isinstance(node, cst.Dict):
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                uses[id(element.value)] = Use("entry", node, key=string_value(element.key))
    elif isinstance(node, cst.Call):
        func = node.func
        if is_request(node):
            arg = keyword(node, "messages")
            if arg is not None:
                uses[id(arg.value)] = Use("messages", node)
            return
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value in _ADD_METHODS
            and node.args
            and not any(a.keyword or a.star for a in node.args)
        ):
            added = node.args[-1].value
            if func.attr.value != "insert" or len(node.args) == 2:
                uses[id(added)] = Use("added", node, target=func.value)
            return
        for arg in node.args:
            uses.setdefault(id(arg.value), Use("other", node))
    elif isinstance(node, cst.Assign):
        if len(node.targets) == 1:
            uses[id(node.value)] = Use("assigned", node, target=node.targets[0].target)
    elif isinstance(node, cst.AnnAssign):
        if node.value is not None:
            uses[id(node.value)] = Use("assigned", node, target=node.target)
    elif isinstance(node, cst.AugAssign):
        if isinstance(node.operator, cst.AddAssign):
            uses[id(node.value)] = Use("added", node, target=node.target)
    elif isinstance(node, cst.Return):
        if node.value is not None:
            uses[id(node.value)] = Use("returned", node)
    elif isinstance(node, cst.Await):
        uses[id(node.expression)] = Use("awaited", node)
    elif isinstance(node, cst.IfExp):
        uses[id(node.body)] = Use("chosen", node)
        uses[id(node.orelse)] = Use("chosen", node)
    elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        uses[id(node.left)] = Use("concatenated", node)
        uses[id(node.right)] = Use("concatenated", node)


def recognise(module: ParsedModule, project: Project | None = None) -> AnthropicFile:
    """The module's Anthropic facts, kept on the module for the rules of one parse."""
    prepare_displays(module)
    return module.remembered(_MEMO, (), lambda: AnthropicFile(module))


_MEMO = "anthropic.recognise"
