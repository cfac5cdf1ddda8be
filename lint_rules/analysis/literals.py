"""The values of literal nodes, without ``ast.literal_eval`` for the common cases.

LibCST's ``evaluated_value`` compiles every literal with ``ast.literal_eval``
(a call to ``compile`` per string or number). Most literals in tool code are
plain ``"..."`` strings and decimal integers, whose value is a slice or an
``int()`` away; everything else (prefixes, escapes, triple quotes, hex,
underscores) still goes through ``evaluated_value``, so the results are
LibCST's exactly.
"""

from __future__ import annotations

import libcst as cst


def string_value(node: cst.SimpleString | cst.ConcatenatedString) -> str | bytes | None:
    """``node.evaluated_value``: the string's value, ``None`` for a concatenation that
    holds an f-string or mixes ``str`` and ``bytes``."""
    if type(node) is cst.SimpleString:
        value = node.value
        # No prefix, one quote character, no escape: the text between the quotes.
        if value[0] in "'\"" and value[1:3] != value[0] * 2 and "\\" not in value:
            return value[1:-1]
        return node.evaluated_value
    if isinstance(node, cst.ConcatenatedString):
        left, right = node.left, node.right
        if isinstance(left, cst.FormattedString) or isinstance(right, cst.FormattedString):
            return None
        if not isinstance(left, (cst.SimpleString, cst.ConcatenatedString)) or not isinstance(
            right, (cst.SimpleString, cst.ConcatenatedString)
        ):
            return node.evaluated_value
        left_value = string_value(left)
        right_value = string_value(right)
        if right_value is None:
            return None
        if isinstance(left_value, bytes) and isinstance(right_value, bytes):
            return left_value + right_value
        if isinstance(left_value, str) and isinstance(right_value, str):
            return left_value + right_value
        return None
    return node.evaluated_value


def int_value(node: cst.Integer) -> int:
    """``node.evaluated_value``."""
    value = node.value
    if value.isascii() and value.isdigit() and (value[0] != "0" or len(value) == 1):
        try:
            return int(value)
        except ValueError:  # more digits than ``int()`` converts
            pass
    return node.evaluated_value


def float_value(node: cst.Float) -> float:
    """``node.evaluated_value``."""
    value = node.value
    if "_" not in value:
        try:
            return float(value)
        except ValueError:
            pass
    return node.evaluated_value
