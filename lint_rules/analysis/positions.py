"""LibCST's ``PositionProvider`` ranges for one statement, several times cheaper.

``PositionProvider`` generates the code of a tree with a ``CodegenState`` that
records where each node starts and ends. Its state pays for generality on
every node and token: a ``contextlib`` generator per syntactic position, a
regular-expression split per token, two ``CodeRange`` objects per node, a
token list nobody reads. ``PositionRecorder`` is the same recording, driven by
the same ``_codegen`` of every node, with those costs removed: plain tuples
keyed by ``id(node)``, a substring test before the split, a slotted context
manager. A test compares its ranges with ``PositionProvider``'s on whole files.
"""

from __future__ import annotations

import re
from types import TracebackType

import libcst as cst
from libcst._nodes.internal import CodegenState

from lint_rules.analysis.stack import deep_if_needed

_NEWLINE = re.compile(r"\r\n?|\n")  # position_provider.NEWLINE_RE

RawRange = tuple[int, int, int, int]
"""Start line, start column, end line, end column (lines 1-based, columns 0-based)."""


def statement_ranges(
    statement: cst.CSTNode, module: cst.Module, indents: tuple[str, ...] = ()
) -> dict[int, RawRange]:
    """``id(node)`` → range of every node of ``statement``, as if the statement
    began the file (line 1) inside blocks indented by ``indents``, equal to what
    ``PositionProvider`` records for it there."""
    return deep_if_needed(_record, statement, module, indents)


def _record(
    statement: cst.CSTNode, module: cst.Module, indents: tuple[str, ...]
) -> dict[int, RawRange]:
    state = PositionRecorder(module.default_indent, module.default_newline)
    state.indent_tokens.extend(indents)
    statement._codegen(state)
    return state.ranges


class PositionRecorder(CodegenState):
    """``PositionProvidingCodegenState`` without the overhead (and without the tokens).

    Ranges are keyed by ``id``: the tree being generated keeps every node alive.
    As in LibCST, a syntactic position (recorded while the node generates its
    code) wins over the whitespace-inclusive one recorded when it is done.
    """

    __slots__ = ("_starts", "column", "line", "ranges")

    def __init__(self, default_indent: str, default_newline: str) -> None:
        super().__init__(default_indent=default_indent, default_newline=default_newline)
        self.line = 1
        self.column = 0
        self.ranges: dict[int, RawRange] = {}
        self._starts: list[tuple[int, int]] = []

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def add_token(self, value: str) -> None:
        if "\n" in value or "\r" in value:
            segments = _NEWLINE.split(value)
            self.line += len(segments) - 1
            self.column = len(segments[-1])
        else:
            self.column += len(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        self._starts.append((self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        line, column = self._starts.pop()
        key = id(node)
        if key not in self.ranges:
            self.ranges[key] = (line, column, self.line, self.column)

    def record_syntactic_position(  # type: ignore[override]
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> _SyntacticPosition:
        return _SyntacticPosition(self, node, start_node, end_node)


class _SyntacticPosition:
    """The ``with`` block in which a node generates its syntactic part."""

    __slots__ = ("column", "end_node", "line", "node", "start_node", "state")

    def __init__(
        self,
        state: PositionRecorder,
        node: cst.CSTNode,
        start_node: cst.CSTNode | None,
        end_node: cst.CSTNode | None,
    ) -> None:
        self.state = state
        self.node = node
        self.start_node = start_node
        self.end_node = end_node
        self.line = state.line
        self.column = state.column

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is not None:
            return  # generation failed (out of recursion): what it left is never read
        state = self.state
        ranges = state.ranges
        if self.start_node is None:
            line, column = self.line, self.column
        else:
            line, column, _, _ = ranges[id(self.start_node)]
        if self.end_node is None:
            end_line, end_column = state.line, state.column
        else:
            _, _, end_line, end_column = ranges[id(self.end_node)]
        ranges[id(self.node)] = (line, column, end_line, end_column)
