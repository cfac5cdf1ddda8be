"""Which names a function binds (``bindings.bound_names``, and value inference's reading of
the same forms), and whether code mentions names."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from lint_rules.analysis.bindings import (
    bound_names,
    mentions,
    names_in,
    parameters,
    root_name,
    target_names,
)
from lint_rules.analysis.module import parse_module
from lint_rules.analysis.shapes import ShapeInference


def _function(body: str, signature: str = "f()", keyword: str = "def") -> cst.FunctionDef:
    source = f"{keyword} {signature}:\n" + textwrap.indent(textwrap.dedent(body), "    ")
    statement = cst.parse_module(source).body[0]
    assert isinstance(statement, cst.FunctionDef)
    return statement


def _expression(code: str) -> cst.BaseExpression:
    return cst.parse_expression(code)


# ------------------------------------------------------------------ bound_names

BINDING_FORMS = [
    ("x = 1", {"x"}),
    ("x = y = 1", {"x", "y"}),
    ("a, (b, [c, *d]) = value", {"a", "b", "c", "d"}),
    ("[a, b] = value", {"a", "b"}),
    ("x += 1", {"x"}),
    ("x: int = 1", {"x"}),
    ("x: int", {"x"}),
    ("if (x := compute()):\n    pass", {"x"}),
    ("values = [y := 1 for _ in range(3)]", {"values", "y"}),
    ("for i, (k, v) in items:\n    pass", {"i", "k", "v"}),
    ("async def g():\n    pass", {"g"}),
    ("with open(p) as handle, lock:\n    pass", {"handle"}),
    ("with ctx() as (a, b):\n    pass", {"a", "b"}),
    ("try:\n    pass\nexcept ValueError as error:\n    pass", {"error"}),
    ("try:\n    pass\nexcept ValueError:\n    pass", set()),
    ("import os.path", {"os"}),
    ("import os.path as osp, json", {"osp", "json"}),
    ("from pkg import a, b as c", {"a", "c"}),
    ("from pkg import *", set()),
    ("def inner():\n    hidden = 1", {"inner"}),
    ("class Inner:\n    attribute = 1", {"Inner"}),
]


@pytest.mark.parametrize(("body", "names"), BINDING_FORMS)
def test_bound_names_of_each_binding_form(body: str, names: set[str]) -> None:
    assert bound_names(_function(body)) == names


def test_bound_names_inside_compound_statements() -> None:
    body = """
        if flag:
            a = 1
        else:
            for b in c:
                while d:
                    try:
                        e = 2
                    finally:
                        f = 3
        """
    assert bound_names(_function(body)) == {"a", "b", "e", "f"}


def test_async_for_and_with_bind_like_their_plain_forms() -> None:
    body = "async for item in stream:\n    pass\nasync with lock as held:\n    pass"
    assert bound_names(_function(body, keyword="async def")) == {"item", "held"}


def test_parameters_of_every_kind_are_bound() -> None:
    function = _function("pass", "f(a, /, b, c=1, *args, d, e=2, **kwargs)")
    assert bound_names(function) == {"a", "b", "c", "args", "d", "e", "kwargs"}
    bare_star = _function("pass", "f(a, *, b)")
    assert bound_names(bare_star) == {"a", "b"}


@pytest.mark.parametrize(
    "body",
    [
        "use(x)",
        "x.attribute = 1",
        "x[0] = 1",
        "x.attribute += 1",
        "x[0]: int = 1",
        "x.append(1)",
        "return x",
        "del x",
        "lambda x: x",
        "values = [x for x in range(3)]",
        "values = {x: y for x, y in pairs if (z := x)}",
        "def inner(x=(w := 1)):\n    y = 1",
        "class Inner:\n    x = 1",
        "match value:\n    case [x, *rest]:\n        pass",
    ],
)
def test_names_that_are_not_bound_in_the_function_itself(body: str) -> None:
    names = bound_names(_function(body))
    assert not names & {"x", "y", "z", "w", "rest"}


@pytest.mark.parametrize("declaration", ["global", "nonlocal"])
def test_global_and_nonlocal_names_are_not_local(declaration: str) -> None:
    body = f"{declaration} counter, total\ncounter = 1\ntotal += 1\nlocal = 2"
    assert bound_names(_function(body)) == {"local"}


def test_a_parameter_declared_global_elsewhere_is_still_subtracted() -> None:
    # Kept as browser-use recognition has always read it (Python rejects this code).
    assert bound_names(_function("global a", "f(a, b)")) == {"b"}


# --------------------------------------------------- value inference, same forms


def _bound_in_inference(body: str) -> set[str]:
    source = "def f(p):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    module = parse_module(source, "f.py")
    inference = ShapeInference(module, module.functions["f"])
    candidates = {"p", "x", "y", "a", "b", "os", "osp", "c", "inner", "Inner", "rest", "error"}
    return {name for name in candidates if inference.local_name_is_bound(name)}


@pytest.mark.parametrize(
    ("body", "names"),
    [
        ("pass", {"p"}),
        ("x = 1", {"x"}),
        ("x: int", set()),  # no value, no mutation: nothing to know about ``x``
        ("x: int = 1", {"x"}),
        ("x += 1", {"x"}),
        ("if (x := 1):\n    pass", {"x"}),
        ("for a, b in y:\n    pass", {"a", "b"}),
        ("with y as (a, b):\n    pass", {"a", "b"}),
        ("try:\n    pass\nexcept E as error:\n    pass", {"error"}),
        ("import os.path\nimport os.path as osp", {"os", "osp"}),
        ("from m import a, b as c", {"a", "c"}),
        ("def inner():\n    y = 1", {"inner", "y"}),  # nested scopes are read too
        ("class Inner:\n    y = 1", {"Inner", "y"}),
        ("x[0] = 1", {"x"}),  # a mutation
        ("x.a.b = 1", {"x"}),
        ("x.append(1)", {"x"}),
        ("use(x)", {"x"}),  # passed along: may be mutated
        ("del x", {"x"}),
        ("global x", {"x"}),
        ("values = [a for a in y]", {"a"}),
        ("match y:\n    case [a, *rest]:\n        pass", {"a", "rest"}),
        ("match y:\n    case {'k': b, **rest}:\n        pass", {"b", "rest"}),
    ],
)
def test_value_inference_reads_the_same_forms_and_mutations(body: str, names: set[str]) -> None:
    assert _bound_in_inference(body) == names | {"p"}


# ----------------------------------------------------------------- the pieces


@pytest.mark.parametrize(
    ("target", "names", "with_roots"),
    [
        ("x", ["x"], ["x"]),
        ("(a, [b, *c])", ["a", "b", "c"], ["a", "b", "c"]),
        ("x[0]", [], ["x"]),
        ("x.a[1].b", [], ["x"]),
        ("(a, x.b)", ["a"], ["a", "x"]),
        ("f().x", [], []),
    ],
)
def test_target_names(target: str, names: list[str], with_roots: list[str]) -> None:
    node = _expression(target)
    assert target_names(node) == names
    assert target_names(node, roots=True) == with_roots


def test_root_name() -> None:
    assert root_name(_expression("x.a[0].b")) == "x"
    assert root_name(_expression("x")) == "x"
    assert root_name(_expression("f().a")) is None
    assert root_name(_expression("'text'.upper")) is None


def test_parameters_in_order() -> None:
    function = _function("pass", "f(a, /, b, *args, c, **kwargs)")
    assert [p.name.value for p in parameters(function.params)] == ["a", "b", "c", "args", "kwargs"]


# -------------------------------------------------------------------- mentions


@pytest.mark.parametrize(
    ("code", "names", "found"),
    [
        ("x", {"x"}, True),
        ("f(1, y=[x])", {"x"}, True),
        ("{'k': x.attribute}", {"attribute"}, True),  # attribute names are names too
        ("f(key=1)", {"key"}, True),  # and keyword names
        ("lambda q: q + 1", {"q"}, True),
        ("f(1, 'x')", {"x"}, False),
        ("obj.method()", {"x", "y"}, False),
        ("1 + 2", {"x"}, False),
        ("x", set(), False),
    ],
)
def test_mentions(code: str, names: set[str], found: bool) -> None:
    assert mentions(_expression(code), frozenset(names)) is found


def test_names_in_source_order() -> None:
    assert list(names_in(_expression("f(a, c.d) + True"))) == ["f", "a", "c", "d", "True"]
    assert set(names_in(_expression("f(b=c)"))) == {"f", "b", "c"}
    assert list(names_in(_expression("'text' + 1"))) == []


def test_mentions_stops_at_the_first_match() -> None:
    seen = names_in(_expression("[a, b, c]"))
    assert any(name == "a" for name in seen)
    assert next(seen) == "b"  # the rest is left unread
