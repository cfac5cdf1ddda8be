"""One parsed file: its LibCST tree, what its names refer to, and positions on demand.

Import resolution is deliberately shallow and certain: a name resolves to a
qualified name only through an ``import`` / ``from … import`` at module level
(including inside top-level ``try``/``if`` blocks). A name that is also bound
by a local definition (``try: from agents import Agent`` / ``except
ImportError: class Agent: ...``) is *shadowed* and resolves to nothing, so no
framework rule ever fires on it.

Positions come from LibCST's ``PositionProvider``, which re-generates the code
of the whole module. That costs about as much as a parse, so it is computed
lazily — only for files that report something — and never for clean files.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar

import libcst as cst
from libcst import CSTNode
from libcst.metadata import CodePosition, CodeRange, MetadataWrapper, PositionProvider

from lint_rules.analysis.positions import RawRange, statement_ranges
from lint_rules.analysis.screen import nodes_of
from lint_rules.analysis.stack import deep_if_needed
from lint_rules.analysis.summaries import SummaryStore
from lint_rules.analysis.syntax import python_tree
from lint_rules.analysis.walk import TreeIndex, tree_index


@dataclass
class ParsedModule:
    """A parsed file plus the module-level facts every framework needs."""

    path: str
    source: str
    tree: cst.Module
    imports: dict[str, str] = field(default_factory=dict)
    """Local name → qualified name (``"ActionResult"`` → ``"browser_use.ActionResult"``)."""
    star_imports: list[str] = field(default_factory=list)
    """Modules imported with ``from m import *`` (PolyAI's generated header)."""
    functions: dict[str, cst.FunctionDef] = field(default_factory=dict)
    """Top-level functions by name (the last definition wins, as at run time)."""
    classes: dict[str, cst.ClassDef] = field(default_factory=dict)
    constants: dict[str, cst.BaseExpression] = field(default_factory=dict)
    """Module-level names assigned exactly once, with their value."""
    local_names: set[str] = field(default_factory=set)
    """Every name bound at module level other than by an import."""
    shadowed: set[str] = field(default_factory=set)
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """Analyses kept for the life of this parse, keyed by their owners (a framework's
    recognition, shared by the index facts and the rules)."""
    _positions: dict[cst.CSTNode, CodeRange] | None = None
    _statement_positions: dict[int, tuple[dict[int, RawRange], int]] = field(default_factory=dict)
    """``id`` of a statement → its nodes' ranges and the line shift (``_generate``)."""
    _python_statements: list[ast.stmt] | Literal[False] | None = field(default=None, repr=False)
    """CPython's statements of the module (``False``: it cannot parse the source)."""
    _statement_spans: dict[int, _Spans | None] = field(default_factory=dict, repr=False)
    """``id`` of a statement list → its statements' spans (``_pick``), computed once."""
    """Statement index → (``id`` of its nodes → range as if it began the file, the line
    shift to add)."""
    _index: TreeIndex | None = field(default=None, repr=False)
    _calls_by_callee: dict[str, list[cst.Call]] | None = field(default=None, repr=False)
    _line_starts: list[int] | None = None
    _python_tree: ast.Module | None = field(default=None, repr=False)
    """CPython's tree of ``source`` when ``check_parse_cost`` had to build it."""
    _summaries: SummaryStore | None = field(default=None, repr=False)

    @property
    def summaries(self) -> SummaryStore:
        """The project facts this module's analysis asks (``analysis.summaries``): the
        project's store when a front end gave one (``use_summaries``), else one that
        knows this module alone (flake8)."""
        if self._summaries is None:
            self.use_summaries(SummaryStore(reads_files=False))
        assert self._summaries is not None
        return self._summaries

    def use_summaries(self, store: SummaryStore) -> None:
        """Answer project-fact questions from ``store``, this module summarised from its
        own tree (not from the disk: the language server checks unsaved text)."""
        if self._summaries is store:
            return
        self._summaries = store
        tree = self._python_tree
        if tree is None:
            tree = cpython_tree_quietly(self.source)
        store.adopt(self.path, tree)

    def remembered(self, key: str, inputs: tuple[object, ...], compute: Callable[[], _T]) -> _T:
        """``compute()``, kept on the module under ``key`` for as long as it is asked with
        the same ``inputs`` (compared by identity: the project, its index): a family's
        recognition is shared by its index facts, its rules and the TRV9xx rules of one
        parse instead of being redone by each."""
        kept = self.memo.get(key)
        if (
            kept is not None
            and len(kept[0]) == len(inputs)
            and all(a is b for a, b in zip(kept[0], inputs, strict=True))
        ):
            return kept[1]  # type: ignore[no-any-return]
        value = compute()
        self.memo[key] = (inputs, value)
        return value

    @property
    def index(self) -> TreeIndex:
        """The module's one shared pass: every node in pre-order, by type, with its
        enclosing scope (``analysis.walk.TreeIndex``), built on first use. Every
        ``find_indexed`` and ``run_visitor`` on a node of this tree is answered from it."""
        if self._index is None:
            self._index = tree_index(self.tree)
        return self._index

    def calls_to(self, *names: str) -> list[cst.Call]:
        """Every call whose callee is one of the qualified ``names`` through imports
        (``qualified_name``; ``Agent[Ctx](...)`` counts as ``Agent(...)``), in source
        order: the index's calls, grouped by callee once per module."""
        table = self._calls_by_callee
        if table is None:
            table = self._calls_by_callee = {}
            for call in self.index.find(self.tree, (cst.Call,), nested=True):
                assert isinstance(call, cst.Call)
                func = call.func
                if isinstance(func, cst.Subscript):
                    func = func.value
                name = self.qualified_name(func)
                if name is not None:
                    table.setdefault(name, []).append(call)
        if len(names) == 1:
            return list(table.get(names[0], ()))
        found = [call for name in dict.fromkeys(names) for call in table.get(name, ())]
        return self.index.in_order(found)

    # ------------------------------------------------------------------ names

    def qualified_name(self, node: cst.BaseExpression) -> str | None:
        """The qualified name an expression refers to through imports, if certain.

        ``ActionResult`` → ``browser_use.ActionResult`` after ``from browser_use
        import ActionResult``; ``views.ActionResult`` → ``browser_use.agent.views
        .ActionResult`` after ``from browser_use.agent import views``.
        """
        parts: list[str] = []
        while isinstance(node, cst.Attribute):
            parts.append(node.attr.value)
            node = node.value
        if not isinstance(node, cst.Name):
            return None
        base = node.value
        if base in self.shadowed:
            return None
        target = self.imports.get(base)
        if target is None:
            return None
        parts.append(target)
        return ".".join(reversed(parts))

    def is_builtin(self, node: cst.BaseExpression, name: str) -> bool:
        """Whether ``node`` is the builtin ``name``, not rebound in this module."""
        return (
            isinstance(node, cst.Name)
            and node.value == name
            and name not in self.local_names
            and name not in self.imports
        )

    def imports_module(self, prefix: str) -> bool:
        """Whether any import of this module names ``prefix`` or one of its submodules."""
        dotted = prefix + "."
        return any(
            target == prefix or target.startswith(dotted) for target in self.imports.values()
        ) or any(m == prefix or m.startswith(dotted) for m in self.star_imports)

    # -------------------------------------------------------------- positions

    def range_of(self, node: cst.CSTNode) -> CodeRange:
        """The node's range: 1-based lines, 0-based code-point columns, parentheses excluded.

        LibCST's ``PositionProvider`` regenerates the code of the whole module
        (about three parses' worth of time). Only the innermost statement that
        holds the node — a statement of the module or of an indented block, found
        in the shared index — is regenerated here, at its indentation, with a
        leaner position recorder (``analysis.positions``); its first line comes
        from CPython's own parser, which numbers lines the same way. Where that is
        not possible (a node outside any statement, source this Python cannot
        parse, a statement list the two parsers split differently) the whole
        module's positions are computed once.
        """
        if self._positions is None:
            self._positions = {}
        found = self._positions.get(node)
        if found is not None:
            return found
        if self._index is not None:
            original = self._index.original(node)
            if original is not node:  # a stand-in (``analysis.displays``)
                return self.range_of(original)
        located = self._locate(node)
        if located is None:
            self._positions.update(deep_if_needed(_module_positions, self.tree))
            return self._positions[node]
        statement, line, indents = located
        generated = self._statement_positions.get(id(statement))
        if generated is None:
            generated = self._statement_positions[id(statement)] = self._generate(
                statement, line, indents
            )
        ranges, shift = generated
        line, column, end_line, end_column = ranges[id(node)]
        where = CodeRange(
            CodePosition(line + shift, column), CodePosition(end_line + shift, end_column)
        )
        self._positions[node] = where
        return where

    def _generate(
        self, statement: cst.BaseStatement, line: int, indents: tuple[str, ...]
    ) -> tuple[dict[int, RawRange], int]:
        """The ranges of ``statement``'s nodes as if it began the file, and how many lines
        to add to them (its anchor is on ``line``).

        This is what ``PositionProvider`` does for a module, minus everything around the
        statement: generated at the indentation of the blocks that hold it, its columns
        do not depend on what precedes it.
        """
        ranges = statement_ranges(statement, self.tree, indents)
        anchor = (
            statement.name if isinstance(statement, (cst.FunctionDef, cst.ClassDef)) else statement
        )
        return ranges, line - ranges[id(anchor)][0]

    def _locate(self, node: cst.CSTNode) -> tuple[cst.BaseStatement, int, tuple[str, ...]] | None:
        """The innermost statement of the module's or an indented block's statement list
        that holds ``node``, the line of its anchor (``def``/``class`` line, else its first
        line) by CPython, and the indentation of each block around it; ``None`` when
        there is none or the two parsers disagree on a statement list on the way."""
        index = self.index
        if node not in index or self._python_body() is None:
            return None
        at, _ = index.span(node)
        statements: Sequence[cst.BaseStatement] = self.tree.body
        python: Sequence[ast.stmt] = self._python_body() or ()
        indents: tuple[str, ...] = ()
        found = None
        while True:
            picked = _pick(index, statements, python, at, self._statement_spans)
            if picked is None:
                return found
            statement, first = picked
            found = (statement, first.lineno, indents)
            if index.span(statement)[0] == at:
                return found
            inner = _inner_block(index, statement, first, at)
            if inner is None:
                return found
            block, python = inner
            statements = block.body
            default = self.tree.default_indent
            if isinstance(statement, cst.Match):  # the cases are a block of their own
                indents = (*indents, default if statement.indent is None else statement.indent)
            indent = block.indent
            indents = (*indents, default if indent is None else indent)

    def _python_body(self) -> list[ast.stmt] | None:
        """CPython's statements of the module; ``None`` when it cannot parse it."""
        if self._python_statements is None:
            try:
                tree = self._python_tree or python_tree(self.source)
                self._python_statements = tree.body
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                self._python_statements = False
        return self._python_statements or None

    def code_for(self, node: cst.CSTNode) -> str:
        return deep_if_needed(self.tree.code_for_node, node)

    def text_at(self, where: CodeRange) -> str:
        """The source text a range covers (rows split at ``\\n``, ``\\r\\n`` and ``\\r``, as
        LibCST and CPython split them)."""
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(self.source)]
        starts = self._line_starts

        def offset(position: CodePosition) -> int:
            line = min(max(position.line, 1), len(starts))
            return starts[line - 1] + position.column

        return self.source[offset(where.start) : offset(where.end)]

    def stands_where_reported(self, node: cst.BaseExpression) -> bool:
        """Whether the source text at ``node``'s range is the node's own code (whitespace
        aside): the check a fix must pass before it edits that range. A position that is
        wrong for any reason (a parser that dropped a line) fails it."""
        bare = node.with_changes(lpar=(), rpar=()) if getattr(node, "lpar", None) else node
        expected = "".join(self.code_for(bare).split())
        return "".join(self.text_at(self.range_of(node)).split()) == expected


