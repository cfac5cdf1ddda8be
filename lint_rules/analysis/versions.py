"""Syntax newer than the project's target Python: what ``TRV005`` (``version-syntax``) reports.

toolret parses every file with the newest grammar LibCST knows, whatever Python
runs it (``analysis.syntax``). Code that uses syntax its target version does not
have still parses and is still checked; this module says where it is, as ruff's
version-related syntax errors do, with ruff's messages and places:

- PEP 701 f-strings (3.12): a quote of an enclosing f-string reused in a replacement
  field, a backslash or a comment in one, a line break in a field of a single-quoted
  f-string - found by ``analysis.syntax``'s scanner, the one that builds stand-ins for
  older CPythons;
- ``type X = ...`` and type parameter lists ``def f[T]``, ``class C[T]`` (3.12), a
  type parameter's default ``[T = int]`` (3.13);
- ``except*`` (3.11), ``match`` (3.10), parenthesized context managers (3.9);
- t-strings and ``except A, B:`` without parentheses (3.14), where LibCST reads them.

Each construct is read from the tree (or, for f-strings, from the text of a file
LibCST has parsed), never from this interpreter's parser: the answer is the same
under every Python.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import libcst as cst

from lint_rules.analysis.syntax import (
    PEP701_BACKSLASH,
    PEP701_COMMENT,
    PEP701_LINE_BREAK,
    PEP701_QUOTE,
    pep701_syntax,
)

if TYPE_CHECKING:
    from lint_rules.analysis.module import ParsedModule

Version = tuple[int, int]

_PEP701: Final[dict[str, str]] = {
    PEP701_QUOTE: "Cannot reuse outer quote character in f-strings",
    PEP701_BACKSLASH: "Cannot use an escape sequence (backslash) in f-strings",
    PEP701_COMMENT: "Cannot use comments in f-strings",
    PEP701_LINE_BREAK: "Cannot use line breaks in non-triple-quoted f-string replacement fields",
}
"""ruff's words for each PEP 701 construct (``analysis.syntax.pep701_syntax``'s kinds)."""

_TEMPLATED_STRING: type[cst.CSTNode] | None = getattr(cst, "TemplatedString", None)
"""PEP 750 t-strings: LibCST 1.8 and later read them."""

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class NewerSyntax:
    """One construct the target version cannot parse. Rows are 1-based, columns
    1-based code points (a diagnostic's), the end exclusive."""

    row: int
    column: int
    end_row: int
    end_column: int
    message: str


def newer_syntax(module: ParsedModule, target: Version) -> list[NewerSyntax]:
    """The constructs of ``module`` that need a Python newer than ``target``, in source
    order (ruff's ``Cannot use … on Python 3.X (syntax was added in Python 3.Y)``)."""
    found = [
        NewerSyntax(row, column, end_row, end_column, _message(what, target, added))
        for row, column, end_row, end_column, what, added in _constructs(module, target)
        if target < added
    ]
    return sorted(found, key=lambda item: (item.row, item.column, item.message))


def _message(what: str, target: Version, added: Version) -> str:
    return (
        f"{what} on Python {target[0]}.{target[1]} "
        f"(syntax was added in Python {added[0]}.{added[1]})"
    )


_Construct = tuple[int, int, int, int, str, Version]


def _constructs(module: ParsedModule, target: Version) -> Iterator[_Construct]:
    if target < (3, 12):
        yield from _fstrings(module)
    types: list[type[cst.CSTNode]] = []
    if target < (3, 9):
        types.append(cst.With)
    if target < (3, 10):
        types.append(cst.Match)
    if target < (3, 11):
        types.append(cst.ExceptStarHandler)
    if target < (3, 12):
        types += [cst.TypeAlias, cst.FunctionDef, cst.ClassDef]
    if target < (3, 13):
        types.append(cst.TypeParameters)
    if target < (3, 14):
        types += [cst.ExceptHandler, cst.ExceptStarHandler]
        if _TEMPLATED_STRING is not None:
            types.append(_TEMPLATED_STRING)
    if not types:
        return
    for node in module.index.find(module.tree, tuple(dict.fromkeys(types)), nested=True):
        yield from _node_constructs(module, node, target)


def _node_constructs(
    module: ParsedModule, node: cst.CSTNode, target: Version
) -> Iterator[_Construct]:
    if isinstance(node, cst.With):
        if _parenthesized_items(node) and isinstance(node.lpar, cst.LeftParen):
            yield _span(
                module, node.lpar, "Cannot use parentheses within a `with` statement", (3, 9)
            )
    elif isinstance(node, cst.Match):
        yield _keyword(module, node, "match", "Cannot use `match` statement", (3, 10))
    elif isinstance(node, cst.TypeAlias):
        yield _keyword(module, node, "type", "Cannot use `type` alias statement", (3, 12))
    elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        if node.type_parameters is not None:
            what = "Cannot use type parameter lists"
            yield _span(module, node.type_parameters, what, (3, 12))
    elif isinstance(node, cst.TypeParameters):
        default = next((param for param in node.params if param.default is not None), None)
        if default is not None:
            yield _default(module, default)
    elif isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)):
        if isinstance(node, cst.ExceptStarHandler) and target < (3, 11):
            yield _except_star(module, node)
        if (
            target < (3, 14)
            and isinstance(node.type, cst.Tuple)
            and not node.type.lpar
            and len(node.type.elements) > 1
        ):
            what = "Multiple exception types must be parenthesized"
            yield _span(module, node.type, what, (3, 14))
    elif _TEMPLATED_STRING is not None and isinstance(node, _TEMPLATED_STRING):
        yield _span(module, node, "Cannot use t-strings", (3, 14))


