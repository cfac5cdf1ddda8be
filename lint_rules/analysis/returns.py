"""Return sites of a function, with the calls that can run before each.

A *return site* is a ``return`` whose nearest enclosing function is the one
analysed (returns of nested ``def``/``lambda``/``class`` belong to those), plus
the implicit ``return None`` when control can fall off the end of the body.

Rules such as "``return {}`` is fine after ``flow.goto_step(...)``" need to
know which calls *can* run before a return. The answer here is deliberately
simple and errs towards "yes, it can": a call counts when it is earlier in the
body and not inside a block that always leaves the function (ends in
``return``/``raise``) without reaching the return. Loops, ``try`` and ``with``
bodies are assumed to run. Where in doubt the call counts, which silences the
rule — the safe direction for a linter that must not cry wolf.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst

from lint_rules.analysis.bindings import bound_names, parameters
from lint_rules.analysis.literals import int_value
from lint_rules.analysis.walk import run_visitor

if TYPE_CHECKING:
    from lint_rules.analysis.module import ParsedModule

Leaves = bool | None
"""Whether a block always leaves the function: ``None`` when that rests on a call whose
target is not known (a parameter, a module that cannot be read)."""

_NEVER_RETURNING_CALLS = frozenset(
    {
        "sys.exit",
        "os._exit",
        "os.abort",
        "assert_never",
        "typing.assert_never",
        "typing_extensions.assert_never",
    }
)
_NEVER_RETURNING_BUILTINS = frozenset({"exit", "quit"})


@dataclass(frozen=True)
class ReturnSite:
    """One way a function hands back a value."""

    statement: cst.Return | None
    """The ``return`` statement; ``None`` for the implicit fall-through at the end."""
    calls_before: tuple[cst.Call, ...]
    """Calls (outside nested scopes) that can run before this return, in source order."""
    handlers: tuple[cst.ExceptHandler, ...] = ()
    """For the fall-through at the end: the ``except`` handlers it is reached through,
    when the function's last statement is a ``try`` whose body always leaves (the end
    is then reached only when one of these handlers runs)."""

    @property
    def value(self) -> cst.BaseExpression | None:
        return None if self.statement is None else self.statement.value

    @property
    def is_fall_through(self) -> bool:
        return self.statement is None


@dataclass
class FunctionFlow:
    """The return sites of one function and every call its own body makes."""

    sites: list[ReturnSite] = field(default_factory=list)
    calls: list[cst.Call] = field(default_factory=list)
    is_generator: bool = False
    uncertain_end: bool = False
    """Whether the end may be reached only past calls whose targets are not known (the
    fall-through is then not among ``sites``: no rule judges it)."""


def analyse_function(function: cst.FunctionDef, module: ParsedModule | None = None) -> FunctionFlow:
    """Collect return sites (fall-through included) and calls of ``function``.

    A body ending in a call that never returns (``sys.exit``, a function of this or
    another project module that always raises or is annotated ``NoReturn``, resolved
    through ``module``'s imports and the project's summaries) does not fall off the end;
    one ending in a call whose target is not known makes the end uncertain.
    """
    walker = _FlowWalker(_CallJudge(module, function))
    before, terminates = walker.block(function.body.body, ())
    flow = FunctionFlow(calls=walker.calls, is_generator=walker.is_generator)
    if flow.is_generator:
        return flow
    flow.sites = walker.sites
    if terminates is None:
        flow.uncertain_end = True
    elif not terminates:
        statements = function.body.body
        last = statements[-1] if statements else None
        via = walker.handlers_of.get(id(last), ()) if last is not None else ()
        flow.sites.append(ReturnSite(statement=None, calls_before=before, handlers=via))
    return flow


class _CallJudge:
    """Whether a call in one function never returns: three-valued (``None``: not known)."""

    def __init__(self, module: ParsedModule | None, function: cst.FunctionDef) -> None:
        self.module = module
        self.function = function
        self._locals: frozenset[str] | None = None
        self._params: frozenset[str] | None = None
        self._receiver: tuple[str, str] | bool | None = False

    def __call__(self, call: cst.Call, awaited: bool = False) -> Leaves:
        dotted = dotted_name(call.func)
        if dotted is None:
            return False  # a method of a call's result, a subscript's: an object's method
        module = self.module
        if module is None:
            return dotted in _NEVER_RETURNING_CALLS or dotted in _NEVER_RETURNING_BUILTINS
        head, _, rest = dotted.partition(".")
        if rest and head in self._parameters():
            receiver = self._own_class()
            if receiver is None or head != receiver[0] or "." in rest:
                return False  # a method of a parameter's object (``ctx.info``): returns
        if head in self._local_names():
            if dotted in _NEVER_RETURNING_CALLS:
                return True  # ``import sys`` in the function
            receiver = self._own_class()
            if receiver is not None and head == receiver[0] and rest and "." not in rest:
                return module.summaries.method_never_returns(
                    module.path, receiver[1], rest, awaited
                )
            return False if rest else None  # a parameter or local value called: unknown
        if dotted in _NEVER_RETURNING_CALLS and head not in module.imports:
            return head not in module.local_names  # ``assert_never`` written bare
        return module.summaries.name_never_returns(module.path, dotted, awaited)

    def _parameters(self) -> frozenset[str]:
        if self._params is None:
            self._params = frozenset(p.name.value for p in parameters(self.function.params))
        return self._params

    def _local_names(self) -> frozenset[str]:
        """The names the function and the functions around it bind (parameters too)."""
        if self._locals is None:
            names: set[str] = set(bound_names(self.function))
            module = self.module
            if module is not None:
                scope = module.index.enclosing_scope(self.function)
                while scope is not None:
                    if isinstance(scope, cst.FunctionDef):
                        names |= bound_names(scope)
                    elif isinstance(scope, cst.Lambda):
                        names |= {p.name.value for p in parameters(scope.params)}
                    scope = module.index.enclosing_scope(scope)
            self._locals = frozenset(names)
        return self._locals

    def _own_class(self) -> tuple[str, str] | None:
        """``(receiver, class)`` when the function is a method of a module-level class
        that takes ``self``/``cls`` (its first parameter) and does not rebind it."""
        if self._receiver is False:
            self._receiver = None
            module = self.module
            assert module is not None
            owner = module.index.enclosing_scope(self.function)
            params = parameters(self.function.params)
            if (
                isinstance(owner, cst.ClassDef)
                and module.classes.get(owner.name.value) is owner
                and params
                and not any(
                    isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod"
                    for d in self.function.decorators
                )
            ):
                self._receiver = (params[0].name.value, owner.name.value)
        return self._receiver  # type: ignore[return-value]


class _CallCollector(cst.CSTVisitor):
    """Calls and yields in an expression or statement, not descending into nested scopes."""

    def __init__(self) -> None:
        self.calls: list[cst.Call] = []
        self.has_yield = False

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_Yield(self, node: cst.Yield) -> None:
        self.has_yield = True

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        # Decorators and defaults run in this scope; the body does not.
        for decorator in node.decorators:
            run_visitor(decorator, self)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


class _FlowWalker:
    def __init__(self, judge: _CallJudge) -> None:
        self.judge = judge
        self.sites: list[ReturnSite] = []
        self.calls: list[cst.Call] = []
        self.is_generator = False
        self.handlers_of: dict[int, tuple[cst.ExceptHandler, ...]] = {}
        """``id`` of a ``try`` whose body always leaves → the handlers that fall out of it."""

    def _collect(self, node: cst.CSTNode | None) -> list[cst.Call]:
        if node is None:
            return []
        collector = _CallCollector()
        run_visitor(node, collector)
        if collector.has_yield:
            self.is_generator = True
        self.calls.extend(collector.calls)
        return collector.calls

    def block(
        self,
        statements: Sequence[cst.BaseStatement | cst.BaseSmallStatement],
        before: tuple[cst.Call, ...],
    ) -> tuple[tuple[cst.Call, ...], Leaves]:
        """Walk statements; return (calls that can have run at the end, always leaves)."""
        uncertain = False
        for stmt in statements:
            before, terminates = self.statement(stmt, before)
            if terminates:
                return before, True
            if terminates is None:
                uncertain = True
        return before, None if uncertain else False

    def _suite(
        self, suite: cst.BaseSuite, before: tuple[cst.Call, ...]
    ) -> tuple[tuple[cst.Call, ...], Leaves]:
        if isinstance(suite, cst.IndentedBlock):
            return self.block(suite.body, before)
        assert isinstance(suite, cst.SimpleStatementSuite)
        return self.block(suite.body, before)

    def statement(
        self, stmt: cst.BaseStatement | cst.BaseSmallStatement, before: tuple[cst.Call, ...]
    ) -> tuple[tuple[cst.Call, ...], Leaves]:
        if isinstance(stmt, cst.SimpleStatementLine):
            return self.block(stmt.body, before)
        if isinstance(stmt, cst.Return):
            calls = tuple(self._collect(stmt.value))
            self.sites.append(ReturnSite(statement=stmt, calls_before=before))
            return before + calls, True
        if isinstance(stmt, cst.Raise):
            return before + tuple(self._collect(stmt)), True
        if isinstance(stmt, cst.Expr):
            calls = tuple(self._collect(stmt))
            return before + calls, self._never_returns(stmt.value)
        if isinstance(stmt, cst.BaseSmallStatement):
            return before + tuple(self._collect(stmt)), False
        if isinstance(stmt, cst.If):
            return self._if(stmt, before)
        if isinstance(stmt, (cst.For, cst.While)):
            return self._loop(stmt, before)
        if isinstance(stmt, cst.Try):
            return self._try(stmt, before)
        if isinstance(stmt, cst.With):
            for item in stmt.items:
                before = before + tuple(self._collect(item.item))
            return self._suite(stmt.body, before)
        if isinstance(stmt, cst.Match):
            return self._match(stmt, before)
        if isinstance(stmt, cst.FunctionDef):
            self._collect(stmt)  # decorators run here
            return before, False
        # class bodies, TryStar and anything new: their calls count, nothing returns.
        self._collect(stmt)
        return before, False

    def _if(
        self, stmt: cst.If, before: tuple[cst.Call, ...]
    ) -> tuple[tuple[cst.Call, ...], Leaves]:
        before = before + tuple(self._collect(stmt.test))
        body_end, body_leaves = self._suite(stmt.body, before)
        else_leaves: Leaves
        if stmt.orelse is None:
            else_end, else_leaves = before, False
        elif isinstance(stmt.orelse, cst.If):
            else_end, else_leaves = self._if(stmt.orelse, before)
        else:
            else_end, else_leaves = self._suite(stmt.orelse.body, before)
        merged = _merge(
            before, [] if body_leaves else [body_end], [] if else_leaves else [else_end]
        )
        return merged, _all(body_leaves, else_leaves)

    def _loop(
        self, stmt: cst.For | cst.While, before: tuple[cst.Call, ...]
    ) -> tuple[tuple[cst.Call, ...], Leaves]:
        if isinstance(stmt, cst.For):
            before = before + tuple(self._collect(stmt.iter))
            infinite = False
        else:
            before = before + tuple(self._collect(stmt.test))
            infinite = _is_true_literal(stmt.test)
        body_end, _ = self._suite(stmt.body, before)
        breaks = _has_break(stmt.body)
        after = _merge(before, [body_end], [])
        if stmt.orelse is not None:
            else_end, else_leaves = self._suite(stmt.orelse.body, after)
            if else_leaves is not False and not breaks:
                return after, else_leaves
            after = _merge(after, [else_end], [])
        if infinite and not breaks:
            return after, True
        return after, False

    def _try(
        self, stmt: cst.Try, before: tuple[cst.Call, ...]
    ) -> tuple[tuple[cst.Call, ...], Leaves]:
        body_end, body_leaves = self._suite(stmt.body, before)
        # A handler may run after any part of the body: everything in it can have run.
        handler_start = _merge(before, [body_end], [])
        ends: list[tuple[cst.Call, ...]] = []
        main_leaves: Leaves = body_leaves
        if stmt.orelse is not None and not body_leaves:
            else_end, main_leaves = self._suite(stmt.orelse.body, body_end)
            if not main_leaves:
                ends.append(else_end)
        elif not body_leaves:
            ends.append(body_end)
        all_leave: Leaves = main_leaves
        falling: list[cst.ExceptHandler] = []
        for handler in stmt.handlers:
            start = handler_start + tuple(self._collect(handler.type))
            end, leaves = self._suite(handler.body, start)
            if not leaves:
                ends.append(end)
                if leaves is False:
                    falling.append(handler)
            all_leave = _all(all_leave, leaves)
        if main_leaves is True and falling:
            self.handlers_of[id(stmt)] = tuple(falling)
        after = _merge(before, ends, [])
        if stmt.finalbody is not None:
            after, final_leaves = self._suite(stmt.finalbody.body, _merge(handler_start, ends, []))
            if final_leaves:
                return after, True
            if final_leaves is None and all_leave is False:
                return after, None
        return after, all_leave

    def _match(
        self, stmt: cst.Match, before: tuple[cst.Call, ...]
    ) -> tuple[tuple[cst.Call, ...], Leaves]:
        before = before + tuple(self._collect(stmt.subject))
        ends: list[tuple[cst.Call, ...]] = []
        all_leave: Leaves = True
        exhaustive = False
        for case in stmt.cases:
            start = before + tuple(self._collect(case.guard))
            end, leaves = self._suite(case.body, start)
            if not leaves:
                ends.append(end)
            all_leave = _all(all_leave, leaves)
            if case.guard is None and _is_irrefutable(case.pattern):
                exhaustive = True
        if not exhaustive:
            ends.append(before)
            all_leave = False
        return _merge(before, ends, []), all_leave

    def _never_returns(self, expr: cst.BaseExpression) -> Leaves:
        awaited = isinstance(expr, cst.Await)
        if isinstance(expr, cst.Await):
            expr = expr.expression
        if not isinstance(expr, cst.Call):
            return False
        return self.judge(expr, awaited)


def _all(*leaves: Leaves) -> Leaves:
    """Whether every branch leaves: ``False`` if one certainly falls through, else
    ``None`` if one may."""
    if any(x is False for x in leaves):
        return False
    return None if any(x is None for x in leaves) else True


def _merge(
    before: tuple[cst.Call, ...],
    ends: list[tuple[cst.Call, ...]],
    more: list[tuple[cst.Call, ...]],
) -> tuple[cst.Call, ...]:
    """Union of call sequences that extend ``before``, keeping source order of first sight."""
    merged = list(before)
    seen = {id(c) for c in merged}
    for seq in [*ends, *more]:
        for call in seq:
            if id(call) not in seen:
                seen.add(id(call))
                merged.append(call)
    return tuple(merged)


def _is_true_literal(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Name):
        return expr.value == "True"
    if isinstance(expr, cst.Integer):
        return int_value(expr) != 0
    return False


def _is_irrefutable(pattern: cst.MatchPattern) -> bool:
    if isinstance(pattern, cst.MatchAs):
        return pattern.pattern is None or _is_irrefutable(pattern.pattern)
    if isinstance(pattern, cst.MatchOr):
        return any(_is_irrefutable(p.pattern) for p in pattern.patterns)
    return False


class _BreakFinder(cst.CSTVisitor):
    """Finds a ``break`` that belongs to the loop being analysed."""

    def __init__(self) -> None:
        self.found = False

    def visit_Break(self, node: cst.Break) -> None:
        self.found = True

    def visit_For(self, node: cst.For) -> bool:
        # A nested loop's own break does not leave the outer loop; its else clause could.
        if node.orelse is not None:
            run_visitor(node.orelse, self)
        return False

    def visit_While(self, node: cst.While) -> bool:
        if node.orelse is not None:
            run_visitor(node.orelse, self)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


def _has_break(body: cst.BaseSuite) -> bool:
    finder = _BreakFinder()
    run_visitor(body, finder)
    return finder.found


def dotted_name(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, else ``None``."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        inner = dotted_name(node.value)
        return None if inner is None else f"{inner}.{node.attr.value}"
    return None
