"""Running the core over files: discovery, settings, prefilter, cache, parallel checks.

The pipeline per file, cheapest test first:

1. ``stat`` — with a valid cache entry (stats, settings, facts unchanged) the
   cached diagnostics are used and the file is not even read;
2. read the bytes and run the *prefilter*: a file without any enabled
   framework's signal cannot be reported on and is neither decoded nor parsed
   (LibCST is not imported at all when no file passes);
3. the files that pass are parsed once, in worker processes when there are
   enough of them to pay for the pool, else in this process: the parse gives
   the file's project-index facts and a *speculative* check made without the
   index, together with the facts digest that check used;
4. the project index is built from every file's facts; a file whose digest
   under the whole index is the speculative one keeps that result (the usual
   case: no other file says anything about it), any other file is checked
   again with the index.

Step 4 is sound because a file's results depend on other files only through
its facts digest, the same invariant that keys the cache. The cyclic garbage
collector is off during the passes, with a young collection after each file.

Each file's result is a value (:class:`FileResult`), never an exception that
escapes the loop, and the output order is the discovery order whatever the
workers' timing.

Only regular files are read (:func:`~lint_rules.fileio.read_regular`): the
``stat`` every file gets anyway says whether it is one, and the read checks the
opened descriptor again. A path that cannot be read - missing, forbidden, a
dangling or looping link, a FIFO, a device - is one ``TRV003 io-error`` for that
path (ruff's ``E902``) and the run goes on; so is a project text file the run
needed (a ``.gitignore``, a PolyAI prompt or YAML file) that exists but cannot
be read. With ``TRV003`` deselected each becomes a warning, as in ruff. A path
named on the command line that cannot be decoded as Python source is a
``TRV001`` whatever it mentions (CPython would reject it); walked files keep the
rule that a file without a framework signal is never reported on.
"""

from __future__ import annotations

import gc
import io
import os
import stat
import sys
import tokenize
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from lint_rules import prefilter
from lint_rules.analysis.index import (
    EMPTY_FACTS,
    SIGNALLED_FACTS,
    ModuleFacts,
    ProjectIndex,
    Reach,
    project_root,
    wants_facts,
)
from lint_rules.analysis.project import Project
from lint_rules.analysis.summaries import Stamp, SummaryStore
from lint_rules.cache import CacheEntry, FileStamp, ResultCache, content_digest
from lint_rules.catalog import DEFAULT_ENABLED, frameworks_enabled
from lint_rules.config import Settings, SettingsResolver
from lint_rules.discovery import ErrorSink, discover
from lint_rules.fileio import not_regular_error, read_regular
from lint_rules.model import Diagnostic, Location
from lint_rules.notebook import is_notebook, register_suffixes

if TYPE_CHECKING:
    from lint_rules.analysis.module import ParsedModule

# A pool costs ~50 ms to start; a LibCST parse ~3 ms per 100 lines. Below this
# many bytes of files to parse, one process finishes first.
PARALLEL_MIN_BYTES = 400_000
PARALLEL_MIN_FILES = 8


@dataclass
class FileResult:
    path: str
    diagnostics: list[Diagnostic]
    source: str | None = None
    """The decoded text the diagnostics were computed on, kept for files with
    diagnostics; ``None`` for a result the cache answered until ``text()`` reads it."""
    deps: dict[str, Stamp] = field(default_factory=dict)
    """The other files the result read summaries of (or looked for), with their stamps:
    the cache re-checks the file when one of them changes."""
    _read: bool = field(default=False, repr=False, compare=False)

    def text(self) -> str | None:
        """The decoded text of a file with diagnostics (code frames, fixes). A cached
        result's file is read only now, when something asks: a warm run whose output
        shows no code only stats its files."""
        if self.source is None and self.diagnostics and not self._read:
            self._read = True
            self.source = _read_text(self.path)
        return self.source


