"""TRV502 anthropic-tool-result-before-assistant-turn."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.anthropic._examples import HEAD
from lint_rules.frameworks.anthropic.recognition import AnthropicFile, Scope, role_of
from lint_rules.frameworks.tool_loops import collect
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AnthropicToolResultBeforeAssistantTurn(Rule):
    """
    ## What it does
    Checks for a user message of `tool_result` blocks that is added to the
    messages of the next request while the assistant turn holding their
    `tool_use` blocks (`response.content`) is added on no path before it:
    never, or only after it. Looked for where the response is received (in
    every function, and in the module body).

    Not reported when the assistant turn *may* be added first: an assistant
    message anywhere before the results, the response handed to any other
    function or stored (a helper or a history object may add it), or — in a
    loop — the response bound more than once. Nor when a request of the module
    passes `thread=` (anthropic 2.x beta: the server holds the conversation,
    and the next request carries only the new user turn) or `**kwargs`.

    ## Why is this bad?
    Each `tool_result` must answer a `tool_use` block of the *previous*
    message. Without the assistant turn (or after it), the API rejects the
    request with HTTP 400 "unexpected `tool_use_id` found in `tool_result`
    blocks" — on the first turn where the model uses a tool. The SDK checks
    nothing (anthropic-sdk-python#1052: one of its own examples did this).

    ## References
    - [Anthropic: handling tool use](https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use)
    """

    code = "TRV502"
    name = "anthropic-tool-result-before-assistant-turn"
    severity = Severity.ERROR
    framework = "anthropic"
    message = "Tool results sent without the assistant turn before them"

    invalid = (
        Example(
            title="the assistant turn never added",
            code=HEAD
            + """\
def run(messages):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
    )
    results = []
    for block in response.content:
        if block.type == "tool_use":
            output = get_weather(**block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
    messages.append({"role": "user", "content": results})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="added after the results, in a script",
            code=HEAD
            + """\
messages = [{"role": "user", "content": "Weather in Paris?"}]
response = client.messages.create(
    model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
)
results = [
    {"type": "tool_result", "tool_use_id": block.id, "content": get_weather(**block.input)}
    for block in response.content
    if block.type == "tool_use"
]
messages.append({"role": "user", "content": results})
messages.append({"role": "assistant", "content": response.content})
final = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def run(messages):
    while True:
        response = client.messages.create(
            model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return response
        results = []
        for block in response.content:
            if block.type == "tool_use":
                output = get_weather(**block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
        messages.append({"role": "user", "content": results})
""",
        ),
        Example(
            title="a server-held thread (anthropic 2.x beta)",
            code=HEAD
            + """\
def ask(question):
    response = client.beta.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        tools=tools,
        thread={"type": "create"},
        messages=[{"role": "user", "content": question}],
    )
    results = [
        {"type": "tool_result", "tool_use_id": block.id, "content": get_weather(**block.input)}
        for block in response.content
        if block.type == "tool_use"
    ]
    return client.beta.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        thread={"type": "continue", "previous_message_id": response.id},
        messages=[{"role": "user", "content": results}],
    )
""",
        ),
        Example(
            title="a history object that may add the assistant turn",
            code=HEAD
            + """\
def run(history):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=history.messages
    )
    history.add_response(response)
    results = [
        {"type": "tool_result", "tool_use_id": block.id, "content": get_weather(**block.input)}
        for block in response.content
        if block.type == "tool_use"
    ]
    history.messages.append({"role": "user", "content": results})
""",
        ),
        Example(
            title="the conversation rebuilt for each request, as the cookbook writes it",
            code=HEAD
            + """\
question = "Weather in Paris?"
response = client.messages.create(
    model="claude-sonnet-4-5",
    max_tokens=1024,
    tools=tools,
    messages=[{"role": "user", "content": question}],
)
results = [
    {"type": "tool_result", "tool_use_id": block.id, "content": get_weather(**block.input)}
    for block in response.content
    if block.type == "tool_use"
]
final = client.messages.create(
    model="claude-sonnet-4-5",
    max_tokens=1024,
    tools=tools,
    messages=[
        {"role": "user", "content": question},
        {"role": response.role, "content": response.content},
        {"role": "user", "content": results},
    ],
)
""",
        ),
    )

    def check(self, context: AnthropicFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked or context.server_threads:
            return
        reported: set[int] = set()
        for scope, anchor, _, answer in context.answers:
            reach = context.follow(scope, anchor)
            if not reach.reaches:
                continue
            for message in reach.messages:
                role = role_of(message)
                if (
                    id(message) in reported
                    or role is None
                    or role[1] != "user"
                    or context.scope_of(message) is not scope
                    or not _added_directly(context, message)
                    or _assistant_may_precede(context, scope, answer.response, message)
                ):
                    continue
                reported.add(id(message))
                yield Finding(
                    node=role[0],
                    message=(
                        f"Tool results for `{answer.response}`'s `tool_use` blocks are sent, "
                        "but its assistant turn is not added before them: HTTP 400 "
                        '"unexpected `tool_use_id`"; append `{"role": "assistant", "content": '
                        f"{answer.response}.content}}` first"
                    ),
                )


def _added_directly(context: AnthropicFile, message: cst.Dict) -> bool:
    """The message dict is appended (or written in a request's ``messages=`` display)
    where it is written, not bound to a name first."""
    use = context.use_of(message)
    if use is not None and use.kind == "element":
        use = context.use_of(use.holder)
    return use is not None and use.kind in ("added", "messages")


def _assistant_may_precede(
    context: AnthropicFile, scope: Scope, response: str, message: cst.Dict
) -> bool:
    at = context.position(message)
    loops = [
        loop for loop in collect(scope.node, cst.For, cst.While) if context.contains(loop, message)
    ]
    binder = _binding_before(context, scope, response, at, in_loop=bool(loops))
    if binder is None:
        return True
    since = context.position(binder)
    turns = context.assistant_turns(scope)
    for turn in turns:
        position = context.position(turn)
        if since < position < at:
            return True
        # a later turn reaches the results through a loop, unless the response is
        # received again in that loop first
        for loop in loops:
            if context.contains(loop, turn) and not context.contains(loop, binder):
                return True
    return _response_escapes(context, scope, response, binder, turns, at)


def _binding_before(
    context: AnthropicFile, scope: Scope, response: str, at: int, *, in_loop: bool
) -> cst.CSTNode | None:
    """The binding of the response that the results answer: its only one, or — in code
    without a loop around the results — the last one before them."""
    if in_loop:
        return context.single_binding(scope, response)
    before = [
        b
        for b in context.responses.get(id(scope), {}).get(response, [])
        if context.position(b) < at
    ]
    return before[-1] if before else None


def _response_escapes(
    context: AnthropicFile,
    scope: Scope,
    response: str,
    binder: cst.CSTNode,
    turns: list[cst.Dict],
    until: int,
) -> bool:
    """Whether the response is used in a way that could add its turn somewhere: anything
    but reading an attribute, iterating or indexing its ``content``, or ``len`` of it."""
    attributes = {
        id(a.value): a
        for a in collect(scope.node, cst.Attribute)
        if isinstance(a, cst.Attribute) and isinstance(a.value, cst.Name)
    }
    harmless: set[int] = set()
    for node in collect(scope.node, cst.For, cst.CompFor, cst.Subscript, cst.Call):
        if isinstance(node, (cst.For, cst.CompFor)):
            harmless.add(id(node.iter))
        elif isinstance(node, cst.Subscript):
            harmless.add(id(node.value))
        elif isinstance(node, cst.Call) and context.module.is_builtin(node.func, "len"):
            harmless.update(id(a.value) for a in node.args)
    since = context.position(binder)
    for name in scope.names.get(response, ()):
        if context.contains(binder, name):
            continue
        if not since < context.position(name) < until:
            continue
        if any(context.contains(turn, name) for turn in turns):
            continue
        attribute = attributes.get(id(name))
        if attribute is None:
            return True
        if attribute.attr.value == "content" and id(attribute) not in harmless:
            return True
    return False
