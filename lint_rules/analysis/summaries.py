"""Project facts: what a rule may ask about a function or class of another module.

Production code keeps a tool's collaborators in other modules: the error
helper that raises (``raise_tool_error(e)`` in ``errors.py``), the helper whose
value a tool returns (``return format_price(p)``), the exception class a tool
returns by mistake. Each module contributes a summary (:func:`summarise`) derived
from that module alone, with CPython's ``ast`` (LibCST only to confirm the stand-in
``analysis/syntax.py`` gives CPython for syntax newer than it reads):

* per top-level function and per method: whether it never returns, as a small
  formula over the calls that end its paths (``raise`` is *yes*, a call of
  another function is that function's answer, a call whose target is a
  parameter is *unknown*), ``async``, its decorators, and the shape its
  annotation (or its agreed literal return sites) promises;
* per class: its methods, its bases (to look a method up and to know an
  exception class);
* the module's imports, its module-level names bound once to a call (``agent =
  Agent(...)``), and the names it binds otherwise.

A :class:`SummaryStore` reads a summary when a rule first asks about a module
(lazily: a module nobody asks about is never read), resolves names through
``import`` / ``from … import`` — absolute and relative, ``__init__``
re-exports and alias chains, the importer's directory, the directory above the
package it is in, the project root and its ``src/`` — never by a bare name,
and evaluates the formulas to a fixed point across modules (a cycle is
*unknown*). Every answer is three-valued:
``True``, ``False`` or ``None`` (not certain: the rule stays silent).

The store records, per checked file, every file it read or looked for while
answering (with its stats, or ``None`` when it was absent): the result cache
keeps them beside the file's result and re-checks the file when one changes,
appears or goes; the language server re-checks the open files that read it.
"""

from __future__ import annotations

import ast
import builtins
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from lint_rules.analysis.syntax import python_tree
from lint_rules.fileio import read_regular

SUMMARY_SOURCE_LIMIT: Final = 4 * 1024 * 1024
"""A module larger than this is not summarised (its summary is unknown): no real
helper module is this large, and reading it once is all it may cost."""

_MAX_DEPTH: Final = 12
"""How many re-exports, alias steps and nested calls an answer may follow."""

NEVER_RETURNING: Final = frozenset(
    {
        "sys.exit",
        "os._exit",
        "os.abort",
        "typing.assert_never",
        "typing_extensions.assert_never",
        "pytest.fail",
        "pytest.skip",
        "pytest.exit",
        "pytest.xfail",
        "_pytest.outcomes.fail",
        "_pytest.outcomes.skip",
        "_pytest.outcomes.exit",
        "_pytest.outcomes.xfail",
    }
)
"""Third-party and standard-library functions that never return (RULES.md: Return
site). Every other function of a package outside the project returns."""

_NEVER_RETURNING_BUILTINS: Final = frozenset({"exit", "quit"})
_BUILTINS: Final = frozenset(dir(builtins))
_BUILTIN_EXCEPTIONS: Final = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)
_NEVER_ANNOTATIONS: Final = frozenset({"NoReturn", "Never"})
_SHAPE_ANNOTATIONS: Final = {
    "str": "str",
    "int": "int",
    "float": "float",
    "bool": "bool",
    "bytes": "bytes",
    "dict": "dict",
    "list": "list",
    "tuple": "tuple",
    "set": "set",
    "frozenset": "set",
    "complex": "complex",
}
"""Builtin annotations whose shape a summary keeps (the kinds ``analysis.shapes`` knows)."""
_TYPING_SHAPES: Final = {
    "typing.Dict": "dict",
    "typing.List": "list",
    "typing.Tuple": "tuple",
    "typing.Set": "set",
    "typing.FrozenSet": "set",
}
_STDLIB: Final = frozenset(getattr(sys, "stdlib_module_names", ()))

Term = Any
"""A never-returns formula (JSON): ``True``, ``False``, ``None`` (unknown),
``["call", ref]``, ``["any", [terms]]`` (a sequence: one that never completes ends
it) or ``["all", [terms]]`` (branches: each must end). A ``ref`` is
``["name", "a.b"]`` (a dotted name of the module) or ``["self", "method"]``."""


# ------------------------------------------------------------------ summarising


class _Lazy(Mapping[str, Any]):
    """Name → facts, each computed from its node when first asked (most of a module's
    functions are never asked about)."""

    def __init__(self, make: dict[str, Callable[[], Any]]) -> None:
        self._make = make
        self._done: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._done:
            self._done[name] = self._make[name]()
        return self._done[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._make)

    def __len__(self) -> int:
        return len(self._make)


