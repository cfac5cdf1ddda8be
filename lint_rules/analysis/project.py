"""Facts from outside the checked file, gathered by the front ends.

The core never reads files: a front end builds a :class:`Project` and passes
it to :func:`lint_rules.engine.check_source`. Two kinds of facts live here:

* *directory facts* — a PolyAI project's prompts and YAML say which functions
  the LLM can call. Every front end reads them (flake8 included); they are
  read once per project root and re-read only when a file's stats change.
* *Python cross-file facts* — which ``Agent(...)`` of another file uses a
  behaviour function, and what the output types its agents import are (later
  also dispatch registries): the CLI indexes the project for them
  (:class:`~lint_rules.analysis.index.ProjectIndex`, set as ``index``);
  flake8 has no index and uses same-file facts only. ``facts_digest`` is
  what a file's results used of both kinds: it keys the result cache.

A third, smaller directory fact: whether the project has its *own* package
named like a framework (a first-party ``agents/``), in which case imports of
that name are not the framework's (``is_first_party``) — unless the project
*is* that framework: its packaging metadata (``pyproject.toml``,
``setup.cfg``, ``setup.py``, read as text, never run) names the framework's
distribution, so its own examples and tests import the real thing.
"""

from __future__ import annotations

import ast
import configparser
import hashlib
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lint_rules.fileio import TEXT_FILE_LIMIT, read_regular

if TYPE_CHECKING:
    from lint_rules.analysis.index import ProjectIndex
    from lint_rules.analysis.module import ParsedModule
    from lint_rules.analysis.summaries import SummaryStore

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

POLYAI_SETTINGS_DIR = "agent_settings"
_TEXT_SUFFIXES = frozenset({".yaml", ".yml", ".txt", ".md", ".json"})
_SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".toolret_cache"})

# {{fn:name}}, {{ft:name}} and the exported form {{fn:FUNCTION-name}}.
_TEMPLATE_REFERENCE = re.compile(
    r"\{\{\s*f[nt]\s*:\s*(?:FUNCTION-)?([A-Za-z_][A-Za-z0-9_]*)\s*\}\}"
)
# `function: name` inside a phrase_filtering entry (YAML, optionally quoted).
_FUNCTION_KEY = re.compile(
    r"""^(\s*)(-\s+)?function\s*:\s*["']?([A-Za-z_][A-Za-z0-9_]*)["']?\s*(#.*)?$"""
)
_SAY_PHRASE_KEY = re.compile(
    r"""^\s*(-\s+)?say_phrase\s*:\s*["']?(true|True|TRUE|yes|on)["']?\s*(#.*)?$"""
)
_LIST_ITEM = re.compile(r"^(\s*)-(\s|$)")

FRAMEWORK_DISTRIBUTIONS: dict[str, frozenset[str]] = {
    "agents": frozenset({"openai-agents"}),
    "browser_use": frozenset({"browser-use"}),
    "openai": frozenset({"openai"}),
    "poly": frozenset({"polyai-adk"}),
}
"""A framework's import name → the distributions (PEP 503 normalised) that ship it."""


@dataclass(frozen=True)
class PolyAIProject:
    """Which functions of one PolyAI project the LLM (or a phrase filter) can call."""

    root: Path
    referenced: frozenset[str]
    """Functions referenced from prompts/YAML: ``{{fn:x}}``, ``{{ft:x}}``, phrase filters."""
    after_spoken_phrase: frozenset[str]
    """Functions a ``say_phrase: true`` phrase filter triggers: they run after speech."""
    sources: tuple[str, ...] = ()
    """Where each reference was found (``file: name``), for ``--show-tool-functions``."""
    unreadable: tuple[tuple[str, OSError], ...] = ()
    """Text files that exist but were not read (a FIFO, a link to a device, over
    ``TEXT_FILE_LIMIT``, no permission): ``(path, error)``, for ``TRV003``."""

    @property
    def has_references(self) -> bool:
        return bool(self.referenced)


