"""Whole-project mode: an index of the Python facts that cross files.

``toolret check`` builds a :class:`ProjectIndex` before it checks anything,
so that a file's rules can use facts that live in another file of the same
project: the ``Agent(output_type=..., tool_use_behavior=fn)`` in ``main.py``
that gives ``fn`` in ``behaviors.py`` its output type (issue 4); later also
dispatch registries (issue 5). flake8 checks one file at a time and has no
index: there only same-file facts are used.

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

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

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

    def to_json(self) -> list[Any]:
        return [self.label, self.output_type.to_json(), self.where]


@dataclass(frozen=True)
class ModuleFacts:
    """What one module contributes to the index (JSON-able; ``{}`` = nothing).

    For the OpenAI Agents SDK (key ``agents``): ``functions`` (top-level
    ``def`` names), ``classes`` (name → declared-type kind), ``imports``
    (local name → qualified name, for following re-exports), ``uses``
    (``[behaviour reference, type, label, line]`` for each ``Agent(...)`` whose
    ``tool_use_behavior`` is an imported name) and ``type_refs`` (imported
    names used as ``output_type``, with how they are displayed).
    """

    data: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str) -> Any:
        return self.data.get(key)


EMPTY_FACTS = ModuleFacts()

Extractor = Callable[[str, bytes], ModuleFacts]
"""``(path, data) -> facts`` of one file; the framework parses it."""


def wants_full_facts(data: bytes) -> bool:
    """Whether a file can hold an ``Agent(..., tool_use_behavior=<name>)`` (a byte scan)."""
    from lint_rules import prefilter

    return b"tool_use_behavior" in data and prefilter.has_signal("openai_agents", data, "")


# ------------------------------------------------------------------- the index


@dataclass
class ProjectIndex:
    """Facts of every indexed module of one or more project roots, and what they name.

    ``modules`` holds what was extracted from files with a signal;
    ``lookup`` extracts a file named by a fact (``models.py`` holding the
    output type, ``behaviors.py`` holding the behaviour function) on first
    use. ``uses`` maps ``(file, function)`` to the agents that use it from
    another file; ``types`` maps ``file`` → ``{qualified name: DeclaredType}``
    for the imported output types that file's own agents declare.
    """

    roots: tuple[Path, ...] = ()
    modules: dict[str, ModuleFacts] = field(default_factory=dict)
    uses: dict[tuple[str, str], list[AgentUse]] = field(default_factory=dict)
    types: dict[str, dict[str, DeclaredType]] = field(default_factory=dict)
    named: dict[str, set[str]] = field(default_factory=dict)
    """Framework key → files that a fact of another file makes relevant."""
    extract: Extractor | None = field(default=None, repr=False, compare=False)
    extracted: dict[str, ModuleFacts] = field(default_factory=dict, repr=False, compare=False)
    """Files a fact named and ``facts_of`` parsed: the runner caches their facts too."""
    _exists: dict[str, bool] = field(default_factory=dict, repr=False, compare=False)

    # -- queries used while checking

    def names_file(self, key: str, path: str) -> bool:
        return path in self.named.get(key, ())

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

    # -- building

    def add(self, path: str, facts: ModuleFacts) -> None:
        self.modules[path] = facts

    def facts_of(self, path: str) -> ModuleFacts:
        """The facts of a file, extracting them if a fact names it and it was not indexed."""
        facts = self.modules.get(path)
        if facts is not None and facts.data:
            return facts
        if self.extract is None:
            return facts or EMPTY_FACTS
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            return EMPTY_FACTS
        facts = self.extract(path, data)
        self.modules[path] = self.extracted[path] = facts
        return facts

    def finish(self) -> None:
        """Derive ``uses``, ``types`` and ``named`` once every module is in."""
        for path in sorted(self.modules):
            agents = self.modules[path].get("agents")
            if not agents:
                continue
            types: dict[str, DeclaredType] = {}
            for qualified, display in agents.get("type_refs", ()):
                types[qualified] = self.resolve_type(path, qualified, display)
            if types:
                self.types[path] = types
            for reference, raw_type, label, line in agents.get("uses", ()):
                target = self.resolve_function(path, reference)
                if target is None:
                    continue
                declared = _declared(raw_type, types)
                where = f"{self._relative(path)}:{line}"
                self.uses.setdefault(target, []).append(AgentUse(label, declared, where))
                self.named.setdefault("openai_agents", set()).add(target[0])

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
        return self._resolve(importer, qualified, "functions", 0)

    def resolve_type(self, importer: str, qualified: str, display: str) -> DeclaredType:
        """The declared type an imported class name refers to (``unknown`` if not certain)."""
        found = self._resolve(importer, qualified, "classes", 0)
        if found is None:
            return DeclaredType("unknown", display)
        file, name = found
        classes = self.facts_of(file).get("agents") or {}
        kind = classes.get("classes", {}).get(name, "unknown")
        return DeclaredType(kind, display, f"{file}::{name}" if kind == "class" else None)

    def _resolve(
        self, importer: str, qualified: str, table: str, depth: int
    ) -> tuple[str, str] | None:
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
        facts = self.facts_of(file).get("agents") or {}
        if name in facts.get(table, ()):
            return file, name
        reexport = facts.get("imports", {}).get(name)
        if isinstance(reexport, str):
            return self._resolve(file, reexport, table, depth + 1)
        return None

    def _module_file(self, importer: str, parts: list[str], level: int) -> str | None:
        if level:
            base = os.path.dirname(importer)
            for _ in range(level - 1):
                base = os.path.dirname(base)
            bases = [base]
        else:
            if not parts:
                return None
            bases = [os.path.dirname(importer)]
            for root in self.roots:
                bases.extend([str(root), str(root / "src")])
        for base in dict.fromkeys(bases):
            stem = os.path.join(base, *parts)
            for candidate in (stem + ".py", os.path.join(stem, "__init__.py")):
                if self._is_file(candidate):
                    return candidate
        return None

    def _is_file(self, path: str) -> bool:
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
