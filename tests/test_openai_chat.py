"""Chat Completions tool loops (TRV4xx): what silences a rule, and what is recognised."""

from __future__ import annotations

from dataclasses import replace

import pytest

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


def test_ollama_is_checked_by_default_with_its_own_contract() -> None:
    # its calls have no ids: only the content's ValidationError is a mistake there
    assert codes(OLLAMA) == ["TRV401"]


def test_a_configured_extra_client_is_checked() -> None:
    other = OLLAMA.replace("import ollama", "import cerebras").replace(
        'ollama.chat(model="llama3.1", messages=messages)',
        'cerebras.Cerebras().chat.completions.create(model="llama3", messages=messages)',
    )
    assert codes(other) == []
    settings = Settings().with_overrides(select=["TRV4"])
    chat = replace(settings.openai_chat, extra_clients=("cerebras",))
    found = sorted(
        d.code for d in check_source(other, "loop.py", replace(settings, openai_chat=chat))
    )
    assert found == ["TRV401", "TRV406", "TRV407"]


# ------------------------------------------------- loops recognised by data flow


def fill(template: str, **parts: str) -> str:
    for name, text in parts.items():
        template = template.replace(f"<{name}>", text)
    return template


def found(source: str, select: str = "TRV4") -> list[tuple[str, int]]:
    settings = Settings().with_overrides(select=[select])
    return [(d.code, d.location.row) for d in check_source(source, "loop.py", settings)]


def row(source: str, needle: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), 1) if needle in line)


SCRIPT = (
    HEAD
    + """\
messages = [{"role": "user", "content": "Weather in Paris and in Rome?"}]
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
response_message = response.choices[0].message
tool_call = response_message.tool_calls[0]
result = get_weather(**json.loads(tool_call.function.arguments))
<send>
"""
)


def test_a_script_that_answers_the_first_call_in_the_module_body() -> None:
    appended = fill(
        SCRIPT,
        send="messages.append(response_message)\n"
        'messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})\n'
        'client.chat.completions.create(model="gpt-4o", messages=messages)',
    )
    assert found(appended) == [("TRV405", row(appended, "tool_calls[0]"))]


@pytest.mark.parametrize(
    "send",
    [
        pytest.param(
            'client.chat.completions.create(model="gpt-4o", messages=[*messages, '
            'response_message, {"role": "tool", "tool_call_id": tool_call.id, "content": result}])',
            id="messages display",
        ),
        pytest.param(
            "messages.extend([response_message, "
            '{"role": "tool", "tool_call_id": tool_call.id, "content": result}])',
            id="extend",
        ),
        pytest.param(
            "messages.insert(len(messages), response_message)\n"
            'messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})',
            id="insert",
        ),
        pytest.param(
            'client.chat.completions.create(model="gpt-4o", messages=messages + '
            '[response_message, {"role": "tool", "tool_call_id": tool_call.id, "content": "ok"}])',
            id="joined display",
        ),
    ],
)
def test_the_assistant_message_is_sent_in_several_ways(send: str) -> None:
    source = fill(SCRIPT, send=send)
    assert found(source) == [("TRV405", row(source, "tool_calls[0]"))]


def test_a_message_rebound_for_the_next_round_is_not_the_one_answered() -> None:
    # a notebook: the first round keeps only the first call, the second round sends the
    # final answer through the same names
    source = fill(
        SCRIPT,
        send='messages.append({"role": "assistant", "tool_calls": [tool_call]})\n'
        'messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})\n'
        'response = client.chat.completions.create(model="gpt-4o", messages=messages)\n'
        "response_message = response.choices[0].message\n"
        "messages.append(response_message)",
    ).replace(
        "response_message = response.choices[0].message\ntool_call",
        "response_message = response.choices[0].message\nprint(response_message.content)\n"
        "tool_call",
    )
    assert found(source) == []


