"""What a recogniser's walk knows around a call (``analysis.context``): error-expecting
``with`` blocks, the name a value is assigned to; and ``shapes.split_arguments``."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from lint_rules.analysis.context import StatementContext, assigned_name, expects_error
from lint_rules.analysis.module import ParsedModule, parse_module
from lint_rules.analysis.shapes import split_arguments
from lint_rules.analysis.walk import iter_nodes, run_visitor


def _module(source: str) -> ParsedModule:
    return parse_module(textwrap.dedent(source), "test_module.py")


def _first(module: ParsedModule, kind: type | tuple[type, ...]) -> cst.CSTNode:
    return next(node for node in iter_nodes(module.tree) if isinstance(node, kind))


# ------------------------------------------------------------------ expects_error

EXPECTS_ERROR = [
    "import pytest\nwith pytest.raises(ValueError):\n    pass\n",
    "import pytest as pt\nwith pt.raises(ValueError):\n    pass\n",
    "from pytest import raises\nwith raises(ValueError, match='x'):\n    pass\n",
    "with self.assertRaises(ValueError):\n    pass\n",
    "with self.assertRaisesRegex(ValueError, 'x'):\n    pass\n",
    "import pytest\nwith open('f') as f, pytest.raises(OSError):\n    pass\n",
]

EXPECTS_NO_ERROR = [
    "with open('f') as f:\n    pass\n",
    "with pytest.raises(ValueError):\n    pass\n",  # not imported: not pytest's
    "from other import pytest\nwith pytest.raises(ValueError):\n    pass\n",
    "import pytest\nwith pytest.raises:\n    pass\n",  # not a call
    "with self.assertWarns(UserWarning):\n    pass\n",
    "import pytest\nwith pytest.warns(UserWarning):\n    pass\n",
]


@pytest.mark.parametrize("source", EXPECTS_ERROR)
def test_a_with_that_expects_an_error(source: str) -> None:
    module = _module(source)
    node = _first(module, cst.With)
    assert isinstance(node, cst.With)
    assert expects_error(node, module)


@pytest.mark.parametrize("source", EXPECTS_NO_ERROR)
def test_a_with_that_does_not_expect_an_error(source: str) -> None:
    module = _module(source)
    node = _first(module, cst.With)
    assert isinstance(node, cst.With)
    assert not expects_error(node, module)


# ------------------------------------------------------------------ assigned_name

ASSIGNED = [
    ("x = f()", "x"),
    ("x: Tools = f()", "x"),
    ("tools = Tools(output_model=M)", "tools"),
]

NOT_ASSIGNED = [
    "x = y = f()",  # several targets
    "a, b = f()",
    "self.x = f()",
    "d['k'] = f()",
    "x: int",  # an annotation without a value
    "self.x: int = f()",
]


@pytest.mark.parametrize(("source", "name"), ASSIGNED)
def test_the_name_a_value_is_assigned_to(source: str, name: str) -> None:
    node = _first(_module(source), (cst.Assign, cst.AnnAssign))
    assert isinstance(node, (cst.Assign, cst.AnnAssign))
    assert assigned_name(node) == name


@pytest.mark.parametrize("source", NOT_ASSIGNED)
def test_no_single_name_is_assigned(source: str) -> None:
    node = _first(_module(source), (cst.Assign, cst.AnnAssign))
    assert isinstance(node, (cst.Assign, cst.AnnAssign))
    assert assigned_name(node) is None


# ------------------------------------------------------------------ StatementContext


class _Calls(StatementContext):
    """Records each call's callee with the walk's context at that point."""

    def __init__(self, module: ParsedModule) -> None:
        super().__init__(module)
        self.seen: list[tuple[str, int, str | None]] = []

    def visit_Call(self, node: cst.Call) -> None:
        callee = self.module.code_for(node.func).strip()
        self.seen.append((callee, self.expecting_errors, self.assigned_to(node)))


def _walk(source: str) -> list[tuple[str, int, str | None]]:
    module = _module(source)
    visitor = _Calls(module)
    run_visitor(module.tree, visitor)
    assert visitor.expecting_errors == 0  # every block left as it was entered
    return visitor.seen


def test_the_walk_counts_error_expecting_blocks_around_a_call() -> None:
    seen = _walk(
        """
        import pytest

        before()
        with pytest.raises(ValueError):
            inside()
            with self.assertRaises(TypeError):
                deeper()
            back()
        with open("f"):
            after()
        """
    )
    depths = {callee: depth for callee, depth, _ in seen}
    assert depths == {
        "before": 0,
        "pytest.raises": 1,  # the block is entered before its items are visited
        "inside": 1,
        "self.assertRaises": 2,
        "deeper": 2,
        "back": 1,
        "open": 0,
        "after": 0,
    }


def test_the_walk_names_the_variable_a_call_is_assigned_to() -> None:
    seen = _walk(
        """
        tools = Tools()
        typed: Tools = Typed()
        a = b = Both()
        self.attr = Attr()
        outer = wrap(Inner())
        Bare()
        """
    )
    names = {callee: name for callee, _, name in seen}
    assert names == {
        "Tools": "tools",
        "Typed": "typed",
        "Both": None,
        "Attr": None,
        "wrap": "outer",
        "Inner": None,  # only the statement's whole value is named
        "Bare": None,
    }


# ------------------------------------------------------------------ split_arguments


def _call(code: str) -> cst.Call:
    call = cst.parse_expression(code)
    assert isinstance(call, cst.Call)
    return call


def _names(split: tuple[tuple[tuple[str, cst.Arg], ...], tuple[cst.Arg, ...], bool]) -> object:
    keywords, positional, has_star = split
    code = cst.Module(body=[])
    return (
        [name for name, _ in keywords],
        [code.code_for_node(arg.value) for arg in positional],
        has_star,
    )


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("f()", ([], [], False)),
        ("f(a, b)", ([], ["a", "b"], False)),
        ("f(x=1, y=2)", (["x", "y"], [], False)),
        ("f(a, x=1)", (["x"], ["a"], False)),
        ("f(a, *rest, x=1)", (["x"], ["a"], True)),
        ("f(**options)", ([], [], True)),
        ("f(x=1, **options)", (["x"], [], True)),
    ],
)
def test_split_arguments(code: str, expected: object) -> None:
    assert _names(split_arguments(_call(code))) == expected


def test_split_arguments_keeps_the_argument_nodes() -> None:
    call = _call("f(a, x=1)")
    keywords, positional, _ = split_arguments(call)
    assert keywords == (("x", call.args[1]),)
    assert positional == (call.args[0],)
