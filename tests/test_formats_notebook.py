"""Every output format prints notebook diagnostics (``Diagnostic.cell`` set, rows relative
to the cell) as ruff 0.17 does, and says the cell where ruff's position is a fallback.

The diagnostics are built by hand against a small nbformat-4 notebook (a markdown cell,
then two code cells, the second starting with an IPython line); the last tests run ruff
0.17 (when installed) on the same notebook and compare the text formats byte for byte.
"""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from ruff_json import from_ruff
from test_formats_more import RUFF, needs_ruff_017

from lint_rules.formats import FORMATS, render
from lint_rules.model import Applicability, Diagnostic, Edit, Fix, Location, Severity
from lint_rules.notebook import Notebook, NotebookText

CWD = Path("/project")
NB = "/project/nb.ipynb"
PLAIN = "/project/a.py"

NOTEBOOK_JSON = json.dumps(
    {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# Title"]},
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": ["import os\n", "print(1)"],
            },
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": [
                    "%matplotlib inline\n",
                    "def f():\n",
                    "    x = 1\n",
                    "    import sys\n",
                    "    return 2",
                ],
            },
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    },
    indent=1,
)


def at(row: int, column: int) -> Location:
    return Location(row=row, column=column)


def notebook_source() -> NotebookText:
    return NotebookText(Notebook.from_text(NOTEBOOK_JSON))


def delete_line(row: int, message: str, applicability: Applicability) -> Fix:
    return Fix(message, applicability, (Edit("", at(row, 1), at(row + 1, 1)),))


OS = Diagnostic(
    code="F401",
    name="unused-import",
    message="`os` imported but unused",
    severity=Severity.ERROR,
    filename=NB,
    location=at(1, 8),
    end_location=at(1, 10),
    fix=delete_line(1, "Remove unused import: `os`", Applicability.SAFE),
    cell=2,
)
X = Diagnostic(
    code="F841",
    name="unused-variable",
    message="Local variable `x` is assigned to but never used",
    severity=Severity.ERROR,
    filename=NB,
    location=at(3, 5),
    end_location=at(3, 6),
    fix=delete_line(3, "Remove assignment to unused variable `x`", Applicability.UNSAFE),
    cell=3,
)
SYS = replace(
    OS,
    message="`sys` imported but unused",
    location=at(4, 12),
    end_location=at(4, 15),
    fix=delete_line(4, "Remove unused import: `sys`", Applicability.SAFE),
    cell=3,
)
DIAGNOSTICS = [OS, X, SYS]
PLAIN_DIAGNOSTIC = replace(SYS, filename=PLAIN, cell=None)


def show(fmt: str, diagnostics: list[Diagnostic] | None = None, **sources: str) -> str:
    return render(
        fmt,
        DIAGNOSTICS if diagnostics is None else diagnostics,
        sources={NB: notebook_source(), **{f"/project/{k}": v for k, v in sources.items()}},
        cwd=CWD,
    )


def test_notebook_text_is_what_the_frames_show() -> None:
    source = notebook_source()
    assert source.cell_source(2) == "import os\nprint(1)"
    assert source.cell_source(3) == (
        "%matplotlib inline\ndef f():\n    x = 1\n    import sys\n    return 2"
    )


def test_concise() -> None:
    assert show("concise") == (
        "nb.ipynb:cell 2:1:8: F401 [*] `os` imported but unused\n"
        "nb.ipynb:cell 3:3:5: F841 Local variable `x` is assigned to but never used\n"
        "nb.ipynb:cell 3:4:12: F401 [*] `sys` imported but unused\n"
    )


FULL = """\
F401 [*] `os` imported but unused
 --> nb.ipynb:cell 2:1:8
  |
1 | import os
  |        ^^
2 | print(1)
  |
help: Remove unused import: `os`
 ::: cell 2
  |
  - import os
1 | print(1)
  |

F841 Local variable `x` is assigned to but never used
 --> nb.ipynb:cell 3:3:5
  |
1 | %matplotlib inline
2 | def f():
3 |     x = 1
  |     ^
4 |     import sys
5 |     return 2
  |
help: Remove assignment to unused variable `x`
 ::: cell 3
  |
2 | def f():
  -     x = 1
3 |     import sys
  |
note: This is an unsafe fix and may change runtime behavior

F401 [*] `sys` imported but unused
 --> nb.ipynb:cell 3:4:12
  |
2 | def f():
3 |     x = 1
4 |     import sys
  |            ^^^
5 |     return 2
  |
help: Remove unused import: `sys`
 ::: cell 3
  |
3 |     x = 1
  -     import sys
4 |     return 2
  |

"""