def _parenthesized_items(node: cst.With) -> bool:
    """``with (a as b, c):`` - the 3.9 form. ``with (a):`` is a parenthesized expression
    in every version; ``with (a, b):`` (a tuple before 3.9, two context managers since)
    is ruff's too: more than one item, a target, or a trailing comma."""
    items = node.items
    if len(items) > 1 or any(item.asname is not None for item in items):
        return True
    return bool(items) and isinstance(items[-1].comma, cst.Comma)


def _span(module: ParsedModule, node: cst.CSTNode, what: str, added: Version) -> _Construct:
    where = module.range_of(node)
    return (
        where.start.line,
        where.start.column + 1,
        where.end.line,
        where.end.column + 1,
        what,
        added,
    )


def _keyword(
    module: ParsedModule, node: cst.CSTNode, keyword: str, what: str, added: Version
) -> _Construct:
    """The keyword that starts ``node`` (``match``, ``type``)."""
    start = module.range_of(node).start
    column = start.column + 1
    return (start.line, column, start.line, column + len(keyword), what, added)


def _except_star(module: ParsedModule, node: cst.ExceptStarHandler) -> _Construct:
    """At the ``*`` of ``except*`` (ruff's place), or at ``except`` when whitespace with a
    line break stands between them."""
    start = module.range_of(node).start
    gap = node.whitespace_after_except.value
    column = start.column + 1 + len("except")
    if _LINE_BREAK.search(gap) is None:
        column += len(gap)
    else:
        column = start.column + 1
    return (start.line, column, start.line, column + 1, "Cannot use `except*`", (3, 11))


def _default(module: ParsedModule, param: cst.TypeParam) -> _Construct:
    """From the ``=`` to the end of the default (ruff's range), or the default alone
    when the ``=`` is not on the default's line."""
    assert param.default is not None
    where = module.range_of(param.default)
    start_line, start_column = where.start.line, where.start.column + 1
    equal = param.equal
    if isinstance(equal, cst.AssignEqual) and not getattr(param.default, "lpar", None):
        after = equal.whitespace_after
        gap = after.value if isinstance(after, cst.SimpleWhitespace) else None
        if gap is not None and _LINE_BREAK.search(gap) is None and start_column > len(gap) + 1:
            start_column -= len(gap) + 1
    return (
        start_line,
        start_column,
        where.end.line,
        where.end.column + 1,
        "Cannot set default type for a type parameter",
        (3, 13),
    )


def _fstrings(module: ParsedModule) -> Iterator[_Construct]:
    source = module.source
    found = pep701_syntax(source)
    if not found:
        return
    starts = [0] + [match.end() for match in _LINE_BREAK.finditer(source)]

    def position(offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(starts, offset) - 1
        return line + 1, offset - starts[line] + 1

    for start, end, kind in found:
        row, column = position(start)
        end_row, end_column = position(end)
        yield row, column, end_row, end_column, _PEP701[kind], (3, 12)
