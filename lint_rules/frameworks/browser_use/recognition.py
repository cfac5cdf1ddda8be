"""Which functions browser-use calls as actions, and where ``ActionResult`` is built.

browser-use 0.13.14: ``Tools.action(description, **kwargs)`` delegates to
``Registry.action(...)`` (``tools/service.py:2102-2107``,
``tools/registry/service.py:291-326``) and ``Controller`` is ``Tools``
(``tools/service.py:2327``). An *action* is therefore a function decorated
with ``@<x>.action(...)`` or ``@<x>.registry.action(...)`` in a module that
imports ``browser_use``, wherever the ``def`` is: at module level, inside a
factory function, or inside a method (browser-use registers its own actions
with ``@self.registry.action(...)`` in ``Tools.__init__``). An imported
receiver (``from .setup import tools``) is trusted; Django's ``admin.action``,
and a module-level receiver built by another library's call (``app =
Other()``) or by a local class without base classes, are not browser-use's.

``ActionResult`` is recognised only through imports: a qualified name under
``browser_use`` ending in ``ActionResult`` (``browser_use.ActionResult``,
``browser_use.agent.views.ActionResult``, aliases included). A class of that
name defined locally or imported from anywhere else is never checked, and a
name rebound inside the function that uses it is not trusted either. Calls
inside ``with pytest.raises(...)`` / ``self.assertRaises(...)`` are tests that
expect the error and are skipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst

from lint_rules import prefilter
from lint_rules.analysis.bindings import bound_names, names_in
from lint_rules.analysis.context import StatementContext
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.returns import FunctionFlow, ReturnSite, analyse_function
from lint_rules.analysis.shapes import (
    UNKNOWN,
    Kind,
    Shape,
    ShapeInference,
    literal,
    returned_values,
    split_arguments,
)
from lint_rules.analysis.walk import run_visitor

PACKAGE = "browser_use"
ACTION_RESULT = "browser_use.ActionResult"
"""The canonical type name ``ActionResult(...)`` shapes carry (never a local class name)."""
_KNOWN_ACTION_RESULT_NAMES = ("browser_use.ActionResult", "browser_use.agent.views.ActionResult")
_TOOLS_CLASSES = frozenset({"Tools", "Controller"})
_OTHER_ACTION_DECORATORS = ("django.",)
"""Imported modules whose ``.action(...)`` decorator is not browser-use's (``admin.action``)."""


def has_signal(source: str, path: str) -> bool:
    """Whether a file can hold browser-use actions or ``ActionResult`` calls (textual)."""
    return prefilter.has_signal("browser_use", source, path)


def is_browser_use_name(qualified: str | None) -> bool:
    return qualified is not None and (qualified == PACKAGE or qualified.startswith(PACKAGE + "."))


def is_action_result_name(qualified: str | None) -> bool:
    return (
        qualified is not None
        and is_browser_use_name(qualified)
        and qualified.rsplit(".", 1)[-1] == "ActionResult"
    )


def action_result_types(module: ParsedModule) -> Mapping[str, str]:
    """``framework_types`` for :class:`ShapeInference`: every way this module names it."""
    names = {name: ACTION_RESULT for name in _KNOWN_ACTION_RESULT_NAMES}
    for target in module.imports.values():
        if is_action_result_name(target):
            names[target] = ACTION_RESULT
    return names


def _dotted_root(node: cst.BaseExpression) -> cst.Name | None:
    while isinstance(node, cst.Attribute):
        node = node.value
    return node if isinstance(node, cst.Name) else None


def _is_dotted(node: cst.BaseExpression) -> bool:
    return _dotted_root(node) is not None


class Scope:
    """Where names are looked up: a function (its locals) or the module."""

    def __init__(
        self,
        module: ParsedModule,
        function: cst.FunctionDef | None,
        framework_types: Mapping[str, str],
    ) -> None:
        self.module = module
        self.function = function
        self.inference = ShapeInference(module, function, framework_types)
        self._locals: frozenset[str] | None = None

    def binds(self, name: str) -> bool:
        """Whether ``name`` is a local of this function (parameter, assignment, import …)."""
        if self.function is None:
            return False
        if self._locals is None:
            self._locals = bound_names(self.function)
        return name in self._locals


