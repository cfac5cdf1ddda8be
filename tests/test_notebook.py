"""Jupyter notebooks end to end: real-shaped nbformat-4 notebooks (as Jupyter writes
them: ``indent=1``, ``ensure_ascii=False``, a trailing newline, cells with ``id``,
``metadata``, ``execution_count`` and ``outputs``, each cell's last line without a
newline) checked, fixed, diffed and annotated through the real CLI.

Diagnostics carry the cell's 1-based number among all cells (markdown included) and
rows/columns relative to the cell; a fix rewrites only the fixed cells' ``source``,
every other byte of the file stays as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from lint_rules.engine import check_bytes
from lint_rules.prefilter import NEEDLES, signalled

Invoke = Callable[..., Result]
Cell = dict[str, Any]

PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5E"
    "rkJggg=="
)

# ------------------------------------------------------------------ building notebooks


def lines(text: str) -> list[str]:
    """A cell's source as Jupyter stores it: one string a line, the last without ``\\n``."""
    return text.splitlines(keepends=True)


def code(
    cell_id: str,
    text: str,
    *,
    outputs: list[dict[str, Any]] | None = None,
    count: int | None = None,
    as_string: bool = False,
) -> Cell:
    return {
        "cell_type": "code",
        "execution_count": count,
        "id": cell_id,
        "metadata": {},
        "outputs": outputs or [],
        "source": text if as_string else lines(text),
    }


def markdown(cell_id: str, text: str) -> Cell:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": lines(text)}


