"""The byte prefilter: its screens find exactly its needles, the ``tool`` gate, the
extra-client import search, and bytes and text agree."""

from __future__ import annotations

import re

import pytest

from lint_rules import prefilter
from lint_rules.analysis import index

EXTRAS = prefilter.extra_imports_of("openai_chat", None)


def _needle_texts(key: str) -> list[str]:
    """Texts holding each needle of ``key``, and near misses that hold none."""
    texts = []
    for needle in prefilter.NEEDLES[key]:
        texts += [needle, f"x {needle} y", needle[:-1], needle[1:], needle.upper()]
    return texts


@pytest.mark.parametrize("key", sorted(prefilter.NEEDLES))
def test_screens_find_exactly_the_needles(key: str) -> None:
    """A screen that merges needles (``lang(?:chain|graph)``) must find the same texts as
    the needles themselves, on every family's needles and their near misses."""
    texts = [t for k in prefilter.NEEDLES for t in _needle_texts(k)]
    for text in texts:
        by_needle = any(n in text for n in prefilter.NEEDLES[key])
        by_screen = any(re.search(s, text) for s in prefilter.screens(key))
        by_bytes = any(f(text.encode()) for f in prefilter._BYTE_FINDERS[key])
        by_text = any(f(text) for f in prefilter._TEXT_FINDERS[key])
        assert by_needle == by_screen == bool(by_bytes) == bool(by_text), (key, text)


CHAT_LOOP = """\
from groq import Groq

client = Groq()
reply = client.chat.completions.create(model="m", messages=[], tools=TOOLS)
for call in reply.choices[0].message.tool_calls:
    print(call)
"""


@pytest.mark.parametrize(
    ("source", "signal"),
    [
        (CHAT_LOOP, True),
        # a compatible client's import is a signal only in a file that says "tool"
        ("import ollama\n\nprint(ollama.chat(model='m', messages=[]))\n", False),
        ("import ollama\n\nprint(ollama.chat(model='m', messages=[], tools=[]))\n", True),
        # "together" is a word; an import of it is the signal
        ("# we call the tools together\nx = 1\n", False),
        ("from together import Together  # tools\n", True),
        ("import json, together  # tools\n", True),
        # a statement continued by a backslash from the line before
        ("from \\\n    together import Together  # tools\n", True),
        ("from \\\r\n    together import Together  # tools\r\n", True),
        ("x = 1  # tools\ntogether = 2\n", False),
        # the loop signal: a request written out and the loop's needle, no import
        ("r = client.chat.completions.create(tools=t)\nr.choices[0].message.tool_calls\n", True),
        ("r = client.chat.completions.create()\n", False),
    ],
)
def test_chat_signal(source: str, signal: bool) -> None:
    assert prefilter.has_signal("openai_chat", source, "m.py", EXTRAS) is signal
    assert prefilter.has_signal("openai_chat", source.encode(), "m.py", EXTRAS) is signal
    assert prefilter.signalled(("openai_chat",), source.encode(), "m.py") is signal
    assert prefilter.signalled((prefilter.ANY_FRAMEWORK,), source.encode(), "m.py") is signal


def test_extra_clients_of_the_settings_are_signals() -> None:
    class Chat:
        extra_clients = ("acme_llm",)

    class Settings:
        openai_chat = Chat()

    source = b"from acme_llm import Client\n\nClient().chat(tools=TOOLS)\n"
    assert prefilter.signalled(("openai_chat",), source, "m.py", Settings())
    assert not prefilter.signalled(("openai_chat",), source, "m.py")


def test_the_tool_gate_applies_only_to_loop_and_client_signals() -> None:
    """An MCP or Agents import needs no "tool" in the file."""
    assert prefilter.has_signal("mcp", b"from mcp.server.fastmcp import FastMCP\n", "")
    assert prefilter.has_signal("openai_agents", "from agents import Agent\n", "")
    assert prefilter.has_signal("polyai", b"x = 1\n", "flows/f/functions/step.py")


@pytest.mark.parametrize(
    "source",
    [
        b"from agents import Agent\nAgent(tool_use_behavior=stop)\n",
        b"from mcp.server.fastmcp import FastMCP\n",
        b"from pydantic_ai import Agent\n",
        b"import x\nmessage.tool_calls\n",
        b"x = 1\n",
    ],
)
def test_an_unsignalled_file_wants_only_registry_facts(source: bytes) -> None:
    """The runner's shortcut: with no signal of the families whose facts need one, the
    answer is the full check's."""
    unsignalled = not prefilter.signalled((prefilter.ANY_FRAMEWORK,), source, "m.py")
    full = index.wants_facts(source)
    assert index.wants_facts(source, unsignalled) == full
    if unsignalled:
        assert not any(prefilter.has_signal(key, source, "") for key in index.SIGNALLED_FACTS)


@pytest.mark.parametrize(
    ("source", "statements"),
    [
        ("x = 1\nimport os\ny = 2\n", "import os"),
        ("from a import b; import c\n", "from a import b; import c"),
        # a backslash joins the lines before and after
        ("x = 1\nfrom \\\n    openai import OpenAI\n", "from \\\n    openai import OpenAI"),
        ("import json, \\\n    openai\nx = 1\n", "import json, \\\n    openai"),
        ("from \\\r\n    openai import OpenAI\r\n", "from \\\r\n    openai import OpenAI\r"),
        # a parenthesised name list, up to its closing parenthesis
        (
            "from .server import (\n    app,\n    mcp,\n)\nx = 1\n",
            "from .server import (\n    app,\n    mcp,\n)",
        ),
        ("from a import (b)\nc = (1,\n 2)\n", "from a import (b)"),
        # prose without the word holds no statement
        ("# answers from openai\nx = 1\n", ""),
        # a notebook cell whose source is one JSON string
        (
            '"source": "import json\\nfrom openai import OpenAI"\n',
            '"source": "import json\\nfrom openai import OpenAI"',
        ),
    ],
)
def test_import_statements(source: str, statements: str) -> None:
    assert prefilter.import_statements(source) == statements
    assert prefilter.import_statements(source.encode()) == statements.encode()


@pytest.mark.parametrize(
    ("key", "source", "signal"),
    [
        ("mcp", "from .server import (\n    app,\n    mcp,\n)\n", True),
        ("mcp", "from .server import app\nmcp = 1\n", False),
        ("openai_chat", "import json, \\\n    openai\n", True),
        ("openai_agents", "x = 'from agents we learn'\n", False),
        ("browser_use", "from browser_use import Tools\n", True),
        ("browser_use", "# see browser_use docs\n", False),
        ("polyai", "def f(conv: Conversation):\n    return 1\n", True),
        ("polyai", "from _gen import *\n", True),
        ("google_genai", "from google import (\n    genai,\n)\n", True),
    ],
)
def test_signals_are_read_in_the_import_statements(key: str, source: str, signal: bool) -> None:
    """The package names are searched in the import statements only; every statement form is
    in them (bytes and text agree)."""
    assert prefilter.has_signal(key, source, "m.py") is signal
    assert prefilter.has_signal(key, source.encode(), "m.py") is signal
    assert prefilter.signalled((key,), source.encode(), "m.py") is signal
