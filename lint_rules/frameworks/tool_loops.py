"""What the hand-written tool loops of every provider share: literal helpers, and a
function's (or the module body's) simple assignments with canonical spellings.

The Chat Completions family (``openai_chat``) and the Anthropic Messages family
(``anthropic``) both find dict displays of messages, the lists they are appended
to, and the requests those lists reach; only the key names and roles differ.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import libcst as cst

from lint_rules.analysis.bindings import local_bindings
from lint_rules.analysis.literals import string_value as literal_string
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.returns import dotted_name
from lint_rules.analysis.shapes import Kind, Shape
from lint_rules.analysis.walk import TreeIndex, display_of, find_indexed
from lint_rules.model import Applicability
from lint_rules.rules import EditSpec, FixSpec, replace_string_literal


class LoopFile(Protocol):
    """What a scope needs of the file it belongs to."""

    @property
    def module(self) -> ParsedModule: ...


def project_client(
    module: ParsedModule, request: cst.Call, depth: int, packages: tuple[str, ...]
) -> bool:
    """Whether the client of a request — ``client`` of ``client.messages.create(...)``
    (``depth`` 2) or ``client.chat.completions.create(...)`` (3) — is an object of a
    class of one of ``packages`` made in another module of the project: ``client =
    get_client()`` with ``get_client`` in ``llm.py``, ``from .llm import client``,
    ``make_client().messages.create(...)``. The loop module need not import the SDK."""
    client: cst.BaseExpression = request.func
    for _ in range(depth):
        if not isinstance(client, cst.Attribute):
            return False
        client = client.value
    summaries = module.summaries
    found: str | None = None
    if isinstance(client, cst.Call):
        callee = dotted_name(client.func)
        found = summaries.class_of_callee(module.path, callee) if callee else None
    elif isinstance(client, cst.Name):
        name = client.value
        scope = module.index.enclosing_scope(request)
        while scope is not None and not isinstance(scope, cst.FunctionDef):
            scope = module.index.enclosing_scope(scope)
        binding = local_bindings(scope).get(name) if isinstance(scope, cst.FunctionDef) else None
        if binding is not None:
            value = binding[1] if binding[0] == "assigned" else None
        elif name in module.shadowed:
            value = None
        elif name in module.imports:
            found = summaries.class_of_value(module.path, module.imports[name])
            value = None
        else:
            value = module.constants.get(name)
        if isinstance(value, cst.Await):
            value = value.expression
        if isinstance(value, cst.Call):
            callee = dotted_name(value.func)
            found = summaries.class_of_callee(module.path, callee) if callee else None
    return found is not None and found.split(".", 1)[0] in packages


def string_value(node: cst.BaseExpression | None) -> str | None:
    """The value of a plain string literal (no f-string, no concatenation of non-literals)."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = literal_string(node)
        return value if isinstance(value, str) else None
    return None


def dict_entry(node: cst.Dict, key: str) -> cst.DictElement | None:
    for element in node.elements:
        if isinstance(element, cst.DictElement) and string_value(element.key) == key:
            return element
    return None


def as_display(node: cst.BaseExpression) -> cst.BaseExpression:
    """The dict display a typed message constructor, ``dict(...)`` or helper call makes
    (``analysis.displays``), else ``node`` itself."""
    found = display_of(node)
    assert isinstance(found, cst.BaseExpression)
    return found


def literal_entry(node: cst.CSTNode, key: str) -> str | None:
    """The string literal a dict display holds under ``key`` (``"role"``, ``"type"``)."""
    if isinstance(node, cst.Call):
        node = display_of(node)
    if not isinstance(node, cst.Dict):
        return None
    entry = dict_entry(node, key)
    return string_value(entry.value) if entry is not None else None


def rename_key(
    module: ParsedModule, key: cst.BaseExpression, new: str, title: str
) -> FixSpec | None:
    """Rename a message's key: the string literal of a display, or the keyword argument
    a typed constructor's display stands in for (``tool_call_id=`` → ``tool_use_id=``);
    nothing for a key a helper's display got from the helper."""
    original = module.index.original(key)
    if original is key:
        return replace_string_literal(key, new, title)
    if isinstance(original, cst.Name) and new.isidentifier():
        return FixSpec(
            title=title, applicability=Applicability.UNSAFE, edits=(EditSpec(original, new),)
        )
    return None


