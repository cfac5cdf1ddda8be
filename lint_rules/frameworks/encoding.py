"""What a framework's JSON encoder cannot encode, over inferred shapes (shared by the
rules that judge a tool's return value against ``json.dumps``: TRV402, TRG101).

An *encoder* says which values fail: ``set``\\ s, ``bytes`` (unless it encodes them),
instances of listed library types (``datetime.date``, ``decimal.Decimal``), and instances
of same-module classes it cannot turn into JSON. A value is judged through the displays
that hold it (a ``set`` under a dict key, a ``date`` in a list).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.shapes import Kind, Shape

_MAX_DEPTH = 8
LIBRARY_VALUE_TYPES: frozenset[str] = frozenset(
    {
        "datetime.date",
        "datetime.time",
        "datetime.timedelta",
        "decimal.Decimal",
        "uuid.UUID",
        "pathlib.Path",
        "pathlib.PurePath",
        "pathlib.PosixPath",
        "pathlib.WindowsPath",
    }
)
"""The standard library's value types plain ``json.dumps`` raises on (``datetime.datetime``
is a ``date`` subclass but named apart: some encoders write it)."""


@dataclass(frozen=True)
class Encoder:
    """One framework's JSON encoding of a tool's result."""

    instance_types: frozenset[str]
    """Qualified names of library types it raises on."""
    encodes_bytes: bool
    failing_class: Callable[[cst.ClassDef, ParsedModule], bool]
    """Whether instances of a same-module class fail."""
    encodes_tuples: bool = True
    """``json.dumps`` writes a tuple as a list; botocore's document type rejects it."""

    def not_encodable(self, shape: Shape, module: ParsedModule, depth: int = 0) -> str | None:
        """What in ``shape`` the encoder raises on (``"a `set` (under key `tags`)"``), if
        anything is known to."""
        if depth > _MAX_DEPTH:
            return None
        if shape.kind is Kind.SET:
            return "a `set`"
        if shape.kind is Kind.BYTES and not self.encodes_bytes:
            return "`bytes`"
        if shape.kind is Kind.TUPLE and not self.encodes_tuples:
            return "a `tuple`"
        if shape.kind is Kind.INSTANCE:
            if shape.type_name in self.instance_types:
                return f"a `{shape.type_name}`"
            if shape.local_class is not None and self.failing_class(shape.local_class, module):
                return f"a `{shape.type_name}` instance"
            return None
        if shape.kind is Kind.DICT:
            for entry in shape.entries:
                inner = self.not_encodable(entry.value, module, depth + 1)
                if inner is not None:
                    return f"{inner} (under key `{entry.key}`)"
            return None
        if shape.kind in (Kind.LIST, Kind.TUPLE):
            for element in shape.element_shapes():
                inner = self.not_encodable(element, module, depth + 1)
                if inner is not None:
                    return f"{inner} (in a {shape.kind.value})"
        return None


def bases_within(allowed: frozenset[str]) -> Callable[[cst.ClassDef, ParsedModule], bool]:
    """A class fails when each of its bases is one of ``allowed`` (none: a plain class)
    and it has no class keywords (``metaclass=``)."""

    def failing(cls: cst.ClassDef, module: ParsedModule) -> bool:
        for base in cls.bases:
            qualified = module.qualified_name(base.value) or module.code_for(base.value)
            if qualified not in allowed:
                return False
        return not cls.keywords

    return failing


def is_dataclass(cls: cst.ClassDef, module: ParsedModule) -> bool:
    """Decorated ``@dataclass`` / ``@dataclasses.dataclass`` (with or without arguments)."""
    for decorator in cls.decorators:
        target = decorator.decorator
        if isinstance(target, cst.Call):
            target = target.func
        if module.qualified_name(target) == "dataclasses.dataclass":
            return True
    return False


def not_a_mapping(cls: cst.ClassDef, module: ParsedModule) -> bool:
    """A class of no base (or a dataclass): its instances are neither dicts nor lists, and
    an encoder that does not convert objects raises on them."""
    return bases_within(frozenset())(cls, module) or is_dataclass(cls, module)
