"""Running the core over files: discovery, settings, prefilter, cache, parallel checks.

The pipeline per file, cheapest test first:

1. ``stat`` — with a valid cache entry (stats, settings, facts unchanged) the
   cached diagnostics are used and the file is not even read;
2. read the bytes and run the *prefilter*: a file without any enabled
   framework's signal cannot be reported on and is neither decoded nor parsed
   (LibCST is not imported at all when no file passes);
3. the files that pass are checked — in worker processes when there are
   enough of them to pay for the pool, else in this process.

Each file's result is a value (:class:`FileResult`), never an exception that
escapes the loop, and the output order is the discovery order whatever the
workers' timing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lint_rules import prefilter
from lint_rules.analysis.project import Project
from lint_rules.cache import FileStamp, ResultCache
from lint_rules.catalog import DEFAULT_ENABLED, frameworks_enabled
from lint_rules.config import Settings, SettingsResolver
from lint_rules.discovery import discover
from lint_rules.model import Diagnostic, Location

# A pool costs ~50 ms to start; a LibCST parse ~3 ms per 100 lines. Below this
# many bytes of files to parse, one process finishes first.
PARALLEL_MIN_BYTES = 400_000
PARALLEL_MIN_FILES = 8


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
    parsed: int = 0
    cached: int = 0

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


class _Selection:
    """Settings and enabled frameworks per file, computed once per directory / settings.

    Both are on the per-file hot path of a run where almost nothing is parsed.
    """

    def __init__(self, resolver: SettingsResolver) -> None:
        self._resolver = resolver
        self._settings: dict[str, Settings] = {}
        self._frameworks: dict[int, tuple[Settings, tuple[str, ...]]] = {}

    def settings(self, path: str) -> Settings:
        directory = os.path.dirname(path)
        settings = self._settings.get(directory)
        if settings is None:
            settings = self._settings[directory] = self._resolver(Path(path))
        return settings

    def frameworks(self, settings: Settings, path: str) -> tuple[str, ...]:
        if settings.per_file_ignores or settings.extend_per_file_ignores:
            return frameworks_enabled(settings.enabled_codes_for(Path(path), DEFAULT_ENABLED))
        cached = self._frameworks.get(id(settings))
        if cached is None or cached[0] is not settings:
            keys = frameworks_enabled(settings.enabled_codes(DEFAULT_ENABLED))
            cached = self._frameworks[id(settings)] = (settings, keys)
        return cached[1]


@dataclass
class _Pending:
    """A file that passed the prefilter and waits to be checked."""

    index: int
    path: str
    data: bytes
    settings: Settings
    stamp: FileStamp | None
    facts: str


def run(
    paths: Sequence[Path],
    resolver: SettingsResolver,
    *,
    force_exclude: bool = False,
    project: Project | None = None,
    cache: ResultCache | None = None,
    jobs: int | None = None,
    use_prefilter: bool = True,
) -> RunResult:
    """Check every file under ``paths``. ``use_prefilter=False`` exists for the test
    that proves the prefilter changes nothing."""
    project = project if project is not None else Project(revalidate=False)
    result = RunResult()
    selection = _Selection(resolver)
    slots: list[FileResult | None] = []
    pending: list[_Pending] = []
    for given in iter_files(paths, resolver, force_exclude=force_exclude):
        name = os.path.abspath(given)
        settings = selection.settings(name)
        keys = selection.frameworks(settings, name)
        index = len(slots)
        slots.append(None)
        result.checked += 1
        if not keys:
            continue
        try:
            stamp = FileStamp.of(os.stat(name))
        except OSError as error:
            slots[index] = _unreadable(name, error, keys)
            continue
        facts = project.facts_digest(name) if "polyai" in keys else ""
        if cache is not None:
            cached = cache.lookup(name, stamp, settings.fingerprint(), facts, _reader(name))
            if cached is not None:
                result.cached += 1
                slots[index] = _with_source(FileResult(name, cached), None)
                continue
        try:
            with open(name, "rb") as handle:
                data = handle.read()
        except OSError as error:
            slots[index] = _unreadable(name, error, keys)
            continue
        if use_prefilter and not prefilter.signalled(keys, data, name):
            if cache is not None:
                cache.store(name, stamp, data, settings.fingerprint(), facts, [])
            continue
        pending.append(_Pending(index, name, data, settings, stamp, facts))

    result.parsed = len(pending)
    for item, file_result in zip(pending, _check_all(pending, project, jobs), strict=True):
        slots[item.index] = file_result
        if cache is not None and item.stamp is not None:
            cache.store(
                item.path,
                item.stamp,
                item.data,
                item.settings.fingerprint(),
                item.facts,
                file_result.diagnostics,
            )
    if cache is not None:
        cache.save()
    result.files = [r for r in slots if r is not None and r.diagnostics]
    return result


def check_stdin(
    data: bytes, filename: str | None, resolver: SettingsResolver, project: Project | None
) -> FileResult:
    """``toolret check -``: the text comes from stdin, the name from ``--stdin-filename``."""
    from lint_rules.engine import check_bytes

    name = os.path.abspath(filename) if filename else "-"
    settings = resolver(Path(filename) if filename else Path.cwd())
    return _with_source(FileResult(name, check_bytes(data, name, settings, project)), data)


# ------------------------------------------------------------------ checking


def _check_all(pending: list[_Pending], project: Project, jobs: int | None) -> list[FileResult]:
    workers = _worker_count(pending, jobs)
    if workers <= 1:
        return [_check_one(item.path, item.data, item.settings, project) for item in pending]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork shares the already-imported modules; elsewhere the platform default.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    tasks = [(item.path, item.data, item.settings) for item in pending]
    chunk = max(1, len(tasks) // (workers * 4))
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(_check_in_worker, tasks, chunksize=chunk))


def _worker_count(pending: list[_Pending], jobs: int | None) -> int:
    if jobs is not None:
        return max(1, jobs)
    if len(pending) < PARALLEL_MIN_FILES:
        return 1
    if sum(len(item.data) for item in pending) < PARALLEL_MIN_BYTES:
        return 1
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(available or 1, len(pending)))


_WORKER_PROJECT: Project | None = None


def _check_in_worker(task: tuple[str, bytes, Settings]) -> FileResult:
    global _WORKER_PROJECT
    if _WORKER_PROJECT is None:
        _WORKER_PROJECT = Project(revalidate=False)
    path, data, settings = task
    return _check_one(path, data, settings, _WORKER_PROJECT)


def _check_one(path: str, data: bytes, settings: Settings, project: Project) -> FileResult:
    from lint_rules.engine import check_bytes

    return _with_source(FileResult(path, check_bytes(data, path, settings, project)), data)


def _with_source(result: FileResult, data: bytes | None) -> FileResult:
    """Keep the decoded text of a file that reports something (for code frames and fixes)."""
    if not result.diagnostics:
        return result
    if data is None:
        try:
            with open(result.path, "rb") as handle:
                data = handle.read()
        except OSError:
            return result
    from lint_rules.engine import decode_source

    try:
        result.source = decode_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        result.source = None
    return result


def _reader(path: str) -> Callable[[], bytes | None]:
    def read() -> bytes | None:
        try:
            with open(path, "rb") as handle:
                return handle.read()
        except OSError:
            return None

    return read


def _unreadable(path: str, error: OSError, keys: tuple[str, ...]) -> FileResult | None:
    """TRV001 for a file that cannot be read, if its path alone could make it a tool file."""
    if not prefilter.signalled(keys, b"", path):
        return None
    return FileResult(
        path,
        [
            Diagnostic(
                code="TRV001",
                name="parse-error",
                message=f"Cannot read file: {error.strerror or error}",
                severity="error",  # type: ignore[arg-type]
                filename=path,
                location=Location(row=1, column=1),
                end_location=Location(row=1, column=1),
            )
        ],
    )
