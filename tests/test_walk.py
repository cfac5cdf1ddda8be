"""The read-only walk sees exactly what LibCST's visitor sees, and the index agrees with it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import ClassVar

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from lint_rules.analysis import walk
from lint_rules.analysis.module import parse_module
from lint_rules.analysis.positions import statement_ranges
from lint_rules.analysis.walk import TreeIndex, find, iter_nodes, run_visitor

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


class _Recorder(cst.CSTVisitor):
    """Records the calls LibCST makes; skips the bodies of classes and lambdas."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.events.append(("visit", node.name.value))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.events.append(("leave", original_node.name.value))

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.events.append(("visit class", node.name.value))
        return False

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.events.append(("leave class", original_node.name.value))

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        self.events.append(("call", type(node.func).__name__))
        return True

    def visit_Name(self, node: cst.Name) -> None:
        self.events.append(("name", node.value))

    def leave_Return(self, original_node: cst.Return) -> None:
        self.events.append(("return", ""))


class _ThroughOnVisit(_Recorder):
    """Overrides ``on_visit``/``on_leave``, so ``run_visitor`` must go through them."""

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Integer):
            self.events.append(("integer", node.value))
        return super().on_visit(node)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        super().on_leave(original_node)


@pytest.mark.parametrize("path", SOURCES[:30], ids=lambda p: str(p.relative_to(ROOT)))
def test_run_visitor_calls_what_libcst_calls(path: Path) -> None:
    tree = cst.parse_module(path.read_text(encoding="utf-8"))
    by_libcst, by_walk = _Recorder(), _Recorder()
    tree.visit(by_libcst)
    run_visitor(tree, by_walk)
    # Field order differs from LibCST's only inside ``a if c else b``.
    assert Counter(by_walk.events) == Counter(by_libcst.events)
    assert by_walk.events  # the visitor did see something
    through_libcst, through_walk = _ThroughOnVisit(), _ThroughOnVisit()
    tree.visit(through_libcst)
    run_visitor(tree, through_walk)
    assert Counter(through_walk.events) == Counter(through_libcst.events)


def test_run_visitor_keeps_order_and_leaves_skipped_nodes() -> None:
    tree = cst.parse_module(
        "def f(a):\n    class C:\n        x = g(a)\n    return h(lambda: k(a), a)\n"
    )
    recorder = _Recorder()
    run_visitor(tree, recorder)
    assert recorder.events == [
        ("visit", "f"),
        ("name", "f"),
        ("name", "a"),
        ("visit class", "C"),
        ("leave class", "C"),
        ("call", "Name"),
        ("name", "h"),
        ("name", "a"),
        ("return", ""),
        ("leave", "f"),
    ]


@pytest.mark.parametrize("path", SOURCES[:30], ids=lambda p: str(p.relative_to(ROOT)))
def test_replay_from_the_index_equals_the_walk(path: Path) -> None:
    """The shared index replays a visitor (only the node classes it has methods for)
    with the very calls, in the very order, of a walk over every node: on the module
    and on any subtree, with ``visit_*`` returning False skipping what is below."""
    tree = cst.parse_module(path.read_text(encoding="utf-8"))
    index = walk.tree_index(tree)
    subtrees = [tree, *find(tree, cst.FunctionDef, cst.ClassDef, cst.If, cst.Call)[:40]]
    for node in subtrees:
        walked, replayed = _Recorder(), _Recorder()
        walk._run(node, walked, walk._dispatch_table(_Recorder) or {})
        assert node in index
        run_visitor(node, replayed)
        assert replayed.events == walked.events


def test_a_module_walk_builds_the_shared_index_once() -> None:
    tree = cst.parse_module("def f(a):\n    return g(a)\n")
    run_visitor(tree, _Recorder())
    index = walk.tree_index(tree)
    run_visitor(tree.body[0], _Recorder())
    assert walk.tree_index(tree) is index
    assert [type(n).__name__ for n in walk.find_indexed(tree, cst.Call, cst.Name)] == [
        "Name", "Name", "Call", "Name", "Name"
    ]  # fmt: skip
    function = tree.body[0]
    assert isinstance(function, cst.FunctionDef)
    assert index.enclosing_scope(function.params) is function
    assert index.enclosing_scope(function) is None