class _Sources(Mapping[str, str]):
    """Path → decoded text of the files with diagnostics, each read on first lookup."""

    def __init__(self, files: Iterable[FileResult]) -> None:
        self._files = {f.path: f for f in files if f.diagnostics}

    def __getitem__(self, path: str) -> str:
        text = self._files[path].text()
        if text is None:
            raise KeyError(path)
        return text

    def __iter__(self) -> Iterator[str]:
        return (path for path, f in self._files.items() if f.text() is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


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
    def sources(self) -> Mapping[str, str]:
        return _Sources(self.files)


def iter_files(
    paths: Sequence[Path],
    resolver: SettingsResolver,
    *,
    force_exclude: bool,
    on_error: ErrorSink | None = None,
) -> Iterator[Path]:
    if on_error is None:
        return discover(paths, settings_for=resolver, force_exclude=force_exclude)
    return discover(paths, settings_for=resolver, force_exclude=force_exclude, on_error=on_error)


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


@dataclass
class _Given:
    """A file of the run between the two passes: what is known of it so far."""

    index: int
    path: str
    settings: Settings
    keys: tuple[str, ...]
    stamp: FileStamp
    cached: CacheEntry | None = None
    """A cache entry valid for the file's content and settings (facts not yet compared)."""
    data: bytes | None = None
    """The bytes, kept only for files that passed the prefilter."""
    read: bool = False
    signalled: bool = False
    digest: str = ""
    """The content hash of a file read but not kept (for the cache's fallback check)."""


def run(
    paths: Sequence[Path],
    resolver: SettingsResolver,
    *,
    force_exclude: bool = False,
    project: Project | None = None,
    cache: ResultCache | None = None,
    jobs: int | None = None,
    use_prefilter: bool = True,
    index_project: bool = True,
    progress: Progress | None = None,
    use_screen: bool | None = None,
) -> RunResult:
    """Check every file under ``paths``. ``use_prefilter=False`` exists for the test
    that proves the prefilter changes nothing, ``use_screen=False`` (every signalled
    module parsed, ``analysis.screen``; ``None``: the engine's default) for the one
    that proves the same of the screen.

    Two passes: the first stats (and, where the cache cannot answer, reads)
    every file and collects the index facts of those that can hold any; the
    project index is completed from the rest of the project root (whole-project
    mode, ``index_project``; pre-commit passes only changed files, but their
    facts may live in unchanged ones) and set as ``project.index``; the second
    pass decides from the cache or checks each file with those facts.
    """
    if project is None:
        project = Project(revalidate=False, summaries=SummaryStore())
    result = RunResult()
    selection = _Selection(resolver)
    slots: list[FileResult | None] = []
    given: list[_Given] = []
    to_extract: list[tuple[_Given, bytes]] = []
    to_read: list[tuple[_Given, bool, str, dict[str, Any] | None]] = []
    """Files the cache cannot answer, with whether they are indexed, their facts context
    and the facts the cache knows."""
    facts: dict[str, ModuleFacts] = {}
    side_errors: dict[str, OSError] = {}
    """Project files (ignore files, PolyAI text) that exist but cannot be read."""
    explicit = {os.path.abspath(path) for path in paths}

    def side_error(path: Path, error: OSError) -> None:
        side_errors.setdefault(os.path.abspath(path), error)

    for found in iter_files(paths, resolver, force_exclude=force_exclude, on_error=side_error):
        name = os.path.abspath(found)
        settings = selection.settings(name)
        if settings.extension:
            register_suffixes(settings.notebook_suffixes)  # before any worker is forked
        keys = selection.frameworks(settings, name)
        slots.append(None)
        result.checked += 1
        if not keys:
            continue
        try:
            status = os.stat(name)
        except OSError as error:
            slots[-1] = _io_error(name, error, settings, result)
            continue
        if not stat.S_ISREG(status.st_mode):
            refused = not_regular_error(name, status.st_mode)
            slots[-1] = _io_error(name, refused, settings, result)
            continue
        stamp = FileStamp.of(status)
        item = _Given(len(slots) - 1, name, settings, keys, stamp)
        indexed = index_project and any(key in _INDEXED for key in keys)
        context = project.facts_context(name) if cache is not None and indexed else ""
        known_facts = cache.facts(name, stamp, context) if cache is not None and indexed else None
        if cache is not None:
            item.cached = cache.valid_entry(name, stamp, settings.fingerprint())
        if item.cached is None or (indexed and known_facts is None):
            to_read.append((item, indexed, context, known_facts))
            continue
        if indexed and known_facts is not None:
            facts[name] = ModuleFacts(known_facts)
        given.append(item)

    # The workers of pass one are forked before any file is read: they inherit the
    # modules, not the bytes the parent is about to hold (the largest worker's memory is
    # the run's peak). Whether the pass pays for them is judged by what is to be read.
    early = _Workers(jobs, len(to_read), sum(item.stamp.size for item, *_ in to_read)).start()
    with _shut_down_on_error(early):
        for item, indexed, context, known_facts in to_read:
            name, settings, keys, stamp = item.path, item.settings, item.keys, item.stamp
            try:
                data = read_regular(name)
            except OSError as error:
                slots[item.index] = _io_error(name, error, settings, result)
                continue
            if name in explicit:
                undecodable = _undecodable(name, data, settings)
                if undecodable is not None:  # never cached: a warm run reads it again
                    slots[item.index] = undecodable
                    continue
            if item.cached is None and cache is not None:
                item.cached = cache.valid_entry(name, stamp, settings.fingerprint(), data)
            item.read = True
            item.signalled = not use_prefilter or prefilter.signalled(keys, data, name, settings)
            if indexed and known_facts is None:
                # a file whose prefilter asked every family that needs its signal for
                # facts, and found none, can hold only registry facts
                unsignalled = not item.signalled and (
                    prefilter.ANY_FRAMEWORK in keys or all(k in keys for k in SIGNALLED_FACTS)
                )
                if wants_facts(data, unsignalled):
                    to_extract.append((item, data))
                else:
                    known_facts = dict(EMPTY_FACTS.data)
                    if cache is not None:
                        cache.store_facts(name, stamp, known_facts, context)
            item.data = data if item.signalled else None
            if not item.signalled and cache is not None:
                item.digest = content_digest(data)
            if indexed and known_facts is not None:
                facts[name] = ModuleFacts(known_facts)
            given.append(item)
    given.sort(key=lambda item: item.index)  # the order of discovery

    # Pass one parses each file once: for its index facts and, where the cache cannot
    # answer, for a speculative check made without the project index.
    indexing = index_project and any(key in _INDEXED for item in given for key in item.keys)
    speculated: dict[str, _Speculation] = {}
    spec_items = [item for item in given if item.cached is None and item.data is not None]
    extracting = {item.path for item, _ in to_extract}
    speculating = {item.path for item in spec_items}
    only_facts = [(item, data) for item, data in to_extract if item.path not in speculating]
    early.settle(len(spec_items) + len(only_facts), _size(spec_items, only_facts))
    with _collect_per_file(), early as pool:
        extracted = pool.map(
            _extract_in_worker,
            [(item.path, data, use_screen) for item, data in only_facts],
            lambda task: _extract(task[0], task[1], project, task[2]),
        )
        for (item, _data), module_facts in zip(only_facts, extracted, strict=True):
            facts[item.path] = module_facts
        spec_tasks = [
            _SpeculationTask(
                path=item.path,
                data=item.data,
                settings=item.settings,
                keys=item.keys,
                extract=item.path in extracting,
                screen=use_screen,
            )
            for item in spec_items
            if item.data is not None
        ]
        result.parsed += len(spec_tasks)
        spec_results = pool.map(
            _speculate_in_worker, spec_tasks, lambda task: _speculate(task, project)
        )

        def record() -> Iterator[FileResult]:
            for task, done in zip(spec_tasks, spec_results, strict=True):
                speculated[task.path] = done
                if done.facts is not None:
                    facts[task.path] = done.facts
                yield done.result

        spec_files: Iterable[FileResult] = record()
        if progress is not None:
            spec_files = progress.track(spec_files, len(spec_tasks))
        for _ in spec_files:
            pass
    if cache is not None:
        for item, _data in to_extract:
            if item.path in facts:
                cache.store_facts(
                    item.path,
                    item.stamp,
                    dict(facts[item.path].data),
                    project.facts_context(item.path),
                )

    if indexing:
        project.index = _build_index(
            paths, resolver, facts, project, cache, targets=[item.path for item in given]
        )

    pending: list[_Pending] = []
    for item in given:
        digest = project.facts_digest(item.path, item.keys)
        speculation = speculated.get(item.path)
        if speculation is not None and speculation.digest == digest:
            # The results depend on the index only through this digest (the cache's
            # own invariant): the speculative check stands.
            slots[item.index] = speculation.result
            if cache is not None and item.data is not None:
                _store(
                    cache,
                    item.path,
                    item.stamp,
                    item.data,
                    item.settings,
                    digest,
                    speculation.result,
                )
            continue
        if item.cached is not None and item.cached.facts == digest and cache is not None:
            result.cached += 1
            diagnostics = cache.use(item.path, item.cached, item.stamp)
            slots[item.index] = _with_source(FileResult(item.path, diagnostics), item.data)
            continue  # without the bytes in hand, ``FileResult.text()`` reads them if asked
        if not item.read:
            try:
                data = read_regular(item.path)
            except OSError as error:
                slots[item.index] = _io_error(item.path, error, item.settings, result)
                continue
            item.signalled = not use_prefilter or prefilter.signalled(
                item.keys, data, item.path, item.settings
            )
            item.data = data if item.signalled else None
            item.digest = content_digest(data)
            item.read = True
        named = any(project.names_file(key, item.path) for key in item.keys)
        if item.data is None and named:
            try:
                item.data = read_regular(item.path)
            except OSError as error:
                slots[item.index] = _io_error(item.path, error, item.settings, result)
                continue
        if item.data is None:
            if cache is not None:
                cache.store_empty(
                    item.path, item.stamp, item.settings.fingerprint(), digest, item.digest
                )
            continue
        pending.append(
            _Pending(item.index, item.path, item.data, item.settings, item.stamp, digest)
        )

    result.parsed += len(pending)
    checked: Iterable[FileResult] = _check_all(pending, project, jobs, use_screen)
    if progress is not None:
        checked = progress.track(checked, len(pending))
    with _collect_per_file():
        results = list(checked)
    for pending_item, file_result in zip(pending, results, strict=True):
        slots[pending_item.index] = file_result
        if cache is not None and pending_item.stamp is not None:
            _store(
                cache,
                pending_item.path,
                pending_item.stamp,
                pending_item.data,
                pending_item.settings,
                pending_item.facts,
                file_result,
            )
    if cache is not None:
        cache.save()
    result.files = [r for r in slots if r is not None and r.diagnostics]
    result.files.extend(_side_errors(side_errors, project, selection, result))
    return result


def _side_errors(
    errors: dict[str, OSError], project: Project, selection: _Selection, result: RunResult
) -> Iterator[FileResult]:
    """TRV003 for each project file the run needed but could not read (an ignore file,
    a PolyAI prompt or YAML file), once per path, after the files of the run."""
    for polyai in project.polyai_projects.values():
        for path, error in polyai.unreadable:
            errors.setdefault(path, error)
    reported = {f.path for f in result.files}
    for path in sorted(errors):
        if path not in reported:
            found = _io_error(path, errors[path], selection.settings(path), result)
            if found is not None:
                yield found


def _store(
    cache: ResultCache,
    path: str,
    stamp: FileStamp,
    data: bytes,
    settings: Settings,
    digest: str,
    result: FileResult,
) -> None:
    """Remember a checked file's result under its stats, content, settings and facts."""
    cache.store(path, stamp, data, settings.fingerprint(), digest, result.diagnostics, result.deps)


# ------------------------------------------------------------- project index

_INDEXED = ("openai_agents", "openai_chat", "mcp", "pydantic_ai")
"""The frameworks whose rules use the project index (agents; Chat Completions registries;
MCP servers imported from another module)."""


def _extract(path: str, data: bytes, project: Project, screen: bool | None = None) -> ModuleFacts:
    """A file's index facts: parsed only when its bytes can hold a cross-file fact and —
    ``screen`` on (``None``: the engine's default) — its CPython tree a contribution
    (``index_facts.contributes``). A file named by another's facts is extracted with the
    screen off (``ProjectIndex.facts_of``: its facts are wanted, whatever they are)."""
    if not wants_facts(data):
        return EMPTY_FACTS
    from lint_rules.frameworks.index_facts import screened_extract

    return screened_extract(path, data, project, screen=screen)


def _build_index(
    paths: Sequence[Path],
    resolver: SettingsResolver,
    facts: dict[str, ModuleFacts],
    project: Project,
    cache: ResultCache | None,
    *,
    covered: bool = True,
    targets: Iterable[str] | None = None,
) -> ProjectIndex:
    """The index of the project roots of ``paths``: the files checked in this run, plus
    the rest of each root that the given paths do not cover (its files are stat-ed,
    and read only when the cache does not know them). ``covered=False``: ``facts`` holds
    nothing of the run's own files yet, every root is read.

    ``targets``: the run's files, when only their results matter. A file of the rest
    that the cache does not know is then extracted only if it can contribute a fact
    about one of them (``index.Reach``; the files the cache knows count as targets
    too, their bytes being unread); the others are left to ``ProjectIndex.facts_of``,
    which reads a file when a fact names it. A partial run (pre-commit's changed files)
    so parses what its files' facts need, not the whole project."""
    given = [Path(os.path.abspath(p)) for p in paths]
    roots = tuple(dict.fromkeys(project_root([p]) for p in given))
    unknown: dict[str, tuple[FileStamp, str, bytes | None]] = {}
    """Files of the rest the cache does not know: stamp, facts context, bytes (``None``:
    they can hold no fact)."""
    reach = Reach(roots) if targets is not None else None
    for root in roots:
        if covered and any(p == root or p in root.parents for p in given if p.is_dir()):
            continue  # the run itself walks the whole root
        try:
            walked = list(iter_files([root], resolver, force_exclude=True))
        except (OSError, ValueError):
            continue
        for found in walked:
            name = os.path.abspath(found)
            if name in facts:
                continue
            try:
                stamp = FileStamp.of(os.stat(name))
            except OSError:
                continue
            context = project.facts_context(name) if cache is not None else ""
            known = cache.facts(name, stamp, context) if cache is not None else None
            if known is None:
                try:
                    data = read_regular(name)
                except OSError:
                    continue
                if reach is not None:
                    reach.add(name, data)
                unknown[name] = (stamp, context, data if wants_facts(data) else None)
                continue
            facts[name] = ModuleFacts(known)
    wanted = any(held is not None for _, _, held in unknown.values())
    kept = reach.kept([*(targets or ()), *facts]) if reach is not None and wanted else None
    for name, (stamp, context, held) in unknown.items():
        if held is None:
            known = dict(EMPTY_FACTS.data)
        elif kept is None or name in kept:  # its bytes can hold facts (``wants_facts``)
            from lint_rules.frameworks.index_facts import screened_extract

            known = dict(screened_extract(name, held, project).data)
        else:
            continue  # can contribute nothing the run reads: read if a fact names it
        if cache is not None:
            cache.store_facts(name, stamp, known, context)
        facts[name] = ModuleFacts(known)

    def extract_named(path: str, data: bytes) -> ModuleFacts:
        from lint_rules.frameworks.index_facts import extract

        return extract(path, data, project)

    index = ProjectIndex(roots=roots, extract=extract_named)
    for name, module_facts in facts.items():
        index.add(name, module_facts)
    index.finish()
    if cache is not None:
        for name, module_facts in index.extracted.items():
            try:
                stamp = FileStamp.of(os.stat(name))
            except OSError:
                continue
            cache.store_facts(name, stamp, dict(module_facts.data), project.facts_context(name))
    return index


def index_project(
    paths: Sequence[Path], resolver: SettingsResolver, project: Project
) -> ProjectIndex:
    """The project index of ``paths``' roots alone, without checking anything
    (``--show-tool-functions``: a tool registered on a server of another module)."""
    return _build_index(paths, resolver, {}, project, None, covered=False)


def check_stdin(
    data: bytes, filename: str | None, resolver: SettingsResolver, project: Project | None
) -> FileResult:
    """``toolret check -``: the text comes from stdin, the name from ``--stdin-filename``."""
    from lint_rules.engine import check_bytes

    name = os.path.abspath(filename) if filename else "-"
    settings = resolver(Path(filename) if filename else Path.cwd())
    return _with_source(FileResult(name, check_bytes(data, name, settings, project)), data)


# ------------------------------------------------------------------ checking


class Progress(Protocol):
    """Told how many files will be parsed, then sees each result as it arrives (a bar)."""

    def track(self, results: Iterable[FileResult], total: int) -> Iterable[FileResult]: ...


def _check_all(
    pending: list[_Pending], project: Project, jobs: int | None, screen: bool | None
) -> Iterator[FileResult]:
    """Each pending file's result, in order, as soon as it is ready."""
    size = sum(len(item.data) for item in pending)
    with _Workers(jobs, len(pending), size, project.index) as pool:
        yield from pool.map(
            _check_in_worker,
            [(item.path, item.data, item.settings, screen) for item in pending],
            lambda task: _check_one(task[0], task[1], task[2], project, task[3]),
        )


@dataclass
class _SpeculationTask:
    """Pass one's work on a file the cache cannot answer: parse it once, take its index
    facts (``extract``) and check it as if no other file had facts about it."""

    path: str
    data: bytes
    settings: Settings
    keys: tuple[str, ...]
    extract: bool
    screen: bool | None = None


@dataclass
class _Speculation:
    result: FileResult
    digest: str
    """The facts digest the result was computed with (``Project.facts_digest``)."""
    facts: ModuleFacts | None
    """The extracted index facts (when the task asked for them)."""


def _speculate(task: _SpeculationTask, project: Project) -> _Speculation:
    speculation = _speculate_file(task, project)
    _file_done()  # the parsed module is unreachable now
    return speculation


def _speculate_file(task: _SpeculationTask, project: Project) -> _Speculation:
    """Check a file without the project index, and say which facts that result used.

    A file's results depend on other files only through its facts digest:
    every query the rules make of the index is about the file itself and is
    part of the digest, which is empty for a file no other file says anything
    about (the cache relies on the same invariant). When the digest with the
    whole project's index is the one computed here, this result is the
    result, and the file is parsed once in all; otherwise the runner checks it
    again with the index.
    """
    from lint_rules.engine import check_bytes, check_notebook, check_source, source_of
    from lint_rules.notebook import NotebookError

    module = None
    facts: ModuleFacts | None = None
    source = tree = None
    previous = project.index
    project.index = None
    try:
        if task.extract:
            from lint_rules.frameworks.index_facts import extract_parsed, screened_facts

            try:
                source = source_of(task.data, task.path)
            except (SyntaxError, UnicodeDecodeError, LookupError, NotebookError):
                source = None
            if source is not None and _screening(task.screen):
                facts, tree = screened_facts(task.path, task.data, source)
            if facts is None:
                module = _parse_quietly(source, task.path, tree) if source is not None else None
                if module is not None:
                    project.attach(module)
                facts = (
                    extract_parsed(module, task.data, project)
                    if module is not None
                    else EMPTY_FACTS
                )
        if (module is not None or tree is not None) and is_notebook(task.path):
            diagnostics = check_notebook(
                task.data,
                task.path,
                task.settings,
                project,
                parsed=module,
                screen=task.screen,
                tree=tree,
            )
        elif module is not None:  # decoded and parsed already
            diagnostics = check_source(
                module.source, task.path, task.settings, project, parsed=module
            )
        elif tree is not None and source is not None:  # its tree built by the facts' screen
            diagnostics = check_source(
                source, task.path, task.settings, project, screen=task.screen, tree=tree
            )
        else:  # the check decodes, and reports what does not decode or parse
            diagnostics = check_bytes(
                task.data, task.path, task.settings, project, screen=task.screen
            )
        digest = project.facts_digest(task.path, task.keys)
    finally:
        project.index = previous
    result = FileResult(task.path, diagnostics, deps=_deps(project, task.path))
    return _Speculation(_with_source(result, task.data), digest, facts)


def _screening(screen: bool | None) -> bool:
    """Whether the screen is on for a task (``None``: the engine's default)."""
    from lint_rules import engine

    return engine.SCREEN if screen is None else screen


def _parse_quietly(source: str, path: str, tree: Any = None) -> ParsedModule | None:
    """The parsed module, or ``None`` when LibCST cannot parse it (the check reports that);
    ``tree``: CPython's tree of ``source``, when built already."""
    import libcst as cst

    from lint_rules.analysis.module import parse_module

    try:
        return parse_module(source, path, python=tree)
    except (cst.ParserSyntaxError, RecursionError):
        return None


def _speculate_in_worker(task: _SpeculationTask) -> _Speculation:
    return _speculate(task, _worker_project())


def _size(items: Sequence[_Given], pairs: Sequence[tuple[_Given, bytes]]) -> int:
    return sum(len(i.data or b"") for i in items) + sum(len(data) for _, data in pairs)


class _Workers:
    """A process pool for one pass, started on first use and only when the pass has
    enough to parse to pay for it; ``map`` keeps the tasks' order. ``index``: the
    project index the workers check with (``None``: pass one, which needs none)."""

    def __init__(
        self, jobs: int | None, files: int, size: int, index: ProjectIndex | None = None
    ) -> None:
        self._count = _workers_for(files, size, jobs)
        self._jobs = jobs
        self._index = index
        self._pool: Any = None

    def __enter__(self) -> _Workers:
        return self

    def start(self) -> _Workers:
        """Fork the workers now, if the pass is to have any (else at the first ``map``)."""
        if self._count > 1 and self._pool is None:
            self._pool = self._new_pool()
            self._pool.submit(int)  # the pool forks its workers on the first task
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown()

    def settle(self, files: int, size: int) -> _Workers:
        """The pass's real work (``start`` judged by an estimate): too little to pay for
        workers, and the ones started are stopped, never given a task (they would import
        everything a check needs, each); the pass runs here."""
        if _workers_for(files, size, self._jobs) <= 1:
            self.__exit__()
            self._pool, self._count = None, 1
        return self

    def _new_pool(self) -> Any:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # fork shares the already-imported modules; elsewhere the platform default.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        return ProcessPoolExecutor(
            max_workers=self._count,
            mp_context=context,
            initializer=_init_worker,
            initargs=(self._index,),
        )

    def map(
        self, in_worker: Callable[[Any], Any], tasks: list[Any], here: Callable[[Any], Any]
    ) -> Iterator[Any]:
        if self._count <= 1 or not tasks:
            return (here(task) for task in tasks)
        if self._pool is None:
            self._pool = self._new_pool()
        chunk = max(1, len(tasks) // (self._count * 4))
        return iter(self._pool.map(in_worker, tasks, chunksize=chunk))


def _extract_in_worker(task: tuple[str, bytes, bool | None]) -> ModuleFacts:
    facts = _extract(task[0], task[1], _worker_project(), task[2])
    _file_done()
    return facts


def _workers_for(files: int, size: int, jobs: int | None) -> int:
    if jobs is not None:
        return max(1, min(jobs, files))
    if files < PARALLEL_MIN_FILES or size < PARALLEL_MIN_BYTES:
        return 1
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(available or 1, files))


