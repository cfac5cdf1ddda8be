"""TRV409 in answer loops: the type guards that skip nothing, and the skips that are real.

A ``continue`` guarded by a type test of the call that the module's tools make always
false (``if not isinstance(call, ChatCompletionMessageFunctionToolCall): continue``,
``if call.type != "function": continue``) skips nothing while every tool is a function
tool; with a custom tool (``{"type": "custom", ...}``) it does skip a call. A
``continue`` in the ``else`` of a dispatch, or in an ``except`` handler, before the tool
message is built leaves the call unanswered — unless the branch answers it first.

Each case marks the lines where a diagnostic starts with ``# !TRV409``; every front end
(the engine, ``toolret check --output-format json``, the flake8 plugin) reports exactly
those lines.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Invoke

from lint_rules.config import Settings
from lint_rules.engine import check_source
from lint_rules.flake8_plugin import ToolretChecker
from lint_rules.frameworks.openai_chat._loops import HEAD

MARK = re.compile(r"# !(TRV409)")
FUNCTION_CALL = "from openai.types.chat import ChatCompletionMessageFunctionToolCall\n"
WITH_CUSTOM_TOOL = HEAD.replace(
    "tools = [\n",
    'tools = [\n    {"type": "custom", "custom": {"name": "run_sql"}},\n',
    1,
)
LOOP = """\
def answer_calls(messages, message):
    messages.append(message)
    for tool_call in message.tool_calls:
<body>
    return client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
"""
ANSWER = (
    '        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})\n'
)
CALL = "        result = get_weather(**json.loads(tool_call.function.arguments))\n"


def source(body: str, *, imports: str = "", extra: str = "", head: str = HEAD) -> str:
    """The weather module with ``imports`` after ``import json``, ``extra`` module code
    before the loop, and ``body`` (indented for the loop) as the answer loop's body."""
    head = head.replace("import json\n", "import json\n" + imports, 1)
    return head + extra + LOOP.replace("<body>\n", body)


def guard(test: str) -> str:
    return f"        if {test}:\n            continue  # !TRV409\n" + CALL + ANSWER


def silent(text: str) -> str:
    return text.replace("  # !TRV409", "")


IS_FUNCTION = "isinstance(tool_call, ChatCompletionMessageFunctionToolCall)"

