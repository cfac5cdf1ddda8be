"""TRV901/TRV902 fire in every family's tool functions, and only there."""

from __future__ import annotations

import pytest

from lint_rules.config import Settings
from lint_rules.engine import check_source

SETTINGS = Settings(select=("TRV9",))

# A tool of each family, ``{body}`` its body (the file sits under ``functions/``, so the
# PolyAI function ``lookup`` is a tool too).
FAMILIES = {
    "polyai": (
        "functions/lookup.py",
        "import asyncio\n\nasync def fetch(x):\n    return x\n\n\n"
        "async def lookup(conv, order_id: str):\n{body}\n",
        "PolyAI function `lookup`",
    ),
    "browser_use": (
        "shop.py",
        "from browser_use import Tools\n\ntools = Tools()\n\n\nasync def fetch(x):\n"
        "    return x\n\n\n@tools.action('Look up an order')\nasync def lookup(order_id: str):\n"
        "{body}\n",
        "browser-use action `lookup`",
    ),
    "openai_agents": (
        "agent_tools.py",
        "from agents import function_tool\n\n\nasync def fetch(x):\n    return x\n\n\n"
        "@function_tool\nasync def lookup(order_id: str) -> str:\n{body}\n",
        "Agents SDK tool `lookup`",
    ),
    "openai_chat": (
        "loop.py",
        "import json\n\nfrom openai import OpenAI\n\nclient = OpenAI()\n\n\nasync def fetch(x):\n"
        "    return x\n\n\nasync def lookup(order_id: str):\n{body}\n\n\n"
        "REGISTRY = {'lookup': lookup}\n\n\nasync def run(messages):\n"
        "    response = client.chat.completions.create(model='m', messages=messages)\n"
        "    for call in response.choices[0].message.tool_calls:\n"
        "        args = json.loads(call.function.arguments)\n"
        "        result = await REGISTRY[call.function.name](**args)\n"
        "        messages.append({'role': 'tool', 'tool_call_id': call.id, "
        "'content': str(result)})\n",
        "Chat Completions tool `lookup`",
    ),
}


def _check(family: str, body: str) -> list[tuple[str, str]]:
    path, template, _ = FAMILIES[family]
    source = template.replace("{body}", body)
    return [(d.code, d.message) for d in check_source(source, path, SETTINGS)]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("    return ValueError(order_id)", "TRV901"),
        ("    error = KeyError(order_id)\n    return error", "TRV901"),
        (
            "    try:\n        x = 1\n    except LookupError as error:\n        return error",
            "TRV901",
        ),
        ("    return fetch(order_id)", "TRV902"),
        ("    return {'order': fetch(order_id)}", "TRV902"),
        ("    return [order_id, fetch(order_id)]", "TRV902"),
    ],
)
def test_each_rule_fires_in_every_family(family: str, body: str, code: str) -> None:
    found = _check(family, body)
    assert [c for c, _ in found] == [code]
    assert found[0][1].startswith(FAMILIES[family][2])


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(
    "body",
    [
        "    raise ValueError(order_id)",
        "    return str(ValueError(order_id))",
        "    return await fetch(order_id)",
        "    return asyncio.create_task(fetch(order_id))",
        "    return asyncio.ensure_future(fetch(order_id))",
        "    ValueError = str\n    return ValueError(order_id)",
        "    try:\n        x = 1\n    except LookupError as error:\n        return str(error)",
        "    try:\n        x = 1\n    except LookupError as error:\n        error = 'no'\n"
        "        return error",
        "    try:\n        x = 1\n    except LookupError as error:\n        pass\n    return error",
    ],
)
def test_nothing_else_is_reported(family: str, body: str) -> None:
    if "asyncio" in body and family != "polyai":
        body = "    import asyncio\n" + body
    assert _check(family, body) == []


def test_a_helper_that_is_not_a_tool_is_not_checked() -> None:
    source = (
        "from agents import function_tool\n\n\nasync def fetch(x):\n    return x\n\n\n"
        "def make_error(order_id):\n    return ValueError(order_id)\n\n\n"
        "def request(order_id):\n    return fetch(order_id)\n\n\n"
        "@function_tool\nasync def lookup(order_id: str) -> str:\n"
        "    if not order_id:\n        raise make_error(order_id)\n"
        "    return await request(order_id)\n"
    )
    assert check_source(source, "agent_tools.py", SETTINGS) == []


def test_a_tool_of_two_families_is_reported_once() -> None:
    source = (
        "from agents import function_tool\n\n\n@function_tool\n"
        "def lookup(conv, order_id: str) -> str:\n    return ValueError(order_id)\n"
    )
    (diagnostic,) = check_source(source, "functions/lookup.py", SETTINGS)
    assert diagnostic.message.startswith("PolyAI function `lookup`")


def test_the_fixes_are_unsafe_and_only_in_an_async_tool_for_await() -> None:
    _, template, _ = FAMILIES["openai_agents"]
    (raised,) = check_source(
        template.replace("{body}", "    return ValueError(order_id)"), "t.py", SETTINGS
    )
    assert raised.fix is not None and raised.fix.applicability.value == "unsafe"
    assert raised.fix.edits[0].content == "raise ValueError(order_id)"
    (awaited,) = check_source(
        template.replace("{body}", "    return fetch(order_id)"), "t.py", SETTINGS
    )
    assert awaited.fix is not None and awaited.fix.edits[0].content == "await "
    plain = template.replace("async def lookup", "def lookup")  # the SDK runs it in a thread
    (unfixable,) = check_source(
        plain.replace("{body}", "    return fetch(order_id)"), "t.py", SETTINGS
    )
    assert unfixable.code == "TRV902" and unfixable.fix is None
    nested = "    def later():\n        return 1\n    return [fetch(order_id), later()]"
    (in_list,) = check_source(template.replace("{body}", nested), "t.py", SETTINGS)
    assert in_list.fix is not None and in_list.fix.edits[0].content == "await "


def test_a_plain_def_registry_function_may_be_awaited_by_its_loop() -> None:
    path, template, _ = FAMILIES["openai_chat"]
    plain = template.replace("async def lookup", "def lookup")
    assert check_source(plain.replace("{body}", "    return fetch(order_id)"), path, SETTINGS) == []
