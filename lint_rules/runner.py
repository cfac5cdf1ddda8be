"""Running the core over files: discovery, settings per file, reading, checking.

Each file's result is a value (:class:`FileResult`), never an exception that
escapes the loop: a file that cannot be read becomes a TRV001 diagnostic (if
it could hold tool functions) or is skipped with a warning, and the run goes
on. Output order is deterministic: files in discovery order, diagnostics
sorted within each file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lint_rules.analysis.project import Project
from lint_rules.config import Settings, SettingsResolver
from lint_rules.discovery import discover
from lint_rules.engine import check_bytes, decode_source
from lint_rules.model import Diagnostic


@dataclass
class FileResult:
    path: str
    diagnostics: list[Diagnostic]
    source: str | None = None
    """The decoded text, kept only for files with diagnostics (code frames, fixes)."""


@dataclass
class RunResult:
    files: list[FileResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    checked: int = 0

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for f in self.files for d in f.diagnostics]

    @property
    def sources(self) -> dict[str, str]:
        return {f.path: f.source for f in self.files if f.source is not None}


def iter_files(
    paths: Sequence[Path], resolver: SettingsResolver, *, force_exclude: bool
) -> Iterator[Path]:
    return discover(paths, settings_for=resolver, force_exclude=force_exclude)


def check_file(path: Path, settings: Settings, project: Project | None) -> FileResult:
    """Check one file on disk; never raises for a bad file."""
    name = os.path.abspath(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        return (
            FileResult(name, [], None)
            if not _could_hold_tools(name)
            else FileResult(name, [_unreadable(name, error)], None)
        )
    diagnostics = check_bytes(data, name, settings, project)
    source = None
    if diagnostics:
        try:
            source = decode_source(data)
        except (SyntaxError, UnicodeDecodeError, LookupError):
            source = None
    return FileResult(name, diagnostics, source)


def run(
    paths: Sequence[Path],
    resolver: SettingsResolver,
    *,
    force_exclude: bool = False,
    project: Project | None = None,
    on_file: Callable[[FileResult], None] | None = None,
) -> RunResult:
    project = project if project is not None else Project()
    result = RunResult()
    for path in iter_files(paths, resolver, force_exclude=force_exclude):
        file_result = check_file(path, resolver(path), project)
        result.checked += 1
        if file_result.diagnostics:
            result.files.append(file_result)
        if on_file is not None:
            on_file(file_result)
    return result


def check_stdin(
    data: bytes, filename: str | None, resolver: SettingsResolver, project: Project | None
) -> FileResult:
    """``toolret check -`` : the text comes from stdin, the name from ``--stdin-filename``."""
    name = os.path.abspath(filename) if filename else "-"
    settings = resolver(Path(filename) if filename else Path.cwd())
    diagnostics = check_bytes(data, name, settings, project)
    source = None
    if diagnostics:
        try:
            source = decode_source(data)
        except (SyntaxError, UnicodeDecodeError, LookupError):
            source = None
    return FileResult(name, diagnostics, source)


def _could_hold_tools(path: str) -> bool:
    from lint_rules.engine import has_any_signal

    return has_any_signal("", path)


def _unreadable(path: str, error: OSError) -> Diagnostic:
    from lint_rules.model import Location
    from lint_rules.rules import ParseError

    return Diagnostic(
        code=ParseError.code,
        name=ParseError.name,
        message=f"Cannot read file: {error.strerror or error}",
        severity=ParseError.severity,
        filename=path,
        location=Location(row=1, column=1),
        end_location=Location(row=1, column=1),
    )