_PYTHON_TRY_STAR: type[ast.stmt] | None = getattr(ast, "TryStar", None)


@dataclass(frozen=True)
class _Spans:
    """A statement list's pre-order spans, in order, and the index of CPython's first
    statement of each (a line of ``a; b`` is several)."""

    starts: list[int]
    ends: list[int]
    firsts: list[int]


def _pick(
    index: TreeIndex,
    statements: Sequence[cst.BaseStatement],
    python: Sequence[ast.stmt],
    at: int,
    cache: dict[int, _Spans | None],
) -> tuple[cst.BaseStatement, ast.stmt] | None:
    """The statement of ``statements`` whose subtree holds pre-order number ``at``, with
    CPython's first statement of it; ``None`` when no statement holds it or the two
    lists do not match statement for statement.

    Each list's spans are computed once (``cache``, by the list's ``id``: the lists are
    the tree's own tuples) and searched by bisection, so placing every finding of a
    file with thousands of statements stays linear in the findings."""
    key = id(statements)
    if key not in cache:
        cache[key] = _spans(index, statements, python)
    spans = cache[key]
    if spans is None:
        return None
    position = bisect.bisect_right(spans.starts, at) - 1
    if position < 0 or at >= spans.ends[position]:
        return None
    return statements[position], python[spans.firsts[position]]


