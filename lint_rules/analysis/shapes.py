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

import builtins
import enum
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import libcst as cst

from lint_rules.analysis.bindings import (
    BINDING_FORMS,
    parameters,
    root_name,
    target_names,
)
from lint_rules.analysis.literals import float_value, int_value, string_value
from lint_rules.analysis.module import ParsedModule, _module_level_statements
from lint_rules.analysis.returns import analyse_function
from lint_rules.analysis.summaries import Class, Function
from lint_rules.analysis.walk import child_list, parent_map
from lint_rules.analysis.walk import find as walk_find


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
    EXCEPTION = "exception"
    """An exception instance (``type_name``: its class), returned where it should be raised."""
    COROUTINE = "coroutine"
    """A call of an ``async def`` that nothing awaits (``type_name``: the function)."""
    UNKNOWN = "unknown"


NUMBER_KINDS: Final = frozenset({Kind.INT, Kind.FLOAT, Kind.COMPLEX})
MISTAKE_KINDS: Final = frozenset({Kind.EXCEPTION, Kind.COROUTINE})
"""Values that are a mistake wherever a tool returns them (TRV901, TRV902). They are not
``is_known``: the framework rules, which judge a value's type, say nothing of them."""
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
    item: Shape | None = None
    """A list's, tuple's or set's element shape: what every element certainly is
    (``[str(x) for x in xs]``, ``list[str]``, ``out.append(...)`` of strs)."""

    @property
    def is_known(self) -> bool:
        return self.kind is not Kind.UNKNOWN and self.kind not in MISTAKE_KINDS

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

    def element_shapes(self) -> tuple[Shape, ...]:
        """Shapes every element of a list, tuple or set is one of: a closed display's
        elements, else its element shape; ``()`` when unknown (or empty)."""
        if not self.open:
            return self.elements
        return () if self.item is None else (self.item,)

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
        if self.kind in (Kind.INSTANCE, Kind.EXCEPTION) and self.type_name:
            return self.type_name
        return self.kind.value


UNKNOWN: Final = Shape(Kind.UNKNOWN)

BUILTIN_EXCEPTIONS: Final = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)
"""The builtin exception classes (``ValueError``, ``KeyError``, …)."""

FRAMEWORK_EXCEPTIONS: Final = frozenset(
    {
        # MCP: the official SDK's FastMCP and standalone fastmcp
        "mcp.server.fastmcp.exceptions.ToolError",
        "mcp.server.fastmcp.exceptions.FastMCPError",
        "mcp.server.fastmcp.ToolError",
        "mcp.shared.exceptions.McpError",
        "mcp.McpError",
        "fastmcp.exceptions.ToolError",
        "fastmcp.exceptions.FastMCPError",
        "fastmcp.ToolError",
        # Pydantic AI
        "pydantic_ai.ModelRetry",
        "pydantic_ai.exceptions.ModelRetry",
        "pydantic_ai.UserError",
        "pydantic_ai.exceptions.UserError",
        # LangChain
        "langchain_core.tools.ToolException",
        "langchain_core.tools.base.ToolException",
        "langchain.tools.ToolException",
        # OpenAI Agents SDK
        "agents.AgentsException",
        "agents.UserError",
        "agents.ModelBehaviorError",
        "agents.exceptions.AgentsException",
        "agents.exceptions.UserError",
        "agents.exceptions.ModelBehaviorError",
    }
)
"""Exceptions of the frameworks, by the qualified names they are imported under."""


def exception_classes(module: ParsedModule) -> frozenset[str]:
    """The module-level classes of ``module`` that derive, through same-module bases, from a
    builtin exception or a framework exception (``class NotFound(LookupError)``)."""
    found = module.memo.get("shapes.exception_classes")
    if found is not None:
        return found  # type: ignore[no-any-return]
    exceptions: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, cls in module.classes.items():
            if name in exceptions or name in module.shadowed:
                continue
            for base in cls.bases:
                value = base.value
                if base.keyword is not None or base.star:
                    continue
                builtin = (
                    isinstance(value, cst.Name)
                    and value.value in BUILTIN_EXCEPTIONS
                    and module.is_builtin(value, value.value)
                )
                is_exception = (
                    builtin
                    or (isinstance(value, cst.Name) and value.value in exceptions)
                    or module.qualified_name(value) in FRAMEWORK_EXCEPTIONS
                )
                if is_exception:
                    exceptions.add(name)
                    changed = True
                    break
    result = frozenset(exceptions)
    module.memo["shapes.exception_classes"] = result
    return result


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
    # Same kind, different contents: the kind is certain, the contents are not — except
    # an element shape all of them share.
    item = None
    if first.kind in (Kind.LIST, Kind.TUPLE, Kind.SET):
        parts: list[Shape] = []
        for shape in shapes:
            if shape.open:
                if shape.item is None:
                    break
                parts.append(shape.item)
            else:
                parts.extend(shape.elements)
        else:
            common = join(parts) if parts else UNKNOWN
            item = common if common.is_known else None
    return Shape(first.kind, open=True, item=item)


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
#
# Only a binding changes what a name is; a use never does (RULES.md, "Value
# inference"). The collector reads every binding of a name *and every use*, with
# the context the use stands in, because a use can still change a mutable
# container's contents (never its kind): ``out.append(x)`` folds ``x`` into the
# list's element shape, ``r["k"] = v`` adds a key, ``log(out)`` or ``y = out``
# makes the contents unknown, ``len(out)`` or ``for x in out`` leaves them alone.

# Use contexts. A method-call context is a ``_Method`` (the method's name and call); a
# subscript store with a literal ``str`` key is a ``_KeyStore``.
_READ: Final = 0
"""Read only: ``len(x)``, ``for _ in x``, ``f"{x}"``, ``x in y``, ``return x``."""
_ESCAPE: Final = 1
"""The value goes somewhere it may be mutated or aliased: an unknown call's argument,
``y = x``, an element of a display that is stored."""
_MUTATE: Final = 2
"""Something below the value is stored to or deleted: ``x.a = 1``, ``del x[0]``."""
_STORE: Final = 3
"""The node is an assignment target (a ``Subscript``/``Attribute`` being stored to)."""


@dataclass(frozen=True)
class _Callee:
    call: cst.Call


@dataclass(frozen=True)
class _Method:
    name: str
    call: cst.Call


@dataclass(frozen=True)
class _Store:
    """An assignment target with the value it receives (``None``: not a plain ``=``)."""

    value: cst.BaseExpression | None


_Context = int | _Callee | _Method | _Store