def has_spread(node: cst.Dict) -> bool:
    return any(isinstance(e, cst.StarredDictElement) for e in node.elements)


def keyword(call: cst.Call, name: str) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def has_double_star(call: cst.Call) -> bool:
    return any(arg.star == "**" for arg in call.args)


def collect(
    node: cst.CSTNode, *types: type[cst.CSTNode], nested: bool = False
) -> list[cst.CSTNode]:
    """Every node of ``types`` inside ``node`` (``node`` itself included); unless
    ``nested``, nested functions, classes and lambdas are not entered (``node`` is).
    A search for ``cst.Dict`` also finds the displays that typed message constructors
    make (``analysis.displays``), where their calls are.

    The rules ask about many subtrees of one module (every dispatch site looks
    at the whole module): ``find_indexed`` answers from an index of the tree.
    """
    return find_indexed(node, *types, nested=nested, displays=True)


# ------------------------------------------------------------------ per function


@dataclass
class Scope:
    """One function (or the module body): its simple assignments, and canonical spellings."""

    file: LoopFile
    node: cst.Module | cst.FunctionDef
    assignments: dict[str, list[cst.BaseExpression | None]] = field(default_factory=dict)
    binders: dict[str, list[cst.CSTNode]] = field(default_factory=dict)
    """The statement (or expression) of each binding of a name, in source order."""

    def __post_init__(self) -> None:
        for found in collect(self.node, cst.Assign, cst.AnnAssign, cst.AugAssign, cst.For):
            if isinstance(found, cst.Assign):
                for target in found.targets:
                    value = found.value if len(found.targets) == 1 else None
                    self._bind(target.target, value, found)
            elif isinstance(found, cst.AnnAssign):
                self._bind(found.target, found.value, found)
            elif isinstance(found, (cst.AugAssign, cst.For)):
                self._bind(found.target, None, found)
        for found in collect(self.node, cst.NamedExpr, cst.WithItem, cst.CompFor):
            if isinstance(found, cst.NamedExpr):  # `assert (calls := message.tool_calls)`
                self._bind(found.target, found.value, found)
            elif isinstance(found, cst.WithItem) and found.asname is not None:
                self._bind(found.asname.name, None, found)

    def _bind(
        self, target: cst.BaseExpression, value: cst.BaseExpression | None, binder: cst.CSTNode
    ) -> None:
        if isinstance(target, cst.Name):
            self.assignments.setdefault(target.value, []).append(value)
            self.binders.setdefault(target.value, []).append(binder)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind(element.value, None, binder)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, None, binder)

    @cached_property
    def parameters(self) -> frozenset[str]:
        """The names of the function's parameters (none for the module body)."""
        if not isinstance(self.node, cst.FunctionDef):
            return frozenset()
        params = self.node.params
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                every.append(star)
        return frozenset(p.name.value for p in every)

    def root_name(self, node: cst.BaseExpression, depth: int = 0) -> str | None:
        """The name an expression's canonical spelling starts from (after once-assigned
        aliases are replaced by their value): ``response`` of ``message.tool_calls`` when
        ``message = response.choices[0].message``."""
        while True:
            if isinstance(node, cst.Name):
                value = self.value_of(node.value) if depth < 4 else None
                if value is None:
                    return node.value
                node, depth = value, depth + 1
            elif isinstance(node, (cst.Attribute, cst.Subscript)):
                node = node.value
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
                node = node.func.value  # message.model_dump()
            elif isinstance(node, cst.Call) and len(node.args) == 1:
                node = node.args[0].value  # dict(message)
            else:
                return None

    def value_of(self, name: str) -> cst.BaseExpression | None:
        """The one value a local name is assigned, if it is assigned exactly once."""
        values = self.assignments.get(name)
        if values is None or len(values) != 1:
            return None
        value = values[0]
        return as_display(value) if isinstance(value, cst.Call) else value

    def canonical(self, node: cst.BaseExpression, depth: int = 0) -> str:
        """Source text with once-assigned local aliases replaced by their value."""
        if depth < 4 and isinstance(node, cst.Name):
            value = self.value_of(node.value)
            if value is not None:
                return self.canonical(value, depth + 1)
        if isinstance(node, cst.Attribute):
            return f"{self.canonical(node.value, depth)}.{node.attr.value}"
        if isinstance(node, cst.Subscript):
            inner = self.file.module.code_for(node.slice[0]) if len(node.slice) == 1 else "?"
            return f"{self.canonical(node.value, depth)}[{inner.strip()}]"
        return self.file.module.code_for(node).strip()