def _spans(
    index: TreeIndex, statements: Sequence[cst.BaseStatement], python: Sequence[ast.stmt]
) -> _Spans | None:
    starts: list[int] = []
    ends: list[int] = []
    firsts: list[int] = []
    offset = 0
    for statement in statements:
        start, end = index.span(statement)
        starts.append(start)
        ends.append(end)
        firsts.append(offset)
        offset += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
    return _Spans(starts, ends, firsts) if offset == len(python) else None


def _inner_block(
    index: TreeIndex, statement: cst.BaseStatement, python: ast.stmt, at: int
) -> tuple[cst.IndentedBlock, Sequence[ast.stmt]] | None:
    """The indented block of compound ``statement`` that holds pre-order number ``at``,
    with CPython's statements of that block; ``None`` when ``at`` is in the header (or a
    one-line suite) or the two trees do not correspond."""
    for block, statements in _blocks(statement, python):
        if isinstance(block, cst.IndentedBlock):
            start, end = index.span(block)
            if start <= at < end:
                return block, statements
    return None


def _blocks(
    statement: cst.CSTNode, python: ast.AST
) -> Iterator[tuple[cst.BaseSuite, Sequence[ast.stmt]]]:
    """Each block of a compound statement with CPython's statement list for it, as far as
    the two trees agree on what the statement is."""
    if isinstance(statement, cst.FunctionDef):
        if isinstance(python, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield statement.body, python.body
    elif isinstance(statement, cst.ClassDef):
        if isinstance(python, ast.ClassDef):
            yield statement.body, python.body
    elif isinstance(statement, cst.If):
        if isinstance(python, ast.If):
            yield statement.body, python.body
            orelse = statement.orelse
            if isinstance(orelse, cst.Else):
                yield orelse.body, python.orelse
            elif isinstance(orelse, cst.If) and len(python.orelse) == 1:
                yield from _blocks(orelse, python.orelse[0])  # ``elif``
    elif isinstance(statement, (cst.For, cst.While)):
        if isinstance(python, (ast.For, ast.AsyncFor, ast.While)):
            yield statement.body, python.body
            if statement.orelse is not None:
                yield statement.orelse.body, python.orelse
    elif isinstance(statement, cst.With):
        if isinstance(python, (ast.With, ast.AsyncWith)):
            yield statement.body, python.body
    elif isinstance(statement, (cst.Try, cst.TryStar)):
        if isinstance(python, ast.Try) or (
            _PYTHON_TRY_STAR is not None and isinstance(python, _PYTHON_TRY_STAR)
        ):
            handlers = python.handlers  # type: ignore[attr-defined]
            yield statement.body, python.body  # type: ignore[attr-defined]
            ours: Sequence[cst.ExceptHandler | cst.ExceptStarHandler] = statement.handlers
            if len(ours) == len(handlers):
                for handler, python_handler in zip(ours, handlers, strict=True):
                    yield handler.body, python_handler.body
            if statement.orelse is not None:
                yield statement.orelse.body, python.orelse  # type: ignore[attr-defined]
            if statement.finalbody is not None:
                yield statement.finalbody.body, python.finalbody  # type: ignore[attr-defined]
    elif (
        isinstance(statement, cst.Match)
        and isinstance(python, getattr(ast, "Match", ()))
        and len(statement.cases) == len(python.cases)  # type: ignore[attr-defined]
    ):
        for case, python_case in zip(statement.cases, python.cases, strict=True):  # type: ignore[attr-defined]
            yield case.body, python_case.body


def _module_positions(tree: cst.Module) -> Mapping[cst.CSTNode, CodeRange]:
    return MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)