def summarise(tree: ast.Module) -> dict[str, Any]:
    """The summary of one module (see the module docstring): its module level is read
    now, each function's and class's facts when first asked."""
    imports: dict[str, str] = {}
    bound: set[str] = set()
    functions: dict[str, Callable[[], Any]] = {}
    classes: dict[str, Callable[[], Any]] = {}
    defined: dict[str, int] = {}
    values: dict[str, str] = {}
    assigned: dict[str, int] = {}
    for stmt in _module_level(tree.body):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions[stmt.name] = _later(_function, stmt, None)
            defined[stmt.name] = defined.get(stmt.name, 0) + 1
        elif isinstance(stmt, ast.ClassDef):
            classes[stmt.name] = _later(_class, stmt)
            defined[stmt.name] = defined.get(stmt.name, 0) + 1
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname is not None:
                    imports[alias.asname] = alias.name
                else:
                    top = alias.name.split(".", 1)[0]
                    imports[top] = top
        elif isinstance(stmt, ast.ImportFrom):
            base = "." * stmt.level + (stmt.module or "")
            for alias in stmt.names:
                if alias.name == "*":
                    bound.add("*")
                    continue
                sep = "" if base.endswith(".") or not base else "."
                imports[alias.asname or alias.name] = f"{base}{sep}{alias.name}"
        elif not isinstance(stmt, (ast.If, ast.Try, ast.Expr)):
            names = list(_bound_names(stmt))
            for name in names:
                assigned[name] = assigned.get(name, 0) + 1
            called = _assigned_call(stmt)
            if called is not None:
                values[called[0]] = called[1]
            bound.update(names)
    # A name bound twice (two ``def``s, an import and a ``def``, a ``def`` then an
    # assignment) is whatever runs last: unknown.
    ambiguous = {n for n, count in defined.items() if count > 1}
    ambiguous |= (set(functions) | set(classes)) & (set(imports) | bound)
    ambiguous |= set(imports) & bound
    return {
        "functions": _Lazy({n: f for n, f in functions.items() if n not in ambiguous}),
        "classes": _Lazy({n: c for n, c in classes.items() if n not in ambiguous}),
        "imports": {n: q for n, q in imports.items() if n not in ambiguous},
        "values": {
            n: c
            for n, c in values.items()
            if assigned.get(n) == 1 and n not in ambiguous and n not in functions
        },
        "bound": frozenset(bound | ambiguous),
    }


def _assigned_call(stmt: ast.stmt) -> tuple[str, str] | None:
    """``(name, callee)`` of ``name = callee(...)`` (``name: T = callee(...)``)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target, value = stmt.targets[0], stmt.value
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        target, value = stmt.target, stmt.value
    else:
        return None
    if isinstance(value, ast.Await):
        value = value.value
    if not isinstance(target, ast.Name) or not isinstance(value, ast.Call):
        return None
    func = value.func.value if isinstance(value.func, ast.Subscript) else value.func
    callee = _dotted(func)
    return None if callee is None else (target.id, callee)


def _later(make: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    return lambda: make(*args)


def _module_level(body: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements, descending into top-level ``if``/``try`` blocks."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from _module_level(stmt.body)
            yield from _module_level(stmt.orelse)
        elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            yield from _module_level(stmt.body)  # type: ignore[attr-defined]
            for handler in stmt.handlers:  # type: ignore[attr-defined]
                yield from _module_level(handler.body)
            yield from _module_level(stmt.orelse)  # type: ignore[attr-defined]
            yield from _module_level(stmt.finalbody)  # type: ignore[attr-defined]


def _bound_names(stmt: ast.stmt) -> Iterator[str]:
    """The names a module-level statement binds (only its targets are walked for a
    simple assignment: a large literal costs nothing)."""
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            yield from _bound_names(ast.Expr(target))
        return
    if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        yield from _bound_names(ast.Expr(stmt.target))
        return
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name


def _class(node: ast.ClassDef) -> dict[str, Any]:
    methods: dict[str, Callable[[], Any]] = {}
    twice: set[str] = set()
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if stmt.name in methods:
                twice.add(stmt.name)
            methods[stmt.name] = _later(_function, stmt, node.name)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            twice.update(_bound_names(stmt))
    bases = [_dotted(b) for b in node.bases]
    return {
        "methods": _Lazy({n: m for n, m in methods.items() if n not in twice}),
        "bases": [b for b in bases if b is not None],
        "opaque": len(bases) != sum(1 for b in bases if b is not None)
        or any(k.arg == "metaclass" for k in node.keywords),
    }


def _function(node: ast.FunctionDef | ast.AsyncFunctionDef, owner: str | None) -> dict[str, Any]:
    decorators = [_dotted(d) or "?" for d in node.decorator_list]
    kind = "function"
    if owner is not None:
        kind = "method"
        if "staticmethod" in decorators:
            kind = "static"
        elif "classmethod" in decorators:
            kind = "class"
    params = _parameters(node.args)
    receiver = params[0] if kind in ("method", "class") and params else None
    flow = _Flow(set(params) | _locals(node), receiver)
    never: Term = flow.block(node.body, leaving=False)
    if flow.returns or flow.yields:
        never = False
    annotation = node.returns
    if annotation is not None and _annotation_name(annotation) in _NEVER_ANNOTATIONS:
        never = True
    shape = _annotation_shape(annotation) if annotation is not None else None
    if annotation is None and not flow.yields:
        shape = _agreed_shape(node)
    other = [d for d in decorators if d not in ("staticmethod", "classmethod")]
    return {
        "returned": _returned_callee(node) if annotation is None else None,
        "async": isinstance(node, ast.AsyncFunctionDef),
        "never": _simplify(never),
        "shape": shape,
        "generator": flow.yields,
        "kind": kind,
        "decorated": bool(other),
        "line": node.lineno,
    }


def _parameters(args: ast.arguments) -> list[str]:
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if args.vararg is not None:
        names.append(args.vararg.arg)
    if args.kwarg is not None:
        names.append(args.kwarg.arg)
    return names


def _locals(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names the function binds itself (a call of one is a call of a run-time value)."""
    found: set[str] = set()
    for child in _own_nodes(node.body):
        if isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
            found.add(child.id)
        elif isinstance(child, (ast.Global, ast.Nonlocal)):
            found.update(child.names)
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(child.name)
        elif isinstance(child, (ast.Import, ast.ImportFrom)):
            found.update((a.asname or a.name).split(".", 1)[0] for a in child.names)
        elif isinstance(child, ast.ExceptHandler) and child.name:
            found.add(child.name)
    return found


