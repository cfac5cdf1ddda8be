"""The TRR family (OpenAI Responses API loops) and the code scheme after TRV9xx
(RULES.md "Codes after TRV9xx"), through the real entry points: the CLI, flake8 as a
subprocess, the JSON and SARIF outputs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Invoke

LOOP = """\
from openai import OpenAI

client = OpenAI()


def answer(item, r):
    o = {{"type": "function_call_output", "tool_call_id": item.call_id, "output": r}}{comment}
    return client.responses.create(model="gpt-4.1", input=[o])
"""


def _write(root: Path, comment: str = "") -> Path:
    path = root / "loop.py"
    path.write_text(LOOP.format(comment=comment), encoding="utf-8")
    return path


def _flake8(root: Path, *args: str) -> list[str]:
    done = subprocess.run(
        # pycodestyle's and pyflakes' codes aside: the default selection is what is asked
        [sys.executable, "-m", "flake8", "--isolated", "--extend-ignore", "E,W,F,C", *args,
         "loop.py"],
        cwd=root, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return [line.split(" ", 2)[1] for line in done.stdout.splitlines()]


def test_flake8_shows_the_new_prefix_by_default_and_once(tmp_path: Path) -> None:
    """The ``TRR`` entry point registers the prefix (flake8 shows unregistered prefixes
    only when selected); its checker yields nothing, so nothing is printed twice."""
    _write(tmp_path)
    assert _flake8(tmp_path) == ["TRR006"]
    assert _flake8(tmp_path, "--extend-ignore", "E,W,F,C,TRR") == []
    assert _flake8(tmp_path, "--select", "TRV") == []
    assert _flake8(tmp_path, "--select", "TRR006") == ["TRR006"]


def test_flake8_noqa_of_the_new_prefix(tmp_path: Path) -> None:
    _write(tmp_path, "  # noqa: TRR006")
    assert _flake8(tmp_path) == []
    assert _flake8(tmp_path, "--disable-noqa") == ["TRR006"]


def _codes(result_stdout: str) -> list[str]:
    return [d["code"] for d in json.loads(result_stdout)]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((), ["TRR006"]),
        (("--select", "TRR"), ["TRR006"]),
        (("--select", "ALL"), ["TRR006"]),
        (("--select", "TRR0"), ["TRR006"]),
        (("--select", "TRV"), []),
        (("--ignore", "TRR"), []),
        (("--ignore", "TRR006"), []),
        (("--select", "TRV", "--extend-select", "TRR"), ["TRR006"]),
    ],
)
def test_selection_by_the_new_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke,
    args: tuple[str, ...], expected: list[str],
) -> None:  # fmt: skip
    _write(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = toolret_cli("check", "--no-cache", "--output-format", "json", *args, ".")
    assert _codes(result.stdout) == expected, result.stderr


@pytest.mark.parametrize("comment", ["  # noqa: TRR", "  # noqa: TRR006", "  # noqa"])
def test_noqa_and_per_file_ignores_of_the_new_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke, comment: str
) -> None:
    _write(tmp_path, comment)
    monkeypatch.chdir(tmp_path)
    result = toolret_cli("check", "--no-cache", "--output-format", "json", ".")
    assert _codes(result.stdout) == []
    _write(tmp_path)
    (tmp_path / "toolret.toml").write_text('[lint.per-file-ignores]\n"loop.py" = ["TRR"]\n')
    result = toolret_cli("check", "--no-cache", "--output-format", "json", ".")
    assert _codes(result.stdout) == [], result.stderr


def test_add_noqa_then_clean_and_unused_noqa_knows_the_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    path = _write(tmp_path)
    monkeypatch.chdir(tmp_path)
    toolret_cli("check", "--no-cache", "--add-noqa", ".")
    assert "# noqa: TRR006" in path.read_text()
    assert toolret_cli("check", "--no-cache", ".").exit_code == 0
    # The finding fixed by hand: the directive is unused now (TRV004 knows TRR codes).
    path.write_text(path.read_text().replace('"tool_call_id"', '"call_id"'))
    result = toolret_cli(
        "check", "--no-cache", "--output-format", "json", "--extend-select", "TRV004", "."
    )
    assert _codes(result.stdout) == ["TRV004"]


def test_sarif_and_json_carry_the_new_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    _write(tmp_path)
    monkeypatch.chdir(tmp_path)
    sarif = json.loads(toolret_cli("check", "--no-cache", "--output-format", "sarif", ".").stdout)
    (run,) = sarif["runs"]
    assert [r["ruleId"] for r in run["results"]] == ["TRR006"]
    assert "TRR006" in {rule["id"] for rule in run["tool"]["driver"]["rules"]}
    (found,) = json.loads(toolret_cli("check", "--no-cache", "--output-format", "json", ".").stdout)
    assert (found["code"], found["location"]["row"]) == ("TRR006", 7)


def test_the_fix_renames_to_call_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    path = _write(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert toolret_cli("check", "--no-cache", "--fix", ".").exit_code == 1  # unsafe: not applied
    assert '"tool_call_id"' in path.read_text()
    assert toolret_cli("check", "--no-cache", "--fix", "--unsafe-fixes", ".").exit_code == 0
    assert '"call_id": item.call_id,' in path.read_text()


def test_rules_lists_trv_first_then_the_new_prefixes(toolret_cli: Invoke) -> None:
    from lint_rules.catalog import CODE_PREFIXES

    codes = [line.split(" ", 1)[0] for line in toolret_cli("rules").stdout.splitlines()]
    assert codes[0] == "TRV001" and codes[-1].startswith(CODE_PREFIXES[-1])
    assert codes.index("TRV902") < codes.index("TRR001") < codes.index("TRR007")
    # by prefix in the catalogue's order, then by number
    assert codes == sorted(codes, key=lambda c: (CODE_PREFIXES.index(c[:3]), c))


@pytest.mark.parametrize(
    "source",
    [
        # A user-interface event of another library, in a module without `openai`.
        'def event(item, out):\n    return {"type": "function_call_output", "output": out}\n',
        # The id completed later.
        "import openai\n\n\ndef f(item, out):\n"
        '    o = {"type": "function_call_output", "output": out}\n'
        "    o.update(call_id=item.call_id)\n    return o\n",
    ],
)
def test_not_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke, source: str
) -> None:
    (tmp_path / "m.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    result = toolret_cli("check", "--no-cache", "--output-format", "json", ".")
    assert _codes(result.stdout) == []


def test_linter_lists_every_prefix_as_ruff_linter_does(toolret_cli: Invoke) -> None:
    from lint_rules.catalog import CODE_PREFIXES

    found = json.loads(toolret_cli("linter", "--output-format", "json").stdout)
    assert [linter["prefix"] for linter in found] == list(CODE_PREFIXES)
    assert [c["prefix"] for c in found[0]["categories"]] == [f"TRV{n}" for n in range(10)]
    text = toolret_cli("linter").stdout.splitlines()
    assert "  TRR OpenAI Responses API tool loops" in text
    assert text[-1].startswith(f"  {CODE_PREFIXES[-1]} ")


ITEM_ID = """\
from openai import OpenAI

