"""Chat Completions dispatch rules (TRV402–TRV404) across files: ``toolret check``'s index.

A registry imported by the loop's module (``from tools import REGISTRY``), or a registry
literal of the loop's module whose functions are imported (``from tools import
get_weather``): each diagnostic is reported in the file of the node it points at (a
registry key, a registered name, a return value, a schema's name), the facts digest
invalidates cached results of the other file, nothing unresolved is guessed at, and
flake8 (one file at a time) sees none of it.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from lint_rules import runner
from lint_rules.analysis.project import Project
from lint_rules.cache import ResultCache
from lint_rules.config import Settings, SettingsResolver
from lint_rules.engine import check_source

Found = list[tuple[str, int, str]]

SCHEMAS = """\
tools = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_time",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    },
]
"""

LOOP = (
    """\
import json

from openai import OpenAI

<IMPORTS>

client = OpenAI()
"""
    + SCHEMAS
    + """

def run(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    for tool_call in message.tool_calls:
        result = REGISTRY[tool_call.function.name](**json.loads(tool_call.function.arguments))
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(result<DUMPS>)}
        )
"""
)

TOOLS = """\
from datetime import datetime


def get_weather(location: str) -> str:
    return f"Sunny in {location}"


def get_time(city: str):
    return {"city": city, "time": datetime.now()}


