"""Whether a module can hold a Bedrock Converse finding or a Strands tool (``analysis.screen``)."""

from __future__ import annotations

import ast

from lint_rules.analysis.screen import ModuleView

_ROLES = frozenset({"user", "assistant", "system"})
"""``recognition.ROLES``: the roles TRB008 accepts."""


def needs_libcst(view: ModuleView) -> bool:
    """Whether the code holds the string or name ``toolResult``; or a function is
    decorated with ``tool`` (under its imported name) in a module that imports from
    ``strands``; or a call ends in ``converse`` or ``converse_stream`` in a module that
    holds ``messages`` and either the string or name ``tool_result`` or a ``"role"`` that
    may be other than a literal ``"user"``, ``"assistant"`` or ``"system"``
    (``_foreign_role``).

    Rule by rule (``recognition.BedrockFile``):

    - TRB001–TRB003, TRB005–TRB007, TRB008's ``status`` and TRB004's keys judge the
      ``{"toolResult": ...}`` blocks (``tool_results``): displays with that key —
      written, made by ``ContentBlockTypeDef(toolResult=...)``, ``dict(...)`` or a
      same-module helper.
    - TRB004 and TRB008 also judge the messages that reach a Converse request's
      ``messages=`` (``messages_sent``: ``X.converse(...)`` / ``X.converse_stream(...)``
      with the keyword ``messages``): TRB004 one whose ``"role"`` is ``"tool"`` or whose
      content holds a ``{"type": "tool_result"}`` block, TRB008 one whose ``"role"`` is
      a string literal other than those three.
    - TRB101, TRB102, and TRV901/TRV902 (``tool_functions``), judge the Strands tools:
      functions decorated, bare or called, with ``strands.tool`` resolved through the
      imports (``decorated_with``) — a decorator ending in ``tool`` (or an alias of it)
      in a module with an import from ``strands``.
    """
    if view.has("toolResult"):
        return True
    if view.decorated_by("tool") and view.imports_from("strands"):
        return True
    if view.calls("converse", "converse_stream") and view.has("messages"):
        return view.has("tool_result") or _foreign_role(view)
    return False


def _foreign_role(view: ModuleView) -> bool:
    """Whether a display's ``"role"`` entry, or a ``role=`` keyword (a typed constructor's,
    ``dict(...)``'s display), holds anything but a string literal of ``_ROLES``: a name
    (a helper's parameter, which a call may give any literal) counts. Roles come from
    nowhere else (``tool_loops.literal_entry``, ``analysis.displays``)."""
    if not view.has("role"):
        return False
    for node in view.nodes:
        kind = type(node)
        if kind is ast.Dict:
            for key, value in zip(node.keys, node.values, strict=True):  # type: ignore[attr-defined]
                if type(key) is ast.Constant and key.value == "role" and not _known_role(value):
                    return True
        elif kind is ast.keyword and node.arg == "role" and not _known_role(node.value):  # type: ignore[attr-defined]
            return True
    return False


def _known_role(node: ast.expr) -> bool:
    return type(node) is ast.Constant and node.value in _ROLES
