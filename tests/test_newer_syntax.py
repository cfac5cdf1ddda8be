"""Issue 27: the project's syntax, not the interpreter's.

Python 3.12+ code (PEP 701 f-strings, PEP 695/696 type parameters and aliases)
is checked the same under 3.11 as under 3.13: ``analysis/syntax.py`` gives
CPython a same-layout stand-in where it cannot read the original, so statement
spans, project summaries and notebook cells do not depend on the interpreter.

The cross-interpreter test runs the other interpreters named in
``TOOLRET_OTHER_PYTHONS`` (``os.pathsep``-separated; ``.ci/run`` sets it to the
virtual environments of its extra-interpreter job) or found as
``.ci/venv-*/bin/python``, and compares their JSON output with this one's, byte
for byte; it is skipped, saying so, where there is no other interpreter.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lint_rules.analysis.syntax import downgrade, python_tree

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "newer_syntax"

# ------------------------------------------------------------------ stand-ins


@pytest.mark.parametrize(
    "source",
    [
        'x = f"{row["name"]}"\n',
        "x = f'{a['k']!r:>{w['n']}}' + f\"plain {y}\"\n",
        'x = f"{f"{f"{1}"}"}"\n',
        'x = f"""{\n    d["a"]\n}"""\n',
        'x = f"{\n d["a"]\n}"\n',  # a field over lines in a one-quote f-string (3.12)
        "type Rows = list[dict[str, str]]\n",
        "type Pair[T] = tuple[T, T]\n",
        "def first[T](items: list[T]) -> T:\n    return items[0]\n",
        "class Box[T = str]:\n    value: T\n",  # PEP 696 (3.13)
        "async def run[**P, *Ts](f: P) -> None:\n    pass\n",
    ],
)
def test_newer_syntax_gets_a_tree_with_the_same_lines(source: str) -> None:
    tree = python_tree(source)
    assert isinstance(tree, ast.Module)
    try:
        ast.parse(source)
    except SyntaxError:  # this Python is older than the syntax: the stand-in's tree
        stand_in = downgrade(source)
        assert stand_in is not None
        assert len(stand_in.splitlines()) == len(source.splitlines())
        # Every statement keeps its first and last line.
        assert [(s.lineno, s.end_lineno) for s in ast.parse(stand_in).body] == [
            (s.lineno, s.end_lineno) for s in tree.body
        ]


def test_code_this_python_reads_is_left_alone() -> None:
    assert downgrade('x = f"{a} {b!r}"\n') is None
    assert downgrade("def f(x):\n    return x\n") is None


@pytest.mark.parametrize(
    "source",
    [
        'x = f"{a +}"\n',  # an error in any version, inside an f-string
        'x = f"{row["name"]\n',  # unterminated
        "def first[T](items:\n",
        "type = = 3\n",
    ],
)
def test_a_real_syntax_error_stays_an_error(source: str) -> None:
    with pytest.raises(SyntaxError):
        python_tree(source)


def test_strings_and_comments_do_not_look_like_type_parameters() -> None:
    source = '"""\ndef f[T](x): pass\n"""\n# type X = int\nx = 1\n'
    assert downgrade(source) is None


# ------------------------------------------------------------------ the CLI


def check(*paths: str, python: str = sys.executable) -> subprocess.CompletedProcess[str]:
    # The example is written for Python 3.13 (its README): that is its target version, or
    # `ALL`'s TRV005 would report its 3.12 syntax against ruff's default, py311.
    return subprocess.run(
        [python, "-m", "lint_rules", "check", *paths, "--no-cache", "--select", "ALL",
         "--target-version", "py313", "--output-format", "json", "--exit-zero"],
        cwd=ROOT, capture_output=True, text=True, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


def test_the_newer_syntax_example_reports_what_its_comments_say() -> None:
    result = check("examples/newer_syntax")
    assert result.returncode == 0, result.stderr
    found = {
        (Path(d["filename"]).relative_to(ROOT).as_posix(), d["cell"], d["location"]["row"],
         d["code"])
        for d in json.loads(result.stdout)
    }  # fmt: skip
    assert found == {
        ("examples/newer_syntax/support/tools.py", None, 22, "TRV602"),  # a fact of errors.py
        ("examples/newer_syntax/support/tools.py", None, 32, "TRV602"),
        ("examples/newer_syntax/weather_loop.py", None, 37, "TRV409"),
        ("examples/newer_syntax/course.ipynb", 5, 6, "TRV409"),
    }


def test_a_fix_in_a_newer_syntax_file_applies_and_is_idempotent(tmp_path: Path) -> None:
    functions = tmp_path / "functions"
    functions.mkdir()
    tool = functions / "count.py"
    tool.write_text(
        "type Minutes = int\n\n\n"
        "def count(conv):\n"
        '    label = f"{conv.state["name"]}"\n'
        "    return 3\n",
        encoding="utf-8",
    )
    fix = [sys.executable, "-m", "lint_rules", "check", ".", "--fix", "--no-cache"]
    first = subprocess.run(fix, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert "return str(3)" in tool.read_text(encoding="utf-8"), first.stdout + first.stderr
    fixed = tool.read_bytes()
    again = subprocess.run(fix, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert tool.read_bytes() == fixed, again.stdout + again.stderr
    assert "TRV001" not in first.stdout + again.stdout


# ------------------------------------------------------------------ other interpreters


def other_pythons() -> list[str]:
    named = [p for p in os.environ.get("TOOLRET_OTHER_PYTHONS", "").split(os.pathsep) if p]
    found = sorted(str(p) for p in (ROOT / ".ci").glob("venv-*/bin/python"))
    mine = os.path.realpath(sys.executable)
    return [
        p for p in dict.fromkeys(named + found) if shutil.which(p) and os.path.realpath(p) != mine
    ]


@pytest.mark.parametrize("tree", ["examples", "examples/newer_syntax"])
def test_every_interpreter_gives_the_same_output_byte_for_byte(tree: str) -> None:
    pythons = other_pythons()
    if not pythons:
        pytest.skip("no other interpreter: set TOOLRET_OTHER_PYTHONS (.ci/run does)")
    mine = check(tree)
    assert mine.returncode == 0, mine.stderr
    for python in pythons:
        theirs = check(tree, python=python)
        assert theirs.returncode == 0, f"{python}: {theirs.stderr[-2000:]}"
        assert theirs.stdout == mine.stdout, python