LOOP_OVER_PARAMETER = (
    HEAD
    + """\
def answer_tool_calls(tool_calls, messages):
    for call in tool_calls:
        args = json.loads(call.function.arguments)
<body>


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    answer_tool_calls(message.tool_calls, messages)
    return client.chat.completions.create(model="gpt-4o", messages=messages)
"""
)
ANSWER = '        messages.append({"role": "tool", "tool_call_id": call.id, "content": result})\n'


def test_a_loop_over_a_parameter_that_returns_in_its_body() -> None:
    body = "        result = get_weather(**args)\n" + ANSWER + "        return messages"
    source = fill(LOOP_OVER_PARAMETER, body=body)
    assert found(source) == [("TRV409", row(source, "return messages"))]


def test_a_loop_over_a_parameter_that_skips_unknown_tools() -> None:
    body = (
        '        if call.function.name != "get_weather":\n'
        "            continue\n"
        "        result = get_weather(**args)\n" + ANSWER.rstrip("\n")
    )
    source = fill(LOOP_OVER_PARAMETER, body=body)
    assert found(source) == [("TRV409", row(source, "continue"))]


def test_a_loop_over_a_parameter_that_only_searches_the_calls() -> None:
    body = '        if call.function.name == "get_weather":\n            return args'
    assert found(fill(LOOP_OVER_PARAMETER, body=body)) == []


HELPER = (
    HEAD
    + """\
def <helper>:
<helper_body>


def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    if not message.tool_calls:
        return message.content
    messages.append(message)
    messages.append(<call>)
    return client.chat.completions.create(model="gpt-4o", messages=messages)
"""
)
FIRST_ONLY = """\
    tool_call = <given>[0]
    result = get_weather(**json.loads(tool_call.function.arguments))
    return {"role": "tool", "tool_call_id": tool_call.id, "content": result}"""


@pytest.mark.parametrize(
    ("helper", "given", "call"),
    [
        ("handle_tool_call(message)", "message.tool_calls", "handle_tool_call(message)"),
        ("handle_tool_call(tool_calls)", "tool_calls", "handle_tool_call(message.tool_calls)"),
        (
            "handle_tool_call(*, tool_calls)",
            "tool_calls",
            "handle_tool_call(tool_calls=message.tool_calls)",
        ),
    ],
)
def test_a_helper_that_answers_only_the_first_call(helper: str, given: str, call: str) -> None:
    source = fill(HELPER, helper=helper, helper_body=fill(FIRST_ONLY, given=given), call=call)
    assert found(source) == [("TRV405", row(source, "messages.append(handle_tool_call"))]


@pytest.mark.parametrize(
    ("helper", "helper_body", "call"),
    [
        pytest.param(
            "handle_tool_calls(message)",
            "    return [\n"
            '        {"role": "tool", "tool_call_id": c.id, "content": "Sunny"}\n'
            "        for c in message.tool_calls\n"
            "    ]",
            "*handle_tool_calls(message)",
            id="a helper that answers every call",
        ),
        pytest.param(
            "handle_tool_call(message)",
            "    log(message)\n" + fill(FIRST_ONLY, given="message.tool_calls"),
            "handle_tool_call(message)",
            id="the message passed on",
        ),
        pytest.param(
            "handle_tool_call(message)",
            "    if len(message.tool_calls) > 1:\n"
            "        raise ValueError('one call at a time')\n"
            + fill(FIRST_ONLY, given="message.tool_calls"),
            "handle_tool_call(message)",
            id="the number of calls checked",
        ),
    ],
)
def test_helpers_that_do_not_answer_only_the_first_call(
    helper: str, helper_body: str, call: str
) -> None:
    source = fill(HELPER, helper=helper, helper_body=helper_body, call=call)
    if call.startswith("*"):
        source = source.replace(f"messages.append({call})", f"messages.extend([{call}])")
    assert found(source) == []


