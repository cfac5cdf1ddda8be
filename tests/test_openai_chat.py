"""Chat Completions tool loops (TRV4xx): what silences a rule, and what is recognised."""

from __future__ import annotations

from dataclasses import replace

from lint_rules.config import Settings
from lint_rules.engine import check_source
from lint_rules.frameworks.openai_chat._loops import HEAD

FIRST_CALL_ONLY = """
def run(messages, {extra}):
    response = client.chat.completions.create(
        model="gpt-4o", messages=messages, tools=tools{request}
    )
    message = response.choices[0].message
    tool_call = message.tool_calls[0]
    messages.append(message)
    messages.append({{"role": "tool", "tool_call_id": tool_call.id, "content": "Sunny"}})
"""


def codes(source: str, settings: Settings | None = None, select: str = "TRV4") -> list[str]:
    settings = (settings or Settings()).with_overrides(select=[select])
    return [d.code for d in check_source(source, "loop.py", settings)]


def test_first_call_only_is_reported() -> None:
    assert codes(HEAD + FIRST_CALL_ONLY.format(extra="x", request="")) == ["TRV405"]


def test_parallel_tool_calls_false_silences_trv405() -> None:
    source = HEAD + FIRST_CALL_ONLY.format(extra="x", request=", parallel_tool_calls=False")
    assert codes(source) == []


def test_parallel_tool_calls_from_a_setting_silences_trv405() -> None:
    source = HEAD + FIRST_CALL_ONLY.format(extra="flag", request=", parallel_tool_calls=flag")
    assert codes(source) == []


def test_literal_true_does_not_silence_trv405() -> None:
    source = HEAD + FIRST_CALL_ONLY.format(extra="x", request=", parallel_tool_calls=True")
    assert codes(source) == ["TRV405"]


def test_request_kwargs_silence_trv405() -> None:
    source = HEAD + FIRST_CALL_ONLY.format(extra="**options", request=", **options")
    assert codes(source) == []


DISPATCH = """
{registry}


def run(messages, message):
    for tool_call in message.tool_calls:
        result = available[tool_call.function.name](**json.loads(tool_call.function.arguments))
        messages.append(
            {{"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(result{dumps})}}
        )
    return client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
"""
RETURNS_SET = """
def get_tags(city: str):
    return {"sunny", "warm"}


"""


def test_dynamic_registry_is_not_guessed_at() -> None:
    registry = "available = {f.__name__: f for f in (get_weather, get_tags)}"
    source = HEAD + RETURNS_SET + DISPATCH.format(registry=registry, dumps="")
    assert codes(source) == []


def test_unknown_key_and_unencodable_result_are_reported() -> None:
    registry = 'available = {"get_weather": get_weather, "get_tags": get_tags}'
    source = HEAD + RETURNS_SET + DISPATCH.format(registry=registry, dumps="")
    assert sorted(codes(source)) == ["TRV402", "TRV403"]


def test_json_dumps_default_silences_trv402() -> None:
    registry = 'available = {"get_weather": get_weather, "get_tags": get_tags}'
    source = HEAD + RETURNS_SET + DISPATCH.format(registry=registry, dumps=", default=str")
    assert codes(source, select="TRV402") == []


def test_closed_registry_without_an_entry_is_reported() -> None:
    source = HEAD + DISPATCH.format(registry='available = {"get_wether": get_weather}', dumps="")
    assert codes(source, select="TRV403") == ["TRV403", "TRV403"]


def test_open_registry_silences_tool_without_an_entry() -> None:
    registry = 'available = {"other": get_weather}\navailable.update(get_weather=get_weather)'
    source = HEAD + DISPATCH.format(registry=registry, dumps="")
    # the key `other` is still no tool's name; the missing `get_weather` is not reported
    found = check_source(source, "loop.py", Settings().with_overrides(select=["TRV403"]))
    assert [d.message.split(" ")[0:3] for d in found] == [["Registry", "key", "`other`"]]


def test_globals_dispatch_uses_the_module_functions() -> None:
    source = HEAD + DISPATCH.format(registry="", dumps="").replace(
        "available[tool_call.function.name]", "globals()[tool_call.function.name]"
    )
    assert codes(source) == []
    renamed = source.replace("def get_weather(", "def fetch_weather(")
    assert codes(renamed, select="TRV403") == ["TRV403"]


OLLAMA = """
import ollama


def run(messages, response):
    message = response["message"]
    for tool_call in message.tool_calls:
        messages.append(message)
        messages.append({"role": "tool", "content": {"temperature": 21}})
    return ollama.chat(model="llama3.1", messages=messages)
"""


def test_a_client_that_is_not_configured_is_ignored() -> None:
    assert codes(OLLAMA) == []


def test_a_configured_extra_client_is_checked() -> None:
    groq = OLLAMA.replace("import ollama", "import groq").replace(
        'ollama.chat(model="llama3.1", messages=messages)',
        'groq.Groq().chat.completions.create(model="llama3", messages=messages)',
    )
    assert codes(groq) == []
    settings = Settings().with_overrides(select=["TRV4"])
    settings = replace(settings, openai_chat=replace(settings.openai_chat, extra_clients=("groq",)))
    found = sorted(d.code for d in check_source(groq, "loop.py", settings))
    assert found == ["TRV401", "TRV406", "TRV407"]
