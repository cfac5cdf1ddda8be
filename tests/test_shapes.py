"""Value inference: exactly what RULES.md lists, and unknown for everything else."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from lint_rules.analysis.module import parse_module
from lint_rules.analysis.shapes import Kind, ShapeInference


def infer_return(body: str, prelude: str = "", params: str = "conv") -> tuple[Kind, object]:
    """Shape of the last ``return`` of ``def f(params): body``."""
    source = prelude + f"def f({params}):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    module = parse_module(source, "f.py")
    function = module.functions["f"]
    returns = [
        node for node in _walk(function) if isinstance(node, cst.Return) and node.value is not None
    ]
    value = returns[-1].value
    assert value is not None
    shape = ShapeInference(module, function).infer(value)
    return shape.kind, shape.literal if shape.has_literal else None


def _walk(node: cst.CSTNode) -> list[cst.CSTNode]:
    found = [node]
    for child in node.children:
        found.extend(_walk(child))
    return found


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        ("return 'a' 'b'", Kind.STR),
        ("return f'{conv}'", Kind.STR),
        ("return 3", Kind.INT),
        ("return 2.5", Kind.FLOAT),
        ("return 1j", Kind.COMPLEX),
        ("return True", Kind.BOOL),
        ("return None", Kind.NONE),
        ("return b'x'", Kind.BYTES),
        ("return [1]", Kind.LIST),
        ("return (1, 2)", Kind.TUPLE),
        ("return {1}", Kind.SET),
        ("return {'a': 1}", Kind.DICT),
        ("return [x for x in conv]", Kind.LIST),
        ("return {x: 1 for x in conv}", Kind.DICT),
        ("return str(conv)", Kind.STR),
        ("return len(conv)", Kind.INT),
        ("return round(conv.x)", Kind.INT),
        ("return float(conv)", Kind.FLOAT),
        ("return bool(conv)", Kind.BOOL),
        ("return sorted(conv)", Kind.LIST),
        ("return dict(a=1)", Kind.DICT),
        ("return sum([1, 2])", Kind.INT),
        ("return ', '.join(conv)", Kind.STR),
        ("return 'abc'.isdigit()", Kind.BOOL),
        ("return 1 + 2", Kind.INT),
        ("return 1 / 2", Kind.FLOAT),
        ("return 1 + 2.0", Kind.FLOAT),
        ("return 'a' + 'b'", Kind.STR),
        ("return 'a %s' % conv", Kind.STR),
        ("return conv.x > 3", Kind.BOOL),
        ("return 1 < conv.x < 3", Kind.BOOL),
        ("return not conv", Kind.BOOL),
        ("return conv in []", Kind.BOOL),
        ("return 1 and 2", Kind.INT),
        ("n = 3\nreturn n", Kind.INT),
        ("if conv:\n    n = 1\nelse:\n    n = 2\nreturn n", Kind.INT),
        ("return -3", Kind.INT),
    ],
)
def test_known_shapes(body: str, kind: Kind) -> None:
    assert infer_return(body)[0] is kind


@pytest.mark.parametrize(
    "body",
    [
        "return conv.state.x",
        "return conv.x + 1",
        "return 'a'.join(x) if conv else 3",  # the IfExp as a whole: branches differ
        "return 1 and 'a'",
        "return round(conv.x, 2)",
        "return sum(x for x in conv)",
        "return conv.upper()",  # receiver not known to be a str
        "n = 3\nn += 1\nreturn n",
        "r = {}\nr['utterance'] = conv\nreturn r",
        "r = []\nr.append(1)\nreturn r",
        "n = 3\nlog(n)\nreturn n",
        "for n in conv:\n    pass\nreturn n",
        "with conv as n:\n    pass\nreturn n",
        "global n\nn = 1\nreturn n",
        "if (n := 3):\n    pass\nreturn n",
        "n = 1\ndel n\nn = 2\nreturn n",
        "n = 1\nif conv:\n    n = 'x'\nreturn n",
        "return 2 ** conv.x",
        "return undefined_name",
    ],
)
def test_unknown_shapes(body: str) -> None:
    assert infer_return(body)[0] is Kind.UNKNOWN


def test_parameter_annotated_with_builtin() -> None:
    assert infer_return("return n", params="conv, n: int")[0] is Kind.INT
    assert infer_return("return n", params="conv, n: int | None")[0] is Kind.UNKNOWN
    assert infer_return("n = n * 2\nreturn n", params="conv, n: int")[0] is Kind.UNKNOWN


def test_module_constant_and_annotated_function() -> None:
    prelude = "LIMIT = 5\n\ndef helper() -> int:\n    return 1\n\n"
    assert infer_return("return LIMIT", prelude)[0] is Kind.INT
    assert infer_return("return helper()", prelude)[0] is Kind.INT
    twice = "LIMIT = 5\nLIMIT = 'x'\n\n"
    assert infer_return("return LIMIT", twice)[0] is Kind.UNKNOWN


def test_shadowed_builtin_is_unknown() -> None:
    prelude = "def len(x):\n    return 'many'\n\n"
    assert infer_return("return len(conv)", prelude)[0] is Kind.UNKNOWN
    assert infer_return("str = repr\nreturn str(conv)")[0] is Kind.UNKNOWN


def test_instances_through_imports() -> None:
    prelude = "from datetime import datetime\nimport decimal\nimport uuid\n\n"
    source = prelude + "def f():\n    return datetime.now(), decimal.Decimal('1'), uuid.uuid4()\n"
    module = parse_module(source, "f.py")
    function = module.functions["f"]
    ret = function.body.body[0].body[0]  # type: ignore[attr-defined]
    shape = ShapeInference(module, function).infer(ret.value)
    assert [e.type_name for e in shape.elements] == [
        "datetime.datetime",
        "decimal.Decimal",
        "uuid.UUID",
    ]


def test_local_classes() -> None:
    prelude = (
        "from typing import TypedDict\n"
        "from pydantic import BaseModel\n\n"
        "class Reply(TypedDict):\n    utterance: str\n\n"
        "class Model(BaseModel):\n    x: int\n\n"
    )
    assert infer_return("return Reply(utterance='hi')", prelude)[0] is Kind.DICT
    assert infer_return("return Model(x=1)", prelude)[0] is Kind.INSTANCE


def test_literal_values_are_kept() -> None:
    assert infer_return("return {'hangup': True}")[0] is Kind.DICT
    assert infer_return("return ''") == (Kind.STR, "")
    assert infer_return("return True") == (Kind.BOOL, True)