def test_full_frames_and_diffs_are_per_cell() -> None:
    assert show("full") == FULL


def test_full_without_the_notebook_text_shows_only_the_origin() -> None:
    # A plain str is the module text: the cell's rows cannot be framed in it.
    out = render("full", [OS], sources={NB: str(notebook_source())}, cwd=CWD)
    assert out == (
        "F401 [*] `os` imported but unused\n"
        "--> nb.ipynb:cell 2:1:8\n"
        "help: Remove unused import: `os`\n\n"
    )
    unknown_cell = render("full", [replace(OS, cell=9)], sources={NB: notebook_source()}, cwd=CWD)
    assert "--> nb.ipynb:cell 9:1:8\n" in unknown_cell


def test_grouped() -> None:
    deep = replace(SYS, location=at(10, 8), end_location=at(10, 12), cell=4)
    assert show("grouped", [*DIAGNOSTICS, deep]) == (
        "nb.ipynb:\n"
        "   cell 2:1:8  F401 [*] `os` imported but unused\n"
        "   cell 3:3:5  F841 Local variable `x` is assigned to but never used\n"
        "   cell 3:4:12 F401 [*] `sys` imported but unused\n"
        "  cell 4:10:8  F401 [*] `sys` imported but unused\n"
        "\n"
    )


def test_json_and_json_lines_carry_the_cell() -> None:
    objects = json.loads(show("json"))
    assert [o["cell"] for o in objects] == [2, 3, 3]
    assert objects[2]["location"] == {"column": 12, "row": 4}
    assert objects[2]["end_location"] == {"column": 15, "row": 4}
    assert objects[2]["noqa_row"] == 4
    assert objects[2]["fix"]["edits"] == [
        {
            "content": "",
            "end_location": {"column": 1, "row": 5},
            "location": {"column": 1, "row": 4},
        }
    ]
    lines = show("json-lines").splitlines()
    assert [json.loads(line)["cell"] for line in lines] == [2, 3, 3]
    assert lines[0].startswith('{"cell":2,"code":"F401",')
    plain = json.loads(show("json", [PLAIN_DIAGNOSTIC]))
    assert plain[0]["cell"] is None


def test_github_uses_ruffs_fallback_position_and_names_the_cell() -> None:
    assert show("github", [OS, X]) == (
        "::error title=toolret (F401),file=/project/nb.ipynb,line=1,col=1,endLine=1,"
        "endColumn=1::nb.ipynb:cell 2:1:8: F401 `os` imported but unused"
        "%0A  help: Remove unused import: `os`\n"
        "::error title=toolret (F841),file=/project/nb.ipynb,line=1,col=1,endLine=1,"
        "endColumn=1::nb.ipynb:cell 3:3:5: F841 Local variable `x` is assigned to but never used"
        "%0A  help: Remove assignment to unused variable `x`\n"
    )


def test_pylint() -> None:
    assert show("pylint") == (
        "nb.ipynb:1: [F401] cell 2:1:8: `os` imported but unused\n"
        "nb.ipynb:1: [F841] cell 3:3:5: Local variable `x` is assigned to but never used\n"
        "nb.ipynb:1: [F401] cell 3:4:12: `sys` imported but unused\n"
    )


def test_azure() -> None:
    assert show("azure", [SYS]) == (
        "##vso[task.logissue type=error;sourcepath=/project/nb.ipynb;linenumber=1;"
        "columnnumber=1;code=F401;]cell 3:4:12: `sys` imported but unused\n"
    )


def test_gitlab() -> None:
    report = json.loads(show("gitlab"))
    assert [entry["description"] for entry in report] == [
        "F401: cell 2:1:8: `os` imported but unused",
        "F841: cell 3:3:5: Local variable `x` is assigned to but never used",
        "F401: cell 3:4:12: `sys` imported but unused",
    ]
    fallback = {"begin": {"line": 1, "column": 1}, "end": {"line": 1, "column": 1}}
    assert all(entry["location"]["positions"] == fallback for entry in report)
    assert all(entry["location"]["path"] == "nb.ipynb" for entry in report)
    assert len({entry["fingerprint"] for entry in report}) == 3


def test_junit() -> None:
    out = show("junit", [SYS])
    assert (
        '        <testcase name="org.toolret.F401" classname="/project/nb">\n'
        "            <properties>\n"
        '                <property name="severity" value="error"/>\n'
        "            </properties>\n"
        '            <failure message="`sys` imported but unused">'
        "cell 3, line 4, col 12, `sys` imported but unused</failure>\n"
        "        </testcase>\n"
    ) in out
    ET.fromstring(out)


