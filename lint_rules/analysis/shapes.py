"""Value inference: what a returned expression certainly is.

The inference answers only what the file alone makes certain and otherwise
says ``UNKNOWN``; rules never report an unknown shape. What is inferred is
exactly the list in RULES.md, "Value inference":

* literals and displays, comprehensions, f-strings and implicit concatenation;
* builtin calls with known results (``str() len() int() dict(k=v) sorted()`` …),
  ``json.dumps`` through imports, str methods on a known str receiver;
* operators on known operands; comparisons, ``not``, ``in``, ``is`` → bool;
* local names whose every assignment has one known shape and that are never
  mutated (any subscript/attribute store, method call, use as an argument
  except to a registered framework type's constructor,
  ``for``/``with``/``except``/walrus target, ``del``, ``global``/``nonlocal``
  makes them unknown), parameters annotated with a builtin type, module-level
  names assigned once;
* calls of same-module functions with a return annotation, of same-module
  classes (an instance; a ``TypedDict`` call is a dict), of ``datetime`` /
  ``date`` / ``Decimal`` / ``uuid4`` (through imports), and of framework types
  registered by the framework modules (keeping their keyword arguments).

``a if c else b`` is split by :func:`returned_values` so each branch is judged
as its own return value.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import libcst as cst

from lint_rules.analysis.bindings import (
    BINDING_FORMS,
    Targets,
    parameters,
    root_name,
    target_names,
)
from lint_rules.analysis.literals import float_value, int_value, string_value
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.walk import child_list


class Kind(enum.Enum):
    STR = "str"
    INT = "int"
    FLOAT = "float"
    COMPLEX = "complex"
    BOOL = "bool"
    NONE = "None"
    BYTES = "bytes"
    LIST = "list"
    TUPLE = "tuple"
    SET = "set"
    DICT = "dict"
    INSTANCE = "instance"
    UNKNOWN = "unknown"


NUMBER_KINDS: Final = frozenset({Kind.INT, Kind.FLOAT, Kind.COMPLEX})
CONTAINER_KINDS: Final = frozenset({Kind.LIST, Kind.TUPLE, Kind.SET, Kind.DICT})

_NO_LITERAL: Final = object()


@dataclass(frozen=True)
class DictEntry:
    """One ``"key": value`` of a dict display with a literal string key."""

    key: str
    key_node: cst.BaseExpression | None
    value: Shape
    value_node: cst.BaseExpression | None


@dataclass(frozen=True)
class Shape:
    """What a value certainly is.

    ``literal`` holds the Python value of a literal str/int/float/bool/None
    (``_NO_LITERAL`` otherwise). A dict keeps its literal-keyed entries;
    ``open`` means more keys may exist (``**spread``, computed keys, a dict
    whose contents differ between assignments). An instance names its class
    (``type_name``: a qualified name, or the local class name for same-module
    classes) and keeps its keyword arguments (``arguments``) and positional
    argument count.
    """

    kind: Kind
    literal: object = _NO_LITERAL
    entries: tuple[DictEntry, ...] = ()
    open: bool = False
    elements: tuple[Shape, ...] = ()
    type_name: str | None = None
    arguments: tuple[tuple[str, cst.Arg], ...] = ()
    positional: tuple[cst.Arg, ...] = ()
    has_star_arguments: bool = False
    call: cst.Call | None = None
    local_class: cst.ClassDef | None = field(default=None, compare=False)

    @property
    def is_known(self) -> bool:
        return self.kind is not Kind.UNKNOWN

    @property
    def has_literal(self) -> bool:
        return self.literal is not _NO_LITERAL

    @property
    def is_closed_dict(self) -> bool:
        return self.kind is Kind.DICT and not self.open

    def entry(self, key: str) -> DictEntry | None:
        for entry in self.entries:
            if entry.key == key:
                return entry
        return None

    def keys(self) -> frozenset[str]:
        return frozenset(e.key for e in self.entries)

    def argument(self, keyword: str) -> cst.Arg | None:
        for name, arg in self.arguments:
            if name == keyword:
                return arg
        return None

    def is_truthy(self) -> bool | None:
        """True/False when the value's truth is certain, None otherwise."""
        if self.has_literal:
            return bool(self.literal)
        if self.kind in CONTAINER_KINDS and not self.open:
            if self.kind is Kind.DICT:
                return bool(self.entries) or None
            return bool(self.elements) or None
        return None

    def describe(self) -> str:
        """Short human name, e.g. ``int``, ``dict``, ``datetime.datetime``."""
        if self.kind is Kind.INSTANCE and self.type_name:
            return self.type_name
        return self.kind.value


