"""What an MCP tool's return annotation promises, and what each server does with it.

The official SDK builds an output schema from the return annotation
(``func_metadata.py``) and validates what the tool returns against it: a
mismatch is an ``isError`` result "validation error for <name>Output" at every
call. A bare ``dict`` / ``list`` builds no schema there; standalone
``fastmcp`` builds one for ``dict`` too ("structured_content must be a dict").
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from lint_rules.analysis.module import ParsedModule
from lint_rules.frameworks.mcp.recognition import Origin

CALL_TOOL_RESULT = frozenset({"mcp.types.CallToolResult", "mcp.CallToolResult"})
_DICT_TYPES = frozenset(
    {"typing.Dict", "typing.Mapping", "collections.abc.Mapping", "typing.MutableMapping"}
)
_OPTIONAL = frozenset({"typing.Optional", "typing_extensions.Optional"})
_UNION = frozenset({"typing.Union", "typing_extensions.Union"})
_TYPED_DICT = frozenset({"typing.TypedDict", "typing_extensions.TypedDict"})
_BASE_MODEL = frozenset({"pydantic.BaseModel", "pydantic.main.BaseModel"})
_DATACLASS = frozenset({"dataclasses.dataclass"})


@dataclass(frozen=True)
class Contract:
    """A return annotation as the server reads it."""

    kind: str
    """``str``, ``int``, ``float``, ``bool``, ``dict`` (``dict[K, V]``, ``Dict[...]``),
    ``bare-dict``, ``list`` (``list[X]``), ``bare-list``, ``typeddict``, ``model``,
    ``dataclass``, ``call-tool-result``, ``none``; anything else is not a contract."""
    optional: bool
    annotation: cst.BaseExpression
    model: cst.ClassDef | None = None
    """The same-module class of a ``model`` / ``typeddict`` / ``dataclass``."""

    def has_schema(self, origin: Origin) -> bool:
        """Whether the annotation produces an output schema the result is validated by."""
        if self.kind == "bare-dict":
            return origin is Origin.STANDALONE
        return self.kind not in ("bare-list", "call-tool-result", "none")

    @property
    def is_mapping(self) -> bool:
        return self.kind in ("dict", "bare-dict", "typeddict", "model", "dataclass")


def contract(module: ParsedModule, function: cst.FunctionDef) -> Contract | None:
    """The contract of a function's return annotation, if it is one of the known forms."""
    if function.returns is None:
        return None
    node = function.returns.annotation
    return _classify(module, node, node)


def _classify(
    module: ParsedModule, node: cst.BaseExpression, whole: cst.BaseExpression
) -> Contract | None:
    optional, inner = _strip_optional(module, node)
    if inner is None:
        return None
    kind, model = _kind(module, inner)
    if kind is None:
        return None
    return Contract(kind, optional, whole, model)


def _strip_optional(
    module: ParsedModule, node: cst.BaseExpression
) -> tuple[bool, cst.BaseExpression | None]:
    """``(True, X)`` for ``Optional[X]``, ``X | None``, ``Union[X, None]``; ``(False, X)``
    for anything else; ``(.., None)`` for a union of several types."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        parts = _union_parts(node)
        others = [p for p in parts if not _is_none(p)]
        if len(others) != 1:
            return False, None
        return len(others) != len(parts), others[0]
    if isinstance(node, cst.Subscript):
        qualified = module.qualified_name(node.value)
        arguments = [e.slice.value for e in node.slice if isinstance(e.slice, cst.Index)]
        if qualified in _OPTIONAL and len(arguments) == 1:
            return True, arguments[0]
        if qualified in _UNION:
            others = [a for a in arguments if not _is_none(a)]
            if len(others) != 1:
                return False, None
            return len(others) != len(arguments), others[0]
    return False, node


def _union_parts(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        return _union_parts(node.left) + _union_parts(node.right)
    return [node]


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _kind(module: ParsedModule, node: cst.BaseExpression) -> tuple[str | None, cst.ClassDef | None]:
    subscripted = isinstance(node, cst.Subscript)
    base = node.value if isinstance(node, cst.Subscript) else node
    if isinstance(base, cst.Name) and module.is_builtin(base, base.value):
        name = base.value
        if name in ("str", "int", "float", "bool") and not subscripted:
            return name, None
        if name == "dict":
            return ("dict" if subscripted else "bare-dict"), None
        if name == "list":
            return ("list" if subscripted else "bare-list"), None
        if name == "None":
            return "none", None
        return None, None
    if isinstance(base, cst.Name) and base.value in module.classes and not subscripted:
        cls = module.classes[base.value]
        if base.value in module.shadowed:
            return None, None
        return _class_kind(module, cls), cls
    qualified = module.qualified_name(base)
    if qualified is None:
        return None, None
    if qualified in CALL_TOOL_RESULT:
        return "call-tool-result", None
    if qualified in _DICT_TYPES:
        return ("dict" if subscripted else "bare-dict"), None
    if qualified == "typing.List":
        return ("list" if subscripted else "bare-list"), None
    return None, None


def _class_kind(module: ParsedModule, cls: cst.ClassDef) -> str | None:
    """``model``, ``typeddict`` or ``dataclass`` for a same-module class that is certainly
    one (a direct base of the library's class, or ``@dataclass``)."""
    for decorator in cls.decorators:
        expr = decorator.decorator
        if isinstance(expr, cst.Call):
            expr = expr.func
        if module.qualified_name(expr) in _DATACLASS:
            return "dataclass"
    bases = [module.qualified_name(arg.value) for arg in cls.bases if arg.keyword is None]
    if any(b in _BASE_MODEL for b in bases):
        return "model"
    if any(b in _TYPED_DICT for b in bases):
        return "typeddict"
    return None


def required_fields(module: ParsedModule, cls: cst.ClassDef) -> frozenset[str] | None:
    """The fields a pydantic model requires (annotated, no default), when its only base is
    ``BaseModel`` and its body is plain field declarations and methods."""
    bases = [arg for arg in cls.bases if arg.keyword is None]
    if len(bases) != 1 or module.qualified_name(bases[0].value) not in _BASE_MODEL:
        return None
    if any(arg.keyword is not None for arg in cls.bases):
        return None  # class keywords (``extra=``…): not read
    if not isinstance(cls.body, cst.IndentedBlock):
        return None
    required: set[str] = set()
    for statement in cls.body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not isinstance(small, cst.AnnAssign) or not isinstance(small.target, cst.Name):
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        if (
                            isinstance(target.target, cst.Name)
                            and target.target.value == "model_config"
                        ):
                            return None  # aliases, population by name…: not read
                continue
            name = small.target.value
            text = module.code_for(small.annotation.annotation)
            if name.startswith("_") or "ClassVar" in text:
                continue
            if small.value is None:
                required.add(name)
    return frozenset(required)
