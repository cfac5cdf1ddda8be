"""Recognition of hand-written OpenAI Responses API tool loops.

A module is checked when it imports ``openai``, and an item is judged when the module
makes Responses requests (``client.responses.create/stream/parse(...)``) or sends it as
a Realtime ``conversation.item.create`` event's ``"item"``. The Responses API answers the
``function_call`` items of ``response.output`` with items of the next request's
``input``::

    {"type": "function_call_output", "call_id": item.call_id, "output": "..."}

The facts are read as the Chat Completions and Anthropic families read theirs
(``frameworks/tool_loops.py``): dict displays (and the displays typed constructors
make) with a literal ``"type"``, in every function and the module body.
"""

from __future__ import annotations

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
    derived_from,
    dict_entry,
    has_double_star,
    integer_index,
    items_reaching,
    keyword,
    literal_entry,
    module_scopes,
    project_client,
    string_value,
    value_in,
)

PACKAGE = "openai"
OUTPUT_TYPE = "function_call_output"
_REQUEST_METHODS = frozenset({"create", "stream", "parse"})
_REALTIME_EVENT = "conversation.item.create"


def has_signal(source: str, path: str) -> bool:
    return prefilter.has_signal("openai_responses", source, path)


def is_function_call_output(node: cst.CSTNode) -> bool:
    return literal_entry(node, "type") == OUTPUT_TYPE


