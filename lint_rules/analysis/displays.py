"""Typed message constructors read as the dict displays they make (RULES.md *Value
inference*: "typed message constructors are dict displays").

Well-kept tool loops build their messages with the SDKs' own ``TypedDict`` types —
``ChatCompletionToolMessageParam(role="tool", tool_call_id=..., content=...)``,
``MessageParam(role="user", content=[ToolResultBlockParam(type="tool_result",
...)])`` —, with ``dict(role="tool", ...)``, or with a small helper of the module
that returns such a dict from its parameters (``def tool_result(id, out): return
{"type": "tool_result", "tool_use_id": id, "content": out}``). A ``TypedDict`` call
*is* a dict at run time, so each such call is read as the display it makes:

- a constructor or ``dict(...)`` call becomes a ``cst.Dict`` whose literal keys are
  its keyword arguments and whose values are the argument nodes themselves (a
  positional mapping or ``**spread`` makes the key set open);
- a helper call becomes the helper's returned display with each parameter replaced
  by the argument the call gives it (or its default); any other non-literal value of
  the helper stays *unknown* (it is the helper's expression, not the caller's).

The displays are *stand-ins*: made once per module (``prepare``) and registered on
the module's ``TreeIndex``, which gives each the position of the call it stands for.
So the loop families' ``collect(..., cst.Dict)`` finds them where the call is, and
``range_of``, ``span`` and ``enclosing_scope`` answer for them as for the call (or,
for an entry, the keyword argument). Only the loop families ask for them; every other
family sees the tree as written.
"""

from __future__ import annotations

import collections
import re

import libcst as cst

from lint_rules.analysis.module import ParsedModule

OPENAI_TYPED_DICTS = frozenset(
    {
        # Chat Completions (openai/types/chat/*_param.py)
        "ChatCompletionToolMessageParam",
        "ChatCompletionAssistantMessageParam",
        "ChatCompletionUserMessageParam",
        "ChatCompletionSystemMessageParam",
        "ChatCompletionDeveloperMessageParam",
        "ChatCompletionFunctionMessageParam",
        "ChatCompletionMessageToolCallParam",
        "ChatCompletionMessageFunctionToolCallParam",
        "ChatCompletionContentPartTextParam",
        # Responses (openai/types/responses/response_input_param.py)
        "FunctionCallOutput",
        "ResponseFunctionToolCallParam",
        "EasyInputMessageParam",
    }
)
ANTHROPIC_TYPED_DICTS = frozenset(
    {
        name
        for base in (
            "MessageParam",
            "ToolResultBlockParam",
            "ToolUseBlockParam",
            "TextBlockParam",
            "ImageBlockParam",
            "DocumentBlockParam",
        )
        for name in (base, "Beta" + base)
    }
)
BEDROCK_TYPED_DICTS = frozenset(
    {
        # mypy-boto3-bedrock-runtime's request shapes (``type_defs.py``)
        "MessageTypeDef",
        "MessageUnionTypeDef",
        "ContentBlockTypeDef",
        "ContentBlockUnionTypeDef",
        "ToolResultBlockTypeDef",
        "ToolResultBlockUnionTypeDef",
        "ToolResultContentBlockTypeDef",
        "ToolResultContentBlockUnionTypeDef",
        "ToolUseBlockTypeDef",
    }
)
STRANDS_TYPED_DICTS = frozenset({"ToolResult", "ToolResultContent"})
"""strands-agents 1.62's ``strands.types`` shapes, Bedrock's own."""
TYPED_DICTS: dict[str, frozenset[str]] = {
    "openai": OPENAI_TYPED_DICTS,
    "anthropic": ANTHROPIC_TYPED_DICTS,
    "mypy_boto3_bedrock_runtime": BEDROCK_TYPED_DICTS,
    "strands": STRANDS_TYPED_DICTS,
}
"""Package → the names of its message and block ``TypedDict`` types (pydantic models
such as ``ChatCompletionMessage`` or ``anthropic.types.Message`` are not dicts)."""

_MEMO = "displays.prepare"
_NAMES = re.compile("|".join(sorted(n for names in TYPED_DICTS.values() for n in names)))
_MESSAGE_KEYS = frozenset({"role", "type"})