class UnparsableSource(cst.ParserSyntaxError):  # type: ignore[misc]
    """Source that yields no tree though LibCST reported no syntax error of its own:
    valid Python its parser rejects (``x in.5``: ``CSTValidationError``), text it
    cannot encode (lone surrogates), nesting beyond the recursion limit, an expression
    too long to parse in bounded time (``parse_limits``).

    A ``ParserSyntaxError`` so that every caller that handles one (the engine's
    TRV001, the runner's parse for index facts) handles this too; ``message`` is the
    whole TRV001 message and ``raw_line``/``raw_column`` its position (1-based line,
    0-based column).
    """

    def __init__(self, message: str, raw_line: int = 1, raw_column: int = 0) -> None:
        super().__init__(message, lines=("",), raw_line=raw_line, raw_column=raw_column)

    def __str__(self) -> str:
        return self.message


TOO_DEEP = "File is too deeply nested to parse"

MAX_SOURCE = 2 * 1024 * 1024
"""The most characters of code toolret parses in one file (2 MiB), not counting blank
lines and lines that hold only a comment. A LibCST tree and the analyses over it take
up to about a thousand bytes of memory per character of dense code (2 GB at the limit;
10,000 tool functions are 1 to 2 MB); a larger file — in practice generated data, not
tool code — is one TRV001 instead, so no file can take the machine's memory."""