def test_a_decorated_or_redefined_helper_is_not_summarised() -> None:
    source = fill(
        HELPER,
        helper="handle_tool_call(message)",
        helper_body=fill(FIRST_ONLY, given="message.tool_calls"),
        call="handle_tool_call(message)",
    )
    assert found(source.replace("def handle_tool_call", "@traced\ndef handle_tool_call")) == []
    redefined = source + "\n\ndef handle_tool_call(message):\n    return answer_all(message)\n"
    assert found(redefined) == []


# ------------------------------------------------------ TRV403: guarded lookups

TIME_SCHEMA = (
    HEAD
    + """\
available = {"get_weather": get_weather}


def run(messages, message):
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
<lookup>
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
    return client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
"""
).replace(
    "    }\n]\n",
    '    },\n    {"type": "function", "function": {"name": "get_time", "parameters": {}}},\n]\n',
    1,
)


@pytest.mark.parametrize(
    ("lookup", "outcome"),
    [
        pytest.param(
            "        result = available[tool_call.function.name](**args)",
            "raises",
            id="unguarded",
        ),
        pytest.param(
            "        if tool_call.function.name not in available:\n"
            '            result = "unknown tool"\n'
            "        else:\n"
            "            result = available[tool_call.function.name](**args)",
            "never runs",
            id="membership test",
        ),
        pytest.param(
            "        function = available.get(tool_call.function.name, lambda **_: 'unknown')\n"
            "        result = function(**args)",
            "never runs",
            id="get with a fallback",
        ),
        pytest.param(
            "        try:\n"
            "            result = available[tool_call.function.name](**args)\n"
            "        except KeyError:\n"
            '            result = "unknown tool"',
            "never runs",
            id="try catching KeyError",
        ),
        pytest.param(
            "        try:\n"
            "            result = available[tool_call.function.name](**args)\n"
            "        except (TypeError, Exception) as error:\n"
            "            result = str(error)",
            "never runs",
            id="try catching Exception",
        ),
        pytest.param(
            "        try:\n"
            "            result = available[tool_call.function.name](**args)\n"
            "        except json.JSONDecodeError:\n"
            '            result = "bad arguments"',
            "raises",
            id="try that cannot catch the KeyError",
        ),
    ],
)
def test_a_tool_without_an_entry_is_reported_guarded_or_not(lookup: str, outcome: str) -> None:
    source = fill(TIME_SCHEMA, lookup=lookup)
    settings = Settings().with_overrides(select=["TRV403"])
    diagnostics = check_source(source, "loop.py", settings)
    assert [(d.location.row, outcome in d.message) for d in diagnostics] == [
        (row(source, '"name": "get_time"'), True)
    ]


@pytest.mark.parametrize(
    "lookup",
    [
        pytest.param(
            '        if tool_call.function.name == "get_time":\n'
            '            result = "noon"\n'
            "        else:\n"
            "            result = available[tool_call.function.name](**args)",
            id="dispatched by an if beside the registry",
        ),
        pytest.param(
            "        match tool_call.function.name:\n"
            '            case "get_time":\n'
            '                result = "noon"\n'
            "            case name:\n"
            "                result = available[name](**args)",
            id="dispatched by a match case",
        ),
        pytest.param(
            "        function = available.get(tool_call.function.name)\n"
            "        if function is None:\n"
            "            function = getattr(toolbox, tool_call.function.name)\n"
            "        result = function(**args)",
            id="a getattr fallback",
        ),
    ],
)
def test_a_tool_dispatched_without_the_registry_is_not_reported(lookup: str) -> None:
    assert found(fill(TIME_SCHEMA, lookup=lookup), select="TRV403") == []


# ------------------------------------------------- loops through enumerate

ENUMERATE = (
    HEAD
    + """\
def run(messages, response):
    message = response.choices[0].message
    results = [get_weather("Paris") for _ in message.tool_calls]
<before>
    for <header>:
<body>
    return client.chat.completions.create(model="gpt-4o", messages=messages)
"""
)
ENUMERATED = [
    pytest.param("i, call in enumerate(message.tool_calls)", "call", id="enumerate"),
    pytest.param("i, call in enumerate(message.tool_calls, start=1)", "call", id="start="),
    pytest.param("index, tool_call in enumerate(message.tool_calls, 1)", "tool_call", id="start"),
]