def completed_later(scope: Scope, block: cst.Dict) -> bool:
    """The block is bound to a name that is changed after the literal
    (``result["tool_use_id"] = ...``, ``result.update(...)``): what its display lacks
    may be added there."""
    names = [n for n, values in scope.assignments.items() if any(v is block for v in values)]
    if not names:
        return False
    for node in collect(scope.node, cst.Subscript, cst.Call):
        owner = (
            node.value
            if isinstance(node, cst.Subscript)
            else node.func.value
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            else None
        )
        if isinstance(owner, cst.Name) and owner.value in names:
            return True
    return False


def appended_value(call: cst.Call) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """``(list, value)`` of ``lst.append(value)``."""
    func = call.func
    if (
        isinstance(func, cst.Attribute)
        and func.attr.value == "append"
        and len(call.args) == 1
        and not call.args[0].star
        and call.args[0].keyword is None
    ):
        return func.value, as_display(call.args[0].value)
    return None


def sent_values(call: cst.Call) -> list[cst.BaseExpression]:
    """The values a list method call adds: ``lst.append(v)``, ``lst.insert(i, v)``,
    the elements of ``lst.extend([v, ...])`` (a display; starred elements are not
    values)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or any(a.star or a.keyword for a in call.args):
        return []
    method, args = func.attr.value, call.args
    if method == "append" and len(args) == 1:
        return [as_display(args[0].value)]
    if method == "insert" and len(args) == 2:
        return [as_display(args[1].value)]
    if method == "extend" and len(args) == 1:
        return display_elements(args[0].value)
    return []


def display_elements(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The plain (not starred) elements of a list or tuple display, also of displays
    joined by ``+`` (``messages + [message]``)."""
    if isinstance(node, (cst.List, cst.Tuple)):
        return [as_display(e.value) for e in node.elements if isinstance(e, cst.Element)]
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return display_elements(node.left) + display_elements(node.right)
    return []


@dataclass(frozen=True)
class _ModuleOnly:
    module: ParsedModule


def module_scopes(module: ParsedModule) -> list[Scope]:
    """The scopes of a file (``scope_roots``), made once per parse for every loop family:
    a scope reads only its module (``Scope.file.module``), and five families ask."""
    return module.remembered(
        "tool_loops.scopes",
        (),
        lambda: [Scope(_ModuleOnly(module), node) for node in scope_roots(module)],
    )


def scope_roots(module: ParsedModule) -> list[cst.Module | cst.FunctionDef]:
    """The module body, then every function (nested ones too): the scopes of a file."""
    functions = [
        n
        for n in collect(module.tree, cst.FunctionDef, nested=True)
        if isinstance(n, cst.FunctionDef)
    ]
    return [module.tree, *functions]


def first_entry(node: cst.Dict, keys: tuple[str, ...]) -> cst.DictElement | None:
    """The entry of the first of ``keys`` the display holds (a foreign key name)."""
    for key in keys:
        entry = dict_entry(node, key)
        if entry is not None:
            return entry
    return None


def integer_index(node: cst.Subscript) -> bool:
    """``x[0]``, ``x[1]``, ``x[-1]``: one fixed item."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return False
    index = node.slice[0].slice.value
    if isinstance(index, cst.UnaryOperation):
        index = index.expression
    return isinstance(index, cst.Integer)


def derived_from(
    module: ParsedModule,
    scope: Scope,
    node: cst.BaseExpression,
    base: Callable[[cst.BaseExpression], str | None],
    depth: int = 0,
) -> str | None:
    """``base(X)`` of the ``X`` whose items ``node`` iterates: ``X`` itself, or a name
    assigned once to a comprehension, ``filter(...)`` or ``list(...)`` of its items
    (``r.content`` of Anthropic, ``r.output`` of the Responses API)."""
    found = base(node)
    if found is not None or depth > 3:
        return found
    if isinstance(node, cst.Name):
        value = scope.value_of(node.value)
        return derived_from(module, scope, value, base, depth + 1) if value is not None else None
    if isinstance(node, (cst.ListComp, cst.GeneratorExp)):
        return derived_from(module, scope, node.for_in.iter, base, depth + 1)
    if isinstance(node, cst.Call) and node.args and not any(a.star for a in node.args):
        if module.is_builtin(node.func, "list") and len(node.args) == 1:
            return derived_from(module, scope, node.args[0].value, base, depth + 1)
        if module.is_builtin(node.func, "filter") and len(node.args) == 2:
            return derived_from(module, scope, node.args[1].value, base, depth + 1)
    return None


def is_first_index(node: cst.Subscript) -> bool:
    """``x[0]``."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return False
    index = node.slice[0].slice.value
    return isinstance(index, cst.Integer) and index.value == "0"