def prepare(module: ParsedModule) -> None:
    """Register the module's display stand-ins on its index, once per parse."""
    module.remembered(_MEMO, (), lambda: _Builder(module).run())


def typed_dict_of(module: ParsedModule, func: cst.BaseExpression) -> str | None:
    """The ``TypedDict`` name a callee resolves to through imports, if it is one."""
    qualified = module.qualified_name(func)
    if qualified is None:
        return None
    package, _, rest = qualified.partition(".")
    name = rest.rsplit(".", 1)[-1]
    names = TYPED_DICTS.get(package)
    return name if names is not None and rest and name in names else None


class _Builder:
    def __init__(self, module: ParsedModule) -> None:
        self.module = module
        self.index = module.index
        self.helpers: dict[str, tuple[cst.FunctionDef, cst.BaseExpression]] = {}
        self.made: dict[int, cst.Dict | None] = {}

    def run(self) -> bool:
        module = self.module
        self._find_helpers()
        source = module.source
        if not self.helpers and "dict(" not in source and not _NAMES.search(source):
            return True
        for call in self.index.find(module.tree, (cst.Call,), nested=True):
            assert isinstance(call, cst.Call)
            self.display(call)
        return True

    # -- which calls are displays

    def display(self, call: cst.Call) -> cst.Dict | None:
        key = id(call)
        if key in self.made:
            return self.made[key]
        self.made[key] = None  # a helper calling itself is not a display
        made = self._constructed(call)
        if made is None:
            made = self._from_helper(call)
        self.made[key] = made
        return made

    def _is_constructor(self, call: cst.Call) -> bool:
        func = call.func
        if self.module.is_builtin(func, "dict"):
            return True
        return (
            isinstance(func, (cst.Name, cst.Attribute))
            and typed_dict_of(self.module, func) is not None
        )

    def _constructed(self, call: cst.Call) -> cst.Dict | None:
        """``Ctor(k=v, ...)``, ``dict(k=v, ...)``: keys from the keywords; a positional
        mapping or ``**spread`` is a spread (the key set is open)."""
        if not self._is_constructor(call):
            return None
        positional = [a for a in call.args if a.keyword is None and not a.star]
        if len(positional) > 1 or any(a.star == "*" for a in call.args):
            return None
        elements: list[cst.BaseDictElement] = []
        for arg in call.args:
            value = arg.value
            if arg.keyword is None:
                element: cst.BaseDictElement = cst.StarredDictElement(value=value)
                self.index.stand_in(element, arg)
            else:
                key = cst.SimpleString(repr(arg.keyword.value).replace("'", '"'))
                self.index.stand_in(key, arg.keyword)
                element = cst.DictElement(key=key, value=value)
                self.index.stand_in(element, arg)
            elements.append(element)
        return self._register(call, elements)

    def _register(self, call: cst.Call, elements: list[cst.BaseDictElement]) -> cst.Dict:
        made = cst.Dict(elements=elements)
        self.index.stand_in(made, call)
        self.index.add_display(call, made)
        return made

    # -- helpers

    def _find_helpers(self) -> None:
        module = self.module
        definitions = collections.Counter(
            statement.name.value
            for statement in module.tree.body
            if isinstance(statement, (cst.FunctionDef, cst.ClassDef))
        )
        for name, function in module.functions.items():
            if (
                name in module.shadowed
                or function.decorators
                or function.asynchronous is not None
                or isinstance(function.params.star_arg, cst.Param)
                or function.params.star_kwarg is not None
                or definitions[name] != 1  # one top-level ``def`` or ``class`` of the name
                or name in module.constants
            ):
                continue
            returned = _only_return(function)
            if returned is None:
                continue
            if (
                isinstance(returned, cst.Dict)
                and any(
                    isinstance(e, cst.DictElement)
                    and isinstance(e.key, cst.SimpleString)
                    and e.key.evaluated_value in _MESSAGE_KEYS
                    for e in returned.elements
                )
            ) or (isinstance(returned, cst.Call) and self._is_constructor(returned)):
                self.helpers[name] = (function, returned)

    def _from_helper(self, call: cst.Call) -> cst.Dict | None:
        func = call.func
        if not isinstance(func, cst.Name) or func.value in self.module.shadowed:
            return None
        helper = self.helpers.get(func.value)
        if helper is None or any(a.star for a in call.args):
            return None
        function, returned = helper
        given = _bind_arguments(function, call)
        if given is None:
            return None
        if isinstance(returned, cst.Dict):
            display: cst.Dict | None = returned
        else:
            assert isinstance(returned, cst.Call)
            display = self.display(returned)
        if display is None:
            return None
        elements: list[cst.BaseDictElement] = []
        for element in display.elements:
            value = element.value
            substituted: cst.BaseExpression | None = None
            if isinstance(value, cst.Name) and value.value in given:
                substituted = given[value.value]
            elif _is_literal(value):
                elements.append(element)
                continue
            if substituted is None or substituted not in self.index:
                # the helper's own expression, or a default written in its signature:
                # unknown here, placed at the call
                substituted = cst.Name(f"__toolret_unknown_{len(self.made)}_{len(elements)}__")
                self.index.stand_in(substituted, call)
            where = substituted if self.index.original(substituted) is substituted else call
            if isinstance(element, cst.DictElement):
                key = element.key
                if isinstance(key, cst.SimpleString):
                    key = cst.SimpleString(key.value)
                    self.index.stand_in(key, where)
                made: cst.BaseDictElement = cst.DictElement(key=key, value=substituted)
            else:
                made = cst.StarredDictElement(value=substituted)
            self.index.stand_in(made, where)
            elements.append(made)
        return self._register(call, elements)