_TRACKED_METHODS: Final = frozenset({"append", "extend", "insert", "add", "update"})
_READ_ONLY_METHODS: Final = frozenset({"get", "keys", "values", "items", "copy", "count", "index"})
_READ_ONLY_BUILTINS: Final = frozenset(
    {
        "len", "sum", "min", "max", "sorted", "list", "tuple", "set", "frozenset", "dict",
        "str", "repr", "ascii", "format", "print", "any", "all", "enumerate", "zip", "reversed",
        "isinstance", "issubclass", "bool", "int", "float", "round", "abs", "hash", "id", "type",
        "iter", "bytes",
    }
)  # fmt: skip
_READ_ONLY_FUNCTIONS: Final = frozenset({"json.dumps"})
_READING_METHODS: Final = _READ_ONLY_METHODS | _STR_METHODS | _STR_PREDICATES
"""Methods through which an element (``x[0].get(…)``, ``x[0].lower()``) is only read."""
_SCOPE_ESCAPES: Final = frozenset({"locals", "vars", "exec", "eval"})
"""Builtins through which a function may read or rebind any of its names."""


@dataclass
class _Fold:
    """A tracked mutation: ``x.append(v)`` (``key`` None) or ``x["k"] = v``."""

    value: cst.BaseExpression
    key: str | None = None
    key_node: cst.BaseExpression | None = None
    block: int = 0
    order: int = 0


@dataclass
class _Binding:
    values: list[cst.BaseExpression] = field(default_factory=list)
    augmented: list[cst.AugAssign] = field(default_factory=list)
    unknown: bool = False
    """Bound by a form whose value is not tracked (``for`` target, import, ``global`` …)."""
    contents_unknown: bool = False
    """Used in a way that may change a container's contents (its kind stays)."""
    touched: bool = False
    """Used in a way that may change an object's state (an instance's fields)."""
    folds: list[_Fold] = field(default_factory=list)
    block: int = 0
    order: int = 0
    """Where the (first) plain assignment stands: its statement block and position."""
    sites: list[cst.CSTNode] = field(default_factory=list)
    """Every node that binds the name, of any form (for the flow reading of a use)."""
    unplaced: bool = False
    """Bound where the flow reading cannot place it: ``global``/``nonlocal``, or in a
    nested function, class or lambda (which may run at any time)."""


