"""TRV507 anthropic-unanswered-tool-use."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.anthropic._examples import HEAD
from lint_rules.frameworks.anthropic.recognition import (
    Answer,
    AnthropicFile,
    Scope,
    is_request,
)
from lint_rules.frameworks.tool_loops import collect
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AnthropicUnansweredToolUse(Rule):
    """
    ## What it does
    Checks for a tool loop that sends the assistant turn with *all* its
    `tool_use` blocks (`response.content`) but answers only one of them: a
    block picked by a fixed index (`response.content[0]`, `tool_uses[-1]`) or
    by `next(...)`, with no loop answering the rest; a loop over the blocks
    that `break`s or `return`s after its first answer; or a loop that sends
    the next request inside its body, before every block is answered.

    Not reported when a request sets `disable_parallel_tool_use` in its
    `tool_choice` (or passes `tool_choice` or `**kwargs` that are not known),
    when the number of blocks is tested (`len(...)`), nor for one user message
    per result followed by a single request (the API merges consecutive user
    turns).

    ## Why is this bad?
    Every `tool_use` block of an assistant turn must be answered by a
    `tool_result` in the next user message: HTTP 400 "`tool_use` ids were
    found without `tool_result` blocks immediately after". Parallel tool use
    is on by default, so the code works in a demo and fails the first time
    the model uses two tools at once. Answer every block, or set
    `tool_choice={"type": "auto", "disable_parallel_tool_use": True}`.

    ## References
    - [Anthropic: parallel tool use](https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#parallel-tool-use)
    """

    code = "TRV507"
    name = "anthropic-unanswered-tool-use"
    severity = Severity.ERROR
    framework = "anthropic"
    message = "Only one `tool_use` block is answered"

    invalid = (
        Example(
            title="the first tool use only, with `next(...)`",
            code=HEAD
            + """\
messages = [{"role": "user", "content": "Weather in Paris and in Rome?"}]
response = client.messages.create(
    model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
)
tool_use = next(block for block in response.content if block.type == "tool_use")
messages.append({"role": "assistant", "content": response.content})
messages.append(
    {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": tool_use.id,
                "content": get_weather(**tool_use.input),
            }
        ],
    }
)
final = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="a search loop, typed blocks: the first `tool_use` block answered after it",
            code=HEAD.replace(
                "import anthropic\n",
                "import anthropic\n"
                "from anthropic.types import MessageParam, ToolResultBlockParam\n",
            )
            + """\
def run(messages: list[MessageParam]):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
    )
    messages.append(MessageParam(role="assistant", content=response.content))
    tool_use = None
    for block in response.content:
        if block.type == "tool_use":
            tool_use = block
            break
    if tool_use is not None:
        result = ToolResultBlockParam(
            type="tool_result", tool_use_id=tool_use.id, content=get_weather(**tool_use.input)
        )
        messages.append(MessageParam(role="user", content=[result]))
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="the first block's id taken with `next(...)`",
            code=HEAD
            + """\
def run(messages):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
    )
    messages.append({"role": "assistant", "content": response.content})
    tool_use_id = next(b.id for b in response.content if b.type == "tool_use")
    result = {"type": "tool_result", "tool_use_id": tool_use_id, "content": "Sunny"}
    messages.append({"role": "user", "content": [result]})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="a `break` after the first answer",
            code=HEAD
            + """\
def run(messages):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
    )
    messages.append({"role": "assistant", "content": response.content})
    results = []
    for block in response.content:
        if block.type == "tool_use":
            output = get_weather(**block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
            break
    messages.append({"role": "user", "content": results})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="the next request sent inside the loop over the blocks",
            code=HEAD
            + """\
def run(messages):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
    )
    messages.append({"role": "assistant", "content": response.content})
    for block in response.content:
        if block.type == "tool_use":
            output = get_weather(**block.input)
            result = {"type": "tool_result", "tool_use_id": block.id, "content": output}
            messages.append({"role": "user", "content": [result]})
            final = client.messages.create(
                model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
            )
    return final
""",
        ),
        Example(
            title="a helper builds the result from the id of the one block it is given",
            code=HEAD
            + """\
def tool_result_message(tool_use_id, output):
    return {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": tool_use_id, "content": output}],
    }