_BLANK_OR_COMMENT_LINE = re.compile(r"^[ \t\f]*(?:#[^\r\n]*)?(?:\r\n|\r|\n)", re.MULTILINE)


def code_size(source: str) -> int:
    """The characters of ``source`` outside blank and comment-only lines (a line inside a
    string that looks like one is not counted either: this is a bound, not a count)."""
    if len(source) <= MAX_SOURCE:
        return len(source)
    return len(source) - sum(len(m.group()) for m in _BLANK_OR_COMMENT_LINE.finditer(source))


_T = TypeVar("_T")


def parse_module(source: str, path: str, *, python: ast.Module | None = None) -> ParsedModule:
    """Parse ``source`` and index its module level (``python``: CPython's tree of it, when
    the caller has it already).

    Raises ``libcst.ParserSyntaxError`` (``UnparsableSource`` for every other reason
    there is no tree), never anything else for any text.
    """
    size = code_size(source)
    if size > MAX_SOURCE:
        raise UnparsableSource(
            f"File too large to analyse: {size:,} characters of code, more than toolret's "
            f"limit of {MAX_SOURCE:,} (2 MiB); file skipped"
        )
    python_tree = check_parse_cost(source, python if python is not None else cpython_tree(source))
    try:
        tree = _parse_unvalidated(libcst_source(source, python_tree))
    except cst.ParserSyntaxError:
        raise
    except RecursionError:
        raise UnparsableSource(TOO_DEEP) from None
    except UnicodeError as error:  # LibCST encodes the text: a lone surrogate
        raise _unencodable(source, error) from None
    except Exception as error:  # CSTValidationError (valid Python), or anything else
        raise UnparsableSource(
            f"LibCST cannot parse this file: {type(error).__name__}: {error}"
        ) from None
    module = ParsedModule(path=path, source=source, tree=tree, _python_tree=python_tree)
    try:
        _index_module(module)
    except RecursionError:
        raise UnparsableSource(TOO_DEEP) from None
    return module


def _no_validation(self: CSTNode) -> None:
    """``CSTNode.__post_init__`` while the parser builds a tree: nothing to check."""


_VALIDATED = CSTNode.__post_init__


def _parse_unvalidated(source: str) -> cst.Module:
    """``cst.parse_module`` without LibCST's per-node validation.

    Every node's ``__post_init__`` re-checks what the native parser has just proven (a
    third of the parse's time, measured on tool-heavy code); LibCST's own comment there
    says validation could move out of parsing. Without it, valid Python the
    validators reject (``x in.5``, ``not.5``) parses too. Nodes built by code — a fix,
    a codemod — are still validated: the check is off only while the parser runs.
    """
    CSTNode.__post_init__ = _no_validation  # type: ignore[method-assign]
    try:
        return cst.parse_module(source)
    finally:
        CSTNode.__post_init__ = _VALIDATED  # type: ignore[method-assign]


def _unencodable(source: str, error: UnicodeError) -> UnparsableSource:
    """CPython's SyntaxError for text with a lone surrogate, where the first one is."""
    start = getattr(error, "start", None)
    if not isinstance(start, int) or getattr(error, "object", None) != source:
        found = _SURROGATE.search(source)
        start = found.start() if found is not None else 0
    line_start = 0
    line = 1
    for match in _LINE_BREAK.finditer(source, 0, start):
        line += 1
        line_start = match.end()
    return UnparsableSource(f"SyntaxError: {error}", line, start - line_start)


_SURROGATE = re.compile("[\ud800-\udfff]")

MAX_CHAIN = 700
"""The longest operator chain (``a + b + …``) toolret hands to LibCST (see
``check_parse_cost``); the rules' own recursion also handles this much."""

MAX_TRAILERS = 500
"""The longest trailer chain (``x[0][0]…``, ``a.b().c()…``), several times costlier."""

# The characters a link of each kind of chain holds at least one of.
_CHAIN_CHARACTERS: tuple[tuple[str, ...], ...] = (
    ("+", "-"),
    ("*", "/", "%", "@"),
    ("|",),
    ("^",),
    ("&",),
    ("<<", ">>"),
    (".", "(", "["),
)
_LEVEL: dict[type[ast.operator], int] = {
    ast.Add: 0, ast.Sub: 0,
    ast.Mult: 1, ast.Div: 1, ast.FloorDiv: 1, ast.Mod: 1, ast.MatMult: 1,
    ast.BitOr: 2, ast.BitXor: 3, ast.BitAnd: 4, ast.LShift: 5, ast.RShift: 5,
}  # fmt: skip
_TRAILERS = 6