def test_run_visitor_honours_methods_set_on_the_instance() -> None:
    tree = cst.parse_module("f(x)\n")
    recorder = _Recorder()
    seen: list[str] = []
    recorder.visit_Name = lambda node: seen.append(node.value)  # type: ignore[method-assign]
    run_visitor(tree, recorder)
    assert seen == ["f", "x"]
    assert recorder.events == [("call", "Name")]


class _StaticVisitor(cst.CSTVisitor):
    seen: ClassVar[list[str]] = []

    @staticmethod
    def visit_Name(node: cst.Name) -> None:
        _StaticVisitor.seen.append(node.value)


def test_run_visitor_calls_static_visit_methods() -> None:
    run_visitor(cst.parse_module("f(x)\n"), _StaticVisitor())
    assert _StaticVisitor.seen == ["f", "x"]


def test_deep_trees_are_indexed_without_recursion() -> None:
    tree = cst.parse_module("x = " + " + ".join(["a"] * 3000) + "\n")
    index = TreeIndex(tree)
    assert len(index.find(tree, (cst.Name,), nested=True)) == 3001
    assert sum(1 for _ in iter_nodes(tree)) == len(find(tree, cst.CSTNode))


_POSITION_CASES = {
    "decorated": (
        "# header comment\n# -*- coding: latin-1 -*-\n\n@dec(1)\n# between\n@other\n"
        "async def f(conv, *, x: int = 2) -> str:\n    '''doc'''\n    return g(x)\n\n\n"
        "@dataclass\nclass C(Base, metaclass=M):\n    a: int = 1\n\n    def m(self):\n"
        "        return self.a\n"
    ),
    "compound": (
        "import os\nif os.environ.get('A'):\n    x = 1\nelif y:\n    x = 2\nelse:\n    x = 3\n"
        "for i in range(3):\n    pass\nelse:\n    z = i\nwhile x:\n    x -= 1\n"
        "try:\n    a = f()\nexcept (E, F) as e:\n    raise\nelse:\n    pass\nfinally:\n"
        "    done()\nwith open(p) as fh, lock:\n    data = fh.read()\n"
        "match data:\n    case {'k': v, **rest}:\n        pass\n    case [1, *others] | None:\n"
        "        pass\n    case _:\n        pass\n"
    ),
    "multi-line strings": (
        'TEXT = """first\nsecond\n    third"""\nx = (\n    "a"\n    "b"\n    f"{TEXT}"\n)\n'
        "y = 'one' \\\n    'two'\ndef f():\n    return '''\n    body\n    ''', 1\n"
    ),
    "semicolons": "a = 1; b = 2; c = f(a, b)\nif a: b = 3; c = 4\nd = [\n    1,\n    2]; e = d\n",
    "crlf": "x = 1\r\n\r\ndef f(a):\r\n    return {'k': a,\r\n            'j': 2}\r\ny = f(x)\r\n",
    "cr only": "x = 1\rdef f(a):\r    if a:\r        return a\r    return 0\ry = f(x)\r",
    "tabs": "def f(a):\n\tif a:\n\t\treturn [a,\n\t\t\ta]\n\treturn g(\ta)\nx = f(1)\t# c\n",
    "no trailing newline": "import os\n\ndef f():\n    return os.sep",
    "form feed": "x = 1\n\x0c\ndef f():\n    return x\n",
    "nested blocks": (
        'class A:\n  """doc"""\n  @staticmethod\n  def m(x):\n      if x:\n          try:\n'
        "              return {'k': [x,\n                            x]}\n"
        "          except* ValueError as e:\n              raise\n"
        "          # footer comment\n      elif x is None: return 0; pass\n      else:\n"
        "       \tfor i in x:\n       \t    async def g():\n       \t        async with a as b:\n"
        "       \t            await b\n       \t    while i:\n       \t        i -= 1\n"
        "       \telse:\n       \t    y = \\\n       \t        2\n      match x:\n"
        "         case [a, *_] if a:\n             return a\n         case _:\n"
        "             pass\n  z = 1\n"
    ),
    "comments only between": "# a\n\n# b\nx = 1\n    # odd\n# c\ny = (x +\n     1)  # d\n# end\n",
}


@pytest.mark.parametrize("source", _POSITION_CASES.values(), ids=_POSITION_CASES.keys())
def test_statement_positions_equal_libcsts_for_every_statement_kind(source: str) -> None:
    # Asked in source order and in reverse (later statements first), fresh each time.
    for reverse in (False, True):
        module = parse_module(source, "functions/f.py")
        full = MetadataWrapper(module.tree, unsafe_skip_copy=True).resolve(PositionProvider)
        nodes = [n for n in iter_nodes(module.tree) if n is not module.tree]
        for node in reversed(nodes) if reverse else nodes:
            assert module.range_of(node) == full[node], type(node).__name__
        assert module._statement_positions  # the per-statement path was taken


