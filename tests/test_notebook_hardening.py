"""Issue 28 point 3: no notebook takes the fix run down.

The write path of a notebook scans its raw JSON for the cells' ``"source"`` values
(only the changed sources are spliced in, every other byte stays). That scan accepts
what ``json.loads`` accepted when the notebook was read: ``NaN``, ``Infinity`` and
``-Infinity`` (Python's ``json`` writes them into outputs and widget state), entries
of ``cells`` that are not objects (no cell of the module, but counted in the cell
numbering, by the reader and the writer alike), nesting as deep as ``json.loads``
reads. A notebook that still cannot be written is one ``not fixed: …`` message and the
run goes on: the other notebooks and Python files of the run are fixed.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from lint_rules import notebook as notebook_module

Invoke = Callable[..., Result]

TOOL = """\
from browser_use import Tools

tools = Tools()


@tools.action("Count the products listed on the search results page")
async def count_results(browser_session):
    page = await browser_session.must_get_current_page()
    cards = await page.get_elements_by_css_selector(".result")
    return len(cards)"""
GOOD = """\
@tools.action("Say hello")
def hello(name: str) -> str:
    return f"Bonjour {name}\""""
BEFORE = '"    return len(cards)"'
AFTER = '"    return str(len(cards))"'
WIDGETS = "application/vnd.jupyter.widget-state+json"