UNKNOWN: Final = Shape(Kind.UNKNOWN)


def literal(kind: Kind, value: object) -> Shape:
    return Shape(kind, literal=value)


def join(shapes: list[Shape]) -> Shape:
    """The shape every one of ``shapes`` certainly has (same kind), else unknown."""
    if not shapes:
        return UNKNOWN
    first = shapes[0]
    if all(s == first for s in shapes[1:]):
        return first
    if any(s.kind is not first.kind for s in shapes) or first.kind is Kind.UNKNOWN:
        return UNKNOWN
    if first.kind is Kind.INSTANCE:
        names = {s.type_name for s in shapes}
        return Shape(Kind.INSTANCE, type_name=first.type_name) if len(names) == 1 else UNKNOWN
    # Same kind, different contents: the kind is certain, the contents are not.
    return Shape(first.kind, open=True)


# ----------------------------------------------------------------- known types

_BUILTIN_ANNOTATIONS: Final[Mapping[str, Kind]] = {
    "str": Kind.STR,
    "int": Kind.INT,
    "float": Kind.FLOAT,
    "complex": Kind.COMPLEX,
    "bool": Kind.BOOL,
    "bytes": Kind.BYTES,
    "list": Kind.LIST,
    "tuple": Kind.TUPLE,
    "set": Kind.SET,
    "dict": Kind.DICT,
    "None": Kind.NONE,
}
_TYPING_ANNOTATIONS: Final[Mapping[str, Kind]] = {
    "typing.List": Kind.LIST,
    "typing.Dict": Kind.DICT,
    "typing.Set": Kind.SET,
    "typing.Tuple": Kind.TUPLE,
}

# Calls whose result type is certain, resolved through imports.
_KNOWN_CONSTRUCTORS: Final[Mapping[str, str]] = {
    "datetime.datetime": "datetime.datetime",
    "datetime.datetime.now": "datetime.datetime",
    "datetime.datetime.utcnow": "datetime.datetime",
    "datetime.datetime.today": "datetime.datetime",
    "datetime.datetime.fromisoformat": "datetime.datetime",
    "datetime.datetime.fromtimestamp": "datetime.datetime",
    "datetime.date": "datetime.date",
    "datetime.date.today": "datetime.date",
    "datetime.date.fromisoformat": "datetime.date",
    "datetime.time": "datetime.time",
    "datetime.timedelta": "datetime.timedelta",
    "decimal.Decimal": "decimal.Decimal",
    "uuid.uuid1": "uuid.UUID",
    "uuid.uuid4": "uuid.UUID",
    "uuid.UUID": "uuid.UUID",
}
_STR_RESULT_FUNCTIONS: Final = frozenset({"json.dumps"})

_STR_BUILTINS: Final = frozenset({"str", "repr", "format", "ascii", "chr", "hex", "oct", "bin"})
_STR_METHODS: Final = frozenset(
    {
        "capitalize", "casefold", "center", "expandtabs", "format", "format_map", "join",
        "ljust", "lower", "lstrip", "removeprefix", "removesuffix", "replace", "rjust",
        "rstrip", "strip", "swapcase", "title", "translate", "upper", "zfill",
    }
)  # fmt: skip
_STR_PREDICATES: Final = frozenset(
    {
        "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower",
        "isnumeric", "isprintable", "isspace", "istitle", "isupper", "startswith", "endswith",
    }
)  # fmt: skip
_CONTAINER_BUILTINS: Final[Mapping[str, Kind]] = {
    "list": Kind.LIST,
    "dict": Kind.DICT,
    "set": Kind.SET,
    "frozenset": Kind.INSTANCE,
    "tuple": Kind.TUPLE,
    "sorted": Kind.LIST,
}