@dataclass
class Action:
    """A recognised browser-use action and the analysis its rules share."""

    module: ParsedModule = field(repr=False)
    node: cst.FunctionDef = field(repr=False)
    decorator: cst.Decorator = field(repr=False)
    receiver: cst.BaseExpression = field(repr=False)
    """``tools`` in ``@tools.action(...)``, ``controller.registry`` in
    ``@controller.registry.action(...)``."""
    scope: Scope = field(repr=False)
    """The action's own scope (its locals, for inferring its return values)."""
    outer: Scope = field(repr=False)
    """The scope the ``def`` sits in (where the decorator's receiver is looked up)."""

    @property
    def name(self) -> str:
        return self.node.name.value

    @property
    def reason(self) -> str:
        receiver = self.module.code_for(self.receiver)
        return f"decorated with `@{receiver}.action(...)` in a module that imports `browser_use`"

    @cached_property
    def flow(self) -> FunctionFlow:
        return analyse_function(self.node, self.module)

    @cached_property
    def returned(self) -> list[tuple[ReturnSite, cst.BaseExpression | None, Shape]]:
        """Each return site's value(s) with their shapes; ``a if c else b`` counts twice."""
        result: list[tuple[ReturnSite, cst.BaseExpression | None, Shape]] = []
        for site in self.flow.sites:
            if site.value is None:
                result.append((site, None, literal(Kind.NONE, None)))
                continue
            for expr in returned_values(site.value):
                result.append((site, expr, self.scope.inference.infer(expr)))
        return result


@dataclass
class ActionResultCall:
    """One ``ActionResult(...)`` call of browser-use's class, wherever it is."""

    call: cst.Call = field(repr=False)
    scope: Scope = field(repr=False)
    action: Action | None
    """The action whose own body builds it (not a nested helper's), if any."""
    in_nested_expression: bool
    """Inside a ``lambda`` or comprehension, whose own names the scope does not know."""
    keywords: tuple[tuple[str, cst.Arg], ...] = field(repr=False)
    positional: tuple[cst.Arg, ...] = field(repr=False)
    has_star_arguments: bool = False

    def argument(self, keyword: str) -> cst.Arg | None:
        for name, arg in self.keywords:
            if name == keyword:
                return arg
        return None

    def value_shape(self, keyword: str) -> Shape | None:
        """The shape of a keyword's value; ``None`` when the keyword is not given."""
        arg = self.argument(keyword)
        if arg is None:
            return None
        return self.shape_of(arg.value)

    def shape_of(self, node: cst.BaseExpression) -> Shape:
        if self.in_nested_expression and _mentions_a_name(node):
            return UNKNOWN
        return self.scope.inference.infer(node)


@dataclass(frozen=True)
class OutputModel:
    """A structured-output model given to the agent: ``Agent(output_model_schema=M)`` or
    ``Tools(output_model=M)``, and the registry name it is tied to."""

    model: str
    """The model's source text, for messages."""
    receiver: str
    """The name of the ``Tools`` the agent uses (``tools`` in ``Agent(tools=tools)``)."""
    binding: cst.FunctionDef | None = field(repr=False, compare=False)
    """Where that name is bound: a function, or ``None`` for the module."""


@dataclass
class BrowserUseFile:
    """Everything the TRV2xx rules check in one file."""

    module: ParsedModule = field(repr=False)
    actions: list[Action] = field(default_factory=list)
    action_results: list[ActionResultCall] = field(default_factory=list)
    output_models: list[OutputModel] = field(default_factory=list)

    def output_model_for(self, action: Action) -> OutputModel | None:
        """The structured-output model of the agent that certainly uses ``action``."""
        receiver = _receiver_name(self.module, action.receiver)
        if receiver is None:
            return None
        binding = _binding_of(receiver, action.outer)
        for model in self.output_models:
            if model.receiver == receiver and model.binding is binding:
                return model
        return None


