"""Whether a module can hold a PolyAI tool function (``analysis.screen``)."""

from __future__ import annotations

import ast
from pathlib import PurePath

from lint_rules.analysis.screen import ModuleView

_CONVERSATION = "Conversation"


def needs_libcst(view: ModuleView) -> bool:
    """Whether the module defines, at module level (through ``if``/``try`` and any other
    compound statement but ``def`` and ``class``), a function named like the file
    (``PurePath(path).stem``) whose first positional parameter is named ``conv`` or is
    annotated ``Conversation`` (a name, an attribute ending in it, or a string holding it).

    Recognition (``recognition._recognise``) finds at most one tool function: the
    top-level function named like the file's stem (its layout's stem is the same), when
    its first positional parameter is ``conv`` (in the layout, or with the generated
    header) or is annotated ``Conversation``. Every rule, TRV101–TRV108, checks only that
    function (``recognise(...).tools``), and so do TRV901/TRV902 (``tool_functions``);
    the helpers the recognition also names are only described, never judged. A module
    without such a function — a file under some ``functions/`` folder of another project,
    a ``Conversation`` that is not a first parameter's annotation — has nothing any rule
    can report.
    """
    stem = PurePath(view.path).stem
    if stem not in view.words:  # a ``def``'s name is one of the view's words
        return False
    return any(_is_tool_signature(function) for function in _module_level_defs(view.tree, stem))


def _module_level_defs(tree: ast.Module, name: str) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The ``def``s named ``name`` among the module's statements and those of its compound
    statements (a superset of ``ParsedModule.functions``, which descends ``if`` and
    ``try`` only)."""
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        statement = pending.pop()
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if statement.name == name:
                found.append(statement)
            continue
        if isinstance(statement, ast.ClassDef):
            continue
        for attribute in ("body", "orelse", "finalbody"):
            block = getattr(statement, attribute, None)
            if isinstance(block, list):
                pending.extend(s for s in block if isinstance(s, ast.stmt))
        for part in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())):
            pending.extend(part.body)
    return found


def _is_tool_signature(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    positional = [*function.args.posonlyargs, *function.args.args]
    if not positional:
        return False
    first = positional[0]
    return first.arg == "conv" or _names_conversation(first.annotation)


def _names_conversation(annotation: ast.expr | None) -> bool:
    if isinstance(annotation, ast.Name):
        return annotation.id == _CONVERSATION
    if isinstance(annotation, ast.Attribute):
        return annotation.attr == _CONVERSATION
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return _CONVERSATION in annotation.value  # ``"Conversation"``, however written
    return False