# ------------------------------------------------------------- local bindings


@dataclass
class _Binding:
    values: list[cst.BaseExpression] = field(default_factory=list)
    unknown: bool = False


class _BindingCollector:
    """Assignments and mutations of names anywhere in a function body.

    The binding forms of :data:`~lint_rules.analysis.bindings.BINDING_FORMS` make
    their names unknown, as do a subscript or attribute store (it mutates the name it
    hangs off), ``del``, comprehension and ``match`` targets, ``global``/``nonlocal``,
    and calls that may mutate (:meth:`call`). A plain or annotated assignment to a
    name keeps its value instead.

    Nested scopes are walked too: a nested function that rebinds or mutates a
    name through ``nonlocal`` — or merely shares its name — makes the name
    unknown, which can only silence a rule.
    """

    def __init__(self, keeps_arguments: Callable[[cst.Call], bool] | None = None) -> None:
        self.bindings: dict[str, _Binding] = {}
        self.keeps_arguments = keeps_arguments

    def collect(self, body: cst.CSTNode) -> dict[str, _Binding]:
        _read(self, body)
        return self.bindings

    def _binding(self, name: str) -> _Binding:
        binding = self.bindings.get(name)
        if binding is None:
            binding = self.bindings[name] = _Binding()
        return binding

    def _taint_target(self, target: cst.BaseExpression) -> None:
        for name in target_names(target, roots=True):
            self._binding(name).unknown = True

    def _taint_targets(self, targets: tuple[cst.BaseExpression, ...]) -> None:
        for target in targets:
            self._taint_target(target)

    def assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self._binding(target.target.value).values.append(node.value)
            else:
                self._taint_target(target.target)

    def ann_assign(self, node: cst.AnnAssign) -> None:
        if isinstance(node.target, cst.Name):
            if node.value is not None:
                self._binding(node.target.value).values.append(node.value)
        else:
            self._taint_target(node.target)

    def target(self, node: cst.CompFor | cst.Del) -> None:
        self._taint_target(node.target)

    def declaration(self, node: cst.Global | cst.Nonlocal) -> None:
        for item in node.names:
            self._binding(item.name.value).unknown = True

    def capture(self, node: cst.MatchAs | cst.MatchStar) -> None:
        if node.name is not None:
            self._taint_target(node.name)

    def match_mapping(self, node: cst.MatchMapping) -> None:
        if node.rest is not None:
            self._taint_target(node.rest)

    def call(self, node: cst.Call) -> None:
        # A method call on a name, or the name passed as an argument, may mutate it —
        # except for calls known to leave their arguments alone (framework models).
        if self.keeps_arguments is not None and self.keeps_arguments(node):
            return
        if isinstance(node.func, cst.Attribute):
            root = root_name(node.func.value)
            if root is not None:
                self._binding(root).unknown = True
        for arg in node.args:
            root = root_name(arg.value)
            if root is not None:
                self._binding(root).unknown = True


def _taints(targets: Targets) -> Callable[[_BindingCollector, Any], None]:
    def read(collector: _BindingCollector, node: Any) -> None:
        collector._taint_targets(targets(node))

    return read


_READERS: Final[Mapping[type[cst.CSTNode], Callable[[_BindingCollector, Any], None]]] = {
    **{cls: _taints(targets) for cls, targets in BINDING_FORMS.items()},
    cst.Assign: _BindingCollector.assign,
    cst.AnnAssign: _BindingCollector.ann_assign,
    cst.CompFor: _BindingCollector.target,
    cst.Del: _BindingCollector.target,
    cst.Global: _BindingCollector.declaration,
    cst.Nonlocal: _BindingCollector.declaration,
    cst.MatchAs: _BindingCollector.capture,
    cst.MatchStar: _BindingCollector.capture,
    cst.MatchMapping: _BindingCollector.match_mapping,
    cst.Call: _BindingCollector.call,
}
"""Node type → how :class:`_BindingCollector` reads it (every other node: not at all)."""