def cpython_tree_quietly(source: str) -> ast.Module | None:
    """CPython's tree of ``source``, or ``None`` for anything it does not parse."""
    try:
        return python_tree(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def cpython_tree(source: str) -> ast.Module | None:
    """CPython's tree of ``source`` (kept: the positions use it), or ``None`` when this
    Python cannot parse it and LibCST is to decide (syntax newer than this interpreter,
    or an error LibCST reports too). What no Python accepts — bad indentation (which
    LibCST accepts in places: a file starting with an indented backslash line, whose
    positions it then gets wrong), nesting beyond CPython's limits (``too many nested
    parentheses`` at 200 levels), code too deep for its compiler — is refused here,
    before LibCST spends seconds on it and the analysis recurses as deep."""
    try:
        return python_tree(source, confirm=False)  # syntax newer than this Python too
    except SyntaxError as error:
        # No newer Python accepts what these say: bad indentation, nesting past the limits.
        if not isinstance(error, IndentationError) and not error.msg.startswith(_NESTING_LIMITS):
            return None
        line = error.lineno or 1
        raise UnparsableSource(
            f"SyntaxError: {error.msg}", line, _column(source, line, (error.offset or 1) - 1)
        ) from None
    except ValueError:  # a null byte: LibCST's error says where
        return None
    except (RecursionError, MemoryError):
        raise UnparsableSource(_TOO_COMPLEX) from None


_NESTING_LIMITS: Final = ("too many nested", "too many statically nested")
_TOO_COMPLEX = (
    "SyntaxError: too deeply nested for CPython to compile (maximum recursion depth "
    "exceeded during compilation)"
)


def check_parse_cost(source: str, tree: ast.Module | None) -> ast.Module | None:
    """Refuse (``UnparsableSource``) source LibCST's parser would take too long on.

    LibCST parses a left-recursive chain (``1 + 1 + …``, ``a.b().c()…``, ``x[0][0]…``)
    in time quadratic in its length: 1,500 terms take seconds, 4,000 minutes. Here a
    chain may have at most ``MAX_CHAIN`` links (``MAX_TRAILERS`` for trailers), and the
    chains of one kind longer than a tenth of that twice its square in squared links:
    about a second of parsing at most for a file's chains of each kind (see
    ``benchmarks/chain_bound.py``). A chain of *n* links holds *n* of its kind's
    characters, so a file with fewer than the limit of each kind is passed by counting (C
    speed, every file); only a file with more is parsed by CPython (fast on any chain)
    to measure its chains (``tree``, CPython's, which is returned). Source this Python
    cannot parse goes to LibCST unmeasured.
    """
    if len(source) < MAX_TRAILERS or all(
        sum(source.count(c) for c in chars) < (MAX_TRAILERS if kind == _TRAILERS else MAX_CHAIN)
        for kind, chars in enumerate(_CHAIN_CHARACTERS)
    ):
        return tree
    if tree is None:
        return None  # LibCST decides (newer syntax than this Python's, or an error)
    work = [0] * (_TRAILERS + 1)
    continued: set[int] = set()
    for node in nodes_of(tree):  # parents first: a chain is met at its outermost link
        kind = _chain_kind(node)
        if kind is None or id(node) in continued:
            continue
        length = 0
        link: ast.AST | None = node
        while link is not None and _chain_kind(link) == kind:
            continued.add(id(link))
            length += 1
            link = _inner(link)
        limit = MAX_TRAILERS if kind == _TRAILERS else MAX_CHAIN
        if length > limit // 10:  # shorter chains cost what any code of their size does
            work[kind] += length * length
            if length > limit or work[kind] > 2 * limit * limit:
                what = "chain" if length > limit else "chain (with the file's others)"
                line, offset = getattr(node, "lineno", 1), getattr(node, "col_offset", 0)
                raise UnparsableSource(
                    f"Expression too long to analyse: this {what} of {length} operators "
                    f"or calls is more than LibCST parses in bounded time (its time grows "
                    f"with the square of a chain's length; limit {limit}); file skipped",
                    line,
                    _column(source, line, offset),
                )
    return tree


def _column(source: str, line: int, offset: int) -> int:
    """The code-point column of UTF-8 byte ``offset`` on ``line`` (CPython's ``col_offset``)."""
    text = source_line(source, line)
    return len(text.encode("utf-8", "surrogatepass")[:offset].decode("utf-8", "replace"))


def source_line(source: str, line: int) -> str:
    """Line ``line`` (1-based) as CPython counts lines (``\\n``, ``\\r\\n``, ``\\r``), without
    its line break; ``""`` past the end (CPython reports an error at EOF one line on)."""
    if line < 1:
        return ""
    lines = _LINE_BREAK.split(source, maxsplit=line)
    return lines[line - 1] if line <= len(lines) else ""


def _chain_kind(node: ast.AST) -> int | None:
    if isinstance(node, ast.BinOp):
        return _LEVEL.get(type(node.op))
    if isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        return _TRAILERS
    return None


def _inner(node: ast.AST) -> ast.AST | None:
    if isinstance(node, ast.BinOp):
        return node.left
    if isinstance(node, ast.Call):
        return node.func
    return getattr(node, "value", None)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BLANK_CONTINUATION = re.compile(r"(?:^|(?<=[\r\n]))[ \t\f]*\\(?=\r\n|\r|\n)")
"""A line holding nothing but a backslash continuation (and whitespace before it)."""


def libcst_source(source: str, python_tree: ast.Module | None) -> str:
    """``source`` as LibCST must be given it for its positions to be CPython's.

    LibCST drops a line that holds only a backslash continuation: the code it
    generates then lacks that line, every later position is one row early, and a fix
    would edit the line above the finding. CPython reads such a line as blank (the next
    line's indentation counts), so it is made blank here — same rows, same columns.
    ``python_tree`` (CPython's tree of ``source``) says which lines are inside a string
    literal, where the backslash belongs to the string and stays; without it (CPython
    cannot parse the file) nothing is changed.
    """
    if "\\" not in source or python_tree is None:
        return source
    candidates = _BLANK_CONTINUATION.search(source)
    if candidates is None:
        return source
    in_strings: list[tuple[int, int]] = [
        (node.lineno, node.end_lineno or node.lineno)
        for node in nodes_of(python_tree)  # iterative: any depth
        if isinstance(node, (ast.Constant, ast.JoinedStr))
        and (node.end_lineno or node.lineno) > node.lineno
    ]
    line_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(source)]

    def blank(match: re.Match[str]) -> str:
        line = bisect.bisect_right(line_starts, match.start())
        if any(first < line <= last for first, last in in_strings):
            return match.group(0)
        return match.group(0)[:-1] + " "

    return _BLANK_CONTINUATION.sub(blank, source)