def recognise(module: ParsedModule) -> BrowserUseFile:
    """The actions, ``ActionResult`` calls and output models of a module, once per parse."""
    return module.remembered(_MEMO, (), lambda: _recognise(module))


_MEMO = "browser_use.recognise"


def _recognise(module: ParsedModule) -> BrowserUseFile:
    result = BrowserUseFile(module)
    if not module.imports_module(PACKAGE):
        return result
    track_calls = "ActionResult" in module.source
    if not track_calls and ".action" not in module.source:
        return result  # neither actions nor results: skip the walk
    finder = _Finder(module, result, track_calls=track_calls)
    run_visitor(module.tree, finder)
    return result


# ------------------------------------------------------------------ internals


_CONSTANT_NAMES = frozenset({"True", "False", "None"})


def _mentions_a_name(node: cst.BaseExpression) -> bool:
    """Whether ``node`` uses a name other than ``True``/``False``/``None``."""
    return any(name not in _CONSTANT_NAMES for name in names_in(node))


def _receiver_name(module: ParsedModule, receiver: cst.BaseExpression) -> str | None:
    """The name a decorator receiver hangs off: ``tools`` for ``tools``/``tools.registry``.

    A module-level alias ``registry = tools.registry`` counts as ``tools``.
    """
    root = _dotted_root(receiver)
    if root is None:
        return None
    if root is receiver:
        alias = module.constants.get(root.value)
        if isinstance(alias, cst.Attribute) and alias.attr.value == "registry":
            inner = alias.value
            if isinstance(inner, cst.Name):
                return inner.value
    return root.value


def _binding_of(name: str, scope: Scope) -> cst.FunctionDef | None:
    """The function whose local ``name`` is, or ``None`` for a module-level name."""
    return scope.function if scope.binds(name) else None