def _read(collector: _BindingCollector, node: cst.CSTNode) -> None:
    """Read ``node`` and every node below it, in source order.

    Recursive as ``run_visitor`` is, and as fast (it runs over every function whose
    values a rule infers): a body nested past the recursion limit raises
    ``RecursionError``, which :meth:`ShapeInference.infer` answers with ``UNKNOWN``.
    """
    read = _READERS.get(node.__class__)
    if read is not None:
        read(collector, node)
    for child in child_list(node):
        _read(collector, child)


# ----------------------------------------------------------------- inference


class ShapeInference:
    """Infers shapes inside one function of one module.

    ``framework_types`` maps qualified names of framework classes
    (``browser_use.ActionResult``) to the canonical type name the rules test;
    their calls become instances that keep their keyword arguments.
    """

    def __init__(
        self,
        module: ParsedModule,
        function: cst.FunctionDef | None = None,
        framework_types: Mapping[str, str] | None = None,
    ) -> None:
        self.module = module
        self.function = function
        self.framework_types = framework_types or {}
        self._bindings: dict[str, _Binding] | None = None
        self._parameters: dict[str, cst.Param] = {}
        if function is not None:
            for param in parameters(function.params):
                self._parameters[param.name.value] = param
        self._resolving: set[str] = set()

    # -- public

    def infer(self, expr: cst.BaseExpression) -> Shape:
        try:
            return self._infer(expr)
        except RecursionError:  # pathological nesting: say nothing
            return UNKNOWN

    def local_name_is_bound(self, name: str) -> bool:
        return name in self._local_bindings() or name in self._parameters

    # -- helpers

    def _local_bindings(self) -> dict[str, _Binding]:
        if self._bindings is None:
            keeps = self._is_framework_constructor if self.framework_types else None
            collector = _BindingCollector(keeps)
            if self.function is not None:
                collector.collect(self.function.body)
            self._bindings = collector.bindings
        return self._bindings

    def _is_framework_constructor(self, call: cst.Call) -> bool:
        """A framework type's constructor (a pydantic model, a dataclass) does not mutate
        its arguments: passing a local to ``ActionResult(...)`` keeps it known."""
        return self.module.qualified_name(call.func) in self.framework_types

    def _builtin(self, node: cst.BaseExpression, name: str) -> bool:
        return self.module.is_builtin(node, name) and not self.local_name_is_bound(name)

    def _infer(self, expr: cst.BaseExpression) -> Shape:
        if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString)):
            value = string_value(expr)
            if isinstance(value, bytes):
                return literal(Kind.BYTES, value)
            if isinstance(value, str):
                return literal(Kind.STR, value)
            return Shape(Kind.STR)  # concatenation with an f-string part
        if isinstance(expr, cst.FormattedString):
            return Shape(Kind.STR)
        if isinstance(expr, cst.Integer):
            return literal(Kind.INT, int_value(expr))
        if isinstance(expr, cst.Float):
            return literal(Kind.FLOAT, float_value(expr))
        if isinstance(expr, cst.Imaginary):
            return Shape(Kind.COMPLEX)
        if isinstance(expr, cst.Name):
            return self._name(expr)
        if isinstance(expr, cst.Dict):
            return self._dict(expr)
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            kind = {cst.List: Kind.LIST, cst.Tuple: Kind.TUPLE, cst.Set: Kind.SET}[type(expr)]
            if any(isinstance(e, cst.StarredElement) for e in expr.elements):
                return Shape(kind, open=True)
            return Shape(kind, elements=tuple(self._infer(e.value) for e in expr.elements))
        if isinstance(expr, cst.ListComp):
            return Shape(Kind.LIST, open=True)
        if isinstance(expr, cst.SetComp):
            return Shape(Kind.SET, open=True)
        if isinstance(expr, cst.DictComp):
            return Shape(Kind.DICT, open=True)
        if isinstance(expr, cst.Call):
            return self._call(expr)
        if isinstance(expr, cst.BinaryOperation):
            return self._binary(expr)
        if isinstance(expr, cst.UnaryOperation):
            return self._unary(expr)
        if isinstance(expr, cst.Comparison):
            return Shape(Kind.BOOL)
        if isinstance(expr, cst.BooleanOperation):
            left, right = self._infer(expr.left), self._infer(expr.right)
            if left.is_known and left.kind is right.kind:
                return join([left, right])
            return UNKNOWN
        if isinstance(expr, cst.IfExp):
            return join([self._infer(expr.body), self._infer(expr.orelse)])
        return UNKNOWN

    def _name(self, expr: cst.Name) -> Shape:
        name = expr.value
        if name in ("True", "False"):
            return literal(Kind.BOOL, name == "True")
        if name == "None":
            return literal(Kind.NONE, None)
        if self.function is not None:
            bindings = self._local_bindings()
            binding = bindings.get(name)
            param = self._parameters.get(name)
            if param is not None:
                if binding is not None:
                    return UNKNOWN  # a parameter that is reassigned or mutated
                return self._annotation(param.annotation)
            if binding is not None:
                if binding.unknown or not binding.values or name in self._resolving:
                    return UNKNOWN
                self._resolving.add(name)
                try:
                    return join([self._infer(v) for v in binding.values])
                finally:
                    self._resolving.discard(name)
        value = self.module.constants.get(name)
        if value is not None and name not in self._resolving:
            self._resolving.add(name)
            try:
                return self.infer_module_level(value)
            finally:
                self._resolving.discard(name)
        return UNKNOWN

    def infer_module_level(self, value: cst.BaseExpression) -> Shape:
        """Infer a module-level expression (no locals)."""
        if self.function is None:
            return self._infer(value)
        return ShapeInference(self.module, None, self.framework_types)._infer(value)

    def _annotation(self, annotation: cst.Annotation | None) -> Shape:
        if annotation is None:
            return UNKNOWN
        node = annotation.annotation
        if isinstance(node, cst.Subscript):
            node = node.value
        if isinstance(node, cst.Name) and self.module.is_builtin(node, node.value):
            kind = _BUILTIN_ANNOTATIONS.get(node.value)
            if kind is not None:
                return Shape(kind, open=kind in CONTAINER_KINDS)
            return UNKNOWN
        if isinstance(node, cst.Name) and node.value in self.module.classes:
            return self._local_class_instance(self.module.classes[node.value], None)
        qualified = self.module.qualified_name(node)
        if qualified is not None and qualified in _TYPING_ANNOTATIONS:
            return Shape(_TYPING_ANNOTATIONS[qualified], open=True)
        return UNKNOWN

    def _dict(self, expr: cst.Dict) -> Shape:
        entries: list[DictEntry] = []
        is_open = False
        for element in expr.elements:
            if not isinstance(element, cst.DictElement):
                is_open = True
                continue
            key = element.key
            key_value = (
                string_value(key)
                if isinstance(key, (cst.SimpleString, cst.ConcatenatedString))
                else None
            )
            if not isinstance(key_value, str):
                is_open = True
                continue
            entries.append(DictEntry(key_value, key, self._infer(element.value), element.value))
        return Shape(Kind.DICT, entries=tuple(entries), open=is_open)

    def _call(self, expr: cst.Call) -> Shape:
        func = expr.func
        args = expr.args
        has_star = any(a.star for a in args)
        # builtins
        if isinstance(func, cst.Name) and not self.local_name_is_bound(func.value):
            name = func.value
            if self.module.is_builtin(func, name):
                if name in _STR_BUILTINS:
                    return Shape(Kind.STR)
                if name in ("int", "len"):
                    return Shape(Kind.INT)
                if name == "float":
                    return Shape(Kind.FLOAT)
                if name == "bool":
                    return Shape(Kind.BOOL)
                if name == "complex":
                    return Shape(Kind.COMPLEX)
                if name == "bytes":
                    return Shape(Kind.BYTES)
                if name == "round":
                    return Shape(Kind.INT) if len(args) == 1 and not has_star else UNKNOWN
                if name == "sum":
                    return self._sum(args)
                if name == "dict":
                    return self._dict_call(args)
                kind = _CONTAINER_BUILTINS.get(name)
                if kind is not None and kind is not Kind.INSTANCE:
                    empty = not args
                    return Shape(kind, open=not empty)
                return UNKNOWN
            if name in self.module.functions and name not in self.module.shadowed:
                return self._annotation(self.module.functions[name].returns)
            if name in self.module.classes and name not in self.module.shadowed:
                return self._local_class_instance(self.module.classes[name], expr)
        # str methods on a known str receiver
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            if method in _STR_METHODS or method in _STR_PREDICATES:
                receiver = self._infer(func.value)
                if receiver.kind is Kind.STR:
                    return Shape(Kind.STR if method in _STR_METHODS else Kind.BOOL)
        qualified = self.module.qualified_name(func)
        if qualified is None:
            return UNKNOWN
        if qualified in _STR_RESULT_FUNCTIONS:
            return Shape(Kind.STR)
        type_name = self.framework_types.get(qualified) or _KNOWN_CONSTRUCTORS.get(qualified)
        if type_name is not None:
            return _instance(type_name, expr)
        return UNKNOWN

    def _dict_call(self, args: Sequence[cst.Arg]) -> Shape:
        if not args:
            return Shape(Kind.DICT)
        entries: list[DictEntry] = []
        for arg in args:
            if arg.keyword is None or arg.star:
                return Shape(Kind.DICT, open=True)
            entries.append(
                DictEntry(arg.keyword.value, arg.keyword, self._infer(arg.value), arg.value)
            )
        return Shape(Kind.DICT, entries=tuple(entries))

    def _sum(self, args: Sequence[cst.Arg]) -> Shape:
        if len(args) != 1 or args[0].star:
            return UNKNOWN
        iterable = self._infer(args[0].value)
        if (
            iterable.kind in (Kind.LIST, Kind.TUPLE, Kind.SET)
            and not iterable.open
            and all(e.kind in (Kind.INT, Kind.BOOL) for e in iterable.elements)
        ):
            return Shape(Kind.INT)
        return UNKNOWN

    def _local_class_instance(self, cls: cst.ClassDef, call: cst.Call | None) -> Shape:
        base_names = set()
        for base in cls.bases:
            qualified = self.module.qualified_name(base.value)
            if qualified is not None:
                base_names.add(qualified)
            if isinstance(base.value, cst.Name):
                base_names.add(base.value.value)
            elif isinstance(base.value, cst.Attribute):
                base_names.add(base.value.attr.value)
        if base_names & {"TypedDict", "typing.TypedDict", "typing_extensions.TypedDict"}:
            if call is None:
                return Shape(Kind.DICT, open=True)
            return self._dict_call(call.args)
        if base_names & {"NamedTuple", "typing.NamedTuple"}:
            return Shape(Kind.TUPLE, open=True)
        if any(k.keyword is not None for k in cls.keywords) or _defines(cls, "__new__"):
            return UNKNOWN  # a metaclass or __new__ may return anything
        if call is None:
            return Shape(Kind.INSTANCE, type_name=cls.name.value, local_class=cls)
        shape = _instance(cls.name.value, call)
        return Shape(
            Kind.INSTANCE,
            type_name=shape.type_name,
            arguments=shape.arguments,
            positional=shape.positional,
            has_star_arguments=shape.has_star_arguments,
            call=call,
            local_class=cls,
        )

    def _binary(self, expr: cst.BinaryOperation) -> Shape:
        left, right = self._infer(expr.left), self._infer(expr.right)
        op = expr.operator
        if isinstance(op, cst.Add) and left.kind is right.kind and left.kind in _CONCATENABLE:
            return Shape(left.kind)
        if isinstance(op, cst.Modulo) and left.kind is Kind.STR:
            return Shape(Kind.STR)
        if isinstance(op, cst.Multiply) and {left.kind, right.kind} == {Kind.STR, Kind.INT}:
            return Shape(Kind.STR)
        return _arithmetic(op, left, right)

    def _unary(self, expr: cst.UnaryOperation) -> Shape:
        if isinstance(expr.operator, cst.Not):
            return Shape(Kind.BOOL)
        operand = self._infer(expr.expression)
        if operand.kind is Kind.BOOL:
            return Shape(Kind.INT)
        if operand.kind in NUMBER_KINDS:
            if isinstance(expr.operator, cst.BitInvert) and operand.kind is not Kind.INT:
                return UNKNOWN
            if operand.has_literal and isinstance(expr.operator, cst.Minus):
                value = operand.literal
                assert isinstance(value, (int, float))
                return literal(operand.kind, -value)
            return Shape(operand.kind)
        return UNKNOWN


