"""The read-only walk sees exactly what LibCST's visitor sees, and the index agrees with it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from lint_rules.analysis.module import parse_module
from lint_rules.analysis.walk import TreeIndex, find, iter_nodes

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (
    sorted((ROOT / "examples").rglob("*.py")) + sorted((ROOT / "lint_rules").rglob("*.py"))[:25]
)
_PUNCTUATION = (
    cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.EmptyLine, cst.TrailingWhitespace,
    cst.Newline, cst.Comment, cst.LeftParen, cst.RightParen, cst.Comma, cst.AssignEqual, cst.Dot,
    cst.Semicolon, cst.Colon, cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace,
    cst.RightCurlyBrace, cst.ImportStar,
)  # fmt: skip


class _Counter(cst.CSTVisitor):
    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def on_visit(self, node: cst.CSTNode) -> bool:
        if not isinstance(node, _PUNCTUATION):
            self.seen[type(node).__name__] += 1
        return True


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_walk_sees_what_the_visitor_sees(path: Path) -> None:
    tree = cst.parse_module(path.read_text(encoding="utf-8"))
    counter = _Counter()
    tree.visit(counter)
    walked = Counter(type(n).__name__ for n in iter_nodes(tree) if not isinstance(n, _PUNCTUATION))
    assert walked == counter.seen


@pytest.mark.parametrize("path", SOURCES[:12], ids=lambda p: str(p.relative_to(ROOT)))
def test_index_answers_like_find(path: Path) -> None:
    tree = cst.parse_module(path.read_text(encoding="utf-8"))
    index = TreeIndex(tree)
    types = (cst.Call, cst.Dict, cst.For, cst.Name)
    for node in find(tree, cst.FunctionDef, cst.ClassDef, cst.For, cst.If):
        for nested in (True, False):
            assert index.find(node, types, nested=nested) == find(node, *types, nested=nested)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_statement_positions_equal_libcsts(path: Path) -> None:
    module = parse_module(path.read_text(encoding="utf-8"), str(path))
    full = MetadataWrapper(module.tree, unsafe_skip_copy=True).resolve(PositionProvider)
    for node in iter_nodes(module.tree):
        if node is not module.tree:
            assert module.range_of(node) == full[node], type(node).__name__


def test_positions_in_a_crlf_file_with_decorators_and_semicolons() -> None:
    source = (
        "import os\r\n\r\n@dec\r\ndef f(conv):\r\n    x = 1; y = 2\r\n    return 3\r\n\r\n"
        "a = 1; b = 2\r\nclass C:\r\n    '''doc\r\n    more'''\r\n    z = 1\r\n"
    )
    module = parse_module(source, "functions/f.py")
    full = MetadataWrapper(module.tree, unsafe_skip_copy=True).resolve(PositionProvider)
    for node in iter_nodes(module.tree):
        if node is not module.tree:
            assert module.range_of(node) == full[node]
