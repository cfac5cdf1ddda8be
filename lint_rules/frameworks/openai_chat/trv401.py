"""TRV401 chat-tool-content-not-string."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import ShapeInference
from lint_rules.config import Settings
from lint_rules.frameworks.openai_chat._loops import HEAD
from lint_rules.frameworks.openai_chat.recognition import ChatFile, dict_entry
from lint_rules.frameworks.tool_loops import not_text_content
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, wrap_in_json_dumps

_TEXT = frozenset({"text"})


class ChatToolContentNotString(Rule):
    """
    ## What it does
    Checks for a `{"role": "tool", ..., "content": X}` message whose `content`
    is certainly a dict, a list of values that are not text parts, or a number.

    ## Why is this bad?
    The Chat Completions API accepts a tool message's `content` only as a
    string or a list of text parts (openai 3.57,
    `types/chat/chat_completion_tool_message_param.py`: `content:
    Required[Union[str, Iterable[ChatCompletionContentPartTextParam]]]`).
    A dict or a number is rejected with HTTP 400 "Invalid type for
    'messages[N].content'" — on the request *after* the tool ran, so the
    loop fails late. Serialise the result with `json.dumps(...)`.

    ## Fix safety
    The fix wraps the value in `json.dumps(...)` and is offered only when the
    module already has `import json` (it never adds an import). It is unsafe:
    `json.dumps` raises `TypeError` on values it cannot encode (a `set`, a
    `datetime`), where the original request failed with HTTP 400 instead.

    The fix is offered only where `json` there is the module of the file's own
    `import json`: not where anything else binds the name (`json = ...`, a
    parameter or local `json`, `import simplejson as json`, a star import).

    ## References
    - [OpenAI: function calling](https://platform.openai.com/docs/guides/function-calling)
    """

    code = "TRV401"
    name = "chat-tool-content-not-string"
    severity = Severity.ERROR
    framework = "openai_chat"
    fix_applicability = Applicability.UNSAFE
    message = "A tool message's `content` is not a string"

    invalid = (
        Example(
            title="a typed message (`ChatCompletionToolMessageParam` is a dict at run time)",
            code=HEAD.replace(
                "from openai import OpenAI\n",
                "from openai import OpenAI\n"
                "from openai.types.chat import ChatCompletionToolMessageParam\n",
            )
            + """\
def answer(messages, message):
    messages.append(message)
    for tool_call in message.tool_calls:
        weather = {"city": "Paris", "sky": "sunny"}
        messages.append(
            ChatCompletionToolMessageParam(
                role="tool", tool_call_id=tool_call.id, content=weather
            )
        )
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
            fixed=HEAD.replace(
                "from openai import OpenAI\n",
                "from openai import OpenAI\n"
                "from openai.types.chat import ChatCompletionToolMessageParam\n",
            )
            + """\
def answer(messages, message):
    messages.append(message)
    for tool_call in message.tool_calls:
        weather = {"city": "Paris", "sky": "sunny"}
        messages.append(
            ChatCompletionToolMessageParam(
                role="tool", tool_call_id=tool_call.id, content=json.dumps(weather)
            )
        )
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="the tool's dict result sent as it is",
            code="""\
import json

from openai import OpenAI

client = OpenAI()


def answer(messages, tool_call):
    args = json.loads(tool_call.function.arguments)
    weather = {"city": args["city"], "temperature": 21}
    messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": weather})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
            fixed="""\
import json

from openai import OpenAI

client = OpenAI()


def answer(messages, tool_call):
    args = json.loads(tool_call.function.arguments)
    weather = {"city": args["city"], "temperature": 21}
    messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(weather)})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
        ),
        Example(
            title="a number (no `import json`: no fix offered)",
            code="""\
import openai


def add_result(messages, call, a: int, b: int):
    messages.append({"role": "tool", "tool_call_id": call.id, "content": a + b})
""",
        ),
    )
    valid = (
        Example(
            code="""\
import json

from openai import OpenAI


def answer(messages, tool_call, weather):
    messages.append(
        {"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(weather)}
    )
""",
        ),
        Example(
            title="a list of text parts is accepted",
            code="""\
from openai import OpenAI


def answer(messages, tool_call, text):
    messages.append(
        {
            "role": "tool",
            "tool_call_id": tool_call.id,
            "content": [{"type": "text", "text": text}],
        }
    )
""",
        ),
        Example(
            title="a value of unknown type",
            code="""\
from openai import OpenAI


def answer(messages, tool_call, result):
    messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
""",
        ),
        Example(
            title="a module that does not use openai (another library's chat template)",
            code="""\
from transformers import AutoTokenizer

messages = [{"role": "tool", "name": "get_weather", "content": {"temperature": 21}}]
""",
        ),
    )

    def check(self, context: ChatFile, settings: Settings) -> Iterator[Finding]:
        if not context.checks(self.code, settings):
            return
        module = context.module
        for scope, message in context.tool_messages:
            entry = dict_entry(message, "content")
            if entry is None:
                continue
            function = scope.node if isinstance(scope.node, cst.FunctionDef) else None
            shape = ShapeInference(module, function).infer(entry.value)
            what = not_text_content(shape, _TEXT, "text", bools=False)
            if what is None:
                continue
            yield Finding(
                node=entry.key,
                message=(
                    f"Tool message `content` is {what}: the API accepts only a string "
                    f"or a list of text parts ({context.contract.bad_content}); serialise "
                    "it with `json.dumps()`"
                ),
                fix=wrap_in_json_dumps(entry.value, module),
            )
