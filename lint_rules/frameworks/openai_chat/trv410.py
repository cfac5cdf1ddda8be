"""TRV410 chat-tool-message-before-assistant-message."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import libcst as cst

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.walk import parent_map
from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat._loops import HEAD
from lint_rules.frameworks.openai_chat.recognition import (
    ChatFile,
    Scope,
    collect,
    dict_entry,
    fixed_call_id,
    is_tool_message,
    keyword,
    string_value,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class ChatToolMessageBeforeAssistantMessage(Rule):
    """
    ## What it does
    Checks for tool messages that answer the `tool_calls` of a response
    received in the same function (or module body) — each `tool_call_id`
    read from a loop, or a comprehension, over
    `<response>.choices[0].message.tool_calls` or an alias of it — and are
    added to the messages of a request while the assistant message that
    carries those calls is added on no path before them: never, or only
    after them. A tool message counts as added when it is appended,
    inserted or `extend`-ed to a list passed as `messages=` to
    `chat.completions.create(...)`, also through a local list of answers
    (`messages.extend(tool_messages)`), or written in a request's
    `messages=[...]` display.

    Not reported when the assistant message *may* be added first: the
    message (or the response, or its `choices`) used in any way but reading
    its content, testing or iterating its `tool_calls` — appended,
    conditionally or not, written in a display, handed to a helper
    (`remember(messages, message)`), stored — anywhere between the response
    and the tool messages (or later in a loop that reaches them again); an
    assistant-like message built there (`"role": "assistant"`, a computed
    role, a `tool_calls` key); the messages list handed to a helper there;
    the message inserted anywhere (`messages.insert(i, message)`). Nor when
    the messages list is not a local name (`self.messages`, `state
    ["messages"]`: another method may add the message), nor when the
    response is not received in the function (a parameter, a helper's
    result): whoever made the request may have added it.

    ## Why is this bad?
    A tool message must answer a call of the assistant message right before
    it. Without that assistant message (or with it after the answers) the
    API rejects the request with HTTP 400 "messages with role 'tool' must be
    a response to a preceding message with 'tool_calls'" — on the first turn
    where the model calls a tool. The SDK sends the list as it is. Append
    the response's `message` (or a dict built from it with its
    `tool_calls`) first, then the tool messages.

    ## References
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    """

    code = "TRV410"
    name = "chat-tool-message-before-assistant-message"
    severity = Severity.ERROR
    framework = "openai_chat"
    message = "Tool messages sent without the assistant message before them"

    invalid = (
        Example(
            title="every call answered, the assistant message never appended",
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    for tool_call in message.tool_calls or []:
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="appended after the tool messages, in a script",
            code=HEAD
            + """\
messages = [{"role": "user", "content": "What's the weather in Paris and in Rome?"}]
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
response_message = response.choices[0].message
tool_messages = [
    {
        "role": "tool",
        "tool_call_id": tool_call.id,
        "content": get_weather(**json.loads(tool_call.function.arguments)),
    }
    for tool_call in response_message.tool_calls
]
messages.extend(tool_messages)
messages.append(response_message)
final = client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="a conversation loop that never keeps the assistant message",
            code=HEAD
            + """\
def chat(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    while response.choices[0].message.tool_calls:
        for tool_call in response.choices[0].message.tool_calls:
            args = json.loads(tool_call.function.arguments)
            messages.append(
                {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
            )
        response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    return response.choices[0].message.content
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    for tool_call in message.tool_calls or []:
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
        )
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="appended only when there are calls",
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    if message.tool_calls:
        messages.append(message)
    for tool_call in message.tool_calls or []:
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": "Sunny"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="appended by a helper",
            code=HEAD
            + """\