class _Finder(StatementContext):
    """One walk: actions (any nesting), ``ActionResult`` calls, structured-output models
    (``StatementContext``: error-expecting ``with`` blocks, ``x = Tools(...)`` targets)."""

    def __init__(self, module: ParsedModule, result: BrowserUseFile, *, track_calls: bool) -> None:
        super().__init__(module)
        self.result = result
        self.track_calls = track_calls
        self.functions: list[tuple[cst.FunctionDef, Scope, Action | None]] = []
        self.framework_types = action_result_types(module)
        self.module_scope = Scope(module, None, self.framework_types)
        self.nested_expressions = 0

    @property
    def scope(self) -> Scope:
        return self.functions[-1][1] if self.functions else self.module_scope

    # -- scopes

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        # Without ``ActionResult`` in the file only ``def``s (actions) matter: no simple
        # statement holds one, so skip their expressions.
        return self.track_calls

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        scope = Scope(self.module, node, self.framework_types)
        action = self._action(node, scope)
        if action is not None:
            self.result.actions.append(action)
        self.functions.append((node, scope, action))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.functions.pop()

    def _enter_nested(self, node: cst.CSTNode) -> None:
        self.nested_expressions += 1

    def _leave_nested(self, node: cst.CSTNode) -> None:
        self.nested_expressions -= 1

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._enter_nested(node)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self._leave_nested(original_node)

    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._enter_nested(node)

    def leave_ListComp(self, original_node: cst.ListComp) -> None:
        self._leave_nested(original_node)

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._enter_nested(node)

    def leave_SetComp(self, original_node: cst.SetComp) -> None:
        self._leave_nested(original_node)

    def visit_DictComp(self, node: cst.DictComp) -> None:
        self._enter_nested(node)

    def leave_DictComp(self, original_node: cst.DictComp) -> None:
        self._leave_nested(original_node)

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        self._enter_nested(node)

    def leave_GeneratorExp(self, original_node: cst.GeneratorExp) -> None:
        self._leave_nested(original_node)

    # -- calls

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self._qualified(node.func)
        if qualified is None:
            return
        if self.track_calls and is_action_result_name(qualified):
            self._action_result(node)
        elif is_browser_use_name(qualified):
            self._output_model(node, qualified)

    def _qualified(self, func: cst.BaseExpression) -> str | None:
        qualified = self.module.qualified_name(func)
        if qualified is None or not is_browser_use_name(qualified):
            return None
        root = _dotted_root(func)
        if root is None or self.scope.binds(root.value):
            return None  # rebound inside the function: not the import any more
        return qualified

    def _action_result(self, node: cst.Call) -> None:
        if self.expecting_errors:
            return  # a test that wants it to raise (``with pytest.raises(...)``)
        keywords, positional, has_star = split_arguments(node)
        action = self.functions[-1][2] if self.functions else None
        self.result.action_results.append(
            ActionResultCall(
                call=node,
                scope=self.scope,
                action=action,
                in_nested_expression=self.nested_expressions > 0,
                keywords=keywords,
                positional=positional,
                has_star_arguments=has_star,
            )
        )

    def _output_model(self, node: cst.Call, qualified: str) -> None:
        """``x = Tools(output_model=M)``, or ``Agent(output_model_schema=M, tools=x)``."""
        last = qualified.rsplit(".", 1)[-1]
        if last in _TOOLS_CLASSES:
            model = _keyword(node, "output_model")
            target = self.assigned_to(node)
            if model is not None and target is not None and not _is_none(model):
                self._add_model(model, target)
        elif last == "Agent":
            model = _keyword(node, "output_model_schema")
            if model is None or _is_none(model):
                return
            for keyword in ("tools", "controller"):
                tools = _keyword(node, keyword)
                if isinstance(tools, cst.Name):
                    self._add_model(model, tools.value)

    def _add_model(self, model: cst.BaseExpression, receiver: str) -> None:
        self.result.output_models.append(
            OutputModel(
                model=self.module.code_for(model).strip(),
                receiver=receiver,
                binding=_binding_of(receiver, self.scope),
            )
        )

    # -- actions

    def _action(self, node: cst.FunctionDef, scope: Scope) -> Action | None:
        for decorator in node.decorators:
            expr = decorator.decorator
            if not isinstance(expr, cst.Call):
                continue
            func = expr.func
            if not (isinstance(func, cst.Attribute) and func.attr.value == "action"):
                continue
            receiver = func.value
            if not _is_dotted(receiver) or not self._could_be_tools(receiver):
                continue
            return Action(
                module=self.module,
                node=node,
                decorator=decorator,
                receiver=receiver,
                scope=scope,
                outer=self.scope,
            )
        return None

    def _could_be_tools(self, receiver: cst.BaseExpression) -> bool:
        """False when the receiver is certainly something else than browser-use's registry.

        A local (``self``, a factory's ``controller``) or an imported name may well be a
        ``Tools`` (``from .agent import tools``), except Django's ``admin`` module; a
        module-level name built by another library's call (``app = Other()``) or by a
        local class with no base class is not.
        """
        root = _dotted_root(receiver)
        assert root is not None
        if self.scope.binds(root.value):
            return True
        if root.value in self.module.imports:
            qualified = self.module.qualified_name(receiver) or ""
            return not qualified.startswith(_OTHER_ACTION_DECORATORS)
        value = self.module.constants.get(root.value)
        while isinstance(value, cst.Attribute):
            value = value.value
        if not isinstance(value, cst.Call):
            return True
        built_by = self.module.qualified_name(value.func)
        if built_by is not None:
            return is_browser_use_name(built_by)
        func = value.func
        if (
            isinstance(func, cst.Name)
            and func.value in self.module.classes
            and func.value not in self.module.shadowed
        ):
            return bool(self.module.classes[func.value].bases)  # a subclass of Tools?
        return True


def _keyword(call: cst.Call, name: str) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name and not arg.star:
            return arg.value
    return None


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"