def _index_module(module: ParsedModule) -> None:
    assignments: dict[str, list[cst.BaseExpression | None]] = {}
    imported: set[str] = set()
    for stmt in _module_level_statements(module.tree.body):
        if isinstance(stmt, cst.FunctionDef):
            module.functions[stmt.name.value] = stmt
            module.local_names.add(stmt.name.value)
        elif isinstance(stmt, cst.ClassDef):
            module.classes[stmt.name.value] = stmt
            module.local_names.add(stmt.name.value)
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                _index_small_statement(module, small, assignments, imported)
        elif isinstance(stmt, (cst.For, cst.With)):
            for name in _bound_names_of_compound(stmt):
                module.local_names.add(name)
                assignments.setdefault(name, []).append(None)
    for name in _none_fallbacks(module.tree.body):
        # ``try: from pkg import tool`` / ``except ImportError: tool = None``: where the
        # name is used (a decorator, a call) it is the import, or the module fails there;
        # bound any other way too (a ``def``, another assignment), it stays unknown
        if (
            name in imported
            and len(assignments.get(name, ())) == 1
            and name not in module.functions
            and name not in module.classes
        ):
            module.local_names.discard(name)
            del assignments[name]
    for name, values in assignments.items():
        if len(values) == 1 and values[0] is not None:
            module.constants[name] = values[0]
    # A name bound both by an import and by a local definition is unknown.
    module.shadowed = imported & module.local_names
    for name in module.shadowed:
        module.constants.pop(name, None)


_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


def _none_fallbacks(body: Sequence[cst.CSTNode]) -> set[str]:
    """Names a top-level ``try`` imports (``from pkg import name``) that its ``except
    ImportError`` (or ``ModuleNotFoundError``) handler sets to ``None``: an optional
    import."""
    found: set[str] = set()
    for stmt in body:
        if not isinstance(stmt, cst.Try):
            continue
        in_try = {
            _asname(alias) or _dotted(alias.name)
            for line in stmt.body.body
            if isinstance(line, cst.SimpleStatementLine)
            for small in line.body
            if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar)
            for alias in small.names
        }
        for handler in stmt.handlers:
            if not _catches_import_error(handler):
                continue
            for line in handler.body.body:
                if not isinstance(line, cst.SimpleStatementLine):
                    continue
                for small in line.body:
                    if (
                        isinstance(small, cst.Assign)
                        and isinstance(small.value, cst.Name)
                        and small.value.value == "None"
                    ):
                        found.update(
                            t.target.value
                            for t in small.targets
                            if isinstance(t.target, cst.Name) and t.target.value in in_try
                        )
    return found


