"""The project index of the workspace folders: built in slices, then kept up to date per file."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path

from lint_rules.analysis.index import ProjectIndex
from lint_rules.config import CONFIG_FILENAMES, ConfigError
from lint_rules.discovery import DiscoveryError, discover
from lint_rules.fileio import read_regular
from lint_rules.lsp.base import (
    _FACT_SUFFIXES,
    _PYTHON_SUFFIXES,
    ServerBase,
    _file_name,
    _module_facts,
    _path_of,
)

logger = logging.getLogger(__name__)

_INDEX_LIMIT = 50_000
"""Files indexed per workspace folder at most (a home directory opened as a workspace)."""
_INDEX_SLICE = 0.05
"""Seconds of indexing the worker does at a time: a check waits for one slice at most."""


class Indexing(ServerBase):
    """The project index (``ProjectIndex``) and the summaries other modules read."""

    def _did_change_watched_files(self, params: types.DidChangeWatchedFilesParams) -> None:
        names = [_file_name(change.uri) for change in params.changes]
        if any(name in CONFIG_FILENAMES for name in names):
            self._invalidate(settings=True)
        elif any(name.endswith(_FACT_SUFFIXES) for name in names):
            self._invalidate(settings=False)
        python = [c.uri for c in params.changes if _file_name(c.uri).endswith(_PYTHON_SUFFIXES)]
        if python:
            self._spawn(self._reindex(python))

    def _did_change_folders(self, params: types.DidChangeWorkspaceFoldersParams) -> None:
        self._spawn(self._index_workspace())  # pygls has updated ``workspace.folders``

    async def _index_workspace(self) -> None:
        self._build += 1
        build = self._build
        try:
            folders = [to_fs_path(f.uri) for f in self.workspace.folders.values()]
            roots = tuple(
                [Path(f) for f in folders if f]
                or ([Path(self.workspace.root_path)] if self.workspace.root_path else [])
            )
            first = self._project.index is None
            files = await self._run(self._start_build, roots)
            while True:
                await self._checks_first()
                if build != self._build:
                    return  # a newer build (workspace folders changed) took over
                if await self._run(self._index_slice, files):
                    break
            if await self._run(self._finish_build, roots) or (first and self._documents):
                # The open documents were checked without the index so far: again with it.
                self._invalidate(settings=False, delay=0.0)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Indexing the workspace failed")
            if build == self._build:
                self._indexing = False

    async def _checks_first(self) -> None:
        """Wait for the first check of the documents opened meanwhile (push mode): their
        same-file diagnostics are published before the next slice of indexing."""
        waiting = [
            state.pending
            for state in self._documents.values()
            if state.source is None and state.pending is not None and not state.pending.done()
        ]
        if waiting:
            await asyncio.wait(waiting)

    async def _reindex(self, uris: list[str]) -> None:
        try:
            paths = [path for path in map(_path_of, uris) if path]
            if not paths:
                return
            open_paths = {uri: _path_of(uri) for uri in self._documents}
            changed = await self._run(self._update_index, paths, set(open_paths.values()))
            stale = [uri for uri, path in open_paths.items() if path in changed]
            if stale:
                self._invalidate(settings=False, uris=stale)
            await self._run(self._forget_summaries, paths)
            self._recheck_readers()
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Updating the project index failed")

    def _start_build(self, roots: tuple[Path, ...]) -> Iterator[str]:
        """Worker thread: begin indexing ``roots``; the files to read, for :meth:`_index_slice`."""
        self._indexing = True
        for path in list(self._facts):  # a folder was removed from the workspace
            if not any(root in Path(path).parents for root in roots):
                del self._facts[path]
        return self._index_files(roots)

    def _index_files(self, roots: tuple[Path, ...]) -> Iterator[str]:
        """Every Python file of ``roots`` (discovered lazily, on the worker thread)."""
        for root in roots:
            try:
                files = discover([root], settings_for=self._resolver, force_exclude=True)
                for count, found in enumerate(files):
                    if count == _INDEX_LIMIT:
                        logger.warning("Indexed the first %d files of %s only", count, root)
                        break
                    yield os.path.abspath(found)
            except (OSError, ValueError, DiscoveryError, ConfigError):
                logger.warning("Could not index %s", root, exc_info=True)

    def _index_slice(self, files: Iterator[str]) -> bool:
        """Worker thread: read facts for :data:`_INDEX_SLICE` seconds; whether all are read."""
        deadline = time.monotonic() + _INDEX_SLICE
        for path in files:
            try:
                self._read_facts(path)
            except (OSError, ValueError, DiscoveryError, ConfigError):
                logger.warning("Could not index %s", path, exc_info=True)
            if time.monotonic() >= deadline:
                return False
        return True

    def _finish_build(self, roots: tuple[Path, ...]) -> bool:
        """Worker thread: derive the index of ``roots``; whether facts were found."""
        self._index_roots = roots
        self._indexing = False
        return self._rebuild_index()

    def _forget_summaries(self, paths: list[str]) -> None:
        """Worker thread: files changed on disk; their summaries are read again."""
        self._summaries.refresh()
        self._replaced |= self._summaries.changed | set(paths)
        self._summaries.changed.clear()

    def _update_index(self, paths: list[str], open_paths: set[str]) -> set[str]:
        """Worker thread: re-read the facts of ``paths`` and update the index with those
        that changed (only what they can affect is derived again); the ``open_paths``
        whose view of the index (:meth:`ProjectIndex.view`) changed."""
        if self._indexing:  # the build's end derives the index from these facts too
            for path in paths:
                self._read_facts(path)
            return set()
        if not self._index_roots:
            return set()
        index = self._project.index
        if index is None:  # the build failed: try again from the facts read
            for path in paths:
                self._read_facts(path)
            return open_paths if self._rebuild_index() else set()
        views = {path: index.view(path) for path in open_paths if path}
        for path in paths:
            before = self._facts.get(path)
            self._read_facts(path)
            after = self._facts.get(path)
            if after is not before:  # created, deleted or changed on disk
                index.update(path, None if after is None else after[1])
        return {path for path, view in views.items() if index.view(path) != view}

    async def _release(self, uri: str) -> None:
        """A closed document is what its file says again: for the modules that read it."""
        path = _path_of(uri)
        if path:
            await self._run(self._release_summary, path)
            self._recheck_readers()

    def _release_summary(self, path: str) -> None:
        self._summaries.release(path)
        self._deps.pop(path, None)
        self._replaced |= self._summaries.changed
        self._summaries.changed.clear()

    def _recheck_readers(self, exclude: str | None = None) -> None:
        """Check again the open documents whose last check read the summary of a module
        that a check, a closed buffer or a change on disk has replaced since."""
        replaced, self._replaced = self._replaced, set()
        if not replaced:
            return
        stale = [
            uri
            for uri in self._documents
            if uri != exclude and self._deps.get(_path_of(uri), frozenset()) & replaced
        ]
        if stale:
            self._invalidate(settings=False, uris=stale)

    def _read_facts(self, path: str) -> None:
        try:
            st = os.stat(path)
            stamp = (st.st_mtime_ns, st.st_size)
            known = self._facts.get(path)
            if known is not None and known[0] == stamp:
                return
            data = read_regular(path)  # a FIFO or device named *.py never blocks the server
        except OSError:  # deleted, or unreadable: no facts
            self._facts.pop(path, None)
            return
        self._facts[path] = (stamp, _module_facts(path, data, self._project))

    def _rebuild_index(self) -> bool:
        """Derive the index from the facts read; whether any file names another."""
        index = ProjectIndex(
            roots=self._index_roots,
            # A file a fact names is parsed in full, whatever its bytes hold.
            extract=lambda path, data: _module_facts(path, data, self._project, named=True),
        )
        for path, (_, facts) in self._facts.items():
            index.add(path, facts)
        index.finish()
        for path, facts in index.extracted.items():  # named: kept, as the check's cache does
            try:
                st = os.stat(path)
            except OSError:
                continue
            self._facts[path] = ((st.st_mtime_ns, st.st_size), facts)
        had_facts = self._project.index is not None and self._project.index.has_cross_facts
        self._project.index = index
        return index.has_cross_facts or had_facts
