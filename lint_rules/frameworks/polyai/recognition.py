"""Which functions PolyAI Agent Studio calls, and what rules need to know about them.

polyai-adk 0.73.2 (``poly/resources/function.py:424-445``): a function file is
``functions/<name>.py`` (global; ``start_function`` / ``end_function`` by
name), ``flows/<flow>/functions/<name>.py`` (transition) or
``flows/<flow>/function_steps/<name>.py`` (function step). Its tool function is
the top-level function named like the file whose first parameter is ``conv``.
Every other function in the file is a helper.

Outside that layout the stem-named function counts when its first parameter
is annotated ``Conversation`` or the file carries the generated header
``from _gen import *`` / ``from imports import *``.

In a PolyAI project (an ancestor directory holds ``agent_settings/``) the
prompts and YAML decide which global and transition functions the LLM can
call; the rest are helpers other functions import. Start/end functions and
function steps are always tool functions.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import PurePath

import libcst as cst

from lint_rules import prefilter
from lint_rules.analysis.literals import string_value
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.project import PolyAIProject
from lint_rules.analysis.returns import FunctionFlow, ReturnSite, analyse_function
from lint_rules.analysis.shapes import Kind, Shape, ShapeInference, literal, returned_values

GENERATED_HEADER_MODULES = frozenset({"_gen", "imports"})

# Calls after which an empty dict is fine: the function already navigated or spoke.
NAVIGATION_METHODS = frozenset(
    {"goto_step", "goto_flow", "exit_flow", "goto_csat_flow", "say", "call_handoff"}
)
# Conversation/Flow methods that return None (``poly/types/conversation.py:596-599``,
# ``poly/types/flow.py:52``): their result is never a useful value.
NONE_RETURNING_METHODS = frozenset({"goto_step", "goto_flow", "exit_flow", "goto_csat_flow", "say"})


class FunctionKind(enum.Enum):
    GLOBAL = "global function"
    TRANSITION = "transition function"
    STEP = "function step"
    START = "start function"
    END = "end function"


@dataclass(frozen=True)
class Layout:
    kind: FunctionKind
    stem: str


def layout_of(path: str) -> Layout | None:
    """The PolyAI function kind a path's layout implies, if any."""
    parts = PurePath(path).parts
    if len(parts) < 2 or not parts[-1].endswith(".py"):
        return None
    stem = parts[-1][:-3]
    folder = parts[-2]
    if len(parts) >= 4 and parts[-4] == "flows":
        if folder == "function_steps":
            return Layout(FunctionKind.STEP, stem)
        if folder == "functions":
            return Layout(FunctionKind.TRANSITION, stem)
    if folder == "functions":
        if stem == "start_function":
            return Layout(FunctionKind.START, stem)
        if stem == "end_function":
            return Layout(FunctionKind.END, stem)
        return Layout(FunctionKind.GLOBAL, stem)
    return None


def has_signal(source: str, path: str) -> bool:
    """Whether a file can hold a PolyAI tool function at all (cheap, textual)."""
    return prefilter.has_signal("polyai", source, path)


@dataclass
class PolyAIFunction:
    """A recognised PolyAI tool function and the analysis its rules share."""

    module: ParsedModule
    node: cst.FunctionDef
    kind: FunctionKind
    reason: str
    project: PolyAIProject | None
    conv_name: str | None
    flow_name: str | None
    _inference: ShapeInference | None = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.node.name.value

    @property
    def runs_after_spoken_phrase(self) -> bool:
        return self.project is not None and self.name in self.project.after_spoken_phrase

    @cached_property
    def flow(self) -> FunctionFlow:
        return analyse_function(self.node, self.module)

    @property
    def inference(self) -> ShapeInference:
        if self._inference is None:
            self._inference = ShapeInference(self.module, self.node)
        return self._inference

    @cached_property
    def returned(self) -> list[tuple[ReturnSite, cst.BaseExpression | None, Shape]]:
        """Each return site's value(s) with their shapes; ``a if c else b`` counts twice."""
        result: list[tuple[ReturnSite, cst.BaseExpression | None, Shape]] = []
        for site in self.flow.sites:
            if site.value is None:
                result.append((site, None, literal(Kind.NONE, None)))
                continue
            for expr in returned_values(site.value):
                result.append((site, expr, self.inference.infer(expr)))
        return result

    def is_receiver(self, expr: cst.BaseExpression, role: str) -> bool:
        """Whether ``expr`` is this function's ``conv`` (role ``conv``) or ``flow`` parameter."""
        name = self.conv_name if role == "conv" else self.flow_name
        return name is not None and isinstance(expr, cst.Name) and expr.value == name

    def method_call(self, call: cst.Call) -> tuple[str, str] | None:
        """``("conv", "say")`` for ``conv.say(...)``, ``("flow", "goto_step")`` …, else None."""
        func = call.func
        if not isinstance(func, cst.Attribute):
            return None
        for role in ("conv", "flow"):
            if self.is_receiver(func.value, role):
                return role, func.attr.value
        return None

    def passes_context(self, call: cst.Call) -> bool:
        """Whether a call hands ``conv`` or ``flow`` to another function (a helper may speak)."""
        return any(
            self.is_receiver(arg.value, "conv") or self.is_receiver(arg.value, "flow")
            for arg in call.args
        )


