"""Value inference: exactly what RULES.md lists, and unknown for everything else."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from lint_rules.analysis.module import parse_module
from lint_rules.analysis.shapes import Kind, Shape, ShapeInference


def infer_return(body: str, prelude: str = "", params: str = "conv") -> tuple[Kind, object]:
    """Kind and literal of the last ``return`` of ``def f(params): body``."""
    shape = infer_shape(body, prelude, params)
    return shape.kind, shape.literal if shape.has_literal else None


def infer_shape(body: str, prelude: str = "", params: str = "conv") -> Shape:
    """Shape of the last ``return`` of ``def f(params): body``."""
    source = prelude + f"def f({params}):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    module = parse_module(source, "f.py")
    function = module.functions["f"]
    returns = [
        node for node in _walk(function) if isinstance(node, cst.Return) and node.value is not None
    ]
    value = returns[-1].value
    assert value is not None
    return ShapeInference(module, function).infer(value)


def _walk(node: cst.CSTNode) -> list[cst.CSTNode]:
    found = [node]
    for child in node.children:
        found.extend(_walk(child))
    return found


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        ("return 'a' 'b'", Kind.STR),
        ("return f'{conv}'", Kind.STR),
        ("return 3", Kind.INT),
        ("return 2.5", Kind.FLOAT),
        ("return 1j", Kind.COMPLEX),
        ("return True", Kind.BOOL),
        ("return None", Kind.NONE),
        ("return b'x'", Kind.BYTES),
        ("return [1]", Kind.LIST),
        ("return (1, 2)", Kind.TUPLE),
        ("return {1}", Kind.SET),
        ("return {'a': 1}", Kind.DICT),
        ("return [x for x in conv]", Kind.LIST),
        ("return {x: 1 for x in conv}", Kind.DICT),
        ("return str(conv)", Kind.STR),
        ("return len(conv)", Kind.INT),
        ("return round(conv.x)", Kind.INT),
        ("return float(conv)", Kind.FLOAT),
        ("return bool(conv)", Kind.BOOL),
        ("return sorted(conv)", Kind.LIST),
        ("return dict(a=1)", Kind.DICT),
        ("return sum([1, 2])", Kind.INT),
        ("return ', '.join(conv)", Kind.STR),
        ("return 'abc'.isdigit()", Kind.BOOL),
        ("return 1 + 2", Kind.INT),
        ("return 1 / 2", Kind.FLOAT),
        ("return 1 + 2.0", Kind.FLOAT),
        ("return 'a' + 'b'", Kind.STR),
        ("return 'a %s' % conv", Kind.STR),
        ("return conv.x > 3", Kind.BOOL),
        ("return 1 < conv.x < 3", Kind.BOOL),
        ("return not conv", Kind.BOOL),
        ("return conv in []", Kind.BOOL),
        ("return 1 and 2", Kind.INT),
        ("n = 3\nreturn n", Kind.INT),
        ("if conv:\n    n = 1\nelse:\n    n = 2\nreturn n", Kind.INT),
        # The one plain assignment that reaches the use on every path.
        ("n = len(conv)\nn = str(n)\nreturn n", Kind.STR),
        ("n = 1\ndel n\nn = 2\nreturn n", Kind.INT),
        ("n = {}\nn['k'] = conv\nn = json(n)\nn = 'x'; return n", Kind.STR),
        ("if conv:\n    n = 'x'\n    return n\nn = 3\nreturn n", Kind.INT),
        ("n = 'x'\nfor c in conv:\n    n = 1\n    if c:\n        return n", Kind.INT),
        ("n = 'x'\nwith conv:\n    pass\nreturn n", Kind.STR),
        ("n = 1\ntry:\n    n = 'x'\n    return n\nfinally:\n    log(n)", Kind.STR),
        ("return -3", Kind.INT),
    ],
)
def test_known_shapes(body: str, kind: Kind) -> None:
    assert infer_return(body)[0] is kind


@pytest.mark.parametrize(
    "body",
    [
        "return conv.state.x",
        "return conv.x + 1",
        "return 'a'.join(x) if conv else 3",  # the IfExp as a whole: branches differ
        "return 1 and 'a'",
        "return round(conv.x, 2)",
        "return sum(x for x in conv)",
        "return conv.upper()",  # receiver not known to be a str
        "n = 3\nn += conv.x\nreturn n",
        "n = 3\nn += 'x'\nreturn n",
        "r = fetch(conv)\nr.append(1)\nreturn r",
        "n = 3\nexec('n = 1')\nreturn n",
        "n = 3\nlocals()['n'] = 'x'\nreturn n",
        "return [x for x in conv][0]",
        "x = 3\nreturn [x for x in conv][0]",
        "n = 3\nfor n in conv:\n    pass\nreturn n",
        "n = 3\n\ndef inner():\n    nonlocal n\n    n = 'x'\nreturn n",
        "for n in conv:\n    pass\nreturn n",
        "with conv as n:\n    pass\nreturn n",
        "global n\nn = 1\nreturn n",
        "if (n := 3):\n    pass\nreturn n",
        "n = 1\nif conv:\n    n = 'x'\nreturn n",
        # The flow reading gives up on any binding between the assignment and the use.
        "n = 'x'\nif conv:\n    n = 1\nreturn n",
        "n = 'x'\ntry:\n    n = 1\nexcept E:\n    pass\nreturn n",
        "n = 'x'\nwhile conv:\n    n = 1\nreturn n",
        "n = 'x'\nfor c in conv:\n    n = 1\n    if c:\n        break\nreturn n",
        "n = 'x'\nn += 1\nreturn n",
        "n = 1\nm = n = 'x'\n(n, m) = conv\nreturn n",
        "n = 1\nif (n := conv):\n    return n",
        "n = 1\nn = [n := 2]\nreturn n",
        "n = 1\ndef g():\n    nonlocal n\n    n = 'x'\nn = 2\ng()\nreturn n",
        "n = 1\nimport n\nreturn n",
        "n = 1\nclass n:\n    pass\nreturn n",
        "n = 1\nn = 'x'\nreturn lambda: n",
        "return 2 ** conv.x",
        "return undefined_name",
    ],
)
def test_unknown_shapes(body: str) -> None:
    assert infer_return(body)[0] is Kind.UNKNOWN


def test_parameter_annotated_with_builtin() -> None:
    assert infer_return("return n", params="conv, n: int")[0] is Kind.INT
    assert infer_return("return n", params="conv, n: int | None")[0] is Kind.UNKNOWN
    assert infer_return("n = n * 2\nreturn n", params="conv, n: int")[0] is Kind.UNKNOWN


def test_module_constant_and_annotated_function() -> None:
    prelude = "LIMIT = 5\n\ndef helper() -> int:\n    return 1\n\n"
    assert infer_return("return LIMIT", prelude)[0] is Kind.INT
    assert infer_return("return helper()", prelude)[0] is Kind.INT
    twice = "LIMIT = 5\nLIMIT = 'x'\n\n"
    assert infer_return("return LIMIT", twice)[0] is Kind.UNKNOWN


def test_shadowed_builtin_is_unknown() -> None:
    # The module's own ``len`` is what is called: its return sites say what it gives.
    prelude = "def len(x):\n    return 'many'\n\n"
    assert infer_return("return len(conv)", prelude)[0] is Kind.STR
    prelude = "from helpers import len\n\n"
    assert infer_return("return len(conv)", prelude)[0] is Kind.UNKNOWN
    assert infer_return("str = repr\nreturn str(conv)")[0] is Kind.UNKNOWN


def test_instances_through_imports() -> None:
    prelude = "from datetime import datetime\nimport decimal\nimport uuid\n\n"
    source = prelude + "def f():\n    return datetime.now(), decimal.Decimal('1'), uuid.uuid4()\n"
    module = parse_module(source, "f.py")
    function = module.functions["f"]
    ret = function.body.body[0].body[0]  # type: ignore[attr-defined]
    shape = ShapeInference(module, function).infer(ret.value)
    assert [e.type_name for e in shape.elements] == [
        "datetime.datetime",
        "decimal.Decimal",
        "uuid.UUID",
    ]


def test_local_classes() -> None:
    prelude = (
        "from typing import TypedDict\n"
        "from pydantic import BaseModel\n\n"
        "class Reply(TypedDict):\n    utterance: str\n\n"
        "class Model(BaseModel):\n    x: int\n\n"
    )
    assert infer_return("return Reply(utterance='hi')", prelude)[0] is Kind.DICT
    assert infer_return("return Model(x=1)", prelude)[0] is Kind.INSTANCE


def test_literal_values_are_kept() -> None:
    assert infer_return("return {'hangup': True}")[0] is Kind.DICT
    assert infer_return("return ''") == (Kind.STR, "")
    assert infer_return("return True") == (Kind.BOOL, True)


# --------------------------------------------------------- value inference v2
# Only a binding changes what a name is; a use never does (RULES.md, "Value inference").


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        # a use never changes a name's type
        ("n = len(conv)\nlog.info('rows: %s', n)\nreturn n", Kind.INT),
        ("n = len(conv)\nlabel = str(n)\nreturn n", Kind.INT),
        ("n = len(conv)\nconv.say(f'{n} rows')\nreturn n", Kind.INT),
        ("n = len(conv)\nsend(n)\nsend(x=n)\nreturn n", Kind.INT),
        ("total = 0.0\nfor row in conv:\n    total += row.price\nreturn total", Kind.UNKNOWN),
        ("total = 0\nfor row in conv:\n    total += 1\nreturn total", Kind.INT),
        ("s = ''\ns += 'x'\nreturn s", Kind.STR),
        ("n = 3\nn += 1\nreturn n", Kind.INT),
        ("t = (1, 2)\nlog(t)\nreturn t", Kind.TUPLE),
        # containers keep their kind whatever they are passed to
        ("out = []\nenrich(out)\nreturn out", Kind.LIST),
        ("r = {}\nr['utterance'] = conv\nreturn r", Kind.DICT),
        ("r = []\nr.append(1)\nreturn r", Kind.LIST),
        ("r = {}\nr.update(conv)\nreturn r", Kind.DICT),
        # slices and indexes
        ("s = str(conv)\nreturn s[:100]", Kind.STR),
        ("items = [1, 2]\nreturn items[:1]", Kind.LIST),
        ("names = [str(x) for x in conv]\nreturn names[0]", Kind.STR),
        ("r = {'a': 1}\nreturn r['a']", Kind.INT),
        # calls of functions of the same module
        ("return count(conv)", Kind.INT),
        ("return label(conv)", Kind.STR),
        ("return maybe(conv)", Kind.UNKNOWN),
        ("return recursive(conv)", Kind.UNKNOWN),
        ("return decorated(conv)", Kind.UNKNOWN),
        ("return generator(conv)", Kind.UNKNOWN),
        ("return coroutine(conv)", Kind.COROUTINE),  # not awaited (TRV902)
        ("return cached(conv)", Kind.INT),
        ("return twice(conv)", Kind.UNKNOWN),
        ("return nested(conv)", Kind.INT),
        ("return shaped(conv)", Kind.LIST),
    ],
)
def test_uses_never_change_a_type(body: str, kind: Kind) -> None:
    prelude = textwrap.dedent(
        """\
        import functools
        from somewhere import register


        def count(rows):
            return len(rows)


        def label(rows):
            if not rows:
                return "none"
            return f"{len(rows)} rows"


        def maybe(rows):
            if rows:
                return len(rows)


        def recursive(rows):
            return recursive(rows[1:]) if rows else 0


        @register
        def decorated(rows):
            return len(rows)


        def generator(rows):
            yield len(rows)


        async def coroutine(rows):
            return len(rows)


        @functools.lru_cache
        def cached(rows):
            return 3


        def twice(rows):
            return 1


        def twice(rows):
            return "one"


        def nested(rows):
            return count(rows) + 1


        def shaped(rows) -> list[str]:
            return rows

        """
    )
    assert infer_shape(body, prelude).kind is kind


def test_await_of_a_same_module_coroutine() -> None:
    prelude = "async def count(rows):\n    return len(rows)\n\n"
    source = prelude + "async def f(conv):\n    n = await count(conv)\n    return n\n"
    module = parse_module(source, "f.py")
    function = module.functions["f"]
    ret = function.body.body[-1].body[0]  # type: ignore[attr-defined]
    assert ShapeInference(module, function).infer(ret.value).kind is Kind.INT


_MISTAKES = (
    "import asyncio\nfrom pydantic_ai import ModelRetry\nfrom mcp.server.fastmcp.exceptions "
    "import ToolError\nfrom .errors import AppError\n\n\nclass NotFound(LookupError):\n"
    "    pass\n\n\nclass Missing(NotFound):\n    pass\n\n\nclass Wrapped(AppError):\n"
    "    pass\n\n\nclass Plain:\n    pass\n\n\nasync def fetch(x):\n    return x\n\n\n"
    "@cache\nasync def cached(x):\n    return x\n\n\n"
)


@pytest.mark.parametrize(
    ("body", "kind", "type_name"),
    [
        ("return ValueError('x')", Kind.EXCEPTION, "ValueError"),
        ("e = KeyError(conv)\nlog(e)\nreturn e", Kind.EXCEPTION, "KeyError"),
        ("return Missing(conv)", Kind.EXCEPTION, "Missing"),
        ("return ModelRetry('again')", Kind.EXCEPTION, "ModelRetry"),
        ("return ToolError('down')", Kind.EXCEPTION, "ToolError"),
        ("return Wrapped(conv)", Kind.INSTANCE, "Wrapped"),  # base from another file: unknown
        ("return Plain()", Kind.INSTANCE, "Plain"),
        ("ValueError = str\nreturn ValueError(conv)", Kind.UNKNOWN, None),
        ("return fetch(conv)", Kind.COROUTINE, "fetch"),
        ("c = fetch(conv)\nreturn c", Kind.COROUTINE, "fetch"),
        ("return await fetch(conv)", Kind.UNKNOWN, None),
        ("return asyncio.create_task(fetch(conv))", Kind.UNKNOWN, None),
        ("return asyncio.ensure_future(fetch(conv))", Kind.UNKNOWN, None),
        ("return cached(conv)", Kind.UNKNOWN, None),  # decorated: may return anything
    ],
)
def test_returned_exceptions_and_coroutines(body: str, kind: Kind, type_name: str | None) -> None:
    shape = infer_shape(body, _MISTAKES)
    assert (shape.kind, shape.type_name) == (kind, type_name)
    assert not shape.is_known or kind in (Kind.INSTANCE,)  # the framework rules ignore them


def test_an_async_method_of_the_same_class_through_self() -> None:
    source = (
        "class Tools:\n    async def fetch(self, x):\n        return x\n\n"
        "    async def get(self, x):\n        return self.fetch(x)\n\n"
        "    @staticmethod\n    async def other(self, x):\n        return self.fetch(x)\n"
    )
    module = parse_module(source, "t.py")
    cls = module.classes["Tools"]
    get, other = cls.body.body[1], cls.body.body[2]
    assert isinstance(get, cst.FunctionDef) and isinstance(other, cst.FunctionDef)
    ret = get.body.body[0].body[0]  # type: ignore[attr-defined]
    assert ShapeInference(module, get).infer(ret.value).kind is Kind.COROUTINE
    ret = other.body.body[0].body[0]  # type: ignore[attr-defined]
    assert ShapeInference(module, other).infer(ret.value).kind is Kind.UNKNOWN


@pytest.mark.parametrize(
    ("params", "body", "kind"),
    [
        ("conv, amount: float", "log(round(amount))\nreturn amount", Kind.FLOAT),
        ("conv, amount: float", "return round(amount, 2)", Kind.FLOAT),
        ("conv, n: int", "send(n)\nreturn n", Kind.INT),
        ("conv, n: int", "n = n * 2\nreturn n", Kind.UNKNOWN),
        ("conv, n: Optional[int]", "return n", Kind.UNKNOWN),
        ("conv, names: list[str]", "names.append('x')\nreturn names", Kind.LIST),
    ],
)
def test_annotated_parameters_keep_their_type(params: str, body: str, kind: Kind) -> None:
    prelude = "from typing import Optional\n\n"
    assert infer_shape(body, prelude, params).kind is kind


def test_element_shapes() -> None:
    str_ = Kind.STR
    assert _item("return [str(x) for x in conv]") is str_
    assert _item("return sorted(str(x) for x in conv)") is str_
    assert _item("names = [str(x) for x in conv]\nreturn sorted(names)") is str_
    assert _item("return list(conv.name)") is None
    assert _item("return list(str(conv))") is str_
    assert _item("return str(conv).split(',')") is str_
    assert _item("return ['a', 'b']") is str_
    assert _item("return ['a', 1]") is None
    assert _item("out = []\nfor x in conv:\n    out.append(str(x))\nreturn out") is str_
    assert _item("out = []\nout.append(str(conv))\nout.append(1)\nreturn out") is None
    assert _item("out = []\nout.extend(['a', 'b'])\nreturn out") is str_
    assert _item("out = []\nout.append(conv)\nreturn out") is None
    # contents unknown after anything that may mutate them; the kind stays
    assert _item("out = ['a']\nout.sort(key=len)\nreturn out") is None
    assert _item("out = ['a']\nfill(out)\nreturn out") is None
    assert _item("out = ['a']\nalias = out\nalias.append(1)\nreturn out") is None
    # the assignment that reaches the use keeps its elements while nothing can reach them
    assert _item("out = 1\nout = ['a']\nreturn out") is str_
    assert _item("out = 1\nout = ['a']\nfill(out)\nreturn out") is None
    assert _item("out = 1\nout = ['a']\nf = lambda: out.append(1)\nreturn out") is None
    assert _item("out = 1\ndef g():\n    out.append(2)\nout = ['a']\ng()\nreturn out") is None
    assert _item("return names", params="conv, names: list[str]") is str_
    assert _item("return names", params="conv, names: tuple[int, ...]") is Kind.INT
    assert _item("return names", params="conv, names: List[str]") is str_
    assert _item("return x", params="conv, x: Optional[list[str]]") is None


def _item(body: str, params: str = "conv") -> Kind | None:
    prelude = "from typing import List, Optional\n\n"
    shape = infer_shape(body, prelude, params)
    assert shape.kind in (Kind.LIST, Kind.TUPLE, Kind.SET, Kind.UNKNOWN)
    return None if shape.item is None else shape.item.kind


def test_tracked_mutations_of_a_dict() -> None:
    shape = infer_shape("r = {}\nr['utterance'] = 'hi'\nr['hangup'] = True\nreturn r")
    assert shape.keys() == {"utterance", "hangup"}
    assert not shape.open
    # A conditional store may or may not have happened: the key set is open.
    shape = infer_shape("r = {'utterance': 'hi'}\nif conv:\n    r['hangup'] = True\nreturn r")
    assert shape.keys() == {"utterance"}
    assert shape.open
    # A conditional overwrite keeps only what both values share.
    shape = infer_shape("r = {'utterance': 1}\nif conv:\n    r['utterance'] = 'x'\nreturn r")
    entry = shape.entry("utterance")
    assert entry is not None and entry.value.kind is Kind.UNKNOWN
    shape = infer_shape("r = {}\nr.update(utterance='hi')\nreturn r")
    assert shape.keys() == {"utterance"}
    # Read-only uses keep the contents; a store under an unknown key or a call does not.
    shape = infer_shape("r = {'a': 1}\nif 'a' in r and r.get('a'):\n    log(len(r))\nreturn r")
    assert shape.keys() == {"a"} and not shape.open
    for body in (
        "r = {'a': 1}\nr[conv] = 2\nreturn r",
        "r = {'a': 1}\nr.pop('a')\nreturn r",
        "r = {'a': 1}\ndel r['a']\nreturn r",
        "r = {'a': 1}\nfill(r)\nreturn r",
        "r = {'a': 1}\nr['a']['b'] = 2\nreturn r",
        "r = {'a': 1}\nr['a'] += 2\nreturn r",
        "if conv:\n    r = {}\nelse:\n    r = {'b': 1}\nr['a'] = 1\nreturn r",
    ):
        shape = infer_shape(body)
        assert shape.kind is Kind.DICT and shape.open, body


def test_a_module_level_container_filled_here_may_be_filled_elsewhere_too() -> None:
    prelude = "SEEN = []\n\ndef remember(x):\n    SEEN.append({'x': x})\n\n"
    shape = infer_shape("SEEN.append(str(conv))\nreturn SEEN", prelude)
    assert shape.kind is Kind.LIST and shape.item is None


def test_instances_lose_their_fields_to_uses_but_immutable_values_do_not() -> None:
    prelude = "from datetime import datetime\n\nclass Model:\n    pass\n\n"
    assert infer_shape("m = Model()\nlog(m)\nreturn m", prelude).kind is Kind.UNKNOWN
    assert infer_shape("m = Model()\nm.x = 1\nreturn m", prelude).kind is Kind.UNKNOWN
    assert infer_shape("m = Model()\nif m.x:\n    pass\nreturn m", prelude).kind is Kind.INSTANCE
    assert infer_shape("d = datetime.now()\nlog(d)\nreturn d", prelude).kind is Kind.INSTANCE


def test_local_name_is_bound_keeps_its_broad_reading() -> None:
    source = "def f(conv):\n    log(Agent)\n    x = 1\n    Runner.run(x)\n    return conv.y\n"
    module = parse_module(source, "f.py")
    inference = ShapeInference(module, module.functions["f"])
    assert inference.local_name_is_bound("Agent")
    assert inference.local_name_is_bound("Runner")
    assert inference.local_name_is_bound("x")
    assert inference.local_name_is_bound("conv")
    assert not inference.local_name_is_bound("y")
    assert not inference.local_name_is_bound("len")