def _arithmetic(op: cst.BaseBinaryOp, left: Shape, right: Shape) -> Shape:
    numeric = {Kind.INT, Kind.FLOAT, Kind.COMPLEX, Kind.BOOL}
    if left.kind not in numeric or right.kind not in numeric:
        return UNKNOWN
    kinds = {left.kind, right.kind}
    if Kind.COMPLEX in kinds:
        return Shape(Kind.COMPLEX) if not isinstance(op, _INT_ONLY_OPS) else UNKNOWN
    if Kind.FLOAT in kinds:
        return Shape(Kind.FLOAT) if not isinstance(op, _INT_ONLY_OPS) else UNKNOWN
    # int/bool on both sides
    if isinstance(op, cst.Divide):
        return Shape(Kind.FLOAT)
    if isinstance(op, cst.Power):
        # int ** negative int is a float; only a literal non-negative exponent is certain.
        if right.has_literal and isinstance(right.literal, int) and right.literal >= 0:
            return Shape(Kind.INT)
        return UNKNOWN
    if isinstance(op, cst.MatrixMultiply):
        return UNKNOWN
    if isinstance(op, (cst.BitAnd, cst.BitOr, cst.BitXor)) and left.kind is right.kind is Kind.BOOL:
        return Shape(Kind.BOOL)
    return Shape(Kind.INT)