REGISTRY = {"get_weather": get_weather, "time": get_time}
"""


def write(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))


def check(
    paths: list[Path], cache: ResultCache | None = None, select: str = "TRV4", **kwargs: object
) -> Found:
    resolver = SettingsResolver(overrides=lambda s: s.with_overrides(select=[select]))
    result = runner.run(
        paths,
        resolver,
        project=Project(revalidate=False),
        cache=cache,
        **kwargs,  # type: ignore[arg-type]
    )
    return sorted((Path(d.filename).name, d.location.row, d.code) for d in result.diagnostics)


def loop(imports: str = "from tools import REGISTRY", dumps: str = "") -> str:
    return LOOP.replace("<IMPORTS>", imports).replace("<DUMPS>", dumps)


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


# ------------------------------------------------------- an imported registry


def test_an_imported_registry_is_compared_with_the_loops_schemas(tmp_path: Path) -> None:
    write(tmp_path, {"loop.py": loop(), "tools.py": TOOLS})
    registry = line_of(TOOLS, "REGISTRY =")
    assert check([tmp_path]) == [
        ("loop.py", line_of(loop(), '"name": "get_time"'), "TRV403"),  # no entry
        ("tools.py", line_of(TOOLS, '"time": datetime.now()'), "TRV402"),
        ("tools.py", registry, "TRV403"),  # key `time`
        ("tools.py", registry, "TRV404"),  # get_weather(location) vs `city`
    ]


def test_checking_only_the_registry_file_still_finds_the_loop(tmp_path: Path) -> None:
    # pre-commit passes only the changed file; the loop lives in an unchanged one.
    write(tmp_path, {"loop.py": loop(), "tools.py": TOOLS})
    assert [f[2] for f in check([tmp_path / "tools.py"])] == ["TRV402", "TRV403", "TRV404"]


def test_a_function_imported_into_the_registry_file_is_followed(tmp_path: Path) -> None:
    impl = TOOLS.replace("\n\nREGISTRY = {", "\n\n_UNUSED = {")
    tools = """\
        from impl import get_time, get_weather

        REGISTRY = {"get_weather": get_weather, "get_time": get_time}
        """
    write(tmp_path, {"loop.py": loop(), "tools.py": tools, "impl.py": impl})
    assert check([tmp_path]) == [
        ("impl.py", line_of(impl, '"time": datetime.now()'), "TRV402"),
        ("tools.py", 3, "TRV404"),
    ]


def test_default_str_and_positional_dispatch_silence_trv402_and_trv404(tmp_path: Path) -> None:
    positional = loop(dumps=", default=str").replace(
        "(**json.loads(tool_call.function.arguments))", "(json.loads(tool_call.function.arguments))"
    )
    write(tmp_path, {"loop.py": positional, "tools.py": TOOLS})
    assert [f[2] for f in check([tmp_path])] == ["TRV403", "TRV403"]


def test_a_registry_extended_by_the_loop_is_open(tmp_path: Path) -> None:
    extended = loop().replace(
        "client = OpenAI()", "client = OpenAI()\nREGISTRY['get_time'] = lambda city: city"
    )
    write(tmp_path, {"loop.py": extended, "tools.py": TOOLS})
    assert ("loop.py", "TRV403") not in {(f[0], f[2]) for f in check([tmp_path])}


def test_a_guarded_lookup_still_reports_a_tool_without_an_entry(tmp_path: Path) -> None:
    # the guard turns the `KeyError` into an "unknown tool" answer: `get_time` never runs
    guarded = loop().replace(
        "        result = REGISTRY[",
        "        if tool_call.function.name not in REGISTRY:\n"
        '            messages.append({"role": "tool", "tool_call_id": tool_call.id, '
        '"content": "unknown tool"})\n'
        "            continue\n"
        "        result = REGISTRY[",
    )
    write(tmp_path, {"loop.py": guarded, "tools.py": TOOLS})
    found = check([tmp_path], select="TRV403")
    assert ("loop.py", line_of(guarded, '"name": "get_time"'), "TRV403") in found
    result = runner.run(
        [tmp_path / "loop.py"],
        SettingsResolver(overrides=lambda s: s.with_overrides(select=["TRV403"])),
        project=Project(revalidate=False),
    )
    assert ["never runs" in d.message for d in result.diagnostics] == [True]


@pytest.mark.parametrize(
    "tools",
    [
        pytest.param("REGISTRY = {f.__name__: f for f in []}\n", id="built at run time"),
        pytest.param("from elsewhere import REGISTRY\n", id="unresolved import"),
        pytest.param("REGISTRY = {'get_weather': 1}\n", id="a dict of data"),
    ],
)
def test_what_does_not_resolve_is_not_guessed_at(tmp_path: Path, tools: str) -> None:
    write(tmp_path, {"loop.py": loop(), "tools.py": tools})
    assert check([tmp_path]) == []


def test_unknown_schemas_silence_key_checks_but_not_trv402(tmp_path: Path) -> None:
    generated = loop().replace("tools=tools)", "tools=[*tools, *extra])")
    write(tmp_path, {"loop.py": generated, "tools.py": TOOLS})
    assert check([tmp_path]) == [("tools.py", line_of(TOOLS, "datetime.now()"), "TRV402")]


def test_a_loop_of_an_unconfigured_client_is_ignored(tmp_path: Path) -> None:
    other = loop().replace("from openai import OpenAI", "from cerebras import Client as OpenAI")
    write(tmp_path, {"loop.py": other, "tools.py": TOOLS})
    assert check([tmp_path]) == []


def test_relative_imports_and_reexports_are_followed(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "app/__init__.py": "from .tools import REGISTRY\n",
            "app/tools.py": TOOLS,
            "app/loop.py": loop("from . import REGISTRY"),
        },
    )
    assert [f[:1] + f[2:] for f in check([tmp_path / "app" / "tools.py"])] == [
        ("tools.py", "TRV402"),
        ("tools.py", "TRV403"),
        ("tools.py", "TRV404"),
    ]


# ------------------------------------------- a registry literal, imported functions


REGISTRY_IN_LOOP = """\
from tools import get_time, get_weather

