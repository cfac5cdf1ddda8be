"""The result cache, like ruff's: a second run on an unchanged tree only stats files.

One JSON file per toolret version under ``.toolret_cache/`` maps each checked
file's absolute path to what decided its result — its stats (size, mtime,
inode), a content hash as the fallback check, the fingerprint of the
settings that governed it and a digest of the cross-file facts its result
used (a PolyAI project's prompt references, the ``Agent(...)`` of another
file that uses a behaviour function) — and the diagnostics. A second table
keeps each file's *index facts* (what whole-project mode extracts from it,
valid while its stats are unchanged), so building the project index on a
warm run reads no file either.

Concurrent runs are safe: the file is read once at the start and, at the end,
re-read, merged with this run's entries and replaced atomically (a temporary
file in the same directory + ``os.replace``), so a reader sees either the old
or the new complete file and no run's entries are lost to another's.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lint_rules import __version__
from lint_rules.fileio import read_regular
from lint_rules.model import Diagnostic

CACHE_DIR_NAME = ".toolret_cache"
_FORMAT = 5


@dataclass(frozen=True)
class FileStamp:
    size: int
    mtime_ns: int
    inode: int

    @classmethod
    def of(cls, stat: os.stat_result) -> FileStamp:
        return cls(stat.st_size, stat.st_mtime_ns, stat.st_ino)


@dataclass
class CacheEntry:
    stamp: FileStamp
    digest: str
    settings: str
    facts: str
    diagnostics: list[dict[str, Any]]
    deps: dict[str, Any] = field(default_factory=dict)
    """The other modules whose summaries the result read (or looked for): path → stamp
    ``[size, mtime_ns, inode]`` then, ``None`` if it was absent."""
    decoded: list[Diagnostic] | None = field(default=None, compare=False, repr=False)
    """``diagnostics`` as values, once ``valid_entry`` has decoded them."""

    def to_json(self) -> list[Any]:
        s = self.stamp
        return [
            s.size,
            s.mtime_ns,
            s.inode,
            self.digest,
            self.settings,
            self.facts,
            self.diagnostics,
            self.deps,
        ]

    @classmethod
    def from_json(cls, raw: list[Any]) -> CacheEntry:
        size, mtime_ns, inode, digest, settings, facts, diagnostics, deps = raw
        if not isinstance(deps, dict):
            raise TypeError("malformed dependencies")
        return cls(FileStamp(size, mtime_ns, inode), digest, settings, facts, diagnostics, deps)

    def deps_current(self) -> bool:
        """Whether every module the result read still has the stamp it had."""
        from lint_rules.analysis.summaries import stamps_current

        return stamps_current(self.deps)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _decode(diagnostics: list[Any]) -> list[Diagnostic] | None:
    """The stored diagnostics as values, or ``None`` when an entry is malformed (a miss)."""
    try:
        return [Diagnostic.from_json(d) for d in diagnostics]
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError):
        return None


def _serialise(entries: dict[str, CacheEntry], facts: dict[str, list[Any]]) -> str:
    return json.dumps(
        {"files": {path: entry.to_json() for path, entry in entries.items()}, "facts": facts},
        separators=(",", ":"),
    )


def content_digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class ResultCache:
    """Cached results of one cache directory; ``lookup`` / ``store`` then ``save``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / f"v{__version__}-{_FORMAT}.json"
        self._seen: FileStamp | None = None
        """The cache file's stats when it was read: unchanged at ``save``, nobody wrote it
        since, and it need not be read again to merge."""
        self._entries, self._facts = self._read()
        self._updates: dict[str, CacheEntry] = {}
        self._facts_updates: dict[str, list[Any]] = {}

    def _read(self) -> tuple[dict[str, CacheEntry], dict[str, list[Any]]]:
        self._seen = self._stamp()
        try:
            raw = json.loads(read_regular(self.path).decode("utf-8"))
            entries = {path: CacheEntry.from_json(entry) for path, entry in raw["files"].items()}
            facts = {path: entry for path, entry in raw["facts"].items() if len(entry) == 5}
            return entries, facts
        except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
            # absent, written by something else, or nested deeper than the JSON reader
            # recurses: start afresh (the next save replaces it)
            return {}, {}

    def _stamp(self) -> FileStamp | None:
        try:
            return FileStamp.of(os.stat(self.path))
        except OSError:
            return None

    def entry(self, path: str) -> CacheEntry | None:
        return self._entries.get(path)

    def lookup(
        self,
        path: str,
        stamp: FileStamp,
        settings: str,
        facts: str,
        read: Any = None,
    ) -> list[Diagnostic] | None:
        """The cached diagnostics if still valid, else ``None``.

        Valid when settings and facts match and either the stats are unchanged
        or, when they changed, ``read()`` (the file's bytes) hashes the same.
        """
        entry = self._entries.get(path)
        if entry is None or entry.settings != settings or entry.facts != facts:
            return None
        if not entry.deps_current():
            return None
        if entry.stamp != stamp:
            if read is None or entry.stamp.size != stamp.size:
                return None
            data = read()
            if data is None or content_digest(data) != entry.digest:
                return None
        decoded = _decode(entry.diagnostics)
        if decoded is None:
            return None
        if entry.stamp != stamp:
            self._updates[path] = CacheEntry(
                stamp, entry.digest, settings, facts, entry.diagnostics, entry.deps
            )
        return decoded

    def store(
        self,
        path: str,
        stamp: FileStamp,
        data: bytes,
        settings: str,
        facts: str,
        diagnostics: list[Diagnostic],
        deps: dict[str, Any] | None = None,
    ) -> None:
        self._updates[path] = CacheEntry(
            stamp,
            content_digest(data),
            settings,
            facts,
            [d.to_json() for d in diagnostics],
            {p: None if s is None else list(s) for p, s in (deps or {}).items()},
        )

    def valid_entry(
        self, path: str, stamp: FileStamp, settings: str, data: bytes | None = None
    ) -> CacheEntry | None:
        """The entry for ``path`` if its settings match and its stats do — or, given the
        bytes, its content does. The facts digest is compared later (see ``use``)."""
        entry = self._entries.get(path)
        if entry is None or entry.settings != settings:
            return None
        if entry.deps and not entry.deps_current():
            return None  # a module it read summaries of changed, appeared or went
        if entry.stamp != stamp and (
            data is None or entry.stamp.size != stamp.size or content_digest(data) != entry.digest
        ):
            return None
        if entry.decoded is None:
            entry.decoded = _decode(entry.diagnostics)
            if entry.decoded is None:
                return None  # malformed: checked afresh, and the entry replaced
        return entry

    def use(self, path: str, entry: CacheEntry, stamp: FileStamp) -> list[Diagnostic]:
        """The diagnostics of a valid entry; new stats are remembered for the next run."""
        if entry.stamp != stamp:
            self._updates[path] = CacheEntry(
                stamp, entry.digest, entry.settings, entry.facts, entry.diagnostics, entry.deps
            )
        decoded = entry.decoded if entry.decoded is not None else _decode(entry.diagnostics)
        if decoded is None:
            raise ValueError(f"malformed cache entry for {path}")  # valid_entry rejects these
        return list(decoded)

    def store_empty(
        self, path: str, stamp: FileStamp, settings: str, facts: str, digest: str
    ) -> None:
        """Remember that a file without any signal (content hash ``digest``) reports nothing."""
        self._updates[path] = CacheEntry(stamp, digest, settings, facts, [])

    def facts(self, path: str, stamp: FileStamp, context: str = "") -> dict[str, Any] | None:
        """The index facts stored for ``path`` if its stats are unchanged and they were
        extracted in the same ``context`` (``Project.facts_context``: whether a
        first-party package shadows a framework there), else ``None``."""
        entry = self._facts_updates.get(path) or self._facts.get(path)
        if entry is None or entry[:3] != [stamp.size, stamp.mtime_ns, stamp.inode]:
            return None
        if entry[4:] != [context]:
            return None  # a shadowing package appeared or went, or the project's metadata changed
        facts = entry[3]
        return facts if isinstance(facts, dict) else None

    def store_facts(
        self, path: str, stamp: FileStamp, facts: dict[str, Any], context: str = ""
    ) -> None:
        self._facts_updates[path] = [stamp.size, stamp.mtime_ns, stamp.inode, facts, context]

    def save(self) -> None:
        """Merge this run's entries into the file on disk, atomically. Never raises."""
        if not self._updates and not self._facts_updates:
            return
        with contextlib.suppress(OSError):
            self.directory.mkdir(parents=True, exist_ok=True)
            gitignore = self.directory / ".gitignore"
            if not gitignore.exists():
                gitignore.write_text("# Automatically created by toolret.\n*\n", encoding="utf-8")
            seen = self._seen
            if seen is not None and seen == self._stamp():  # nobody wrote it since
                merged, merged_facts = dict(self._entries), dict(self._facts)
            else:
                merged, merged_facts = self._read()  # another run may have written since
            merged.update(self._updates)
            merged_facts.update(self._facts_updates)
            try:
                payload = _serialise(merged, merged_facts)
            except (RecursionError, ValueError, TypeError):
                # what another writer left cannot be written back: keep this run's alone
                merged, merged_facts = dict(self._updates), dict(self._facts_updates)
                payload = _serialise(merged, merged_facts)
            fd, temporary = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    handle.write(payload)
                os.chmod(temporary, 0o666 & ~_umask())  # mkstemp creates it 0600
                os.replace(temporary, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
            self._entries, self._facts = merged, merged_facts
            self._updates, self._facts_updates = {}, {}
            self._seen = self._stamp()