def read_polyai_project(root: Path) -> PolyAIProject:
    """Scan a PolyAI project's text files for function references.

    Only regular files up to ``TEXT_FILE_LIMIT`` are read: a FIFO named
    ``prompt.txt`` would block every front end forever, a link to
    ``/dev/zero`` would read until memory runs out. The others are listed in
    ``unreadable`` (a file that vanished since the walk is not).
    """
    referenced: set[str] = set()
    spoken: set[str] = set()
    sources: list[str] = []
    unreadable: list[tuple[str, OSError]] = []
    for file in _text_files(root):
        try:
            text = read_regular(file, limit=TEXT_FILE_LIMIT).decode("utf-8", errors="replace")
        except FileNotFoundError:
            continue
        except OSError as error:
            unreadable.append((str(file), error))
            continue
        rel = file.relative_to(root).as_posix()
        for name in _TEMPLATE_REFERENCE.findall(text):
            referenced.add(name)
            sources.append(f"{rel}: {name}")
        if "function" in text and file.suffix in (".yaml", ".yml"):
            for name, says_phrase in _phrase_filter_functions(text):
                referenced.add(name)
                sources.append(f"{rel}: {name}")
                if says_phrase:
                    spoken.add(name)
    return PolyAIProject(
        root=root,
        referenced=frozenset(referenced),
        after_spoken_phrase=frozenset(spoken),
        sources=tuple(sorted(set(sources))),
        unreadable=tuple(unreadable),
    )


def _text_files(root: Path) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
        for filename in sorted(filenames):
            suffix = os.path.splitext(filename)[1].lower()
            if suffix in _TEXT_SUFFIXES:
                yield Path(dirpath, filename)


def _phrase_filter_functions(text: str) -> Iterator[tuple[str, bool]]:
    """``(function, say_phrase)`` for each YAML list item that names a ``function:``.

    A tiny line scanner instead of a YAML parser (toolret has no YAML
    dependency): a list item starts at ``-`` and runs until the next ``-`` at
    the same or a smaller indentation.
    """
    items: list[list[str]] = []
    current: list[str] | None = None
    item_indent = -1
    for line in text.splitlines():
        match = _LIST_ITEM.match(line)
        if match is not None and (current is None or len(match.group(1)) <= item_indent):
            current = [line]
            items.append(current)
            item_indent = len(match.group(1))
        elif current is not None:
            stripped = line.strip()
            indent = len(line) - len(line.lstrip())
            if stripped and not stripped.startswith("#") and indent <= item_indent:
                current = None  # the list ended
                item_indent = -1
            else:
                current.append(line)
    for item in items:
        name = None
        says = False
        for line in item:
            function = _FUNCTION_KEY.match(line)
            if function is not None and name is None:
                name = function.group(3)
            elif _SAY_PHRASE_KEY.match(line):
                says = True
        if name is not None:
            yield name, says