def answer(variable: str, call_id: str = "") -> str:
    call_id = call_id or f"{variable}.id"
    return (
        f'        messages.append({{"role": "tool", "tool_call_id": {call_id}, '
        '"content": str(results[i])})'
    )


def enumerated(header: str, variable: str, body: str, before: str | None = None) -> str:
    index = header.split(",")[0].strip("[")
    body = body.replace("<answer>", answer(variable)).replace("results[i]", f"results[{index}]")
    before = "    messages.append(message)" if before is None else before
    return fill(ENUMERATE, header=header, body=body, before=before)


@pytest.mark.parametrize(("header", "variable"), ENUMERATED)
def test_an_enumerate_loop_that_answers_every_call_is_silent(header: str, variable: str) -> None:
    assert found(enumerated(header, variable, "<answer>")) == []


@pytest.mark.parametrize(("header", "variable"), ENUMERATED)
def test_an_enumerate_loop_that_appends_the_assistant_message_per_call(
    header: str, variable: str
) -> None:
    source = enumerated(header, variable, "        messages.append(message)\n<answer>", "")
    assert found(source) == [("TRV407", row(source, "        messages.append(message)"))]


@pytest.mark.parametrize(("header", "variable"), ENUMERATED)
def test_an_enumerate_loop_that_answers_the_first_call_every_time(
    header: str, variable: str
) -> None:
    source = enumerated(header, variable, answer(variable, "message.tool_calls[0].id"))
    assert found(source) == [("TRV408", row(source, "tool_calls[0].id"))]


@pytest.mark.parametrize(("header", "variable"), ENUMERATED)
def test_an_enumerate_loop_that_reads_the_call_by_its_index_is_silent(
    header: str, variable: str
) -> None:
    index = header.split(",")[0]
    source = enumerated(header, variable, answer(variable, f"message.tool_calls[{index}].id"))
    assert found(source) == []


@pytest.mark.parametrize(("header", "variable"), ENUMERATED)
def test_an_enumerate_loop_that_returns_or_skips(header: str, variable: str) -> None:
    returns = enumerated(header, variable, "<answer>\n        return messages")
    assert found(returns) == [("TRV409", row(returns, "return messages"))]
    skips = enumerated(
        header,
        variable,
        f'        if {variable}.function.name != "get_weather":\n            continue\n<answer>',
    )
    assert found(skips) == [("TRV409", row(skips, "continue"))]


def test_an_enumerate_loop_over_a_parameter_that_returns_in_its_body() -> None:
    body = "        result = get_weather(**args)\n" + ANSWER + "        return messages"
    source = fill(LOOP_OVER_PARAMETER, body=body).replace(
        "for call in tool_calls:", "for i, call in enumerate(tool_calls):"
    )
    assert found(source) == [("TRV409", row(source, "return messages"))]


@pytest.mark.parametrize(
    ("header", "extra"),
    [
        pytest.param(
            "i, call in enumerate(message.tool_calls)", "enumerate = reversed", id="rebound"
        ),
        pytest.param(
            "i, call in enumerate(message.tool_calls)", "from x import enumerate", id="import"
        ),
        pytest.param(
            "i, call in enumerate(start=0, iterable=message.tool_calls)", "", id="keyword"
        ),
        pytest.param("i, call in zip(message.tool_calls, results)", "", id="zip"),
        pytest.param("[i, call] in enumerate(message.tool_calls)", "", id="list target"),
    ],
)
def test_other_pairs_are_not_loops_over_tool_calls(header: str, extra: str) -> None:
    source = extra + "\n" + enumerated(header, "call", "        messages.append(message)\n<answer>")
    assert [code for code, _ in found(source)] == []