def _only_return(function: cst.FunctionDef) -> cst.BaseExpression | None:
    """The value of a body that is (a docstring and) one ``return <value>``."""
    body = function.body
    if not isinstance(body, cst.IndentedBlock):
        return None
    statements = list(body.body)
    if (
        statements
        and isinstance(statements[0], cst.SimpleStatementLine)
        and len(statements[0].body) == 1
        and isinstance(statements[0].body[0], cst.Expr)
        and isinstance(statements[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    ):
        statements = statements[1:]
    if len(statements) != 1 or not isinstance(statements[0], cst.SimpleStatementLine):
        return None
    line = statements[0].body
    if len(line) != 1 or not isinstance(line[0], cst.Return) or line[0].value is None:
        return None
    return line[0].value


def _bind_arguments(
    function: cst.FunctionDef, call: cst.Call
) -> dict[str, cst.BaseExpression | None] | None:
    """Parameter name → the argument node a call gives it (or the parameter's literal
    default; ``None`` for another default); ``None`` when the call does not fit the
    signature."""
    params = function.params
    positional = [*params.posonly_params, *params.params]
    named = {p.name.value: p for p in [*positional, *params.kwonly_params]}
    given: dict[str, cst.BaseExpression | None] = {}
    args = list(call.args)
    index = 0
    for arg in args:
        if arg.keyword is not None:
            break
        if index >= len(positional):
            return None
        given[positional[index].name.value] = arg.value
        index += 1
    for arg in args[index:]:
        if arg.keyword is None or arg.keyword.value not in named or arg.keyword.value in given:
            return None
        given[arg.keyword.value] = arg.value
    for name, param in named.items():
        if name not in given:
            if param.default is None:
                return None
            given[name] = param.default if _is_literal(param.default) else None
    return given


def _is_literal(node: cst.BaseExpression) -> bool:
    """A value that means the same in any scope: no name, call or attribute inside."""
    if isinstance(node, cst.Name):
        return node.value in ("True", "False", "None")
    if isinstance(node, (cst.SimpleString, cst.Integer, cst.Float, cst.Imaginary)):
        return True
    if isinstance(node, cst.ConcatenatedString):
        return _is_literal(node.left) and _is_literal(node.right)
    if isinstance(node, cst.UnaryOperation):
        return _is_literal(node.expression)
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        return all(isinstance(e, cst.Element) and _is_literal(e.value) for e in node.elements)
    return False