def _own_nodes(body: Iterable[ast.AST]) -> Iterator[ast.AST]:
    """Every node of ``body`` outside nested functions, classes and lambdas (their own
    ``def``/``class`` statements included)."""
    stack = list(body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))


class _Flow:
    """A function body's never-returns formula (``leaving=True``: whether every path
    ends in ``return`` or ``raise``, calls not considered — for the agreed shape)."""

    def __init__(self, local: set[str], receiver: str | None) -> None:
        self.local = local
        self.receiver = receiver
        self.returns = False
        self.yields = False

    def block(self, body: Iterable[ast.stmt], leaving: bool) -> Term:
        terms: list[Term] = []
        for stmt in body:
            term = self.statement(stmt, leaving)
            if term is True:
                terms.append(True)
                break
            if term is not False:
                terms.append(term)
        return ["any", terms] if terms else False

    def statement(self, stmt: ast.stmt, leaving: bool) -> Term:
        self._scan(stmt)
        if isinstance(stmt, ast.Raise):
            return True
        if isinstance(stmt, ast.Return):
            return leaving
        if isinstance(stmt, ast.Assert):
            return isinstance(stmt.test, ast.Constant) and not stmt.test.value
        if isinstance(stmt, ast.Expr):
            if leaving:
                return False
            awaited = isinstance(stmt.value, ast.Await)
            value = stmt.value.value if isinstance(stmt.value, ast.Await) else stmt.value
            return self.call(value, awaited) if isinstance(value, ast.Call) else False
        if isinstance(stmt, ast.If):
            return ["all", [self.block(stmt.body, leaving), self.block(stmt.orelse, leaving)]]
        if isinstance(stmt, ast.While):
            test = stmt.test
            return isinstance(test, ast.Constant) and bool(test.value) and not _breaks(stmt.body)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            return self.block(stmt.body, leaving)
        if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            body = self.block([*stmt.body, *stmt.orelse], leaving)  # type: ignore[attr-defined]
            handlers = [self.block(h.body, leaving) for h in stmt.handlers]  # type: ignore[attr-defined]
            final = self.block(stmt.finalbody, leaving)  # type: ignore[attr-defined]
            return ["any", [["all", [body, *handlers]], final]]
        if isinstance(stmt, ast.Match):
            cases = [self.block(case.body, leaving) for case in stmt.cases]
            exhaustive = any(
                case.guard is None and _irrefutable(case.pattern) for case in stmt.cases
            )
            return ["all", cases] if exhaustive else False
        return False

    def _scan(self, stmt: ast.stmt) -> None:
        if self.returns and self.yields:
            return
        for node in _own_nodes([stmt]):
            if isinstance(node, ast.Return):
                self.returns = True
            elif isinstance(node, (ast.Yield, ast.YieldFrom)):
                self.yields = True

    def call(self, call: ast.Call, awaited: bool) -> Term:
        func = call.func
        dotted = _dotted(func)
        if dotted is None:
            return False  # a method of a call's result, a subscript: an object's method
        head, _, rest = dotted.partition(".")
        if head == self.receiver and rest and "." not in rest:
            return ["call", ["self", rest], awaited]
        if head in self.local:
            # A parameter or a local value called: not known. A method of one returns.
            return None if not rest else False
        return ["call", ["name", dotted], awaited]