@dataclass
class Project:
    """Facts about the files around the ones being checked.

    ``polyai_for`` reads a PolyAI project's text files the first time one of
    its function files is checked, and again only when a file's stats change.
    Tests build it with ``polyai_projects`` preset instead of a file system.
    """

    read_files: bool = True
    revalidate: bool = True
    """Re-stat a PolyAI project's text files on every lookup (long-lived processes:
    flake8 workers, the language server); a single CLI run reads each project once."""
    polyai_projects: dict[Path, PolyAIProject] = field(default_factory=dict)
    index: ProjectIndex | None = None
    """Whole-project facts (``toolret check``); ``None`` where only same-file facts are used."""
    summaries: SummaryStore | None = None
    """The modules of the project as rules ask about them (``analysis.summaries``: does an
    imported helper ever return, what does it return): ``toolret check``, the language
    server and the codemod read them; ``None`` (flake8, which sees one file): a name
    imported from another module of the project is not known."""
    _roots: dict[str, Path | None] = field(default_factory=dict)
    _stamps: dict[Path, tuple[tuple[str, int, int], ...]] = field(default_factory=dict)
    _first_party: dict[tuple[str, str], bool] = field(default_factory=dict)
    _is_package: dict[str, bool] = field(default_factory=dict)
    _candidates: dict[str, tuple[tuple[str, ...], str | None]] = field(default_factory=dict)
    _holds_package: dict[tuple[str, str], bool] = field(default_factory=dict)
    _distributions: dict[str, str | None] = field(default_factory=dict)

    def attach(self, module: ParsedModule) -> None:
        """Let ``module``'s analysis ask the project's summaries (when there are any)."""
        if self.summaries is not None:
            module.use_summaries(self.summaries)

    def names_file(self, key: str, path: str) -> bool:
        """Whether a fact of another file makes ``path`` relevant to framework ``key``
        (a behaviour function in a file that imports nothing)."""
        return self.index is not None and self.index.names_file(key, path)

    def is_first_party(self, path: str, package: str) -> bool:
        """Whether ``import <package>`` in ``path`` likely finds a package of the project itself.

        The candidates are the directories Python may put on ``sys.path`` for
        this file: its own directory and each ancestor up to the project root
        (the nearest directory with ``pyproject.toml``, ``setup.py``,
        ``setup.cfg`` or ``.git``) that is not itself a package (no
        ``__init__.py``: under ``python -m`` a package's directory is not on the
        path), plus the root's ``src/``. One of them holding
        ``<package>/__init__.py`` or ``<package>.py`` makes the name first-party.
        A directory without ``__init__.py`` named like the package is a
        namespace portion, which an installed regular package beats: not
        first-party. Without a project root only the file's own directory and
        its non-package ancestors up to the first package boundary count.

        When the project root's packaging metadata names the framework's
        distribution (``FRAMEWORK_DISTRIBUTIONS``: the Agents SDK's own
        repository for ``agents``), the package at the root or in its ``src/``
        is the framework itself, not a shadow; one found anywhere else still is.
        """
        if not self.read_files or path in ("", "-"):
            return False
        directory = os.path.dirname(path)
        if not os.path.isabs(directory):
            directory = os.path.dirname(os.path.abspath(path))
        key = (directory, package)
        known = self._first_party.get(key)
        if known is None:
            known = self._first_party[key] = self._find_first_party(directory, package)
        return known

    def _find_first_party(self, directory: str, package: str) -> bool:
        candidates, root = self._path_candidates(directory)
        # Without a project root only the nearest non-package directory counts.
        if root is None:
            return any(self._holds(c, package) for c in candidates[:1])
        src = os.path.join(root, "src")
        framework = self.distribution(root) in FRAMEWORK_DISTRIBUTIONS.get(package, ())
        return any(
            self._holds(c, package)
            for c in (*candidates, src)
            if not (framework and c in (root, src))
        )

    def distribution(self, root: str) -> str | None:
        """The distribution the project at ``root`` builds (PEP 503 normalised), if its
        metadata names one: ``pyproject.toml``'s ``[project] name`` (or Poetry's
        ``[tool.poetry] name``), else ``setup.cfg``'s ``[metadata] name``, else a
        literal ``name="..."`` in ``setup.py``'s ``setup(...)`` call."""
        if root not in self._distributions:
            self._distributions[root] = read_distribution(root)
        return self._distributions[root]

    def _path_candidates(self, directory: str) -> tuple[tuple[str, ...], str | None]:
        """Non-package directories from ``directory`` up to the project root, and the root."""
        known = self._candidates.get(directory)
        if known is not None:
            return known
        from lint_rules.analysis.index import PROJECT_MARKERS

        own = () if self._package_dir(directory) else (directory,)
        parent = os.path.dirname(directory)
        if any(os.path.exists(os.path.join(directory, m)) for m in PROJECT_MARKERS):
            found: tuple[tuple[str, ...], str | None] = (own, directory)
        elif parent == directory:
            found = (own, None)
        else:
            above, root = self._path_candidates(parent)
            found = (own + above, root)
        self._candidates[directory] = found
        return found

    def _holds(self, directory: str, package: str) -> bool:
        key = (directory, package)
        known = self._holds_package.get(key)
        if known is None:
            known = self._holds_package[key] = os.path.isfile(
                os.path.join(directory, package, "__init__.py")
            ) or os.path.isfile(os.path.join(directory, package + ".py"))
        return known

    def _package_dir(self, directory: str) -> bool:
        known = self._is_package.get(directory)
        if known is None:
            known = self._is_package[directory] = os.path.isfile(
                os.path.join(directory, "__init__.py")
            )
        return known

    def polyai_for(self, path: str) -> PolyAIProject | None:
        if path in ("", "-"):
            return None
        directory = os.path.dirname(os.path.abspath(path))
        if directory in self._roots:
            root = self._roots[directory]
        elif self.read_files:
            root = self._root_of(directory)
        else:
            file = Path(path).absolute()
            root = next((r for r in self.polyai_projects if r in file.parents), None)
        if root is None:
            return None
        if not self.read_files or (not self.revalidate and root in self.polyai_projects):
            return self.polyai_projects.get(root)
        stamp = _stamp(root)
        if self._stamps.get(root) != stamp or root not in self.polyai_projects:
            self.polyai_projects[root] = read_polyai_project(root)
            self._stamps[root] = stamp
        return self.polyai_projects[root]

    def _root_of(self, directory: str) -> Path | None:
        """The nearest ancestor holding ``agent_settings/``; every answer cached."""
        if directory in self._roots:
            return self._roots[directory]
        if os.path.isdir(os.path.join(directory, POLYAI_SETTINGS_DIR)):
            root: Path | None = Path(directory)
        else:
            parent = os.path.dirname(directory)
            root = None if parent == directory else self._root_of(parent)
        self._roots[directory] = root
        return root

    def facts_context(self, path: str) -> str:
        """What a file's *index facts* depend on besides its bytes: whether a first-party
        package shadows the Agents SDK there (then its ``Agent(...)`` calls are not the
        SDK's). The cache keeps it beside the facts, so a shadowing ``agents/`` that
        appears or goes, or packaging metadata that starts or stops naming the SDK,
        re-extracts them."""
        return "first-party agents" if self.is_first_party(path, "agents") else ""

    def facts_digest(self, path: str, keys: tuple[str, ...] = ("polyai",)) -> str:
        """A digest of the cross-file facts ``path``'s results can depend on ("" if none).

        Part of the cache key: a changed prompt reference or phrase filter
        invalidates the cached results of the project's function files; a
        changed ``Agent(...)`` in ``main.py`` those of the ``behaviors.py`` whose
        function it uses; changed tool schemas in ``loop.py`` those of the
        ``tools.py`` whose registry it imports (and the registry's keys those
        of ``loop.py``); a changed server origin in ``server.py`` those of the
        ``tools.py`` that registers tools on it; a first-party ``agents/``
        appearing (or the project's packaging metadata starting or ceasing to
        name the SDK) those of every file beside it. ``keys`` are the frameworks whose facts count.
        """
        parts: list[str] = []
        polyai = self.polyai_for(path) if "polyai" in keys else None
        if polyai is not None:
            parts.extend(
                [
                    str(polyai.root),
                    *sorted(polyai.referenced),
                    "--",
                    *sorted(polyai.after_spoken_phrase),
                ]
            )
        if "openai_agents" in keys:
            context = self.facts_context(path)
            if context:
                parts.append(context)
            if self.index is not None:
                indexed = self.index.digest(path)
                if indexed:
                    parts.extend(["agents", indexed])
        if "openai_chat" in keys and self.index is not None:
            indexed = self.index.chat_digest(path)
            if indexed:
                parts.extend(["chat", indexed])
        if "mcp" in keys and self.index is not None:
            indexed = self.index.mcp_digest(path)
            if indexed:
                parts.extend(["mcp", indexed])
        if "pydantic_ai" in keys and self.index is not None:
            indexed = self.index.registered_digest(path, "pydantic_ai")
            if indexed:
                parts.extend(["pydantic_ai", indexed])
        if not parts:
            return ""
        payload = "\n".join(parts)
        return hashlib.blake2b(payload.encode("utf-8"), digest_size=16).hexdigest()