class _BindingCollector:
    """Bindings and uses of names anywhere in a function body.

    Nested scopes are walked too: a nested function that rebinds or mutates a name
    through ``nonlocal`` — or merely shares its name — can only make it less known.

    ``touched`` keeps the older, broader question "bound *or possibly mutated*" that
    OpenAI Agents recognition asks through :meth:`ShapeInference.local_name_is_bound`:
    every binding, every store under a name, and every call that has a name as its
    receiver or argument (except calls that keep their arguments).
    """

    def __init__(
        self,
        module: ParsedModule,
        keeps_arguments: Callable[[cst.Call], bool] | None = None,
    ) -> None:
        self.module = module
        self.bindings: dict[str, _Binding] = {}
        self.touched: set[str] = set()
        self.keeps_arguments = keeps_arguments
        self.scope_escapes = False
        self._block = 0
        self._order = 0
        self._depth = 0
        """How many nested functions, classes and lambdas the walk is in."""

    def collect(self, body: cst.CSTNode) -> dict[str, _Binding]:
        self._block = id(body)
        self._visit(body, _ESCAPE)
        return self.bindings

    def _binding(self, name: str) -> _Binding:
        binding = self.bindings.get(name)
        if binding is None:
            binding = self.bindings[name] = _Binding()
        return binding

    # -- recording

    def _unknown(self, target: cst.BaseExpression) -> None:
        """``target`` is bound by a form whose value is not tracked."""
        for name in target_names(target):
            binding = self._binding(name)
            binding.unknown = True
            self._site(binding, target)
            self.touched.add(name)
        self._store_roots(target, None)

    def _site(self, binding: _Binding, node: cst.CSTNode) -> None:
        binding.sites.append(node)
        if self._depth:
            binding.unplaced = True

    def _store_roots(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        """Walk the subscript/attribute parts of a target as stores."""
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._store_roots(element.value, None)
        elif isinstance(target, cst.StarredElement):
            self._store_roots(target.value, None)
        elif isinstance(target, (cst.Subscript, cst.Attribute)):
            root = root_name(target)
            if root is not None:
                self.touched.add(root)
            self._visit(target, _Store(value))

    def _use(self, name: str, context: _Context) -> None:
        if context == _READ:
            return
        binding = self._binding(name)
        if isinstance(context, _Method):
            binding.touched = True
            if context.name in _READ_ONLY_METHODS:
                return
            if context.name in _TRACKED_METHODS and self._fold_method(binding, context):
                return
            binding.contents_unknown = True
            return
        binding.touched = True
        binding.contents_unknown = True

    def _fold_method(self, binding: _Binding, method: _Method) -> bool:
        """Record ``x.append(v)`` & co. as folds; False when the call is not one we track."""
        call = method.call
        if any(arg.star for arg in call.args):
            return False
        positional = [arg.value for arg in call.args if arg.keyword is None]
        keywords = [arg for arg in call.args if arg.keyword is not None]
        name = method.name
        if name in ("append", "add") and len(positional) == 1 and not keywords:
            binding.folds.append(_Fold(positional[0], block=-1))
            return True
        if name == "insert" and len(positional) == 2 and not keywords:
            binding.folds.append(_Fold(positional[1], block=-1))
            return True
        if name == "extend" and len(positional) == 1 and not keywords:
            display = positional[0]
            if isinstance(display, (cst.List, cst.Tuple)) and not any(
                isinstance(e, cst.StarredElement) for e in display.elements
            ):
                binding.folds.extend(_Fold(e.value, block=-1) for e in display.elements)
                return True
            return False
        if name == "update":
            folds = []
            if len(positional) == 1:
                display = positional[0]
                if not isinstance(display, cst.Dict):
                    return False
                for element in display.elements:
                    if not isinstance(element, cst.DictElement):
                        return False
                    key = _string(element.key)
                    if not isinstance(key, str):
                        return False
                    folds.append((key, element.key, element.value))
            elif positional:
                return False
            for arg in keywords:
                assert arg.keyword is not None
                folds.append((arg.keyword.value, arg.keyword, arg.value))
            self._order += 1
            binding.folds.extend(
                _Fold(value, key, node, self._block, self._order) for key, node, value in folds
            )
            return True
        return False

    def _bind(self, target: cst.Name, value: cst.BaseExpression) -> None:
        binding = self._binding(target.value)
        self._site(binding, target)
        self.touched.add(target.value)
        self._order += 1
        if not binding.values:
            binding.block, binding.order = self._block, self._order
        binding.values.append(value)

    # -- the walk

    def _visit(self, node: cst.CSTNode, context: _Context) -> None:
        handler = _HANDLERS.get(node.__class__)
        if handler is not None:
            handler(self, node, context)
            return
        for child in child_list(node):
            self._visit(child, _ESCAPE)

    def _children(self, node: cst.CSTNode, context: _Context) -> None:
        for child in child_list(node):
            self._visit(child, context)

    def name(self, node: cst.Name, context: _Context) -> None:
        if isinstance(context, _Store):  # a plain name as a store target is a binding
            return
        self._use(node.value, context)

    def attribute(self, node: cst.Attribute, context: _Context) -> None:
        inner: _Context
        if isinstance(context, _Callee):
            inner = _Method(node.attr.value, context.call)
        elif context == _READ:
            inner = _READ
        else:
            inner = _MUTATE
        self._visit(node.value, inner)

    def subscript(self, node: cst.Subscript, context: _Context) -> None:
        inner: _Context = _MUTATE
        if context == _READ or (isinstance(context, _Method) and context.name in _READING_METHODS):
            inner = _READ
        elif isinstance(context, _Store) and context.value is not None:
            key = _literal_key(node)
            if key is not None and isinstance(node.value, cst.Name):
                binding = self._binding(node.value.value)
                binding.touched = True
                self._order += 1
                binding.folds.append(_Fold(context.value, key[0], key[1], self._block, self._order))
                self._children_of_slice(node)
                return
        self._visit(node.value, inner)
        self._children_of_slice(node)

    def _children_of_slice(self, node: cst.Subscript) -> None:
        for element in node.slice:
            self._children(element, _READ)

    def call(self, node: cst.Call, context: _Context) -> None:
        func = node.func
        keeps = self.keeps_arguments is not None and self.keeps_arguments(node)
        if not keeps:
            if isinstance(func, cst.Attribute):
                root = root_name(func.value)
                if root is not None:
                    self.touched.add(root)
            for arg in node.args:
                root = root_name(arg.value)
                if root is not None:
                    self.touched.add(root)
        if (
            isinstance(func, cst.Name)
            and func.value in _SCOPE_ESCAPES
            and self.module.is_builtin(func, func.value)
        ):
            self.scope_escapes = True
        self._visit(func, _Callee(node))
        argument_context = _READ if keeps or self._reads_arguments(node) else _ESCAPE
        for arg in node.args:
            self._visit(arg.value, _ESCAPE if arg.star else argument_context)

    def _reads_arguments(self, call: cst.Call) -> bool:
        func = call.func
        if isinstance(func, cst.Name):
            return func.value in _READ_ONLY_BUILTINS and self.module.is_builtin(func, func.value)
        if isinstance(func, cst.Attribute):
            if _is_string(func.value) and func.attr.value in _STR_METHODS:
                return True  # ", ".join(parts), "{}".format(x)
            return self.module.qualified_name(func) in _READ_ONLY_FUNCTIONS
        return False

    def assign(self, node: cst.Assign, context: _Context) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self._bind(target.target, node.value)
            elif isinstance(target.target, (cst.Subscript, cst.Attribute)):
                self._store_roots(target.target, node.value)
            else:
                self._unknown(target.target)
        self._visit(node.value, _ESCAPE)

    def ann_assign(self, node: cst.AnnAssign, context: _Context) -> None:
        target = node.target
        if isinstance(target, cst.Name):
            if node.value is not None:
                self._bind(target, node.value)
        else:
            self._store_roots(target, node.value)
        self._visit(node.annotation, _READ)
        if node.value is not None:
            self._visit(node.value, _ESCAPE)

    def aug_assign(self, node: cst.AugAssign, context: _Context) -> None:
        target = node.target
        if isinstance(target, cst.Name):
            binding = self._binding(target.value)
            binding.augmented.append(node)
            self._site(binding, target)
            binding.contents_unknown = True  # ``out += [x]`` extends in place
            self.touched.add(target.value)
        else:
            self._store_roots(target, None)
        self._visit(node.value, _READ)

    def targets_unknown(self, node: cst.CSTNode, context: _Context) -> None:
        """``for``/``with … as``/``except … as``/walrus/import targets; then the rest."""
        for target in BINDING_FORMS[node.__class__](node):
            self._unknown(target)
        if isinstance(node, cst.For):
            self._visit(node.iter, _READ)
            self._visit(node.body, _ESCAPE)
            if node.orelse is not None:
                self._visit(node.orelse, _ESCAPE)
        elif isinstance(node, cst.NamedExpr):
            self._visit(node.value, _ESCAPE)
        elif isinstance(node, cst.WithItem):
            self._visit(node.item, _ESCAPE)
        elif isinstance(node, cst.ExceptHandler):
            if node.type is not None:
                self._visit(node.type, _READ)
            self._visit(node.body, _ESCAPE)
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            self._scope(node)
        # imports: nothing below them is a use

    def _scope(self, node: cst.FunctionDef | cst.ClassDef) -> None:
        for decorator in node.decorators:
            self._visit(decorator.decorator, _ESCAPE)
        if isinstance(node, cst.FunctionDef):
            self._parameters(node.params)
            if node.returns is not None:
                self._visit(node.returns, _READ)
        else:
            for arg in (*node.bases, *node.keywords):
                self._visit(arg.value, _ESCAPE)
        outer = self._block
        self._depth += 1
        self._visit(node.body, _ESCAPE)
        self._depth -= 1
        self._block = outer

    def _parameters(self, params: cst.Parameters) -> None:
        for param in parameters(params):
            if param.annotation is not None:
                self._visit(param.annotation, _READ)
            if param.default is not None:
                self._visit(param.default, _ESCAPE)

    def lambda_(self, node: cst.Lambda, context: _Context) -> None:
        self._parameters(node.params)
        self._depth += 1
        self._visit(node.body, _ESCAPE)
        self._depth -= 1

    def comp_for(self, node: cst.CompFor, context: _Context) -> None:
        self._unknown(node.target)
        self._visit(node.iter, _READ)
        for condition in node.ifs:
            self._visit(condition.test, _READ)
        if node.inner_for_in is not None:
            self._visit(node.inner_for_in, _ESCAPE)

    def delete(self, node: cst.Del, context: _Context) -> None:
        self._unknown(node.target)

    def declaration(self, node: cst.Global | cst.Nonlocal, context: _Context) -> None:
        for item in node.names:
            binding = self._binding(item.name.value)
            binding.unknown = binding.unplaced = True
            self.touched.add(item.name.value)

    def capture(self, node: cst.MatchAs | cst.MatchStar, context: _Context) -> None:
        if node.name is not None:
            self._unknown(node.name)
        if isinstance(node, cst.MatchAs) and node.pattern is not None:
            self._visit(node.pattern, _READ)

    def match_mapping(self, node: cst.MatchMapping, context: _Context) -> None:
        if node.rest is not None:
            self._unknown(node.rest)
        for element in node.elements:
            self._visit(element.key, _READ)
            self._visit(element.pattern, _READ)

    def match_keyword(self, node: cst.MatchKeywordElement, context: _Context) -> None:
        self._visit(node.pattern, _READ)

    def reading(self, node: cst.CSTNode, context: _Context) -> None:
        """Nodes whose operands are only read: operators, comparisons, tests, returns."""
        self._children(node, _READ)

    def passing(self, node: cst.CSTNode, context: _Context) -> None:
        """Nodes whose value *is* an operand's (a display's elements, ``a or b``)."""
        self._children(node, context)

    def if_exp(self, node: cst.IfExp, context: _Context) -> None:
        self._visit(node.test, _READ)
        self._visit(node.body, context)
        self._visit(node.orelse, context)

    def tested(self, node: cst.If | cst.While, context: _Context) -> None:
        self._visit(node.test, _READ)
        self._visit(node.body, _ESCAPE)
        if node.orelse is not None:
            self._visit(node.orelse, _ESCAPE)

    def block(self, node: cst.BaseSuite, context: _Context) -> None:
        outer = self._block
        self._block = id(node)
        self._children(node, _ESCAPE)
        self._block = outer


def _is_string(node: cst.BaseExpression) -> bool:
    return isinstance(node, (cst.SimpleString, cst.ConcatenatedString))


def _string(node: cst.BaseExpression) -> object:
    """The value of a string literal node; ``None`` for any other node."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        return string_value(node)
    return None


def _literal_key(node: cst.Subscript) -> tuple[str, cst.BaseExpression] | None:
    """The literal ``str`` key of ``x["k"]``, with its node."""
    if len(node.slice) != 1:
        return None
    index = node.slice[0].slice
    if not isinstance(index, cst.Index):
        return None
    key = _string(index.value)
    return (key, index.value) if isinstance(key, str) else None


_Handler = Callable[[_BindingCollector, Any, _Context], None]
_HANDLERS: Final[Mapping[type[cst.CSTNode], _Handler]] = {
    **{cls: _BindingCollector.targets_unknown for cls in BINDING_FORMS},
    cst.Name: _BindingCollector.name,
    cst.Attribute: _BindingCollector.attribute,
    cst.Subscript: _BindingCollector.subscript,
    cst.Call: _BindingCollector.call,
    cst.Assign: _BindingCollector.assign,
    cst.AnnAssign: _BindingCollector.ann_assign,
    cst.AugAssign: _BindingCollector.aug_assign,
    cst.Lambda: _BindingCollector.lambda_,
    cst.CompFor: _BindingCollector.comp_for,
    cst.Del: _BindingCollector.delete,
    cst.Global: _BindingCollector.declaration,
    cst.Nonlocal: _BindingCollector.declaration,
    cst.MatchAs: _BindingCollector.capture,
    cst.MatchStar: _BindingCollector.capture,
    cst.MatchMapping: _BindingCollector.match_mapping,
    cst.MatchKeywordElement: _BindingCollector.match_keyword,
    cst.Comparison: _BindingCollector.reading,
    cst.ComparisonTarget: _BindingCollector.reading,
    cst.UnaryOperation: _BindingCollector.reading,
    cst.BinaryOperation: _BindingCollector.reading,
    cst.FormattedStringExpression: _BindingCollector.reading,
    cst.Return: _BindingCollector.reading,
    cst.Await: _BindingCollector.reading,
    cst.Assert: _BindingCollector.reading,
    cst.Index: _BindingCollector.reading,
    cst.Slice: _BindingCollector.reading,
    cst.MatchValue: _BindingCollector.reading,
    cst.MatchClass: _BindingCollector.reading,
    cst.If: _BindingCollector.tested,
    cst.While: _BindingCollector.tested,
    cst.IfExp: _BindingCollector.if_exp,
    cst.BooleanOperation: _BindingCollector.passing,
    cst.List: _BindingCollector.passing,
    cst.Tuple: _BindingCollector.passing,
    cst.Set: _BindingCollector.passing,
    cst.Dict: _BindingCollector.passing,
    cst.Element: _BindingCollector.passing,
    cst.StarredElement: _BindingCollector.passing,
    cst.DictElement: _BindingCollector.passing,
    cst.StarredDictElement: _BindingCollector.passing,
    cst.IndentedBlock: _BindingCollector.block,
    cst.SimpleStatementSuite: _BindingCollector.block,
}
"""Node type → how :class:`_BindingCollector` reads it (every other node: its children,
each as an escaping use)."""


# ----------------------------------------------------------------- flow

_STATEMENT_BLOCKS: Final = (cst.IndentedBlock, cst.SimpleStatementLine, cst.SimpleStatementSuite)
_SCOPES: Final = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


class _Unbound(enum.Enum):
    NOT_BOUND = enum.auto()


_NOT_BOUND: Final = _Unbound.NOT_BOUND


def _ancestor_ids(
    node: cst.CSTNode, parents: Mapping[int, cst.CSTNode], top: cst.CSTNode
) -> set[int]:
    """``id`` of ``node`` and of each node above it, up to ``top``."""
    held = {id(node)}
    current = parents.get(id(node))
    while current is not None and current is not top:
        held.add(id(current))
        current = parents.get(id(current))
    return held


def _occurrences(name: str, statements: Sequence[cst.CSTNode]) -> int:
    """How many ``Name`` nodes spell ``name`` in ``statements``."""
    return sum(
        1
        for statement in statements
        for node in walk_find(statement, cst.Name)
        if isinstance(node, cst.Name) and node.value == name
    )


def _binding_in(
    statement: cst.CSTNode, name: str, holders: Sequence[set[int]]
) -> cst.BaseExpression | _Unbound | None:
    """What ``statement`` leaves bound to ``name`` after it runs: the value of a plain
    ``name = value`` (the last of a ``;`` line), ``None`` for any other binding or one
    nested in it, :data:`_NOT_BOUND` when it binds nothing of that name."""
    if not any(id(statement) in held for held in holders):
        return _NOT_BOUND
    if isinstance(statement, cst.SimpleStatementLine):
        for small in reversed(statement.body):
            found = _binding_in(small, name, holders)
            if found is not _NOT_BOUND:
                return found
        return None
    if isinstance(statement, cst.Assign):
        value: cst.BaseExpression | None = statement.value
        targets = [t.target for t in statement.targets]
    elif isinstance(statement, cst.AnnAssign):
        value, targets = statement.value, [statement.target]
    else:
        return None
    if value is None:
        return None
    plain = [t for t in targets if isinstance(t, cst.Name) and t.value == name]
    inside = [held for held in holders if id(statement) in held]
    if not plain or len(inside) != len(plain):
        return None  # bound also by an unpacking or a walrus in the value
    if any(not any(id(t) in held for t in plain) for held in inside):
        return None
    return value


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
        *,
        _calling: frozenset[str] = frozenset(),
    ) -> None:
        self.module = module
        self.function = function
        self.framework_types = framework_types or {}
        self._bindings: dict[str, _Binding] | None = None
        self._touched: set[str] = set()
        self._scope_escapes = False
        self._parameters: dict[str, cst.Param] = {}
        if function is not None:
            for param in parameters(function.params):
                self._parameters[param.name.value] = param
        self._resolving: set[str] = set()
        self._parents: dict[int, cst.CSTNode] | None = None
        self._holders: dict[str, list[set[int]]] = {}
        """Name → for each node that binds it, the ids of that node and of its parents."""
        self._fresh: dict[str, bool] = {}
        """Name → whether every use of it is fresh (:meth:`_reaching_value`)."""
        self._masked: list[str] = []
        """Names bound by the comprehension being inferred: not the function's."""
        self._calling = _calling
        """Same-module functions whose call is being inferred (no recursion)."""

    # -- public

    def infer(self, expr: cst.BaseExpression) -> Shape:
        try:
            return self._infer(expr)
        except RecursionError:  # pathological nesting: say nothing
            return UNKNOWN

    def local_name_is_bound(self, name: str) -> bool:
        """Whether the function binds ``name`` or may change it (bound *or possibly mutated*:
        a store under it, a call with it as receiver or argument), anywhere in its body."""
        self._local_bindings()
        return name in self._touched or name in self._parameters

    # -- helpers

    def _local_bindings(self) -> dict[str, _Binding]:
        if self._bindings is None:
            keeps = self._is_framework_constructor if self.framework_types else None
            collector = _BindingCollector(self.module, keeps)
            if self.function is not None:
                collector.collect(self.function.body)
            self._bindings = collector.bindings
            self._touched = collector.touched
            self._scope_escapes = collector.scope_escapes
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
            elements = tuple(self._infer(e.value) for e in expr.elements)
            return Shape(kind, elements=elements, item=_common(elements))
        if isinstance(expr, cst.ListComp):
            return Shape(Kind.LIST, open=True, item=_known(self._element(expr)))
        if isinstance(expr, cst.SetComp):
            return Shape(Kind.SET, open=True, item=_known(self._element(expr)))
        if isinstance(expr, cst.DictComp):
            return Shape(Kind.DICT, open=True)
        if isinstance(expr, cst.Call):
            return self._call(expr)
        if isinstance(expr, cst.Await):
            inner = expr.expression
            return self._call(inner, awaited=True) if isinstance(inner, cst.Call) else UNKNOWN
        if isinstance(expr, cst.Subscript):
            return self._subscript(expr)
        if isinstance(expr, cst.BinaryOperation):
            return self._binary(expr.operator, self._infer(expr.left), self._infer(expr.right))
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

    def _element(self, expr: cst.ListComp | cst.SetComp | cst.GeneratorExp) -> Shape:
        """The shape of a comprehension's element, its own targets masked."""
        masked: list[str] = []
        clause: cst.CompFor | None = expr.for_in
        while clause is not None:
            masked.extend(target_names(clause.target))
            clause = clause.inner_for_in
        self._masked.extend(masked)
        try:
            return self._infer(expr.elt)
        finally:
            del self._masked[len(self._masked) - len(masked) :]

    def _name(self, expr: cst.Name) -> Shape:
        name = expr.value
        if name in ("True", "False"):
            return literal(Kind.BOOL, name == "True")
        if name == "None":
            return literal(Kind.NONE, None)
        if name in self._masked:
            return UNKNOWN
        binding: _Binding | None = None
        if self.function is not None:
            bindings = self._local_bindings()
            if self._scope_escapes:
                return UNKNOWN  # locals()/vars()/exec/eval may read or rebind any name
            binding = bindings.get(name)
            rebound = binding is not None and (
                binding.values or binding.augmented or binding.unknown
            )
            param = self._parameters.get(name)
            if rebound and name not in self._resolving:
                assert binding is not None
                reaching = self._reaching_value(expr, binding)
                if reaching is not None:
                    reached, untouched = reaching
                    self._resolving.add(name)
                    try:
                        shape = self._infer(reached)
                        return shape if untouched else self._after_uses(shape, binding)
                    finally:
                        self._resolving.discard(name)
            if param is not None:
                if rebound:
                    return UNKNOWN  # a parameter that is reassigned
                return self._after_uses(self._annotation(param.annotation), binding)
            if rebound:
                assert binding is not None
                if binding.unknown or not binding.values or name in self._resolving:
                    return UNKNOWN
                self._resolving.add(name)
                try:
                    return self._after_uses(self._assigned(binding), binding)
                finally:
                    self._resolving.discard(name)
        value = self.module.constants.get(name)
        if value is not None and name not in self._resolving:
            self._resolving.add(name)
            try:
                shape = self.infer_module_level(value)
                if binding is not None and binding.folds and shape.kind in CONTAINER_KINDS:
                    # Other functions may fill a module-level container too: only its kind.
                    return Shape(shape.kind, open=True)
                return self._after_uses(shape, binding)
            finally:
                self._resolving.discard(name)
        return UNKNOWN

    def _reaching_value(
        self, use: cst.Name, binding: _Binding
    ) -> tuple[cst.BaseExpression, bool] | None:
        """The value of the one plain assignment that reaches ``use`` on every path, and
        whether no code can have changed its contents by the time of the use; ``None``
        when that is not certain (see :meth:`_reach`).

        The contents are untouched when every use of the name in the function is fresh
        — the name occurs nowhere from its reaching assignment to the statement that
        holds it but in the use itself, and no loop repeats the use alone — and the name
        occurs in no nested scope (which may run at any time): then each value assigned
        is read through the name once, where it is used, and even a list's elements are
        known there.
        """
        reach = self._reach(use, binding)
        if reach is None:
            return None
        untouched = self._fresh.get(use.value)
        if untouched is None:
            untouched = self._fresh[use.value] = self._every_use_fresh(use.value, binding)
        return reach[0], untouched

    def _reach(self, use: cst.Name, binding: _Binding) -> tuple[cst.BaseExpression, bool] | None:
        """The value of the plain assignment that reaches ``use`` on every path, read from
        the statement blocks around it, and whether the use is fresh (see
        :meth:`_reaching_value`); ``None`` when no such assignment is certain.

        Walking out from ``use``, the statements before it in each enclosing block are
        read nearest first: a plain ``name = value`` there is the answer; any other binding
        of the name — or one inside the statement that holds ``use`` at that level, such
        as a loop that rebinds it after the use — ends the reading with no answer. So
        ``output = [...]`` then ``results.append({"content": output})`` in one ``elif``
        reads the list, not the join of every branch's value.
        """
        if binding.unplaced or self.function is None:
            return None
        parents = self._parent_map()
        top = self.function.body
        holders = self._holders.get(use.value)
        if holders is None:
            holders = [_ancestor_ids(site, parents, top) for site in binding.sites]
            self._holders[use.value] = holders
        child: cst.CSTNode = use
        repeated = False  # the use runs again without the assignment: in a loop below it
        while child is not top:
            parent = parents.get(id(child))
            if parent is None or isinstance(parent, _SCOPES):
                return None  # not this function's tree, or under a nested scope
            repeated = repeated or isinstance(parent, (cst.For, cst.While))
            body = parent.body if isinstance(parent, _STATEMENT_BLOCKS) else None
            if isinstance(body, Sequence):
                if any(id(child) in held for held in holders):
                    return None  # bound inside the statement that holds the use
                at = next(i for i, statement in enumerate(body) if statement is child)
                for back in range(at - 1, -1, -1):
                    found = _binding_in(body[back], use.value, holders)
                    if found is None:
                        return None
                    if found is not _NOT_BOUND:
                        between = body[back + 1 : at + 1]
                        return found, not repeated and _occurrences(use.value, between) == 1
            child = parent
        return None

    def _parent_map(self) -> dict[int, cst.CSTNode]:
        assert self.function is not None
        if self._parents is None:
            self._parents = parent_map(self.function.body)
        return self._parents

    def _every_use_fresh(self, name: str, binding: _Binding) -> bool:
        """Whether every occurrence of ``name`` in the function is a plain assignment's
        target or a fresh use of one, and none is in a nested scope."""
        assert self.function is not None
        parents, top = self._parent_map(), self.function.body
        for node in walk_find(top, cst.Name):
            if not isinstance(node, cst.Name) or node.value != name:
                continue
            parent = parents.get(id(node))
            if isinstance(parent, cst.AssignTarget) or (
                isinstance(parent, cst.AnnAssign) and parent.target is node
            ):
                continue
            current = parent
            while current is not None and current is not top:
                if isinstance(current, _SCOPES):
                    return False
                current = parents.get(id(current))
            reach = self._reach(node, binding)
            if reach is None or not reach[1]:
                return False
        return True

    def _assigned(self, binding: _Binding) -> Shape:
        """The join of a name's assigned values, augmented assignments applied until the
        shape no longer changes (``n = 0`` … ``n += 1`` is an ``int``)."""
        shape = join([self._infer(value) for value in binding.values])
        if not binding.augmented:
            return shape
        for _ in range(3):
            if not shape.is_known:
                return UNKNOWN
            results = [shape]
            for node in binding.augmented:
                operator = _AUGMENTED.get(node.operator.__class__)
                if operator is None:
                    return UNKNOWN
                results.append(self._binary(operator, shape, self._infer(node.value)))
            widened = join(results)
            if widened == shape:
                return shape
            shape = widened
        return UNKNOWN

    def _after_uses(self, shape: Shape, binding: _Binding | None) -> Shape:
        """What uses leave of a value: a kind never changes; a container's contents
        survive only read-only uses and tracked mutations; an object's fields survive
        no use that could reach them."""
        if binding is None:
            return shape
        kind = shape.kind
        if kind is Kind.INSTANCE:
            if (binding.touched or binding.folds) and shape.type_name not in _IMMUTABLE_TYPES:
                return UNKNOWN
            return shape
        if kind not in CONTAINER_KINDS:
            return shape
        if kind is Kind.TUPLE:
            if binding.contents_unknown and not all(
                e.kind in _SCALAR_KINDS for e in shape.elements
            ):
                return Shape(Kind.TUPLE, open=True)
            return shape
        if binding.contents_unknown:
            return Shape(kind, open=True)
        if binding.folds:
            return self._fold(shape, binding)
        return shape

    def _fold(self, shape: Shape, binding: _Binding) -> Shape:
        """Fold tracked mutations (``append``/``add``/``extend``/``insert``, stores under a
        literal key, ``update``) into a container's shape."""
        if shape.kind is not Kind.DICT:
            if any(fold.key is not None for fold in binding.folds):
                return Shape(shape.kind, open=True)
            parts: list[Shape] = []
            if shape.open:
                parts.append(shape.item or UNKNOWN)
            else:
                parts.extend(shape.elements)
            parts.extend(self._infer(fold.value) for fold in binding.folds)
            return Shape(shape.kind, open=True, item=_common(tuple(parts)))
        entries = list(shape.entries)
        is_open = shape.open
        single = len(binding.values) == 1
        for fold in binding.folds:
            if fold.key is None:
                return Shape(Kind.DICT, open=True)
            value = self._infer(fold.value)
            at = next((i for i, e in enumerate(entries) if e.key == fold.key), None)
            certain = single and fold.block == binding.block and fold.order > binding.order
            if certain:
                entry = DictEntry(fold.key, fold.key_node, value, fold.value)
                if at is None:
                    entries.append(entry)
                else:
                    entries[at] = entry
            elif at is not None:  # maybe overwritten: only what both values share
                old = entries[at]
                entries[at] = DictEntry(
                    old.key, old.key_node, join([old.value, value]), old.value_node
                )
            else:
                is_open = True  # maybe added
        return Shape(Kind.DICT, entries=tuple(entries), open=is_open)

    def infer_module_level(self, value: cst.BaseExpression) -> Shape:
        """Infer a module-level expression (no locals)."""
        if self.function is None:
            return self._infer(value)
        return ShapeInference(self.module, None, self.framework_types)._infer(value)

    def annotation_shape(self, annotation: cst.Annotation | None) -> Shape:
        """The shape an annotation promises (``UNKNOWN`` when it is not known)."""
        return self._annotation(annotation)

    def _annotation(self, annotation: cst.Annotation | None) -> Shape:
        if annotation is None:
            return UNKNOWN
        return self._annotated(annotation.annotation, 0)

    def _annotated(self, node: cst.BaseExpression, depth: int) -> Shape:
        """The shape an annotation promises: builtins, ``typing`` aliases, element types
        (``list[str]``, ``tuple[int, ...]``), ``Optional[T]`` and ``T | None``, classes of
        this module."""
        if depth > 4:
            return UNKNOWN
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            return join(
                [self._annotated(node.left, depth + 1), self._annotated(node.right, depth + 1)]
            )
        arguments: list[cst.BaseExpression] = []
        if isinstance(node, cst.Subscript):
            for element in node.slice:
                if not isinstance(element.slice, cst.Index):
                    return UNKNOWN
                arguments.append(element.slice.value)
            node = node.value
        if isinstance(node, cst.Name) and node.value == "None":
            return literal(Kind.NONE, None)
        kind: Kind | None = None
        if isinstance(node, cst.Name) and self.module.is_builtin(node, node.value):
            kind = _BUILTIN_ANNOTATIONS.get(node.value)
            if kind is None:
                return UNKNOWN
        elif isinstance(node, cst.Name) and node.value in self.module.classes:
            if arguments:
                return UNKNOWN
            return self._local_class_instance(self.module.classes[node.value], None)
        else:
            qualified = self.module.qualified_name(node)
            if qualified in ("typing.Optional", "typing_extensions.Optional") and arguments:
                return join([self._annotated(arguments[0], depth + 1), literal(Kind.NONE, None)])
            kind = _TYPING_ANNOTATIONS.get(qualified) if qualified is not None else None
            if kind is None:
                return UNKNOWN
        if kind not in CONTAINER_KINDS:
            return Shape(kind)
        item: Shape | None = None
        if kind in (Kind.LIST, Kind.SET) and len(arguments) == 1:
            item = self._annotated(arguments[0], depth + 1)
        elif kind is Kind.TUPLE and arguments:
            if len(arguments) == 2 and isinstance(arguments[1], cst.Ellipsis):
                item = self._annotated(arguments[0], depth + 1)
            else:
                item = _common(tuple(self._annotated(a, depth + 1) for a in arguments))
        return Shape(kind, open=True, item=_known(item))

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

    def _subscript(self, expr: cst.Subscript) -> Shape:
        """``s[:3]`` of a str is a str, ``items[:3]`` of a list a list of the same elements;
        an index gives the element shape or a literal key's certain entry."""
        if len(expr.slice) != 1:
            return UNKNOWN
        index = expr.slice[0].slice
        base = self._infer(expr.value)
        kind = base.kind
        if isinstance(index, cst.Slice):
            if kind in (Kind.STR, Kind.BYTES):
                return Shape(kind)
            if kind in (Kind.LIST, Kind.TUPLE):
                return Shape(kind, open=True, item=base.item)
            return UNKNOWN
        if not isinstance(index, cst.Index):
            return UNKNOWN
        if kind is Kind.STR:
            return Shape(Kind.STR)
        if kind in (Kind.LIST, Kind.TUPLE):
            return base.item or UNKNOWN
        if kind is Kind.DICT and isinstance(
            index.value, (cst.SimpleString, cst.ConcatenatedString)
        ):
            key = string_value(index.value)
            entry = base.entry(key) if isinstance(key, str) else None
            return entry.value if entry is not None else UNKNOWN
        return UNKNOWN

    def _call(self, expr: cst.Call, *, awaited: bool = False) -> Shape:
        func = expr.func
        args = expr.args
        has_star = any(a.star for a in args)
        if isinstance(func, cst.Name) and not self.local_name_is_bound(func.value):
            name = func.value
            if name in self.module.functions and name not in self.module.shadowed:
                return self._function_call(self.module.functions[name], awaited, expr)
            if awaited:
                return UNKNOWN
            if self.module.is_builtin(func, name):
                if name in BUILTIN_EXCEPTIONS:
                    return Shape(Kind.EXCEPTION, type_name=name, call=expr)
                return self._builtin_call(name, args, has_star)
            if name in self.module.classes and name not in self.module.shadowed:
                if name in exception_classes(self.module):
                    return Shape(Kind.EXCEPTION, type_name=name, call=expr)
                return self._local_class_instance(self.module.classes[name], expr)
        method = self._own_async_method(func)
        if method is not None:
            return UNKNOWN if awaited else Shape(Kind.COROUTINE, type_name=method, call=expr)
        if awaited:
            return self._project_call(func, expr, awaited) or UNKNOWN
        # str methods on a known str receiver
        if isinstance(func, cst.Attribute):
            method = func.attr.value
            if method in _STR_METHODS or method in _STR_PREDICATES or method in _SPLITS:
                receiver = self._infer(func.value)
                if receiver.kind is Kind.STR:
                    if method in _SPLITS:
                        return Shape(Kind.LIST, open=True, item=Shape(Kind.STR))
                    return Shape(Kind.STR if method in _STR_METHODS else Kind.BOOL)
        qualified = self.module.qualified_name(func)
        if qualified is None:
            return UNKNOWN
        if qualified in _STR_RESULT_FUNCTIONS:
            return Shape(Kind.STR)
        type_name = self.framework_types.get(qualified) or _KNOWN_CONSTRUCTORS.get(qualified)
        if type_name is not None:
            return _instance(type_name, expr)
        if qualified in FRAMEWORK_EXCEPTIONS:
            return Shape(Kind.EXCEPTION, type_name=qualified.rsplit(".", 1)[-1], call=expr)
        return self._project_call(func, expr, awaited) or UNKNOWN

    def _project_call(
        self, func: cst.BaseExpression, call: cst.Call, awaited: bool
    ) -> Shape | None:
        """A call of a function or class of another module of the project, resolved
        through this module's imports (``analysis.summaries``): its annotation's shape (or
        its agreed literal returns), a coroutine for an ``async def`` not awaited, an
        exception for an exception class. ``None``: not such a call, or not known."""
        root: cst.BaseExpression = func
        while isinstance(root, cst.Attribute):
            root = root.value
        if not isinstance(root, cst.Name) or self.local_name_is_bound(root.value):
            return None
        qualified = self.module.qualified_name(func)
        if qualified is None:
            return None
        summaries = self.module.summaries
        found = summaries.resolve(self.module.path, qualified)
        name = qualified.rsplit(".", 1)[-1]
        if isinstance(found, Function) and found.facts.get("kind") in ("function", "static"):
            if found.is_async and not awaited:
                return Shape(Kind.COROUTINE, type_name=name, call=call) if found.plain else None
            if found.is_async is not awaited:
                return UNKNOWN  # ``await`` of a plain value
            kind = summaries.return_kind(found)
            return None if kind is None else _kind_shape(kind)
        if isinstance(found, Class) and not awaited and summaries.is_exception_class(found) is True:
            return Shape(Kind.EXCEPTION, type_name=name, call=call)
        return None

    def _own_async_method(self, func: cst.BaseExpression) -> str | None:
        """``m`` of ``self.m`` when this function is a method and ``m`` an ``async def`` of
        its class (``self`` is the first parameter and never rebound)."""
        function = self.function
        if (
            function is None
            or not isinstance(func, cst.Attribute)
            or not isinstance(func.value, cst.Name)
        ):
            return None
        receiver = func.value.value
        positional = [*function.params.posonly_params, *function.params.params]
        if not positional or positional[0].name.value != receiver or receiver != "self":
            return None
        if receiver in self._local_bindings() and self._local_bindings()[receiver].values:
            return None
        owner = self.module.index.enclosing_scope(function)
        if not isinstance(owner, cst.ClassDef) or any(
            isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod"
            for d in function.decorators
        ):
            return None
        name = func.attr.value
        found = None
        for statement in owner.body.body:
            if isinstance(statement, cst.FunctionDef) and statement.name.value == name:
                found = statement  # the last definition wins
        if found is None or found.asynchronous is None or found.decorators:
            return None
        return name

    def _builtin_call(self, name: str, args: Sequence[cst.Arg], has_star: bool) -> Shape:
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
            if has_star or not args:
                return UNKNOWN
            if len(args) == 1:
                return Shape(Kind.INT)
            number = self._infer(args[0].value).kind
            return Shape(number) if number in (Kind.INT, Kind.FLOAT) else UNKNOWN
        if name == "abs" and len(args) == 1 and not has_star:
            number = self._infer(args[0].value).kind
            return Shape(number) if number in (Kind.INT, Kind.FLOAT) else UNKNOWN
        if name == "sum":
            return self._sum(args)
        if name == "dict":
            return self._dict_call(args)
        kind = _CONTAINER_BUILTINS.get(name)
        if kind is not None and kind is not Kind.INSTANCE:
            if not args:
                return Shape(kind)
            item: Shape | None = None
            if kind is not Kind.DICT and not has_star and args[0].keyword is None:
                item = self._items_of(args[0].value)
            return Shape(kind, open=True, item=item)
        return UNKNOWN

    def _items_of(self, iterable: cst.BaseExpression) -> Shape | None:
        """The shape of every item ``iterable`` yields, when certain."""
        if isinstance(iterable, cst.GeneratorExp):
            return _known(self._element(iterable))
        source = self._infer(iterable)
        if source.kind is Kind.STR:
            return Shape(Kind.STR)
        if source.kind in (Kind.LIST, Kind.TUPLE, Kind.SET):
            return source.item
        return None

    def _function_call(
        self, function: cst.FunctionDef, awaited: bool, call: cst.Call | None = None
    ) -> Shape:
        """A call of a function of this module: its return annotation, else the shape all
        its return sites agree on (summarised: no node of the other function is kept)."""
        name = function.name.value
        if function.asynchronous is not None and not awaited:
            if name in _redefined(self.module) or function.decorators:
                return UNKNOWN  # a decorator may make it anything
            return Shape(Kind.COROUTINE, type_name=name, call=call)
        if (function.asynchronous is not None) is not awaited:
            return UNKNOWN  # ``await`` of a plain value
        if name in _redefined(self.module) or not _transparent_decorators(self.module, function):
            return UNKNOWN
        if function.returns is not None:
            return _summary(self._annotation(function.returns), self.framework_types)
        if name in self._calling or len(self._calling) >= _CALL_DEPTH:
            return UNKNOWN
        calls: dict[tuple[int, tuple[tuple[str, str], ...]], Shape] = self.module.memo.setdefault(
            "shapes.calls", {}
        )
        key = (id(function), tuple(sorted(self.framework_types.items())))
        cached = calls.get(key)
        if cached is not None:
            return cached
        flow = analyse_function(function, self.module)
        result = UNKNOWN
        if not flow.is_generator and flow.sites and not flow.uncertain_end:
            inner = ShapeInference(
                self.module, function, self.framework_types, _calling=self._calling | {name}
            )
            shapes: list[Shape] = []
            for site in flow.sites:
                if site.value is None:
                    shapes.append(literal(Kind.NONE, None))
                else:
                    shapes.extend(inner.infer(v) for v in returned_values(site.value))
            result = _summary(join(shapes), self.framework_types)
        if not self._calling:
            calls[key] = result
        return result

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
        argument = args[0].value
        if isinstance(argument, cst.GeneratorExp):
            item = self._element(argument)
            return Shape(Kind.INT) if item.kind in (Kind.INT, Kind.BOOL) else UNKNOWN
        iterable = self._infer(argument)
        if iterable.kind not in (Kind.LIST, Kind.TUPLE, Kind.SET):
            return UNKNOWN
        if not iterable.open and all(e.kind in (Kind.INT, Kind.BOOL) for e in iterable.elements):
            return Shape(Kind.INT)
        if iterable.item is not None and iterable.item.kind in (Kind.INT, Kind.BOOL):
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

    def _binary(self, op: cst.BaseBinaryOp, left: Shape, right: Shape) -> Shape:
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


_CALL_DEPTH: Final = 3
"""How deep calls of same-module functions are followed for their return shape."""
_SPLITS: Final = frozenset({"split", "rsplit", "splitlines"})
_SCALAR_KINDS: Final = frozenset(
    {Kind.STR, Kind.INT, Kind.FLOAT, Kind.COMPLEX, Kind.BOOL, Kind.NONE, Kind.BYTES}
)
_IMMUTABLE_TYPES: Final = frozenset(_KNOWN_CONSTRUCTORS.values())
"""Instances no use can change (``datetime``, ``Decimal``, ``UUID`` …)."""
_AUGMENTED: Final[Mapping[type[cst.BaseAugOp], cst.BaseBinaryOp]] = {
    cst.AddAssign: cst.Add(),
    cst.SubtractAssign: cst.Subtract(),
    cst.MultiplyAssign: cst.Multiply(),
    cst.DivideAssign: cst.Divide(),
    cst.FloorDivideAssign: cst.FloorDivide(),
    cst.ModuloAssign: cst.Modulo(),
    cst.PowerAssign: cst.Power(),
    cst.BitAndAssign: cst.BitAnd(),
    cst.BitOrAssign: cst.BitOr(),
    cst.BitXorAssign: cst.BitXor(),
    cst.LeftShiftAssign: cst.LeftShift(),
    cst.RightShiftAssign: cst.RightShift(),
}
_CACHE_DECORATORS: Final = frozenset({"functools.cache", "functools.lru_cache", "functools.wraps"})


def _kind_shape(kind: str) -> Shape:
    """The shape of a value of a kind a summary gives (``str``, ``dict``, ``none``, …)."""
    if kind == "none":
        return literal(Kind.NONE, None)
    shape_kind = Kind(kind)
    if shape_kind in CONTAINER_KINDS:
        return Shape(shape_kind, open=True)
    return Shape(shape_kind)


def _known(shape: Shape | None) -> Shape | None:
    return shape if shape is not None and shape.is_known else None


def _common(shapes: tuple[Shape, ...]) -> Shape | None:
    """The shape every one of ``shapes`` has (an element shape), ``None`` if none is."""
    return _known(join(list(shapes))) if shapes else None


def _summary(shape: Shape, framework_types: Mapping[str, str]) -> Shape:
    """``shape`` without the nodes of the function it was inferred in: a call's result is
    judged where it is returned, never at the callee's literals. A framework object's
    arguments cannot be read without those nodes: unknown."""
    kind = shape.kind
    if kind is Kind.INSTANCE:
        if shape.type_name in framework_types.values():
            return UNKNOWN
        return Shape(Kind.INSTANCE, type_name=shape.type_name, local_class=shape.local_class)
    if kind is Kind.DICT:
        return Shape(Kind.DICT, open=True)
    if kind in CONTAINER_KINDS:
        item = None if shape.item is None else _known(_summary(shape.item, framework_types))
        return Shape(kind, open=True, item=item)
    if kind in MISTAKE_KINDS:
        return Shape(kind, type_name=shape.type_name)
    return shape


def _redefined(module: ParsedModule) -> frozenset[str]:
    """Module-level names bound more than once (a call of one may reach either)."""
    found = module.memo.get("shapes.redefined")
    if isinstance(found, frozenset):
        return found
    seen: set[str] = set()
    twice: set[str] = set()
    for stmt in _module_level_statements(module.tree.body):
        names: list[str] = []
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            names.append(stmt.name.value)
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        names.extend(target_names(target.target))
                elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
                    names.extend(target_names(small.target))
        for name in names:
            (twice if name in seen else seen).add(name)
    result = frozenset(twice)
    module.memo["shapes.redefined"] = result
    return result


def _transparent_decorators(module: ParsedModule, function: cst.FunctionDef) -> bool:
    """No decorator, or only ones that keep the return value (``functools.cache``)."""
    for decorator in function.decorators:
        node = decorator.decorator
        if isinstance(node, cst.Call):
            node = node.func
        if module.qualified_name(node) not in _CACHE_DECORATORS:
            return False
    return True


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