REGISTRY = {"get_weather": get_weather, "get_time": get_time}"""


def test_registered_functions_imported_from_another_file(tmp_path: Path) -> None:
    impl = TOOLS.replace('\n\nREGISTRY = {"get_weather": get_weather, "time": get_time}\n', "\n")
    source = loop(REGISTRY_IN_LOOP)
    write(tmp_path, {"loop.py": source, "tools.py": impl})
    assert check([tmp_path]) == [
        ("loop.py", line_of(source, "REGISTRY = {"), "TRV404"),
        ("tools.py", line_of(impl, "datetime.now()"), "TRV402"),
    ]


def test_flake8_style_checks_use_same_file_facts_only(tmp_path: Path) -> None:
    impl = TOOLS.replace('\n\nREGISTRY = {"get_weather": get_weather, "time": get_time}\n', "\n")
    write(tmp_path, {"loop.py": loop(REGISTRY_IN_LOOP), "tools.py": impl, "t2.py": TOOLS})
    settings = Settings().with_overrides(select=["TRV4"])
    for name in ("loop.py", "tools.py", "t2.py"):
        path = tmp_path / name
        assert check_source(path.read_text(), str(path), settings, Project()) == []
    imported = tmp_path / "l2.py"
    imported.write_text(loop("from t2 import REGISTRY"))
    assert check_source(imported.read_text(), str(imported), settings, Project()) == []


# ------------------------------------------------------------------ the cache


def test_a_changed_schema_invalidates_the_cached_registry_file(tmp_path: Path) -> None:
    write(tmp_path, {"loop.py": loop(), "tools.py": TOOLS})
    cache_dir = tmp_path / ".cache"
    tools = tmp_path / "tools.py"
    first = check([tools], ResultCache(cache_dir))
    assert [f[2] for f in first] == ["TRV402", "TRV403", "TRV404"]
    # the schema now says `location`: get_weather accepts it (TRV404 gone), and with
    # `default=str` nothing is left to encode (TRV402 gone); `time` is still no tool
    main = tmp_path / "loop.py"
    main.write_text(
        loop(dumps=", default=str").replace(
            '"properties": {"city": {"type": "string"}},\n                "required": ["city"]',
            '"properties": {"location": {"type": "string"}},\n'
            '                "required": ["location"]',
        )
    )
    os.utime(main, ns=(1, 1))
    assert [f[2] for f in check([tools], ResultCache(cache_dir))] == ["TRV403"]
    main.write_text(loop())
    assert check([tools], ResultCache(cache_dir)) == first


def test_a_changed_registry_invalidates_the_cached_loop_file(tmp_path: Path) -> None:
    write(tmp_path, {"loop.py": loop(), "tools.py": TOOLS})
    cache_dir = tmp_path / ".cache"
    main = tmp_path / "loop.py"
    assert [f[2] for f in check([main], ResultCache(cache_dir))] == ["TRV403"]
    tools = tmp_path / "tools.py"
    tools.write_text(TOOLS.replace('"time": get_time', '"get_time": get_time'))
    os.utime(tools, ns=(1, 1))
    assert check([main], ResultCache(cache_dir)) == []


def test_a_changed_function_invalidates_the_loop_that_registers_it(tmp_path: Path) -> None:
    impl = TOOLS.replace('\n\nREGISTRY = {"get_weather": get_weather, "time": get_time}\n', "\n")
    write(tmp_path, {"loop.py": loop(REGISTRY_IN_LOOP), "tools.py": impl})
    cache_dir = tmp_path / ".cache"
    main = tmp_path / "loop.py"
    assert [f[2] for f in check([main], ResultCache(cache_dir))] == ["TRV404"]
    tools = tmp_path / "tools.py"
    tools.write_text(impl.replace("location", "city"))
    os.utime(tools, ns=(1, 1))
    assert check([main], ResultCache(cache_dir)) == []


# ------------------------------------------------------- extra clients, prefilter


def test_prefilter_changes_nothing_with_extra_clients(tmp_path: Path) -> None:
    config = '[tool.toolret.openai-chat]\nextra-clients = ["groq"]\n'
    (tmp_path / "pyproject.toml").write_text(config)
    groq = loop().replace("from openai import OpenAI", "from groq import Groq as OpenAI")
    files = {
        "groq_app/loop.py": groq,
        "groq_app/tools.py": TOOLS,
        "plain/loop.py": loop(),
        "plain/tools.py": TOOLS,
        "other/loop.py": groq.replace("groq", "cerebras"),
        "other/tools.py": TOOLS,
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    with_prefilter = check([tmp_path])
    assert with_prefilter == check([tmp_path], use_prefilter=False)
    assert {f[2] for f in with_prefilter} == {"TRV402", "TRV403", "TRV404"}
    assert len(with_prefilter) == 8  # groq_app and plain, not the unconfigured cerebras