SILENT: dict[str, str] = {
    "not-isinstance-function-call": source(
        silent(guard(f"not {IS_FUNCTION}")), imports=FUNCTION_CALL
    ),
    "isinstance-through-the-module": source(
        silent(guard("not isinstance(tool_call, chat.ChatCompletionMessageFunctionToolCall)")),
        imports="from openai.types import chat\n",
    ),
    "isinstance-of-the-defining-module-aliased": source(
        silent(guard("not isinstance(tool_call, FunctionCall)")),
        imports=(
            "from openai.types.chat.chat_completion_message_function_tool_call import (\n"
            "    ChatCompletionMessageFunctionToolCall as FunctionCall,\n"
            ")\n"
        ),
    ),
    "isinstance-through-import-openai": source(
        silent(
            guard(
                "not isinstance(tool_call, openai.types.chat.ChatCompletionMessageFunctionToolCall)"
            )
        ),
        imports="import openai\n",
    ),
    "else-of-an-isinstance-test": source(
        f"        if {IS_FUNCTION}:\n    "
        + CALL
        + "        else:\n            continue\n"
        + ANSWER,
        imports=FUNCTION_CALL,
    ),
    "isinstance-custom-call": source(
        silent(guard("isinstance(tool_call, ChatCompletionMessageCustomToolCall)")),
        imports="from openai.types.chat import ChatCompletionMessageCustomToolCall\n",
    ),
    "type-is-not-function": source(silent(guard('tool_call.type != "function"'))),
    "not-type-is-function": source(silent(guard('not tool_call.type == "function"'))),
    "type-is-custom": source(silent(guard('tool_call.type == "custom"'))),
    "type-key-is-not-function": source(silent(guard('tool_call["type"] != "function"'))),
    "type-guard-and-more": source(
        silent(guard('tool_call.type != "function" and tool_call.function.name'))
    ),
    "a-custom-tool-sent-to-another-api": source(
        silent(guard(f"not {IS_FUNCTION}")),
        imports=FUNCTION_CALL,
        extra=(
            "client.responses.create(\n"
            '    model="gpt-5",\n'
            '    input="Count the orders",\n'
            '    tools=[{"type": "custom", "custom": {"name": "run_sql"}}],\n'
            ")\n\n\n"
        ),
    ),
    "tools-from-another-module-and-no-custom-tool": source(
        silent(guard('tool_call.type != "function"')),
        imports="from weather_tools import TOOLS as tools\n",
        head=HEAD.split("tools = [")[0] + "\n\ndef get_weather(city: str) -> str:\n"
        '    return f"Sunny in {city}"\n\n\n',
    ),
    "an-error-answered-in-except-then-continue": source(
        "        try:\n"
        "            args = json.loads(tool_call.function.arguments)\n"
        "        except json.JSONDecodeError as error:\n"
        "            messages.append(\n"
        '                {"role": "tool", "tool_call_id": tool_call.id, "content": str(error)}\n'
        "            )\n"
        "            continue\n"
        "        result = get_weather(**args)\n" + ANSWER
    ),
    "an-unknown-tool-answered-in-else-then-continue": source(
        '        if tool_call.function.name == "get_weather":\n'
        "    " + CALL + "        else:\n"
        "            messages.append(\n"
        '                {"role": "tool", "tool_call_id": tool_call.id, "content": "unknown"}\n'
        "            )\n"
        "            continue\n" + ANSWER
    ),
    "an-except-after-the-answer": source(
        CALL
        + ANSWER
        + "        try:\n"
        + '            print("answered", tool_call.id)\n'
        + "        except OSError:\n"
        + "            continue\n"
    ),
    "an-except-after-the-answer-in-its-try": source(
        "        try:\n"
        "    " + CALL + "    " + ANSWER + '            print("answered", tool_call.id)\n'
        "        except OSError:\n"
        "            continue\n"
    ),
    "isinstance-of-a-class-that-is-not-read": source(
        silent(guard("not isinstance(tool_call, ToolCall)")),
        extra="class ToolCall:\n    id: str\n\n\n",
    ),
}

REPORTED: dict[str, str] = {
    "not-isinstance-with-a-custom-tool": source(
        guard(f"not {IS_FUNCTION}"), imports=FUNCTION_CALL, head=WITH_CUSTOM_TOOL
    ),
    "isinstance-custom-call-with-a-custom-tool": source(
        guard("isinstance(tool_call, ChatCompletionMessageCustomToolCall)"),
        imports="from openai.types.chat import ChatCompletionMessageCustomToolCall\n",
        head=WITH_CUSTOM_TOOL,
    ),
    "type-is-not-function-with-a-custom-tool": source(
        guard('tool_call.type != "function"'), head=WITH_CUSTOM_TOOL
    ),
    "type-key-is-not-function-with-a-custom-tool": source(
        guard('"function" != tool_call["type"]'), head=WITH_CUSTOM_TOOL
    ),
    "a-type-guard-or-an-unknown-name": source(
        guard('tool_call.type != "function" or tool_call.function.name != "get_weather"')
    ),
    "else-of-a-dispatch": source(
        "        args = json.loads(tool_call.function.arguments)\n"
        '        if tool_call.function.name == "get_weather":\n'
        "            result = get_weather(**args)\n"
        '        elif tool_call.function.name == "get_time":\n'
        '            result = "noon"\n'
        "        else:\n"
        "            continue  # !TRV409\n" + ANSWER
    ),
    "elif-of-a-dispatch": source(
        "        args = json.loads(tool_call.function.arguments)\n"
        '        if tool_call.function.name == "get_weather":\n'
        "            result = get_weather(**args)\n"
        '        elif tool_call.function.name == "debug":\n'
        "            continue  # !TRV409\n"
        "        else:\n"
        '            result = "unknown tool"\n' + ANSWER
    ),
    "else-of-an-isinstance-test-with-a-custom-tool": source(
        f"        if {IS_FUNCTION}:\n    "
        + CALL
        + "        else:\n            continue  # !TRV409\n"
        + ANSWER,
        imports=FUNCTION_CALL,
        head=WITH_CUSTOM_TOOL,
    ),
    "except-json-decode-error": source(
        "        try:\n"
        "            args = json.loads(tool_call.function.arguments)\n"
        "        except json.JSONDecodeError:\n"
        "            continue  # !TRV409\n"
        "        result = get_weather(**args)\n" + ANSWER
    ),
    "except-exception-after-logging": source(
        "        try:\n"
        "            result = get_weather(**json.loads(tool_call.function.arguments))\n"
        "        except Exception as error:\n"
        '            print(f"tool failed: {error}")\n'
        "            continue  # !TRV409\n" + ANSWER
    ),
    "except-around-the-answer": source(
        "        try:\n"
        "    " + CALL + "    " + ANSWER + "        except Exception:\n"
        "            continue  # !TRV409\n"
    ),
    "a-skip-nested-in-an-except": source(
        "        try:\n"
        "            args = json.loads(tool_call.function.arguments)\n"
        "        except ValueError:\n"
        "            if tool_call.function.name:\n"
        "                continue  # !TRV409\n"
        "            raise\n"
        "        result = get_weather(**args)\n" + ANSWER
    ),
}