_WORKER_PROJECT: Project | None = None


def _init_worker(index: ProjectIndex | None) -> None:
    """A worker's own project facts, with the parent's whole-project index. The cyclic
    collector is off, as in the passes (``_collect_per_file``): a worker forked before
    a pass began does not inherit that."""
    global _WORKER_PROJECT
    gc.disable()
    _WORKER_PROJECT = Project(revalidate=False, index=index, summaries=_worker_summaries(index))


def _worker_project() -> Project:
    global _WORKER_PROJECT
    if _WORKER_PROJECT is None:  # every pool runs ``_init_worker``; a safety net
        _WORKER_PROJECT = Project(revalidate=False, summaries=SummaryStore())
    return _WORKER_PROJECT


def _worker_summaries(index: ProjectIndex | None) -> SummaryStore:
    """A worker's summaries: its own store (the parent's cannot be shared), or the one
    the worker already has — a pool of the second pass reads what the first one read."""
    previous = _WORKER_PROJECT.summaries if _WORKER_PROJECT is not None else None
    return previous if previous is not None else SummaryStore()


def _check_in_worker(task: tuple[str, bytes, Settings, bool | None]) -> FileResult:
    path, data, settings, screen = task
    return _check_one(path, data, settings, _worker_project(), screen)


def _check_one(
    path: str, data: bytes, settings: Settings, project: Project, screen: bool | None = None
) -> FileResult:
    from lint_rules.engine import check_bytes

    diagnostics = check_bytes(data, path, settings, project, screen=screen)
    _file_done()
    return _with_source(FileResult(path, diagnostics, deps=_deps(project, path)), data)


