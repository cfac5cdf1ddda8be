"""Judgements the TRV3xx rules share: what a ``final_output`` is, and whether it conflicts."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.index import DeclaredType
from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.shapes import Kind, Shape
from lint_rules.config import Settings
from lint_rules.frameworks.openai_agents.recognition import (
    AGENT,
    HANDOFF,
    RESULT,
    SANDBOX_AGENT,
    TOOL_OUTPUTS,
    AgentCall,
    AgentsFile,
    Behaviour,
    ResultCall,
    instance_identity,
)

STDLIB_INSTANCE_TYPES = frozenset(
    {
        "datetime.datetime",
        "datetime.date",
        "datetime.time",
        "datetime.timedelta",
        "decimal.Decimal",
        "uuid.UUID",
    }
)
_AGENT_TYPES = frozenset({AGENT, SANDBOX_AGENT})
_BUILTIN_KINDS = {
    Kind.STR: "str",
    Kind.INT: "int",
    Kind.FLOAT: "float",
    Kind.BOOL: "bool",
    Kind.DICT: "dict",
    Kind.LIST: "list",
    Kind.TUPLE: "tuple",
    Kind.SET: "set",
    Kind.BYTES: "bytes",
    Kind.COMPLEX: "complex",
}
# What each declared builtin accepts besides itself (``bool`` is an ``int``; an ``int``
# is fine where a ``float`` is declared).
_ACCEPTS = {
    "int": frozenset({"int", "bool"}),
    "float": frozenset({"float", "int", "bool"}),
    "bool": frozenset({"bool"}),
    "dict": frozenset({"dict"}),
    "list": frozenset({"list"}),
    "tuple": frozenset({"tuple"}),
    "set": frozenset({"set"}),
}


def with_article(what: str) -> str:
    """``what`` in backticks after its indefinite article: an `int`, a `dict`."""
    return f"an `{what}`" if what[0] in "aeiou" else f"a `{what}`"


def is_literal(shape: Shape | None, value: object) -> bool:
    return (
        shape is not None
        and shape.has_literal
        and type(shape.literal) is type(value)
        and shape.literal == value
    )


def is_result(shape: Shape) -> bool:
    return shape.kind is Kind.INSTANCE and shape.type_name == RESULT


def certain_type_name(module: ParsedModule, shape: Shape) -> str | None:
    """A name for what a value certainly is, when that is certainly not a subclass of
    anything a user declares: a builtin, a stdlib type, or a local class with known bases."""
    builtin = _BUILTIN_KINDS.get(shape.kind)
    if builtin is not None:
        return builtin
    if shape.kind is Kind.INSTANCE and shape.local_class is None:
        return shape.type_name if shape.type_name in STDLIB_INSTANCE_TYPES else None
    return None


def certain_instance_name(module: ParsedModule, shape: Shape) -> str | None:
    """The class of an instance that is certainly no ``str`` (nor other builtin): a stdlib
    type, or a local class whose bases are none or pydantic's ``BaseModel``."""
    if shape.kind is not Kind.INSTANCE:
        return None
    cls = shape.local_class
    if cls is None:
        return shape.type_name if shape.type_name in STDLIB_INSTANCE_TYPES else None
    if has_plain_bases(module, cls):
        return cls.name.value
    return None


def has_plain_bases(module: ParsedModule, cls: cst.ClassDef) -> bool:
    if cls.keywords:
        return False
    return all(
        module.qualified_name(b.value) in ("pydantic.BaseModel", "pydantic.main.BaseModel")
        for b in cls.bases
    )


def conflict(module: ParsedModule, declared: DeclaredType, shape: Shape) -> str | None:
    """What ``shape`` is, when it certainly is not the ``declared`` output type."""
    if declared.kind in ("unset", "str", "unknown") or shape.kind is Kind.NONE:
        return None
    identity = instance_identity(module, shape)
    if identity is not None:
        if identity == declared.identity:
            return None
        # Only a class whose bases are all known to be unrelated: none, or pydantic's model.
        return certain_instance_name(module, shape)
    name = certain_type_name(module, shape)
    if name is None:
        return None
    if declared.kind in ("class",):
        return name
    if declared.kind == "typeddict":
        return None if name == "dict" else name
    accepted = _ACCEPTS.get(declared.kind)
    if accepted is None:
        return None
    if name not in accepted:
        return name
    if declared.item is not None and shape.kind in (Kind.LIST, Kind.SET):
        for element in shape.element_shapes():
            element_name = certain_type_name(module, element)
            if element_name is None:
                continue
            if element_name not in _ACCEPTS.get(declared.item, frozenset({declared.item})):
                return f"{name} with a {element_name} element"
    return None


def behaviour_arguments(
    context: AgentsFile, settings: Settings
) -> Iterator[tuple[AgentCall, cst.Arg]]:
    """Each agent's ``tool_use_behavior=`` argument, also when written under the
    misspelling TRV310 renames (``tool_use_behaviour=``): the rename is the fix, and
    then the value's own mistake bites."""
    extra = frozenset(settings.openai_agents.extra_agent_arguments)
    for agent in context.agents:
        arg = agent.argument("tool_use_behavior", extra)
        if arg is not None and arg.keyword is not None:
            yield agent, arg


def final_results(context: AgentsFile) -> Iterator[tuple[ResultCall, Behaviour]]:
    """``ToolsToFinalOutputResult(is_final_output=True, final_output=...)`` built by a
    behaviour function known to be used by an agent — unless that function never returns a
    result at all (TRV303 is the one finding for that mistake)."""
    for result in context.results:
        if result.has_star_arguments or result.final_output is None:
            continue
        if not is_literal(result.shape(result.is_final), True):
            continue
        behaviour = context.behaviour_of(result.owner)
        if behaviour is None or not behaviour.uses or never_returns_result(behaviour):
            continue
        yield result, behaviour


def never_returns_result(behaviour: Behaviour) -> bool:
    """Every return of the behaviour function is certainly something else than a result."""
    returned = behaviour.returned
    return bool(returned) and all(wrong_return(shape) for _, shape in returned)


def wrong_return(shape: Shape) -> bool:
    """A behaviour function's return that is certainly not a ``ToolsToFinalOutputResult``."""
    if shape.kind is Kind.UNKNOWN or is_result(shape):
        return False
    if shape.kind is Kind.INSTANCE:
        if shape.local_class is not None:
            return not shape.local_class.bases and not shape.local_class.keywords
        if shape.type_name == HANDOFF or shape.type_name in _AGENT_TYPES:
            return True
        return shape.type_name in STDLIB_INSTANCE_TYPES or shape.type_name in TOOL_OUTPUTS
    return True


def describe(shape: Shape) -> str:
    if shape.kind is Kind.INSTANCE and shape.local_class is not None:
        return shape.local_class.name.value
    if shape.kind is Kind.INSTANCE and shape.type_name:
        return (
            shape.type_name.rsplit(".", 1)[-1]
            if shape.type_name.startswith("agents.")
            else (shape.type_name)
        )
    return shape.kind.value


def returns_agent_or_handoff(shape: Shape) -> bool:
    return shape.kind is Kind.INSTANCE and (
        shape.type_name == HANDOFF or shape.type_name in _AGENT_TYPES
    )