def test_rdjson() -> None:
    result = json.loads(show("rdjson", [SYS]))
    (entry,) = result["diagnostics"]
    assert entry["message"] == "cell 3:4:12: `sys` imported but unused"
    assert entry["location"] == {
        "path": NB,
        "range": {"end": {"column": 15, "line": 4}, "start": {"column": 12, "line": 4}},
    }
    assert "suggestions" not in entry


def test_sarif() -> None:
    log = json.loads(show("sarif", [SYS]))
    (result,) = log["runs"][0]["results"]
    assert result["message"] == {"text": "cell 3:4:12: `sys` imported but unused"}
    (location,) = result["locations"]
    assert location["physicalLocation"]["region"] == {
        "endColumn": 15,
        "endLine": 4,
        "startColumn": 12,
        "startLine": 4,
    }
    assert location["physicalLocation"]["artifactLocation"]["uri"] == "nb.ipynb"
    assert "fixes" not in result


PLAIN_TEXT = "def f():\n    x = 1\n    import sys\n    import sys\n"


@pytest.mark.parametrize("fmt", FORMATS)
def test_plain_files_print_no_cell(fmt: str) -> None:
    out = show(fmt, [PLAIN_DIAGNOSTIC], **{"a.py": PLAIN_TEXT})
    assert "cell" not in out.replace('"cell": null', "").replace('"cell":null', "")
    assert "::: " not in out


def test_plain_file_lines_are_unchanged() -> None:
    plain = [PLAIN_DIAGNOSTIC]
    assert show("concise", plain) == "a.py:4:12: F401 [*] `sys` imported but unused\n"
    assert show("pylint", plain) == "a.py:4: [F401] `sys` imported but unused\n"
    assert show("github", plain).startswith(
        "::error title=toolret (F401),file=/project/a.py,line=4,col=12,endLine=4,"
        "endColumn=15::a.py:4:12: F401 `sys` imported but unused"
    )
    assert show("grouped", plain) == "a.py:\n  4:12 F401 [*] `sys` imported but unused\n\n"
    assert 'line="4" column="12"' in show("junit", plain)
    assert "linenumber=4;columnnumber=12;" in show("azure", plain)
    full = show("full", plain, **{"a.py": PLAIN_TEXT})
    assert " --> a.py:4:12\n" in full
    assert "fixes" in show("sarif", plain)
    assert "suggestions" in show("rdjson", plain)


@pytest.mark.parametrize("fmt", FORMATS)
def test_mixed_runs_render_every_format(fmt: str) -> None:
    out = show(fmt, [*DIAGNOSTICS, PLAIN_DIAGNOSTIC], **{"a.py": PLAIN_TEXT})
    assert out


# --- against the real ruff --------------------------------------------------------------


def _ruff(tmp_path: Path, fmt: str) -> str:
    args = ["--output-format", fmt, "nb.ipynb"]
    assert RUFF is not None
    completed = subprocess.run(
        [RUFF, "check", "--isolated", "--no-cache", "--select", "F401,F841", "--quiet", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    return completed.stdout


def _ruff_diagnostics(tmp_path: Path) -> list[Diagnostic]:
    objects: list[dict[str, Any]] = [
        json.loads(line) for line in _ruff(tmp_path, "json-lines").splitlines()
    ]
    return [replace(from_ruff(obj), cell=obj["cell"]) for obj in objects]


@needs_ruff_017
@pytest.mark.parametrize("fmt", ["concise", "full", "grouped"])
def test_text_formats_match_ruff(tmp_path: Path, fmt: str) -> None:
    (tmp_path / "nb.ipynb").write_text(NOTEBOOK_JSON)
    diagnostics = _ruff_diagnostics(tmp_path)
    assert [d.cell for d in diagnostics] == [2, 3, 3]
    ours = render(
        fmt,
        diagnostics,
        sources={str(tmp_path / "nb.ipynb"): notebook_source()},
        cwd=tmp_path,
    )
    assert ours == _ruff(tmp_path, fmt)


@needs_ruff_017
def test_json_matches_ruff(tmp_path: Path) -> None:
    (tmp_path / "nb.ipynb").write_text(NOTEBOOK_JSON)
    theirs = json.loads(_ruff(tmp_path, "json"))
    ours = json.loads(render("json", _ruff_diagnostics(tmp_path), sources={}, cwd=tmp_path))
    keep = ("cell", "code", "location", "end_location", "fix", "noqa_row", "message")
    assert [{k: o[k] for k in keep} for o in ours] == [{k: t[k] for k in keep} for t in theirs]
