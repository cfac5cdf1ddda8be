"""What browser-use accepts from an action, and helpers the TRV2xx rules share.

browser-use 0.13.14, ``tools/service.py:2258-2265``: an action's return value
must be a ``str`` (wrapped as ``ActionResult(extracted_content=s)``), an
``ActionResult`` or ``None`` (an empty result); anything else raises
``ValueError("Invalid action result type: ...")`` after the action ran.

``ActionResult`` (``agent/views.py:307-348``) is a plain pydantic model (no
``extra='forbid'``: unknown keywords are silently dropped) with the fields
below.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable

import libcst as cst

from lint_rules.analysis.module import ParsedModule
from lint_rules.analysis.shapes import Kind, Shape

ACTION_RESULT_FIELDS = (
    "is_done",
    "success",
    "judgement",
    "error",
    "attachments",
    "images",
    "long_term_memory",
    "extracted_content",
    "include_extracted_content_only_once",
    "metadata",
    "include_in_memory",
)
STR_FIELDS = ("extracted_content", "long_term_memory", "error")
"""``str | None`` fields: pydantic rejects other types (``bytes`` is coerced, so accepted)."""
CONTENT_FIELDS = frozenset(
    {"extracted_content", "long_term_memory", "error", "images", "attachments", "judgement"}
)
"""Fields that carry something to the LLM or the user (``is_done``/``success`` end the task)."""

# Keywords people write for a field, and the field they mean. Checked before the
# closest spelling: `data=` is closer to `metadata` but almost always means content.
_INTENDED_FIELDS = {
    "content": "extracted_content",
    "data": "extracted_content",
    "message": "extracted_content",
    "msg": "extracted_content",
    "output": "extracted_content",
    "result": "extracted_content",
    "text": "extracted_content",
    "extracted_text": "extracted_content",
    "memory": "long_term_memory",
    "done": "is_done",
    "error_message": "error",
    "err": "error",
    "errors": "error",
    "succeeded": "success",
}

# Values pydantic certainly refuses for a `str` field (verified against 0.13.14;
# `bytes` is decoded, so it is not here). Instances: stdlib types only — a local
# class might subclass `str`.
NON_STR_KINDS = frozenset(
    {Kind.INT, Kind.FLOAT, Kind.COMPLEX, Kind.BOOL, Kind.DICT, Kind.LIST, Kind.TUPLE, Kind.SET}
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
WRAPPABLE_KINDS = frozenset({Kind.INT, Kind.FLOAT})


def is_certainly_not_str(shape: Shape) -> bool:
    if shape.kind in NON_STR_KINDS:
        return True
    return (
        shape.kind is Kind.INSTANCE
        and shape.local_class is None
        and shape.type_name in STDLIB_INSTANCE_TYPES
    )


def suggested_field(keyword: str, known: Iterable[str]) -> str | None:
    """The field a wrong keyword most likely meant: a known intent, else the closest spelling."""
    intended = _INTENDED_FIELDS.get(keyword.lower())
    if intended is not None:
        return intended
    matches = difflib.get_close_matches(keyword, sorted(known), n=1, cutoff=0.6)
    if matches:
        return matches[0]
    normalised = keyword.replace("-", "_").lower()
    return normalised if normalised in known else None


def is_literal(shape: Shape | None, value: object) -> bool:
    """Whether the shape is the literal ``value`` (``True`` is not ``1`` here)."""
    return (
        shape is not None
        and shape.has_literal
        and type(shape.literal) is type(value)
        and shape.literal == value
    )


def cannot_be_json(node: cst.BaseExpression, shape: Shape, *, an_object: bool = False) -> bool:
    """Whether a str value certainly is not JSON text (``json.loads`` would fail), or,
    with ``an_object``, not the JSON of an object.

    A literal is parsed; an f-string is judged by the text before its first
    ``{...}``: ``f"Saved {n} rows"`` cannot be JSON, ``f'{{"rows": {n}}}'`` might.
    An object's JSON ends in ``}``, so with ``an_object`` the text after the
    last ``{...}`` counts too: ``f"Done: {data}."`` cannot be one,
    ``f"{json.dumps(data)}"`` and ``f'{{"rows": {n}}}'`` might. Anything else
    (``json.dumps(...)``, ``.model_dump_json()``, a variable) might be.
    """
    if shape.kind is not Kind.STR:
        return False
    if shape.has_literal and isinstance(shape.literal, str):
        try:
            json.loads(shape.literal)
        except ValueError:
            return True
        return False
    if isinstance(node, cst.FormattedString):
        prefix = ""
        for part in node.parts:
            if not isinstance(part, cst.FormattedStringText):
                break
            prefix += part.value
        if _prefix_cannot_start_json(prefix.replace("{{", "{")):
            return True
        return an_object and _suffix_cannot_end_object(node)
    return False


def _suffix_cannot_end_object(node: cst.FormattedString) -> bool:
    """Whether the literal text after an f-string's last ``{...}`` rules out a JSON object:
    what is left after trailing JSON whitespace is not empty and does not end in ``}``
    (``}}`` in the source). Escapes are not evaluated: a backslash decides nothing."""
    suffix = ""
    for part in reversed(node.parts):
        if not isinstance(part, cst.FormattedStringText):
            break
        suffix = part.value + suffix
    if not any(isinstance(p, cst.FormattedStringExpression) for p in node.parts):
        return False  # no placeholder at all: the prefix test has judged the whole text
    if "\\" in suffix:
        return False
    text = suffix.rstrip(" \t\r\n")
    return bool(text) and not text.endswith("}")


_JSON_WORDS = ("true", "false", "null")


def _prefix_cannot_start_json(prefix: str) -> bool:
    text = prefix.lstrip(" \t\r\n")
    if not text or "\\" in text:
        return False  # empty so far, or escapes we do not evaluate: could be anything
    if text[0] in '{["-0123456789':
        return False
    return not any(word.startswith(text[: len(word)]) for word in _JSON_WORDS)


_BASE_MODELS = frozenset({"pydantic.BaseModel", "pydantic.main.BaseModel"})


def is_object_model(module: ParsedModule, model: str, depth: int = 0) -> bool:
    """Whether ``model`` (an output model's source text) certainly names a pydantic model
    whose JSON is an object: a class of this module whose bases are all ``BaseModel`` or
    such classes (a ``RootModel``, a generic or an imported model is not certain)."""
    cls = module.classes.get(model)
    if (
        cls is None
        or depth > 5
        or model in module.shadowed
        or model in module.imports
        or model in module.functions
        or not cls.bases
    ):
        return False
    for base in cls.bases:
        value = base.value
        if base.keyword is not None or base.star:
            return False
        if module.qualified_name(value) in _BASE_MODELS:
            continue
        if not (isinstance(value, cst.Name) and is_object_model(module, value.value, depth + 1)):
            return False
    return True
