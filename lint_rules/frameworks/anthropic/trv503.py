"""TRV503 anthropic-tool-result-not-first."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.anthropic._examples import HEAD
from lint_rules.frameworks.anthropic.recognition import (
    AnthropicFile,
    Scope,
    is_text_block,
    is_tool_result,
    role_of,
)
from lint_rules.frameworks.tool_loops import collect, dict_entry
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class AnthropicToolResultNotFirst(Rule):
    """
    ## What it does
    Checks for a user message whose content puts a text block (or a string)
    before its `tool_result` blocks: in the list display of the message, or by
    `results.insert(0, ...)` into the list of results it sends.

    ## Why is this bad?
    The API requires the `tool_result` blocks to come first in the user
    message that answers a `tool_use` turn; text may only follow them. A text
    block first is rejected with HTTP 400 "`tool_use` ids were found without
    `tool_result` blocks immediately after" (shareAI-lab/learn-claude-code#142).
    Put the text after the results.

    ## References
    - [Anthropic: handling tool use](https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use)
    """

    code = "TRV503"
    name = "anthropic-tool-result-not-first"
    severity = Severity.ERROR
    framework = "anthropic"
    message = "Text before the `tool_result` blocks of a user message"

    invalid = (
        Example(
            title="a reminder inserted first",
            code=HEAD
            + """\
def answer(messages, response):
    messages.append({"role": "assistant", "content": response.content})
    results = [
        {"type": "tool_result", "tool_use_id": block.id, "content": get_weather(**block.input)}
        for block in response.content
        if block.type == "tool_use"
    ]
    results.insert(0, {"type": "text", "text": "Here are the tool results."})
    messages.append({"role": "user", "content": results})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="written first in the display",
            code=HEAD
            + """\
def answer(messages, response, block):
    messages.append({"role": "assistant", "content": response.content})
    messages.append(
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Result:"},
                {"type": "tool_result", "tool_use_id": block.id, "content": "Sunny"},
            ],
        }
    )
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )
    valid = (
        Example(
            code=HEAD
            + """\
def answer(messages, response, block):
    messages.append({"role": "assistant", "content": response.content})
    messages.append(
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": block.id, "content": "Sunny"},
                {"type": "text", "text": "Keep your answer short."},
            ],
        }
    )
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="text after the results, joined to their list",
            code=HEAD
            + """\
def answer(messages, response):
    messages.append({"role": "assistant", "content": response.content})
    results = [
        {"type": "tool_result", "tool_use_id": block.id, "content": get_weather(**block.input)}
        for block in response.content
        if block.type == "tool_use"
    ]
    note = {"type": "text", "text": "Answer in one sentence."}
    messages.append({"role": "user", "content": results + [note]})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
        Example(
            title="the user's question, a text block first in an earlier message",
            code=HEAD
            + """\
def ask(question, response):
    results = [
        {"type": "tool_result", "tool_use_id": block.id, "content": get_weather(**block.input)}
        for block in response.content
        if block.type == "tool_use"
    ]
    messages = [
        {"role": "user", "content": [{"type": "text", "text": question}]},
        {"role": "assistant", "content": response.content},
        {"role": "user", "content": results},
    ]
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
""",
        ),
    )

    def check(self, context: AnthropicFile, settings: Settings) -> Iterator[Finding]:
        if not context.is_checked:
            return
        reported: set[int] = set()
        for scope, block in context.tool_results:
            reach = context.follow(scope, block)
            if not reach.reaches:
                continue
            holders = _holders(context, scope, block)
            for message in reach.messages:
                role = role_of(message)
                entry = dict_entry(message, "content")
                if role is None or role[1] != "user" or entry is None:
                    continue
                for value, starred in _parts(entry.value):
                    if _holds_results(value, holders):
                        break
                    if is_text_block(value) and not starred:
                        if id(value) not in reported:
                            reported.add(id(value))
                            yield _finding(value)
                        break
                    if not isinstance(value, cst.Dict):
                        break  # something not known comes first
            for name in holders:
                for call in collect(scope.node, cst.Call):
                    assert isinstance(call, cst.Call)
                    inserted = _inserted_first(call, name)
                    if inserted is not None and id(inserted) not in reported:
                        reported.add(id(inserted))
                        yield _finding(inserted)


def _finding(node: cst.BaseExpression) -> Finding:
    return Finding(
        node=node,
        message=(
            "Text before the `tool_result` blocks of a user message: HTTP 400 "
            '"`tool_use` ids were found without `tool_result` blocks immediately after"; '
            "put the results first"
        ),
    )


def _holders(context: AnthropicFile, scope: Scope, block: cst.Dict) -> set[str]:
    """The local names the block is collected into (``results.append(block)``,
    ``results = [block ...]``)."""
    found: set[str] = set()
    node: cst.CSTNode = block
    for _ in range(4):
        use = context.use_of(node)
        if use is None:
            break
        if use.kind in ("element", "comprehension"):
            node = use.holder
            continue
        if use.kind in ("added", "assigned") and isinstance(use.target, cst.Name):
            found.add(use.target.value)
        break
    return found


def _parts(content: cst.BaseExpression) -> list[tuple[cst.BaseExpression, bool]]:
    """The parts of a message's content in order, with whether each is starred: the
    elements of a list display, also of displays and names joined by ``+``."""
    if isinstance(content, cst.List):
        return [(e.value, isinstance(e, cst.StarredElement)) for e in content.elements]
    if isinstance(content, cst.BinaryOperation) and isinstance(content.operator, cst.Add):
        return _parts(content.left) + _parts(content.right)
    return [(content, False)]


def _holds_results(value: cst.BaseExpression, holders: set[str]) -> bool:
    return is_tool_result(value) or (isinstance(value, cst.Name) and value.value in holders)


def _inserted_first(call: cst.Call, name: str) -> cst.BaseExpression | None:
    """``V`` of ``name.insert(0, V)`` when ``V`` is a text block or a string."""
    func = call.func
    if (
        isinstance(func, cst.Attribute)
        and func.attr.value == "insert"
        and isinstance(func.value, cst.Name)
        and func.value.value == name
        and len(call.args) == 2
        and isinstance(call.args[0].value, cst.Integer)
        and call.args[0].value.value == "0"
        and is_text_block(call.args[1].value)
    ):
        return call.args[1].value
    return None
