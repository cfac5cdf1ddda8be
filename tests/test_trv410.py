"""TRV410 chat-tool-message-before-assistant-message: tool messages that reach a
request while the assistant message carrying their calls is added on no path before
them — through the engine, the CLI (a module, a notebook) and the flake8 plugin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lint_rules.config import Settings
from lint_rules.engine import check_source
from lint_rules.frameworks.openai_chat._loops import HEAD
from tests.conftest import Invoke

MARK = "# <<"


def found(body: str) -> list[int]:
    """Rows (relative to ``body``) of the TRV410 findings of ``HEAD + body``."""
    settings = Settings().with_overrides(select=["TRV410"])
    offset = HEAD.count("\n")
    return [d.location.row - offset for d in check_source(HEAD + body, "loop.py", settings)]


def marked(body: str) -> list[int]:
    return [n for n, line in enumerate(body.splitlines(), 1) if MARK in line]


# ------------------------------------------------------------------ reported

REPORTED = {
    "answers collected, then extended without the assistant message": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    results = []
    for call in message.tool_calls:
        results.append({"role": "tool", "tool_call_id": call.id, "content": "Sunny"})
    messages.extend(results)  # <<
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "the message after the answers in the request's display": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    results = [
        {"role": "tool", "tool_call_id": call.id, "content": "Sunny"}
        for call in message.tool_calls
    ]
    return client.chat.completions.create(
        model="gpt-4o", messages=[*messages, *results, message]  # <<
    )
""",
    "read and printed, never appended": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    print(message.content, len(message.tool_calls))
    if not message.tool_calls:
        return message.content
    for call in message.tool_calls:
        answer = {"role": "tool", "tool_call_id": call.id, "content": call.function.name}
        messages.append(answer)  # <<
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "appended at the end of the round of a `while` loop": """
def run(messages):
    while True:
        response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
        message = response.choices[0].message
        if not message.tool_calls:
            return message.content
        for call in message.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": "Sunny"})  # <<
        messages.append(message)
""",
    "appended only on the path without calls": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    if message.tool_calls:
        for call in message.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": "Sunny"})  # <<
    else:
        messages.append(message)
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "async, through the choice, with `enumerate`": """
async def run(messages):
    response = await client.chat.completions.create(
        model="gpt-4o", messages=messages, tools=tools
    )
    choice = response.choices[0]
    for i, call in enumerate(choice.message.tool_calls):
        messages.append({"role": "tool", "tool_call_id": call.id, "content": str(i)})  # <<
    return await client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "a script whose helper has a `response` of its own": """
import requests


def fetch(city):
    response = requests.get("https://example.com/weather", params={"q": city})
    return response.text


messages = [{"role": "user", "content": "Weather in Paris?"}]
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
for call in response.choices[0].message.tool_calls:
    messages.append({"role": "tool", "tool_call_id": call.id, "content": fetch("Paris")})  # <<
final = client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "the list sent through a dict of arguments": """
def run(messages):
    kwargs = {"model": "gpt-4o", "messages": messages, "tools": tools}
    response = client.chat.completions.create(**kwargs)
    for call in response.choices[0].message.tool_calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})  # <<
    return client.chat.completions.create(**kwargs)
""",
    "a notebook's second round forgets it": """
messages = [{"role": "user", "content": "Weather in Paris, then in Rome?"}]
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
message = response.choices[0].message
messages.append(message)
for call in message.tool_calls:
    messages.append({"role": "tool", "tool_call_id": call.id, "content": "Sunny"})

response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
message = response.choices[0].message
for call in message.tool_calls:
    messages.append({"role": "tool", "tool_call_id": call.id, "content": "Rainy"})  # <<
""",
}


@pytest.mark.parametrize("body", REPORTED.values(), ids=REPORTED.keys())
def test_reported_where_the_first_tool_message_is_added(body: str) -> None:
    assert found(body) == marked(body)


def test_one_finding_per_answer_loop() -> None:
    body = """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    for call in response.choices[0].message.tool_calls:
        if call.function.name != "get_weather":
            messages.append({"role": "tool", "tool_call_id": call.id, "content": "no"})  # <<
            continue
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "Sunny"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
"""
    assert found(body) == marked(body)


# ------------------------------------------------------------------ silent

SILENT = {
    "appended first, then the answers extended": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    results = [{"role": "tool", "tool_call_id": c.id, "content": "x"} for c in message.tool_calls]
    messages.append(message)
    messages.extend(results)
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "written before the answers in the display": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    results = [{"role": "tool", "tool_call_id": c.id, "content": "x"} for c in message.tool_calls]
    return client.chat.completions.create(model="gpt-4o", messages=[*messages, message, *results])
""",
    "the response is a parameter": """
def run(messages, response):
    for call in response.choices[0].message.tool_calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "a dict with the message's role and calls": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append({"role": message.role, "content": None, "tool_calls": message.tool_calls})
    for call in message.tool_calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "an assistant dict built call by call": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    calls = [{"id": c.id, "type": "function", "function": c.function} for c in message.tool_calls]
    messages.append({"role": "assistant", "tool_calls": calls})
    for call in message.tool_calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "the messages list handed to a helper": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    record(messages)
    for call in message.tool_calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "dumped by a method": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    messages.append(response.choices[0].message.model_dump(exclude_none=True))
    for call in response.choices[0].message.tool_calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "added with `+=`": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages += [message]
    for call in message.tool_calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "inserted where the answers begin": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    start = len(messages)
    for call in message.tool_calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
    messages.insert(start, message)
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "a script's helper appends the response it reads": """
messages = []
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)


def keep():
    messages.append(response.choices[0].message)


keep()
for call in response.choices[0].message.tool_calls:
    messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
final = client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "a notebook's rounds each append it": """
messages = []
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
message = response.choices[0].message
messages.append(message)
for call in message.tool_calls:
    messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
message = response.choices[0].message
messages.append(message)
for call in message.tool_calls:
    messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
""",
    "a local alias of a class's list": """
class Agent:
    def step(self):
        messages = self.messages
        response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
        for call in response.choices[0].message.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
""",
    "answers kept in a list that is never sent": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    log = []
    for call in response.choices[0].message.tool_calls:
        log.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
    return log
""",
    "appended once per call (TRV407's mistake, not this one)": """
def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    for call in message.tool_calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
        messages.append(message)
    return client.chat.completions.create(model="gpt-4o", messages=messages)
""",
    "the response received from a helper": """
def ask(messages):
    return client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)


def run(messages):
    response = ask(messages)
    for call in response.choices[0].message.tool_calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "x"})
    return ask(messages)
""",
}


