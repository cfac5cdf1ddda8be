"""Whole-project mode: an index of the Python facts that cross files.

``toolret check`` builds a :class:`ProjectIndex` before it checks anything,
so that a file's rules can use facts that live in another file of the same
project: the ``Agent(output_type=..., tool_use_behavior=fn)`` in ``main.py``
that gives ``fn`` in ``behaviors.py`` its output type (issue 4); later also
the Chat Completions dispatch registry imported by ``loop.py`` from ``tools.py``
(issue 5). flake8 checks one file at a time and has no index: there only
same-file facts are used.

The index is a collection of per-module facts (:class:`ModuleFacts`, plain
JSON-able values, so the result cache can keep them and a warm run only
stats files) plus what is derived from them once every module is known:
the facts that *name* another file (``uses``), and the resolution of
imported names the checked files asked about (``types``). A family adds its
facts as another key of ``ModuleFacts.data`` and another derived table; the
import resolution (module path + name, relative imports, ``src/`` layouts,
re-exports) is shared.

This module never imports LibCST: deciding whether a file is worth parsing
is a byte scan; the parsing itself is the framework's (``extract``).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from lint_rules.analysis.summaries import module_file
from lint_rules.fileio import read_regular

PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
_MAX_REEXPORT_DEPTH = 5


def project_root(paths: Iterable[Path]) -> Path:
    """The nearest ancestor of the first path holding a project marker, else their common
    directory (``pyproject.toml``, ``setup.py``, ``setup.cfg`` or ``.git``)."""
    absolute = [Path(os.path.abspath(p)) for p in paths]
    if not absolute:
        absolute = [Path.cwd()]
    for path in absolute:
        start = path if path.is_dir() else path.parent
        for directory in (start, *start.parents):
            if any(os.path.exists(directory / marker) for marker in PROJECT_MARKERS):
                return directory
    common = Path(os.path.commonpath([str(p) for p in absolute]))
    return common if common.is_dir() else common.parent


_IMPORT_STATEMENT = re.compile(
    rb"(?:^|[;:])[ \t]*((?:from|import)\b(?:[^\n(\\]|\\\r?\n|\\|\([^)]*\))*)", re.MULTILINE
)
"""An import statement, as far as its bytes go: from a line's start or after ``;`` or a
compound statement's ``:``, through backslash continuations and a parenthesised list
(text that only looks like one, in a docstring, is read too: never less than the imports)."""


def _imports(data: bytes) -> list[ast.stmt] | None:
    """The import statements of a module's bytes, read without parsing the module (its
    import lines alone), or ``None`` when it cannot be read (not Python this reads)."""
    statements = [match.group(1) for match in _IMPORT_STATEMENT.finditer(data)]
    try:
        return ast.parse(b"\n".join(statements)).body
    except (SyntaxError, ValueError):
        pass
    found: list[ast.stmt] = []
    for statement in statements:
        try:
            found.extend(ast.parse(statement).body)
        except (SyntaxError, ValueError):
            # prose that looks like an import, or an import whose list holds a comment
            # with a parenthesis: the whole module says which
            try:
                return [
                    node
                    for node in ast.walk(ast.parse(data))
                    if isinstance(node, (ast.Import, ast.ImportFrom))
                ]
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return None
    return found


class _Resolver:
    """Import resolution as ``summaries.module_file`` does it, for many importers at once:
    each directory an import may be looked up in (the importer's, its package's for a
    relative import, a root or its ``src/``) answers for ``a/b.py`` and
    ``a/b/__init__.py``, remembered per directory and name. Every directory's answer
    counts, not only the first one ``module_file`` would take: more files, never fewer."""

    def __init__(self, roots: Iterable[Path]) -> None:
        self.bases = tuple(
            dict.fromkeys(base for root in roots for base in (str(root), os.path.join(root, "src")))
        )
        self._found: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}

    def _in(self, base: str, parts: tuple[str, ...]) -> tuple[str, ...]:
        key = (base, parts)
        found = self._found.get(key)
        if found is None:
            stem = os.path.join(base, *parts)
            options = [stem + ".py"] if parts else []
            options.append(os.path.join(stem, "__init__.py"))
            found = self._found[key] = tuple(o for o in options if os.path.isfile(o))
        return found

    def files(self, importer: str, parts: tuple[str, ...], level: int) -> Iterator[str]:
        if level:
            base = os.path.dirname(importer)
            for _ in range(level - 1):
                base = os.path.dirname(base)
            yield from self._in(base, parts)
        elif parts:
            yield from self._in(os.path.dirname(importer), parts)
            for base in self.bases:
                yield from self._in(base, parts)

    def imported_files(self, path: str, data: bytes) -> set[str] | None:
        """The project files the imports of ``path`` name (each module named, each of its
        packages, each name imported from it that may be a submodule); ``None``: its
        imports cannot be read."""
        nodes = _imports(data)
        if nodes is None:
            return None
        files: set[str] = set()
        for node in nodes:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    parts = tuple(alias.name.split("."))
                    for end in range(1, len(parts) + 1):
                        files.update(self.files(path, parts[:end], 0))
            elif isinstance(node, ast.ImportFrom):
                parts = tuple(node.module.split(".")) if node.module else ()
                for end in range(0 if node.level else 1, len(parts) + 1):
                    files.update(self.files(path, parts[:end], node.level))
                for alias in node.names:
                    if alias.name != "*":
                        files.update(self.files(path, (*parts, alias.name), node.level))
        return files


class Reach:
    """Which files of the rest of a project can contribute a fact about a partial run's
    files (pre-commit's changed files: what their results read of the index).

    A contribution reaches another module only by resolving an import
    (``ProjectIndex._resolve`` through ``summaries.module_file``), re-exports followed
    through the modules on the way. So a file is kept when its imports resolve to a
    target or to a kept file, closed under that. Kept too, as if they were targets: a
    file whose imports cannot be read (not Python this reads: a notebook, another
    encoding, a syntax error), and a file an import resolves to that was not added
    (outside the walk, or known to the cache: its imports are unread). A file left out
    can contribute nothing a target's result reads; its own facts are still read on
    demand (``ProjectIndex.facts_of``) when a kept fact names it.

    ``add`` each file's bytes as it is read (only its imports are kept, not the bytes),
    then ``kept(targets)``.
    """

    def __init__(self, roots: Iterable[Path]) -> None:
        self._resolver = _Resolver(roots)
        self._edges: dict[str, set[str] | None] = {}

    def add(self, path: str, data: bytes) -> None:
        resolved = self._resolver.imported_files(path, data) if path.endswith(".py") else None
        self._edges[path] = resolved

    def kept(self, targets: Iterable[str]) -> set[str]:
        reached = set(targets)
        kept: set[str] = set()
        edges: dict[str, set[str]] = {}
        for path, files in self._edges.items():
            if files is None:
                kept.add(path)
                reached.add(path)
            else:
                edges[path] = files
                reached.update(file for file in files if file not in self._edges)
        while True:
            new = [path for path, files in edges.items() if not files.isdisjoint(reached)]
            if not new:
                return kept
            for path in new:
                del edges[path]
            kept.update(new)
            reached.update(new)


# ---------------------------------------------------------------- agents facts


@dataclass(frozen=True)
class DeclaredType:
    """What an ``Agent(output_type=...)`` declares, as far as it is certain.

    ``kind`` is ``unset`` (no ``output_type`` or ``None``), a builtin (``str``,
    ``int``, ``float``, ``bool``, ``dict``, ``list``, ``tuple``, ``set``),
    ``class`` (a pydantic model, dataclass or plain class whose instances are
    none of those builtins), ``typeddict`` (its values are dicts) or
    ``unknown`` (anything else: never reported). ``identity`` names a class
    (``/abs/path.py::Name``) so an instance of the same class is not a
    conflict; ``item`` is the element kind of ``list[str]``.
    """

    kind: str
    display: str = ""
    identity: str | None = None
    item: str | None = None

    def to_json(self) -> list[Any]:
        return [self.kind, self.display, self.identity, self.item]

    @classmethod
    def from_json(cls, raw: list[Any]) -> DeclaredType:
        kind, display, identity, item = raw
        return cls(kind, display, identity, item)


UNSET = DeclaredType("unset")
UNKNOWN_TYPE = DeclaredType("unknown")


@dataclass(frozen=True)
class AgentUse:
    """An ``Agent(...)`` that uses a behaviour function: what it declares, and where it is."""

    label: str
    """How messages name it: ``agent "Weather agent"`` or ``agent `triage```."""
    output_type: DeclaredType
    where: str = ""
    """``main.py:14`` (relative to the project root) for an agent in another file."""
    misspelled: tuple[str, ...] = ()
    """The misspelled keywords (``tool_use_behaviour=``) this use was read through."""

    def to_json(self) -> list[Any]:
        return [self.label, self.output_type.to_json(), self.where, list(self.misspelled)]


@dataclass(frozen=True)
class ModuleFacts:
    """What one module contributes to the index (JSON-able; ``{}`` = nothing).

    For the OpenAI Agents SDK (key ``agents``): ``functions`` (top-level
    ``def`` names), ``classes`` (name → declared-type kind), ``imports``
    (local name → qualified name, for following re-exports), ``uses``
    (``[behaviour reference, type, label, line, misspelled keywords]`` for each
    ``Agent(...)`` whose ``tool_use_behavior`` is an imported name) and ``type_refs`` (imported
    names used as ``output_type``, with how they are displayed).

    For the Chat Completions loops (key ``chat``, see
    ``lint_rules/frameworks/openai_chat/facts.py``): ``signatures`` (top-level
    ``def`` → ``[accepted, required, **kwargs, decorated]``), ``registries``
    (module-level registry literals: ``entries`` ``[key, local name]``,
    ``closed``), ``imports``, ``packages`` (imported top-level packages),
    ``schemas`` (``[name, properties, required]`` or ``None``) and ``uses`` (the
    registries its loops dispatch through that cross files).

    For MCP servers (key ``mcp``, see ``lint_rules/frameworks/mcp/facts.py``):
    ``servers`` (module-level name → origin value of the server it is bound to),
    ``imports`` (to follow re-exports) and ``uses`` (the imported names, qualified,
    it registers tools, resources, prompts or a ``call_tool`` handler on).
    """

    data: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str) -> Any:
        return self.data.get(key)


EMPTY_FACTS = ModuleFacts()

Extractor = Callable[[str, bytes], ModuleFacts]
"""``(path, data) -> facts`` of one file; the framework parses it."""


def wants_full_facts(data: bytes) -> bool:
    """Whether a file can hold an ``Agent(..., tool_use_behavior=<name>)`` (a byte scan;
    ``behav`` so that the misspelling TRV310 renames, ``tool_use_behaviour=``, counts)."""
    from lint_rules import prefilter

    return b"behav" in data and prefilter.has_signal("openai_agents", data, "")


SIGNALLED_FACTS: Final = ("openai_agents", "mcp", "pydantic_ai", "google_genai")
"""The families whose cross-file facts need the family's own byte signal (the Chat
Completions registry facts need none: a registry module may import nothing)."""


def wants_facts(data: bytes, unsignalled: bool = False) -> bool:
    """Whether a file's bytes can hold a cross-file fact of any family.

    ``unsignalled``: the prefilter found no signal of any family of ``SIGNALLED_FACTS``
    in these bytes, so only the Chat Completions facts are still possible (the caller
    saves three scans of the file).
    """
    if unsignalled:
        return wants_chat_facts(data)
    return (
        wants_full_facts(data)
        or wants_chat_facts(data)
        or wants_mcp_facts(data)
        or wants_pydantic_facts(data)
        or wants_genai_facts(data)
    )


def wants_genai_facts(data: bytes) -> bool:
    """Whether a file can list a function of another module for Gemini's automatic
    function calling (the family's byte signal)."""
    from lint_rules import prefilter

    return prefilter.has_signal("google_genai", data, "")


def wants_pydantic_facts(data: bytes) -> bool:
    """Whether a file can register a function of another module as a Pydantic AI tool
    (the family's byte signal)."""
    from lint_rules import prefilter

    return prefilter.has_signal("pydantic_ai", data, "")


def wants_chat_facts(data: bytes) -> bool:
    """Whether a file can dispatch Chat Completions tool calls through a registry that
    crosses files (a byte scan: it reads ``tool_calls`` and imports something)."""
    return b"tool_calls" in data and b"import" in data


def wants_mcp_facts(data: bytes) -> bool:
    """Whether a file can bind, re-export or use an MCP server that crosses files: the MCP
    family's byte signal (an import of ``mcp``/``fastmcp``, or of a name ``mcp``), so a
    tree without MCP code never parses a file for these facts."""
    from lint_rules import prefilter

    return prefilter.has_signal("mcp", data, "")


# ------------------------------------------------------------------ chat facts


@dataclass(frozen=True)
class ChatUse:
    """A Chat Completions loop of another file that dispatches through a registry (or a
    registered function) of this file.

    ``schemas`` are the loop module's tool schemas (``[name, properties,
    required]``, ``None`` when any is unknown); ``keywords``: every dispatch is
    ``fn(**args)``; ``plain``: results go to plain ``json.dumps``; ``packages``:
    the loop module's imported top-level packages (whether it is a client of the
    checked file's settings is decided when checking); ``where``: ``loop.py:12``.
    """

    schemas: tuple[tuple[str, tuple[str, ...] | None, tuple[str, ...] | None], ...] | None
    keywords: bool
    plain: bool
    packages: tuple[str, ...]
    where: str

    def to_json(self) -> list[Any]:
        schemas = None if self.schemas is None else [list(s) for s in self.schemas]
        return [schemas, self.keywords, self.plain, list(self.packages), self.where]

    def counts_for(self, clients: Iterable[str]) -> bool:
        """Whether the loop module imports one of ``clients`` (``openai``, extra clients)."""
        return any(p in self.packages for p in clients)

    @property
    def names(self) -> frozenset[str] | None:
        if self.schemas is None:
            return None
        return frozenset(s[0] for s in self.schemas)


def _chat_use(chat: Mapping[str, Any], use: Mapping[str, Any], where: str) -> ChatUse:
    raw = chat.get("schemas")
    schemas = None
    if raw is not None:
        schemas = tuple(
            (
                str(name),
                None if props is None else tuple(props),
                None if required is None else tuple(required),
            )
            for name, props, required in raw
        )
    return ChatUse(
        schemas,
        bool(use.get("keywords")),
        bool(use.get("plain")),
        tuple(chat.get("packages", ())),
        where,
    )


# ------------------------------------------------------------------- the index


@dataclass
class _Derived:
    """What one module's facts add to the derived tables, in the order a whole pass adds
    them, and what deriving it read: the files whose facts were consulted (``read``) and
    the module paths whose existence was tested (``probed``, found or not). Nothing else
    of the project can change this module's contribution."""

    types: dict[str, DeclaredType] = field(default_factory=dict)
    uses: list[tuple[tuple[str, str], AgentUse]] = field(default_factory=list)
    registry_keys: dict[str, list[Any]] = field(default_factory=dict)
    registries: list[tuple[tuple[str, str], ChatUse]] = field(default_factory=list)
    functions: list[tuple[tuple[str, str], ChatUse]] = field(default_factory=list)
    signatures: list[tuple[str, str, Any]] = field(default_factory=list)
    """``(registry file, registered name, signature)``, in the order they are set."""
    named: list[tuple[str, str]] = field(default_factory=list)
    """``(framework key, file)``."""
    mcp_servers: dict[str, str] = field(default_factory=dict)
    """Imported name (qualified) → origin of the MCP server it refers to."""
    registered: list[tuple[str, tuple[str, str], Any]] = field(default_factory=list)
    """``(family, (file, function), value)``: a function of another file registered as a
    tool (MCP: the server's origin; Pydantic AI: how it is registered)."""
    read: set[str] = field(default_factory=set)
    probed: set[str] = field(default_factory=set)


@dataclass
class ProjectIndex:
    """Facts of every indexed module of one or more project roots, and what they name.

    ``modules`` holds what was extracted from files with a signal;
    ``lookup`` extracts a file named by a fact (``models.py`` holding the
    output type, ``behaviors.py`` holding the behaviour function) on first
    use. ``uses`` maps ``(file, function)`` to the agents that use it from
    another file; ``types`` maps ``file`` → ``{qualified name: DeclaredType}``
    for the imported output types that file's own agents declare.

    Built with ``add`` for every file and one ``finish``; kept up to date with
    ``update`` (a file's facts replaced or removed), which re-derives only the
    contributions the change can affect. Either way the tables are those of one
    pass over the modules in path order: each module with uses derives its own
    contribution (:class:`_Derived`), recording what it read, and the tables are
    their concatenation.
    """

    roots: tuple[Path, ...] = ()
    modules: dict[str, ModuleFacts] = field(default_factory=dict)
    uses: dict[tuple[str, str], list[AgentUse]] = field(default_factory=dict)
    types: dict[str, dict[str, DeclaredType]] = field(default_factory=dict)
    named: dict[str, set[str]] = field(default_factory=dict)
    """Framework key → files that a fact of another file makes relevant."""
    chat_registries: dict[tuple[str, str], list[ChatUse]] = field(default_factory=dict)
    """``(file, registry)`` → the loops of other files that dispatch through it."""
    chat_functions: dict[tuple[str, str], list[ChatUse]] = field(default_factory=dict)
    """``(file, function)`` → the loops of other files that dispatch to it (through a
    registry of any file that registers it under an import)."""
    chat_signatures: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    """``file`` → registered name → signature facts of the imported function it names."""
    chat_registry_keys: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    """``file`` → imported registry (qualified) → ``[keys, closed]``."""
    mcp_servers: dict[str, dict[str, str]] = field(default_factory=dict)
    """``file`` → imported name (qualified) it registers tools on → the origin value of
    the MCP server that name is bound to in another file (``official``, ``fastmcp``,
    ``lowlevel``)."""
    registered: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    """family → ``file`` → its functions that other files register as the family's tools →
    what the registration says (MCP: the server's origin value; Pydantic AI: the context
    and how); a function registered in two different ways is left out."""
    extract: Extractor | None = field(default=None, repr=False, compare=False)
    extracted: dict[str, ModuleFacts] = field(default_factory=dict, repr=False, compare=False)
    """Files a fact named and ``facts_of`` parsed: the runner caches their facts too."""
    _exists: dict[str, bool] = field(default_factory=dict, repr=False, compare=False)
    _given: dict[str, ModuleFacts] = field(default_factory=dict, repr=False, compare=False)
    """The facts ``add``/``update`` gave (``modules`` also holds what ``facts_of`` extracted)."""
    _derived: dict[str, _Derived] = field(default_factory=dict, repr=False, compare=False)
    """Each module with uses → its contribution to the tables."""
    _readers: dict[str, set[str]] = field(default_factory=dict, repr=False, compare=False)
    """File → the modules whose contribution read its facts."""
    _probers: dict[str, set[str]] = field(default_factory=dict, repr=False, compare=False)
    """Module path → the modules whose contribution tested whether it exists."""
    _recording: _Derived | None = field(default=None, repr=False, compare=False)
    _finished: bool = field(default=False, repr=False, compare=False)

    # -- queries used while checking

    def names_file(self, key: str, path: str) -> bool:
        """Whether a fact of another file names ``path`` for family ``key`` — for the
        TRV9xx family (``any_framework``), for any family: it judges every family's tool
        functions."""
        if key == "any_framework":
            return any(path in files for files in self.named.values())
        return path in self.named.get(key, ())

    @property
    def has_cross_facts(self) -> bool:
        """Whether any file's results depend on another file's facts."""
        return bool(
            self.uses
            or self.types
            or self.chat_registry_keys
            or self.named
            or self.mcp_servers
            or self.registered
        )

    def uses_in(self, path: str) -> dict[str, list[AgentUse]]:
        """Function name → agents in other files that use it as their behaviour."""
        found: dict[str, list[AgentUse]] = {}
        for (file, function), uses in self.uses.items():
            if file == path:
                found[function] = uses
        return found

    def resolved_type(self, path: str, qualified: str) -> DeclaredType | None:
        return self.types.get(path, {}).get(qualified)

    def digest(self, path: str) -> str:
        """What of the index ``path``'s results can depend on, as text ("" if nothing)."""
        parts: list[str] = []
        for function, uses in sorted(self.uses_in(path).items()):
            parts.append(json.dumps([function, sorted(u.to_json() for u in uses)]))
        types = self.types.get(path)
        if types:
            parts.append(json.dumps(sorted((k, v.to_json()) for k, v in types.items())))
        return "\n".join(parts)

    def chat_digest(self, path: str) -> str:
        """What of the Chat Completions facts ``path``'s results can depend on ("" if nothing)."""
        parts: list[str] = []
        for table in (self.chat_registries, self.chat_functions):
            for (file, name), uses in sorted(table.items()):
                if file == path:
                    parts.append(json.dumps([name, sorted(u.to_json() for u in uses)]))
        for table2 in (self.chat_signatures, self.chat_registry_keys):
            found = table2.get(path)
            if found:
                parts.append(json.dumps(found, sort_keys=True))
        return "\n".join(parts)

    def mcp_server(self, path: str, qualified: str) -> str | None:
        """The origin value (``official``, ``fastmcp``, ``lowlevel``) of the MCP server an
        imported name of ``path`` refers to, if a module of the project binds it to one
        (re-exports followed); ``None`` if not known."""
        return self.mcp_servers.get(path, {}).get(qualified)

    def registered_in(self, path: str, family: str) -> dict[str, Any]:
        """``path``'s functions that other modules register as tools of ``family`` → what
        the registration says."""
        return self.registered.get(family, {}).get(path, {})

    def mcp_tools_in(self, path: str) -> dict[str, str]:
        """``path``'s functions that other modules register as MCP tools → origin value."""
        return self.registered_in(path, "mcp")

    def registered_digest(self, path: str, family: str) -> str:
        """What of the registrations of other files ``path``'s results depend on."""
        found = self.registered_in(path, family)
        return json.dumps(sorted(found.items())) if found else ""

    def mcp_digest(self, path: str) -> str:
        """What of the MCP facts ``path``'s results can depend on ("" if nothing): the
        origins of the servers of other files it registers tools on, and its functions
        that other files register."""
        found = self.mcp_servers.get(path)
        tools = self.mcp_tools_in(path)
        if not found and not tools:
            return ""
        servers = json.dumps(sorted((found or {}).items()))
        return servers if not tools else f"{servers}\ntools {json.dumps(sorted(tools.items()))}"

    def chat_uses_of_registries(self, path: str) -> dict[str, list[ChatUse]]:
        """Registry name → loops of other files dispatching through it."""
        return {name: uses for (file, name), uses in self.chat_registries.items() if file == path}

    def chat_uses_of_functions(self, path: str) -> dict[str, list[ChatUse]]:
        """Function name → loops of other files that dispatch to it."""
        return {name: uses for (file, name), uses in self.chat_functions.items() if file == path}

    def view(self, path: str) -> tuple[str, str, bool, bool, str, str, str]:
        """Everything of the index that checking ``path`` can read (``digest``,
        ``chat_digest``, whether a fact of another file names it, ``mcp_digest``, the
        Pydantic AI and Gemini registrations of other files): equal views, equal results."""
        return (
            self.digest(path),
            self.chat_digest(path),
            self.names_file("openai_agents", path),
            self.names_file("openai_chat", path),
            self.mcp_digest(path),
            self.registered_digest(path, "pydantic_ai"),
            self.registered_digest(path, "google_genai"),
        )

    # -- building

    def add(self, path: str, facts: ModuleFacts) -> None:
        self.modules[path] = self._given[path] = facts

    def facts_of(self, path: str) -> ModuleFacts:
        """The facts of a file, extracting them if a fact names it and it was not indexed."""
        if self._recording is not None:
            self._recording.read.add(path)
        facts = self.modules.get(path)
        if facts is not None and facts.data:
            return facts
        if self.extract is None:
            return facts or EMPTY_FACTS
        try:
            data = read_regular(path)  # never blocks on a FIFO named like a module
        except OSError:
            return EMPTY_FACTS
        facts = self.extract(path, data)
        self.modules[path] = self.extracted[path] = facts
        return facts

    def finish(self) -> None:
        """Derive ``uses``, ``types``, ``named`` and the chat tables once every module is in."""
        for path, facts in self.modules.items():
            if path not in self.extracted:
                self._given.setdefault(path, facts)
        self._derived.clear()
        self._readers.clear()
        self._probers.clear()
        for path in sorted(self._given):
            self._derive(path)
        self._drop_unread()
        self._fold()
        self._finished = True

    def update(self, path: str, facts: ModuleFacts | None) -> None:
        """Replace one file's facts (``None``: the file is gone) and re-derive only what
        that can change; before ``finish``, the same as ``add``.

        Afterwards every query answers as an index built from scratch would (``add``
        for every file, then ``finish``) with the same files on disk. Re-derived are the
        file's own contribution and that of every module whose contribution read the
        file's facts or tested whether it exists: an import that resolves to it, or
        could now that it exists (or no longer does). Call it for every Python file that
        changed, appeared or went: existence is cached, and facts ``facts_of`` extracted
        are kept while the file does not change and a contribution still reads them.
        """
        if not self._finished:
            if facts is not None:
                self.add(path, facts)
            else:
                self.modules.pop(path, None)
                self._given.pop(path, None)
            return
        known = self._exists.pop(path, None)
        if (
            facts is not None
            and self._given.get(path) == facts
            and path not in self.extracted
            and known is not False  # True, or never tested: nothing resolved to it changes
        ):
            return
        if facts is None:
            self._given.pop(path, None)
            self.modules.pop(path, None)
        else:
            self.modules[path] = self._given[path] = facts
        self.extracted.pop(path, None)
        stale = {path, *self._readers.get(path, ()), *self._probers.get(path, ())}
        for module in stale:
            self._forget(module)
        for module in sorted(stale):
            if module in self._given:
                self._derive(module)
        self._drop_unread()
        self._fold()

    def _derive(self, path: str) -> None:
        """Record ``path``'s contribution to the tables (nothing if its facts have no uses)."""
        facts = self._given[path]
        agents = facts.get("agents") or {}
        chat = facts.get("chat") or {}
        mcp = facts.get("mcp") or {}
        pydantic = facts.get("pydantic_ai") or {}
        genai = facts.get("google_genai") or {}
        if not (
            agents.get("type_refs")
            or agents.get("uses")
            or chat.get("uses")
            or mcp.get("uses")
            or mcp.get("registers")
            or pydantic.get("registers")
            or genai.get("registers")
        ):
            return
        derived = self._recording = _Derived()
        try:
            if agents:
                self._derive_agents(path, agents, derived)
            if chat.get("uses"):
                self._derive_chat(path, chat, derived)
            if mcp.get("uses") or mcp.get("registers"):
                self._derive_mcp(path, mcp, derived)
            for function, value in pydantic.get("registers", ()):
                self._derive_registered(path, "pydantic_ai", function, value, derived)
            for function, value in genai.get("registers", ()):
                self._derive_registered(path, "google_genai", function, value, derived)
        finally:
            self._recording = None
        self._derived[path] = derived
        for file in derived.read:
            self._readers.setdefault(file, set()).add(path)
        for file in derived.probed:
            self._probers.setdefault(file, set()).add(path)

    def _forget(self, path: str) -> None:
        derived = self._derived.pop(path, None)
        if derived is None:
            return
        for files, table in ((derived.read, self._readers), (derived.probed, self._probers)):
            for file in files:
                modules = table.get(file)
                if modules is not None:
                    modules.discard(path)
                    if not modules:
                        del table[file]

    def _drop_unread(self) -> None:
        """Forget extracted facts no contribution reads any more (a full pass would not
        have extracted them)."""
        for path in [p for p in self.extracted if p not in self._readers]:
            del self.extracted[path]
            given = self._given.get(path)
            if given is None:
                self.modules.pop(path, None)
            else:
                self.modules[path] = given

    def _fold(self) -> None:
        """The tables: every contribution, the modules in path order (agents first)."""
        uses: dict[tuple[str, str], list[AgentUse]] = {}
        types: dict[str, dict[str, DeclaredType]] = {}
        named: dict[str, set[str]] = {}
        registries: dict[tuple[str, str], list[ChatUse]] = {}
        functions: dict[tuple[str, str], list[ChatUse]] = {}
        signatures: dict[str, dict[str, list[Any]]] = {}
        registry_keys: dict[str, dict[str, list[Any]]] = {}
        mcp_servers: dict[str, dict[str, str]] = {}
        registered: dict[str, dict[str, dict[str, Any]]] = {}
        conflicting: set[tuple[str, str, str]] = set()
        contributions = [(path, self._derived[path]) for path in sorted(self._derived)]
        for path, derived in contributions:
            if derived.types:
                types[path] = derived.types
            for target, use in derived.uses:
                uses.setdefault(target, []).append(use)
            for key, file in derived.named:
                if key == "openai_agents":
                    named.setdefault(key, set()).add(file)
        for path, derived in contributions:
            for key, file in derived.named:
                if key != "openai_agents":
                    named.setdefault(key, set()).add(file)
            if derived.registry_keys:
                registry_keys[path] = derived.registry_keys
            for target, chat_use in derived.registries:
                registries.setdefault(target, []).append(chat_use)
            for target, chat_use in derived.functions:
                functions.setdefault(target, []).append(chat_use)
            for owner, local, signature in derived.signatures:
                signatures.setdefault(owner, {})[local] = signature
            if derived.mcp_servers:
                mcp_servers[path] = derived.mcp_servers
            for family, (file, function), value in derived.registered:
                known = registered.setdefault(family, {}).setdefault(file, {})
                if known.setdefault(function, value) != value:
                    conflicting.add((family, file, function))
        self.uses, self.types, self.named = uses, types, named
        self.chat_registries, self.chat_functions = registries, functions
        self.chat_signatures, self.chat_registry_keys = signatures, registry_keys
        self.mcp_servers = mcp_servers
        for family, file, function in conflicting:
            del registered[family][file][function]
        self.registered = {
            family: {file: functions for file, functions in files.items() if functions}
            for family, files in registered.items()
        }

    def _derive_agents(self, path: str, agents: Mapping[str, Any], derived: _Derived) -> None:
        """An agents module's output types (imported classes) and the behaviour functions
        of other files its ``Agent(...)`` calls use."""
        types = derived.types
        for qualified, display in agents.get("type_refs", ()):
            types[qualified] = self.resolve_type(path, qualified, display)
        for reference, raw_type, label, line, misspelled in agents.get("uses", ()):
            target = self.resolve_function(path, reference)
            if target is None:
                continue
            declared = _declared(raw_type, types)
            where = f"{self._relative(path)}:{line}"
            derived.uses.append((target, AgentUse(label, declared, where, tuple(misspelled))))
            derived.named.append(("openai_agents", target[0]))

    def _derive_chat(self, path: str, chat: Mapping[str, Any], derived: _Derived) -> None:
        """Resolve a loop module's registry uses: an imported registry (its keys for the
        loop, the loop's schemas for the registry's file), and registered functions
        that live in another file (their signatures, the loop's serialisation)."""
        for use in chat["uses"]:
            where = f"{self._relative(path)}:{use.get('line', 0)}"
            chat_use = _chat_use(chat, use, where)
            imported = use.get("registry")
            if isinstance(imported, str):
                found = self._resolve(importer=path, qualified=imported, table="registries")
                if found is None:
                    continue
                file, name = found
                registry = (self.facts_of(file).get("chat") or {})["registries"][name]
                keys = sorted(key for key, _ in registry["entries"])
                closed = bool(registry["closed"]) and not use.get("extended")
                derived.registry_keys[imported] = [keys, closed]
                if file == path:
                    continue
                derived.registries.append(((file, name), chat_use))
                derived.named.append(("openai_chat", file))
                owner, entries = file, [(local, None) for _, local in registry["entries"]]
            else:
                owner, entries = path, [(local, ref) for _, local, ref in use.get("entries", ())]
            for local, ref in entries:
                if not isinstance(local, str):
                    continue
                target = self._registered(owner, local, ref)
                if target is None:
                    continue
                if target[0] != owner:
                    signature = (self.facts_of(target[0]).get("chat") or {})["signatures"]
                    derived.signatures.append((owner, local, signature[target[1]]))
                if target[0] != path:
                    derived.functions.append((target, chat_use))
                    derived.named.append(("openai_chat", target[0]))

    def _derive_mcp(self, path: str, mcp: Mapping[str, Any], derived: _Derived) -> None:
        """The origins of the servers of other files an MCP module registers tools on:
        each imported name it uses as the owner of a registration, resolved to the file
        and module-level name that binds it (re-exports followed)."""
        for qualified in mcp.get("uses", ()):
            if not isinstance(qualified, str):
                continue
            origin = self._mcp_origin(path, qualified)
            if origin is not None:
                derived.mcp_servers[qualified] = origin
        for server, function in mcp.get("registers", ()):
            if not isinstance(server, str) or not isinstance(function, str):
                continue
            if server.startswith("import:"):
                origin = self._mcp_origin(path, server[len("import:") :])
                if origin is None or origin == "lowlevel":
                    continue
            else:
                origin = server
            self._derive_registered(path, "mcp", function, origin, derived)

    def _derive_registered(
        self, path: str, family: str, function: Any, value: Any, derived: _Derived
    ) -> None:
        """A registration of an imported function as a ``family`` tool: the function's file
        and name (re-exports followed; every module's ``functions`` and ``imports`` are in
        its MCP facts), the file named for the family."""
        if not isinstance(function, str):
            return
        target = self._resolve(path, function, "functions", family="mcp")
        if target is None or target[0] == path:
            return
        derived.registered.append((family, target, value))
        derived.named.append((family, target[0]))

    def _mcp_origin(self, path: str, qualified: str) -> str | None:
        """The origin value of the server an imported name of ``path`` is bound to."""
        found = self._resolve(path, qualified, "servers", family="mcp")
        if found is None:
            return None
        file, name = found
        origin = (self.facts_of(file).get("mcp") or {})["servers"][name]
        return origin if isinstance(origin, str) else None

    def _registered(self, owner: str, local: str, ref: str | None) -> tuple[str, str] | None:
        """``(file, function)`` a registry entry of ``owner`` names: a top-level ``def`` of
        ``owner`` or an imported one (re-exports followed)."""
        if ref is None:
            facts = self.facts_of(owner).get("chat") or {}
            if local in facts.get("signatures", {}):
                return owner, local
            ref = facts.get("imports", {}).get(local)
            if not isinstance(ref, str):
                return None
        return self._resolve(importer=owner, qualified=ref, table="signatures")

    def _relative(self, path: str) -> str:
        for root in self.roots:
            try:
                return Path(path).relative_to(root).as_posix()
            except ValueError:
                continue
        return os.path.basename(path)

    # -- import resolution

    def resolve_function(self, importer: str, qualified: str) -> tuple[str, str] | None:
        """``(file, function)`` a qualified name imported by ``importer`` refers to, if it is
        a top-level ``def`` of a project file (re-exports followed)."""
        return self._resolve(importer, qualified, "functions", family="agents")

    def resolve_type(self, importer: str, qualified: str, display: str) -> DeclaredType:
        """The declared type an imported class name refers to (``unknown`` if not certain)."""
        found = self._resolve(importer, qualified, "classes", family="agents")
        if found is None:
            return DeclaredType("unknown", display)
        file, name = found
        classes = self.facts_of(file).get("agents") or {}
        kind = classes.get("classes", {}).get(name, "unknown")
        return DeclaredType(kind, display, f"{file}::{name}" if kind == "class" else None)

    def _resolve(
        self, importer: str, qualified: str, table: str, depth: int = 0, family: str = "chat"
    ) -> tuple[str, str] | None:
        """``(file, name)`` of an imported name found in the ``table`` of a family's facts
        (``agents``: ``functions``, ``classes``; ``chat``: ``signatures``, ``registries``;
        ``mcp``: ``servers``)."""
        if depth > _MAX_REEXPORT_DEPTH:
            return None
        level = len(qualified) - len(qualified.lstrip("."))
        parts = qualified[level:].split(".")
        if not parts or not parts[-1]:
            return None
        name, module_parts = parts[-1], [p for p in parts[:-1] if p]
        file = self._module_file(importer, module_parts, level)
        if file is None:
            return None
        facts = self.facts_of(file).get(family) or {}
        if name in facts.get(table, ()):
            return file, name
        reexport = facts.get("imports", {}).get(name)
        if isinstance(reexport, str):
            return self._resolve(file, reexport, table, depth + 1, family)
        return None

    def _module_file(self, importer: str, parts: list[str], level: int) -> str | None:
        return module_file(importer, parts, level, map(str, self.roots), self._is_file)

    def _is_file(self, path: str) -> bool:
        if self._recording is not None:
            self._recording.probed.add(path)
        known = self._exists.get(path)
        if known is None:
            known = self._exists[path] = os.path.isfile(path)
        return known


def _declared(raw: list[Any], types: Mapping[str, DeclaredType]) -> DeclaredType:
    """A use's type as stored: a resolved ``DeclaredType`` or ``["ref", qualified, display]``."""
    if raw and raw[0] == "ref":
        resolved = types.get(raw[1], UNKNOWN_TYPE)
        return replace(resolved, display=raw[2])
    return DeclaredType.from_json(raw)


def digest_text(text: str) -> str:
    if not text:
        return ""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()