def run(messages):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
    )
    messages.append({"role": "assistant", "content": response.content})
    tool_use = response.content[-1]
    messages.append(tool_result_message(tool_use.id, get_weather(**tool_use.input)))
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )
    valid = (
        Example(
            title="every block answered",
            code=HEAD
            + """\
def run(messages):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
    )
    messages.append({"role": "assistant", "content": response.content})
    results = [
        {"type": "tool_result", "tool_use_id": block.id, "content": get_weather(**block.input)}
        for block in response.content
        if block.type == "tool_use"
    ]
    messages.append({"role": "user", "content": results})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="parallel tool use turned off",
            code=HEAD
            + """\
messages = [{"role": "user", "content": "Weather in Paris?"}]
response = client.messages.create(
    model="claude-sonnet-4-5",
    max_tokens=1024,
    tools=tools,
    tool_choice={"type": "auto", "disable_parallel_tool_use": True},
    messages=messages,
)
tool_use = next(block for block in response.content if block.type == "tool_use")
messages.append({"role": "assistant", "content": response.content})
messages.append(
    {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": tool_use.id,
                "content": get_weather(**tool_use.input),
            }
        ],
    }
)
""",
        ),
        Example(
            title="one user message per result, one request after the loop",
            code=HEAD
            + """\
def run(messages):
    response = client.messages.create(
        model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=messages
    )
    messages.append({"role": "assistant", "content": response.content})
    for block in response.content:
        if block.type == "tool_use":
            result = {"type": "tool_result", "tool_use_id": block.id, "content": "Sunny"}
            messages.append({"role": "user", "content": [result]})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )

    def check(self, context: AnthropicFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked or context.parallel_limited:
            return
        answers: dict[int, list[tuple[cst.CSTNode, Answer]]] = {}
        for scope, anchor, _, answer in context.answers:
            answers.setdefault(id(scope), []).append((anchor, answer))
        reported: set[int] = set()
        for scope in context.scopes:
            found = answers.get(id(scope), [])
            looped = {a.response for _, a in found if a.kind == "loop"}
            counted = _counted(context, scope)
            for anchor, answer in found:
                if id(answer.node) in reported or not context.sends_whole_content(
                    scope, answer.response
                ):
                    continue
                if answer.kind == "fixed":
                    if answer.response in looped or answer.response in counted:
                        continue
                    if not context.follow(scope, anchor).reaches:
                        continue
                    reported.add(id(answer.node))
                    yield Finding(
                        node=answer.node,
                        message=(
                            f"Only one `tool_use` block of `{answer.response}` is answered, but "
                            "its whole content is sent as the assistant turn: HTTP 400 when the "
                            "model uses two tools; answer every block or set "
                            "`disable_parallel_tool_use`"
                        ),
                    )
                    continue
                loop = answer.node
                if not isinstance(loop, cst.For):
                    continue
                for node in _early_exits(context, loop, anchor):
                    if id(node) not in reported:
                        reported.add(id(node))
                        yield Finding(
                            node=node,
                            message=(
                                "The loop over the `tool_use` blocks ends after answering the "
                                "first: the others stay unanswered (HTTP 400 when the model uses "
                                "two tools)"
                            ),
                        )
                for call in collect(loop.body, cst.Call):
                    assert isinstance(call, cst.Call)
                    if is_request(call) and id(call) not in reported:
                        reported.add(id(call))
                        yield Finding(
                            node=call,
                            message=(
                                "A request is sent inside the loop that answers the `tool_use` "
                                "blocks, before all of them are answered: HTTP 400 when the "
                                "model uses two tools; send it after the loop"
                            ),
                        )


def _counted(context: AnthropicFile, scope: Scope) -> set[str]:
    """Responses whose blocks are counted (``len(...)`` of their content or of a list
    derived from it)."""
    found: set[str] = set()
    for call in collect(scope.node, cst.Call):
        assert isinstance(call, cst.Call)
        if context.module.is_builtin(call.func, "len") and len(call.args) == 1:
            response = context.derived_from(scope, call.args[0].value)
            if response is not None:
                found.add(response)
    return found


def _early_exits(
    context: AnthropicFile, loop: cst.For, block: cst.CSTNode
) -> Iterator[cst.CSTNode]:
    """``break`` / ``return`` statements of the loop that run unconditionally after the
    answer is built: in a block that also holds the answer, after it, and not inside a
    nested loop (for ``break``)."""
    index = context.module.index
    at = context.position(block)
    for body in collect(loop.body, cst.IndentedBlock):
        assert isinstance(body, cst.IndentedBlock)
        statements = list(body.body)
        holder = next(
            (i for i, s in enumerate(statements) if context.contains(s, block)),
            None,
        )
        if holder is None:
            continue
        for statement in statements[holder + 1 :]:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                exits = isinstance(small, cst.Return) or (
                    isinstance(small, cst.Break) and _innermost_loop(context, small) is loop
                )
                if exits and index.span(small)[0] > at:
                    yield small


def _innermost_loop(context: AnthropicFile, node: cst.CSTNode) -> cst.CSTNode | None:
    scope = context.scope_of(node)
    if scope is None:
        return None
    loops = [
        loop
        for loop in collect(scope.node, cst.For, cst.While)
        if context.contains(loop, node) and loop is not node
    ]
    return max(loops, key=context.position) if loops else None