def code(text: str, **fields: Any) -> dict[str, Any]:
    cell = {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": []}
    cell.update(fields)
    cell["source"] = text.splitlines(keepends=True)
    return cell


def notebook(cells: list[Any], **metadata: Any) -> dict[str, Any]:
    return {
        "cells": cells,
        "metadata": {"language_info": {"name": "python"}, **metadata},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def write(path: Path, nb: dict[str, Any]) -> bytes:
    """As Jupyter writes it; Python's ``json`` writes ``NaN`` and ``Infinity`` as such."""
    data = (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    path.write_bytes(data)
    return data


def fixed(data: bytes) -> bytes:
    """The notebook's bytes with the one fix in its cell's source, nothing else changed."""
    assert data.count(BEFORE.encode()) == 1
    return data.replace(BEFORE.encode(), AFTER.encode())


# NaN in an output and in the cell's and the notebook's metadata, ±Infinity in widget
# state: what Python's json writes for float values.
SPECIALS = notebook(
    [
        {"cell_type": "markdown", "metadata": {"ratio": math.nan}, "source": ["# Shop"]},
        code(
            TOOL,
            metadata={"scores": [math.nan, 1.5, -math.inf]},
            outputs=[
                {
                    "output_type": "execute_result",
                    "execution_count": 1,
                    "data": {"application/json": {"loss": math.nan, "best": math.inf}},
                    "metadata": {"scale": -math.inf},
                }
            ],
        ),
        code(GOOD, execution_count=math.nan),
    ],
    widgets={
        WIDGETS: {
            "state": {"0a1b": {"model_name": "FloatSliderModel", "state": {"max": math.inf}}},
            "version_major": 2,
            "version_minor": 0,
        }
    },
    stats=math.nan,
)
# Entries of `cells` that are not objects, before and between the code cells: the
# reader leaves them out of the module but counts them, so the fixed cell is number 5.
NON_OBJECTS = notebook(
    [None, "a stray string", code(GOOD), 42, code(TOOL), [], {"no": "cell_type"}, code(GOOD)]
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text("")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def found(toolret_cli: Invoke, *paths: str) -> list[tuple[str, str, int | None, int]]:
    result = toolret_cli("check", "--no-cache", "--output-format", "json", *paths)
    assert result.exit_code in (0, 1), result.output
    return sorted(
        (Path(d["filename"]).name, d["code"], d.get("cell"), d["location"]["row"])
        for d in json.loads(result.stdout)
    )


# ------------------------------------------------------------------ what the reader accepts


@pytest.mark.parametrize("command", [("check", "--fix"), ("fix",)])
def test_nan_and_infinity_anywhere_do_not_stop_the_fix(
    project: Path, toolret_cli: Invoke, command: tuple[str, ...]
) -> None:
    path = project / "specials.ipynb"
    original = write(path, SPECIALS)
    assert b"NaN" in original and b"-Infinity" in original and b": Infinity" in original
    assert found(toolret_cli, "specials.ipynb") == [("specials.ipynb", "TRV201", 2, 10)]
    result = toolret_cli(*command, "--no-cache", "specials.ipynb")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "not fixed" not in result.stderr
    assert path.read_bytes() == fixed(original)
    assert found(toolret_cli, "specials.ipynb") == []


def test_non_object_cells_are_skipped_and_the_fix_lands_in_its_own_cell(
    project: Path, toolret_cli: Invoke
) -> None:
    path = project / "stray.ipynb"
    original = write(path, NON_OBJECTS)
    # The cell numbers count the entries that are not objects, as in the JSON.
    assert found(toolret_cli, "stray.ipynb") == [("stray.ipynb", "TRV201", 5, 10)]
    result = toolret_cli("check", "--no-cache", "--fix", "stray.ipynb")
    assert result.exit_code == 0, result.output
    assert path.read_bytes() == fixed(original)
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    assert cells[2]["source"] == cells[7]["source"] == code(GOOD)["source"]
    assert cells[4]["source"][-1] == "    return str(len(cards))"
    assert cells[:2] == [None, "a stray string"] and cells[3] == 42


def test_diff_and_add_noqa_accept_nan_and_non_object_cells(
    project: Path, toolret_cli: Invoke
) -> None:
    specials, stray = project / "specials.ipynb", project / "stray.ipynb"
    original = write(specials, SPECIALS), write(stray, NON_OBJECTS)
    diff = toolret_cli("check", "--no-cache", "--diff", "specials.ipynb", "stray.ipynb")
    assert diff.exit_code == 1, diff.output
    assert "--- specials.ipynb:cell 2\n" in diff.stdout
    assert "--- stray.ipynb:cell 5\n" in diff.stdout
    assert (specials.read_bytes(), stray.read_bytes()) == original
    noqa = toolret_cli("check", "--no-cache", "--add-noqa", "specials.ipynb", "stray.ipynb")
    assert noqa.exit_code == 0, noqa.output
    assert "Added 2 noqa directives." in noqa.stderr
    for path, data in zip((specials, stray), original, strict=True):
        assert path.read_bytes() == data.replace(
            BEFORE.encode(), b'"    return len(cards)  # noqa: TRV201"'
        )
    assert found(toolret_cli, "specials.ipynb", "stray.ipynb") == []


def test_repeated_keys_are_read_as_json_loads_reads_them(
    project: Path, toolret_cli: Invoke
) -> None:
    """Of a repeated key the last value is the one ``json.loads`` kept: the fix goes
    there, and the first ``"source"`` (and the first ``"cells"``) stays as it was."""
    cells = json.dumps([code(TOOL), code(GOOD)], indent=1)
    cells = cells.replace('"source": [', '"source": ["x = 1"], "source": [', 1)
    text = (
        '{"cells": [{"cell_type": "code", "source": "y = 2"}, 1, 2, 3],\n'
        f'"cells": {cells},\n'
        '"metadata": {"x": NaN}, "nbformat": 4, "nbformat_minor": 5}\n'
    )
    path = project / "twice.ipynb"
    path.write_text(text, encoding="utf-8")
    assert json.loads(text)["cells"][0]["source"][-1] == "    return len(cards)"
    result = toolret_cli("check", "--no-cache", "--fix", "twice.ipynb")
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == fixed(text.encode()).decode()


def test_json_nested_deeper_than_it_can_be_read_is_a_diagnostic_not_a_traceback(
    project: Path, toolret_cli: Invoke
) -> None:
    deep = "[" * 50_000 + "]" * 50_000  # past every json module's limit (3.13 reads 5,000)
    text = json.dumps(notebook([code(TOOL)])).replace('"outputs": []', f'"outputs": {deep}')
    (project / "deep.ipynb").write_text(text, encoding="utf-8")
    (project / "tool.py").write_text(TOOL + "\n")
    result = toolret_cli("check", "--no-cache", "--fix", "deep.ipynb", "tool.py")
    assert result.exit_code == 1, result.output
    assert "not valid JSON (nested too deeply to be read)" in result.stdout
    assert (project / "tool.py").read_text().endswith("return str(len(cards))\n")


def test_nesting_that_was_read_is_also_written(project: Path, toolret_cli: Invoke) -> None:
    """The scan skips values without recursion: any depth ``json.loads`` read."""
    deep = "[" * 900 + "]" * 900
    text = json.dumps(notebook([code(TOOL)]), indent=1).replace(
        '"outputs": []', f'"outputs": {deep}'
    )
    path = project / "deep.ipynb"
    path.write_text(text, encoding="utf-8")
    result = toolret_cli("check", "--no-cache", "--fix", "deep.ipynb")
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == fixed(text.encode()).decode()


# ------------------------------------------------------------------ what still cannot be written

MARK = "unmappable-by-the-scanner"


@pytest.fixture
def unwritable(project: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    """A run of three files: ``bad.ipynb``, whose JSON the source scan cannot map (a
    scanner that fails on the marked notebook stands for whatever remains), and a good
    notebook and a Python file, each with one fix."""
    original = notebook_module._Scanner.cells

    def cells(self: Any) -> Any:
        if MARK in self.text:
            raise notebook_module.NotebookError("expected '{' at character 12")
        return original(self)

    monkeypatch.setattr(notebook_module._Scanner, "cells", cells)
    (project / "tool.py").write_text(TOOL + "\n")
    return {
        "bad.ipynb": write(project / "bad.ipynb", notebook([code(TOOL)], note=MARK)),
        "good.ipynb": write(project / "good.ipynb", SPECIALS),
        "tool.py": (project / "tool.py").read_bytes(),
    }


def errors(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error:")]


BAD_NOT_FIXED = (
    "error: bad.ipynb: not fixed: cannot write the notebook back (the cells' sources "
    "cannot be found in the JSON: expected '{' at character 12)"
)


@pytest.mark.parametrize("command", [("check", "--fix"), ("fix",)])
def test_a_notebook_that_cannot_be_written_is_reported_and_the_run_goes_on(
    project: Path, toolret_cli: Invoke, unwritable: dict[str, bytes], command: tuple[str, ...]
) -> None:
    result = toolret_cli(*command, "--no-cache", "bad.ipynb", "good.ipynb", "tool.py")
    # As for a fix that cannot be encoded back: the file is left as it is, its
    # diagnostic stays (exit 1), the others are fixed.
    assert result.exit_code == 1, result.output
    assert errors(result) == [BAD_NOT_FIXED]
    assert "Traceback" not in result.output
    assert (project / "bad.ipynb").read_bytes() == unwritable["bad.ipynb"]
    assert (project / "good.ipynb").read_bytes() == fixed(unwritable["good.ipynb"])
    assert (project / "tool.py").read_text().endswith("return str(len(cards))\n")
    assert "bad.ipynb:cell 1:10:12" in result.stdout  # still reported, in its cell
    assert "Found 3 errors (2 fixed, 1 remaining)." in result.stdout


def test_diff_reports_a_notebook_that_cannot_be_written_and_shows_the_others(
    project: Path, toolret_cli: Invoke, unwritable: dict[str, bytes]
) -> None:
    result = toolret_cli("check", "--no-cache", "--diff", "bad.ipynb", "good.ipynb", "tool.py")
    assert result.exit_code == 1, result.output
    assert errors(result) == [BAD_NOT_FIXED]
    assert "--- good.ipynb:cell 2\n" in result.stdout and "--- tool.py\n" in result.stdout
    assert "bad.ipynb" not in result.stdout
    assert "Would fix 2 errors." in result.stdout
    for name, data in unwritable.items():
        assert (project / name).read_bytes() == data


def test_add_noqa_reports_a_notebook_that_cannot_be_written_and_annotates_the_others(
    project: Path, toolret_cli: Invoke, unwritable: dict[str, bytes]
) -> None:
    result = toolret_cli("check", "--no-cache", "--add-noqa", "bad.ipynb", "good.ipynb", "tool.py")
    assert result.exit_code == 0, result.output
    assert errors(result) == [BAD_NOT_FIXED.replace("not fixed:", "not changed:")]
    assert "Added 2 noqa directives." in result.stderr
    assert (project / "bad.ipynb").read_bytes() == unwritable["bad.ipynb"]
    assert b"# noqa: TRV201" in (project / "good.ipynb").read_bytes()
    assert (project / "tool.py").read_text().endswith("return len(cards)  # noqa: TRV201\n")