def _deps(project: Project, path: str) -> dict[str, Stamp]:
    return project.summaries.take_deps(path) if project.summaries is not None else {}


@contextmanager
def _shut_down_on_error(workers: _Workers) -> Iterator[None]:
    """Workers started ahead of their pass are stopped if the run fails before it."""
    try:
        yield
    except BaseException:
        workers.__exit__()
        raise


@contextmanager
def _collect_per_file() -> Iterator[None]:
    """The cyclic garbage collector off for a pass, and a young collection after each file.

    A parse makes several hundred thousand objects, so the collector's
    automatic runs kept re-examining the live tree (~10% of a check). Garbage
    cycles are all made while checking one file, so collecting the youngest
    generation once the file is done (see ``_file_done``) frees them, and the
    memory stays that of one file. Worker processes turn the collector off
    themselves (``_init_worker``); the parent's state is restored at the end.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _file_done() -> None:
    """After a file: free its garbage cycles (call it where the file's module is no
    longer referenced, or its tree survives into a generation never collected)."""
    walk = sys.modules.get("lint_rules.analysis.walk")  # not imported: nothing was parsed
    if walk is not None:
        walk.forget_indexes()
    if not gc.isenabled():
        gc.collect(0)


def _with_source(result: FileResult, data: bytes | None) -> FileResult:
    """Keep the decoded text of a file that reports something (for code frames and fixes),
    when its bytes are in hand; otherwise ``FileResult.text()`` reads them on demand."""
    if result.diagnostics and data is not None:
        result.source = _decoded(data, result.path)
        result._read = True
    return result


def _read_text(path: str) -> str | None:
    try:
        return _decoded(read_regular(path), path)
    except OSError:
        return None


def _decoded(data: bytes, path: str = "") -> str | None:
    """The text the file's diagnostics refer to (a notebook's: the module of its cells)."""
    from lint_rules.engine import source_of
    from lint_rules.notebook import NotebookError

    try:
        return source_of(data, path)
    except (SyntaxError, UnicodeDecodeError, LookupError, NotebookError):
        return None


def _io_error(
    path: str, error: OSError, settings: Settings, result: RunResult
) -> FileResult | None:
    """``TRV003`` for a path that cannot be read (ruff's ``E902``), or, with the code
    deselected for it, a warning: either way the run goes on."""
    reason = error.strerror or str(error)
    if "TRV003" not in settings.enabled_codes_for(Path(path), DEFAULT_ENABLED):
        result.warnings.append(f"Failed to check {path}: {reason}")
        return None
    return _file_level(path, "TRV003", "io-error", f"Cannot read file: {reason}")


def _undecodable(path: str, data: bytes, settings: Settings) -> FileResult | None:
    """``TRV001`` for a path named on the command line that CPython could not decode as
    source (UTF-16, a wrong coding cookie), whatever it mentions; ``None`` when it
    decodes. The message is the engine's for a signalled file that does not decode."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        data.decode("utf-8" if encoding == "utf-8-sig" else encoding)
        return None
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        reason = error.msg if isinstance(error, SyntaxError) else str(error)
    if "TRV001" not in settings.enabled_codes_for(Path(path), DEFAULT_ENABLED):
        return None
    return _file_level(path, "TRV001", "parse-error", f"Cannot decode file: {reason}")


def _file_level(path: str, code: str, name: str, message: str) -> FileResult:
    """One engine error for a whole file, at 1:1 (built here, not by the engine: the
    runner does not import LibCST for files it never parses)."""
    found = FileResult(
        path,
        [
            Diagnostic(
                code=code,
                name=name,
                message=message,
                severity="error",  # type: ignore[arg-type]
                filename=path,
                location=Location(row=1, column=1),
                end_location=Location(row=1, column=1),
            )
        ],
    )
    found._read = True  # nothing to show: never read it for a code frame or a fix
    return found