def is_request(call: cst.Call) -> bool:
    """``<client>.responses.create(...)`` / ``.stream`` / ``.parse`` (also through
    ``.with_raw_response`` / ``.with_streaming_response``)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in _REQUEST_METHODS:
        return False
    owner = func.value
    if isinstance(owner, cst.Attribute) and owner.attr.value in (
        "with_raw_response",
        "with_streaming_response",
    ):
        owner = owner.value
    return isinstance(owner, cst.Attribute) and owner.attr.value == "responses"


@dataclass
class ResponsesFile:
    """One module that may hold a Responses API tool loop."""

    module: ParsedModule
    project: Project | None = None

    @cached_property
    def is_checked(self) -> bool:
        """The module imports ``openai``, or a request's client is an OpenAI client made
        in another module of the project (``client = get_client()``, ``from .llm import
        client``): *Project facts*."""
        if self.module.imports_module(PACKAGE):
            return True
        return any(
            project_client(self.module, call, 2, (PACKAGE,))
            for call in collect(self.module.tree, cst.Call, nested=True)
            if isinstance(call, cst.Call) and is_request(call)
        )

    @cached_property
    def scopes(self) -> list[Scope]:
        return module_scopes(self.module)

    @cached_property
    def makes_requests(self) -> bool:
        """The module sends Responses API requests (``client.responses.create(...)``)."""
        return any(
            isinstance(call, cst.Call) and is_request(call)
            for call in collect(self.module.tree, cst.Call, nested=True)
        )

    @cached_property
    def realtime_items(self) -> frozenset[int]:
        """``id`` of each display sent as the ``"item"`` of a Realtime API
        ``{"type": "conversation.item.create", "item": ...}`` event."""
        found = set()
        for node in collect(self.module.tree, cst.Dict, nested=True):
            if literal_entry(node, "type") == _REALTIME_EVENT:
                assert isinstance(node, cst.Dict)
                entry = dict_entry(node, "item")
                if entry is not None:
                    found.add(id(entry.value))
        return frozenset(found)

    def is_sent(self, item: cst.Dict) -> bool:
        """Whether an item is known to go to the API: the module makes Responses requests,
        or the item is a Realtime event's ``"item"``. Items of a module that makes no
        request are data of another kind (a session store's fixtures, a converter's
        test): what happens to them is not known."""
        if self.makes_requests:
            return True
        return id(item) in self.realtime_items or id(self.module.index.original(item)) in (
            self.realtime_items
        )

    @cached_property
    def requests(self) -> list[tuple[Scope, cst.Call]]:
        """Every Responses request (``client.responses.create(...)``), with its scope."""
        found = []
        for scope in self.scopes:
            for node in collect(scope.node, cst.Call):
                if isinstance(node, cst.Call) and is_request(node):
                    found.append((scope, node))
        return found

    def value_of(self, scope: Scope, name: str) -> cst.BaseExpression | None:
        """``tool_loops.value_in``: the one value ``name`` has where ``scope`` reads it."""
        return value_in(self.module, scope, name)

    def listed(self, scope: Scope, call: cst.Call, name: str) -> list[cst.BaseExpression]:
        """The elements of the list a request's ``name=`` argument is written as (a display
        in the call, or a name bound once to one), each element a display or a name of
        one; starred elements aside."""
        arg = keyword(call, name)
        if arg is None:
            return []
        value: cst.BaseExpression | None = arg.value
        if isinstance(value, cst.Name):
            value = self.value_of(scope, value.value)
        if not isinstance(value, (cst.List, cst.Tuple)):
            return []
        found = []
        for element in value.elements:
            if isinstance(element, cst.StarredElement):
                continue
            item: cst.BaseExpression | None = element.value
            if isinstance(item, cst.Name):
                item = self.value_of(scope, item.value)
            if item is not None:
                found.append(item)
        return found

    def input_items(self, scope: Scope, request: cst.Call) -> list[cst.BaseExpression]:
        """The items known to reach a request's ``input=`` (``tool_loops.items_reaching``)."""
        return items_reaching(scope, request, "input")

    @cached_property
    def chat_message_lists(self) -> frozenset[str]:
        """The source text of every name or attribute passed as ``messages=`` anywhere in
        the module (a list that also goes to Chat Completions or another provider)."""
        found = set()
        for call in collect(self.module.tree, cst.Call, nested=True):
            assert isinstance(call, cst.Call)
            arg = keyword(call, "messages")
            if arg is not None:
                for part in collect(arg.value, cst.Name, cst.Attribute):
                    found.add(self.module.code_for(part).strip())
        return frozenset(found)

    @cached_property
    def function_call_outputs(self) -> list[tuple[Scope, cst.Dict]]:
        """Every ``{"type": "function_call_output", ...}`` display, with its scope."""
        found = []
        for scope in self.scopes:
            for node in collect(scope.node, cst.Dict):
                if is_function_call_output(node):
                    assert isinstance(node, cst.Dict)
                    found.append((scope, node))
        return found

    # -- which response's output an item expression reads

    def is_response(self, scope: Scope, name: str) -> bool:
        """Every binding of ``name`` in ``scope`` is a Responses request's result
        (``r = client.responses.create(...)``, ``r = await ...``)."""
        return bound_to(scope, name, is_request)

    def response_output(self, scope: Scope, node: cst.BaseExpression) -> str | None:
        """The response name whose ``output`` ``node`` is (``r.output``), if it is."""
        if (
            isinstance(node, cst.Attribute)
            and node.attr.value == "output"
            and isinstance(node.value, cst.Name)
            and self.is_response(scope, node.value.value)
        ):
            return node.value.value
        return None

    def output_items_of(self, scope: Scope, node: cst.BaseExpression) -> bool:
        """Whether ``node`` iterates the items of a response's ``output`` (``r.output``, or
        a list derived from it: ``tool_loops.derived_from``)."""
        return self.items_response(scope, node) is not None

    def items_response(self, scope: Scope, node: cst.BaseExpression) -> str | None:
        """The response whose ``output`` items ``node`` iterates (``r.output`` or a list
        derived from it), if it does."""
        return derived_from(self.module, scope, node, lambda n: self.response_output(scope, n))

    @cached_property
    def parallel_limited(self) -> bool:
        """A request may limit the model to one function call per response:
        ``parallel_tool_calls=`` anything but a literal ``True``, a ``tool_choice=``
        other than ``"auto"``/``"required"``, or a request with ``**kwargs``."""
        for call in collect(self.module.tree, cst.Call, nested=True):
            assert isinstance(call, cst.Call)
            arg = keyword(call, "parallel_tool_calls")
            if arg is not None and not (
                isinstance(arg.value, cst.Name) and arg.value.value == "True"
            ):
                return True
        for node in collect(self.module.tree, cst.Dict, nested=True):
            assert isinstance(node, cst.Dict)
            entry = dict_entry(node, "parallel_tool_calls")
            if entry is not None and not (
                isinstance(entry.value, cst.Name) and entry.value.value == "True"
            ):
                return True
        for _, request in self.requests:
            if has_double_star(request):
                return True
            choice = keyword(request, "tool_choice")
            if choice is not None and string_value(choice.value) not in ("auto", "required"):
                return True
        return False

    def carries_calls(self, scope: Scope, response: str) -> bool:
        """The response's function calls reach a later request of the scope: its output
        is added to a list (``x += r.output``, ``x.extend(r.output)``, ``[*r.output]``,
        ``r.output + [...]``), or a request chains it (``previous_response_id=r.id``)."""
        for node in collect(
            scope.node, cst.AugAssign, cst.StarredElement, cst.BinaryOperation, cst.Call
        ):
            if isinstance(node, cst.AugAssign):
                operands: list[cst.BaseExpression] = [node.value]
            elif isinstance(node, cst.StarredElement):
                operands = [node.value]
            elif isinstance(node, cst.BinaryOperation):
                operands = [node.left, node.right] if isinstance(node.operator, cst.Add) else []
            else:
                assert isinstance(node, cst.Call)
                func = node.func
                extends = isinstance(func, cst.Attribute) and func.attr.value == "extend"
                operands = [node.args[0].value] if extends and len(node.args) == 1 else []
            if any(self.response_output(scope, o) == response for o in operands):
                return True
        return any(
            chains(request, response) and request_scope is scope
            for request_scope, request in self.requests
        )

    def is_output_item(self, scope: Scope, node: cst.BaseExpression, anchor: cst.CSTNode) -> bool:
        """Whether ``node`` (read at ``anchor``) is one item of a response's ``output``: the
        target of a loop or comprehension over it that holds ``anchor``, or
        ``r.output[i]``."""
        if isinstance(node, cst.Subscript):
            return integer_index(node) and self.output_items_of(scope, node.value)
        if not isinstance(node, cst.Name):
            return False
        name = node.value
        index = self.module.index
        for found in collect(scope.node, cst.ListComp, cst.GeneratorExp, cst.For):
            if isinstance(found, cst.For):
                if not (isinstance(found.target, cst.Name) and found.target.value == name):
                    continue
                start, end = index.span(found.body)
                if start <= index.span(anchor)[0] < end:
                    return self.output_items_of(scope, found.iter) and _bound_once_by(
                        scope, name, found
                    )
                continue
            assert isinstance(found, (cst.ListComp, cst.GeneratorExp))
            start, end = index.span(found.elt)
            if not start <= index.span(anchor)[0] < end:
                continue
            clause: cst.CompFor | None = found.for_in
            while clause is not None:
                if isinstance(clause.target, cst.Name) and clause.target.value == name:
                    return self.output_items_of(scope, clause.iter)
                clause = clause.inner_for_in
        return False


def responses_only(module: ParsedModule, project: Project | None = None) -> bool:
    """The module imports ``openai`` and sends Responses API requests but no Chat
    Completions request: the functions its dispatch registries call are tools of a
    Responses loop (``openai_chat`` recognises the registries, for both families)."""
    from lint_rules.frameworks.openai_chat.recognition import recognise

    def decide() -> bool:
        responses = ResponsesFile(module, project)
        return responses.is_checked and responses.makes_requests and not recognise(module).requests

    return bool(module.remembered("openai_responses.only", (), decide))


def chains(request: cst.Call, response: str) -> bool:
    """The request continues the response: ``previous_response_id=<response>.id``."""
    arg = keyword(request, "previous_response_id")
    return (
        arg is not None
        and isinstance(arg.value, cst.Attribute)
        and arg.value.attr.value == "id"
        and isinstance(arg.value.value, cst.Name)
        and arg.value.value.value == response
    )


def _bound_once_by(scope: Scope, name: str, loop: cst.For) -> bool:
    """The loop is the name's only binding in the scope (so, in its body, the name is
    the loop's item)."""
    binders = scope.binders.get(name, [])
    return len(binders) == 1 and binders[0] is loop