Rows = set[int]


def marked(text: str) -> Rows:
    return {n for n, line in enumerate(text.splitlines(), 1) if MARK.search(line)}


def _engine(text: str, tmp_path: Path, toolret_cli: Invoke) -> Rows:
    del tmp_path, toolret_cli
    settings = Settings().with_overrides(select=["TRV409"])
    return {d.location.row for d in check_source(text, "loop.py", settings) if d.code == "TRV409"}


def _write(text: str, tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'weather'\n", encoding="utf-8")
    path = tmp_path / "loop.py"
    path.write_text(text, encoding="utf-8")
    return path


def _cli(text: str, tmp_path: Path, toolret_cli: Invoke) -> Rows:
    path = _write(text, tmp_path)
    result = toolret_cli(
        "check", "--no-cache", "--select", "TRV409", "--output-format", "json", str(path)
    )
    assert result.exit_code in (0, 1), result.stderr
    return {d["location"]["row"] for d in json.loads(result.stdout) if d["code"] == "TRV409"}


def _flake8(text: str, tmp_path: Path, toolret_cli: Invoke) -> Rows:
    del toolret_cli
    path = _write(text, tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    return {
        row
        for row, _, message, _ in ToolretChecker(None, lines, str(path)).run()
        if message.startswith("TRV409 ")
    }


FrontEnd = Callable[[str, Path, Invoke], Rows]
FRONT_ENDS = pytest.mark.parametrize(
    "front_end", [_engine, _cli, _flake8], ids=["engine", "check", "flake8"]
)


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@FRONT_ENDS
@pytest.mark.parametrize("case", SILENT)
def test_a_guard_or_an_answered_skip_is_silent(
    case: str, front_end: FrontEnd, in_tmp: Path, toolret_cli: Invoke
) -> None:
    text = SILENT[case]
    compile(text, "loop.py", "exec")
    assert not marked(text)
    assert front_end(text, in_tmp, toolret_cli) == set()


@FRONT_ENDS
@pytest.mark.parametrize("case", REPORTED)
def test_a_skip_before_the_answer_is_reported(
    case: str, front_end: FrontEnd, in_tmp: Path, toolret_cli: Invoke
) -> None:
    text = REPORTED[case]
    compile(text, "loop.py", "exec")
    assert marked(text)
    assert front_end(text, in_tmp, toolret_cli) == marked(text)


def test_the_skip_points_at_the_continue() -> None:
    text = REPORTED["except-json-decode-error"]
    settings = Settings().with_overrides(select=["TRV409"])
    (diagnostic,) = check_source(text, "loop.py", settings)
    row = marked(text).pop()
    line = text.splitlines()[row - 1]
    assert diagnostic.location.column == line.index("continue") + 1
    assert "except" in diagnostic.message