def read_distribution(root: str) -> str | None:
    """The PEP 503 name of the distribution the metadata at ``root`` names, or ``None``.

    Read as data, never executed: ``setup.py`` is parsed and only a string
    literal ``name=`` of a call named ``setup`` counts.
    """
    for read in (_pyproject_name, _setup_cfg_name, _setup_py_name):
        try:
            name = read(root)
        except (OSError, UnicodeDecodeError, ValueError, SyntaxError, RecursionError):
            name = None  # tomllib's and configparser's errors are ValueErrors
        except configparser.Error:
            name = None
        if name:
            return normalise_distribution(name)
    return None


def normalise_distribution(name: str) -> str:
    """PEP 503: runs of ``-``, ``_`` and ``.`` are one ``-``, case folded."""
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


def _read_text(path: str) -> str | None:
    if not os.path.isfile(path):
        return None
    return read_regular(path, limit=TEXT_FILE_LIMIT).decode("utf-8")


def _pyproject_name(root: str) -> str | None:
    text = _read_text(os.path.join(root, "pyproject.toml"))
    if text is None:
        return None
    data = tomllib.loads(text)
    for table in (data.get("project"), _table(data.get("tool"), "poetry")):
        if isinstance(table, dict) and isinstance(table.get("name"), str):
            name: str = table["name"]
            return name
    return None


def _table(data: object, key: str) -> object:
    return data.get(key) if isinstance(data, dict) else None


def _setup_cfg_name(root: str) -> str | None:
    text = _read_text(os.path.join(root, "setup.cfg"))
    if text is None:
        return None
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    return parser.get("metadata", "name", fallback=None)


def _setup_py_name(root: str) -> str | None:
    text = _read_text(os.path.join(root, "setup.py"))
    if text is None:
        return None
    names = {
        keyword.value.value
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Call) and _called_name(node.func) == "setup"
        for keyword in node.keywords
        if keyword.arg == "name"
        and isinstance(keyword.value, ast.Constant)
        and isinstance(keyword.value.value, str)
    }
    return names.pop() if len(names) == 1 else None


def _called_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _stamp(root: Path) -> tuple[tuple[str, int, int], ...]:
    entries = []
    for file in _text_files(root):
        try:
            st = file.stat()
        except OSError:
            continue
        entries.append((str(file), st.st_size, st.st_mtime_ns))
    return tuple(entries)