@pytest.mark.parametrize("body", SILENT.values(), ids=SILENT.keys())
def test_silent_where_the_assistant_message_may_come_first(body: str) -> None:
    assert found(body) == []


def test_without_openai_nothing_is_checked() -> None:
    body = REPORTED["read and printed, never appended"]
    source = (HEAD + body).replace("from openai import OpenAI", "from mylib import OpenAI")
    settings = Settings().with_overrides(select=["TRV410"])
    assert check_source(source, "loop.py", settings) == []


# ------------------------------------------------------------------ CLI, notebook, flake8

SCRIPT = HEAD + REPORTED["read and printed, never appended"]


def _rows_of_mark(source: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), 1) if MARK in line)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text("")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_cli_reports_the_append_call(project: Path, toolret_cli: Invoke) -> None:
    (project / "loop.py").write_text(SCRIPT)
    result = toolret_cli(
        "check", "--no-cache", "--select", "TRV410", "--output-format", "json", "loop.py"
    )
    assert result.exit_code == 1, result.output
    (finding,) = json.loads(result.stdout)
    row = _rows_of_mark(SCRIPT)
    assert finding["code"] == "TRV410"
    assert finding["name"] == "chat-tool-message-before-assistant-message"
    assert finding["severity"] == "error"
    assert finding["fix"] is None
    column = SCRIPT.splitlines()[row - 1].index("messages.append") + 1
    assert finding["location"] == {"row": row, "column": column}
    assert "messages with role 'tool' must be a response" in finding["message"]
    assert "`message`" in finding["message"]


def test_cli_is_silent_on_the_fixed_loop(project: Path, toolret_cli: Invoke) -> None:
    fixed = SCRIPT.replace(
        "    if not message.tool_calls:",
        "    messages.append(message)\n    if not message.tool_calls:",
    )
    (project / "loop.py").write_text(fixed)
    result = toolret_cli("check", "--no-cache", "--select", "TRV410", "loop.py")
    assert result.exit_code == 0, result.output


def _cell(cell_id: str, text: str) -> dict[str, object]:
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": cell_id,
        "metadata": {},
        "outputs": [],
        "source": text.splitlines(keepends=True),
    }


def test_a_notebook_through_the_cli(project: Path, toolret_cli: Invoke) -> None:
    """A tutorial notebook: the tools in one cell, the request in the next, the answers
    in a third that forgets the assistant message."""
    answer = """\
for tool_call in response_message.tool_calls:
    args = json.loads(tool_call.function.arguments)
    messages.append(
        {"role": "tool", "tool_call_id": tool_call.id, "content": get_weather(**args)}
    )
final = client.chat.completions.create(model="gpt-4o", messages=messages)
print(final.choices[0].message.content)"""
    request = """\
messages = [{"role": "user", "content": "What's the weather in Paris?"}]
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
response_message = response.choices[0].message"""
    notebook = {
        "cells": [
            {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": ["# Weather"]},
            _cell("setup", "%pip install openai\n" + HEAD.rstrip()),
            _cell("ask", request),
            _cell("answer", answer),
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python", "version": "3.12.3"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (project / "weather.ipynb").write_text(json.dumps(notebook, indent=1) + "\n")
    result = toolret_cli(
        "check", "--no-cache", "--select", "TRV410", "--output-format", "json", "weather.ipynb"
    )
    assert result.exit_code == 1, result.output
    (finding,) = json.loads(result.stdout)
    assert finding["code"] == "TRV410"
    assert finding["cell"] == 4
    assert finding["location"] == {"row": 3, "column": 5}

    fixed = answer.replace("for tool_call", "messages.append(response_message)\nfor tool_call", 1)
    notebook["cells"][3] = _cell("answer", fixed)  # type: ignore[index]
    (project / "weather.ipynb").write_text(json.dumps(notebook, indent=1) + "\n")
    result = toolret_cli("check", "--no-cache", "--select", "TRV410", "weather.ipynb")
    assert result.exit_code == 0, result.output


def test_flake8_reports_what_toolret_reports(project: Path, toolret_cli: Invoke) -> None:
    (project / "loop.py").write_text(SCRIPT)
    result = toolret_cli(
        "check", "--no-cache", "--select", "TRV410", "--output-format", "json", "loop.py"
    )
    ours = [
        (d["location"]["row"], d["location"]["column"], d["code"])
        for d in json.loads(result.stdout)
    ]
    flake8 = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "TRV410",
         "--format", "%(row)d|%(col)d|%(code)s", "loop.py"],
        cwd=project, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert "Traceback" not in flake8.stderr, flake8.stderr
    theirs = [
        (int(row), int(col), code)
        for row, col, code in (line.split("|") for line in flake8.stdout.split())
    ]
    assert ours == theirs == [(_rows_of_mark(SCRIPT), ours[0][1], "TRV410")]
