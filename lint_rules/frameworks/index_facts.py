"""The project index facts of one file, for every family that has cross-file facts.

The file is parsed once; each family adds its key to ``ModuleFacts.data``
(``agents``: :mod:`lint_rules.frameworks.openai_agents.facts`; ``chat``:
:mod:`lint_rules.frameworks.openai_chat.facts`; ``mcp``:
:mod:`lint_rules.frameworks.mcp.facts`). ``toolret check`` and the
language server both index through here.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from lint_rules.analysis.index import EMPTY_FACTS, ModuleFacts
from lint_rules.analysis.module import ParsedModule, parse_module
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import ModuleView, python_tree_as_written, view_of


def contributes(view: ModuleView, data: bytes) -> bool:
    """Whether a module's index facts can hold a *contribution* (``analysis.screen``): a
    fact about another module — an ``Agent(...)`` using an imported behaviour function or
    output type, a loop dispatching through an imported registry or to imported
    functions, a registration on an imported MCP server or of imported functions (MCP,
    Pydantic AI, Gemini's automatic function calling). The index derives its tables from
    contributions only; what a module merely *has* (its functions, signatures, imports,
    registries, servers) is read through ``ProjectIndex.facts_of``, which extracts a file
    whose facts are empty when another module's contribution first asks. So a module
    that cannot contribute is indexed with empty facts and never parsed for them.

    Each family's condition is a superset of what its extractor can record:

    - Agents SDK (``uses``, ``type_refs``): only for bytes ``wants_full_facts`` passes
      (rare: an ``Agent(...)`` with a ``tool_use_behavior`` and an import of ``agents``):
      parsed.
    - Chat Completions (``uses``: ``facts.py``'s ``_use``, a dispatch registry that is
      imported or has imported entries): ``loop_screens.dispatch_registry`` with any
      imported name looked up and dispatched (``schema=False``: the family's own screen
      asks also for a ``tools=`` schema there, which a fact does not need).
    - MCP (``uses``, ``registers``): the family's screen (attribute decorators
      ``tool``/``resource``/``prompt``/``call_tool``, calls ending in ``add_tool`` or
      ``tool``, ``tools=`` with a server class: every registration starts there).
    - Pydantic AI (``registers``): the family's screen (every registration of a
      function, imported or not).
    - Gemini (``registers``: imported functions listed for automatic function calling):
      ``tools`` with a ``GenerateContentConfig`` call or a ``config`` word.
    """
    from lint_rules.analysis.index import (
        wants_chat_facts,
        wants_full_facts,
        wants_genai_facts,
        wants_mcp_facts,
        wants_pydantic_facts,
    )
    from lint_rules.frameworks.loop_screens import dispatch_registry
    from lint_rules.frameworks.mcp.screen import needs_libcst as mcp_screen
    from lint_rules.frameworks.pydantic_ai.screen import needs_libcst as pydantic_screen

    if wants_full_facts(data):
        return True
    if wants_chat_facts(data) and dispatch_registry(view, schema=False):
        return True
    if wants_mcp_facts(data) and mcp_screen(view):
        return True
    if wants_pydantic_facts(data) and pydantic_screen(view):
        return True
    return (
        wants_genai_facts(data)
        and view.has("tools")
        and (view.calls("GenerateContentConfig") or view.has("config"))
    )


def screened_facts(path: str, data: bytes, source: str) -> tuple[ModuleFacts | None, Any]:
    """``(EMPTY_FACTS, tree)`` when the module cannot contribute (``contributes``, decided
    on CPython's ``tree`` without a LibCST parse); ``(None, tree)`` when it must be
    extracted (``tree`` ``None``: this Python does not read it as it is). The tree is the
    caller's to reuse (the check's screen, the parse)."""
    tree = python_tree_as_written(source)
    if tree is None or contributes(view_of(tree, path), data):
        return None, tree
    return EMPTY_FACTS, tree


def screened_extract(
    path: str, data: bytes, project: Project | None = None, *, screen: bool | None = None
) -> ModuleFacts:
    """A file's index facts, screened first: ``EMPTY_FACTS`` without a LibCST parse when
    its CPython tree cannot contribute (``screened_facts``), else ``extract`` with that
    tree and text. ``screen`` off (``None``: the engine's default, ``TOOLRET_SCREEN``):
    ``extract``. ``toolret check`` and the language server's workspace index read a file
    through here; a file another module's fact names is read by ``extract`` (its facts
    are wanted, whatever they are)."""
    from lint_rules import engine
    from lint_rules.notebook import NotebookError

    if not (engine.SCREEN if screen is None else screen):
        return extract(path, data, project)
    try:
        source: str | None = engine.source_of(data, path)  # a notebook: its code cells
    except (SyntaxError, UnicodeDecodeError, LookupError, NotebookError):
        source = None
    if source is None:
        return extract(path, data, project)
    screened, tree = screened_facts(path, data, source)
    if screened is not None:
        return screened
    return extract(path, data, project, python=tree, source=source)


def extract(
    path: str,
    data: bytes,
    project: Project | None = None,
    *,
    python: Any = None,
    source: str | None = None,
) -> ModuleFacts:
    """The index facts of one file (``EMPTY_FACTS`` when it cannot be read or parsed;
    ``python``: CPython's tree of it, ``source``: its text (a notebook's: its code
    cells), when the caller has them)."""
    from lint_rules.engine import source_of
    from lint_rules.notebook import NotebookError

    try:
        text = source if source is not None else str(source_of(data, path))
        module = parse_module(text, path, python=python)
    except (
        SyntaxError,
        UnicodeDecodeError,
        LookupError,
        NotebookError,
        cst.ParserSyntaxError,
        RecursionError,
    ):
        return EMPTY_FACTS
    return extract_parsed(module, data, project)


def extract_parsed(
    module: ParsedModule, data: bytes, project: Project | None = None
) -> ModuleFacts:
    """The index facts of a file already parsed (``data``: its bytes, for the byte tests)."""
    from lint_rules.frameworks.google_genai.facts import extract_module as genai_facts
    from lint_rules.frameworks.mcp.facts import extract_module as mcp_facts
    from lint_rules.frameworks.openai_agents.facts import extract_module as agents_facts
    from lint_rules.frameworks.openai_chat.facts import extract_module as chat_facts
    from lint_rules.frameworks.pydantic_ai.facts import extract_module as pydantic_facts

    try:
        return ModuleFacts(
            {
                "agents": agents_facts(module, data, project),
                "chat": chat_facts(module, data),
                "mcp": mcp_facts(module, data),
                "pydantic_ai": pydantic_facts(module, data),
                "google_genai": genai_facts(module, data),
            }
        )
    except RecursionError:
        return EMPTY_FACTS
