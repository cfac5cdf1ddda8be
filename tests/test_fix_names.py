"""A fix that writes a name (``str(…)``, ``json.dumps(…)``) is offered only where the name
means what the fix assumes: the builtin ``str``, the module of the file's ``import json``.

``str = None`` at module level, a parameter ``str``, a local ``str = lambda x: x``, a
``global str`` rebound in another function or a star import make the same text call
something else; a "safe" fix there would change what the code does. The diagnostic
stays; only the fix goes.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from lint_rules.analysis.module import parse_module
from lint_rules.analysis.names import means_builtin, means_module
from lint_rules.analysis.walk import find
from lint_rules.model import Diagnostic
from lint_rules.rules import EngineRule, Example, Rule, all_rules
from tests.test_rule_examples import run_example


def _fixed_by(rule: type[Rule], inserted: str) -> list[tuple[type[Rule], Example]]:
    return [
        (rule, example)
        for example in rule.invalid
        if example.fixed is not None and inserted in example.fixed and inserted not in example.code
    ]


STR_FIXES = [
    pytest.param(rule, example, id=f"{rule.code}-{index}")
    for rule in all_rules()
    if not issubclass(rule, EngineRule)
    for index, (rule, example) in enumerate(_fixed_by(rule, "str("))
]
JSON_FIXES = [
    pytest.param(rule, example, id=f"{rule.code}-{index}")
    for rule in all_rules()
    if not issubclass(rule, EngineRule)
    for index, (rule, example) in enumerate(_fixed_by(rule, "json.dumps("))
]


def _inserting(found: list[Diagnostic], text: str) -> list[Diagnostic]:
    return [
        d for d in found if d.fix is not None and any(text in edit.content for edit in d.fix.edits)
    ]


def test_the_rules_with_such_fixes_are_all_here() -> None:
    codes = {param.values[0].code for param in STR_FIXES}  # type: ignore[attr-defined]
    assert {"TRV101", "TRV205", "TRV312", "TRV508"} <= codes
    assert {param.values[0].code for param in JSON_FIXES} >= {"TRV401", "TRV505"}  # type: ignore[attr-defined]


@pytest.mark.parametrize(("rule", "example"), STR_FIXES)
@pytest.mark.parametrize(
    "rebinding",
    [
        "\nstr = None\n",
        "\nfrom helpers import *\n",
        "\ndef reset():\n    global str\n    str = repr\n",
    ],
)
def test_no_str_fix_where_the_module_rebinds_str(
    rule: type[Rule], example: Example, rebinding: str, tmp_path: Path
) -> None:
    before = run_example(rule, example, tmp_path)
    assert _inserting(before, "str(")
    shadowed = Example(code=example.code + rebinding, path=example.path, files=example.files)
    after = run_example(rule, shadowed, tmp_path)
    assert [(d.location, d.message) for d in after] == [(d.location, d.message) for d in before]
    assert _inserting(after, "str(") == []


@pytest.mark.parametrize(("rule", "example"), JSON_FIXES)
@pytest.mark.parametrize(
    "rebinding", ["\njson = None\n", "\nfrom helpers import *\n", "\nimport simplejson as json\n"]
)
def test_no_json_fix_where_json_is_not_only_the_module(
    rule: type[Rule], example: Example, rebinding: str, tmp_path: Path
) -> None:
    before = run_example(rule, example, tmp_path)
    assert _inserting(before, "json.dumps(")
    shadowed = Example(code=example.code + rebinding, path=example.path, files=example.files)
    after = run_example(rule, shadowed, tmp_path)
    assert [(d.location, d.message) for d in after] == [(d.location, d.message) for d in before]
    assert _inserting(after, "json.dumps(") == []


POLYAI = "functions/count.py"


def _trv101(source: str, tmp_path: Path) -> list[Diagnostic]:
    from lint_rules.frameworks.polyai.trv101 import PolyaiInvalidReturnType

    found = run_example(PolyaiInvalidReturnType, Example(code=source, path=POLYAI), tmp_path)
    assert found, source
    return found


@pytest.mark.parametrize(
    "source",
    [
        "def count(conv, str=int):\n    return 3\n",
        "def count(conv):\n    str = lambda x: x\n    return 3\n",
        "def count(conv):\n    for str in conv.items:\n        pass\n    return 3\n",
        "def count(conv):\n    import str\n    return 3\n",
        "def count(conv):\n    try:\n        pass\n    except Exception as str:\n        pass\n"
        "    return 3\n",
        "def count(conv):\n    with open('x') as str:\n        pass\n    return 3\n",
        "def count(conv):\n    del str\n    return 3\n",
        "def count(conv):\n    (str := repr)\n    return 3\n",
        "def count(conv):\n    [str := x for x in conv.items]\n    return 3\n",
        "def count(conv):\n    match conv:\n        case {'a': str}:\n            pass\n"
        "    return 3\n",
        "def str(x):\n    return x\n\ndef count(conv):\n    return 3\n",
        "class str:\n    pass\n\ndef count(conv):\n    return 3\n",
        "if True:\n    str = repr\n\ndef count(conv):\n    return 3\n",
        "while False:\n    str = repr\n\ndef count(conv):\n    return 3\n",
        "def count(conv):\n    str: type = repr\n    return 3\n",
    ],
)
def test_no_str_fix_where_str_is_not_the_builtin(source: str, tmp_path: Path) -> None:
    found = _trv101(source, tmp_path)
    assert _inserting(found, "str(") == []


@pytest.mark.parametrize(
    "source",
    [
        "def count(conv):\n    return 3\n",
        # bindings in scopes that do not enclose the return
        "def other(str):\n    return str\n\ndef count(conv):\n    return 3\n",
        "def count(conv):\n    def inner(str):\n        return str\n    return 3\n",
        "def count(conv):\n    names = [str for str in conv.items]\n    return 3\n",
        "def count(conv):\n    f = lambda str: str\n    return 3\n",
        "class Holder:\n    str = 'x'\n\ndef count(conv):\n    return 3\n",
        "import os.path\n\ndef count(conv):\n    return 3\n",
    ],
)
def test_the_str_fix_where_str_is_the_builtin(source: str, tmp_path: Path) -> None:
    found = _trv101(source, tmp_path)
    assert _inserting(found, "str(")


def _first_name(source: str, name: str) -> tuple[object, cst.CSTNode]:
    module = parse_module(source, "m.py")
    for node in find(module.tree, cst.Name):
        assert isinstance(node, cst.Name)
        if node.value == name:
            return module, node
    raise AssertionError(name)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("class C:\n    str = 1\n    x = target\n", False),  # directly in the class body
        ("class C:\n    str = 1\n\n    def m(self):\n        return target\n", True),
        ("def f[str]():\n    return target\n", False),
        ("type str = int\ntarget\n", False),
        ("target\n", True),
    ],
)
def test_means_builtin_scopes(source: str, expected: bool) -> None:
    module, node = _first_name(source, "target")
    assert means_builtin(module, node, "str") is expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import json\ntarget\n", True),
        ("import json.decoder\ntarget\n", True),
        ("import json as json\ntarget\n", True),
        ("import simplejson as json\ntarget\n", False),
        ("from x import json\ntarget\n", False),
        ("import json\njson = json\ntarget\n", False),
        ("target\n", False),
        ("import json\n\ndef f(json):\n    return target\n", False),
        ("import json\n\ndef f():\n    global json\n    json = 1\n\ntarget\n", False),
        ("import json\n\ndef f(json):\n    return json\n\ntarget\n", True),
    ],
)
def test_means_module(source: str, expected: bool) -> None:
    module, node = _first_name(source, "target")
    assert means_module(module, node, "json") is expected  # type: ignore[arg-type]


def test_a_node_of_another_module_means_nothing() -> None:
    module, _ = _first_name("target\n", "target")
    _, elsewhere = _first_name("target\n", "target")
    assert not means_builtin(module, elsewhere, "str")  # type: ignore[arg-type]