def _breaks(body: Iterable[ast.stmt]) -> bool:
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Break):
            return True
        if isinstance(
            node, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef)
        ):
            stack.extend(getattr(node, "orelse", ()))
            continue
        if isinstance(node, (ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def _irrefutable(pattern: ast.pattern) -> bool:
    if isinstance(pattern, ast.MatchAs):
        return pattern.pattern is None or _irrefutable(pattern.pattern)
    if isinstance(pattern, ast.MatchOr):
        return any(_irrefutable(p) for p in pattern.patterns)
    return False


def _simplify(term: Term) -> Term:
    """The formula with its constant parts folded (``True``/``False``/``None`` when no
    call decides it)."""
    if not isinstance(term, list) or term[0] == "call":
        return term
    op, parts = term
    folded = [_simplify(p) for p in parts]
    if op == "any":
        if any(p is True for p in folded):
            # Everything after a part that never completes is unreachable.
            folded = folded[: next(i for i, p in enumerate(folded) if p is True) + 1]
        folded = [p for p in folded if p is not False]
        if not folded:
            return False
        if folded == [True]:
            return True
    else:
        if any(p is False for p in folded):
            return False
        folded = [p for p in folded if p is not True]
        if not folded:
            return True
    return folded[0] if len(folded) == 1 else [op, folded]


def _annotation_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
    dotted = _dotted(node)
    return None if dotted is None else dotted.rsplit(".", 1)[-1]


def _annotation_shape(node: ast.expr) -> str | None:
    """What a return annotation names, for :meth:`SummaryStore.return_kind`:
    ``annotation:<dotted name>`` (``str``, ``dict`` of ``dict[str, int]``,
    ``typing.List``), ``literal:None`` for ``None``; ``None`` for anything else (a
    union, ``Optional[...]``, a string): unknown."""
    if isinstance(node, ast.Constant) and node.value is None:
        return "literal:none"
    if isinstance(node, ast.Subscript):
        node = node.value
    dotted = _dotted(node)
    return None if dotted is None else f"annotation:{dotted}"


def _agreed_shape(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The literal kind every return site of an unannotated function agrees on, when
    every path ends in ``return`` (``None`` otherwise)."""
    flow = _Flow(set(), None)
    if _simplify(flow.block(node.body, leaving=True)) is not True:
        return None
    kinds: set[str] = set()
    for child in _own_nodes(node.body):
        if isinstance(child, ast.Return):
            kind = _literal_kind(child.value)
            if kind is None:
                return None
            kinds.add(kind)
        elif isinstance(child, (ast.Yield, ast.YieldFrom)):
            return None
    return f"literal:{kinds.pop()}" if len(kinds) == 1 else None


def _returned_callee(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The dotted callee every return site's value is a call of: ``return Agent(...)``, or
    ``agent = Agent(...); ...; return agent`` (the name bound only so). A factory."""
    stores: dict[str, int] = {name: 1 for name in _parameters(node.args)}
    assigned: dict[str, str] = {}
    for child in _own_nodes(node.body):
        if isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
            stores[child.id] = stores.get(child.id, 0) + 1
        elif isinstance(child, (ast.Assign, ast.AnnAssign)):
            called = _assigned_call(child)
            if called is not None:
                assigned[called[0]] = called[1]
    calls = {name: callee for name, callee in assigned.items() if stores.get(name) == 1}
    found: set[str | None] = set()
    for child in _own_nodes(node.body):
        if isinstance(child, (ast.Yield, ast.YieldFrom)):
            return None
        if not isinstance(child, ast.Return):
            continue
        value = child.value
        if isinstance(value, ast.Await):
            value = value.value
        if isinstance(value, ast.Call):
            func = value.func.value if isinstance(value.func, ast.Subscript) else value.func
            found.add(_dotted(func))
        elif isinstance(value, ast.Name):
            found.add(calls.get(value.id))
        else:
            return None
    return found.pop() if len(found) == 1 else None


def _literal_kind(node: ast.expr | None) -> str | None:
    if node is None:
        return "none"
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None:
            return "none"
        for kind in (bool, int, float, complex, str, bytes):
            if type(value) is kind:
                return kind.__name__
        return None
    if isinstance(node, ast.JoinedStr):
        return "str"
    if isinstance(node, (ast.Dict, ast.DictComp)):
        return "dict"
    if isinstance(node, (ast.List, ast.ListComp)):
        return "list"
    if isinstance(node, (ast.Set, ast.SetComp)):
        return "set"
    if isinstance(node, ast.Tuple):
        return "tuple"
    return None


def _dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


# --------------------------------------------------------------- module files


def module_file(
    importer: str,
    parts: list[str],
    level: int,
    roots: Iterable[str],
    is_file: Callable[[str], bool],
) -> str | None:
    """The project file an import of ``parts`` (``level`` dots) in ``importer`` names:
    ``a/b.py`` or ``a/b/__init__.py`` under the importer's directory (relative imports:
    its package, ``level - 1`` levels up), else under a root or its ``src/`` (absolute
    imports). ``None`` when no such file exists."""
    if level:
        base = os.path.dirname(importer)
        for _ in range(level - 1):
            base = os.path.dirname(base)
        bases = [base]
    else:
        if not parts:
            return None
        bases = [os.path.dirname(importer)]
        for root in roots:
            bases.extend([root, os.path.join(root, "src")])
    for base in dict.fromkeys(bases):
        stem = os.path.join(base, *parts)
        candidates = [stem + ".py"] if parts else []
        candidates.append(os.path.join(stem, "__init__.py"))
        for candidate in candidates:
            if is_file(candidate):
                return candidate
    return None


# ---------------------------------------------------------------------- store

Stamp = tuple[int, int, int] | None
"""A file's ``(size, mtime_ns, inode)`` when it was read, ``None``: it was absent."""


@dataclass(frozen=True)
class Function:
    """A function or method of a project module, as its summary describes it."""

    path: str
    name: str
    owner: str | None
    """The class it is defined in (``None``: a top-level function)."""
    facts: Mapping[str, Any]

    @property
    def is_async(self) -> bool:
        return bool(self.facts.get("async"))

    @property
    def plain(self) -> bool:
        """Not decorated (``staticmethod``/``classmethod`` aside), not a generator."""
        return not self.facts.get("decorated") and not self.facts.get("generator")


@dataclass(frozen=True)
class Class:
    path: str
    name: str
    facts: Mapping[str, Any]


@dataclass(frozen=True)
class Value:
    """A module-level name of a project module bound once to a call's result."""

    path: str
    name: str
    callee: str
    """The dotted name called, as the module spells it (``Agent``, ``pydantic_ai.Agent``)."""


@dataclass(frozen=True)
class External:
    """A name of a module outside the project (``pydantic_ai.Agent``), fully qualified."""

    qualified: str


Target = Function | Class | Value | External


@dataclass
class _Answer:
    value: Any
    deps: frozenset[str]


@dataclass
class _Frame:
    """A question being answered: the files it read so far, whether it met a cycle."""

    key: tuple[Any, ...]
    deps: set[str] = field(default_factory=set)
    cyclic: bool = False


class SummaryStore:
    """The summaries of the modules rules ask about, read on first use.

    ``roots_of(path)`` gives the project roots an absolute import from ``path`` may
    resolve under (default: the project root of the file). A checked module is
    summarised from the text checked (:meth:`adopt`), not from the disk. Long-lived
    front ends call :meth:`refresh` before a check (summaries of files whose stats
    changed are read again) and :meth:`release` when a document closes.
    """

    def __init__(
        self,
        roots_of: Callable[[str], Iterable[str]] | None = None,
        *,
        reads_files: bool = True,
        keeps_checked: bool = False,
    ) -> None:
        self._roots_of = roots_of or _default_roots
        self.reads_files = reads_files
        """``False`` (flake8, which sees one file): no other module is read; a name
        imported from outside the standard library is then not known."""
        self.keeps_checked = keeps_checked
        """``True`` (the language server): a checked module's text stays what other
        modules see of it; else (a CLI run, where it is the file on disk) its tree is
        dropped after its check and a reader reads the file."""
        self._own: set[str] = set()
        self._roots: dict[str, tuple[str, ...]] = {}
        self._summaries: dict[str, dict[str, Any] | None] = {}
        self._stamps: dict[str, Stamp] = {}
        self._answers: dict[tuple[Any, ...], _Answer] = {}
        self.deps: dict[str, dict[str, Stamp]] = {}
        """Checked file → every file its answers read or looked for, with its stamp."""
        self.reads: dict[str, int] = {}
        """How many times each module was read and summarised (tests count it)."""
        self._frames: list[_Frame] = []
        self._trees: dict[str, ast.Module | None] = {}
        self._requesters: tuple[str, ...] = ()
        self.adoptions: dict[str, int] = {}
        """How many times each module was summarised from a checked text (``adopt``)."""
        self.changed: set[str] = set()
        """Modules whose summary a check replaced (``adopt``) since the front end last
        looked: the language server re-checks the open files that read them."""

    # -- what the front ends use

    def take_deps(self, path: str) -> dict[str, Stamp]:
        """The files the answers for ``path`` read since the last call (and forget them)."""
        return self.deps.pop(path, {})

    def refresh(self) -> None:
        """Forget every summary whose file changed on disk since it was read."""
        changed = [
            p for p, stamp in self._stamps.items() if p not in self._own and _stamp(p) != stamp
        ]
        if changed:
            self.forget(changed)
            self.changed.update(changed)

    def forget(self, paths: Iterable[str]) -> None:
        """Forget the summaries of ``paths`` (and every answer: they may have read them)."""
        for path in paths:
            self._summaries.pop(path, None)
            self._trees.pop(path, None)
            self._stamps.pop(path, None)
        self._answers.clear()

    def adopt(self, path: str, tree: ast.Module | None) -> None:
        """Summarise the module being checked from its own tree (already parsed): the text
        checked is what other modules see of it (the language server's unsaved buffer)."""
        self._own.add(path)
        self.adoptions[path] = self.adoptions.get(path, 0) + 1
        self._stamps.pop(path, None)
        if path not in self._summaries or not self.keeps_checked:
            self._summaries.pop(path, None)
            self._trees[path] = tree  # summarised if something asks
            return
        summary = None if tree is None else _summarise_quietly(tree)
        if self._summaries[path] == summary:
            return
        self._summaries[path] = summary
        self._answers.clear()
        self.changed.add(path)

    def release(self, path: str) -> None:
        """The module is no longer checked from a buffer: read it from the disk again."""
        if path in self._own:
            self._own.discard(path)
            self.forget([path])
            self.changed.add(path)

    # -- the queries

    def never_returns(self, importer: str, qualified: str, awaited: bool = False) -> bool | None:
        """Whether a call of the name ``qualified`` (as ``importer``'s imports spell it:
        ``pkg.errors.fail``, ``.errors.fail``) never returns: ``None`` when not certain."""
        if qualified in NEVER_RETURNING:
            return True
        found = self.resolve(importer, qualified)
        if isinstance(found, External):
            return False
        if isinstance(found, Class):
            return False  # instantiating returns
        if not isinstance(found, Function):
            return None
        return _awaited(found, awaited) and self.function_never_returns(found)

    def function_never_returns(self, function: Function) -> bool | None:
        key = ("never", function.path, function.owner, function.name)
        return self._answer(key, lambda: self._evaluate(function, function.facts["never"], 0))  # type: ignore[no-any-return]

    def resolve(self, importer: str, qualified: str) -> Target | object | None:
        """What an imported name refers to: a project :class:`Function`, :class:`Class`
        or :class:`Value`, an :class:`External` name (of a module outside the project,
        re-exports followed), or ``None`` (a project name that cannot be read or is none
        of these)."""
        key = ("resolve", importer, qualified)
        found: Target | object | None = self._answer(
            key, lambda: self._resolve(importer, qualified, 0)
        )
        return found

    def return_kind(self, function: Function) -> str | None:
        """The kind a call of ``function`` returns (``str``, ``int``, ``dict``, …,
        ``none``), from its annotation when it names a builtin of its module (or a
        ``typing`` alias), else from the literal kind its return sites agree on;
        ``None`` when not known (decorated, a generator, anything else)."""
        if not function.plain:
            return None
        shape = function.facts.get("shape")
        if not isinstance(shape, str):
            return None
        tag, _, name = shape.partition(":")
        if tag == "literal":
            return name
        summary = self.summary(function.path)
        if summary is None:
            return None
        head, _, rest = name.partition(".")
        if head in summary["imports"]:
            qualified = summary["imports"][head] + ("." + rest if rest else "")
            return _TYPING_SHAPES.get(qualified)
        if rest or _binds(summary, head):
            return None
        return _SHAPE_ANNOTATIONS.get(head)

    def class_of_call(self, importer: str, qualified: str) -> str | None:
        """The qualified class (outside the project) whose instance a call of the imported
        name returns: the class itself (``pydantic_ai.Agent``, re-exports followed), or
        what a project factory function returns — by its annotation, or by its return
        sites all being calls of one class (``agent = Agent(...); ...; return agent``).
        ``None`` when not known."""
        key = ("class-of-call", importer, qualified)
        found: str | None = self._answer(key, lambda: self._class_of_call(importer, qualified))
        return found

    def class_of_value(self, importer: str, qualified: str) -> str | None:
        """The qualified class (outside the project) of the object an imported name is
        bound to: ``agent = Agent(...)`` or ``agent = build_agent()`` at module level."""
        key = ("class-of-value", importer, qualified)
        found: str | None = self._answer(key, lambda: self._class_of_value(importer, qualified))
        return found

    def _class_of_call(self, importer: str, qualified: str) -> str | None:
        found = self.resolve(importer, qualified)
        if isinstance(found, External):
            return found.qualified
        if isinstance(found, Function) and found.plain and found.owner is None:
            return self._returned_class(found)
        return None

    def _class_of_value(self, importer: str, qualified: str) -> str | None:
        found = self.resolve(importer, qualified)
        if isinstance(found, Value):
            return self.class_of_callee(found.path, found.callee)
        return None

    def _returned_class(self, function: Function) -> str | None:
        shape = function.facts.get("shape")
        if isinstance(shape, str) and shape.startswith("annotation:"):
            found = self._name_in(function.path, shape[len("annotation:") :], 0)
            return found.qualified if isinstance(found, External) else None
        callee = function.facts.get("returned")
        return self.class_of_callee(function.path, callee) if isinstance(callee, str) else None

    def class_of_callee(self, path: str, dotted: str) -> str | None:
        """``class_of_call`` for a dotted name as module ``path`` spells it (an import,
        or a function of the module itself)."""
        summary = self.summary(path)
        if summary is None:
            return None
        head, _, rest = dotted.partition(".")
        if head in summary["imports"] and head not in summary["bound"]:
            return self.class_of_call(path, summary["imports"][head] + ("." + rest if rest else ""))
        found = self._name_in(path, dotted, 0)
        if isinstance(found, Function) and found.plain and found.owner is None:
            return self._returned_class(found)
        return None

    def is_exception_class(self, found: Class) -> bool | None:
        """Whether a project class derives from ``BaseException`` (``None``: not known)."""
        key = ("exception", found.path, found.name)
        return self._answer(key, lambda: self._exception(found, 0))  # type: ignore[no-any-return]

    def summary(self, path: str) -> dict[str, Any] | None:
        """The summary of one module file (``None``: absent, unreadable or unparsable)."""
        self._record(path)
        if path in self._summaries:
            return self._summaries[path]
        if path in self._trees:
            tree = self._trees.pop(path)
            own = self._summaries[path] = None if tree is None else _summarise_quietly(tree)
            return own
        summary: dict[str, Any] | None = None
        if not self.reads_files:
            return None
        try:
            self._stamps[path] = _stamp(path)
            data = read_regular(path, limit=SUMMARY_SOURCE_LIMIT)
            tree = python_tree(data)  # also code newer than this Python
            self.reads[path] = self.reads.get(path, 0) + 1
            summary = summarise(tree)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError, UnicodeError):
            summary = None
        self._summaries[path] = summary
        return summary

    # -- internals

    def _answer(self, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        known = self._answers.get(key)
        if known is None:
            if any(frame.key == key for frame in self._frames):
                for frame in self._frames:
                    frame.cyclic = True  # answers that lean on an open question are not kept
                return None  # a cycle: not certain
            frame = _Frame(key)
            self._frames.append(frame)
            try:
                value = compute()
            finally:
                self._frames.pop()
            known = _Answer(value, frozenset(frame.deps))
            if not frame.cyclic:
                self._answers[key] = known
        for path in known.deps:
            self._record(path)
        return known.value

    def _record(self, path: str) -> None:
        for frame in self._frames:
            frame.deps.add(path)
        if self._requesters:
            stamp = self._stamps[path] if path in self._stamps else _stamp(path)
            for requester in self._requesters:
                if requester != path:  # a file's own text is checked anyway
                    self.deps.setdefault(requester, {})[path] = stamp

    def _checked(self, path: str) -> None:
        """A check of ``path`` ended: unless checked text is kept, other modules read the
        file itself (the tree, and a summary holding its nodes, are let go)."""
        if not self.keeps_checked and path in self._own:
            self._own.discard(path)
            self._trees.pop(path, None)
            self._summaries.pop(path, None)

    def asking_for(self, path: str) -> _Asking:
        """``with store.asking_for(checked_file):`` — what is read is that file's."""
        return _Asking(self, path)

    def _is_file(self, path: str) -> bool:
        self._record(path)
        if path in self._own:
            return True
        if not self.reads_files:
            return False
        if path not in self._stamps:
            self._stamps[path] = _stamp(path)
        return self._stamps[path] is not None

    def _roots_for(self, importer: str) -> tuple[str, ...]:
        """Where an absolute import of ``importer`` may find a module: the directory
        above the package the importer is in (a package's parent is what ``sys.path``
        holds for it, whatever marker files the package itself contains), then the
        project roots and their ``src/``."""
        directory = os.path.dirname(importer)
        roots = self._roots.get(directory)
        if roots is None:
            found: list[str] = []
            if self.reads_files:
                above = directory
                while os.path.isfile(os.path.join(above, "__init__.py")):
                    parent = os.path.dirname(above)
                    if parent == above:
                        break
                    above = parent
                    found.append(above)
            found.extend(str(root) for root in self._roots_of(importer))
            roots = self._roots[directory] = tuple(dict.fromkeys(found))
        return roots

    def _resolve(self, importer: str, qualified: str, depth: int) -> Target | object | None:
        if depth > _MAX_DEPTH:
            return None
        level = len(qualified) - len(qualified.lstrip("."))
        parts = [p for p in qualified[level:].split(".") if p]
        if not parts:
            return None
        if not level and parts[0] in _STDLIB:
            return External(".".join(parts))  # the standard library, never searched for
        roots = self._roots_for(importer)
        # The longest prefix that is a module of the project; the rest are attributes.
        for cut in range(len(parts), -1 if level else 0, -1):
            file = module_file(importer, parts[:cut], level, roots, self._is_file)
            if file is not None:
                return self._attribute(file, parts[cut:], depth)
        if level:
            return None  # a relative import that finds nothing: not certain
        if parts[0] in _STDLIB:
            return External(".".join(parts))
        if not self.reads_files or self._first_party_directory(importer, parts[0], roots):
            return None  # maybe the project's, unread (flake8), or a namespace package
        return External(".".join(parts))

    def _first_party_directory(self, importer: str, top: str, roots: tuple[str, ...]) -> bool:
        """Whether a directory named ``top`` (a namespace package of the project) exists
        where an absolute import could find it: then a missing module is not certain."""
        bases = [os.path.dirname(importer)]
        for root in roots:
            bases.extend([root, os.path.join(root, "src")])
        return any(os.path.isdir(os.path.join(b, top)) for b in dict.fromkeys(bases))

    def _attribute(self, file: str, attrs: list[str], depth: int) -> Target | object | None:
        summary = self.summary(file)
        if summary is None or not attrs:
            return None
        head, rest = attrs[0], attrs[1:]
        if head in summary["functions"]:
            return Function(file, head, None, summary["functions"][head]) if not rest else None
        if head in summary["classes"]:
            facts = summary["classes"][head]
            if not rest:
                return Class(file, head, facts)
            if len(rest) == 1:
                return self._method(Class(file, head, facts), rest[0], depth + 1)
            return None
        target = summary["imports"].get(head)
        if target is not None:
            return self._resolve(file, ".".join([target, *rest]), depth + 1)
        callee = summary["values"].get(head)
        if callee is not None and not rest:
            return Value(file, head, callee)
        return None

    def _method(self, owner: Class, name: str, depth: int) -> Function | None:
        """A method by name, in the class or its project bases (``None``: not found in
        classes that can all be read)."""
        if depth > _MAX_DEPTH:
            return None
        methods = owner.facts["methods"]
        if name in methods:
            return Function(owner.path, name, owner.name, methods[name])
        if owner.facts.get("opaque"):
            return None
        for base in owner.facts["bases"]:
            found = self._name_in(owner.path, base, depth + 1)
            if not isinstance(found, Class):
                return None  # a base outside the project, or unknown: it may define it
            method = self._method(found, name, depth + 1)
            if method is not None:
                return method
        return None

    def _name_in(self, path: str, dotted: str, depth: int) -> Target | object | None:
        """What a dotted name of module ``path`` refers to (its own definitions first)."""
        summary = self.summary(path)
        if summary is None:
            return None
        head, _, rest = dotted.partition(".")
        if head in summary["bound"]:
            return None
        if head in summary["imports"]:
            qualified = summary["imports"][head] + ("." + rest if rest else "")
            return self._resolve(path, qualified, depth + 1)
        if head in summary["functions"] or head in summary["classes"]:
            return self._attribute(path, dotted.split("."), depth)
        if head in _BUILTINS:
            return _BUILTIN
        return None

    def _evaluate(self, function: Function, term: Term, depth: int) -> bool | None:
        if term is True or term is False or term is None:
            return term
        if depth > _MAX_DEPTH * 4:
            return None
        op = term[0]
        if op == "call":
            return self._call(function, term[1], bool(term[2]))
        values = [self._evaluate(function, t, depth + 1) for t in term[1]]
        if op == "any":
            if any(v is True for v in values):
                return True
            return None if any(v is None for v in values) else False
        if any(v is False for v in values):
            return False
        return None if any(v is None for v in values) else True

    def _call(self, function: Function, ref: list[str], awaited: bool) -> bool | None:
        kind, name = ref
        if kind == "self":
            if function.owner is None:
                return None
            return self.method_never_returns(function.path, function.owner, name, awaited)
        return self.name_never_returns(function.path, name, awaited)

    def name_never_returns(self, path: str, dotted: str, awaited: bool = False) -> bool | None:
        """Whether a call of ``dotted`` as module ``path`` spells it never returns: an
        import followed, a function or class of the module, a builtin (``exit``), a method
        of a module-level object (returns), anything else not known. A call of an
        ``async def`` that is not awaited returns (a coroutine)."""
        summary = self.summary(path)
        if summary is None:
            return None
        head = dotted.split(".", 1)[0]
        if head in summary["imports"]:
            qualified = summary["imports"][head] + dotted[len(head) :]
            return self.never_returns(path, qualified, awaited)
        found = self._name_in(path, dotted, 0)
        if found is _BUILTIN:
            return dotted in _NEVER_RETURNING_BUILTINS
        if isinstance(found, Function):
            return _awaited(found, awaited) and self.function_never_returns(found)
        if isinstance(found, Class):
            return False
        if head in summary["bound"] and "." in dotted and "*" not in summary["bound"]:
            return False  # a method of a module-level object
        return None

    def method_never_returns(
        self, path: str, owner: str, name: str, awaited: bool = False
    ) -> bool | None:
        """Whether ``self.name(...)`` in a method of class ``owner`` of ``path`` never
        returns: the method looked up in the class and its project bases."""
        summary = self.summary(path)
        facts = None if summary is None else summary["classes"].get(owner)
        if facts is None:
            return None
        method = self._method(Class(path, owner, facts), name, 0)
        if method is None:
            return None
        return _awaited(method, awaited) and self.function_never_returns(method)

    def _exception(self, found: Class, depth: int) -> bool | None:
        if depth > _MAX_DEPTH:
            return None
        if found.facts.get("opaque"):
            return None
        answers: list[bool | None] = []
        for base in found.facts["bases"]:
            if base in _BUILTIN_EXCEPTIONS:
                summary = self.summary(found.path)
                if summary is not None and not _binds(summary, base):
                    return True
            target = self._name_in(found.path, base, depth + 1)
            if isinstance(target, Class):
                answers.append(self._exception(target, depth + 1))
            elif target is _BUILTIN:
                answers.append(False)
            else:
                answers.append(None)
        if any(a is True for a in answers):
            return True
        return None if any(a is None for a in answers) else False


class _Asking:
    def __init__(self, store: SummaryStore, path: str) -> None:
        self.store, self.path = store, path

    def __enter__(self) -> None:
        self._previous = self.store._requesters
        self.store._requesters = (*self._previous, self.path)
        self.store.deps.setdefault(self.path, {})

    def __exit__(self, *exc: object) -> None:
        self.store._requesters = self._previous
        self.store._checked(self.path)


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


_BUILTIN: Final = _Marker("BUILTIN")


def _binds(summary: Mapping[str, Any], name: str) -> bool:
    """Whether a module binds ``name`` itself (then it is not the builtin)."""
    return (
        name in summary["bound"]
        or name in summary["imports"]
        or name in summary["functions"]
        or name in summary["classes"]
    )


def _awaited(function: Function, awaited: bool) -> bool:
    """Whether a call runs the function's body: an ``async def`` called without
    ``await`` returns a coroutine at once."""
    return awaited or not function.is_async


def _summarise_quietly(tree: ast.Module) -> dict[str, Any] | None:
    try:
        return summarise(tree)
    except RecursionError:
        return None


def _stamp(path: str) -> Stamp:
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    return (status.st_size, status.st_mtime_ns, status.st_ino)


def _default_roots(importer: str) -> tuple[str, ...]:
    from lint_rules.analysis.index import project_root

    return (str(project_root([Path(importer)])),)


def stamps_current(deps: Mapping[str, Any]) -> bool:
    """Whether every file of a recorded dependency list still has its recorded stamp."""
    for path, stamp in deps.items():
        now = _stamp(path)
        if (None if stamp is None else tuple(stamp)) != now:
            return False
    return True