def fixed_call_id(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """The call whose id ``node`` reads: ``X`` of ``X.id`` or ``X["id"]``."""
    return key_read(node, "id")


def key_read(node: cst.BaseExpression, key: str) -> cst.BaseExpression | None:
    """``X`` of ``X.<key>`` or ``X["<key>"]``."""
    if isinstance(node, cst.Attribute) and node.attr.value == key:
        return node.value
    if (
        isinstance(node, cst.Subscript)
        and len(node.slice) == 1
        and isinstance(node.slice[0].slice, cst.Index)
        and string_value(node.slice[0].slice.value) == key
    ):
        return node.value
    return None


def counted(
    module: ParsedModule,
    scope: Scope,
    response_of: Callable[[cst.BaseExpression], str | None],
) -> set[str]:
    """The responses whose calls a scope counts (``len(...)`` of a value ``response_of``
    traces to one): a loop that tests how many calls came may answer only one."""
    found: set[str] = set()
    for call in collect(scope.node, cst.Call):
        assert isinstance(call, cst.Call)
        if module.is_builtin(call.func, "len") and len(call.args) == 1:
            response = response_of(call.args[0].value)
            if response is not None:
                found.add(response)
    return found


def next_pick(module: ParsedModule, node: cst.BaseExpression) -> cst.BaseExpression | None:
    """What ``next(...)`` picks the first item of: ``X`` of ``next(b for b in X if ...)``,
    of ``next(b.id for b in X ...)`` and ``next(b["id"] ...)`` (the first item's id),
    of ``next(iter(X))``, the iterator itself of ``next(filter(...))``; ``None`` for a
    generator of anything else, or a call that is not the builtin ``next``."""
    if (
        not isinstance(node, cst.Call)
        or not module.is_builtin(node.func, "next")
        or not node.args
        or node.args[0].star
        or node.args[0].keyword is not None
    ):
        return None
    first = node.args[0].value
    if isinstance(first, cst.Call) and module.is_builtin(first.func, "iter") and first.args:
        return first.args[0].value
    if not isinstance(first, cst.GeneratorExp):
        return first  # next(filter(...)), next(blocks): the caller tells what it iterates
    if first.for_in.inner_for_in is not None:
        return None
    target, element = first.for_in.target, first.elt
    if not isinstance(target, cst.Name):
        return None
    owner = fixed_call_id(element) or element
    if isinstance(owner, cst.Name) and owner.value == target.value:
        return first.for_in.iter
    return None


def search_pick(
    scope: Scope, name: str, anchor: cst.CSTNode, keys: tuple[str, ...] = ()
) -> tuple[cst.For, cst.Break] | None:
    """The search loop a name holds the result of: every binding of ``name`` in the
    scope is ``name = None`` or ``name = <item>`` (or ``<item>[key]`` / ``<item>.key`` for
    one of ``keys``: Bedrock's ``block["toolUse"]``) in the body of ``for <item> in X``,
    followed in the same block by ``break``, and ``anchor`` is after the loop — so the
    name is one item of ``X`` (the first that matched), not each in turn."""
    binders = scope.binders.get(name, [])
    values = scope.assignments.get(name, [])
    index = scope.file.module.index
    picked: tuple[cst.For, cst.Break] | None = None
    for binder, value in zip(binders, values, strict=True):
        if isinstance(value, cst.Name) and value.value == "None":
            continue
        for key in keys:
            value = key_read(value, key) or value if value is not None else value
        if picked is not None or not isinstance(value, cst.Name):
            return None
        loops = [
            loop
            for loop in collect(scope.node, cst.For)
            if isinstance(loop, cst.For)
            and isinstance(loop.target, cst.Name)
            and loop.target.value == value.value
            and _inside(index, loop.body, binder)
        ]
        if not loops:
            return None
        loop = max(loops, key=lambda n: index.span(n)[0])
        exit_ = _break_after(loop, binder, index)
        if exit_ is None or _inside(index, loop, anchor):
            return None
        picked = (loop, exit_)
    return picked


def _inside(index: TreeIndex, outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
    start, end = index.span(outer)
    return start <= index.span(inner)[0] < end


def _break_after(loop: cst.For, binder: cst.CSTNode, index: TreeIndex) -> cst.Break | None:
    """The ``break`` of the block that holds ``binder``, after it (in the same line or
    a later statement of that block), that ends ``loop`` itself."""
    for body in collect(loop.body, cst.IndentedBlock):
        assert isinstance(body, cst.IndentedBlock)
        statements = list(body.body)
        holder = next((i for i, s in enumerate(statements) if _inside(index, s, binder)), None)
        if holder is None or not isinstance(statements[holder], cst.SimpleStatementLine):
            continue
        for statement in statements[holder:]:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if isinstance(small, cst.Break):
                    inner = [
                        n
                        for n in collect(loop.body, cst.For, cst.While)
                        if _inside(index, n, small)
                    ]
                    return None if inner else small
    return None


def awaited_call(value: cst.BaseExpression | None) -> cst.Call | None:
    """The call a value is, through an ``await``."""
    if isinstance(value, cst.Await):
        value = value.expression
    return value if isinstance(value, cst.Call) else None


def bound_to(scope: Scope, name: str, made_by: Callable[[cst.Call], bool]) -> bool:
    """Every binding of ``name`` in ``scope`` is a call ``made_by`` accepts (``r =
    client.responses.create(...)``, ``r = await ...``): the name is a request's response."""
    values = scope.assignments.get(name, [])
    return bool(values) and all(
        (call := awaited_call(value)) is not None and made_by(call) for value in values
    )


def value_in(module: ParsedModule, scope: Scope, name: str) -> cst.BaseExpression | None:
    """The one value ``name`` has where ``scope`` reads it: assigned once in the scope, or,
    in a top-level function that does not bind it, a module constant (a closure's name is
    the enclosing function's: not known)."""
    if isinstance(scope.node, cst.Module) or name in scope.parameters or name in scope.assignments:
        return scope.value_of(name)
    outer = module.index.enclosing_scope(scope.node)
    while outer is not None and not isinstance(outer, cst.Module):
        if isinstance(outer, cst.FunctionDef):
            return None
        outer = module.index.enclosing_scope(outer)
    return None if name in module.shadowed else module.constants.get(name)


def in_one_loop(scope: Scope, first: cst.CSTNode, second: cst.CSTNode) -> bool:
    """A ``for`` or ``while`` of the scope holds both nodes (one may run after the other
    on a later turn)."""
    index = scope.file.module.index
    a, b = index.span(first)[0], index.span(second)[0]
    for loop in collect(scope.node, cst.For, cst.While):
        start, end = index.span(loop)
        if start <= a < end and start <= b < end:
            return True
    return False


def not_text_content(shape: Shape, parts: frozenset[str], label: str, *, bools: bool) -> str | None:
    """What a tool result's content certainly is when it is neither a string nor a list of
    the API's content ``parts`` (``{"type": "text"}`` for Chat Completions, the
    ``input_*`` parts for the Responses API): a dict, a number, a bool (when ``bools``),
    or a list whose every element is a value or a part of another type (``label`` names
    the parts in the answer)."""
    if shape.kind is Kind.DICT:
        return "a dict"
    if bools and shape.kind is Kind.BOOL:
        return "a `bool`"
    if shape.kind in (Kind.INT, Kind.FLOAT):
        return f"{'an' if shape.kind is Kind.INT else 'a'} `{shape.kind.value}`"
    elements = shape.element_shapes() if shape.kind is Kind.LIST else ()
    if elements and all(_not_a_part(e, parts) for e in elements):
        return f"a list of values, not {label} parts"
    return None


def _not_a_part(element: Shape, parts: frozenset[str]) -> bool:
    """A list element that is certainly none of ``parts``."""
    if element.kind is Kind.DICT:
        entry = element.entry("type")
        if entry is None:
            return not element.open
        literal = entry.value.literal if entry.value.has_literal else None
        return isinstance(literal, str) and literal not in parts
    return element.kind in (Kind.STR, Kind.INT, Kind.FLOAT, Kind.BOOL, Kind.NONE)


def items_reaching(scope: Scope, request: cst.Call, name: str) -> list[cst.BaseExpression]:
    """The items known to reach a request's list argument ``name`` (``input=`` of the
    Responses API, ``messages=`` of Bedrock Converse): the elements of its display
    (``input=[...]``, ``input=history + [...]``), or of the list a name holds — its
    displays in the scope, and what ``append``/``insert``/``extend``/``+=`` add to it
    before the request or in a loop around both. Names of displays bound once are read
    as the display."""
    arg = keyword(request, name)
    if arg is None:
        return []
    found = display_elements(arg.value)
    names = [arg.value] if isinstance(arg.value, cst.Name) else []
    if isinstance(arg.value, cst.BinaryOperation):
        names = [n for n in (arg.value.left, arg.value.right) if isinstance(n, cst.Name)]
    for listed in names:
        found.extend(_list_items(scope, listed.value, request))
    items = []
    for item in found:
        if isinstance(item, cst.Name):
            value = scope.value_of(item.value)
            item = value if value is not None else item
        items.append(item)
    return items


def _list_items(scope: Scope, name: str, request: cst.Call) -> list[cst.BaseExpression]:
    found: list[cst.BaseExpression] = []
    for value in scope.assignments.get(name, []):
        if value is not None:
            found.extend(display_elements(value))
    index = scope.file.module.index
    for node in collect(scope.node, cst.Call, cst.AugAssign):
        target: cst.BaseExpression
        if isinstance(node, cst.AugAssign):
            target, added = node.target, display_elements(node.value)
        else:
            assert isinstance(node, cst.Call)
            func = node.func
            target = func.value if isinstance(func, cst.Attribute) else func
            added = sent_values(node)
        named = isinstance(target, cst.Name) and target.value == name
        before = index.span(node)[0] < index.span(request)[0]
        if added and named and (before or in_one_loop(scope, node, request)):
            found.extend(added)
    return found


def lists_holding(scope: Scope, node: cst.CSTNode) -> set[str]:
    """Names of the lists a value goes into: a name whose assigned value holds it
    (``results = [...node...]``, ``result = node``), and a list that ``append``/``insert``/
    ``extend`` add it (or such a name) to (``results.append(node)``) — a Gemini function
    response's parts list, a Bedrock tool result's blocks."""
    index = scope.file.module.index
    at = index.span(node)[0]
    found = set()
    for name, values in scope.assignments.items():
        for value in values:
            if value is not None and index.span(value)[0] <= at < index.span(value)[1]:
                found.add(name)
    for call in collect(scope.node, cst.Call):
        assert isinstance(call, cst.Call)
        func = call.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            for value in sent_values(call):
                start, end = index.span(value)
                if start <= at < end or (isinstance(value, cst.Name) and value.value in found):
                    found.add(func.value.value)
    return found


def loop_over(scope: Scope, name: str, anchor: cst.CSTNode) -> cst.BaseExpression | None:
    """What the ``for`` loop or comprehension whose target is ``name`` and whose body (a
    comprehension's element) holds ``anchor`` iterates: ``X`` of ``for call in X:`` around
    an answer, or of ``[answer(b) for b in X]``."""
    index = scope.file.module.index
    at = index.span(anchor)[0]
    for found in collect(scope.node, cst.For, cst.ListComp, cst.GeneratorExp, cst.SetComp):
        body: cst.CSTNode
        if isinstance(found, cst.For):
            target, iterated, body = found.target, found.iter, found.body
        else:
            assert isinstance(found, (cst.ListComp, cst.GeneratorExp, cst.SetComp))
            target, iterated, body = found.for_in.target, found.for_in.iter, found.elt
        start, end = index.span(body)
        if isinstance(target, cst.Name) and target.value == name and start <= at < end:
            return iterated
    return None
