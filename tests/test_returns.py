"""Return sites: explicit returns of the function itself plus the fall-through."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from lint_rules.analysis.module import parse_module
from lint_rules.analysis.returns import analyse_function


def flow_of(source: str):  # type: ignore[no-untyped-def]
    module = parse_module(textwrap.dedent(source), "m.py")
    function = next(s for s in module.tree.body if isinstance(s, cst.FunctionDef))
    return analyse_function(function, module), module.tree


@pytest.mark.parametrize(
    ("source", "falls_through"),
    [
        ("def f():\n    return 1\n", False),
        ("def f():\n    x = 1\n", True),
        ("def f():\n    if x:\n        return 1\n", True),
        ("def f():\n    if x:\n        return 1\n    else:\n        return 2\n", False),
        ("def f():\n    if x:\n        return 1\n    elif y:\n        return 2\n", True),
        ("def f():\n    raise ValueError\n", False),
        ("def f():\n    while True:\n        pass\n", False),
        ("def f():\n    while True:\n        break\n", True),
        ("def f():\n    import sys\n    sys.exit(1)\n", False),
        ("def f():\n    try:\n        return 1\n    except E:\n        return 2\n", False),
        ("def f():\n    try:\n        return 1\n    except E:\n        pass\n", True),
        ("def f():\n    with x:\n        return 1\n", False),
        ("def f():\n    for a in b:\n        return 1\n", True),
        ("def f():\n    for a in b:\n        pass\n    else:\n        return 1\n", False),
        (
            "def f():\n    match x:\n        case 1:\n            return 1\n"
            "        case _:\n            return 2\n",
            False,
        ),
        ("def f():\n    match x:\n        case 1:\n            return 1\n", True),
    ],
)
def test_fall_through(source: str, falls_through: bool) -> None:
    flow, _ = flow_of(source)
    assert any(site.is_fall_through for site in flow.sites) is falls_through


def test_noreturn_helper_ends_the_body() -> None:
    flow, _ = flow_of("def f():\n    fail('x')\n\ndef fail(m) -> NoReturn:\n    log(m)\n")
    assert not any(site.is_fall_through for site in flow.sites)


def test_nested_scopes_do_not_contribute_returns() -> None:
    flow, _ = flow_of(
        """
        def f():
            def inner():
                return 1
            g = lambda: 2
            class C:
                def m(self):
                    return 3
            return "outer"
        """
    )
    assert len(flow.sites) == 1
    value = flow.sites[0].value
    assert isinstance(value, cst.SimpleString)


def test_generator_has_no_return_sites() -> None:
    flow, _ = flow_of("def f():\n    yield 1\n    return 2\n")
    assert flow.is_generator and flow.sites == []


def test_calls_before_each_return() -> None:
    flow, module = flow_of(
        """
        def f(conv, flow):
            if conv.x:
                flow.goto_step("A")
                return {}
            if conv.y:
                conv.say("hi")
                return "done"
            return {}
        """
    )
    names = [[module.code_for_node(c.func) for c in site.calls_before] for site in flow.sites]
    assert names[0] == ["flow.goto_step"]
    # The branch that always returns does not reach the last return.
    assert "flow.goto_step" not in names[2] and "conv.say" not in names[2]


def test_calls_in_a_branch_that_falls_through_count() -> None:
    flow, module = flow_of(
        """
        def f(conv):
            if conv.x:
                conv.say("hi")
            return {}
        """
    )
    names = [module.code_for_node(c.func) for c in flow.sites[0].calls_before]
    assert names == ["conv.say"]