_CONCATENABLE = frozenset({Kind.STR, Kind.BYTES, Kind.LIST})
_INT_ONLY_OPS = (
    cst.BitAnd,
    cst.BitOr,
    cst.BitXor,
    cst.LeftShift,
    cst.RightShift,
    cst.MatrixMultiply,
)


def split_arguments(
    call: cst.Call,
) -> tuple[tuple[tuple[str, cst.Arg], ...], tuple[cst.Arg, ...], bool]:
    """A call's arguments as ``(keywords, positional, has_star)``: ``(name, arg)`` pairs for
    ``name=value``, the plain positional arguments, and whether any ``*args`` / ``**kwargs``
    stands among them (those are in neither tuple), each tuple in source order."""
    keywords: list[tuple[str, cst.Arg]] = []
    positional: list[cst.Arg] = []
    has_star = False
    for arg in call.args:
        if arg.star:
            has_star = True
        elif arg.keyword is not None:
            keywords.append((arg.keyword.value, arg))
        else:
            positional.append(arg)
    return tuple(keywords), tuple(positional), has_star


def _instance(type_name: str, call: cst.Call) -> Shape:
    keywords, positional, has_star = split_arguments(call)
    return Shape(
        Kind.INSTANCE,
        type_name=type_name,
        arguments=keywords,
        positional=positional,
        has_star_arguments=has_star,
        call=call,
    )


def _defines(cls: cst.ClassDef, name: str) -> bool:
    body = cls.body
    if not isinstance(body, cst.IndentedBlock):
        return False
    return any(isinstance(s, cst.FunctionDef) and s.name.value == name for s in body.body)


def returned_values(expr: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """The expressions a return can hand back: ``a if c else b`` yields ``a`` and ``b``."""
    if isinstance(expr, cst.IfExp):
        yield from returned_values(expr.body)
        yield from returned_values(expr.orelse)
    else:
        yield expr