client = OpenAI()


def run(question, {params}):
    response = client.responses.create(model="gpt-4.1", input=question)
    outputs = []
    for item in {items}:
        if item.type == "function_call":
            outputs.append({{"type": "function_call_output", "call_id": {read}, "output": "ok"}})
    return client.responses.create(model="gpt-4.1", previous_response_id=response.id, input=outputs)
"""


@pytest.mark.parametrize(
    ("items", "read", "expected"),
    [
        ("response.output", "item.id", ["TRR003"]),
        ("response.output", 'item["id"]', ["TRR003"]),
        ("list(response.output)", "item.id", ["TRR003"]),
        ("response.output", "item.call_id", []),
        ("other.output", "item.id", []),  # not a response of this function
        ("history", "item.id", []),
    ],
)
def test_item_id_read_as_call_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke,
    items: str, read: str, expected: list[str],
) -> None:  # fmt: skip
    path = tmp_path / "loop.py"
    path.write_text(ITEM_ID.format(params="other, history", items=items, read=read))
    monkeypatch.chdir(tmp_path)
    result = toolret_cli("check", "--no-cache", "--output-format", "json", ".")
    assert _codes(result.stdout) == expected
    if expected:  # the safe fix: applied by --fix, and the file is clean after it
        assert toolret_cli("check", "--no-cache", "--fix", ".").exit_code == 0
        assert "call_id" in path.read_text().split('"call_id": ')[1].split(",")[0]


def test_the_family_sees_typed_constructors_whatever_else_is_selected(
    monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    """The typed-constructor displays are made by each loop family that reads them: with
    ``--select TRR`` alone a ``FunctionCallOutput(...)`` was invisible (only the Chat
    family made them)."""
    monkeypatch.chdir(Path(__file__).resolve().parent.parent / "examples")

    def trr(*select: str) -> list[tuple[str, int, str]]:
        found = json.loads(
            toolret_cli("check", "--no-cache", "--output-format", "json", *select, ".").stdout
        )
        return sorted(
            (d["filename"], d["location"]["row"], d["code"])
            for d in found
            if d["code"].startswith("TRR")
        )

    only = trr("--select", "TRR")
    assert only == trr("--select", "ALL")
    assert {code for _, _, code in only} == {f"TRR00{n}" for n in range(1, 8)}


AGENT_LOOP = """\
import json

