"""The fast literal values equal LibCST's ``evaluated_value`` (``ast.literal_eval``)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from lint_rules.analysis.literals import float_value, int_value, string_value
from lint_rules.analysis.walk import iter_nodes

ROOT = Path(__file__).resolve().parent.parent

_STRINGS = [
    '"a"', "''", '""', "'x y'", "'é ✓'", '"it\'s"', "'say \"hi\"'", '"""doc"""', "'''a\nb'''",
    '""""""', "r'\\d+'", "R'x'", "b'bytes'", "rb'\\x'", "u'x'", "'tab\\t'", "'\\''", "'\\\\'",
    "'a' 'b'", "'a' \"b\" '''c'''", "b'a' b'b'", "'a' f'{x}'",
    "f'{x}' 'a'", "'a' 'b' f'c'", "('a'\n 'b\\n')",
]  # fmt: skip
_INTEGERS = ["0", "7", "00", "0_0", "10", "1_000", "0x1F", "0o17", "0b101", "12345678901234567890"]
_FLOATS = ["1.5", ".5", "5.", "1e3", "1E-3", "1_000.5", "0.1e+2_0", "3.141592653589793"]


@pytest.mark.parametrize("source", _STRINGS)
def test_string_value_is_libcsts(source: str) -> None:
    node = cst.parse_expression(source)
    assert isinstance(node, (cst.SimpleString, cst.ConcatenatedString))
    expected = node.evaluated_value
    found = string_value(node)
    assert found == expected
    assert type(found) is type(expected)


@pytest.mark.parametrize("source", _INTEGERS)
def test_int_value_is_libcsts(source: str) -> None:
    node = cst.parse_expression(source)
    assert isinstance(node, cst.Integer)
    assert int_value(node) == node.evaluated_value


@pytest.mark.parametrize("source", _FLOATS)
def test_float_value_is_libcsts(source: str) -> None:
    node = cst.parse_expression(source)
    assert isinstance(node, cst.Float)
    found = float_value(node)
    assert found == node.evaluated_value
    assert type(found) is float


def test_every_literal_of_the_repository() -> None:
    checked = 0
    for path in sorted((ROOT / "lint_rules").rglob("*.py")) + sorted((ROOT / "tests").glob("*.py")):
        tree = cst.parse_module(path.read_text(encoding="utf-8"))
        for node in iter_nodes(tree):
            if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
                assert string_value(node) == node.evaluated_value, path
            elif isinstance(node, cst.Integer):
                assert int_value(node) == node.evaluated_value
            elif isinstance(node, cst.Float):
                assert float_value(node) == node.evaluated_value
            else:
                continue
            checked += 1
    assert checked > 1000