def _catches_import_error(handler: cst.ExceptHandler) -> bool:
    caught = handler.type
    names = [e.value for e in caught.elements] if isinstance(caught, cst.Tuple) else [caught]
    return caught is not None and all(
        isinstance(n, cst.Name) and n.value in _IMPORT_ERRORS for n in names
    )


def _module_level_statements(body: Sequence[cst.CSTNode]) -> Iterator[cst.CSTNode]:
    """Module-level statements, descending into top-level ``if``/``try``/``else`` blocks."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, cst.If):
            yield from _module_level_statements(stmt.body.body)
            orelse = stmt.orelse
            while orelse is not None:
                yield from _module_level_statements(orelse.body.body)
                orelse = orelse.orelse if isinstance(orelse, cst.If) else None
        elif isinstance(stmt, cst.Try):
            yield from _module_level_statements(stmt.body.body)
            for handler in stmt.handlers:
                yield from _module_level_statements(handler.body.body)
            if stmt.orelse is not None:
                yield from _module_level_statements(stmt.orelse.body.body)
            if stmt.finalbody is not None:
                yield from _module_level_statements(stmt.finalbody.body.body)


def _index_small_statement(
    module: ParsedModule,
    small: cst.BaseSmallStatement,
    assignments: dict[str, list[cst.BaseExpression | None]],
    imported: set[str],
) -> None:
    if isinstance(small, cst.Import):
        for alias in small.names:
            dotted = _dotted(alias.name)
            if alias.asname is not None:
                local = _asname(alias)
                if local is not None:
                    module.imports[local] = dotted
                    imported.add(local)
            else:
                top = dotted.split(".", 1)[0]
                module.imports[top] = top
                imported.add(top)
    elif isinstance(small, cst.ImportFrom):
        base = "" if small.module is None else _dotted(small.module)
        if small.relative:
            base = "." * len(small.relative) + base
        if isinstance(small.names, cst.ImportStar):
            module.star_imports.append(base)
            return
        for alias in small.names:
            name = _dotted(alias.name)
            local = _asname(alias) or name
            sep = "" if base.endswith(".") else "."
            module.imports[local] = f"{base}{sep}{name}"
            imported.add(local)
    elif isinstance(small, cst.Assign):
        for target in small.targets:
            for name, value in _assigned_names(target.target, small.value, len(small.targets)):
                module.local_names.add(name)
                assignments.setdefault(name, []).append(value)
    elif isinstance(small, cst.AnnAssign):
        if isinstance(small.target, cst.Name):
            module.local_names.add(small.target.value)
            if small.value is not None:
                assignments.setdefault(small.target.value, []).append(small.value)
    elif isinstance(small, cst.AugAssign):
        if isinstance(small.target, cst.Name):
            module.local_names.add(small.target.value)
            assignments.setdefault(small.target.value, []).append(None)
    elif isinstance(small, (cst.Global, cst.Nonlocal)):
        for name_item in small.names:
            assignments.setdefault(name_item.name.value, []).append(None)


def _assigned_names(
    target: cst.BaseAssignTargetExpression, value: cst.BaseExpression, n_targets: int
) -> Iterator[tuple[str, cst.BaseExpression | None]]:
    if isinstance(target, cst.Name):
        yield target.value, value
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            inner = element.value
            if isinstance(inner, cst.Name):
                yield inner.value, None
            elif isinstance(inner, (cst.Tuple, cst.List)):
                yield from ((n, None) for n, _ in _assigned_names(inner, value, n_targets))
    elif isinstance(target, cst.StarredElement) and isinstance(target.value, cst.Name):
        yield target.value.value, None


def _bound_names_of_compound(stmt: cst.For | cst.With) -> Iterator[str]:
    if isinstance(stmt, cst.For):
        yield from _names_in_target(stmt.target)
    else:
        for item in stmt.items:
            if item.asname is not None:
                yield from _names_in_target(item.asname.name)


def _names_in_target(node: cst.BaseExpression) -> Iterator[str]:
    if isinstance(node, cst.Name):
        yield node.value
    elif isinstance(node, (cst.Tuple, cst.List)):
        for element in node.elements:
            yield from _names_in_target(element.value)
    elif isinstance(node, cst.StarredElement):
        yield from _names_in_target(node.value)


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _asname(alias: cst.ImportAlias) -> str | None:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    return None