from openai import OpenAI

client = OpenAI()


def run(question, tools, functions):
    input_items = [{{"role": "user", "content": question}}]
    while True:
        response = client.responses.create(model="o4-mini", input=input_items, tools=tools)
        calls = [i for i in response.output if i.type == "function_call"]
        if not calls:
            return response.output_text
{added}
        for call in calls:
            result = functions[call.name](**json.loads(call.arguments))
            input_items.append(
                {{"type": "function_call_output", "call_id": call.call_id, "output": str(result)}}
            )
{after}
"""


@pytest.mark.parametrize(
    ("added", "after", "expected"),
    [
        # the agent loop as OpenAI's samples write it: every call answered, one request
        ("        input_items += response.output", "", []),
        # the reasoning items dropped (o4-mini, no previous_response_id)
        ("        input_items += calls", "", ["TRR007"]),
        # ... unless the loop keeps them
        (
            "        input_items += [i for i in response.output if i.type == 'reasoning']\n"
            "        input_items += calls",
            "",
            [],
        ),
        # a break after the first answer: the other calls are left unanswered
        ("        input_items += response.output", "            break", ["TRR004"]),
    ],
)
def test_agent_loops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke,
    added: str, after: str, expected: list[str],
) -> None:  # fmt: skip
    (tmp_path / "agent.py").write_text(AGENT_LOOP.format(added=added, after=after))
    monkeypatch.chdir(tmp_path)
    result = toolret_cli("check", "--no-cache", "--output-format", "json", ".")
    assert _codes(result.stdout) == expected


@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        ("", ["TRR004"]),
        (", parallel_tool_calls=True", ["TRR004"]),
        (", parallel_tool_calls=False", []),
        (", parallel_tool_calls=settings.parallel", []),
        (', tool_choice={"type": "function", "name": "get_weather"}', []),
        (", **options", []),
    ],
)
def test_one_call_answered_unless_the_model_is_limited_to_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke,
    limit: str, expected: list[str],
) -> None:  # fmt: skip
    (tmp_path / "one.py").write_text(
        "from openai import OpenAI\n\nclient = OpenAI()\n\n\n"
        "def run(question, tools, settings, options):\n"
        "    response = client.responses.create(\n"
        f"        model='gpt-4.1', input=question, tools=tools{limit}\n"
        "    )\n"
        "    call = response.output[0]\n"
        "    out = {'type': 'function_call_output', 'call_id': call.call_id, 'output': 'ok'}\n"
        "    return client.responses.create(\n"
        "        model='gpt-4.1', previous_response_id=response.id, input=[out], tools=tools\n"
        "    )\n"
    )
    monkeypatch.chdir(tmp_path)
    result = toolret_cli("check", "--no-cache", "--output-format", "json", ".")
    assert _codes(result.stdout) == expected


REGISTRY = """\
import json

from openai import OpenAI

client = OpenAI()


def get_weather(city: str) -> str:
    if not city:
        return ValueError("no city")
    return f"Sunny in {{city}}"


FUNCTIONS = {{"get_weather": get_weather}}


def run(question, tools):
    response = client.responses.create(model="gpt-4.1", input=question, tools=tools)
    outputs = []
    for item in response.output:
        if item.type == "function_call":
            result = FUNCTIONS[item.name](**json.loads(item.arguments))
            outputs.append(
                {{"type": "function_call_output", "call_id": item.call_id, "output": str(result)}}
            )
    {chat}return client.responses.create(
        model="gpt-4.1", previous_response_id=response.id, input=outputs, tools=tools
    )
"""


@pytest.mark.parametrize(
    ("chat", "title"),
    [
        ("", "Responses API tool"),
        # a module that also sends Chat Completions requests: its registry is the Chat loop's
        (
            "client.chat.completions.create(model='gpt-4.1', messages=[])\n    ",
            "Chat Completions tool",
        ),
    ],
)
def test_registry_functions_of_a_responses_loop_are_its_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke, chat: str, title: str
) -> None:
    """TRV901/TRV902 apply to the functions a Responses loop dispatches to, named once, as
    the tools of the family whose requests the module sends."""
    (tmp_path / "loop.py").write_text(REGISTRY.format(chat=chat))
    monkeypatch.chdir(tmp_path)
    found = json.loads(toolret_cli("check", "--no-cache", "--output-format", "json", ".").stdout)
    assert [(d["code"], d["message"].split(" `")[0]) for d in found] == [("TRV901", title)]