@dataclass(frozen=True)
class Helper:
    """A function in a PolyAI function file that is not a tool function, and why."""

    node: cst.FunctionDef
    reason: str


@dataclass
class Recognition:
    tools: list[PolyAIFunction] = field(default_factory=list)
    helpers: list[Helper] = field(default_factory=list)


def recognise(module: ParsedModule, project: PolyAIProject | None) -> Recognition:
    """Find the PolyAI tool function of a file (at most one) and name the helpers (once per
    parse and PolyAI project)."""
    return module.remembered("polyai.recognise", (project,), lambda: _recognise(module, project))


def _recognise(module: ParsedModule, project: PolyAIProject | None) -> Recognition:
    result = Recognition()
    layout = layout_of(module.path)
    stem = layout.stem if layout is not None else PurePath(module.path).stem
    candidate = module.functions.get(stem)
    generated = bool(GENERATED_HEADER_MODULES & set(module.star_imports))
    tool: PolyAIFunction | None = None

    if candidate is not None:
        params = [*candidate.params.posonly_params, *candidate.params.params]
        first = params[0] if params else None
        second = params[1] if len(params) > 1 else None
        first_is_conv = first is not None and first.name.value == "conv"
        annotated = first is not None and _annotated_conversation(module, first)
        kind = layout.kind if layout is not None else FunctionKind.GLOBAL
        reason: str | None = None
        if layout is not None and first_is_conv:
            reason = f"{kind.value}: `{_layout_text(layout)}` defines `{stem}(conv, ...)`"
        elif annotated:
            reason = f"{kind.value}: `{stem}`'s first parameter is annotated `Conversation`"
        elif generated and first_is_conv:
            reason = f"{kind.value}: the file has the generated `from _gen import *` header"
        if reason is not None and first is not None:
            referenced_only = project is not None and project.has_references
            if (
                referenced_only
                and kind in (FunctionKind.GLOBAL, FunctionKind.TRANSITION)
                and project is not None
                and stem not in project.referenced
            ):
                result.helpers.append(
                    Helper(
                        candidate,
                        f"not referenced by any prompt or YAML of the PolyAI project at "
                        f"`{project.root}` ({{{{fn:{stem}}}}}, {{{{ft:{stem}}}}} or a phrase "
                        f"filter), so the LLM cannot call it: a helper",
                    )
                )
            else:
                if project is not None and project.has_references and stem in project.referenced:
                    reason += "; referenced by the project's prompts or YAML"
                tool = PolyAIFunction(
                    module=module,
                    node=candidate,
                    kind=kind,
                    reason=reason,
                    project=project,
                    conv_name=first.name.value,
                    flow_name=(
                        second.name.value
                        if second is not None
                        and kind in (FunctionKind.TRANSITION, FunctionKind.STEP)
                        else None
                    ),
                )
                result.tools.append(tool)

    if layout is not None or generated or tool is not None:
        for name, fn in module.functions.items():
            if tool is not None and fn is tool.node:
                continue
            if any(h.node is fn for h in result.helpers):
                continue
            if name == stem:
                why = "its first parameter is not `conv`"
            else:
                why = f"only `{stem}` (the file's stem) is the file's tool function"
            result.helpers.append(Helper(fn, f"helper: {why}"))
    return result


def _layout_text(layout: Layout) -> str:
    if layout.kind is FunctionKind.TRANSITION:
        return f"flows/<flow>/functions/{layout.stem}.py"
    if layout.kind is FunctionKind.STEP:
        return f"flows/<flow>/function_steps/{layout.stem}.py"
    return f"functions/{layout.stem}.py"


def _annotated_conversation(module: ParsedModule, param: cst.Param) -> bool:
    if param.annotation is None:
        return False
    node = param.annotation.annotation
    if isinstance(node, cst.SimpleString):
        return string_value(node) == "Conversation"
    if isinstance(node, cst.Name):
        return node.value == "Conversation"
    if isinstance(node, cst.Attribute):
        return node.attr.value == "Conversation"
    return False