def notebook(cells: list[Cell], language: str = "python") -> dict[str, Any]:
    kernel = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    if language != "python":
        kernel = {"display_name": language, "language": language, "name": "ir"}
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": kernel,
            "language_info": {"name": language, "version": "3.12.3"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def dumps(nb: dict[str, Any]) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def write(path: Path, nb: dict[str, Any]) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = dumps(nb).encode("utf-8")
    path.write_bytes(data)
    return data


def with_source(nb: dict[str, Any], index: int, source: str | list[str]) -> dict[str, Any]:
    """A copy of ``nb`` whose cell ``index`` (0-based) has ``source``."""
    copy = json.loads(json.dumps(nb))
    copy["cells"][index]["source"] = source
    return copy


STREAM = {"name": "stdout", "output_type": "stream", "text": ["Successfully installed\n"]}
IMAGE = {
    "data": {"image/png": PNG, "text/plain": ["<Figure size 640x480 with 1 Axes>"]},
    "metadata": {},
    "output_type": "display_data",
}

SETUP = """\
%pip install browser-use
import json

from browser_use import ActionResult, Tools

tools = Tools()"""
BASH = """\
%%bash
for f in *.py; do echo "$f"; done"""
AUTOMAGIC = "pip install browser-use playwright"
COUNT = """\
!ls
files = !pwd
json?

@tools.action("Count the products listed on the search results page")
async def count_results(browser_session):
    page = await browser_session.must_get_current_page()
    cards = await page.get_elements_by_css_selector(".result")
    return len(cards)"""
COUNT_FIXED = COUNT.replace("return len(cards)", "return str(len(cards))")
TIMED = """\
%%time
@tools.action("Count the open tabs")
def count_tabs(tabs):
    tabs = [t for t in tabs if t.url]
    return len(tabs)"""
TIMED_FIXED = TIMED.replace("return len(tabs)", "return str(len(tabs))")
GOOD = """\
@tools.action("Say hello")
def hello(name: str) -> ActionResult:
    return ActionResult(extracted_content=f"Bonjour {name} ☕")"""

SHOP = notebook(
    [
        markdown("intro", "# Shop tools — café ☕\n\nActions for the shop agent."),
        code("setup", SETUP, outputs=[STREAM], count=1),
        code("bash", BASH, outputs=[STREAM], count=2),
        code("deps", AUTOMAGIC, count=3),
        markdown("actions", "## Actions"),
        code("empty", ""),
        code("count", COUNT, outputs=[IMAGE], count=4),
        code("timed", TIMED, count=5),
        code("good", GOOD, count=6),
    ]
)
SHOP_FIXED = with_source(with_source(SHOP, 6, lines(COUNT_FIXED)), 7, lines(TIMED_FIXED))
# (code, cell, row, column, end row, end column)
SHOP_FOUND = [("TRV201", 7, 9, 12, 9, 22), ("TRV201", 8, 5, 12, 5, 21)]


# ------------------------------------------------------------------ running the CLI


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text("")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def found(toolret_cli: Invoke, *args: str) -> list[tuple[Any, ...]]:
    """``toolret check --output-format json`` → (file, code, cell, row, col, end row, end col)."""
    result = toolret_cli("check", "--no-cache", "--output-format", "json", *args)
    assert result.exit_code in (0, 1), result.output
    return sorted(
        (
            Path(d["filename"]).name,
            d["code"],
            d.get("cell"),
            d["location"]["row"],
            d["location"]["column"],
            d["end_location"]["row"],
            d["end_location"]["column"],
        )
        for d in json.loads(result.stdout)
    )


def in_file(name: str, rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [(name, *row) for row in rows]


# ------------------------------------------------------------------ cells and positions


def test_diagnostics_carry_their_cell_and_cell_relative_positions(
    project: Path, toolret_cli: Invoke
) -> None:
    write(project / "shop.ipynb", SHOP)
    # Cell numbers count the markdown cells; the %%bash and automagic cells are skipped
    # (their text is not Python: no TRV001); the %%time cell is checked.
    assert found(toolret_cli, "shop.ipynb") == in_file("shop.ipynb", SHOP_FOUND)


def test_the_python_api_places_diagnostics_in_cells(project: Path) -> None:
    data = write(project / "shop.ipynb", SHOP)
    diagnostics = check_bytes(data, "shop.ipynb")
    assert [
        (
            d.code,
            d.cell,
            d.location.row,
            d.location.column,
            d.end_location.row,
            d.end_location.column,
        )
        for d in diagnostics
    ] == SHOP_FOUND
    fix = diagnostics[0].fix
    assert fix is not None and fix.applicability.value == "safe"
    assert {(e.location.row, e.location.column) for e in fix.edits} == {(9, 12), (9, 22)}


def test_the_text_output_names_the_cell(project: Path, toolret_cli: Invoke) -> None:
    write(project / "shop.ipynb", SHOP)
    result = toolret_cli("check", "--no-cache", "--output-format", "concise", "shop.ipynb")
    assert result.exit_code == 1
    assert "shop.ipynb:cell 7:9:12: TRV201" in result.stdout
    assert "shop.ipynb:cell 8:5:12: TRV201" in result.stdout


def test_a_cell_that_does_not_parse_is_reported_and_the_others_checked(
    project: Path, toolret_cli: Invoke
) -> None:
    broken = "def oops(:\n    pass"
    nb = notebook(
        [
            code("setup", SETUP),
            markdown("m", "Below: a cell being edited."),
            code("broken", broken),
            code("count", COUNT),
        ]
    )
    write(project / "nb.ipynb", nb)
    rows = found(toolret_cli, "nb.ipynb")
    assert [r[1:5] for r in rows] == [("TRV001", 3, 1, 10), ("TRV201", 4, 9, 12)]


def test_a_non_python_kernel_is_not_checked(project: Path, toolret_cli: Invoke) -> None:
    nb = notebook([code("setup", SETUP), code("count", COUNT)], language="R")
    write(project / "r.ipynb", nb)
    assert found(toolret_cli, "r.ipynb") == []


@pytest.mark.parametrize(
    "text",
    [
        '{"cells": [{"cell_type": "code", "source": ["from browser_use import Tools\\n"',
        json.dumps(
            {
                "nbformat": 3,
                "nbformat_minor": 0,
                "metadata": {},
                "worksheets": [
                    {
                        "cells": [
                            {
                                "cell_type": "code",
                                "input": ["from browser_use import Tools\n", "tools = Tools()"],
                                "language": "python",
                                "outputs": [],
                            }
                        ]
                    }
                ],
            },
            indent=1,
        ),
    ],
    ids=["invalid-json", "nbformat-3"],
)
def test_an_unreadable_notebook_is_one_trv001_only_with_a_framework_signal(
    project: Path, toolret_cli: Invoke, text: str
) -> None:
    (project / "bad.ipynb").write_text(text)
    (project / "plain.ipynb").write_text(text.replace("browser_use", "matplotlib"))
    assert found(toolret_cli, "bad.ipynb", "plain.ipynb") == [
        ("bad.ipynb", "TRV001", None, 1, 1, 1, 1)
    ]


def test_a_notebook_without_a_framework_signal_is_not_parsed(
    project: Path, toolret_cli: Invoke
) -> None:
    nb = notebook(
        [
            markdown("m", "# Plots"),
            code(
                "c1", "%matplotlib inline\nimport numpy as np\n\ndef count(xs):\n    return len(xs)"
            ),
            code("c2", "def broken(:\n    pass"),
        ]
    )
    data = write(project / "plots.ipynb", nb)
    assert not signalled(tuple(NEEDLES), data, "plots.ipynb")
    assert check_bytes(data, "plots.ipynb") == []
    assert found(toolret_cli, "plots.ipynb") == []


def test_openai_chat_loop_in_a_notebook(project: Path, toolret_cli: Invoke) -> None:
    nb = notebook(
        [
            markdown("m", "# Weather with function calling"),
            code("install", "!pip install -q openai"),
            code(
                "setup",
                "import json\n\nfrom openai import OpenAI\n\nclient = OpenAI()\n"
                'tools = [{"type": "function", "function": {"name": "get_weather", '
                '"parameters": {"type": "object", "properties": {}}}}]\n\n\n'
                "def get_weather(location: str) -> str:\n"
                '    return json.dumps({"location": location, "temperature": 22})',
            ),
            code(
                "ask",
                'messages = [{"role": "user", "content": "Paris and Rome?"}]\n'
                'response = client.chat.completions.create(model="gpt-4o", messages=messages, '
                "tools=tools)\n"
                "response_message = response.choices[0].message\n"
                "messages.append(response_message)\n"
                "%time\n"
                "tool_call = response_message.tool_calls[0]\n"
                "result = get_weather(**json.loads(tool_call.function.arguments))\n"
                'messages.append({"role": "tool", "tool_call_id": tool_call.id, '
                '"content": result})\n'
                'second = client.chat.completions.create(model="gpt-4o", messages=messages)\n'
                "second",
                outputs=[
                    {
                        "data": {"text/plain": ["ChatCompletion(...)"]},
                        "execution_count": 3,
                        "metadata": {},
                        "output_type": "execute_result",
                    }
                ],
                count=3,
            ),
        ]
    )
    write(project / "chat.ipynb", nb)
    rows = found(toolret_cli, "chat.ipynb")
    assert [r[1:4] for r in rows] == [("TRV405", 4, 6)]


ANTHROPIC_SETUP = """\
import json

import anthropic

client = anthropic.Anthropic()
MODEL = "claude-sonnet-4-5"
TOOLS = {"lookup_order": lambda order_id: {"status": "shipped"}}
tools = [{"name": "lookup_order", "description": "Look up an order",
          "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}}}}]"""
ANTHROPIC_LOOP = """\
def answer(question: str) -> str:
    messages = [{"role": "user", "content": question}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        tool_use = next(b for b in response.content if b.type == "tool_use")
        output = json.dumps(TOOLS[tool_use.name](**tool_use.input))
        messages.append({"role": "assistant", "content": response.content})
        messages.append(
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": tool_use.id, "content": output}],
            }
        )
        response = client.messages.create(
            model=MODEL, max_tokens=1024, tools=tools, messages=messages
        )
    return response.content[0].text"""


def test_anthropic_loop_in_a_notebook(project: Path, toolret_cli: Invoke) -> None:
    nb = notebook(
        [
            markdown("m", "# Support"),
            code("install", "%pip install anthropic"),
            code("setup", ANTHROPIC_SETUP),
            markdown("m2", "## The loop"),
            code("loop", ANTHROPIC_LOOP),
            code("run", 'answer("Where is order 42?")'),
        ]
    )
    write(project / "support.ipynb", nb)
    rows = found(toolret_cli, "support.ipynb")
    assert [r[1:4] for r in rows] == [("TRV507", 5, 5)]


# ------------------------------------------------------------------ noqa and config


def test_noqa_inside_a_cell_silences_the_diagnostic(project: Path, toolret_cli: Invoke) -> None:
    silenced = COUNT.replace("return len(cards)", "return len(cards)  # noqa: TRV201")
    write(project / "shop.ipynb", with_source(SHOP, 6, lines(silenced)))
    assert found(toolret_cli, "shop.ipynb") == in_file("shop.ipynb", SHOP_FOUND[1:])


def test_a_noqa_on_another_cells_row_does_not_silence(project: Path, toolret_cli: Invoke) -> None:
    # A noqa on row 5 of cell 2 does not reach cell 8, whose diagnostic is on its row 5.
    noisy = SETUP.replace("tools = Tools()", "tools = Tools()  # noqa: TRV201")
    write(project / "shop.ipynb", with_source(SHOP, 1, lines(noisy)))
    assert [r[1:4] for r in found(toolret_cli, "shop.ipynb", "--select", "TRV201")] == [
        ("TRV201", 7, 9),
        ("TRV201", 8, 5),
    ]


@pytest.mark.parametrize(
    "config",
    [
        '[tool.toolret]\nextend-exclude = ["*.ipynb"]\n',
        '[tool.toolret.lint.per-file-ignores]\n"notebooks/*.ipynb" = ["TRV201"]\n',
    ],
    ids=["extend-exclude", "per-file-ignores"],
)
def test_configuration_applies_to_notebooks(
    project: Path, toolret_cli: Invoke, config: str
) -> None:
    write(project / "notebooks" / "shop.ipynb", SHOP)
    assert len(found(toolret_cli, ".")) == 2
    (project / "pyproject.toml").write_text(config)
    assert found(toolret_cli, ".") == []


def test_a_directory_walk_picks_up_notebooks(project: Path, toolret_cli: Invoke) -> None:
    write(project / "notebooks" / "deep" / "shop.ipynb", SHOP)
    # Jupyter's autosave copies are excluded by default, as in ruff.
    write(project / "notebooks" / ".ipynb_checkpoints" / "shop-checkpoint.ipynb", SHOP)
    (project / "tools.py").write_text(
        "from browser_use import Tools\n\ntools = Tools()\n\n\n"
        '@tools.action("n")\ndef n(xs):\n    return len(xs)\n'
    )
    rows = found(toolret_cli, ".")
    assert [(r[0], r[2], r[3]) for r in rows] == [
        ("shop.ipynb", 7, 9),
        ("shop.ipynb", 8, 5),
        ("tools.py", None, 8),
    ]


# ------------------------------------------------------------------ --fix, --diff, --add-noqa


def test_fix_rewrites_only_the_fixed_cells_sources(project: Path, toolret_cli: Invoke) -> None:
    path = project / "shop.ipynb"
    original = write(path, SHOP)
    result = toolret_cli("check", "--no-cache", "--fix", "shop.ipynb")
    assert result.exit_code == 0, result.output
    fixed = path.read_bytes()
    # Byte for byte what Jupyter would write with the two new sources: outputs (the
    # base64 image), ids, metadata, key order, indentation, non-ASCII text and the
    # trailing newline kept; the IPython lines (`!ls`, `x = !pwd`, `json?`, `%%time`)
    # restored as they were.
    assert fixed.decode("utf-8") == dumps(SHOP_FIXED)
    assert fixed != original
    start = original.index(b"!ls")
    assert fixed[:start] == original[:start]
    assert fixed.endswith(original[original.index(b'"id": "good"') - 20 :])
    again = toolret_cli("check", "--no-cache", "--fix", "shop.ipynb")
    assert again.exit_code == 0
    assert path.read_bytes() == fixed
    assert found(toolret_cli, "shop.ipynb") == []


def test_fix_keeps_crlf_lines_in_the_fixed_cell(project: Path, toolret_cli: Invoke) -> None:
    crlf = COUNT.replace("\n", "\r\n")
    nb = notebook([code("setup", SETUP), code("count", crlf)])
    path = project / "crlf.ipynb"
    write(path, nb)
    assert [r[1:5] for r in found(toolret_cli, "crlf.ipynb")] == [("TRV201", 2, 9, 12)]
    assert toolret_cli("check", "--no-cache", "--fix", "crlf.ipynb").exit_code == 0
    expected = with_source(nb, 1, lines(COUNT_FIXED.replace("\n", "\r\n")))
    assert path.read_bytes().decode("utf-8") == dumps(expected)
    assert all(
        line.endswith("\r\n") for line in json.loads(path.read_text())["cells"][1]["source"][:-1]
    )


def test_fix_keeps_a_single_string_source_a_string(project: Path, toolret_cli: Invoke) -> None:
    nb = notebook([code("setup", SETUP, as_string=True), code("count", COUNT, as_string=True)])
    path = project / "str.ipynb"
    write(path, nb)
    assert toolret_cli("check", "--no-cache", "--fix", "str.ipynb").exit_code == 0
    assert path.read_text(encoding="utf-8") == dumps(with_source(nb, 1, COUNT_FIXED))


def test_diff_prints_one_diff_per_changed_cell_and_writes_nothing(
    project: Path, toolret_cli: Invoke
) -> None:
    path = project / "shop.ipynb"
    original = write(path, SHOP)
    result = toolret_cli("check", "--no-cache", "--diff", "shop.ipynb")
    assert result.exit_code == 1
    out = result.stdout
    assert "--- shop.ipynb:cell 7\n+++ shop.ipynb:cell 7\n" in out
    assert "--- shop.ipynb:cell 8\n+++ shop.ipynb:cell 8\n" in out
    assert out.index("cell 7") < out.index("cell 8")
    assert out.count("--- ") == 2
    assert "-    return len(cards)" in out and "+    return str(len(cards))" in out
    assert "-    return len(tabs)" in out and "+    return str(len(tabs))" in out
    assert "pass  # toolret" not in out and "toolret:cell-boundary" not in out
    assert path.read_bytes() == original


def test_add_noqa_writes_into_the_cell_and_the_notebook_is_then_clean(
    project: Path, toolret_cli: Invoke
) -> None:
    path = project / "shop.ipynb"
    write(path, SHOP)
    result = toolret_cli("check", "--no-cache", "--add-noqa", "shop.ipynb")
    assert result.exit_code == 0, result.output
    expected = with_source(
        with_source(SHOP, 6, lines(COUNT.replace("len(cards)", "len(cards)  # noqa: TRV201"))),
        7,
        lines(TIMED.replace("len(tabs)", "len(tabs)  # noqa: TRV201")),
    )
    assert path.read_text(encoding="utf-8") == dumps(expected)
    assert found(toolret_cli, "shop.ipynb") == []


# ------------------------------------------------------------------ whole-project facts

BEHAVIORS = """\
from agents import ToolsToFinalOutputResult


def stop_on_weather(context, results):
    return ToolsToFinalOutputResult(is_final_output=True, final_output="sunny")
"""
MODELS = """\
from pydantic import BaseModel


class Weather(BaseModel):
    city: str
"""
AGENT_CELLS = [
    markdown("m", "# Weather agent"),
    code("install", "%pip install openai-agents"),
    code(
        "agent",
        "from agents import Agent, Runner\n\nfrom behaviors import stop_on_weather\n"
        "from models import Weather\n\n"
        'weather = Agent(name="Weather", output_type=Weather, tool_use_behavior=stop_on_weather)',
    ),
    code("run", 'result = await Runner.run(weather, "Tokyo?")\nresult.final_output'),
]


def test_an_agent_in_a_notebook_is_a_project_fact(project: Path, toolret_cli: Invoke) -> None:
    (project / "behaviors.py").write_text(BEHAVIORS)
    (project / "models.py").write_text(MODELS)
    write(project / "weather.ipynb", notebook(AGENT_CELLS))
    assert [r[:2] + r[3:4] for r in found(toolret_cli, ".")] == [("behaviors.py", "TRV305", 5)]
    # pre-commit passes only the changed file: the agent in the notebook is still known.
    assert [r[:2] + r[3:4] for r in found(toolret_cli, "behaviors.py")] == [
        ("behaviors.py", "TRV305", 5)
    ]


def test_a_notebook_behaviour_is_checked_against_a_notebook_agent(
    project: Path, toolret_cli: Invoke
) -> None:
    (project / "models.py").write_text(MODELS)
    cells = [
        *AGENT_CELLS[:2],
        code(
            "behaviour", BEHAVIORS.replace("from agents", "from agents import Agent\nfrom agents")
        ),
        code(
            "agent",
            "from models import Weather\n\n"
            'weather = Agent(name="W", output_type=Weather, tool_use_behavior=stop_on_weather)',
        ),
    ]
    write(project / "weather.ipynb", notebook(cells))
    assert [r[:4] for r in found(toolret_cli, ".")] == [("weather.ipynb", "TRV305", 3, 6)]


# ------------------------------------------------------------------ more layouts and inputs


@pytest.mark.parametrize(
    ("options", "tail"),
    [
        ({}, ""),
        ({"indent": 2}, "\n"),
        ({"indent": 1, "ensure_ascii": True}, "\n"),
        ({"indent": 1, "sort_keys": True}, "\n"),
    ],
    ids=["compact", "indent-2", "ascii", "sorted-keys"],
)
def test_fix_keeps_other_json_layouts(
    project: Path, toolret_cli: Invoke, options: dict[str, Any], tail: str
) -> None:
    path = project / "shop.ipynb"
    path.write_text(json.dumps(SHOP, **options) + tail, encoding="utf-8")
    assert toolret_cli("check", "--no-cache", "--fix", "shop.ipynb").exit_code == 0
    assert path.read_text(encoding="utf-8") == json.dumps(SHOP_FIXED, **options) + tail


def test_fix_next_to_a_broken_cell_leaves_it_as_it_was(project: Path, toolret_cli: Invoke) -> None:
    nb = notebook(
        [code("setup", SETUP), code("broken", "def oops(:\n    pass"), code("count", COUNT)]
    )
    path = project / "nb.ipynb"
    write(path, nb)
    toolret_cli("check", "--no-cache", "--fix", "nb.ipynb")
    assert path.read_text(encoding="utf-8") == dumps(with_source(nb, 2, lines(COUNT_FIXED)))
    assert [r[1:3] for r in found(toolret_cli, "nb.ipynb")] == [("TRV001", 2)]


def test_cached_results_keep_their_cells(project: Path, toolret_cli: Invoke) -> None:
    write(project / "shop.ipynb", SHOP)

    def cached() -> list[tuple[Any, ...]]:
        result = toolret_cli("check", "--output-format", "json", "shop.ipynb")
        return sorted((d["cell"], d["location"]["row"]) for d in json.loads(result.stdout))

    assert cached() == cached() == [(7, 9), (8, 5)]
    assert (project / ".toolret_cache").exists()


def test_a_notebook_on_stdin(project: Path, toolret_cli: Invoke) -> None:
    text = dumps(SHOP)
    result = toolret_cli(
        "check", "--no-cache", "--output-format", "json", "--stdin-filename", "shop.ipynb", "-",
        input=text,
    )  # fmt: skip
    assert sorted((d["cell"], d["location"]["row"]) for d in json.loads(result.stdout)) == [
        (7, 9),
        (8, 5),
    ]
    fixed = toolret_cli(
        "check", "--no-cache", "--fix", "--stdin-filename", "shop.ipynb", "-", input=text
    )
    assert fixed.stdout == dumps(SHOP_FIXED)


# ------------------------------------------------------------------ known bugs


def test_a_cell_starting_with_an_automagic_name_used_as_python_is_checked(
    project: Path, toolret_cli: Invoke
) -> None:
    cell = (
        'config = {"max_results": 10}\n\n@tools.action("Count")\ndef count(xs):\n    return len(xs)'
    )
    write(project / "nb.ipynb", notebook([code("setup", SETUP), code("config", cell)]))
    assert [r[1:4] for r in found(toolret_cli, "nb.ipynb")] == [("TRV201", 2, 5)]


@pytest.mark.parametrize(
    "expression",
    [
        '(\n        "Found %d results"\n        % len(xs)\n    )',
        "(\n        len(xs)\n        != 0\n    )",
    ],
    ids=["percent", "not-equal"],
)
def test_a_continuation_line_starting_with_an_operator_is_python(
    project: Path, toolret_cli: Invoke, expression: str
) -> None:
    cell = (
        f'@tools.action("Report")\ndef report(xs):\n    message = {expression}\n    return len(xs)'
    )
    write(project / "nb.ipynb", notebook([code("setup", SETUP), code("report", cell)]))
    rows = found(toolret_cli, "nb.ipynb")
    assert [r[1:3] for r in rows] == [("TRV201", 2)]


@pytest.mark.parametrize(
    "setup",
    [
        # Both from the Anthropic cookbook and a GenAI agents course: CPython rejects
        # the cell, IPython runs it, and the tools below it were lost to a TRV001.
        "!pip install -qU \\\n    browser-use==0.7 \\\n    openai\npip install faiss-cpu",
        "%pip install browser-use\nconda install -y faiss",
    ],
    ids=["continued-shell-command", "automagic-on-a-later-line"],
)
def test_shell_commands_continued_or_automagic_on_a_later_line_are_ipython(
    project: Path, toolret_cli: Invoke, setup: str
) -> None:
    cell = f'{setup}\n@tools.action("Count")\ndef count(xs):\n    return len(xs)'
    write(project / "nb.ipynb", notebook([code("setup", SETUP), code("tools", cell)]))
    rows = found(toolret_cli, "nb.ipynb")
    assert [r[1] for r in rows] == ["TRV201"], rows


# ------------------------------------------------------------------ custom extensions

TOOL_FILE = """\
from browser_use import Tools

tools = Tools()


@tools.action("Count the rows")
def count_rows(rows: list):
    return len(rows)
"""


def _extension_project(tmp_path: Path) -> bytes:
    data = write(
        tmp_path / "shop.nbjson",
        notebook([code("c1", TOOL_FILE.replace("tools = Tools()", "tools = Tools()\n%who"))]),
    )
    (tmp_path / "tool.pyw").write_text(TOOL_FILE, encoding="utf-8")
    return data


@pytest.mark.parametrize("how", ["config", "flag"])
def test_custom_extensions_are_walked_and_read_as_mapped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke, how: str
) -> None:
    """ruff's ``extension`` setting and ``--extension`` flag: a mapped suffix is walked
    and checked as Python or as a notebook; unmapped, neither file is looked at."""
    _extension_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    plain = toolret_cli("check", "--no-cache", "--output-format", "concise", ".")
    assert plain.exit_code == 0, plain.output
    if how == "config":
        (tmp_path / "toolret.toml").write_text('extension = { nbjson = "ipynb", pyw = "python" }\n')
        args: tuple[str, ...] = ()
    else:
        args = ("--extension", "nbjson:ipynb,pyw:python")
    result = toolret_cli("check", "--no-cache", "--output-format", "concise", *args, ".")
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines()[:2] == [
        "shop.nbjson:cell 1:9:12: TRV201 [*] Action `count_rows` returns `int`: browser-use "
        "raises `Invalid action result type` after the action ran; return a `str` or an "
        "`ActionResult`",
        "tool.pyw:8:12: TRV201 [*] Action `count_rows` returns `int`: browser-use raises "
        "`Invalid action result type` after the action ran; return a `str` or an "
        "`ActionResult`",
    ]


def test_a_notebook_under_a_custom_extension_is_fixed_as_a_notebook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    before = _extension_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = toolret_cli("check", "--no-cache", "--fix", "--extension", "nbjson:ipynb", ".")
    assert result.exit_code == 0, result.output
    after = (tmp_path / "shop.nbjson").read_bytes()
    assert json.loads(after)["cells"][0]["source"][-1] == "    return str(len(rows))\n"
    assert "%who" in after.decode()  # the IPython line is back
    assert after.replace(b"return str(len(rows))", b"return len(rows)") == before


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("nbjson", "Expected <Extension>:<Language> pattern"),
        ("nbjson:bogus", "unknown language `bogus`"),
        (".nbjson:ipynb", "is not a file extension"),
    ],
)
def test_a_bad_extension_mapping_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke, value: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = toolret_cli("check", "--no-cache", "--extension", value, ".")
    assert result.exit_code == 2
    assert message in result.stderr