def remember(messages, message):
    messages.append(message.model_dump(exclude_none=True))


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    remember(messages, message)
    for tool_call in message.tool_calls or []:
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": "Sunny"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="a conversation owned by a class: another method may add the message",
            code=HEAD
            + """\
class Agent:
    def __init__(self):
        self.messages = []

    def step(self):
        response = client.chat.completions.create(
            model="gpt-4o", messages=self.messages, tools=tools
        )
        for tool_call in response.choices[0].message.tool_calls or []:
            self.messages.append(
                {"role": "tool", "tool_call_id": tool_call.id, "content": "Sunny"}
            )
""",
        ),
        Example(
            title="an assistant dict built from the message, then the answers in the request",
            code=HEAD
            + """\
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    answers = [
        {"role": "tool", "tool_call_id": call.id, "content": "Sunny"}
        for call in message.tool_calls
    ]
    assistant = {
        "role": "assistant",
        "content": message.content,
        "tool_calls": [call.model_dump() for call in message.tool_calls],
    }
    return client.chat.completions.create(
        model="gpt-4o", messages=[*messages, assistant, *answers]
    )
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        if not context.checks(self.code, settings):
            return
        if not context.requests:
            return
        conversations = _conversations(context)
        flow: _Flow | None = None
        for answer in _answers(context):
            if flow is None:
                flow = _Flow(context, conversations)
            finding = flow.judge(answer)
            if finding is not None:
                yield replace(finding, message=context.contract.say(finding.message))


# ------------------------------------------------------------------ answers


@dataclass
class _Answer:
    """A tool message that answers each call a loop (or comprehension) visits."""

    scope: Scope
    message: cst.Dict
    iterable: cst.BaseExpression
    """The ``tool_calls`` expression iterated."""
    anchor: cst.CSTNode
    """The ``for`` loop, or the comprehension."""


def _answers(context: ChatFile) -> Iterator[_Answer]:
    for loop in context.loops:
        if loop.variable is None:
            continue  # whose calls: told by ``_Flow.chain`` (a name bound twice alike too)
        iterable = loop.node.iter
        if (
            isinstance(iterable, cst.Call)
            and iterable.args
            and context.module.is_builtin(iterable.func, "enumerate")
        ):
            iterable = iterable.args[0].value
        for message in loop.tool_messages:
            if _answers_variable(loop.scope, message, loop.variable):
                yield _Answer(loop.scope, message, iterable, loop.node)
    for scope in context.scopes:
        for comprehension in collect(scope.node, cst.ListComp, cst.GeneratorExp):
            assert isinstance(comprehension, (cst.ListComp, cst.GeneratorExp))
            clause = comprehension.for_in
            if clause.inner_for_in is not None or not isinstance(clause.target, cst.Name):
                continue
            element = comprehension.elt
            branches = (
                [element.body, element.orelse] if isinstance(element, cst.IfExp) else [element]
            )
            for branch in branches:
                if (
                    isinstance(branch, cst.Dict)
                    and is_tool_message(branch)
                    and _answers_variable(scope, branch, clause.target.value)
                ):
                    yield _Answer(scope, branch, clause.iter, comprehension)
                    break


def _answers_variable(scope: Scope, message: cst.Dict, variable: str) -> bool:
    entry = dict_entry(message, "tool_call_id")
    if entry is None:
        return False
    value = entry.value
    if isinstance(value, cst.Name):
        alias = scope.value_of(value.value)
        value = alias if alias is not None else value
    owner = fixed_call_id(value)
    return isinstance(owner, cst.Name) and owner.value == variable


# ------------------------------------------------------------------ conversations


def _conversations(context: ChatFile) -> frozenset[str]:
    """Names passed whole as ``messages=`` to a request of the module (also as the
    ``"messages"`` entry of a dict of arguments when a request passes ``**kwargs``)."""
    found: set[str] = set()
    spread = False
    for request in context.requests:
        arg = keyword(request, "messages")
        if arg is not None and isinstance(arg.value, cst.Name):
            found.add(arg.value.value)
        spread = spread or any(a.star == "**" for a in request.args)
    if spread:
        for _, node in context.nodes(cst.Dict):
            assert isinstance(node, cst.Dict)
            entry = dict_entry(node, "messages")
            if entry is not None and isinstance(entry.value, cst.Name):
                found.add(entry.value.value)
    return frozenset(found)


_ADD_METHODS = frozenset({"append", "insert", "extend"})
_HARMLESS_BUILTINS = frozenset(
    {"len", "print", "str", "repr", "bool", "isinstance", "type", "id", "enumerate"}
)
_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical"})
_STRUCTURE = frozenset({"choices", "message", "tool_calls"})
"""The attributes between a response and its calls: a read of anything else (``content``,
``finish_reason``, ``usage``…) cannot carry the calls."""


@dataclass
class _Site:
    """Where tool messages join the messages of a request."""

    node: cst.CSTNode
    """The statement part that adds them: the ``append``/``extend`` call, the ``+=``,
    or the element of a ``messages=[...]`` display."""
    lists: list[str] = field(default_factory=list)
    """The names of the messages list(s) they join."""


@dataclass
class _Chain:
    """The response whose calls are answered, and the names on the way to them."""

    response: str
    names: frozenset[str]
    binders: list[cst.CSTNode]
    """Every binding of those names (assignments: the chain is made of them only)."""
    spelled: str
    """The message as the code spells it (``message``, ``response.choices[0].message``)."""


class _Flow:
    def __init__(self, context: ChatFile, conversations: frozenset[str]) -> None:
        self.context = context
        self.module: ParsedModule = context.module
        self.conversations = conversations
        self.reported: set[int] = set()
        self.requests = {id(call) for call in context.requests}
        self.scope_of_function = {
            id(scope.node): scope for scope in context.scopes if scope.node is not self.module.tree
        }
        self._scope_parents: dict[int, dict[int, cst.CSTNode]] = {}

    # -- tree facts

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The node's parent, from a map of the function (or class, lambda, module)
        around it, built the first time a node of it is asked about: the rule looks at
        a few functions of a module, not at all of its nodes."""
        index = self.module.index
        if node not in index:
            return None
        scope = index.enclosing_scope(node) or self.module.tree
        parents = self._scope_parents.get(id(scope))
        if parents is None:
            parents = self._scope_parents[id(scope)] = parent_map(scope)
        return parents.get(id(node))

    def position(self, node: cst.CSTNode) -> int:
        return self.module.index.span(node)[0]

    def end(self, node: cst.CSTNode) -> int:
        return self.module.index.span(node)[1]

    def contains(self, outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
        start, end = self.module.index.span(outer)
        return start <= self.position(inner) < end

    # -- the judgement

    def judge(self, answer: _Answer) -> Finding | None:
        if id(answer.anchor) in self.reported:
            return None
        scope = answer.scope
        at_message = self.position(answer.message)
        chain = self.chain(scope, answer.iterable, at_message)
        if chain is None or self.closed_over(scope, chain):
            return None
        for site in sorted(self.sites(answer), key=lambda s: self.position(s.node)):
            if not self.may_precede(scope, chain, site):
                self.reported.add(id(answer.anchor))
                return Finding(
                    node=site.node,
                    message=(
                        f"Tool messages answer `{chain.spelled}`'s tool calls, but that "
                        'assistant message is not added before them: HTTP 400 "messages '
                        "with role 'tool' must be a response to a preceding message with "
                        f"'tool_calls'\"; append `{chain.spelled}` first"
                    ),
                )
        return None

    # -- which response

    def chain(self, scope: Scope, iterable: cst.BaseExpression, at: int) -> _Chain | None:
        """``<response>.choices[0].message.tool_calls`` through once-meant aliases, the
        response bound in the scope to requests only."""
        if isinstance(iterable, cst.BooleanOperation) and isinstance(iterable.operator, cst.Or):
            iterable = iterable.left
        names: set[str] = set()
        binders: list[cst.CSTNode] = []
        parts: list[str] = []
        node: cst.BaseExpression = iterable
        spelled: cst.BaseExpression = iterable
        response: str | None = None
        for _ in range(12):
            if isinstance(node, cst.Name):
                name = node.value
                if name in scope.parameters:
                    return None
                values = scope.assignments.get(name)
                if not values:
                    return None
                names.add(name)
                binders.extend(scope.binders[name])
                if all(self.is_request(v) for v in values):
                    response = name
                    break
                if any(v is None for v in values):
                    return None
                texts = {self.module.code_for(v).strip() for v in values if v is not None}
                if len(texts) != 1:
                    return None  # an alias bound to different things
                before = [
                    v
                    for v, b in zip(values, scope.binders[name], strict=True)
                    if self.position(b) < at
                ]
                value = before[-1] if before else values[0]
                assert value is not None
                if node is iterable:
                    spelled = value  # ``tool_calls = message.tool_calls``: ``message``
                node = value
            elif isinstance(node, cst.Attribute):
                parts.append(node.attr.value)
                node = node.value
            elif (
                isinstance(node, cst.Subscript)
                and len(node.slice) == 1
                and isinstance(node.slice[0].slice, cst.Index)
                and isinstance(node.slice[0].slice.value, cst.Integer)
                and node.slice[0].slice.value.value == "0"
            ):
                parts.append("[0]")
                node = node.value
            else:
                return None
        if response is None or parts != ["tool_calls", "message", "[0]", "choices"]:
            return None
        text = self.module.code_for(spelled).strip()
        text = text[: -len(".tool_calls")] if text.endswith(".tool_calls") else "the response"
        return _Chain(response, frozenset(names), binders, text)

    def is_request(self, value: cst.BaseExpression | None) -> bool:
        if isinstance(value, cst.Await):
            value = value.expression
        return isinstance(value, cst.Call) and id(value) in self.requests

    def closed_over(self, scope: Scope, chain: _Chain) -> bool:
        """A nested function, lambda or class of the scope reads one of the names (a
        helper of a script may add the message), or the scope declares one
        ``global``/``nonlocal``."""
        own = {id(n) for n in collect(scope.node, cst.Name)}
        for node in collect(scope.node, cst.Name, nested=True):
            assert isinstance(node, cst.Name)
            if node.value not in chain.names or id(node) in own:
                continue
            enclosing = self.module.index.enclosing_scope(node)
            inner = self.scope_of_function.get(id(enclosing)) if enclosing is not None else None
            if inner is not None and (
                node.value in inner.assignments or node.value in inner.parameters
            ):
                continue  # a local of its own (``response`` of another request)
            return True
        for declaration in collect(scope.node, cst.Global, cst.Nonlocal):
            assert isinstance(declaration, (cst.Global, cst.Nonlocal))
            if any(item.name.value in chain.names for item in declaration.names):
                return True
        return False

    # -- where the tool messages go

    def sites(self, answer: _Answer) -> list[_Site]:
        scope = answer.scope
        found: list[_Site] = []
        for target, node in self.destinations(scope, answer):
            if isinstance(target, cst.Call):  # written in a request's display
                found.append(_Site(node, self.display_lists(target, node)))
                continue
            if not isinstance(target, cst.Name) or self.foreign(scope, target.value):
                continue
            if target.value in self.conversations:
                found.append(_Site(node, [target.value]))
                continue
            # a local list of answers, added to the conversation (or sent) later
            for later_target, later in self.joins(scope, target.value):
                if isinstance(later_target, cst.Call):
                    found.append(_Site(later, self.display_lists(later_target, later)))
                elif (
                    isinstance(later_target, cst.Name)
                    and later_target.value in self.conversations
                    and not self.foreign(scope, later_target.value)
                ):
                    found.append(_Site(later, [later_target.value]))
        return found

    def destinations(
        self, scope: Scope, answer: _Answer
    ) -> Iterator[tuple[cst.BaseExpression, cst.CSTNode]]:
        """``(list, site)`` for each place the tool message (or the list the comprehension
        makes) is added: ``(X, X.append(...))``, ``(X, X += [...])``, ``(X, X = [...])``
        for a comprehension assigned to a local list, ``(request, element)`` for an
        element of a request's ``messages=`` display."""
        value: cst.CSTNode = answer.message
        if answer.anchor is not answer.message and isinstance(
            answer.anchor, (cst.ListComp, cst.GeneratorExp)
        ):
            value = answer.anchor
        else:
            name = self.assigned_name(value)
            if name is not None:
                for use in collect(scope.node, cst.Name):
                    assert isinstance(use, cst.Name)
                    if use.value == name and self.position(use) > self.position(value):
                        yield from self.added(scope, use)
                return
        yield from self.added(scope, value)

    def assigned_name(self, value: cst.CSTNode) -> str | None:
        parent = self.parent(value)
        if (
            isinstance(parent, cst.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0].target, cst.Name)
        ):
            return parent.targets[0].target.value
        return None

    def added(
        self, scope: Scope, value: cst.CSTNode
    ) -> Iterator[tuple[cst.BaseExpression, cst.CSTNode]]:
        """Where ``value`` (a message, or a list of them) is added to a list."""
        node = value
        parent = self.parent(node)
        if isinstance(parent, cst.IfExp):
            node, parent = parent, self.parent(parent)
        if isinstance(parent, (cst.Element, cst.StarredElement)):
            display = self.parent(parent)
            holder = self.parent(display) if display is not None else None
            request = self.request_of_messages(display) if display is not None else None
            if request is not None:
                yield request, parent
                return
            if isinstance(holder, cst.Arg):
                call = self.parent(holder)
                if (
                    isinstance(call, cst.Call)
                    and isinstance(call.func, cst.Attribute)
                    and call.func.attr.value == "extend"
                ):
                    yield call.func.value, call
            elif isinstance(holder, cst.AugAssign) and holder.value is display:
                yield holder.target, holder
            return
        if isinstance(parent, cst.Arg):
            call = self.parent(parent)
            if (
                isinstance(call, cst.Call)
                and isinstance(call.func, cst.Attribute)
                and call.func.attr.value in _ADD_METHODS
                and call.args
                and call.args[-1] is parent
                and not any(a.keyword or a.star for a in call.args)
            ):
                yield call.func.value, call
            return
        if isinstance(parent, cst.AugAssign) and isinstance(parent.operator, cst.AddAssign):
            yield parent.target, parent
            return
        if isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Add):
            request = self.request_of_messages(parent)
            if request is not None:
                yield request, node
            return
        if isinstance(node, (cst.ListComp, cst.GeneratorExp)):
            name = self.assigned_name(node)
            if name is not None and isinstance(parent, cst.Assign):
                target = parent.targets[0].target
                assert isinstance(target, cst.Name)
                yield target, parent

    def request_of_messages(self, value: cst.CSTNode) -> cst.Call | None:
        """The request whose ``messages=`` is ``value`` (a display, or a ``+`` of them)."""
        node = value
        for _ in range(6):
            parent = self.parent(node)
            if isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Add):
                node = parent
                continue
            if isinstance(parent, cst.Arg) and parent.keyword is not None:
                call = self.parent(parent)
                if (
                    parent.keyword.value == "messages"
                    and isinstance(call, cst.Call)
                    and id(call) in self.requests
                ):
                    return call
            return None
        return None

    def joins(self, scope: Scope, name: str) -> Iterator[tuple[cst.BaseExpression, cst.CSTNode]]:
        """Where a local list of tool messages is added to another list or sent."""
        for use in collect(scope.node, cst.Name):
            assert isinstance(use, cst.Name)
            if use.value != name:
                continue
            parent = self.parent(use)
            if isinstance(parent, cst.Arg):
                call = self.parent(parent)
                if (
                    isinstance(call, cst.Call)
                    and isinstance(call.func, cst.Attribute)
                    and call.func.attr.value == "extend"
                    and len(call.args) == 1
                    and not parent.star
                    and parent.keyword is None
                ):
                    yield call.func.value, call
            elif (
                isinstance(parent, cst.AugAssign)
                and isinstance(parent.operator, cst.AddAssign)
                and parent.value is use
            ):
                yield parent.target, parent
            elif isinstance(parent, cst.StarredElement):
                display = self.parent(parent)
                request = self.request_of_messages(display) if display is not None else None
                if request is not None:
                    yield request, parent
            elif isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Add):
                request = self.request_of_messages(parent)
                if request is not None:
                    yield request, use

    def display_lists(self, request: cst.Call, element: cst.CSTNode) -> list[str]:
        """The names spread into a request's ``messages=`` before ``element``."""
        arg = keyword(request, "messages")
        if arg is None:
            return []
        at = self.position(element)
        return [
            n.value
            for n in collect(arg.value, cst.Name)
            if isinstance(n, cst.Name) and self.position(n) < at
        ]

    def foreign(self, scope: Scope, name: str) -> bool:
        """The list is not the function's own: an alias of an attribute or an item
        (``messages = self.messages``), or bound by a ``with``/``for``/walrus."""
        values = scope.assignments.get(name, [])
        return any(
            not (
                isinstance(v, (cst.List, cst.Name, cst.ListComp))
                or (isinstance(v, cst.Call) and isinstance(v.func, cst.Name))
            )
            for v in values
        )

    # -- may the assistant message come first?

    def regions(self, scope: Scope, chain: _Chain, at: int) -> list[tuple[int, int]]:
        """The stretches of code that may run between the response and ``at``."""
        binders = scope.binders.get(chain.response, [])
        before = [b for b in binders if self.position(b) < at]
        if not before:
            return [(0, 1 << 62)]  # received only after (in a loop): anything may precede
        last = before[-1]
        start = self.position(last) if self.unconditional(last, at) else self.position(before[0])
        found = [(start, at)]
        for loop in collect(scope.node, cst.For, cst.While):
            if self.position(loop) >= at or not self.contains(loop, self.module.index.node_at(at)):
                continue
            inside = [b for b in binders if self.contains(loop, b)]
            later = [b for b in inside if self.position(b) > at]
            if later:
                found.append((self.position(later[0]), self.end(loop)))
                found.append((self.position(loop), at))
            elif not inside:
                found.append((at, self.end(loop)))
        return found

    def unconditional(self, binder: cst.CSTNode, at: int) -> bool:
        """The binding sits in a block (of statements) that also holds ``at``."""
        block: cst.CSTNode | None = self.parent(binder)
        while block is not None and not isinstance(
            block, (cst.IndentedBlock, cst.SimpleStatementSuite, cst.Module)
        ):
            block = self.parent(block)
        return block is not None and self.contains(block, self.module.index.node_at(at))

    def may_precede(self, scope: Scope, chain: _Chain, site: _Site) -> bool:
        at = self.position(site.node)
        regions = self.regions(scope, chain, at)

        def inside(node: cst.CSTNode) -> bool:
            position = self.position(node)
            return any(low < position < high for low, high in regions)

        for node in collect(scope.node, cst.Name):
            assert isinstance(node, cst.Name)
            if node.value in chain.names:
                if any(self.contains(b, node) for b in chain.binders):
                    continue  # the bindings on the way to the calls
                if self.inserted(node):
                    return True
                if inside(node) and not self.harmless(scope, node, chain):
                    return True
            elif node.value in site.lists and inside(node) and self.handed_on(node):
                return True
        for node in collect(scope.node, cst.Dict, cst.Call):
            if inside(node) and _assistant_like(node):
                return True
        return False

    def inserted(self, name: cst.Name) -> bool:
        """``messages.insert(i, <the message>)`` anywhere: put before the answers later."""
        node: cst.CSTNode | None = self.parent(name)
        for _ in range(8):
            if node is None:
                return False
            if isinstance(node, cst.Call):
                func = node.func
                if isinstance(func, cst.Attribute) and func.attr.value == "insert":
                    return True
            if isinstance(node, cst.BaseStatement):
                return False
            node = self.parent(node)
        return False

    def harmless(self, scope: Scope, name: cst.Name, chain: _Chain) -> bool:
        """A use of a name on the way to the calls that cannot add the message."""
        node: cst.CSTNode = name
        path: list[str] = []
        while True:
            parent = self.parent(node)
            if isinstance(parent, cst.Attribute) and parent.value is node:
                attribute = parent.attr.value
                grand = self.parent(parent)
                called = isinstance(grand, cst.Call) and grand.func is parent
                if attribute not in _STRUCTURE:
                    return not called  # ``message.content``; ``message.model_dump()`` is not
                path.append(attribute)
                node = parent
            elif isinstance(parent, cst.Subscript) and parent.value is node:
                path.append("[]")
                node = parent
            else:
                break
        if path and path[-1] == "[]" and "tool_calls" in path:
            return True  # one call
        parent = self.parent(node)
        iterated, loop = node, parent
        if isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.Or):
            iterated, loop = parent, self.parent(parent)  # ``message.tool_calls or []``
        if isinstance(loop, (cst.For, cst.CompFor)) and loop.iter is iterated:
            return self.are_calls(scope, node, path)
        if self.tested(node) or isinstance(parent, cst.FormattedStringExpression):
            return True
        if isinstance(parent, cst.Arg):
            call = self.parent(parent)
            return isinstance(call, cst.Call) and self.harmless_callee(call.func)
        return (
            isinstance(parent, cst.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0].target, cst.Name)
            and parent.targets[0].target.value in chain.names
        )  # an alias on the way to the calls

    def harmless_callee(self, func: cst.BaseExpression) -> bool:
        """``len``, ``print`` and the like, or a logger's method."""
        if isinstance(func, cst.Name):
            return func.value in _HARMLESS_BUILTINS and self.module.is_builtin(func, func.value)
        return isinstance(func, cst.Attribute) and func.attr.value in _LOG_METHODS

    def are_calls(self, scope: Scope, node: cst.CSTNode, path: list[str]) -> bool:
        """The iterated expression is the calls: ``message.tool_calls``, or a name every
        binding of which is one."""
        if path:
            return path[-1] == "tool_calls"
        values = scope.assignments.get(node.value, []) if isinstance(node, cst.Name) else []
        return bool(values) and all(
            isinstance(v, cst.Attribute) and v.attr.value == "tool_calls" for v in values
        )

    def tested(self, node: cst.CSTNode) -> bool:
        """Only tested for truth, ``None`` or a value (``if message.tool_calls:``)."""
        current = node
        for _ in range(6):
            parent = self.parent(current)
            negated = isinstance(parent, cst.UnaryOperation) and isinstance(
                parent.operator, cst.Not
            )
            if negated or isinstance(parent, cst.BooleanOperation):
                assert parent is not None
                current = parent
            elif isinstance(parent, (cst.Comparison, cst.ComparisonTarget)):
                return True
            elif isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.Assert)):
                return getattr(parent, "test", None) is current
            else:
                return False
        return False

    def handed_on(self, name: cst.Name) -> bool:
        """The messages list given to a function other than a request or a harmless
        builtin: a helper may add the assistant message."""
        parent = self.parent(name)
        if not isinstance(parent, cst.Arg):
            return False
        call = self.parent(parent)
        if not isinstance(call, cst.Call) or id(call) in self.requests:
            return False
        return not self.harmless_callee(call.func)


def _assistant_like(node: cst.CSTNode) -> bool:
    """A message that may be the assistant's: a dict display (or a call with keywords,
    a ``TypedDict`` or ``dict(...)``) with ``"role": "assistant"``, a computed role, or a
    ``tool_calls`` entry."""
    if isinstance(node, cst.Dict):
        if dict_entry(node, "tool_calls") is not None:
            return True
        entry = dict_entry(node, "role")
        if entry is None:
            return False
        role = string_value(entry.value)
        return role is None or role == "assistant"
    if isinstance(node, cst.Call):
        if keyword(node, "tool_calls") is not None:
            return True
        arg = keyword(node, "role")
        if arg is None:
            return False
        role = string_value(arg.value)
        return role is None or role == "assistant"
    return False
