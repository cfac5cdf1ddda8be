"""OpenAI-compatible clients (RULES.md TRV4xx, frameworks-providers.md §3): on by
default, each with its own contract and its own consequence in the message.

One realistic loop per client holds the four classic mistakes — a dict `content`
(TRV401), only the first call answered (TRV405), the assistant message appended per
call (TRV407), a tool message without an id (TRV406) — and, for Ollama, OpenAI's keys
(TRV411). A module that imports the client only for embeddings or plain completions
gets nothing.
"""

from __future__ import annotations

import pytest

from lint_rules import prefilter
from lint_rules.config import Settings
from lint_rules.engine import check_source
from lint_rules.flake8_plugin import ToolretChecker
from lint_rules.frameworks.openai_chat.clients import COMPATIBLE

TOOLS = (
    'tools = [{"type": "function", "function": {"name": "get_weather", "parameters": '
    '{"type": "object", "properties": {"city": {"type": "string"}}}}}]\n'
)
LOOP = """

def get_weather(city):
    return {"city": city, "temp": 20}


def run(question):
    messages = [{"role": "user", "content": question}]
    response = <request>(model="m", messages=messages, tools=<tools>)
    message = response<message>
    messages.append(message)
    call = message.tool_calls[0]
    result = get_weather(**<arguments>)
    messages.append({"role": "tool", <id>"content": result})
    return <request>(model="m", messages=messages, tools=<tools>)


def run_all(question):
    messages = [{"role": "user", "content": question}]
    response = <request>(model="m", messages=messages, tools=<tools>)
    msg = response<message>
    for tc in msg.tool_calls:
        messages.append(msg)
        messages.append({"role": "tool", "content": "ok"})
    return <request>(model="m", messages=messages, tools=<tools>)
"""
OPENAI_STYLE = {
    "<message>": ".choices[0].message",
    "<arguments>": "json.loads(call.function.arguments)",
    "<id>": '"tool_call_id": call.id, ',
    "<tools>": "tools",
}
CLIENTS = {
    "groq": ("import json\nfrom groq import Groq\n\nclient = Groq()\n" + TOOLS,
             "client.chat.completions.create", OPENAI_STYLE),
    "together": ("import json\nfrom together import Together\n\nclient = Together()\n" + TOOLS,
                 "client.chat.completions.create", OPENAI_STYLE),
    "litellm": ("import json\nfrom litellm import completion\n" + TOOLS,
                "completion", OPENAI_STYLE),
    "mistral": ("import json\nfrom mistralai.client import Mistral\n\nclient = Mistral(api_key=1)\n"
                + TOOLS, "client.chat.complete", OPENAI_STYLE),
    "mistral-top-level": ("import json\nfrom mistralai import Mistral\n\nclient = Mistral()\n"
                          + TOOLS, "client.chat.complete_async", OPENAI_STYLE),
    "ollama": ("import ollama\n", "ollama.chat",
               {"<message>": ".message", "<arguments>": "call.function.arguments",
                "<id>": '"tool_call_id": call.id, ', "<tools>": "[get_weather]"}),
}  # fmt: skip
OPENAI_FOUR = ["TRV405", "TRV401", "TRV407", "TRV406"]
EXPECTED = {
    "groq": (OPENAI_FOUR, "HTTP 400"),
    "together": (OPENAI_FOUR, "HTTP 400"),
    "litellm": (OPENAI_FOUR, "HTTP 400 for OpenAI-backed models"),
    "mistral": (OPENAI_FOUR, "client-side `ValidationError` of `mistralai`"),
    "mistral-top-level": (OPENAI_FOUR, "client-side `ValidationError` of `mistralai`"),
    # no ids to answer: TRV405–TRV408 do not apply; `call.id` raises, `tool_call_id` is
    # dropped (TRV411), a dict content is a ValidationError
    "ollama": (["TRV411", "TRV411", "TRV401"], "client-side `ValidationError` of `ollama`"),
}


def loop_for(client: str) -> str:
    head, request, parts = CLIENTS[client]
    body = LOOP.replace("<request>", request)
    for hole, text in parts.items():
        body = body.replace(hole, text)
    return head + body


def findings(source: str) -> list[tuple[str, str]]:
    settings = Settings().with_overrides(select=["TRV4"])
    return [(d.code, d.message) for d in check_source(source, "loop.py", settings)]


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_each_client_gets_its_contract(client: str) -> None:
    codes, consequence = EXPECTED[client]
    found = findings(loop_for(client))
    assert [code for code, _ in found] == codes
    content = next(message for code, message in found if code == "TRV401")
    assert consequence in content


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_the_flake8_plugin_agrees(client: str) -> None:
    lines = loop_for(client).splitlines(keepends=True)
    found = [text.split(" ", 1)[0] for *_, text, _ in ToolretChecker(None, lines, "loop.py").run()]
    assert [c for c in found if c.startswith("TRV4")] == EXPECTED[client][0]


def test_litellm_says_which_models_in_every_message() -> None:
    assert all(
        "for OpenAI-backed models" in m for c, m in findings(loop_for("litellm")) if c != "TRV405"
    )


def test_the_ollama_rename_fix_keys_the_message_by_tool_name() -> None:
    source = loop_for("ollama").replace('"tool_call_id": call.id, ', '"name": call.function.name, ')
    found = check_source(source, "loop.py", Settings().with_overrides(select=["TRV411"]))
    assert [d.code for d in found] == ["TRV411"]
    assert found[0].fix is not None
    assert found[0].fix.edits[0].content == '"tool_name"'


UNUSED_FOR_TOOLS = {
    "groq": "from groq import Groq\n\nclient = Groq()\n\n\ndef ask(q):\n"
    '    r = client.chat.completions.create(model="m", messages=[{"role": "user", "content": q}])\n'
    "    return r.choices[0].message.content\n",
    "litellm": "import litellm\n\n\ndef embed(texts):\n"
    '    return litellm.embedding(model="text-embedding-3-small", input=texts)\n',
    "ollama": "import ollama\n\n\ndef embed(texts):\n"
    '    return ollama.embed(model="nomic-embed-text", input=texts)\n\n\n'
    "def ask(q):\n"
    '    return ollama.chat(model="m", messages=[{"role": "user", "content": q}]).message\n',
    "mistral": "from mistralai import Mistral\n\nclient = Mistral()\n\n\ndef ask(q):\n"
    '    return client.chat.complete(model="m", messages=[{"role": "user", "content": q}])\n',
}


@pytest.mark.parametrize("client", sorted(UNUSED_FOR_TOOLS))
def test_no_finding_without_tools(client: str) -> None:
    assert findings(UNUSED_FOR_TOOLS[client]) == []


def test_the_prefilter_knows_the_same_clients() -> None:
    assert prefilter.COMPATIBLE_CLIENTS == COMPATIBLE
    for client in CLIENTS:
        assert prefilter.has_signal(
            "openai_chat",
            loop_for(client),
            "loop.py",
            prefilter.extra_imports_of("openai_chat", None),
        )


def test_a_name_that_is_not_the_functions_is_reported_but_not_renamed() -> None:
    source = loop_for("ollama").replace('"tool_call_id": call.id, ', '"name": "weather", ')
    found = check_source(source, "loop.py", Settings().with_overrides(select=["TRV411"]))
    assert [(d.code, d.fix) for d in found] == [("TRV411", None)]
