"""Text documents: open, change, save, close; their checks, pulled and pushed diagnostics."""

from __future__ import annotations

import asyncio
import copy
import logging
import pickle
import time

from lsprotocol import types

from lint_rules import fixes
from lint_rules.analysis.module import cpython_tree_quietly
from lint_rules.config import CONFIG_FILENAMES, ConfigError
from lint_rules.engine import check_source
from lint_rules.lsp.base import (
    _FACT_SUFFIXES,
    _PYTHON_SUFFIXES,
    _engine_diagnostic,
    _file_name,
    _is_excluded,
    _is_python,
    _path_of,
    _to_lsp,
)
from lint_rules.lsp.indexing import Indexing
from lint_rules.lsp.scheduler import ISOLATE_CHARS, IsolatedError, IsolatedRequest, IsolatedResult
from lint_rules.lsp.state import _Document
from lint_rules.lsp.text import _LineIndex, _source_of
from lint_rules.model import Diagnostic
from lint_rules.rules import ParseError

logger = logging.getLogger(__name__)


class Documents(Indexing):
    """Python text documents, checked on the worker as the CLI checks a file."""

    def _did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        self._documents[uri] = _Document()
        self._schedule(uri, 0.0)

    def _did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        self._schedule(params.text_document.uri, self._debounce_for(params.text_document.uri))

    def _did_save(self, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if _file_name(uri) in CONFIG_FILENAMES:
            self._invalidate(settings=True)
        elif _file_name(uri).endswith(_FACT_SUFFIXES):
            self._invalidate(settings=False)
        elif _file_name(uri).endswith(_PYTHON_SUFFIXES):
            self._spawn(self._reindex([uri]))
        self._schedule(uri, 0.0)

    def _did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        self._spawn(self._release(uri))
        state = self._documents.pop(uri, None)
        if state is not None and state.pending is not None:
            state.pending.cancel()
        self._isolated.cancel(("check", uri))  # nobody wants it checked any more
        if not self.pull_diagnostics:
            self._publish(uri, [], None)

    async def _current(self, uri: str) -> _Document | None:
        """The document's state, checked for its current text (``None``: not Python)."""
        document = self.workspace.get_text_document(uri)
        try:
            source = _source_of(document)
        except Exception:  # not open, and not a file on disk (or no path at all)
            return None
        if not _is_python(document):
            return None
        state = self._documents.get(uri) or _Document()
        generation = self._generation
        if state.source == source and state.generation == generation:
            return state
        self._serial += 1
        serial = self._serial
        started = time.perf_counter()
        found = await self._check_anywhere(uri, source)
        if found is not None:
            state.check_seconds = time.perf_counter() - started
        if found is None:  # a newer text's check (or newer settings') took over: its answer
            return state if self._isolated.closed else await self._current(uri)
        self._recheck_readers(exclude=uri)
        if serial < state.applied_serial:
            return state  # a newer text was checked meanwhile
        state.applied_serial = serial
        state.source, state.version, state.generation = source, document.version, generation
        if any(finding.code == ParseError.code for finding in found):
            state.parsed = False  # keep showing the last good findings
            return state
        state.parsed = True
        index = _LineIndex(source)
        codec = document.position_codec
        state.findings = [(finding, _to_lsp(finding, index, codec)) for finding in found]
        shown = [lsp for _, lsp in state.findings]
        if shown != state.shown or not state.result_id:
            state.shown = shown
            state.result_id = str(serial)
        return state

    async def _check_anywhere(self, uri: str, source: str) -> list[Diagnostic] | None:
        """The check of ``source``: on the worker, or in a child process for a large text
        (``scheduler``); ``None`` when a newer check of ``uri`` took over."""
        if len(source) < ISOLATE_CHARS:
            found: list[Diagnostic] = await self._run(self._check, uri, source)
            return found
        wanted = (source, self._generation)
        running = self._isolating.get(uri)
        if running is None or running[0] != wanted or running[1].done():
            # A newer text (or settings) than the running check's: that one is killed.
            task = asyncio.ensure_future(self._isolated_run(("check", uri), uri, source, "check"))
            running = self._isolating[uri] = (wanted, task)
        # Shared by every caller that wants this text checked (a pull and a code action);
        # a caller that gives up leaves it running for the others.
        result: IsolatedResult | list[Diagnostic] | None = await asyncio.shield(running[1])
        if self._isolating.get(uri) is running:
            del self._isolating[uri]
        if isinstance(result, IsolatedResult):
            self._deps[_path_of(uri)] = result.deps
            return result.diagnostics
        return result

    async def _fix_anywhere(self, uri: str, source: str) -> str:
        """``source`` with every safe fix applied, where :meth:`_check_anywhere` checks it."""
        if len(source) < ISOLATE_CHARS:
            fixed: str = await self._run(self._fix_all, uri, source)
            return fixed
        result = await self._isolated_run(("fix", uri), uri, source, "fix")
        if isinstance(result, IsolatedResult) and result.source is not None:
            return result.source
        return source

    async def _isolated_run(
        self, key: tuple[str, str], uri: str, source: str, kind: str
    ) -> IsolatedResult | list[Diagnostic] | None:
        """A child's answer; the worker's diagnostics when there is nothing to send it (an
        excluded file, a bad config, a failure); ``None`` when superseded."""
        prepared = await self._run(self._isolated_request, uri, source, kind)
        if not isinstance(prepared, bytes):
            return list(prepared)
        try:
            return await self._isolated.run(key, prepared)
        except IsolatedError as error:
            logger.error("Checking %s failed: %s", uri, error)
            return [_engine_diagnostic(_path_of(uri), f"Internal error in toolret: {error}")]

    def _isolated_request(self, uri: str, source: str, kind: str) -> bytes | list[Diagnostic]:
        """Runs on the worker thread: the pickled request for a child process, with this
        path's settings and the project index as they are now; or the diagnostics to
        show instead (none for an excluded file, the error of a bad config)."""
        path = _path_of(uri)
        try:
            settings = self._settings_for(path)
            if path and _is_excluded(path, self._resolver):
                return []
            index = self._project.index
            if index is not None:  # its extractor is this process's: the child sets its own
                index = copy.copy(index)
                index.extract = None
            return pickle.dumps(IsolatedRequest(kind, path, source, settings, index))
        except ConfigError as error:
            return [_engine_diagnostic(path, error.summary)]
        except Exception as error:
            logger.exception("Preparing the check of %s failed", uri)
            return [_engine_diagnostic(path, f"Internal error in toolret: {error!r}")]

    def _check(self, uri: str, source: str) -> list[Diagnostic]:
        """Runs on the worker thread: settings, exclusion, the engine; never raises."""
        path = _path_of(uri)
        try:
            settings = self._settings_for(path)
            if path and _is_excluded(path, self._resolver):
                return []
            self._summaries.refresh()
            adopted = self._summaries.adoptions.get(path)
            found = check_source(source, path, settings, self._project)
            if path and self._summaries.adoptions.get(path) == adopted:
                # No family parsed it (no signal): other modules still see this text.
                self._summaries.adopt(path, cpython_tree_quietly(source))
            self._deps[path] = frozenset(self._summaries.take_deps(path))
            self._replaced |= self._summaries.changed
            self._summaries.changed.clear()
            return fixes.without_unfixable(settings, found)  # ``unfixable``: no quick fix
        except ConfigError as error:
            return [_engine_diagnostic(path, error.summary)]
        except Exception as error:
            logger.exception("Checking %s failed", uri)
            return [_engine_diagnostic(path, f"Internal error in toolret: {error!r}")]

    def _fix_all(self, uri: str, source: str) -> str:
        """Runs on the worker thread: ``source`` with every safe fix applied."""
        path = _path_of(uri)
        try:
            settings = self._settings_for(path)

            def check(text: str) -> list[Diagnostic]:
                found = check_source(text, path, settings, self._project)
                return fixes.without_unfixable(settings, found)

            return fixes.fix_source(source, check).source
        except Exception:
            logger.exception("Fixing %s failed", uri)
            return source

    def _schedule(self, uri: str, delay: float) -> None:
        """Push mode: check ``uri`` after ``delay`` seconds of quiet, then publish."""
        state = self._documents.get(uri)
        if self.pull_diagnostics or state is None:
            return
        if state.pending is not None:
            state.pending.cancel()
        state.pending = asyncio.get_running_loop().create_task(self._publish_later(uri, delay))

    async def _publish_later(self, uri: str, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            state = await self._current(uri)
            if state is not None and self._documents.get(uri) is state:
                self._publish(uri, state.shown, state.version)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Publishing diagnostics for %s failed", uri)