@pytest.mark.parametrize(
    "source",
    [*_POSITION_CASES.values(), *(p.read_text(encoding="utf-8") for p in SOURCES[::4])],
    ids=[*_POSITION_CASES.keys(), *(str(p.relative_to(ROOT)) for p in SOURCES[::4])],
)
def test_position_recorder_records_what_position_provider_does(source: str) -> None:
    """Every node of each statement, whitespace and punctuation included."""
    tree = cst.parse_module(source)
    for statement in tree.body:
        alone = tree.with_changes(body=[statement], header=[], footer=[])
        expected = MetadataWrapper(alone, unsafe_skip_copy=True).resolve(PositionProvider)
        ranges = statement_ranges(statement, tree)
        assert len(ranges) == len(expected) - 1  # all but the module
        for node, where in expected.items():
            if node is not alone:
                assert ranges[id(node)] == (
                    where.start.line,
                    where.start.column,
                    where.end.line,
                    where.end.column,
                ), type(node).__name__


def test_a_nested_statement_is_generated_alone() -> None:
    source = "def f(a):\n    if a:\n        b = 1\n        return {'k': a}\n    return None\n"
    module = parse_module(source, "functions/f.py")
    function = module.tree.body[0]
    assert isinstance(function, cst.FunctionDef)
    returned = find(function, cst.Dict)[0]
    where = module.range_of(returned)
    assert (where.start.line, where.start.column, where.end.column) == (4, 15, 23)
    (statement,) = (
        n for n in find(function, cst.SimpleStatementLine) if returned in find(n, cst.Dict)
    )
    assert list(module._statement_positions) == [id(statement)]  # not the whole function


def test_calls_to_groups_the_index_calls_by_callee() -> None:
    source = (
        "from agents import Agent, Runner as R\nimport agents\n\n"
        "a = Agent(name='x')\nb = agents.Agent[Ctx](name='y')\n"
        "def f():\n    return R.run(a), Agent(name='z'), print(a)\n"
    )
    module = parse_module(source, "app.py")
    names = [find(call, cst.SimpleString)[0].value for call in module.calls_to("agents.Agent")]
    assert names == ["'x'", "'y'", "'z'"]
    both = module.calls_to("agents.Runner.run", "agents.Agent")
    assert [module.qualified_name(c.func) for c in both][:2] == ["agents.Agent", None]
    assert len(both) == 4 and module.calls_to("print") == []


def test_the_families_walk_no_module_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every family queries the module's one index: checking a file with all four
    families' signals builds one index and walks no module with a walk of its own."""
    from lint_rules.config import Settings
    from lint_rules.engine import check_source

    source = (ROOT / "tests" / "fixtures" / "walk" / "all_families.py").read_text(encoding="utf-8")
    indexed: list[type] = []
    walked: list[type] = []
    original_index, original_run, original_iter = walk.TreeIndex._index, walk._run, walk.iter_nodes

    def index(self: TreeIndex, root: cst.CSTNode) -> None:
        indexed.append(type(root))
        original_index(self, root)

    def run(node: cst.CSTNode, *args: object) -> None:
        walked.append(type(node))
        original_run(node, *args)  # type: ignore[arg-type]

    def iterate(node: cst.CSTNode, **kwargs: object) -> object:
        walked.append(type(node))
        return original_iter(node, **kwargs)  # type: ignore[arg-type]

    def visit(self: cst.Module, visitor: cst.CSTVisitorT) -> cst.Module:
        walked.append(type(self))  # LibCST's own walk (it rebuilds every node)
        return original_visit(self, visitor)

    original_visit = cst.Module.visit
    monkeypatch.setattr(cst.Module, "visit", visit)
    monkeypatch.setattr(walk.TreeIndex, "_index", index)
    monkeypatch.setattr(walk, "_run", run)
    monkeypatch.setattr(walk, "iter_nodes", iterate)
    diagnostics = check_source(source, "functions/all_families.py", Settings())
    assert {d.code[:4] for d in diagnostics} == {"TRV1", "TRV2", "TRV3", "TRV4"}
    assert indexed == [cst.Module]
    assert cst.Module not in walked
